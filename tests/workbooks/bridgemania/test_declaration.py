"""The BridgeMania kind is derived from one declaration: problems are coded and put at
their cells from their concerns (no message text decides anything), a sheet the
recalculation adds again gets the declared look, and the builder is not imported
with the kind."""

from __future__ import annotations

import ast
import io
import random
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.files.headless import recalc_path
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.bridgemania import BridgeManiaSeason
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.plan import BookInputError

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = [ROOT / "xlbridge" / "clubs" / "bridgemania", ROOT / "xlbridge" / "workbooks" / "bridgemania"]
SOURCES = sorted(p for folder in PACKAGES for p in folder.glob("*.py"))


# ------------------------------------------------------------------ no decision on message text


def _about_message_text(node: ast.AST, caught: set[str]) -> bool:
    """``node`` reads a message's text: ``x.message``, ``msg``, ``str(error)`` of a caught exception."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in ("message", "args"):
            return True
        if isinstance(sub, ast.Name) and sub.id in ("msg", "message"):
            return True
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in ("str", "repr")
                and sub.args and isinstance(sub.args[0], ast.Name) and sub.args[0].id in caught):
            return True
    return False


def decisions_on_text(source: str) -> list[int]:
    """The lines that compare or search a message's text."""
    tree = ast.parse(source)
    caught = {h.name for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler) and h.name}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and _about_message_text(node, caught):
            found.append(node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("startswith", "endswith", "find", "index", "count", "replace", "split")
              and _about_message_text(node.func.value, caught)):
            found.append(node.lineno)
        elif isinstance(node, (ast.If, ast.IfExp, ast.While)) and _about_message_text(node.test, caught):
            found.append(node.lineno)
    return found


def test_the_check_finds_decisions_on_message_text():
    assert decisions_on_text('if "TOP" in p.message:\n    pass\n') == [1, 1]
    assert decisions_on_text('msg.startswith("not valid")\n') == [1]
    assert decisions_on_text('try:\n    f()\nexcept E as error:\n    cell = "B4" if "x" in str(error) else "B3"\n')
    assert decisions_on_text('x = p.code == "bm.top"\ny = {"detail": p.message}\n') == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}")
def test_no_code_decides_on_message_text(path):
    assert decisions_on_text(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}")
def test_every_module_is_small(path):
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 600
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.end_lineno - node.lineno <= 80, f"{path.name}: {node.name}"


# ------------------------------------------------------------------ every problem coded and located


@pytest.fixture(scope="module")
def demo_bytes(built_once, tmp_path_factory) -> bytes:
    """The demo as shipped, in English (built, then recalculated once)."""
    return built_once("bridgemania", tmp_path_factory.mktemp("bm") / "demo.xlsx", language="en").read_bytes()


VALUES = [None, "x", -2, 99, "R", 3, "1O", "BE", "ZZ", "OSP1", "sick", "split", "waiting", "partial", "RU, GM",
          "mitchell", "maybe", "no", 7, "Pct", 13]


def damage(wb, seed: int) -> list[tuple[object, object, bool]]:
    """A few random cells of the typed sheets of ``wb`` changed; each changed cell with its old value and
    whether it existed (openpyxl makes a cell when it is first asked for)."""
    rng = random.Random(seed)
    changed = []
    for _ in range(rng.choice([1, 2, 3])):
        sheet = rng.choice(["T01", "T05", "T07", "T14", "Season", "Participation"])
        ws = wb[sheet]
        if sheet == "Season":
            row, col = rng.randrange(2, 22), rng.randrange(1, 13)
        elif sheet == "Participation":
            row, col = rng.choice([3, 4, 5]), 2
        else:
            row, col = rng.randrange(3, 60), rng.randrange(1, 24)
        existed = (row, col) in ws._cells
        cell = ws.cell(row, col)
        if type(cell).__name__ == "MergedCell":  # under a merged caption: Excel types into its first cell
            continue
        changed.append((cell, cell.value, existed))
        cell.value = rng.choice(VALUES)
    return changed


def looks(wb) -> list[tuple]:
    return [(ws.title, c.coordinate, c.value, c.number_format) for ws in wb for row in ws.iter_rows() for c in row]


