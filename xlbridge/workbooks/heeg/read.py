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

from xlbridge.clubs.heeg.rules import ABSENT_CODES, MAXIMA, MP_CODES, normalise_code
from xlbridge.clubs.heeg.settings import HeegSettings, Pair, Period
from xlbridge.language import _
from xlbridge.rules.problems import RuleError
from xlbridge.values import as_date, as_number, as_text, is_blank, label, pair_key
from xlbridge.workbooks.book import Grid, cell
from xlbridge.workbooks.declare import SheetSpec, Table, cell_ref, shown
from xlbridge.workbooks.heeg.declaration import (
    CHECKED_HEADERS,
    SEASON,
    SETTINGS,
    TITLE,
    WHOLE_FROM,
    evening_table,
    pairs_table,
    periods_table,
)
from xlbridge.workbooks.plan import LocatedProblem, at
from xlbridge.workbooks.typed_checks import cell_problem, spaced

__all__ = ["SeasonSheet", "read_season", "EveningRow", "EveningSheet", "read_evening"]

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
                       sheet.warnings)


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
    if promote > MAXIMA["promote"]:
        # the column's label in the workbook's language ("Promote/ relegate" breaks the header at "/ ")
        what = table.column("promote").text().lower().replace("/ ", "/")
        _too_large(sheet, table.cell("promote", row), "promote", what, raw)
        return 3
    return int(promote)


def _too_large(sheet: _Season, ref: str, field: str, what: str, value: Any) -> None:
    sheet.bad_at(ref, "heeg.season.too-large", "{what} {value!r} is more than {maximum:,g}, the largest that makes "
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
    sheet.problems += table.check_header(sheet.grid, SEASON, only=["names", *(f"line_{name}" for name in labels)])
    for row in range(table.first_row, len(sheet.grid) + 1):
        pair = _pair_row(sheet, table, row, labels, lines, pair_rows)
        if pair is not None:
            pair_rows[pair.pair] = row
            roster.append(pair)
    return roster, pair_rows


def _pair_row(sheet: _Season, table: Table, row: int, labels: list[str], lines: tuple[str, ...],
              pair_rows: dict[Any, int]) -> Pair | None:
    raw = sheet.value(row, table.col("pair"))
    if (row, table.col("pair")) in sheet.bad:
        return None  # (reported; the pair is not known)
    if is_blank(raw):
        rest = [sheet.value(row, c) for c in range(table.col("names"), table.first_col + table.width())]
        if any(not is_blank(v) for v in rest):
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
    warnings: list[LocatedProblem] = field(default_factory=list)  # typed values replaced or not counted

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


def read_evening(name: str, day: dt.date, grid: Grid, problems: list[LocatedProblem]) -> EveningSheet | None:
    """Check one evening sheet and read its rows (``EveningSheet.raw``: the season's input)."""
    if not (grid[0] if grid else []):
        problems.append(at(name, None, "heeg.evening.empty", "the sheet is empty; expected the header row Pair, Names, "
                           "Line, R1..R6, C, C, MP, max, inv, ..."))
        return None
    sheet = EveningSheet(name, day, grid, _rounds(grid, evening_table(1, ()).col("r1")))
    table = sheet.table
    found = table.check_header(grid, name, only=CHECKED_HEADERS)
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
                            "code": typed_code(cell(sheet.grid, row, cols["code"])), "combi_mp": None,
                            "in_doubt": True}))


def typed_code(value: Any) -> Any:
    """The inv code as typed, with ``'=`` read as ``=``: Excel keeps a typed ``'=`` as
    ``=``, but a cell formatted as text (or another program) keeps the apostrophe."""
    return "=" if isinstance(value, str) and value.strip() == "'=" else value


