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
from xlbridge.workbooks.record import TYPED, TYPED_OVER, TYPED_OVER_CODE, Date, Record, same_cell

__all__ = ["Comparison", "compare"]


@dataclass
class Comparison:
    """What changed since the record: the scorer's typed changes, the computed cells typed over
    (both as :class:`~xlbridge.workbooks.plan.Change`, ``cause`` set) and their warnings."""

    typed: list[Change] = field(default_factory=list)
    over: list[Change] = field(default_factory=list)
    warnings: list[LocatedProblem] = field(default_factory=list)


def compare(book: BookAdapter, plan: Plan, record: Record, now: Record, changes: Sequence[Change],
            routine: Sequence[tuple[str, int, int]] = ()) -> Comparison:
    """The scorer's changes since ``record`` (``now``: the record of this plan) and the
    computed cells typed over.  A typed cell is listed when it held a value before, or when it
    is on a sheet where a computed value changed (filling in a new evening lists nothing).  On a sheet added
    by New evening / New tournament since (:meth:`Record.is_new`) every computed cell was left empty: a value
    there was typed over it.  ``routine``: (sheet, row, column) of the kind's routine settings, whose changes
    correct no result and are never listed (:attr:`~xlbridge.workbooks.declare.Setting.routine`)."""
    out = Comparison()
    changed_sheets = {c.sheet for c in changes}
    units, headers = _units(plan)
    skipped = set(routine)
    existing = set(book.sheet_names())
    for sheet in now.sheets:
        if sheet not in record.sheets or sheet not in existing:  # (a deleted sheet the plan adds again: no cells)
            continue
        if record.sheets[sheet].get("t") == now.sheets[sheet].get("t"):
            continue  # the same typed runs: no typed cell changed (at once)
        before, cells = record.typed(sheet), now.typed(sheet)
        grid: Grid | None = None
        for key in sorted(set(cells) | set(before)):
            old, new = before.get(key), cells.get(key)
            if new is None and old is not None:  # emptied, or written by this plan (a tournament's first result
                grid = book.read(sheet) if grid is None else grid  # under its header): the cell as it is now
                new = grid[key[0] - 1][key[1] - 1] if key[0] <= len(grid) and key[1] <= len(grid[key[0] - 1]) else None
            if (old is None and (sheet not in changed_sheets or record.is_new(sheet))) or same_cell(old, new) \
                    or key in record.computed(sheet) or (sheet, *key) in skipped:
                continue
            if grid is None:
                grid = book.read(sheet)
            unit, top = units.get((sheet, key[0]), ""), headers.get(sheet, 0)
            header = grid[top - 1][key[1] - 1] if 0 < top <= len(grid) and key[1] <= len(grid[top - 1]) else None
            out.typed.append(Change(sheet, cell_ref(*key), "", unit, str(header) if header is not None else "",
                                    _decode_shown(old), _decode_shown(new), cause=TYPED))
    warned = {(w.sheet, w.cell) for w in plan.warnings}
    for change in changes:
        if change.sheet not in record.sheets:
            continue
        written = record.computed(change.sheet)
        key = cell_position(change.cell)  # (a new sheet's computed cells: left empty, so any value was typed)
        if (key not in written and not record.is_new(change.sheet)) or same_cell(change.old, written.get(key)):
            continue
        _typed_over(out, replace(change, cause=TYPED_OVER), warned)
    _views_typed_over(book, plan, record, out, warned, existing)
    return out


def _views_typed_over(book: BookAdapter, plan: Plan, record: Record, out: Comparison, warned: set,
                      existing: set[str]) -> None:
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
                if old is None or ((r, c) not in left and not new_sheet) or same_cell(old, left.get((r, c))) \
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
