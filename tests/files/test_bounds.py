"""Unbounded input at the file level (issue 14, points 5 and 6): a stray value far
out on a sheet, merged cells over computed cells, a huge merged area, a sheet
whose XML is cut off inside a valid zip.  Each gives a located or catalogued
message within 2 GB of memory, and leaves the file as it was.

The far-out attacks run in a child process with an address-space limit: before,
they built a grid of 17 billion cells (memory exhaustion after 8-15 s); a test
must not take the machine down with it.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tools.attacks.bounds import worksheet
from xlbridge.files.headless import FileProblem, backup_path, recalc_path
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.files.package import rewrite
from xlbridge.workbooks.recalc import BookInputError

ROOT = Path(__file__).resolve().parents[2]
MAX_ROWS, MAX_COLUMNS, MAX_CELLS = 100_000, 1_000, 2_000_000  # docs/reliability.md
FAR_OUT = (f"this value is far outside the sheet's tables (a sheet xlbridge reads may use at most {MAX_ROWS:,} rows, "
           f"{MAX_COLUMNS:,} columns and {MAX_CELLS:,} cells); delete it")

RECALC_LIMITED = textwrap.dedent("""
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))  # 2 GB: a 17-billion-cell grid fails fast
    from xlbridge.cli import main
    print(main(["recalc", sys.argv[1]]), flush=True)
