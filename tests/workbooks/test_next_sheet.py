"""New evening (Heeg) / New tournament (BridgeMania): ``xlbridge next PATH`` on the shipped
templates and demos, the sheet's name, look and pre-filled cells, the Season entry, the
recalculation that follows, and every bad case at its cell with nothing written
(issue 16, point 10; the Excel path: tests/officejs/test_next_dispatch.py and tests/pyodide)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.heegseason import type_pairs
from xlbridge.cli import main
from xlbridge.excel.shipped import LITE_PUT_BACK
from xlbridge.language import _, speaking
from xlbridge.workbooks.nextsheet import add_next
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.plan import BookInputError
from xlbridge.workbooks.record import RECORD

ROOT = Path(__file__).resolve().parents[2]
YELLOW = "FFFFF2CC"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def copy(tmp_path, rel):
    target = tmp_path / Path(rel).name
    shutil.copy(ROOT / rel, target)
    return target


def heeg_template_with_pairs(tmp_path):
    """The Heeg template with eight pairs in period 1 (lines A and B)."""
    path = copy(tmp_path, "templates/heeg-season.xlsx")
    type_pairs(path)
    return path


def problems_of(path, **kwargs):
    wb = load_workbook(path)
    with pytest.raises(BookInputError) as caught:
        add_next(OpenpyxlBook(wb), today=dt.date(2026, 12, 1), **kwargs)
    return [(p.sheet, p.cell, p.code) for p in caught.value.problems]


# ------------------------------------------------------------------ Heeg: New evening


@pytest.mark.slow
def test_heeg_template_new_evening_then_recalc_fills_it(tmp_path, capsys):
    path = heeg_template_with_pairs(tmp_path)
    code, out, err = run(capsys, "next", path, "--date", "2026-09-03")
    with speaking("nl"):  # (type_pairs saved it with openpyxl, which drops the Lite code: put back, as recalc does)
        put_back = _("xlbridge: warning: {warning}").format(warning=f"{_('workbook')}: {_(LITE_PUT_BACK)}")
    assert (code, err.splitlines()) == (0, [put_back])
    assert "Avond 2026-09-03" in out and "Seizoen" in out and "C12" in out
    wb = load_workbook(path)
    # the new evening last but for the hidden record the template was built with (workbooks/record.py)
    assert wb.sheetnames[-2:] == ["Avond 2026-09-03", RECORD] and wb.active.title == "Avond 2026-09-03"
    ws = wb["Avond 2026-09-03"]
    assert [ws.cell(1, c).value for c in range(1, 5)] == ["Paar", "Namen", "Lijn", "R1"]
    assert [[ws.cell(r, c).value for c in range(1, 4)] for r in (2, 5, 6, 9)] == [
        [1, "Speler 1 & Speler 2", "A"], [4, "Speler 7 & Speler 8", "A"], [5, "Speler 9 & Speler 10", "B"],
        [8, "Speler 15 & Speler 16", "B"]]
    assert ws["A10"].value is None
    assert ws["D2"].fill.start_color.rgb == YELLOW and ws["N2"].fill.start_color.rgb == YELLOW  # R1, inv typed
    assert ws["P2"].fill.fill_type is None and ws["P2"].number_format == "0.00"  # % computed
    assert ws.freeze_panes == "D2" and ws.page_setup.orientation == "portrait"
    assert ws.data_validations.dataValidation  # the inv drop-down
    assert ws.sheet_view.selection[0].activeCell == "D2"
    season = wb["Seizoen"]
    assert season["C12"].value == dt.datetime(2026, 9, 3) and season["C12"].number_format == "yyyy-mm-dd"  # period 1, Avond 1
    assert (tmp_path / "heeg-season.backup.xlsx").exists()
    # the scorer types the evening; the recalculation fills it
    for row in range(2, 10):
        for col in range(4, 10):
            ws.cell(row, col, (row + col) % 9)
    wb.save(path)
    code, out, err = run(capsys, "recalc", path)
    assert code == 0, err
    done = load_workbook(path)["Avond 2026-09-03"]
    assert done["L2"].value == sum((2 + c) % 9 for c in range(4, 10))  # MP: the sum of the rounds
    assert isinstance(done["P2"].value, (int, float)) and 0 < done["P2"].value < 100  # %
    # the next click: one week later, Avond 2 of period 1
    code, out, err = run(capsys, "next", path)
    assert code == 0, err
    wb = load_workbook(path)
    assert wb.sheetnames[-2:] == ["Avond 2026-09-10", "xlbridge"] and wb["Seizoen"]["D12"].value == dt.datetime(2026, 9, 10)


@pytest.mark.slow
def test_heeg_demo_listed_evening_without_its_sheet_gets_it(tmp_path, capsys):
    path = copy(tmp_path, "workbooks/heeg-demo.xlsx")
    wb = load_workbook(path)
    del wb["Avond 2026-01-15"]
    wb.save(path)
    code, out, err = run(capsys, "next", path)
    assert code == 0, err
    wb = load_workbook(path)
    ws = wb["Avond 2026-01-15"]
    assert wb.sheetnames.index("Avond 2026-01-15") == wb.sheetnames.index("Avond 2026-01-08") + 1
    assert ws["A2"].value is not None and ws["N2"].fill.start_color.rgb == YELLOW
    assert wb["Seizoen"]["H14"].value == dt.datetime(2026, 1, 15)  # listed already: the Season sheet unchanged
    code, _, err = run(capsys, "recalc", path)
    assert code == 0, err


@pytest.mark.slow
def test_heeg_demo_next_period(tmp_path, capsys):
    """A fourth period typed on the Season sheet (its row and its line column): --next-period."""
    path = copy(tmp_path, "workbooks/heeg-demo.xlsx")
    wb = load_workbook(path)
    season = wb["Seizoen"]
    season["A15"], season["B15"] = 4, 3
    header = next(r for r in range(16, 30) if season.cell(r, 1).value == "Paar")
    season.cell(header, 6, "Lijn 4")
    for r in range(header + 1, season.max_row + 1):
        season.cell(r, 6, season.cell(r, 5).value)
    wb.save(path)
    assert problems_of(path) == [("Season", "H14", "heeg.next.period-full")]
    code, out, err = run(capsys, "next", path, "--next-period")
    assert code == 0, err
    wb = load_workbook(path)
    assert wb["Seizoen"]["C15"].value == dt.datetime(2026, 1, 22) and "Avond 2026-01-22" in wb.sheetnames
    code, _, err = run(capsys, "recalc", path)
    assert code == 0, err


@pytest.mark.slow
def test_heeg_bad_cases_at_their_cells_nothing_written(tmp_path, capsys):
    demo = copy(tmp_path, "workbooks/heeg-demo.xlsx")
    before = demo.read_bytes()
    code, out, err = run(capsys, "next", demo)
    assert code == 2 and out == ""
    assert err.splitlines()[0].startswith("xlbridge: fout: Seizoen, H14: ")  # period 3 is full
    assert "xlbridge next" in err.splitlines()[-1]
    assert demo.read_bytes() == before and not (tmp_path / "heeg-demo.backup.xlsx").exists()
    assert problems_of(demo, next_period=True) == [("Season", "A15", "heeg.next.list-full")]
    assert problems_of(demo, day=dt.date(2026, 1, 8)) == [("Evening 2026-01-08", None, "heeg.next.exists")]
    assert problems_of(demo, day=dt.date(2025, 12, 25)) == [("Season", "H14", "heeg.next.before-last")]
    blank = copy(tmp_path, "templates/heeg-season.xlsx")
    assert problems_of(blank) == [("Season", "C17", "heeg.next.no-pairs")]


# ------------------------------------------------------------------ BridgeMania: New tournament


@pytest.mark.slow
def test_bridgemania_demo_new_tournament_looks_like_the_blank_then_recalc(tmp_path, capsys):
    path = copy(tmp_path, "workbooks/bridgemania-demo.xlsx")
    code, out, err = run(capsys, "next", path)
    assert (code, err) == (0, "")
    assert "T15" in out and "J19" in out
    wb = load_workbook(path)
    assert wb.sheetnames.index("T15") == wb.sheetnames.index("T14") + 1 and wb.active.title == "T15"
    season = wb["Stagione"]
    assert [season.cell(19, c).value for c in (10, 11, 12)] == ["T15", dt.datetime(2020, 7, 10), "NO"]  # Next host
    new, blank = wb["T15"], wb["Torneo vuoto"]
    assert new["A1"].value == "Torneo BridgeMania T15"
    base = [season.cell(r, 1).value for r in range(5, 16)]
    assert [new.cell(r, 1).value for r in range(9, 9 + len(base))] == base
    for row in blank.iter_rows(min_row=2, max_row=60, max_col=45):  # the builder's look, cell for cell
        for cell in row:
            other = new[cell.coordinate]
            if not (cell.row >= 9 and cell.column == 1):
                assert other.value == cell.value, cell.coordinate
            assert (other.fill.start_color.rgb, other.number_format, bool(other.font.b)) == \
                (cell.fill.start_color.rgb, cell.number_format, bool(cell.font.b)), cell.coordinate
    assert len(new.data_validations.dataValidation) == len(blank.data_validations.dataValidation)
    assert new.freeze_panes == blank.freeze_panes and new.page_setup.orientation == blank.page_setup.orientation == "portrait"
    # the scorer types the night (T14's scores, its host playing) and recalculates
    t14 = wb["T14"]
    for r in range(3, 7):
        new.cell(r, 2, t14.cell(r, 2).value)
    from xlbridge.workbooks.bridgemania.declaration import FIRST_BOARD_COL

    first = FIRST_BOARD_COL
    boards = next(c for c in range(first, first + 40) if not isinstance(t14.cell(8, c).value, int)) - first
    rows = next(r for r in range(9, 40) if t14.cell(r, 1).value is None) - 9  # base pairs, guests, split pairs
    for r in range(9, 9 + rows):
        for c in [1, 2, 3, *range(first, first + boards)]:  # the typed cells: pairs, status, players, boards
            new.cell(r, c, t14.cell(r, c).value)
    season["L19"] = season["L18"].value
    wb.save(path)
    code, out, err = run(capsys, "recalc", path)
    assert code == 0, err
    done = load_workbook(path)
    assert done["Stagione"]["N19"].value == done["Stagione"]["N18"].value  # its pairs, computed
    from xlbridge.language import speaking
    from xlbridge.workbooks.bridgemania.declaration import RESULTS

    with speaking("it"):
        score = RESULTS.column("pct").text()

    def column(ws):
        return next(c for c in range(FIRST_BOARD_COL, 80) if ws.cell(8, c).value == score)

    t14, t15 = done["T14"], done["T15"]
    scores = [t15.cell(r, column(t15)).value for r in range(9, 9 + rows)]
    assert scores == [t14.cell(r, column(t14)).value for r in range(9, 9 + rows)]
    assert any(isinstance(v, float) for v in scores)  # the night's scores, as T14's


@pytest.mark.slow
def test_bridgemania_template_and_bad_cases(tmp_path, capsys):
    blank = copy(tmp_path, "templates/bridgemania-season.xlsx")
    before = blank.read_bytes()
    code, out, err = run(capsys, "next", blank)
    assert code == 2 and err.startswith("xlbridge: errore: Stagione, A5: ") and blank.read_bytes() == before
    wb = load_workbook(blank)
    for r, (pid, p1, p2) in enumerate([("AA", "Anna", "Aldo"), ("BB", "Bea", "Bruno"), ("CC", "Carla", "Carlo")], 5):
        wb["Stagione"].cell(r, 1, pid), wb["Stagione"].cell(r, 2, p1), wb["Stagione"].cell(r, 3, p2)
    wb.save(blank)
    code, out, err = run(capsys, "next", blank, "--date", "2026-09-18")
    assert code == 0, err
    wb = load_workbook(blank)
    assert [wb["Stagione"].cell(5, c).value for c in (10, 11)] == ["T01", dt.datetime(2026, 9, 18)]
    assert [wb["T01"].cell(r, 1).value for r in (9, 10, 11, 12)] == ["AA", "BB", "CC", None]
    demo = copy(tmp_path, "workbooks/bridgemania-demo.xlsx")
    assert problems_of(demo, name="T02") == [("Season", "J6", "bm.next.exists")]
    # a name xlbridge keeps for its own sheets is refused as such, before asking whether a sheet has it
    assert problems_of(demo, name="Campionato") == [("Season", "J19", "sheet.name.reserved")]
    assert problems_of(demo, day=dt.date(2020, 7, 3)) == [("Season", "K18", "bm.next.before-last")]
    code, _, err = run(capsys, "next", demo, "--name", "T02")
    assert code == 2 and "xlbridge next" in err.splitlines()[-1]
