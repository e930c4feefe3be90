"""Svenska Mästarpoäng 2009: silver and gold points (tables D, E1, F and the gold section).

Document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*, Rev 1.1
(MME 090427), Förbundet Svensk Bridge (``docs/sources/000_b38bcd2d61619209.txt``).

Sections implemented here:

- 9 (MP-tabeller), table D (``se.silver.pairs``), E1 (``se.silver.team-barometer``),
  F (``se.silver.individual``): silver to the best quarter (at most 16), bronze x 2
  in red to one third (:func:`silver_cells`), the reduction of bronze above the
  lowest silver, pairs met (option ``met``), strength groups (``groups``, ``group``), the
  boards coefficient, 36-41 boards on half scale;
- 9, Guldpoäng (``se.gold.pairs``, ``se.gold.team-barometer``, ``se.gold.individual``):
  the silver figures in gold, "förhöjt guld", silver to the 16th, bronze x 3
  (:func:`gold_cells`, the fixed scales of :func:`fixed_scale`);
- 5 (Tävlingarna) and the page 4 table: minimum pairs and boards for silver and gold,
  the A-final with carry-over and the B/C finals with the TK's approval.

References:
    Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
    Rev 1.1 (MME 090427), section 5 (page 4) and section 9, tables D, E1, F, Guldpoäng.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from xlbridge.rules.base import Option, RuleError, load_table
from xlbridge.rules.se_fsb import tables as t
from xlbridge.rules.problems import translate
from xlbridge.rules.se_fsb.helpers import (
    BRONZE_MIN, SILVER_CAP, UNIT_WORDS, Cell, a_final_winner, boards_coefficient, boards_problem, ceil, cells_of, halve,
    met_winner, need_boards, need_units, red_cells,
)
from xlbridge.rules.se_fsb.bronze import group_factor
from xlbridge.rules.se_fsb.options import O_BOARDS, O_GROUP, O_GROUPS, O_MET, O_STOPPED, Scheme


def _silver_scale(family: str, winner: int, n: int, places: int | None = None, field: int | None = None) -> list[int]:
    """Silver figures of the scale whose winner gets ``winner`` (:func:`tables.winner_scale`; ``field``:
    the field the points were counted for), for ``places`` places -- by default the best quarter of both
    that scale's field and the real field ``n`` (at most 16): 'antalet par, som får poäng, blir 12 (och
    inte 15)'."""
    count = min(t.quarter(t.equivalent(family, winner, field)), t.quarter(n)) if places is None else places
    return t.winner_scale(family, winner, field)[:count]


def silver_cells(family: str, bronze_family: str, n: int, *, winner: int, field: int | None = None,
                 factor: int = 2, half: bool = False, bronze: bool = True, all_met: bool = False) -> list[Cell]:
    """Silver to the best quarter (at most 16) from the scale whose winner gets ``winner`` points (counted
    for ``field``, by default ``n``), then bronze x ``factor`` to one third of the real field ``n``.

    The table's row with its red figures applies as it stands only when ``all_met`` (all met all,
    no boards coefficient): 'Röda siffror anger vilka som får bronspoäng. OBS! Dessa poäng gäller om
    alla mött alla. I övriga fall måste man gå in i tabellen för bronspoäng och rätt parantal.'
    Otherwise the bronze is the bronze table of the real field x ``factor``, even when the winner's
    figure happens to equal the field's (40 pairs, each met 38: 1 + 38 + 1/2 = 39.5 -> 40)."""
    field = n if field is None else field
    if all_met and field == n and winner == t.WINNER[family](n) and factor == 2 and bronze and (
            n in t.final_printed(family) or t.interpolated(family, n) is not None):
        # the printed row (or the row interpolated between two printed rows), red figures included
        cells = [(float(p), u) for p, u in t.row(family, n)]
        silver = [c for c in cells if c[1] == "sp"]
        red = [c for c in cells if c[1] == "bp"]
    else:
        silver = cells_of(_silver_scale(family, winner, n, field=field), "sp")
        red = red_cells(bronze_family, n, len(silver), factor,
                        lowest_silver=silver[-1][0] if silver else None) if bronze else []
    if half:  # the reduction holds on the half scale too: no bronze above the (halved) lowest silver
        silver = halve(silver, 1)
        red = [(min(p, silver[-1][0] * 10), u) for p, u in red] if silver else red
    return silver + red


