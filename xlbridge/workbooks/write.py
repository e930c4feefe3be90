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
from xlbridge.workbooks.book import DATETIME_FORMAT, BookAdapter, Grid, Layout, _clean_value_for_write
from xlbridge.workbooks.declare import Column, Print, SheetSpec, Table, merge_areas
from xlbridge.workbooks.book import cell_ref
from xlbridge.workbooks.plan import Change, Plan
from xlbridge.workbooks.localised import Localised

__all__ = ["diff", "apply", "append_corrections", "now_stamp", "CORRECTIONS", "CORRECTIONS_SPEC"]


def _same(old: Any, new: Any) -> bool:
    if old is None or new is None:
        return old is None and new is None
    if isinstance(old, (int, float)) and isinstance(new, (int, float)) and not isinstance(old, bool):
        return abs(float(old) - float(new)) <= 1e-9 * max(1.0, abs(float(new)))
    if isinstance(old, dt.date) and isinstance(new, dt.date):  # a date read (a datetime) and one planned
        return _clean_value_for_write(old) == _clean_value_for_write(new)
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
                        block.sheet, cell_ref(row, col), block.what,
                        block.rows[r] if r < len(block.rows) else "",
                        block.columns[c] if c < len(block.columns) else "",
                        old, new, block.formats[c] if c < len(block.formats) else "General",
                    ))
    return changes


def apply(book: BookAdapter, plan: Plan) -> int:
    existing = set(book.sheet_names())
    for name in plan.new_sheets:
        if name not in existing:
            names = book.sheet_names()  # a new sheet goes last, before the record of the last recalculation
            book.add_sheet(name, after=names[-2] if len(names) > 1 and names[-1] == RECORD_SHEET else None)
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
#: The sheet of the record of the last recalculation (``record.py``; here: sheets a plan adds go before it).
RECORD_SHEET = "xlbridge"
#: The cause of a computed cell's change that follows from the typed cells (record.py names the others).
RECALCULATED = N_("recalculated")
#: The Corrections sheet, the same for every kind: one row per computed cell whose
#: earlier value changed, old and new value in the number format of their cell; first
#: the typed cells that changed since the last recalculation (their cause, ``record.py``),
#: then the computed cells typed over, then the rest; the column Cause says which.
#: (What the row is about, an evening or a tournament, is the sheet: no column of its own.)
CORRECTIONS_SPEC = SheetSpec("corrections", CORRECTIONS, tables=(Table("corrections", 1, (
    Column("when", "When", typed=False, number_format=DATETIME_FORMAT, width=17, label_id="corrections.when"),
    Column("sheet", "Sheet", typed=False, width=24, label_id="corrections.sheet"),
    Column("cell", "Cell", typed=False, width=7, label_id="corrections.cell"),
    Column("unit", "Pair", typed=False, width=16, label_id="corrections.unit"),
    Column("column", "Column", typed=False, width=14, label_id="corrections.column"),
    Column("old", "Old value", typed=False, width=14, label_id="corrections.old", wrap=True),  # (a changed name)
    Column("new", "New value", typed=False, width=15, label_id="corrections.new", wrap=True),
    Column("cause", "Cause", typed=False, width=24, label_id="corrections.cause"),
)),), freeze=(2, 1), print=Print("landscape", True, (1, 1)))


def _corrections_columns(header: list[Any]) -> list[str]:
    """The field of each column of an existing Corrections header (by its words, in the language spoken)."""
    by_text = {c.text().lower(): c.id for c in CORRECTIONS_SPEC.tables[0].columns}
    return [by_text.get(str(h).strip().lower(), "") if h is not None else "" for h in header]


def _unit(unit: object) -> object:
    """The pair as the Corrections sheet keeps it: a pair number as a number (Heeg's 4, not the text "4":
    issue 26, point 15), an id as its text ("BE", "007"), nothing as an empty cell."""
    text = str(unit) if unit not in (None, "") else ""
    if text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0")):
        return int(text)
    return text or None


def append_corrections(book: BookAdapter, changes: Sequence[Change], when: dt.datetime | str,
                       after: str | None = None) -> None:
    """The audit trail: one row per changed computed cell, appended to the
    Corrections sheet (created on first use, right after the sheet ``after``, with
    the look of :data:`CORRECTIONS_SPEC`); each old and new value in its cell's
    number format."""
    if CORRECTIONS not in book.sheet_names():
        book.add_sheet(CORRECTIONS, after=after)
        book.write(CORRECTIONS, 1, 1, [CORRECTIONS_SPEC.tables[0].headers()])  # in the language spoken
        book.lay_out(CORRECTIONS, CORRECTIONS_SPEC.layout())
    grid = book.read(CORRECTIONS)
    last = max((i + 1 for i, line in enumerate(grid) if any(v is not None for v in line)), default=1)
    fields = _corrections_columns(grid[0] if grid and any(v is not None for v in grid[0])
                                  else CORRECTIONS_SPEC.tables[0].headers())
    while fields and fields[-1] == "" and grid and (len(grid[0]) < len(fields) or grid[0][len(fields) - 1] is None):
        fields.pop()
    language = getattr(book, "language", "en")  # the sheets as the scorer sees them
    rows = [[{"when": when, "sheet": Localised.local_name(c.sheet, language), "cell": c.cell, "unit": _unit(c.unit),
              "column": c.column or None, "old": c.old, "new": c.new, "cause": _(c.cause or RECALCULATED)}.get(f)
             for f in fields] for c in changes]
    book.write(CORRECTIONS, last + 1, 1, rows)
    formats = []
    for i, c in enumerate(changes):
        if c.number_format != "General":
            formats += [((last + 1 + i, col + 1, 1, 1), c.number_format) for col, f in enumerate(fields)
                        if f in ("old", "new")]
    wrap = tuple(col + 1 for col, f in enumerate(fields) if f in ("old", "new"))  # the new rows too (a long name)
    book.lay_out(CORRECTIONS, Layout(number_formats=tuple(merge_areas(formats)), wrap_columns=wrap))


def now_stamp() -> dt.datetime:
    """When a correction is recorded: local time to the minute (a date and time in the cell)."""
    return dt.datetime.now().replace(second=0, microsecond=0)