@pytest.mark.slow
def test_every_problem_has_a_code_and_a_place(demo_bytes):
    """The demo loaded once (loading was nine tenths of the time): each seed's cells are changed, the plan
    read, and the cells put back (last one first, a cell made by the change removed); at the end the
    workbook is the demo as loaded, cell for cell, so each seed saw the demo with only its own changes."""
    wb = load_workbook(io.BytesIO(demo_bytes))
    codes = set()
    for seed in range(80):
        changed = damage(wb, seed)
        try:
            BridgeManiaSeason().plan(OpenpyxlBook(wb))
        except BookInputError as error:
            for p in error.problems:
                assert p.code.startswith("bm.") or p.code == "sheet.header", p  # (the one header check)
                assert p.sheet in wb.sheetnames or p.sheet == d.SEASON, p
                codes.add(p.code)
        for cell, value, existed in reversed(changed):
            cell.value = value
            if not existed:
                del cell.parent._cells[cell.row, cell.column]
    assert len(codes) >= 12, sorted(codes)
    assert looks(wb) == looks(load_workbook(io.BytesIO(demo_bytes)))


# ------------------------------------------------------------------ the look of a sheet the recalculation adds


@pytest.mark.slow
def test_a_deleted_championship_sheet_comes_back_with_its_look(demo_bytes, tmp_path):
    path = tmp_path / "season.xlsx"
    path.write_bytes(demo_bytes)
    built = load_workbook(path)
    wb = load_workbook(path)
    del wb[d.CHAMPIONSHIP]
    del wb[d.PARTICIPATION]
    wb.save(path)
    recalc_path(path, backup=False)
    again = load_workbook(path)
    for name in (d.CHAMPIONSHIP, d.PARTICIPATION):
        old, new = built[name], again[name]
        spec = d.CHAMPIONSHIP_SHEET if name == d.CHAMPIONSHIP else d.PARTICIPATION_SHEET
        assert new.freeze_panes == old.freeze_panes
        for t in spec.tables:
            for col in range(t.first_col, t.first_col + t.width()):
                for row in (t.header_row, t.first_row):
                    a, b = old.cell(row, col), new.cell(row, col)
                    assert (b.fill.start_color.rgb, b.number_format) == (
                        a.fill.start_color.rgb, a.number_format), (name, b.coordinate)
                    if name == d.CHAMPIONSHIP or row == t.header_row:  # (the next list needs the next host typed)
                        assert b.value == a.value, (name, b.coordinate)
                assert new.cell(t.header_row, col).font.bold
                assert new.column_dimensions[new.cell(1, col).column_letter].width == t.columns[col - t.first_col].width
    # the final ranking's fills are the plan's own (grey for an ineligible pair): the look does not cover them
    final, before = again[d.CHAMPIONSHIP], built[d.CHAMPIONSHIP]
    for row in range(d.FINAL.first_row, d.FINAL.first_row + 11):
        assert final.cell(row, 2).fill.start_color.rgb == before.cell(row, 2).fill.start_color.rgb


# ------------------------------------------------------------------ the builder is not part of the kind


def test_the_kind_does_not_import_the_builder_or_openpyxl():
    code = ("import sys; import xlbridge.workbooks.kinds, xlbridge.workbooks.recalc; "
            "xlbridge.workbooks.kinds.kinds(); "
            "bad = [m for m in sys.modules if m.startswith(('openpyxl', 'pandas', 'numpy')) "
            "or m in ('xlbridge.workbooks.bridgemania.build', 'xlbridge.clubs.bridgemania.frames')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_look_leaves_the_final_ranking_fills_to_the_plan():
    look = d.layout(d.CHAMPIONSHIP_SHEET, filled=(d.FINAL.id,))
    final_cols = range(d.FINAL.first_col, d.FINAL.first_col + d.FINAL.width())
    assert not [area for area, _ in look.fills if area[1] in final_cols]
    assert look.header_row == d.FINAL.header_row and look.freeze == (d.FINAL.first_row, 1)
    assert d.layout(d.CHAMPIONSHIP_SHEET).fills[0] == ((d.FINAL.first_row, 1, d.FINAL.room, d.FINAL.width()),
                                                       "#DDEBF7")
