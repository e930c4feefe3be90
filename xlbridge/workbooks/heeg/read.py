"""Reading the Heeg season workbook: the Season sheet into the settings (an
evening sheet: :mod:`~xlbridge.workbooks.heeg.evening`).

Everything is found through the declaration (:mod:`~xlbridge.workbooks.heeg.declaration`):
the settings by id, the periods and pairs tables by the label of their first
column below the settings, their headers checked by the one check of every kind
(:meth:`~xlbridge.workbooks.declare.Table.check_header`).  Every problem is
located by sheet and cell as it is found; nothing is written.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from xlbridge.clubs.heeg.rules import MAXIMA
from xlbridge.clubs.heeg.settings import HeegSettings, Pair, Period
from xlbridge.language import _
from xlbridge.values import as_date, as_number, as_text, is_blank, label, pair_key
from xlbridge.workbooks.book import Grid, cell
from xlbridge.workbooks.declare import SheetSpec, Table, cell_ref, shown
from xlbridge.workbooks.heeg.declaration import (
    SEASON,
    SETTINGS,
    TITLE,
    WHOLE_FROM,
    pairs_table,
    periods_table,
)
from xlbridge.workbooks.plan import LocatedProblem, at
from xlbridge.workbooks.typed_checks import cell_problem, spaced

__all__ = ["SeasonSheet", "read_season"]

_SPEC = {s.id: s for s in SETTINGS}


#: What the evening checks depend on: the season's problem codes that are not made
#: while a part of the Season sheet is in doubt (it has a problem of its own), so that
#: one wrong Season cell does not give a message on every evening row (issue 14, point 7).
_MAXIMUM = frozenset({"heeg.mp.above-max", "heeg.score.above-max", "heeg.mp.above-sit-out-max",
                      "heeg.combi-mp.above-max", "heeg.line.too-small", "heeg.round.above-max"})
DEPENDS: dict[str, frozenset[str]] = {
    "lines": frozenset({"heeg.line.unknown", "heeg.line.not-roster", "heeg.line.too-small"}),
    "rounds": _MAXIMUM,
    "boards_per_round": _MAXIMUM,
    "combi_top": _MAXIMUM,
    "periods": frozenset({"heeg.date.no-period", "heeg.period.mismatch", "heeg.line.changed", "heeg.line.not-roster"}),
    "roster": frozenset({"heeg.pair.not-on-roster", "heeg.line.not-roster", "heeg.line.empty", "heeg.line.changed",
                         "heeg.line.too-small", "heeg.line-top.different"}) | _MAXIMUM,
}
#: The parts of the Season sheet a problem's field belongs to.
_PART = {"lines": "lines", "rounds": "rounds", "boards_per_round": "boards_per_round", "combi_top": "combi_top",
         "periods": "periods", "period": "periods", "promote": "periods", "evening": "periods", "roster": "roster",
         "pair": "roster"}


@dataclass
class SeasonSheet:
    """The Season sheet as read.  ``doubtful``: the parts (``lines``, ``rounds``,
    ``boards_per_round``, ``combi_top``, ``periods``, ``roster``, or ``settings`` when the
    settings as a whole are wrong) that have a problem of their own; ``settings`` then holds
    the best reading (a wrong setting's default), enough to check the evenings."""

    settings: HeegSettings
    period_rows: dict[str, int]  # label -> row on the Season sheet
    pair_rows: dict[Any, int]  # pair key -> row
    evening_cells: dict[dt.date, str]  # date -> cell on the Season sheet
    doubtful: frozenset[str] = frozenset()
    warnings: list[LocatedProblem] = field(default_factory=list)  # a pair typed with a space before or after it
    pairs_header: int = 0  # the row of the pairs table's header

    def depends(self, code: str) -> bool:
        """Whether an evening check of this code depends on a doubtful part (then it is not reported)."""
        return any(code in DEPENDS.get(part, ()) for part in self.doubtful)


class _Season:
    """The Season sheet while it is read: its grid and the problems found."""

    def __init__(self, grid: Grid, problems: list[LocatedProblem]) -> None:
        self.grid = grid
        self.problems = problems
        self.bad: set[tuple[int, int]] = set()  # cells holding a formula or an error value (read as blank)
        self.doubtful: set[str] = set()
        self.warnings: list[LocatedProblem] = []

    def value(self, row: int, col: int) -> Any:
        return None if (row, col) in self.bad else cell(self.grid, row, col)

    def row(self, table: Table, row: int) -> dict[str, Any]:
        """Sheet row ``row`` of ``table`` keyed by column id (a cell holding a formula or an error value: blank)."""
        values = table.row(self.grid, row) or {}
        return {c.id: None if (row, table.first_col + i) in self.bad else values.get(c.id)
                for i, c in enumerate(table.columns)}

    def bad_at(self, ref: str | None, code: str, template: str, /, **params: Any) -> None:
        self.problems.append(at(SEASON, ref, code, template, **params))
        field = str(params.get("field", ""))
        self.doubtful.add("roster" if field.startswith("line_") else _PART.get(field, ""))

    def not_values(self, pairs_header: int | None) -> None:
        """Every typed cell below the title that holds a formula or an error value: reported
        once at its cell, read as blank, its part of the sheet in doubt."""
        by_row = {s.row: s.id for s in SETTINGS}
        for row in range(2, len(self.grid) + 1):
            for col, value in enumerate(self.grid[row - 1], start=1):
                found = cell_problem(SEASON, cell_ref(row, col), value)
                if found is None:
                    continue
                self.problems.append(found)
                self.bad.add((row, col))
                if row in by_row:
                    self.doubtful.add(by_row[row])
                else:
                    self.doubtful.add("roster" if pairs_header is not None and row >= pairs_header else "periods")

    def find(self, header: str) -> int | None:
        """The first row below the settings whose column A holds ``header``."""
        below = SETTINGS[-1].row + 1
        return next((r for r in range(below, len(self.grid) + 1) if as_text(self.value(r, 1)).lower() == header.lower()),
                    None)


def read_season(grid: Grid, problems: list[LocatedProblem]) -> SeasonSheet | None:
    """The settings, periods and pairs of the Season sheet; problems located by cell."""
    start = len(problems)
    sheet = _Season(grid, problems)
    title = sheet.value(1, 1)
    if not (isinstance(title, str) and title.startswith(_(TITLE))):
        sheet.bad_at("A1", "heeg.season.title", "expected the title {expected!r}; {found}", field="title",
                  expected=_(TITLE), found=shown(title))
    for label_problem in _label_problems(grid):
        problems.append(LocatedProblem(SEASON, label_problem.params["at"], label_problem))
    header = sheet.find(periods_table(0).columns[0].text())
    pairs_header = sheet.find(pairs_table((), 0).columns[0].text())
    sheet.not_values(pairs_header)
    values = _settings(sheet)
    periods, period_rows, evening_cells = _periods(sheet, header, pairs_header)
    roster, pair_rows = _pairs(sheet, pairs_header, periods, () if "lines" in sheet.doubtful else values["lines"])
    if header is None or pairs_header is None or not periods:
        return None  # (no evening can be checked without the periods)
    settings = HeegSettings(periods=tuple(periods), roster=tuple(roster), **values)
    checked = settings.check() if len(problems) == start else []
    for p in checked:  # anything the checks above did not catch
        problems.append(LocatedProblem(SEASON, None, p))
    if checked or (len(problems) > start and settings.check()):
        sheet.doubtful.add("settings")
    return SeasonSheet(settings, period_rows, pair_rows, evening_cells, frozenset(sheet.doubtful - {""}),
                       sheet.warnings, pairs_header)


def _label_problems(grid: Grid) -> list[Any]:
    return SheetSpec("season", SEASON, settings=SETTINGS).check_labels(grid)


def _settings(sheet: _Season) -> dict[str, Any]:
    """The values of B3..B9 (a blank takes its default); problems at their cells."""
    raw = {s.id: None if (s.row, s.col) in sheet.bad else s.value(sheet.grid) for s in SETTINGS}
    values: dict[str, Any] = {"club": as_text(raw["club"]) or _SPEC["club"].default, "season": as_text(raw["season"])}
    lines_cell = _SPEC["lines"].cell
    lines = tuple(part.strip() for part in as_text(raw["lines"]).replace(";", ",").split(",") if part.strip())
    if not lines and "lines" in sheet.doubtful:
        lines = HeegSettings().lines  # (its cell holds a formula or an error value, reported)
    elif not lines:
        sheet.bad_at(lines_cell, "heeg.season.lines-empty", "the lines are empty; type the line names separated by "
                  "commas, top line first (e.g. A, B)", field="lines", value=raw["lines"])
    elif len(set(lines)) != len(lines):
        sheet.bad_at(lines_cell, "heeg.season.lines-twice", "lines {value!r} must be distinct names separated by commas, "
                  "top line first (e.g. A, B)", field="lines", value=raw["lines"])
    values["lines"] = lines
    for name, low in WHOLE_FROM.items():
        setting = _SPEC[name]
        n = setting.default if is_blank(raw[name]) else as_number(raw[name])
        if n is None or not float(n).is_integer() or n < low:
            sheet.bad_at(setting.cell, "heeg.season.whole", "{what} {value!r} is not a whole number from {low}",
                      field=name, what=setting.text().lower(), value=raw[name], low=low)
            n = setting.default
        elif n > MAXIMA[name]:
            _too_large(sheet, setting.cell, name, setting.text().lower(), raw[name])
            n = setting.default
        values[name] = int(n)
    top = _SPEC["combi_top"]
    combi_top = top.default if is_blank(raw["combi_top"]) else as_number(raw["combi_top"])
    if combi_top is None or combi_top <= 0:
        sheet.bad_at(top.cell, "heeg.season.combi-top", "{what} {value!r} is not a number above 0", field="combi_top",
                  what=top.text().lower(), value=raw["combi_top"])
        combi_top = top.default
    elif combi_top > MAXIMA["combi_top"]:
        _too_large(sheet, top.cell, "combi_top", top.text().lower(), raw["combi_top"])
        combi_top = top.default
    values["combi_top"] = float(combi_top)
    span = _SPEC["absence_span"]
    values["absence_span"] = span.choice(raw["absence_span"]) if as_text(raw["absence_span"]) else span.default
    if values["absence_span"] is None:
        sheet.bad_at(span.cell, "heeg.season.absence-span", "{what} {value!r} must be {choices}", field="absence_span",
                  what=span.text().lower(), value=raw["absence_span"],
                  choices=_(" or ").join(repr(a) for a in span.choices()))
        values["absence_span"] = span.default
    return values


def _evening_columns(grid: Grid, header: int) -> int:
    """How many evening columns the periods table whose header is in row ``header`` has:
    the headers Evening 1, Evening 2, ... side by side from column C."""
    width = 0
    while as_text(cell(grid, header, periods_table(width + 1).col(f"evening_{width + 1}"))).lower() == \
            periods_table(width + 1).column(f"evening_{width + 1}").text().lower():
        width += 1
    return width


def _periods(sheet: _Season, header: int | None, pairs_header: int | None
             ) -> tuple[list[Period], dict[str, int], dict[dt.date, str]]:
    """The periods table: one row per period (label, promote/relegate, evenings)
    from the row below its header to the first blank label (or the pairs table)."""
    periods: list[Period] = []
    period_rows: dict[str, int] = {}
    evening_cells: dict[dt.date, str] = {}
    if header is None:
        sheet.bad_at(None, "heeg.periods.missing", "no periods table: expected a row with the header {header!r} in "
                  "column A (below the settings)", field="periods", header=periods_table(0).columns[0].text())
        return periods, period_rows, evening_cells
    table = periods_table(0, header)
    row = table.first_row
    slots = _evening_columns(sheet.grid, header)
    end = pairs_header if pairs_header and pairs_header > header else len(sheet.grid) + 1
    while row < end and (not is_blank(sheet.value(row, table.col("period"))) or
                         (row, table.col("period")) in sheet.bad):
        if (row, table.col("period")) in sheet.bad:  # (reported; its evenings are not known)
            row += 1
            continue
        name = label(sheet.value(row, table.col("period")))
        promote = _promote(sheet, table, row, name)
        days = _evenings(sheet, row, name, evening_cells)
        if name in period_rows:
            sheet.bad_at(table.cell("period", row), "heeg.periods.twice", "period {period} is listed twice",
                      field="period", period=name)
        else:
            periods.append(Period(name, tuple(days), promote=promote, slots=slots))
            period_rows[name] = row
        row += 1
    if not periods:
        sheet.bad_at(table.cell("period", table.first_row), "heeg.periods.none", "the season has no periods: type a "
                  "period label (1, 2, ...) under {header!r}", field="periods", header=table.columns[0].text())
    return periods, period_rows, evening_cells


def _promote(sheet: _Season, table: Table, row: int, name: str) -> int:
    raw = sheet.value(row, table.col("promote"))
    promote = 3.0 if is_blank(raw) else as_number(raw)
    if promote is None or not promote.is_integer() or promote < 0:
        sheet.bad_at(table.cell("promote", row), "heeg.periods.promote", "period {period}: promote/relegate {value!r} "
                  "is not a whole number from 0", field="promote", period=name, value=raw)
        return 3
    if promote > MAXIMA["promote"]:
        # the column's label in the workbook's language ("Promote/ relegate" breaks the header at "/ ")
        what = table.column("promote").text().lower().replace("/ ", "/")
        _too_large(sheet, table.cell("promote", row), "promote", what, raw)
        return 3
    return int(promote)


def _too_large(sheet: _Season, ref: str, field: str, what: str, value: Any) -> None:
    sheet.bad_at(ref, "heeg.season.too-large", "{what} {value!r} is more than {maximum:,}, the largest that makes "
                 "sense", field=field, what=what, value=value, maximum=MAXIMA[field])


def _evenings(sheet: _Season, row: int, name: str, evening_cells: dict[dt.date, str]) -> list[dt.date]:
    """The evenings of one period: every typed cell from the first evening column on."""
    first = periods_table(1).col("evening_1")
    days = []
    width = len(sheet.grid[row - 1]) if row <= len(sheet.grid) else 0
    for col in range(first, width + 1):
        raw = sheet.value(row, col)
        if is_blank(raw):
            continue
        day = as_date(raw)
        ref = cell_ref(row, col)
        if day is None:
            sheet.bad_at(ref, "heeg.periods.date", "period {period}: evening {value!r} is not a date (type a date, e.g. "
                      "2025-09-04)", field="evening", period=name, value=raw)
        elif day in evening_cells:
            sheet.bad_at(ref, "heeg.periods.date-twice", "evening {day} is listed twice (also {other})", field="evening",
                      day=day.isoformat(), other=evening_cells[day], value=raw)
        else:
            # the evening listed just before (row by row, left to right): a mistyped date is one problem
            before = next(reversed(evening_cells), None)
            if before is not None and day < before:
                sheet.bad_at(ref, "heeg.periods.date-order", "evening {day} is listed after {other_day} ({other}): "
                             "list the evenings in date order, period by period", field="evening", period=name,
                             day=day.isoformat(), other_day=before.isoformat(), other=evening_cells[before],
                             value=raw)
            days.append(day)
            evening_cells[day] = ref
    return days


def _pairs(sheet: _Season, header: int | None, periods: list[Period], lines: tuple[str, ...]
           ) -> tuple[list[Pair], dict[Any, int]]:
    """The pairs table (the roster): its headers checked, one pair a row."""
    roster: list[Pair] = []
    pair_rows: dict[Any, int] = {}
    if header is None:
        sheet.bad_at(None, "heeg.pairs.missing", "no pairs table: expected a row with the header {header!r} in column A "
                  "(below the periods)", field="roster", header=pairs_table((), 0).columns[0].text())
        return roster, pair_rows
    labels = [p.label for p in periods]
    table = pairs_table(labels, header)
    headers = table.check_header(sheet.grid, SEASON, only=["names", *(f"line_{name}" for name in labels)])
    sheet.problems += headers
    if headers:  # (a roster read off its columns: every evening's lines would differ from it)
        return roster, pair_rows
    for row in range(table.first_row, len(sheet.grid) + 1):
        pair = _pair_row(sheet, table, row, labels, lines, pair_rows)
        if pair is not None:
            pair_rows[pair.pair] = row
            roster.append(pair)
    return roster, pair_rows


def _pair_row(sheet: _Season, table: Table, row: int, labels: list[str], lines: tuple[str, ...],
              pair_rows: dict[Any, int]) -> Pair | None:
    if (row, table.col("pair")) in sheet.bad:
        return None  # (reported; the pair is not known)
    values = sheet.row(table, row)
    raw = values["pair"]
    if is_blank(raw):
        if any(not is_blank(v) for column_id, v in values.items() if column_id != "pair"):
            sheet.bad_at(table.cell("pair", row), "heeg.pairs.pair-empty", "pair is empty (type the pair number, or "
                      "clear the row)", field="pair")
        return None
    key = pair_key(raw)
    sheet.warnings += [w for w in [spaced(SEASON, table.cell("pair", row), raw, field="pair")] if w]
    if key in pair_rows:
        sheet.bad_at(table.cell("pair", row), "heeg.pairs.twice", "pair {value!r} is on the roster twice (also row "
                  "{other})", field="pair", pair=key, value=raw, other=pair_rows[key])
        return None
    lines_of = {}
    for name in labels:
        line = as_text(values[f"line_{name}"])
        if line and lines and line not in lines:
            sheet.bad_at(table.cell(f"line_{name}", row), "heeg.pairs.line", "pair {typed}: line {value!r} is not one of "
                      "{lines}", field=f"line_{name}", pair=key, typed=raw, value=line, lines=", ".join(lines))
        elif line:
            lines_of[name] = line
    return Pair(key, as_text(values["names"]), lines_of)
