"""What a click sends, scenario by scenario (issue 23, points 2, 4 and 5): every shipped workbook
and template as it comes, a late correction, problems, New evening, New tournament, evenings
added by a recalculation, a deleted standings and Chart sheet, a deleted record.

- Only the actions every xlwings-server JavaScript release from 1.12.0 to 1.20.0 applies
  (:data:`ALLOWED`; docs/install.md, "What a click sends"), a fill always with its colour.
- In the order where anything that could fail comes before the first value: the sheets to add,
  then the look (number formats, fonts, frozen panes, fills), then the values, then the sheet
  shown, the alert last.
- No text Excel would read as something else (:func:`tests.emulate.excel_reads`: a date, a
  time, a number, a flag, an error value, a formula): each string is text to Excel.
- The payload of every kind of release (1.13.0 on: the cells holding values; 1.12.0: Excel's
  used range, formatted empty cells included; up to 1.16.0 a date in a format of its own, such as
  yyyy-mm-dd, as its number) gives the same actions, and applied as Excel
  applies them (text read as if typed) they give the headless workbook, cell for cell; a second
  recalculation on that writes no value (beyond its message).
"""

from __future__ import annotations

import copy
import datetime as dt
import importlib.util
import re
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from openpyxl import load_workbook

from tests.emulate import RELEASES, apply_actions, excel_reads, run_script, snapshot
from xlbridge.excel import scripts
from tests import lite_files
from xlbridge.workbooks import recalc
from xlbridge.workbooks.nextsheet import add_next
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.record import RECORD, Record, read_record
from xlbridge.workbooks.localised import Localised, language_of

ROOT = Path(__file__).resolve().parents[2]
STAMP = dt.datetime(2026, 1, 20, 20, 0)

#: The actions the Excel path may send, in the order it sends them (a phase each): every
#: xlwings-server JavaScript release from 1.12.0 to 1.20.0 has a handler for each.
ALLOWED = {"addSheet": 0, "setNumberFormat": 1, "setFontProperty": 1, "freezePaneAtRange": 1, "setRangeColor": 1,
           "setValues": 2, "activateSheet": 3, "rangeSelect": 3, "alert": 4}
COLOUR = re.compile(r"#[0-9A-F]{6}")


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch):
    monkeypatch.setattr(recalc, "now_stamp", lambda: STAMP)


@pytest.fixture(autouse=True)
def _own_path(monkeypatch):
    """main.py puts its unpacked bundle first on sys.path (as in Pyodide) and sets the language of the
    functions' messages to its workbook's: undone after each test."""
    from xlbridge.excel import functions

    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(functions, "MESSAGES_LANGUAGE", functions.MESSAGES_LANGUAGE)
    monkeypatch.delitem(sys.modules, "main_actions", raising=False)


def own_code(path: Path, tmp_path: Path) -> Any:
    """The workbook's main.py imported as xlwings Lite imports it (its New evening / New tournament script)."""
    source = tmp_path / "main_actions.py"
    source.write_text(lite_files.extract(path)["main.py"], encoding="utf-8")
    spec = importlib.util.spec_from_file_location("main_actions", source)
    module = importlib.util.module_from_spec(spec)
    sys.modules["main_actions"] = module
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ the scenarios
# each: (the workbook as the scorer left it, the script's module and name, its arguments,
# the headless counterpart on an openpyxl workbook: None when Excel and headless differ by design)


def _late_heeg(wb):
    ws = wb["Avond 2025-09-18"]
    ws["E8"] = (ws["E8"].value or 0) + 3


def _late_bm(wb):
    ws = wb["T03"]
    ws["E9"], ws["E10"] = ws["E10"].value, ws["E9"].value


def _problems_heeg(wb):
    wb["Avond 2025-09-18"]["D5"] = "1O3"


def _problems_bm(wb):
    wb["T03"]["E9"] = "1O"


def _heeg_pairs(wb):
    for i in range(8):
        wb["Seizoen"].cell(17 + i, 1, i + 1)
        wb["Seizoen"].cell(17 + i, 2, f"'t Veld {i + 1} / De Vries")  # a Dutch name: Excel's text prefix in it
        wb["Seizoen"].cell(17 + i, 3, "A" if i < 4 else "B")


