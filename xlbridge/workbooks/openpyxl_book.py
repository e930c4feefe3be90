"""The headless backend of the workbook adapter: an ``openpyxl.Workbook``
(``xlbridge recalc``, the builders).  See :mod:`xlbridge.workbooks.book` for the
conventions both backends keep.

Bounds (docs/reliability.md): a sheet is read as a grid from A1 to its last used
cell, built from the cells the file holds (never by visiting every position).
A sheet whose values reach beyond :data:`MAX_ROWS` rows or :data:`MAX_COLUMNS`
columns, or span more than :data:`MAX_CELLS` cells, is a problem located at the
far-out values (a stray value in XFD1048576 would otherwise make a grid of 17
billion cells); empty formatted cells out there are ignored.  A computed cell
inside a merged area (not its top-left cell) is a located problem, not a write.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from xlbridge.rules.problems import N_
from xlbridge.workbooks.book import (DATE_FORMAT, DATETIME_FORMAT, Grid, Layout, Rule, _clean_value_for_write,
                                     _is_number, _ReadOnce, area_name, cells_of, column_letter, looks_like_formula,
                                     same_number)
from xlbridge.workbooks.book import cell_ref
from xlbridge.workbooks.plan import BookInputError, LocatedProblem, at
from xlbridge.workbooks.style import WRAPPED, fit_row

#: The largest used area of a sheet that is read (rows, columns, cells: 100,000 x
#: 1,000 would be 800 MB of grid, hence the cell bound).  xlbridge's largest
#: workbooks use a few thousand rows and fewer than 100 columns.
MAX_ROWS = 100_000
MAX_COLUMNS = 1_000
MAX_CELLS = 2_000_000
#: How many far-out values of one sheet are reported (the rest follow on the next run).
MAX_REPORTED = 20
FAR_OUT = N_("this value is far outside the sheet's tables (a sheet xlbridge reads may use at most {rows:,} rows, "
           "{columns:,} columns and {cells:,} cells); delete it")
#: The code name of the empty worksheet read in the place of a chart sheet (xlbridge.files.othersheets).
SET_ASIDE = "xlbridgeSetAside"
MERGED = N_("this computed cell is merged into {area}; unmerge {area} (Home, Merge & Center) so that xlbridge can write it")


def within_bounds(rows: int, cols: int) -> bool:
    return rows <= MAX_ROWS and cols <= MAX_COLUMNS and rows * cols <= MAX_CELLS


def far_out(sheet: str, positions: list[tuple[int, int]]) -> list[LocatedProblem]:
    """Problems at the values that make a sheet's used area too large."""
    beyond = sorted((p for p in positions if p[0] > MAX_ROWS or p[1] > MAX_COLUMNS),
                    key=lambda p: (-(p[0] * p[1]), p))
    if not beyond:  # within rows and columns, but too many cells: the farthest ones
        beyond = sorted(positions, key=lambda p: (-(p[0] * p[1]), p))[:1]
    return [at(sheet, cell_ref(r, c), "file.sheet.far-out", FAR_OUT, rows=MAX_ROWS, columns=MAX_COLUMNS,
               cells=MAX_CELLS) for r, c in sorted(beyond[:MAX_REPORTED])]


def _holds(cell: Any, value: Any) -> bool:
    """Whether an openpyxl cell already holds ``value``: the same text, flag, date or
    empty cell, or the same number as a file keeps it (:func:`same_number`; 198 read back
    from a file is the 198.0 computed)."""
    old = cell._value
    if _is_number(value):
        return cell.data_type == "n" and _is_number(old) and same_number(old, value)
    if isinstance(value, dt.datetime):
        return cell.is_date and old == value and cell.number_format == (
            DATE_FORMAT if value.time() == dt.time() else DATETIME_FORMAT)
    if type(old) is not type(value) or old != value:
        return False
    return cell.data_type == ("s" if isinstance(value, str) else "b" if isinstance(value, bool) else "n")



def add_rule(ws: Any, area: tuple[int, int, int, int], rule: Rule) -> None:
    """An input rule as an Excel data validation on ``area`` of ``ws`` (a rule
    already there for the same cells is replaced: laying a sheet out twice adds
    nothing)."""
    from openpyxl.worksheet.datavalidation import DataValidation

    row, col, nrows, ncols = area
    ref = f"{cell_ref(row, col)}:{cell_ref(row + nrows - 1, col + ncols - 1)}"
    if rule.kind == "list":
        dv = DataValidation(type="list", formula1='"' + ",".join(rule.values) + '"', allow_blank=True)
    else:
        if rule.high is None:
            dv = DataValidation(type=rule.kind, operator="greaterThanOrEqual", formula1=str(rule.low), allow_blank=True)
        elif rule.low is None:
            dv = DataValidation(type=rule.kind, operator="lessThanOrEqual", formula1=str(rule.high), allow_blank=True)
        else:
            dv = DataValidation(type=rule.kind, operator="between", formula1=str(rule.low), formula2=str(rule.high),
                                allow_blank=True)
    dv.errorStyle, dv.showErrorMessage, dv.showInputMessage = "stop" if rule.strict else "warning", True, True
    dv.errorTitle, dv.error, dv.promptTitle, dv.prompt = rule.title, rule.error, rule.title, rule.prompt
    validations = ws.data_validations
    validations.dataValidation = [old for old in validations.dataValidation if str(old.sqref) != ref]
    dv.add(ref)
    ws.add_data_validation(dv)


