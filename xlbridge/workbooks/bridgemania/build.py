"""The builder of the BridgeMania season workbook (``xlbridge new bridgemania PATH [--blank]``).

Every sheet is laid out from the declaration
(:mod:`~xlbridge.workbooks.bridgemania.declaration`): titles, settings, headers
(typed blue, computed green), typed cells yellow, computed cells blue with their
number formats, widths and frozen panes; the demo season is then typed in as a
scorer would.  The computed cells stay empty: :func:`xlbridge.excel.shipped.built`
recalculates the workbook once, as ``xlbridge recalc`` does.

openpyxl is imported inside the functions, and this module is not part of the
xlwings Lite bundle (the recalculation never needs it).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from xlbridge.language import N_, _
from xlbridge.clubs import bridgemania as bm
from xlbridge.workbooks import bridgemania
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.declare import (
    COMPUTED,
    COMPUTED_HEADER,
    HEADER,
    HEADER_TEXT,
    INPUT,
    Column,
    Setting,
    SheetSpec,
    Table,
    rule_of,
    text_column_width,
)
from xlbridge.workbooks.style import WRAPPED, fit_caption, fit_rows, how_to

__all__ = ["bridgemania_workbook", "build_workbook", "season_workbook", "HOW_TO_LINES", "LANGUAGE"]

LANGUAGE = bridgemania.LANGUAGE  # the championship's


def bridgemania_workbook(blank: bool = False, language: str = LANGUAGE):
    """The BridgeMania season workbook in ``language``: the demo season as typed (its computed cells empty until
    recalculated), or a blank template."""
    from xlbridge.workbooks.localised import built_in

    return built_in(build_workbook, language, blank)


def build_workbook(blank: bool = False):
    """The BridgeMania season workbook in the language spoken, its sheets under their English names
    (:func:`~xlbridge.workbooks.localised.built_in` names them)."""
    if blank:
        return season_workbook(None)
    from xlbridge.clubs.bridgemania.demo import demo_season

    season = demo_season()
    # the next tournament of the demo's rotation of hosts, with 8 base pairs
    return season_workbook(season, next_host=season.reference[len(season.tournaments) % len(season.reference)],
                           capacity=8)


def season_workbook(season: bm.Season | None, next_host: str | None = None, capacity: int | None = None):
    """A workbook holding ``season`` as a scorer would type it, not yet recalculated (``None``: a blank template)."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = d.SEASON
    _build_season(ws, season)
    if season is not None:
        for t in season.tournaments:
            _build_tournament(wb.create_sheet(t.id), season, t)
    _build_tournament(wb.create_sheet(d.BLANK_TOURNAMENT), season, None)
    _build_championship(wb.create_sheet(d.CHAMPIONSHIP), season)
    _build_chart(wb.create_sheet(d.CHART), season)
    _build_participation(wb.create_sheet(d.PARTICIPATION), season)
    participation = wb[d.PARTICIPATION]
    participation[d.NEXT_HOST.cell], participation[d.CAPACITY.cell] = next_host, capacity
    how_to(wb.create_sheet(d.HOW_TO), HOW_TO_LINES, d.HOW_TO_WIDTH)
    for sheet in wb.worksheets:  # (the headers the builder wrote: a row as tall as their lines)
        fit_rows(sheet)
    return wb


# ------------------------------------------------------------------ the look, from the declaration


class _Style:
    """The openpyxl objects of the house style (made once per workbook)."""

    def __init__(self) -> None:
        from openpyxl.styles import Alignment, PatternFill
        from xlbridge.workbooks.style import TITLE_FONT, font

        def fill(colour: str) -> PatternFill:
            rgb = "FF" + colour.lstrip("#")
            return PatternFill("solid", start_color=rgb, end_color=rgb)

        self.typed_header, self.computed_header = fill(HEADER), fill(COMPUTED_HEADER)
        self.input, self.computed = fill(INPUT), fill(COMPUTED)
        self.header_font = font(bold=True, color="FF" + HEADER_TEXT.lstrip("#"))
        self.title, self.bold = TITLE_FONT, font(bold=True)
        self.center = Alignment(horizontal="center", vertical="center", wrap_text=True)


_STYLE: list[_Style] = []


def _style() -> _Style:
    if not _STYLE:
        _STYLE.append(_Style())
    return _STYLE[0]


