"""The event sheet, declared once: one event's results and its masterpoint awards.

An *event sheet* is how a club scorer awards masterpoints in a workbook (the TBF
club tournament, the Swedish bronze/silver/team events)::

    A1      title
    A3/B3   Scheme   (e.g. tr.club, se.silver.pairs)          typed
    A4/B4   Boards                                            typed (may be empty)
    A5/B5   Options  (e.g. "met=30")                          typed
    A6/B6   Event    (a description)                          typed
    row 8   headers: unit | names | score | Place | points | unit
    row 9+  one row per pair/team/player: number, names, score typed;
            Place, points and unit computed (columns D, E, F)

The words of the unit, names, score, points and unit headers differ per event
(Pair/Team, Score %/VP, MP/Points, Colour/Unit): :func:`event_sheet` takes them.
"""

from __future__ import annotations

from xlbridge.workbooks.declare import Column, Print, Setting, SheetSpec, Table, text_of

SCHEME, BOARDS, OPTIONS, EVENT = "scheme", "boards", "options", "event"
SETTINGS = (
    Setting(SCHEME, 3, "Scheme", note="the scheme id, e.g. tr.club (xlbridge schemes lists them)"),
    Setting(BOARDS, 4, "Boards", kind="whole", low=1),
    Setting(OPTIONS, 5, "Options", note="name=value; name=value, e.g. met=30"),
    Setting(EVENT, 6, "Event"),
)
HEADER_ROW = 8
HOW_TO = "How to"
#: Sheets the recalculation never reads: Excel need not send their values (the script's ``exclude``).
NEVER_READ = (HOW_TO,)
#: The column ids (the typed unit number, its names, its score; the computed place, points, unit).
UNIT, NAMES, SCORE, PLACE, POINTS, CURRENCY = "unit", "names", "score", "place", "points", "currency"


#: Rows laid out as typed on an event sheet, at least (a blank template has no rows yet).
ROOM = 40


def results_table(labels: tuple[str, str, str, str, str], points_format: str = "0.00", room: int = 0,
                  percent: bool = False) -> Table:
    """The results table; ``labels``: the unit, names, score, points and currency headers;
    ``percent``: the score is a percentage (0 to 100)."""
    unit, names, score, points, currency = labels
    return Table("results", HEADER_ROW, (
        Column(UNIT, unit, kind="text", width=7),
        Column(NAMES, names, kind="text", width=34),
        Column(SCORE, score, kind="pct" if percent else "number", number_format="0.00", width=10, low=0,
               high=100 if percent else None),
        Column(PLACE, "Place", typed=False, kind="whole", width=8),
        Column(POINTS, points, typed=False, kind="number", number_format=points_format, width=9),
        Column(CURRENCY, currency, typed=False, kind="text", width=9),
    ), room=room)


def in_place_order(labels: tuple[str, str, str, str, str], points_format: str = "0.00", room: int = 0) -> Table:
    """The results again, in place order (the event's printed result), right of the
    results table with one empty column between: place, unit, names, score, points,
    currency, under the results table's own headers.  Computed."""
    unit, names, score, points, currency = labels
    results = results_table(labels, points_format)
    return Table("in_place_order", HEADER_ROW, (
        Column("ranked_place", "Place", typed=False, kind="whole", width=8, label_id=PLACE),
        Column("ranked_unit", unit, typed=False, width=7, label_id=UNIT),
        Column("ranked_names", names, typed=False, width=34, label_id=NAMES),
        Column("ranked_score", score, typed=False, kind="number", number_format="0.00", width=10, label_id=SCORE),
        Column("ranked_points", points, typed=False, kind="number", number_format=points_format, width=9,
               label_id=POINTS),
        Column("ranked_currency", currency, typed=False, width=9, label_id=CURRENCY),
    ), first_col=results.first_col + results.width() + 1, room=room)


#: The results table's columns in the order of :func:`in_place_order`.
IN_PLACE_ORDER = (PLACE, UNIT, NAMES, SCORE, POINTS, CURRENCY)


def event_sheet(name: str, title: str, labels: tuple[str, str, str, str, str], points_format: str = "0.00",
                rows: int = 0, percent: bool = False) -> SheetSpec:
    """An event sheet named ``name`` with room for ``rows`` results (at least :data:`ROOM`)."""
    table = results_table(labels, points_format, max(rows, ROOM), percent)
    return SheetSpec("event", name, title=title, settings=SETTINGS,
                     tables=(table, in_place_order(labels, points_format, rows)), freeze=(table.first_row, 1),
                     print=Print("landscape", True, (HEADER_ROW, HEADER_ROW)))


#: The sheet as the reader sees it: the checked labels are Scheme (A3) and Place (D8).
READER = event_sheet("", "", ("", "", "", "", ""))

#: The headers of the unit, names, score, points and currency columns of each event
#: the builder makes (a label's words are looked up by its column id).
TBF_LABELS = ("Pair", "Players", "Score %", "MP", "Colour")
PAIRS_LABELS = ("Pair", "Players", "Score %", "Points", "Unit")
TEAMS_LABELS = ("Team", "Team name", "VP", "Points", "Unit")
#: The words of the awards' units (the TBF colours, the Swedish currencies), shown in
#: the workbook's language (context ``unit``).
UNIT_WORDS = ("green", "red", "yellow", "white", "gp", "sp", "bp")


def shown_unit(text: str) -> str:
    """An award's unit text (``"sp + 7 bp"``, ``"green"``) in the language spoken: each unit word translated."""
    return " ".join(text_of("unit", word) if word in UNIT_WORDS else word for word in text.split(" "))