class SilverScheme(Scheme):
    family = "D"
    bronze_family = "A"
    unit_word = "pairs"
    min_units = 16
    min_boards = 42
    half_boards = 36  # 36-41 boards: half silver scale (pairs only)
    gold = False
    coefficient = True  # the boards coefficient of 100+ boards (tables D and E1; table F has none)

    def winner(self, n: int, options: Mapping[str, Any], groups: float = 1.0) -> tuple[int, int]:
        """The winner's points and the field they are counted for: the field, or 1 + met + half the units
        not met (rounded up); the table's winner for it times the boards coefficient (rounded up), at
        most 100.  The coefficient multiplies the points, not the units: 'utdelas poäng efter 1,2 x
        poängantalet' (table D), 'samma koefficient som i tabell D' (E1: 16 teams, 24 x 1,2 = 28,8 -> 29)."""
        met = options.get("met", 0)
        if met < 0 or met > n - 1:
            raise RuleError("se.silver.met", "{scheme} option met must be 0..{most} (0 = all met all) for {n} {what}; "
                            "got {value}", scheme=self.id, option="met", most=n - 1, n=n,
                            what=translate(UNIT_WORDS[self.unit_word]), value=met)
        size = met_winner(n, met) if 0 < met < n - 1 else n
        size = size if groups == 1.0 else ceil(size * groups)  # strength groups: the pair count multiplied
        factor = boards_coefficient(options["boards"]) if self.coefficient else 1.0
        return min(SILVER_CAP, ceil(t.WINNER[self.family](size) * factor)), size

    def as_printed(self, n: int, options: Mapping[str, Any]) -> bool:
        """The table's row applies as printed: all met all ('Dessa poäng gäller om alla mött alla') and
        no boards coefficient (with one, 'erhåller paren ner till 1/3 bronspoäng enligt skalan för
        antalet startande par')."""
        met = options.get("met", 0)
        return (met == 0 or met >= n - 1) and boards_coefficient(options["boards"]) == 1.0

    def minimum(self, options: Mapping[str, Any]) -> int:
        return self.min_units

    def check_boards(self, n: int, options: Mapping[str, Any]) -> bool:
        boards = options["boards"]
        if boards >= self.min_boards:
            return False
        if self.half_boards and boards >= self.half_boards:
            return True
        low = self.half_boards or self.min_boards
        raise boards_problem(self.id, boards, low)

    def cells(self, n, options):
        need_units(self.id, self.unit_word, n, self.minimum(options))
        half = self.check_boards(n, options)
        # strength groups (table D): 'Vid gruppindelning gäller samma bestämmelser som för bronspoäng' -- the
        # group's pairs take the row of the corrected pair count, more or fewer places than a third
        factor = group_factor(self.id, options) if "groups" in self.options else 1.0
        size = n if factor == 1.0 else ceil(n * factor)
        winner, field = self.winner(n, options, factor)  # (pairs met: of the group's real pairs)
        cells = silver_cells(self.family, self.bronze_family, size, winner=winner, field=field, half=half,
                             all_met=self.as_printed(n, options))
        return cells[:n], {"bp": 2 * BRONZE_MIN}


