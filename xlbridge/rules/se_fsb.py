"""Sweden -- Förbundet Svensk Bridge (FSB) masterpoints: *Svenska Mästarpoäng*.

Source document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*,
Rev 1.1 MME (090427), Förbundet Svensk Bridge
(``docs/sources/000_b38bcd2d61619209.txt``).  Currencies (section 1): guld-,
silver- and bronspoäng, units ``gp``, ``sp``, ``bp``; 1 mp = 1 gp = 10 sp = 100 bp.

Sections used:

- 1 (Att samla mästarpoäng): bronze to the best third, silver to the best quarter
  then bronze to the third, gold to the first three;
- 2 (Mästarklasser): :func:`master_class` (in :mod:`xlbridge.rules.se_standing`);
- 3 (Avgifter): :func:`fee`, :func:`sessions`;
- 4 (Tävlingsbestämmelser) and 5 (Tävlingarna, page 4 table): :func:`silver_sanction_violations`,
  :func:`gold_sanction_violations`, :func:`silver_events_allowed`; the A-final with
  carry-over (options ``qual_rounds``/``final_rounds``/``total``); simultaneous events,
  rally bonus, shared places, beginners' meeting, handicap events, walkover (option ``walkover``),
  deliberately abandoned events (option ``stopped``) and reserves (:func:`reserve_share`);
- 7 (Ranking): :func:`ranking_points`, :func:`ranking_total`;
- 8 (Konvertering av utländska mp): :func:`convert_foreign`, :func:`conversion_fee`;
- 9 (MP-tabeller): tables A1, A2, B1-B4, C, D, E1-E7, F, gold, G1-G3, H1-H2 as data
  (``xlbridge/rules/data/se_*.csv``, parsed by :mod:`tools.se_parse`,
  principles and errata in :mod:`xlbridge.rules.se_tables`).

Every decision where the document is ambiguous is in ``docs/rules/sweden.md``.

References:
    - Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
      Rev 1.1 (MME 090427), sections 1-9, pages 1-16.
    - Tables: ``xlbridge/rules/data/se_*.csv`` (each with its provenance header);
      corrections: ``xlbridge/rules/data/se_errata.csv``.

>>> from xlbridge import award, awards
>>> print(award("se.bronze.pairs", 1, 20))
40 bp
>>> print(award("se.silver.pairs", 1, 60, met=30))   # page 12: 1 + 30 + 29/2 = 45.5 -> 46
46 sp
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from xlbridge.rules import se_tables as t
from xlbridge.rules.base import Award, Option, Ranks, RuleError, SchemeBase, load_table, tie_groups
from xlbridge.rules.se_standing import (  # noqa: F401  (re-exported plain functions)
    conversion_fee,
    convert_foreign,
    fee,
    gold_sanction_violations,
    master_class,
    master_class_info,
    ranking_points,
    ranking_total,
    sessions,
    silver_events_allowed,
    silver_sanction_violations,
)

SOURCE = "FSB Svenska Mästarpoäng 2009, Rev 1.1"
DECIMALS = 0  # every figure is a whole number: "alla decimaler avrundas uppåt"
VALUE = {"gp": 100, "sp": 10, "bp": 1}  # section 1: 1 gp = 10 sp = 100 bp
BRONZE_MIN = 4
Cell = tuple[float, str]

ceil = t.ceil


# --------------------------------------------------------------------------- helpers


def _rule(scheme: str, text: str) -> RuleError:
    return RuleError(f"{scheme}: {text}")


def _need(scheme: str, what: str, value: int, minimum: int) -> None:
    if value < minimum:
        raise RuleError(f"{scheme} needs at least {minimum} {what}; got {value}")


def _no_ties(scheme: str, ranks: Ranks) -> None:
    """'I lagtävlingar ska alltid särskiljning tillämpas vid utdelande av mp.'"""
    for rank, count in tie_groups(ranks).items():
        if count > 1:
            raise RuleError(
                f"{scheme}: team events are always tie-broken ('I lagtävlingar ska alltid särskiljning "
                f"tillämpas'); place {int(rank)} is shared by {count} teams"
            )


def share_places(
    ranks: Ranks, cells: Sequence[Cell], *, last_minimum: dict[str, float] | None = None, zero_unit: str = "bp"
) -> list[Award]:
    """Section 5 'Delad placering': tied units share the sum of their places, all decimals rounded up.

    ``cells[p - 1]`` is the award ``(points, unit)`` of untied place ``p``.  A tie
    across currencies is valued at 1 gp = 10 sp = 100 bp and paid in the currency
    of the best shared place.  'Delad sista bp-plats ger 4 bp till alla som delar
    platsen': when a tie reaches past the last awarded place, everybody in it gets
    at least ``last_minimum[unit]`` (4 bp in bronze, 8 bp for doubled bronze).
    """
    out: dict[float, Award] = {}
    for rank, count in tie_groups(ranks).items():
        first = int(rank)
        inside = [cells[p - 1] for p in range(first, first + count) if p <= len(cells)]
        if not inside:
            out[rank] = Award(0.0, zero_unit, DECIMALS)
            continue
        unit = inside[0][1]
        total = sum(points * VALUE[u] / VALUE[unit] for points, u in inside)
        value = float(ceil(total / count))
        if count > 1 and len(inside) < count and last_minimum and unit in last_minimum:
            value = max(value, last_minimum[unit])
        out[rank] = Award(value, unit, DECIMALS)
    return [Award(0.0, zero_unit, DECIMALS) if r is None else out[r] for r in ranks]


def _cells(values: Sequence[int], unit: str) -> list[Cell]:
    return [(float(v), unit) for v in values]


def _half(values: Sequence[Cell], minimum: int) -> list[Cell]:
    return [(float(max(minimum, ceil(p / 2))), u) for p, u in values]


def _bronze(family: str, n: int) -> list[int]:
    return [p for p, _ in t.row(family, n)]


def boards_coefficient(boards: int) -> float:
    """Table D: 'Om antalet brickor är minst 100 utdelas poäng efter 1,2 x poängantalet ... För varje
    fullt 50-tal brickor därutöver ökas koefficienten med 0,2 (150-199 brickor 1,4, 200-249 brickor 1,6 osv.)'

    >>> boards_coefficient(99), boards_coefficient(100), boards_coefficient(150), boards_coefficient(249)
    (1.0, 1.2, 1.4, 1.6)
    """
    if boards < 100:
        return 1.0
    return round(1.2 + 0.2 * ((boards - 100) // 50), 9)


def met_winner(field: int, met: int) -> int:
    """Table D: 'Om inte alla mött alla, blir segrarens poäng summan av 1 (egna paret) + antalet par man
    mött + hälften av det antal par man inte mött. Decimaler avrundas uppåt.'

    >>> met_winner(60, 30), met_winner(200, 30), met_winner(142, 29)
    (46, 116, 86)
    """
    return ceil(1 + met + (field - 1 - met) / 2)


def a_final_winner(qual_rounds: int, final_rounds: int, total: int) -> int:
    """Page 4: a) rounds in qualification + A-final, b) plus 1, c) plus (total pairs minus (a + 1)) / 2
    rounded up; a + b + c = silver points of the A-final's winner.

    >>> a_final_winner(12, 12, 60)
    43
    """
    a = qual_rounds + final_rounds
    return a + 1 + ceil((total - (a + 1)) / 2)


SILVER_CAP = 100  # 'Dock får poängen ej överstiga 100 oavsett koefficient.'


@cache
def cap_field(family: str) -> int:
    """The largest field whose winner gets at most 100 (D: 100 pairs, E1: 66 teams, F: 133 players)."""
    size = 1
    while t.WINNER[family](size + 1) <= SILVER_CAP:
        size += 1
    return size


# --------------------------------------------------------------------------- option sets

O_BOARDS = lambda default: Option("boards", "int", default, "boards played in the event (brickor)")  # noqa: E731
O_MET = Option("met", "int", 0, "pairs/teams met by each ('antal par man mött'); 0 = all met all")
O_GROUPS = Option("groups", "int", 1, "strength groups the pairs were split into (2-5; 'gruppindelning')")
O_STOPPED = Option("stopped", "bool", False,
                   "the silver/gold event was deliberately abandoned before all boards were played: no mp")
O_GROUP = Option("group", "str", "a", "this ranking's group letter (A = strongest)", ("a", "b", "c", "d", "e"))


class _Scheme(SchemeBase):
    source = SOURCE
    team = False

    def check_ranks(self, ranks: Ranks, options: Mapping[str, Any]) -> None:
        super().check_ranks(ranks, options)
        if self.team:
            _no_ties(self.id, ranks)

    def awards(self, ranks: Ranks, options: Mapping[str, Any]) -> list[Award]:
        self.check_ranks(ranks, options)
        if options.get("stopped"):
            # section 5: 'Inga mp delas ut om en silver- eller guldtävling avsiktligt avbryts innan alla
            # brickor spelats.'
            return [Award(0.0, self.units[0], DECIMALS) for _ in ranks]
        cells, last_min = self.cells(len(ranks), options)
        return share_places(ranks, cells, last_minimum=last_min, zero_unit=self.units[-1])

    def cells(self, n: int, options: Mapping[str, Any]) -> tuple[list[Cell], dict[str, float]]:  # pragma: no cover
        raise NotImplementedError


# --------------------------------------------------------------------------- bronze


@cache
def group_coefficient(groups: int, group: str) -> float:
    for r in load_table("se_groups"):
        if int(r["groups"]) == groups and r["group"].lower() == group.lower():
            return float(r["coefficient"])
    raise KeyError((groups, group))


class BronzePairs(_Scheme):
    id = "se.bronze.pairs"
    title = "Bronze points, pairs (tables A1 and A2)"
    units = ("bp",)
    section = "9, tables A1-A2; 5 (shared places)"
    options = {
        "boards": O_BOARDS(18),
        "beginners": Option("beginners", "bool", False, "event for inexperienced players: 10-17 boards on half scale"),
        "groups": O_GROUPS,
        "group": O_GROUP,
    }

    def cells(self, n, options):
        _need(self.id, "pairs", n, 4)
        boards = options["boards"]
        half = False
        if boards < 18:
            if options["beginners"] and boards >= 10:
                half = True
            else:
                raise RuleError(
                    f"{self.id} needs at least 18 boards (10 in a beginners' event, beginners=yes); got {boards}"
                )
        size = n
        groups = options["groups"]
        if groups != 1:
            if not 2 <= groups <= 5:
                raise RuleError(f"{self.id} option groups must be 1-5; got {groups}")
            letter = options["group"]
            if "abcde".index(letter) >= groups:
                raise RuleError(f"{self.id}: there is no group {letter.upper()} among {groups} groups")
            size = ceil(n * group_coefficient(groups, letter))
        values = _bronze("A", size)[:n]
        cells = _cells(values, "bp")
        if half:
            return _half(cells, 2), {"bp": 2}
        return cells, {"bp": BRONZE_MIN}


class BronzeHandicap(_Scheme):
    id = "se.bronze.handicap"
    title = "Bronze points, handicap list of a pairs event (half of tables A1/A2)"
    units = ("bp",)
    section = "5, Handikapptävlingar"
    options = {"boards": O_BOARDS(18)}

    def cells(self, n, options):
        _need(self.id, "pairs", n, 4)
        _need(self.id, "boards", options["boards"], 18)
        return _half(_cells(_bronze("A", n), "bp"), 2), {"bp": 2}


def handicap_awards(scratch: Ranks, handicap: Ranks, boards: int = 18) -> list[Award]:
    """Section 5: bronze without handicap and, at half scale, after handicap; each pair keeps the better.

    >>> [a.points for a in handicap_awards([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1])]
    [12.0, 8.0, 0.0, 0.0, 4.0, 6.0]
    """
    from xlbridge.rules import awards as _awards

    a = _awards("se.bronze.pairs", scratch, boards=boards)
    b = _awards("se.bronze.handicap", handicap, boards=boards)
    return [x if x.points >= y.points else y for x, y in zip(a, b)]


class BronzeTeamBarometer(_Scheme):
    id = "se.bronze.team-barometer"
    title = "Bronze points per player, team barometer (table B1)"
    units = ("bp",)
    section = "9, table B1"
    team = True
    options = {
        "boards": O_BOARDS(18),
        "division": Option("division", "int", 0, "barometer in two divisions: 1 or 2 (0 = one division)"),
    }

    def cells(self, n, options):
        _need(self.id, "teams", n, 4)
        _need(self.id, "boards", options["boards"], 18)
        division = options["division"]
        factor = {0: 1.0, 1: 1.2, 2: 0.8}.get(division)
        if factor is None:
            raise RuleError(f"{self.id} option division must be 0, 1 or 2; got {division}")
        size = ceil(n * factor)
        return _cells(_bronze("B1", size)[: t.third(n)], "bp"), {}


def share_by_matches(points: float, played: int, total: int) -> float:
    """Tables B1/E1: a team using more than 4 players -- a player's share is in proportion to matches
    played ('Har man spelat 10 matcher av 15 erhåller berättigade spelare 2/3'), at least one third
    of the matches; decimals rounded up.

    >>> share_by_matches(30, 10, 15)
    20.0
    """
    if total < 1 or not 0 <= played <= total:
        raise RuleError(f"share_by_matches: played must be 0..{total}; got {played}")
    if played * 3 < total:
        raise RuleError(f"share_by_matches: at least one third of the {total} matches must be played; got {played}")
    return float(ceil(points * played / total))


def _fraction(rule: str, name: str, value: Any) -> Fraction:
    try:
        number = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise RuleError(f"{rule}: {name} must be a number; got {value!r}") from None
    if number < 0:
        raise RuleError(f"{rule}: {name} must not be negative; got {value!r}")
    return number


def _count(rule: str, name: str, played: Any, total: Any) -> tuple[Fraction, Fraction]:
    done, whole = _fraction(rule, name + "_played", played), _fraction(rule, name, total)
    if whole <= 0:
        raise RuleError(f"{rule}: {name} must be at least 1; got {total!r}")
    if done > whole:
        raise RuleError(f"{rule}: {name}_played must be 0..{total}; got {played!r}")
    return done, whole


def reserve_share(points: float, rounds_played: int, rounds: int, boards_played: int, boards: int,
                  evenings_played: int | None = None, evenings: int | None = None) -> float:
    """Section 5 'Reserver': 'För att få mp måste en spelare ha deltagit i minst hälften av antalet omgångar
    i tävlingen, eller ha spelat minst 50 % av brickorna. Vid flerkvällarstävling får reserven sin andel av
    erövrade mästarpoäng.'  A reserve (any player) who played at least half the rounds or half the boards
    of the event gets the pair's/team's ``points``; in a multi-evening event (``evenings`` given) the
    share ``evenings_played / evenings``, rounded up ('alla decimaler avrundas uppåt').  0 when not
    eligible.

    >>> reserve_share(40, 5, 10, 0, 30), reserve_share(40, 4, 10, 15, 30), reserve_share(40, 4, 10, 14, 30)
    (40.0, 40.0, 0.0)
    >>> reserve_share(46, 6, 12, 72, 144, evenings_played=2, evenings=4)
    23.0
    """
    rule = "reserve_share"
    amount = _fraction(rule, "points", points)
    r_done, r_all = _count(rule, "rounds", rounds_played, rounds)
    b_done, b_all = _count(rule, "boards", boards_played, boards)
    if 2 * r_done < r_all and 2 * b_done < b_all:
        return 0.0
    if (evenings is None) != (evenings_played is None):
        raise RuleError(f"{rule}: give both evenings_played and evenings (multi-evening event) or neither")
    if evenings is not None:
        e_done, e_all = _count(rule, "evenings", evenings_played, evenings)
        amount = amount * e_done / e_all
    return float(ceil(amount))


def series_bonus_eligible(halves_played: int, halves: int) -> bool:
    """Tables B2/B3 bonus: 'För att vara bonusberättigad måste spelaren ha deltagit i minst 1/3 av totala
    antalet halvlekar.'

    >>> series_bonus_eligible(6, 18), series_bonus_eligible(5, 18)
    (True, False)
    """
    done, whole = _count("series_bonus_eligible", "halves", halves_played, halves)
    return 3 * done >= whole


def sm_teams_bonus_eligible(boards_per_match: int, matches_played: int = 0, halves_played: int = 0) -> bool:
    """Table G1 bonus: 'de spelare som spelat minst två 20-brickorsmatcher eller tre halvlekar vid
    24-brickorsmatcher' -- 20-board matches (no half-time): two matches; 24-board matches: three halves.

    >>> sm_teams_bonus_eligible(20, matches_played=2), sm_teams_bonus_eligible(24, halves_played=3)
    (True, True)
    >>> sm_teams_bonus_eligible(24, matches_played=1), sm_teams_bonus_eligible(20, matches_played=1, halves_played=2)
    (False, False)
    """
    rule = "sm_teams_bonus_eligible"
    if boards_per_match not in (20, 24):
        raise RuleError(f"{rule}: table G1 has 20- or 24-board matches; got {boards_per_match}")
    matches = _fraction(rule, "matches_played", matches_played)
    halves = _fraction(rule, "halves_played", halves_played)
    if boards_per_match == 20:
        return matches >= 2
    return halves + 2 * matches >= 3


def dm_pairs_bonus_eligible(played: float, total: float) -> bool:
    """DM-final bonus: 'I partävling måste man ha deltagit i minst 50 % av tävlingen för att få bonus.'
    ``played``/``total`` in any unit (boards, rounds, sessions).

    >>> dm_pairs_bonus_eligible(27, 54), dm_pairs_bonus_eligible(26, 54)
    (True, False)
    """
    done, whole = _count("dm_pairs_bonus_eligible", "total", played, total)
    return 2 * done >= whole


class BronzeIndividual(_Scheme):
    id = "se.bronze.individual"
    title = "Bronze points, individual (table C)"
    units = ("bp",)
    section = "9, table C"
    options = {"boards": O_BOARDS(18)}

    def cells(self, n, options):
        _need(self.id, "players", n, 8)
        _need(self.id, "boards", options["boards"], 18)
        return _cells(_bronze("C", n), "bp"), {"bp": BRONZE_MIN}


class BeginnersMeeting(_Scheme):
    id = "se.bronze.beginners-meeting"
    title = "Bronze points, beginners' meeting (Nybörjarträffen: 50- or 100-pair scale of A2)"
    units = ("bp",)
    section = "5, Nybörjarträffen"
    options = {}

    def cells(self, n, options):
        _need(self.id, "pairs", n, 4)
        scale = 50 if n <= 99 else 100
        return _cells(_bronze("A", scale)[: t.third(n)], "bp"), {"bp": BRONZE_MIN}


# --------------------------------------------------------------------------- series (per match)


@cache
def _match_table() -> tuple[dict[str, str], ...]:
    return load_table("se_match_points")


@cache
def _vp_scales() -> dict[int, tuple[int, int]]:
    return {int(r["scale"]): (int(r["win_min"]), int(r["draw_min"])) for r in load_table("se_vp_results")}


def match_outcome(vp: float, scale: int = 30) -> str:
    """'won', 'drawn' or 'lost' for a team's own VP score (after penalties) on a VP scale.

    >>> match_outcome(18), match_outcome(17), match_outcome(12), match_outcome(13, 20)
    ('won', 'drawn', 'lost', 'drawn')
    """
    scales = _vp_scales()
    if scale not in scales:
        raise RuleError(f"match_outcome: VP scale must be one of {', '.join(map(str, sorted(scales)))}; got {scale}")
    win, draw = scales[scale]
    return "won" if vp >= win else "drawn" if vp >= draw else "lost"


def match_points(table: str, outcome: str, *, divisions: int = 0, division: int = 0, boards: int = 24,
                 abandoned: bool = False) -> Award:
    """A team's points for one match of a series (tables B2-B4, E2-E7, G1, G3).

    >>> match_points("B2", "won").points, match_points("E3", "drawn", divisions=3, division=2).points
    (64.0, 10.0)
    """
    table = table.upper()
    rows = [r for r in _match_table() if r["table"] == table]
    if not rows:
        raise RuleError(f"match_points: unknown series table {table!r}")
    if outcome not in ("won", "drawn", "lost"):
        raise RuleError(f"match_points: outcome must be won, drawn or lost; got {outcome!r}")
    chosen = None
    for r in rows:
        if int(r["divisions"]) not in (0, divisions) or int(r["division"]) not in (0, division):
            continue
        if boards < int(r["min_boards"]) or (r["max_boards"] and boards > int(r["max_boards"])):
            continue
        chosen = r
        break
    if chosen is None:
        raise RuleError(
            f"match_points: table {table} has no figure for divisions={divisions}, division={division}, boards={boards}"
        )
    points = float(chosen["points"])
    if abandoned:
        points /= 2  # E3: 'I avbrutna matcher får sp delas ut efter halv skala om minst halva matchen är spelad'
    factor = {"won": 1.0, "drawn": 0.5, "lost": 0.0}[outcome]
    return Award(points * factor, chosen["unit"], 1)


def player_share(team_points: float, halves_played: int, halves: int = 2, seats: int = 4) -> float:
    """Table B2 (and all series): the team's points are shared per match; a player who played one half
    gets half of what a full-match player gets (E2 example: 20 sp won, A, B, C 5 each, D and E 2.5).
    Not rounded here: 'Halvpoängen adderas ... eventuell slutpoängsdecimal avrundas uppåt'.

    >>> player_share(20, 2), player_share(20, 1)
    (5.0, 2.5)
    """
    if not 0 <= halves_played <= halves:
        raise RuleError(f"player_share: halves_played must be 0..{halves}; got {halves_played}")
    return team_points / seats * halves_played / halves


def series_total(shares: Sequence[float]) -> float:
    """A player's accumulated series points, the final decimal rounded up.  The sum is taken to 9
    decimals first, so shares such as 0.8 gp (E7 div III converted to gold) add up to a whole 4.0.

    >>> series_total([5, 2.5, 2.5])
    10.0
    >>> series_total([2.5])
    3.0
    >>> series_total([0.8] * 5)
    4.0
    """
    return float(ceil(round(sum(shares), 9)))


def allsvenskan_div3_gold(sp_total: float, final_place: int) -> Award:
    """Table E7: 'För ettan och tvåan i div III omvandlas silverpoängen till guldpoäng. Rankingpoäng
    baseras dock på det inspelade antalet silverpoäng.'  The first two teams of Allsvenskan division III
    have their silver converted at the section 1 rate 10 sp = 1 gp, rounded up (as in the gold section's
    '52 silverpoäng blir det 6 guldpoäng'); other places keep their silver.  Ranking points stay on the
    silver received (pass ``sp_total`` to :func:`ranking_points`).

    >>> print(allsvenskan_div3_gold(52, 1)), print(allsvenskan_div3_gold(52, 3))
    6 gp
    52 sp
    (None, None)
    """
    if sp_total < 0:
        raise RuleError(f"allsvenskan_div3_gold: sp_total must not be negative; got {sp_total}")
    if final_place < 1:
        raise RuleError(f"allsvenskan_div3_gold: final_place must be 1 or more; got {final_place}")
    if final_place <= 2:
        return Award(float(ceil(round(sp_total / 10, 9))), "gp", DECIMALS)
    return Award(float(ceil(round(sp_total, 9))), "sp", DECIMALS)


G3_BONUS = 0.2  # Table G3: 'Segraren i Div I får 20% bonustillägg på sina inspelade poäng.'


def allsvenskan_bonus(gp_total: float, division: int = 1, final_place: int = 1) -> Award:
    """Table G3: the winner of Allsvenskan division I gets a 20 % bonus on the gold points won in the
    series ('Segraren i Div I får 20% bonustillägg på sina inspelade poäng. Ingen bonus utdelas i Div II').
    The bonus is a separate award (it gives no ranking points: 'Bonus i Allsvenskan ... ger ej
    rankingpoäng'), rounded up ('alla decimaler avrundas uppåt').

    >>> print(allsvenskan_bonus(84)), print(allsvenskan_bonus(84, final_place=2)), print(allsvenskan_bonus(30, 2))
    17 gp
    0 gp
    0 gp
    (None, None, None)
    """
    if gp_total < 0:
        raise RuleError(f"allsvenskan_bonus: gp_total must not be negative; got {gp_total}")
    if division not in (1, 2):
        raise RuleError(f"allsvenskan_bonus: Allsvenskan in gold (table G3) has division 1 or 2; got {division}")
    if final_place < 1:
        raise RuleError(f"allsvenskan_bonus: final_place must be 1 or more; got {final_place}")
    if division != 1 or final_place != 1:
        return Award(0.0, "gp", DECIMALS)
    return Award(float(ceil(round(gp_total * G3_BONUS, 9))), "gp", DECIMALS)


class _MatchScheme(_Scheme):
    """One match of a series: ranks [1, 2] = won/lost, [1, 1] = drawn; or the VP score via ``vp``."""

    team = False  # a drawn match is the one legal tie
    tables: tuple[str, ...] = ()

    def default_ranks(self, field, options):
        return [1.0, 2.0][:field] if field <= 2 else [float(p) for p in range(1, field + 1)]

    def awards(self, ranks, options):
        self.check_ranks(ranks, options)
        if len(ranks) != 2:
            raise RuleError(f"{self.id} awards one match between 2 teams; got {len(ranks)}")
        table = options["table"].upper()
        if table not in self.tables:
            raise RuleError(f"{self.id} option table must be one of {', '.join(self.tables).lower()}; got {table.lower()}")
        vp = options["vp"].strip()
        if vp:
            try:
                a, b = (float(x.replace(",", ".")) for x in vp.replace(":", "-").split("-"))
            except ValueError:
                raise RuleError(f"{self.id} option vp must look like 18-12; got {vp!r}") from None
            outcomes = [match_outcome(a, options["scale"]), match_outcome(b, options["scale"])]
        else:
            if None in ranks:
                outcomes = ["lost" if r is None else "won" for r in ranks]
            elif ranks[0] == ranks[1]:
                outcomes = ["drawn", "drawn"]
            else:
                outcomes = ["won" if r == 1 else "lost" for r in ranks]
        kwargs = dict(divisions=options["divisions"], division=options["division"], boards=options["boards"],
                      abandoned=options.get("abandoned", False))
        result = [match_points(table, o, **kwargs) for o in outcomes]
        if options["walkover"]:
            # section 5 'WO eller avbruten tävling': 'Inga mp utdelas för wo-seger.'
            return [Award(0.0, a.unit, a.decimals) for a in result]
        place = options.get("final_place", 0)
        if place:
            if table != "E7" or options["division"] != 3:
                raise RuleError(f"{self.id} option final_place converts Allsvenskan division III (table=e7, "
                                f"division=3) to gold; got table={table.lower()}, division={options['division']}")
            if place <= 2:
                # E7: 'För ettan och tvåan i div III omvandlas silverpoängen till guldpoäng' at 10 sp = 1 gp;
                # unrounded per match, the player's total is rounded up by series_total.
                result = [Award(round(a.points / 10, 9), "gp", 2) for a in result]
        return result


_MATCH_OPTIONS = {
    "divisions": Option("divisions", "int", 0, "number of divisions of the series (B3, E3)"),
    "division": Option("division", "int", 0, "the teams' division (B3, E3, E7: 3 or 4, G3: 1 or 2)"),
    "boards": O_BOARDS(24),
    "vp": Option("vp", "str", "", "the match's VP score after penalties, e.g. 17-12 (decides won/drawn per team)"),
    "scale": Option("scale", "int", 30, "VP scale total (30, 20, 8, 6, 4, 2)"),
    "walkover": Option("walkover", "bool", False, "the match was won by walkover ('wo-seger'): no mp for anyone"),
}


class BronzeTeamSeries(_MatchScheme):
    id = "se.bronze.team-series"
    title = "Bronze points per match in a team series or cup (tables B2, B3, B4)"
    units = ("bp",)
    section = "9, tables B2-B4"
    tables = ("B2", "B3", "B4")
    options = {"table": Option("table", "str", "b2", "series table", ("b2", "b3", "b4")), **_MATCH_OPTIONS}


class SilverTeamSeries(_MatchScheme):
    id = "se.silver.team-series"
    title = "Silver points per match in a team series or cup (tables E2-E7)"
    units = ("sp", "gp")
    section = "9, tables E2-E7"
    tables = ("E2", "E3", "E4", "E5", "E6", "E7")
    options = {
        "table": Option("table", "str", "e2", "series table", ("e2", "e3", "e4", "e5", "e6", "e7")),
        **_MATCH_OPTIONS,
        "abandoned": Option("abandoned", "bool", False, "E3: abandoned after at least half the match (half scale)"),
        "final_place": Option("final_place", "int", 0, "E7 division III: the team's final place; 1 and 2 are paid "
                              "in gold (10 sp = 1 gp); 0 = not known / no conversion"),
    }


class GoldTeamSeries(_MatchScheme):
    id = "se.gold.team-series"
    title = "Gold points per match: SM final for teams (G1), Allsvenskan div I and II (G3)"
    units = ("gp",)
    section = "9, tables G1 and G3"
    tables = ("G1", "G3")
    options = {"table": Option("table", "str", "g1", "series table", ("g1", "g3")), **_MATCH_OPTIONS}


class SeriesBonus(_Scheme):
    id = "se.bronze.series-bonus"
    title = "Bronze bonus per player at the end of a series (table B2 bonus; B3 by division)"
    units = ("bp",)
    section = "9, tables B2 (bonustabell) and B3"
    team = True
    options = {
        "division": Option("division", "int", 0, "B3: the division (1: 100 %, 2: 50 %, 3: 25 %, lower: none); 0 = B2"),
        "rounds": Option("rounds", "int", 0, "Swiss ('Gröna Hissen'): number of rounds; 0 = round robin"),
        "double": Option("double", "bool", False, "double round robin: bonus counted twice"),
    }

    def cells(self, n, options):
        _need(self.id, "teams", n, 2)
        rounds = options["rounds"]
        if not 0 <= rounds <= 200:
            raise RuleError(f"{self.id} option rounds must be 0-200 (0 = round robin); got {rounds}")
        # the bonus follows the number of rounds: a round robin of k teams has k - 1 rounds
        size = rounds + 1 if rounds else n
        if size < 4:
            return [], {}
        values = [p for p, _ in t.row("B2", size)]
        share = {0: 1.0, 1: 1.0, 2: 0.5, 3: 0.25}.get(options["division"], 0.0)
        factor = share * (2 if options["double"] else 1)
        return [(float(ceil(v * factor)), "bp") for v in values if v * factor > 0], {}


# --------------------------------------------------------------------------- silver and gold


def _silver_scale(family: str, winner_field: int, field: int, places: int | None = None) -> list[int]:
    """Silver figures of the row for ``winner_field`` (corrected print, else the principle), for
    ``places`` places -- by default the best quarter of both the row and the real field (at most 16)."""
    count = min(t.quarter(winner_field), t.quarter(field)) if places is None else places
    return t.silver_scale(family, winner_field)[:count]


def _reduce_bronze(bronze: list[Cell], lowest_silver: float | None) -> list[Cell]:
    """'Om antalet bronspoäng för bästa placering överskrider antalet silverpoäng för lägsta placering sker
    reducering': bronze is never worth more than the lowest silver award (1 sp = 10 bp)."""
    if lowest_silver is None:
        return bronze
    cap = lowest_silver * 10
    return [(min(p, cap), u) for p, u in bronze]


def silver_cells(family: str, bronze_family: str, n: int, *, winner_field: int, factor: int = 2,
                 half: bool = False, bronze: bool = True) -> list[Cell]:
    """Silver to the best quarter (at most 16) from the row of ``winner_field``, then bronze x ``factor``
    to one third of the real field ``n``."""
    if winner_field == n and n in t.final_printed(family) and factor == 2 and bronze:
        cells = [(float(p), u) for p, u in t.row(family, n)]  # printed row, red figures included
        silver = [c for c in cells if c[1] == "sp"]
        red = [c for c in cells if c[1] == "bp"]
    else:
        silver = _cells(_silver_scale(family, winner_field, n), "sp")
        red = []
        if bronze:
            scale = _bronze(bronze_family, n)
            red = [(float(factor * (scale[p - 1] if p <= len(scale) else BRONZE_MIN)), "bp")
                   for p in range(len(silver) + 1, t.third(n) + 1)]
            red = _reduce_bronze(red, silver[-1][0] if silver else None)
    if half:
        silver = _half(silver, 1)
    return silver + (red if bronze else [])


class _SilverScheme(_Scheme):
    family = "D"
    bronze_family = "A"
    unit_word = "pairs"
    min_units = 16
    min_boards = 42
    half_boards = 36  # 36-41 boards: half silver scale (pairs only)
    gold = False

    def winner_field(self, n: int, options: Mapping[str, Any]) -> int:
        """The field size whose row gives the winner's points: the field itself, or 1 + met + half the
        pairs not met (rounded up), times the boards coefficient (rounded up), the winner at most 100."""
        met = options.get("met", 0)
        if met < 0 or met > n - 1:
            raise RuleError(f"{self.id} option met must be 0..{n - 1} (0 = all met all) for {n} {self.unit_word}; got {met}")
        size = met_winner(n, met) if 0 < met < n - 1 else n
        coefficient = boards_coefficient(options["boards"])
        if coefficient != 1.0:
            size = ceil(size * coefficient)
        return min(size, cap_field(self.family))

    def minimum(self, options: Mapping[str, Any]) -> int:
        return self.min_units

    def check_boards(self, n: int, options: Mapping[str, Any]) -> bool:
        boards = options["boards"]
        if boards >= self.min_boards:
            return False
        if self.half_boards and boards >= self.half_boards:
            return True
        low = self.half_boards or self.min_boards
        raise RuleError(f"{self.id} needs at least {low} boards; got {boards}")

    def cells(self, n, options):
        _need(self.id, self.unit_word, n, self.minimum(options))
        half = self.check_boards(n, options)
        size = self.winner_field(n, options)
        cells = silver_cells(self.family, self.bronze_family, n, winner_field=size, half=half)
        return cells, {"bp": 2 * BRONZE_MIN}


class SilverPairs(_SilverScheme):
    id = "se.silver.pairs"
    title = "Silver points, pairs (table D, bronze in red)"
    units = ("sp", "bp")
    section = "9, table D; 5 (A-final with carry-over, page 4 minimums)"
    options = {
        "boards": O_BOARDS(42),
        "met": O_MET,
        "qual_rounds": Option("qual_rounds", "int", 0, "A-final with carry-over: rounds of the qualification"),
        "final_rounds": Option("final_rounds", "int", 0, "A-final with carry-over: rounds of the A-final"),
        "total": Option("total", "int", 0, "A-final with carry-over: pairs in the qualification"),
        "championship": Option("championship", "bool", False, "championship qualification (SM-kval, DM-final): 12 pairs suffice"),
        "stopped": O_STOPPED,
        "above": Option("above", "int", 0, "B/C final with carry-over: pairs placed in the finals above this one "
                        "(0 = the A-final)"),
        "approved": Option("approved", "bool", False, "B/C final with carry-over: the TK approved in advance the "
                           "distribution of the document's example (the overall scale continued)"),
    }

    def cells(self, n, options):
        if options["above"] and not (options["final_rounds"] or options["qual_rounds"] or options["total"]):
            raise RuleError(f"{self.id}: option above (a B/C final with carry-over) needs qual_rounds, "
                            "final_rounds and total of the qualification and A-final")
        if options["final_rounds"] > 0 or options["qual_rounds"] > 0 or options["total"] > 0:
            if options["above"]:
                return self.lower_final(n, options)
            return self.a_final(n, options)
        return super().cells(n, options)

    def minimum(self, options):
        # page 4: 'Par 16 42 ... Mästerskapkval. 12 42'
        return 12 if options.get("championship") else 16

    def a_final(self, n, options):
        total, q, f = options["total"], options["qual_rounds"], options["final_rounds"]
        if q < 1 or f < 1:
            raise RuleError(f"{self.id}: an A-final needs qual_rounds and final_rounds of at least 1; got {q} and {f}")
        if total < n:
            raise RuleError(f"{self.id}: total (pairs of the qualification) must be at least the {n} finalists; got {total}")
        self.check_boards(n, options)
        winner = min(SILVER_CAP, a_final_winner(q, f, total))
        count = min(t.quarter(winner), n)  # 'De första 11 (43/4) får sp och inga bp delas ut i A-finalen.'
        return _cells(t.silver_scale("D", winner)[:count], "sp"), {}

    def lower_final(self, n, options):
        """A B- or C-final with carry-over (page 4).  The document allows silver and bronze there only with
        the TK's approval, asked in advance, of the organiser's own distribution; it shows one distribution
        ('Man skulle kunna fördela sp på detta sättet: 43, 29, 21, 18, 14, 12, 10, 9, 7, 5 sp i A-final och
        4 sp, 10, 8, 7, 6, 5, 4, 4, 4, 4 bp i B-final'): the A-final's silver scale (a + b + c) continues
        down the finals to its quarter, then the bronze table of the whole field (not doubled) to one third
        of the whole field.  Computed only when the caller states the TK approved it (``approved``)."""
        total, above = options["total"], options["above"]
        if not options["approved"]:
            raise RuleError(
                f"{self.id}: silver and bronze in a B- or C-final with carry-over need the TK's approval, asked in "
                "advance, of how the organiser will distribute them ('Dock ska särskild tillåtelse i dessa fall "
                "begäras från TK genom att meddela hur man tänker fördela silver- och bronspoängen'; 'Ansökan ... "
                "måste göras på förhand'); the document does not fix the distribution. If the TK approved the "
                "document's example (the A-final scale continued, then bronze of the whole field), give "
                "approved=true; without carry-over the final is a new bronze event (se.bronze.pairs)"
            )
        if above < 1 or above + n > total:
            raise RuleError(f"{self.id}: option above (pairs in the finals above) must be 1..{total - n} so that "
                            f"above + the {n} pairs of this final fit in total={total}; got {above}")
        q, f = options["qual_rounds"], options["final_rounds"]
        if q < 1 or f < 1:
            raise RuleError(f"{self.id}: a final with carry-over needs qual_rounds and final_rounds (of the A-final) "
                            f"of at least 1; got {q} and {f}")
        self.check_boards(n, options)
        winner = min(SILVER_CAP, a_final_winner(q, f, total))
        silver = _cells(t.silver_scale("D", winner)[:t.quarter(winner)], "sp")
        scale = _bronze("A", total)
        bronze = [(float(scale[p - 1] if p <= len(scale) else BRONZE_MIN), "bp")
                  for p in range(len(silver) + 1, t.third(total) + 1)]
        overall = silver + _reduce_bronze(bronze, silver[-1][0] if silver else None)
        return overall[above:], {"bp": BRONZE_MIN}


class SilverTeamBarometer(_SilverScheme):
    id = "se.silver.team-barometer"
    title = "Silver points per player, team barometer (table E1, bronze in red)"
    units = ("sp", "bp")
    section = "9, table E1"
    family, bronze_family, unit_word, min_units, half_boards = "E1", "B1", "teams", 8, 0
    team = True
    options = {"boards": O_BOARDS(42), "met": O_MET, "stopped": O_STOPPED}


class SilverIndividual(_SilverScheme):
    id = "se.silver.individual"
    title = "Silver points, individual (table F, bronze in red)"
    units = ("sp", "bp")
    section = "9, table F"
    family, bronze_family, unit_word, min_units, min_boards, half_boards = "F", "C", "players", 16, 38, 0
    options = {"boards": O_BOARDS(38), "rounds": Option("rounds", "int", 0, "rounds each player played when not all played with all; 0 = all with all"),
               "stopped": O_STOPPED}

    def cells(self, n, options):
        _need(self.id, self.unit_word, n, self.min_units)
        self.check_boards(n, options)
        rounds = options["rounds"]
        if not 0 <= rounds <= 200:
            raise RuleError(f"{self.id} option rounds must be 0-200 (0 = round robin); got {rounds}")
        if not rounds or rounds >= n - 1:
            return silver_cells("F", "C", n, winner_field=n), {"bp": 2 * BRONZE_MIN}
        # 'Ex: 24 spelare som spelar 19 ronder. (19+1) x 0,75 + 4 x 0,75/2 = 16,5 = 17 sp.'
        equivalent = 1 + rounds + (n - 1 - rounds) / 2
        winner = ceil(0.75 * equivalent)
        count = min(t.quarter(ceil(equivalent)), t.quarter(n))
        size = ceil(equivalent)
        silver = t.chain(winner, count) if size <= t.HALF_RULE_FROM else t.silver_values("F", size, count)
        scale = _bronze("C", n)
        red = [(float(2 * (scale[p - 1] if p <= len(scale) else BRONZE_MIN)), "bp") for p in range(count + 1, t.third(n) + 1)]
        return _cells(silver, "sp") + _reduce_bronze(red, silver[-1]), {"bp": 2 * BRONZE_MIN}


def gold_cells(family: str, bronze_family: str, n: int, winner_field: int, gold_places: int, enhanced: bool,
               first_places: Sequence[int] | None = None) -> list[Cell]:
    """Gold section: 'Poäng vid guldtävlingar räknas som för silverpoäng men i guldvaluta' (52 sp -> 6 gp),
    gold to the first 2/3 (enhanced: 10, 7, 5, 4), then silver to at most the 16th place, then bronze x 3
    to one third."""
    silver = _silver_scale(family, winner_field, n, places=min(16, max(t.quarter(winner_field), gold_places)))
    if first_places is not None:
        golds = list(first_places)
    elif enhanced:
        golds = [int(r["points"]) for r in _fixed("gold-enhanced")]
    else:
        golds = [ceil(v / 10) for v in silver[:gold_places]]
    count = len(golds)
    cells: list[Cell] = _cells(golds, "gp")
    rest = [v for v in silver[count: min(t.quarter(n), 16)]]
    cells += _cells(rest, "sp")
    scale = _bronze(bronze_family, n)
    red = [(float(3 * (scale[p - 1] if p <= len(scale) else BRONZE_MIN)), "bp")
           for p in range(len(cells) + 1, t.third(n) + 1)]
    lowest = rest[-1] if rest else None
    return cells + _reduce_bronze(red, lowest)


@cache
def _fixed(scale: str) -> tuple[dict[str, str], ...]:
    rows = tuple(r for r in load_table("se_fixed_scales") if r["scale"] == scale)
    if not rows:
        raise KeyError(scale)
    return rows


def fixed_scale(scale: str) -> list[Cell]:
    """A fixed scale of se_fixed_scales.csv as cells."""
    return [(float(r["points"]), r["unit"]) for r in _fixed(scale)]


class _GoldScheme(_SilverScheme):
    units = ("gp", "sp", "bp")
    min_boards = 54
    half_boards = 0
    gold_from = 28  # 'Guldtävlingar kräver minst 28 par och minst 54 brickor, varvid två par får guldpoäng'
    three_from = 32  # 'Vid 32 och högre parantal ska minst 57 brickor spelas. I sådana fall får tre par guldpoäng.'

    def gold_places(self, n: int, options: Mapping[str, Any]) -> int:
        _need(self.id, self.unit_word, n, self.gold_from)
        _need(self.id, "boards", options["boards"], self.min_boards)
        if n >= self.three_from:
            if options["boards"] < 57:
                raise RuleError(f"{self.id}: {n} {self.unit_word} need at least 57 boards; got {options['boards']}")
            return 3
        return 2

    def cells(self, n, options):
        places = self.gold_places(n, options)
        size = self.winner_field(n, options)
        return gold_cells(self.family, self.bronze_family, n, size, places, options["enhanced"]), {"bp": 3 * BRONZE_MIN}


_GOLD_OPTIONS = {
    "boards": O_BOARDS(57),
    "met": O_MET,
    "enhanced": Option("enhanced", "bool", False, "'förhöjt guld': 10, 7, 5 and 4 gp to four pairs/teams"),
    "stopped": O_STOPPED,
}


class GoldPairs(_GoldScheme):
    id = "se.gold.pairs"
    title = "Gold points, pairs (computed as table D in gold; silver to 16th, bronze x 3)"
    section = "9, Guldpoäng; 5 (Guldtävlingar)"
    options = dict(_GOLD_OPTIONS)


class GoldTeamBarometer(_GoldScheme):
    id = "se.gold.team-barometer"
    title = "Gold points per player, team event (table E1 in gold; silver to 16th, bronze x 3)"
    section = "9, Guldpoäng and table E1; 5 (Guldtävlingar: at least 16 teams)"
    family, bronze_family, unit_word = "E1", "B1", "teams"
    team = True
    options = dict(_GOLD_OPTIONS)

    def gold_places(self, n, options):
        _need(self.id, "teams", n, 16)  # 'Vid lagtävlingar ska minst 16 lag deltaga.'
        _need(self.id, "boards", options["boards"], self.min_boards)
        return 3


class GoldIndividual(_GoldScheme):
    id = "se.gold.individual"
    title = "Gold points, individual (table F in gold; silver to 16th, bronze x 3)"
    section = "9, Guldpoäng and table F; 5 (28/32 players, 54/57 boards)"
    family, bronze_family, unit_word = "F", "C", "players"
    options = dict(_GOLD_OPTIONS)


# --------------------------------------------------------------------------- special events


class SimultaneousBonus(_Scheme):
    id = "se.silver.simultaneous-bonus"
    title = "Silver bonus on the common list of a simultaneous event (1/5 of table D, at most 16 pairs)"
    units = ("sp",)
    section = "5, Simultantävlingar"
    options = {}

    def cells(self, n, options):
        _need(self.id, "pairs", n, 8)
        silver = t.silver_scale("D", min(n, SILVER_CAP))
        return [(float(ceil(v / 5)), "sp") for v in silver[: min(16, t.quarter(n))]], {}


class SimultaneousHeat(SilverPairs):
    id = "se.silver.simultaneous-heat"
    title = "Silver points in one heat of a simultaneous event (table D, at least 8 pairs per heat)"
    section = "5, Simultantävlingar; 9, table D"
    # a heat has no finals: the A/B/C-final options of se.silver.pairs do not apply
    options = {k: v for k, v in SilverPairs.options.items() if k in ("boards", "met", "championship", "stopped")}

    def cells(self, n, options):
        return _SilverScheme.cells(self, n, options)

    def minimum(self, options):
        return 8  # 'Minst 8 par måste delta i varje heat.'



class RallyBonus(_Scheme):
    id = "se.gold.rally-bonus"
    title = "Gold bonus of a district rally by total starting pairs (teams x 2, players / 2)"
    units = ("gp",)
    section = "5, Rallytävlingar"
    options = {
        "pairs": Option("pairs", "int", 0, "total starting pairs over the rally's pair events"),
        "teams": Option("teams", "int", 0, "total starting teams (count twice: '8 lag likställs med 16 par')"),
        "players": Option("players", "int", 0, "total starting players of individual events (divided by two)"),
        "events": Option("events", "int", 6, "silver events in the rally (at least six)"),
    }

    def cells(self, n, options):
        _need(self.id, "silver events", options["events"], 6)
        total = options["pairs"] + 2 * options["teams"] + options["players"] / 2
        if total > 200:
            scale = "rally-201"
        elif total > 100:
            scale = "rally-101"
        elif total >= 96:
            scale = "rally-96"
        else:
            return [], {}
        return fixed_scale(scale), {}


class DmBonus(_Scheme):
    id = "se.silver.dm-bonus"
    title = "Silver bonus per player in district (DM) finals"
    units = ("sp",)
    section = "9, Bonus för DM-finaler (page 15)"
    options = {"kind": Option("kind", "str", "other", "team = DM-final/SM-kval lag, pairs = DM-par/SM-kval open, other",
                              ("team", "pairs", "other"))}

    def awards(self, ranks, options):
        self.check_ranks(ranks, options)
        if options["kind"] == "team":
            _no_ties(self.id, ranks)  # 'Delad placering i lagtävling förekommer ej.'
        cells = fixed_scale({"team": "DM-team", "pairs": "DM-pairs", "other": "DM-other"}[options["kind"]])
        # 'Delad placering ger här den högre bonusen.'
        return [Award(0.0, "sp", DECIMALS) if r is None or r > len(cells) else Award(cells[int(r) - 1][0], "sp", DECIMALS)
                for r in ranks]


class SmTeamsBonus(_Scheme):
    id = "se.gold.sm-teams-bonus"
    title = "Gold bonus per player in the SM final for teams (table G1)"
    units = ("gp",)
    section = "9, table G1"
    team = True
    options = {}

    def cells(self, n, options):
        return fixed_scale("G1-bonus"), {}


class SmTeamsVeterans(_Scheme):
    id = "se.gold.sm-teams-veterans"
    title = "Gold points per player, SM final teams for veterans and juniors (table G2, matches under 12 boards)"
    units = ("gp",)
    section = "9, table G2"
    team = True
    options = {"boards": Option("boards", "int", 11, "boards per match (the scale is for fewer than 12)")}

    def cells(self, n, options):
        _need(self.id, "teams", n, 8)
        if options["boards"] >= 12:
            raise RuleError(f"{self.id}: for matches of 12 boards or more another scale applies (contact the office); got {options['boards']}")
        return fixed_scale("G2-8" if n == 8 else "G2-9-12" if n <= 12 else "G2-13"), {}


class SmPairsFinal(_Scheme):
    id = "se.gold.sm-pairs-final"
    title = "SM pairs final, open class (table H1: round 1 silver, round 2A and 2B gold)"
    units = ("gp", "sp", "bp")
    section = "9, table H1"
    options = {
        "round": Option("round", "str", "2a", "round 1, 2a or 2b", ("1", "2a", "2b")),
        "met": O_MET,
        "boards": O_BOARDS(57),
    }

    def cells(self, n, options):
        _need(self.id, "pairs", n, 4)
        rnd = options["round"]
        if rnd == "1":
            size = min(SILVER_CAP, met_winner(n, options["met"]) if 0 < options["met"] < n - 1 else n)
            return silver_cells("D", "A", n, winner_field=size), {"bp": 2 * BRONZE_MIN}
        if rnd == "2a":
            golds = fixed_scale("H1-2A")
            scale = _bronze("A", n)
            red = [(float(3 * (scale[p - 1] if p <= len(scale) else BRONZE_MIN)), "bp")
                   for p in range(len(golds) + 1, min(18, n) + 1)]  # 'samt brons till och med 18:e plats'
            return golds[:n] + red, {"bp": 3 * BRONZE_MIN}
        size = min(SILVER_CAP, n)
        if n >= 100:
            first = [int(p) for p, _ in fixed_scale("H1-2B")]
            return gold_cells("D", "A", n, size, 4, False, first_places=first), {"bp": 3 * BRONZE_MIN}
        return gold_cells("D", "A", n, size, 3, False), {"bp": 3 * BRONZE_MIN}


class SmPairsOther(_Scheme):
    id = "se.gold.sm-pairs-other"
    title = "SM pairs finals for seniors, ladies, juniors and mixed (table H2, then table D)"
    units = ("gp", "sp", "bp")
    section = "9, table H2"
    options = {
        "category": Option("category", "str", "seniors", "seniors, ladies, juniors or mixed", ("seniors", "ladies", "juniors", "mixed")),
        "boards": O_BOARDS(57),
    }

    def cells(self, n, options):
        _need(self.id, "pairs", n, 4)
        first = [int(p) for p, _ in fixed_scale("H2-mixed" if options["category"] == "mixed" else "H2")]
        size = min(SILVER_CAP, ceil(n * boards_coefficient(options["boards"])))
        return gold_cells("D", "A", n, size, 4, False, first_places=first[:n]), {"bp": 3 * BRONZE_MIN}


SCHEMES = (
    BronzePairs(),
    BronzeHandicap(),
    BronzeTeamBarometer(),
    BronzeTeamSeries(),
    SeriesBonus(),
    BronzeIndividual(),
    BeginnersMeeting(),
    SilverPairs(),
    SilverTeamBarometer(),
    SilverTeamSeries(),
    SilverIndividual(),
    SimultaneousHeat(),
    SimultaneousBonus(),
    DmBonus(),
    GoldPairs(),
    GoldTeamBarometer(),
    GoldIndividual(),
    GoldTeamSeries(),
    SmTeamsBonus(),
    SmTeamsVeterans(),
    SmPairsFinal(),
    SmPairsOther(),
    RallyBonus(),
)
