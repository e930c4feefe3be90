"""New evening / New tournament through xlwings' own script dispatch, run from the
workbook's own main.py (the script, its button and its form fields), the actions
applied as Excel would and compared cell for cell with ``add_next`` headless."""

from __future__ import annotations

import datetime as dt
import importlib.util
import sys

import pytest

from openpyxl import load_workbook

from tests import lite_files
from tests.emulate import apply_actions, run_script, snapshot
from xlbridge.workbooks.nextsheet import add_next
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook


@pytest.fixture(autouse=True)
def _own_path(monkeypatch):
    """main.py puts its unpacked bundle first on sys.path (as in Pyodide): undone after each
    test, so later tests' processes (the server's workers) import the package, not the bundle."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "main_next", raising=False)


def own_code(path, tmp_path):
    """The workbook's main.py imported as xlwings Lite imports it."""
    source = tmp_path / "main_next.py"
    source.write_text(lite_files.extract(path)["main.py"], encoding="utf-8")
    spec = importlib.util.spec_from_file_location("main_next", source)
    module = importlib.util.module_from_spec(spec)
    sys.modules["main_next"] = module
    spec.loader.exec_module(module)
    return module


def with_pairs(path):
    wb = load_workbook(path)
    for i in range(8):
        wb["Seizoen"].cell(17 + i, 1, i + 1)
        wb["Seizoen"].cell(17 + i, 3, "A" if i < 4 else "B")
    wb.save(path)


@pytest.mark.slow
def test_new_evening_script_with_its_date_field(tmp_path, built_once):
    path = built_once("heeg", tmp_path / "heeg.xlsx", blank=True)
    main = own_code(path, tmp_path)
    with_pairs(path)  # (openpyxl drops the Lite parts: the code was read first)
    excel = load_workbook(path)
    alerts = apply_actions(excel, run_script(main, "new_evening", load_workbook(path), args=["2026-09-03"]))
    headless = load_workbook(path)
    found = add_next(OpenpyxlBook(headless), day=dt.date(2026, 9, 3))
    assert found.sheet == "Evening 2026-09-03" and found.entered == ("Season", "C12")
    assert excel.sheetnames == headless.sheetnames and excel.sheetnames[-2:] == ["Avond 2026-09-03", "xlbridge"]
    assert snapshot(excel) == snapshot(headless)
    assert excel.active.title == "Avond 2026-09-03"
    assert len(alerts) == 1 and "Avond 2026-09-03" in alerts[0] and "C12" in alerts[0]


@pytest.mark.slow
def test_new_tournament_button_click_uses_the_defaults(tmp_path, built_once):
    path = built_once("bridgemania", tmp_path / "bm.xlsx")
    main = own_code(path, tmp_path)
    excel = load_workbook(path)
    alerts = apply_actions(excel, run_script(main, "new_tournament", load_workbook(path)))
    headless = load_workbook(path)
    add_next(OpenpyxlBook(headless))
    assert snapshot(excel) == snapshot(headless)
    assert excel.active.title == "T15" and excel["Stagione"]["J19"].value == "T15"
    assert len(alerts) == 1 and "T15" in alerts[0]


@pytest.mark.slow
def test_a_bad_case_writes_nothing_and_says_where(tmp_path, built_once):
    path = built_once("heeg", tmp_path / "heeg.xlsx")  # the demo: period 3 is full
    main = own_code(path, tmp_path)
    actions = run_script(main, "new_evening", load_workbook(path))
    assert [a["func"] for a in actions] == ["alert"]
    assert "Seizoen, H14: " in actions[0]["args"][0]