def _heeg_dates(wb):
    _heeg_pairs(wb)
    wb["Seizoen"]["C12"], wb["Seizoen"]["D12"] = dt.datetime(2026, 9, 3), dt.datetime(2026, 9, 10)


def _deleted(*names):
    def change(wb):
        for name in names:
            del wb[name]
    return change


RECALC = (None, "recalculate_season", None)
SCENARIOS: dict[str, tuple[str, Callable[[Any], None] | None, tuple, bool]] = {
    **{f"{folder}/{path.name}": (f"{folder}/{path.name}", None, RECALC, True)
       for folder in ("workbooks", "templates") for path in sorted((ROOT / folder).glob("*.xlsx"))},
    "heeg late correction": ("workbooks/heeg-demo.xlsx", _late_heeg, RECALC, True),
    "bridgemania late correction": ("workbooks/bridgemania-demo.xlsx", _late_bm, RECALC, True),
    "heeg problems": ("workbooks/heeg-demo.xlsx", _problems_heeg, RECALC, False),
    "bridgemania problems": ("workbooks/bridgemania-demo.xlsx", _problems_bm, RECALC, False),
    "heeg evenings added": ("templates/heeg-season.xlsx", _heeg_dates, RECALC, True),
    "heeg standings and chart deleted": ("workbooks/heeg-demo.xlsx", _deleted("Jaar", "Grafiek"), RECALC, True),
    "bridgemania chart deleted": ("workbooks/bridgemania-demo.xlsx", _deleted("Grafico"), RECALC, True),
    "heeg record deleted": ("workbooks/heeg-demo.xlsx", _deleted(RECORD), RECALC, True),
    "New evening": ("templates/heeg-season.xlsx", _heeg_pairs, ("own", "new_evening", ["2026-09-03"]), True),
    "New tournament": ("workbooks/bridgemania-demo.xlsx", None, ("own", "new_tournament", None), True),
    "New tournament, a problem": ("workbooks/bridgemania-demo.xlsx", None,
                                  ("own", "new_tournament", ["2019-01-01"]), False),
}


_SOURCES: dict[str, bytes] = {}  # the workbook of each scenario, made once (each test writes its own copy)
_CLICKS: dict[tuple[str, str], list[dict]] = {}  # the actions of each scenario's click, by release
_BOOKS: dict[str, Any] = {}  # the workbook each scenario's clicks are made from (all 22: about 110 MB more)


def scenario(name: str, tmp_path: Path) -> tuple[Path, Any, str, list | None, bool]:
    """(the workbook file, the script's module, its name, its arguments, whether headless gives the same)."""
    source, change, (module, script, args), same = SCENARIOS[name]
    path = tmp_path / Path(source).name
    module = own_code(ROOT / source, tmp_path) if module == "own" else scripts
    if name not in _SOURCES:
        wb = load_workbook(ROOT / source)
        if change is not None:
            change(wb)
        wb.save(path)
        _SOURCES[name] = path.read_bytes()
    path.write_bytes(_SOURCES[name])
    return path, module, script, args, same


def click(name: str, path: Path, module: Any, script: str, args: list | None, release: str = "1.17") -> list[dict]:
    """The actions of the scenario's click (the workbook at ``path``, as :func:`scenario` wrote it) on
    ``release``: clicked once, a fresh copy for each test (the clock is the same fixed one for all)."""
    if (name, release) not in _CLICKS:
        if name not in _BOOKS:  # only read (the payload is made from it): one load for every release
            _BOOKS[name] = load_workbook(path)
        _CLICKS[name, release] = run_script(module, script, _BOOKS[name], args=args, release=release)
    return copy.deepcopy(_CLICKS[name, release])


def headless(path: Path, script: str, args: list | None) -> Any:
    wb = load_workbook(path)
    if script == "recalculate_season":
        recalc.recalculate_and_list(OpenpyxlBook(wb))  # (as xlbridge recalc: the Messages sheet too)
    else:
        add_next(OpenpyxlBook(wb), day=dt.date.fromisoformat(args[0]) if args else None)
    return wb


def strings(actions: list[dict]) -> list[str]:
    return [v for a in actions if a["func"] == "setValues" for line in a["values"] for v in line if isinstance(v, str)]


