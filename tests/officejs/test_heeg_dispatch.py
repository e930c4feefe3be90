"""The Heeg season through xlwings' own Office.js dispatch: HEEG_PCT / HEEG_C as
worksheet functions, and the "Recalculate season" script compared cell for cell (values
and fills) with the headless recalculation."""

from __future__ import annotations

import shutil

import pytest
from openpyxl import load_workbook
from openpyxl.styles import PatternFill
from xlwings import server

from xlbridge.excel import functions, scripts
from xlbridge.workbooks import recalc
from tests.emulate import apply_actions, formats, run_script, snapshot
from tests.emulate import excel_and_headless as both_ways

E3 = "Evening 2025-09-18"


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch):
    monkeypatch.setattr(recalc, "now_stamp", lambda: "2026-01-20 20:00")


@pytest.fixture(scope="module")
def built(tmp_path_factory, built_once):
    return built_once("heeg", tmp_path_factory.mktemp("heeg") / "heeg-demo.xlsx", language="en")


@pytest.fixture
def book(built, tmp_path):
    target = tmp_path / "season.xlsx"
    shutil.copy(built, target)
    return target


def test_meta_lists_heeg_pct_and_heeg_c():
    meta = {f["name"]: f for f in server.custom_functions_meta(functions)["functions"]}
    assert {"HEEG_PCT", "HEEG_C"} <= set(meta)
    assert [p["name"] for p in meta["HEEG_PCT"]["parameters"]] == ["mp", "max_mp", "code", "egs", "nth_absence", "rounds"]
    assert [p.get("optional", False) for p in meta["HEEG_PCT"]["parameters"]] == [False, False, False, True, True, True]
    assert meta["HEEG_C"]["description"] == functions.heeg_c.__doc__


def test_heeg_pct_every_code(call):
    # line of 14 pairs: top 12, max 6 x 4 x 12 = 288
    assert call("heeg_pct", 173.0, 288.0, "") == [[pytest.approx(173 / 288 * 100)]]  # 60.07
    assert call("heeg_pct", 173.0, 288.0, 1.0) == [[pytest.approx(173 / 288 * 100)]]  # '1' typed as a number
    assert call("heeg_pct", 150.0, 288.0, "s", None, None, 6.0) == [[62.5]]  # 150 x 6/5 = 180 of 288
    assert call("heeg_pct", 150.0, 288.0, "s1") == [[62.5]]
    assert call("heeg_pct", "", 288.0, 2.0, 58.2) == [[50.0]]  # min(58.2, 50)
    assert call("heeg_pct", "", "", "a", 47.5, 2.0) == [[45.0]]  # 2nd a: min(47.5, 45)
    assert call("heeg_pct", "", "", "a", 38.0, 3.0) == [[38.0]]  # 3rd a: min(38, 40)
    assert call("heeg_pct", "", "", "a", None, 4.0) == [[50.0]]  # no EGS yet: 50
    assert call("heeg_pct", "", "", 0.0) == [[25.0]]
    assert call("heeg_pct", "", "", "=") == [[50.0]]


def test_heeg_c_and_messages(call):
    assert call("heeg_c", 31.0, 12.0, 10.0) == [[pytest.approx(37.2)]]  # 31 x 12 / 10
    assert call("heeg_c", 20.0, 6.0, 10.0) == [[12.0]]  # the combi average -> a 9-pair line's average
    assert call("heeg_pct", 173.0, 288.0, "x") == [["#xlbridge: inv code 'x' is not one of 1, 2, 0, a, s, s1, = or blank"]]
    assert call("heeg_pct", 300.0, 288.0, "") == [["#xlbridge: MP 300 is above the evening's maximum 288"]]




@pytest.mark.slow
def test_recalculate_season_cell_for_cell_with_fills(book):
    wb = load_workbook(book)
    ws = wb[E3]
    ws["E8"] = (ws["E8"].value or 0) + 3  # a late correction: audited
    for row in range(2, 32):  # clear a computed column: it must be refilled
        wb["Evening 2025-10-02"].cell(row=row, column=16).value = None
    red = PatternFill("solid", start_color="FFFF0000", end_color="FFFF0000")
    wb[E3]["N2"].fill = red  # a stale red inv: must go
    for name in wb.sheetnames:  # a red signal removed by hand: must come back
        if name.startswith("Evening "):
            for row in wb[name].iter_rows(min_row=2):
                if row[13].fill.fill_type == "solid" and row[13].fill.start_color.rgb == "FFFF0000":
                    row[13].fill = PatternFill(fill_type=None)
    wb["Year"]["A1"] = "old title"
    wb.save(book)
    headless, excel, alerts = both_ways(book)
    seen = snapshot(excel)
    assert seen["Messages"][2][0][0].startswith("Year, A1: computed cell: old title was typed here")
    assert seen == snapshot(headless)  # the warning on the Messages sheet too (and the CLI prints it)
    assert "Corrections" in excel.sheetnames
    assert alerts and alerts[0].startswith("Recalculated ")
    assert excel[E3]["N2"].fill.start_color.rgb == "FFFFF2CC"  # no red: the typed-cell yellow
    reds = [name for name in excel.sheetnames if name.startswith("Evening ")
            and any(r[13].fill.fill_type == "solid" for r in excel[name].iter_rows(min_row=2))]
    assert reds  # the red inv cells are back


