"""The Chart sheet of the BridgeMania workbook: one base pair's three championships at a glance.

The scorer types a base pair in B3 (blank: the leader of the final ranking); the
recalculation fills the table below it -- per tournament of the calendar, in its
order, the pair's F1, IndyCar and Hybrid PTS after it, as the Championship sheet's
"after each tournament" table has them (the engine's standings, not computed
again) -- and the title in A1 naming the pair.  The line chart right of the table
is the builder's (:func:`xlbridge.workbooks.style.draw_chart`): it reads the
table, so it follows in Excel and headless alike.  A deleted Chart sheet comes
back with its table, without the chart: a warning says where to get it
(docs/clubs/bridgemania.md, "The Chart sheet").

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from xlbridge.clubs import bridgemania as bm
from xlbridge.language import _
from xlbridge.values import as_date, as_text
from xlbridge.workbooks.book import Grid
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks import chartsheet
from xlbridge.workbooks.plan import Plan, LocatedProblem, at
from xlbridge.workbooks.localised import shown_name
from xlbridge.workbooks.typed_checks import cell_problem

__all__ = ["chart_problems", "plan_chart"]


def typed_pair(grid: Grid | None) -> str | None:
    """The pair typed on the Chart sheet (``None``: blank, or no Chart sheet)."""
    return chartsheet.typed_pair(d.CHART_PAIR, grid)


def chart_problems(grid: Grid | None, base_pairs: Iterable[str]) -> list[LocatedProblem]:
    """The typed pair of the Chart sheet, checked: a formula, an error value or an
    id that is not a base pair's is a problem at its cell."""
    value = typed_pair(grid)
    if value is None:
        return []
    found = cell_problem(d.CHART, d.CHART_PAIR.cell, value)
    if found is not None:
        return [found]
    if as_text(value).upper() in {b.upper() for b in base_pairs}:
        return []
    return [at(d.CHART, d.CHART_PAIR.cell, "bm.chart.pair-unknown", "pair {value} is not a base pair of this season "
               "(only base pairs earn championship PTS); type a pair id of the base pairs table on the {season} "
               "sheet, or leave the cell empty for the leader of the final ranking", field="pair", value=value,
               season=shown_name(d.SEASON))]


def _leader(standings: bm.Standings) -> str | None:
    """The leader of the final ranking (place 1; the first row when none has a place yet)."""
    placed = [r for r in standings.final if r.place is not None]
    rows = sorted(placed, key=lambda r: r.place) or list(standings.final)
    return rows[0].pair if rows and standings.after else None


def _date(value: Any) -> dt.date | str | None:
    """A tournament's date (a date in the cell), or its text when it is none."""
    day = as_date(value)
    return day if day is not None else (as_text(value) or None)


def plan_chart(plan: Plan, grid: Grid | None, season: bm.Season, standings: bm.Standings,
               names_of: dict[str, str]) -> None:
    """The Chart sheet's title and table (``grid``: the sheet as it is, ``None`` when
    it is missing: then it is added with its look, and a warning says that the chart
    itself is not).  Not audited: it repeats the Championship sheet."""
    table = d.CHART_TABLE
    if grid is None:
        spec = replace(d.CHART_SHEET, tables=(replace(table, room=max(table.room, len(season.tournaments))),))
        chartsheet.add_again(plan, d.CHART, d.CHART_PAIR, replace(d.layout(spec), title=True), code="bm.chart.added",
                             kind="bridgemania")
    typed = typed_pair(grid)
    ids = {b.id.upper(): b.id for b in season.base_pairs}
    pair = ids.get(as_text(typed).upper(), as_text(typed)) if typed is not None else _leader(standings)
    after = {tid: {r.pair: r for r in rows} for tid, rows in standings.after}
    rows: Grid = []
    for t in season.tournaments:
        own = after.get(t.id, {}).get(pair) if pair is not None else None
        rows.append([t.id, _date(t.date), *((own.f1, own.indy, own.hybrid) if own is not None else (None,) * 3)])
    if pair is None:
        title = _(d.CHART_NOTHING_YET)
    else:
        name = names_of.get(pair)
        title = (_(d.CHART_TITLE) if name else _(d.CHART_TITLE_NO_NAME)).format(pair=pair, name=name)
    chartsheet.write_table(plan, d.CHART, table, title, rows, grid)
