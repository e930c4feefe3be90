"""The adapter's live backend: the look of an added sheet is cosmetic, so a missing
operation of a classic-xlwings host must not stop a finished recalculation; everything
waits for the flush, which sends what can fail before any value; and text Excel would
read as something else goes with Excel's text prefix."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.emulate import excel_reads
from xlbridge.excel.book import XlwingsBook, excel_would_convert
from xlbridge.workbooks.book import Layout


class FakeFont:
    def __init__(self, log, address):
        object.__setattr__(self, "log", log)
        object.__setattr__(self, "address", address)

    def __setattr__(self, name, value):
        self.log.append((f"font.{name}", self.address, value))


class FakeRange:
    def __init__(self, log, address):
        self.log, self.address = log, address
        self.font = FakeFont(log, address)

    def __setattr__(self, name, value):
        if name in ("color", "number_format", "value"):
            self.log.append((name, self.address, value))
        object.__setattr__(self, name, value)


class NoFreeze:
    def freeze_at(self, cells):
        raise NotImplementedError("freeze panes: not on this host")


class FakeSheet:
    def __init__(self, log, name):
        self.log, self.name = log, name
        self.freeze_panes = NoFreeze()

    def range(self, first, last=None):
        return FakeRange(self.log, (first, last))


def book_of(log, name):
    book = XlwingsBook(SimpleNamespace(sheets=[FakeSheet(log, name)]))
    book._grids[name] = []  # (read: empty)
    return book


def test_the_look_waits_for_the_flush_and_a_missing_operation_skips_only_itself():
    log: list = []
    book = book_of(log, "Evening 2026-09-03")
    layout = Layout(header_row=1, header_cols=3, widths=(6, 30, 5),
                    number_formats=(((2, 16, 12, 5), "0.00"),), fills=(((2, 4, 12, 7), "#FFF2CC"),), freeze=(2, 4))
    book.write("Evening 2026-09-03", 2, 1, [[1]])
    book.lay_out("Evening 2026-09-03", layout)
    assert log == []
    book.flush()  # frozen panes raise: no exception here
    assert log == [  # number formats, fonts, (frozen panes), fills, then the values; no column widths
        ("number_format", ((2, 16), (13, 20)), "0.00"),
        ("font.bold", ((1, 1), (1, 3)), True),
        ("font.color", ((1, 1), (1, 3)), "#FFFFFF"),
        ("color", ((1, 1), (1, 3)), "#1F4E78"),
        ("color", ((2, 4), (13, 10)), "#FFF2CC"),
        ("value", ((2, 1), (2, 1)), [[1]]),
    ]


def test_a_date_written_gets_its_number_format_before_its_value():
    import datetime as dt

    log: list = []
    book = book_of(log, "S")
    book.write("S", 1, 1, [[dt.date(2026, 9, 3), dt.datetime(2026, 1, 20, 20, 0)]])
    book.flush()
    assert log == [("number_format", ((1, 1), (1, 1)), "yyyy-mm-dd"), ("number_format", ((1, 2), (1, 2)), "yyyy-mm-dd hh:mm"),
                   ("value", ((1, 1), (1, 2)), [[dt.datetime(2026, 9, 3), dt.datetime(2026, 1, 20, 20, 0)]])]


TYPED_TEXTS = st.one_of(
    st.text(),
    st.from_regex(r"\s*[+-]?\(?[$€]?(\d[\d,. ]*)?([.,]\d*)?([eE][+-]?\d+)?%?\)?\s*", fullmatch=True),
    st.from_regex(r"\d{1,4}[-/.]\d{1,2}([-/.]\d{1,4})?( \d{1,2}:\d\d)?", fullmatch=True),
    st.from_regex(r"(\d{1,2} )?(jan|Dec|mei|ott|Şub)[a-z]* \d{1,4}", fullmatch=True),
    st.sampled_from(["TRUE", "onwaar", "Vero", "#N/A", "#ref!", "=A1", "=", "+x", "@x", "'t Hoekje", "20:00", "8 pm",
                     "1/2", "3-4", "(5)", "50%", "T15", "R", "NS, EW"]))


@pytest.mark.slow
@settings(max_examples=600)
@given(TYPED_TEXTS)
def test_text_excel_would_read_otherwise_gets_the_text_prefix_and_stays_text(text):
    if excel_reads(text)[0] != "text" or text.startswith("'"):
        assert excel_would_convert(text)
    if excel_would_convert(text):
        assert excel_reads("'" + text) == ("text", text)
