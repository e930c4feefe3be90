"""Building event-sheet workbooks: the TBF club tournament and the Swedish events
(``xlbridge new tbf-club`` / ``se-masterpoints``).  Everything on a sheet follows
from its declaration (:mod:`.declaration`); openpyxl is imported here only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xlbridge.language import N_, _
from xlbridge.rules import awards, parse_options
from xlbridge.workbooks.events.declaration import (BOARDS, EVENT, HEADER_ROW, OPTIONS, PAIRS_LABELS, SCHEME, TBF_LABELS,
                                                   TEAMS_LABELS, shown_unit)
from xlbridge.workbooks.events.declaration import event_sheet as spec_of
from xlbridge.workbooks.events.kind import ranks_by_score
from xlbridge.workbooks.plan import Block

if TYPE_CHECKING:
    from openpyxl import Workbook


def event_sheet(wb: Workbook, ws, *, title: str, scheme: str, boards: int | None, options: str, event: str,
                labels: tuple[str, str, str, str, str], rows: list[tuple[Any, str, float]], points_format: str,
                percent: bool = False) -> None:
    """Lay out one event sheet and compute its awards once (``labels``: the unit, names,
    score, points and currency headers; the words in the language spoken; ``percent``:
    the score is a percentage)."""
    from xlbridge.workbooks.style import font

    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook

    spec = spec_of(ws.title, title, labels, points_format, len(rows), percent)
    book = OpenpyxlBook(wb)
    ws["A1"] = _(title)
    values = {SCHEME: scheme, BOARDS: boards, OPTIONS: options or None, EVENT: _(event) if event else None}
    for setting in spec.settings:
        ws.cell(row=setting.row, column=setting.label_col, value=setting.text()).font = font(bold=True)
        ws.cell(row=setting.row, column=setting.col, value=values[setting.id])
    table = spec.table("results")
    book.write(ws.title, HEADER_ROW, table.first_col, [table.headers()])
    book.lay_out(ws.title, spec.layout(len(rows)))
    if rows:
        _awards(book, ws.title, table, scheme, boards, options, rows)
    # the results in place order right of them, as a recalculation writes them
    book.write(ws.title, *_in_place_order(book, ws.title))


def _in_place_order(book: Any, sheet: str) -> tuple[int, int, list[list[Any]]]:
    from xlbridge.workbooks.events.kind import in_place_order

    grid = book.read(sheet)
    table = spec_of(sheet, "", ("", "", "", "", "")).table("results")
    computed = [Block(sheet, table.first_row, table.col("place"),
                      [grid[r - 1][table.col("place") - 1:table.col("place") + 2] for r in range(table.first_row, len(grid) + 1)])]
    block = in_place_order(sheet, grid, computed)
    return block.row, block.col, block.values


def _awards(book: Any, sheet: str, table: Any, scheme: str, boards: int | None, options: str,
            rows: list[tuple[Any, str, float]]) -> None:
    ranks = ranks_by_score([score for _, _, score in rows])
    kwargs: dict[str, Any] = parse_options(options) if options else {}
    if boards is not None:
        kwargs["boards"] = boards
    result = awards(scheme, ranks, **kwargs)
    book.write(sheet, table.first_row, table.first_col,
               [[unit, names, score, rank, a.points, shown_unit(a.unit_text)]
                for (unit, names, score), rank, a in zip(rows, ranks, result)])


HOW_TO_WIDTH = 100


def how_to_sheet(wb: Workbook, lines: list[str]) -> None:
    from xlbridge.workbooks.style import how_to

    from xlbridge.workbooks.events.declaration import HOW_TO

    how_to(wb.create_sheet(HOW_TO), lines, HOW_TO_WIDTH)


def tbf_club(blank: bool = False) -> Workbook:
    """A TBF club pairs tournament (``xlbridge new tbf-club``)."""
    from openpyxl import Workbook

    from xlbridge.examples import TBF_CLUB, tbf_club_results

    wb = Workbook()
    rows = [] if blank else [(e.pair, e.players, e.score) for e in tbf_club_results()]
    event_sheet(wb, wb.active, title=N_("TBF club tournament — masterpoints (TBF Masterpoint v2.0)"),
                scheme=TBF_CLUB["scheme"], boards=None if blank else TBF_CLUB["boards"], options="",
                event="" if blank else N_("Club pairs, Howell (synthetic example)"),
                labels=TBF_LABELS, rows=rows, points_format="0.00", percent=True)
    wb.active.title = _(N_("Tournament"))
    how_to_sheet(wb, [
        N_("How to use this workbook"),
        "",
        N_("1. Type the scheme, the boards and any options in the yellow cells of the Tournament sheet."),
        N_("2. Type one row per pair: pair number, players, score in percent."),
        N_("3. Place, MP and Colour are computed by xlbridge: click Recalculate season (or run xlbridge recalc FILE)."),
        "",
        N_("Worksheet functions (with the xlbridge add-in):"),
        '=AWARD("tr.club", 1, 26, "boards=24")  ->  0.62',
        '=AWARD_UNIT("tr.club", 1, 26)  ->  green',
        N_('=AWARDS("tr.club", D9:D28, "boards=26")  ->  two columns: MP and colour for every place'),
        N_("=TBF_MASTERY(yellow, red, green, white)  ->  mastery points (ustalık puanı)"),
        N_("=TBF_TITLE(mastery, yellow)  ->  the Tablo-5 title"),
        "",
        N_("MP are kept to 4 decimals and shown with 2 (TBF Masterpoint v2.0, section 13)."),
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
        (N_("Bronze pairs"), N_("Club evening — bronze pairs (Svenska Mästarpoäng 2009, table A1)"), "se.bronze.pairs", 24,
         "", N_("Club evening, 14 pairs (synthetic example)"), PAIRS_LABELS,
         [(n, SE_NAMES[n - 1], s) for n, s in zip(range(1, 15), _scores(14, 63.5, 1.9, ties=(4,)))], True),
        (N_("Silver pairs"), N_("Silver pairs — 60 pairs, each met 30 (table D, page 12)"), "se.silver.pairs", 60,
         "met=30", N_("Open silver pairs, Monrad, 60 pairs (synthetic example)"), PAIRS_LABELS,
         [(n, f"Pair {n}", s) for n, s in zip(range(1, 61), _scores(60, 64.8, 0.48))], True),
        (N_("Team barometer"), N_("Team barometer — bronze (table B1)"), "se.bronze.team-barometer", 28, "",
         N_("Club team barometer, 12 teams (synthetic example)"), TEAMS_LABELS,
         [(n, f"Team {n}", s) for n, s in zip(range(1, 13), _scores(12, 151.0, 6.5))], False),
    ]
    for index, (title, heading, scheme, boards, options, event, labels, rows, percent) in enumerate(events):
        ws = wb.active if index == 0 else wb.create_sheet()
        ws.title = _(title)
        event_sheet(wb, ws, title=heading, scheme=scheme, boards=None if blank else boards, options="" if blank else options,
                    event="" if blank else event, labels=labels, rows=[] if blank else rows, points_format="0",
                    percent=percent)
    how_to_sheet(wb, [
        N_("How to use this workbook (Svenska Mästarpoäng 2009)"),
        "",
        N_("Each event sheet: type the scheme (xlbridge schemes lists every se. scheme), the boards, options such as"),
        N_("met=30 (pairs met when not all met all), and one row per pair/team with its score. Place, Points and Unit"),
        N_("are computed by xlbridge: click Recalculate season (or run xlbridge recalc FILE)."),
        N_("Copy a sheet to add an event; every sheet laid out like this is recalculated."),
        "",
        N_("Worksheet functions (with the xlbridge add-in):"),
        '=AWARD("se.silver.pairs", 1, 60, "met=30; boards=60")  ->  46',
        '=AWARD_UNIT("se.silver.pairs", 13, 60, "met=30")  ->  bp',
        N_("=SE_CLASS(gp, sp, bp)  ->  the master class with its stars, e.g. Rutermästare"),
        N_("=SE_RANKING(points, units, events, dates, [as of])  ->  ranking points: 18 best results within 24 months"),
    ])
    return wb
