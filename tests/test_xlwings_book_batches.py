"""XlwingsBook sends what a recalculation writes as few ranges as it can (issue 18):
contiguous cells as one range, each fill colour as rectangles, the last value or fill
given to a cell wins, and a value a cell already shows is not sent again."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from xlbridge.excel.book import XlwingsBook, _fill_areas, rectangles


class FakeRange:
    def __init__(self, sheet, first, last):
        self.sheet, self.first, self.last = sheet, first, last

    def __setattr__(self, name, value):
        if name in ("value", "color"):
            self.sheet.log.append((name, self.first, self.last, value))
        object.__setattr__(self, name, value)


class FakeSheet:
    def __init__(self, name):
        self.name = name
        self.log: list = []

    def range(self, first, last=None):
        return FakeRange(self, first, last)


class FakeSheets(list):
    def __getitem__(self, key):
        if isinstance(key, str):
            return next(s for s in self if s.name == key)
        return list.__getitem__(self, key)


def book_with(*names):
    sheets = FakeSheets(FakeSheet(n) for n in names)
    book = XlwingsBook(type("Book", (), {"sheets": sheets})())
    for name in names:
        book._grids[name] = []  # (read: empty)
    return book, sheets


def test_blocks_side_by_side_go_out_as_one_range_and_the_last_value_wins():
    book, sheets = book_with("S")
    book.write("S", 2, 2, [[1, 2], [3, 4]])
    book.write("S", 2, 4, [["a"], ["b"]])  # to the right: the same rows
    book.write("S", 4, 2, [[5, 6, 7]])  # below: the same columns
    book.write("S", 2, 2, [[9]])  # written again: the last value wins
    book.flush()
    assert sheets[0].log == [("value", (2, 2), (4, 4), [[9, 2, "a"], [3, 4, "b"], [5, 6, 7]])]


def test_fills_of_one_colour_go_out_as_rectangles_and_the_commonest_colour_first():
    book, sheets = book_with("S")
    for row in range(1, 11):
        book.fill("S", row, 3, "#FFFFFF")
    book.fill("S", 4, 3, "#FF0000")
    book.fill("S", 5, 3, "#FF0000")
    book.flush()
    assert sheets[0].log == [("color", (1, 3), (10, 3), "#FFFFFF"), ("color", (4, 3), (5, 3), "#FF0000")]


def test_a_value_the_cell_already_shows_is_not_sent():
    book, sheets = book_with("S")
    book._grids["S"] = [[None, 1.0, "x", True], [None, 2, None, False]]
    book.write("S", 1, 2, [[1, "x", True], [2.0, None, False]])
    book.flush()
    assert sheets[0].log == []
    book.write("S", 1, 2, [[1, "x", 1], [2.0, None, False]])  # 1 is not the flag TRUE
    book.flush()
    assert sheets[0].log == [("value", (1, 4), (1, 4), [[1]])]


def test_everything_waits_for_the_flush_and_the_fills_go_before_the_values():
    book, sheets = book_with("S")
    book.write("S", 1, 1, [[1]])
    book.fill("S", 1, 1, "#FFF2CC")
    book.alert("done")  # (the book has no app: no message box)
    assert sheets[0].log == []
    book.flush()
    assert sheets[0].log == [("color", (1, 1), (1, 1), "#FFF2CC"), ("value", (1, 1), (1, 1), [[1]])]


cells = st.sets(st.tuples(st.integers(1, 12), st.integers(1, 8)), min_size=1, max_size=60)


@given(cells)
def test_rectangles_cover_every_cell_once(chosen):
    covered = [(r, c) for top, left, bottom, right in rectangles(chosen)
               for r in range(top, bottom + 1) for c in range(left, right + 1)]
    assert sorted(covered) == sorted(chosen)


@given(st.dictionaries(st.tuples(st.integers(1, 12), st.integers(1, 6)),
                       st.sampled_from(["#FFFFFF", "#FF0000", "#FFF2CC"]), min_size=1, max_size=60))
def test_fill_areas_leave_each_cell_its_colour_and_touch_no_other(fills):
    painted = {}
    for colour, (top, left, bottom, right) in _fill_areas(fills):
        for r in range(top, bottom + 1):
            for c in range(left, right + 1):
                painted[(r, c)] = colour
    assert painted == fills
