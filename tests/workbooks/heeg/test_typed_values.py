"""Issue 16, points 2 and 3: a typed value is never silently replaced or ignored.

The problems (an MP for an absent pair, ``s`` with a combi MP, rounds + combi beyond
the evening, ``s`` or a combi MP where the line has no sit-out, a fraction for a
percentage) are in docs/errors.md and produced by tests/test_errors_catalogue.py;
here: the warning of a typed MP that the rounds replace (at its cell, on the
Messages sheet, printed by the CLI, the recalculation goes on) and ``'=``.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.cli import main
from xlbridge.files.headless import recalc_path
from xlbridge.language import _, sheet_name, speaking
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.heeg.declaration import EVENING_PREFIX, evening_table
from xlbridge.workbooks.messages import HEADER_WARNINGS, MESSAGES, WARNING_MARK, clear_marks, report_problems
from xlbridge.workbooks.recalc import recalculate
from xlbridge.workbooks.record import TYPED_OVER
from xlbridge.workbooks.localised import Localised, localised

ROOT = Path(__file__).resolve().parents[3]
TABLE = evening_table(6, ["1", "2", "3"])
MP, R1, INV, PCT = TABLE.col("mp"), TABLE.col("r1"), TABLE.col("code"), TABLE.col("pct")
DOCS = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")


#: The warning's template (xlbridge/workbooks/heeg/read.py): the message id in every catalogue.
NOT_ROUNDS = "MP {value} is not the sum of the rounds ({total}); the sum counts and replaces it"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """The shipped demo, in the club's language (Dutch)."""
    path = tmp_path / "heeg.xlsx"
    shutil.copy(ROOT / "workbooks" / "heeg-demo.xlsx", path)
    return path


@pytest.fixture
def demo_en(tmp_path: Path, built_once) -> Path:
    """The same demo built in English (docs/errors.md quotes the English messages)."""
    return built_once("heeg", tmp_path / "heeg-en.xlsx", language="en")


def _row_with_rounds(wb) -> tuple[str, int]:
    prefixes = {sheet_name(EVENING_PREFIX, language) for language in ("en", "nl")}
    for name in wb.sheetnames:
        if any(name.startswith(prefix) for prefix in prefixes):
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


@pytest.mark.slow
def test_a_typed_mp_that_is_not_the_sum_of_the_rounds_is_a_warning_at_its_cell(demo: Path) -> None:
    wb = load_workbook(demo)
    name, row = _row_with_rounds(wb)
    assert name.startswith(sheet_name(EVENING_PREFIX, "nl"))  # the club's workbook: Dutch
    ws = wb[name]
    total = sum(ws.cell(row=row, column=c).value or 0 for c in range(R1, R1 + 6))
    ws.cell(row=row, column=MP, value=total + 16)
    book = OpenpyxlBook(wb)
    report = recalculate(book, when="t")
    assert report.language == "nl"
    mp_ref = f"{ws.cell(row=row, column=MP).column_letter}{row}"
    with speaking("nl"):  # what the scorer reads: the sheet's own name, the message in Dutch
        assert [(w.shown_sheet, w.cell, w.code) for w in report.warnings] == [(name, mp_ref, "heeg.mp.not-rounds")]
        shown = _(NOT_ROUNDS).format(value=total + 16, total=f"{total:g}")
        assert shown != NOT_ROUNDS.format(value=total + 16, total=f"{total:g}")
        assert report.warnings[0].message == shown
    assert ws.cell(row=row, column=MP).value == total  # the recalculation went on: the sum counts
    # in Excel: on the Messages sheet below its header, the cell marked orange; the next run clears it
    with speaking("nl"):  # as the Excel script does: in the workbook's language, through its English names
        local = localised(book, "nl")
        report_problems(local, [], done=_("Recalculated {cells} cells.").format(cells=1), warnings=report.warnings)
        messages = [r[:2] for r in book.read(sheet_name(MESSAGES))]
        assert messages[1] == [_(HEADER_WARNINGS), None] and messages[2] == [str(report.warnings[0]), f"{name}!{mp_ref}"]
        assert messages[2][0].startswith(f"{name}, {mp_ref}: ")
    assert ws[mp_ref].fill.fgColor.rgb == "FF" + WARNING_MARK[1:]
    with speaking("nl"):
        clear_marks(localised(book, "nl"))
    assert ws[mp_ref].fill.fgColor.rgb == "FFFFF2CC"
    again = recalculate(OpenpyxlBook(wb), when="t")
    assert again.warnings == [] and again.changes == []  # MP holds the sum now: nothing to say


