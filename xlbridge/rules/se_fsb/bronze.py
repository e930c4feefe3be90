"""Svenska Mästarpoäng 2009: bronze points, reserves and bonus eligibility.

Document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*, Rev 1.1
(MME 090427), Förbundet Svensk Bridge (``docs/sources/000_b38bcd2d61619209.txt``).

Sections implemented here:

- 9 (MP-tabeller), tables A1 and A2 (``se.bronze.pairs``, strength groups by
  :func:`group_coefficient`, :func:`grouped_size`), B1 (``se.bronze.team-barometer``, :func:`share_by_matches`),
  C (``se.bronze.individual``);
- 5 (Tävlingarna): Handikapptävlingar (``se.bronze.handicap``, :func:`handicap_awards`),
  Nybörjarträffen (``se.bronze.beginners-meeting``), Reserver (:func:`reserve_share`);
- bonus eligibility of tables B2/B3 (:func:`series_bonus_eligible`), G1
  (:func:`sm_teams_bonus_eligible`) and the DM finals (:func:`dm_pairs_bonus_eligible`).

References:
    Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
    Rev 1.1 (MME 090427), section 5 and section 9, tables A1, A2, B1, B2, B3, C, G1,
    "Bonus för DM-finaler".
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from xlbridge.rules.base import Award, Option, Ranks, RuleError, load_table
from xlbridge.rules.se_fsb import tables as t
from xlbridge.rules.se_fsb.helpers import BRONZE_MIN, bronze_row, ceil, cells_of, halve, need_boards, need_units
from xlbridge.rules.se_fsb.options import O_BOARDS, O_GROUP, O_GROUPS, Scheme


@cache
def group_coefficient(groups: int, group: str) -> float:
    for r in load_table("se_groups"):
        if int(r["groups"]) == groups and r["group"].lower() == group.lower():
            return float(r["coefficient"])
    raise KeyError((groups, group))


def grouped_size(scheme: str, n: int, options: dict[str, Any]) -> int:
    """The pair count a strength group's ranking takes its row for (options ``groups``, ``group``): 'Vid
    gruppindelning för par efter spelstyrka korrigeras parantalet med ovanstående koefficient ... Det är
    parantalet som multipliceras, inte poängen i tabellen. Decimaler avrundas uppåt.' (under A1; table D:
    'Vid gruppindelning gäller samma bestämmelser som för bronspoäng')."""
    factor = group_factor(scheme, options)
    return n if factor == 1.0 else ceil(n * factor)


def group_factor(scheme: str, options: dict[str, Any]) -> float:
    """The coefficient of A1's strength groups for ``options`` (``groups``, ``group``); 1 without groups."""
    groups, letter = options["groups"], options["group"]
    if groups == 1:
        if letter:  # ('group=b' alone was ignored: the whole field's row)
            raise RuleError("se.bronze.group-without-groups", "{scheme}: option group {letter} needs groups, the "
                            "number of strength groups (2-5)", scheme=scheme, option="groups", letter=letter.upper())
        return 1.0
    if not 2 <= groups <= 5:
        raise RuleError("se.bronze.groups-range", "{scheme} option groups must be 1-5; got {value}",
                        scheme=scheme, option="groups", value=groups)
    if not letter:  # ('groups=2' alone meant group A)
        raise RuleError("se.bronze.group-missing", "{scheme}: with {groups} strength groups, option group says which "
                        "this ranking is (a = the strongest)", scheme=scheme, option="group", groups=groups)
    if "abcde".index(letter) >= groups:
        raise RuleError("se.bronze.no-such-group", "{scheme}: there is no group {letter} among {groups} groups",
                        scheme=scheme, option="group", letter=letter.upper(), groups=groups)
    return group_coefficient(groups, letter)


class BronzePairs(Scheme):
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
        need_units(self.id, "pairs", n, 4)
        boards = options["boards"]
        beginners_scale = False
        if boards < 18:
            if options["beginners"] and boards >= 10:
                beginners_scale = True
            else:
                raise RuleError(
                    "se.bronze.boards",
                    "{scheme} needs at least 18 boards (10 in a beginners' event, beginners=yes); got {value}",
                    scheme=self.id, option="boards", value=boards,
                )
        values = bronze_row("A", grouped_size(self.id, n, options))[:n]
        cells = cells_of(values, "bp")
        if beginners_scale:
            return halve(cells, 2), {"bp": 2}
        return cells, {"bp": BRONZE_MIN}


class BronzeHandicap(Scheme):
    id = "se.bronze.handicap"
    title = "Bronze points, handicap list of a pairs event (half of tables A1/A2)"
    units = ("bp",)
    section = "5, Handikapptävlingar"
    options = {"boards": O_BOARDS(18)}

    def cells(self, n, options):
        need_units(self.id, "pairs", n, 4)
        need_boards(self.id, options["boards"], 18)
        return halve(cells_of(bronze_row("A", n), "bp"), 2), {"bp": 2}