# ------------------------------------------------------------------ the tests


@pytest.mark.slow
@pytest.mark.parametrize("name", SCENARIOS)
def test_only_actions_every_release_applies_in_the_order_that_fails_first(name, tmp_path):
    path, module, script, args, _same = scenario(name, tmp_path)
    actions = click(name, path, module, script, args)
    funcs = [a["func"] for a in actions]
    assert set(funcs) <= set(ALLOWED), set(funcs) - set(ALLOWED)
    phases = [ALLOWED[f] for f in funcs]
    assert phases == sorted(phases), funcs
    assert funcs.count("alert") == 1 and funcs[-1] == "alert"
    assert all(COLOUR.fullmatch(a["args"][0]) for a in actions if a["func"] == "setRangeColor")


@pytest.mark.slow
@pytest.mark.parametrize("name", SCENARIOS)
def test_every_string_written_stays_text_in_excel(name, tmp_path):
    path, module, script, args, _same = scenario(name, tmp_path)
    written = strings(click(name, path, module, script, args))
    retyped = [(text, excel_reads(text)[0]) for text in written if excel_reads(text)[0] != "text"]
    assert retyped == []


@pytest.mark.slow
@pytest.mark.parametrize("name", SCENARIOS)
def test_the_click_gives_the_headless_workbook_and_a_second_click_writes_nothing(name, tmp_path):
    path, module, script, args, same = scenario(name, tmp_path)
    clicks = {release: click(name, path, module, script, args, release) for release in RELEASES}
    adds = any(a["func"] == "addSheet" for a in clicks["1.17"])
    excel = load_workbook(path)
    apply_actions(excel, clicks["1.17"])
    # neither the payload's extent nor a date sent as its number matters; a date typed since the last
    # click, sent as its number, is recorded so (the same record to every comparison: Record.same_as)
    position = excel.sheetnames.index(RECORD) if RECORD in excel.sheetnames else -1
    records = {release: read_record(OpenpyxlBook(excel))[0] if release == "1.17" else record_after(path, actions)
               for release, actions in clicks.items()}
    if records["1.17"] is None:
        assert set(records.values()) == {None}
    else:
        assert all(records["1.17"].same_as(record) for record in records.values())
    others = {release: [a for a in actions if not (a["func"] == "setValues" and a["sheet_position"] == position)]
              for release, actions in clicks.items()}
    assert others["1.12"] == others["1.13"] == others["1.17"]
    if same:
        other = headless(path, script, args)
        assert excel.sheetnames == other.sheetnames  # (the Messages sheet is in every built workbook)
        assert snapshot(excel) == snapshot(other)  # the Messages sheet too: headless lists the outcome there as well
        hidden = {ws.title for ws in excel.worksheets if ws.sheet_state != "visible"}
        # the one difference by design: a record the Excel path adds stays visible (docs/install.md)
        assert hidden == {ws.title for ws in other.worksheets if ws.sheet_state != "visible"} - (
            {RECORD} if name == "heeg record deleted" else set())
    if script == "recalculate_season":  # (after New evening, a recalculation has work to do)
        assert written(excel, run_script(scripts, script, excel), also=(RECORD,) * adds) == []
        if adds:  # a click that added sheets: the next one records their cells as typed (workbooks/record.py)
            apply_actions(excel, run_script(scripts, script, excel))
            assert written(excel, run_script(scripts, script, excel)) == []


def record_after(path: Path, actions: list[dict]) -> Record | None:
    """The record of the last recalculation in the workbook at ``path`` after ``actions``."""
    wb = load_workbook(path)
    apply_actions(wb, actions)
    return read_record(OpenpyxlBook(wb))[0]


def written(wb: Any, actions: list[dict], also: tuple[str, ...] = ()) -> list[str]:
    """The sheets ``actions`` write values in, but for the Messages sheet (its message) and ``also``."""
    messages = Localised.local_name("Messages", language_of(OpenpyxlBook(wb)))
    return [wb.sheetnames[a["sheet_position"]] for a in actions if a["func"] == "setValues"
            and wb.sheetnames[a["sheet_position"]] not in (messages, *also)]
