"""Issue 25, points 7-9 and 13 on the Excel path (xlwings' Office.js dispatch, as xlwings Lite runs it): a
sheet named like xlbridge's own in another case, a scorer's own sheet ``xlbridge`` and another workbook's
record give the same messages as headless; a chart sheet is not in the payload (xlwings Lite's
``book.sheets`` has none) and the click recalculates as headless does."""

from __future__ import annotations

from openpyxl import load_workbook

from tests.emulate import apply_actions, excel_and_headless, payload, run_script, snapshot
from tools.attacks.sheets import record_of, with_chart_sheet, with_record, with_sheet
from xlbridge.excel import scripts


def _alert(actions: list[dict]) -> str:
    return next(a["args"][0] for a in actions if a["func"] == "alert")


def test_a_misnamed_sheet_is_the_same_problem_in_excel(tmp_path, built_once):
    club = built_once("tbf-club", tmp_path / "new.xlsx", language="en")
    path = with_sheet(club, tmp_path / "case.xlsx", "CORRECTIONS")
    actions = run_script(scripts, "recalculate_season", load_workbook(path))
    assert "CORRECTIONS: the sheet 'CORRECTIONS' has the name of xlbridge's sheet 'Corrections' in another case" \
        in _alert(actions)
    written = {a["sheet_position"] for a in actions if a["func"] == "setValues"}
    assert load_workbook(path).sheetnames.index("CORRECTIONS") not in written


def test_a_scorer_s_sheet_named_xlbridge_is_not_written_in_excel(tmp_path, built_once):
    path = with_sheet(built_once("heeg", tmp_path / "new.xlsx", language="en"), tmp_path / "own.xlsx", "xlbridge",
                      replace="xlbridge")
    headless, excel, alerts = excel_and_headless(path)
    assert any("is not xlbridge's record of the last recalculation" in a for a in alerts)
    assert excel["xlbridge"]["A1"].value == "my own notes" and excel["xlbridge"]["B2"].value == 42


def test_a_chart_sheet_is_not_sent_and_the_click_is_as_headless(tmp_path, built_once):
    path = with_chart_sheet(built_once("bridgemania", tmp_path / "new.xlsx", language="en"), tmp_path / "chart.xlsx")
    assert "Chart1" not in [s["name"] for s in payload(load_workbook(path))["sheets"]]
    headless, excel, _alerts = excel_and_headless(path)
    assert snapshot(excel) == snapshot(headless)


def test_another_workbook_s_record_is_set_aside_in_excel(tmp_path, built_once):
    demo = built_once("heeg", tmp_path / "demo.xlsx", language="en")
    blank = built_once("heeg", tmp_path / "blank.xlsx", blank=True, language="en")
    path = with_record(blank, tmp_path / "copied.xlsx", record_of(demo))
    wb = load_workbook(path)
    apply_actions(wb, run_script(scripts, "recalculate_season", wb))
    listed = [line[0] for line in wb["Messages"].iter_rows(values_only=True) if line[0]]
    assert any("is not this workbook's" in str(line) for line in listed)
    assert "Corrections" not in wb.sheetnames  # no "your change" row


def test_a_deleted_standings_sheet_in_another_language_comes_back_without_a_word_in_excel(tmp_path, built_once):
    """The Italian (and Dutch) BridgeMania season with its Campionato deleted: the click added it again, as
    headless does, but marked Stagione!A1 orange and told the scorer Stagione was xlbridge's Championship
    renamed, to be deleted (the check read the sheets by their English names: Season was not one of the
    scorer's own).  The guide says Championship may be deleted and comes back."""
    for language, deleted in (("it", "Campionato"), ("nl", "Kampioenschap")):
        wb = load_workbook(built_once("bridgemania", tmp_path / f"new-{language}.xlsx", language=language))
        del wb[deleted]
        path = tmp_path / f"deleted-{language}.xlsx"
        wb.save(path)
        headless, excel, alerts = excel_and_headless(path)
        assert deleted in excel.sheetnames and not any("renamed" in a or "rinominato" in a or "hernoemd" in a
                                                       for a in alerts), alerts
        assert snapshot(excel) == snapshot(headless)
