"""The Heeg season workbook: a mirror of Bridge club Heeg's spreadsheet.

Sheets (``xlbridge new heeg PATH [--blank]``; the rules are in docs/clubs/heeg.md,
the scorer's guide in docs/guide-heeg.md):

- ``Season`` -- the settings the scorer types: club, season, lines, rounds per
  evening, boards per round, combi table top, how the n-th ``a`` is counted, the
  periods with their evenings and promotion/relegation count, and the pairs with
  their names and line per period.
- ``Evening YYYY-MM-DD`` -- one per playing evening, one row per pair::

      Pair | Names | Line | R1..R6 | C | C | MP | max | inv | EGS | % | tot vandaag | periode | jaar | eind 1.. | *

  Typed: Pair, Names, Line, the MP per round (R1..R6), the combi MP as scored
  (the first C), the inv code, and the MP total *when no round is typed on the
  row*.  Computed: the corrected combi MP (the second C), the MP total on a row
  with MP per round (their sum, as the old workbook's SUM formula), max, EGS, %,
  tot vandaag, periode, jaar, the kept period results (eind) and the ``*``.
  Signals: ``*`` text, red fill of the ``*`` cell (red_star), red fill of the
  inv cell (red_inv).
- ``Period 1`` .. and ``Year`` -- standings, entirely computed.

The recalculation (:class:`HeegSeason`, a :class:`~xlbridge.workbooks.recalc.Kind`)
reads these sheets into the engine's DataFrame, calls
:func:`xlbridge.clubs.heeg.recalculate` and the standings, and plans only the
computed cells.  Every problem is located by sheet and cell.

This module is part of the xlwings Lite bundle: openpyxl is imported only by the
workbook builder (:func:`heeg_workbook`).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from xlbridge.clubs.heeg import (
    HeegInputError,
    HeegSettings,
    Pair,
    Period,
    compute,
    normalise_code,
    period_table,
    year_table,
)
from xlbridge.workbooks.book import BookAdapter, Grid, Layout, cell
from xlbridge.workbooks.messages import INPUT
from xlbridge.workbooks.book import as_number as number
from xlbridge.workbooks.plan import Block, BookInputError, Plan, Problem, cell_name

TITLE = "Heeg club season (xlbridge)"
SEASON = "Season"
EVENING_PREFIX = "Evening "
YEAR = "Year"
HOWTO = "How to"
RED = "#FF0000"
PROMOTE_FILL = "#C6EFCE"
RELEGATE_FILL = "#F8CBAD"

#: Settings rows of the Season sheet: (row, label, engine field).
SETTINGS_ROWS = (
    (3, "Club", "club"),
    (4, "Season", "season"),
    (5, "Lines (top line first)", "lines"),
    (6, "Rounds per evening", "rounds"),
    (7, "Boards per round", "boards_per_round"),
    (8, "Combi table top", "combi_top"),
    (9, "Count 'a' per", "absence_span"),
)
SETTING_CELL = {name: f"B{row}" for row, _, name in SETTINGS_ROWS}
FIRST_PERIOD_ROW = 12  # header at 11 in a new workbook (found by its text when rows are inserted)

#: What an evening row hands the season logic (:func:`xlbridge.clubs.heeg.compute`).
ENGINE_COLUMNS = ("date", "pair", "names", "line", "mp", "code", "combi_mp", "in_doubt")

#: Typed headers of an evening sheet, in order (R1..Rn sit between Line and C).
PAIR_COL, NAMES_COL, LINE_COL, FIRST_ROUND_COL = 1, 2, 3, 4
STANDINGS_HEADER_ROW = 3
PERIOD_HEADERS = ["Line", "Rank", "Pair", "Names", "Evenings", "periode", "marks", "move", "next line"]


# --------------------------------------------------------------------------- small helpers


def is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or (isinstance(value, float) and math.isnan(value))


def as_date(value: Any) -> dt.date | None:
    """A typed date: a date/datetime (openpyxl, desktop Excel) or ISO text
    (``2025-09-04``; Office.js sends ``2025-09-04T00:00:00.000Z``)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        text = value.strip()
        match = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][0-9:.]*Z?)?", text)
        if match:
            try:
                return dt.date(int(match[1]), int(match[2]), int(match[3]))
            except ValueError:
                return None
    return None


def pair_key(value: Any) -> Any:
    """7, 7.0 and "7" are pair 7; other text is itself."""
    n = number(value)
    if n is not None and n.is_integer():
        return int(n)
    return str(value).strip()