def _header(ws, table: Table) -> None:
    """The header row of ``table``: its labels (board columns headed by their number), blue or green."""
    st = _style()
    for offset, column in enumerate(table.columns):
        text = column.text()
        value = int(text) if column.kind == "board" else (text or None)
        cell = ws.cell(row=table.header_row, column=table.first_col + offset, value=value)
        cell.fill = st.typed_header if column.typed else st.computed_header
        cell.font, cell.alignment = st.header_font, st.center


def _cells(ws, table: Table, rows: int, typed_cols: int | None = None) -> None:
    """``rows`` rows under the header: typed cells yellow, computed cells blue, with the columns' number
    formats (``typed_cols``: the typed area is that wide, whatever the columns)."""
    st = _style()
    columns = list(table.columns)
    if typed_cols is not None:
        columns = [columns[min(i, len(columns) - 1)] for i in range(typed_cols)]
    for r in range(table.first_row, table.first_row + rows):
        for offset, column in enumerate(columns):
            cell = ws.cell(row=r, column=table.first_col + offset)
            if column.typed:
                cell.fill = st.input
                if column.number_format != "General":
                    cell.number_format = column.number_format
            else:
                cell.fill = st.computed
                cell.number_format = column.number_format
            if column.wrap:  # a sentence: its row as tall as its lines
                cell.alignment = WRAPPED
    _rules(ws, [(table.first_row, table.first_col + offset, rows, column) for offset, column in enumerate(columns)])


def _rules(ws, where: Sequence[tuple[int, int, int, Column | Setting]]) -> None:
    """The input rules (drop-downs, whole numbers) of typed columns and settings at (row, col, rows)."""
    from xlbridge.workbooks.openpyxl_book import add_rule

    for row, col, rows, item in where:
        rule = rule_of(item) if rows and getattr(item, "typed", True) else None
        if rule is not None:
            add_rule(ws, (row, col, rows, 1), rule)


def _width(ws, col: int, width: float) -> None:
    from openpyxl.utils import get_column_letter

    ws.column_dimensions[get_column_letter(col)].width = width


def _widths(ws, spec: SheetSpec) -> None:
    """The declaration's column widths (:meth:`~xlbridge.workbooks.declare.SheetSpec.column_widths`: the
    tables', wide enough for their headers and settings in the workbook's language, and the gaps)."""
    for col, width in enumerate(spec.column_widths(), start=1):
        _width(ws, col, width)


def _title(ws, text: str) -> None:
    ws["A1"] = text
    ws["A1"].font = _style().title


def _freeze(ws, spec: SheetSpec) -> None:
    assert spec.freeze is not None
    ws.freeze_panes = ws.cell(row=spec.freeze[0], column=spec.freeze[1])


# ------------------------------------------------------------------ the sheets


def _build_season(ws, season: bm.Season | None) -> None:
    st, spec = _style(), d.SEASON_SHEET
    _title(ws, _(d.SEASON_TITLE))
    name = spec.setting("name")
    ws.cell(row=name.row, column=name.label_col, value=name.text()).font = st.bold
    ws.cell(row=name.row, column=name.col, value=season.name if season else None).fill = st.input
    _rules(ws, [(s.row, s.col, 1, s) for s in spec.settings])
    for t in spec.tables:
        ws.cell(row=d.CAPTION_ROW, column=t.first_col, value=_(d.SEASON_CAPTIONS[t.id])).font = st.bold
        _header(ws, t)
    _widths(ws, spec)
    for t in spec.tables:
        fit_caption(ws, d.CAPTION_ROW, t.first_col, t.width())
    _freeze(ws, spec)
    rows = {d.BASE.id: max(d.BASE.room, len(season.base_pairs) if season else 0),
            d.GUESTS.id: max(d.GUESTS.room, len(season.guests) if season else 0),
            d.CALENDAR.id: max(d.CALENDAR.room, len(season.tournaments) if season else 0)}
    rows[d.CALENDAR_RESULTS.id] = rows[d.CALENDAR.id]
    for t in spec.tables:
        _cells(ws, t, rows[t.id])
    if season is None:
        return
    lot = {pid: i for i, pid in enumerate(season.reference, start=1)}
    for r, b in enumerate(season.base_pairs, start=d.BASE.first_row):
        for column, value in zip(d.BASE.columns, (b.id, b.players[0], b.players[1], b.name, lot.get(b.id))):
            ws.cell(row=r, column=d.BASE.col(column.id), value=value)
    for r, g in enumerate(season.guests, start=d.GUESTS.first_row):
        ws.cell(row=r, column=d.GUESTS.col("guest"), value=g.id)
        ws.cell(row=r, column=d.GUESTS.col("name"), value=g.name)
    for r, t in enumerate(season.tournaments, start=d.CALENDAR.first_row):
        ws.cell(row=r, column=d.CALENDAR.col("tournament"), value=t.id)
        ws.cell(row=r, column=d.CALENDAR.col("date"), value=dt.datetime.fromisoformat(t.date) if t.date else None)
        ws.cell(row=r, column=d.CALENDAR.col("host"), value=t.host)


