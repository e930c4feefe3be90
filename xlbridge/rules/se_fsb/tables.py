"""Svenska Mästarpoäng 2009: the award tables of section 9 -- as printed, as
corrected by the errata, and as computed from each table's own principle.

Document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*, Rev 1.1
(MME 090427), Förbundet Svensk Bridge (``docs/sources/000_b38bcd2d61619209.txt``).
Section implemented here: 9 (MP-tabeller), tables A1, A2, B1, B2 (bonus), C, D,
E1 and F, with their stated principles (pages 6-15).

Three layers:

* :func:`printed` -- the CSV files ``data/se_*.csv`` exactly as the document
  prints them (re-derived from the seed text by ``tests/rules/test_se_tables.py``);
* :func:`principle` -- what the table's own stated rule gives for a field
  (winner's award, 2/3 of the place above, the A2 "half field" rule, one third
  of the field, minimum 4 bp, silver to the best quarter and at most 16, ...);
* :func:`row` -- what the engine uses: the printed row with the decisions of
  ``data/se_errata.csv`` applied; for a silver table (D, E1, F) above 32, a size
  between two printed rows is interpolated between them (:func:`interpolated`,
  the document's "medeltalet av vad närmast högre och närmast lägre antal ger");
  the principle for every other size the document does not print (odd sizes in
  A2, more than 100 pairs, ...).

A row is a tuple of cells ``(points, unit)``, place 1 first.  Units: ``bp``
(bronze), ``sp`` (silver); ``bonus`` for the series bonus table B2.

References:
    Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
    Rev 1.1 (MME 090427), section 9, tables A1-F; ``xlbridge/rules/data/se_*.csv``
    (extracted by ``tools/se_parse.py``), errata ``xlbridge/rules/data/se_errata.csv``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

from xlbridge.rules.base import load_table

Cell = tuple[int, str]
Row = tuple[Cell, ...]

#: errata/test name of a table -> its CSV file (data/NAME.csv)
TABLE_FILES = {"A1": "se_a1", "A2": "se_a2", "B1": "se_b1", "B2": "se_b2_bonus", "C": "se_c", "D": "se_d", "E1": "se_e1",
               "F": "se_f"}

#: family -> the printed tables it is made of
FAMILIES = {"A": ("A1", "A2"), "B1": ("B1",), "B2": ("B2",), "C": ("C",), "D": ("D",), "E1": ("E1",), "F": ("F",)}

BRONZE_MINIMUM = 4  # "dock ej färre än 4" (A1), the same figure in B1 and C
SILVER_MAX_PLACES = 16  # "1/4 av de startande erhåller silverpoäng, dock högst 16 par"
HALF_RULE_FROM = 32  # "Annan princip gäller för fler än 32 ...", "Vid fler än 32 par ... samma princip som i tabell A2"


def ceil(x: float) -> int:
    """Round up ("decimaler avrundas uppåt"), ignoring binary noise."""
    return math.ceil(round(x, 9))


def third(n: int) -> int:
    """How many places get points: one third of the field, rounded up (A1: 13 pairs -> 5 places)."""
    return ceil(n / 3)


def quarter(n: int) -> int:
    """Silver places: the best quarter rounded up (D: 13 -> 4; 43/4 -> 11), at most 16."""
    return min(SILVER_MAX_PLACES, ceil(n / 4))


def table_of(family: str, n: int) -> str:
    """The printed table a field size of a family belongs to (A1 up to 32 pairs, A2 above)."""
    if family == "A":
        return "A1" if n <= 32 else "A2"
    return family


# --------------------------------------------------------------------------- printed


@cache
def printed(table: str) -> dict[int, Row]:
    """``{field: row}`` exactly as the document prints table ``table``."""
    rows: dict[int, list[tuple[int, Cell]]] = {}
    for record in load_table(TABLE_FILES[table]):
        rows.setdefault(int(record["field"]), []).append(
            (int(record["place"]), (int(record["points"]), record["unit"]))
        )
    out: dict[int, Row] = {}
    for field, cells in rows.items():
        cells.sort()
        if [p for p, _ in cells] != list(range(1, len(cells) + 1)):
            raise RuntimeError(f"{TABLE_FILES[table]}.csv: places of row {field} are not 1..n")
        out[field] = tuple(c for _, c in cells)
    return out


@cache
def printed_family(family: str) -> dict[int, Row]:
    merged: dict[int, Row] = {}
    for table in FAMILIES[family]:
        merged.update(printed(table))
    return merged


def _cell(text: str) -> Cell | None:
    text = text.strip()
    if not text:
        return None
    points, unit = text.split()
    return int(points), unit


@cache
def errata() -> dict[tuple[str, int, int], dict[str, str]]:
    """``{(table, field, place): record}`` of ``data/se_errata.csv``."""
    return {(r["table"], int(r["field"]), int(r["place"])): r for r in load_table("se_errata")}


@cache
def final_printed(family: str) -> dict[int, Row]:
    """The printed rows of a family with the errata decisions applied."""
    out: dict[int, Row] = {}
    decided = errata()
    for field, cells in printed_family(family).items():
        table = table_of(family, field)
        fixes = {place: rec for (t, f, place), rec in decided.items() if t == table and f == field}
        if not fixes:
            out[field] = cells
            continue
        length = max([len(cells)] + list(fixes))
        new: list[Cell | None] = [cells[i] if i < len(cells) else None for i in range(length)]
        for place, rec in fixes.items():
            if rec["decision"] not in ("printed", "principle", "corrected"):
                raise RuntimeError(f"se_errata.csv: unknown decision {rec['decision']!r}")
            new[place - 1] = _cell(rec["used"])
        while new and new[-1] is None:
            new.pop()
        if any(c is None for c in new):
            raise RuntimeError(f"se_errata.csv: row {table} {field} has a gap after the corrections")
        out[field] = tuple(c for c in new if c is not None)
    return out


# --------------------------------------------------------------------------- principles


def chain(first: int, count: int, minimum: int = 1) -> list[int]:
    """Winner ``first``; each next place 2/3 of the place above, rounded up; never below ``minimum``."""
    values: list[int] = []
    value = first
    for _ in range(count):
        values.append(max(minimum, value))
        value = ceil(values[-1] * 2 / 3)
    return values


def half_rule(first: int, half: list[int], count: int, minimum: int = 1) -> list[int]:
    """The principle of table A2.

    "Tvåan erhåller 2/3 av ettan, trean erhåller lika många poäng som ettan vid
    halva parantalet och därefter är principen att femman erhåller lika mycket
    som tvåan, sjuan som trean, nian som fyran etc. Fyran får vad trean + femman
    får delat med två, sexan vad femman + sjuan får delat med två osv.
    Decimaler avrundas uppåt."  ``half`` is the row of half the field.
    """

    def odd(j: int) -> int:  # place 2j+1 = place j of the half field
        return max(minimum, half[j - 1]) if j - 1 < len(half) else minimum

    values = []
    for place in range(1, count + 1):
        if place == 1:
            v = first
        elif place == 2:
            v = ceil(first * 2 / 3)
        elif place % 2 == 1:
            v = odd((place - 1) // 2)
        else:
            v = ceil((odd((place - 2) // 2) + odd(place // 2)) / 2)
        values.append(max(minimum, v))
    return values


def mean_rows(low: list[int], high: list[int], count: int, minimum: int) -> list[int]:
    """Odd field sizes: "Man tar medeltalet av vad närmast högre och närmast lägre antal ger" (A2)."""

    def at(values: list[int], i: int) -> int:
        return values[i] if i < len(values) else minimum

    return [max(minimum, ceil((at(low, i) + at(high, i)) / 2)) for i in range(count)]


WINNER = {
    "A": lambda n: 2 * n,  # "segraren erhåller 2 poäng för varje i tävlingen deltagande par"
    "B1": lambda n: 3 * n,  # "Segerpoängen utgår med 3 per spelare för varje deltagande lag"
    "C": lambda n: ceil(1.5 * n),  # "Segrarens poäng blir 1,5 antalet deltagare"
    "D": lambda n: n,  # "Segraren erhåller lika många poäng som antalet deltagande par"
    "E1": lambda n: ceil(1.5 * n),  # "Segrarens poäng utgår med 1,5 för varje deltagande lag"
    "F": lambda n: ceil(0.75 * n),  # "Segrarens poäng blir 3/4 av antalet deltagare"
}

#: silver family -> the bronze family whose figures (x 2) are its red figures
BRONZE_OF = {"D": "A", "E1": "B1", "F": "C"}
SILVER = ("D", "E1", "F")


def _bronze_values(family: str, n: int) -> list[int]:
    """Bronze figures of a bronze family for field ``n`` (all places to one third)."""
    if family == "B1" and n > 32:
        # "Vid högre lagantal följ tabell A2 och multiplicera med 1,5."
        return [ceil(1.5 * p) for p, _ in row("A", n)]
    count = third(n)
    first = WINNER[family](n)
    if n <= HALF_RULE_FROM:
        return chain(first, count, BRONZE_MINIMUM)
    if n % 2:
        low = [p for p, _ in row(family, n - 1)]
        high = [p for p, _ in row(family, n + 1)]
        return mean_rows(low, high, count, BRONZE_MINIMUM)
    return half_rule(first, [p for p, _ in row(family, n // 2)], count, BRONZE_MINIMUM)


def silver_values(family: str, n: int, count: int | None = None) -> list[int]:
    """The silver figures of a silver family for field ``n`` (``count`` places, default the quarter)."""
    count = quarter(n) if count is None else count
    first = WINNER[family](n)
    if n <= HALF_RULE_FROM:
        return chain(first, count)
    if n % 2:
        return mean_rows(silver_scale(family, n - 1), silver_scale(family, n + 1), count, 1)
    return half_rule(first, silver_scale(family, n // 2), count)


def silver_scale(family: str, n: int, length: int = 24) -> list[int]:
    """The silver figures of the row for ``n`` continued by the 2/3 rule (for references)."""
    values = [p for p, u in row(family, n) if u == "sp"]
    while len(values) < length:
        values.append(ceil(values[-1] * 2 / 3))
    return values


def equivalent(family: str, points: int, field: int | None = None) -> int:
    """The field whose row a winner of ``points`` takes: ``field`` (the field the points were counted
    for) when its winner gets exactly that -- F pays 3/4 a player, so 31 and 32 players both give 24 --,
    else the largest field whose winner gets at most ``points`` (D: ``points`` pairs; E1, 1,5 per team:
    24 -> 16 teams, 29 -> 19, 34 -> 22).

    >>> equivalent("E1", 34), equivalent("F", 24), equivalent("F", 24, field=31)
    (22, 32, 31)
    """
    if field is not None and WINNER[family](field) == points:
        return field
    size = 1
    while WINNER[family](size + 1) <= points:
        size += 1
    return size


def winner_scale(family: str, points: int, field: int | None = None, length: int = 24) -> list[int]:
    """The silver scale of a table whose winner gets ``points``: the row of the field whose winner that is
    (:func:`equivalent`; "Tvåan, trean osv erhåller då poäng enligt tabellen för 46 par", table D).
    Where no field's winner is exactly ``points`` (E1 pays 1,5 per team: 22 teams 33, 23 teams 35, none
    34) the two rows either side are interpolated, the document's "medeltalet av vad närmast högre och
    närmast lägre antal ger".

    >>> winner_scale("D", 46)[:4], winner_scale("E1", 29)[:4], winner_scale("E1", 34)[:4]
    ([46, 31, 23, 20], [29, 20, 14, 10], [34, 23, 16, 11])
    """
    size = equivalent(family, points, field)
    low = silver_scale(family, size, length)
    first = WINNER[family](size)
    if first == points:
        return low
    high, above = silver_scale(family, size + 1, length), WINNER[family](size + 1)
    weight = Fraction(points - first, above - first)
    return [_up(a + (b - a) * weight) for a, b in zip(low, high)]


def principle(family: str, n: int) -> Row:
    """The row the table's own principle gives for field ``n``."""
    if family == "B2":
        # winner 10 x (teams - 1), each next place 30 less, while positive (table B2, bonus)
        values = [10 * (n - 1) - 30 * k for k in range(n) if 10 * (n - 1) - 30 * k > 0]
        return tuple((v, "bonus") for v in values)
    if family in SILVER:
        silver = silver_values(family, n)
        bronze = [p for p, _ in row(BRONZE_OF[family], n)]
        red = [
            2 * (bronze[place - 1] if place - 1 < len(bronze) else BRONZE_MINIMUM)
            for place in range(len(silver) + 1, third(n) + 1)
        ]
        return tuple([(v, "sp") for v in silver] + [(v, "bp") for v in red])
    return tuple((v, "bp") for v in _bronze_values(family, n))