def _typed_checks(sheet: EveningSheet, cols: dict[str, int], row: int, key: Any, typed_rounds: list[float],
                  problems: list[LocatedProblem]) -> bool:
    """Typed values the rules would otherwise ignore or replace without a word
    (docs/clubs/heeg.md, "Typed values never silently replaced"): problems (the
    row is not scored: False) and warnings (:attr:`EveningSheet.warnings`).  The MP
    of a ``2`` or ``=`` row is the pair's table result (it counts for the line) and is
    kept without a word: the code gives its % by the rule."""
    grid, name = sheet.grid, sheet.name
    try:
        code = normalise_code(typed_code(cell(grid, row, cols["code"])))
    except RuleError:
        return True  # the season reports the unknown code at its cell
    mp_raw, combi = cell(grid, row, cols["mp"]), cell(grid, row, cols["combi_mp"])
    total = float(sum(typed_rounds)) if typed_rounds else None
    mp_ref, combi_ref = cell_ref(row, cols["mp"]), cell_ref(row, cols["combi_mp"])
    where = {"evening": sheet.day, "pair": key, "row": row}
    typed_mp = total if total is not None else (None if is_blank(mp_raw) else mp_raw)
    ok = True
    if typed_mp is not None and code in ABSENT_CODES:
        problems.append(at(name, mp_ref if total is None else cell_ref(row, cols["r1"]), "heeg.mp.absent",
                           "MP {value} typed for a pair marked absent ({code}); clear the MP (and rounds) or correct "
                           "the inv code", field="mp", value=typed_mp, code=code, **where))
        ok = False
    if not is_blank(combi) and code in ("s", "s1"):
        problems.append(at(name, combi_ref, "heeg.combi-mp.sit-out", "combi MP {value} with inv {code}: the combi "
                           "round replaces the sit-out, so the sit-out correction would count it twice; clear the "
                           "{code} or the combi MP", field="combi_mp", value=combi, code=code, **where))
        ok = False
    if not is_blank(combi) and len(typed_rounds) >= sheet.rounds:
        problems.append(at(name, combi_ref, "heeg.rounds.too-many", "{typed} rounds and a combi MP make {count} "
                           "rounds; the evening has {rounds}: clear the round played at the combi table",
                           field="combi_mp", typed=len(typed_rounds), count=len(typed_rounds) + 1,
                           rounds=sheet.rounds, value=combi, **where))
        ok = False
    if total is not None and not is_blank(mp_raw) and code in MP_CODES:
        mp = as_number(mp_raw)
        if mp is None or (abs(mp - total) > 1e-9 and not _written_before(sheet, row, mp, code)):
            sheet.warnings.append(at(name, mp_ref, "heeg.mp.not-rounds", "MP {value} is not the sum of the rounds "
                                     "({total}); the sum counts and replaces it", field="mp", value=mp_raw,
                                     total=total, **where))  # (shown as typed by LocatedProblem)
    return ok


def _written_before(sheet: EveningSheet, row: int, mp: float, code: str) -> bool:
    """Whether the MP cell holds the sum the previous recalculation wrote (a round
    corrected since: the change goes on Corrections, no warning), not an MP typed over
    it: the row's % is then the % of that MP (``% = (MP + C) x factor / max``)."""
    table = evening_table(sheet.rounds, ())
    pct, top = (as_number(cell(sheet.grid, row, table.col(c))) for c in ("pct", "evening_max"))
    combi = as_number(cell(sheet.grid, row, table.col("c_corrected"))) or 0.0
    if pct is None or not top:
        return False
    factor = sheet.rounds / (sheet.rounds - 1) if code in ("s", "s1") and sheet.rounds > 1 else 1.0
    return abs(pct * top / 100 / factor - combi - mp) <= 1e-6 * max(1.0, top)


def _read_row(sheet: EveningSheet, cols: dict[str, int], row: int, seen: dict[Any, int],
              problems: list[LocatedProblem]) -> None:
    """One pair's row (``cols``: the sheet column of every typed column id)."""
    grid, name = sheet.grid, sheet.name
    raw_pair = cell(grid, row, cols["pair"])
    found = [p for c in cols.values() if (p := cell_problem(name, cell_ref(row, c), cell(grid, row, c),
                                                            evening=sheet.day, row=row)) is not None]
    if found:  # a formula or an error value: reported once at its cell, the row in doubt
        problems.extend(found)
        bad_pair = any(p.cell == cell_ref(row, cols["pair"]) for p in found)
        _in_doubt(sheet, cols, row, None if bad_pair or is_blank(raw_pair) else pair_key(raw_pair))
        return
    if is_blank(raw_pair):
        problems.append(at(name, cell_ref(row, cols["pair"]), "heeg.evening.pair-empty", "pair is empty (type the "
                           "pair number, or clear the row)", evening=sheet.day, field="pair", row=row))
        _in_doubt(sheet, cols, row, None)
        return
    key = pair_key(raw_pair)
    sheet.warnings += [w for w in [spaced(name, cell_ref(row, cols["pair"]), raw_pair, evening=sheet.day, row=row)]
                       if w]
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
    if not round_ok or not _typed_checks(sheet, cols, row, key, typed_rounds, problems):
        _in_doubt(sheet, cols, row, key)
        return
    mp_from_rounds = float(sum(typed_rounds)) if typed_rounds else None
    sheet.raw.append((row, {
        "date": sheet.day,
        "pair": key,
        "names": as_text(cell(grid, row, cols["names"])) or None,
        "line": as_text(cell(grid, row, cols["line"])) or None,
        "mp": mp_from_rounds if mp_from_rounds is not None else cell(grid, row, cols["mp"]),
        "code": typed_code(cell(grid, row, cols["code"])),
        "combi_mp": cell(grid, row, cols["combi_mp"]),
        "in_doubt": False,
        **{f"r{i}": cell(grid, row, cols[f"r{i}"]) for i in range(1, sheet.rounds + 1)},  # (each within its maximum)
    }))
    sheet.rows.append(EveningRow(row, key, str(key), mp_from_rounds))
