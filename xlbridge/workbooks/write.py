"""Writing a plan into a book: which computed cells change (:func:`diff`), the
writes themselves (:func:`apply`) and the audit trail of changed earlier values
(:func:`append_corrections`).  The mechanics under :mod:`xlbridge.workbooks.recalc`,
which knows the kinds; the builders use them too, to fill a new workbook's
computed cells exactly as a recalculation does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from xlbridge.language import N_, _
from xlbridge.workbooks.book import BookAdapter, Grid
from xlbridge.workbooks.plan import Change, Plan, cell_name
from xlbridge.workbooks.speak import Localised

__all__ = ["diff", "apply", "append_corrections", "now_stamp", "CORRECTIONS", "CORRECTIONS_HEADER"]


def _same(old: Any, new: Any) -> bool:
    if old is None or new is None:
        return old is None and new is None
    if isinstance(old, (int, float)) and isinstance(new, (int, float)) and not isinstance(old, bool):
        return abs(float(old) - float(new)) <= 1e-9 * max(1.0, abs(float(new)))
    if isinstance(old, dt.datetime) and isinstance(new, str):
        return old.isoformat()[:10] == new
    return old == new


def diff(book: BookAdapter, plan: Plan) -> list[Change]:
    """The computed cells that held a different, non-empty value before."""
    grids: dict[str, Grid] = {}
    changes: list[Change] = []
    existing = set(book.sheet_names())
    for block in plan.blocks:
        if block.sheet not in existing or not block.audit:
            continue
        grid = grids.get(block.sheet)
        if grid is None:  # (not setdefault: that would read, i.e. copy, the sheet for every block)
            grid = grids[block.sheet] = book.read(block.sheet)
        for r, line in enumerate(block.values):
            held = grid[block.row + r - 1][block.col - 1:block.col - 1 + len(line)] if block.row + r <= len(grid) else []
            if held == line or held.count(None) == len(held):  # each cell the same, or empty before: no change
                continue
            for c, new in enumerate(line):
                row, col = block.row + r, block.col + c
                old = grid[row - 1][col - 1] if row <= len(grid) and col <= len(grid[row - 1]) else None
                if old is not None and not _same(old, new):
                    changes.append(Change(
                        block.sheet, cell_name(row, col), block.what,
                        block.rows[r] if r < len(block.rows) else "",
                        block.columns[c] if c < len(block.columns) else "",
                        old, new,
                    ))
    return changes


def apply(book: BookAdapter, plan: Plan) -> int:
    existing = set(book.sheet_names())
    for name in plan.new_sheets:
        if name not in existing:
            book.add_sheet(name)
            existing.add(name)
    for sheet, row, col, nrows, ncols in plan.clear:
        book.write(sheet, row, col, [[None] * ncols for _ in range(nrows)])
    written = 0
    for block in plan.blocks:
        book.write(block.sheet, block.row, block.col, block.values)
        written += sum(len(line) for line in block.values)
    for sheet, row, col, colour in plan.fills:
        book.fill(sheet, row, col, colour)
    for sheet, layout in plan.layouts:
        book.lay_out(sheet, layout)
    return written


CORRECTIONS = "Corrections"
CORRECTIONS_HEADER = [N_("When"), N_("Sheet"), N_("Cell"), N_("Event"), N_("Pair"), N_("Column"), N_("Old value"),
                      N_("New value")]


def append_corrections(book: BookAdapter, changes: Sequence[Change], when: str) -> None:
    """The audit trail: one row per changed computed cell, appended to the
    Corrections sheet (created on first use)."""
    if CORRECTIONS not in book.sheet_names():
        book.add_sheet(CORRECTIONS)
        book.write(CORRECTIONS, 1, 1, [[_(word) for word in CORRECTIONS_HEADER]])
    grid = book.read(CORRECTIONS)
    last = max((i + 1 for i, line in enumerate(grid) if any(v is not None for v in line)), default=1)
    language = getattr(book, "language", "en")  # the sheets as the scorer sees them
    rows = [[when, Localised.local_name(c.sheet, language), c.cell, Localised.local_name(c.what, language), c.unit,
             c.column, c.old, c.new] for c in changes]
    book.write(CORRECTIONS, last + 1, 1, rows)


def now_stamp() -> str:
    """When a correction is recorded: local time to the minute."""
    return dt.datetime.now().strftime("%Y-%m-%d %H:%M")
