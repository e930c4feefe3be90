"""The workbook adapter: the few operations a recalculation needs, on two backends.

A recalculation (``xlbridge.workbooks.recalc``) reads the scorer's sheets as grids of
values and writes the computed cells back.  It only ever talks to a
:class:`BookAdapter`, so the very same code runs

- in Excel, on a live ``xlwings.Book`` (:class:`XlwingsBook`: classic xlwings,
  xlwings Lite, xlwings Server), and
- headless, on an ``openpyxl`` workbook (:class:`OpenpyxlBook`: ``xlbridge recalc``).

Conventions that keep both backends cell-for-cell identical:

- rows and columns are 1-based; a grid is a list of rows;
- a sheet reads from A1 to its last cell holding a value (cells with only a format
  do not count, as xlwings' Office.js client sends them: :func:`trimmed`);
- an empty cell reads as ``None`` (Office.js sends ``""``);
- dates read as ``datetime``; a date written (a ``date``, or a ``datetime``) is a
  date, shown in :data:`DATE_FORMAT` (:data:`DATETIME_FORMAT` with a time) -- never
  its text, which Excel would parse by the reader's locale;
- a fill is ``"#RRGGBB"``; ``None`` (no fill) only headless (the Excel path of
  xlwings-server 1.12.0 cannot clear a fill, docs/install.md);
- text is written as text, never as a formula, a number or a date (the Excel
  backend gives what Excel would parse Excel's text prefix).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

Grid = list[list[Any]]

#: The number format of a date a recalculation writes (the declarations' dates have it too).
DATE_FORMAT = "yyyy-mm-dd"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm"


Area = tuple[int, int, int, int]  # first row, first column, rows, columns


@dataclass(frozen=True)
class Rule:
    """An input rule Excel checks while the scorer types (a data validation),
    made from a declared column or setting (``declare.rule_of``).

    ``kind``: ``"list"`` (one of ``values``: a drop-down), ``"whole"`` or
    ``"decimal"`` (a number from ``low`` up to ``high``, either may be ``None``).
    ``prompt`` is shown when the cell is selected, ``error`` when a typed value
    breaks the rule (Excel then refuses it; ``strict=False``: Excel warns and lets
    the scorer keep it, for a reader that also knows other words); ``title`` heads both."""

    kind: str
    values: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    title: str = ""
    prompt: str = ""
    error: str = ""
    strict: bool = True


@dataclass(frozen=True)
class Layout:
    """How a sheet that a recalculation adds should look: the look the shipped
    workbooks give the same kind of sheet (so an evening sheet added in the
    season reads like the ones the template had).

    ``widths`` are column widths in characters from column A; Excel sizes the
    columns to their contents instead (its width unit differs between Excel
    desktop and Excel on the web).  ``freeze``: the first row and column that
    scroll, e.g. ``(2, 4)`` keeps row 1 and columns A-C in view (D2).
    """

    title: bool = False  # A1 in big bold type
    header_row: int = 0  # 0: no header row
    header_cols: int = 0
    header_fill: str = "#1F4E78"
    header_font: str = "#FFFFFF"  # bold
    more_headers: tuple[Area, ...] = ()  # header cells of further tables, in the same look
    widths: tuple[float, ...] = ()
    wrap_columns: tuple[int, ...] = ()  # columns (1: A) whose text wraps, as the column's style (cells written later too)
    number_formats: tuple[tuple[Area, str], ...] = ()
    fills: tuple[tuple[Area, str], ...] = ()
    freeze: tuple[int, int] | None = None
    rules: tuple[tuple[Area, Rule], ...] = ()  # input rules (drop-downs, whole numbers), where Excel checks them
    #: print setup: orientation, one page wide, the rows repeated on every page
    #: (first, last), the area printed (none: the used range)
    orientation: str = ""
    fit_width: bool = False
    repeat_rows: tuple[int, int] | None = None
    print_area: Area | None = None
    page_header: str = ""  # Excel's header codes: "&A" the sheet's name
    titles: tuple[tuple[int, int], ...] = ()  # further cells in the title's big bold type (row, column)
    bold: tuple[tuple[int, int], ...] = ()  # cells in bold type (labels)
    one_page: bool = False  # also one page down (with fit_width: the whole sheet on one page)
    hidden: bool = False  # the sheet hidden (the record of the last recalculation: never shown, never printed)

    def headers(self) -> list[Area]:
        """Every header area: row ``header_row`` from A to ``header_cols``, and ``more_headers``."""
        first = [(self.header_row, 1, 1, self.header_cols)] if self.header_row and self.header_cols else []
        return first + list(self.more_headers)


def area_name(area: Area) -> str:
    """``area_name((1, 2, 3, 4)) == "B1:E3"``."""
    row, col, nrows, ncols = area
    return f"{column_letter(col)}{row}:{column_letter(col + ncols - 1)}{row + nrows - 1}"


def column_letter(col: int) -> str:
    """``column_letter(28) == "AB"`` (no openpyxl: this also runs in xlwings Lite)."""
    letters = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


@lru_cache(maxsize=1 << 16)
def cell_ref(row: int, col: int) -> str:
    """``cell_ref(7, 4) == "D7"`` (remembered: a click asks for every typed cell's, docs/performance.md)."""
    return f"{column_letter(col)}{row}"


def cell_position(ref: str) -> tuple[int, int]:
    """``cell_position("D7") == (7, 4)``: the row and column of a cell's name."""
    col = 0
    for ch in "".join(ch for ch in ref if ch.isalpha()).upper():
        col = col * 26 + (ord(ch) - 64)
    return int("".join(ch for ch in ref if ch.isdigit())), col


def cells_of(area: Area) -> list[tuple[int, int]]:
    row, col, nrows, ncols = area
    return [(row + r, col + c) for r in range(nrows) for c in range(ncols)]


class BookAdapter(Protocol):
    def sheet_names(self) -> list[str]: ...

    def read(self, sheet: str) -> Grid:
        """All values from A1 to the end of the used range; blanks as None."""
        ...

    def write(self, sheet: str, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
        """Write a block of values with its top-left corner at (row, col)."""
        ...

    def fill(self, sheet: str, row: int, col: int, colour: str | None) -> None:
        """Set (``"#RRGGBB"``) or remove (``None``) one cell's background."""
        ...

    def add_sheet(self, name: str, after: str | None = None) -> None:
        """Add an empty sheet right after the sheet ``after`` (default: at the end)."""
        ...

    def lay_out(self, sheet: str, layout: Layout) -> None:
        """Give a sheet the recalculation added its look (header, number formats,
        input fills, frozen panes, widths, print setup)."""
        ...

    def alert(self, message: str) -> None:
        """Tell the scorer (a message box in Excel; nothing headless)."""
        ...

    def activate(self, sheet: str, cell: str = "A1") -> None:
        """Show ``sheet`` with ``cell`` selected (New evening / New tournament)."""
        ...


def _clean(value: Any) -> Any:
    if isinstance(value, str) and value == "":
        return None
    return value


def _clean_value_for_write(value: Any) -> Any:
    """A value as a cell holds it: a date as a ``datetime`` (midnight), NaN as empty."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return dt.datetime(value.year, value.month, value.day)
    if isinstance(value, float) and value != value:  # NaN
        return None
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def same_number(held: float, new: float) -> bool:
    """Whether a cell holding ``held`` already holds ``new``: equal, or equal as a file
    keeps ``new`` (openpyxl writes 16 significant digits: a built workbook holds
    37.29166666666666 for 37.291666666666664, and Excel reads that back)."""
    return held == new or float(f"{new:.16g}") == held


def looks_like_formula(value: Any) -> bool:
    """Text Excel would evaluate if typed: starts with = + - or @ (and is not a number)."""
    if not isinstance(value, str) or len(value) < 2 or value[0] not in "=+-@":
        return False
    try:
        float(value)
    except ValueError:
        return True
    return False


def cell(grid: Grid, row: int, col: int) -> Any:
    """1-based read of a grid that tolerates short rows (None beyond them)."""
    if row <= len(grid) and col <= len(grid[row - 1]):
        return grid[row - 1][col - 1]
    return None


class _ReadOnce:
    """Both backends keep each sheet's grid until it is written: a recalculation
    reads a sheet once (plan, then diff) whatever the backend."""

    _grids: dict[str, Grid]

    def read(self, sheet: str) -> Grid:
        grid = self._grids.get(sheet)
        if grid is None:
            grid = self._grids[sheet] = self._read(sheet)
        return [list(line) for line in grid]  # a copy: the caller may change it

    def _read(self, sheet: str) -> Grid:  # pragma: no cover - each backend has its own
        raise NotImplementedError


def rectangular(grid: Grid) -> Grid:
    width = max((len(r) for r in grid), default=0)
    return [list(r) + [None] * (width - len(r)) for r in grid]


def trimmed(grid: Grid) -> Grid:
    """``grid`` (rectangular, changed in place) without its empty rows and columns at the
    end: A1 to the last cell holding a value, whatever range a host sends (xlwings-server
    1.12.0 sends Excel's used range, formatted empty cells included; 1.13.0 on the cells
    holding values; openpyxl keeps formatted cells)."""
    while grid and all(v is None for v in grid[-1]):
        grid.pop()
    width = 0
    for line in grid:
        for i in range(len(line) - 1, width - 1, -1):  # (from the end down to the widest found yet)
            if line[i] is not None:
                width = i + 1
                break
    if grid and len(grid[0]) > width:
        for line in grid:
            del line[width:]
    return grid
