"""Re-read the award tables of *Svenska Mästarpoäng 2009* from the extracted text.

The seed text (``docs/sources/000_b38bcd2d61619209.txt``) prints every table of
section 9 flattened: after the column header (``Plac u 1 2 3 ...  Par q``) the
rows run on one after the other, each starting with the field size followed by
the awards by place.  Red figures (bronze points inside a silver table) are no
longer marked.  This module turns that text back into rows:

* a row starts at a number ``n`` (larger than the previous row's ``n``) that is
  followed by the winner's award of a field of ``n`` -- every table states how
  the winner's award follows from the field (2 per pair, 3 per team, ...);
* inside a silver table the bronze part begins where the figures rise again
  (bronze is printed as "bp x 2", which is always more than the last silver
  figure); :func:`split_units` does that, and the tests check the split against
  the stated rule (silver to the best quarter, at most 16; bronze to one third).

``python -m xlbridge.awards.se_parse`` rewrites ``xlbridge/awards/data/se_*.csv``
(the files are committed; ``tests/test_se_tables.py`` re-derives them from the
seed text and compares).  Pure Python, no third-party imports.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

SEED = Path(__file__).resolve().parents[2] / "docs" / "sources" / "000_b38bcd2d61619209.txt"
DATA = Path(__file__).resolve().parent / "data"
DOCUMENT = "Svenska Mästarpoäng - Regler gällande från 1 april 2009, Rev 1.1 MME (090427), Förbundet Svensk Bridge"
PAGE_HEADER = "SVENSKA MÄSTARPOÄNG 2009"


def _ceil(x: float) -> int:
    return math.ceil(round(x, 9))


@dataclass(frozen=True)
class TableSpec:
    """Where a flattened table sits in the text and how its rows are recognised."""

    name: str  # CSV name: xlbridge/awards/data/<name>.csv
    title: str  # text that opens the table in the seed
    marker: str  # the token(s) right before the first row ("Par q")
    skip: int  # header numbers printed after the marker (table A2 only)
    winner: str  # how the winner's award follows from the field (for the row split)
    silver: bool  # does the table carry bronze ("red") figures after the silver ones
    page: int
    caption: str
    label_exceptions: tuple[tuple[int, int], ...] = ()  # (field, printed winner) that break the winner rule

    def winner_of(self, n: int) -> int:
        for field, printed in self.label_exceptions:
            if field == n:
                return printed
        return {
            "2n": 2 * n,
            "3n": 3 * n,
            "1.5n": _ceil(1.5 * n),
            "n": n,
            "0.75n": _ceil(0.75 * n),
            "10(n-1)": 10 * (n - 1),
        }[self.winner]


TABLES: dict[str, TableSpec] = {
    spec.name: spec
    for spec in (
        TableSpec("se_a1", "Tabell A1, Brons, Partävling 4-32 par", "Par q", 0, "2n", False, 6,
                  "Table A1, bronze, pairs 4-32"),
        TableSpec("se_a2", "Tabell A2, Brons, Partävling 32-100 par", "Parq", 34, "2n", False, 7,
                  "Table A2, bronze, pairs 32-100 (even field sizes only)"),
        TableSpec("se_b1", "Tabell B1, Brons, Lagbarometer", "Lag q", 0, "3n", False, 8,
                  "Table B1, bronze, team barometer 4-32"),
        TableSpec("se_b2_bonus", "Tabell B2, Brons, Bonustabell", "Lag q", 0, "10(n-1)", False, 9,
                  "Table B2, bronze, bonus table (series)"),
        TableSpec("se_c", "Tabell C, Brons, Individuellt", "Spelare q", 0, "1.5n", False, 10,
                  "Table C, bronze, individual 8-60"),
        TableSpec("se_d", "Tabell D, Silverpoäng, Partävling 12-100 par", "Par q", 0, "n", True, 11,
                  "Table D, silver, pairs 12-100, bronze in red"),
        TableSpec("se_e1", "Tabell E1, Silverpoäng, Lagbarometer", "Lag q", 0, "1.5n", True, 13,
                  "Table E1, silver, team barometer 8-60, bronze in red",
                  label_exceptions=((60, 72),)),
        TableSpec("se_f", "Tabell F, Silverpoäng, Individuellt", "Spelare q", 0, "0.75n", True, 15,
                  "Table F, silver, individual 16-64, bronze in red"),
    )
}


def seed_text(path: Path | str = SEED) -> str:
    return Path(path).read_text(encoding="utf-8")


def numbers_after(text: str, spec: TableSpec) -> list[int]:
    """The run of whole numbers that follows the table's row marker."""
    start = text.index(spec.title)
    at = text.index(spec.marker, start) + len(spec.marker)
    tokens = text[at:].replace(PAGE_HEADER, " ").split()
    out: list[int] = []
    for token in tokens:
        if not re.fullmatch(r"\d+", token):
            break
        out.append(int(token))
    return out[spec.skip:]


