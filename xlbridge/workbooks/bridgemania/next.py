"""New tournament: the next tournament sheet of a BridgeMania season (:mod:`xlbridge.workbooks.nextsheet`).

What the scorer did by hand -- copy *Blank tournament*, rename it, add it to the
calendar on the Season sheet -- in one step: the sheet is written from the
declaration (:func:`~xlbridge.workbooks.bridgemania.declaration.tournament_sheet`,
:func:`~xlbridge.workbooks.bridgemania.declaration.layout`, the sections below the
pairs), so a change of the tournament layout flows in; it lists every base pair,
is named by the calendar's rule (the last id's number plus one: ``T14`` -> ``T15``;
none yet: ``T01``), and its row is added to the calendar (id, date, and the host
typed as *Next host* on the Participation sheet).

Standard library only: it runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

from xlbridge.language import _
from xlbridge.values import as_date, as_text
from xlbridge.workbooks.book import BookAdapter, Layout
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.bridgemania.read import SeasonPlaces, read_season
from xlbridge.workbooks.declare import COMPUTED_HEADER, INPUT, cell_ref, check_headers, merge_areas, rule_of
from xlbridge.workbooks.plan import Block, BookInputError, NextSheet, Plan, LocatedProblem, at
from xlbridge.workbooks.sheetnames import name_problem
from xlbridge.workbooks.localised import shown_name

__all__ = ["next_tournament", "next_id", "tournament_blocks", "WEEK", "FIRST_ID"]

WEEK = dt.timedelta(days=7)
FIRST_ID = "T01"


def next_id(ids: list[str]) -> str | None:
    """The id after the last one: its trailing number plus one, as wide (``None``: no number).

    >>> next_id(["T01", "T14"]), next_id([]), next_id(["A9"]), next_id(["Final"])
    ('T15', 'T01', 'A10', None)
    """
    if not ids:
        return FIRST_ID
    match = re.fullmatch(r"(.*?)(\d+)", ids[-1].strip())
    if match is None:
        return None
    return match[1] + str(int(match[2]) + 1).zfill(len(match[2]))


def next_tournament(book: BookAdapter, *, day: dt.date | None, name: str | None, today: dt.date,
                    taken: list[str] | None = None) -> NextSheet:
    """The next tournament sheet (``taken``: every sheet's name as the scorer sees it, chart sheets too)."""
    names = book.sheet_names()
    if d.SEASON not in names:
        raise BookInputError([at(d.SEASON, None, "bm.book.season-missing", "the season sheet is missing: a sheet "
                                 "named {sheet!r} with {title!r} in A1 (sheets: {sheets})", sheet=shown_name(d.SEASON),
                                 title=_(d.SEASON_TITLE), sheets=", ".join(map(shown_name, names)))])
    grid = book.read(d.SEASON)
    problems = check_headers((d.BASE, d.CALENDAR), grid, d.SEASON)
    where = SeasonPlaces()
    if not problems:
        base_pairs, _guests, _reference, calendar = read_season(grid, where, problems)
    if problems:
        raise BookInputError(problems)
    if not base_pairs:
        raise BookInputError([at(d.SEASON, d.BASE.cell("pair", d.BASE.first_row), "bm.next.no-base-pairs",
                                 "no base pairs yet: type one row per base pair (pair id, player 1, player 2), then "
                                 "add the tournament", field="pair")])
    ids = [tid for _row, tid in where.calendar]
    tid = (name or "").strip() or next_id(ids)
    if tid is None:
        raise BookInputError([at(d.SEASON, d.CALENDAR.cell("tournament", where.calendar[-1][0]), "bm.next.no-number",
                                 "the next tournament's name cannot follow from {last!r} (no number at its end): "
                                 "give the name of the new tournament", last=ids[-1])])
    own = name_problem(tid)  # a name Excel or xlbridge keeps (Messages is in every workbook): before "is there"
    if own is not None:
        raise BookInputError([LocatedProblem(d.SEASON, d.CALENDAR.cell("tournament", where.last_calendar_row + 1),
                                             own)])
    folded = tid.casefold()  # Excel tells sheet names apart without case
    sheet = next((n for n in names if folded in (n.casefold(), shown_name(n).casefold())), None)
    listed = next((t for t in ids if t.casefold() == folded), None)
    if sheet is not None or listed is not None:
        row = where.calendar_rows.get(listed, [None])[0] if listed is not None else None
        raise BookInputError([at(d.SEASON if row else sheet or tid,
                                 d.CALENDAR.cell("tournament", row) if row else None,
                                 "bm.next.exists", "a tournament {tournament!r} is already there (a sheet or a row "
                                 "of the calendar); nothing was added: give another name", tournament=tid)])
    problem = name_problem(tid, names if taken is None else taken)
    if problem is not None:
        raise BookInputError([LocatedProblem(d.SEASON, d.CALENDAR.cell("tournament", where.last_calendar_row + 1),
                                             problem)])
    dates = [(r, as_date(date)) for (r, _tid), (date, _host) in zip(where.calendar, calendar)]
    dated = [(day_, r) for r, day_ in dates if day_ is not None]
    last = max(dated) if dated else None
    day = day or (last[0] + WEEK if last else today)
    if last is not None and day <= last[0]:
        raise BookInputError([at(d.SEASON, d.CALENDAR.cell("date", last[1]), "bm.next.before-last", "tournament "
                                 "{tournament} on {day} is not after the last tournament ({last}); a new tournament "
                                 "comes after the last one", tournament=tid, day=day.isoformat(),
                                 last=last[0].isoformat())])
    host = as_text(d.NEXT_HOST.value(book.read(d.PARTICIPATION))) if d.PARTICIPATION in names else ""
    row = where.last_calendar_row + 1
    plan = Plan()
    plan.blocks.append(Block(d.SEASON, row, d.CALENDAR.first_col, [[tid, day, host or None]], what=d.SEASON,
                             audit=False))
    plan.layouts.append((d.SEASON, d.rows_look((d.CALENDAR, d.CALENDAR_RESULTS), row, 1)))
    pairs = [b.id for b in base_pairs]
    tournament_blocks(plan, tid, pairs)
    listed = [t for t in ids if t in names]
    return NextSheet("bridgemania", tid, day, listed[-1] if listed else d.SEASON,
                     (d.SEASON, cell_ref(row, d.CALENDAR.first_col)), len(pairs),
                     d.PAIRS.cell("pair", d.PAIRS.first_row), plan, recalculate=True)


def tournament_blocks(plan: Plan, tid: str, pairs: list[str], nboards: int = d.TEMPLATE_BOARDS) -> None:
    """A tournament sheet ``tid`` listing ``pairs``, written as the builder lays out the blank
    tournament: title, settings with their labels and notes, every table's header, the
    sections below the pairs, and the look (typed cells yellow, computed blue under green
    headers, input rules, widths, frozen panes, print setup)."""
    nrows = max(len(pairs) + 2, d.PAIRS.room)
    spec = d.tournament_sheet(nboards, tid, nrows)
    blocks = plan.blocks
    blocks.append(Block(tid, 1, 1, [[f"{_(d.TOURNAMENT_TITLE)} {tid}"]], what=tid, audit=False))
    for s in spec.settings:
        blocks.append(Block(tid, s.row, s.label_col, [[s.text(), None, _(s.note) if s.note else None]], what=tid,
                            audit=False))
    for table in spec.tables:
        blocks.append(Block(tid, table.header_row, table.first_col, [_header(table)], what=tid, audit=False))
    title = spec.table(d.RESULT.id).header_row - 1
    blocks.append(Block(tid, title, 1, [[_(d.RESULT_TITLE)]], what=tid, audit=False))
    main = spec.tables[0]
    if pairs:
        blocks.append(Block(tid, main.first_row, main.first_col, [[p] for p in pairs], what=tid, audit=False))
    look = d.layout(spec, nrows)
    computed_headers = [(t.header_row, t.first_col, 1, t.width()) for t in spec.tables
                        if not any(c.typed for c in t.columns)]
    titles, more, fills, rules = [(title, 1)], [], [], []
    row = d.sections_row(nrows)
    for section in d.SECTIONS:
        table = section.at(row, nboards)
        blocks.append(Block(tid, row, 1, [[_(section.title), None, _(section.help)]], what=tid, audit=False))
        blocks.append(Block(tid, table.header_row, table.first_col, [_header(table)], what=tid, audit=False))
        titles.append((row, 1))
        more.append((table.header_row, table.first_col, 1, table.width()))
        size = section.min_rows
        fills.append(((table.first_row, 1, size, section.typed_cols(nboards)), INPUT))
        for offset, column in enumerate(table.columns):
            rule = rule_of(column) if column.typed else None
            if rule is not None:
                rules.append(((table.first_row, table.first_col + offset, size, 1), rule))
        row += 2 + size + 1
    plan.layouts.append((tid, replace(look, more_headers=tuple(a for a in look.more_headers if a not in computed_headers)
                                      + tuple(more), fills=look.fills + tuple(merge_areas(fills)),
                                      rules=look.rules + tuple(rules), titles=tuple(titles),
                                      bold=tuple((s.row, s.label_col) for s in spec.settings))))
    if computed_headers:
        plan.layouts.append((tid, Layout(more_headers=tuple(computed_headers), header_fill=COMPUTED_HEADER)))


def _header(table) -> list:
    """A table's header row as the builder writes it: board columns headed by their number."""
    return [int(c.text()) if c.kind == "board" else (c.text() or None) for c in table.columns]
