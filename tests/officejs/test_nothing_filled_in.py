"""A template clicked as it came (issue 16, point 11) on the Excel path: BridgeMania, as Heeg, says
"nothing is filled in yet" in the workbook's language; a tournament without base pairs is the
located problem."""

from __future__ import annotations

import pytest
import xlwings as xw
from openpyxl import load_workbook

from xlbridge.excel import scripts
from tests.emulate import payload
from xlbridge.language import _, sheet_name, speaking
from xlbridge.workbooks.bridgemania.declaration import BLANK_TOURNAMENT, CALENDAR, SEASON
from tests.alerts import is_done_message
from xlbridge.workbooks.messages import DONE_EMPTY


def click(wb) -> list[str]:
    book = xw.Book(json=payload(wb, "Book1.xlsx"))
    scripts.recalculate(book)
    return [a["args"][0] for a in book.json()["actions"] if a["func"] == "alert"]


@pytest.mark.parametrize("kind,language", [("bridgemania", "it"), ("heeg", "nl")])
def test_a_blank_template_clicked_says_nothing_is_filled_in(tmp_path, kind, language, built_once):
    wb = load_workbook(built_once(kind, tmp_path / "t.xlsx", blank=True))  # in the club's language
    alerts = click(wb)
    assert len(alerts) == 1 and is_done_message(alerts[0], empty=True), alerts
    with speaking(language):
        assert alerts[0].startswith(_(DONE_EMPTY).split(":")[0]), alerts


@pytest.mark.slow
def test_a_tournament_without_base_pairs_clicked_is_the_located_problem(tmp_path, built_once):
    wb = load_workbook(built_once("bridgemania", tmp_path / "t.xlsx", blank=True))
    season = wb[sheet_name(SEASON, "it")]
    wb.copy_worksheet(wb[sheet_name(BLANK_TOURNAMENT, "it")]).title = "T1"
    season.cell(CALENDAR.first_row, CALENDAR.col("tournament")).value = "T1"
    season.cell(CALENDAR.first_row, CALENDAR.col("date")).value = "2026-10-07"
    alerts = click(wb)
    assert len(alerts) == 1 and not is_done_message(alerts[0]), alerts
    with speaking("it"):
        located = f"{sheet_name(SEASON, 'it')}, A5: " + _("no base pairs typed: one row per base pair (pair id, "
                                                          "player 1, player 2)")
    assert located in alerts[0], alerts
