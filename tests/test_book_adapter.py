"""The adapter's live backend when Excel lacks an operation: the look of an added
sheet is cosmetic, so a missing operation must not stop a finished recalculation."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from xlbridge.workbooks.book import Layout, excel_would_convert, looks_like_formula
from xlbridge.excel.book import XlwingsBook


class FakeRange:
    def __init__(self, log, address):
        self.log, self.address = log, address
        self.font = SimpleNamespace()

    def __setattr__(self, name, value):
        if name in ("color", "number_format"):
            self.log.append((name, self.address, value))
        object.__setattr__(self, name, value)


class NoFreeze:
    def freeze_at(self, cells):
        raise NotImplementedError("freeze panes: not on this host")


class FakeSheet:
    def __init__(self, log):
        self.log = log
        self.freeze_panes = NoFreeze()

    def range(self, first, last=None):
        return FakeRange(self.log, (first, last))

    def autofit(self, axis):
        self.log.append(("autofit", axis))


def test_a_missing_excel_operation_skips_only_that_part_of_the_look():
    log: list = []
    book = XlwingsBook(SimpleNamespace(sheets={"Evening 2026-09-03": FakeSheet(log)}))
    layout = Layout(header_row=1, header_cols=3, widths=(6, 30, 5),
                    number_formats=(((2, 16, 12, 5), "0.00"),), fills=(((2, 4, 12, 7), "#FFF2CC"),), freeze=(2, 4))
    book.lay_out("Evening 2026-09-03", layout)  # frozen panes raise: no exception here
    assert log == [
        ("color", ((1, 1), (1, 3)), "#1F4E78"),
        ("number_format", ((2, 16), (13, 20)), "0.00"),
        ("color", ((2, 4), (13, 10)), "#FFF2CC"),
        ("autofit", "columns"),
    ]


def _reads_as_number(text: str) -> bool:
    try:
        float(text.replace(",", "."))
    except ValueError:
        return False
    return True


@settings(max_examples=400)
@given(st.one_of(st.text(), st.from_regex(r"\s*[+-]?(\d[\d_]*)?([.,]\d*)?([eE][+-]?\d+)?\s*", fullmatch=True),
                 st.sampled_from(["inf", "-Infinity", " nan ", "NaN", "١٢", "1_000", "nano", "Info", "e5"])))
def test_text_excel_would_convert_is_text_float_reads_or_a_formula_start(text):
    # the pre-check (no digit, "inf" or "nan": not a number) gives what float() alone gives
    assert excel_would_convert(text) == (bool(text.strip()) and (looks_like_formula(text) or _reads_as_number(text)))
