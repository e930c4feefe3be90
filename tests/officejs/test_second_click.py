"""The second click (xlbridge.excel.memo): a click on a book nobody changed since the
last recalculation does not plan again, writes no cell and returns what a fresh
process returns; any change recalculates in full, with a fresh process's actions."""

from __future__ import annotations

import io

import pytest
import xlwings as xw
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from xlbridge.excel import scripts
from xlbridge.excel.emulate import apply_actions, as_typed, payload
from xlbridge.excel.memo import LastClick, same_grid
from xlbridge.excel.shipped import build
from xlbridge.language import _, sheet_name, speaking
from xlbridge.workbooks import recalc
from xlbridge.workbooks.messages import is_done_message

KINDS = ("heeg", "bridgemania", "tbf-club", "se-masterpoints")
# Each workbook is built in its club's language (Heeg Dutch, BridgeMania Italian, TBF Turkish, Swedish)
HOW_TO_IT, CHAMPIONSHIP_IT, TOURNAMENT_TR = sheet_name("How to", "it"), sheet_name("Championship", "it"), \
    sheet_name("Tournament", "tr")


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch):
    monkeypatch.setattr(recalc, "now_stamp", lambda: "2026-11-30 12:00")


def click(wb, memo: LastClick | None, name: str = "Book1.xlsx") -> list[dict]:
    book = xw.Book(json=payload(wb, name))
    scripts.recalculate(book, memo)
    return book.json()["actions"]


def fresh(wb, name: str = "Book1.xlsx") -> list[dict]:
    """What a new process (nothing remembered) returns."""
    return click(wb, None, name)


def writes(actions: list[dict]) -> int:
    return sum(len(a["values"]) * len(a["values"][0]) for a in actions if a["func"] == "setValues")


@pytest.fixture(scope="module")
def typed(tmp_path_factory):
    """Per kind: the shipped workbook as typed (every computed cell emptied), saved."""
    out = {}
    for kind in KINDS:
        saved = io.BytesIO()
        as_typed(load_workbook(build(kind, tmp_path_factory.mktemp(kind) / f"{kind}.xlsx"))).save(saved)
        out[kind] = saved.getvalue()
    return out


def _memo(typed, kind: str) -> tuple:
    """The typed workbook of ``kind`` after one click (applied as Excel applies it), and
    the memo of that click.  (Not a saved copy: a file keeps 15 digits of a number.)"""
    wb, memo = load_workbook(io.BytesIO(typed[kind])), LastClick()
    first = click(wb, memo)
    assert writes(first) > 0
    apply_actions(wb, first)
    return wb, memo


@pytest.mark.parametrize("kind", KINDS)
def test_an_unchanged_book_is_not_planned_again_and_gets_a_fresh_process_actions(typed, kind):
    wb, memo = _memo(typed, kind)
    assert memo._last is not None  # the first click was remembered
    second = click(wb, memo)
    assert memo.skipped == 1
    assert writes(second) == 0
    assert second == fresh(wb)  # the fills again, the same alert
    assert second[-1]["func"] == "alert" and is_done_message(second[-1]["args"][0], empty=False)
    third = click(wb, memo)  # remembered again
    assert memo.skipped == 2 and third == second


@pytest.mark.parametrize("kind", KINDS)
def test_an_edit_after_the_first_click_recalculates_as_a_fresh_process(typed, kind):
    wb, memo = _memo(typed, kind)
    sheet = next(iter(s for s in memo._last.grids if s not in ("Messages", "Corrections")))
    ws = wb[sheet]
    cell = next(c for row in ws.iter_rows() for c in row if isinstance(c.value, (int, float)) and not isinstance(c.value, bool))
    cell.value = cell.value + 1
    actions = click(wb, memo)
    assert memo.skipped == 0
    assert actions == fresh(wb)


TYPED = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.floats(-5, 400, allow_nan=False).map(lambda x: round(x, 2)),
                  st.sampled_from(["", "x", "A", "s1", "12,5", "-", "=1+1", "2025-09-18"]))


