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
import re
from copy import copy
from typing import Any

from openpyxl.styles.numbers import BUILTIN_FORMATS
from openpyxl.utils.datetime import to_excel

SHEET_DEFAULTS = {
    "pictures": [], "tables": [], "shapes": [], "charts": [], "notes": [],
    "visibility": "Visible", "show_gridlines": True, "pivot_tables": [], "print_area": None,
}
#: The xlwings-server JavaScript releases whose payload :func:`payload` builds, newest first:
#: "1.17" (1.17.0 to 1.20.0: the used range of cells holding values, with its address; a number in
#: a date format as ISO text), "1.13" (1.13.0 to 1.16.0: as 1.17, but a date travels as ISO text
#: only in one of Excel's own date formats -- its number format category Date or Time --, in a
#: format of one's own such as yyyy-mm-dd as its number: xlwings-server issue 354) and "1.12"
#: (1.11.1 to 1.12.1: dates as 1.13; A1 to the last cell of Excel's used range, formatted empty
#: cells included; per sheet only its name, values, pictures and tables).
RELEASES = ("1.17", "1.13", "1.12")
#: Excel's own date and time formats (number format category Date or Time), as openpyxl names them.
_EXCELS_DATES = frozenset(BUILTIN_FORMATS[i] for i in (*range(14, 23), 45, 46, 47))


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


def _used(ws: Any, values_only: bool) -> tuple[int, int, int, int] | None:
    """(first row, first column, last row, last column) of Excel's used range of ``ws``
    (``values_only``: ``getUsedRangeOrNullObject(true)``, the cells holding a value); None: empty."""
    cells = [p for p, cell in ws._cells.items() if not values_only or cell.value not in (None, "")]
    if not cells:
        return None
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    return min(rows), min(cols), max(rows), max(cols)


def _address(used: tuple[int, int, int, int]) -> str:
    from openpyxl.utils import get_column_letter

    top, left, bottom, right = used
    first, last = f"{get_column_letter(left)}{top}", f"{get_column_letter(right)}{bottom}"
    return first if first == last else f"{first}:{last}"


def _sheet(ws: Any, release: str) -> dict[str, Any]:
    """One sheet of the payload as xlwings' JavaScript builds it (``getBookData``): the values
    of A1 to the used range's last cell (a date as ISO text, an empty cell as ``""``; an
    empty sheet ``[[""]]``)."""
    used = _used(ws, values_only=release != "1.12")
    if used is None:
        values: list[list[Any]] = [[""]]
    else:
        by_category = release != "1.17"
        values = [[to_excel(c.value) if by_category and isinstance(c.value, dt.date) and c.number_format not in _EXCELS_DATES
                   else _to_js(c.value) for c in row]
                  for row in ws.iter_rows(min_row=1, min_col=1, max_row=used[2], max_col=used[3])]
    if release == "1.12":
        return {"name": ws.title, "values": values, "pictures": [], "tables": []}
    return {"name": ws.title, **SHEET_DEFAULTS, "visibility": "Visible" if ws.sheet_state == "visible" else "Hidden",
            "print_area": ws.print_area.replace("'" + ws.title + "'!", "").replace(ws.title + "!", "").replace("$", "")
            if ws.print_area else None,
            "used_range_address": None if used is None else _address(used),
            "used_range_row_count": 0 if used is None else used[2] - used[0] + 1,
            "used_range_column_count": 0 if used is None else used[3] - used[1] + 1,
            "values": values}


def _names(value: Any) -> list[str]:
    if not value:
        return []
    if isinstance(value, str):
        value = value.split(",")
    return [v.strip() for v in value if v.strip()]


_NO_USED_RANGE = {"used_range_address": None, "used_range_row_count": 0, "used_range_column_count": 0, "shapes": []}


def sent_as_asked(body: dict[str, Any], include: Any = None, exclude: Any = None) -> dict[str, Any]:
    """``body`` with a script's ``include``/``exclude`` applied as xlwings' Office.js
    client applies them (xlwingsjs/src/xlwings.ts: exact sheet names, a list or
    comma-separated; a sheet left out travels with ``values: [[]]``, no used range and no
    tables, pictures or shapes)."""
    included, excluded = _names(include), _names(exclude)
    if not included and not excluded:
        return body
    left_out = {s["name"] for s in body["sheets"] if s["name"] not in included} if included else set(excluded)
    out = dict(body)
    out["sheets"] = [dict(s, values=[[]], pictures=[], tables=[], **_NO_USED_RANGE if "used_range_address" in s else {})
                     if s["name"] in left_out else s for s in body["sheets"]]
    return out


