"""Svenska Mästarpoäng 2009: team series and cups, match by match, and their bonuses.

Document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*, Rev 1.1
(MME 090427), Förbundet Svensk Bridge (``docs/sources/000_b38bcd2d61619209.txt``).

Sections implemented here:

- 9 (MP-tabeller), tables B2, B3, B4 (``se.bronze.team-series``), E2-E7
  (``se.silver.team-series``), G1 and G3 (``se.gold.team-series``): a team's points
  per match (:func:`match_points`, won/drawn/lost by :func:`match_outcome`), a
  player's share (:func:`player_share`, :func:`series_total`), E7's division III
  paid in gold (:func:`allsvenskan_div3_gold`), G3's 20 % bonus
  (:func:`allsvenskan_bonus`); the B2 bonus table with B3's divisions
  (``se.bronze.series-bonus``);
- 5 (Tävlingarna): "WO eller avbruten tävling" -- no mp for a walkover (option ``walkover``).

References:
    Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
    Rev 1.1 (MME 090427), section 5 and section 9, tables B2-B4, E2-E7, G1, G3.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from xlbridge.rules.base import Award, Option, RuleError, load_table, option_problem
from xlbridge.rules.se_fsb import tables as t
from xlbridge.rules.se_fsb.helpers import DECIMALS, ceil, need_boards, need_units
from xlbridge.rules.se_fsb.options import O_BOARDS, Scheme


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
        raise RuleError("se.match.vp-scale", "match_outcome: VP scale must be one of {scales}; got {scale}",
                        argument="scale", scales=", ".join(map(str, sorted(scales))), scale=scale)
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
        raise RuleError("se.match.unknown-table", "match_points: unknown series table {table!r}",
                        argument="table", table=table)
    if outcome not in ("won", "drawn", "lost"):
        raise RuleError("se.match.outcome", "match_points: outcome must be won, drawn or lost; got {outcome!r}",
                        argument="outcome", outcome=outcome)
    in_divisions = [r for r in rows if int(r["divisions"]) in (0, divisions)]
    in_division = [r for r in in_divisions if int(r["division"]) in (0, division)]
    chosen = next((r for r in in_division if int(r["min_boards"]) <= boards
                   and not (r["max_boards"] and boards > int(r["max_boards"]))), None)
    if chosen is None:
        wrong = "boards" if in_division else "division" if in_divisions else "divisions"
        raise RuleError(
            "se.match.no-figure",
            "match_points: table {table} has no figure for divisions={divisions}, division={division}, boards={boards}",
            argument=wrong, table=table, divisions=divisions, division=division, boards=boards,
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
        raise RuleError("se.match.halves-range", "player_share: halves_played must be 0..{halves}; got {value}",
                        argument="halves_played", halves=halves, value=halves_played)
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
        raise RuleError("se.e7.negative", "allsvenskan_div3_gold: sp_total must not be negative; got {value}",
                        argument="sp_total", value=sp_total)
    if final_place < 1:
        raise RuleError("se.e7.final-place", "allsvenskan_div3_gold: final_place must be 1 or more; got {value}",
                        argument="final_place", value=final_place)
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
        raise RuleError("se.g3.negative", "allsvenskan_bonus: gp_total must not be negative; got {value}",
                        argument="gp_total", value=gp_total)
    if division not in (1, 2):
        raise RuleError("se.g3.division",
                        "allsvenskan_bonus: Allsvenskan in gold (table G3) has division 1 or 2; got {value}",
                        argument="division", value=division)
    if final_place < 1:
        raise RuleError("se.g3.final-place", "allsvenskan_bonus: final_place must be 1 or more; got {value}",
                        argument="final_place", value=final_place)
    if division != 1 or final_place != 1:
        return Award(0.0, "gp", DECIMALS)
    return Award(float(ceil(round(gp_total * G3_BONUS, 9))), "gp", DECIMALS)


class MatchScheme(Scheme):
    """One match of a series: ranks [1, 2] = won/lost, [1, 1] = drawn; or the VP score via ``vp``."""

    team = False  # a drawn match is the one legal tie
    tables: tuple[str, ...] = ()

    def awards(self, ranks, options):
        self.check_ranks(ranks, options)
        if len(ranks) != 2:
            raise RuleError("se.match.two-teams", "{scheme} awards one match between 2 teams; got {count}",
                            scheme=self.id, argument="field", count=len(ranks))
        table = options["table"].upper()
        if table not in self.tables:
            raise RuleError("se.match.table", "{scheme} option table must be one of {tables}; got {value}",
                            scheme=self.id, option="table", tables=", ".join(self.tables).lower(), value=table.lower())
        try:
            outcomes = self.outcomes(ranks, options)
            kwargs = dict(divisions=options["divisions"], division=options["division"], boards=options["boards"],
                          abandoned=options.get("abandoned", False))
            result = [match_points(table, o, **kwargs) for o in outcomes]
        except RuleError as error:  # a plain function's argument is this scheme's option
            raise option_problem(error, self) from None
        if options["walkover"]:
            # section 5 'WO eller avbruten tävling': 'Inga mp utdelas för wo-seger.'
            return [Award(0.0, a.unit, a.decimals) for a in result]
        place = options.get("final_place", 0)
        if place:
            if table != "E7" or options["division"] != 3:
                raise RuleError("se.match.final-place",
                                "{scheme} option final_place converts Allsvenskan division III (table=e7, "
                                "division=3) to gold; got table={table}, division={division}",
                                scheme=self.id, option="final_place", table=table.lower(), division=options["division"])
            if place <= 2:
                # E7: 'För ettan och tvåan i div III omvandlas silverpoängen till guldpoäng' at 10 sp = 1 gp;
                # unrounded per match, the player's total is rounded up by series_total.
                result = [Award(round(a.points / 10, 9), "gp", 2) for a in result]
        return result

    def outcomes(self, ranks, options) -> list[str]:
        """'won', 'drawn' or 'lost' for both teams: from the VP score (option ``vp``), else the ranking."""
        vp = options["vp"].strip()
        if vp:
            try:
                a, b = (float(x.replace(",", ".")) for x in vp.replace(":", "-").split("-"))
            except ValueError:
                raise RuleError("se.match.vp", "{scheme} option vp must look like 18-12; got {value!r}",
                                scheme=self.id, option="vp", value=vp) from None
            return [match_outcome(a, options["scale"]), match_outcome(b, options["scale"])]
        if None in ranks:
            return ["lost" if r is None else "won" for r in ranks]
        if ranks[0] == ranks[1]:
            return ["drawn", "drawn"]
        return ["won" if r == 1 else "lost" for r in ranks]


_MATCH_OPTIONS = {
    "divisions": Option("divisions", "int", 0, "number of divisions of the series (B3, E3)"),
    "division": Option("division", "int", 0, "the teams' division (B3, E3, E7: 3 or 4, G3: 1 or 2)"),
    "boards": O_BOARDS(24),
    "vp": Option("vp", "str", "", "the match's VP score after penalties, e.g. 17-12 (decides won/drawn per team)"),
    "scale": Option("scale", "int", 30, "VP scale total (30, 20, 8, 6, 4, 2)"),
    "walkover": Option("walkover", "bool", False, "the match was won by walkover ('wo-seger'): no mp for anyone"),
}


class BronzeTeamSeries(MatchScheme):
    id = "se.bronze.team-series"
    title = "Bronze points per match in a team series or cup (tables B2, B3, B4)"
    units = ("bp",)
    section = "9, tables B2-B4"
    tables = ("B2", "B3", "B4")
    options = {"table": Option("table", "str", "b2", "series table", ("b2", "b3", "b4")), **_MATCH_OPTIONS,
               "one_match": Option("one_match", "bool", False, "B4: the series has one match per round (then at "
                                   "least 16 boards)")}

    def awards(self, ranks, options):
        # B4: 'Omfattar serien endast en match per omgång, spelas minst 16 brickor.'
        if options["one_match"] and options["table"].lower() == "b4":
            need_boards(self.id, options["boards"], 16)
        return super().awards(ranks, options)


class SilverTeamSeries(MatchScheme):
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


class GoldTeamSeries(MatchScheme):
    id = "se.gold.team-series"
    title = "Gold points per match: SM final for teams (G1), Allsvenskan div I and II (G3)"
    units = ("gp",)
    section = "9, tables G1 and G3"
    tables = ("G1", "G3")
    options = {"table": Option("table", "str", "g1", "series table", ("g1", "g3")), **_MATCH_OPTIONS}


class SeriesBonus(Scheme):
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
        need_units(self.id, "teams", n, 2)
        rounds = options["rounds"]
        if not 0 <= rounds <= 200:
            raise RuleError("se.series-bonus.rounds", "{scheme} option rounds must be 0-200 (0 = round robin); got {value}",
                            scheme=self.id, option="rounds", value=rounds)
        # the bonus follows the number of rounds: a round robin of k teams has k - 1 rounds
        size = rounds + 1 if rounds else n
        if size < 4:
            return [], {}
        values = [p for p, _ in t.row("B2", size)]
        share = {0: 1.0, 1: 1.0, 2: 0.5, 3: 0.25}.get(options["division"], 0.0)
        factor = share * (2 if options["double"] else 1)
        return [(float(ceil(v * factor)), "bp") for v in values if v * factor > 0], {}