@pytest.mark.parametrize("kind", ["heeg", "bridgemania"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_typed_change_in_a_sheet_read_recalculates_in_full(typed, kind, data):
    wb, memo = _memo(typed, kind)
    sheets = sorted(memo._last.grids)
    sheet = data.draw(st.sampled_from(sheets))
    ws = wb[sheet]
    row = data.draw(st.integers(1, ws.max_row + 1))
    col = data.draw(st.integers(1, ws.max_column + 1))
    before = payload(wb)
    ws.cell(row, col).value = data.draw(TYPED)
    changed = payload(wb) != before or any(  # TRUE == 1 as Python compares: the types tell
        [type(v) for v in a["values"][r]] != [type(v) for v in b["values"][r]]
        for a, b in zip(payload(wb)["sheets"], before["sheets"]) for r in range(min(len(a["values"]), len(b["values"]))))
    actions = click(wb, memo)
    assert memo.skipped == (0 if changed else 1)
    assert actions == fresh(wb)


@pytest.mark.parametrize("change", ["rename", "add", "remove", "move"])
def test_sheets_renamed_added_removed_or_moved_recalculate_in_full(typed, change):
    wb, memo = _memo(typed, "bridgemania")
    if change == "rename":
        wb[HOW_TO_IT].title = "Read me"  # a sheet the recalculation never reads
    elif change == "add":
        wb.create_sheet("Notes")
    elif change == "remove":
        del wb[HOW_TO_IT]
    else:
        wb.move_sheet(HOW_TO_IT, offset=-1)
    actions = click(wb, memo)
    assert memo.skipped == 0
    assert actions == fresh(wb)


def test_another_book_recalculates_in_full(typed):
    wb, memo = _memo(typed, "heeg")
    other = click(wb, memo, name="Other season.xlsx")  # the same cells, another book
    assert memo.skipped == 0
    assert other == fresh(wb, name="Other season.xlsx")
    heeg, bm = _memo(typed, "heeg")[0], _memo(typed, "bridgemania")
    bm_wb, memo = bm
    click(heeg, memo)  # a Heeg book in the process that remembered a BridgeMania one
    assert memo.skipped == 0
    assert click(bm_wb, memo) == fresh(bm_wb) and memo.skipped == 0  # the Heeg click is remembered now


def test_problems_are_not_remembered(typed):
    wb, memo = _memo(typed, "tbf-club")
    wb[TOURNAMENT_TR]["C12"] = "5x"
    problems = click(wb, memo)
    with speaking("tr"):
        nothing = _("Nothing was recalculated: {count} problem(s).").format(count=1)
    assert any(a["func"] == "alert" and a["args"][0].startswith(nothing) for a in problems)
    assert memo._last is None
    apply_actions(wb, problems)
    assert click(wb, memo) == fresh(wb) and memo.skipped == 0


def test_a_click_that_adds_a_sheet_is_not_remembered(typed):
    wb, memo = _memo(typed, "bridgemania")
    del wb[CHAMPIONSHIP_IT]  # the recalculation adds it back
    actions = click(wb, memo)
    assert any(a["func"] == "addSheet" for a in actions)
    assert memo._last is None
    apply_actions(wb, actions)
    second = click(wb, memo)
    assert memo.skipped == 0 and second == fresh(wb) and writes(second) == 0
    assert click(wb, memo) == second and memo.skipped == 1  # the click after that is


def test_grids_compare_flags_apart_from_numbers():
    assert same_grid([[1, "a", None]], [[1.0, "a", None]])
    assert not same_grid([[True, 2]], [[1, 2]])
    assert not same_grid([[1, 2]], [[True, 2]])
    assert not same_grid([[1]], [[1], [None]])
    assert not same_grid([[1, None]], [[1]])
    assert same_grid([], [])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=30), st.sampled_from(["", "#N/A", "#DIV/0!", "2025-09-18T00:00:00.000Z",
                                                                 "-0044-03-15T12:00:00Z", "+39", "Jansen"]),
                          st.floats(allow_nan=False), st.booleans(), st.integers()), min_size=1, max_size=8))
def test_reading_gives_xlwings_own_conversion_of_every_value(row):
    from xlwings.pro._xlremote import _clean_value_data_element
    import datetime as dt
    from xlbridge.excel.book import XlwingsBook

    row = ["x", *row]  # (a sheet whose only cell is empty reads as no rows)
    try:
        want = [[_clean_value_data_element(v, dt.datetime, None, None, False) for v in row]]
    except ValueError:  # xlwings' own conversion fails on some text (not Excel's): so does the read
        with pytest.raises(ValueError):
            XlwingsBook(xw.Book(json=payload_of([row]))).read("Sheet1")
        return
    got = XlwingsBook(xw.Book(json=payload_of([row]))).read("Sheet1")
    assert got == want and [[type(v) for v in line] for line in got] == [[type(v) for v in line] for line in want]


