"""One recalculation for every kind of xlbridge workbook, on any backend.

A *kind* (TBF club tournament, Heeg season, BridgeMania season) knows how to
recognise its workbook and how to turn the scorer's sheets into a :class:`Plan`:
the blocks of computed values and the fills to write.  Planning reads only;
nothing is written until the whole workbook has been checked, so bad input
never causes a partial write.  :func:`recalculate` then applies the plan through
the :class:`~xlbridge.workbooks.book.BookAdapter` -- the same code for Excel
("Recalculate season" script) and headless (``xlbridge recalc``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from xlbridge.rules.base import RuleError
from xlbridge.workbooks.book import BookAdapter, Grid, Layout, column_letter


def cell_name(row: int, col: int) -> str:
    """``cell_name(7, 4) == "D7"``."""
    return f"{column_letter(col)}{row}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the workbook, located for the scorer."""

    sheet: str
    cell: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.sheet}, {self.cell}" if self.cell else self.sheet
        return f"{where}: {self.message}"


class BookInputError(RuleError):
    """The workbook cannot be recalculated; ``problems`` lists every reason."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        count = len(self.problems)
        head = "; ".join(str(p) for p in self.problems[:3])
        more = f" (and {count - 3} more)" if count > 3 else ""
        super().__init__(f"{count} problem{'s' if count != 1 else ''} in the workbook: {head}{more}")


@dataclass
class Block:
    """Computed values written with their top-left corner at (row, col).

    ``what`` names, for the audit trail, the event of the block (an evening, a
    tournament), ``rows`` the unit of each row (a pair) and ``columns`` the
    header of each column.  ``audit=False`` keeps a block out of the audit trail
    (a derived view such as a sorted standings table, whose every change
    follows from an audited change elsewhere).
    """

    sheet: str
    row: int
    col: int
    values: Grid
    what: str = ""
    rows: Sequence[str] = ()
    columns: Sequence[str] = ()
    audit: bool = True


@dataclass
class Plan:
    """Everything a recalculation will write."""

    new_sheets: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    fills: list[tuple[str, int, int, str | None]] = field(default_factory=list)
    clear: list[tuple[str, int, int, int, int]] = field(default_factory=list)  # sheet, row, col, nrows, ncols
    layouts: list[tuple[str, Layout]] = field(default_factory=list)  # the look of sheets in new_sheets


class Kind(Protocol):
    name: str

    def recognises(self, book: BookAdapter) -> bool: ...

    def plan(self, book: BookAdapter) -> Plan:
        """Read the workbook and compute; raise :class:`BookInputError` listing
        every problem found."""
        ...


@dataclass(frozen=True)
class Change:
    """A computed cell whose earlier value changed (for the audit trail)."""

    sheet: str
    cell: str
    what: str
    unit: str
    column: str
    old: Any
    new: Any


@dataclass
class Report:
    """What a recalculation did: the workbook kind, the number of computed cells
    (each now holds its value: written, or left when it already held it) and the
    earlier values that changed."""

    kind: str
    cells_written: int
    changes: list[Change]


def _kinds() -> list[Kind]:
    from xlbridge.workbooks import kinds

    return kinds.KINDS


def detect(book: BookAdapter) -> Kind:
    for kind in _kinds():
        if kind.recognises(book):
            return kind
    names = ", ".join(book.sheet_names()) or "no sheets"
    raise BookInputError([Problem("workbook", None,
                                  f"not an xlbridge workbook (sheets: {names}); start from a template: xlbridge new KIND PATH")])


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
CORRECTIONS_HEADER = ["When", "Sheet", "Cell", "Event", "Pair", "Column", "Old value", "New value"]


def append_corrections(book: BookAdapter, changes: Sequence[Change], when: str) -> None:
    """The audit trail: one row per changed computed cell, appended to the
    Corrections sheet (created on first use)."""
    if CORRECTIONS not in book.sheet_names():
        book.add_sheet(CORRECTIONS)
        book.write(CORRECTIONS, 1, 1, [CORRECTIONS_HEADER])
    grid = book.read(CORRECTIONS)
    last = max((i + 1 for i, line in enumerate(grid) if any(v is not None for v in line)), default=1)
    rows = [[when, c.sheet, c.cell, c.what, c.unit, c.column, c.old, c.new] for c in changes]
    book.write(CORRECTIONS, last + 1, 1, rows)


def now_stamp() -> str:
    """When a correction is recorded: local time to the minute."""
    return dt.datetime.now().strftime("%Y-%m-%d %H:%M")


def recalculate(book: BookAdapter, *, when: str | None = None) -> Report:
    """Check, compute and write one workbook; nothing is written on a problem.

    Computed cells whose earlier value changes are listed in the Corrections
    sheet with ``when`` (default: now, to the minute).
    """
    kind = detect(book)
    plan = kind.plan(book)
    changes = diff(book, plan)
    written = apply(book, plan)
    if changes:
        stamp = when or now_stamp()
        append_corrections(book, changes, stamp)
    return Report(kind.name, written, changes)