def _pair_rows(season: bm.Season | None, t: bm.Tournament | None) -> list[tuple[str, Any, Any, Sequence[Any]]]:
    """The pairs of a tournament sheet: every base pair (its scores, or its status), temporary pairs, guests."""
    if season is None:
        return []
    if t is None:
        return [(b.id, None, None, ()) for b in season.base_pairs]
    rows: list[tuple[str, Any, Any, Sequence[Any]]] = []
    split_base = {b.id for b in season.base_pairs
                  if any(p in members for members in t.splits.values() for p in b.players)}
    for b in season.base_pairs:
        if b.id in t.scores:
            rows.append((b.id, None, None, t.scores[b.id]))
        elif b.id in split_base:
            rows.append((b.id, "split", None, ()))
        else:
            rows.append((b.id, t.status.get(b.id), None, ()))
    for temp, members in t.splits.items():
        rows.append((temp, None, " / ".join(members), t.scores[temp]))
    for entry, scores in t.scores.items():
        if entry not in {r[0] for r in rows}:
            rows.append((entry, None, None, scores))
    return rows


def _build_tournament(ws, season: bm.Season | None, t: bm.Tournament | None) -> None:
    st = _style()
    nboards = len(next(iter(t.scores.values()))) if t else d.TEMPLATE_BOARDS
    rows = _pair_rows(season, t)
    nrows = max(len(rows) + 2, d.PAIRS.room)
    spec = d.tournament_sheet(nboards, t.id if t else d.BLANK_TOURNAMENT, nrows)
    pairs, boards, result, results = spec.tables
    _title(ws, f"{_(d.TOURNAMENT_TITLE)} {t.id}" if t else _("{title} (copy this sheet, rename it as the tournament "
                                                           "and add it to the list on the Season sheet)").format(
        title=_(d.TOURNAMENT_TITLE)))
    values = {d.MOVEMENT.id: t.movement if t else None, d.TOP.id: t.top if t else None,
              d.COUNTS.id: d.COUNTS.choices()[0 if t.championship else 1] if t else None,
              d.EXTRA.id: ", ".join(t.top_hand) if t and t.top_hand else None}
    for s in spec.settings:
        ws.cell(row=s.row, column=s.label_col, value=s.text()).font = st.bold
        ws.cell(row=s.row, column=s.col, value=values[s.id]).fill = st.input
    for s in spec.settings:
        ws.cell(row=s.row, column=s.col + 1, value=_(s.note) if s.note else None)
    _rules(ws, [(s.row, s.col, 1, s) for s in spec.settings])
    for table in spec.tables:
        _header(ws, table)
    ws.cell(row=result.header_row - 1, column=1, value=_(d.RESULT_TITLE)).font = st.title
    _widths(ws, spec)
    _freeze(ws, spec)
    for table in spec.tables:
        _cells(ws, table, nrows)
    from xlbridge.workbooks.openpyxl_book import print_setup

    print_setup(ws, spec.layout(nrows))  # the sorted result prints: portrait, one page wide
    for r, (pair, word, players, scores) in enumerate(rows, start=pairs.first_row):
        if word in d.PAIRS.column("status").allowed:  # the word of the workbook's language
            word = d.PAIRS.column("status").choices()[d.PAIRS.column("status").allowed.index(word)]
        for column, value in zip(("pair", "status", "players"), (pair, word, players)):
            ws.cell(row=r, column=pairs.col(column), value=value)
        for b, value in enumerate(scores, start=1):
            ws.cell(row=r, column=boards.first_col + b - 1, value=value)
    _build_sections(ws, t, d.sections_row(nrows), nboards)