""")


#: What the CLI says after a workbook's problems (issue 16).
NOTHING_WRITTEN = ("xlbridge: nothing was written: fix the problem at its cell, then Recalculate season again "
                   "(xlbridge recalc club.xlsx)")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def recalc_in_child(path: Path) -> tuple[int, str]:
    """``xlbridge recalc`` in a child with 2 GB of address space (the bound, not a clock, is what is shown:
    before, the grid took more): (exit code, stderr)."""
    done = subprocess.run([sys.executable, "-c", RECALC_LIMITED, path.name], cwd=path.parent, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.stdout.strip(), done.stderr[-2000:]
    return int(done.stdout.splitlines()[-1]), done.stderr


@pytest.fixture
def club(tmp_path, built_once) -> Path:
    return built_once("tbf-club", tmp_path / "club.xlsx", language="en")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="the child's memory limit is a Unix limit")
@pytest.mark.parametrize("sheet", ["Tournament", "How to"])
def test_a_stray_value_in_xfd1048576_is_a_located_problem_not_a_huge_grid(club, sheet):
    wb = load_workbook(club)
    wb[sheet]["XFD1048576"] = "stray"
    wb.save(club)
    before = digest(club)
    code, err = recalc_in_child(club)
    assert code == 2, (code, err[-2000:])
    assert err.splitlines() == [f"xlbridge: error: {sheet}, XFD1048576: {FAR_OUT}", NOTHING_WRITTEN]
    assert digest(club) == before and not backup_path(club).exists()


@pytest.mark.skipif(sys.platform == "win32", reason="the child's memory limit is a Unix limit")
@pytest.mark.parametrize("ref", ["XFD1048576", "ZZ99999", "AAA1"])
def test_a_stray_value_typed_in_excel_is_a_located_problem_on_the_fast_path_too(club, ref):
    """As Excel saves it: the xlwings Lite code kept, so the CLI reads first with python-calamine, whose
    grid of a sheet is dense (a value at XFD1048576: 17 billion cells, the process killed by an
    allocation failure, not an exception)."""
    part = worksheet(club, "How to")
    with zipfile.ZipFile(club) as archive:
        sheet = archive.read(part)
    row = ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    sheet = sheet.replace(b"</sheetData>", f'<row r="{row}"><c r="{ref}" t="inlineStr"><is><t>stray</t></is></c>'
                                           f"</row></sheetData>".encode(), 1)
    rewrite(club, {part: sheet})
    before = digest(club)
    code, err = recalc_in_child(club)
    if ref == "AAA1":  # within the bounds: read, and nothing to change
        assert code == 0 and digest(club) == before, (code, err[-2000:])
        return
    assert code == 2, (code, err[-2000:])
    assert err.splitlines() == [f"xlbridge: error: How to, {ref}: {FAR_OUT}", NOTHING_WRITTEN]
    assert digest(club) == before and not backup_path(club).exists()


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="the child's memory limit is a Unix limit")
def test_formatted_empty_cells_far_out_do_not_count(club):
    from openpyxl.styles import PatternFill

    wb = load_workbook(club)
    wb["Tournament"]["C20"] = 66.0
    wb["Tournament"]["XFD1048576"].fill = PatternFill("solid", start_color="FFFFFF00")  # a cell with a style only
    wb.save(club)
    code, err = recalc_in_child(club)
    assert code == 0, (code, err[-2000:])
    assert load_workbook(club)["Tournament"]["D20"].value == 1


def test_the_bounds_themselves():
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "S"
    ws.cell(row=MAX_ROWS, column=1, value=1)
    ws.cell(row=1, column=MAX_COLUMNS // 100, value=1)
    assert len(OpenpyxlBook(wb).read("S")) == MAX_ROWS  # at the row bound: read
    ws.cell(row=MAX_ROWS + 1, column=2, value="x")
    with pytest.raises(BookInputError) as caught:
        OpenpyxlBook(wb).read("S")
    assert [str(p) for p in caught.value.problems] == [f"S, B{MAX_ROWS + 1}: {FAR_OUT}"]
    wb2 = Workbook()
    ws2 = wb2.active
    ws2.title = "S"
    ws2.cell(row=MAX_CELLS // MAX_COLUMNS + 1, column=MAX_COLUMNS, value="corner")  # rows and columns in bounds
    with pytest.raises(BookInputError) as caught:
        OpenpyxlBook(wb2).read("S")
    assert len(caught.value.problems) == 1


def test_a_computed_cell_under_a_merge_is_a_located_problem(club):
    wb = load_workbook(club)
    wb["Tournament"]["C20"] = 66.0
    wb["Tournament"].merge_cells("D12:E12")  # E12 is computed (the points)
    wb.save(club)
    before = digest(club)
    with pytest.raises(BookInputError) as caught:
        recalc_path(club)
    assert [str(p) for p in caught.value.problems] == [
        "Tournament, E12: this computed cell is merged into D12:E12; unmerge D12:E12 (Home, Merge & Center) so that "
        "xlbridge can write it"]
    assert digest(club) == before and not backup_path(club).exists()


def test_the_merged_cell_problem_speaks_the_workbooks_language(tmp_path, capsys):
    """Found while writing, after the plan: it was said in English in a Dutch workbook ("error: ... nothing was
    written"), as the only problem of a recalculation that was."""
    from xlbridge.cli import main

    book = tmp_path / "heeg.xlsx"
    book.write_bytes((ROOT / "workbooks" / "heeg-demo.xlsx").read_bytes())
    wb = load_workbook(book)
    wb["Avond 2025-09-18"].merge_cells("L4:M4")  # M4: the evening's max, computed
    wb.save(book)
    before = digest(book)
    assert main(["recalc", str(book)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "xlbridge: fout: Avond 2025-09-18, M4: deze berekende cel is samengevoegd in L4:M4; maak L4:M4 los (Start, "
        "Samenvoegen en centreren) zodat xlbridge hem kan schrijven",
        f"xlbridge: er is niets geschreven: verbeter het probleem in zijn cel, daarna opnieuw Seizoen herberekenen "
        f"(xlbridge recalc {book})"]
    assert digest(book) == before and not backup_path(book).exists()


@pytest.mark.skipif(sys.platform == "win32", reason="the child's memory limit is a Unix limit")
def test_a_huge_merged_area_is_refused_before_openpyxl_builds_it(club):
    part = worksheet(club, "How to")
    with zipfile.ZipFile(club) as archive:
        sheet = archive.read(part)
    assert b"</sheetData>" in sheet and b"mergeCells" not in sheet
    sheet = sheet.replace(b"</sheetData>", b'</sheetData><mergeCells count="1"><mergeCell ref="A1000:XFD1048576"/>'
                                           b"</mergeCells>", 1)
    rewrite(club, {part: sheet})
    before = digest(club)
    code, err = recalc_in_child(club)
    assert code == 2, (code, err[-2000:])
    assert err.splitlines() == ["xlbridge: error: How to, A1000:XFD1048576: cells merged far outside the sheet's "
                                "tables (a sheet may have at most 100,000 merged cells); unmerge them", NOTHING_WRITTEN]
    assert digest(club) == before


def test_a_sheet_cut_off_inside_a_valid_zip_is_a_damaged_file(club):
    with zipfile.ZipFile(club) as archive:
        sheet = archive.read("xl/worksheets/sheet1.xml")
    rewrite(club, {"xl/worksheets/sheet1.xml": sheet[: len(sheet) // 2]})  # a valid zip, a cut-off part
    with zipfile.ZipFile(club) as archive:
        assert archive.testzip() is None
    before = digest(club)
    with pytest.raises(FileProblem) as caught:
        recalc_path(club)
    assert str(caught.value) == (f"{club} is damaged (part xl/worksheets/sheet1.xml does not read back); "
                                 "restore it from its backup")
    assert digest(club) == before


def test_the_merge_scan_reads_every_spelling():
    from xlbridge.files.headless import merges_too_large
    from xlbridge.files.package import NS_MAIN, NS_R, NS_RELS, REL_WORKSHEET, Package

    def package(merges: str) -> Package:
        return Package({
            "_rels/.rels": f'<Relationships xmlns="{NS_RELS}"><Relationship Id="rId1" Type="{NS_R}/officeDocument" '
                           'Target="xl/workbook.xml"/></Relationships>'.encode(),
            "xl/workbook.xml": f'<workbook xmlns="{NS_MAIN}" xmlns:r="{NS_R}"><sheets><sheet name="Notes" sheetId="1" '
                               'r:id="rId1"/></sheets></workbook>'.encode(),
            "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{NS_RELS}"><Relationship Id="rId1" '
                                          f'Type="{REL_WORKSHEET}" Target="worksheets/sheet1.xml"/>'
                                          "</Relationships>".encode(),
            "xl/worksheets/sheet1.xml": f'<x:worksheet xmlns:x="{NS_MAIN}"><x:sheetData/>{merges}'
                                        "</x:worksheet>".encode(),
        })

    assert merges_too_large(package('<x:mergeCells><x:mergeCell ref="A1:B2"/></x:mergeCells>')) == []
    assert merges_too_large(package('<x:mergeCells><x:mergeCell ref="A1:XFD1"/></x:mergeCells>')) == []  # a row
    (problem,) = merges_too_large(package("<x:mergeCells><x:mergeCell ref='$A$1:$XFD$1048576'/></x:mergeCells>"))
    assert (problem.sheet, problem.cell) == ("Notes", "A1:XFD1048576")


def test_the_documented_bounds():
    from xlbridge.workbooks import openpyxl_book

    assert (openpyxl_book.MAX_ROWS, openpyxl_book.MAX_COLUMNS, openpyxl_book.MAX_CELLS) == (MAX_ROWS, MAX_COLUMNS,
                                                                                          MAX_CELLS)
