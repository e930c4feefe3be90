"""The Messages sheet is readable in Excel (issue 26, point 3).

On main the sheet was added by the first recalculation that had something to say: after the hidden
record sheet, with Excel's default column widths (xlwings Lite cannot size columns), so a message ran
into its reference ("Avond 202Avond 2026-09-17!L5"). Now every built workbook has it from the start,
laid out, right after its first sheet; a click only writes values into it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.language import LANGUAGES, speaking, _
from xlbridge.workbooks.localised import Localised
from xlbridge.workbooks.messages import LAYOUT, MESSAGES, NONE_YET, REFERENCE_WIDTH

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "workbooks").glob("*.xlsx")) + sorted((ROOT / "templates").glob("*.xlsx"))
KINDS = ("heeg", "bridgemania", "tbf-club", "se-masterpoints")


def _language(wb) -> str:
    """The language whose Messages name the workbook's second sheet has."""
    found = [lang for lang in LANGUAGES if Localised.local_name(MESSAGES, lang) == wb.sheetnames[1]]
    assert found, wb.sheetnames
    return found[0]


def _laid_out(wb, language: str) -> None:
    ws = wb[Localised.local_name(MESSAGES, language)]
    assert wb.sheetnames.index(ws.title) == 1
    assert ws.sheet_state == "visible"
    assert ws.column_dimensions["A"].width == LAYOUT.widths[0] == 100
    assert ws.column_dimensions["B"].width == REFERENCE_WIDTH
    assert ws.column_dimensions["A"].alignment.wrap_text  # the column's style: cells Excel writes later wrap too
    for (cell,) in ws.iter_rows(max_col=1):
        assert cell.value is None or cell.alignment.wrap_text, cell.coordinate


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_file_has_its_messages_sheet_laid_out_second(path: Path) -> None:
    wb = load_workbook(path)
    language = _language(wb)
    _laid_out(wb, language)
    ws = wb.worksheets[1]
    with speaking(language):
        assert ws["A1"].value == _(NONE_YET)  # a quiet recalculation of the shipped file left it unwritten
    assert ws.max_row == 1


@pytest.mark.parametrize("language", [*LANGUAGES])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.slow
def test_a_new_workbook_in_every_language_has_it(built_once, tmp_path: Path, kind: str, language: str) -> None:
    wb = load_workbook(built_once(kind, tmp_path / "book.xlsx", blank=True, language=language))
    _laid_out(wb, language)
    assert wb.sheetnames[-1] == "xlbridge"  # the hidden record stays last


@pytest.mark.slow
def test_a_problem_is_listed_with_its_whole_reference_and_a_clean_run_clears_it(built_once, tmp_path: Path) -> None:
    from xlbridge.workbooks.localised import localised
    from xlbridge.workbooks.messages import report_problems
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.plan import at

    wb = load_workbook(built_once("heeg", tmp_path / "heeg.xlsx", language="nl"))
    evening = next(name for name in wb.sheetnames if name.startswith("Avond "))
    book = localised(OpenpyxlBook(wb), "nl")
    with speaking("nl"):
        report_problems(book, [at(Localised.canonical_name(evening, "nl"), "L5", "x", "iets klopt niet")])
    ws = wb["Meldingen"]
    assert [ws["A2"].value, ws["B2"].value] == [f"{evening}, L5: iets klopt niet", f"{evening}!L5"]
    assert len(ws["B2"].value) <= REFERENCE_WIDTH
    assert ws["A1"].alignment.wrap_text and ws["A2"].alignment.wrap_text
    assert wb.sheetnames.index("Meldingen") == 1

    with speaking("nl"):
        report_problems(book, [], done="klaar")
    assert [ws["A1"].value, ws["A2"].value, ws["B2"].value] == ["klaar", None, None]
    ws["A1"] = "as left"  # a second quiet run leaves the sheet as it is
    with speaking("nl"):
        report_problems(book, [], done="klaar")
    assert ws["A1"].value == "as left"


@pytest.mark.slow
def test_a_workbook_without_it_gets_it_second_and_laid_out(built_once, tmp_path: Path) -> None:
    from xlbridge.workbooks.localised import localised
    from xlbridge.workbooks.messages import report_problems
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.plan import at

    wb = load_workbook(built_once("bridgemania", tmp_path / "bm.xlsx", language="it"))
    del wb["Messaggi"]
    with speaking("it"):
        report_problems(localised(OpenpyxlBook(wb), "it"), [at("Season", "B3", "x", "qualcosa non va")])
    _laid_out(wb, "it")
    assert wb["Messaggi"]["B2"].value == "Stagione!B3"
