"""The Heeg area as code (xlbridge/clubs/heeg/ and xlbridge/workbooks/heeg/): every
problem has a code, no code decides on message text, modules and functions stay
small, and the recalculation imports neither the builder nor pandas, numpy or
openpyxl."""

from __future__ import annotations

import ast
import datetime as dt
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import xlbridge

PACKAGE = Path(xlbridge.__file__).parent
SOURCES = sorted([*(PACKAGE / "clubs" / "heeg").glob("*.py"), *(PACKAGE / "workbooks" / "heeg").glob("*.py")])
CODE = re.compile(r"problems|[a-z]+(\.[a-z0-9-]+)+")  # "problems": the summary of a ProblemsError
#: Calls that make a problem, and the position of their code and template.
MAKERS = {"RuleError": 0, "Problem": 0, "HeegProblem": 0, "problem": 0, "bad": 0, "bad_at": 1, "at": 2}


def _trees():
    for path in SOURCES:
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def test_the_sources_are_found():
    names = {p.relative_to(PACKAGE).as_posix() for p in SOURCES}
    assert {"clubs/heeg/rules.py", "clubs/heeg/season.py", "workbooks/heeg/declaration.py",
            "workbooks/heeg/build.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_modules_and_functions_are_small(path):
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 600
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.end_lineno - node.lineno < 80, (path.name, node.name)


def test_every_problem_is_made_with_a_code_and_a_plain_template():
    """A code is a dotted literal (or a named constant); a template is never an
    f-string (the values go in as parameters, so the words can be translated)."""
    checked = 0
    for path, tree in _trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or _name(node.func) not in MAKERS:
                continue
            at = MAKERS[_name(node.func)]
            args = node.args
            if len(args) <= at:  # RuleError(problem): a problem made elsewhere
                continue
            code = args[at]
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                assert CODE.fullmatch(code.value), (path.name, node.lineno, code.value)
            else:
                assert isinstance(code, (ast.Name, ast.Attribute)), (path.name, node.lineno)
            assert not any(isinstance(a, ast.JoinedStr) for a in args), (path.name, node.lineno)
            checked += 1
    assert checked > 80


def test_no_code_decides_on_message_text():
    """No comparison, ``in`` test or ``startswith`` on a message (``.message``,
    ``str(p)``, a variable called message or msg)."""

    def is_message(node: ast.expr) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr == "message") or \
            (isinstance(node, ast.Name) and node.id in ("message", "msg")) or \
            (isinstance(node, ast.Call) and _name(node.func) == "str")

    for path, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                assert not any(is_message(side) for side in (node.left, *node.comparators)), (path.name, node.lineno)
            if isinstance(node, ast.Call) and _name(node.func) in ("startswith", "endswith"):
                assert not is_message(node.func.value), (path.name, node.lineno)


CHILD = r'''
import json, sys

class Blocked:
    BLOCKED = ("pandas", "numpy", "openpyxl")
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.BLOCKED:
            raise ImportError(f"{name} is not available in xlwings Lite")
        return None

sys.meta_path.insert(0, Blocked())
from xlbridge.workbooks import recalc
from xlbridge.workbooks.book import Layout

class Book:
    def __init__(self, grids):
        self.grids, self.fills, self.layouts = grids, {}, {}
    def sheet_names(self):
        return list(self.grids)
    def read(self, sheet):
        return [list(r) for r in self.grids[sheet]]
    def write(self, sheet, row, col, values):
        grid = self.grids[sheet]
        for r, line in enumerate(values):
            while len(grid) < row + r:
                grid.append([])
            target = grid[row + r - 1]
            for c, value in enumerate(line):
                target += [None] * (col + c - len(target))
                target[col + c - 1] = value
    def fill(self, sheet, row, col, colour):
        self.fills[(sheet, row, col)] = colour
    def add_sheet(self, name):
        self.grids[name] = []
    def lay_out(self, sheet, layout):
        self.layouts[sheet] = layout
    def alert(self, message):
        pass

book = Book(json.load(open(sys.argv[1], encoding="utf-8")))
report = recalc.recalculate(book, when="t")
print(json.dumps({"kind": report.kind, "changes": len(report.changes), "written": report.cells_written,
                  "loaded": sorted(m for m in sys.modules if m.split(".")[0] in Blocked.BLOCKED
                                   or m in ("xlbridge.workbooks.heeg.build", "xlbridge.clubs.heeg.frames",
                                            "xlbridge.clubs.heeg.demo", "xlbridge.clubs.frames"))}))
'''


@pytest.mark.slow
def test_the_recalculation_needs_no_builder_pandas_or_openpyxl(tmp_path):
    """The Excel path: recalculating the demo season on plain grids (as Office.js
    sends them: dates as ISO text) imports only the standard library."""
    from xlbridge.workbooks.heeg import heeg_workbook

    wb = heeg_workbook(False, language="en")
    grids = {ws.title: [[c.value.isoformat() if isinstance(c.value, (dt.date, dt.datetime)) else c.value for c in row]
                        for row in ws.iter_rows()] for ws in wb.worksheets}
    source = tmp_path / "grids.json"
    source.write_text(json.dumps(grids), encoding="utf-8")
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    # (a script's own folder comes first on sys.path, not the working folder: PYTHONPATH makes the
    # child import this checkout's xlbridge, not another one installed in the environment)
    done = subprocess.run([sys.executable, str(script), str(source)], capture_output=True, text=True,
                          cwd=PACKAGE.parent, env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)})
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["kind"] == "heeg" and out["changes"] == 0 and out["written"] > 5_000
    assert out["loaded"] == []


def test_the_shipped_demo_holds_what_the_declaration_says(tmp_path):
    """The builder, the reader and the problem-to-cell mapping agree with the declaration."""
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.heeg import SETTINGS, heeg_workbook, read_season, season_spec

    wb = heeg_workbook(False, language="en")
    problems: list = []
    season = read_season(OpenpyxlBook(wb).read("Season"), problems)
    assert not problems and season is not None
    labels = [p.label for p in season.settings.periods]
    spec = season_spec(labels, 6)
    periods, pairs = spec.table("periods"), spec.table("pairs")
    assert season.period_rows == {label: periods.first_row + i for i, label in enumerate(labels)}
    assert min(season.pair_rows.values()) == pairs.first_row
    ws = wb["Season"]
    assert [ws.cell(row=s.row, column=s.label_col).value for s in SETTINGS] == [s.label for s in SETTINGS]
    assert [c.value for c in ws[periods.header_row]][: periods.width()] == periods.headers()
    assert [c.value for c in ws[pairs.header_row]][: pairs.width()] == pairs.headers()
