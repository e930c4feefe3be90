"""The workbook adapter: the few operations a recalculation needs, on two backends.

A recalculation (``xlbridge.excel.recalc``) reads the scorer's sheets as grids of
values and writes the computed cells back.  It only ever talks to a
:class:`BookAdapter`, so the very same code runs

- in Excel, on a live ``xlwings.Book`` (:class:`XlwingsBook`: classic xlwings,
  xlwings Lite, xlwings Server), and
- headless, on an ``openpyxl`` workbook (:class:`OpenpyxlBook`: ``xlbridge recalc``).

Conventions that keep both backends cell-for-cell identical:

- rows and columns are 1-based; a grid is a list of rows;
- an empty cell reads as ``None`` (Office.js sends ``""``);
- dates read as ``datetime``; computed cells never hold dates (dates are
  written as ISO text), because the backends store typed dates differently;
- a fill is ``"#RRGGBB"`` or ``None`` (no fill);
- text that starts with ``=``, ``+``, ``-`` or ``@`` is written as text, never
  as a formula.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Grid = list[list[Any]]


Area = tuple[int, int, int, int]  # first row, first column, rows, columns


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
    widths: tuple[float, ...] = ()
    number_formats: tuple[tuple[Area, str], ...] = ()
    fills: tuple[tuple[Area, str], ...] = ()
    freeze: tuple[int, int] | None = None


def column_letter(col: int) -> str:
    """``column_letter(28) == "AB"`` (no openpyxl: this also runs in xlwings Lite)."""
    letters = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


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

    def add_sheet(self, name: str) -> None:
        """Add an empty sheet at the end."""
        ...

    def lay_out(self, sheet: str, layout: Layout) -> None:
        """Give a sheet the recalculation added its look (header, number formats,
        input fills, frozen panes, widths)."""
        ...

    def alert(self, message: str) -> None:
        """Tell the scorer (a message box in Excel; nothing headless)."""
        ...


def _clean(value: Any) -> Any:
    if isinstance(value, str) and value == "":
        return None
    return value


def _clean_value_for_write(value: Any) -> Any:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()[:10] if not isinstance(value, dt.datetime) or value.time() == dt.time() else value.isoformat()
    if isinstance(value, float) and value != value:  # NaN
        return None
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _holds(cell: Any, value: Any) -> bool:
    """Whether an openpyxl cell already holds ``value``: the same text, flag or
    empty cell, or the same number (198 read back from a file is the 198.0
    computed: openpyxl saves both as "198")."""
    old = cell._value
    if _is_number(value):
        return cell.data_type == "n" and _is_number(old) and old == value
    if type(old) is not type(value) or old != value:
        return False
    return cell.data_type == ("s" if isinstance(value, str) else "b" if isinstance(value, bool) else "n")


def looks_like_formula(value: Any) -> bool:
    """Text Excel would evaluate if typed: starts with = + - or @ (and is not a number)."""
    if not isinstance(value, str) or len(value) < 2 or value[0] not in "=+-@":
        return False
    try:
        float(value)
    except ValueError:
        return True
    return False


def excel_would_convert(value: Any) -> bool:
    """Text that Excel would not keep as typed: a formula-like start, or text
    that reads as a number ("+39", "007")."""
    if not isinstance(value, str) or not value.strip():
        return False
    if looks_like_formula(value):
        return True
    try:
        float(value.replace(",", "."))
    except ValueError:
        return False
    return True


def _as_text_if_formula_like(value: Any) -> Any:
    # Excel's own way to enter such text as text: a leading apostrophe (not stored in the cell)
    return "'" + value if excel_would_convert(value) else value


def cell(grid: Grid, row: int, col: int) -> Any:
    """1-based read of a grid that tolerates short rows (None beyond them)."""
    if row <= len(grid) and col <= len(grid[row - 1]):
        return grid[row - 1][col - 1]
    return None


def as_number(value: Any) -> float | None:
    """A typed number (text with a decimal comma too); None when it is not one.

    >>> as_number(3), as_number(" 2,5 "), as_number("1O3"), as_number(True), as_number(float("nan"))
    (3.0, 2.5, None, None, None)
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    try:
        number = float(str(value).strip().replace(",", "."))
    except ValueError:
        return None
    return number if math.isfinite(number) else None


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


# ------------------------------------------------------------------ openpyxl