def _section_lines(t: bm.Tournament | None) -> dict[str, list[list[Any]]]:
    lines: dict[str, list[list[Any]]] = {s.id: [] for s in d.SECTIONS}
    if t is None:
        return lines
    for penalty in t.penalties:
        for guilty in penalty.pairs:
            lines[d.PENALTIES.id].append([guilty, _board_of(penalty.note), penalty.note])
    for rect in t.rectifications:
        kind = d.RECTIFICATIONS.table.column("kind")  # the word of the workbook's language
        lines[d.RECTIFICATIONS.id].append([rect.board, kind.choices()[kind.allowed.index(rect.kind)] if rect.kind in
                                           kind.allowed else rect.kind, ", ".join(rect.row) or None,
                                           ", ".join(rect.ns) or None])
    for entry, hands in t.hand_scores.items():  # under the pairs' board columns
        lines[d.BRIDGE_SCORES.id].append([entry, *[None] * (d.FIRST_BOARD_COL - 2), *hands])
    return lines


def _build_sections(ws, t: bm.Tournament | None, row: int, nboards: int) -> None:
    """Penalties, Rectifications, Bridge scores below the pairs, each under its title."""
    st = _style()
    lines = _section_lines(t)
    for section in d.SECTIONS:
        ws.cell(row=row, column=1, value=_(section.title)).font = st.title
        ws.cell(row=row, column=3, value=_(section.help))
        table = section.at(row, nboards)
        _header(ws, table)
        size = max(len(lines[section.id]) + 1, section.min_rows)
        _cells(ws, table, size, typed_cols=section.typed_cols(nboards))
        for r, line in enumerate(lines[section.id], start=table.first_row):
            for c, value in enumerate(line, start=1):
                ws.cell(row=r, column=c, value=value)
        row += 2 + size + 1


def _board_of(note: str) -> int | None:
    words = note.replace(":", " ").split()
    for a, b in zip(words, words[1:]):
        if a.lower() == "board" and b.isdigit():
            return int(b)
    return None


def _build_championship(ws, season: bm.Season | None) -> None:
    st, spec = _style(), d.CHAMPIONSHIP_SHEET
    _title(ws, _(d.CHAMPIONSHIP_TITLE))
    for t in spec.tables:
        ws.cell(row=t.header_row - 1, column=t.first_col).font = st.bold  # the caption: written by the plan
        _header(ws, t)
    nbase = max(d.BASE.room, len(season.base_pairs) if season else 0)
    rows = {d.FINAL.id: nbase,
            d.GENERAL.id: nbase + max(d.GUESTS.room, len(season.guests) if season else 0),
            d.AFTER.id: nbase * max(d.CALENDAR.room, len(season.tournaments) if season else 0)}
    for t in spec.tables:
        _cells(ws, t, rows[t.id])
        ws.cell(row=t.header_row - 1, column=t.first_col, value=_(d.CHAMPIONSHIP_CAPTIONS[t.id]))
    _widths(ws, spec)
    for t in spec.tables:
        fit_caption(ws, t.header_row - 1, t.first_col, t.width())
    _freeze(ws, spec)


def _build_chart(ws, season: bm.Season | None) -> None:
    """The Chart sheet: title (the recalculation names the pair in it), the pair's
    label, its yellow cell and note, the table's header and cells, and the line
    chart reading the table (room for every tournament of the calendar), named as
    the sheet will be in the workbook's language."""
    from dataclasses import replace

    from xlbridge.language import current
    from xlbridge.workbooks.localised import Localised
    from xlbridge.workbooks.style import draw_chart

    st = _style()
    table = replace(d.CHART_TABLE, room=max(d.CHART_TABLE.room, len(season.tournaments) if season else 0))
    spec = replace(d.CHART_SHEET, tables=(table,))
    _title(ws, _(d.CHART_NOTHING_YET))
    ws.cell(row=d.CHART_PAIR.row, column=d.CHART_PAIR.label_col, value=d.CHART_PAIR.text()).font = st.bold
    ws.cell(row=d.CHART_PAIR.row, column=d.CHART_PAIR.col).fill = st.input
    ws.cell(row=d.CHART_PAIR.row, column=d.CHART_PAIR.col + 1, value=_(d.CHART_PAIR.note))
    _header(ws, table)
    _cells(ws, table, table.room)
    _widths(ws, spec)
    from xlbridge.workbooks.openpyxl_book import print_setup

    print_setup(ws, spec.layout())
    draw_chart(ws, spec, Localised.local_name(d.CHART, current()))


