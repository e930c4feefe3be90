"""Event sheets: one event's results and its masterpoint awards, for any scheme.

An *event sheet* is how a club scorer awards masterpoints in a workbook (the TBF
club tournament, the Swedish bronze/silver/team events).  Its layout:

    A1      title
    A3/B3   Scheme   (e.g. tr.club, se.silver.pairs)          typed
    A4/B4   Boards                                            typed (may be empty)
    A5/B5   Options  (e.g. "met=30")                          typed
    A6/B6   Event    (a description)                          typed
    row 8   headers: unit | names | score | Place | points | unit
    row 9+  one row per pair/team/player: number, names, score typed;
            Place, points and unit computed (columns D, E, F)

A workbook may hold any number of event sheets; every one of them is
recalculated.  Places come from the scores (highest first, equal scores tie).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xlbridge.rules import awards, parse_options
from xlbridge.rules.base import RuleError
from xlbridge.workbooks.book import BookAdapter, Grid, as_number, cell
from xlbridge.workbooks.plan import Block, BookInputError, Plan, Problem, cell_name

if TYPE_CHECKING:  # openpyxl is the builders' (never imported on the Excel path)
    from openpyxl import Workbook

FIRST_ROW = 9
HEADER_ROW = 8
COMPUTED_COL = 4  # D: Place, E: points, F: unit


def ranks_by_score(scores: list[float | None]) -> list[int | None]:
    """Competition places, highest score first; None stays unranked.

    >>> ranks_by_score([50.0, 61.5, 50.0, None, 40.2])
    [2, 1, 2, None, 4]
    """
    present = [s for s in scores if s is not None]
    return [None if s is None else 1 + sum(o > s for o in present) for s in scores]


def is_event_sheet(grid: Grid) -> bool:
    """Laid out as an event sheet: ``Scheme`` in A3 or ``Place`` in D8 (one of the
    two is enough, so that a renamed label is reported instead of skipped)."""
    return cell(grid, 3, 1) == "Scheme" or cell(grid, HEADER_ROW, COMPUTED_COL) == "Place"


class EventSheets:
    """Every event sheet of a workbook (``xlbridge new tbf-club`` / ``se-masterpoints``)."""

    name = "event awards"

    def recognises(self, book: BookAdapter) -> bool:
        return any(is_event_sheet(book.read(sheet)) for sheet in book.sheet_names())

    def plan(self, book: BookAdapter) -> Plan:
        plan = Plan()
        problems: list[Problem] = []
        for sheet in book.sheet_names():
            grid = book.read(sheet)
            if is_event_sheet(grid):
                try:
                    plan.blocks.extend(self._sheet(sheet, grid))
                except BookInputError as error:
                    problems.extend(error.problems)
        if problems:
            raise BookInputError(problems)
        return plan

    def _sheet(self, sheet: str, grid: Grid) -> list[Block]:
        problems: list[Problem] = []
        if cell(grid, 3, 1) != "Scheme":
            problems.append(Problem(sheet, "A3", f"expected the label Scheme (the scheme id goes in B3); found {cell(grid, 3, 1)!r}"))
        if cell(grid, HEADER_ROW, COMPUTED_COL) != "Place":
            problems.append(Problem(sheet, "D8", "expected the header Place: columns D, E and F are computed "
                                                 f"(Place, points, unit); found {cell(grid, HEADER_ROW, COMPUTED_COL)!r}"))
        if problems:
            raise BookInputError(problems)
        scheme = cell(grid, 3, 2)
        if not isinstance(scheme, str) or not scheme.strip():
            problems.append(Problem(sheet, "B3", "the scheme is empty (e.g. tr.club; xlbridge schemes lists them)"))
        options: dict[str, Any] = {}
        boards = cell(grid, 4, 2)
        if boards is not None:
            number = as_number(boards)
            if number is None:
                problems.append(Problem(sheet, "B4", f"boards {boards!r} is not a number"))
            else:
                options["boards"] = int(number) if number == int(number) else number
        text = cell(grid, 5, 2)
        if text is not None:
            try:
                options.update(parse_options(str(text)))
            except RuleError as error:
                problems.append(Problem(sheet, "B5", str(error)))

        label = cell(grid, HEADER_ROW, 1) or "unit"
        units, scores = [], []
        for row in range(FIRST_ROW, len(grid) + 1):
            unit, score = cell(grid, row, 1), cell(grid, row, 3)
            if unit is None and score is None:
                units.append("")
                scores.append(None)
                continue
            units.append(str(unit if unit is not None else ""))
            number = as_number(score)
            if score is None:
                problems.append(Problem(sheet, cell_name(row, 3), f"{label} {unit}: the score is empty"))
            elif number is None:
                problems.append(Problem(sheet, cell_name(row, 3), f"score {score!r} is not a number"))
            elif number < 0:
                problems.append(Problem(sheet, cell_name(row, 3), f"score {score!r} is negative"))
            scores.append(number)
        if problems:
            raise BookInputError(problems)
        placed = [i for i, s in enumerate(scores) if s is not None]
        values: Grid = [[None, None, None] for _ in scores]
        if placed:
            ranks = ranks_by_score([scores[i] for i in placed])
            try:
                result = awards(str(scheme), ranks, **options)
            except RuleError as error:
                raise BookInputError([Problem(sheet, _settings_cell(str(error)), str(error))]) from None
            for i, rank, a in zip(placed, ranks, result):
                values[i] = [rank, a.points, a.unit]
        if not values:
            return []
        headers = [cell(grid, HEADER_ROW, COMPUTED_COL + k) or "" for k in range(3)]
        return [Block(sheet, FIRST_ROW, COMPUTED_COL, values, what=sheet, rows=units, columns=headers)]


def _settings_cell(message: str) -> str:
    """The settings cell an engine message is about: B4 (boards), B5 (options) or B3 (scheme).

    >>> _settings_cell("tr.club has no option 'bords'; its options: scale, boards")
    'B5'
    >>> _settings_cell("tr.club option boards must be a number; got 'x'"), _settings_cell("tr.club needs at least 3 tables; got 2.5")
    ('B4', 'B3')
    >>> _settings_cell("se.bronze.pairs needs at least 18 boards; got 6"), _settings_cell("se.silver.pairs option met must be 0..59")
    ('B4', 'B5')
    """
    if "has no option" in message:
        return "B5"
    if "boards" in message:
        return "B4"
    if " option " in message:
        return "B5"
    return "B3"


# ------------------------------------------------------------------ builders


def event_sheet(ws, *, title: str, scheme: str, boards: int | None, options: str, event: str,
                headers: list[str], rows: list[tuple[Any, str, float]], points_format: str) -> None:
    """Lay out one event sheet (typed part only) and compute its awards once."""
    from openpyxl.styles import Font

    from xlbridge.workbooks.style import INPUT_FILL, TITLE_FONT, style_header

    ws["A1"] = title
    ws["A1"].font = TITLE_FONT
    for offset, (label, value) in enumerate((("Scheme", scheme), ("Boards", boards), ("Options", options or None),
                                             ("Event", event or None))):
        ws.cell(row=3 + offset, column=1, value=label).font = Font(bold=True)
        ws.cell(row=3 + offset, column=2, value=value).fill = INPUT_FILL
    style_header(ws, HEADER_ROW, headers, [7, 34, 10, 8, 9, 9])
    ws.freeze_panes = ws.cell(row=FIRST_ROW, column=1)
    if not rows:
        return
    ranks = ranks_by_score([score for _, _, score in rows])
    kwargs: dict[str, Any] = parse_options(options) if options else {}
    if boards is not None:
        kwargs["boards"] = boards
    result = awards(scheme, ranks, **kwargs)
    for r, ((unit, names, score), rank, a) in enumerate(zip(rows, ranks, result), start=FIRST_ROW):
        ws.cell(row=r, column=1, value=unit).fill = INPUT_FILL
        ws.cell(row=r, column=2, value=names).fill = INPUT_FILL
        typed = ws.cell(row=r, column=3, value=score)
        typed.number_format, typed.fill = "0.00", INPUT_FILL
        ws.cell(row=r, column=4, value=rank)
        ws.cell(row=r, column=5, value=a.points).number_format = points_format
        ws.cell(row=r, column=6, value=a.unit)


def how_to_sheet(wb: Workbook, lines: list[str]) -> None:
    from xlbridge.workbooks.style import write_lines
    from xlbridge.workbooks.style import TITLE_FONT

    ws = wb.create_sheet("How to")
    write_lines(ws, lines)
    ws["A1"].font = TITLE_FONT
    ws.column_dimensions["A"].width = 100


def tbf_club(blank: bool = False) -> Workbook:
    """A TBF club pairs tournament (``xlbridge new tbf-club``)."""
    from openpyxl import Workbook

    from xlbridge.examples import TBF_CLUB, tbf_club_results

    wb = Workbook()
    rows = [] if blank else [(e.pair, e.players, e.score) for e in tbf_club_results()]
    event_sheet(wb.active, title="TBF club tournament — masterpoints (TBF Masterpoint v2.0)",
                scheme=TBF_CLUB["scheme"], boards=None if blank else TBF_CLUB["boards"], options="",
                event="" if blank else "Club pairs, Howell (synthetic example)",
                headers=["Pair", "Players", "Score %", "Place", "MP", "Colour"], rows=rows, points_format="0.00")
    wb.active.title = "Tournament"
    how_to_sheet(wb, [
        "How to use this workbook",
        "",
        "1. Type the scheme, the boards and any options in the yellow cells of the Tournament sheet.",
        "2. Type one row per pair: pair number, players, score in percent.",
        "3. Place, MP and Colour are computed by xlbridge: click Recalculate season (or run xlbridge recalc FILE).",
        "",
        "Worksheet functions (with the xlbridge add-in):",
        '=AWARD("tr.club", 1, 26, "boards=24")  ->  0.62',
        '=AWARD_UNIT("tr.club", 1, 26)  ->  green',
        '=AWARDS("tr.club", D9:D28, "boards=26")  ->  two columns: MP and colour for every place',
        "=TBF_MASTERY(yellow, red, green, white)  ->  mastery points (ustalık puanı)",
        "=TBF_TITLE(mastery, yellow)  ->  the Tablo-5 title",
        "",
        "MP are kept to 4 decimals and shown with 2 (TBF Masterpoint v2.0, section 13).",
    ])
    return wb


SE_NAMES = [
    "Anna Berg - Erik Lund", "Karin Holm - Lars Ek", "Maria Sjöberg - Per Nyström", "Eva Dahl - Johan Ström",
    "Sara Lindqvist - Nils Berglund", "Lena Åberg - Olof Hedlund", "Ingrid Wallin - Gustav Falk",
    "Britt Sandberg - Mats Engström", "Ulla Forsberg - Anders Borg", "Kerstin Blom - Stefan Björk",
    "Birgitta Lundin - Henrik Sundberg", "Margareta Holmberg - Jan Nordin", "Elisabeth Ek - Bengt Öberg",
    "Agneta Fransson - Lennart Isaksson",
]


def _scores(count: int, top: float, step: float, ties: tuple[int, ...] = ()) -> list[float]:
    """Deterministic descending scores; positions in ``ties`` repeat the score above."""
    out: list[float] = []
    for i in range(count):
        out.append(out[-1] if i in ties else round(top - i * step - (i % 3) * 0.17, 2))
    return out


def se_masterpoints(blank: bool = False) -> Workbook:
    """Swedish events (``xlbridge new se-masterpoints``): an evening's bronze pairs,
    a silver pairs event where each pair met 30 of 60, a team barometer."""
    from openpyxl import Workbook

    wb = Workbook()
    events = [
        ("Bronze pairs", "Club evening — bronze pairs (Svenska Mästarpoäng 2009, table A1)", "se.bronze.pairs", 24, "",
         "Club evening, 14 pairs (synthetic example)", ["Pair", "Players", "Score %", "Place", "Points", "Unit"],
         [(n, SE_NAMES[n - 1], s) for n, s in zip(range(1, 15), _scores(14, 63.5, 1.9, ties=(4,)))]),
        ("Silver pairs", "Silver pairs — 60 pairs, each met 30 (table D, page 12)", "se.silver.pairs", 60, "met=30",
         "Open silver pairs, Monrad, 60 pairs (synthetic example)", ["Pair", "Players", "Score %", "Place", "Points", "Unit"],
         [(n, f"Pair {n}", s) for n, s in zip(range(1, 61), _scores(60, 64.8, 0.48))]),
        ("Team barometer", "Team barometer — bronze (table B1)", "se.bronze.team-barometer", 28, "",
         "Club team barometer, 12 teams (synthetic example)", ["Team", "Team name", "VP", "Place", "Points", "Unit"],
         [(n, f"Team {n}", s) for n, s in zip(range(1, 13), _scores(12, 151.0, 6.5))]),
    ]
    for index, (title, heading, scheme, boards, options, event, headers, rows) in enumerate(events):
        ws = wb.active if index == 0 else wb.create_sheet()
        ws.title = title
        event_sheet(ws, title=heading, scheme=scheme, boards=None if blank else boards, options="" if blank else options,
                    event="" if blank else event, headers=headers, rows=[] if blank else rows, points_format="0")
    how_to_sheet(wb, [
        "How to use this workbook (Svenska Mästarpoäng 2009)",
        "",
        "Each event sheet: type the scheme (xlbridge schemes lists every se. scheme), the boards, options such as",
        "met=30 (pairs met when not all met all), and one row per pair/team with its score. Place, Points and Unit",
        "are computed by xlbridge: click Recalculate season (or run xlbridge recalc FILE).",
        "Copy a sheet to add an event; every sheet laid out like this is recalculated.",
        "",
        "Worksheet functions (with the xlbridge add-in):",
        '=AWARD("se.silver.pairs", 1, 60, "met=30; boards=60")  ->  46',
        '=AWARD_UNIT("se.silver.pairs", 13, 60, "met=30")  ->  bp',
        "=SE_CLASS(gp, sp, bp)  ->  the master class with its stars, e.g. Rutermästare",
        "=SE_RANKING(points, units, events, dates, [as of])  ->  ranking points: 18 best results within 24 months",
    ])
    return wb
