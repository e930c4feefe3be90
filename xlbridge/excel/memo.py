"""The last click remembered: a click on a book nobody changed since does not plan again.

xlwings Lite keeps the workbook's Python (Pyodide) alive between clicks, so the
"Recalculate season" script (:mod:`xlbridge.excel.scripts`) can remember what its
last successful click left behind:

- the book's name and its sheet names, in order;
- every sheet the click read (the kind's plan, *Messages*, *Corrections*), as it is
  after the click's own writes: what Excel sends next time when nobody typed;
- what the plan gave: the kind, the number of computed cells and the fills.

The next click compares first: the same book name, the same sheet names, and each
remembered sheet cell for cell as this click reads it (types too: a flag TRUE is not
the number 1; the same number of rows and columns).  On xlwings' Office.js engine
(Lite, Server) a sheet is first compared as Excel sent it, without reading it: with
the values Excel will send when nobody types (:meth:`XlwingsBook.will_send`: what
it sent, with the values written over it, each one a value whose reading gives it
back); equal, its reading is the remembered grid.  Equal, the recalculation would
read exactly what the last one left, so it would plan the same values -- which every
computed cell already holds -- and the same fills: the click sets the fills again and
reports as a recalculation does, without planning, and writes no cell.  Anything else
(a typed cell changed in any sheet read, a sheet added, removed, renamed or moved,
another book) recalculates in full, and a sheet that changed was read once either way.

A click is not remembered when what the next one would do is not known from it: it
found problems; it added a sheet (the next plan sees that sheet as existing, with
its header written; not the record of the last recalculation, which no plan reads:
``workbooks/record.py``); it wrote a sheet it had not read; it emptied a cell that held a value (a plan
may depend on where the earlier values end -- a table padded with empty rows over
what a longer one left -- and the next plan, finding those cells empty, may leave
them out).  ``tests/officejs/test_second_click.py``
checks, kind by kind, that a remembered click gives the actions of a fresh process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xlbridge.workbooks.book import Grid
from xlbridge.workbooks.plan import Report
from xlbridge.workbooks.record import RECORD


@dataclass
class _Click:
    book: str
    names: list[str]
    grids: dict[str, Grid]  # each sheet read, after the click's writes, as Excel sends it (rectangular)
    sent: dict[str, list | None]  # Office.js: each sheet's values as Excel will send them (XlwingsBook.will_send)
    kind: str
    cells: int
    fills: list[tuple[str, int, int, str | None]]
    results: int | None = None  # the results the click computed (0: nothing filled in yet)


class LastClick:
    """What the last successful click of this process left (one book at a time)."""

    def __init__(self) -> None:
        self._last: _Click | None = None
        self.skipped = 0  # clicks that did not plan (for tests and the benchmark)

    def forget(self) -> None:
        self._last = None

    def unchanged(self, adapter: Any) -> _Click | None:
        """The remembered click when ``adapter`` (an :class:`~xlbridge.excel.book.XlwingsBook`
        at the start of a click) holds exactly what it left, else None.  Forgets it
        either way: a click that fails half-way leaves nothing remembered."""
        last, self._last = self._last, None
        if last is None or book_name(adapter.book) != last.book or adapter.sheet_names() != last.names:
            return None
        for sheet, kept in last.grids.items():
            expected = last.sent.get(sheet)
            if expected is not None and adapter.sends(sheet, expected):
                continue  # the values Excel sent are those it was expected to send: no need to read them
            if not same_grid(adapter.held(sheet), kept):
                return None
        return last

    def replay(self, adapter: Any, last: _Click) -> Report:
        """The recalculation of an unchanged book: its fills again, no value written."""
        for sheet, row, col, colour in last.fills:
            adapter.fill(sheet, row, col, colour)
        self.skipped += 1
        return Report(last.kind, last.cells, [], [], last.results)

    def remember(self, adapter: Any, names: list[str], report: Report, last: _Click | None = None) -> None:
        """Keep what the click on ``adapter`` left (``names``: its sheets before the
        click; ``last``: the click it replayed, if it did), when the next is known from it."""
        name = book_name(adapter.book)
        plan = report.plan
        after = adapter.sheet_names()
        if name is None or (plan is None and last is None) or adapter.written_unread or \
                after not in (names, [*names, RECORD]):  # (the record of the click, added: no sheet of the plan's)
            return
        if (plan is not None and plan.new_sheets) or adapter.blanked:
            return
        if report.warnings:  # a warned value may be written over (a typed MP by its rounds): the next
            return           # click's warnings are not known from this one
        grids = {sheet: _rectangular(grid) for sheet, grid in adapter.known().items()}
        sent = {sheet: adapter.will_send(sheet) for sheet in grids}
        if plan is None:  # a replay: the sheets it did not need to read are as they were
            assert last is not None
            kind, cells, fills, results = last.kind, last.cells, last.fills, last.results
            grids = {**last.grids, **grids}
            sent = {**last.sent, **sent}
        else:
            kind, cells, fills, results = report.kind, report.cells_written, list(plan.fills), report.results
        self._last = _Click(name, after, grids, sent, kind, cells, fills, results)


def book_name(book: Any) -> str | None:
    try:
        return str(book.fullname)
    except Exception:  # noqa: BLE001 - a book without a name is never taken for another
        return None


def same_grid(read: Grid, kept: Grid) -> bool:
    """Whether two grids hold the same cells: equal rows, and flags only where flags are."""
    if len(read) != len(kept):
        return False
    for a, b in zip(read, kept):
        if a != b:
            return False
        if (bool in map(type, a) or bool in map(type, b)) and [type(v) is bool for v in a] != [type(v) is bool for v in b]:
            return False  # TRUE == 1 as Python compares
    return True


def _rectangular(grid: Grid) -> Grid:
    """``grid`` padded in place to its widest row (Excel sends the used range, a rectangle)."""
    width = max((len(line) for line in grid), default=0)
    for line in grid:
        if len(line) < width:
            line.extend([None] * (width - len(line)))
    return grid