def test_a_new_season_creates_the_evening_sheets_both_ways(tmp_path, built_once):
    import datetime as dt

    path = built_once("heeg", tmp_path / "blank.xlsx", blank=True, language="en")
    wb = load_workbook(path)
    ws = wb["Season"]
    ws["C12"], ws["D12"] = dt.datetime(2026, 9, 3), dt.datetime(2026, 9, 10)
    for i in range(8):
        ws.cell(row=17 + i, column=1, value=i + 1)
        ws.cell(row=17 + i, column=3, value="A" if i < 4 else "B")
    wb.save(path)
    headless, excel, _ = both_ways(path)
    assert snapshot(excel) == snapshot(headless)
    assert excel.sheetnames[-3:] == ["Evening 2026-09-03", "Evening 2026-09-10", "xlbridge"]  # the record last
    # the new sheets get the template's look both ways: header, number formats, frozen panes
    looks = formats(excel)
    assert looks == formats(headless)
    new = looks["Evening 2026-09-03"]
    assert new["freeze"] == "D2"
    assert new["cells"]["A1"] == ("General", True, "FFFFFFFF", 11.0)
    assert new["cells"]["P2"][0] == "0.00" and new["cells"]["K9"][0] == "0.00"  # % and C corrected


@pytest.mark.slow
def test_a_deleted_year_sheet_comes_back_with_the_same_look_both_ways(book):
    wb = load_workbook(book)
    del wb["Year"]
    wb.save(book)
    headless, excel, _ = both_ways(book)
    assert snapshot(excel) == snapshot(headless)
    looks = formats(excel)
    assert looks == formats(headless)
    assert looks["Year"]["freeze"] == "A4"
    assert looks["Year"]["cells"]["A1"] == ("General", True, None, 14.0)
    assert looks["Year"]["cells"]["F4"][0] == "0.00"


@pytest.mark.slow
def test_problems_reach_the_scorer_and_nothing_is_recalculated(book):
    wb = load_workbook(book)
    wb[E3]["D5"] = "1O3"
    wb[E3]["N7"] = "b"
    wb[E3]["P2"] = 99.99  # a stale computed value must stay as it is
    wb.save(book)
    excel = load_workbook(book)
    alerts = apply_actions(excel, run_script(scripts, "recalculate_season", load_workbook(book)))
    messages = [f"{E3}, D5: MP '1O3' in round 1 is not a number",
                f"{E3}, N7: inv code 'b' is not one of 1, 2, 0, a, s, s1, = or blank"]
    assert alerts == ["Nothing was recalculated: 2 problems.\n" + "\n".join(messages)]
    assert [excel["Messages"]["A2"].value, excel["Messages"]["A3"].value] == messages
    assert excel[E3]["P2"].value == 99.99
    assert excel[E3]["D5"].fill.start_color.rgb == "FFFFC7CE" and excel[E3]["N7"].fill.start_color.rgb == "FFFFC7CE"
    # nothing computed was written: only the Messages sheet and the marks differ from the file
    before, after = snapshot(load_workbook(book)), snapshot(excel)
    assert {name for name in after if after[name] != before.get(name)} == {"Messages", E3}
    diff = [(r, c) for r, line in enumerate(after[E3]) for c, v in enumerate(line) if v != before[E3][r][c]]
    assert diff == [(4, 3), (6, 13)]  # D5 and N7: the marks


@pytest.mark.slow
def test_a_fixed_problem_on_a_signal_cell_keeps_its_signal(book):
    """Pair 9's 4th mark of period 1 (evening 4, 'a') makes its inv cell red. A typo
    there is marked; once fixed, the red signal is back (the old mark is cleared
    before the recalculation, not after it)."""
    wb = load_workbook(book)
    ws = wb["Evening 2025-09-25"]
    row = next(r for r in range(2, 40) if ws.cell(row=r, column=1).value == 9)
    assert ws.cell(row=row, column=14).fill.start_color.rgb == "FFFF0000"
    ws.cell(row=row, column=14).value = "b"
    alerts = apply_actions(wb, run_script(scripts, "recalculate_season", wb))
    assert alerts[0].startswith("Nothing was recalculated")
    assert ws.cell(row=row, column=14).fill.start_color.rgb == "FFFFC7CE"
    ws.cell(row=row, column=14).value = "a"
    wb.save(book)
    headless, excel, alerts = both_ways(book)
    assert alerts[0].startswith("Recalculated")
    assert excel["Evening 2025-09-25"].cell(row=row, column=14).fill.start_color.rgb == "FFFF0000"
    excel_cells, headless_cells = snapshot(excel), snapshot(headless)
    assert excel_cells["Messages"] == [[("Recalculated 10466 cells.", None)]]  # 96 of them the Chart sheet's
    assert excel_cells == headless_cells  # the Messages sheet of the Excel run with the problem: cleared both ways
