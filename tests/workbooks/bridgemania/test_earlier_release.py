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
from xlbridge.workbooks.bridgemania.declaration import RESULT, RESULT_CAPTION, RESULT_CAPTION_ROW

CAPTION = RESULT_CAPTION  # (English: the earlier file is English)

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


def is_tournament(rows: list[list[object]]) -> bool:
    return str(rows[0][0]).startswith("BridgeMania tournament")


def meaning(sheets: dict[str, list[list[object]]]) -> dict[str, object]:
    """What a workbook says, wherever its tournament sheets keep it: the other sheets cell for
    cell; per tournament, each pair's computed columns by pair, and the sorted result."""
    out: dict[str, object] = {}
    for name, rows in sheets.items():
        if name in ("Blank tournament", "xlbridge"):  # never read; the earlier file's own copy keeps its layout;
            continue  # the record of the last recalculation keeps each file's own history (which cells were typed)
        if not is_tournament(rows):
            out[name] = rows
            continue
        header = rows[T_HEADER - 1]
        first = header.index(COMPUTED[0])
        pairs = {row[0]: row[first:first + len(COMPUTED)] for row in rows[T_FIRST - 1:] if row[0] is not None
                 and row[first:first + len(COMPUTED)] != [None] * len(COMPUTED)}
        at = rows[RESULT_CAPTION_ROW - 1].index(CAPTION)
        result = [row[at:at + RESULT.width()] for row in rows[RESULT_CAPTION_ROW - 1:]]
        out[name] = (pairs, [r for r in result if r != [None] * RESULT.width()])
    return out


@pytest.mark.slow
def test_the_earlier_file_recalculates_to_todays_values(copies):
    earlier, now = copies
    before = values(earlier)
    report = recalc_path(earlier, backup=False, when="2026-12-01 10:00")
    # nothing computed differently but the ill pairs' mark on the lists: I -> M (issue 15, point 6);
    # the sorted result is new (written into empty cells, right of the per-pair columns: not a correction)
    assert report.changes and {(c.old, c.new) for c in report.changes} == {("I", "M")}
    # (the tournaments' lists; the Participation sheet's are a view, never audited: docs/printing.md)
    assert {c.column for c in report.changes} == {"List"}
    recalc_path(now, backup=False, when="2026-12-01 10:00")
    after = values(earlier)
    assert len(after.pop("Corrections")) == 1 + len(report.changes)  # the header and one row per change
    today = values(now)
    today.pop("Corrections", None)
    assert meaning(after) == meaning(today)
    changed = {(c.sheet, c.cell) for c in report.changes}
    assert len(changed) == len(report.changes)
    for sheet, rows in before.items():
        if sheet == "Corrections":
            continue
        # the sorted result: one gap column right of the per-pair columns (nothing typed moved)
        result_col = (rows[T_HEADER - 1].index(COMPUTED[0]) + len(COMPUTED) + 2) if is_tournament(rows) and \
            sheet != "Blank tournament" else 0
        if result_col:
            assert after[sheet][T_HEADER - 1][result_col - 1:result_col - 1 + RESULT.width()] == RESULT.headers()
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(row, start=1):
                if value != after[sheet][r - 1][c - 1]:
                    if value is None and result_col and result_col <= c < result_col + RESULT.width():
                        continue
                    assert (value, after[sheet][r - 1][c - 1]) == ("I", "M")
                    if sheet != "Participation":  # a view, never audited (docs/printing.md)
                        assert (sheet, f"{get_column_letter(c)}{r}") in changed


@pytest.mark.slow
def test_the_earlier_sheet_gets_the_look_and_print_of_its_sorted_result(copies):
    earlier, _ = copies
    recalc_path(earlier, backup=False, when="2026-12-01 10:00")
    ws = load_workbook(earlier)["T07"]
    assert ws.cell(T_HEADER, 4).value == 1  # board 1 still in D: nothing typed moved
    first = [c.value for c in ws[T_HEADER]].index(COMPUTED[0]) + 1
    col = first + len(COMPUTED) + 1  # one gap column right of the per-pair columns
    assert ws.cell(RESULT_CAPTION_ROW, col).value == CAPTION
    assert ws.cell(T_FIRST, col).value == 1 and ws.cell(T_FIRST, col + 3).number_format == "0.00"
    assert ws.cell(T_FIRST, col + 4).number_format == "0.000"
    assert ws.cell(T_HEADER, col).fill.start_color.rgb == "FF375623"  # a computed header
    end = get_column_letter(col + RESULT.width() - 1)
    penalties = next(r for r in range(T_FIRST, ws.max_row + 1) if ws.cell(r, 1).value == "Penalties")
    # the caption down to the last row of the pairs (the row above the first section's title)
    assert ws.print_area.endswith(f"${get_column_letter(col)}${RESULT_CAPTION_ROW}:${end}${penalties - 1}")
    assert ws.page_setup.orientation == "portrait"
    # a second run keeps it there, and finds nothing to correct
    assert recalc_path(earlier, backup=False, when="2026-12-01 10:05").changes == []


def late_correction(path: Path) -> None:
    """T14, board 1: +2 to one pair and -2 to another (the board still adds up)."""
    wb = load_workbook(path)
    ws = wb["T14"]
    top = ws["B4"].value
    col = [c.value for c in ws[T_HEADER]].index(1) + 1  # board 1: D in the earlier layout, N today
    rows = [r for r in range(T_FIRST, T_FIRST + 30) if isinstance(ws.cell(r, col).value, (int, float))]
    up = next(r for r in rows if ws.cell(r, col).value <= top - 2)
    down = next(r for r in rows if r != up and ws.cell(r, col).value >= 2)
    ws.cell(up, col).value += 2
    ws.cell(down, col).value -= 2
    wb.save(path)


@pytest.mark.slow
def test_a_late_correction_in_the_earlier_file_gives_todays_values(copies):
    earlier, now = copies
    for path in copies:
        late_correction(path)
    old_report = recalc_path(earlier, backup=False, when="2026-12-01 10:00")
    new_report = recalc_path(now, backup=False, when="2026-12-01 10:00")
    old_values, new_values = values(earlier), values(now)
    old_values.pop("Corrections"), new_values.pop("Corrections")  # (the earlier one also lists I -> M)
    assert meaning(old_values) == meaning(new_values)
    # (the earlier file's lists also change their ill pairs from I to M: issue 15, point 6)
    # (the same changes, each in its own column: the per-pair columns sit 10 columns further right today)
    assert old_report.changes and [(c.sheet, c.cell.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), c.unit, c.column, c.old,
                                    c.new) for c in old_report.changes if (c.old, c.new) != ("I", "M")] == [
        (c.sheet, c.cell.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), c.unit, c.column, c.old, c.new)
        for c in new_report.changes]
    ws = load_workbook(earlier)["T14"]
    headers = [c.value for c in ws[T_HEADER]]
    first = headers.index(COMPUTED[0])
    assert headers[first:first + len(COMPUTED)] == COMPUTED
    assert headers[first + len(COMPUTED) + 1:] == RESULT.headers()
