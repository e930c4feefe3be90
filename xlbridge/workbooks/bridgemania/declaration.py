"""The BridgeMania season workbook, declared once: its sheets, settings, tables and sections.

Everything else of the kind is derived from this declaration: the builder
(:mod:`~xlbridge.workbooks.bridgemania.build`) writes the headers, fills, number
formats and widths from it; the reader (:mod:`~xlbridge.workbooks.bridgemania.read`)
checks the headers and finds columns and settings by id; the problems are put at
their cells (:mod:`~xlbridge.workbooks.bridgemania.locate`) by mapping their
concerns through it; and a sheet the recalculation adds again gets its look from
:func:`layout`.  The layout is described in ``docs/clubs/bridgemania.md``
("The workbook").

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xlbridge.rules.problems import N_
from xlbridge.workbooks.book import Layout
from xlbridge.workbooks.declare import (
    COMPUTED,
    COMPUTED_HEADER,
    INPUT,
    TEXT_APART,
    Chart,
    Column,
    Print,
    Setting,
    SheetSpec,
    Table,
)
from xlbridge.workbooks.declare import merge_areas, word_width

__all__ = ["SEASON", "CHAMPIONSHIP", "PARTICIPATION", "BLANK_TOURNAMENT", "HOW_TO", "SEASON_SHEET",
           "tournament_sheet", "CHAMPIONSHIP_SHEET", "PARTICIPATION_SHEET", "SECTIONS", "layout", "CHART",
           "CHART_PAIR", "CHART_TABLE", "CHART_SHEET"]

# ------------------------------------------------------------------ sheets and titles

SEASON = "Season"
CHAMPIONSHIP = "Championship"
PARTICIPATION = "Participation"
BLANK_TOURNAMENT = "Blank tournament"  # the sheet to copy for a new tournament; never read
HOW_TO = "How to"
CHART = "Chart"
#: Sheets the recalculation never reads: Excel need not send their values (the script's ``exclude``).
NEVER_READ = (BLANK_TOURNAMENT, HOW_TO)

SEASON_TITLE = N_("BridgeMania championship — season")
SEASON_TITLE_START = N_("BridgeMania championship")  # how the kind recognises its Season sheet
TOURNAMENT_TITLE = N_("BridgeMania tournament")
CHAMPIONSHIP_TITLE = N_("BridgeMania championship — standings (computed: do not type here)")
PARTICIPATION_TITLE = N_("BridgeMania participation lists (section B)")

#: Fills of the plan beyond the house colours: an ineligible pair's row of the final ranking.
INELIGIBLE = "#D9D9D9"

PCT = "0.00"
#: PTS as the Regolamento prints them: whole points without decimals (25, 140), Tab.3's with its two (9,64),
#: an averaged tie with what its column has room for (issue 26, point 14).
PTS = "General"


def _computed(column_id: str, label: str, width: float, number_format: str = "General") -> Column:
    return Column(column_id, label, typed=False, width=width, number_format=number_format)


# ------------------------------------------------------------------ the Season sheet

#: Row 3: a caption above each table (bold).
CAPTION_ROW = 3

BASE = Table("base", header_row=4, room=11, columns=(
    Column("pair", "Pair", width=8),
    Column("player1", "Player 1", width=12),
    Column("player2", "Player 2", width=12),
    Column("name", "Name", width=20, wrap=True),  # a long name wraps (issue 26, point 6)
    Column("lot", "Lot", kind="whole", width=11, low=1),  # "Sorteggio" in bold, unbroken
))
GUESTS = Table("guests", header_row=4, first_col=7, room=10, columns=(
    Column("guest", "Guest", width=8),
    Column("name", "Name", width=20, wrap=True),  # a long name wraps (issue 26, point 6)
))
CALENDAR = Table("calendar", header_row=4, first_col=10, room=20, columns=(
    Column("tournament", "Tournament", width=12),
    Column("date", "Date", kind="date", number_format="yyyy-mm-dd", width=12),
    Column("host", "Host", width=11),  # "Ospitante" in bold, unbroken
))
CALENDAR_RESULTS = Table("calendar-results", header_row=4, first_col=14, room=20, columns=(
    _computed("pairs", "Pairs", 7),
    _computed("tables", "Tables", 7, "0.0"),
    _computed("boards", "Boards", 7),
    _computed("top", "TOP", 6),
    _computed("penalty", "Penalty", 8),
    _computed("base_pairs", "Base pairs", 7),
    _computed("counts", "Counts", 13),
    _computed("winner", "Winner", 12),
))
#: The calendar's "Counts" for a tournament whose sheet holds nothing but its pairs yet (issue 26, point 4).
NOT_PLAYED = N_("not played yet")
SEASON_SHEET = SheetSpec(
    "season", SEASON, title=SEASON_TITLE, settings=(Setting("name", row=2, label="Season"),),
    tables=(BASE, GUESTS, CALENDAR, CALENDAR_RESULTS), freeze=(BASE.first_row, 1),
    widths=(0, 0, 0, 0, 0, 2, 0, 0, 2, 0, 0, 0, 2),  # the gaps between the tables
)
SEASON_CAPTIONS = {
    "base": N_("Base pairs (Lot = place in the reference list drawn by lot, section B)"),
    "guests": N_("Guest register"),
    "calendar": N_("Tournaments: one sheet each, named as here"),
    "calendar-results": N_("Computed by xlbridge"),
}

# ------------------------------------------------------------------ a tournament sheet

MOVEMENT = Setting("movement", row=3, label="Movement", note="howell or mitchell scrambled (blank = howell)",
                   allowed=("howell", "mitchell scrambled"), strict=False)
TOP = Setting("top", row=4, label="TOP", kind="whole", note="blank = from the scores: 2 x (rows - 1)")
COUNTS = Setting("championship", row=5, label="Championship", allowed=("yes", "no"), strict=False,
                 note="yes = counts for the championship (blank = yes); no = a friendly")
EXTRA = Setting("extra", row=6, label="Extra PTS to",
                note="only when no bridge scores are typed below: the pairs with the highest bridge score")
TOURNAMENT_SETTINGS = (MOVEMENT, TOP, COUNTS, EXTRA)

#: The pairs: Pair, Status, Players (the typed columns kept in view); the board columns follow
#: after one gap column.
PAIRS = Table("pairs", header_row=8, room=16, columns=(
    Column("pair", "Pair", width=8),
    Column("status", "Status", width=9, allowed=("waiting", "ill", "unable", "split"), strict=False),
    Column("players", "Players", width=18),
))
GAP_WIDTH = 2
BOARD_WIDTH = 6.5  # board scores, and four-digit bridge scores (-1430) further down
#: The tournament's result, sorted (issue 16, point 4), on rows of its own below the pairs,
#: under its title in column A, never beside the typed rows, whose order is another (issue 26,
#: point 8); what the sheet prints.  Computed: the entries that played in ranking order (ties
#: share the engine's rank), then the base pairs that did not play at the tables (split, waiting,
#: ill, unable) without a rank, with their status and PTS.  Its columns sit over the pairs' and the
#: first boards' columns: the numbers are as wide as a board score (their headers wrap).
RESULT = Table("result", header_row=0, columns=(
    _computed("rank", "Rank", 6),
    _computed("pair", "Pair", 7, TEXT_APART),  # apart from the rank right-aligned left of it (issue 26, point 7)
    Column("name", "Name", typed=False, width=20, wrap=True),  # a long guest name wraps (issue 26, point 6)
    _computed("status", "Status", 15),  # "impossibilitata", "lista di attesa"
    _computed("pct", "Score %", BOARD_WIDTH, PCT),
    _computed("f1", "F1 PTS", BOARD_WIDTH, PTS),
    _computed("indy", "IndyCar PTS", BOARD_WIDTH, PTS),
    _computed("hybrid", "Hybrid PTS", BOARD_WIDTH, PTS),
))
#: The title above the sorted result, in column A (found there, as a section's).
RESULT_TITLE = N_("Result, sorted by score (computed)")
#: Board 1's column: right of the pairs after one gap column (E).
FIRST_BOARD_COL = PAIRS.first_col + PAIRS.width() + 1
TEMPLATE_BOARDS = 28  # the board columns of the blank tournament
#: The computed columns of each pair's row, right of the boards after one narrow gap column.
RESULTS = Table("results", header_row=8, first_col=0, columns=(
    _computed("list", "List", 7.5),
    _computed("penalty", "Penalty", 9),
    _computed("absolute", "Absolute", 10),
    _computed("pct", "Score %", 9, PCT),
    _computed("rank", "Rank", 7.5),
    _computed("tops", "TOPs", 7.5),
    _computed("pots", "POTs", 7.5),
    _computed("extra", "Extra", 7.5),
    _computed("f1", "F1 PTS", 9, PTS),
    _computed("indy", "IndyCar PTS", 13, PTS),
    _computed("hybrid", "Hybrid PTS", 12, PTS),
))


def board_columns(nboards: int, number_format: str = "General") -> tuple[Column, ...]:
    """The board columns 1..n (``kind="board"``: headed by the number)."""
    return tuple(Column(f"board{b}", str(b), kind="board", number_format=number_format, width=BOARD_WIDTH)
                 for b in range(1, nboards + 1))


def results_at(first_col: int) -> Table:
    """The computed columns where a sheet has them."""
    return replace(RESULTS, first_col=first_col)


def boards_at(first_col: int, nboards: int) -> Table:
    """The board columns 1..n of the pairs' rows from ``first_col`` (typed; a sit-out's R apart from
    the score left of it: :data:`~xlbridge.workbooks.declare.TEXT_APART`)."""
    return Table("boards", header_row=PAIRS.header_row, columns=board_columns(nboards, TEXT_APART), first_col=first_col,
                 room=PAIRS.room)


def result_title_row(pair_rows: int) -> int:
    """The sorted result's title row below ``pair_rows`` rows of pairs and one blank row."""
    return PAIRS.first_row + pair_rows + 1