class OpenpyxlBook(_ReadOnce):
    """Headless backend on an ``openpyxl.Workbook`` (loaded with formulas, not values)."""

    def __init__(self, workbook: Any):
        self.wb = workbook
        self.messages: list[str] = []
        self._grids: dict[str, Grid] = {}  # sheets read and not written since (plan, then diff)
        self._sheets: dict[str, Any] = {}  # wb[name] scans every sheet: a season has hundreds
        self._fill_ids: dict[str | None, int] = {}  # colour -> index in the workbook's fills

    def sheet_names(self) -> list[str]:
        return list(self.wb.sheetnames)

    def _ws(self, sheet: str) -> Any:
        ws = self._sheets.get(sheet)
        if ws is None or ws.title != sheet or ws.parent is not self.wb:
            ws = self._sheets[sheet] = self.wb[sheet]
        return ws

    def _read(self, sheet: str) -> Grid:
        # Straight from the stored cells, the same values as iter_rows(values_only=True)
        # gives, without creating a Cell object for every empty position of the used range.
        ws = self._ws(sheet)
        cells = ws._cells
        if not cells:
            return []
        rows, cols = ws.max_row, ws.max_column
        if rows == 1 and cols == 1 and cells[(1, 1)].value is None:
            return []
        grid: Grid = [[None] * cols for _ in range(rows)]
        for (r, c), cell in cells.items():
            value = cell.value
            if value is not None:
                grid[r - 1][c - 1] = _clean(value)
        return grid

    def write(self, sheet: str, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
        self._grids.pop(sheet, None)
        ws = self._ws(sheet)
        stored = ws._cells
        for r, line in enumerate(values):
            for c, value in enumerate(line):
                value = _clean_value_for_write(value)
                old = stored.get((row + r, col + c))
                if (value is None) if old is None else _holds(old, value):
                    continue  # a recalculation mostly rewrites what is there: leave it
                cell = ws.cell(row=row + r, column=col + c)
                if looks_like_formula(value):
                    # text that looks like a formula stays text (Excel would otherwise evaluate it)
                    cell.value = value
                    cell.data_type = "s"
                else:
                    cell.value = value

    def fill(self, sheet: str, row: int, col: int, colour: str | None) -> None:
        from openpyxl.styles import PatternFill

        ws = self._ws(sheet)
        known = self._fill_ids.get(colour)
        old = ws._cells.get((row, col))
        if old is None and colour is None:
            return  # an empty cell has no fill
        if known is not None and old is not None and old._style is not None and old._style.fillId == known:
            return  # already so
        cell = old if old is not None else ws.cell(row=row, column=col)
        if known is not None:
            # what ``cell.fill = <the same fill>`` stores (openpyxl's StyleDescriptor),
            # without hashing the fill again: 5,000 fills cost seconds otherwise
            if not cell._style:
                from openpyxl.styles.cell_style import StyleArray

                cell._style = StyleArray()
            cell._style.fillId = known
            return
        if colour is None:
            cell.fill = PatternFill(fill_type=None)
        else:
            rgb = "FF" + colour.lstrip("#").upper()
            cell.fill = PatternFill(fill_type="solid", start_color=rgb, end_color=rgb)
        self._fill_ids[colour] = cell._style.fillId

    def add_sheet(self, name: str) -> None:
        self._grids.pop(name, None)
        self.wb.create_sheet(name)

    def lay_out(self, sheet: str, layout: Layout) -> None:
        from openpyxl.styles import Alignment, Font

        ws = self._ws(sheet)
        if layout.title:
            ws["A1"].font = Font(bold=True, size=14)
        font = Font(bold=True, color="FF" + layout.header_font.lstrip("#").upper())
        for col in range(1, layout.header_cols + 1):
            cell = ws.cell(row=layout.header_row, column=col)
            cell.font = font
            cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
            self.fill(sheet, layout.header_row, col, layout.header_fill)
        for col, width in enumerate(layout.widths, start=1):
            ws.column_dimensions[column_letter(col)].width = width
        for area, number_format in layout.number_formats:
            for row, col in cells_of(area):
                ws.cell(row=row, column=col).number_format = number_format
        for area, colour in layout.fills:
            for row, col in cells_of(area):
                self.fill(sheet, row, col, colour)
        if layout.freeze is not None:
            ws.freeze_panes = ws.cell(row=layout.freeze[0], column=layout.freeze[1]).coordinate

    def alert(self, message: str) -> None:
        self.messages.append(message)


# ------------------------------------------------------------------ xlwings


class XlwingsBook(_ReadOnce):
    """Live backend on an ``xlwings.Book`` (desktop Excel, xlwings Lite or Server)."""

    def __init__(self, book: Any):
        self.book = book
        self._grids: dict[str, Grid] = {}  # sheets read and not written since: one round trip each

    def sheet_names(self) -> list[str]:
        return [s.name for s in self.book.sheets]

    def _read(self, sheet: str) -> Grid:
        ws = self.book.sheets[sheet]
        used = ws.used_range
        last_row, last_col = used.last_cell.row, used.last_cell.column
        if last_row == 1 and last_col == 1 and ws.range((1, 1)).value in (None, ""):
            return []
        values = ws.range((1, 1), (last_row, last_col)).options(ndim=2).value
        return [[_clean(v) for v in row] for row in values]

    def write(self, sheet: str, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
        """Write only what changes: the smallest block holding every cell whose value
        differs from what the sheet holds (as read, or as written since), in one
        range; nothing when nothing changes (a second click writes no cell)."""
        block = rectangular([[_clean_value_for_write(v) for v in line] for line in values])
        if not block or not block[0]:
            return
        known = self._grids.get(sheet)
        top, left, bottom, right = 0, 0, len(block) - 1, len(block[0]) - 1
        if known is not None:
            changed = [(r, c) for r, line in enumerate(block) for c, value in enumerate(line)
                       if not _same_cell(cell(known, row + r, col + c), value)]
            if not changed:
                return
            top, bottom = min(r for r, _ in changed), max(r for r, _ in changed)
            left, right = min(c for _, c in changed), max(c for _, c in changed)
        part = [[_as_text_if_formula_like(v) for v in line[left:right + 1]] for line in block[top:bottom + 1]]
        self.book.sheets[sheet].range((row + top, col + left), (row + bottom, col + right)).value = part
        if known is not None:
            _put(known, row + top, col + left, [line[left:right + 1] for line in block[top:bottom + 1]])

    def fill(self, sheet: str, row: int, col: int, colour: str | None) -> None:
        self.book.sheets[sheet].range((row, col)).color = colour

    def add_sheet(self, name: str) -> None:
        self.book.sheets.add(name, after=self.book.sheets[len(self.book.sheets) - 1])
        self._grids[name] = []  # a new sheet is empty

    def lay_out(self, sheet: str, layout: Layout) -> None:
        ws = self.book.sheets[sheet]

        def rng(area: Area) -> Any:
            row, col, nrows, ncols = area
            return ws.range((row, col), (row + nrows - 1, col + ncols - 1))

        def title() -> None:
            ws.range((1, 1)).font.bold = True
            ws.range((1, 1)).font.size = 14

        def header() -> None:
            cells = rng((layout.header_row, 1, 1, layout.header_cols))
            cells.color = layout.header_fill
            cells.font.bold = True
            cells.font.color = layout.header_font

        def freeze() -> None:
            row, col = layout.freeze  # Excel wants the frozen cells themselves: A1:C1 for D2
            if row > 1 and col > 1:
                ws.freeze_panes.freeze_at(f"A1:{column_letter(col - 1)}{row - 1}")
            elif row > 1:
                ws.freeze_panes.freeze_at(f"1:{row - 1}")
            elif col > 1:
                ws.freeze_panes.freeze_at(f"A:{column_letter(col - 1)}")

        steps: list[Callable[[], None]] = []
        if layout.title:
            steps.append(title)
        if layout.header_row and layout.header_cols:
            steps.append(header)
        for area, number_format in layout.number_formats:
            steps.append(lambda area=area, number_format=number_format: setattr(rng(area), "number_format", number_format))
        for area, colour in layout.fills:
            steps.append(lambda area=area, colour=colour: setattr(rng(area), "color", colour))
        if layout.freeze is not None:
            steps.append(freeze)
        if layout.widths:
            steps.append(lambda: ws.autofit("columns"))
        for step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001 - the look is cosmetic: an Excel without one of these
                pass  # operations (e.g. frozen panes on some hosts) must not stop a finished recalculation

    def alert(self, message: str) -> None:
        try:
            self.book.app.alert(message, title="xlbridge")
        except Exception:  # noqa: BLE001 - an alert must never break the recalculation
            pass


def _same_cell(old: Any, new: Any) -> bool:
    """Whether a cell holding ``old`` (as read) already shows ``new`` (as written)."""
    if old is None or new is None:
        return old is None and new is None
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new) and old == new
    if _is_number(old) and _is_number(new):
        return float(old) == float(new)
    return type(old) is type(new) and old == new


def _put(grid: Grid, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
    """Record written ``values`` in a known grid (1-based corner), growing it as needed."""
    for r, line in enumerate(values):
        while len(grid) < row + r:
            grid.append([])
        target = grid[row + r - 1]
        if len(target) < col + len(line) - 1:
            target.extend([None] * (col + len(line) - 1 - len(target)))
        for c, value in enumerate(line):
            target[col + c - 1] = value
