"""Headless recalculation of the TBF club workbook, and the file-safety rules."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge import awards
from xlbridge.cli import main
from xlbridge.excel import lite
from tests import lite_files
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from tests.emulate import snapshot
from xlbridge.workbooks.record import RECORD
from xlbridge.workbooks.recalc import BookInputError, recalculate
from xlbridge.files.headless import FileProblem, backup_path, recalc_path


@pytest.fixture
def club(tmp_path, built_once) -> Path:
    return built_once("tbf-club", tmp_path / "club.xlsx", language="en")


def test_recalculating_the_built_workbook_changes_nothing(club):
    before = snapshot(load_workbook(club))
    assert RECORD in before  # built with the record of its own recalculation
    report = recalc_path(club, when="2026-11-30 10:00")
    assert report.kind == "event awards" and report.changes == [] and report.typed == []
    assert snapshot(load_workbook(club)) == before  # the record included: the first recalculation writes nothing
    recalc_path(club, when="2026-11-30 10:01")
    assert snapshot(load_workbook(club)) == before


def test_a_corrected_score_moves_places_and_is_audited(club):
    wb = load_workbook(club)
    ws = wb["Tournament"]
    ws["C28"] = 70.0  # pair 20 (last, 40.06 %) actually scored 70 %
    wb.save(club)
    report = recalc_path(club, when="2026-11-30 10:00")
    ws = load_workbook(club)["Tournament"]
    assert ws["D28"].value == 1 and ws["D9"].value == 2
    ranks = [ws.cell(row=r, column=4).value for r in range(9, 29)]
    assert [ws.cell(row=r, column=5).value for r in range(9, 29)] == [a.points for a in awards("tr.club", ranks, boards=26)]
    corrections = load_workbook(club)["Corrections"]
    rows = [[c.value for c in row] for row in corrections.iter_rows()]
    assert rows[0] == ["When", "Sheet", "Cell", "Pair", "Column", "Old value", "New value", "Cause"]
    assert ["2026-11-30 10:00", "Tournament", "D28", 20, "Place", 20, 1, "recalculated"] in rows
    # first the scorer's change (the built file holds the record of its own recalculation), then what it moved
    assert rows[1] == ["2026-11-30 10:00", "Tournament", "C28", 20, "Score %", 40.06, 70, "your change"]
    assert [(c.sheet, c.cell) for c in report.typed] == [("Tournament", "C28")]
    assert len(rows) - 1 == len(report.typed) + len(report.changes)
    # nothing changes the second time: nothing is appended
    recalc_path(club, when="2026-11-30 11:00")
    assert corrections.max_row == load_workbook(club)["Corrections"].max_row


def test_bad_scores_are_all_reported_and_nothing_is_written(club):
    wb = load_workbook(club)
    wb["Tournament"]["C12"] = "5x"
    wb["Tournament"]["C15"] = -40
    wb.save(club)
    before = club.read_bytes()
    with pytest.raises(BookInputError) as caught:
        recalc_path(club)
    assert [str(p) for p in caught.value.problems] == [
        "Tournament, C12: score '5x' is not a number",
        "Tournament, C15: score -40 is negative",
    ]
    assert club.read_bytes() == before
    assert not backup_path(club).exists()


def test_a_row_of_names_only_is_a_pair_without_its_score(club):
    """Names typed, no pair number and no score: the row counted as empty, one pair fewer in the field (0.325
    for the winner of 20 instead of 0.35 of 21), without a word."""
    wb = load_workbook(club)
    wb["Tournament"]["B29"] = "Eva - Olle"
    wb.save(club)
    before = club.read_bytes()
    with pytest.raises(BookInputError) as caught:
        recalc_path(club)
    assert [str(p) for p in caught.value.problems] == ["Tournament, C29: Pair Eva - Olle: the score is empty"]
    assert club.read_bytes() == before and not backup_path(club).exists()


def test_a_field_cut_short_is_recalculated_once_and_then_left_alone(club):
    """The 20 pairs cut to 12 (rows 21-28 cleared): the first run empties their places and points; the second
    found its record differing only by those emptied rows and wrote the file again, its backup replaced by the
    first run's output (the version before both was lost)."""
    wb = load_workbook(club)
    for row in wb["Tournament"].iter_rows(min_row=21, max_row=28, max_col=3):
        for cell in row:
            cell.value = None
    wb.save(club)
    recalc_path(club, when="T1")
    first, kept = club.read_bytes(), backup_path(club).read_bytes()
    recalc_path(club, when="T2")
    assert club.read_bytes() == first and backup_path(club).read_bytes() == kept


def test_a_date_for_a_score_and_a_number_for_the_scheme_are_said_as_typed(club):
    """A date in a score cell was shown as Python writes it (datetime.datetime(2026, 3, 1, 0, 0)); a number in
    the Scheme cell was "the scheme is empty"."""
    import datetime as dt

    wb = load_workbook(club)
    wb["Tournament"]["C10"] = dt.datetime(2026, 3, 1)
    wb["Tournament"]["B3"] = 12345
    wb.save(club)
    with pytest.raises(BookInputError) as caught:
        recalc_path(club)
    assert [str(p) for p in caught.value.problems] == [
        "Tournament, C10: score '2026-03-01' is not a number",
        "Tournament, B3: unknown scheme '12345'; run 'xlbridge schemes' for the list"]


