"""The live backend of the workbook adapter: an ``xlwings.Book`` (desktop Excel,
xlwings Lite or xlwings Server).  See :mod:`xlbridge.workbooks.book` for the
conventions both backends keep.

Only the xlwings API that the xlwings Lite documentation lists as available
(no ``.api``, no ``Sheet.autofit``, no colour or font getters, no ``Book.save``;
``tests/test_lite.py`` walks the bundled sources), and on xlwings' Office.js engine
only the actions every xlwings-server JavaScript release from 1.11.1 to 1.20.0
applies (docs/install.md, "What a click sends"): ``addSheet``, ``setNumberFormat``,
``setFontProperty``, ``freezePaneAtRange``, ``setRangeColor`` with a colour,
``setValues``, ``activateSheet``, ``rangeSelect``, ``alert``.  Everything waits until
:meth:`XlwingsBook.flush`, the click's last step, which sends it in that order:
what could fail comes before the first value is written, the alert last.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

from xlbridge.values import EXCEL_EPOCH
from xlbridge.workbooks.book import (DATE_FORMAT, DATETIME_FORMAT, Area, Grid, Layout, _clean, _clean_value_for_write,
                                     _is_number, _ReadOnce, column_letter, rectangular, same_number, trimmed)


class XlwingsBook(_ReadOnce):
    """Live backend on an ``xlwings.Book`` (desktop Excel, xlwings Lite or Server)."""

    def __init__(self, book: Any):
        self.book = book
        self._grids: dict[str, Grid] = {}  # sheets read and not written since: one round trip each
        self._sheets: dict[str, Any] | None = None  # name -> sheet (xlwings finds a name by a scan)
        self._names: list[str] | None = None  # the sheet names, with the sheets to add
        self._added: list[tuple[str, str | None]] = []  # sheets to add, in order: (name, after)
        self._values: dict[str, dict[int, dict[int, Any]]] = {}  # cells to write, by sheet: row -> col -> value
        self._fills: dict[str, dict[tuple[int, int], str | None]] = {}  # fills to set, by sheet
        self._formats: list[tuple[str, Area, str]] = []  # number formats to set
        self._fonts: list[tuple[str, Area, str, Any]] = []  # (sheet, area, property, value)
        self._frozen: list[tuple[str, str]] = []  # (sheet, the frozen cells)
        self._shown: tuple[str, str] | None = None  # the sheet to show, with its selected cell
        self._alerts: list[str] = []
        self._remote = _is_remote(book)

    def sheet_names(self) -> list[str]:
        if self._names is None:  # a recalculation asks often; only add_sheet changes them
            self._names = [s.name for s in self.book.sheets]
        return list(self._names)

    def _sheet(self, name: str) -> Any:
        if self._sheets is None:
            self._sheets = {s.name: s for s in self.book.sheets}
        found = self._sheets.get(name)
        return found if found is not None else self.book.sheets[name]

    def _read(self, sheet: str) -> Grid:
        ws = self._sheet(sheet)
        last = ws.used_range.last_cell
        if self._remote:
            return trimmed([[_office_js_value(v) for v in line] for line in _raw(ws, last.row, last.column)])
        values = ws.range((1, 1), (last.row, last.column)).options(ndim=2).value
        return trimmed([[_clean(v) for v in row] for row in values])

    def write(self, sheet: str, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
        """Write only what changes: the smallest block holding every cell whose value
        differs from what the sheet holds (as read, or as written since); nothing when
        nothing changes (a second click writes no cell).  The cells wait until
        :meth:`flush`, which sends contiguous cells as one range; a date gets its number
        format there (``DATE_FORMAT``: Excel shows a date's number as its format says)."""
        block = rectangular([_cleaned(line) for line in values])
        if not block or not block[0]:
            return
        known = self._grids.get(sheet)
        if known is None:
            known = self._grids[sheet] = self._read(sheet)
        span = _changed_span(known, row, col, block)
        if span is None:
            return
        top, left, bottom, right = span
        pending = self._values.setdefault(sheet, {})
        columns = range(col + left, col + right + 1)
        for r in range(top, bottom + 1):
            pending.setdefault(row + r, {}).update(zip(columns, block[r][left:right + 1]))
        _put(known, row + top, col + left, [line[left:right + 1] for line in block[top:bottom + 1]])

    def fill(self, sheet: str, row: int, col: int, colour: str | None) -> None:
        """Set at :meth:`flush`: cells of one colour that form a rectangle are one range."""
        self._fills.setdefault(sheet, {})[(row, col)] = colour

    def add_sheet(self, name: str, after: str | None = None) -> None:
        names = self.sheet_names()
        names.insert(names.index(after) + 1 if after in names else len(names), name)
        self._names = names
        self._added.append((name, after))
        self._grids[name] = []  # a new sheet is empty

    def activate(self, sheet: str, cell: str = "A1") -> None:
        """Show ``sheet`` with ``cell`` selected, after the values (Office.js: activate, then select)."""
        self._shown = (sheet, cell)

    def lay_out(self, sheet: str, layout: Layout) -> None:
        """The look every xlwings-server release can give a sheet: title and header type, header
        and input fills, number formats, frozen panes.  Not sent (docs/install.md, docs/printing.md):
        column widths (no action sets them before 1.13.0; Lite documents no ``Sheet.autofit``),
        hiding a sheet, the print setup, input rules."""
        for row, col in ((1, 1),) * layout.title + layout.titles:
            self._fonts += [(sheet, (row, col, 1, 1), "bold", True), (sheet, (row, col, 1, 1), "size", 14)]
        self._fonts += [(sheet, (row, col, 1, 1), "bold", True) for row, col in layout.bold]
        for area in layout.headers():
            self._fonts += [(sheet, area, "bold", True), (sheet, area, "color", layout.header_font)]
            self._fill_area(sheet, area, layout.header_fill)
        self._formats += [(sheet, area, number_format) for area, number_format in layout.number_formats]
        for area, colour in layout.fills:
            self._fill_area(sheet, area, colour)
        if layout.freeze is not None:
            row, col = layout.freeze  # Excel wants the frozen cells themselves: A1:C1 for D2
            if row > 1 or col > 1:
                self._frozen.append((sheet, f"A1:{column_letter(col - 1)}{row - 1}" if row > 1 and col > 1 else
                                     f"1:{row - 1}" if row > 1 else f"A:{column_letter(col - 1)}"))

    def _fill_area(self, sheet: str, area: Area, colour: str) -> None:
        row, col, nrows, ncols = area
        for r in range(row, row + nrows):
            for c in range(col, col + ncols):
                self.fill(sheet, r, c, colour)

    def alert(self, message: str) -> None:
        """Shown after everything else (:meth:`flush`)."""
        self._alerts.append(message)

    def flush(self) -> None:
        """Send what waits, in the order where a failure can only come before any value is
        written: the sheets to add, number formats (a date's too), fonts, frozen panes, fills;
        then the values (one range per rectangle of contiguous cells, the last value given to
        a cell winning); then the sheet to show; the alert last.  Fills: the colour of most
        cells first over every filled cell, the other colours over it."""
        added, values, fills = self._added, self._values, self._fills
        formats, fonts, frozen, shown, alerts = self._formats, self._fonts, self._frozen, self._shown, self._alerts
        self._added, self._values, self._fills, self._formats, self._fonts, self._frozen = [], {}, {}, [], [], []
        self._shown, self._alerts = None, []
        sheets = self.book.sheets
        for name, after in added:
            names = [s.name for s in sheets]
            sheets.add(name, after=sheets[names.index(after) if after in names else len(sheets) - 1])
        if added:
            self._sheets = None
        for sheet, rows in values.items():  # a date's number shows as a date only with its format
            for (top, left, bottom, right), number_format in _date_areas(rows):
                formats.append((sheet, (top, left, bottom - top + 1, right - left + 1), number_format))
        steps = [lambda s=sheet, a=area, f=number_format: setattr(self._range(s, a), "number_format", f)
                 for sheet, area, number_format in formats]
        steps += [lambda s=sheet, a=area, p=prop, v=value: setattr(self._range(s, a).font, p, v)
                  for sheet, area, prop, value in fonts]
        steps += [lambda s=sheet, c=cells: self._sheet(s).freeze_panes.freeze_at(c) for sheet, cells in frozen]
        for step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001 - classic xlwings runs each step at once: a host without one
                pass  # of these operations (e.g. frozen panes) keeps the rest of the look and the values
        for sheet, cells in fills.items():
            for colour, (top, left, bottom, right) in _fill_areas(cells):
                self._range(sheet, (top, left, bottom - top + 1, right - left + 1)).color = colour
        for sheet, rows in values.items():
            ws = self._sheet(sheet)
            for top, left, bottom, right in _rectangles(rows):
                part = [[_sent(rows[r][c], self._remote) for c in range(left, right + 1)]
                        for r in range(top, bottom + 1)]
                target = ws.range((top, left), (bottom, right))
                if self._remote:  # what xlwings' conversion sends, without its pass over the whole sheet per range
                    target.raw_value = part
                else:
                    target.value = part
        if shown is not None:
            ws = self._sheet(shown[0])
            ws.activate()
            ws.range(shown[1]).select()
        for message in alerts:
            try:
                self.book.app.alert(message, title="xlbridge")
            except Exception:  # noqa: BLE001 - a book without an app (a stand-in) shows no message box
                pass

    def _range(self, sheet: str, area: Area) -> Any:
        row, col, nrows, ncols = area
        return self._sheet(sheet).range((row, col), (row + nrows - 1, col + ncols - 1))


def _is_remote(book: Any) -> bool:
    """Whether ``book`` is xlwings' Office.js book (xlwings Lite, xlwings Server): its
    writes are actions in a JSON reply."""
    try:
        return book.app.engine.type == "remote"
    except Exception:  # noqa: BLE001 - a book without an engine (a stand-in) is not remote
        return False


#: Per grid xlwings gave a read (its id): how many columns wider to read when it gives that
#: grid again (:func:`_raw`).
_GIVEN: dict[int, int] = {}


def _raw(ws: Any, last_row: int, last_col: int) -> Any:
    """A1 to (``last_row``, ``last_col``) of an Office.js sheet as Excel sent it
    (``Range.raw_value``).  xlwings keeps every range it read in a cache keyed by the
    sheet's values (``functools.lru_cache``, kept between clicks), and Python takes
    ``1 == True``, ``0 == False``: a sheet that differs from one read in an earlier
    click only by TRUE where 1 was would read as that earlier sheet.  Such a grid
    comes back as the very object given before; then the same cells are read as a
    range one column wider (a key not read before), which gives this sheet's own
    values (the extra column is empty: :func:`trimmed` drops it)."""
    raw = ws.range((1, 1), (last_row, last_col)).raw_value
    extra = 0
    while id(raw) in _GIVEN:
        extra = _GIVEN[id(raw)]
        _GIVEN[id(raw)] = extra + 1
        raw = ws.range((1, 1), (last_row, last_col + extra)).raw_value
    _GIVEN[id(raw)] = extra + 1
    return raw


#: xlwings' Office.js client sends a date as JavaScript's ISO text ("2025-09-18T00:00:00.000Z")
_ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


def _office_js_value(value: Any) -> Any:
    """A value of an Office.js payload as a cell holds it: ``""`` an empty cell, ISO text
    a date (as xlwings converts it); text, numbers and flags as they came.  An error
    value stays its code ("#REF!"), as openpyxl reads it headless (``workbooks/typed_checks.py``)."""
    if type(value) is not str:
        return value
    if value == "":
        return None
    if value[0] in _DIGITS and _ISO.fullmatch(value):
        try:
            return dt.datetime.fromisoformat(value[:-1])
        except ValueError:  # text that only looks so ("2025-13-45T..."): text
            return value
    return value


_DIGITS = frozenset("0123456789")


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
    layered = [(base, area) for area in rectangles(cells)]
    layered += [(colour, area) for colour, rows in by_colour.items() if colour != base for area in _rectangles(rows)]
    return layered if len(layered) < len(own) else own


_PLAIN = frozenset({str, int, bool, type(None)})


def _cleaned(line: Sequence[Any]) -> list[Any]:
    """``_clean_value_for_write`` of each value (the common types without a call)."""
    return [v if type(v) in _PLAIN or (type(v) is float and v == v) else _clean_value_for_write(v)  # NaN != NaN
            for v in line]


#: What makes Excel take typed text for something else: a formula, a number (also "(5)", "$5", ".5",
#: "5%", "1,5" in a decimal-comma locale), an error value, a date or a time (any text with a
#: digit may be one: "1-2", "Dec 31", "20:00"), and a leading apostrophe, which Excel drops.
_RETYPED_START = frozenset("=+-@#'(.$€£¥%")
_DIGIT = re.compile(r"\d")
#: The flags Excel reads in the workbooks' languages (en, nl, it, sv, tr).
_FLAGS = frozenset({"TRUE", "FALSE", "WAAR", "ONWAAR", "VERO", "FALSO", "SANT", "FALSKT", "DOĞRU", "YANLIŞ"})


def excel_would_convert(text: str) -> bool:
    """Whether Excel could take ``text`` written through ``range.values`` (as if typed)
    for anything but this text: Office.js parses it as the scorer's Excel would
    (OfficeDev/office-js issue 229: "2018-12-31" becomes a date).  Deliberately wide:
    text it names is written with Excel's text prefix, which keeps any text as it is."""
    stripped = text.strip()
    return bool(stripped) and (stripped[0] in _RETYPED_START or _DIGIT.search(stripped) is not None
                               or stripped.upper() in _FLAGS)


def _sent(value: Any, remote: bool) -> Any:
    """A cleaned value as the adapter sends it: text Excel would read as something else
    with Excel's text prefix; on Office.js an empty cell as ``""`` and a date as its
    day number (Excel would parse a date's text by the reader's locale)."""
    if type(value) is str:
        return "'" + value if excel_would_convert(value) else value  # (Excel's text prefix is not stored)
    if not remote:
        return value
    if value is None:
        return ""
    if type(value) is dt.datetime:
        return day_number(value)
    return value


def day_number(moment: dt.datetime) -> float:
    """Excel's day number of ``moment`` (a time as the fraction of its day)."""
    return (moment - EXCEL_EPOCH) / dt.timedelta(days=1)


def _date_areas(rows: dict[int, dict[int, Any]]) -> list[tuple[tuple[int, int, int, int], str]]:
    """The rectangles of the dates among cells to write, with their number format."""
    by_format: dict[str, dict[int, dict[int, None]]] = {}
    for r, cols in rows.items():
        for c, v in cols.items():
            if type(v) is dt.datetime:
                number_format = DATE_FORMAT if v.time() == dt.time() else DATETIME_FORMAT
                by_format.setdefault(number_format, {}).setdefault(r, {})[c] = None
    return [(area, number_format) for number_format, cells in by_format.items() for area in _rectangles(cells)]


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
    """Whether a cell holding ``old`` (as read) already shows ``new`` (as written): a date
    also when it was read as its day number (xlwings-server up to 1.16 sends a date in a
    format of its own, such as ``yyyy-mm-dd``, so)."""
    if old is None or new is None:
        return old is None and new is None
    if type(new) is dt.datetime and _is_number(old):
        return same_number(old, day_number(new))
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new) and old == new
    if _is_number(old) and _is_number(new):
        return same_number(old, new)
    return type(old) is type(new) and old == new


def _put(grid: Grid, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
    """Record written ``values`` in a known grid (1-based corner), growing it as needed."""
    for r, line in enumerate(values):
        while len(grid) < row + r:
            grid.append([])
        target = grid[row + r - 1]
        if len(target) < col + len(line) - 1:
            target.extend([None] * (col + len(line) - 1 - len(target)))
        target[col - 1:col - 1 + len(line)] = line
