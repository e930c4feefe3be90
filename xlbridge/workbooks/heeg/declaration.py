"""The one declaration of the Heeg season workbook: its sheets, settings, tables and columns.

Everything else follows from it: the builder (:mod:`~xlbridge.workbooks.heeg.build`)
writes the sheets, the reader (:mod:`~xlbridge.workbooks.heeg.read`) finds the
settings and columns and checks the headers, the planner
(:mod:`~xlbridge.workbooks.heeg.plan`) maps a problem's concerns to its cell and
gives a sheet it adds the look of the others (:func:`evening_layout`,
:func:`standings_layout`).  A column's ``id`` is the engine's field where there
is one (``pair``, ``line``, ``mp``, ``code``, ``combi_mp``; computed columns by
their output: ``pct``, ``to_date``, ...).

Sheets (the rules are in docs/clubs/heeg.md, the scorer's guide in docs/guide-heeg.md):

- ``Season`` (:func:`season_spec`) -- the title in A1, the settings B3..B9
  (:data:`SETTINGS`), the periods table (header on row 11: period, promote/relegate,
  the evenings) and the pairs table below it (pair, names, the line per period);
- ``Evening YYYY-MM-DD`` (:func:`evening_spec`, one per evening) -- one row per pair::

      Pair | Names | Line | R1..R6 | C | C | MP | max | inv | EGS | % | tot vandaag | periode | jaar | eind 1.. | *

- ``Period 1`` .. (:func:`period_spec`) and ``Year`` (:func:`year_spec`) -- standings;
- ``How to`` -- :data:`HOWTO_LINES`.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from functools import lru_cache

from xlbridge.workbooks.book import Layout
from xlbridge.workbooks.declare import Column, Print, Setting, SheetSpec, Table

__all__ = ["TITLE", "SEASON", "EVENING_PREFIX", "PERIOD_PREFIX", "YEAR", "HOWTO", "RED", "PROMOTE_FILL",
           "RELEGATE_FILL", "NOTE_COLOUR", "SETTINGS", "WHOLE_FROM", "SEASON_WIDTHS", "PERIODS_HEADER_ROW",
           "HEADER_HINTS", "AUDIT_NAMES", "SPARE_ROWS", "HOWTO_LINES", "HOWTO_WIDTH", "evening_sheet",
           "period_sheet", "periods_table", "pairs_table", "season_spec", "evening_table", "evening_spec",
           "period_spec", "year_spec", "evening_headers", "year_headers", "PERIOD_HEADERS", "evening_layout",
           "standings_layout", "STANDINGS_HEADER_ROW", "result_table"]

TITLE = "Heeg club season (xlbridge)"
SEASON = "Season"
EVENING_PREFIX = "Evening "
PERIOD_PREFIX = "Period "
YEAR = "Year"
HOWTO = "How to"
#: Sheets the recalculation never reads: Excel need not send their values (the script's ``exclude``).
NEVER_READ = (HOWTO,)
RED = "#FF0000"
PROMOTE_FILL = "#C6EFCE"
RELEGATE_FILL = "#F8CBAD"
NOTE_COLOUR = "#595959"  # the notes right of the settings, in italics

# --------------------------------------------------------------------------- the Season sheet

#: The settings of the Season sheet: label in A, value in B, a note in C.  The ids
#: are the fields of :class:`~xlbridge.clubs.heeg.settings.HeegSettings`.
SETTINGS: tuple[Setting, ...] = (
    Setting("club", 3, "Club", default="Bridge club Heeg"),
    Setting("season", 4, "Season", note="e.g. 2025/2026"),
    Setting("lines", 5, "Lines (top line first)",
            note="line names separated by commas, top line first (the club champion plays in the first)"),
    Setting("rounds", 6, "Rounds per evening", kind="whole", default=6,
            note="rounds per evening (the sit-out factor is rounds/(rounds-1): 6/5)"),
    Setting("boards_per_round", 7, "Boards per round", kind="whole", default=4,
            note="boards per round (the maximum is rounds x boards x the line's top)"),
    Setting("combi_top", 8, "Combi table top", kind="number", default=10.0,
            note="top of the combi table (12 pairs: 10)"),
    Setting("absence_span", 9, "Count 'a' per", default="period", allowed=("period", "season"),
            note="'period' or 'season': over what span the 1st/2nd/3rd 'a' are counted"),
)
#: The whole-number settings and their least value.
WHOLE_FROM = {"rounds": 2, "boards_per_round": 1}
#: Column widths of the Season sheet from A.
SEASON_WIDTHS: tuple[float, ...] = (24, 30, 12, 12, 12, 12, 12, 12, 12, 12)
#: The header row of the periods table in a new workbook (the reader finds it by
#: its label below the settings, so rows inserted above it do no harm).
PERIODS_HEADER_ROW = 11


def periods_table(evenings: int, header_row: int = PERIODS_HEADER_ROW) -> Table:
    """The periods table with room for ``evenings`` evenings a period (columns from C)."""
    return Table("periods", header_row, (
        Column("period", "Period"),
        Column("promote", "Promote/ relegate", kind="whole"),
        *(Column(f"evening_{i}", f"Evening {i}", kind="date", number_format="yyyy-mm-dd")
          for i in range(1, evenings + 1)),
    ))


def pairs_table(labels: Sequence[str], header_row: int) -> Table:
    """The pairs table (the roster): pair, names and the line in each period.  Its
    cells are typed but not yellow: the table grows down as the club does."""
    return Table("pairs", header_row, (
        Column("pair", "Pair", fill=False),
        Column("names", "Names", fill=False),
        *(Column(f"line_{label}", f"Line {label}", fill=False) for label in labels),
    ))


def season_spec(labels: Sequence[str], evenings: int) -> SheetSpec:
    """The Season sheet of a season with the periods ``labels`` and room for
    ``evenings`` evenings a period: the pairs table starts one row below the periods."""
    periods = periods_table(evenings)
    return SheetSpec("season", SEASON, title=TITLE, settings=SETTINGS,
                     tables=(periods, pairs_table(labels, periods.first_row + len(labels) + 1)),
                     widths=SEASON_WIDTHS)


# --------------------------------------------------------------------------- evening sheets

#: What each typed header of an evening sheet holds (said when a header is wrong).
HEADER_HINTS = {"pair": "the pair number", "names": "the names", "line": "the line",
                "combi_mp": "the combi MP as scored", "mp": "the MP total", "code": "the inv code"}
#: A column's name on the Corrections sheet when it is not its header.
AUDIT_NAMES = {"c_corrected": "C corrected"}
#: Rows laid out below the pairs of an evening sheet a recalculation adds.
SPARE_ROWS = 4


def evening_sheet(day: dt.date) -> str:
    return f"{EVENING_PREFIX}{day.isoformat()}"


def period_sheet(label: str) -> str:
    return f"{PERIOD_PREFIX}{label}"


def evening_table(rounds: int, labels: Sequence[str]) -> Table:
    """The columns of an evening sheet with ``rounds`` round columns, for a season
    with the periods ``labels`` (a kept result ``eind`` for each but the last).

    Typed: Pair, Names, Line, R1..Rn, the first C (the combi MP as scored), MP (on a
    row without rounds) and inv; only the rounds and the first C are yellow (xlbridge
    fills in pair, names and line of a new evening, writes MP on a row with rounds,
    and owns the inv cell's fill: the red signal)."""
    return _evening_table(rounds, tuple(labels))


@lru_cache(maxsize=64)
def _evening_table(rounds: int, labels: tuple[str, ...]) -> Table:
    pct = "0.00"
    return Table("pairs", 1, (
        Column("pair", "Pair", kind="whole", width=6, fill=False),
        Column("names", "Names", width=30, fill=False),
        Column("line", "Line", width=5, fill=False),
        *(Column(f"r{i}", f"R{i}", kind="number", width=5) for i in range(1, rounds + 1)),
        Column("combi_mp", "C", kind="number", width=5),
        Column("c_corrected", "C", typed=False, kind="number", number_format=pct, width=6),
        Column("mp", "MP", kind="number", width=6, fill=False),
        Column("evening_max", "max", typed=False, kind="number", width=6),
        Column("code", "inv", kind="code", width=5, fill=False, allowed=("1", "2", "0", "a", "s", "s1", "=")),
        Column("egs", "EGS", typed=False, kind="pct", number_format=pct, width=7),
        Column("pct", "%", typed=False, kind="pct", number_format=pct, width=7),
        Column("to_date", "tot vandaag", typed=False, kind="pct", number_format=pct, width=9),
        Column("period_pct", "periode", typed=False, kind="pct", number_format=pct, width=8),
        Column("year_pct", "jaar", typed=False, kind="pct", number_format=pct, width=8),
        *(Column(f"end_{label}", f"eind {label}", typed=False, kind="pct", number_format=pct, width=7)
          for label in labels[:-1]),
        Column("signal", "*", typed=False, width=4),
    ))


def result_table(rounds: int, labels: Sequence[str]) -> Table:
    """The evening's result (the club's nightly *uitslag*) right of the evening's
    columns, one empty column between: per line, the pairs that played at the
    tables sorted by %, each with its rank in the line.  Computed."""
    return _result_table(rounds, tuple(labels))


@lru_cache(maxsize=64)
def _result_table(rounds: int, labels: tuple[str, ...]) -> Table:
    evening = evening_table(rounds, labels)
    return Table("result", 1, (
        Column("line", "Line", typed=False, width=5, label_id="result.line"),
        Column("rank", "Rank", typed=False, kind="whole", width=6, label_id="result.rank"),
        Column("pair", "Pair", typed=False, width=6, label_id="result.pair"),
        Column("names", "Names", typed=False, width=30, label_id="result.names"),
        Column("pct", "Evening %", typed=False, kind="pct", number_format="0.00", width=10, label_id="result.pct"),
    ), first_col=evening.first_col + evening.width() + 1)


def evening_spec(rounds: int, labels: Sequence[str], day: dt.date | None = None) -> SheetSpec:
    """An evening sheet (named ``Evening YYYY-MM-DD`` after ``day``): the header on
    row 1, pairs from row 2, Pair/Names/Line kept in view; the evening's result
    right of it is what prints (portrait, one page for a club evening)."""
    name = evening_sheet(day) if day is not None else f"{EVENING_PREFIX}YYYY-MM-DD"
    return SheetSpec("evening", name, tables=(evening_table(rounds, labels), result_table(rounds, labels)),
                     freeze=(2, 4), print=Print("portrait", True, (1, 1), area="result", page_header="&A"))


def evening_headers(rounds: int, labels: Sequence[str]) -> list[str]:
    """The header row of an evening sheet with ``rounds`` round columns."""
    return evening_table(rounds, labels).headers()


def evening_layout(rounds: int, labels: Sequence[str], rows: int) -> Layout:
    """The look of an evening sheet with room for ``rows`` pairs (and 4 more):
    the header, the typed rounds and combi in yellow, % columns with 2 decimals,
    pair, names and line kept in view.  The template's evening sheets and the
    ones a recalculation adds share it."""
    return evening_spec(rounds, labels).layout(rows + SPARE_ROWS)


# --------------------------------------------------------------------------- standings sheets

STANDINGS_HEADER_ROW = 3


def _standings(columns: Sequence[Column]) -> Table:
    return Table("standings", STANDINGS_HEADER_ROW, tuple(columns))


def period_spec(label: str) -> SheetSpec:
    """A period's standings: the title (with final/provisional) in A1, a note in A2,
    the header on row 3, one row per pair from row 4."""
    return SheetSpec("period", period_sheet(label),
                     title=f"Period {label} — standings per line, promotion and relegation",
                     tables=(_standings((
                         Column("line", "Line", typed=False, width=6),
                         Column("rank", "Rank", typed=False, kind="whole", width=6),
                         Column("pair", "Pair", typed=False, width=6),
                         Column("names", "Names", typed=False, width=30),
                         Column("evenings", "Evenings", typed=False, kind="whole", width=9),
                         Column("period_pct", "periode", typed=False, kind="pct", number_format="0.00", width=8),
                         Column("marks", "marks", typed=False, kind="whole", width=7),
                         Column("move", "move", typed=False, width=15),
                         Column("next_line", "next line", typed=False, width=9),
                     )),), freeze=(STANDINGS_HEADER_ROW + 1, 1))


def year_spec(labels: Sequence[str], season: str = "") -> SheetSpec:
    """The year standings (the club championship), laid out as a period's."""
    return SheetSpec("year", YEAR, title=f"Year {season} — club championship".replace("Year  —", "Year —"),
                     tables=(_standings((
                         Column("line", "Line", typed=False, width=6),
                         Column("rank", "Rank", typed=False, kind="whole", width=6),
                         Column("pair", "Pair", typed=False, width=6),
                         Column("names", "Names", typed=False, width=30),
                         Column("evenings", "Evenings", typed=False, kind="whole", width=9),
                         Column("year_pct", "jaar", typed=False, kind="pct", number_format="0.00", width=8),
                         *(Column(f"end_{label}", f"eind {label}", typed=False, kind="pct", number_format="0.00",
                                  width=8) for label in labels),
                         Column("marks", "marks", typed=False, kind="whole", width=7),
                         Column("star", "*", typed=False, width=4),
                         Column("champion_rank", "champion", typed=False, kind="whole", width=9),
                     )),), freeze=(STANDINGS_HEADER_ROW + 1, 1))


PERIOD_HEADERS = period_spec("1").tables[0].headers()


def year_headers(labels: Sequence[str]) -> list[str]:
    return year_spec(labels).tables[0].headers()


def standings_layout(sheet: str, labels: Sequence[str], rows: int) -> Layout:
    """The look of a period or year standings sheet (``sheet`` is its name) with
    room for ``rows`` pairs: the title, the header on row 3, percentages with 2
    decimals, the title rows kept in view."""
    spec = year_spec(labels) if sheet == YEAR else period_spec(sheet[len(PERIOD_PREFIX):])
    return spec.layout(max(60, rows + 10))


# --------------------------------------------------------------------------- the How to sheet

HOWTO_WIDTH = 110
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
