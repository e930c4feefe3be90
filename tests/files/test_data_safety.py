"""Nothing lost: interrupted writes, concurrent runs, and only computed cells change."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.comments import Comment
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Font, PatternFill
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from xlbridge.workbooks.record import RECORD
from xlbridge.excel import lite
from tests import lite_files
from xlbridge.files.headless import recalc_path

COMPUTED_TBF = {("Tournament", col) for col in "DEFGHIJKLM"}  # Place, MP, Colour; the results in place order


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fingerprint(path: Path, computed: set[tuple[str, str]]) -> dict:
    """Everything a scorer owns in a workbook: typed cells, styles, comments, names,
    validations, conditional formats, sheets, column widths, and the Lite code."""
    wb = load_workbook(path)
    sheets = {}
    for ws in wb.worksheets:
        cells = {}
        for row in ws.iter_rows():
            for c in row:
                if (ws.title, c.column_letter) in computed and c.row >= 9:
                    value = "<computed>"
                else:
                    value = c.value
                cells[c.coordinate] = (value, c.font.b, c.fill.fill_type, c.fill.start_color.rgb, c.number_format,
                                       c.comment.text if c.comment else None)
        sheets[ws.title] = {
            "cells": cells,
            "validations": sorted((dv.sqref.__str__(), dv.type, dv.formula1) for dv in ws.data_validations.dataValidation),
            "conditional": sorted(str(rng.sqref) for rng in ws.conditional_formatting),
            "widths": {k: v.width for k, v in ws.column_dimensions.items()},
            "freeze": ws.freeze_panes,
        }
    return {
        "sheets": sheets,
        "order": wb.sheetnames,
        "names": sorted((n, wb.defined_names[n].attr_text) for n in wb.defined_names),
        "lite": lite_files.extract(path),
    }


@pytest.fixture
def club(tmp_path, built_once) -> Path:
    return built_once("tbf-club", tmp_path / "club.xlsx", language="en")


def dress_up(path: Path) -> None:
    """What a scorer adds to a workbook over a season."""
    wb = load_workbook(path)
    ws = wb["Tournament"]
    ws["B10"].comment = Comment("substitute played for Ali", "scorer")
    ws["B11"].font = Font(bold=True, color="FF0000")
    ws["H9"] = "=C9*2"  # the scorer's own formula beside the table
    ws["H10"] = "checked"
    ws.conditional_formatting.add("C9:C28", CellIsRule(operator="greaterThan", formula=["55"], fill=PatternFill("solid", start_color="FFC6EFCE")))
    dv = DataValidation(type="decimal", operator="between", formula1="0", formula2="100")
    dv.add("C9:C28")
    ws.add_data_validation(dv)
    wb.defined_names["Scores"] = DefinedName("Scores", attr_text="Tournament!$C$9:$C$28")
    notes = wb.create_sheet("Club notes")
    notes["A1"] = "=Tournament!C9"
    notes["A2"] = "Next evening: Thursday"
    wb.save(path)
    lite.embed(path, {"main.py": "# the club's own code\n", "requirements.txt": "xlwings==0.33.11  # required\n"})


def test_only_computed_cells_change(club):
    dress_up(club)
    wb = load_workbook(club)
    wb["Tournament"]["C20"] = 66.0  # a correction: computed cells will move
    wb.save(club)
    lite.embed(club, {"main.py": "# the club's own code\n", "requirements.txt": "xlwings==0.33.11  # required\n"})
    before = fingerprint(club, COMPUTED_TBF)
    report = recalc_path(club, when="2026-11-30 10:00")
    assert report.changes  # something computed did change
    after = fingerprint(club, COMPUTED_TBF)
    assert after["sheets"]["Tournament"] == before["sheets"]["Tournament"]
    assert after["sheets"]["Club notes"] == before["sheets"]["Club notes"]
    assert after["names"] == before["names"] and after["lite"] == before["lite"]
    # Corrections next to the first sheet; the hidden record of the last recalculation (workbooks/record.py)
    # stays where the built workbook holds it (before the club's own sheet added later): nothing else moves
    assert before["order"][-2:] == [RECORD, "Club notes"]
    assert after["order"] == [before["order"][0], "Corrections", *before["order"][1:]]


SLOW_SAVE = textwrap.dedent("""
    import sys, time
    from xlbridge.files import kept_parts
    original = kept_parts.save_keeping
    def slow_save(workbook, filename, carried):
        original(workbook, filename, carried)
        with open(filename, "r+b") as handle:   # half-written file
            handle.truncate(1000)
        print("saving", flush=True)
        time.sleep(60)
    kept_parts.save_keeping = slow_save
    from xlbridge.files.headless import recalc_path
    recalc_path(sys.argv[1])
