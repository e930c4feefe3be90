"""Every problem at once, each at its own cell (issue 14, point 7): a Season-sheet
problem does not hide the evening checks, a score problem does not hide option
errors, a formula or an error value in a typed cell is reported once at that cell,
an option is reported where it was typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.language import sheet_name, speaking
from xlbridge.workbooks.localised import Localised
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from tests.bm_layout import T_FIRST
from xlbridge.workbooks.bridgemania.declaration import FIRST_BOARD_COL
from xlbridge.workbooks.heeg import heeg_workbook
from xlbridge.workbooks.recalc import BookInputError, recalculate

# Every workbook in its club's language (Heeg Dutch, TBF Turkish, Swedish events Swedish, BridgeMania
# Italian), every problem at the sheet as the scorer sees it there.
SEASON = sheet_name("Season", "nl")
E3 = Localised.local_name("Evening 2025-09-18", "nl")
TOURNAMENT = sheet_name("Tournament", "tr")
SILVER, TEAMS = sheet_name("Silver pairs", "sv"), sheet_name("Team barometer", "sv")


@pytest.fixture(scope="module")
def heeg(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("heeg") / "heeg.xlsx"
    heeg_workbook(False).save(path)
    return path


@pytest.fixture(scope="module")
def club(tmp_path_factory, built_once) -> Path:
    return built_once("tbf-club", tmp_path_factory.mktemp("club") / "club.xlsx")


@pytest.fixture(scope="module")
def swedish(tmp_path_factory, built_once) -> Path:
    return built_once("se-masterpoints", tmp_path_factory.mktemp("se") / "se.xlsx")


def located(path: Path, change) -> set[tuple[str, str | None, str]]:
    """Each problem as (the sheet as the scorer sees it, the cell, the code)."""
    wb = load_workbook(path)
    change(wb)
    with pytest.raises(BookInputError) as caught:
        recalculate(OpenpyxlBook(wb))
    with speaking(caught.value.language):
        return {(p.shown_sheet, p.cell, p.code) for p in caught.value.problems}


def test_the_workbooks_are_in_their_clubs_languages():
    assert (SEASON, E3, TOURNAMENT, SILVER, TEAMS) == (
        "Seizoen", "Avond 2025-09-18", "Turnuva", "Silver par", "Lagbarometer")


def _roster_row(ws, pair: int) -> int:
    return next(r for r in range(17, ws.max_row + 1) if ws.cell(r, 1).value == pair)


# ---------------------------------------------------------------- Heeg


@pytest.mark.slow
def test_a_formula_in_season_b5_is_one_problem_at_b5(heeg):
    def change(wb):
        wb[SEASON]["B5"] = "=A1"  # the Lines setting (was: 87 'line is not one of' messages, none at B5)
    assert located(heeg, change) == {(SEASON, "B5", "cell.formula")}


@pytest.mark.slow
def test_ref_in_a_roster_cell_is_one_problem_at_that_cell(heeg):
    def change(wb):
        ws = wb[SEASON]
        ws.cell(_roster_row(ws, 1), 1).value = "#REF!"  # (was: 18 'pair 1 is not on the roster', none here)
    row = _roster_row(load_workbook(heeg)[SEASON], 1)
    assert located(heeg, change) == {(SEASON, f"A{row}", "cell.error")}


@pytest.mark.slow
def test_a_season_problem_does_not_hide_the_evening_checks(heeg):
    def change(wb):
        wb[SEASON]["B6"] = "six"  # rounds per evening
        wb[E3]["N3"] = "x"  # an unknown inv code
        wb[E3]["D4"] = "=D3+1"  # a formula in a round's MP
    assert located(heeg, change) == {(SEASON, "B6", "heeg.season.whole"), (E3, "N3", "heeg.code.unknown"),
                                     (E3, "D4", "cell.formula")}


@pytest.mark.slow
def test_a_bad_evening_date_in_the_periods_does_not_hide_other_evenings(heeg):
    def change(wb):
        wb[SEASON]["C13"] = "#VALUE!"  # period 1's first evening
        wb[E3]["N3"] = "x"
    assert located(heeg, change) == {(SEASON, "C13", "cell.error"), (E3, "N3", "heeg.code.unknown")}


# ---------------------------------------------------------------- event sheets


def test_a_score_problem_does_not_hide_option_errors(club):
    def change(wb):
        ws = wb[TOURNAMENT]
        ws["C12"] = "5x"
        ws["B5"] = "colour=blue"
    assert located(club, change) == {(TOURNAMENT, "C12", "event.score.text"),
                                     (TOURNAMENT, "B5", "option.unknown")}


def test_an_option_typed_in_b5_is_reported_at_b5(swedish):
    def change(wb):
        wb[SILVER]["B5"] = "met=abc"
    assert located(swedish, change) == {(SILVER, "B5", "option.not-a-number")}

    def boards(wb):
        wb[SILVER]["B5"] = "met=30; boards=abc"
    assert {cell for _, cell, _ in located(swedish, boards)} == {"B5"}


def test_a_formula_or_error_in_event_settings_and_rows_is_one_problem_each(club):
    def change(wb):
        ws = wb[TOURNAMENT]
        ws["B4"] = "=20+4"
        ws["C12"] = "#DIV/0!"
    assert located(club, change) == {(TOURNAMENT, "B4", "cell.formula"), (TOURNAMENT, "C12", "cell.error")}


def test_a_pair_number_twice_on_an_event_sheet_is_a_problem_at_its_cell(club, swedish):
    def change(wb):
        ws = wb[TOURNAMENT]
        ws["A13"] = ws["A12"].value
    assert located(club, change) == {(TOURNAMENT, "A13", "event.unit.twice")}

    def team(wb):
        ws = wb[TEAMS]
        ws["A10"] = ws["A9"].value
    assert located(swedish, team) == {(TEAMS, "A10", "event.unit.twice")}


# ---------------------------------------------------------------- BridgeMania


@pytest.fixture(scope="module")
def bridgemania(tmp_path_factory, built_once) -> Path:
    return built_once("bridgemania", tmp_path_factory.mktemp("bm") / "bm.xlsx")


@pytest.mark.slow
def test_a_formula_or_error_in_bridgemania_scores_is_one_problem_at_its_cell(bridgemania):
    ws = load_workbook(bridgemania)["T01"]
    board = FIRST_BOARD_COL  # board 1: E, right of the pairs
    first, second = [r for r in range(T_FIRST, ws.max_row + 1)
                     if isinstance(ws.cell(r, board).value, (int, float))][:2]

    def change(wb):
        wb["T01"].cell(first, board).value = "=E9+1"  # board 1 (was: 'score '=E9+1' is not a number')
        wb["T01"].cell(second, board + 2).value = "#REF!"  # board 3
    assert located(bridgemania, change) == {("T01", f"E{first}", "cell.formula"), ("T01", f"G{second}", "cell.error")}