class SilverPairs(SilverScheme):
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
        "groups": O_GROUPS,
        "group": O_GROUP,
        "stopped": O_STOPPED,
        "above": Option("above", "int", 0, "B/C final with carry-over: pairs placed in the finals above this one "
                        "(0 = the A-final)"),
        "approved": Option("approved", "bool", False, "B/C final with carry-over: the TK approved in advance the "
                           "distribution of the document's example (the overall scale continued)"),
    }

    def cells(self, n, options):
        if options["above"] and not (options["final_rounds"] or options["qual_rounds"] or options["total"]):
            raise RuleError("se.silver.above-needs-rounds", "{scheme}: option above (a B/C final with carry-over) needs "
                            "qual_rounds, final_rounds and total of the qualification and A-final",
                            scheme=self.id, option="above")
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
            raise RuleError("se.silver.a-final-rounds",
                            "{scheme}: an A-final needs qual_rounds and final_rounds of at least 1; got {qual} and {final}",
                            scheme=self.id, option="qual_rounds" if q < 1 else "final_rounds", qual=q, final=f)
        if total < n:
            raise RuleError("se.silver.a-final-total",
                            "{scheme}: total (pairs of the qualification) must be at least the {n} finalists; got {value}",
                            scheme=self.id, option="total", n=n, value=total)
        half = self.check_boards(n, options)  # page 4: 36-41 boards '* Spelas med halv silverpoängskala'
        winner = min(SILVER_CAP, a_final_winner(q, f, total))
        count = min(t.quarter(winner), n)  # 'De första 11 (43/4) får sp och inga bp delas ut i A-finalen.'
        silver = cells_of(t.silver_scale("D", winner)[:count], "sp")
        return (halve(silver, 1) if half else silver), {}

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
                "se.silver.needs-approval",
                "{scheme}: silver and bronze in a B- or C-final with carry-over need the TK's approval, asked in "
                "advance, of how the organiser will distribute them ('Dock ska särskild tillåtelse i dessa fall "
                "begäras från TK genom att meddela hur man tänker fördela silver- och bronspoängen'; 'Ansökan ... "
                "måste göras på förhand'); the document does not fix the distribution. If the TK approved the "
                "document's example (the A-final scale continued, then bronze of the whole field), give "
                "approved=true; without carry-over the final is a new bronze event (se.bronze.pairs)",
                scheme=self.id, option="approved",
            )
        if above < 1 or above + n > total:
            raise RuleError("se.silver.above-range", "{scheme}: option above (pairs in the finals above) must be "
                            "1..{most} so that above + the {n} pairs of this final fit in total={total}; got {value}",
                            scheme=self.id, option="above", most=total - n, n=n, total=total, value=above)
        q, f = options["qual_rounds"], options["final_rounds"]
        if q < 1 or f < 1:
            raise RuleError("se.silver.carry-over-rounds", "{scheme}: a final with carry-over needs qual_rounds and "
                            "final_rounds (of the A-final) of at least 1; got {qual} and {final}",
                            scheme=self.id, option="qual_rounds" if q < 1 else "final_rounds", qual=q, final=f)
        half = self.check_boards(n, options)
        winner = min(SILVER_CAP, a_final_winner(q, f, total))
        silver = cells_of(t.silver_scale("D", winner)[:t.quarter(winner)], "sp")
        silver = halve(silver, 1) if half else silver
        overall = silver + red_cells("A", total, len(silver), lowest_silver=silver[-1][0] if silver else None)
        return overall[above:], {"bp": BRONZE_MIN}


class SilverTeamBarometer(SilverScheme):
    id = "se.silver.team-barometer"
    title = "Silver points per player, team barometer (table E1, bronze in red)"
    units = ("sp", "bp")
    section = "9, table E1"
    family, bronze_family, unit_word, min_units, half_boards = "E1", "B1", "teams", 8, 0
    team = True
    options = {"boards": O_BOARDS(42), "met": O_MET, "stopped": O_STOPPED}


class SilverIndividual(SilverScheme):
    id = "se.silver.individual"
    title = "Silver points, individual (table F, bronze in red)"
    units = ("sp", "bp")
    section = "9, table F"
    family, bronze_family, unit_word, min_units, min_boards, half_boards = "F", "C", "players", 16, 38, 0
    options = {"boards": O_BOARDS(38), "rounds": Option("rounds", "int", 0, "rounds each player played when not all played with all; 0 = all with all"),
               "stopped": O_STOPPED}

    def cells(self, n, options):
        need_units(self.id, self.unit_word, n, self.min_units)
        self.check_boards(n, options)
        rounds = options["rounds"]
        if not 0 <= rounds <= 200:
            raise RuleError("se.silver.rounds", "{scheme} option rounds must be 0-200 (0 = round robin); got {value}",
                            scheme=self.id, option="rounds", value=rounds)
        if not rounds or rounds >= n - 1:
            return silver_cells("F", "C", n, winner=t.WINNER["F"](n), all_met=True), {"bp": 2 * BRONZE_MIN}
        # 'Ex: 24 spelare som spelar 19 ronder. (19+1) x 0,75 + 4 x 0,75/2 = 16,5 = 17 sp.'
        equivalent = 1 + rounds + (n - 1 - rounds) / 2
        winner = ceil(0.75 * equivalent)
        count = min(t.quarter(ceil(equivalent)), t.quarter(n))
        size = ceil(equivalent)
        # 'används samma princip som för par': as in table D ('Tvåan, trean osv erhåller då poäng enligt
        # tabellen för 46 par') the places after the winner follow the table's row of the equivalent field
        # (printed, interpolated between printed rows, or the principle); up to 32 that row is the 2/3 chain
        # from the winner, which the example shows: 17, 12, 8, 6, 4, 3 sp
        silver = t.chain(winner, count) if size <= t.HALF_RULE_FROM else [winner, *t.silver_scale("F", size)[1:count]]
        return cells_of(silver, "sp") + red_cells("C", n, count, 2, lowest_silver=silver[-1]), {"bp": 2 * BRONZE_MIN}


