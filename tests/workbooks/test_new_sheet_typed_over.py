"""What Corrections lists of the scorer's weekly work (issue 26, points 2 and 5).

A value typed over a computed cell of a sheet that New evening / New tournament just added is
a warning and kept on Corrections, as on a sheet recalculated before: the sheet enters the
record with its computed cells empty.  Filling in its typed cells is still no change of the
scorer's, and neither is the routine input of BridgeMania's next participation list."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.heegseason import add_evening, type_pairs
from xlbridge.cli import main
from xlbridge.language import _, speaking
from xlbridge.workbooks.bridgemania.declaration import FIRST_BOARD_COL, RESULTS
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.plan import BookInputError
from xlbridge.workbooks.recalc import recalculate
from xlbridge.workbooks.record import TYPED_OVER, TYPED_OVER_CODE

ROOT = Path(__file__).resolve().parents[2]
PCT = 16  # an evening's % (P)


def _heeg(tmp_path: Path, typed_over: float | None) -> OpenpyxlBook:
    """The Heeg template, eight pairs, New evening, every round typed (and ``typed_over`` into P9)."""
    path = tmp_path / "heeg.xlsx"
    shutil.copy(ROOT / "templates/heeg-season.xlsx", path)
    type_pairs(path)
    add_evening(path, "2026-09-03")
    wb = load_workbook(path)
    if typed_over is not None:
        wb["Avond 2026-09-03"].cell(9, PCT, typed_over)
    return OpenpyxlBook(wb)


def _corrections(book: OpenpyxlBook, sheet: str = "Correcties") -> list[list]:
    if sheet not in book.wb.sheetnames:
        return []
    return [[c.value for c in row] for row in book.wb[sheet].iter_rows(min_row=2)]


def _t14_night_typed_into_t15(wb):
    """The demo's T14 night typed again on T15 (New tournament's sheet): its settings and yellow cells."""
    new, t14 = wb["T15"], wb["T14"]
    for row in t14.iter_rows(min_row=3, max_row=40, max_col=FIRST_BOARD_COL + 40):
        for cell in row:
            if cell.row < 7 and cell.column == 2 or cell.row >= 9 and cell.fill.start_color.rgb == "FFFFF2CC":
                new.cell(cell.row, cell.column, cell.value)
    return new


def test_a_value_typed_over_a_new_evenings_percentage_is_a_warning_and_kept(tmp_path):
    book = _heeg(tmp_path, 62.5)
    report = recalculate(book, when="T1")
    assert [(w.sheet, w.cell, w.code) for w in report.warnings] == [("Evening 2026-09-03", "P9", TYPED_OVER_CODE)]
    computed = book.wb["Avond 2026-09-03"]["P9"].value
    assert computed != pytest.approx(62.5) and 0 < computed < 100
    with speaking("nl"):
        cause = _(TYPED_OVER)
    # the pair as a number (issue 26, point 15: not the text "8")
    assert [(r[1], r[2], r[3], r[5], r[-1]) for r in _corrections(book)] == [("Avond 2026-09-03", "P9", 8, 62.5, cause)]
    again = recalculate(book, when="T2")
    assert again.warnings == [] and again.changes == [] and again.typed == []


def test_filling_in_a_new_evening_is_no_change_and_no_warning(tmp_path):
    book = _heeg(tmp_path, None)
    report = recalculate(book, when="T1")
    assert report.warnings == [] and report.changes == [] and report.typed == []
    assert _corrections(book) == []


@pytest.mark.slow
def test_a_value_typed_over_a_new_tournaments_score_is_a_warning(tmp_path):
    path = tmp_path / "bm.xlsx"
    shutil.copy(ROOT / "workbooks/bridgemania-demo.xlsx", path)
    assert main(["next", str(path)]) == 0
    wb = load_workbook(path)
    new = _t14_night_typed_into_t15(wb)
    wb["Stagione"]["L19"] = wb["Stagione"]["L18"].value
    with speaking("it"):
        score = RESULTS.column("pct").text()
    col = next(c for c in range(FIRST_BOARD_COL, 80) if new.cell(8, c).value == score)
    new.cell(9, col, 99.5)
    book = OpenpyxlBook(wb)
    report = recalculate(book, when="T1")
    cell = new.cell(9, col).coordinate
    assert [(w.sheet, w.cell, w.code) for w in report.warnings] == [("T15", cell, TYPED_OVER_CODE)]
    assert new[cell].value != pytest.approx(99.5)


@pytest.mark.slow
def test_a_new_tournaments_first_night_lists_no_change_of_the_scorer(tmp_path):
    """New tournament, a recalculation (the tournament not played yet: its sorted result is only the header the
    builder wrote, recorded as typed), then the night typed and recalculated: the plan now writes that header
    row, unchanged -- no "your change" rows for cells nobody touched (they were listed, old 'Pos.' new empty)."""
    path = tmp_path / "bm.xlsx"
    shutil.copy(ROOT / "workbooks/bridgemania-demo.xlsx", path)
    assert main(["next", str(path)]) == 0
    assert main(["recalc", str(path), "--no-backup"]) == 0
    wb = load_workbook(path)
    _t14_night_typed_into_t15(wb)
    book = OpenpyxlBook(wb)
    report = recalculate(book, when="T1")
    assert report.typed == []
    assert [r for r in _corrections(book, "Correzioni") if r[-1] == "la tua modifica"] == []
    assert report.changes  # the night itself was recalculated


def test_the_next_lists_settings_are_routine_input_and_no_correction(tmp_path):
    """Issue 26, point 5: the next host, the number that can play and the unable pairs are typed every week;
    changing them is no correction (a base pair's name is)."""
    path = tmp_path / "bm.xlsx"
    shutil.copy(ROOT / "workbooks/bridgemania-demo.xlsx", path)
    wb = load_workbook(path)
    season, participation = wb["Stagione"], wb["Partecipazione"]
    participation["B3"], participation["B4"], participation["B5"] = season["A6"].value, 7, season["A7"].value
    season["D5"] = "Coppia rinominata"
    book = OpenpyxlBook(wb)
    report = recalculate(book, when="T1")
    assert [(c.sheet, c.cell) for c in report.typed] == [("Season", "D5")]
    assert [(r[1], r[2]) for r in _corrections(book, "Correzioni") if r[-1] == "la tua modifica"] == [
        ("Stagione", "D5")]


@pytest.mark.slow
def test_a_new_tournament_not_played_yet_is_no_problem(tmp_path):
    """Issue 26, point 4: right after New tournament the season recalculates; the tournament is listed as not
    played yet and changes nothing else (standings and the next list are those of the tournaments played)."""
    path = tmp_path / "bm.xlsx"
    shutil.copy(ROOT / "workbooks/bridgemania-demo.xlsx", path)
    before = load_workbook(path)
    assert main(["next", str(path)]) == 0
    book = OpenpyxlBook(load_workbook(path))
    report = recalculate(book, when="T1")
    assert report.warnings == [] and report.changes == [] and report.typed == []
    season = book.wb["Stagione"]
    assert [season.cell(19, c).value for c in (10, 20)] == ["T15", "non ancora giocato"]
    assert all(season.cell(19, c).value is None for c in range(14, 20))
    for name in ("Campionato", "Partecipazione"):
        assert [[c.value for c in row] for row in book.wb[name].iter_rows()] == \
            [[c.value for c in row] for row in before[name].iter_rows()], name
    t15 = book.wb["T15"]
    assert all(c.value is None for row in t15.iter_rows(min_row=9, max_row=19, min_col=4, max_col=12) for c in row)
    # once a board score is typed it is played: an incomplete night is a problem again
    t15.cell(9, FIRST_BOARD_COL, 10)
    book.wb.save(path)
    with pytest.raises(BookInputError) as caught:
        recalculate(OpenpyxlBook(load_workbook(path)), when="T2")
    assert ("T15", "B18") in [(p.sheet, p.cell) for p in caught.value.problems]  # RU did not play: no status


@pytest.mark.slow
def test_new_tournament_updates_the_next_participation_list(tmp_path, capsys):
    """Issue 26, point 4: the next host typed after the last recalculation; New tournament takes it as the
    new tournament's host and recalculates, so the next list is that tournament's at once."""
    path = tmp_path / "bm.xlsx"
    shutil.copy(ROOT / "workbooks/bridgemania-demo.xlsx", path)
    wb = load_workbook(path)
    host = wb["Stagione"]["A6"].value  # DG
    assert wb["Partecipazione"]["B3"].value != host and wb["Partecipazione"]["B9"].value != host
    wb["Partecipazione"]["B3"] = host
    wb.save(path)
    assert main(["next", str(path)]) == 0
    out, err = capsys.readouterr()
    # (saved with openpyxl above: New tournament puts back the Lite code too, and says so; nothing else)
    assert all("xlwings Lite" in line for line in err.splitlines())
    assert out.rstrip().endswith("La stagione è stata ricalcolata anche: la prossima lista di partecipazione è "
                                 "quella del nuovo torneo.")
    done = load_workbook(path)
    assert done["Stagione"]["L19"].value == host and done["Stagione"]["T19"].value == "non ancora giocato"
    assert [done["Partecipazione"].cell(8, c).value for c in (1, 2, 3)] == [1, host, "O"]


@pytest.mark.slow
def test_new_tournament_on_a_season_with_a_problem_adds_the_sheet_and_says_so(tmp_path, capsys):
    path = tmp_path / "bm.xlsx"
    shutil.copy(ROOT / "workbooks/bridgemania-demo.xlsx", path)
    wb = load_workbook(path)
    wb["T14"].cell(9, FIRST_BOARD_COL, "x")  # not a score
    wb.save(path)
    assert main(["next", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "T14" in err and err.startswith("xlbridge: errore: ")
    assert "La stagione non è stata ricalcolata: correggere il problema nella sua cella" in out
    assert "T15" in load_workbook(path).sheetnames
