"""Issue 16, point 10: a base pair without a Name shows its players' names in the standings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from xlbridge.clubs.bridgemania.demo import demo_season
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.bridgemania.build import season_workbook
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.recalc import recalculate


@pytest.mark.slow
def test_an_empty_name_falls_back_to_the_players() -> None:
    season = demo_season()
    first = season.base_pairs[0]
    assert first.name and all(first.players)
    nameless = replace(first, name="")
    wb = season_workbook(replace(season, base_pairs=(nameless, *season.base_pairs[1:])))
    recalculate(OpenpyxlBook(wb))
    ws = wb[d.CHAMPIONSHIP]
    pair, name = d.FINAL.col("pair"), d.FINAL.col("name")
    shown = {ws.cell(row=r, column=pair).value: ws.cell(row=r, column=name).value
             for r in range(d.FINAL.first_row, ws.max_row + 1) if ws.cell(row=r, column=pair).value}
    assert shown[first.id] == f"{first.players[0]} / {first.players[1]}"
    assert shown[season.base_pairs[1].id] == season.base_pairs[1].name  # a Name is kept
