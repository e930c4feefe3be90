"""``xlbridge recalc`` on a workbook that needs nothing: read with python-calamine, nothing written.

Most runs of ``xlbridge recalc`` find every computed cell up to date.  Loading the file
with openpyxl and saving it again costs most of such a run (Heeg 16x: 7.0 s + 7.4 s of
19.4 s; docs/performance.md), so :func:`unchanged_report` first runs the very same
recalculation (:func:`xlbridge.workbooks.recalc.recalculate_and_list`) on :class:`CalamineBook`,
a read-only adapter over python-calamine (a Rust reader) that keeps every write it is
asked for and notes whether one would change a cell.  When none would -- no computed
cell, no record, no sheet, no Corrections row, no Messages line, no warning -- that recalculation's
:class:`~xlbridge.workbooks.plan.Report` is the run's, and the file is not touched.

Anything else returns ``None`` and the caller takes the openpyxl path as it always did:
a write that changes a cell, any problem or warning (their messages come from that
path), and whatever the two readers could give differently, found before calamine
reads a value (:func:`differs_from_openpyxl`): a formula (openpyxl reads its text,
calamine its last value), an error value, an ISO date cell, a number kept as ``6.0`` or
with an exponent or of 16 digits and more (openpyxl keeps int and float apart, calamine
reads a float), a text where a number belongs, a text inline in a cell of another type,
escaped or phonetic text, text with white space at an end that the file does
not mark as kept (calamine trims it), a cell a merged area covers holding a value
(openpyxl empties it; a caption merged over its table covers empty cells only), the 1904
date system, a built-in East Asian date format (calamine reads a date, openpyxl its
number), a chart sheet or macro sheet, a sheet whose references reach beyond the
bounds openpyxl's reader keeps to or are written so that they cannot be counted, shared
strings that say they are more than they are (calamine makes room for them first: a stray
value at XFD1048576 would stop the process); and after it, a time, a duration, a date
before 1 March 1900 or with a fraction of a second, a number beyond the last date (shown
as a date, openpyxl reads it as ``#VALUE!``).  The caller has checked the file against the
memory budget (:mod:`xlbridge.files.budget`) first.

The look (fills, number formats, widths) is not read: a recalculation that changes no
value leaves the look as the last one that did left it (docs/architecture.md).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Sequence
from typing import Any

from xlbridge.files.package import REL_STYLES, Package, resolve
from xlbridge.workbooks.book import Grid, Layout, _clean_value_for_write, _is_number, _ReadOnce, same_number, trimmed
from xlbridge.workbooks.openpyxl_book import within_bounds
from xlbridge.workbooks.plan import Report
from xlbridge.workbooks.record import Record, read_record
from xlbridge.workbooks.write import _same as same  # the diff's comparison of a computed cell
from xlbridge.workbooks.localised import Localised, language_of, localised

#: What openpyxl and calamine read differently, in a worksheet's or the shared strings' XML: a formula, phonetic
#: text, a number kept as "6.0", with an exponent or of 16 digits and more, a value with anything else than
#: digits, a point and signs (a text or white space where a number belongs: calamine reads the text, openpyxl
#: refuses the file or reads the number) or with a comment or CDATA; an error value or an ISO date cell; escaped
#: text.  (Three searches, each with a literal start: one with alternatives costs five times more.)
_TAGS = re.compile(rb"<(?:f[\s>/]|rPh\b|v>(?:-?\d+\.0*<|-?\d{16}|[^<]*(?:[^\d.<+-]|<!)))")
_TYPES = re.compile(rb"t\s*=\s*[\"'][ed][\"']")
_ESCAPED = re.compile(rb"_x[0-9A-Fa-f]{4}_")
#: A text not marked ``xml:space="preserve"`` that starts or ends with white space (or a character reference, a
#: comment or CDATA that may be one): calamine trims it, openpyxl keeps it.
_UNKEPT = re.compile(rb"<t(?:>|\s(?![^>]*preserve)[^>]*>)(?:[\s&]|<(?!/t>)|[^<]*(?:[\s;]</t>|<!))")
#: A merged area, and a cell that holds a value, its reference wherever among its attributes and in either case
#: (:func:`_covered_hold_values`).
_MERGED = re.compile(rb"<mergeCell\b[^>]*\bref=[\"']([A-Z]{1,3})(\d+):([A-Z]{1,3})(\d+)[\"']")
_VALUED = re.compile(rb"<c\s(?:[^>]*?\s)?r=[\"']([A-Za-z]{1,3}\d+)[\"'](?:\s[^>]*[^/>])?>\s*<(?:v|is)\b")
_MAX_MERGED_CELLS = 1000  # covered cells listed; more: the openpyxl path
_DATE1904 = re.compile(rb"\bdate1904\s*=\s*[\"'](?!(?:0|false)[\"'])")  # (openpyxl takes "TRUE", "on" as set)
#: A built-in East Asian date format (ids 27-36 and 50-58, which Excel writes by number alone): calamine reads
#: the cell as a date, openpyxl, which does not know them, as its number.
_EAST_ASIAN_DATES = re.compile(rb"numFmtId\s*=\s*[\"'](?:2[7-9]|3[0-6]|5[0-8])[\"']")
#: A reference (attribute ``r`` of a cell or a row, written as Excel, LibreOffice and openpyxl write it); one
#: whose row has five digits or more, or whose column two letters or more: few, found fast (:func:`_may_reach_far`).
_REFERENCE = re.compile(rb""" r=["']([^"'0-9]*)([0-9]+)""")
_FAR_ROW = re.compile(rb""" r=["'][^"'0-9]*([0-9]{5,})""")
_FAR_COLUMN = re.compile(rb""" r=["']([^"'0-9]{2,})""")
_STRINGS_SAID = re.compile(rb"""\buniqueCount\s*=\s*["']\s*([0-9]+)""")
_TAG_AND_SPACE = re.compile(rb"<(?:c|row)[\t\r\n]")
_MAIN = b"openxmlformats.org/spreadsheetml/2006/main"  # (the namespace of cells and strings)
_FIRST_TRUE_DATE = dt.datetime(1900, 3, 1)  # before it, Excel's day numbers count a 29 February 1900
_LAST_DATE = 2_958_465  # 31 December 9999, Excel's last day


class NotFast(Exception):
    """The fast reader cannot answer as openpyxl would: take the openpyxl path."""


class Changes(NotFast):
    """The recalculation would change the workbook: the openpyxl path writes it."""


def differs_from_openpyxl(data: bytes) -> bool:
    """Whether the workbook (its bytes) holds anything calamine reads otherwise than openpyxl."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        package = Package(archive)
        book = package.workbook()
        if _DATE1904.search(package.read(book) or b""):
            return True
        styles = [resolve(book, rel.target) for rel in package.rels(book) if rel.type == REL_STYLES]
        if any(_EAST_ASIAN_DATES.search(package.read(part) or b"") for part in styles):
            return True
        sheets = set(package.sheets().values())
        strings = [n for n in package.names if n.lower() == "xl/sharedstrings.xml"]
        return (any(_sheet_differs(package.read(part) or b"") for part in sheets)
                or any(_strings_differ(package.read(part) or b"") for part in strings))


def _read_otherwise(data: bytes) -> bool:
    """What a sheet and the shared strings can both hold that the two readers read otherwise."""
    if b"<sheetData" not in data and b"<sst" not in data or data.count(_MAIN) > 1:  # elements with a prefix (or
        return True  # the namespace bound to one as well): not searched for
    return bool(_TAGS.search(data) or _TYPES.search(data) or b"_x" in data and _ESCAPED.search(data)
                or _UNKEPT.search(data))


def _sheet_differs(sheet: bytes) -> bool:
    """:func:`differs_from_openpyxl` for a worksheet's XML; also an inline text (``<is>``) in a cell not of the
    type ``inlineStr`` (openpyxl reads it only in a cell of that type, calamine in any)."""
    return (_read_otherwise(sheet) or b"<mergeCell" in sheet and _covered_hold_values(sheet)
            or _may_reach_far(sheet) or sheet.count(b"<is") > sheet.count(b"inlineStr"))


def _strings_differ(strings: bytes) -> bool:
    """:func:`differs_from_openpyxl` for the shared strings' XML."""
    return _read_otherwise(strings) or _strings_miscounted(strings)


def _may_reach_far(sheet: bytes) -> bool:
    """Whether the sheet's cells may reach beyond the bounds openpyxl's reader keeps to
    (:func:`~xlbridge.workbooks.openpyxl_book.within_bounds`; the openpyxl path says where).  calamine
    makes a sheet's grid whole, from its first position to its last, before it gives a value: a stray
    value at XFD1048576 asks for 17 billion cells, and the process is stopped, not told.  Declined as
    well: a reference written otherwise than `` r="..."`` (or with ``'``) after its tag's name."""
    references = sheet.count(b' r="') + sheet.count(b" r='")
    if references != sheet.count(b"<c ") + sheet.count(b"<row ") or _TAG_AND_SPACE.search(sheet):
        return True
    if _within(_FAR_ROW.findall(sheet), 9_999, _FAR_COLUMN.findall(sheet), 26):  # the few far ones: enough
        return False
    found = _REFERENCE.findall(sheet)  # every reference: the extent itself
    return len(found) != references or not _within([row for _, row in found], 0, [c for c, _ in found if c], 0)


def _strings_miscounted(strings: bytes) -> bool:
    """Whether the shared strings say they are more than they are (``uniqueCount``): calamine makes room
    for as many as they say before it reads one (four billion: the process is stopped, not told)."""
    start = strings.find(b"<sst")  # (there is one: checked before)
    said = _STRINGS_SAID.findall(strings, start, strings.find(b">", start))
    held = strings.count(b"<si")
    return any(len(number) > len(str(held)) or int(number) > held for number in said)  # (int(): 4,300 digits)


def _within(rows: list[bytes], most_rows: int, columns: list[bytes], most_columns: int) -> bool:
    """Whether references of these ``rows`` and ``columns`` (as found; ``most_...``: at least) are in bounds."""
    from openpyxl.utils.cell import column_index_from_string

    try:
        columns_at = max((column_index_from_string(c.decode("ascii").replace("$", "").upper()) for c in set(columns)),
                         default=most_columns)
        rows_at = max(max(map(int, rows), default=0), most_rows)
    except ValueError:  # not a column (more than three letters, or not letters), or a row of 4,300 digits and more
        return False
    return within_bounds(rows_at, columns_at)


def _covered_hold_values(data: bytes) -> bool:
    """Whether a cell a merged area covers (not its top-left one) holds a value in the sheet's XML (openpyxl
    empties it, calamine reads it), or the merges are too many to check or not understood."""
    from openpyxl.utils.cell import column_index_from_string, get_column_letter

    areas = _MERGED.findall(data)
    if len(areas) != data.count(b"<mergeCell "):
        return True
    cells = []
    for first_col, first_row, last_col, last_row in areas:
        cols = range(column_index_from_string(first_col.decode()), column_index_from_string(last_col.decode()) + 1)
        rows = range(int(first_row), int(last_row) + 1)
        cells += [f"{get_column_letter(c)}{r}" for r in rows for c in cols][1:]
        if len(cells) > _MAX_MERGED_CELLS:
            return True
    valued = {m.group(1).decode().upper() for m in _VALUED.finditer(data)}  # (one pass over the sheet)
    return any(cell in valued for cell in cells)


def _value(value: Any) -> Any:
    """A calamine value as openpyxl reads it (a whole number an int, a date a datetime)."""
    kind = type(value)
    if (kind is float or kind is int) and abs(value) > _LAST_DATE:
        raise NotFast("a number beyond the last date: openpyxl reads #VALUE! when a date format shows it")
    if kind is float:
        return int(value) if value.is_integer() else value  # the XML held no "6.0": checked before
    if kind is str:
        return value or None
    if kind is int or kind is bool:
        return value
    if kind is dt.date:
        value = dt.datetime(value.year, value.month, value.day)
    if type(value) is dt.datetime and value >= _FIRST_TRUE_DATE and not value.microsecond:
        return value
    raise NotFast(f"a value calamine and openpyxl may read differently: {value!r}")


class CalamineBook(_ReadOnce):
    """A read-only :class:`~xlbridge.workbooks.book.BookAdapter` over a python-calamine workbook:
    it reads as :class:`~xlbridge.workbooks.openpyxl_book.OpenpyxlBook` does and writes nothing:
    the first write that would change the workbook raises :class:`Changes`."""

    def __init__(self, workbook: Any):
        from python_calamine import SheetTypeEnum, SheetVisibleEnum

        self.wb = workbook
        self._grids: dict[str, Grid] = {}
        meta = workbook.sheets_metadata
        if any(m.typ != SheetTypeEnum.WorkSheet for m in meta):
            raise NotFast("a chart sheet or macro sheet")
        self._names = [m.name for m in meta]
        self._hidden = {m.name for m in meta if m.visible == SheetVisibleEnum.Hidden}

    def sheet_names(self) -> list[str]:
        return list(self._names)

    def _read(self, sheet: str) -> Grid:
        try:
            lines = self.wb.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
        except (OverflowError, ValueError) as error:  # a date beyond Python's (calamine: an OverflowError)
            raise NotFast(str(error)) from None
        grid = trimmed([[_value(v) for v in line] for line in lines])
        if not within_bounds(len(grid), len(grid[0]) if grid else 0):
            raise NotFast("far-out values")  # the openpyxl path says where
        return grid

    def grid(self, sheet: str) -> Grid:
        """The sheet's grid as read (not a copy: not to be changed)."""
        grid = self._grids.get(sheet)
        if grid is None:
            grid = self._grids[sheet] = self._read(sheet)
        return grid

    def write(self, sheet: str, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
        grid = self.grid(sheet) if sheet in self._names else []
        for r, line in enumerate(values, start=row):
            held = grid[r - 1] if r <= len(grid) else []
            same = held[col - 1:col - 1 + len(line)]
            if same == line and bool not in set(map(type, line)) | set(map(type, same)):
                continue  # (== is _holds but for a flag against a number; a date against a datetime differs)
            for c, value in enumerate(line, start=col):
                if not _holds(held[c - 1] if c <= len(held) else None, _clean_value_for_write(value)):
                    raise Changes

    def fill(self, sheet: str, row: int, col: int, colour: str | None) -> None:
        pass  # the look: see the module docstring

    def add_sheet(self, name: str, after: str | None = None) -> None:
        raise Changes

    def lay_out(self, sheet: str, layout: Layout) -> None:
        if layout.hidden and sheet not in self._hidden:
            raise Changes  # the record's sheet shown (or very hidden): hidden again

    def alert(self, message: str) -> None:
        pass  # a message box changes no cell

    def activate(self, sheet: str, cell: str = "A1") -> None:
        raise Changes


def _holds(old: Any, value: Any) -> bool:
    """Whether a cell read as ``old`` already holds ``value`` (as OpenpyxlBook decides; a date's
    number format is the look)."""
    if value is None or old is None:
        return value is None and old is None
    if _is_number(value):
        return _is_number(old) and same_number(old, value)
    return type(old) is type(value) and old == value


def unchanged_report(data: bytes, **recalc: Any) -> Report | None:
    """The report of a recalculation (``recalculate_and_list(book, **recalc)``) of the workbook whose bytes
    are ``data`` when it would change nothing, read with python-calamine; ``None`` when it
    would, or when only the openpyxl path can tell (see the module docstring)."""
    from python_calamine import CalamineWorkbook

    from xlbridge.workbooks.recalc import recalculate_and_list

    try:
        if differs_from_openpyxl(data):  # (first: it also finds what would make calamine's grid huge)
            return None
        book = CalamineBook(CalamineWorkbook.from_filelike(io.BytesIO(data)))
        last = read_record(localised(book, recalc.get("language") or language_of(book)))
        if typed_since(book, recalc.get("language"), last):
            return None
        report = recalculate_and_list(book, record=last, **recalc)  # (the record read once)
    except Exception:  # noqa: BLE001 - NotFast, a BookInputError, whatever calamine cannot read: openpyxl reports
        return None  # as it always did
    if report.changes or report.typed or report.warnings:  # (a message box changes no cell)
        return None
    return report


def typed_since(book: CalamineBook, language: str | None = None,
                last: tuple[Record | None, list] | None = None) -> bool:
    """Whether a cell was typed since the last recalculation, as its record tells without a plan:
    a recorded typed value gone or changed (then the recalculation lists it on Corrections), more
    or fewer cells holding a value than the record has (a value typed in an empty cell, a computed
    one emptied), or a computed cell holding another value than it recorded (typed over).
    ``False`` when it cannot tell: the recalculation tells.  ``last``: the record as
    :func:`~xlbridge.workbooks.record.read_record` read it (read here when not given)."""
    view = localised(book, language or language_of(book))
    record, _ = read_record(view) if last is None else last
    if record is None:
        return False
    names = set(view.sheet_names())
    for sheet in record.sheets:
        if sheet not in names:
            return True
        grid = book.grid(view.local(sheet) if isinstance(view, Localised) else sheet)
        typed = record.typed(sheet)
        for (r, c), old in typed.items():
            now = grid[r - 1][c - 1] if r <= len(grid) and c <= len(grid[r - 1]) else None
            if now is None or type(old) in (int, float, str, bool) and not _holds(now, old):
                return True
        written = {**record.computed(sheet), **record.views(sheet)}
        values = list(written.values())
        if sum(len(line) - line.count(None) for line in grid) != len(typed) + len(values) - values.count(None):
            return True
        for (r, c), old in written.items():  # a computed cell typed over: written back
            now = grid[r - 1][c - 1] if r <= len(grid) and c <= len(grid[r - 1]) else None
            if type(old) in (int, float, str, bool, type(None)) and not same(now, old):
                return True
    return False
