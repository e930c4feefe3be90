"""The Swedish masterpoints workbook and the SE_ worksheet functions."""

from __future__ import annotations

import datetime as dt

from openpyxl import load_workbook

from xlbridge import awards
from tests.emulate import snapshot
from xlbridge.workbooks.record import RECORD
from xlbridge.excel.functions import se_class, se_ranking
from xlbridge.files.headless import recalc_path


def column(ws, col, first=9):
    """The column's values on the rows with a unit (rows below are laid out for typing, empty)."""
    return [ws.cell(row=r, column=col).value for r in range(first, ws.max_row + 1) if ws.cell(row=r, column=1).value]


def test_silver_pairs_met_30_of_60(tmp_path, built_once):
    ws = load_workbook(built_once("se-masterpoints", tmp_path / "se.xlsx", language="en"))["Silver pairs"]
    assert (ws["B3"].value, ws["B5"].value) == ("se.silver.pairs", "met=30")
    points, units = column(ws, 5), column(ws, 6)
    # page 12: 60 pairs meeting 30 -> the winner gets the 46-pair row, 46 sp
    assert (points[0], units[0]) == (46, "sp")
    # silver to at most the best quarter, then bronze (x 2 in silver events) down to one third
    assert units.count("sp") <= 15 and set(units[:units.count("sp")]) == {"sp"}
    assert all(u == "bp" for u in units[units.count("sp"):])
    assert sum(1 for p in points if p) <= 20


def test_every_event_sheet_holds_the_engine_awards(tmp_path, built_once):
    wb = load_workbook(built_once("se-masterpoints", tmp_path / "se.xlsx", language="en"))
    for name in ("Bronze pairs", "Silver pairs", "Team barometer"):
        ws = wb[name]
        ranks = column(ws, 4)
        options = {"met": 30} if name == "Silver pairs" else {}
        expected = awards(ws["B3"].value, ranks, boards=ws["B4"].value, **options)
        assert column(ws, 5) == [a.points for a in expected], name
        assert column(ws, 6) == [a.unit for a in expected], name


def test_bronze_evening_tie_shares_rounded_up(tmp_path, built_once):
    ws = load_workbook(built_once("se-masterpoints", tmp_path / "se.xlsx", language="en"))["Bronze pairs"]
    ranks, points = column(ws, 4), column(ws, 5)
    assert ranks[3] == ranks[4] == 4  # the typed scores tie 4th and 5th
    untied = awards("se.bronze.pairs", list(range(1, 15)), boards=24)
    assert points[3] == points[4] == -(-(untied[3].points + untied[4].points) // 2)


def test_recalculation_is_stable_and_tracks_a_correction(tmp_path, built_once):
    path = built_once("se-masterpoints", tmp_path / "se.xlsx", language="en")
    before = snapshot(load_workbook(path))
    assert RECORD in before  # built with the record of its own recalculation
    first = recalc_path(path)
    assert first.changes == [] and first.typed == []
    assert snapshot(load_workbook(path)) == before  # the record included: nothing written
    wb = load_workbook(path)
    wb["Team barometer"]["C20"] = 200  # the last team actually won
    wb.save(path)
    report = recalc_path(path, when="2026-11-30 10:00")
    ws = load_workbook(path)["Team barometer"]
    assert ws["D20"].value == 1 and ws["F20"].value == "bp"
    assert {c.sheet for c in report.changes} == {"Team barometer"}
    assert [(c.sheet, c.cell) for c in report.typed] == [("Team barometer", "C20")]  # the scorer's change


def test_blank_template_recalculates_to_nothing(tmp_path, built_once):
    path = built_once("se-masterpoints", tmp_path / "blank.xlsx", blank=True, language="en")
    report = recalc_path(path)
    # only the header (and the empty column left of it) of the results in place order, on each of the 3 sheets
    assert report.cells_written == 3 * 7 and report.changes == []


def test_se_class():
    # "Med enbart bp blir man rutermästare med 20 mp" (page 2): 2000 bp = 20 mp
    assert se_class(0, 0, 2000) == "Rutermästare"
    assert se_class(None, None, 1999).startswith("Klövermästare")
    assert se_class(0, 0, 10) == ""
    assert se_class(0, "lots", 0).startswith("#xlbridge: ")


def test_se_ranking_over_a_results_range():
    day = dt.datetime
    points = [[22.5], [12], [30], [5]]
    units = [["gp"], ["sp"], ["bp"], ["sp"]]
    events = [["gold"], [None], ["silver"], ["silver"]]
    dates = [[day(2025, 3, 1)], [day(2025, 6, 1)], [day(2025, 7, 1)], [day(2022, 1, 1)]]
    # 22.5 gp -> 338 rp (page 16), 12 sp -> 12 rp, bronze counts 0, a result older than 24 months drops out
    assert se_ranking(points, units, events, dates) == 350
    assert se_ranking(points, units, events, dates, day(2027, 4, 1)) == 12
    assert se_ranking([[1]], [["sp"], ["sp"]], [["silver"]], [[day(2025, 1, 1)]]).startswith("#xlbridge: ")


def test_a_tie_across_currencies_shows_both(tmp_path, built_once):
    """Silver pairs, 16 pairs, tie for 4th-5th: the places give 6 sp + 14 bp, each
    tied pair gets 3 sp + 7 bp (issue 15; docs/rules/sweden.md): the sheet shows
    3 in Points and "sp + 7 bp" in Unit."""
    from xlbridge.files.headless import recalc_path

    path = built_once("se-masterpoints", tmp_path / "se.xlsx", language="en")
    wb = load_workbook(path)
    ws = wb["Silver pairs"]
    ws["B4"], ws["B5"] = 40, None
    for row in range(9, 9 + 60):
        for col in (1, 2, 3):
            ws.cell(row=row, column=col).value = None
    scores = [70, 68, 66, 64, 64, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40]
    for i, score in enumerate(scores):
        ws.cell(row=9 + i, column=1, value=i + 1)
        ws.cell(row=9 + i, column=2, value=f"Pair {i + 1}")
        ws.cell(row=9 + i, column=3, value=score)
    wb.save(path)
    recalc_path(path)
    ws = load_workbook(path)["Silver pairs"]
    tied = awards("se.silver.pairs", [1, 2, 3, 4, 4, *range(6, 17)], boards=40)[3]
    assert tied.also and tied.unit_text.startswith("sp + ") and tied.unit_text.endswith(" bp")
    assert [ws.cell(row=r, column=c).value for r in (12, 13) for c in (4, 5, 6)] == [4, tied.points, tied.unit_text] * 2
