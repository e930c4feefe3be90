"""Stand-in for Excel's side of xlwings' Office.js protocol (tests and benchmarks).

Linux has no Excel, but xlwings' own dispatch (``xlwings.server``) runs here.
This module builds the book payload Office.js would send from an openpyxl
workbook, and applies the actions xlwings returns to an openpyxl workbook the
way Excel would, so the Excel path can be compared cell by cell with the
headless path.  Facts it follows (observed in xlwings' remote interpreter):
empty cells travel as ``""``, dates as ISO strings ending in ``Z``, actions use
0-based positions, and a leading apostrophe makes Excel store text as text.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from copy import copy
from typing import Any

SHEET_DEFAULTS = {
    "pictures": [], "tables": [], "shapes": [], "charts": [], "notes": [],
    "visibility": "Visible", "show_gridlines": True, "pivot_tables": [], "print_area": None,
}


def _to_js(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    if isinstance(value, dt.date):
        return value.strftime("%Y-%m-%dT00:00:00.000Z")
    if isinstance(value, dt.time):
        return value.isoformat()
    return value


def _names(value: Any) -> list[str]:
    if not value:
        return []
    if isinstance(value, str):
        value = value.split(",")
    return [v.strip() for v in value if v.strip()]


def sent_as_asked(body: dict[str, Any], include: Any = None, exclude: Any = None) -> dict[str, Any]:
    """``body`` with a script's ``include``/``exclude`` applied as xlwings' Office.js
    client applies them (xlwingsjs/src/xlwings.ts: exact sheet names, a list or
    comma-separated; a sheet left out travels with ``values: [[]]`` and no tables or
    pictures)."""
    included, excluded = _names(include), _names(exclude)
    if not included and not excluded:
        return body
    left_out = {s["name"] for s in body["sheets"] if s["name"] not in included} if included else set(excluded)
    out = dict(body)
    out["sheets"] = [dict(s, values=[[]], pictures=[], tables=[]) if s["name"] in left_out else s
                     for s in body["sheets"]]
    return out


def payload(workbook: Any, name: str = "Book1.xlsx", *, include: Any = None, exclude: Any = None) -> dict[str, Any]:
    """The JSON body Office.js sends for a script call (``xw.Book(json=...)``); a
    script's ``include``/``exclude`` as in :func:`sent_as_asked`."""
    import xlwings as xw

    sheets = []
    for ws in workbook.worksheets:
        if ws.max_row == 1 and ws.max_column == 1 and ws.cell(1, 1).value is None:
            values: list[list[Any]] = [[""]]
        else:
            values = [[_to_js(v) for v in row] for row in ws.iter_rows(min_row=1, min_col=1, values_only=True)]
        sheets.append({"name": ws.title, "values": values, **SHEET_DEFAULTS,
                       "visibility": "Visible" if ws.sheet_state == "visible" else "Hidden"})
    return sent_as_asked({
        "client": "Office.js",
        "version": xw.__version__,
        "book": {"name": name, "active_sheet_index": 0, "selection": "A1"},
        "names": [],
        "sheets": sheets,
    }, include, exclude)


def as_typed(workbook: Any) -> Any:
    """``workbook`` (openpyxl) as the scorer typed it: every cell of the headless
    recalculation's blocks emptied, in place; returned."""
    from xlbridge.language import speaking
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks import recalc
    from xlbridge.workbooks.speak import Localised, language_of, localised

    book = OpenpyxlBook(workbook)
    language = language_of(book)  # planned in its own language, through the English sheet names
    with speaking(language):
        blocks = recalc.detect(book).plan(localised(book, language)).blocks
    for block in blocks:
        ws = workbook[Localised.local_name(block.sheet, language)]
        for r, line in enumerate(block.values):
            for c in range(len(line)):
                if ws.cell(block.row + r, block.col + c).value is not None:
                    ws.cell(block.row + r, block.col + c).value = None
    return workbook


