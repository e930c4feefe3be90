"""The one declaration of the Heeg season workbook: its sheets, settings, tables and columns.

Everything else follows from it: the builder (:mod:`~xlbridge.workbooks.heeg.build`)
writes the sheets, the reader (:mod:`~xlbridge.workbooks.heeg.read`) finds the
settings and columns and checks the headers, the planner
(:mod:`~xlbridge.workbooks.heeg.compute`) maps a problem's concerns to its cell and
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

from xlbridge.language import N_, _
from xlbridge.workbooks.book import Layout
from xlbridge.workbooks.declare import TEXT_APART, Chart, Column, Print, Setting, SheetSpec, Table, text_of

__all__ = ["TITLE", "SEASON", "EVENING_PREFIX", "PERIOD_PREFIX", "YEAR", "HOWTO", "RED", "PROMOTE_FILL",
           "RELEGATE_FILL", "NOTE_COLOUR", "SETTINGS", "WHOLE_FROM", "SEASON_WIDTHS", "PERIODS_HEADER_ROW",
           "CHECKED_HEADERS", "AUDIT_NAMES", "SPARE_ROWS", "HOWTO_LINES", "HOWTO_WIDTH", "evening_sheet",
           "period_sheet", "periods_table", "pairs_table", "season_spec", "evening_table", "evening_spec",
           "period_spec", "year_spec", "evening_headers", "evening_layout",
           "standings_layout", "STANDINGS_HEADER_ROW", "SIGNAL_WORDS", "SIGNAL_WIDTH", "signal_words", "result_table",
           "CHART", "CHART_PAIR", "chart_spec", "NOT_RED"]

TITLE = N_("Heeg club season (xlbridge)")
SEASON = "Season"
EVENING_PREFIX = "Evening "
PERIOD_PREFIX = "Period "
YEAR = "Year"
HOWTO = "How to"
CHART = "Chart"
#: Sheets the recalculation never reads: Excel need not send their values (the script's ``exclude``).
NEVER_READ = (HOWTO,)
RED = "#FF0000"
#: A signal cell that is not red: white, as an unfilled cell prints.  An explicit colour, not
#: "no fill": the Excel path cannot clear a fill (xlwings-server 1.12.0, docs/install.md), and it
#: cannot read one either, so every signal cell is set on every recalculation, both ways.
NOT_RED = "#FFFFFF"
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
    Setting("rounds", 6, "Rounds per evening", kind="whole", default=6, low=2,
            note="rounds per evening (the sit-out factor is rounds/(rounds-1): 6/5)"),
    Setting("boards_per_round", 7, "Boards per round", kind="whole", default=4, low=1,
            note="boards per round (the maximum is rounds x boards x the line's top)"),
    Setting("combi_top", 8, "Combi table top", kind="number", default=10.0, low=1,
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


def periods_table(evenings: int, header_row: int = PERIODS_HEADER_ROW, room: int = 0) -> Table:
    """The periods table with room for ``evenings`` evenings a period (columns from C)
    and ``room`` periods."""
    return Table("periods", header_row, (
        Column("period", "Period"),
        Column("promote", "Promote/ relegate", kind="whole", low=0),
        *(Column(f"evening_{i}", "Evening {arg}", kind="date", number_format="yyyy-mm-dd", arg=str(i), label_id="evening_n")
          for i in range(1, evenings + 1)),
    ), room=room)


#: Rows of the pairs table laid out as typed below the pairs of a new workbook (the club grows).
PAIRS_ROOM = 40


def pairs_table(labels: Sequence[str], header_row: int, room: int = 0) -> Table:
    """The pairs table (the roster): pair, names, the line in each period and, where the scoring
    program writes the pair's names otherwise, its names as in the program's file (``xlbridge
    import``: :mod:`~xlbridge.workbooks.heeg.imported`); ``room`` rows laid out as typed."""
    return Table("pairs", header_row, (
        Column("pair", "Pair"),
        Column("names", "Names"),
        *(Column(f"line_{label}", "Line {arg}", arg=label, label_id="line_n") for label in labels),
        Column("file_names", "In the file", width=30),
    ), room=room)


def season_spec(labels: Sequence[str], evenings: int, pairs: int = 0) -> SheetSpec:
    """The Season sheet of a season with the periods ``labels``, room for
    ``evenings`` evenings a period and ``pairs`` pairs (and :data:`PAIRS_ROOM`
    more): the pairs table starts one row below the periods."""
    periods = periods_table(evenings, room=len(labels))
    return SheetSpec("season", SEASON, title=_(TITLE), settings=SETTINGS,
                     tables=(periods, pairs_table(labels, periods.first_row + len(labels) + 1, pairs + PAIRS_ROOM)),
                     widths=SEASON_WIDTHS)


# --------------------------------------------------------------------------- evening sheets

#: The typed headers of an evening sheet a recalculation checks.
CHECKED_HEADERS = ("pair", "names", "line", "combi_mp", "mp", "code")
#: A column's name on the Corrections sheet when it is not its header.
AUDIT_NAMES = {"c_corrected": "C corrected"}
#: Rows laid out below the pairs of an evening sheet a recalculation adds.
SPARE_ROWS = 4


def evening_sheet(day: dt.date) -> str:
    return f"{EVENING_PREFIX}{day.isoformat()}"


def period_sheet(label: str) -> str:
    return f"{PERIOD_PREFIX}{label}"


#: The hint of the inv cell (Excel shows it when the cell is selected).
CODE_HELP = ("1/2: one/two substitutes; 0: absent; a: absent, notified; s: sat out a round; s1: s and a substitute; "
             "=: arbitrary 50% (type '= with the apostrophe, or pick it here); empty: normal")


def evening_table(rounds: int, labels: Sequence[str]) -> Table:
    """The columns of an evening sheet with ``rounds`` round columns, for a season
    with the periods ``labels`` (a kept result ``eind`` for each but the last).

    Typed (yellow): Pair, Names, Line, R1..Rn, the first C (the combi MP as scored),
    MP (on a row without rounds) and inv.  xlbridge fills in pair, names and line of
    a new evening, writes MP on a row with rounds (a typed MP that differs is a
    warning) and turns an inv cell red for the signal (yellow again when it ends)."""
    return _evening_table(rounds, tuple(labels))


@lru_cache(maxsize=64)
def _evening_table(rounds: int, labels: tuple[str, ...]) -> Table:
    pct = "0.00"
    return Table("pairs", 1, (
        Column("pair", "Pair", kind="whole", width=6, low=1),
        Column("names", "Names", width=30),
        Column("line", "Line", width=5),
        *(Column(f"r{i}", "R{arg}", kind="number", width=5, low=0, arg=str(i), label_id="r_n")
          for i in range(1, rounds + 1)),
        Column("combi_mp", "C", kind="number", width=5, low=0),
        Column("c_corrected", "C", typed=False, kind="number", number_format=pct, width=6),
        Column("mp", "MP", kind="number", width=6, low=0),
        Column("evening_max", "max", typed=False, kind="number", width=6),
        Column("code", "inv", kind="code", number_format=TEXT_APART, width=5, allowed=("1", "2", "0", "a", "s", "s1", "="), help=CODE_HELP),
        Column("egs", "EGS", typed=False, kind="pct", number_format=pct, width=7),
        Column("pct", "%", typed=False, kind="pct", number_format=pct, width=7),
        Column("to_date", "tot vandaag", typed=False, kind="pct", number_format=pct, width=9),
        Column("period_pct", "periode", typed=False, kind="pct", number_format=pct, width=8),
        Column("year_pct", "jaar", typed=False, kind="pct", number_format=pct, width=8),
        *(Column(f"end_{label}", "eind {arg}", typed=False, kind="pct", number_format=pct, width=7, arg=label,
                 label_id="end_n")
          for label in labels[:-1]),
        Column("signal", "*", typed=False, width=SIGNAL_WIDTH, wrap=True),
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


#: The columns both standings begin with.
_LEADING = (
    Column("line", "Line", typed=False, width=6),
    Column("rank", "Rank", typed=False, kind="whole", width=6),
    Column("pair", "Pair", typed=False, width=6),
    Column("names", "Names", typed=False, width=30),
    Column("evenings", "Evenings", typed=False, kind="whole", width=9),
)


def period_spec(label: str) -> SheetSpec:
    """A period's standings: the title (with final/provisional) in A1, a note in A2,
    the header on row 3, one row per pair from row 4."""
    return SheetSpec("period", period_sheet(label),
                     title=_("Period {label} — standings per line, promotion and relegation").format(label=label),
                     tables=(_standings((
                         *_LEADING,
                         Column("period_pct", "periode", typed=False, kind="pct", number_format="0.00", width=8),
                         Column("marks", "marks", typed=False, kind="whole", width=7),
                         Column("move", "move", typed=False, number_format=TEXT_APART, width=34, wrap=True),
                         Column("next_line", "next line", typed=False, width=9),
                     )),), freeze=(STANDINGS_HEADER_ROW + 1, 1))


def year_spec(labels: Sequence[str], season: str = "") -> SheetSpec:
    """The year standings (the club championship), laid out as a period's."""
    title = _("Year {season} — club championship").format(season=season) if season else _("Year — club championship")
    return SheetSpec("year", YEAR, title=title,
                     tables=(_standings((
                         *_LEADING,
                         Column("year_pct", "jaar", typed=False, kind="pct", number_format="0.00", width=8),
                         *(Column(f"end_{label}", "eind {arg}", typed=False, kind="pct", number_format="0.00",
                                  width=8, arg=label, label_id="end_n") for label in labels),
                         Column("marks", "marks", typed=False, kind="whole", width=7),
                         Column("star", "*", typed=False, number_format=TEXT_APART, width=4),
                         Column("champion_rank", "champion", typed=False, kind="whole", width=30),
                     )),), freeze=(STANDINGS_HEADER_ROW + 1, 1))