def gold_cells(family: str, bronze_family: str, n: int, winner: int, gold_places: int, enhanced: bool,
               first_places: Sequence[int] | None = None, field: int | None = None) -> list[Cell]:
    """Gold section: 'Poäng vid guldtävlingar räknas som för silverpoäng men i guldvaluta' (52 sp -> 6 gp),
    gold to the first 2/3 (enhanced: 10, 7, 5, 4), then silver to at most the 16th place, then bronze x 3
    to one third; ``winner`` is the silver winner's points (counted for ``field``), as in
    :func:`silver_cells`."""
    places = min(16, max(t.quarter(t.equivalent(family, winner, field)), gold_places))
    silver = _silver_scale(family, winner, n, places=places, field=field)
    if first_places is not None:
        golds = list(first_places)
    elif enhanced:
        golds = [int(r["points"]) for r in _fixed("gold-enhanced")]
    else:
        golds = [ceil(v / 10) for v in silver[:gold_places]]
    count = len(golds)
    cells: list[Cell] = cells_of(golds, "gp")
    rest = [v for v in silver[count: min(t.quarter(n), 16)]]
    cells += cells_of(rest, "sp")
    return cells + red_cells(bronze_family, n, len(cells), 3, lowest_silver=rest[-1] if rest else None)


@cache
def _fixed(scale: str) -> tuple[dict[str, str], ...]:
    rows = tuple(r for r in load_table("se_fixed_scales") if r["scale"] == scale)
    if not rows:
        raise KeyError(scale)
    return rows


def fixed_scale(scale: str) -> list[Cell]:
    """A fixed scale of se_fixed_scales.csv as cells."""
    return [(float(r["points"]), r["unit"]) for r in _fixed(scale)]


class GoldScheme(SilverScheme):
    units = ("gp", "sp", "bp")
    min_boards = 54
    half_boards = 0
    gold_from = 28  # 'Guldtävlingar kräver minst 28 par och minst 54 brickor, varvid två par får guldpoäng'
    three_from = 32  # 'Vid 32 och högre parantal ska minst 57 brickor spelas. I sådana fall får tre par guldpoäng.'

    def gold_places(self, n: int, options: Mapping[str, Any]) -> int:
        need_units(self.id, self.unit_word, n, self.gold_from)
        need_boards(self.id, options["boards"], self.min_boards)
        if n >= self.three_from:
            if options["boards"] < 57:
                raise RuleError("se.gold.boards", "{scheme}: {n} {what} need at least 57 boards; got {value}",
                                scheme=self.id, option="boards", n=n, what=translate(UNIT_WORDS[self.unit_word]),
                                value=options["boards"])
            return 3
        return 2

    def cells(self, n, options):
        places = self.gold_places(n, options)
        winner, field = self.winner(n, options)
        return gold_cells(self.family, self.bronze_family, n, winner, places, options["enhanced"],
                          field=field), {"bp": 3 * BRONZE_MIN}


_GOLD_OPTIONS = {
    "boards": O_BOARDS(57),
    "met": O_MET,
    "enhanced": Option("enhanced", "bool", False, "'förhöjt guld': 10, 7, 5 and 4 gp to four pairs/teams"),
    "stopped": O_STOPPED,
}


class GoldPairs(GoldScheme):
    id = "se.gold.pairs"
    title = "Gold points, pairs (computed as table D in gold; silver to 16th, bronze x 3)"
    section = "9, Guldpoäng; 5 (Guldtävlingar)"
    options = dict(_GOLD_OPTIONS)


class GoldTeamBarometer(GoldScheme):
    id = "se.gold.team-barometer"
    title = "Gold points per player, team event (table E1 in gold; silver to 16th, bronze x 3)"
    section = "9, Guldpoäng and table E1; 5 (Guldtävlingar: at least 16 teams)"
    family, bronze_family, unit_word = "E1", "B1", "teams"
    team = True
    options = dict(_GOLD_OPTIONS)

    def gold_places(self, n, options):
        need_units(self.id, "teams", n, 16)  # 'Vid lagtävlingar ska minst 16 lag deltaga.'
        need_boards(self.id, options["boards"], self.min_boards)
        return 3


class GoldIndividual(GoldScheme):
    id = "se.gold.individual"
    title = "Gold points, individual (table F in gold; silver to 16th, bronze x 3)"
    section = "9, Guldpoäng and table F; 5 (28/32 players, 54/57 boards)"
    family, bronze_family, unit_word = "F", "C", "players"
    coefficient = False  # 'räknas som för silverpoäng': table F (se.silver.individual) has no boards coefficient
    options = dict(_GOLD_OPTIONS)