""")


@pytest.mark.slow
def test_killed_during_the_write_leaves_the_original_untouched(club, tmp_path):
    wb = load_workbook(club)
    wb["Tournament"]["C20"] = 66.0
    wb.save(club)
    before = digest(club)
    script = tmp_path / "slow.py"
    script.write_text(SLOW_SAVE)
    process = subprocess.Popen([sys.executable, str(script), str(club)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "saving"
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert digest(club) == before
    load_workbook(club)  # still a readable workbook
    # and the next run works
    recalc_path(club)
    assert load_workbook(club)["Tournament"]["D20"].value == 1


RUN = "import sys; from xlbridge.files.headless import recalc_path; recalc_path(sys.argv[1]); print('ok')"


@pytest.mark.slow
def test_two_runs_at_once_never_corrupt(club):
    wb = load_workbook(club)
    wb["Tournament"]["C20"] = 66.0
    wb.save(club)
    runs = [subprocess.Popen([sys.executable, "-c", RUN, str(club)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(3)]
    results = [r.communicate(timeout=120) for r in runs]
    assert [r.returncode for r in runs] == [0, 0, 0], results
    ws = load_workbook(club)["Tournament"]
    assert ws["D20"].value == 1
    corrections = load_workbook(club)["Corrections"]
    # the change was recorded by exactly one run: the others found nothing changed
    assert {row[2] for row in corrections.iter_rows(min_row=2, values_only=True)} >= {"D20"}
    assert len({row[0] for row in corrections.iter_rows(min_row=2, values_only=True)}) == 1


def plan_cells(path: Path) -> tuple[set[tuple[str, str]], set[tuple[str, str]], set[str], set[tuple[str, str]]]:
    """(computed cells, cells whose fill the recalculation sets, sheets it may add, the computed cells
    on Corrections when they change) of a workbook."""
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.book import cell_ref
    from xlbridge.workbooks.recalc import detect

    book = OpenpyxlBook(load_workbook(path))
    plan = detect(book).plan(book)
    values = {(b.sheet, cell_ref(b.row + r, b.col + c))
              for b in plan.blocks for r, line in enumerate(b.values) for c in range(len(line))}
    fills = {(sheet, cell_ref(row, col)) for sheet, row, col, _ in plan.fills}
    audited = {(b.sheet, cell_ref(b.row + r, b.col + c))
               for b in plan.blocks if b.audit for r, line in enumerate(b.values) for c in range(len(line))}
    return values, fills, set(plan.new_sheets), audited


def owned(path: Path, computed: set[tuple[str, str]], filled: set[tuple[str, str]], skip: set[str]) -> dict:
    """What the scorer owns, sheet by sheet: every cell outside the computed ones with
    its style and comment (the fill too, unless the recalculation sets it)."""
    wb = load_workbook(path)
    out = {}
    for ws in wb.worksheets:
        if ws.title in skip:
            continue
        cells = {}
        for row in ws.iter_rows():
            for c in row:
                key = (ws.title, c.coordinate)
                if key in computed:
                    continue
                fill = None if key in filled else (c.fill.fill_type, c.fill.start_color.rgb)
                cells[c.coordinate] = (c.value, c.font.b, c.number_format, fill, c.comment.text if c.comment else None)
        out[ws.title] = {
            "cells": cells,
            "validations": sorted((str(dv.sqref), dv.type) for dv in ws.data_validations.dataValidation),
            "conditional": sorted(str(rng.sqref) for rng in ws.conditional_formatting),
            "widths": {k: v.width for k, v in ws.column_dimensions.items()},
            "freeze": ws.freeze_panes,
        }
    return {"sheets": out, "names": sorted((n, wb.defined_names[n].attr_text) for n in wb.defined_names),
            "lite": lite_files.extract(path)}


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["heeg", "bridgemania", "se-masterpoints"])
def test_season_workbooks_change_only_computed_cells(tmp_path, kind, built_once):
    path = built_once(kind, tmp_path / f"{kind}.xlsx", language="en")  # (plan_cells plans by the sheets' own names)
    computed, filled, added, audited = plan_cells(path)
    wb = load_workbook(path)
    # the scorer's own additions over a season
    # (a results cell: standings and sorted results follow from the results and are not on Corrections)
    first_sheet, first_cell = sorted(audited)[0]
    typed_sheet = wb.worksheets[0]
    typed_sheet["A1"].comment = Comment("checked by the board", "scorer")
    typed_sheet.conditional_formatting.add("A1:A3", CellIsRule(operator="equal", formula=["0"], fill=PatternFill("solid", start_color="FFC6EFCE")))
    validation = DataValidation(type="whole", operator="between", formula1="0", formula2="99")
    validation.add("A2")
    typed_sheet.add_data_validation(validation)
    wb.defined_names["Club"] = DefinedName("Club", attr_text=f"'{typed_sheet.title}'!$A$1")
    wb.create_sheet("Club notes")["A1"] = "=1+1"
    # a stale computed value: the recalculation must put the right one back
    wb[first_sheet][first_cell] = 12345
    wb.save(path)
    lite.embed(path, {"main.py": "# the club's own code\n", "requirements.txt": "pandas\n"})
    # (the record: its own tests, tests/workbooks/test_record.py; Messages lists this run's warning, the 12345
    # typed over: tests/workbooks/heeg/test_typed_values.py)
    skip = added | {"Corrections", RECORD, "Messages"}
    before = owned(path, computed, filled, skip)
    report = recalc_path(path, when="2026-11-30 10:00")
    assert any(c.sheet == first_sheet and c.cell == first_cell and c.old == 12345 for c in report.changes)
    after = owned(path, computed, filled, skip)
    assert after == before
    assert load_workbook(path)[first_sheet][first_cell].value != 12345
