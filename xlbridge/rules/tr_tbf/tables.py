"""TBF Masterpoint Kitapçığı v2.0: the booklet's tables and the arithmetic on them.

Document: *Masterpoint Kitapçığı v2.0*, Türkiye Briç Federasyonu, in force from
1 January 2015 (``docs/sources/001_f6c92b37b6e7abbd.txt``).

Sections implemented here:

- 5 (Dağıtım kuralları) and 8: Tablo-1 scales (:func:`place_share`), the boards'
  effect on the first place (:func:`board_factor`);
- 6: Tablo-3 weights by tables, half tables interpolated (:func:`table_weight`);
- 7 (Özel bölgesel festivaller): the festival's first place (:func:`festival_mp`);
- 9 (session prizes): :func:`session_first`;
- 10 (team match awards, Tablo-4): :func:`match_award`;
- 13 (rounding, half tables, the one-third boundary): :func:`third_boundary`,
  :func:`boundary_fraction`, :data:`DECIMALS`.

References:
    Türkiye Briç Federasyonu, Masterpoint Kitapçığı v2.0 (2015), sections 5-10 and 13,
    Tablo-1, Tablo-3, Tablo-4; ``xlbridge/rules/data/tr_tablo1.csv``, ``tr_tablo3.csv``,
    ``tr_tablo4.csv``, ``tr_festival.csv``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

from xlbridge.rules.base import RuleError, load_table

SOURCE = "TBF Masterpoint Kitapçığı v2.0 (2015)"
DECIMALS = 4  # section 13: "virgülden sonra dört hane"
UNITS_PER_TABLE = {"pairs": 2, "teams": 1, "individual": 4}
FULL_SESSION_BOARDS = 32  # section 8: "Her 32 bord için bir ikili turnuva"
SHORT_SESSION_BOARDS = 24  # sections 5 and 8


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
        raise RuleError("tr.tablo1.scale", "Tablo-1 has no scale {scale!r}; use a or b",
                        argument="scale", scale=scale) from None
    if place < 1:
        raise RuleError("tr.tablo1.place", "Tablo-1: place must be 1 or more; got {place}", argument="place", place=place)
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
        raise RuleError("tr.tables.too-few", "{rule} needs at least {minimum} tables; got {tables:g}",
                        argument="tables", rule=scheme, minimum=low_tables, tables=tables)
    if tables >= rows[-1][0]:
        return rows[-1][1]
    return _between(rows, tables, 1)


def _between(rows: tuple[tuple[float, ...], ...], x: float, column: int) -> float:
    """``column`` of a table at ``x``, linear between the two rows around it (``x`` within the rows)."""
    for low, high in zip(rows, rows[1:]):
        if low[0] <= x <= high[0]:
            return low[column] + (high[column] - low[column]) * (x - low[0]) / (high[0] - low[0])
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
        raise RuleError("tr.festival.too-few-tables", "{rule} needs at least {minimum:g} tables (section 7); got {tables:g}",
                        argument="tables", rule=scheme, minimum=lowest, tables=tables)
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
        raise RuleError("tr.tablo4.level", "Tablo-4 has regional and national columns; got {level!r}",
                        argument="level", level=level)
    column = 1 if level == "regional" else 2
    if not math.isfinite(boards) or boards < rows[0][0] or boards > rows[-1][0]:
        raise RuleError("tr.tablo4.boards", "Tablo-4 covers matches of {low} to {high} boards; got {boards:g}",
                        argument="boards", low=rows[0][0], high=rows[-1][0], boards=boards)
    if segments < 0:
        raise RuleError("tr.tablo4.segments", "Tablo-4: segments played cannot be negative; got {segments}",
                        argument="segments", segments=segments)
    if not won or walkover or segments < 1:
        return 0.0
    return _between(rows, boards, column)