def sections_row(pair_rows: int) -> int:
    """The first section's title row: below the sorted result's ``pair_rows`` rows and one blank row."""
    return result_title_row(pair_rows) + 2 + pair_rows + 1


def tournament_sheet(nboards: int, name: str = BLANK_TOURNAMENT, pair_rows: int = PAIRS.room) -> SheetSpec:
    """A tournament sheet of ``nboards`` boards and ``pair_rows`` rows of pairs: Pair, Status,
    Players | boards 1..n | each pair's computed columns, one narrow gap column between; below the
    pairs the sorted result, under its title, with room for as many rows; Pair, Status and Players
    stay in view while the boards are typed, and the sorted result is what prints (portrait, one
    page wide, its title and header on every page).
    The tables: ``pairs``, ``boards``, ``result``, ``results`` (in this order)."""
    boards = boards_at(FIRST_BOARD_COL, nboards)
    results = results_at(FIRST_BOARD_COL + nboards + 1)
    title = result_title_row(pair_rows)
    result = replace(RESULT, header_row=title + 1, room=pair_rows)
    last = max(t.first_col + t.width() - 1 for t in (boards, result, results))
    widths = [0.0] * last
    for t in (boards, results):
        # the gap column left of it, as wide as what sits in it below: the rectifications' NS pairs before the
        # boards (issue 26, point 6), the sorted result's status
        gap = t.first_col - 2
        under = [s.table.columns[gap] for s in SECTIONS if gap < len(s.table.columns)]
        under += RESULT.columns[gap:gap + 1]
        widths[gap] = max([GAP_WIDTH] + [max(c.width, word_width(c.text())) for c in under])
    return SheetSpec("tournament", name, title=TOURNAMENT_TITLE, settings=TOURNAMENT_SETTINGS,
                     tables=(PAIRS, boards, result, results), freeze=(PAIRS.first_row, PAIRS.first_col + PAIRS.width()),
                     widths=tuple(widths),
                     print=Print("portrait", True, (title, result.header_row), area=RESULT.id, area_row=title,
                                 page_header="&A"))