def standings_layout(sheet: str, labels: Sequence[str], rows: int) -> Layout:
    """The look of a period or year standings sheet (``sheet`` is its name) with
    room for ``rows`` pairs: the title, the header on row 3, percentages with 2
    decimals, the title rows kept in view."""
    spec = year_spec(labels) if sheet == YEAR else period_spec(sheet[len(PERIOD_PREFIX):])
    return spec.layout(max(60, rows + 10))


# --------------------------------------------------------------------------- the Chart sheet

#: The one typed cell of the Chart sheet: the pair whose season is drawn.
CHART_PAIR = Setting("pair", 3, "Pair", note="blank = the leader of the year standings; type a pair number and "
                     "Recalculate season to see another pair")
#: The header row of the chart's table (the rows below: the season's evenings in date order).
CHART_HEADER_ROW = 5


def chart_spec(evenings: int) -> SheetSpec:
    """The Chart sheet, with room for ``evenings`` evenings (every evening the Season
    sheet's periods table can list): the title naming the pair in A1 (computed), the
    pair typed in B3, the table from row 5 -- per evening of the season, in date
    order: the date, the pair's line, its evening %, periode and jaar as its evening
    sheet has them (blank when it did not play) -- and the line chart of the three
    percentages right of it.  One landscape page."""
    table = Table("chart", CHART_HEADER_ROW, (
        Column("date", "Evening", typed=False, width=12, label_id="chart.evening"),
        Column("line", "Line", typed=False, width=6, label_id="result.line"),
        Column("pct", "Evening %", typed=False, kind="pct", number_format="0.00", width=10, label_id="result.pct"),
        Column("period_pct", "periode", typed=False, kind="pct", number_format="0.00", width=9),
        Column("year_pct", "jaar", typed=False, kind="pct", number_format="0.00", width=9),
    ), room=max(evenings, 1))
    return SheetSpec("chart", CHART, settings=(CHART_PAIR,), tables=(table,),
                     print=Print("landscape", True, one_page=True),
                     chart=Chart("chart", "date", ("pct", "period_pct", "year_pct"), anchor="G5", width=22, height=12))