def test_engine_rule_errors_point_at_the_settings(club):
    wb = load_workbook(club)
    for row in range(14, 29):  # keep 5 pairs: 2.5 tables
        for col in range(1, 7):
            wb["Tournament"].cell(row=row, column=col).value = None
    wb.save(club)
    with pytest.raises(BookInputError, match=r"Tournament, B3: tr.club needs at least 3 tables; got 2.5"):
        recalc_path(club)


def test_boards_typed_twice_must_agree(club):
    """Boards in B4 and boards= in Options: two numbers are a problem at Options (Options won silently: the 26
    boards of B4 were paid as 20); the same number twice is accepted."""
    wb = load_workbook(club)
    wb["Tournament"]["B5"] = "boards=20"
    wb.save(club)
    with pytest.raises(BookInputError) as caught:
        recalc_path(club)
    assert [(p.sheet, p.cell, p.code) for p in caught.value.problems] == [("Tournament", "B5", "event.boards.twice")]
    assert str(caught.value.problems[0]) == "Tournament, B5: boards 20 here and 26 in B4: type the boards once (the " \
                                            "Boards cell)"
    wb["Tournament"]["B5"] = "boards=26.0"
    wb.save(club)
    recalc_path(club)
    ws = load_workbook(club)["Tournament"]
    assert ws["E9"].value == awards("tr.club", [1] + [None] * 19, boards=26)[0].points


def test_a_notes_sheet_named_like_an_evening_is_left_alone(club):
    """A sheet 'Evening notes' made the event workbook a Heeg season without its Season sheet ('the settings sheet
    Season is missing'), and no event could be recalculated; an evening sheet is named by its date."""
    wb = load_workbook(club)
    wb.create_sheet("Evening notes")["A1"] = "Pair 7 asked about board 12"
    wb["Tournament"]["C28"] = 70.0
    wb.save(club)
    report = recalc_path(club)
    assert report.kind == "event awards" and load_workbook(club)["Tournament"]["D28"].value == 1
    assert load_workbook(club)["Evening notes"]["A1"].value == "Pair 7 asked about board 12"


def test_backup_keeps_the_previous_version(club):
    wb = load_workbook(club)
    wb["Tournament"]["C20"] = 66.0  # a late correction: the recalculation writes
    wb.save(club)
    original = club.read_bytes()
    recalc_path(club)
    assert backup_path(club).read_bytes() == original and club.read_bytes() != original


def test_a_recalculation_that_changes_nothing_writes_nothing_not_even_the_backup(club):
    original = club.read_bytes()
    recalc_path(club)
    assert club.read_bytes() == original and not backup_path(club).exists()


def test_refuses_a_workbook_open_in_excel(club):
    (club.parent / ("~$" + club.name)).write_bytes(b"owner")
    with pytest.raises(FileProblem, match="is open in Excel"):
        recalc_path(club)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"pair,score\n1,50\n", "is not an .xlsx workbook"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, "password-protected or an old .xls"),
        (b"", "is not an .xlsx workbook"),
    ],
)
def test_files_that_are_not_workbooks(tmp_path, content, message):
    path = tmp_path / "season.xlsx"
    path.write_bytes(content)
    with pytest.raises(FileProblem, match=message):
        recalc_path(path)
    assert path.read_bytes() == content


def test_a_workbook_of_another_kind(tmp_path):
    from openpyxl import Workbook

    path = tmp_path / "other.xlsx"
    Workbook().save(path)
    with pytest.raises(BookInputError, match="not an xlbridge workbook"):
        recalc_path(path)


def test_lite_code_survives_a_headless_recalculation(club):
    lite.embed(club, {"main.py": "print('hi')\n", "requirements.txt": "xlwings==0.33.11\n"})
    recalc_path(club)
    assert lite_files.extract(club)["main.py"] == "print('hi')\n"
    with zipfile.ZipFile(club) as archive:
        assert lite.TASKPANES in archive.namelist()
        assert "webextensiontaskpanes" in archive.read("_rels/.rels").decode()


def test_cli_recalc(club, capsys):
    assert main(["recalc", str(club)]) == 0
    assert capsys.readouterr().out.startswith(f"recalculated {club} (event awards): 207 computed cells up to date")
    wb = load_workbook(club)
    wb["Tournament"]["C10"] = "abc"
    wb["Tournament"]["C11"] = None
    wb.save(club)
    assert main(["recalc", str(club)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["xlbridge: error: Tournament, C10: score 'abc' is not a number",
                   "xlbridge: error: Tournament, C11: Pair 3: the score is empty",
                   "xlbridge: nothing was written: fix the 2 problems at their cells, then Recalculate season again "
                   f"(xlbridge recalc {club})"]


def test_adapter_writes_formula_like_text_as_text(club):
    wb = load_workbook(club)
    OpenpyxlBook(wb).write("Tournament", 40, 2, [["=SUM(A1:A3)", "-", "+31", "@home"]])
    path = club.with_name("t2.xlsx")
    wb.save(path)
    ws = load_workbook(path)["Tournament"]
    assert ws["B40"].value == "=SUM(A1:A3)" and ws["B40"].data_type == "s"
    assert ws["E40"].value == "@home" and ws["E40"].data_type == "s"


def test_recalculate_on_the_adapter_directly(club):
    wb = load_workbook(club)
    report = recalculate(OpenpyxlBook(wb))
    assert report.cells_written == 60 + 21 * 7  # the awards, and the results in place order (with their header)
