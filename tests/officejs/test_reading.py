"""Reading a sheet of xlwings' Office.js payload (xlwings Lite, xlwings Server) through what
Lite documents (``Range.raw_value``): the values as xlwings converts them, error values as
their codes (as headless reads them), and never an earlier click's values from xlwings' cache."""

from __future__ import annotations

import datetime as dt

import pytest
import xlwings as xw
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.emulate import SHEET_DEFAULTS
from xlbridge.excel import scripts
from xlbridge.excel.book import XlwingsBook


def payload_of(values: list[list]) -> dict:
    return {"client": "Office.js", "version": xw.__version__, "book": {"name": "Book1.xlsx", "active_sheet_index": 0,
            "selection": "A1"}, "names": [], "sheets": [{"name": "Sheet1", "values": values, **SHEET_DEFAULTS}]}


def read(values: list[list]) -> list[list]:
    return XlwingsBook(xw.Book(json=payload_of(values))).read("Sheet1")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=30), st.sampled_from(["", "#N/A", "#DIV/0!", "2025-09-18T00:00:00.000Z",
                                                                 "1899-12-30T06:00:00.000Z", "+39", "Jansen"]),
                          st.floats(allow_nan=False), st.booleans(), st.integers()), min_size=1, max_size=8))
def test_reading_gives_xlwings_own_conversion_of_every_value_but_error_codes(row):
    from xlwings.pro._xlremote import _clean_value_data_element

    row = ["x", *row, "end"]  # (a sheet whose only cell is empty reads as no rows; no empty column at the end)
    try:
        want = [[_clean_value_data_element(v, dt.datetime, None, None, True) for v in row]]
    except ValueError:  # text xlwings takes for a date but Python cannot read (Excel sends no such date)
        return
    got = read([row])
    assert got == want and [[type(v) for v in line] for line in got] == [[type(v) for v in line] for line in want]


def test_an_error_value_reads_as_its_code_as_headless():
    assert read([["x", "#REF!", "#N/A"]]) == [["x", "#REF!", "#N/A"]]


def test_a_sheet_reads_to_its_last_value_whatever_range_excel_sends():
    # xlwings-server 1.12.0 sends Excel's used range, formatted empty cells included
    assert read([["x", "", ""], [1, 2, ""], ["", "", ""]]) == [["x", None], [1, 2]]


def test_a_flag_typed_over_a_number_reads_as_a_flag_in_the_same_process():
    # xlwings' Range.raw_value caches by the sheet's values, where 1 == TRUE, kept between
    # clicks: a later book that differs only there would read the earlier one's numbers
    for _click in range(3):
        assert [type(v) for v in read([["x", 1, 0]])[0]] == [str, int, int]
        assert [type(v) for v in read([["x", True, False]])[0]] == [str, bool, bool]


def test_in_pyodide_the_garbage_collector_waits_until_the_click_is_done(monkeypatch):
    import gc
    from types import SimpleNamespace

    seen = []

    def click_body(book):
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
