"""Reading the Heeg season workbook: the Season sheet into the settings, an
evening sheet into raw rows for :func:`~xlbridge.clubs.heeg.records.parse_row`.

Everything is found through the declaration (:mod:`~xlbridge.workbooks.heeg.declaration`):
the settings by id, the periods and pairs tables by the label of their first
column below the settings, the columns of an evening sheet by id.  Every problem
is located by sheet and cell as it is found; nothing is written.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from xlbridge.clubs.heeg.settings import HeegSettings, Pair, Period
from xlbridge.language import _
from xlbridge.values import as_date, as_number, as_text, is_blank, label, pair_key
from xlbridge.workbooks.book import Grid, cell
from xlbridge.workbooks.declare import SheetSpec, Table, cell_ref, shown
from xlbridge.workbooks.heeg.declaration import (
    HEADER_HINTS,
    SEASON,
    SETTINGS,
    TITLE,
    WHOLE_FROM,
    evening_table,
    pairs_table,
    periods_table,
)
from xlbridge.workbooks.plan import Problem, at

__all__ = ["SeasonSheet", "read_season", "EveningRow", "EveningSheet", "read_evening"]

_SPEC = {s.id: s for s in SETTINGS}


@dataclass
class SeasonSheet:
    settings: HeegSettings
    period_rows: dict[str, int]  # label -> row on the Season sheet
    pair_rows: dict[Any, int]  # pair key -> row
    evening_cells: dict[dt.date, str]  # date -> cell on the Season sheet


class _Season:
    """The Season sheet while it is read: its grid and the problems found."""

    def __init__(self, grid: Grid, problems: list[Problem]) -> None:
        self.grid = grid
        self.problems = problems

    def value(self, row: int, col: int) -> Any:
        return cell(self.grid, row, col)

    def bad_at(self, ref: str | None, code: str, template: str, /, **params: Any) -> None:
        self.problems.append(at(SEASON, ref, code, template, **params))

    def find(self, header: str) -> int | None:
        """The first row below the settings whose column A holds ``header``."""
        below = SETTINGS[-1].row + 1
        return next((r for r in range(below, len(self.grid) + 1) if as_text(self.value(r, 1)).lower() == header.lower()),
                    None)


def read_season(grid: Grid, problems: list[Problem]) -> SeasonSheet | None:
    """The settings, periods and pairs of the Season sheet; problems located by cell."""
    start = len(problems)
    sheet = _Season(grid, problems)
    title = sheet.value(1, 1)
    if not (isinstance(title, str) and title.startswith(_(TITLE))):
        sheet.bad_at("A1", "heeg.season.title", "expected the title {expected!r}; {found}", field="title",
                  expected=_(TITLE), found=shown(title))
    for label_problem in _label_problems(grid):
        problems.append(Problem(SEASON, label_problem.params["at"], label_problem))
    values = _settings(sheet)
    header = sheet.find(periods_table(0).columns[0].text())
    pairs_header = sheet.find(pairs_table((), 0).columns[0].text())
    periods, period_rows, evening_cells = _periods(sheet, header, pairs_header)
    roster, pair_rows = _pairs(sheet, pairs_header, periods, values["lines"])
    if len(problems) > start:
        return None
    settings = HeegSettings(periods=tuple(periods), roster=tuple(roster), **values)
    for p in settings.check():  # anything the checks above did not catch
        problems.append(Problem(SEASON, None, p))
    if len(problems) > start:
        return None
    return SeasonSheet(settings, period_rows, pair_rows, evening_cells)


def _label_problems(grid: Grid) -> list[Any]:
    return SheetSpec("season", SEASON, settings=SETTINGS).check_labels(grid)


def _settings(sheet: _Season) -> dict[str, Any]:
    """The values of B3..B9 (a blank takes its default); problems at their cells."""
    raw = {s.id: s.value(sheet.grid) for s in SETTINGS}
    values: dict[str, Any] = {"club": as_text(raw["club"]) or _SPEC["club"].default, "season": as_text(raw["season"])}
    lines_cell = _SPEC["lines"].cell
    lines = tuple(part.strip() for part in as_text(raw["lines"]).replace(";", ",").split(",") if part.strip())
    if not lines:
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
        values[name] = int(n)
    top = _SPEC["combi_top"]
    combi_top = top.default if is_blank(raw["combi_top"]) else as_number(raw["combi_top"])
    if combi_top is None or combi_top <= 0:
        sheet.bad_at(top.cell, "heeg.season.combi-top", "{what} {value!r} is not a number above 0", field="combi_top",
                  what=top.text().lower(), value=raw["combi_top"])
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
    end = pairs_header if pairs_header and pairs_header > header else len(sheet.grid) + 1
    while row < end and not is_blank(sheet.value(row, table.col("period"))):
        name = label(sheet.value(row, table.col("period")))
        promote = _promote(sheet, table, row, name)
        days = _evenings(sheet, row, name, evening_cells)
        if name in period_rows:
            sheet.bad_at(table.cell("period", row), "heeg.periods.twice", "period {period} is listed twice",
                      field="period", period=name)
        else:
            periods.append(Period(name, tuple(days), promote=promote))
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
    return int(promote)


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
    for p in table.check_header(sheet.grid, SEASON, only=["names"]):
        sheet.problems.append(Problem(SEASON, p.params["at"], p))
    for name in labels:
        column = table.column(f"line_{name}")
        typed = sheet.value(header, table.col(column.id))
        if as_text(typed).lower() != column.text().lower():
            sheet.bad_at(table.cell(column.id, header), "heeg.pairs.line-header", "expected the header {expected!r} (the "
                      "line of each pair in period {period}); {found}", field=column.id, expected=column.text(),
                      period=name, found=shown(typed))
    for row in range(table.first_row, len(sheet.grid) + 1):
        pair = _pair_row(sheet, table, row, labels, lines, pair_rows)
        if pair is not None:
            pair_rows[pair.pair] = row
            roster.append(pair)
    return roster, pair_rows


def _pair_row(sheet: _Season, table: Table, row: int, labels: list[str], lines: tuple[str, ...],
              pair_rows: dict[Any, int]) -> Pair | None:
    raw = sheet.value(row, table.col("pair"))
    if is_blank(raw):
        rest = [sheet.value(row, c) for c in range(table.col("names"), table.first_col + table.width())]
        if any(not is_blank(v) for v in rest):
            sheet.bad_at(table.cell("pair", row), "heeg.pairs.pair-empty", "pair is empty (type the pair number, or "
                      "clear the row)", field="pair")
        return None
    key = pair_key(raw)
    if key in pair_rows:
        sheet.bad_at(table.cell("pair", row), "heeg.pairs.twice", "pair {value!r} is on the roster twice (also row "
                  "{other})", field="pair", pair=key, value=raw, other=pair_rows[key])
        return None
    lines_of = {}
    for name in labels:
        line = as_text(sheet.value(row, table.col(f"line_{name}")))
        if line and lines and line not in lines:
            sheet.bad_at(table.cell(f"line_{name}", row), "heeg.pairs.line", "pair {typed}: line {value!r} is not one of "
                      "{lines}", field=f"line_{name}", pair=key, typed=raw, value=line, lines=", ".join(lines))
        elif line:
            lines_of[name] = line
    return Pair(key, as_text(sheet.value(row, table.col("names"))), lines_of)


# --------------------------------------------------------------------------- evening sheets


@dataclass
class EveningRow:
    row: int  # sheet row
    key: Any
    label: str  # pair as shown
    mp_from_rounds: float | None  # the MP total computed from R1..Rn (None when not)


@dataclass
class EveningSheet:
    """One evening sheet as read: its rounds (the R1..Rn headers found), the rows
    with a pair and the raw rows for the season (``raw``: sheet row and the values
    by engine field, ``in_doubt`` on a row with a problem reported here)."""

    name: str
    day: dt.date
    grid: Grid
    rounds: int
    rows: list[EveningRow] = field(default_factory=list)
    raw: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    last_row: int = 1

    @property
    def table(self) -> Table:
        """The typed columns of this sheet (the computed ones need the periods: :func:`evening_table`)."""
        return evening_table(self.rounds, ())

    def columns(self) -> dict[str, int]:
        """The sheet column of every typed column id."""
        table = self.table
        return {c.id: table.col(c.id) for c in table.typed()}


def _rounds(grid: Grid, first: int) -> int:
    """How many round columns R1, R2, ... the header row has from column ``first``."""
    rounds = 0
    while re.fullmatch(r"[Rr]\d+", as_text(cell(grid, 1, first + rounds))) and \
            as_text(cell(grid, 1, first + rounds)).upper() == f"R{rounds + 1}":
        rounds += 1
    return rounds


def _header_problems(name: str, grid: Grid, table: Table) -> list[Problem]:
    out = []
    for column in table.columns:
        if column.id not in HEADER_HINTS:
            continue
        col = table.col(column.id)
        typed = cell(grid, table.header_row, col)
        if as_text(typed).lower() != column.text().lower():
            out.append(at(name, cell_ref(table.header_row, col), "heeg.evening.header", "expected the header "
                          "{expected!r} ({what}); {found}", field=column.id, expected=column.text(),
                          what=HEADER_HINTS[column.id], found=shown(typed)))
    return out


def read_evening(name: str, day: dt.date, grid: Grid, problems: list[Problem]) -> EveningSheet | None:
    """Check one evening sheet and read its rows (``EveningSheet.raw``: the season's input)."""
    if not (grid[0] if grid else []):
        problems.append(at(name, None, "heeg.evening.empty", "the sheet is empty; expected the header row Pair, Names, "
                           "Line, R1..R6, C, C, MP, max, inv, ..."))
        return None
    sheet = EveningSheet(name, day, grid, _rounds(grid, evening_table(1, ()).col("r1")))
    table = sheet.table
    found = _header_problems(name, grid, table)
    if found:
        problems.extend(found)
        return None
    seen: dict[Any, int] = {}
    cols = sheet.columns()
    typed = list(cols.values())
    for row in range(table.first_row, len(grid) + 1):
        if all(is_blank(cell(grid, row, c)) for c in typed):
            continue
        sheet.last_row = row
        _read_row(sheet, cols, row, seen, problems)
    return sheet


def _in_doubt(sheet: EveningSheet, cols: dict[str, int], row: int, key: Any) -> None:
    """A row with a problem reported here: the season does not check or score it,
    but counts it as a pair of its line (the line's maximum must not drop because
    of one mistyped cell, docs/clubs/heeg.md §11.3)."""
    sheet.raw.append((row, {"date": sheet.day, "pair": key, "names": None,
                            "line": as_text(cell(sheet.grid, row, cols["line"])) or None, "mp": None,
                            "code": cell(sheet.grid, row, cols["code"]), "combi_mp": None, "in_doubt": True}))


def _read_row(sheet: EveningSheet, cols: dict[str, int], row: int, seen: dict[Any, int],
              problems: list[Problem]) -> None:
    """One pair's row (``cols``: the sheet column of every typed column id)."""
    grid, name = sheet.grid, sheet.name
    raw_pair = cell(grid, row, cols["pair"])
    if is_blank(raw_pair):
        problems.append(at(name, cell_ref(row, cols["pair"]), "heeg.evening.pair-empty", "pair is empty (type the "
                           "pair number, or clear the row)", evening=sheet.day, field="pair", row=row))
        _in_doubt(sheet, cols, row, None)
        return
    key = pair_key(raw_pair)
    if key in seen:
        problems.append(at(name, cell_ref(row, cols["pair"]), "heeg.evening.pair-twice", "pair {typed} is on this "
                           "evening twice (rows {first} and {second}); one row per pair", evening=sheet.day,
                           pair=key, field="pair", typed=raw_pair, first=seen[key], second=row, row=row))
        _in_doubt(sheet, cols, row, None)
        return
    seen[key] = row
    typed_rounds, round_ok = [], True
    for i in range(1, sheet.rounds + 1):
        raw = cell(grid, row, cols[f"r{i}"])
        if is_blank(raw):
            continue
        n = as_number(raw)
        where = {"evening": sheet.day, "pair": key, "round": i, "field": f"r{i}", "value": raw, "row": row}
        if n is None:
            problems.append(at(name, cell_ref(row, cols[f"r{i}"]), "heeg.round.not-a-number",
                               "MP {value!r} in round {round} is not a number", **where))
            round_ok = False
        elif n < 0:
            problems.append(at(name, cell_ref(row, cols[f"r{i}"]), "heeg.round.negative",
                               "MP {value!r} in round {round} is negative", **where))
            round_ok = False
        else:
            typed_rounds.append(n)
    if not round_ok:
        _in_doubt(sheet, cols, row, key)
        return
    mp_from_rounds = float(sum(typed_rounds)) if typed_rounds else None
    sheet.raw.append((row, {
        "date": sheet.day,
        "pair": key,
        "names": as_text(cell(grid, row, cols["names"])) or None,
        "line": as_text(cell(grid, row, cols["line"])) or None,
        "mp": mp_from_rounds if mp_from_rounds is not None else cell(grid, row, cols["mp"]),
        "code": cell(grid, row, cols["code"]),
        "combi_mp": cell(grid, row, cols["combi_mp"]),
        "in_doubt": False,
    }))
    sheet.rows.append(EveningRow(row, key, str(key), mp_from_rounds))

