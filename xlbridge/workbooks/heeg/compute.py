"""The recalculation of the Heeg season workbook: :class:`HeegSeason`, a
:class:`~xlbridge.workbooks.plan.Kind`.

It reads the sheets (:mod:`~xlbridge.workbooks.heeg.read`, :mod:`~xlbridge.workbooks.heeg.evening`), parses every evening
row once (:func:`~xlbridge.clubs.heeg.records.parse_row`), runs the season
(:func:`~xlbridge.clubs.heeg.season.season`) and plans only the computed cells.
Every problem is located by sheet and cell: the season's problems through their
concerns (``row`` = the sheet and row, ``field`` = a column of the evening sheet's
declaration, else the evening and the pair).

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from xlbridge.clubs.heeg.problems import LINE_EMPTY, LINE_TOO_SMALL
from xlbridge.clubs.heeg.records import Entry, parse_row
from xlbridge.clubs.heeg.rules import ABSENT_CODES
from xlbridge.clubs.heeg.season import season
from xlbridge.clubs.heeg.settings import HeegSettings
from xlbridge.language import N_, _
from xlbridge.rules.problems import Problem
from xlbridge.values import as_date, as_text, pair_key
from xlbridge.workbooks.book import BookAdapter, Grid, cell
from xlbridge.workbooks.declare import INPUT, cell_ref
from xlbridge.workbooks.heeg.chart import chart_problems, plan_chart, typed_pair
from xlbridge.workbooks.heeg.declaration import NEVER_READ
from xlbridge.workbooks.heeg.declaration import (
    AUDIT_NAMES,
    CHART,
    CHART_PAIR,
    EVENING_PREFIX,
    HOWTO,
    PERIOD_PREFIX,
    NOT_RED,
    RED,
    SEASON,
    SETTINGS,
    TITLE,
    YEAR,
    evening_sheet,
    evening_table,
    signal_words,
)
from xlbridge.workbooks.heeg.evening import EveningSheet, read_evening
from xlbridge.workbooks.heeg.read import SeasonSheet, read_season
from xlbridge.workbooks.heeg.views import evening_members, plan_new_evening, plan_result, plan_standings, value_out
from xlbridge.workbooks.plan import Block, BookInputError, Plan, LocatedProblem, at
from xlbridge.workbooks.localised import shown_name
from xlbridge.workbooks.typed_checks import spaced

__all__ = ["HeegSeason"]

#: What the scorer can do about a line too small to be scored (the season's own
#: advice, max_mp and line_top, has no cell in the workbook).
SMALL_LINE = N_("line {value} has only {number} {pairs} playing on this evening; a line needs at least 4 to be scored: "
              "check the inv codes of its pairs (0 and a are not at a table), or give its pairs = (an arbitrary 50%)")
#: An empty line: where the scorer types it in the workbook.
LINE_EMPTY_HERE = N_("line is empty; type the pair's line here, or its line for this period in the pairs table on the "
                   "Season sheet")
#: The MP of a row with rounds is their sum.
SUM_OF_ROUNDS = N_("{message} (the sum of R1..R{rounds_typed})")


def _dated_evening(name: str) -> bool:
    """Whether ``name`` is an evening sheet's: the prefix and a date (``Evening 2025-09-04``)."""
    return name.startswith(EVENING_PREFIX) and as_date(name[len(EVENING_PREFIX):].strip()) is not None


def _holds_title(grid: Grid) -> bool:
    title = cell(grid, 1, 1)
    return isinstance(title, str) and title.startswith(_(TITLE))