@cache
def row(family: str, n: int) -> Row:
    """The row the engine uses for field ``n``: corrected print, else (a silver table above 32,
    between two printed rows) the row interpolated between them, else the principle."""
    if n < 1:
        raise ValueError(f"field {n}")
    final = final_printed(family)
    if n in final:
        return final[n]
    between = interpolated(family, n)
    if between is not None:
        return between
    return principle(family, n)


@cache
def _neighbour_rows(family: str) -> tuple[int, ...]:
    """The printed rows of a silver table an unprinted row is interpolated between: every printed row
    except one whose winner the errata replace (E1 "60" prints the scale of a 48-unit field)."""
    decided = errata()
    return tuple(sorted(
        field for field in final_printed(family)
        if decided.get((table_of(family, field), field, 1), {}).get("decision") != "principle"
    ))


def _up(x: Fraction) -> int:
    return -(-x // 1)


@cache
def interpolated(family: str, n: int) -> Row | None:
    """A silver-table row (D, E1, F) the document does not print, above 32 and between two printed rows.

    The only rule the document gives for an unprinted row is A2's "Udda parantal är inte angivna.
    Man tar medeltalet av vad närmast högre och närmast lägre antal ger" (the mean of what the
    nearest higher and lower field give); tables D, E1 and F use "samma princip som i tabell A2"
    above 32.  Between printed rows ``lo < n < hi`` each place is interpolated linearly,
    ``lo_p + (hi_p - lo_p) (n - lo) / (hi - lo)``, rounded up: the document's mean where the
    printed rows are two apart (every odd row), the table's own winner (n, 1.5 n, 3/4 n) since
    the printed winners are exactly that, and never outside the two printed figures -- so the
    printed red (bronze) figures, a reduced scale from about 34 units, carry over to the rows
    between them.  Silver goes to the best quarter of ``n`` (the lower row's silver scale
    continued by 2/3 where it has fewer silver places), red figures to one third (a place past
    a printed row's third counts as the doubled minimum, 8 bp).  ``None`` outside that range.

    >>> [row("D", n)[25] for n in (90, 96, 100)]   # 26th place: 8 bp in the printed rows, and between them
    [(8, 'bp'), (8, 'bp'), (8, 'bp')]
    >>> [row("D", n)[0] for n in (90, 96, 100)], row("D", 53)[14:] == ((9, 'bp'), (8, 'bp'), (8, 'bp'), (8, 'bp'))
    ([(90, 'sp'), (96, 'sp'), (100, 'sp')], True)
    """
    if family not in SILVER or n <= HALF_RULE_FROM or n in final_printed(family):
        return None
    rows = _neighbour_rows(family)
    lower = [f for f in rows if f < n]
    higher = [f for f in rows if f > n]
    if not lower or not higher:
        return None
    lo, hi = max(lower), min(higher)
    weight = Fraction(n - lo, hi - lo)

    def between(a: int, b: int) -> int:
        return _up(a + (b - a) * weight)

    silver_count = quarter(n)
    low_silver, high_silver = silver_scale(family, lo), silver_scale(family, hi)
    cells: list[Cell] = [(between(low_silver[i], high_silver[i]), "sp") for i in range(silver_count)]

    def red(field: int, place: int) -> int:
        cells_of_row = row(family, field)
        if place > len(cells_of_row):
            return 2 * BRONZE_MINIMUM
        points, unit = cells_of_row[place - 1]
        if unit != "bp":  # cannot happen: a row between lo and hi has the quarter of hi (asserted by the tests)
            raise RuntimeError(f"table {family}: place {place} of row {field} is silver, red in row {n}")
        return points

    for place in range(silver_count + 1, third(n) + 1):
        cells.append((between(red(lo, place), red(hi, place)), "bp"))
    return tuple(cells)
