"""The live backend of the workbook adapter: an ``xlwings.Book`` (desktop Excel,
xlwings Lite or xlwings Server).  See :mod:`xlbridge.workbooks.book` for the
conventions both backends keep."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from typing import Any

from xlbridge.workbooks.book import (Area, Grid, Layout, _as_text_if_formula_like, _clean, _clean_value_for_write, _is_number,
                                     _ReadOnce, area_name, column_letter, rectangular)


class XlwingsBook(_ReadOnce):
    """Live backend on an ``xlwings.Book`` (desktop Excel, xlwings Lite or Server)."""

    def __init__(self, book: Any):
        self.book = book
        self._grids: dict[str, Grid] = {}  # sheets read and not written since: one round trip each
        self._sheets: dict[str, Any] | None = None  # name -> sheet (xlwings finds a name by a scan)
        self._names: list[str] | None = None
        self._values: dict[str, dict[tuple[int, int], Any]] = {}  # cells to write, by sheet: (row, col) -> value
        self._fills: dict[str, dict[tuple[int, int], str | None]] = {}  # fills to set, by sheet
        self._remote = _is_remote(book)
        self._sent: dict[str, list] = {}  # Office.js: each sheet read, its values as Excel sent them
        self._flushed: list[dict[str, dict[int, dict[int, Any]]]] = []  # the values sent, flush by flush
        self.written_unread: set[str] = set()  # sheets written without being read first
        self.blanked: set[str] = set()  # sheets where a value was emptied

    def held(self, sheet: str) -> Grid:
        """The sheet's grid as this adapter knows it (read once, with the writes since):
        not a copy, for comparing only."""
        grid = self._grids.get(sheet)
        if grid is None:
            grid = self._grids[sheet] = self._read(sheet)
        return grid

    def known(self) -> dict[str, Grid]:
        """Every sheet read so far, with the writes since (not copies)."""
        return self._grids

    def will_send(self, sheet: str) -> list | None:
        """Office.js: the values Excel will send for ``sheet`` next time when nobody
        types -- what it sent, with the values written since -- such that their
        reading is exactly :meth:`known`'s grid of ``sheet`` (every cell written is
        one whose value Excel keeps and the reading gives back); None when that cannot
        be said (not read from a payload, a sheet of one cell, a value that may read
        differently)."""
        sent, grid = self._sent.get(sheet), self._grids.get(sheet)
        if sent is None or grid is None or len(grid) < 2 and (not grid or len(grid[0]) < 2):
            return None
        width = max(len(line) for line in grid)
        out = [line if len(line) == width else line + [""] * (width - len(line)) for line in sent]
        out += [[""] * width for _ in range(len(grid) - len(out))]
        convert = _office_js_value()
        copied: set[int] = set()
        for values in self._flushed:
            for r, cols in values.get(sheet, {}).items():
                if r - 1 not in copied:
                    out[r - 1] = list(out[r - 1])
                    copied.add(r - 1)
                line = out[r - 1]
                for c, v in cols.items():
                    if v is None:
                        v = ""
                    elif type(v) is str and (v == "" or v[0] in _MAYBE_CONVERTED and (
                            convert is None or type(convert(v, dt.datetime, None, None, False)) is not str
                            or convert(v, dt.datetime, None, None, False) != v)):
                        return None  # Excel keeps it, but it reads as something else ("" as empty)
                    elif type(v) not in _SENT_AS_IS:
                        return None
                    line[c - 1] = v
        return out if len(out) == len(grid) else None

    def sends(self, sheet: str, expected: list) -> bool:
        """Whether Excel sent ``expected`` (:meth:`will_send` of an earlier click) for ``sheet``:
        the same used range and values, flags only where flags were."""
        ws = self._sheet(sheet)
        sent = ws.api.get("values") if isinstance(ws.api, dict) else None
        if not isinstance(sent, list) or sent != expected:
            return False
        last = ws.used_range.last_cell
        if (last.row, last.column) != (len(expected), len(expected[0])):
            return False
        return all(not (bool in map(type, a) or bool in map(type, b)) or
                   [type(v) is bool for v in a] == [type(v) is bool for v in b] for a, b in zip(sent, expected))

    def sheet_names(self) -> list[str]:
        if self._names is None:  # a recalculation asks often; only add_sheet changes them
            self._names = [s.name for s in self.book.sheets]
        return list(self._names)

    def _sheet(self, name: str) -> Any:
        if self._sheets is None:
            self._sheets = {getattr(s, "name", None): s for s in self.book.sheets}
        found = self._sheets.get(name)
        return found if found is not None else self.book.sheets[name]

    def _read(self, sheet: str) -> Grid:
        ws = self._sheet(sheet)
        used = ws.used_range
        last_row, last_col = used.last_cell.row, used.last_cell.column
        if last_row == 1 and last_col == 1 and ws.range((1, 1)).value in (None, ""):
            return []
        convert = _office_js_value() if self._remote else None
        if convert is not None:
            # what xlwings' conversion gives (its own function: ISO dates, Excel's error texts), called
            # for text only: numbers and flags come as they are, "" is an empty cell
            raw = _sent_values(ws, last_row, last_col)
            sent = ws.api.get("values") if isinstance(ws.api, dict) else None
            if isinstance(sent, list) and len(sent) == last_row and all(len(line) == last_col for line in sent):
                self._sent[sheet] = sent  # (exactly the used range: what the next click compares first)
            # (the type first: a number compared with "" costs two failed comparisons; xlwings' function
            # only for text that can be a date or an error value: names and codes come as they are)
            return [[(None if v == "" else v if v[0] not in _MAYBE_CONVERTED else convert(v, dt.datetime, None, None, False))
                     if type(v) is str else v for v in row] for row in raw]
        values = ws.range((1, 1), (last_row, last_col)).options(ndim=2).value
        return [[_clean(v) for v in row] for row in values]

    def write(self, sheet: str, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
        """Write only what changes: the smallest block holding every cell whose value
        differs from what the sheet holds (as read, or as written since); nothing when
        nothing changes (a second click writes no cell).  The cells wait until
        :meth:`flush`, which sends contiguous cells as one range."""
        block = rectangular([_cleaned(line) for line in values])
        if not block or not block[0]:
            return
        known = self._grids.get(sheet)
        if known is None:
            self.written_unread.add(sheet)
            top, left, bottom, right = 0, 0, len(block) - 1, len(block[0]) - 1
        else:
            span = _changed_span(known, row, col, block)
            if span is None:
                return
            top, left, bottom, right = span
        pending = self._values.setdefault(sheet, {})
        columns = range(col + left, col + right + 1)
        for r in range(top, bottom + 1):
            pending.setdefault(row + r, {}).update(zip(columns, block[r][left:right + 1]))
        if known is not None and _put(known, row + top, col + left, [line[left:right + 1] for line in block[top:bottom + 1]]):
            self.blanked.add(sheet)

    def fill(self, sheet: str, row: int, col: int, colour: str | None) -> None:
        """Set at :meth:`flush`: cells of one colour that form a rectangle are one range."""
        self._fills.setdefault(sheet, {})[(row, col)] = colour

    def flush(self) -> None:
        """Send the waiting values and fills: one range per rectangle of contiguous
        cells; the last value or fill given to a cell wins.  Fills: the colour of most
        cells goes first over every filled cell, the other colours over it."""
        values, fills = self._values, self._fills
        self._values, self._fills = {}, {}
        if values:
            self._flushed.append(values)
        for sheet, rows in values.items():
            ws = self._sheet(sheet)
            for top, left, bottom, right in _rectangles(rows):
                part = [[rows[r][c] for c in range(left, right + 1)] for r in range(top, bottom + 1)]
                target = ws.range((top, left), (bottom, right))
                if self._remote:  # what xlwings' conversion sends, without its pass over the whole sheet per range
                    target.raw_value = [["" if v is None else _as_text_if_formula_like(v) if isinstance(v, str) else v
                                         for v in line] for line in part]
                else:
                    target.value = [[_as_text_if_formula_like(v) for v in line] for line in part]
        for sheet, cells in fills.items():
            ws = self._sheet(sheet)
            for colour, area in _fill_areas(cells):
                top, left, bottom, right = area
                ws.range((top, left), (bottom, right)).color = colour

    def add_sheet(self, name: str, after: str | None = None) -> None:
        self.flush()
        names = self.sheet_names()
        sheets = self.book.sheets
        sheets.add(name, after=sheets[names.index(after) if after in names else len(sheets) - 1])
        self._sheets = self._names = None
        self._grids[name] = []  # a new sheet is empty

    def activate(self, sheet: str, cell: str = "A1") -> None:
        """Show ``sheet`` with ``cell`` selected (Office.js: activate, then select)."""
        self.flush()
        ws = self._sheet(sheet)
        try:
            ws.activate()
            ws.range(cell).select()
        except Exception:  # noqa: BLE001 - showing the sheet is a courtesy: a host without it keeps the work done
            pass

    def lay_out(self, sheet: str, layout: Layout) -> None:
        self.flush()
        ws = self._sheet(sheet)

        def rng(area: Area) -> Any:
            row, col, nrows, ncols = area
            return ws.range((row, col), (row + nrows - 1, col + ncols - 1))

        def title(row: int = 1, col: int = 1) -> None:
            ws.range((row, col)).font.bold = True
            ws.range((row, col)).font.size = 14

        def header(area: Area) -> None:
            cells = rng(area)
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
        for row, col in layout.titles:
            steps.append(lambda row=row, col=col: title(row, col))
        for row, col in layout.bold:
            steps.append(lambda row=row, col=col: setattr(ws.range((row, col)).font, "bold", True))
        for area in layout.headers():
            steps.append(lambda area=area: header(area))
        for area, number_format in layout.number_formats:
            steps.append(lambda area=area, number_format=number_format: setattr(rng(area), "number_format", number_format))
        for area, colour in layout.fills:
            steps.append(lambda area=area, colour=colour: setattr(rng(area), "color", colour))
        if layout.freeze is not None:
            steps.append(freeze)
        if layout.widths:
            steps.append(lambda: ws.autofit("columns"))
        if layout.hidden:  # (Office.js: setSheetVisibility; only when shown, so a second click sends nothing)
            steps.append(lambda: setattr(ws, "visible", False) if ws.visible else None)
        if layout.print_area is not None:  # the only print setup xlwings offers on every host (docs/printing.md)
            steps.append(lambda: setattr(ws.page_setup, "print_area", area_name(layout.print_area)))
        for step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001 - the look is cosmetic: an Excel without one of these
                pass  # operations (e.g. frozen panes on some hosts) must not stop a finished recalculation

    def alert(self, message: str) -> None:
        self.flush()
        try:
            self.book.app.alert(message, title="xlbridge")
        except Exception:  # noqa: BLE001 - an alert must never break the recalculation
            pass


def _is_remote(book: Any) -> bool:
    """Whether ``book`` is xlwings' Office.js book (xlwings Lite, xlwings Server): its
    writes are actions in a JSON reply."""
    try:
        return book.app.engine.type == "remote"
    except Exception:  # noqa: BLE001 - a book without an engine (a stand-in) is not remote
        return False


def _sent_values(ws: Any, last_row: int, last_col: int) -> Grid:
    """A1 to (``last_row``, ``last_col``) of an Office.js sheet as Excel sent it, with
    None beyond what it sent.  Straight from the sheet's payload, not through
    ``Range.raw_value``: that copies the whole sheet to tuples for its cache key, and
    the cache, kept between clicks, returns an earlier sheet's values for one that
    differs only by FALSE for 0 or TRUE for 1 (equal as Python compares)."""
    values = ws.api.get("values") if isinstance(ws.api, dict) else None
    if not isinstance(values, list):
        return ws.range((1, 1), (last_row, last_col)).raw_value
    grid = [list(line[:last_col]) for line in values[:last_row]]
    for line in grid:
        if len(line) < last_col:
            line.extend([None] * (last_col - len(line)))
    grid.extend([None] * last_col for _ in range(last_row - len(grid)))
    return grid


#: the first character of the text xlwings' Office.js conversion can change: an ISO date
#: ("2025-09-18T00:00:00.000Z", a year may have a sign) or an error value ("#N/A")
_MAYBE_CONVERTED = frozenset("0123456789+-#")


@functools.cache
def _office_js_value() -> Callable[..., Any] | None:
    """xlwings' conversion of one value of an Office.js book (xlwings Lite, xlwings
    Server), or None when this xlwings has none (its public conversion is used then).
    Imported on first use: ``xlwings.pro`` wants a licence key outside those hosts."""
    try:
        from xlwings.pro._xlremote import _clean_value_data_element
    except Exception:  # noqa: BLE001 - ImportError, or xlwings' LicenseError
        return None
    return _clean_value_data_element


def rectangles(cells: Any) -> list[tuple[int, int, int, int]]:
    """The ``(top, left, bottom, right)`` rectangles covering ``cells`` ((row, col)
    pairs), each cell once: runs of contiguous columns per row, stacked while the
    next row has the same run.  Sorted by top row, then left column."""
    rows: dict[int, dict[int, Any]] = {}
    for r, c in cells:
        rows.setdefault(r, {})[c] = None
    return _rectangles(rows)


def _rectangles(rows: dict[int, Any]) -> list[tuple[int, int, int, int]]:
    """:func:`rectangles` of the cells ``{row: {column: ...}}``."""
    done: list[tuple[int, int, int, int]] = []
    open_: dict[tuple[int, int], int] = {}  # (left, right) -> top of a rectangle reaching the previous row
    previous = None
    for r in sorted(rows):
        cols = sorted(rows[r])
        if cols[-1] - cols[0] + 1 == len(cols):
            runs = [(cols[0], cols[-1])]  # the usual case: one run
        else:
            runs = []
            start = end = cols[0]
            for c in cols[1:]:
                if c != end + 1:
                    runs.append((start, end))
                    start = c
                end = c
            runs.append((start, end))
        still: dict[tuple[int, int], int] = {}
        for run in runs:
            top = open_.pop(run, None) if previous == r - 1 else None
            still[run] = r if top is None else top
        for (left, right), top in open_.items():
            done.append((top, left, previous, right))
        open_, previous = still, r
    for (left, right), top in open_.items():
        done.append((top, left, previous, right))
    return sorted(done)


def _fill_areas(cells: dict[tuple[int, int], Any]) -> list[tuple[Any, tuple[int, int, int, int]]]:
    """(colour, rectangle) in the order to set them so that each cell ends with its
    colour in ``cells``: each colour's own rectangles, or -- when fewer -- the
    commonest colour over every cell first and the others' rectangles over it."""
    by_colour: dict[Any, dict[int, dict[int, None]]] = {}
    for (r, c), colour in cells.items():
        by_colour.setdefault(colour, {}).setdefault(r, {})[c] = None
    own = [(colour, area) for colour, rows in by_colour.items() for area in _rectangles(rows)]
    if len(by_colour) < 2:
        return own
    base = max(by_colour, key=lambda colour: sum(len(cols) for cols in by_colour[colour].values()))
    everything: dict[int, dict[int, None]] = {}
    for r, c in cells:
        everything.setdefault(r, {})[c] = None
    layered = [(base, area) for area in _rectangles(everything)]
    layered += [(colour, area) for colour, rows in by_colour.items() if colour != base for area in _rectangles(rows)]
    return layered if len(layered) < len(own) else own