@dataclass(frozen=True)
class Section:
    """A typed section below the pairs, found by its ``title`` in column A; its
    header row follows the title, its rows the header.  ``board_wide``: the typed
    area reaches over the board columns (3 + boards)."""

    id: str
    title: str
    help: str
    table: Table
    min_rows: int
    board_wide: bool = False

    def at(self, title_row: int, nboards: int = 0) -> Table:
        """The section's table under its title at ``title_row`` (the bridge scores: blank-headed
        columns up to the board columns, then ``nboards`` board columns, under the pairs' boards)."""
        columns = self.table.columns
        if self.id == "bridge":
            gaps = tuple(Column(f"gap{i}", "") for i in range(1, FIRST_BOARD_COL - len(columns)))
            columns = columns + gaps + board_columns(nboards)
        return replace(self.table, header_row=title_row + 1, columns=columns)

    def typed_cols(self, nboards: int) -> int:
        return FIRST_BOARD_COL - 1 + max(nboards, 1) if self.board_wide else self.table.width()


PENALTIES = Section("penalties", N_("Penalties"),
                    N_("one row per guilty pair and error (D.04): each loses half the average board score"),
                    Table("penalties", 0, (Column("pair", "Pair"), Column("board", "Board", kind="whole"),
                                           Column("note", "Note"))), min_rows=3)
