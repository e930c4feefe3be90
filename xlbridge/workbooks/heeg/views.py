"""The views of the Heeg season workbook: what follows from the evenings, never audited.

The period and year standings (:func:`plan_standings`), each evening's result right
of its columns (:func:`plan_result`) and a new evening sheet's headers and pairs
(:func:`plan_new_evening`, also New evening's).  Rows are built keyed by column id
and written through the declaration (:meth:`~xlbridge.workbooks.declare.Table.values`,
:meth:`~xlbridge.workbooks.declare.Table.block`), so the record knows each view's
headers and number formats from there.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from xlbridge.clubs.heeg.records import Entry
from xlbridge.clubs.heeg.rules import MP_CODES
from xlbridge.clubs.heeg.season import SeasonResult
from xlbridge.clubs.heeg.settings import HeegSettings
from xlbridge.clubs.heeg.standings import evening_result
from xlbridge.language import _, ngettext
from xlbridge.values import pair_key
from xlbridge.workbooks.book import BookAdapter, Grid
from xlbridge.workbooks.declare import SheetSpec
from xlbridge.workbooks.heeg.declaration import (
    NOT_RED,
    PROMOTE_FILL,
    RED,
    RELEGATE_FILL,
    STANDINGS_HEADER_ROW,
    evening_headers,
    evening_layout,
    evening_sheet,
    period_spec,
    result_table,
    signal_words,
    standings_layout,
    year_spec,
)
from xlbridge.workbooks.heeg.evening import EveningSheet
from xlbridge.workbooks.plan import Block, Plan

__all__ = ["value_out", "plan_standings", "plan_result", "plan_new_evening", "evening_members"]


def value_out(value: Any) -> Any:
    """An engine value as a cell value: NaN and "" -> blank."""
    if isinstance(value, str):
        return value or None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def plan_standings(plan: Plan, book: BookAdapter, result: SeasonResult, settings: HeegSettings,
                   names: list[str]) -> None:
    """The period standings and the year standings (views: not audited, they follow from the evenings)."""
    labels = [p.label for p in settings.periods]
    periods = result.periods if result.played_days else []
    for period in settings.periods:
        spec = period_spec(period.label)
        part = [rec for rec in periods if rec["period"] == period.label]
        played, planned = result.progress(period.label)
        final = played >= planned
        note = ngettext("{count} pair moves between two lines; a red marks cell: 4 or more substitute/absence "
                        "marks in the period (cannot promote, relegates)",
                        "{count} pairs move between two lines; a red marks cell: 4 or more substitute/absence "
                        "marks in the period (cannot promote, relegates)", period.promote).format(count=period.promote)
        rows, fills = [], []
        for rec in part:
            move = ({"promote": _("promotes to {line}"), "relegate": _("relegates to {line}")} if final else
                    {"promote": _("would promote to {line}"), "relegate": _("would relegate to {line}")}
                    ).get(rec["move"])
            move = move.format(line=rec["next_line"]) if move else None
            if rec["blocked"]:  # the red marks cell, in words
                move = signal_words("signal.blocked", move=move, marks=int(rec["marks"])) if move else \
                    signal_words("signal.no-promotion", marks=int(rec["marks"]))
            rows.append({**_standing(rec), "period_pct": float(rec["period_pct"]), "move": move,
                         "next_line": rec["next_line"]})
            fills.append((RED if rec["blocked"] else NOT_RED,
                          {"promote": PROMOTE_FILL, "relegate": RELEGATE_FILL}.get(rec["move"], NOT_RED)))
        table = spec.tables[0]
        title = _("{title} ({status})").format(title=spec.title, status=_status(played, planned))
        _table(plan, book, names, spec, title, note, rows, {table.col("marks"): [f[0] for f in fills], table.col("move"): [f[1] for f in fills]}, labels)
    _plan_year(plan, book, result, settings, names, labels)


def _status(played: int, planned: int) -> str:
    """A period's or the year's state in words: nothing yet, provisional with the count, or final."""
    if not played:
        return _("no evening played yet")
    if played >= planned:
        return ngettext("final: its {count} evening played", "final: all {count} evenings played", planned).format(
            count=planned)
    return ngettext("provisional: {played} of {count} evening played",
                    "provisional: {played} of {count} evenings played", planned).format(played=played, count=planned)


def _standing(rec: Mapping[str, Any]) -> dict[str, Any]:
    """What a period's and the year's standings share, by column id."""
    return {"line": rec["line"], "rank": int(rec["rank"]), "pair": pair_key(rec["pair"]), "names": rec["names"] or None,
            "evenings": int(rec["evenings"]), "marks": int(rec["marks"])}


def _plan_year(plan: Plan, book: BookAdapter, result: SeasonResult, settings: HeegSettings,
               names: list[str], labels: list[str]) -> None:
    """The year standings: the club championship."""
    spec = year_spec(labels, settings.season)
    year = result.year if result.played_days else []
    rows, reds = [], []
    for rec in year:
        champion = rec["champion_rank"]
        if champion is None or math.isnan(champion):  # the red * (and the *), in words
            reasons = ([signal_words("signal.not-whole-year", line=settings.lines[0])] if rec["star"] else []) + \
                ([signal_words("signal.too-many-marks", marks=int(rec["marks"]))] if rec["red_star"] else [])
            champion = signal_words("signal.join").join(reasons) or None
        rows.append({**_standing(rec), "year_pct": float(rec["year_pct"]),
                     **{f"end_{label}": value_out(rec[f"end_{label}"]) for label in labels},
                     "star": "*" if rec["star"] else None,
                     "champion_rank": champion if champion is None or isinstance(champion, str) else int(champion)})
        reds.append(RED if rec["red_star"] else NOT_RED)
    note = _("champion: the best pair that played every evening in line {line} (no *) and had at most "
             "5 substitute/absence marks (no red *)").format(line=settings.lines[0])
    title = _("{title} ({status})").format(title=spec.title, status=_status(*result.progress()))
    _table(plan, book, names, spec, title, note, rows, {spec.tables[0].col("star"): reds}, labels)


def _table(plan: Plan, book: BookAdapter, names: list[str], spec: SheetSpec, title: str, note: str,
           rows: list[dict[str, Any]], fills: dict[int, list[str]], labels: list[str]) -> None:
    """A whole standings sheet: title, note, header row 3, rows from 4; the old
    contents beyond are blanked.  Not audited (it follows from the evenings)."""
    sheet, table = spec.name, spec.tables[0]
    old: Grid = book.read(sheet) if sheet in names else []
    if sheet not in names:
        plan.new_sheets.append(sheet)
        plan.layouts.append((sheet, standings_layout(sheet, labels, len(rows))))
    headers = table.headers()
    width = max(len(headers), max((len(r) for r in old), default=0))
    height = max(STANDINGS_HEADER_ROW + len(rows), len(old))
    grid: Grid = [[title], [note], headers, *table.values(rows)]
    grid = [list(line) + [None] * (width - len(line)) for line in grid]
    grid += [[None] * width for _ in range(height - len(grid))]
    plan.blocks.append(Block(sheet, 1, table.first_col, grid, what=sheet, audit=False, columns=headers,
                             formats=table.formats()))
    for col, colours in fills.items():
        for i in range(height - table.header_row):
            plan.fills.append((sheet, table.first_row + i, col, colours[i] if i < len(colours) else NOT_RED))


def evening_members(settings: HeegSettings, label: str) -> list[Any]:
    """The pairs of the roster playing in period ``label``: by line (top line first), then pair."""
    order = {line: i for i, line in enumerate(settings.lines)}
    return sorted((p for p in settings.roster if label in p.lines),
                  key=lambda p: (order.get(p.lines[label], 99),
                                 (0, p.pair, "") if isinstance(p.pair, int) else (1, 0, str(p.pair))))


def plan_new_evening(plan: Plan, settings: HeegSettings, day: dt.date, labels: list[str]) -> int:
    """The blocks and look of a new evening sheet (the recalculation's and New evening's):
    the headers, the pairs of its period with their names and line; how many pairs."""
    name = evening_sheet(day)
    period = settings.period_of(day)
    members = evening_members(settings, period.label) if period is not None else []
    # (not audited: a new sheet has no earlier values; and no results: the scorer types them)
    plan.blocks.append(Block(name, 1, 1, [evening_headers(settings.rounds, labels)], what=name, audit=False))
    result = result_table(settings.rounds, labels)
    plan.blocks.append(Block(name, 1, result.first_col, [result.headers()], what=name, audit=False))
    if members:
        plan.blocks.append(Block(name, 2, 1, [[p.pair, p.names or None, p.lines[period.label]]  # type: ignore[union-attr]
                                              for p in members], what=name, audit=False))
    plan.layouts.append((name, evening_layout(settings.rounds, labels, len(members))))
    return len(members)


def plan_result(plan: Plan, sheet: EveningSheet, computed: list[tuple[Entry, dict[str, Any]]],
                labels: list[str], lines: Sequence[str], exact: Mapping[Any, Fraction | None]) -> None:
    """The evening's result right of its columns (the club's nightly *uitslag*): the
    pairs that played at the tables (an inv code whose MP count: blank, 1, s, s1),
    per line by %, ranked in their line as the standings are; the column left of
    it and the rows below it are blanked.  Not audited (it follows from the %).  The ranks
    compare the exact % the season computed (``exact``, by the row's ``Entry.ref``), as the
    standings do (docs/clubs/heeg.md §6.1): equal as fractions is one rank, whatever the floats."""
    table = result_table(sheet.rounds, labels)
    played = [{"line": entry.line, "pair": entry.pair, "names": entry.names, "pct": values["pct"],
               "exact": exact.get(entry.ref)}
              for entry, values in computed
              if values["played"] and entry.code in MP_CODES and isinstance(values["pct"], float)
              and math.isfinite(values["pct"])]
    rows = table.values({**r, "names": r["names"] or None} for r in evening_result(played, lines))
    height = max(len(rows), len(sheet.grid) - table.header_row)
    block = [table.headers()] + rows + [[None] * table.width() for _ in range(height - len(rows))]
    plan.blocks.append(Block(sheet.name, table.header_row, table.first_col - 1, [[None] for _ in range(height + 1)],
                             what=sheet.name, audit=False, columns=[""], formats=["General"]))
    plan.blocks.append(table.block(sheet.name, block, row=table.header_row, what=sheet.name, audit=False))
