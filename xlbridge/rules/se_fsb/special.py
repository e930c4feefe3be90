"""Svenska Mästarpoäng 2009: special events -- simultaneous events, district finals, SM finals, rallies.

Document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*, Rev 1.1
(MME 090427), Förbundet Svensk Bridge (``docs/sources/000_b38bcd2d61619209.txt``).

Sections implemented here:

- 5 (Tävlingarna): Simultantävlingar (``se.silver.simultaneous-heat``,
  ``se.silver.simultaneous-bonus``), Rallytävlingar (``se.gold.rally-bonus``);
- 9 (MP-tabeller): "Bonus för DM-finaler" (``se.silver.dm-bonus``), tables G1 bonus
  (``se.gold.sm-teams-bonus``), G2 (``se.gold.sm-teams-veterans``), H1
  (``se.gold.sm-pairs-final``) and H2 (``se.gold.sm-pairs-other``).

References:
    Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
    Rev 1.1 (MME 090427), section 5 and section 9, tables G1, G2, H1, H2, DM bonus (page 15).
"""

from __future__ import annotations

from xlbridge.rules.base import Award, Option, RuleError
from xlbridge.rules.se_fsb import tables as t
from xlbridge.rules.se_fsb.helpers import (
    BRONZE_MIN, DECIMALS, SILVER_CAP, boards_coefficient, ceil, met_winner, need_units, red_cells, no_ties,
)
from xlbridge.rules.se_fsb.options import O_BOARDS, O_MET, Scheme
from xlbridge.rules.se_fsb.silver_gold import SilverPairs, SilverScheme, fixed_scale, gold_cells, silver_cells


class SimultaneousBonus(Scheme):
    id = "se.silver.simultaneous-bonus"
    title = "Silver bonus on the common list of a simultaneous event (1/5 of table D, at most 16 pairs)"
    units = ("sp",)
    section = "5, Simultantävlingar"
    options = {}

    def cells(self, n, options):
        need_units(self.id, "pairs", n, 8)
        silver = t.silver_scale("D", min(n, SILVER_CAP))
        return [(float(ceil(v / 5)), "sp") for v in silver[: min(16, t.quarter(n))]], {}


class SimultaneousHeat(SilverPairs):
    id = "se.silver.simultaneous-heat"
    title = "Silver points in one heat of a simultaneous event (table D, at least 8 pairs per heat)"
    section = "5, Simultantävlingar; 9, table D"
    # a heat has no finals: the A/B/C-final options of se.silver.pairs do not apply
    options = {k: v for k, v in SilverPairs.options.items() if k in ("boards", "met", "championship", "stopped")}

    def cells(self, n, options):
        return SilverScheme.cells(self, n, options)

    def minimum(self, options):
        return 8  # 'Minst 8 par måste delta i varje heat.'


class RallyBonus(Scheme):
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
        if options["events"] < 6:
            raise RuleError("se.rally.too-few-events", "{scheme} needs at least {minimum} silver events; got {value}",
                            scheme=self.id, option="events", minimum=6, value=options["events"])
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


class DmBonus(Scheme):
    id = "se.silver.dm-bonus"
    title = "Silver bonus per player in district (DM) finals"
    units = ("sp",)
    section = "9, Bonus för DM-finaler (page 15)"
    options = {"kind": Option("kind", "str", "other", "team = DM-final/SM-kval lag, pairs = DM-par/SM-kval open, other",
                              ("team", "pairs", "other"))}

    def awards(self, ranks, options):
        self.check_ranks(ranks, options)
        if options["kind"] == "team":
            no_ties(self.id, ranks)  # 'Delad placering i lagtävling förekommer ej.'
        cells = fixed_scale({"team": "DM-team", "pairs": "DM-pairs", "other": "DM-other"}[options["kind"]])
        # 'Delad placering ger här den högre bonusen.'
        return [Award(0.0, "sp", DECIMALS) if r is None or r > len(cells) else Award(cells[int(r) - 1][0], "sp", DECIMALS)
                for r in ranks]


class SmTeamsBonus(Scheme):
    id = "se.gold.sm-teams-bonus"
    title = "Gold bonus per player in the SM final for teams (table G1)"
    units = ("gp",)
    section = "9, table G1"
    team = True
    options = {}

    def cells(self, n, options):
        return fixed_scale("G1-bonus"), {}


class SmTeamsVeterans(Scheme):
    id = "se.gold.sm-teams-veterans"
    title = "Gold points per player, SM final teams for veterans and juniors (table G2, matches under 12 boards)"
    units = ("gp",)
    section = "9, table G2"
    team = True
    options = {"boards": Option("boards", "int", 11, "boards per match (the scale is for fewer than 12)")}

    def cells(self, n, options):
        need_units(self.id, "teams", n, 8)
        if options["boards"] >= 12:
            raise RuleError("se.g2.boards", "{scheme}: for matches of 12 boards or more another scale applies "
                            "(contact the office); got {value}", scheme=self.id, option="boards", value=options["boards"])
        return fixed_scale("G2-8" if n == 8 else "G2-9-12" if n <= 12 else "G2-13"), {}


class SmPairsFinal(Scheme):
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
        need_units(self.id, "pairs", n, 4)
        rnd = options["round"]
        if rnd == "1":
            all_met = not 0 < options["met"] < n - 1
            size = min(SILVER_CAP, n if all_met else met_winner(n, options["met"]))
            return silver_cells("D", "A", n, winner=size, all_met=all_met), {"bp": 2 * BRONZE_MIN}
        if rnd == "2a":
            golds = fixed_scale("H1-2A")
            red = red_cells("A", n, len(golds), 3, last=min(18, n))  # 'samt brons till och med 18:e plats'
            return golds[:n] + red, {"bp": 3 * BRONZE_MIN}
        size = min(SILVER_CAP, n)
        if n >= 100:
            first = [int(p) for p, _ in fixed_scale("H1-2B")]
            return gold_cells("D", "A", n, size, 4, False, first_places=first), {"bp": 3 * BRONZE_MIN}
        return gold_cells("D", "A", n, size, 3, False), {"bp": 3 * BRONZE_MIN}


class SmPairsOther(Scheme):
    id = "se.gold.sm-pairs-other"
    title = "SM pairs finals for seniors, ladies, juniors and mixed (table H2, then table D)"
    units = ("gp", "sp", "bp")
    section = "9, table H2"
    options = {
        "category": Option("category", "str", "seniors", "seniors, ladies, juniors or mixed", ("seniors", "ladies", "juniors", "mixed")),
        "boards": O_BOARDS(57),
    }

    def cells(self, n, options):
        need_units(self.id, "pairs", n, 4)
        first = [int(p) for p, _ in fixed_scale("H2-mixed" if options["category"] == "mixed" else "H2")]
        size = min(SILVER_CAP, ceil(n * boards_coefficient(options["boards"])))
        return gold_cells("D", "A", n, size, 4, False, first_places=first[:n]), {"bp": 3 * BRONZE_MIN}
