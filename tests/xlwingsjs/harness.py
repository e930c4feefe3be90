"""A click of a workbook's own script as xlwings Lite runs it, judged by xlwings' own JavaScript.

One click (:func:`click`):

1. the workbook (openpyxl) becomes the state of the Excel mock (:func:`state_of`: values with
   their types, number formats, fills, fonts, sheet order and visibility, the active sheet and
   the selection, frozen panes, print areas, data validations, column widths and row heights);
2. the payload is built by the real ``getBookData`` of the xlwings-server release, on the mock
   (:class:`ExcelJS`, one Node process per release running ``runner.mjs``), with the script's
   ``include``/``exclude`` as its decorator in the workbook's own ``main.py`` declares them;
3. the workbook's own ``main.py`` (read from its webextension part) runs the script through
   xlwings' dispatch (``custom_scripts_call``) on CPython with ``XLWINGS_ON_SERVER=true``: the
   driver of tests/pyodide in a subprocess of its own (:class:`Lite`);
4. the returned actions are applied by the real ``runActions`` on the mock; the result
   (:class:`Click`) holds the final state, the alerts, and per action whether it applied.

:func:`view` turns a state into what the tests compare (values as openpyxl reads them, fills,
number formats, sheet order, visibility, the active sheet, print areas); :func:`state_of` of
the headless result gives the other side.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import math
import os
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openpyxl.styles.numbers import is_date_format
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import from_excel, to_excel

from tests.pyodide.harness import CPythonWorkbook, HarnessError, PythonError, _Process
from tests.xlwingsjs import runtime

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "runner.mjs"

#: The Corrections sheet's clock in the workbook's own code, pinned on both sides.
CLOCK = "xlbridge.workbooks.recalc.now_stamp"
STAMP = "2026-11-30 12:00"

VISIBILITY = {"visible": "Visible", "hidden": "Hidden", "veryHidden": "VeryHidden"}


# ------------------------------------------------------------------ openpyxl -> the mock's state


def _rgb(color: Any) -> str | None:
    """An openpyxl colour as Office.js reports it ("#RRGGBB"); None for a theme or indexed colour."""
    if color is None or color.type != "rgb" or not isinstance(color.rgb, str):
        return None
    return "#" + color.rgb[-6:].upper()


def _look(cell: Any) -> dict[str, Any]:
    """The number format, fill, font and quote prefix of a cell as the mock holds them."""
    x: dict[str, Any] = {}
    if cell.number_format != "General":
        x["nf"] = cell.number_format
    if cell.fill is not None and cell.fill.fill_type == "solid" and _rgb(cell.fill.fgColor):
        x["fill"] = _rgb(cell.fill.fgColor)
    font = {}
    if cell.font.b:
        font["bold"] = True
    if cell.font.i:
        font["italic"] = True
    if _rgb(cell.font.color):
        font["color"] = _rgb(cell.font.color)
    if cell.font.sz and float(cell.font.sz) != 11:
        font["size"] = float(cell.font.sz)
    if cell.font.name and cell.font.name != "Calibri":
        font["name"] = cell.font.name
    if font:
        x["font"] = font
    if cell.quotePrefix:
        x["q"] = True
    return x


def _cell(cell: Any, looks: dict[tuple[int, ...], dict[str, Any]]) -> dict[str, Any] | None:
    """A cell as the mock holds it, or None when it holds nothing (``looks``: each style's look,
    worked out once per workbook -- openpyxl's style objects are slow to read cell by cell)."""
    value = cell.value
    if value is None and not cell.has_style:
        return None
    x: dict[str, Any] = {"r": cell.row - 1, "c": cell.column - 1}
    if cell.data_type == "f":
        x["f"], x["v"] = str(value), ""
    elif cell.data_type == "e":
        x["v"], x["e"] = str(value), True
    elif isinstance(value, (dt.datetime, dt.date, dt.time)):
        x["v"] = to_excel(value)
    elif value is not None:
        x["v"] = value
    style = tuple(cell._style) if cell.has_style else ()  # noqa: SLF001 - openpyxl's style ids: the key of its look
    if style not in looks:
        looks[style] = _look(cell)
    x.update(looks[style])
    return x if len(x) > 2 else None


def _points(width: float) -> float:
    """A column width in characters (OOXML) as Office.js's points (Calibri 11: 7 pixels a digit)."""
    pixels = math.floor((256 * width + math.floor(128 / 7)) / 256 * 7)
    return pixels * 0.75


_OPERATORS = {None: "Between", "between": "Between", "notBetween": "NotBetween", "equal": "EqualTo",
              "notEqual": "NotEqualTo", "greaterThan": "GreaterThan", "lessThan": "LessThan",
              "greaterThanOrEqual": "GreaterThanOrEqualTo", "lessThanOrEqual": "LessThanOrEqualTo"}
_RULES = {"whole": ("WholeNumber", "wholeNumber"), "decimal": ("Decimal", "decimal"), "date": ("Date", "date"),
          "time": ("Time", "time"), "textLength": ("TextLength", "textLength")}


def _validation(dv: Any) -> dict[str, Any] | None:
    """An openpyxl data validation as Office.js's DataValidation (type, rule, prompt, errorAlert)."""
    if dv.type == "list":
        source = dv.formula1 or ""
        source = source[1:-1] if source.startswith('"') and source.endswith('"') else f"={source}"
        kind, rule = "List", {"list": {"inCellDropDown": not dv.showDropDown, "source": source}}
    elif dv.type == "custom":
        kind, rule = "Custom", {"custom": {"formula": f"={dv.formula1}"}}
    elif dv.type in _RULES:
        kind, key = _RULES[dv.type]
        criteria = {"operator": _OPERATORS[dv.operator], "formula1": dv.formula1}
        if dv.formula2 is not None:
            criteria["formula2"] = dv.formula2
        kind, rule = kind, {key: criteria}
    else:
        return None
    return {"sqref": str(dv.sqref), "type": kind, "rule": rule, "ignoreBlanks": bool(dv.allow_blank),
            "prompt": {"showPrompt": bool(dv.showInputMessage), "title": dv.promptTitle or "", "message": dv.prompt or ""},
            "errorAlert": {"showAlert": bool(dv.showErrorMessage), "style": (dv.errorStyle or "stop").capitalize(),
                           "title": dv.errorTitle or "", "message": dv.error or ""}}


def _print_area(ws: Any) -> str | None:
    area = ws.print_area
    if not area:
        return None
    areas = area if isinstance(area, (list, tuple)) else str(area).split(",")
    return ",".join(a.rpartition("!")[2].replace("$", "") for a in areas)


def _freeze(ws: Any) -> list[int] | None:
    if not ws.freeze_panes:
        return None
    from openpyxl.utils.cell import coordinate_from_string, column_index_from_string

    letters, row = coordinate_from_string(ws.freeze_panes)
    return [row - 1, column_index_from_string(letters) - 1]


def state_of(workbook: Any, name: str) -> dict[str, Any]:
    """The Excel mock's state of an openpyxl workbook (the shape excel-mock.mjs's BookModel reads)."""
    sheets = []
    looks: dict[tuple[int, ...], dict[str, Any]] = {}
    for ws in workbook.worksheets:
        selection = ws.sheet_view.selection[0] if ws.sheet_view.selection else None
        widths = {}
        for dim in ws.column_dimensions.values():
            if dim.width and dim.customWidth and dim.min:
                for col in range(dim.min, (dim.max or dim.min) + 1):
                    widths[col - 1] = _points(dim.width)
        sheets.append({
            "name": ws.title,
            "visibility": VISIBILITY[ws.sheet_state],
            "selection": (selection.sqref or selection.activeCell or "A1") if selection else "A1",
            "freeze": _freeze(ws),
            "printArea": _print_area(ws),
            "widths": widths,
            "heights": {r - 1: d.ht for r, d in ws.row_dimensions.items() if d.ht},
            "cells": [x for row in ws.iter_rows() for cell in row if (x := _cell(cell, looks))],
            "validations": [v for dv in ws.data_validations.dataValidation if (v := _validation(dv))],
        })
    return {"name": name, "active": workbook.index(workbook.active), "sheets": sheets}


# ------------------------------------------------------------------ what the tests compare


@dataclass(frozen=True)
class Formula:
    text: str


@dataclass(frozen=True)
class ExcelError:
    text: str


class Number(float):
    """A number as Excel keeps it: equal to another within Excel's precision of 15 significant
    digits (openpyxl writes the headless file with 16, ``%.16g``: the last bits of a computed
    value do not survive it)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (int, float)) and not isinstance(other, bool) \
            and math.isclose(self, other, rel_tol=1e-14, abs_tol=1e-300)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = float.__hash__

    def __repr__(self) -> str:
        return float.__repr__(self)


@dataclass
class View:
    """A workbook as the tests compare it; cells: sheet -> {(row, col): (value, fill)}, values as
    openpyxl reads them (a number in a date format is a datetime)."""

    order: list[str]
    visibility: dict[str, str]
    active: str
    cells: dict[str, dict[tuple[int, int], tuple[Any, str | None]]]
    formats: dict[str, dict[tuple[int, int], str]]
    print_areas: dict[str, str | None]


def _value(x: dict[str, Any]) -> Any:
    if "f" in x:
        return Formula(x["f"])
    if x.get("e"):
        return ExcelError(x["v"])
    value = x.get("v")
    if value == "" or value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if is_date_format(x.get("nf", "General")):
            return from_excel(value)
        return Number(value)
    return value


def view(state: dict[str, Any]) -> View:
    cells, formats = {}, {}
    for s in state["sheets"]:
        grid = {}
        for x in s["cells"]:
            value, fill = _value(x), x.get("fill")
            if value is not None or fill is not None:
                grid[(x["r"], x["c"])] = (value, fill)
        cells[s["name"]] = grid
        formats[s["name"]] = {(x["r"], x["c"]): x["nf"] for x in s["cells"] if "nf" in x}
    return View(order=[s["name"] for s in state["sheets"]],
                visibility={s["name"]: s["visibility"] for s in state["sheets"]},
                active=state["sheets"][state["active"]]["name"], cells=cells, formats=formats,
                print_areas={s["name"]: s["printArea"] for s in state["sheets"]})


def address(r: int, c: int) -> str:
    return f"{get_column_letter(c + 1)}{r + 1}"


def _shown(cell: tuple[Any, str | None] | None) -> str:
    if cell is None:
        return "empty"
    value, fill = cell
    text = f"{value.text!r} (a formula)" if isinstance(value, Formula) else \
        f"{value.text} (an error value)" if isinstance(value, ExcelError) else repr(value)
    return f"{text}, fill {fill}" if fill else text


def _difference(got: tuple[Any, str | None] | None, want: tuple[Any, str | None] | None) -> str:
    """One cell's difference; of two long texts, where they part (40 characters around it)."""
    texts = [c[0] if c else None for c in (got, want)]
    if all(isinstance(t, str) and len(t) > 80 for t in texts) and got[1] == want[1]:
        at = next((i for i, (x, y) in enumerate(zip(*texts)) if x != y), min(map(len, texts)))
        a, b = (t[max(at - 20, 0):at + 20] for t in texts)
        return f"texts of {len(texts[0])} and {len(texts[1])} characters part at character {at}: " \
               f"Excel ...{a!r}..., headless ...{b!r}..."
    return f"Excel {_shown(got)}; headless {_shown(want)}"


def differences(got: View, want: View, before: View, *, limit: int = 30) -> list[str]:
    """What differs between the Excel path (``got``) and the headless path (``want``) of the same
    file (``before``: as it was): sheet order, visibility, the active sheet, every cell's value and
    fill, and where the headless path set them (changed from ``before``, or on a sheet it added)
    the number formats and print areas -- but a sheet the click added has no print area in Excel,
    as decided (docs/printing.md: the Excel path sets none); the first ``limit`` cells, then how many more."""
    lines = []
    extra, missing = [n for n in got.order if n not in want.order], [n for n in want.order if n not in got.order]
    if extra or missing:
        lines.append(f"sheets: only in Excel {extra}, only headless {missing}")
    elif got.order != want.order:
        lines.append(f"sheet order: Excel {got.order}, headless {want.order}")
    for sheet in want.order:
        if sheet in got.visibility and got.visibility[sheet] != want.visibility[sheet]:
            lines.append(f"{sheet}: visibility Excel {got.visibility[sheet]}, headless {want.visibility[sheet]}")
    if got.active != want.active:
        lines.append(f"active sheet: Excel {got.active!r}, headless {want.active!r}")
    cells = []
    for sheet in want.order:
        if sheet not in got.cells:
            continue
        a, b = got.cells[sheet], want.cells[sheet]
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                cells.append(f"{sheet}!{address(*key)}: {_difference(a.get(key), b.get(key))}")
        new = sheet not in before.formats
        old = before.formats.get(sheet, {})
        for key, fmt in sorted(want.formats[sheet].items()):
            if (new or old.get(key, "General") != fmt) and got.formats[sheet].get(key, "General") != fmt:
                cells.append(f"{sheet}!{address(*key)}: number format Excel "
                             f"{got.formats[sheet].get(key, 'General')!r}, headless {fmt!r}")
        if new:  # a sheet the click added: the Excel path sets no print area (docs/printing.md, issue 23 point 6)
            if got.print_areas[sheet] is not None:
                lines.append(f"{sheet}: print area Excel {got.print_areas[sheet]}, expected none on an added sheet")
        elif before.print_areas.get(sheet) != want.print_areas[sheet] and got.print_areas[sheet] != want.print_areas[sheet]:
            lines.append(f"{sheet}: print area Excel {got.print_areas[sheet]}, headless {want.print_areas[sheet]}")
    if len(cells) > limit:
        cells = cells[:limit] + [f"... and {len(cells) - limit} more cells"]
    return lines + cells


# ------------------------------------------------------------------ xlwings' JavaScript under Node


class ExcelJS:
    """One xlwings-server release's JavaScript on the Excel mock: one Node process (runner.mjs)."""

    def __init__(self, version: str, xlwings_version: str):
        self.release = runtime.prepared(version)
        self.version = version
        node = shutil.which("node")
        if node is None:
            raise HarnessError("node is not on PATH (Node 18 or newer runs xlwings' JavaScript)")
        self.process = _Process([node, str(RUNNER), str(self.release.js_dir), xlwings_version], env=dict(os.environ),
                                cwd=HERE, label=f"xlwings-server {version} JavaScript")

    def ask(self, op: str, **fields: Any) -> dict[str, Any]:
        reply = self.process.request(op, **fields)
        if "error" in reply:
            error = reply["error"]
            raise HarnessError(f"xlwings-server {self.version} JavaScript, request {op!r}: {error.get('message')}\n"
                               f"{error.get('stack', '')}\n{reply.get('stdout', '')[-2000:]}")
        return reply

    def handlers(self) -> list[str]:
        return self.ask("handlers")["handlers"]

    def close(self) -> None:
        self.process.close()


_JS: dict[str, ExcelJS] = {}
_JS_FAILED: dict[str, BaseException] = {}
_LOCK = threading.Lock()


def excel_js(version: str) -> ExcelJS:
    """The shared Node process of ``version`` (started once; a failure to start is raised again)."""
    from importlib.metadata import version as installed

    with _LOCK:
        if version in _JS_FAILED:
            raise _JS_FAILED[version]
        if version not in _JS or _JS[version].process.proc.poll() is not None:
            try:
                _JS[version] = ExcelJS(version, installed("xlwings"))
            except (runtime.PreparationError, HarnessError) as error:
                _JS_FAILED[version] = error
                raise
        return _JS[version]


def close_all() -> None:
    with _LOCK:
        for js in _JS.values():
            js.close()
        _JS.clear()


# ------------------------------------------------------------------ the workbook's own main.py


class Lite:
    """The workbook's own ``main.py`` (from its webextension part) in a CPython process of its own,
    run as xlwings Lite runs it: through ``xlwings.server.custom_scripts_call`` with
    ``XLWINGS_ON_SERVER=true`` (tests/pyodide/driver.py)."""

    def __init__(self, path: Path, data: bytes):
        from tests import lite_files

        files = lite_files.extract(io.BytesIO(data))
        if "main.py" not in files:
            raise HarnessError(f"{path} carries no xlwings Lite main.py")
        self.workbook = CPythonWorkbook(path, files=files)

    def script_meta(self, name: str) -> dict[str, Any]:
        meta = self.workbook.script_meta(name)
        if not meta:
            raise HarnessError(f"{self.workbook.origin}: main.py has no script {name!r}")
        return meta

    def run(self, name: str, payload: dict[str, Any], args: list[Any],
            files: dict[str, bytes] | None = None) -> list[dict[str, Any]]:
        """The script's actions (``files``: path -> bytes placed as xlwings Lite's Files menu places them)."""
        import base64

        self.workbook.pin(CLOCK, STAMP)
        placed = {path: base64.b64encode(data).decode("ascii") for path, data in (files or {}).items()}
        reply = self.workbook.runtime.request("script", name=name, payload=payload, args=args, files=placed)
        if "error" in reply:
            raise PythonError(f"{self.workbook.origin}: script {name}", reply["error"], reply.get("stdout", ""))
        return reply["actions"]


# ------------------------------------------------------------------ one click


@dataclass
class Click:
    """One click applied by xlwings' JavaScript: the actions, per action whether it applied,
    the first failure (its index, func and message) and the alerts, and the final state."""

    version: str
    actions: list[dict[str, Any]]
    applied: list[dict[str, Any]]
    failed: dict[str, Any] | None
    alerts: list[str]
    state: dict[str, Any]

    def failure(self) -> str | None:
        """What went wrong applying the actions, or None: the failing action, its index (1-based,
        as xlwings counts) and arguments, and how many were applied before it."""
        if self.failed is None:
            return None
        f = self.failed
        action = self.actions[f["index"]] if 0 <= f["index"] < len(self.actions) else {}
        where = ""
        if action.get("sheet_position") is not None:
            where = f" on sheet {action['sheet_position']}"
            if action.get("start_row") is not None:
                where += f" at {address(action['start_row'], action['start_column'])}"
        args = json.dumps(action.get("args"), default=str)[:200]
        done = sum(a["ok"] for a in self.applied[: f["index"]])
        gap = " [a gap of the Excel mock, not of the code under test]" if f.get("mockGap") else ""
        statement = f" (at {f['statement']})" if f.get("statement") else ""
        return (f"xlwings-server {self.version}: action {f['index'] + 1} of {len(self.actions)} ({f['func']}{where}, "
                f"args {args}) failed: {f.get('code') or f.get('type')}: {f['message']}{statement}{gap}; "
                f"{done} actions applied before it, {len(self.actions) - f['index'] - 1} never ran; "
                f"alerts shown: {self.alerts}")


def click(js: ExcelJS, main: Lite, script: str, state: dict[str, Any], args: list[Any] | None = None,
          files: dict[str, bytes] | None = None) -> Click:
    """One click of ``script`` on ``state``: the payload by the release's getBookData, the script
    by the workbook's own main.py (``files`` placed under xlwings Lite's /data), its actions by the
    release's runActions."""
    meta = main.script_meta(script)
    js.ask("load", book=state)
    payload = js.ask("payload", include=meta.get("include") or "", exclude=meta.get("exclude") or "")["payload"]
    actions = main.run(script, payload, args or [], files)
    result = js.ask("apply", actions=actions)
    return Click(js.version, actions, result["applied"], result["failed"],
                 [a["prompt"] for a in result["alerts"]], js.ask("state")["book"])