def label_of(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def text(value: Any) -> str:
    return "" if is_blank(value) else str(value).strip()


def found(value: Any) -> str:
    """What a checked cell holds, for a message: ``found 'Rondes'`` or ``the cell is empty``."""
    return "the cell is empty" if is_blank(value) else f"found {value!r}"


def value_out(value: Any) -> Any:
    """An engine value as a cell value: NaN and "" -> blank."""
    if isinstance(value, str):
        return value or None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def evening_sheet(day: dt.date) -> str:
    return f"{EVENING_PREFIX}{day.isoformat()}"


def period_sheet(label: str) -> str:
    return f"Period {label}"


def evening_headers(rounds: int, labels: Sequence[str]) -> list[str]:
    """The header row of an evening sheet with ``rounds`` round columns."""
    return ["Pair", "Names", "Line", *(f"R{i}" for i in range(1, rounds + 1)), "C", "C", "MP", "max", "inv",
            "EGS", "%", "tot vandaag", "periode", "jaar", *(f"eind {label}" for label in labels[:-1]), "*"]


def year_headers(labels: Sequence[str]) -> list[str]:
    return ["Line", "Rank", "Pair", "Names", "Evenings", "jaar", *(f"eind {label}" for label in labels),
            "marks", "*", "champion"]


@dataclass
class Columns:
    """Where the columns of one evening sheet are (1-based)."""

    rounds: int

    @property
    def combi(self) -> int:
        return FIRST_ROUND_COL + self.rounds

    @property
    def c_corrected(self) -> int:
        return self.combi + 1

    @property
    def mp(self) -> int:
        return self.combi + 2

    @property
    def max(self) -> int:
        return self.combi + 3

    @property
    def inv(self) -> int:
        return self.combi + 4

    @property
    def egs(self) -> int:
        return self.combi + 5  # then %, tot vandaag, periode, jaar, eind.., *

    def star(self, labels: Sequence[str]) -> int:
        return self.egs + 5 + max(len(labels) - 1, 0)


def evening_layout(rounds: int, labels: Sequence[str], rows: int) -> Layout:
    """The look of an evening sheet with room for ``rows`` pairs (and 4 more):
    the header, the typed rounds and combi in yellow, % columns with 2 decimals,
    pair, names and line kept in view.  The template's evening sheets and the
    ones a recalculation adds share it."""
    cols = Columns(rounds)
    headers = evening_headers(rounds, labels)
    room = rows + 4
    return Layout(
        header_row=1,
        header_cols=len(headers),
        widths=(6, 30, 5, *([5] * rounds), 5, 6, 6, 6, 5, 7, 7, 9, 8, 8, *([7] * (len(labels) - 1)), 4),
        number_formats=(((2, cols.c_corrected, room, 1), "0.00"), ((2, cols.egs, room, cols.star(labels) - cols.egs), "0.00")),
        fills=(((2, FIRST_ROUND_COL, room, cols.combi - FIRST_ROUND_COL + 1), INPUT),),
        freeze=(2, LINE_COL + 1),
    )


def standings_layout(sheet: str, labels: Sequence[str], rows: int) -> Layout:
    """The look of a period or year standings sheet (``sheet`` is its name) with
    room for ``rows`` pairs: the title, the header on row 3, percentages with 2
    decimals, the title rows kept in view."""
    if sheet == YEAR:
        headers, pct = year_headers(labels), {"jaar", *(f"eind {label}" for label in labels)}
        widths: tuple[float, ...] = (6, 6, 6, 30, 9, 8, *([8] * len(labels)), 7, 4, 9)
    else:
        headers, pct, widths = PERIOD_HEADERS, {"periode"}, (6, 6, 6, 30, 9, 8, 7, 15, 9)
    room = max(60, rows + 10)
    return Layout(
        title=True,
        header_row=STANDINGS_HEADER_ROW,
        header_cols=len(headers),
        widths=widths,
        number_formats=tuple(((STANDINGS_HEADER_ROW + 1, col, room, 1), "0.00")
                             for col, title in enumerate(headers, start=1) if title in pct),
        freeze=(STANDINGS_HEADER_ROW + 1, 1),
    )


# --------------------------------------------------------------------------- the Season sheet


@dataclass
class SeasonSheet:
    settings: HeegSettings
    period_rows: dict[str, int]  # label -> row on the Season sheet
    pair_rows: dict[Any, int]  # pair key -> row
    evening_cells: dict[dt.date, str]  # date -> cell on the Season sheet


def read_season(grid: Grid, problems: list[Problem]) -> SeasonSheet | None:
    """The settings, periods and pairs of the Season sheet; problems located by cell."""

    def bad(cell_ref: str | None, message: str) -> None:
        problems.append(Problem(SEASON, cell_ref, message))

    start = len(problems)
    title = cell(grid, 1, 1)
    if not (isinstance(title, str) and title.startswith(TITLE)):
        bad("A1", f"expected the title {TITLE!r}; {found(title)}")
    for row, label, _ in SETTINGS_ROWS:
        typed = cell(grid, row, 1)
        if text(typed).lower() != label.lower():
            bad(f"A{row}", f"expected the label {label!r}; {found(typed)}")
    club = text(cell(grid, 3, 2)) or "Bridge club Heeg"
    season = text(cell(grid, 4, 2))
    raw_lines = cell(grid, 5, 2)
    lines = tuple(part.strip() for part in text(raw_lines).replace(";", ",").split(",") if part.strip())
    if not lines:
        bad("B5", "the lines are empty; type the line names separated by commas, top line first (e.g. A, B)")
    elif len(set(lines)) != len(lines):
        bad("B5", f"lines {raw_lines!r} must be distinct names separated by commas, top line first (e.g. A, B)")
    values: dict[str, Any] = {}
    for name, default, low, what in (("rounds", 6, 2, "rounds per evening"), ("boards_per_round", 4, 1, "boards per round")):
        raw = cell(grid, int(SETTING_CELL[name][1:]), 2)
        n = default if is_blank(raw) else number(raw)
        if n is None or not float(n).is_integer() or n < low:
            bad(SETTING_CELL[name], f"{what} {raw!r} is not a whole number from {low}")
            n = default
        values[name] = int(n)
    raw_top = cell(grid, 8, 2)
    combi_top = 10.0 if is_blank(raw_top) else number(raw_top)
    if combi_top is None or combi_top <= 0:
        bad("B8", f"combi table top {raw_top!r} is not a number above 0")
        combi_top = 10.0
    raw_span = cell(grid, 9, 2)
    span = text(raw_span).lower() or "period"
    if span not in ("period", "season"):
        bad("B9", f"count 'a' per {raw_span!r} must be 'period' or 'season'")
        span = "period"

    # the periods table
    header = next((r for r in range(10, len(grid) + 1) if text(cell(grid, r, 1)).lower() == "period"), None)
    periods: list[Period] = []
    period_rows: dict[str, int] = {}
    evening_cells: dict[dt.date, str] = {}
    pairs_header = next((r for r in range(10, len(grid) + 1) if text(cell(grid, r, 1)).lower() == "pair"), None)
    if header is None:
        bad(None, "no periods table: expected a row with the header 'Period' in column A (below the settings)")
    else:
        row = header + 1
        end = pairs_header if pairs_header and pairs_header > header else len(grid) + 1
        while row < end and not is_blank(cell(grid, row, 1)):
            label = label_of(cell(grid, row, 1))
            raw_promote = cell(grid, row, 2)
            promote = 3 if is_blank(raw_promote) else number(raw_promote)
            if promote is None or not promote.is_integer() or promote < 0:
                bad(cell_name(row, 2), f"period {label}: promote/relegate {raw_promote!r} is not a whole number from 0")
                promote = 3
            days = []
            width = len(grid[row - 1]) if row <= len(grid) else 0
            for col in range(3, width + 1):
                raw = cell(grid, row, col)
                if is_blank(raw):
                    continue
                day = as_date(raw)
                if day is None:
                    bad(cell_name(row, col), f"period {label}: evening {raw!r} is not a date (type a date, e.g. 2025-09-04)")
                elif day in evening_cells:
                    bad(cell_name(row, col), f"evening {day.isoformat()} is listed twice (also {evening_cells[day]})")
                else:
                    days.append(day)
                    evening_cells[day] = cell_name(row, col)
            if label in period_rows:
                bad(cell_name(row, 1), f"period {label} is listed twice")
            else:
                periods.append(Period(label, tuple(days), promote=int(promote)))
                period_rows[label] = row
            row += 1
        if not periods:
            bad(cell_name(header + 1, 1), "the season has no periods: type a period label (1, 2, ...) under 'Period'")

    # the pairs table (the roster)
    roster: list[Pair] = []
    pair_rows: dict[Any, int] = {}
    if pairs_header is None:
        bad(None, "no pairs table: expected a row with the header 'Pair' in column A (below the periods)")
    else:
        if text(cell(grid, pairs_header, 2)).lower() != "names":
            bad(cell_name(pairs_header, 2), f"expected the header 'Names'; {found(cell(grid, pairs_header, 2))}")
        line_cols: dict[str, int] = {}
        for p in periods:
            col = 3 + len(line_cols)
            typed = cell(grid, pairs_header, col)
            if text(typed).lower() != f"line {p.label}".lower():
                bad(cell_name(pairs_header, col), f"expected the header 'Line {p.label}' (the line of each pair in period {p.label}); {found(typed)}")
            line_cols[p.label] = col
        for row in range(pairs_header + 1, len(grid) + 1):
            raw = cell(grid, row, 1)
            rest = [cell(grid, row, c) for c in range(2, 3 + len(line_cols))]
            if is_blank(raw):
                if any(not is_blank(v) for v in rest):
                    bad(cell_name(row, 1), "pair is empty (type the pair number, or clear the row)")
                continue
            key = pair_key(raw)
            if key in pair_rows:
                bad(cell_name(row, 1), f"pair {raw!r} is on the roster twice (also row {pair_rows[key]})")
                continue
            lines_of = {}
            for label, col in line_cols.items():
                line = text(cell(grid, row, col))
                if line and lines and line not in lines:
                    bad(cell_name(row, col), f"pair {raw}: line {line!r} is not one of {', '.join(lines)}")
                elif line:
                    lines_of[label] = line
            pair_rows[key] = row
            roster.append(Pair(key, text(cell(grid, row, 2)), lines_of))
    if len(problems) > start:
        return None
    settings = HeegSettings(club=club, season=season, periods=tuple(periods), lines=lines, rounds=values["rounds"],
                            boards_per_round=values["boards_per_round"], combi_top=float(combi_top),
                            absence_span=span, roster=tuple(roster))
    for p in settings.check():  # anything the checks above did not catch
        bad(None, p.message)
    if len(problems) > start:
        return None
    return SeasonSheet(settings, period_rows, pair_rows, evening_cells)


# --------------------------------------------------------------------------- evening sheets


@dataclass
class EveningRow:
    row: int  # sheet row
    key: Any
    label: str  # pair as shown
    mp_from_rounds: float | None  # the MP total computed from R1..Rn (None when not)


@dataclass
class EveningSheet:
    name: str
    day: dt.date
    grid: Grid
    cols: Columns
    rows: list[EveningRow] = field(default_factory=list)
    last_row: int = 1


def read_evening(name: str, day: dt.date, grid: Grid, problems: list[Problem],
                 records: list[dict[str, Any]]) -> EveningSheet | None:
    """Check one evening sheet and append its rows to ``records`` (engine input)."""

    def bad(row: int | None, col: int | None, message: str) -> None:
        problems.append(Problem(name, cell_name(row, col) if row and col else None, message))

    start = len(problems)
    header = grid[0] if grid else []
    rounds = 0
    while re.fullmatch(r"[Rr]\d+", text(cell(grid, 1, FIRST_ROUND_COL + rounds))) and \
            text(cell(grid, 1, FIRST_ROUND_COL + rounds)).upper() == f"R{rounds + 1}":
        rounds += 1
    cols = Columns(rounds)
    expected = [(PAIR_COL, "Pair", "the pair number"), (NAMES_COL, "Names", "the names"), (LINE_COL, "Line", "the line"),
                (cols.combi, "C", "the combi MP as scored"), (cols.mp, "MP", "the MP total"),
                (cols.inv, "inv", "the inv code")]
    if not header:
        bad(None, None, "the sheet is empty; expected the header row Pair, Names, Line, R1..R6, C, C, MP, max, inv, ...")
        return None
    for col, title, what in expected:
        typed = cell(grid, 1, col)
        if text(typed).lower() != title.lower():
            bad(1, col, f"expected the header {title!r} ({what}); {found(typed)}")
    if len(problems) > start:
        return None
    sheet = EveningSheet(name, day, grid, cols)
    seen: dict[Any, int] = {}
    typed_cols = [PAIR_COL, NAMES_COL, LINE_COL, *range(FIRST_ROUND_COL, cols.combi + 1), cols.mp, cols.inv]

    def in_doubt(row: int, key: Any) -> None:
        """A row with a problem reported here: the engine does not check or score
        it, but counts it as a pair of its line (the line's maximum must not drop
        because of one mistyped cell, docs/clubs/heeg.md §11.3)."""
        records.append({"date": day, "pair": key, "names": None, "line": text(cell(grid, row, LINE_COL)) or None,
                        "mp": None, "code": cell(grid, row, cols.inv), "combi_mp": None, "in_doubt": True,
                        "_sheet": name, "_row": row})

    for row in range(2, len(grid) + 1):
        if all(is_blank(cell(grid, row, c)) for c in typed_cols):
            continue
        sheet.last_row = row
        raw_pair = cell(grid, row, PAIR_COL)
        if is_blank(raw_pair):
            bad(row, PAIR_COL, "pair is empty (type the pair number, or clear the row)")
            in_doubt(row, None)
            continue
        key = pair_key(raw_pair)
        if key in seen:
            bad(row, PAIR_COL, f"pair {raw_pair} is on this evening twice (rows {seen[key]} and {row}); one row per pair")
            in_doubt(row, None)
            continue
        seen[key] = row
        typed_rounds = []
        round_ok = True
        for i in range(rounds):
            raw = cell(grid, row, FIRST_ROUND_COL + i)
            if is_blank(raw):
                continue
            n = number(raw)
            if n is None:
                bad(row, FIRST_ROUND_COL + i, f"MP {raw!r} in round {i + 1} is not a number")
                round_ok = False
            elif n < 0:
                bad(row, FIRST_ROUND_COL + i, f"MP {raw!r} in round {i + 1} is negative")
                round_ok = False
            else:
                typed_rounds.append(n)
        if not round_ok:
            in_doubt(row, key)
            continue
        mp_from_rounds = float(sum(typed_rounds)) if typed_rounds else None
        mp = mp_from_rounds if mp_from_rounds is not None else cell(grid, row, cols.mp)
        records.append({
            "date": day,
            "pair": key,
            "names": text(cell(grid, row, NAMES_COL)) or None,
            "line": text(cell(grid, row, LINE_COL)) or None,
            "mp": mp,
            "code": cell(grid, row, cols.inv),
            "combi_mp": cell(grid, row, cols.combi),
            "in_doubt": False,
            "_sheet": name,
            "_row": row,
        })
        sheet.rows.append(EveningRow(row, key, str(key), mp_from_rounds))
    return sheet


def small_line_message(line: Any, count: int | None) -> str:
    """A line with fewer than 4 pairs at the tables has no top (docs/clubs/heeg.md §4):
    what the scorer can do about it in the workbook."""
    pairs = "pairs" if count is None or count != 1 else "pair"
    return (f"line {line} has only {count if count is not None else 'a few'} {pairs} playing on this evening; a line "
            "needs at least 4 to be scored: check the inv codes of its pairs (0 and a are not at a table), "
            "or give its pairs = (an arbitrary 50%)")


# --------------------------------------------------------------------------- the kind


class HeegSeason:
    """The Heeg season workbook (``xlbridge new heeg``)."""

    name = "heeg"

    def recognises(self, book: BookAdapter) -> bool:
        names = book.sheet_names()
        if SEASON in names:
            title = cell(book.read(SEASON), 1, 1)
            if isinstance(title, str) and title.startswith(TITLE):
                return True
            return any(n.startswith(EVENING_PREFIX) for n in names)
        # the Season sheet renamed or deleted: still ours (plan() says what to do)
        return any(n.startswith(EVENING_PREFIX) for n in names) or any(
            isinstance(cell(book.read(n), 1, 1), str) and str(cell(book.read(n), 1, 1)).startswith(TITLE) for n in names)

    # -- planning ---------------------------------------------------------

    def plan(self, book: BookAdapter) -> Plan:
        names = book.sheet_names()
        problems: list[Problem] = []
        if SEASON not in names:
            renamed = [n for n in names if isinstance(cell(book.read(n), 1, 1), str) and str(cell(book.read(n), 1, 1)).startswith(TITLE)]
            if renamed:
                message = f"sheet {renamed[0]!r} holds the season settings: rename it back to {SEASON!r}"
            else:
                message = "restore it from the backup (NAME.backup.xlsx) or copy it from a new workbook (xlbridge new heeg)"
            raise BookInputError([Problem("workbook", None, f"the settings sheet {SEASON!r} is missing; {message}")])
        season = read_season(book.read(SEASON), problems)
        evenings: list[EveningSheet] = []
        records: list[dict[str, Any]] = []
        settings = season.settings if season else None
        listed = set(settings.evenings) if settings else set()
        found_days: set[dt.date] = set()
        for name in names:
            if name.startswith(EVENING_PREFIX):
                day = as_date(name[len(EVENING_PREFIX):])
                if day is None or name != evening_sheet(day):
                    problems.append(Problem(name, None, f"sheet name {name!r}: expected 'Evening YYYY-MM-DD' (e.g. 'Evening 2025-09-04')"))
                    continue
                if settings is not None and day not in listed:
                    problems.append(Problem(name, None, f"evening {day.isoformat()} is in no period of the season; add it to a "
                                                        f"period on the Season sheet (or rename the sheet)"))
                    continue
                found_days.add(day)
                sheet = read_evening(name, day, book.read(name), problems, records)
                if sheet is not None:
                    evenings.append(sheet)
            elif name not in (SEASON, YEAR, HOWTO) and not name.startswith("Period "):
                grid = book.read(name)
                if text(cell(grid, 1, 1)).lower() == "pair" and text(cell(grid, 1, 2)).lower() == "names":
                    problems.append(Problem(name, None, f"sheet {name!r} looks like an evening sheet; name it "
                                                        f"'Evening YYYY-MM-DD' (the date of the evening)"))
        if settings is None or season is None:
            raise BookInputError(problems)
        evenings.sort(key=lambda s: s.day)
        inputs = [{column: r[column] for column in ENGINE_COLUMNS} for r in records]
        where = {i: (r["_sheet"], r["_row"]) for i, r in enumerate(records)}
        try:  # also with problems found above: every problem of the run is reported together
            computed = compute(inputs, settings, columns=ENGINE_COLUMNS)
        except HeegInputError as error:
            raise BookInputError(problems + self._located(error, where, evenings, season)) from None
        if problems:
            raise BookInputError(problems)
        rows = [{**typed, **values} for typed, values in zip(inputs, computed)]
        labels = [p.label for p in settings.periods]
        plan = Plan()
        by_day: dict[Any, list[dict[str, Any]]] = {}
        for rec in rows:
            by_day.setdefault(rec["date"], []).append(rec)
        for sheet in evenings:
            self._plan_evening(plan, sheet, by_day.get(sheet.day, []), labels)
        self._plan_new_evenings(plan, settings, names, found_days, labels)
        self._plan_standings(plan, book, rows, settings, names)
        return plan

    def _located(self, error: HeegInputError, where: dict[int, tuple[str, int]], evenings: list[EveningSheet],
                 season: SeasonSheet) -> list[Problem]:
        by_day = {s.day: s for s in evenings}
        out: list[Problem] = []
        small_lines: set[tuple[Any, Any]] = set()
        for p in error.problems:
            if p.kind == "small_line":
                # one message per evening and line (the engine has one per pair), at the
                # Line cell of its first pair; the engine's advice (max_mp, line_top) has
                # no cell in the workbook, so the message says what the scorer can do
                if (p.date, p.value) in small_lines:
                    continue
                small_lines.add((p.date, p.value))
                p = replace(p, message=small_line_message(p.value, p.count))
            sheet_row = where.get(p.row) if p.row is not None else None
            if sheet_row is None and p.date is not None and p.pair is not None and p.date in by_day:
                sheet = by_day[p.date]
                match = [r.row for r in sheet.rows if r.key == pair_key(p.pair)]
                sheet_row = (sheet.name, match[0]) if match else (sheet.name, None)
            if sheet_row is None:
                sheet_name = evening_sheet(p.date) if p.date is not None else SEASON
                out.append(Problem(sheet_name, SETTING_CELL.get(p.column), p.message))
                continue
            name, row = sheet_row
            sheet = next(s for s in evenings if s.name == name)
            cols = sheet.cols
            col = {"pair": PAIR_COL, "names": NAMES_COL, "line": LINE_COL, "mp": cols.mp, "code": cols.inv,
                   "combi_mp": cols.combi}.get(p.column)
            message = p.message
            if p.column == "line" and message == "line is empty":
                message = ("line is empty; type the pair's line here, or its line for this period in the pairs table "
                           "on the Season sheet")
            if p.column == "mp" and row is not None:
                entry = next((r for r in sheet.rows if r.row == row), None)
                if entry is not None and entry.mp_from_rounds is not None:
                    message += f" (the sum of R1..R{cols.rounds})"
            out.append(Problem(name, cell_name(row, col) if row and col else None, message))
        return out

    def _plan_evening(self, plan: Plan, sheet: EveningSheet, out_records: list[dict[str, Any]], labels: list[str]) -> None:
        """The computed cells of one evening sheet; ``out_records``: the engine's rows of that evening."""
        cols = sheet.cols
        by_pair = {pair_key(rec["pair"]): rec for rec in out_records}
        headers = evening_headers(cols.rounds, labels)
        star_col = cols.star(labels)
        # the computed part of the header row
        plan.blocks.append(Block(sheet.name, 1, cols.c_corrected, [["C"]], what=sheet.name, rows=["header"], columns=["header"]))
        plan.blocks.append(Block(sheet.name, 1, cols.max, [["max"]], what=sheet.name, rows=["header"], columns=["header"]))
        plan.blocks.append(Block(sheet.name, 1, cols.egs, [headers[cols.egs - 1:]], what=sheet.name, rows=["header"],
                                 columns=["header"] * len(headers[cols.egs - 1:])))
        rows_by_number = {r.row: r for r in sheet.rows}
        last = max(len(sheet.grid), sheet.last_row)
        per_row: list[dict[int, Any]] = []
        units: list[str] = []
        for row in range(2, last + 1):
            entry = rows_by_number.get(row)
            rec = by_pair.get(entry.key) if entry else None
            cells: dict[int, Any] = {}
            played = bool(rec and rec["played"])
            get = (lambda column: value_out(rec[column]) if played else None)  # noqa: E731
            cells[cols.c_corrected] = get("c_corrected")
            if entry is not None and entry.mp_from_rounds is not None:
                cells[cols.mp] = entry.mp_from_rounds
            cells[cols.max] = get("evening_max")
            values = [get("egs"), get("pct"), get("to_date"), get("period_pct"), get("year_pct"),
                      *(get(f"end_{label}") for label in labels[:-1]), get("signal")]
            for offset, value in enumerate(values):
                cells[cols.egs + offset] = value
            per_row.append(cells)
            units.append(entry.label if entry else "")
            plan.fills.append((sheet.name, row, cols.inv, RED if played and rec["red_inv"] else None))
            plan.fills.append((sheet.name, row, star_col, RED if played and rec["red_star"] else None))
        titles = {cols.c_corrected: "C corrected", cols.mp: "MP", **{c: headers[c - 1] for c in range(cols.max, star_col + 1)}}
        plan.blocks.extend(_blocks(sheet.name, 2, per_row, units, titles))

    def _plan_new_evenings(self, plan: Plan, settings: HeegSettings, names: list[str], found: set[dt.date],
                           labels: list[str]) -> None:
        """An evening listed on the Season sheet without a sheet yet gets one, with
        the header and the pairs of the roster for its period."""
        existing = set(names)
        for day in settings.evenings:
            name = evening_sheet(day)
            if day in found or name in existing:
                continue
            period = settings.period_of(day)
            assert period is not None
            order = {line: i for i, line in enumerate(settings.lines)}
            members = sorted((p for p in settings.roster if period.label in p.lines),
                             key=lambda p: (order.get(p.lines[period.label], 99), (0, p.pair, "") if isinstance(p.pair, int) else (1, 0, str(p.pair))))
            plan.new_sheets.append(name)
            plan.blocks.append(Block(name, 1, 1, [evening_headers(settings.rounds, labels)], what=name))
            if members:
                plan.blocks.append(Block(name, 2, 1, [[p.pair, p.names or None, p.lines[period.label]] for p in members], what=name))
            plan.layouts.append((name, evening_layout(settings.rounds, labels, len(members))))

    def _plan_standings(self, plan: Plan, book: BookAdapter, season: list[dict[str, Any]],
                        settings: HeegSettings, names: list[str]) -> None:
        labels = [p.label for p in settings.periods]
        played_days = {rec["date"] for rec in season if rec["played"]}
        any_played = bool(played_days)
        periods = period_table(season, settings) if any_played else []
        for period in settings.periods:
            name = period_sheet(period.label)
            part = [rec for rec in periods if rec["period"] == period.label]
            evenings_played = sum(1 for d in period.evenings if d in played_days)
            if not len(part):
                status = "no evening played yet"
            elif evenings_played == len(period.evenings):
                status = f"final: all {len(period.evenings)} evenings played"
            else:
                status = f"provisional: {evenings_played} of {len(period.evenings)} evenings played"
            title = f"Period {period.label} — standings per line, promotion and relegation ({status})"
            note = (f"{period.promote} pair(s) move between two lines; a red marks cell: 4 or more substitute/absence "
                    "marks in the period (cannot promote, relegates)")
            rows, fills = [], []
            for rec in part:
                move = {"promote": f"promotes to {rec['next_line']}", "relegate": f"relegates to {rec['next_line']}"}.get(rec["move"])
                rows.append([rec["line"], int(rec["rank"]), pair_key(rec["pair"]), rec["names"] or None, int(rec["evenings"]),
                             float(rec["period_pct"]), int(rec["marks"]), move, rec["next_line"]])
                fills.append((RED if rec["blocked"] else None, {"promote": PROMOTE_FILL, "relegate": RELEGATE_FILL}.get(rec["move"])))
            self._table(plan, book, names, name, title, note, PERIOD_HEADERS, rows,
                        {7: [f[0] for f in fills], 8: [f[1] for f in fills]}, labels)
        # the year
        year = year_table(season, settings) if any_played else []
        headers = year_headers(labels)
        rows, reds = [], []
        for rec in year:
            champion = rec["champion_rank"]
            rows.append([rec["line"], int(rec["rank"]), pair_key(rec["pair"]), rec["names"] or None, int(rec["evenings"]),
                         float(rec["year_pct"]), *(value_out(rec[f"end_{label}"]) for label in labels), int(rec["marks"]),
                         "*" if rec["star"] else None, None if champion is None or math.isnan(champion) else int(champion)])
            reds.append(RED if rec["red_star"] else None)
        title = f"Year {settings.season} — club championship".replace("Year  —", "Year —")
        top = settings.lines[0]
        note = (f"champion: the best pair that played every evening in line {top} (no *) and had at most 5 "
                "substitute/absence marks (no red *)")
        self._table(plan, book, names, YEAR, title, note, headers, rows, {headers.index("*") + 1: reds}, labels)

    def _table(self, plan: Plan, book: BookAdapter, names: list[str], sheet: str, title: str, note: str,
               headers: list[str], rows: list[list[Any]], fills: dict[int, list[str | None]], labels: list[str]) -> None:
        """A whole standings sheet: title, note, header row 3, rows from 4; the old
        contents beyond are blanked.  Not audited (it follows from the evenings)."""
        old: Grid = book.read(sheet) if sheet in names else []
        if sheet not in names:
            plan.new_sheets.append(sheet)
            plan.layouts.append((sheet, standings_layout(sheet, labels, len(rows))))
        width = max(len(headers), max((len(r) for r in old), default=0))
        height = max(STANDINGS_HEADER_ROW + len(rows), len(old))
        grid: Grid = [[title], [note], headers, *rows]
        grid = [list(line) + [None] * (width - len(line)) for line in grid]
        grid += [[None] * width for _ in range(height - len(grid))]
        plan.blocks.append(Block(sheet, 1, 1, grid, what=sheet, audit=False))
        for col, colours in fills.items():
            for i in range(height - STANDINGS_HEADER_ROW):
                plan.fills.append((sheet, STANDINGS_HEADER_ROW + 1 + i, col, colours[i] if i < len(colours) else None))


def _blocks(sheet: str, first_row: int, per_row: list[dict[int, Any]], units: list[str],
            titles: dict[int, str]) -> list[Block]:
    """Blocks for per-row computed cells: runs of rows with the same computed
    columns, split into runs of adjacent columns (typed cells are never written)."""
    blocks: list[Block] = []
    i = 0
    while i < len(per_row):
        cols = sorted(per_row[i])
        j = i
        while j + 1 < len(per_row) and sorted(per_row[j + 1]) == cols:
            j += 1
        runs: list[list[int]] = []
        for c in cols:
            if runs and c == runs[-1][-1] + 1:
                runs[-1].append(c)
            else:
                runs.append([c])
        for run in runs:
            values = [[per_row[k][c] for c in run] for k in range(i, j + 1)]
            blocks.append(Block(sheet, first_row + i, run[0], values, what=sheet, rows=units[i:j + 1],
                                columns=[titles.get(c, "") for c in run]))
        i = j + 1
    return blocks


# --------------------------------------------------------------------------- the workbook builder


def heeg_workbook(blank: bool = False):
    """The Heeg season workbook: the demo season (:func:`demo_season`) already
    recalculated, or (``blank``) an empty season with the default settings."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    from xlbridge.workbooks import recalc
    from xlbridge.files.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.style import write_lines
    from xlbridge.workbooks.style import HEADER_FILL, HEADER_FONT, INPUT_FILL, TITLE_FONT

    if blank:
        settings = HeegSettings(periods=tuple(Period(str(k), ()) for k in (1, 2, 3)))
        results: list[dict[str, Any]] = []
    else:
        from xlbridge.clubs.frames import plain_records
        from xlbridge.clubs.heeg.demo import demo_season

        settings, frame = demo_season()
        results = plain_records(frame)
    labels = [p.label for p in settings.periods]

    def header(ws, row: int, titles: list[str], widths: list[float] | None = None) -> None:
        for col, title in enumerate(titles, start=1):
            c = ws.cell(row=row, column=col, value=title)
            c.fill, c.font = HEADER_FILL, HEADER_FONT
            c.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
            if widths:
                ws.column_dimensions[get_column_letter(col)].width = widths[col - 1]

    wb = Workbook()
    ws = wb.active
    ws.title = SEASON
    ws["A1"] = TITLE
    ws["A1"].font = TITLE_FONT
    notes = {
        "club": "", "season": "e.g. 2025/2026",
        "lines": "line names separated by commas, top line first (the club champion plays in the first)",
        "rounds": "rounds per evening (the sit-out factor is rounds/(rounds-1): 6/5)",
        "boards_per_round": "boards per round (the maximum is rounds x boards x the line's top)",
        "combi_top": "top of the combi table (12 pairs: 10)",
        "absence_span": "'period' or 'season': over what span the 1st/2nd/3rd 'a' are counted",
    }
    setting_values = {"club": settings.club, "season": settings.season, "lines": ", ".join(settings.lines),
                      "rounds": settings.rounds, "boards_per_round": settings.boards_per_round,
                      "combi_top": settings.combi_top, "absence_span": settings.absence_span}
    for row, label, name in SETTINGS_ROWS:
        ws.cell(row=row, column=1, value=label).font = Font(bold=True)
        ws.cell(row=row, column=2, value=setting_values[name]).fill = INPUT_FILL
        ws.cell(row=row, column=3, value=notes[name]).font = Font(italic=True, color="FF595959")
    most = max([6, *(len(p.evenings) for p in settings.periods)])
    header(ws, 11, ["Period", "Promote/ relegate", *(f"Evening {i}" for i in range(1, most + 1))])
    for offset, period in enumerate(settings.periods):
        row = FIRST_PERIOD_ROW + offset
        ws.cell(row=row, column=1, value=int(period.label) if period.label.isdigit() else period.label).fill = INPUT_FILL
        ws.cell(row=row, column=2, value=period.promote).fill = INPUT_FILL
        for col in range(3, most + 3):
            c = ws.cell(row=row, column=col)
            c.fill, c.number_format = INPUT_FILL, "yyyy-mm-dd"
        for col, day in enumerate(period.evenings, start=3):
            ws.cell(row=row, column=col, value=dt.datetime(day.year, day.month, day.day))
    pairs_row = FIRST_PERIOD_ROW + len(settings.periods) + 1
    header(ws, pairs_row, ["Pair", "Names", *(f"Line {label}" for label in labels)])
    for offset, pair in enumerate(settings.roster, start=1):
        ws.cell(row=pairs_row + offset, column=1, value=pair.pair)
        ws.cell(row=pairs_row + offset, column=2, value=pair.names)
        for col, label in enumerate(labels, start=3):
            ws.cell(row=pairs_row + offset, column=col, value=pair.lines.get(label))
    for col, width in zip("ABCDEFGHIJ", (24, 30, 12, 12, 12, 12, 12, 12, 12, 12)):
        ws.column_dimensions[col].width = width

    # standings (computed; formats for the rows they will fill)
    book = OpenpyxlBook(wb)  # the adapter for the layouts and, at the end, the recalculation
    for name, titles in [*((period_sheet(p.label), PERIOD_HEADERS) for p in settings.periods), (YEAR, year_headers(labels))]:
        wb.create_sheet(name)
        book.write(name, STANDINGS_HEADER_ROW, 1, [titles])
        book.lay_out(name, standings_layout(name, labels, len(settings.roster)))
    # keep Season first, then Year, then the periods
    wb.move_sheet(YEAR, offset=-len(settings.periods))

    howto = wb.create_sheet(HOWTO)
    write_lines(howto, HOWTO_LINES)
    howto["A1"].font = TITLE_FONT
    howto.column_dimensions["A"].width = 110

    # one sheet per evening with what the scorer typed
    headers = evening_headers(settings.rounds, labels)
    cols = Columns(settings.rounds)
    for day in settings.evenings:
        sheet = wb.create_sheet(evening_sheet(day))
        part = [rec for rec in results if as_date(rec["date"]) == day]
        book.write(sheet.title, 1, 1, [headers])
        book.lay_out(sheet.title, evening_layout(settings.rounds, labels, len(part)))
        for row, rec in enumerate(part, start=2):
            sheet.cell(row=row, column=PAIR_COL, value=int(rec["pair"]))
            sheet.cell(row=row, column=NAMES_COL, value=rec.get("names"))
            sheet.cell(row=row, column=LINE_COL, value=rec.get("line"))
            for i in range(settings.rounds):
                v = rec.get(f"r{i + 1}")
                sheet.cell(row=row, column=FIRST_ROUND_COL + i, value=None if is_blank(v) else v)
            sheet.cell(row=row, column=cols.combi, value=None if is_blank(rec.get("combi_mp")) else rec["combi_mp"])
            if all(is_blank(rec.get(f"r{i + 1}")) for i in range(settings.rounds)):
                sheet.cell(row=row, column=cols.mp, value=None if is_blank(rec.get("mp")) else rec["mp"])
            code = normalise_code(rec.get("code"))
            sheet.cell(row=row, column=cols.inv, value=int(code) if code.isdigit() else (code or None))

    kind = HeegSeason()
    recalc.apply(book, kind.plan(book))
    return wb


HOWTO_LINES = [
    "How to keep the Heeg season in this workbook",
    "",
    "Yellow cells are typed by the scorer; every other number is computed by xlbridge.",
    "Recalculate: in Excel click the Recalculate season button (Season sheet); without Excel: xlbridge recalc THIS-FILE.xlsx",
    "",
    "1. Season sheet: club, season, lines, rounds per evening, boards per round; one row per period with its evenings",
    "   (dates) and how many pairs promote/relegate; one row per pair with names and its line in each period.",
    "2. Recalculate once: every evening listed gets its sheet 'Evening YYYY-MM-DD' with the pairs of that period.",
    "3. Each evening: type the MP per round (R1..R6) -- or only the MP total --, the combi MP as scored (first C)",
    "   and the inv code: 1, 2, 0, a, s, s1 or =. Then recalculate.",
    "4. Read: % (after the inv correction), tot vandaag (earlier evenings of the period), periode, jaar,",
    "   eind (each earlier period's result), * (not the whole year in the A-line: cannot be club champion).",
    "   Red * cell: more than 5 substitutes/absences in the year (cannot be champion).",
    "   Red inv cell: 4 or more substitutes/absences in the period (cannot promote, relegates).",
    "5. Period sheets: the standings per line with promotion/relegation; Year: the club championship.",
    "6. A late correction: change the typed cell and recalculate; every computed value that changed is listed",
    "   on the Corrections sheet. xlbridge recalc keeps the previous file as NAME.backup.xlsx beside it.",
    "",
    "Worksheet functions (with the xlbridge add-in):",
    '=HEEG_PCT(173, 288, "")  ->  60.07        =HEEG_PCT(150, 288, "s", , , 6)  ->  62.50',
    '=HEEG_PCT(, , "a", 47.5, 2)  ->  45.00    =HEEG_C(31, 12, 10)  ->  37.20 (combi MP corrected to a 14-pair line)',
    "",
    "Rules and decisions: docs/clubs/heeg.md; step by step: docs/guide-heeg.md.",
]