# --------------------------------------------------------------------------- the signals in words

#: Every colour signal is also said in words (a black-and-white printout, a colour-blind
#: reader): the red ``*`` and inv cells of an evening in its ``*`` cell, the red marks cell
#: of a period in its move cell, the red ``*`` of the year in its champion cell.  Keys are
#: label ids (a language changes the words).
SIGNAL_WORDS = {
    "signal.no-champion": "cannot be champion ({marks} marks)",
    "signal.no-promotion": "cannot promote or stay up ({marks} marks this period)",
    "signal.blocked": "{move} ({marks} marks: cannot promote)",
    "signal.not-whole-year": "no: not every evening in line {line}",
    "signal.too-many-marks": "no: {marks} marks (more than 5)",
    "signal.join": "; ",
}
def signal_words(key: str, **params: object) -> str:
    """One signal in words: ``signal_words("signal.no-champion", marks=6)``."""
    return text_of(key, SIGNAL_WORDS[key]).format(**params)


#: The width of the evening's ``*`` column, which holds the signals in words.
SIGNAL_WIDTH = 30


# --------------------------------------------------------------------------- the How to sheet

HOWTO_WIDTH = 110
#: The How to sheet, line by line (each line is translated where it is written;
#: the worksheet functions' lines stay as they are: one name in every Excel).
HOWTO_LINES = [
    N_("How to keep the Heeg season in this workbook"),
    "",
    N_("Yellow cells are typed by the scorer; every other number is computed by xlbridge. Select a yellow "
       "cell to read what it takes (the inv cell has a drop-down list)."),
    N_("Recalculate season: in Excel the button on the Season sheet; without Excel: xlbridge recalc "
       "THIS-FILE.xlsx"),
    "",
    N_("1. Season sheet: club, season, lines, rounds per evening, boards per round; one row per period with "
       "its evenings (dates) and how many pairs promote/relegate; one row per pair with names and its line "
       "in each period."),
    N_("2. Recalculate season once: every evening listed gets its sheet 'Evening YYYY-MM-DD' with the pairs "
       "of that period."),
    N_("   Or, evening by evening: New evening (the button beside it; xlbridge next THIS-FILE.xlsx) adds the"
       " next evening's sheet with the pairs of the period and enters its date in the period (default: one "
       "week after the last evening)."),
    N_("3. Each evening: type the MP per round (R1..R6) -- or only the MP total --, the combi MP as scored "
       "(first C) and the inv code: 1, 2, 0, a, s, s1 or = (type '= with the apostrophe). Then Recalculate "
       "season."),
    N_("4. Read: % (after the inv correction), tot vandaag (earlier evenings of the period), periode, jaar, "
       "eind (each earlier period's result), * (not the whole year in the A-line: cannot be club champion)."),
    N_("   Red * cell, and its words 'cannot be champion': more than 5 substitutes/absences in the year."),
    N_("   Red inv cell, and the words 'cannot promote or stay up' in the * cell: 4 or more in the period."),
    N_("5. Period sheets: the standings per line with promotion/relegation; Year: the club championship."),
    N_("6. A late correction: change the typed cell and Recalculate season; every computed value that "
       "changed is listed on the Corrections sheet. xlbridge recalc keeps the previous file as "
       "NAME.backup.xlsx beside it."),
    N_("7. Chart sheet: one pair's evening %, periode and jaar on every evening, as a table and a line "
       "chart. Type the pair number in B3 (empty: the leader of the year standings), then Recalculate "
       "season."),
    "",
    N_("Worksheet functions (with the xlbridge add-in):"),
    '=HEEG_PCT(173, 288, "")  ->  60.07        =HEEG_PCT(150, 288, "s", , , 6)  ->  62.50',
    N_('=HEEG_PCT(, , "a", 47.5, 2)  ->  45.00    =HEEG_C(31, 12, 10)  ->  37.20 (combi MP corrected to a '
       "15-pair line)"),
    "",
    N_("Rules and decisions: docs/clubs/heeg.md; step by step: docs/guide-heeg.md."),
]