RECTIFICATIONS = Section("rectifications", N_("Rectifications"),
                         N_("D.05: partial (annulled row NS, EW; and every NS pair of the board) or irreversible"),
                         Table("rectifications", 0, (Column("board", "Board", kind="whole"),
                                                     Column("kind", "Kind", allowed=("partial", "irreversible"),
                                                            strict=False),
                                                     Column("row", "Annulled row (NS, EW)"),
                                                     Column("ns", "NS pairs of the board", width=18))),
                         min_rows=3, board_wide=True)
BRIDGE_SCORES = Section("bridge", N_("Bridge scores"),
                        N_("optional: each pair's bridge score per board (+1430, -100; R = sit-out) -> the extra PTS"),
                        Table("bridge", 0, (Column("pair", "Pair"),)),
                        min_rows=4, board_wide=True)
SECTIONS = (PENALTIES, RECTIFICATIONS, BRIDGE_SCORES)


# ------------------------------------------------------------------ the Championship sheet (all computed)

SUMMARY_ROW = 2
SUMMARY = (N_("Valid tournaments"), N_("Needed to be eligible (half + 1)"))
#: The three standings, points and rank, in the final table and after each tournament.
_STANDINGS = (
    _computed("f1", "F1 PTS", 9, PTS),
    _computed("indy", "IndyCar PTS", 9, PTS),
    _computed("hybrid", "Hybrid PTS", 9, PTS),
    _computed("rank_f1", "Rank F1", 7),
    _computed("rank_indy", "Rank IndyCar", 9),
    _computed("rank_hybrid", "Rank Hybrid", 8),
)
FINAL = Table("final", header_row=5, room=11, columns=(
    _computed("place", "Place", 6),
    _computed("pair", "Pair", 7),
    _computed("name", "Name", 18),
    _computed("played", "Played", 7),
    _computed("eligible", "Eligible", 8),
    *_STANDINGS,
    _computed("points", "Points", 7),
    _computed("tops", "TOPs", 6),
    _computed("pots", "POTs", 6),
    Column("tie_break", "Tie-break", typed=False, width=30, wrap=True),
))
GENERAL = Table("general", header_row=5, first_col=17, room=21, columns=(
    _computed("rank", "Rank", 6),
    _computed("pair", "Pair", 7),
    _computed("kind", "Kind", 7),
    _computed("played", "Played", 7),
    _computed("mean", "Mean %", 8, PCT),
))
AFTER = Table("after", header_row=5, first_col=23, room=220, columns=(
    _computed("after", "After", 7),
    _computed("pair", "Pair", 7),
    _computed("played", "Played", 7),
    *_STANDINGS,
))
CHAMPIONSHIP_SHEET = SheetSpec("championship", CHAMPIONSHIP, title=CHAMPIONSHIP_TITLE, tables=(FINAL, GENERAL, AFTER),
                               freeze=(FINAL.first_row, 1), widths=(0,) * 15 + (2,) + (0,) * 5 + (2,))
CHAMPIONSHIP_CAPTIONS = {
    "final": N_("Final ranking — Ricalibratura della storia (C.04)"),
    "general": N_("General ranking: mean of the tournament scores (C.02)"),
    "after": N_("The three standings after each tournament (C.03)"),
}

# ------------------------------------------------------------------ the Participation sheet

NEXT_HOST = Setting("next_host", row=3, label="Next host", routine=True,
                    note="type the next host: the next list is computed (host O, then P up to the number, A, unable I)")
