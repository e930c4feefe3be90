"""The live backend of the workbook adapter: an ``xlwings.Book`` (desktop Excel,
xlwings Lite or xlwings Server).  See :mod:`xlbridge.workbooks.book` for the
conventions both backends keep."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xlbridge.workbooks.book import Area, Grid, Layout, _as_text_if_formula_like, _clean, _clean_value_for_write, _ReadOnce, column_letter, rectangular


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
        self._grids.pop(sheet, None)
        block = rectangular([[_as_text_if_formula_like(_clean_value_for_write(v)) for v in line] for line in values])
        if not block or not block[0]:
            return
        self.book.sheets[sheet].range((row, col), (row + len(block) - 1, col + len(block[0]) - 1)).value = block

    def fill(self, sheet: str, row: int, col: int, colour: str | None) -> None:
        self.book.sheets[sheet].range((row, col)).color = colour

    def add_sheet(self, name: str) -> None:
        self._grids.pop(name, None)
        self.book.sheets.add(name, after=self.book.sheets[len(self.book.sheets) - 1])

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