def payload(workbook: Any, name: str = "Book1.xlsx", *, include: Any = None, exclude: Any = None,
            release: str = "1.17") -> dict[str, Any]:
    """The JSON body xlwings' JavaScript sends for a script call (``xw.Book(json=...)``):
    ``getBookData`` of the xlwings-server ``release`` (:data:`RELEASES`); a script's
    ``include``/``exclude`` as in :func:`sent_as_asked`."""
    import xlwings as xw

    if release not in RELEASES:
        raise ValueError(f"release {release!r}: one of {RELEASES}")
    book = {"name": name, "active_sheet_index": workbook.worksheets.index(workbook.active), "selection": "A1"}
    if release != "1.12":
        book["calculation"] = "Automatic"
    return sent_as_asked({
        "client": "Office.js",
        "version": xw.__version__,
        "book": book,
        "names": [],
        "sheets": [_sheet(ws, release) for ws in workbook.worksheets],
    }, include, exclude)


def as_typed(workbook: Any) -> Any:
    """``workbook`` (openpyxl) as the scorer typed it: every cell of the headless
    recalculation's blocks emptied, in place; returned."""
    from xlbridge.language import speaking
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks import recalc
    from xlbridge.workbooks.localised import Localised, language_of, localised

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
               args: list[Any] | None = None, release: str = "1.17") -> list[dict[str, Any]]:
    """Run ``script`` of ``module`` through ``xlwings.server.custom_scripts_call``
    on the payload of ``workbook``; returns the actions.  ``args``: the script's
    arguments as App Mode's form sends them (a date as ISO text).  Needs
    ``XLWINGS_ON_SERVER=true`` set before xlwings was first imported."""
    import xlwings as xw
    from xlwings import server

    book = xw.Book(json=payload(workbook, name, release=release))
    asyncio.run(server.custom_scripts_call(module, script, typehint_to_value={xw.Book: book}, args=args))
    return book.json()["actions"]


#: How Excel reads text typed in a cell (Office.js ``range.values`` takes a string as typed:
#: OfficeDev/office-js issue 229), written apart from xlbridge's own rule so that the tests can
#: check it: a number (signs, parentheses for a minus, a currency sign, thousands separators,
#: a decimal point or comma, an exponent, a percent), a date (day, month and year by digits in
#: any order and separator, or with a month's name), a time, a flag, an error value, a formula.
_NUMBER = re.compile(r"[+-]?\(?[$€£¥]?\s?[+-]?((\d{1,3}([,. ]\d{3})+|\d+)([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?\s?%?\)?")
_DAY = re.compile(r"\d{1,4}[-/.]\d{1,2}([-/.]\d{1,4})?")
_TIME = re.compile(r"\d{1,2}:\d{2}(:\d{2}([.,]\d+)?)?(\s?[AaPp]\.?[Mm]\.?)?|\d{1,2}\s?[AaPp]\.?[Mm]\.?")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",  # en
           "mrt", "mei", "okt",  # nl
           "gen", "mag", "giu", "lug", "ago", "set", "ott", "dic",  # it
           "maj", "aug", "okt",  # sv
           "oca", "şub", "nis", "haz", "tem", "ağu", "eyl", "eki", "kas", "ara")  # tr
_NAMED_DAY = re.compile(r"(\d{1,2}[- ]?)?(%s)[a-zçğıöşü]*\.?([- ,]+\d{1,4})*" % "|".join(_MONTHS), re.IGNORECASE)
_FLAGS = {"TRUE": True, "FALSE": False, "WAAR": True, "ONWAAR": False, "VERO": True, "FALSO": False,
          "SANT": True, "FALSKT": False, "DOĞRU": True, "YANLIŞ": False}