def function_body(func_name: str, *args: Any) -> dict[str, Any]:
    """The request body Office.js sends for a custom function call: every argument
    a 2-D list (a scalar becomes ``[[value]]``), omitted optionals ``None`` (null)."""
    import xlwings as xw

    return {
        "func_name": func_name,
        "args": [None if a is None else a if isinstance(a, list) else [[a]] for a in args],
        "caller_address": "Sheet1!B2",
        "formula_name": func_name.upper(),
        "version": xw.__version__,
        "runtime": "1.4",
        "culture_info_name": "en-US",
        "date_format": "dd/mm/yyyy",
        "client": "Office.js",
    }


def run_script(module: Any, script: str, workbook: Any, name: str = "Book1.xlsx",
               args: list[Any] | None = None) -> list[dict[str, Any]]:
    """Run ``script`` of ``module`` through ``xlwings.server.custom_scripts_call``
    on the payload of ``workbook``; returns the actions.  ``args``: the script's
    arguments as App Mode's form sends them (a date as ISO text).  Needs
    ``XLWINGS_ON_SERVER=true`` set before xlwings was first imported."""
    import xlwings as xw
    from xlwings import server

    book = xw.Book(json=payload(workbook, name))
    asyncio.run(server.custom_scripts_call(module, script, typehint_to_value={xw.Book: book}, args=args))
    return book.json()["actions"]


def _from_js(value: Any) -> Any:
    if value == "":
        return None
    if isinstance(value, str) and value.startswith("'"):
        return value[1:]  # Excel's text prefix is not stored in the cell
    return value


def apply_actions(workbook: Any, actions: list[dict[str, Any]]) -> list[str]:
    """Apply xlwings' actions to ``workbook`` as Excel would; returns the alerts."""
    from openpyxl.styles import PatternFill

    alerts: list[str] = []
    for action in actions:
        func = action["func"]
        if func == "addSheet":
            index, title = action["args"]
            workbook.create_sheet(title, index)
            continue
        if func == "alert":
            alerts.append(action["args"][0])
            continue
        if func == "activateSheet":  # args: [the sheet's index]
            index = action["args"][0] if isinstance(action["args"], list) else action["args"]
            workbook.active = index
            for i, sheet in enumerate(workbook.worksheets):
                sheet.sheet_view.tabSelected = i == index
            continue
        ws = workbook.worksheets[action["sheet_position"]]
        if func == "rangeSelect":  # the selection: where the scorer types first
            from openpyxl.utils import get_column_letter

            where = f"{get_column_letter(action['start_column'] + 1)}{action['start_row'] + 1}"
            ws.sheet_view.selection[0].activeCell = ws.sheet_view.selection[0].sqref = where
            continue
        if func == "freezePaneAtRange":  # the frozen cells: "A1:C1" -> the panes scroll from D2
            ws.freeze_panes = _first_scrolling_cell(action["args"][0])
            continue
        if func == "setSheetAutofit":  # Excel measures the text; openpyxl cannot: widths stay
            continue
        if func == "setSheetVisibility":  # Office.js: "Visible", "Hidden" (xlwings' Sheet.visible)
            ws.sheet_state = "visible" if action["args"][0] == "Visible" else "hidden"
            continue
        if func == "setPrintArea":
            ws.print_area = action["args"][0]
            continue
        row0, col0 = action["start_row"] + 1, action["start_column"] + 1
        if func == "setValues":
            for r, line in enumerate(action["values"]):
                for c, value in enumerate(line):
                    cell = ws.cell(row=row0 + r, column=col0 + c)
                    raw = value
                    cell.value = _from_js(value)
                    if isinstance(raw, str) and raw.startswith("'"):
                        cell.data_type = "s"
        elif func == "setRangeColor":
            colour = action["args"][0]
            for r in range(action["row_count"]):
                for c in range(action["column_count"]):
                    cell = ws.cell(row=row0 + r, column=col0 + c)
                    if colour is None:
                        cell.fill = PatternFill(fill_type=None)
                    else:
                        rgb = "FF" + colour.lstrip("#").upper()
                        cell.fill = PatternFill(fill_type="solid", start_color=rgb, end_color=rgb)
        elif func == "setNumberFormat":
            for r in range(action["row_count"]):
                for c in range(action["column_count"]):
                    ws.cell(row=row0 + r, column=col0 + c).number_format = action["args"][0]
        elif func == "setFontProperty" and action["args"][0] in ("bold", "color", "size"):
            name, value = action["args"]
            for r in range(action["row_count"]):
                for c in range(action["column_count"]):
                    cell = ws.cell(row=row0 + r, column=col0 + c)
                    font = copy(cell.font)
                    if name == "bold":
                        font.bold = bool(value)
                    elif name == "size":
                        font.size = float(value)
                    else:
                        font.color = "FF" + str(value).lstrip("#").upper()
                    cell.font = font
        else:
            raise NotImplementedError(f"emulate: action {func!r} is not emulated")
    return alerts


