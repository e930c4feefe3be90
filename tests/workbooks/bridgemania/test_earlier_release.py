"""Clubs keep their files: a BridgeMania workbook written by an earlier release still
recalculates, to the same values today's code gives on today's workbook.

``data/bridgemania-demo-f90c1a3.xlsx`` is ``workbooks/bridgemania-demo.xlsx`` as
shipped at commit f90c1a3 (before the kind was split into declaration, reader,
planner and builder), copied byte for byte."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from xlbridge.excel.shipped import build
from xlbridge.files.headless import recalc_path
from xlbridge.workbooks.bridgemania import COMPUTED, T_FIRST, T_HEADER

EARLIER = Path(__file__).parent / "data" / "bridgemania-demo-f90c1a3.xlsx"


def values(path: Path) -> dict[str, list[list[object]]]:
    """Every sheet's cell values (the How to sheet, whose text has changed since, left out)."""
    wb = load_workbook(path)
    return {ws.title: [list(row) for row in ws.iter_rows(values_only=True)]
            for ws in wb.worksheets if ws.title != "How to"}


@pytest.fixture(scope="module")
def today(tmp_path_factory) -> Path:
    return build("bridgemania", tmp_path_factory.mktemp("today") / "demo.xlsx", language="en")


@pytest.fixture
def copies(today, tmp_path) -> tuple[Path, Path]:
    earlier, now = tmp_path / "earlier.xlsx", tmp_path / "today.xlsx"
    shutil.copyfile(EARLIER, earlier)
    shutil.copyfile(today, now)
    return earlier, now


def test_the_earlier_file_recalculates_to_todays_values(copies):
    earlier, now = copies
    before = values(earlier)
    report = recalc_path(earlier, backup=False, when="2026-12-01 10:00")
    # nothing computed differently but the ill pairs' mark on the lists: I -> M (issue 15, point 6)
    assert report.changes and {(c.old, c.new) for c in report.changes} == {("I", "M")}
    # (the tournaments' lists; the Participation sheet's are a view, never audited: docs/printing.md)
    assert {c.column for c in report.changes} == {"List"}
    recalc_path(now, backup=False, when="2026-12-01 10:00")
    after = values(earlier)
    assert len(after.pop("Corrections")) == 1 + len(report.changes)  # the header and one row per change
    assert after == values(now)
    changed = {(c.sheet, c.cell) for c in report.changes}
    assert len(changed) == len(report.changes)
    for sheet, rows in before.items():
        if sheet == "Corrections":
            continue
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(row, start=1):
                if value != after[sheet][r - 1][c - 1]:
                    assert (value, after[sheet][r - 1][c - 1]) == ("I", "M")
                    if sheet != "Participation":  # a view, never audited (docs/printing.md)
                        assert (sheet, f"{get_column_letter(c)}{r}") in changed


def late_correction(path: Path) -> None:
    """T14, board 1: +2 to one pair and -2 to another (the board still adds up)."""
    wb = load_workbook(path)
    ws = wb["T14"]
    top = ws["B4"].value
    rows = [r for r in range(T_FIRST, T_FIRST + 30) if isinstance(ws.cell(r, 4).value, (int, float))]
    up = next(r for r in rows if ws.cell(r, 4).value <= top - 2)
    down = next(r for r in rows if r != up and ws.cell(r, 4).value >= 2)
    ws.cell(up, 4).value += 2
    ws.cell(down, 4).value -= 2
    wb.save(path)


def test_a_late_correction_in_the_earlier_file_gives_todays_values(copies):
    earlier, now = copies
    for path in copies:
        late_correction(path)
    old_report = recalc_path(earlier, backup=False, when="2026-12-01 10:00")
    new_report = recalc_path(now, backup=False, when="2026-12-01 10:00")
    old_values, new_values = values(earlier), values(now)
    old_values.pop("Corrections"), new_values.pop("Corrections")  # (the earlier one also lists I -> M)
    assert old_values == new_values
    # (the earlier file's lists also change their ill pairs from I to M: issue 15, point 6)
    assert old_report.changes and [(c.sheet, c.cell, c.old, c.new) for c in old_report.changes
                                   if (c.old, c.new) != ("I", "M")] == [
        (c.sheet, c.cell, c.old, c.new) for c in new_report.changes]
    ws = load_workbook(earlier)["T14"]
    headers = [c.value for c in ws[T_HEADER]]
    assert headers[headers.index(COMPUTED[0]):] == COMPUTED
