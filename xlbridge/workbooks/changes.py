"""What the record of the last recalculation tells (issue 16, points 2 and 5): the changes.

:func:`compare` reads the record (:mod:`~xlbridge.workbooks.record`) against the
workbook now and tells

1. which typed cells changed since (sheet, cell, old -> new): the scorer's changes,
   listed first on the Corrections sheet;
2. which computed cells (audited or views) hold a value other than the one xlbridge wrote: typed
   over by someone -- a warning at the cell, the typed value kept on Corrections
   (docs/clubs/heeg.md §11.6).  A view's headers and number formats are the
   declaration's, carried by its block (:meth:`~xlbridge.workbooks.declare.Table.block`).

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from xlbridge.language import N_
from xlbridge.workbooks.book import BookAdapter, Grid, cell_position, cell_ref
from xlbridge.workbooks.plan import Change, LocatedProblem, Plan, at
from xlbridge.workbooks.record import TYPED, TYPED_OVER, TYPED_OVER_CODE, Date, Record, Rows, moved_rows, same_cell

__all__ = ["Comparison", "compare"]


@dataclass
class Comparison:
    """What changed since the record: the scorer's typed changes, the computed cells typed over
    (both as :class:`~xlbridge.workbooks.plan.Change`, ``cause`` set) and their warnings."""

    typed: list[Change] = field(default_factory=list)
    over: list[Change] = field(default_factory=list)
    warnings: list[LocatedProblem] = field(default_factory=list)


def compare(book: BookAdapter, plan: Plan, record: Record, now: Record, changes: Sequence[Change],
            routine: Sequence[tuple[str, int, int]] = (), moves: dict[str, Rows] | None = None) -> Comparison:
    """The scorer's changes since ``record`` (``now``: the record of this plan) and the
    computed cells typed over.  A typed cell is listed when it held a value before, or when it
    is on a sheet where a computed value changed (filling in a new evening lists nothing).  On a sheet added
    by New evening / New tournament since (:meth:`Record.is_new`) every computed cell was left empty: a value
    there was typed over it.  ``routine``: (sheet, row, column) of the kind's routine settings, whose changes
    correct no result and are never listed (:attr:`~xlbridge.workbooks.declare.Setting.routine`).  ``moves``:
    where the rows the scorer inserted or deleted went (:func:`~xlbridge.workbooks.record.moved_rows`)."""
    out = Comparison()
    changed_sheets = {c.sheet for c in changes}
    units, headers = _units(plan)
    skipped = set(routine)
    existing = set(book.sheet_names())
    moves = moved_rows(record, now) if moves is None else moves
    for sheet in now.sheets:
        if sheet not in record.sheets or sheet not in existing:  # (a deleted sheet the plan adds again: no cells)
            continue
        if record.sheets[sheet].get("t") == now.sheets[sheet].get("t"):
            continue  # the same typed runs: no typed cell changed (at once)
        before, cells = record.typed(sheet), now.typed(sheet)
        listed = sheet in changed_sheets and not record.is_new(sheet)  # (a typed cell empty before: listed too)
        grid: Grid | None = None
        for then, at_now, old, new in _typed_pairs(before, cells, moves.get(sheet, Rows())):
            if new is None and old is not None and at_now is not None:  # emptied, or written by this plan now (a
                grid = book.read(sheet) if grid is None else grid  # tournament's first result under its header)
                new = _at(grid, at_now)
            place = at_now or then  # (a deleted row's cell: where it was)
            if (old is None and not listed) or same_cell(old, new) or then in record.computed(sheet) \
                    or (sheet, *place) in skipped:
                continue
            grid = book.read(sheet) if grid is None else grid
            top = headers.get(sheet, 0)
            header = _at(grid, (top, place[1])) if top > 0 else None
            out.typed.append(Change(sheet, cell_ref(*place), "", units.get((sheet, place[0]), ""),
                                    str(header) if header is not None else "", _decode_shown(old),
                                    _decode_shown(new), cause=TYPED))
    _deleted(plan, record, existing, out)
    warned = {(w.sheet, w.cell) for w in plan.warnings}
    for change in changes:
        if change.sheet not in record.sheets:
            continue
        written = record.computed(change.sheet)
        key = _before(moves, change.sheet, cell_position(change.cell))  # (a new sheet's computed cells: left empty,
        if (key not in written and not record.is_new(change.sheet)) or same_cell(change.old, written.get(key)):
            continue  # so any value was typed; a row the scorer inserted: nothing was written there)
        _typed_over(out, replace(change, cause=TYPED_OVER), warned)
    _views_typed_over(book, plan, record, out, warned, existing, moves)
    return out


#: A sheet the scorer deleted that the recalculation adds again (a Heeg evening the Season sheet lists).
DELETED = N_("the sheet was deleted since the last recalculation, with {count} typed cells; xlbridge added it again "
             "without them: they are listed on the Corrections sheet (your change), and the backup keeps the "
             "workbook as it was: to get them back, copy the sheet from the backup")


def _deleted(plan: Plan, record: Record, existing: set[str], out: Comparison) -> None:
    """Every typed cell of a sheet the scorer deleted and this plan adds again without it (its pairs, which the
    plan types again, are not lost), as a change with a warning: before, an evening's results went without a word."""
    said = {w.sheet for w in plan.warnings}  # (the Chart sheet added again says so itself, W-HEEG-CHART-ADDED)
    for sheet in plan.new_sheets:
        if sheet in existing or sheet not in record.sheets or sheet in said:
            continue
        again = {(block.row + i, block.col + j): value for block in plan.blocks if block.sheet == sheet
                 for i, line in enumerate(block.values) for j, value in enumerate(line)}  # (what it writes there)
        recorded = record.typed(sheet)
        lost = [(place, old) for place, old in sorted(recorded.items())
                if old is not None and not same_cell(old, again.get(place))]
        if not lost:  # (a standings sheet: nothing typed there)
            continue
        top, left = min(recorded)[0], min(c for _r, c in recorded)  # (the header row, the unit's column)
        for (row, col), old in lost:
            unit, header = (recorded.get((row, left)), recorded.get((top, col))) if row > top else (None, None)
            out.typed.append(Change(sheet, cell_ref(row, col), "", "" if unit is None else str(unit),
                                    "" if header is None else str(header), _decode_shown(old), None, cause=TYPED))
        out.warnings.append(at(sheet, None, "sheet.deleted", DELETED, count=len(lost)))