def _first_scrolling_cell(frozen: str) -> str:
    """Excel's frozen cells as openpyxl's ``freeze_panes``: "A1:C1" -> "D2",
    "1:3" -> "A4", "A:C" -> "D1"."""
    import re

    from openpyxl.utils import column_index_from_string, get_column_letter

    last = frozen.replace("$", "").split(":")[-1]
    letters, digits = re.fullmatch(r"([A-Z]*)(\d*)", last).groups()
    col = column_index_from_string(letters) + 1 if letters else 1
    row = int(digits) + 1 if digits else 1
    return f"{get_column_letter(col)}{row}"


def formats(workbook: Any) -> dict[str, Any]:
    """Each sheet's look as far as both backends set it: frozen panes, and per
    cell the number format, bold and font colour where not the default (for
    comparisons, next to :func:`snapshot`)."""
    out: dict[str, Any] = {}
    for ws in workbook.worksheets:
        cells = {}
        for row in ws.iter_rows():
            for cell in row:
                colour = cell.font.color.rgb if cell.font is not None and cell.font.color is not None else None
                look = (cell.number_format, bool(cell.font.bold), colour if isinstance(colour, str) else None,
                        float(cell.font.sz or 11))
                if look != ("General", False, None, 11.0):
                    cells[cell.coordinate] = look
        out[ws.title] = {"freeze": ws.freeze_panes, "cells": cells}
    return out


def excel_and_headless(path: Any) -> tuple[Any, Any, list[str]]:
    """The workbook at ``path`` recalculated both ways: (headless workbook,
    Excel-path workbook, the Excel path's alerts).  A workbook with problems is
    left as it is by the headless path, as ``xlbridge recalc`` leaves it."""
    from openpyxl import load_workbook

    from xlbridge.excel import scripts
    from xlbridge.workbooks import recalc
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook

    headless = load_workbook(path)
    try:
        recalc.recalculate(OpenpyxlBook(headless))
    except recalc.BookInputError:
        pass
    excel = load_workbook(path)
    alerts = apply_actions(excel, run_script(scripts, "recalculate_season", load_workbook(path)))
    return headless, excel, alerts


def snapshot(workbook: Any, without: tuple[str, ...] = ()) -> dict[str, list[list[tuple[Any, Any]]]]:
    """Every cell's value and fill colour, sheet by sheet (for comparisons; ``without``: sheets left out,
    e.g. the record of the last recalculation, which a built workbook does not have yet)."""
    out = {}
    for ws in workbook.worksheets:
        if ws.title in without:
            continue
        rows = []
        for row in ws.iter_rows():
            line = []
            for cell in row:
                fill = cell.fill.start_color.rgb if cell.fill is not None and cell.fill.fill_type == "solid" else None
                line.append((cell.value, fill))
            while line and line[-1] == (None, None):
                line.pop()
            rows.append(line)
        while rows and not rows[-1]:
            rows.pop()
        out[ws.title] = rows
    return out
