"""What the Chart sheets of the season kinds share (issue 16, point 9): the pair typed
on the sheet, the sheet added again when it was deleted, and the title and table the
recalculation writes.  Each kind decides which pair, which rows and which title
(:mod:`xlbridge.workbooks.heeg.chart`, :mod:`xlbridge.workbooks.bridgemania.chart`).

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

from typing import Any

from xlbridge.language import N_, _
from xlbridge.values import is_blank
from xlbridge.workbooks.book import Grid, Layout
from xlbridge.workbooks.declare import Setting, Table
from xlbridge.workbooks.plan import Block, Plan, at
from xlbridge.workbooks.localised import shown_name

__all__ = ["typed_pair", "add_again", "write_table", "ADDED"]

#: The warning when the Chart sheet was missing (``kind``: the ``xlbridge new`` kind that has it).
ADDED = N_("there was no sheet {sheet} (deleted): it is added with its table, without the chart (the recalculation "
           "cannot draw one): copy the sheet {sheet} of a new workbook (xlbridge new {kind}) into this one to have "
           "the chart")


def typed_pair(pair: Setting, grid: Grid | None) -> Any:
    """The pair typed on the Chart sheet (``None``: blank, or no Chart sheet)."""
    if grid is None:
        return None
    value = pair.value(grid)
    return None if is_blank(value) else value


def add_again(plan: Plan, sheet: str, pair: Setting, layout: Layout, *, code: str, kind: str) -> None:
    """A deleted Chart sheet comes back with its look and its pair's label, without the chart
    (neither xlwings nor Office.js draws one); a warning says where to get it."""
    plan.new_sheets.append(sheet)
    plan.layouts.append((sheet, layout))
    plan.blocks.append(Block(sheet, pair.row, pair.label_col, [[pair.text(), None, _(pair.note)]],
                             what=sheet, audit=False))
    plan.warnings.append(at(sheet, None, code, ADDED, sheet=shown_name(sheet), kind=kind))


def write_table(plan: Plan, sheet: str, table: Table, title: str, rows: Grid, grid: Grid | None) -> None:
    """The title in A1 and the table (its header, then ``rows``, then blanks down to its room or
    to what the sheet held before).  Not audited: it repeats the season's own results."""
    plan.blocks.append(Block(sheet, 1, 1, [[title]], what=sheet, audit=False))
    height = max(len(rows), table.room, len(grid or []) - table.header_row)
    rows = rows + [[None] * table.width() for _ in range(height - len(rows))]
    plan.blocks.append(table.block(sheet, [table.headers(), *rows], row=table.header_row, what=sheet, audit=False))