@pytest.mark.slow
def test_the_cli_prints_the_warning_and_recalculates(demo_en: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = demo_en
    wb = load_workbook(demo)
    name, row = _row_with_rounds(wb)
    wb[name].cell(row=row, column=MP, value="75")
    wb.save(demo)
    assert main(["recalc", str(demo)]) == 0
    out, err = capsys.readouterr()
    mp_ref = f"{wb[name].cell(row=row, column=MP).column_letter}{row}"
    # the demo's first row with rounds is the catalogue's example
    assert (name, mp_ref, _sum(wb, name, row)) == ("Evening 2025-09-04", "L2", 198)
    assert err.splitlines() == [f"xlbridge: warning: {_documented('W-HEEG-MP-NOT-ROUNDS')}",  # (saved by openpyxl,
                                f"xlbridge: warning: {_documented('W-LITE-PUT-BACK')}"]  # which drops the Lite code)
    assert "2 warnings above" in out
    after = load_workbook(demo)
    assert after[name].cell(row=row, column=MP).value == _sum(wb, name, row)
    # the Messages sheet lists the warning at its cell, marked orange, as a click in Excel does (the Lite code
    # put back concerns the file, not a cell: the CLI alone says it)
    messages = [[c.value for c in line] for line in after[MESSAGES].iter_rows(max_col=2)]
    assert messages == [["Recalculated 10466 cells; 1 earlier value changed (see Corrections). 1 warning: see the "
                         "Messages sheet.", None], [HEADER_WARNINGS, None],
                        [_documented("W-HEEG-MP-NOT-ROUNDS"), f"{name}!{mp_ref}"]]
    assert after[name][mp_ref].fill.fgColor.rgb == "FF" + WARNING_MARK[1:]
    # the next run has nothing to say: the list goes, the cell gets its typed-cell yellow back; then nothing to write
    assert main(["recalc", str(demo)]) == 0
    capsys.readouterr()
    after = load_workbook(demo)
    assert [[c.value for c in line] for line in after[MESSAGES].iter_rows(max_col=2)] == [
        ["Recalculated 10466 cells.", None], [None, None], [None, None]]
    assert after[name][mp_ref].fill.fgColor.rgb == "FFFFF2CC"
    saved = demo.read_bytes()
    assert main(["recalc", str(demo)]) == 0
    assert demo.read_bytes() == saved


def _sum(wb, name: str, row: int):
    total = sum(wb[name].cell(row=row, column=c).value or 0 for c in range(R1, R1 + 6))
    return int(total) if float(total).is_integer() else total


@pytest.mark.slow
def test_equals_typed_with_its_apostrophe_kept_is_the_arbitrary_50(demo: Path) -> None:
    wb = load_workbook(demo)
    name, row = _row_with_rounds(wb)
    wb[name].cell(row=row, column=INV, value="'=")  # a cell formatted as text keeps the apostrophe
    report = recalculate(OpenpyxlBook(wb), when="t")
    assert report.warnings == []
    assert wb[name].cell(row=row, column=PCT).value == 50


@pytest.mark.slow
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
    # a change names the sheet by its English name; the Corrections sheet shows the workbook's own
    assert (Localised.canonical_name(name, "nl"), f"L{row}", old, old + 3) in [
        (c.sheet, c.cell, c.old, c.new) for c in report.changes]
    corrections = wb[sheet_name("Corrections", "nl")]
    assert (name, f"L{row}") in [(r[1], r[2]) for r in corrections.iter_rows(values_only=True)]


@pytest.mark.slow
def test_a_computed_cell_typed_over_gets_its_own_number_format_back(demo_en: Path) -> None:
    """A date typed over the evening's maximum (Excel formats the cell as a date) and 62.5% over a percentage: the
    288 written back showed as 14-10-1900 and the 62.50 as 6250.00%, and the date format made every later run
    read a date, list it as changed and save again.  Now the cell gets the column's format back: the next run
    changes nothing."""
    wb = load_workbook(demo_en)
    ws = wb["Evening 2025-09-04"]
    ws["M5"].value, ws["M5"].number_format = dt.datetime(2025, 9, 4), "d-m-yyyy"
    ws["P6"].value, ws["P6"].number_format = 0.625, "0.00%"
    formats = ws["M6"].number_format, ws["P7"].number_format
    wb.save(demo_en)
    first = recalc_path(demo_en, backup=False)
    assert {(c.cell, c.cause) for c in first.changes} >= {("M5", TYPED_OVER), ("P6", TYPED_OVER)}
    ws = load_workbook(demo_en)["Evening 2025-09-04"]
    assert (ws["M5"].number_format, ws["P6"].number_format) == formats
    assert isinstance(ws["M5"].value, (int, float)) and ws["M5"].value == ws["M6"].value == 288
    again = recalc_path(demo_en, backup=False)  # (it clears the warnings of the Messages sheet)
    assert again.changes == [] and again.warnings == []
    saved = demo_en.read_bytes()
    assert recalc_path(demo_en, backup=False).changes == [] and demo_en.read_bytes() == saved
