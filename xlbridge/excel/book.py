"""The live backend of the workbook adapter: an ``xlwings.Book`` (desktop Excel,
xlwings Lite or xlwings Server).  See :mod:`xlbridge.workbooks.book` for the
conventions both backends keep."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xlbridge.workbooks.book import (Area, Grid, Layout, _as_text_if_formula_like, _clean, _clean_value_for_write, _is_number,
                                     _ReadOnce, cell, column_letter, rectangular)


class XlwingsBook(_ReadOnce):
    """Live backend on an ``xlwings.Book`` (desktop Excel, xlwings Lite or Server)."""

    def __init__(self, book: Any):
        self.book = book
        self._grids: dict[str, Grid] = {}  # sheets read and not written since: one round trip each

    def sheet_names(self) -> list[str]:
        return [s.name for s in self.book.sheets]

    def _read(self, sheet: str) -> Grid:
        ws = self.book.sheets[sheet]
        used = ws.used_range
        last_row, last_col = used.last_cell.row, used.last_cell.column
        if last_row == 1 and last_col == 1 and ws.range((1, 1)).value in (None, ""):
            return []
        values = ws.range((1, 1), (last_row, last_col)).options(ndim=2).value
        return [[_clean(v) for v in row] for row in values]

    def write(self, sheet: str, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
        """Write only what changes: the smallest block holding every cell whose value
        differs from what the sheet holds (as read, or as written since), in one
        range; nothing when nothing changes (a second click writes no cell)."""
        block = rectangular([[_clean_value_for_write(v) for v in line] for line in values])
        if not block or not block[0]:
            return
        known = self._grids.get(sheet)
        top, left, bottom, right = 0, 0, len(block) - 1, len(block[0]) - 1
        if known is not None:
            changed = [(r, c) for r, line in enumerate(block) for c, value in enumerate(line)
                       if not _same_cell(cell(known, row + r, col + c), value)]
            if not changed:
                return
            top, bottom = min(r for r, _ in changed), max(r for r, _ in changed)
            left, right = min(c for _, c in changed), max(c for _, c in changed)
        part = [[_as_text_if_formula_like(v) for v in line[left:right + 1]] for line in block[top:bottom + 1]]
        self.book.sheets[sheet].range((row + top, col + left), (row + bottom, col + right)).value = part
        if known is not None:
            _put(known, row + top, col + left, [line[left:right + 1] for line in block[top:bottom + 1]])

    def fill(self, sheet: str, row: int, col: int, colour: str | None) -> None:
        self.book.sheets[sheet].range((row, col)).color = colour

    def add_sheet(self, name: str) -> None:
        self.book.sheets.add(name, after=self.book.sheets[len(self.book.sheets) - 1])
        self._grids[name] = []  # a new sheet is empty

    def lay_out(self, sheet: str, layout: Layout) -> None:
        ws = self.book.sheets[sheet]

        def rng(area: Area) -> Any:
            row, col, nrows, ncols = area
            return ws.range((row, col), (row + nrows - 1, col + ncols - 1))

        def title() -> None:
            ws.range((1, 1)).font.bold = True
            ws.range((1, 1)).font.size = 14

        def header() -> None:
            cells = rng((layout.header_row, 1, 1, layout.header_cols))
            cells.color = layout.header_fill
            cells.font.bold = True
            cells.font.color = layout.header_font

        def freeze() -> None:
            row, col = layout.freeze  # Excel wants the frozen cells themselves: A1:C1 for D2
            if row > 1 and col > 1:
                ws.freeze_panes.freeze_at(f"A1:{column_letter(col - 1)}{row - 1}")
            elif row > 1:
                ws.freeze_panes.freeze_at(f"1:{row - 1}")
            elif col > 1:
                ws.freeze_panes.freeze_at(f"A:{column_letter(col - 1)}")

        steps: list[Callable[[], None]] = []
        if layout.title:
            steps.append(title)
        if layout.header_row and layout.header_cols:
            steps.append(header)
        for area, number_format in layout.number_formats:
            steps.append(lambda area=area, number_format=number_format: setattr(rng(area), "number_format", number_format))
        for area, colour in layout.fills:
            steps.append(lambda area=area, colour=colour: setattr(rng(area), "color", colour))
        if layout.freeze is not None:
            steps.append(freeze)
        if layout.widths:
            steps.append(lambda: ws.autofit("columns"))
        for step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001 - the look is cosmetic: an Excel without one of these
                pass  # operations (e.g. frozen panes on some hosts) must not stop a finished recalculation

    def alert(self, message: str) -> None:
        try:
            self.book.app.alert(message, title="xlbridge")
        except Exception:  # noqa: BLE001 - an alert must never break the recalculation
            pass


def _same_cell(old: Any, new: Any) -> bool:
    """Whether a cell holding ``old`` (as read) already shows ``new`` (as written)."""
    if old is None or new is None:
        return old is None and new is None
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new) and old == new
    if _is_number(old) and _is_number(new):
        return float(old) == float(new)
    return type(old) is type(new) and old == new


def _put(grid: Grid, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
    """Record written ``values`` in a known grid (1-based corner), growing it as needed."""
    for r, line in enumerate(values):
        while len(grid) < row + r:
            grid.append([])
        target = grid[row + r - 1]
        if len(target) < col + len(line) - 1:
            target.extend([None] * (col + len(line) - 1 - len(target)))
        for c, value in enumerate(line):
            target[col + c - 1] = value
