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
from tests.heegseason import add_evening, type_pairs

def _evening(path: Path, day: str, *options: str) -> None:
    """New evening for ``day``, every pair's six rounds typed, then recalculated."""
    add_evening(path, day, *options)
    assert main(["recalc", str(path)]) == 0


@pytest.fixture
def season(tmp_path) -> Path:
    """A blank Dutch Heeg workbook with eight pairs on the roster (A: 1-4, B: 5-8 in periods 1 and 2)."""
    path = tmp_path / "h.xlsx"
    assert main(["new", "heeg", str(path), "--blank"]) == 0
    type_pairs(path, periods=(1, 2))
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


@pytest.mark.slow
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
