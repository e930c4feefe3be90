"""The builder of the Heeg season workbook (``xlbridge new heeg PATH [--blank]``).

Every sheet is written from the declaration (:mod:`~xlbridge.workbooks.heeg.declaration`),
the computed cells left empty: :func:`xlbridge.excel.shipped.built` recalculates the
workbook once (the same recalculation as ``xlbridge recalc``, which also writes its
record), so the shipped file holds exactly what ``xlbridge recalc`` computes.

Not part of the xlwings Lite bundle: openpyxl and the demo season (pandas) are
imported when a workbook is built; nothing on the recalculation path imports
this module.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from xlbridge.clubs.heeg.rules import normalise_code
from xlbridge.language import _
from xlbridge.clubs.heeg.settings import HeegSettings, Period
from xlbridge.values import as_date, is_blank
from xlbridge.workbooks.declare import SheetSpec
from xlbridge.workbooks.heeg.declaration import (
    CHART_PAIR,
    HOWTO,
    HOWTO_LINES,
    HOWTO_WIDTH,
    NOTE_COLOUR,
    YEAR,
    evening_layout,
    evening_sheet,
    chart_spec,
    evening_table,
    period_spec,
    season_spec,
    standings_layout,
    year_spec,
)

__all__ = ["heeg_workbook"]


def _season(blank: bool) -> tuple[HeegSettings, list[dict[str, Any]]]:
    """The demo season (settings and rows) or, ``blank``, three empty periods."""
    if blank:
        return HeegSettings(periods=tuple(Period(str(k), ()) for k in (1, 2, 3))), []
    from xlbridge.clubs.frames import plain_records
    from xlbridge.clubs.heeg.demo import demo_season

    settings, frame = demo_season()
    return settings, plain_records(frame)


def heeg_workbook(blank: bool = False):
    """The Heeg season workbook: the demo season (:func:`~xlbridge.clubs.heeg.demo.demo_season`)
    as typed, its computed cells empty until recalculated, or (``blank``) an empty season with the default settings; its
    words in the language spoken, its sheets under their English names
    (:func:`xlbridge.workbooks.heeg.heeg_workbook` builds it in a language)."""
    from openpyxl import Workbook

    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.style import how_to

    settings, results = _season(blank)
    labels = [p.label for p in settings.periods]
    wb = Workbook()
    book = OpenpyxlBook(wb)  # the adapter for the layouts
    per_period = max([6, *(len(p.evenings) for p in settings.periods)])
    spec = season_spec(labels, per_period, len(settings.roster))
    wb.active.title = spec.name
    _write_season(wb.active, spec, settings)
    # typed cells yellow with their input rules, from the declaration (the headers are the builder's)
    book.lay_out(spec.name, replace(spec.layout(), title=False, header_row=0, header_cols=0, widths=()))
    # standings (computed; formats for the rows they will fill)
    for standings in [*(period_spec(label) for label in labels), year_spec(labels)]:
        wb.create_sheet(standings.name)
        book.write(standings.name, standings.tables[0].header_row, 1, [standings.tables[0].headers()])
        book.lay_out(standings.name, standings_layout(standings.name, labels, len(settings.roster)))
    wb.move_sheet(YEAR, offset=-len(settings.periods))  # keep Season first, then Year, then the periods
    _write_chart(wb, book, chart_spec(len(labels) * per_period))  # after the standings; room for every evening listed
    how_to(wb.create_sheet(HOWTO), HOWTO_LINES, HOWTO_WIDTH)
    for day in settings.evenings:  # one sheet per evening with what the scorer typed
        _write_evening(wb, book, settings, day, [rec for rec in results if as_date(rec["date"]) == day], labels)
    return wb


def _header(ws: Any, row: int, titles: list[str]) -> None:
    from openpyxl.styles import Alignment

    from xlbridge.workbooks.style import HEADER_FILL, HEADER_FONT

    for col, title in enumerate(titles, start=1):
        c = ws.cell(row=row, column=col, value=title)
        c.fill, c.font = HEADER_FILL, HEADER_FONT
        c.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)


def _write_season(ws: Any, spec: SheetSpec, settings: HeegSettings) -> None:
    """The Season sheet: title, settings with their notes, the periods and the pairs."""
    from openpyxl.utils import get_column_letter

    from xlbridge.workbooks.style import TITLE_FONT, font

    ws["A1"] = spec.title
    ws["A1"].font = TITLE_FONT
    for s in spec.settings:
        value = ", ".join(settings.lines) if s.id == "lines" else getattr(settings, s.id)
        if s.allowed:  # the word for it in the workbook's language
            value = s.choices()[s.allowed.index(value)]
        ws.cell(row=s.row, column=s.label_col, value=s.text()).font = font(bold=True)
        ws.cell(row=s.row, column=s.col, value=value)
        note = ws.cell(row=s.row, column=s.col + 1, value=_(s.note) if s.note else None)
        note.font = font(italic=True, color="FF" + NOTE_COLOUR[1:])
    periods, pairs = spec.table("periods"), spec.table("pairs")
    _header(ws, periods.header_row, periods.headers())
    for row, period in enumerate(settings.periods, start=periods.first_row):
        values = {"period": int(period.label) if period.label.isdigit() else period.label, "promote": period.promote}
        values.update({f"evening_{i}": dt.datetime(d.year, d.month, d.day) for i, d in enumerate(period.evenings, 1)})
        for column in periods.columns:
            if column.id in values:
                ws.cell(row=row, column=periods.col(column.id), value=values[column.id])
    _header(ws, pairs.header_row, pairs.headers())
    for row, pair in enumerate(settings.roster, start=pairs.first_row):
        ws.cell(row=row, column=pairs.col("pair"), value=pair.pair)
        ws.cell(row=row, column=pairs.col("names"), value=pair.names)
        for label, line in pair.lines.items():
            if pairs.has(f"line_{label}"):
                ws.cell(row=row, column=pairs.col(f"line_{label}"), value=line)
    for col, width in enumerate(spec.widths, start=1):
        ws.column_dimensions[get_column_letter(col)].width = width


def _write_chart(wb: Any, book: Any, spec: SheetSpec) -> None:
    """The Chart sheet: the pair's label and note (the recalculation writes the rest)
    and the line chart reading its table (named as the sheet will be, in the
    workbook's language)."""
    from xlbridge.workbooks.style import font

    from xlbridge.language import current
    from xlbridge.workbooks.localised import Localised
    from xlbridge.workbooks.style import draw_chart

    ws = wb.create_sheet(spec.name)
    table = spec.tables[0]
    ws.cell(row=CHART_PAIR.row, column=CHART_PAIR.label_col, value=CHART_PAIR.text()).font = font(bold=True)
    note = ws.cell(row=CHART_PAIR.row, column=CHART_PAIR.col + 1, value=_(CHART_PAIR.note))
    note.font = font(italic=True, color="FF" + NOTE_COLOUR[1:])
    book.write(spec.name, table.header_row, table.first_col, [table.headers()])
    book.lay_out(spec.name, spec.layout(title=True))
    draw_chart(ws, spec, Localised.local_name(spec.name, current()))


def _write_evening(wb: Any, book: Any, settings: HeegSettings, day: dt.date, part: list[dict[str, Any]],
                   labels: list[str]) -> None:
    """An evening sheet with what the scorer typed: pair, names, line, the rounds,
    the combi MP, the MP total (only on a row without rounds) and the inv code."""
    table = evening_table(settings.rounds, labels)
    sheet = wb.create_sheet(evening_sheet(day))
    book.write(sheet.title, table.header_row, 1, [table.headers()])
    book.lay_out(sheet.title, evening_layout(settings.rounds, labels, len(part)))

    def typed(value: Any) -> Any:
        return None if is_blank(value) else value

    for row, rec in enumerate(part, start=table.first_row):
        rounds = [rec.get(f"r{i}") for i in range(1, settings.rounds + 1)]
        code = normalise_code(rec.get("code"))
        values = {"pair": int(rec["pair"]), "names": rec.get("names"), "line": rec.get("line"),
                  **{f"r{i}": typed(v) for i, v in enumerate(rounds, 1)}, "combi_mp": typed(rec.get("combi_mp")),
                  "code": int(code) if code.isdigit() else (code or None)}
        if all(is_blank(v) for v in rounds):
            values["mp"] = typed(rec.get("mp"))
        for column_id, value in values.items():
            sheet.cell(row=row, column=table.col(column_id), value=value)
