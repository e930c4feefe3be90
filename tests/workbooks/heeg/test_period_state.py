"""A period is final only when its plan is played (issue 26, point 1): evenings added one by
one with New evening leave the period provisional, with the count of the plan, until its
last evening; the year the same over the season."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.cli import main
from xlbridge.clubs.heeg.settings import HeegSettings, Period

PAIRS = 8  # lines A and B of four pairs: a round's top 2 x 4 boards = 8 MP


def _evening(path: Path, day: str, *options: str) -> None:
    """New evening for ``day``, then every pair's six rounds typed (a different total each)."""
    assert main(["next", str(path), "--date", day, *options]) == 0
    wb = load_workbook(path)
    ws = wb[f"Avond {day}"]
    for row in range(2, 2 + PAIRS):
        for col in range(4, 10):
            ws.cell(row=row, column=col, value=(row + col) % 7 + 1)
    wb.save(path)
    assert main(["recalc", str(path)]) == 0


@pytest.fixture
def season(tmp_path) -> Path:
    """A blank Dutch Heeg workbook with eight pairs on the roster (A: 1-4, B: 5-8 in periods 1 and 2)."""
    path = tmp_path / "h.xlsx"
    assert main(["new", "heeg", str(path), "--blank"]) == 0
    wb = load_workbook(path)
    ws = wb["Seizoen"]
    for i in range(PAIRS):
        ws.cell(row=17 + i, column=1, value=i + 1)
        ws.cell(row=17 + i, column=2, value=f"Paar {i + 1}")
        for period in (1, 2):
            ws.cell(row=17 + i, column=2 + period, value="A" if i < 4 else "B")
    wb.save(path)
    return path


def _moves_read(ws, *starts: str) -> None:
    """Every move cell of a period sheet starts with one of ``starts`` (and there are some)."""
    moves = [row[7] for row in ws.iter_rows(min_row=4, values_only=True) if row[7]]
    assert moves and all(m.startswith(starts) for m in moves), moves


def test_one_evening_of_six_is_provisional_with_the_plans_count(season):
    _evening(season, "2026-09-03")
    wb = load_workbook(season)
    period = wb["Periode 1"]
    assert period["A1"].value.endswith("(voorlopig: 1 van 6 avonden gespeeld)")
    _moves_read(period, "zou promoveren naar", "zou degraderen naar")
    assert wb["Periode 2"]["A1"].value.endswith("(nog geen avond gespeeld)")
    assert wb["Jaar"]["A1"].value.endswith("(voorlopig: 1 van 18 avonden gespeeld)")


def test_the_next_periods_first_evening_closes_a_shorter_period(season):
    _evening(season, "2026-09-03")
    _evening(season, "2026-09-10")
    # the scorer starts period 2 after two evenings of period 1
    _evening(season, "2026-09-17", "--next-period")
    wb = load_workbook(season)
    assert wb["Seizoen"]["C13"].value == dt.datetime(2026, 9, 17)
    period = wb["Periode 1"]
    assert period["A1"].value.endswith("(eindstand: alle 2 avonden gespeeld)")
    _moves_read(period, "promoveert naar", "degradeert naar")
    assert wb["Periode 2"]["A1"].value.endswith("(voorlopig: 1 van 6 avonden gespeeld)")
    assert wb["Jaar"]["A1"].value.endswith("(voorlopig: 3 van 14 avonden gespeeld)")


def test_the_plan_of_a_period():
    day = dt.date(2026, 9, 3)
    first = Period("1", (day,), slots=6)
    settings = HeegSettings(periods=(first, Period("2", (), slots=6)))
    assert settings.planned("1") == 6 and settings.planned("2") == 6
    settings = HeegSettings(periods=(first, Period("2", (day + dt.timedelta(days=7),), slots=6)))
    assert settings.planned("1") == 1 and settings.planned("2") == 6
    # more evenings listed than slots (typed right of the table): every one counts
    settings = HeegSettings(periods=(Period("1", tuple(day + dt.timedelta(days=7 * i) for i in range(7)), slots=6),))
    assert settings.planned("1") == 7
    # no slots known (a settings object made in Python): the evenings listed
    assert HeegSettings(periods=(Period("1", (day,)),)).planned("1") == 1
