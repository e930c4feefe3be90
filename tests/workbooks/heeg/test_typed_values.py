"""Issue 16, points 2 and 3: a typed value is never silently replaced or ignored.

The problems (an MP for an absent pair, ``s`` with a combi MP, rounds + combi beyond
the evening, ``s`` or a combi MP where the line has no sit-out, a fraction for a
percentage) are in docs/errors.md and produced by tests/test_errors_catalogue.py;
here: the warning of a typed MP that the rounds replace (at its cell, on the
Messages sheet, printed by the CLI, the recalculation goes on) and ``'=``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.cli import main
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.heeg.declaration import EVENING_PREFIX, evening_table
from xlbridge.workbooks.messages import HEADER_WARNINGS, MESSAGES, WARNING_MARK, clear_marks, report_problems
from xlbridge.workbooks.recalc import recalculate

ROOT = Path(__file__).resolve().parents[3]
TABLE = evening_table(6, ["1", "2", "3"])
MP, R1, INV, PCT = TABLE.col("mp"), TABLE.col("r1"), TABLE.col("code"), TABLE.col("pct")
DOCS = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    path = tmp_path / "heeg.xlsx"
    shutil.copy(ROOT / "workbooks" / "heeg-demo.xlsx", path)
    return path


def _row_with_rounds(wb) -> tuple[str, int]:
    for name in wb.sheetnames:
        if name.startswith(EVENING_PREFIX):
            ws = wb[name]
            for row in range(2, ws.max_row + 1):
                if isinstance(ws.cell(row=row, column=R1).value, (int, float)) and not ws.cell(row=row, column=INV).value:
                    return name, row
    raise AssertionError("no row with rounds")


def _documented(code_id: str) -> str:
    """The message of a warning as docs/errors.md lists it (``W-...`` rows)."""
    match = re.search(rf"^\| `{code_id}` \|[^|]*\| `([^`]+)` \|", DOCS, re.M)
    assert match, code_id
    return match[1]


def test_a_typed_mp_that_is_not_the_sum_of_the_rounds_is_a_warning_at_its_cell(demo: Path) -> None:
    wb = load_workbook(demo)
    name, row = _row_with_rounds(wb)
    ws = wb[name]
    total = sum(ws.cell(row=row, column=c).value or 0 for c in range(R1, R1 + 6))
    ws.cell(row=row, column=MP, value=total + 16)
    book = OpenpyxlBook(wb)
    report = recalculate(book, when="t")
    mp_ref = f"{ws.cell(row=row, column=MP).column_letter}{row}"
    assert [(w.sheet, w.cell, w.code) for w in report.warnings] == [(name, mp_ref, "heeg.mp.not-rounds")]
    shown = f"{total + 16} is not the sum of the rounds ({total:g})"
    assert shown in report.warnings[0].message
    assert ws.cell(row=row, column=MP).value == total  # the recalculation went on: the sum counts
    # in Excel: on the Messages sheet below its header, the cell marked orange; the next run clears it
    report_problems(book, [], done="Recalculated.", warnings=report.warnings)
    messages = [r[:2] for r in book.read(MESSAGES)]
    assert messages[1] == [HEADER_WARNINGS, None] and messages[2] == [str(report.warnings[0]), f"{name}!{mp_ref}"]
    assert ws[mp_ref].fill.fgColor.rgb == "FF" + WARNING_MARK[1:]
    clear_marks(book)
    assert ws[mp_ref].fill.fgColor.rgb == "FFFFF2CC"
    again = recalculate(OpenpyxlBook(wb), when="t")
    assert again.warnings == [] and again.changes == []  # MP holds the sum now: nothing to say


def test_the_cli_prints_the_warning_and_recalculates(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wb = load_workbook(demo)
    name, row = _row_with_rounds(wb)
    wb[name].cell(row=row, column=MP, value="75")
    wb.save(demo)
    assert main(["recalc", str(demo)]) == 0
    out, err = capsys.readouterr()
    mp_ref = f"{wb[name].cell(row=row, column=MP).column_letter}{row}"
    # the demo's first row with rounds is the catalogue's example
    assert (name, mp_ref, _sum(wb, name, row)) == ("Evening 2025-09-04", "L2", 198)
    assert err.splitlines() == [f"xlbridge: warning: {_documented('W-HEEG-MP-NOT-ROUNDS')}"]
    assert "1 warning(s) above" in out
    assert load_workbook(demo)[name].cell(row=row, column=MP).value == _sum(wb, name, row)


def _sum(wb, name: str, row: int):
    total = sum(wb[name].cell(row=row, column=c).value or 0 for c in range(R1, R1 + 6))
    return int(total) if float(total).is_integer() else total


def test_equals_typed_with_its_apostrophe_kept_is_the_arbitrary_50(demo: Path) -> None:
    wb = load_workbook(demo)
    name, row = _row_with_rounds(wb)
    wb[name].cell(row=row, column=INV, value="'=")  # a cell formatted as text keeps the apostrophe
    report = recalculate(OpenpyxlBook(wb), when="t")
    assert report.warnings == []
    assert wb[name].cell(row=row, column=PCT).value == 50


def test_a_corrected_round_is_a_correction_not_a_warning(demo: Path) -> None:
    """The MP cell still holds the sum the last recalculation wrote (its % is that
    MP's): a round corrected since is an ordinary late correction."""
    wb = load_workbook(demo)
    name, row = _row_with_rounds(wb)
    ws = wb[name]
    old = ws.cell(row=row, column=MP).value
    ws.cell(row=row, column=R1, value=ws.cell(row=row, column=R1).value + 3)
    report = recalculate(OpenpyxlBook(wb), when="t")
    assert report.warnings == []
    assert ws.cell(row=row, column=MP).value == old + 3
    assert (name, f"L{row}", old, old + 3) in [(c.sheet, c.cell, c.old, c.new) for c in report.changes]
