"""The Chart sheet of the Heeg season workbook: one pair's season at a glance.

The scorer types a pair in B3 (blank: the leader of the year standings); the
recalculation fills the table below it -- per evening of the season in date order,
the pair's line, evening %, periode and jaar, the values of its evening sheet
(the season's own result, not computed again) -- and the title in A1 naming the
pair.  The line chart right of the table is the builder's
(:func:`xlbridge.workbooks.style.draw_chart`): it reads the table, so it follows in
Excel and headless alike, and a headless recalculation keeps it byte for byte
(:mod:`xlbridge.files.kept_parts`).  A Chart sheet that was deleted comes back with its
table, without the chart (neither xlwings nor Office.js draws one for us): a
warning says where to get it (docs/clubs/heeg.md, "The Chart sheet").

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from xlbridge.clubs.heeg.records import Entry
from xlbridge.clubs.heeg.season import SeasonResult
from xlbridge.clubs.heeg.settings import HeegSettings
from xlbridge.language import N_, _
from xlbridge.values import pair_key
from xlbridge.workbooks.book import Grid
from xlbridge.workbooks.heeg.declaration import CHART, CHART_PAIR, chart_spec
from xlbridge.workbooks import chartsheet
from xlbridge.workbooks.plan import Plan, LocatedProblem, at
from xlbridge.workbooks.localised import shown_name
from xlbridge.workbooks.typed_checks import cell_problem

__all__ = ["chart_problems", "plan_chart", "TITLE", "NOTHING_YET"]

TITLE = N_("Pair {pair} ({names}): evening %, periode and jaar over the season")
TITLE_NO_NAMES = N_("Pair {pair}: evening %, periode and jaar over the season")
NOTHING_YET = N_("No evening played yet: the chart shows the leader of the year standings once one is")


def typed_pair(grid: Grid | None) -> Any:
    """The pair typed on the Chart sheet (``None``: blank, or no Chart sheet)."""
    return chartsheet.typed_pair(CHART_PAIR, grid)


def chart_problems(grid: Grid | None, known: Iterable[Any]) -> list[LocatedProblem]:
    """The typed pair of the Chart sheet, checked: a formula, an error value or a pair
    that is in no pairs table and on no evening sheet is a problem at its cell."""
    value = typed_pair(grid)
    if value is None:
        return []
    found = cell_problem(CHART, CHART_PAIR.cell, value)
    if found is not None:
        return [found]
    if pair_key(value) in set(known):
        return []
    return [at(CHART, CHART_PAIR.cell, "heeg.chart.pair-unknown", "pair {value} is not a pair of this season; type "
               "a pair number of the pairs table on the {season} sheet, or leave the cell empty for the leader of "
               "the year standings", field="pair", value=value, season=shown_name("Season"))]


def _leader(result: SeasonResult, settings: HeegSettings) -> Any:
    """The leader of the year standings: rank 1 of the first line that has a pair."""
    order = {line: i for i, line in enumerate(settings.lines)}
    rows = sorted(result.year if result.played_days else [],
                  key=lambda r: (order.get(r["line"], len(order)), r["rank"]))
    return pair_key(rows[0]["pair"]) if rows else None


def plan_chart(plan: Plan, grid: Grid | None, result: SeasonResult, settings: HeegSettings,
               by_day: dict[dt.date, list[tuple[Entry, dict[str, Any]]]]) -> None:
    """The Chart sheet's title and table (``grid``: the sheet as it is, ``None``
    when it is missing: then it is added with its look, and a warning says that the
    chart itself is not).  Not audited: it repeats the evening sheets."""
    days = sorted(settings.evenings)
    spec = chart_spec(len(days))
    table = spec.tables[0]
    if grid is None:
        chartsheet.add_again(plan, CHART, CHART_PAIR, spec.layout(title=True), code="heeg.chart.added", kind="heeg")
    typed = typed_pair(grid)
    pair = pair_key(typed) if typed is not None else _leader(result, settings)
    names = next((p.names for p in settings.roster if p.pair == pair), "")
    rows: Grid = []
    for day in days:
        own = next((values for entry, values in by_day.get(day, []) if entry.pair == pair and values["played"]), None)
        entry = next((entry for entry, values in by_day.get(day, []) if entry.pair == pair), None)
        names = names or (entry.names if entry is not None else "")
        if own is None:
            rows.append([day, None, None, None, None])
        else:
            rows.append([day, entry.line or None if entry else None,
                         *(_number(own[c]) for c in ("pct", "period_pct", "year_pct"))])
    if pair is None:
        title = _(NOTHING_YET)
    else:
        title = (_(TITLE) if names else _(TITLE_NO_NAMES)).format(pair=pair, names=names)
    chartsheet.write_table(plan, CHART, table, title, rows, grid)


def _number(value: Any) -> float | None:
    """A computed % as a cell value: NaN -> blank."""
    return value if isinstance(value, (int, float)) and value == value else None
