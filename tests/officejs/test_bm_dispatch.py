"""The BridgeMania workbook through xlwings' own dispatch: the "Recalculate season" script
(xlwings.server.custom_scripts_call) compared cell by cell with the headless run,
a bad-input run, and the worksheet functions BM_PCT and BM_FINAL."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook
from xlwings import server

from xlbridge.excel import functions, scripts
from xlbridge.workbooks import recalc
from tests.bm_layout import COMPUTED, T_FIRST, T_HEADER
from xlbridge.workbooks.bridgemania.declaration import FIRST_BOARD_COL
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from tests.emulate import apply_actions, run_script, snapshot
from tests.emulate import excel_and_headless as both_ways


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch):
    monkeypatch.setattr(recalc, "now_stamp", lambda: "2026-11-30 12:00")


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory, built_once):
    return built_once("bridgemania", tmp_path_factory.mktemp("bm") / "demo.xlsx", language="en")




def header_col(ws, text, row=T_HEADER):
    return next(c.column for c in ws[row] if c.value == text)


def late_correction(ws):
    """Board 1 of a tournament sheet: +2 to one pair, -2 to another (the board still adds up)."""
    top = ws["B4"].value
    board = FIRST_BOARD_COL  # board 1, right of the pairs
    numbers = [r for r in range(T_FIRST, T_FIRST + 30) if isinstance(ws.cell(r, board).value, (int, float))]
    up = next(r for r in numbers if ws.cell(r, board).value <= top - 2)
    down = next(r for r in numbers if r != up and ws.cell(r, board).value >= 2)
    ws.cell(up, board).value += 2
    ws.cell(down, board).value -= 2
    return up, down


@pytest.mark.slow
def test_demo_cell_for_cell(demo_file, tmp_path):
    path = tmp_path / "demo.xlsx"
    wb = load_workbook(demo_file)
    late_correction(wb["T14"])
    ws = wb["T03"]
    first = header_col(ws, COMPUTED[0])
    for row in range(T_FIRST, T_FIRST + 10):  # computed cells cleared: they must be refilled
        for col in range(first, first + len(COMPUTED)):
            ws.cell(row, col).value = None
    wb["Championship"]["F6"] = 999.0  # typed over the standings: overwritten, with a warning (issue 16, point 2)
    wb["Participation"]["B3"] = "GM"  # the next list
    wb["Participation"]["B4"] = 8
    wb.save(path)
    headless, excel, alerts = both_ways(path)
    seen = snapshot(excel)
    assert seen["Messages"][2][0][0].startswith("Championship, F6: computed cell: 999 was typed here")
    assert seen == snapshot(headless)  # the warning on the Messages sheet too (and the CLI prints it)
    assert alerts and alerts[0].startswith("Recalculated ") and "see Corrections" in alerts[0]
    assert excel["Participation"]["B8"].value == "GM" and excel["Participation"]["C8"].value == "O"
    corrections = [[c.value for c in row] for row in excel["Corrections"].iter_rows(min_row=2)]
    assert excel["Championship"]["F6"].value != 999.0
    assert [line[2] for line in corrections if line[1] == "Championship"] == ["F6"]  # typed over, kept
    assert any(line[1] == "T14" for line in corrections)  # the late correction's results
    assert not any(line[1] == "T03" for line in corrections)  # refilled, not changed


@pytest.mark.slow
def test_the_built_demo_is_unchanged_both_ways(demo_file):
    headless, excel, alerts = both_ways(demo_file)
    assert snapshot(excel) == snapshot(headless)  # the record of the recalculation included
    assert snapshot(excel) == snapshot(load_workbook(demo_file))  # built with its record: nothing changes
    assert "Corrections" not in excel.sheetnames
    assert alerts == [alerts[0]] and alerts[0].startswith("Recalculated")


@pytest.mark.slow
def test_bad_input_reaches_the_scorer_and_nothing_is_computed(demo_file, tmp_path):
    path = tmp_path / "bad.xlsx"
    wb = load_workbook(demo_file)
    wb["T03"]["G9"] = "1O"  # board 3 (board 1 in E)
    wb["T05"]["A20"] = "ZZ"  # a pair neither base, guest nor split (with scores)
    wb["T05"]["E20"] = 4
    wb["Championship"]["F6"] = 999.0  # stale: must stay as it is
    wb.save(path)
    before = snapshot(load_workbook(path))
    excel = load_workbook(path)
    alerts = apply_actions(excel, run_script(scripts, "recalculate_season", load_workbook(path)))
    assert len(alerts) == 1 and alerts[0].startswith("Nothing was recalculated")
    assert "T03, G9: score '1O' is not a number (type R for a sit-out)" in alerts[0]
    messages = [excel["Messages"].cell(r, 1).value for r in range(2, 8)]
    assert "T03, G9: score '1O' is not a number (type R for a sit-out)" in messages
    assert any(m and m.startswith("T05, A20: ZZ: unknown pair") for m in messages)
    assert excel["T03"]["G9"].fill.start_color.rgb == "FFFFC7CE"
    after = snapshot(excel)
    assert excel["Championship"]["F6"].value == 999.0
    for name, rows in before.items():  # nothing else written (but the Messages): only the marks' fills
        if name == "Messages":
            continue
        values_before = [[v for v, _ in line] for line in rows]
        values_after = [[v for v, _ in line] for line in after[name]]
        assert values_after == values_before, name
    # the headless run reports the same problems
    with pytest.raises(recalc.BookInputError) as caught:
        recalc.recalculate(OpenpyxlBook(load_workbook(path)))
    assert [str(p) for p in caught.value.problems] == [m for m in messages if m]


def test_a_formula_in_a_name_is_one_problem_at_its_cell_both_ways(demo_file, tmp_path):
    """Issue 25, point 2: the formula's text became the pair's name everywhere (in Excel the formula's value
    would arrive; text typed as '=1+1 arrives as this text, in Excel and headless)."""
    path = tmp_path / "formula.xlsx"
    wb = load_workbook(demo_file)
    wb["Season"]["D5"] = "=1+1"  # the name of base pair BE
    wb.save(path)
    with pytest.raises(recalc.BookInputError) as caught:
        recalc.recalculate(OpenpyxlBook(load_workbook(path)))
    assert [(p.sheet, p.cell, p.code) for p in caught.value.problems] == [("Season", "D5", "cell.formula")]
    excel = load_workbook(path)
    alerts = apply_actions(excel, run_script(scripts, "recalculate_season", load_workbook(path)))
    assert len(alerts) == 1 and alerts[0].startswith("Nothing was recalculated")
    assert excel["Messages"].cell(2, 1).value == str(caught.value.problems[0])
    assert excel["Championship"]["C6"].value != "=1+1" and excel["Season"]["D5"].fill.start_color.rgb == "FFFFC7CE"


@pytest.mark.slow
def test_formula_like_names_stay_text_both_ways(demo_file, tmp_path):
    path = tmp_path / "names.xlsx"
    wb = load_workbook(demo_file)
    wb["Season"]["D5"] = "+1+1"  # the name of base pair BE
    wb["Season"]["D6"] = "-Dino & Giulia-"
    wb["Season"]["D7"] = "@Gaetano"
    wb.save(path)
    headless, excel, _ = both_ways(path)
    assert snapshot(excel) == snapshot(headless)
    for book in (headless, excel):
        ws = book["Championship"]
        names = {ws.cell(r, 2).value: ws.cell(r, 3) for r in range(6, 17)}
        assert names["BE"].value == "+1+1" and names["BE"].data_type == "s"
        assert names["DG"].value == "-Dino & Giulia-" and names["DG"].data_type == "s"
        assert names["GM"].value == "@Gaetano" and names["GM"].data_type == "s"


# ------------------------------------------------------------------ worksheet functions


def test_meta_lists_bm_functions():
    meta = {f["name"]: f for f in server.custom_functions_meta(functions)["functions"]}
    assert {"BM_PCT", "BM_FINAL", "AWARD"} <= set(meta)
    assert [p["name"] for p in meta["BM_PCT"]["parameters"]] == ["scores", "top", "penalty"]
    assert meta["BM_PCT"]["parameters"][2].get("optional") is True
    assert [p["name"] for p in meta["BM_FINAL"]["parameters"]][:3] == ["ranks1", "ranks2", "ranks3"]
    assert meta["BM_FINAL"]["description"] == functions.bm_final.__doc__


def test_bm_pct(call):
    assert call("bm_pct", [[8.0, 4.0, 6.0, 0.0, "R"]], 8.0, None) == [[55.0]]
    assert call("bm_pct", [[8.0]] * 14, 8.0, -2.0) == [[98.21]]
    assert call("bm_pct", [[8.0, "", 4.0]], 8.0, None) == [[75.0]]  # blanks skipped
    assert call("bm_pct", [[8.0, "1O"]], 8.0, None) == [["#xlbridge: BM_PCT: board 2: score '1O' is not a number"]]
    assert call("bm_pct", [[8.0]], 7.0, None) == [["#xlbridge: TOP must be an even whole number from 2; got 7"]]


def test_bm_final_spills_a_column(call):
    assert call("bm_final", [[1.0], [2.0], [3.0]], [[2.0], [1.0], [3.0]], [[1.0], [3.0], [2.0]]) == [[1], [2], [3]]
    # a tie on points broken by fewer tournaments played; a blank rank = not eligible
    result = call("bm_final", [[1.0], [2.0], [""]], [[2.0], [1.0], [3.0]], [[1.0], [1.0], [3.0]],
                  [[8.0], [7.0], [5.0]])
    assert result == [[2], [1], [""]]
    assert call("bm_final", [[1.0], [2.0]], [[1.0]], [[1.0], [2.0]])[0][0].startswith("#xlbridge: BM_FINAL")


def test_award_with_bm_schemes(call):
    # the document's tie example: 3rd-5th tied on Tab.1 -> (15 + 12 + 10) / 3
    assert call("award", "bm.f1-fast", 3.0, [[1.0], [2.0], [3.0], [3.0], [3.0], [6.0], [7.0], [8.0], [9.0],
                                            [10.0]], None) == [[12.333]]
    assert call("award", "bm.f1-fast", 5.0, 10.0, "status=waiting") == [[8.417]]