_ERRORS = {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#SPILL!", "#CALC!", "#GETTING_DATA"}


def excel_reads(text: str) -> tuple[str, Any]:
    """(kind, value) of ``text`` typed in a cell: ``("text", the text)`` -- also after
    Excel's text prefix ``'``, which the cell does not keep -- or ``"number"``, ``"date"``
    (an ISO date, with a time, as a ``datetime``; other forms as ``None``), ``"time"``,
    ``"flag"``, ``"error"``, ``"formula"`` (a number or a date whose value depends on the
    reader's locale: ``None``)."""
    if text.startswith("'"):
        return "text", text[1:]
    stripped = text.strip()
    if not stripped:
        return "text", text
    if stripped[0] in "=+-@" and (stripped == "=" or len(stripped) > 1 and not _NUMBER.fullmatch(stripped)):
        return "formula", stripped  # ("=" alone: Excel refuses it)
    if stripped.upper() in _FLAGS:
        return "flag", _FLAGS[stripped.upper()]
    if stripped.upper() in _ERRORS:
        return "error", stripped.upper()
    if _NUMBER.fullmatch(stripped):
        number = stripped.replace(" ", "").strip("()$€£¥%")
        if "," in number and "." not in number and number.count(",") == 1 and len(number.split(",")[1]) != 3:
            number = number.replace(",", ".")  # a decimal comma
        try:
            value: float | None = float(number.replace(",", ""))
        except ValueError:  # (thousands by points: the value is the reader's locale's; it is a number either way)
            return "number", None
        value = -value if stripped.startswith("(") else value
        return "number", value / 100 if stripped.endswith("%") else value
    day, _sep, time = stripped.partition(" ")
    if _DAY.fullmatch(day) and (not time or _TIME.fullmatch(time)):
        try:
            return "date", dt.datetime.fromisoformat(stripped)
        except ValueError:
            return "date", None
    if _TIME.fullmatch(stripped):
        return "time", None
    if _NAMED_DAY.fullmatch(stripped) and any(ch.isdigit() for ch in stripped):
        return "date", None
    return "text", text


def _typed(ws: Any, cell: Any, value: Any) -> None:
    """``value`` of a ``setValues`` in ``cell`` as Excel stores it: ``""`` empties the cell, text
    is read as if typed (:func:`excel_reads`), a number in a date format is that date."""
    from openpyxl.utils.datetime import from_excel

    if value == "":
        cell.value = None
    elif isinstance(value, str):
        kind, read = excel_reads(value)
        if kind in ("text", "flag") or kind in ("number", "date") and read is not None:
            cell.value = read
            if kind == "text":
                cell.data_type = "s"  # (openpyxl would take text starting with = for a formula)
        else:
            raise AssertionError(f"emulate: Excel reads {value!r} in {ws.title}!{cell.coordinate} as a {kind}")
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and cell.is_date:
        cell.value = from_excel(value)
    else:
        cell.value = value


def apply_actions(workbook: Any, actions: list[dict[str, Any]]) -> list[str]:
    """Apply xlwings' actions to ``workbook`` as Excel would; returns the alerts.  Only the
    actions the Excel path may send (``tests/officejs/test_actions.py``); any other raises."""
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
        row0, col0 = action["start_row"] + 1, action["start_column"] + 1
        cells = [ws.cell(row=row0 + r, column=col0 + c)
                 for r in range(action["row_count"]) for c in range(action["column_count"])]
        if func == "setValues":
            for cell, value in zip(cells, (v for line in action["values"] for v in line)):
                _typed(ws, cell, value)
        elif func == "setRangeColor":
            rgb = "FF" + action["args"][0].lstrip("#").upper()  # (null: 1.12.0's action throws; the test forbids it)
            for cell in cells:
                cell.fill = PatternFill(fill_type="solid", start_color=rgb, end_color=rgb)
        elif func == "setNumberFormat":
            for cell in cells:
                cell.number_format = action["args"][0]  # (a 1x1 format for a range: Excel applies it to every cell)
        elif func == "setFontProperty" and action["args"][0] in ("bold", "color", "size"):
            name, value = action["args"]
            for cell in cells:
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
        recalc.recalculate_and_list(OpenpyxlBook(headless))  # (as xlbridge recalc: the Messages sheet too)
    except recalc.BookInputError:
        pass
    excel = load_workbook(path)
    alerts = apply_actions(excel, run_script(scripts, "recalculate_season", load_workbook(path)))
    return headless, excel, alerts


def snapshot(workbook: Any, without: tuple[str, ...] = ()) -> dict[str, list[list[tuple[Any, Any]]]]:
    """Every cell's value and fill colour, sheet by sheet (for comparisons; ``without``: sheets left out,
    e.g. the record of the last recalculation, which a built workbook does not have yet).  A number
    to the 15 significant digits Excel shows: a file written by openpyxl keeps 16, so a cell left
    as it was and one written again may differ in the 17th (xlbridge.workbooks.book.same_number)."""
    out = {}
    for ws in workbook.worksheets:
        if ws.title in without:
            continue
        rows = []
        for row in ws.iter_rows():
            line = []
            for cell in row:
                fill = cell.fill.start_color.rgb if cell.fill is not None and cell.fill.fill_type == "solid" else None
                value = cell.value
                line.append((float(f"{value:.15g}") if type(value) is float else value, fill))
            while line and line[-1] == (None, None):
                line.pop()
            rows.append(line)
        while rows and not rows[-1]:
            rows.pop()
        out[ws.title] = rows
    return out
