"""New evening: the next evening sheet of a Heeg season (:mod:`xlbridge.workbooks.nextsheet`).

How an evening comes into being in the Heeg workbook: its date in the periods table
of the Season sheet (under *Evening 1*, *Evening 2*, ... of its period); the
recalculation then adds its sheet with the pairs of that period.  New evening does
both at once, for one evening:

- an evening the Season sheet lists without a sheet yet (planned ahead): the
  earliest one gets its sheet (a date given: that one);
- otherwise the date (default: one week after the last evening; none yet: today)
  goes into the next empty *Evening n* cell of the period of the last evening
  (``next_period``: of the period after it), and the sheet is added.

The sheet is the recalculation's new evening sheet (:func:`~xlbridge.workbooks.heeg.views.plan_new_evening`):
the header, the pairs of the period with names and line, the look of the declaration.

Standard library only: it runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt

from xlbridge.values import as_date, is_blank
from xlbridge.workbooks.book import BookAdapter, cell
from xlbridge.workbooks.declare import cell_ref
from xlbridge.workbooks.heeg.declaration import EVENING_PREFIX, SEASON, evening_sheet, pairs_table, periods_table
from xlbridge.workbooks.heeg.compute import HeegSeason
from xlbridge.workbooks.heeg.views import evening_members, plan_new_evening
from xlbridge.workbooks.heeg.read import SeasonSheet
from xlbridge.workbooks.plan import Block, BookInputError, NextSheet, Plan, at
from xlbridge.workbooks.localised import shown_name

__all__ = ["next_evening", "WEEK"]

#: The default step from the last evening: the club plays once a week.
WEEK = dt.timedelta(days=7)


def _evening_sheets(names: list[str]) -> dict[dt.date, str]:
    found = {}
    for name in names:
        if name.startswith(EVENING_PREFIX):
            day = as_date(name[len(EVENING_PREFIX):])
            if day is not None and name == evening_sheet(day):
                found[day] = name
    return found


def next_evening(book: BookAdapter, *, day: dt.date | None, next_period: bool, today: dt.date) -> NextSheet:
    names = book.sheet_names()
    problems: list = []
    season_sheet = HeegSeason()._season_sheet(book, names, problems)
    if problems or season_sheet is None:
        raise BookInputError(problems or [at(SEASON, None, "heeg.next.no-periods", "the Season sheet has no periods "
                                             "table to list the evening in; type the periods first")])
    settings = season_sheet.settings
    sheets = _evening_sheets(names)
    listed = sorted(settings.evenings)
    pending = [d for d in listed if d not in sheets and evening_sheet(d) not in names]
    plan = Plan()
    entered = None
    if day is None and pending:
        day = pending[0]
    elif day is None:
        last = max([*listed, *sheets], default=None)
        day = last + WEEK if last is not None else today
    name = evening_sheet(day)
    if name in names:
        raise BookInputError([at(name, None, "heeg.next.exists", "the sheet {sheet!r} is already there; nothing was "
                                 "added (choose another date)", sheet=shown_name(name), day=day.isoformat())])
    if day not in listed:
        entered = _enter(book, season_sheet, plan, day, listed, sheets, next_period)
    period = settings.period_of(day)
    label = period.label if period is not None else entered[2]  # type: ignore[index]
    if period is None:  # the date as it will be listed: the period it goes into
        from dataclasses import replace

        periods = tuple(replace(p, evenings=p.evenings + (day,)) if p.label == label else p for p in settings.periods)
        settings = replace(settings, periods=periods)
    if not evening_members(settings, label):
        pairs = pairs_table([p.label for p in settings.periods], season_sheet.pairs_header)
        column = f"line_{label}"
        where = pairs.cell(column, pairs.first_row)
        raise BookInputError([at(SEASON, where, "heeg.next.no-pairs", "no pairs in period {period} yet: type each "
                                 "pair's line under {header!r} in the pairs table, then add the evening",
                                 period=label, header=pairs.column(column).text())])
    labels = [p.label for p in settings.periods]
    count = plan_new_evening(plan, settings, day, labels)
    earlier = [d for d in sheets if d < day]
    after = sheets[max(earlier)] if earlier else None
    return NextSheet("heeg", name, day, after, entered[:2] if entered else None, count, "D2", plan)


def _enter(book: BookAdapter, season: SeasonSheet, plan: Plan, day: dt.date, listed: list[dt.date],
           sheets: dict[dt.date, str], next_period: bool) -> tuple[str, str, str]:
    """Write ``day`` into the next empty evening cell of its period on the Season sheet
    (a problem, located, when it is before the last evening or the period is full)."""
    settings = season.settings
    last = max([*listed, *sheets], default=None)
    if last is not None and day <= last:
        where = (SEASON, season.evening_cells[last]) if last in season.evening_cells else (sheets[last], None)
        raise BookInputError([at(where[0], where[1], "heeg.next.before-last", "evening {day} is not after the last "
                                 "evening ({last}); a new evening comes after the last one (to add an earlier one, "
                                 "type its date in its period on the Season sheet)", day=day.isoformat(),
                                 last=last.isoformat())])
    order = [p.label for p in settings.periods]
    current = settings.period_of(listed[-1]) if listed else None
    index = order.index(current.label) if current is not None else 0
    if next_period and listed:
        index += 1
    rows = sorted(season.period_rows.values())
    if index >= len(order):
        below = rows[-1] + 1
        raise BookInputError([at(SEASON, cell_ref(below, periods_table(0).col("period")), "heeg.next.list-full",
                                 "the season's list is full: no period after period {period}; type the next period "
                                 "in this row of the periods table (its label, e.g. {label})",
                                 period=order[-1], label=len(order) + 1)])
    label = order[index]
    row = season.period_rows[label]
    grid = book.read(SEASON)
    width = settings.periods[index].slots  # (the periods table's evening columns, as read)
    first = periods_table(1).col("evening_1")
    free = next((c for c in range(first, first + width) if is_blank(cell(grid, row, c))), None)
    if free is None:
        raise BookInputError([at(SEASON, cell_ref(row, first + width - 1 if width else first), "heeg.next.period-full",
                                 "period {period} has no empty evening cell (its {count} evening columns are filled): "
                                 "start the next period, or add a column {header!r} to the periods table",
                                 period=label, count=width,
                                 header=periods_table(width + 1).column(f"evening_{width + 1}").text())])
    plan.blocks.append(Block(SEASON, row, free, [[day]], what=SEASON, audit=False))
    return SEASON, cell_ref(row, free), label