CAPACITY = Setting("capacity", row=4, label="Base pairs that can play (host included)", kind="whole", routine=True)
UNABLE = Setting("unable", row=5, label="Unable to play (ids, comma-separated)", routine=True)
NEXT = Table("next", header_row=7, room=11, columns=(
    _computed("position", "Position", 36),
    _computed("pair", "Next list", 10),
    _computed("status", "Status", 8),
))
LISTS_COL = NEXT.first_col + NEXT.width() + 1  # two columns per tournament: its id and its list
LIST_WIDTHS = (7, 8)
#: The header of a tournament's list (its second column; the first is headed by the tournament's id).
LIST_HEADER = N_("{tournament} list")
PARTICIPATION_SHEET = SheetSpec("participation", PARTICIPATION, title=PARTICIPATION_TITLE,
                                settings=(NEXT_HOST, CAPACITY, UNABLE), tables=(NEXT,), freeze=(NEXT.first_row, 1))
#: The settings typed every week (the next list's): a change is no correction (issue 26, point 5).
ROUTINE = PARTICIPATION_SHEET.routine()

# ------------------------------------------------------------------ the Chart sheet

#: The one typed cell of the Chart sheet: the base pair whose championship is drawn.
CHART_PAIR = Setting("pair", row=3, label="Pair", note="blank = the leader of the final ranking; type a base pair's "
                     "id and Recalculate season to see another pair")
#: Per tournament of the calendar, in its order: the pair's F1, IndyCar and Hybrid PTS after it
#: (the Championship sheet's "after each tournament" table; blank for a friendly or one not played yet).
CHART_TABLE = Table("chart", header_row=5, room=CALENDAR.room, columns=(
    _computed("tournament", "Tournament", 12),
    _computed("date", "Date", 12),
    _computed("f1", "F1 PTS", 9, PTS),
    _computed("indy", "IndyCar PTS", 12, PTS),
    _computed("hybrid", "Hybrid PTS", 11, PTS),
))
CHART_TITLE = N_("Pair {pair} ({name}): F1, IndyCar and Hybrid PTS after each tournament")
CHART_TITLE_NO_NAME = N_("Pair {pair}: F1, IndyCar and Hybrid PTS after each tournament")
CHART_NOTHING_YET = N_("No tournament played yet: the chart shows the leader of the final ranking once one is")
CHART_SHEET = SheetSpec("chart", CHART, settings=(CHART_PAIR,), tables=(CHART_TABLE,),
                        print=Print("landscape", True, one_page=True),
                        chart=Chart("chart", "tournament", ("f1", "indy", "hybrid"), anchor="G5", width=22,
                                    height=12))

HOW_TO_WIDTH = 120


# ------------------------------------------------------------------ the look of a sheet a recalculation adds


def rows_look(tables: tuple[Table, ...], first_row: int, rows: int) -> Layout:
    """The look of ``rows`` rows from ``first_row`` of ``tables`` (rows beyond the
    builder's room, e.g. a 21st tournament on the calendar): number formats, typed
    cells yellow, computed cells blue, as the builder lays out the rows it made."""
    formats, fills = [], []
    for t in tables:
        for offset, c in enumerate(t.columns):
            area = (first_row, t.first_col + offset, rows, 1)
            if c.number_format != "General":
                formats.append((area, c.number_format))
            fills.append((area, INPUT if c.typed else COMPUTED))
    return Layout(number_formats=tuple(merge_areas(formats)), fills=tuple(merge_areas(fills)))


def layout(spec: SheetSpec, rows: int = 0, filled: tuple[str, ...] = ()) -> Layout:
    """The look of ``spec`` for a sheet a recalculation adds: the declaration's
    layout, with the computed cells blue under green headers as the builder makes
    them (``filled``: the tables whose fills the plan itself writes)."""
    base = spec.layout(rows)
    computed = []
    for t in spec.tables:
        if t.id in filled:
            continue
        room = max(rows, t.room)
        for offset, c in enumerate(t.columns):
            if room and not c.typed:
                computed.append(((t.first_row, t.first_col + offset, room, 1), COMPUTED))
    if not spec.tables or any(c.typed for t in spec.tables for c in t.columns):
        return replace(base, fills=base.fills + tuple(merge_areas(computed)))
    # all computed (Championship, Participation): one green header band over every table
    last = max(t.first_col + t.width() - 1 for t in spec.tables)
    return replace(base, header_fill=COMPUTED_HEADER, header_cols=last, fills=base.fills + tuple(merge_areas(computed)))
