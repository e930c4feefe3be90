"""The record of the last recalculation, kept in the workbook itself (issue 16, points 2 and 5).

A recalculation compares each computed cell with its new value (:func:`~xlbridge.workbooks.write.diff`);
without a memory it cannot tell a value that changed because the scorer changed a
typed cell from a value the scorer typed over a computed cell.  So every recalculation
ends by writing what it leaves behind into a hidden sheet named :data:`RECORD`
(``xlbridge``, the same in every language: it is the program's, not the club's):

- the value of every non-empty **typed** cell (every cell of a recorded sheet that the
  plan does not write), and
- the value of every **audited computed** cell (a :class:`~xlbridge.workbooks.plan.Block`
  with ``audit=True``) as xlbridge wrote it, and of every cell of a **view** (``audit=False``:
  standings, sorted results, the chart's table) as xlbridge left it.

The next recalculation reads it back and tells (:func:`xlbridge.workbooks.changes.compare`):

1. which typed cells changed since (sheet, cell, old -> new): the scorer's changes,
   listed first on the Corrections sheet;
2. which computed cells (audited or views) hold a value other than the one xlbridge wrote: typed
   over by someone -- a warning at the cell, the typed value kept on Corrections
   (docs/clubs/heeg.md §11.6).

The record is JSON (compact: floats of computed cells to 10 significant digits), cut into
cells of at most :data:`CHUNK` characters down column A from A2 (Excel holds 32,767
characters in a cell); A1 says what the sheet is.  Sheets left out: the Messages and
Corrections sheets, the record itself and the kind's ``never_read`` sheets (How to, the
blank tournament).  A built workbook (``xlbridge new``, the shipped files and templates)
holds the record of its own recalculation (:func:`xlbridge.excel.shipped.built`), so the
scorer's first change already counts as one.  A missing record (a deleted sheet) is "no record"; a
damaged one (a scorer unhid it and typed in it) is also "no record", with a warning that says so; a new
record is written either way.  The record names the kind it was made for; one that is not this
workbook's (another kind's, or one most of whose typed values differ from the cells: a record copied from
another workbook) or larger than :data:`MAX_RECORD_CELLS` /
:data:`MAX_RECORD_TEXT` is set aside with a warning, never turned into "your change" rows
(:func:`foreign`; docs/reliability.md, "The record").  The record holds no time:
recalculating an unchanged workbook writes the same record, i.e. no cell.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from typing import Any

from xlbridge.language import N_, _
from xlbridge.values import EXCEL_EPOCH, day_of
from xlbridge.workbooks.book import Area, BookAdapter, Layout
from xlbridge.workbooks.plan import Plan, LocatedProblem, at
from xlbridge.workbooks.write import RECORD_SHEET
from xlbridge.workbooks.write import _same as same

__all__ = ["RECORD", "CHUNK", "Record", "Rows", "moved_rows", "read_record", "make_record", "write_record", "same_cell", "Date",
           "foreign", "note_new_sheet", "TYPED", "TYPED_OVER", "TYPED_OVER_CODE", "DAMAGED_CODE", "FOREIGN_CODE",
           "TOO_LARGE_CODE", "MAX_RECORD_TEXT", "MAX_RECORD_CELLS", "FOREIGN_MIN"]

#: The record's sheet: the program's name, in every language (it is never translated, so
#: it is recognised whatever the workbook's language).
RECORD = RECORD_SHEET
#: At most this many characters of the record in one cell (Excel's limit is 32,767).
CHUNK = 30000
_VERSION = 1
#: A1 of the record sheet (a scorer who unhides it reads what it is).
TITLE = N_("xlbridge: what the last recalculation left (kept by xlbridge; do not edit: a changed record counts as "
           "none)")
#: Sheets never recorded (by their English names).
_NOT_RECORDED = ("Messages", "Corrections", RECORD)
#: The cause of a row on the Corrections sheet (column "Cause").
TYPED = N_("your change")
TYPED_OVER = N_("typed over a computed cell")
TYPED_OVER_CODE = "recalc.typed-over"
DAMAGED_CODE = "recalc.record-damaged"
FOREIGN_CODE = "recalc.record-foreign"
TOO_LARGE_CODE = "recalc.record-too-large"
#: The most a record may hold (docs/reliability.md, "The record"): characters and cells (typed, computed and
#: views).  A 16x Heeg season, the largest workbook measured, records 317,579 cells in 2.8 million characters.
MAX_RECORD_TEXT = 32_000_000
MAX_RECORD_CELLS = 2_000_000
#: A record is another workbook's when more than half of the typed values it holds differ from the cells now,
#: and more than this many do (fewer: a scorer's corrections, listed as such).
FOREIGN_MIN = 20

Cells = dict[tuple[int, int], Any]
MAX_ROW, MAX_COL = 1_048_576, 16_384  # Excel's last cell
_INFINITE = (math.inf, -math.inf)


class Record:
    """What a recalculation left, per sheet (English name): ``{"t": runs, "c": blocks}`` --
    the typed cells as runs ``[row, col, [value, ...]]`` of non-empty cells side by side,
    the audited computed cells as blocks ``[row, col, [[value, ...], ...]]`` as the plan
    wrote them (JSON-ready: a date is ``{"d": iso}``).  :meth:`typed` and :meth:`computed`
    give one sheet's cells as ``{(row, col): value}``."""

    def __init__(self, sheets: dict[str, dict[str, list]], kind: str):
        self.sheets = sheets
        self.kind = kind  # the workbook kind it was made for
        self._typed: dict[str, Cells] = {}
        self._computed: dict[str, Cells] = {}
        self._views: dict[str, Cells] = {}

    def dumps(self) -> str:
        data = {"v": _VERSION, "k": self.kind, "s": self.sheets}
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> Record:
        """Raises ValueError (or KeyError, TypeError) on anything but a record this release wrote."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("v") != _VERSION or not isinstance(data.get("s"), dict) \
                or not isinstance(data.get("k"), str):
            raise ValueError("not a record")
        record = cls(data["s"], data["k"])
        for name, sheet in record.sheets.items():
            record.typed(name)  # checked now: a damaged record counts as none
            for r, c, rows in sheet["c"] + sheet.get("w", []):
                _check_cell(r, c)
                if not all(isinstance(line, list) for line in rows):
                    raise TypeError("no block")
        return record

    def cells(self) -> int:
        """How many cells it holds (typed, computed, views)."""
        return sum(len(self.typed(n)) + sum(len(line) for key in ("c", "w") for _r, _c, rows in sheet.get(key, ())
                                            for line in rows) for n, sheet in self.sheets.items())

    def typed(self, sheet: str) -> Cells:
        cells = self._typed.get(sheet)
        if cells is None:
            cells = self._typed[sheet] = {}
            for r, c, values in self.sheets.get(sheet, {}).get("t", ()):
                _check_cell(r, c)
                for i, v in enumerate(values):
                    cells[(r, c + i)] = _checked(v)
        return cells

    def computed(self, sheet: str) -> Cells:
        return self._cells(sheet, "c", self._computed)

    def is_new(self, sheet: str) -> bool:
        """Whether ``sheet`` was added since the last recalculation by New evening / New tournament
        (:func:`note_new_sheet`): xlbridge left its computed cells empty and none of its typed cells held
        a value."""
        return bool(self.sheets.get(sheet, {}).get("n"))

    def views(self, sheet: str) -> Cells:
        """The cells of the views (blocks never audited: standings, sorted results) as xlbridge left them."""
        return self._cells(sheet, "w", self._views)

    def same_as(self, other: Record) -> bool:
        """Whether ``other`` records the same cells with the same values, as the comparisons
        take them (a date and its day number alike: xlwings-server up to 1.16 sends a date in
        a format of its own as its number, so a click there records it so)."""
        if self.kind != other.kind:
            return False
        if self.sheets == other.sheets:  # (as made and as read back: the same lists; at once)
            return True
        if set(self.sheets) != set(other.sheets):
            return False
        for sheet in self.sheets:
            for cells in (Record.typed, Record.computed, Record.views):
                mine, theirs = _held(cells(self, sheet)), _held(cells(other, sheet))
                if mine.keys() != theirs.keys() or \
                        not all(same_cell(_checked(mine[key]), _checked(theirs[key])) for key in mine):
                    return False
        return True

    def _cells(self, sheet: str, key: str, cache: dict[str, Cells]) -> Cells:
        cells = cache.get(sheet)
        if cells is None:
            cells = cache[sheet] = {}
            for r, c, rows in self.sheets.get(sheet, {}).get(key, ()):
                for i, line in enumerate(rows):
                    for j, v in enumerate(line):
                        cells[(r + i, c + j)] = v  # (a later block over an earlier one: the later value)
        return cells


def _held(cells: Cells) -> Cells:
    """The cells that hold a value: a block written with empty rows at its end (a sheet of 20 pairs cut to 12, the
    8 rows emptied) is the same record as the 12 rows the next run writes (it was written again, and its backup
    replaced by the first run's output)."""
    return cells if None not in cells.values() else {key: value for key, value in cells.items() if value is not None}


def _check_cell(r: Any, c: Any) -> None:
    if not (type(r) is int and type(c) is int and 0 < r <= MAX_ROW and 0 < c <= MAX_COL):
        raise ValueError("not a cell")


def _encode(value: Any) -> Any:
    """A typed value as the record keeps it (exactly; a date as ``{"d": iso}``)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool:
        return value
    if kind is float:
        return None if value != value or value in _INFINITE else int(value) if value.is_integer() and abs(value) < 1e15 \
            else value
    if isinstance(value, (dt.date, dt.datetime)):
        return {"d": value.isoformat()}
    return None if value is None else str(value)


def _computed(value: Any) -> Any:
    """A computed value as the record keeps it (9 decimals: within the 1e-9 a comparison allows)."""
    if type(value) is float:
        if value != value or value in _INFINITE:
            return None
        return int(value) if value.is_integer() and abs(value) < 1e15 else round(value, 9)
    return value if value is None or type(value) in (str, int, bool) else _encode(value)


def _checked(value: Any) -> Any:
    """A recorded typed value (anything :func:`_encode` does not make: the record was changed)."""
    if isinstance(value, dict):
        if set(value) != {"d"}:
            raise ValueError("not a date")
        dt.datetime.fromisoformat(value["d"])
        return Date(value["d"])
    if value is not None and not isinstance(value, (bool, int, float, str)):
        raise TypeError("no cell value")
    return value


class Date(str):
    """A recorded date (as ISO text; compared with a date typed now by :func:`same_cell`)."""


def _recorded_sheets(book: BookAdapter, never_read: Iterable[str]) -> list[str]:
    skip = set(_NOT_RECORDED) | set(never_read)
    return [n for n in book.sheet_names() if n not in skip]


def read_record(book: BookAdapter) -> tuple[Record | None, list[LocatedProblem]]:
    """The record the last recalculation left (``None``: none), and a warning when it is damaged."""
    if RECORD not in book.sheet_names():
        return None, []
    grid = book.read(RECORD)
    parts = [line[0] if line else None for line in grid[1:]]
    while parts and parts[-1] is None:
        parts.pop()
    if sum(len(p) for p in parts if isinstance(p, str)) > MAX_RECORD_TEXT:
        return None, [_too_large()]
    try:
        if not parts or not all(isinstance(p, str) and p.startswith("~") for p in parts):
            raise ValueError("not a record")
        record = Record.loads("".join(p[1:] for p in parts))
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None, [at(RECORD, "A2", DAMAGED_CODE, N_(
            "the record of the last recalculation (the hidden sheet {sheet}) was changed, so this recalculation "
            "had none: it could not list which typed cells changed nor find values typed over computed cells; "
            "it wrote a new record"), sheet=RECORD)]
    return (None, [_too_large()]) if record.cells() > MAX_RECORD_CELLS else (record, [])


def _too_large() -> LocatedProblem:
    return at(RECORD, None, TOO_LARGE_CODE, N_(
        "the record of the last recalculation (the hidden sheet {sheet}) holds more than a record can ({cells:,} "
        "cells, {text:,} characters): it was set aside, so this recalculation could not list which typed cells "
        "changed nor find values typed over computed cells; it wrote a new record"), sheet=RECORD,
        cells=MAX_RECORD_CELLS, text=MAX_RECORD_TEXT)


class Rows:
    """Where the rows of the record are now: the scorer may have inserted or deleted rows (a pair added in the
    middle of the roster, an empty row among the pairs), and the cells below moved with them.  The rows of
    typed cells then and now are aligned as a diff aligns lines (:class:`difflib.SequenceMatcher`): a row
    the same or changed in place keeps its place in the alignment, an inserted row has no row then, a deleted
    one no row now; below the last typed row every row moved as much as the last one did."""

    def __init__(self, forward: dict[int, int] | None = None, shift: int = 0, last: int = 0):
        self._forward = forward
        self._backward = {n: o for o, n in forward.items()} if forward is not None else None
        self._shift, self._last = shift, last

    @classmethod
    def aligned(cls, before: dict[tuple[int, int], Any], now: dict[tuple[int, int], Any]) -> Rows:
        def lines(cells: dict[tuple[int, int], Any]) -> list[tuple]:
            by_row: dict[int, list] = {}
            for (r, c), value in cells.items():
                by_row.setdefault(r, []).append((c, type(value).__name__, str(value)))
            return [tuple(sorted(by_row.get(r, ()))) for r in range(1, max(by_row, default=0) + 1)]

        old, new = lines(before), lines(now)
        if len(old) == len(new) and all(a == b or 2 * len(set(a) & set(b)) > min(len(a), len(b))
                                        for a, b in zip(old, new)):
            return cls()  # every row the same, or changed in place (most of its cells kept): at once
        ops = SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
        if all(i1 == j1 and i2 == j2 for _tag, i1, i2, j1, j2 in ops):
            return cls()  # nothing inserted or deleted: every row where it was
        forward = {}
        for tag, i1, i2, j1, j2 in ops:
            if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):  # (changed in place)
                forward.update((i1 + k + 1, j1 + k + 1) for k in range(i2 - i1))
            elif tag == "replace":  # rows inserted or deleted among changed ones: the most cells in common
                forward.update((i + 1, j + 1) for i, j in _matched(old, new, range(i1, i2), range(j1, j2)))
        return cls(forward, len(new) - len(old), len(old))

    def new(self, row: int) -> int | None:
        """Where the record's ``row`` is now (``None``: deleted)."""
        if self._forward is None:
            return row
        return self._forward.get(row) if row <= self._last else row + self._shift

    def old(self, row: int) -> int | None:
        """Which row of the record ``row`` (now) was (``None``: inserted since)."""
        if self._backward is None:
            return row
        return self._backward.get(row) if row <= self._last + self._shift else row - self._shift


def _matched(old: list[tuple], new: list[tuple], olds: range, news: range) -> list[tuple[int, int]]:
    """The rows of ``olds`` and ``news`` paired in order so that they share the most cells (each pair at least
    one): a row changed and moved by a row inserted above it is still itself."""
    cells = [set(old[i]) for i in olds], [set(new[j]) for j in news]
    n, m = len(olds), len(news)
    best = [[0] * (m + 1) for _ in range(n + 1)]  # best[i][j]: the most shared cells of rows i.. and j..
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            shared = len(cells[0][i] & cells[1][j])
            best[i][j] = max(best[i + 1][j], best[i][j + 1], best[i + 1][j + 1] + shared if shared else 0)
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        shared = len(cells[0][i] & cells[1][j])
        if shared and best[i][j] == best[i + 1][j + 1] + shared:
            pairs.append((olds[i], news[j]))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def moved_rows(record: Record, now: Record) -> dict[str, Rows]:
    """Where the rows of each sheet whose typed cells changed since ``record`` are in ``now`` (:class:`Rows`);
    a sheet not in it: every row where it was."""
    return {sheet: Rows.aligned(record.typed(sheet), now.typed(sheet)) for sheet in now.sheets
            if sheet in record.sheets and record.sheets[sheet].get("t") != now.sheets[sheet].get("t")}


def foreign(record: Record, now: Record, kind: str, moves: dict[str, Rows] | None = None) -> LocatedProblem | None:
    """A warning when ``record`` is not a record of this workbook (``now``: the record of this run): made
    for another kind, or more than half of the typed values it holds (and more than :data:`FOREIGN_MIN`)
    differ from the cells now, each where its row went (``moves``: :func:`moved_rows`) -- a record copied
    from another workbook."""
    if record.kind == kind and all(record.sheets[s].get("t") == now.sheets[s].get("t")
                                   for s in now.sheets if s in record.sheets):
        return None  # the same typed runs: none differs (at once)
    differing = held = 0
    for sheet in now.sheets:
        if sheet not in record.sheets:
            continue
        before, cells, computed = record.typed(sheet), now.typed(sheet), record.computed(sheet)
        rows = (moved_rows(record, now) if moves is None else moves).get(sheet, Rows())
        for (r, c), old in before.items():  # (rows inserted or deleted since: each cell where it went)
            if old is not None and (r, c) not in computed:
                held += 1
                differing += not same_cell(old, cells.get((rows.new(r), c)))
    other_kind = record.kind != kind
    if not other_kind and (differing <= FOREIGN_MIN or 2 * differing <= held):
        return None
    return at(RECORD, None, FOREIGN_CODE, N_(
        "the record of the last recalculation (the hidden sheet {sheet}) is not this workbook's: it was made for "
        "another workbook (copied with its sheet), or more than half of the typed cells it holds were changed "
        "since ({differing} of {held}); it was set aside, so this recalculation lists no typed changes and no "
        "values typed over computed cells; it wrote a new record"), sheet=RECORD, differing=differing, held=held)


def _overlap(a: Area, b: Area) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _written(plan: Plan) -> tuple[dict[str, dict[int, set[int]]], dict[str, list[list[Any]]],
                                  dict[str, list[list[Any]]]]:
    """Per sheet: the columns the plan writes in each row, and its audited blocks as the record
    keeps them (a block a later unaudited view writes over is left out: its cells are no longer
    what it wrote), and its views (blocks never audited) likewise."""
    areas: dict[str, list[tuple[Area, bool, int]]] = {}
    for sheet, row, col, nrows, ncols in plan.clear:
        areas.setdefault(sheet, []).append(((row, col, nrows, ncols), False, -1))
    for i, block in enumerate(plan.blocks):
        width = max((len(line) for line in block.values), default=0)
        areas.setdefault(block.sheet, []).append(((block.row, block.col, len(block.values), width), block.audit, i))
    columns: dict[str, dict[int, set[int]]] = {}
    audited: dict[str, list[list[Any]]] = {}
    viewed: dict[str, list[list[Any]]] = {}
    for sheet, listed in areas.items():
        rows = columns[sheet] = {}
        views = [(area, i) for area, audit, i in listed if not audit and i >= 0]
        for area, audit, i in listed:
            row, col, nrows, ncols = area
            span = range(col, col + ncols)
            for r in range(row, row + nrows):
                rows.setdefault(r, set()).update(span)
            if i < 0:
                continue
            block = plan.blocks[i]
            if audit and not any(j > i and _overlap(area, other) for other, j in views):
                audited.setdefault(sheet, []).append(
                    [block.row, block.col, [[_computed(v) for v in line] for line in block.values]])
            elif not audit and block.values:
                viewed.setdefault(sheet, []).append(
                    [block.row, block.col, [[_computed(v) for v in line] for line in block.values]])
    return columns, audited, viewed


def make_record(book: BookAdapter, plan: Plan, never_read: Sequence[str], last: Record | None, kind: str) -> Record:
    """The record of ``plan`` written over ``book``.  A typed date the ``last`` record holds,
    read now as its day number (xlwings-server up to 1.16 sends a date in a format of its own
    so), is recorded as ``last`` has it: the record is the same whichever release sent the book."""
    columns, audited, viewed = _written(plan)
    sheets: dict[str, dict[str, list]] = {}
    existing = set(book.sheet_names())
    for sheet in _recorded_sheets(book, never_read) + [s for s in plan.new_sheets if s not in existing]:
        written = columns.get(sheet, {})
        runs: list[list[Any]] = []
        for r, line in enumerate(book.read(sheet) if sheet in existing else [], start=1):
            skip = written.get(r, ())
            run: list[Any] | None = None
            for c, value in enumerate(line, start=1):
                if value is None or c in skip:
                    run = None
                    continue
                before = last.typed(sheet).get((r, c)) if last is not None and type(value) in (int, float) else None
                value = {"d": str.__str__(before)} if isinstance(before, Date) and same_cell(before, value) \
                    else _encode(value)
                if run is None:
                    run = [r, c, [value]]
                    runs.append(run)
                else:
                    run[2].append(value)
        sheets[sheet] = {"t": runs, "c": audited.get(sheet, [])}
        if sheet in viewed:
            sheets[sheet]["w"] = viewed[sheet]
        elif sheet not in audited and last is not None and last.is_new(sheet):
            sheets[sheet]["n"] = 1  # still new: nothing computed on it yet (a tournament not played yet)
    return Record(sheets, kind)


def write_record(book: BookAdapter, record: Record, old: Record | None = None) -> None:
    """Write ``record`` into the hidden sheet (added at the end on first use; hidden again if
    unhidden), unless it is the same as the ``old`` one there (:meth:`Record.same_as`)."""
    if old is not None and old.same_as(record):
        book.lay_out(RECORD, Layout(hidden=True))
        return
    text = record.dumps()
    parts = ["~" + text[i:i + CHUNK - 1] for i in range(0, len(text), CHUNK - 1)] or ["~"]
    if RECORD not in book.sheet_names():
        book.add_sheet(RECORD)
        held = 0
    else:
        held = len(book.read(RECORD))
    rows: list[list[Any]] = [[_(TITLE)]] + [[p] for p in parts]
    rows += [[None]] * (held - len(rows))  # a longer record before: its last cells emptied
    book.write(RECORD, 1, 1, rows)
    book.lay_out(RECORD, Layout(hidden=True))


def note_new_sheet(book: BookAdapter, sheet: str) -> None:
    """Enter ``sheet``, just added by New evening / New tournament with its computed cells empty, in the
    record of the last recalculation (when there is one), so that the next recalculation tells a value
    typed over one of them (issue 26, point 2) and lists none of the results typed in as a change."""
    record, damaged = read_record(book)
    if record is None or damaged:
        return  # (no record to add to: the next recalculation says why)
    record.sheets[sheet] = {"t": [], "c": [], "n": 1}
    write_record(book, record)


def same_cell(old: Any, new: Any) -> bool:
    if isinstance(old, (Date, dt.date)) or isinstance(new, (Date, dt.date)):
        return _day(old) == _day(new) is not None  # a recorded date and a date read (not the same date's text)
    return same(old, new)


def _day(value: Any) -> str | None:
    """A date (recorded, read or planned; or read as Excel's day number: xlwings-server up to
    1.16 sends a date in a format of its own so) as ISO text, midnight left out; None for
    anything else."""
    if isinstance(value, Date):
        text = str.__str__(value)
    elif isinstance(value, dt.date):
        text = value.isoformat()
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and day_of(value) is not None:
        text = (EXCEL_EPOCH + dt.timedelta(days=value)).isoformat()
    else:
        return None
    return text[:10] if text.endswith("T00:00:00") else text