def payload_of(values: list[list]) -> dict:
    from xlbridge.excel.emulate import SHEET_DEFAULTS

    return {"client": "Office.js", "version": xw.__version__, "book": {"name": "Book1.xlsx", "active_sheet_index": 0,
            "selection": "A1"}, "names": [], "sheets": [{"name": "Sheet1", "values": values, **SHEET_DEFAULTS}]}


def test_a_flag_typed_over_a_number_reads_as_a_flag_in_the_same_process():
    # xlwings' Range.raw_value caches by the sheet's values, where 1 == TRUE: a second
    # book that differs only there would read the first one's number
    from xlbridge.excel.book import XlwingsBook

    assert XlwingsBook(xw.Book(json=payload_of([["x", 1, 0]]))).read("Sheet1") == [["x", 1, 0]]
    flags = XlwingsBook(xw.Book(json=payload_of([["x", True, False]]))).read("Sheet1")
    assert [type(v) for v in flags[0]] == [str, bool, bool]


CELL = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(-10, 10, allow_nan=False, allow_infinity=False),
                 st.sampled_from(["", "x", "Jansen", "12", "+39", "-", "#N/A", "2025-09-18T00:00:00.000Z", "=1+1", "TRUE"]))


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 4), st.integers(2, 4), st.data())
def test_what_excel_will_send_reads_as_the_grid_the_click_left(rows, cols, data):
    # XlwingsBook.will_send: when it says what Excel sends next time, reading that gives
    # exactly (types too) the grid the click left, so the memo may compare without reading
    from xlbridge.excel.book import XlwingsBook
    from xlbridge.excel.emulate import _to_js

    sent = [[_to_js(data.draw(CELL)) for _ in range(cols)] for _ in range(rows)]
    sent[0][0] = "title"  # (a sheet that is not one empty cell)
    adapter = XlwingsBook(xw.Book(json=payload_of(sent)))
    adapter.read("Sheet1")
    for _ in range(data.draw(st.integers(0, 3))):
        row, col = data.draw(st.integers(1, rows + 1)), data.draw(st.integers(1, cols + 1))
        adapter.write("Sheet1", row, col, [[data.draw(CELL) for _ in range(data.draw(st.integers(1, 2)))]])
        if data.draw(st.booleans()):
            adapter.flush()
    adapter.flush()
    expected = adapter.will_send("Sheet1")
    if expected is not None:
        again = XlwingsBook(xw.Book(json=payload_of(expected)))
        assert again.sends("Sheet1", expected)
        grid = again.read("Sheet1")
        kept = adapter.known()["Sheet1"]
        width = max(len(line) for line in kept)
        kept = [line + [None] * (width - len(line)) for line in kept]
        assert grid == kept and [[type(v) for v in line] for line in grid] == [[type(v) for v in line] for line in kept]


def test_text_that_reads_as_something_else_is_not_compared_unread():
    from xlbridge.excel.book import XlwingsBook

    for text in ("", "2025-09-18T00:00:00.000Z", "#N/A"):
        adapter = XlwingsBook(xw.Book(json=payload_of([["title", 1], [2, 3]])))
        adapter.read("Sheet1")
        adapter.write("Sheet1", 2, 2, [[text]])
        adapter.flush()
        assert adapter.will_send("Sheet1") is None
    adapter = XlwingsBook(xw.Book(json=payload_of([["title", 1], [2, 3]])))
    adapter.read("Sheet1")
    adapter.write("Sheet1", 3, 1, [["x", 4.5, True]])
    adapter.flush()
    assert adapter.will_send("Sheet1") == [["title", 1, ""], [2, 3, ""], ["x", 4.5, True]]


def test_in_pyodide_the_garbage_collector_waits_until_the_click_is_done(monkeypatch):
    import gc
    from types import SimpleNamespace

    seen = []

    def click_body(book, memo):
        seen.append(gc.isenabled())
        if book == "fails":
            raise RuntimeError("a bug")

    monkeypatch.setattr(scripts, "_recalculate", click_body)
    monkeypatch.setattr(scripts, "sys", SimpleNamespace(platform="emscripten"))
    scripts.recalculate("book")
    with pytest.raises(RuntimeError):
        scripts.recalculate("fails")
    assert seen == [False, False] and gc.isenabled()
    monkeypatch.setattr(scripts, "sys", SimpleNamespace(platform="linux"))  # other hosts: as it was
    scripts.recalculate("book")
    assert seen[-1] is True
