"""The recalculation script through xlwings' own script dispatch
(xlwings.server.custom_scripts_call), compared cell by cell with the headless run."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from xlbridge.excel import scripts
from xlbridge.workbooks import recalc
from tests.emulate import apply_actions, run_script, snapshot
from tests.emulate import excel_and_headless as both_ways


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch):
    monkeypatch.setattr(recalc, "now_stamp", lambda: "2026-11-30 12:00")




def test_tbf_club_cell_for_cell(tmp_path, built_once):
    path = built_once("tbf-club", tmp_path / "club.xlsx", language="en")
    wb = load_workbook(path)
    wb["Tournament"]["C20"] = 60.0  # a late correction: audited
    for row in range(9, 29):  # clear the computed columns: they must be refilled
        wb["Tournament"].cell(row=row, column=5).value = None
    wb.save(path)
    headless, excel, alerts = both_ways(path)
    assert snapshot(excel) == snapshot(headless)
    assert "Corrections" in excel.sheetnames
    assert alerts and alerts[0].startswith("Recalculated 207 cells")  # 60 awards, 147 in place order


def test_problems_reach_the_scorer_and_nothing_is_recalculated(tmp_path, built_once):
    path = built_once("tbf-club", tmp_path / "club.xlsx", language="en")
    wb = load_workbook(path)
    wb["Tournament"]["C12"] = "5x"
    wb["Tournament"]["E9"] = 9.99  # a stale computed value must stay as it is
    wb.save(path)
    excel = load_workbook(path)
    alerts = apply_actions(excel, run_script(scripts, "recalculate_season", load_workbook(path)))
    assert alerts == ["Nothing was recalculated: 1 problem.\nTournament, C12: score '5x' is not a number"]
    assert excel["Tournament"]["E9"].value == 9.99
    assert excel["Messages"]["A2"].value == "Tournament, C12: score '5x' is not a number"
    assert excel["Tournament"]["C12"].fill.start_color.rgb == "FFFFC7CE"
    # fixed: the next run clears the mark and the message
    excel["Tournament"]["C12"] = 57.0
    again = apply_actions(excel, run_script(scripts, "recalculate_season", excel))
    assert excel["Tournament"]["C12"].fill.start_color.rgb == "FFFFF2CC"  # back to the typed-cell fill
    assert excel["Messages"]["A2"].value != "Tournament, C12: score '5x' is not a number"
    # the stale 9.99 was typed over a computed cell (the built file's record says what xlbridge wrote):
    # replaced, with a warning (issue 16, point 2)
    assert excel["Tournament"]["E9"].value != 9.99
    assert excel["Messages"]["A3"].value.startswith("Tournament, E9: computed cell: 9.99 was typed here")
    assert again[0].startswith("Recalculated")


def test_meta_lists_the_recalc_script():
    from xlwings import server

    meta = server.custom_scripts_meta(scripts)
    names = [m.get("function_name") or m.get("name") for m in meta]
    assert "recalculate_season" in names


@pytest.mark.slow
def test_se_masterpoints_cell_for_cell(tmp_path, built_once):
    path = built_once("se-masterpoints", tmp_path / "se.xlsx", language="en")
    wb = load_workbook(path)
    wb["Silver pairs"]["C30"] = 70.0  # a late correction on one sheet
    wb["Bronze pairs"]["B3"] = "se.bronze.pairs"
    wb.save(path)
    headless, excel, alerts = both_ways(path)
    assert snapshot(excel) == snapshot(headless)
    assert excel["Silver pairs"]["D30"].value == 1
    assert alerts and alerts[0].startswith("Recalculated")