_PLAIN = frozenset({str, int, bool, type(None)})
_SENT_AS_IS = frozenset({str, int, float, bool})  # what Excel sends back as it was written


def _cleaned(line: Sequence[Any]) -> list[Any]:
    """``_clean_value_for_write`` of each value (the common types without a call)."""
    return [v if type(v) in _PLAIN or (type(v) is float and v == v) else _clean_value_for_write(v)  # NaN != NaN
            for v in line]


def _changed_span(known: Grid, row: int, col: int, block: Grid) -> tuple[int, int, int, int] | None:
    """(top, left, bottom, right), 0-based in ``block`` (its corner at ``row``, ``col``
    of the grid ``known``): the smallest span of the cells that do not already show
    their value (:func:`_same_cell`); None when every cell does."""
    width = len(block[0])
    top = bottom = None
    left, right = width, -1
    for r, line in enumerate(block):
        i = row + r - 1
        held = known[i][col - 1:col - 1 + width] if i < len(known) else []
        if len(held) < width:
            held = held + [None] * (width - len(held))
        if held == line and ((bool not in map(type, held) and bool not in map(type, line))
                             or [type(v) is bool for v in held] == [type(v) is bool for v in line]):
            continue  # equal as Python compares them, and flags only where flags were: the same cells
        first = last = None
        for c in range(width):
            old, new = held[c], line[c]
            if (type(old) is type(new) and old == new) or _same_cell(old, new):
                continue
            if first is None:
                first = c
            last = c
        if first is None:
            continue
        if top is None:
            top = r
        bottom = r
        left, right = min(left, first), max(right, last)
    return None if top is None else (top, left, bottom, right)


def _same_cell(old: Any, new: Any) -> bool:
    """Whether a cell holding ``old`` (as read) already shows ``new`` (as written)."""
    if old is None or new is None:
        return old is None and new is None
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new) and old == new
    if _is_number(old) and _is_number(new):
        return float(old) == float(new)
    return type(old) is type(new) and old == new


def _put(grid: Grid, row: int, col: int, values: Sequence[Sequence[Any]]) -> bool:
    """Record written ``values`` in a known grid (1-based corner), growing it as needed;
    whether a cell that held a value is now empty."""
    blanked = False
    for r, line in enumerate(values):
        while len(grid) < row + r:
            grid.append([])
        target = grid[row + r - 1]
        if len(target) < col + len(line) - 1:
            target.extend([None] * (col + len(line) - 1 - len(target)))
        if not blanked and None in line:
            blanked = any(new is None and old is not None for old, new in zip(target[col - 1:col - 1 + len(line)], line))
        target[col - 1:col - 1 + len(line)] = line
    return blanked
