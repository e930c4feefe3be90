"""Turkey -- Türkiye Briç Federasyonu (TBF) masterpoints.

Source document: *Masterpoint Kitapçığı v2.0*, Türkiye Briç Federasyonu, in force
from 1 January 2015 (``docs/sources/001_f6c92b37b6e7abbd.txt``).  Sections used:

- 3 (Üyelik): no MP without visa in province/region/national events; club MP of an
  unvisaed player removed at month end -> :func:`apply_visa_rules`;
- 4 (Masterpoint tipleri): the four colours yellow/red/green/white (the ``unit``);
- 5 (Dağıtım kuralları): first place fixed / by tables / by tables and boards,
  Tablo-1 scales, one third of the field, team-player eligibility;
- 6 (Tablo-2, Tablo-3): one scheme per row of Tablo-2, weights of Tablo-3;
- 7 (Özel bölgesel festivaller): ``tr.festival`` and :func:`festival_violations`;
- 8 (club and other regional events): boards, team players without segment
  records, multi-session, Lehman, Mitchell, examples 1-4;
- 9 (session prizes): option ``session_boards``;
- 10 (team match awards, Tablo-4): ``tr.match.regional``, ``tr.match.national``;
- 11 (Ustalık puanı): :func:`mastery_points`;
- 12 (Tablo-5 titles): :func:`title`;
- 13 (rounding, ties, half tables, the one-third boundary);
- 14 (current ranking with the yearly 10 % decay): :func:`current_total`.

Every decision where the booklet is ambiguous is in ``docs/rules/tbf.md``.

References:
    - Türkiye Briç Federasyonu, Masterpoint Kitapçığı v2.0 (2015), sections 3-14.
    - Tables: ``xlbridge/rules/data/tr_*.csv`` (each with its provenance header).

>>> from xlbridge import award
>>> print(award("tr.club", 1, 26, boards=24))
0.62 green
>>> print(award("tr.club", 2, 12))   # Example 2 of section 8: 6-table Howell
0.28 green
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import cache
from typing import Any

from xlbridge.rules.base import (
    Award,
    Option,
    Ranks,
    RuleError,
    SchemeBase,
    check_competition_ranking,
    load_table,
    round_half_up,
    share_ties,
)

SOURCE = "TBF Masterpoint Kitapçığı v2.0 (2015)"
DECIMALS = 4  # section 13: "virgülden sonra dört hane"
UNITS_PER_TABLE = {"pairs": 2, "teams": 1, "individual": 4}
FULL_SESSION_BOARDS = 32  # section 8: "Her 32 bord için bir ikili turnuva"
SHORT_SESSION_BOARDS = 24  # sections 5 and 8


# --------------------------------------------------------------------------- tables


@cache
def _tablo1() -> dict[str, tuple[tuple[float, ...], int, float]]:
    """scale -> (shares of the explicit places, first 'after' place, numerator)."""
    scales: dict[str, tuple[list[float], int, float]] = {}
    for row in load_table("tr_tablo1"):
        shares, after, numerator = scales.setdefault(row["scale"], ([], 0, 0.0))
        if row["numerator"]:
            scales[row["scale"]] = (shares, int(row["place"]), float(row["numerator"]))
        else:
            if int(row["place"]) != len(shares) + 1:
                raise RuntimeError("tr_tablo1.csv: places out of order")
            shares.append(float(row["share"]))
    return {k: (tuple(v[0]), v[1], v[2]) for k, v in scales.items()}


@cache
def _tablo3() -> tuple[tuple[int, float], ...]:
    return tuple((int(r["tables"]), float(r["weight"])) for r in load_table("tr_tablo3"))


@cache
def _tablo4() -> tuple[tuple[int, float, float], ...]:
    return tuple((int(r["boards"]), float(r["regional"]), float(r["national"])) for r in load_table("tr_tablo4"))


@cache
def _mastery_k() -> dict[str, float | None]:
    return {r["colour"]: (float(r["k"]) if r["k"] else None) for r in load_table("tr_mastery")}


def place_share(place: int, scale: str = "b") -> float:
    """Tablo-1: the share of the first place's MP that ``place`` gets (untied,
    before the one-third boundary).

    >>> [place_share(p) for p in (1, 2, 3, 4, 5, 6)]
    [1.0, 0.8, 0.7, 0.6, 0.5, 0.4]
    >>> [round(place_share(p, "a"), 4) for p in (1, 2, 3, 4)]
    [1.0, 0.7, 0.5, 0.3333]
    """
    try:
        shares, after, numerator = _tablo1()[scale]
    except KeyError:
        raise RuleError(f"Tablo-1 has no scale {scale!r}; use a or b") from None
    if place < 1:
        raise RuleError(f"Tablo-1: place must be 1 or more; got {place}")
    if place <= len(shares):
        return shares[place - 1]
    return numerator / (place - 1)


def table_weight(tables: float, scheme: str = "Tablo-3") -> float:
    """Tablo-3 weight for a (possibly half) number of tables.

    Half tables are not rounded (section 13): the weight is interpolated linearly
    between the neighbouring rows.  Fewer than 3 tables is an error; from 49
    tables on the weight stays at the last printed row (see docs/rules/tbf.md).

    >>> table_weight(13), table_weight(12.5), table_weight(7.72)
    (0.62, 0.605, 0.4288)
    >>> table_weight(60)
    1.33
    """
    rows = _tablo3()
    low_tables = rows[0][0]
    if not math.isfinite(tables) or tables < low_tables:
        raise RuleError(f"{scheme} needs at least {low_tables} tables; got {tables:g}")
    if tables >= rows[-1][0]:
        return rows[-1][1]
    for (t0, w0), (t1, w1) in zip(rows, rows[1:]):
        if t0 <= tables <= t1:
            return w0 + (w1 - w0) * (tables - t0) / (t1 - t0)
    raise AssertionError("unreachable")  # pragma: no cover


def board_factor(boards: float | None, sessions: int = 1) -> float:
    """Sections 5 and 8: the boards' effect on the first place's MP.

    One session: fewer than 24 boards x boards/24, 24-32 unchanged, more than 32
    x boards/32.  Several sessions: every 32 boards played count as one
    tournament (x total boards/32).  ``boards=None`` means a normal session
    (24-32 boards).

    >>> board_factor(12), board_factor(28), board_factor(40), board_factor(26, sessions=2)
    (0.5, 1.0, 1.25, 1.625)
    """
    if boards is None:
        return 1.0
    if sessions > 1:
        return sessions * boards / FULL_SESSION_BOARDS
    if boards < SHORT_SESSION_BOARDS:
        return boards / SHORT_SESSION_BOARDS
    if boards > FULL_SESSION_BOARDS:
        return boards / FULL_SESSION_BOARDS
    return 1.0


def festival_mp(tables: float, scheme: str = "tr.festival") -> float:
    """Section 7: yellow MP of the first place of a special regional festival.

    >>> festival_mp(30), festival_mp(70), festival_mp(70.5), festival_mp(101)
    (5.0, 10.0, 15.0, 20.0)
    """
    rows = load_table("tr_festival")
    lowest = float(rows[0]["min_tables"])
    if tables < lowest:
        raise RuleError(f"{scheme} needs at least {lowest:g} tables (section 7); got {tables:g}")
    mp = 0.0
    for row in rows:
        # printed bands are whole tables (30-50, 51-70, ...); a half table above a
        # band's top (50.5) already belongs to the next band.
        if tables > float(row["min_tables"]) - 1:
            mp = float(row["mp"])
    return mp


def third_boundary(units: int, share: Fraction = Fraction(1, 3)) -> Fraction:
    """How many units receive MP: one third of the field, kept as an exact
    fraction (section 13: the boundary unit gets that fraction of its award).

    >>> third_boundary(8), third_boundary(26), third_boundary(9)
    (Fraction(8, 3), Fraction(26, 3), Fraction(3, 1))
    """
    return Fraction(units) * share


def boundary_fraction(place: int, boundary: Fraction) -> float:
    """The fraction of its award that ``place`` gets under the one-third rule.

    >>> [boundary_fraction(p, Fraction(8, 3)) for p in (1, 2, 3, 4)]
    [1.0, 1.0, 0.6666666666666666, 0.0]
    """
    # compared as integers: a Fraction comparison costs microseconds, once per place
    boundary = boundary if isinstance(boundary, Fraction) else Fraction(boundary)
    numerator, denominator = boundary.numerator, boundary.denominator
    if place * denominator <= numerator:
        return 1.0
    if (place - 1) * denominator < numerator:
        return float(boundary - (place - 1))
    return 0.0


# --------------------------------------------------------------------------- schemes

_COMMON_OPTIONS = {
    "scale": Option("scale", "str", "b", "Tablo-1 scale: b = 100/80/70/60 % then 2*first/(place-1); a = 100/70 % then first/(place-1)", ("a", "b")),
    "share": Option("share", "float", 1 / 3, "part of the field that gets MP (section 5: one third; TBF may announce more)"),
    "tables": Option("tables", "float", None, "number (or average number) of tables, overriding field / units per table"),
    "kind": Option("kind", "str", None, "pairs, teams or individual: how the field turns into tables", ("pairs", "teams", "individual")),
}
_TEAM_OPTIONS = {
    "players": Option("players", "int", 4, "players in the team (section 8: more than 4 without segment records share four players' MP)"),
    "segment_records": Option("segment_records", "bool", True, "were the players of every segment recorded? (section 8)"),
}
_BOARD_OPTIONS = {
    "boards": Option("boards", "float", None, "boards per session (empty = a normal 24-32 board session)"),
    "sessions": Option("sessions", "int", 1, "sessions of a multi-session pairs event (section 8)"),
    "movement": Option("movement", "str", "howell", "howell (one ranking) or mitchell (two directions, section 8)", ("howell", "mitchell")),
    "ns": Option("ns", "int", None, "with movement=mitchell: how many of the ranks belong to the first direction (default: half, rounded up)"),
    "lehman_sessions": Option("lehman_sessions", "int", None, "Lehman period: number of sessions; the ranking is then the Lehman ranking (section 8)"),
}
_SESSION_OPTIONS = {
    "session_boards": Option("session_boards", "float", None, "award a session ranking: boards of the session (section 9, first = MP x B / 500)"),
    "first_mp": Option("first_mp", "float", None, "with session_boards: the overall winner's MP, if not computed from this event"),
}


class TbfEvent(SchemeBase):
    """One row of Tablo-2: an event kind with its distribution rule and colour."""

    def __init__(self, row: Mapping[str, str]):
        self.id = row["id"]
        self.name = row["name"]
        self.group = row["group"]
        self.rule = row["rule"]
        self.mp = float(row["mp"]) if row["mp"] else None
        self.colour = row["colour"]
        self.default_kind = row["kind"]
        self.title = f"{row['name']} ({row['group']})"
        self.units = (self.colour,)
        self.source = SOURCE
        self.section = "Tablo-2" if self.rule != "festival" else "section 7"
        options = dict(_COMMON_OPTIONS)
        if self.default_kind == "teams":
            options.update(_TEAM_OPTIONS)
        if self.rule == "tables_boards":
            options.update(_BOARD_OPTIONS)
        elif self.default_kind == "pairs":
            options.update(_SESSION_OPTIONS)
        self.options = options

    # -- the first place -------------------------------------------------------
    def tables(self, units: int, options: Mapping[str, Any]) -> float:
        if options["tables"] is not None:
            if options["tables"] <= 0:
                raise RuleError(f"{self.id}: tables must be more than 0; got {options['tables']:g}")
            return float(options["tables"])
        kind = options["kind"] or self.default_kind
        return units / UNITS_PER_TABLE[kind]

    def first_place(self, units: int, options: Mapping[str, Any]) -> float:
        """MP of the overall first place, unrounded (Tablo-2, Tablo-3, sections 5, 7, 8)."""
        tables = self.tables(units, options)
        if self.rule == "fixed":
            return float(self.mp)
        if self.rule == "festival":
            return festival_mp(tables, self.id)
        first = float(self.mp) * table_weight(tables, self.id)
        if self.rule == "tables_boards":
            boards = options["boards"]
            if boards is not None and boards <= 0:
                raise RuleError(f"{self.id}: boards must be more than 0; got {boards:g}")
            sessions = options["sessions"]
            if sessions < 1:
                raise RuleError(f"{self.id}: sessions must be 1 or more; got {sessions}")
            if sessions > 1 and boards is None:
                raise RuleError(f"{self.id}: a multi-session event needs boards= (boards per session)")
            first *= board_factor(boards, sessions)
        return first

    # -- ranks -----------------------------------------------------------------
    def default_ranks(self, field: int, options: Mapping[str, Any]) -> Ranks:
        if options.get("movement") == "mitchell":
            first = options["ns"] if options["ns"] is not None else (field + 1) // 2
            return [float(p) for p in range(1, first + 1)] + [float(p) for p in range(1, field - first + 1)]
        return super().default_ranks(field, options)

    def _directions(self, ranks: Ranks, options: Mapping[str, Any]) -> tuple[Ranks, Ranks]:
        first = options["ns"] if options["ns"] is not None else (len(ranks) + 1) // 2
        if not 0 < first < len(ranks):
            raise RuleError(f"{self.id}: ns must be between 1 and {len(ranks) - 1} for {len(ranks)} pairs; got {first}")
        return ranks[:first], ranks[first:]

    def check_ranks(self, ranks: Ranks, options: Mapping[str, Any]) -> None:
        if options.get("movement") == "mitchell":
            for direction in self._directions(ranks, options):
                check_competition_ranking(self.id, direction)
        else:
            check_competition_ranking(self.id, ranks)

    # -- the awards --------------------------------------------------------------
    def _boundary(self, units: int, options: Mapping[str, Any]) -> Fraction:
        share = options["share"]
        if not 0 < share <= 1:
            raise RuleError(f"{self.id}: share must be more than 0 and at most 1; got {share:g}")
        return third_boundary(units, Fraction(share).limit_denominator(1000))

    def _overall(self, first: float, units: int, options: Mapping[str, Any]):
        boundary = self._boundary(units, options)
        scale = options["scale"]
        return lambda place: first * place_share(place, scale) * boundary_fraction(place, boundary)

    def awards(self, ranks: Ranks, options: Mapping[str, Any]) -> list[Award]:
        units = len(ranks)
        if options.get("lehman_sessions") is not None:
            raw = self._lehman(ranks, options)
        elif options.get("session_boards") is not None:
            raw = self._session(ranks, options)
        elif options.get("movement") == "mitchell":
            raw = self._mitchell(ranks, options)
        else:
            overall = self._overall(self.first_place(units, options), units, options)
            raw = share_ties(ranks, overall)
        factor = 1.0
        if self.default_kind == "teams":
            factor = team_player_share(1.0, options["players"], options["segment_records"])
        return [Award(round_half_up(value * factor, DECIMALS), self.colour) for value in raw]

    def _mitchell(self, ranks: Ranks, options: Mapping[str, Any]) -> list[float]:
        """Section 8: the k-th of a direction gets the mean of overall 2k-1 and 2k."""
        units = len(ranks)
        overall = self._overall(self.first_place(units, options), units, options)
        direction_value = lambda k: (overall(2 * k - 1) + overall(2 * k)) / 2  # noqa: E731
        first, second = self._directions(ranks, options)
        return share_ties(first, direction_value) + share_ties(second, direction_value)

    def session_total(self, tables: float, options: Mapping[str, Any]) -> float:
        """Total MP of one single-session pairs tournament of ``tables`` tables,
        counted per player (two players a pair), as section 8 example 3 counts it,
        shown to 2 decimals as the booklet shows it (1.31)."""
        single = dict(options, sessions=1, tables=tables)
        first = self.first_place(0, single)
        pairs = tables * UNITS_PER_TABLE["pairs"]
        boundary = third_boundary(1, Fraction(options["share"]).limit_denominator(1000)) * Fraction(pairs).limit_denominator(10_000)
        per_pair = sum(
            first * place_share(p, options["scale"]) * boundary_fraction(p, boundary)
            for p in range(1, math.ceil(boundary) + 1)
        )
        return round_half_up(2 * per_pair, 2)

    def lehman_total(self, options: Mapping[str, Any]) -> float:
        """Section 8: half of the equivalent single sessions' total.

        Example 3: 16 sessions of 10 boards, 7.72 tables on average -> 1.31 per
        session, 1.31 x 16 / 2 = 10.48.
        """
        if options["tables"] is None:
            raise RuleError(f"{self.id}: a Lehman period needs tables= (the average number of tables)")
        if options["boards"] is None:
            raise RuleError(f"{self.id}: a Lehman period needs boards= (boards per session)")
        sessions = options["lehman_sessions"]
        if sessions < 1:
            raise RuleError(f"{self.id}: lehman_sessions must be 1 or more; got {sessions}")
        return self.session_total(options["tables"], options) * sessions / 2

    def _lehman(self, ranks: Ranks, options: Mapping[str, Any]) -> list[float]:
        """Distribute the Lehman total over one third of the Lehman ranking with
        the Tablo-1 proportions."""
        total = self.lehman_total(options)
        units = len(ranks)
        shape = self._overall(1.0, units, options)
        weight = sum(shape(p) for p in range(1, units + 1))
        return share_ties(ranks, lambda p: total * shape(p) / weight)

    def _session(self, ranks: Ranks, options: Mapping[str, Any]) -> list[float]:
        """Section 9: a session's first gets MP x B / 500; the session ranking is
        distributed like a tournament (Tablo-1, one third)."""
        units = len(ranks)
        general_first = options["first_mp"]
        if general_first is None:
            general_first = self.first_place(units, options)
        elif general_first <= 0:
            raise RuleError(f"{self.id}: first_mp must be more than 0; got {general_first:g}")
        boards = options["session_boards"]
        if boards <= 0:
            raise RuleError(f"{self.id}: session_boards must be more than 0; got {boards:g}")
        overall = self._overall(session_first(general_first, boards), units, options)
        return share_ties(ranks, overall)


class TbfMatch(SchemeBase):
    """Section 10, Tablo-4: MP per player of the team that wins a match.

    The ranking is the match result: ``[1, 2]`` (the winner first or second),
    ``[1, 1]`` a draw (no winner, no MP).
    """

    def __init__(self, level: str):
        self.level = level
        self.id = f"tr.match.{level}"
        self.title = f"Takım maçı ödülü ({'Bölgesel' if level == 'regional' else 'Ulusal'} Turnuvalar)"
        self.colour = "red" if level == "regional" else "yellow"
        self.units = (self.colour,)
        self.source = SOURCE
        self.section = "section 10, Tablo-4"
        self.options = {
            "boards": Option("boards", "float", None, "boards of the match (Tablo-4 rows 8-64; between rows interpolated)"),
            "walkover": Option("walkover", "bool", False, "won by walkover or not played: no MP (section 10)"),
            "segments": Option("segments", "int", 1, "segments the player played in the match: at least 1 for MP (section 10)"),
        }

    def check_ranks(self, ranks: Ranks, options: Mapping[str, Any]) -> None:
        if len(ranks) != 2:
            raise RuleError(f"{self.id}: a match has 2 teams; got {len(ranks)}")
        check_competition_ranking(self.id, ranks)

    def awards(self, ranks: Ranks, options: Mapping[str, Any]) -> list[Award]:
        if options["boards"] is None:
            raise RuleError(f"{self.id} needs boards= (boards of the match)")
        value = match_award(options["boards"], self.level, won=True, walkover=options["walkover"], segments=options["segments"])
        winners = [r == 1.0 for r in ranks]
        if all(winners) or None in ranks:
            value = 0.0  # a draw or an unfinished match has no winner
        return [Award(round_half_up(value if w else 0.0, DECIMALS), self.colour) for w in winners]


SCHEMES: tuple[SchemeBase, ...] = tuple(TbfEvent(row) for row in load_table("tr_tablo2")) + (
    TbfMatch("regional"),
    TbfMatch("national"),
)


# --------------------------------------------------------------------------- plain functions


def session_first(general_first: float, boards: float) -> float:
    """Section 9: MP of a session's winner = MP x B / 500.

    >>> session_first(40, 50), session_first(40, 26)
    (4.0, 2.08)
    """
    return general_first * boards / 500


def match_award(boards: float, level: str = "regional", *, won: bool = True, walkover: bool = False, segments: int = 1) -> float:
    """Section 10, Tablo-4: MP per player of the winning team.

    No MP for a lost or drawn match, a walkover or unplayed match, or a player
    who played no segment.  Boards between two printed rows are interpolated
    linearly; the table is printed for 8 to 64 boards.

    >>> match_award(16), match_award(16, "national"), round(match_award(18), 4)
    (0.2, 0.6, 0.215)
    >>> match_award(16, walkover=True), match_award(16, segments=0)
    (0.0, 0.0)
    """
    rows = _tablo4()
    if level not in ("regional", "national"):
        raise RuleError(f"Tablo-4 has regional and national columns; got {level!r}")
    column = 1 if level == "regional" else 2
    if not math.isfinite(boards) or boards < rows[0][0] or boards > rows[-1][0]:
        raise RuleError(f"Tablo-4 covers matches of {rows[0][0]} to {rows[-1][0]} boards; got {boards:g}")
    if segments < 0:
        raise RuleError(f"Tablo-4: segments played cannot be negative; got {segments}")
    if not won or walkover or segments < 1:
        return 0.0
    for low, high in zip(rows, rows[1:]):
        if low[0] <= boards <= high[0]:
            return low[column] + (high[column] - low[column]) * (boards - low[0]) / (high[0] - low[0])
    raise AssertionError("unreachable")  # pragma: no cover


def team_player_eligible(boards_played: float, boards_total: float, team_size: int,
                         final_played: float | None = None, final_total: float | None = None) -> bool:
    """Section 5: may a team player get MP from the overall ranking?

    Teams of at most 6 players: at least 1/3 of the boards, else at least 1/4 --
    both over the whole event and over the part after the qualification
    (``final_*``) when there is one.

    >>> team_player_eligible(40, 120, 6), team_player_eligible(39, 120, 6), team_player_eligible(30, 120, 7)
    (True, False, True)
    """
    if team_size < 1 or boards_total <= 0:
        raise RuleError(f"team eligibility needs a team size and boards; got {team_size} players, {boards_total:g} boards")
    need = Fraction(1, 3) if team_size <= 6 else Fraction(1, 4)
    checks = [(boards_played, boards_total)]
    if final_total:
        checks.append((final_played or 0, final_total))
    return all(Fraction(played).limit_denominator(10_000) >= need * Fraction(total).limit_denominator(10_000)
               for played, total in checks)


def team_player_share(award_per_player: float, players: int, segment_records: bool = True) -> float:
    """Section 8: a team of more than four players ranked without segment
    records shares the MP of four players equally.

    >>> team_player_share(3.0, 6, segment_records=False), team_player_share(3.0, 6)
    (2.0, 3.0)
    """
    if players < 1:
        raise RuleError(f"a team needs at least 1 player; got {players}")
    if players > 4 and not segment_records:
        return award_per_player * 4 / players
    return award_per_player


def mastery_points(yellow: float = 0, red: float = 0, green: float = 0, white: float = 0, *,
                   include_white: bool = True) -> float:
    """Section 11: mastery points (ustalık puanı), the yellow equivalent.

    Yellow counts 1:1; red, green and white as k*ln(1 + mp/k) with k = 300, 100
    and 30 (fitted to the twelve printed examples).  ``include_white`` resolves
    the self-contradictory last sentence of section 11 (default: included).

    >>> round(mastery_points(green=100), 2), round(mastery_points(white=1000), 2)
    (69.31, 106.08)
    """
    total = 0.0
    for colour, value in (("yellow", yellow), ("red", red), ("green", green), ("white", white)):
        if value is None or value == "":
            value = 0.0
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise RuleError(f"mastery points: {colour} MP must be a number; got {value!r}") from None
        if not math.isfinite(value) or value < 0:
            raise RuleError(f"mastery points: {colour} MP cannot be negative; got {value:g}")
        if colour == "white" and not include_white:
            continue
        k = _mastery_k()[colour]
        total += value if k is None else k * math.log1p(value / k)
    return round_half_up(total, DECIMALS)


@dataclass(frozen=True)
class Title:
    turkish: str
    english: str
    min_mastery: float
    min_yellow: float


def titles() -> list[Title]:
    """Tablo-5, lowest title first."""
    return [Title(r["title"], r["english"], float(r["min_mastery"]), float(r["min_yellow"])) for r in load_table("tr_tablo5")]


def title(mastery: float, yellow: float, *, english: bool = False) -> str:
    """Section 12, Tablo-5: the highest title whose minimum mastery points and
    minimum yellow MP are both reached ("" when none).

    >>> title(125, 19), title(125, 20), title(2500, 1300, english=True)
    ('Bölge Ustası', 'Bronz Usta', 'Platinum Grand Master')
    """
    for value, what in ((mastery, "mastery points"), (yellow, "yellow MP")):
        if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise RuleError(f"Tablo-5: {what} must be a number of 0 or more; got {value!r}")
    best = ""
    for t in titles():
        if mastery >= t.min_mastery and yellow >= t.min_yellow:
            best = t.english if english else t.turkish
    return best


def current_total(mp_by_year: Mapping[int, float], year: int, decay: float = 0.10) -> float:
    """Section 14: the current ranking total in ``year``.

    At the start of every year the MP collected up to the previous year are
    reduced by 10 %, so MP won in year y count (1 - 0.10)^(year - y).  Years
    after ``year`` are ignored.

    >>> current_total({2015: 10.0, 2016: 10.0, 2017: 10.0}, 2017)
    27.1
    """
    total = 0.0
    for won_in, mp in mp_by_year.items():
        if won_in <= year:
            total += mp * (1 - decay) ** (year - won_in)
    return round_half_up(total, DECIMALS)


def festival_violations(*, kind: str, tables: float, consecutive_years: int,
                        sessions: int = 0, boards_per_session: float = 0, total_boards: float = 0) -> list[str]:
    """Section 7: why an event is not a special regional festival (yellow MP).

    Returns readable violations; an empty list means the extra conditions hold.

    >>> festival_violations(kind="pairs", tables=32, consecutive_years=4, sessions=2, boards_per_session=24)
    []
    >>> festival_violations(kind="teams", tables=28, consecutive_years=3, total_boards=30)
    ['held under the same conditions at least 4 years in a row; got 3', 'at least 30 tables; got 28', 'team events need at least 32 boards; got 30']
    """
    problems = []
    if consecutive_years < 4:
        problems.append(f"held under the same conditions at least 4 years in a row; got {consecutive_years}")
    if kind == "pairs":
        if sessions < 2:
            problems.append(f"pairs events need at least 2 sessions; got {sessions}")
        if boards_per_session < 24:
            problems.append(f"pairs events need at least 24 boards per session; got {boards_per_session:g}")
    if tables < 30:
        problems.append(f"at least 30 tables; got {tables:g}")
    if kind == "teams" and total_boards < 32:
        problems.append(f"team events need at least 32 boards; got {total_boards:g}")
    return problems


# --------------------------------------------------------------------------- section 3 ledger

PROVINCE_AND_ABOVE = frozenset({"province", "regional", "national"})


@dataclass(frozen=True)
class LedgerEntry:
    """One MP entry of a player: the event's date and level, points and colour."""

    player: str
    day: date
    level: str  # club, province, regional, national or online
    points: float
    colour: str