def handicap_awards(scratch: Ranks, handicap: Ranks, boards: int = 18) -> list[Award]:
    """Section 5: bronze without handicap and, at half scale, after handicap; each pair keeps the better.

    >>> [a.points for a in handicap_awards([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1])]
    [12.0, 8.0, 0.0, 0.0, 4.0, 6.0]
    """
    from xlbridge.rules import awards as _awards

    a = _awards("se.bronze.pairs", scratch, boards=boards)
    b = _awards("se.bronze.handicap", handicap, boards=boards)
    return [x if x.points >= y.points else y for x, y in zip(a, b)]


class BronzeTeamBarometer(Scheme):
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
        need_units(self.id, "teams", n, 4)
        need_boards(self.id, options["boards"], 18)
        division = options["division"]
        factor = {0: 1.0, 1: 1.2, 2: 0.8}.get(division)
        if factor is None:
            raise RuleError("se.bronze.division", "{scheme} option division must be 0, 1 or 2; got {value}",
                            scheme=self.id, option="division", value=division)
        # 'Bästa tredjedelen lag inom varje division får bronspoäng': the row of the multiplied count, to one
        # third of the real division; a row shorter than that (division 2) goes on by B1's own principle,
        # 'varje poängberättigad spelare erhåller 2/3 av närmast bättre placerad spelares poäng', at least 4
        values = bronze_row("B1", ceil(n * factor))[: t.third(n)]
        while len(values) < t.third(n):
            values.append(max(BRONZE_MIN, ceil(values[-1] * 2 / 3)))
        return cells_of(values, "bp"), {}


def share_by_matches(points: float, played: int, total: int) -> float:
    """Tables B1/E1: a team using more than 4 players -- a player's share is in proportion to matches
    played ('Har man spelat 10 matcher av 15 erhåller berättigade spelare 2/3'), at least one third
    of the matches; decimals rounded up.

    >>> share_by_matches(30, 10, 15)
    20.0
    """
    if total < 1 or not 0 <= played <= total:
        raise RuleError("se.matches.played-range", "share_by_matches: played must be 0..{total}; got {played}",
                        argument="played", total=total, played=played)
    if played * 3 < total:
        raise RuleError("se.matches.too-few-played",
                        "share_by_matches: at least one third of the {total} matches must be played; got {played}",
                        argument="played", total=total, played=played)
    return float(ceil(points * played / total))


def _fraction(rule: str, name: str, value: Any) -> Fraction:
    try:
        number = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise RuleError("se.number.not-a-number", "{rule}: {argument} must be a number; got {value!r}",
                        rule=rule, argument=name, value=value) from None
    if number < 0:
        raise RuleError("se.number.negative", "{rule}: {argument} must not be negative; got {value!r}",
                        rule=rule, argument=name, value=value)
    return number


def _count(rule: str, name: str, played: Any, total: Any) -> tuple[Fraction, Fraction]:
    done, whole = _fraction(rule, name + "_played", played), _fraction(rule, name, total)
    if whole <= 0:
        raise RuleError("se.count.zero", "{rule}: {argument} must be at least 1; got {total!r}",
                        rule=rule, argument=name, total=total)
    if done > whole:
        raise RuleError("se.count.played-range", "{rule}: {argument} must be 0..{total}; got {played!r}",
                        rule=rule, argument=name + "_played", total=total, played=played)
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
        raise RuleError("se.reserve.evenings-pair",
                        "{rule}: give both evenings_played and evenings (multi-evening event) or neither",
                        rule=rule, argument="evenings")
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
        raise RuleError("se.g1.boards-per-match", "{rule}: table G1 has 20- or 24-board matches; got {value}",
                        rule=rule, argument="boards_per_match", value=boards_per_match)
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


class BronzeIndividual(Scheme):
    id = "se.bronze.individual"
    title = "Bronze points, individual (table C)"
    units = ("bp",)
    section = "9, table C"
    options = {"boards": O_BOARDS(18)}

    def cells(self, n, options):
        need_units(self.id, "players", n, 8)
        need_boards(self.id, options["boards"], 18)
        return cells_of(bronze_row("C", n), "bp"), {"bp": BRONZE_MIN}


class BeginnersMeeting(Scheme):
    id = "se.bronze.beginners-meeting"
    title = "Bronze points, beginners' meeting (Nybörjarträffen: 50- or 100-pair scale of A2)"
    units = ("bp",)
    section = "5, Nybörjarträffen"
    options = {}

    def cells(self, n, options):
        need_units(self.id, "pairs", n, 4)
        scale = 50 if n <= 99 else 100
        return cells_of(bronze_row("A", scale)[: t.third(n)], "bp"), {"bp": BRONZE_MIN}
