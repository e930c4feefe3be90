"""A Heeg season as a scorer starts it (test equipment): eight pairs on the Season sheet, lines A (pairs
1-4) and B (5-8), then an evening added with New evening (``xlbridge next``) and every round typed."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from xlbridge.cli import main

PAIRS = 8


def type_pairs(path: Path, periods: tuple[int, ...] = (1,)) -> None:
    """The eight pairs on the Dutch Season sheet (row 17 down: number, names, the line in each of ``periods``)."""
    wb = load_workbook(path)
    ws = wb["Seizoen"]
    for i in range(PAIRS):
        ws.cell(17 + i, 1, i + 1)
        ws.cell(17 + i, 2, f"Speler {2 * i + 1} & Speler {2 * i + 2}")
        for period in periods:
            ws.cell(17 + i, 2 + period, "A" if i < PAIRS // 2 else "B")
    wb.save(path)


def add_evening(path: Path, day: str, *options: str) -> None:
    """New evening for ``day`` (``options``: more of ``xlbridge next``'s), then every pair's six rounds typed,
    a different total each (not recalculated)."""
    assert main(["next", str(path), "--date", day, *options]) == 0
    wb = load_workbook(path)
    ws = wb[f"Avond {day}"]
    for row in range(2, 2 + PAIRS):
        for col in range(4, 10):
            ws.cell(row, col, (row + col) % 7 + 1)
    wb.save(path)
