"""Evenings not played yet, as a scorer who types the whole season's dates at once meets them
(guide-heeg.md, step 2): their sheets, and what a later roster change does to them."""

from __future__ import annotations

import datetime as dt

import pytest
from openpyxl import load_workbook

from xlbridge.files.headless import recalc_path
from xlbridge.workbooks.plan import BookInputError

FIRST = dt.datetime(2026, 9, 3)


def _season(path, *, line_2: bool) -> None:
    """Three periods of six Thursdays typed on the Season sheet, twelve pairs on the roster in lines A and B
    for period 1 (and for period 2 when ``line_2``)."""
    wb = load_workbook(path)
    ws = wb["Season"]
    for period in range(3):
        for evening in range(6):
            ws.cell(12 + period, 3 + evening).value = FIRST + dt.timedelta(weeks=6 * period + evening)
    for i in range(12):
        ws.cell(17 + i, 1).value, ws.cell(17 + i, 2).value = i + 1, f"Player {i + 1} / Partner {i + 1}"
        ws.cell(17 + i, 3).value = "A" if i < 6 else "B"
        if line_2:
            ws.cell(17 + i, 4).value = "A" if i < 6 else "B"
    wb.save(path)


def _evenings(path) -> dict[str, list]:
    wb = load_workbook(path)
    return {name: [wb[name].cell(row, 1).value for row in range(2, wb[name].max_row + 1)
                   if wb[name].cell(row, 1).value is not None]
            for name in wb.sheetnames if name.startswith("Evening ")}


def test_an_evening_of_a_period_without_its_line_gets_its_sheet_once_the_line_is_typed(tmp_path, built_once):
    """Before: with every date typed and Line 2 still empty (step 5 fills it after period 1), the recalculation
    made the twelve evening sheets of periods 2 and 3 without pairs, and no later run ever added them."""
    path = built_once("heeg", tmp_path / "season.xlsx", blank=True, language="en")
    _season(path, line_2=False)
    recalc_path(path, backup=False)
    evenings = _evenings(path)
    assert sorted(evenings) == [f"Evening {(FIRST + dt.timedelta(weeks=w)).date()}" for w in range(6)]
    assert all(pairs == list(range(1, 13)) for pairs in evenings.values())
    wb = load_workbook(path)
    for i in range(12):
        wb["Season"].cell(17 + i, 4).value = "A" if i < 6 else "B"
    wb.save(path)
    recalc_path(path, backup=False)
    evenings = _evenings(path)
    assert len(evenings) == 12 and all(pairs == list(range(1, 13)) for pairs in evenings.values())


def test_a_line_changed_on_the_roster_is_one_message_per_evening_not_a_flood_about_unplayed_evenings(
        tmp_path, built_once):
    """Before: pair 3 moved to line B for period 2 after its sheets were made gave, besides the line's own
    message, 'MP is empty' for every pair of the unplayed evening (a row with a problem made its evening
    played).  Now an evening with nothing typed stays unplayed: only the line is said, once per evening."""
    path = built_once("heeg", tmp_path / "season.xlsx", blank=True, language="en")
    _season(path, line_2=True)
    recalc_path(path, backup=False)
    wb = load_workbook(path)
    wb["Season"].cell(19, 4).value = "B"  # pair 3, Line 2
    wb.save(path)
    with pytest.raises(BookInputError) as refused:
        recalc_path(path, backup=False)
    messages = [str(p) for p in refused.value.problems]
    period_2 = [f"Evening {(FIRST + dt.timedelta(weeks=6 + w)).date()}" for w in range(6)]
    assert messages == [f"{name}, C4: line 'A' differs from the roster, which puts pair 3 in line B in period 2"
                        for name in period_2]