def _build_participation(ws, season: bm.Season | None) -> None:
    st, spec = _style(), d.PARTICIPATION_SHEET
    _title(ws, _(d.PARTICIPATION_TITLE))
    for s in spec.settings:
        ws.cell(row=s.row, column=s.label_col, value=s.text()).font = st.bold
        ws.cell(row=s.row, column=s.col).fill = st.input
    _rules(ws, [(s.row, s.col, 1, s) for s in spec.settings])
    ws.cell(row=d.NEXT_HOST.row, column=d.NEXT_HOST.col + 1, value=_(d.NEXT_HOST.note))
    _header(ws, d.NEXT)
    _cells(ws, d.NEXT, max(d.NEXT.room, len(season.base_pairs) if season else 0))
    _widths(ws, spec)
    ntour = max(d.CALENDAR.room, len(season.tournaments) if season else 0)
    longest = max((t.id for t in season.tournaments), key=len) if season and season.tournaments else "T00"
    header = text_column_width(_(d.LIST_HEADER).format(tournament=longest))  # "T01 listesi" whole (issue 26, 6)
    for i in range(2 * ntour):
        _width(ws, d.LISTS_COL + i, max(d.LIST_WIDTHS[i % 2], header if i % 2 else 0))
    _freeze(ws, spec)


HOW_TO_LINES = [
    N_("How to use the BridgeMania season workbook"),
    "",
    N_("Yellow cells are typed by the scorer; blue cells are computed by xlbridge (Recalculate season: the button on "
       "the Season sheet in Excel, or xlbridge recalc PATH). Never type in blue cells: they are overwritten."),
    "",
    N_("Season: the base pairs (id, players, name, lot = place in the reference list drawn by lot), the guest "
    "register, and the tournaments in playing order (sheet name, date, host)."),
    N_("A new tournament: click New tournament on the Season sheet (or xlbridge next PATH): its sheet with the base "
       "pairs, named after the last one (T14 -> T15), and its row in the list on Season, one week after the last date. "
       "By hand: copy the 'Blank tournament' sheet and rename it as in the list."),
    N_("Tournament sheet: Movement, TOP (blank = from the scores), Championship (no = a friendly), then one row per "
    "pair: every base pair (its board scores, or a status: waiting / ill / unable, or split), each guest, each "
    "temporary pair of a split night (its two players in Players, e.g. Barbara / Sergio)."),
    N_("Board scores as on the traveller (0-2-4-...-TOP); R = sit-out (TOP/2). Every board must add up."),
    N_("The board columns start right of the pairs (board 1 in column E); each pair's own computed columns are "
       "right of the boards. Below the pairs, under its title, the tournament's result sorted by score (computed; "
       "what the sheet prints, on one page): rank (equal scores share it), pair, name, status, score %, the three "
       "PTS; then the base pairs that did not play (split, waiting, ill, unable) with their PTS."),
    N_("Penalties: one row per guilty pair and error. Rectifications: board, partial or irreversible, and for a "
    "partial one the annulled row (NS, EW) and every NS pair of the board. Bridge scores: optional, for the extra "
    "PTS (the highest bridge score of the night)."),
    N_("Championship: the final Ricalibratura ranking (grey = not eligible), the general ranking, and the three "
    "standings after each tournament. Participation: the O/P/A/I/M list (M: ill) of every tournament and the next one "
    "(type the next host and the number of base pairs that can play)."),
    N_("Chart: one base pair's F1, IndyCar and Hybrid PTS after each tournament, as a table and a line chart. Type its "
    "id in B3 (empty: the leader of the final ranking), then Recalculate season."),
    "",
    N_("Problems are listed on the Messages sheet and their cells marked in red; nothing is recalculated until "
    "they are fixed. Changed results are listed on the Corrections sheet."),
    "",
    N_("Worksheet functions (with the xlbridge add-in):"),
    N_('=BM_PCT(E9:R9, 8)  ->  the tournament score in % of a row of board scores (R = sit-out)'),
    N_('=BM_FINAL(I6:I16, J6:J16, K6:K16)  ->  the final places from the places in the three standings'),
    N_('=AWARD("bm.f1-fast", 3, 10)  ->  PTS of Tab.1 for the 3rd of 10 pairs (bm.indycar-hard, bm.f1-hybrid)'),
    "",
    N_("Rules and decisions: docs/clubs/bridgemania.md; step by step: docs/guide-bridgemania.md."),
]