class HeegSeason:
    """The Heeg season workbook (``xlbridge new heeg``)."""

    name = "heeg"
    never_read = NEVER_READ  # (the record of the last recalculation leaves them out)

    def recognises(self, book: BookAdapter) -> bool:
        names = book.sheet_names()
        if SEASON in names:
            if _holds_title(book.read(SEASON)):
                return True
            return any(n.startswith(EVENING_PREFIX) for n in names)
        # the Season sheet renamed or deleted: still ours (plan() says what to do) when an evening sheet is there,
        # named by its date ("Evening notes" in an event workbook is a notes sheet: not a Heeg season)
        return any(_dated_evening(n) for n in names) or any(_holds_title(book.read(n)) for n in names)

    # -- reading ----------------------------------------------------------

    def _season_sheet(self, book: BookAdapter, names: list[str], problems: list[LocatedProblem]) -> SeasonSheet | None:
        if SEASON not in names:
            renamed = [n for n in names if _holds_title(book.read(n))]
            if renamed:
                problem = at("workbook", None, "heeg.season.renamed", "the settings sheet {expected!r} is missing; "
                             "sheet {sheet!r} holds the season settings: rename it back to {expected!r}",
                             expected=shown_name(SEASON), sheet=shown_name(renamed[0]))
            else:
                problem = at("workbook", None, "heeg.season.missing", "the settings sheet {expected!r} is missing; "
                             "restore it from the backup (NAME.backup.xlsx) or copy it from a new workbook "
                             "(xlbridge new heeg)", expected=shown_name(SEASON))
            raise BookInputError([problem])
        return read_season(book.read(SEASON), problems)

    def _evening_sheets(self, book: BookAdapter, names: list[str], settings: HeegSettings | None,
                        problems: list[LocatedProblem], periods_known: bool = True) -> list[EveningSheet]:
        """Every evening sheet, in the workbook's order; misnamed ones are problems (one outside
        every period only when the periods table has no problem: ``periods_known``)."""
        listed = set(settings.evenings) if settings else set()
        evenings: list[EveningSheet] = []
        pair_label = evening_table(0, ()).column("pair").text().lower()
        names_label = evening_table(0, ()).column("names").text().lower()
        for name in names:
            if name.startswith(EVENING_PREFIX):
                day = as_date(name[len(EVENING_PREFIX):])
                if day is None or name != evening_sheet(day):
                    problems.append(at(name, None, "heeg.evening.sheet-name", "sheet name {sheet!r}: expected "
                                       "'Evening YYYY-MM-DD' (e.g. 'Evening 2025-09-04')", sheet=shown_name(name)))
                    continue
                if settings is not None and day not in listed:
                    if not periods_known:
                        continue
                    problems.append(at(name, None, "heeg.evening.outside", "evening {day} is in no period of the "
                                       "season; add it to a period on the Season sheet (or rename the sheet)",
                                       evening=day, day=day.isoformat()))
                    continue
                sheet = read_evening(name, day, book.read(name), problems)
                if sheet is not None:
                    evenings.append(sheet)
            elif name not in (SEASON, YEAR, HOWTO, CHART) and not name.startswith(PERIOD_PREFIX):
                grid = book.read(name)
                if as_text(cell(grid, 1, 1)).lower() == pair_label and as_text(cell(grid, 1, 2)).lower() == names_label:
                    problems.append(at(name, None, "heeg.evening.lookalike", "sheet {sheet!r} looks like an evening "
                                       "sheet; name it 'Evening YYYY-MM-DD' (the date of the evening)",
                                       sheet=shown_name(name)))
        return evenings

    # -- planning ---------------------------------------------------------

    def plan(self, book: BookAdapter) -> Plan:
        names = book.sheet_names()
        problems: list[LocatedProblem] = []
        season_sheet = self._season_sheet(book, names, problems)
        settings = season_sheet.settings if season_sheet else None
        doubtful = season_sheet.doubtful if season_sheet else frozenset()
        evenings = self._evening_sheets(book, names, settings, problems, "periods" not in doubtful)
        if settings is None or season_sheet is None:
            raise BookInputError(problems)
        entries = [parse_row(raw, settings, ref=(sheet.name, row)) for sheet in evenings for row, raw in sheet.raw]
        problems += _no_sit_out(entries, evenings)
        if "settings" in doubtful:  # the settings as a whole are wrong: each row's own checks only
            found = [p for e in entries for p in e.problems]
        else:
            result = season(entries, settings, raise_problems=False)
            found = result.problems
        # Every problem of the run at once; an evening check that depends on a Season part with
        # a problem of its own is left out (issue 14, point 7).
        found = [p for p in found if not season_sheet.depends(p.code)]
        chart = book.read(CHART) if CHART in names else None
        problems += chart_problems(chart, {p.pair for p in settings.roster} | {e.pair for e in entries})
        if found or problems:
            raise BookInputError(problems + self._located(found, evenings))
        labels = [p.label for p in settings.periods]
        by_day: dict[dt.date, list[tuple[Entry, dict[str, Any]]]] = {}
        for entry, values in zip(result.entries, result.values):
            by_day.setdefault(entry.date, []).append((entry, values))  # type: ignore[arg-type]
        plan = Plan(warnings=season_sheet.warnings + [w for sheet in evenings for w in sheet.warnings])
        plan.warnings += [w for w in [spaced(CHART, CHART_PAIR.cell, typed_pair(chart))] if w]
        exact = {entry.ref: value for entry, value in zip(result.entries, result.exact)}  # the exact % of each row
        for sheet in sorted(evenings, key=lambda s: s.day):
            self._plan_evening(plan, sheet, by_day.get(sheet.day, []), labels)
            plan_result(plan, sheet, by_day.get(sheet.day, []), labels, settings.lines, exact)
        self._plan_new_evenings(plan, settings, names, {s.day for s in evenings}, labels)
        plan_standings(plan, book, result, settings, names)
        plan_chart(plan, chart, result, settings, by_day)
        return plan

    def _located(self, problems: Sequence[Any], evenings: list[EveningSheet]) -> list[LocatedProblem]:
        """The season's problems at their sheets and cells, in the workbook's words."""
        by_day = {s.day: s for s in evenings}
        by_name = {s.name: s for s in evenings}
        out: list[LocatedProblem] = []
        small_lines: set[tuple[Any, Any]] = set()
        for p in problems:
            if p.code == LINE_TOO_SMALL:
                # one message per evening and line (the season has one per pair), at the
                # Line cell of its first pair
                if (p.evening, p.value) in small_lines:
                    continue
                small_lines.add((p.evening, p.value))
                p = Problem(p.code, SMALL_LINE, **p.params, number=p.count if p.count is not None else _("a few"),
                            pairs=_("pairs") if p.count is None or p.count != 1 else _("pair"))
            name, row = p.row if p.row is not None else (None, None)
            if name is None and p.evening is not None and p.pair is not None and p.evening in by_day:
                sheet = by_day[p.evening]
                match = [r.row for r in sheet.rows if r.key == pair_key(p.pair)]
                name, row = sheet.name, (match[0] if match else None)
            if name is None:
                out.append(self._unplaced(p))
                continue
            out.append(self._placed(p, by_name[name], row))
        return out

    def _unplaced(self, p: Any) -> LocatedProblem:
        """A problem of no evening row: on its evening's sheet, or at its setting."""
        if p.evening is not None:
            return LocatedProblem(evening_sheet(p.evening), None, p)
        setting = next((s for s in SETTINGS if s.id == p.field), None)
        return LocatedProblem(SEASON, setting.cell if setting else None, p)

    def _placed(self, p: Any, sheet: EveningSheet, row: int | None) -> LocatedProblem:
        """A problem of one evening row: at the typed cell of its field (the row's
        pair when its field has no column)."""
        table = sheet.table
        typed = {c.id for c in table.typed()}
        col = table.col(p.field) if p.field in typed else None
        if p.code == LINE_EMPTY and p.field == "line":
            p = Problem(p.code, LINE_EMPTY_HERE, **p.params)
        if p.field == "mp" and row is not None:
            entry = next((r for r in sheet.rows if r.row == row), None)
            if entry is not None and entry.mp_from_rounds is not None:
                p = Problem(p.code, SUM_OF_ROUNDS, **p.params, message=p.message, rounds_typed=sheet.rounds)
        return LocatedProblem(sheet.name, cell_ref(row, col) if row and col else None, p)

    def _plan_evening(self, plan: Plan, sheet: EveningSheet, computed: list[tuple[Entry, dict[str, Any]]],
                      labels: list[str]) -> None:
        """The computed cells of one evening sheet; ``computed``: the season's records of that evening."""
        table = evening_table(sheet.rounds, labels)
        by_pair = {entry.pair: values for entry, values in computed}
        headers = table.headers()
        star_col, inv_col = table.col("signal"), table.col("code")
        # the computed part of the header row, a block per run of computed columns
        for run in _runs([table.col(c.id) for c in table.computed()]):
            plan.blocks.append(Block(sheet.name, table.header_row, run[0], [[headers[c - 1] for c in run]],
                                     what=sheet.name, rows=["header"], columns=["header"] * len(run)))
        rows_by_number = {r.row: r for r in sheet.rows}
        computed_cols = [(table.col(c.id), c.id) for c in table.computed()]
        per_row: list[dict[int, Any]] = []
        units: list[str] = []
        for row in range(table.first_row, max(len(sheet.grid), sheet.last_row) + 1):
            entry = rows_by_number.get(row)
            values = by_pair.get(entry.key) if entry else None
            played = bool(values and values["played"])
            cells: dict[int, Any] = {}
            for col, column_id in computed_cols:
                cells[col] = value_out(values[column_id]) if played else None  # type: ignore[index]
            if played:
                cells[star_col] = _evening_signal(values)  # type: ignore[arg-type]
            if entry is not None and entry.mp_from_rounds is not None:
                cells[table.col("mp")] = entry.mp_from_rounds
            per_row.append(cells)
            units.append(entry.label if entry else "")
            plan.fills.append((sheet.name, row, inv_col, RED if played and values["red_inv"] else INPUT))  # type: ignore[index]
            plan.fills.append((sheet.name, row, star_col, RED if played and values["red_star"] else NOT_RED))  # type: ignore[index]
        titles = {table.col(c.id): AUDIT_NAMES.get(c.id, c.text()) for c in table.columns}
        formats = {table.col(c.id): c.number_format for c in table.columns}
        plan.blocks.extend(_blocks(sheet.name, table.first_row, per_row, units, titles, formats))

    def _plan_new_evenings(self, plan: Plan, settings: HeegSettings, names: list[str], found: set[dt.date],
                           labels: list[str]) -> None:
        """An evening listed on the Season sheet without a sheet yet gets one, with
        the header and the pairs of the roster for its period; not before the roster has
        pairs for that period (its Line column is typed): a sheet made empty would stay so."""
        existing = set(names)
        for day in settings.evenings:
            if day in found or evening_sheet(day) in existing:
                continue
            period = settings.period_of(day)
            if period is None or not evening_members(settings, period.label):
                continue
            plan.new_sheets.append(evening_sheet(day))
            plan_new_evening(plan, settings, day, labels)