def _month_end(day: date) -> date:
    following = date(day.year + (day.month == 12), day.month % 12 + 1, 1)
    return date.fromordinal(following.toordinal() - 1)


def apply_visa_rules(entries: Iterable[LedgerEntry], visas: Mapping[str, date | None], today: date) -> tuple[list[LedgerEntry], list[tuple[LedgerEntry, str]]]:
    """Section 3: which MP entries stand, given each player's visa date.

    - no MP from province, regional or national events without a visa on the day;
    - club MP of an unvisaed player are deleted at the end of the month unless
      the visa is made by then (still pending before the month ends).

    Returns ``(kept, removed)`` where ``removed`` pairs each entry with the reason.
    """
    kept: list[LedgerEntry] = []
    removed: list[tuple[LedgerEntry, str]] = []
    for entry in entries:
        visa = visas.get(entry.player)
        if entry.level in PROVINCE_AND_ABOVE:
            if visa is None or visa > entry.day:
                removed.append((entry, f"{entry.player} had no visa on {entry.day.isoformat()}: no MP from {entry.level} events"))
                continue
        elif entry.level == "club":
            deadline = _month_end(entry.day)
            if (visa is None or visa > deadline) and today > deadline:
                removed.append((entry, f"{entry.player} had no visa by {deadline.isoformat()}: club MP deleted at month end"))
                continue
        elif entry.level != "online":
            raise RuleError(f"ledger: level must be club, province, regional, national or online; got {entry.level!r}")
        kept.append(entry)
    return kept, removed


__all__ = [
    "SCHEMES",
    "TbfEvent",
    "TbfMatch",
    "place_share",
    "table_weight",
    "board_factor",
    "festival_mp",
    "third_boundary",
    "boundary_fraction",
    "session_first",
    "match_award",
    "team_player_eligible",
    "team_player_share",
    "mastery_points",
    "title",
    "titles",
    "Title",
    "current_total",
    "festival_violations",
    "LedgerEntry",
    "apply_visa_rules",
]
