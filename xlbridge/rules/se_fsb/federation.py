"""Svenska Mästarpoäng 2009: the federation's bookkeeping -- fees and sanctions.

Document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*, Rev 1.1
(MME 090427), Förbundet Svensk Bridge (``docs/sources/000_b38bcd2d61619209.txt``).

Sections implemented here (plain functions):

- 3 (Avgifter): :func:`sessions`, :func:`fee`, :func:`manual_report_fee`;
- 4 (Tävlingsbestämmelser) and 5 (Tävlingarna, the page 4 table): :func:`silver_sanction_violations`,
  :func:`gold_sanction_violations`, :func:`silver_events_allowed`.

Every function raises :class:`~xlbridge.rules.base.RuleError` with the rule and
the value for input that makes no sense; a sanction check returns its findings
as readable lines (an empty list: the event may carry the status).

References:
    Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
    Rev 1.1 (MME 090427), sections 3, 4 and 5 (page 4); ``xlbridge/rules/data/se_fees.csv``,
    ``se_silver_minima.csv``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache

from xlbridge.rules.base import RuleError, load_table
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


def silver_events_allowed(members: int) -> int:
    """Silver events a club may be sanctioned per season: five per 'club' (100-199 members two clubs,
    200+ three), of which at most three on weekdays for the smallest clubs.

    >>> silver_events_allowed(80), silver_events_allowed(150), silver_events_allowed(250)
    (5, 10, 15)
    """
    if members < 0:
        raise RuleError("se.sanction.members", "silver_events_allowed: members must not be negative; got {value}",
                        argument="members", value=members)
    return 5 * club_weight(members)


def silver_sanction_violations(kind: str, units: int, boards: int, participants: Mapping[str, int] | None = None,
                               members: Mapping[str, int] | None = None, championship: bool = False) -> list[str]:
    """Why an event may not carry silver status (empty list: it may).

    ``kind``: pairs, teams, barometer or individual; ``units`` pairs/teams/players;
    ``participants``: players per club; ``members``: club sizes (for the 100/200 rules).

    >>> silver_sanction_violations("pairs", 14, 40)
    ['pairs: at least 16 pairs needed for silver; got 14', 'pairs: 36-41 boards are played on half the silver scale; got 40']
    """
    rule = kind
    if kind not in ("pairs", "teams", "barometer", "individual"):
        raise RuleError("se.kind.unknown",
                        "silver_sanction_violations: kind must be pairs, teams, barometer or individual; got {value!r}",
                        argument="kind", value=kind)
    row = _minima()["championship" if championship and kind == "pairs" else kind]
    out: list[str] = []
    word = {"pairs": "pairs", "teams": "teams", "barometer": "teams", "individual": "players"}[kind]
    if units < int(row["min_units"]):
        out.append(f"{rule}: at least {row['min_units']} {word} needed for silver; got {units}")
    half = int(row["half_scale_from"]) if row["half_scale_from"] else None
    if boards < int(row["min_boards"]):
        if half and boards >= half:
            out.append(f"{rule}: {half}-{int(row['min_boards']) - 1} boards are played on half the silver scale; got {boards}")
        else:
            out.append(f"{rule}: at least {row['min_boards']} boards needed for silver; got {boards}")
    if participants:
        members = members or {}
        total = sum(participants.values())
        weights = {club: club_weight(members.get(club, 0)) for club in participants}
        if kind in ("pairs", "individual"):
            clubs = sum(weights.values())
            if clubs < 5:
                out.append(f"{rule}: participants from at least five clubs needed for silver; got {clubs}")
            if not championship and total:
                # a club counting as w clubs is split into w equal parts
                parts = sorted((n / weights[c] for c, n in participants.items() for _ in range(weights[c])), reverse=True)
                for k, limit in ((1, 50), (2, 70), (3, 90)):
                    share = 100 * sum(parts[:k]) / total
                    if share > limit + 1e-9:
                        out.append(f"{rule}: {k} club(s) hold {share:.1f} % of the participants; at most {limit} % allowed")
        else:
            clubs = sum(weights.values())
            if clubs < 2:
                out.append(f"{rule}: a team event with silver needs two clubs (a club of 100+ members counts as two); got {clubs}")
            if not championship and total:
                biggest = max(participants, key=participants.get)
                if weights[biggest] == 1 and 100 * (total - participants[biggest]) / total < 20 - 1e-9:
                    out.append(f"{rule}: a club under 100 members needs at least 20 % from other clubs; got "
                               f"{100 * (total - participants[biggest]) / total:.1f} %")
    return out


def gold_sanction_violations(kind: str, units: int, boards: int) -> list[str]:
    """Why an event may not carry gold status: at least 28 pairs/players and 54 boards, 57 boards from
    32 pairs/players (three gold places), at least 16 teams.

    >>> gold_sanction_violations("pairs", 34, 54)
    ['pairs: 32 or more pairs must play at least 57 boards; got 54']
    """
    if kind not in ("pairs", "individual", "teams"):
        raise RuleError("se.kind.unknown", "gold_sanction_violations: kind must be pairs, individual or teams; got {value!r}",
                        argument="kind", value=kind)
    out: list[str] = []
    word = {"pairs": "pairs", "individual": "players", "teams": "teams"}[kind]
    if kind == "teams":
        if units < 16:
            out.append(f"teams: at least 16 teams needed for gold; got {units}")
        return out
    if units < 28:
        out.append(f"{kind}: at least 28 {word} needed for gold; got {units}")
    if boards < 54:
        out.append(f"{kind}: at least 54 boards needed for gold; got {boards}")
    elif units >= 32 and boards < 57:
        out.append(f"{kind}: 32 or more {word} must play at least 57 boards; got {boards}")
    return out