def _evening_signal(values: dict[str, Any]) -> str | None:
    """The ``*`` cell of an evening: the ``*`` and the red signals in words."""
    words = ([signal_words("signal.no-champion", marks=int(values["year_marks"]))] if values["red_star"] else []) + \
        ([signal_words("signal.no-promotion", marks=int(values["period_marks"]))] if values["red_inv"] else [])
    text = signal_words("signal.join").join(words)
    if values["star"]:
        text = f"* {text}" if text else "*"
    return text or None


def _no_sit_out(entries: Sequence[Entry], evenings: list[EveningSheet]) -> list[LocatedProblem]:
    """An ``s``/``s1`` or a combi MP in a line with an even number of pairs at the
    tables: no pair of that line sat out (docs/clubs/heeg.md §3.6, §4)."""
    at_tables: dict[tuple[Any, str], int] = {}
    unsure = set()  # an evening with a row in doubt: its count may be off (one typo, one message)
    for e in entries:
        if e.in_doubt or e.problems or not e.line:
            unsure.add(e.ref[0])
        if e.code not in ABSENT_CODES:
            at_tables[(e.ref[0], e.line)] = at_tables.get((e.ref[0], e.line), 0) + 1
    by_name = {s.name: s for s in evenings}
    out = []
    for e in entries:
        count = at_tables.get((e.ref[0], e.line), 0)
        if e.ref[0] in unsure or count % 2 or e.ref[0] not in by_name:
            continue
        name, row = e.ref
        table = by_name[name].table
        where = {"evening": e.date, "pair": e.pair, "row": e.ref, "line": e.line, "count": count}
        if e.code in ("s", "s1"):
            out.append(at(name, table.cell("code", row), "heeg.sit-out.even", "inv {code}: line {line} has {count} "
                          "pairs at the tables this evening, an even number, so no pair sat out; correct the inv code "
                          "(or the rows of the line)", field="code", code=e.code, **where))
        if e.combi_mp is not None:
            out.append(at(name, table.cell("combi_mp", row), "heeg.combi-mp.even", "combi MP {value}: line {line} has "
                          "{count} pairs at the tables this evening, an even number, so none sat out to play at the "
                          "combi table; clear it (or correct the rows of the line)", field="combi_mp",
                          value=e.combi_mp, **where))  # (shown as typed by LocatedProblem)
    return out



def _runs(cols: list[int]) -> list[list[int]]:
    """Sorted columns as runs of adjacent ones."""
    runs: list[list[int]] = []
    for c in sorted(cols):
        if runs and c == runs[-1][-1] + 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    return runs


def _blocks(sheet: str, first_row: int, per_row: list[dict[int, Any]], units: list[str],
            titles: dict[int, str], formats: dict[int, str]) -> list[Block]:
    """Blocks for per-row computed cells: runs of rows with the same computed
    columns, split into runs of adjacent columns (typed cells are never written)."""
    blocks: list[Block] = []
    i = 0
    while i < len(per_row):
        cols = sorted(per_row[i])
        j = i
        while j + 1 < len(per_row) and sorted(per_row[j + 1]) == cols:
            j += 1
        for run in _runs(cols):
            values = [[per_row[k][c] for c in run] for k in range(i, j + 1)]
            blocks.append(Block(sheet, first_row + i, run[0], values, what=sheet, rows=units[i:j + 1],
                                columns=[titles.get(c, "") for c in run],
                                formats=[formats.get(c, "General") for c in run]))
        i = j + 1
    return blocks
