"""Svenska Mästarpoäng 2009: the federation's bookkeeping -- fees and sanctions.

Document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*, Rev 1.1
(MME 090427), Förbundet Svensk Bridge (``docs/sources/000_b38bcd2d61619209.txt``).

Sections implemented here (plain functions):

- 3 (Avgifter): :func:`sessions`, :func:`fee`, :func:`manual_report_fee`;
- 4 (Tävlingsbestämmelser): :func:`silver_events_allowed` and :func:`silver_season_violations`
  (a club's silver events per season, at most three per 'club' on weekdays),
  :func:`bridge_week_violations`;
- 5 (Tävlingarna, the page 4 table): :func:`silver_sanction_violations`,
  :func:`gold_sanction_violations`, :func:`rally_violations` (at least six silver events, no April or
  October silver);
- 9, "Bonus för DM-finaler": :func:`dm_pairs_bonus_violations` (closed and open DM pairs, 50 %).

Every function raises :class:`~xlbridge.rules.base.RuleError` with the rule and
the value for input that makes no sense; a check returns what it finds as coded
problems (:class:`~xlbridge.rules.problems.Problem`: a code, the argument it
concerns, a message; an empty list: the rules are kept).

References:
    Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
    Rev 1.1 (MME 090427), sections 3, 4, 5 (page 4) and 9 (page 15); ``xlbridge/rules/data/se_fees.csv``,
    ``se_silver_minima.csv``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from fractions import Fraction
from functools import cache

from xlbridge.rules.base import RuleError, load_table
from xlbridge.rules.problems import N_plural, Problem
from xlbridge.rules.se_fsb.bronze import dm_pairs_bonus_eligible
from xlbridge.rules.se_fsb.helpers import amount, level_of

# --------------------------------------------------------------------------- section 3


@cache
def _fees() -> dict[tuple[str, str], float]:
    return {(r["level"], r["kind"]): float(r["kr"]) for r in load_table("se_fees")}


def sessions(level: str, kind: str, boards: int, *, series: bool = False) -> float:
    """'Speltillfälle' (section 3): how many sessions one event or match counts as.

    Pairs: bronze -- at least 18 boards 1, fewer 1/2 (each evening of a multi-evening
    event separately); silver and gold events 1.  Teams: a match of at least 24 boards 1,
    12-23 boards 1/2, 6-11 boards in a series or cup 1/4; a gold event 1.

    >>> sessions("bronze", "pairs", 24), sessions("bronze", "pairs", 16), sessions("silver", "teams", 8, series=True)
    (1.0, 0.5, 0.25)
    """
    rule = "sessions"
    level = level_of(rule, level)
    if kind not in ("pairs", "teams", "barometer"):
        raise _kind_problem(rule, kind)
    if boards < 1:
        raise RuleError("se.sessions.boards", "{rule}: boards must be at least 1; got {value}",
                        rule=rule, argument="boards", value=boards)
    if kind == "barometer" or level == "gold":
        return 1.0  # 'En lagbarometer räknas som ett speltillfälle', 'En guldtävling är ett speltillfälle'
    if kind == "pairs":
        if level == "silver":
            return 1.0
        return 1.0 if boards >= 18 else 0.5
    if boards >= 24:
        return 1.0
    if boards >= 12:
        return 0.5
    if boards >= 6 and series:
        return 0.25
    raise RuleError("se.sessions.no-session",
                    "{rule}: a team match of {value} boards is no session (6-11 boards only in a series or cup)",
                    rule=rule, argument="boards", value=boards)


def fee(level: str, kind: str, players: int, session_count: float = 1.0) -> float:
    """Club fee in kronor: players x sessions x the rate of section 3.

    >>> fee("silver", "pairs", 40), fee("silver", "teams", 24, 0.5), fee("silver", "barometer", 32)
    (200.0, 36.0, 160.0)
    """
    rule = "fee"
    level = level_of(rule, level)
    if kind not in ("pairs", "teams", "barometer"):
        raise _kind_problem(rule, kind)
    if kind == "barometer" and level != "silver":
        kind = "teams" if level == "gold" else "pairs"
    if players < 0 or session_count < 0:
        raise RuleError("se.fee.negative", "{rule}: players and sessions must not be negative; got {players}, {sessions}",
                        rule=rule, argument="players" if players < 0 else "session_count", players=players,
                        sessions=session_count)
    return round(_fees()[(level, kind)] * players * session_count, 2)


def manual_report_fee(bp=0, sp=0, gp=0) -> float:
    """Odd event forms reported by hand: 0.50 kr per bp, 1 kr per sp, 20 kr per gp.

    >>> manual_report_fee(bp=100, sp=10, gp=1)
    80.0
    """
    f = _fees()
    rule = "manual_report_fee"
    return float(amount(rule, "bp", bp) * Fraction(str(f[("bronze", "manual_per_point")]))
                 + amount(rule, "sp", sp) * Fraction(str(f[("silver", "manual_per_point")]))
                 + amount(rule, "gp", gp) * Fraction(str(f[("gold", "manual_per_point")])))


def _kind_problem(rule: str, kind: str) -> RuleError:
    return RuleError("se.kind.unknown", "{rule}: kind must be pairs, teams or barometer; got {value!r}",
                     rule=rule, argument="kind", value=kind)


# --------------------------------------------------------------------------- sections 4-5


@cache
def _minima() -> dict[str, dict[str, str]]:
    return {r["kind"]: r for r in load_table("se_silver_minima")}


def club_weight(members: int) -> int:
    """'Klubb med 100-199 medlemmar räknas som två klubbar och 200 och fler som tre klubbar.'"""
    return 1 if members < 100 else 2 if members < 200 else 3


def _members(rule: str, members: int) -> int:
    if members < 0:
        raise RuleError("se.sanction.members", "{rule}: members must not be negative; got {value}",
                        rule=rule, argument="members", value=members)
    return members


def silver_events_allowed(members: int) -> int:
    """Silver events a club may be sanctioned per season: five per 'club' (100-199 members two clubs,
    200+ three); of them at most three per 'club' on weekdays (:func:`silver_season_violations`).

    >>> silver_events_allowed(80), silver_events_allowed(150), silver_events_allowed(250)
    (5, 10, 15)
    """
    return 5 * club_weight(_members("silver_events_allowed", members))


def silver_sanction_violations(kind: str, units: int, boards: int, participants: Mapping[str, int] | None = None,
                               members: Mapping[str, int] | None = None, championship: bool = False) -> list[Problem]:
    """Why an event may not carry silver status: one coded :class:`Problem` per rule it breaks (an empty
    list: it may).

    ``kind``: pairs, teams, barometer or individual; ``units`` pairs/teams/players;
    ``participants``: players per club; ``members``: club sizes (for the 100/200 rules).

    >>> [(p.code, str(p)) for p in silver_sanction_violations("pairs", 14, 40)]  # doctest: +NORMALIZE_WHITESPACE
    [('se.sanction.silver-field', 'pairs: silver needs a field of at least 16; got 14'),
     ('se.sanction.half-scale', 'pairs: 36-41 boards are played on half the silver scale; got 40')]
    """
    rule = kind
    if kind not in ("pairs", "teams", "barometer", "individual"):
        raise RuleError("se.kind.unknown",
                        "silver_sanction_violations: kind must be pairs, teams, barometer or individual; got {value!r}",
                        argument="kind", value=kind)
    row = _minima()["championship" if championship and kind == "pairs" else kind]
    out: list[Problem] = []
    if units < int(row["min_units"]):
        out.append(Problem("se.sanction.silver-field", "{rule}: silver needs a field of at least {minimum}; got {value}",
                           rule=rule, argument="units", minimum=int(row["min_units"]), value=units))
    half = int(row["half_scale_from"]) if row["half_scale_from"] else None
    if boards < int(row["min_boards"]):
        if half and boards >= half:
            out.append(Problem("se.sanction.half-scale",
                               "{rule}: {low}-{high} boards are played on half the silver scale; got {value}",
                               rule=rule, argument="boards", low=half, high=int(row["min_boards"]) - 1, value=boards))
        else:
            out.append(Problem("se.sanction.silver-boards", "{rule}: at least {minimum} boards needed for silver; got {value}",
                               rule=rule, argument="boards", minimum=int(row["min_boards"]), value=boards))
    if participants:
        out += _club_violations(rule, kind, participants, members or {}, championship)
    return out


def _club_violations(rule: str, kind: str, participants: Mapping[str, int], members: Mapping[str, int],
                     championship: bool) -> list[Problem]:
    """Section 5's club rules for silver: five clubs and the 50/70/90 % limits (pairs, individual), two clubs
    and 20 % from other clubs (teams); a club of 100-199 members counts as two clubs, 200+ as three."""
    out: list[Problem] = []
    total = sum(participants.values())
    weights = {club: club_weight(members.get(club, 0)) for club in participants}
    clubs = sum(weights.values())
    if kind in ("pairs", "individual"):
        if clubs < 5:
            out.append(Problem("se.sanction.five-clubs", "{rule}: participants from at least five clubs needed for "
                               "silver; got {value}", rule=rule, argument="participants", value=clubs))
        if not championship and total:
            # a club counting as w clubs is split into w equal parts
            parts = sorted((n / weights[c] for c, n in participants.items() for _ in range(weights[c])), reverse=True)
            for k, limit in ((1, 50), (2, 70), (3, 90)):
                share = 100 * sum(parts[:k]) / total
                if share > limit + 1e-9:
                    out.append(Problem("se.sanction.club-share", N_plural(
                        "{rule}: the biggest club holds {share:.1f} % of the participants; at most {limit} % allowed",
                        "{rule}: the {count} biggest clubs hold {share:.1f} % of the participants; at most {limit} % "
                        "allowed"), rule=rule, argument="participants", count=k, share=share, limit=limit))
        return out
    if clubs < 2:
        out.append(Problem("se.sanction.team-clubs", "{rule}: a team event with silver needs two clubs (a club of 100+ "
                           "members counts as two); got {value}", rule=rule, argument="participants", value=clubs))
    if not championship and total:
        biggest = max(participants, key=participants.get)
        others = 100 * (total - participants[biggest]) / total
        if weights[biggest] == 1 and others < 20 - 1e-9:
            out.append(Problem("se.sanction.other-clubs", "{rule}: a club under 100 members needs at least 20 % from "
                               "other clubs; got {share:.1f} %", rule=rule, argument="participants", share=others))
    return out


def gold_sanction_violations(kind: str, units: int, boards: int) -> list[Problem]:
    """Why an event may not carry gold status: at least 28 pairs/players and 54 boards, 57 boards from
    32 pairs/players (three gold places), at least 16 teams.

    >>> [str(p) for p in gold_sanction_violations("pairs", 34, 54)]
    ['pairs: a field of 32 or more must play at least 57 boards; got 54']
    """
    if kind not in ("pairs", "individual", "teams"):
        raise RuleError("se.kind.unknown", "gold_sanction_violations: kind must be pairs, individual or teams; got {value!r}",
                        argument="kind", value=kind)
    minimum = 16 if kind == "teams" else 28
    out: list[Problem] = []
    if units < minimum:
        out.append(Problem("se.sanction.gold-field", "{rule}: gold needs a field of at least {minimum}; got {value}",
                           rule=kind, argument="units", minimum=minimum, value=units))
    if kind == "teams":
        return out
    if boards < 54:
        out.append(Problem("se.sanction.gold-boards", "{rule}: at least {minimum} boards needed for gold; got {value}",
                           rule=kind, argument="boards", minimum=54, value=boards))
    elif units >= 32 and boards < 57:
        out.append(Problem("se.sanction.gold-boards-32", "{rule}: a field of 32 or more must play at least 57 boards; "
                           "got {value}", rule=kind, argument="boards", value=boards))
    return out


def silver_season_violations(members: int, days: Iterable[date], holidays: Iterable[date] = ()) -> list[Problem]:
    """Section 4: 'En klubb med färre än 100 medlemmar kan få sanktion för högst fem silvertävlingar per
    spelår, varav högst tre på vardagar. Klubb med 100-199 medlemmar räknas som två klubbar (10
    silvertävlingar) och 200 eller fler som tre klubbar (15).'

    ``days``: the day of each silver event the club is sanctioned for in one season (the document does
    not say when its season starts: the caller chooses the events).  A weekday ('vardag') is Monday to
    Friday, except the ``holidays`` given (the document names no calendar).  A club that counts as two
    or three clubs counts so for both limits: 10 events of which 6 on weekdays, 15 of which 9.

    >>> week = [date(2024, 9, day) for day in (2, 3, 4, 5, 7)]  # Monday to Thursday and a Saturday
    >>> [p.code for p in silver_season_violations(80, week)], silver_season_violations(150, week)
    (['se.sanction.season-weekdays'], [])
    """
    rule = "silver_season_violations"
    weight = club_weight(_members(rule, members))
    dated = [_day(rule, "days", day) for day in days]
    off = {_day(rule, "holidays", day) for day in holidays}
    weekdays = sorted(day for day in dated if day.weekday() < 5 and day not in off)
    out: list[Problem] = []
    if len(dated) > 5 * weight:
        out.append(Problem("se.sanction.season-events", "season: a club of {members} members may be sanctioned for "
                           "at most {most} silver events; got {value}", argument="days", members=members,
                           most=5 * weight, value=len(dated)))
    if len(weekdays) > 3 * weight:
        out.append(Problem("se.sanction.season-weekdays", "season: a club of {members} members may play at most "
                           "{most} of its silver events on weekdays; got {value} ({days})", argument="days",
                           members=members, most=3 * weight, value=len(weekdays),
                           days=", ".join(day.isoformat() for day in weekdays)))
    return out


def _day(rule: str, name: str, value: object) -> date:
    if not isinstance(value, date):
        raise RuleError("se.sanction.date", "{rule}: each of {argument} must be a date; got {value!r}",
                        rule=rule, argument=name, value=value)
    return value.date() if isinstance(value, datetime) else value


def bridge_week_violations(silver: int, gold: int = 0) -> list[Problem]:
    """Section 4: 'Vid bridgeveckor får arrangör spela högst två silvertävlingar eller en guld och en
    silvertävling.' -- an organiser's bridge week holds at most two silver events, or one gold and one
    silver event (so one gold event alone, never two).

    >>> bridge_week_violations(2), bridge_week_violations(1, 1), len(bridge_week_violations(2, 1))
    ([], [], 1)
    """
    rule = "bridge_week_violations"
    silver, gold = _whole(rule, "silver", silver), _whole(rule, "gold", gold)
    if (gold == 0 and silver <= 2) or (gold == 1 and silver <= 1):
        return []
    return [Problem("se.sanction.bridge-week", "bridge week: an organiser may play at most two silver events, or one "
                    "gold and one silver event; got {silver} silver and {gold} gold", argument="silver" if gold == 0
                    else "gold", silver=silver, gold=gold)]


def _whole(rule: str, name: str, value: object) -> int:
    number = amount(rule, name, value)
    if number.denominator != 1:
        raise RuleError("se.number.not-whole", "{rule}: {argument} must be a whole number; got {value!r}",
                        rule=rule, argument=name, value=value)
    return int(number)


def dm_pairs_bonus_violations(played: float, total: float, in_district: Sequence[bool] = (True, True),
                              open_dm: bool = False) -> list[Problem]:
    """Why a pair does not get the bonus of a DM pairs final (page 15): 'I ett slutet DM-par får bara äkta
    distriktspar (där båda spelarna respresenterar klubbar inom distriktet) bonus. I ett öppet DM-par
    utdelas bonus. Om inget sägs om att DM (par) är slutet eller öppet, är det slutet.' and 'I partävling
    måste man ha deltagit i minst 50 % av tävlingen för att få bonus.'

    ``played``/``total``: the pair's part of the event in any unit (boards, rounds, sessions);
    ``in_district``: for each of the two players, whether the club the player represents is within the
    district; ``open_dm``: the DM was announced as open (not said: closed).

    >>> dm_pairs_bonus_violations(54, 54), dm_pairs_bonus_violations(54, 54, (True, False), open_dm=True)
    ([], [])
    >>> [p.code for p in dm_pairs_bonus_violations(26, 54, (True, False))]
    ['se.dm-bonus.played', 'se.dm-bonus.closed']
    """
    rule = "dm_pairs_bonus_violations"
    players = tuple(in_district)
    if len(players) != 2 or not all(isinstance(p, bool) for p in players):
        raise RuleError("se.dm-bonus.players", "{rule}: in_district takes two yes/no values, one per player; "
                        "got {value!r}", rule=rule, argument="in_district", value=in_district)
    out: list[Problem] = []
    if not dm_pairs_bonus_eligible(played, total):
        out.append(Problem("se.dm-bonus.played", "DM pairs: a pair must have taken part in at least 50 % of the event "
                           "for the bonus; got {played} of {total}", argument="played", played=played, total=total))
    if not open_dm and not all(players):
        out.append(Problem("se.dm-bonus.closed", "DM pairs: in a closed DM (one not announced as open) only genuine "
                           "district pairs get the bonus, both players representing clubs within the district; "
                           "{outside} of the two do not", argument="in_district", outside=players.count(False)))
    return out


#: the events a rally may hold, in the words of :func:`~xlbridge.rules.se_fsb.player.ranking_points`
RALLY_EVENTS = ("silver", "april-silver", "october-silver")


def rally_violations(events: Iterable[str]) -> list[Problem]:
    """Why a district rally does not earn its gold bonus (section 5): 'Rallyt ska omfatta minst sex
    silvertävlingar, det får inte vara april- eller oktobersilvertävlingar.'

    ``events``: the kind of each of the rally's events -- ``silver``, or ``april-silver`` /
    ``october-silver`` for the April and October silver events (the names :func:`ranking_points` uses,
    which the ranking leaves out too).  Those may not be in a rally, and they do not count towards the six.

    >>> [p.code for p in rally_violations(["silver"] * 5 + ["april-silver"])]
    ['se.rally.april-october', 'se.rally.six-events']
    """
    given = list(events)
    kinds = [str(event).strip().lower() for event in given]
    for event, kind in zip(given, kinds):
        if kind not in RALLY_EVENTS:
            raise RuleError("se.rally.event", "{rule}: each event must be one of {events}; got {value!r}",
                            rule="rally_violations", argument="events", events=", ".join(RALLY_EVENTS), value=event)
    out: list[Problem] = []
    excluded = [k for k in kinds if k != "silver"]
    if excluded:
        out.append(Problem("se.rally.april-october", "rally: April and October silver events may not be part of a "
                           "rally; got {value} ({events})", argument="events", value=len(excluded),
                           events=", ".join(excluded)))
    counted = len(kinds) - len(excluded)
    if counted < 6:
        out.append(Problem("se.rally.six-events", "rally: at least six silver events are needed for the bonus (April and "
                           "October silver not counted); got {value}", argument="events", value=counted))
    return out