def _typed_pairs(before: dict, cells: dict, rows: Rows):
    """(position then, position now, value then, value now) of every typed cell then, where it went (now
    ``None``: its row was deleted); then of every typed cell now that no cell then went to (its value then
    ``None``; its position then ``None`` when its row was inserted)."""
    reached = set()
    for key in sorted(before):
        r = rows.new(key[0])
        at_now = None if r is None else (r, key[1])
        reached.add(at_now)
        yield key, at_now, before[key], None if at_now is None else cells.get(at_now)
    for key in sorted(set(cells) - reached):
        r = rows.old(key[0])
        yield (None if r is None else (r, key[1])), key, None, cells[key]


def _at(grid: Grid, key: tuple[int, int]) -> Any:
    r, c = key
    return grid[r - 1][c - 1] if 0 < r <= len(grid) and 0 < c <= len(grid[r - 1]) else None


def _before(moves: dict[str, Rows], sheet: str, key: tuple[int, int]) -> tuple[int, int] | None:
    """The record's position of the cell at ``key`` now (``None``: its row was inserted since)."""
    rows = moves.get(sheet)
    if rows is None:
        return key
    old = rows.old(key[0])
    return None if old is None else (old, key[1])


def _views_typed_over(book: BookAdapter, plan: Plan, record: Record, out: Comparison, warned: set,
                      existing: set[str], moves: dict[str, Rows]) -> None:
    """The views (standings, sorted results: never audited, so not among the changes) whose cell
    holds a value other than the one xlbridge left there: typed over, as a computed cell."""
    grids: dict[str, Grid] = {}
    seen: set[tuple[str, int, int]] = set()
    for block in reversed(plan.blocks):  # (a later block over an earlier one: the later value counts)
        if block.audit or block.sheet not in record.sheets or block.sheet not in existing:
            continue
        left, new_sheet = record.views(block.sheet), record.is_new(block.sheet)
        if not left and not new_sheet:
            continue
        grid = grids.get(block.sheet)
        if grid is None:
            grid = grids[block.sheet] = book.read(block.sheet)
        for i, line in enumerate(block.values):
            r = block.row + i
            for j, new in enumerate(line):
                c = block.col + j
                if (block.sheet, r, c) in seen:
                    continue
                seen.add((block.sheet, r, c))
                old = grid[r - 1][c - 1] if r <= len(grid) and c <= len(grid[r - 1]) else None
                then = _before(moves, block.sheet, (r, c))  # (rows inserted or deleted: where it was)
                if old is None or (then not in left and not new_sheet) or same_cell(old, left.get(then)) \
                        or same_cell(old, new):
                    continue
                # the view's headers and number formats: the declaration's (Table.block)
                number_format = block.formats[j] if j < len(block.formats) else "General"
                column = str(block.columns[j] or "") if j < len(block.columns) else ""
                unit = str(block.rows[i]) if i < len(block.rows) and block.rows[i] else ""
                change = Change(block.sheet, cell_ref(r, c), block.what, unit, column, old, new, number_format,
                                cause=TYPED_OVER)
                _typed_over(out, change, warned)


def _typed_over(out: Comparison, change: Change, warned: set) -> None:
    """A computed cell typed over: kept on Corrections, and a warning at the cell (unless the plan warns there)."""
    out.over.append(change)
    if (change.sheet, change.cell) not in warned:
        out.warnings.append(at(change.sheet, change.cell, TYPED_OVER_CODE, N_(
            "computed cell: {typed} was typed here, xlbridge fills it (now {value}); the typed value was "
            "replaced and is kept on the Corrections sheet; to change this result, change the yellow cells "
            "it is computed from"), typed=_shown(change.old, change.number_format),
            value=_shown(change.new, change.number_format)))


def _shown(value: Any, number_format: str) -> Any:
    """A number for a message, to the decimals of its cell's format (``0.00``: 50.42)."""
    if isinstance(value, float) and "." in number_format:
        return round(value, len(number_format.split(".")[1].rstrip("%")))
    return value


def _decode_shown(value: Any) -> Any:
    """A recorded value as the Corrections sheet shows it (a date as a date)."""
    return dt.datetime.fromisoformat(str.__str__(value)) if isinstance(value, Date) else value


def _units(plan: Plan) -> tuple[dict[tuple[str, int], str], dict[str, int]]:
    """Per (sheet, row): the unit (pair) an audited block names for that row; per sheet: the
    row of the header (the row above the first audited block of more than one row)."""
    units: dict[tuple[str, int], str] = {}
    headers: dict[str, int] = {}
    for block in plan.blocks:
        if not block.audit:
            continue
        if len(block.values) > 1:  # a table's body (a single row: a header cell, a lone pair)
            headers[block.sheet] = min(headers.get(block.sheet, block.row), block.row)
        for r in range(len(block.values)):
            unit = block.rows[r] if r < len(block.rows) else ""
            units.setdefault((block.sheet, block.row + r), str(unit) if unit else "")
    return units, {sheet: row - 1 for sheet, row in headers.items()}