def _set_aside(ws: Any) -> bool:
    properties = getattr(ws, "sheet_properties", None)
    return getattr(properties, "codeName", None) == SET_ASIDE


class OpenpyxlBook(_ReadOnce):
    """Headless backend on an ``openpyxl.Workbook`` (loaded with formulas, not values)."""

    def __init__(self, workbook: Any):
        self.wb = workbook
        self.wrote = False  # whether a value, a sheet or a sheet's state changed (not the look: fills, formats)
        self.messages: list[str] = []
        self._grids: dict[str, Grid] = {}  # sheets read and not written since (plan, then diff)
        self._sheets: dict[str, Any] = {}  # wb[name] scans every sheet: a season has hundreds
        self._fill_ids: dict[str | None, int] = {}  # colour -> index in the workbook's fills

    def sheet_names(self) -> list[str]:
        """The worksheets (a chart sheet has no cells: never read nor written, :meth:`other_sheets`)."""
        return [ws.title for ws in self.wb.worksheets if not _set_aside(ws)]

    def other_sheets(self) -> list[str]:
        """The sheets that are not worksheets (chart sheets), as loaded or set aside."""
        others = {ws.title for ws in self.wb.chartsheets} | {ws.title for ws in self.wb.worksheets if _set_aside(ws)}
        return [name for name in self.wb.sheetnames if name in others]

    def _ws(self, sheet: str) -> Any:
        ws = self._sheets.get(sheet)
        if ws is None or ws.title != sheet or ws.parent is not self.wb:
            ws = self._sheets[sheet] = self.wb[sheet]
        return ws

    def _read(self, sheet: str) -> Grid:
        # Straight from the stored cells holding a value (the used range xlwings' Office.js
        # client sends: a cell with only a format does not count), without creating a Cell
        # object for every empty position.
        held = [(p, v) for p, cell in self._ws(sheet)._cells.items() if (v := cell._value) is not None and v != ""]
        if not held:
            return []
        rows, cols = max(r for (r, _), _v in held), max(c for (_, c), _v in held)
        if not within_bounds(rows, cols):
            raise BookInputError(far_out(sheet, [p for p, _v in held]))
        grid: Grid = [[None] * cols for _ in range(rows)]
        for (r, c), value in held:
            grid[r - 1][c - 1] = value
        return grid

    def _merged_into(self, ws: Any, sheet: str, row: int, col: int,
                     values: Sequence[Sequence[Any]]) -> list[LocatedProblem]:
        """Problems for the cells of a block that lie in a merged area, not its
        top-left cell, and would get a value: openpyxl (and Excel) cannot hold one."""
        ranges = ws.merged_cells.ranges
        if not ranges:
            return []
        last_row = row + len(values) - 1
        last_col = col + max((len(line) for line in values), default=0) - 1
        problems = []
        for area in ranges:
            if area.max_row < row or area.min_row > last_row or area.max_col < col or area.min_col > last_col:
                continue
            for r in range(max(row, area.min_row), min(last_row, area.max_row) + 1):
                line = values[r - row]
                for c in range(max(col, area.min_col), min(col + len(line) - 1, area.max_col) + 1):
                    if (r, c) != (area.min_row, area.min_col) and _clean_value_for_write(line[c - col]) is not None:
                        problems.append(at(sheet, cell_ref(r, c), "file.cell.merged", MERGED, area=area.coord))
        return problems

    def write(self, sheet: str, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
        self._grids.pop(sheet, None)
        ws = self._ws(sheet)
        merged = self._merged_into(ws, sheet, row, col, values)
        if merged:
            raise BookInputError(merged)
        stored = ws._cells
        for r, line in enumerate(values):
            for c, value in enumerate(line):
                value = _clean_value_for_write(value)
                old = stored.get((row + r, col + c))
                if (value is None) if old is None else _holds(old, value):
                    continue  # a recalculation mostly rewrites what is there: leave it
                cell = ws.cell(row=row + r, column=col + c)
                cell.value = value
                self.wrote = True
                if looks_like_formula(value):
                    cell.data_type = "s"  # text that looks like a formula stays text
                if isinstance(value, str):
                    fit_row(ws, cell)  # a wrapped text: its row as tall as its lines
                elif isinstance(value, dt.datetime):  # a date shows as the Excel path shows it
                    cell.number_format = DATE_FORMAT if value.time() == dt.time() else DATETIME_FORMAT

    def fill(self, sheet: str, row: int, col: int, colour: str | None) -> None:
        from openpyxl.styles import PatternFill

        ws = self._ws(sheet)
        known = self._fill_ids.get(colour)
        old = ws._cells.get((row, col))
        if old is None and colour is None:
            return  # an empty cell has no fill
        if known is not None and old is not None and old._style is not None and old._style.fillId == known:
            return  # already so
        cell = old if old is not None else ws.cell(row=row, column=col)
        if known is not None:
            # what ``cell.fill = <the same fill>`` stores (openpyxl's StyleDescriptor),
            # without hashing the fill again: 5,000 fills cost seconds otherwise
            if not cell._style:
                from openpyxl.styles.cell_style import StyleArray

                cell._style = StyleArray()
            cell._style.fillId = known
            return
        if colour is None:
            cell.fill = PatternFill(fill_type=None)
        else:
            rgb = "FF" + colour.lstrip("#").upper()
            cell.fill = PatternFill(fill_type="solid", start_color=rgb, end_color=rgb)
        self._fill_ids[colour] = cell._style.fillId

    def add_sheet(self, name: str, after: str | None = None) -> None:
        self.wrote = True
        self._grids.pop(name, None)
        names = self.wb.sheetnames
        shown = self.wb.active  # (openpyxl keeps the shown sheet by its index, Excel the sheet itself)
        self.wb.create_sheet(name, names.index(after) + 1 if after in names else None)
        if shown is not None:
            self.wb.active = shown

    def activate(self, sheet: str, cell: str = "A1") -> None:
        """Open the workbook at ``sheet`` with ``cell`` selected (the only sheet selected)."""
        ws = self._ws(sheet)
        self.wrote = True
        for other in self.wb.worksheets:
            other.sheet_view.tabSelected = other is ws
        self.wb.active = ws
        ws.sheet_view.selection[0].activeCell = cell
        ws.sheet_view.selection[0].sqref = cell

    def lay_out(self, sheet: str, layout: Layout) -> None:
        from openpyxl.styles import Alignment
        from xlbridge.workbooks.style import TITLE_FONT, font

        ws = self._ws(sheet)
        if layout.title:
            ws["A1"].font = TITLE_FONT
        for row, col in layout.titles:
            ws.cell(row=row, column=col).font = TITLE_FONT
        for row, col in layout.bold:
            ws.cell(row=row, column=col).font = font(bold=True)
        header = font(bold=True, color="FF" + layout.header_font.lstrip("#").upper())
        for area in layout.headers():
            for row, col in cells_of(area):
                cell = ws.cell(row=row, column=col)
                cell.font = header
                cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
                self.fill(sheet, row, col, layout.header_fill)
        for col, width in enumerate(layout.widths, start=1):
            ws.column_dimensions[column_letter(col)].width = width
        for area in layout.headers():  # a header of two lines: a row of two (once the widths are set)
            for row, col in cells_of(area):
                fit_row(ws, ws.cell(row=row, column=col))
        headed = {cell for area in layout.headers() for cell in cells_of(area)}
        # down to the last row the layout gives room for: a value written later keeps the look of its cell
        last = max([ws.max_row] + [r + n - 1 for (r, _c, n, _w), _ in layout.number_formats + layout.fills])
        for col in layout.wrap_columns:
            ws.column_dimensions[column_letter(col)].alignment = WRAPPED
            for row in range(1, last + 1):
                if (row, col) not in headed:  # (a header keeps its centred look)
                    cell = ws.cell(row=row, column=col)
                    cell.alignment = WRAPPED
                    fit_row(ws, cell)
        for area, number_format in layout.number_formats:
            for row, col in cells_of(area):
                ws.cell(row=row, column=col).number_format = number_format
        for area, colour in layout.fills:
            for row, col in cells_of(area):
                self.fill(sheet, row, col, colour)
        if layout.freeze is not None:
            ws.freeze_panes = ws.cell(row=layout.freeze[0], column=layout.freeze[1]).coordinate
        for area, rule in layout.rules:
            add_rule(ws, area, rule)
        print_setup(ws, layout)
        if layout.hidden and ws.sheet_state != "hidden":  # (the record's sheet shown, or very hidden: hidden again)
            ws.sheet_state = "hidden"
            self.wrote = True

    def alert(self, message: str) -> None:
        self.messages.append(message)


def print_setup(ws: Any, layout: Layout) -> None:
    """A layout's print setup on an openpyxl sheet (what it does not set stays)."""
    if layout.orientation:
        ws.page_setup.orientation = layout.orientation
    if layout.fit_width:
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 1 if layout.one_page else 0
    if layout.repeat_rows is not None:
        ws.print_title_rows = f"{layout.repeat_rows[0]}:{layout.repeat_rows[1]}"
    if layout.print_area is not None:
        ws.print_area = area_name(layout.print_area)
    if layout.page_header:
        ws.oddHeader.center.text = layout.page_header
        ws.oddHeader.center.font = "-,Bold"