def split_rows(numbers: list[int], spec: TableSpec) -> dict[int, list[int]]:
    """Cut the run of numbers into rows ``{field: [award by place]}``."""
    rows: dict[int, list[int]] = {}
    current: int | None = None
    i = 0
    while i < len(numbers):
        value = numbers[i]
        starts = (
            (current is None or value > current)
            and i + 1 < len(numbers)
            and numbers[i + 1] == spec.winner_of(value)
        )
        if starts:
            current = value
            rows[current] = [numbers[i + 1]]
            i += 2
            continue
        if current is None:
            raise ValueError(f"{spec.name}: numbers before the first row: {numbers[:i + 1]}")
        rows[current].append(value)
        i += 1
    return rows


def split_units(values: list[int]) -> tuple[list[int], list[int]]:
    """Silver figures, then the bronze ("red") ones: bronze starts where the figures rise."""
    for i in range(1, len(values)):
        if values[i] > values[i - 1]:
            return values[:i], values[i:]
    return values, []


def parse_table(text: str, name: str) -> list[tuple[int, int, int, str]]:
    """Rows ``(field, place, points, unit)`` of one table, as printed."""
    spec = TABLES[name]
    rows = split_rows(numbers_after(text, spec), spec)
    out: list[tuple[int, int, int, str]] = []
    base_unit = "bonus" if name == "se_b2_bonus" else "bp"
    for field, values in rows.items():
        if spec.silver:
            silver, bronze = split_units(values)
            cells = [(v, "sp") for v in silver] + [(v, "bp") for v in bronze]
        else:
            cells = [(v, base_unit) for v in values]
        for place, (points, unit) in enumerate(cells, start=1):
            out.append((field, place, points, unit))
    return out


GROUP_TITLE = "2 grupper 3 grupper 4 grupper 5 grupper"


def parse_group_coefficients(text: str) -> list[tuple[int, str, float]]:
    """Table under A1: ``(groups, group letter, coefficient)``.

    Printed row-wise across the four columns (2, 3, 4 and 5 groups): the A row
    has four entries, B four, C three (3-5 groups), D two (4-5), E one (5).
    """
    start = text.index(GROUP_TITLE) + len(GROUP_TITLE)
    end = text.index("Vid gruppindelning", start)
    found = re.findall(r"([A-E])-grp (\d+,\d+)", text[start:end])
    first_column = {"A": 2, "B": 2, "C": 3, "D": 4, "E": 5}
    out: list[tuple[int, str, float]] = []
    seen: dict[str, int] = {}
    for letter, value in found:
        groups = first_column[letter] + seen.get(letter, 0)
        seen[letter] = seen.get(letter, 0) + 1
        out.append((groups, letter, float(value.replace(",", "."))))
    return sorted(out)


HEADER_COMMON = [
    f"# Source: {DOCUMENT}.",
    "# Seed text: docs/sources/000_b38bcd2d61619209.txt (text extracted from the PDF; tables flattened).",
]


def _header(spec: TableSpec) -> list[str]:
    lines = HEADER_COMMON + [
        f"# Section 9 (MP-tabeller), {spec.caption}, page {spec.page} ('Sid {spec.page}').",
        "# Extracted by xlbridge/awards/se_parse.py (python -m xlbridge.awards.se_parse): a row starts at a field",
        f"# size followed by the stated winner's award ({spec.winner} per unit); values are AS PRINTED.",
    ]
    if spec.silver:
        lines.append("# Unit: the red (bronze) figures are told apart by where the figures rise again; each bronze")
        lines.append("# figure is the bronze table's value x 2 (silver events).")
    if spec.label_exceptions:
        for field, printed in spec.label_exceptions:
            lines.append(f"# Row {field} prints winner {printed}, not the stated rule ({spec.winner}); see se_errata.csv.")
    lines.append("# Misprints are NOT corrected here: xlbridge/awards/data/se_errata.csv lists every cell that")
    lines.append("# differs from the table's own principle, with the decision taken.")
    return lines


def render_table(text: str, name: str) -> str:
    spec = TABLES[name]
    lines = _header(spec) + ["field,place,points,unit"]
    lines += [f"{f},{p},{v},{u}" for f, p, v, u in parse_table(text, name)]
    return "\n".join(lines) + "\n"


def render_groups(text: str) -> str:
    lines = HEADER_COMMON + [
        "# Section 9, coefficients under table A1 ('Vid gruppindelning för par efter spelstyrka korrigeras",
        "# parantalet med ovanstående koefficient'), page 6. Extracted by xlbridge/awards/se_parse.py.",
        "groups,group,coefficient",
    ]
    lines += [f"{g},{letter},{c}" for g, letter, c in parse_group_coefficients(text)]
    return "\n".join(lines) + "\n"


def render_all(text: str) -> dict[str, str]:
    files = {name: render_table(text, name) for name in TABLES}
    files["se_groups"] = render_groups(text)
    return files


def main(argv: list[str] | None = None) -> int:
    text = seed_text()
    for name, content in render_all(text).items():
        (DATA / f"{name}.csv").write_text(content, encoding="utf-8")
        print(f"wrote {name}.csv")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
