"""The scripts a scorer clicks in Excel: "Recalculate season", and "New evening" /
"New tournament" (:func:`add_next_sheet`).

:func:`recalculate` runs the one recalculation of :mod:`xlbridge.workbooks.recalc` on
a live ``xlwings.Book`` through :class:`~xlbridge.excel.book.XlwingsBook`.
Problems are shown in a message box and listed on a "Messages" sheet; the cells
concerned are marked; no computed cell is written.

Each front door decorates it its own way: a workbook's ``main.py`` defines the
script for xlwings Lite (with the button of that workbook, see
:mod:`xlbridge.excel.bundle`); :func:`recalculate_season` here is the script
of xlwings Server (``xlbridge serve``); :mod:`xlbridge.excel.classic` calls
:func:`recalculate` for classic xlwings.
"""

import contextlib
import datetime as dt
import gc
import sys

import xlwings as xw

from xlbridge.excel.book import XlwingsBook
from xlbridge.language import speaking
from xlbridge.workbooks.messages import ACTION, clear_marks, done_text, report_problems
from xlbridge.workbooks.nextsheet import add_next, added_text, nothing_added
from xlbridge.workbooks.plan import BookInputError
from xlbridge.workbooks.recalc import recalculate as recalculate_adapter
from xlbridge.workbooks.localised import language_of, localised


def recalculate(book) -> None:
    """Recalculate every computed column of this xlbridge workbook (``book``: a
    live ``xlwings.Book``)."""
    with _collector_paused():
        _recalculate(book)


@contextlib.contextmanager
def _collector_paused():
    """In Pyodide (xlwings Lite) the cyclic garbage collector waits until the click is
    done: there its passes cost a click about a fifth of its time whatever the book's
    size (docs/performance.md, finding 24), and the interpreter runs nothing else
    meanwhile.  Reference counting still frees the click's garbage at once."""
    pause = sys.platform == "emscripten" and gc.isenabled()
    if pause:
        gc.disable()
    try:
        yield
    finally:
        if pause:
            gc.enable()


def _recalculate(book) -> None:
    adapter = XlwingsBook(book)
    language = language_of(adapter)  # the workbook's own (its sheet names)
    with speaking(language):
        local = localised(adapter, language)  # the kinds' sheet names over the workbook's
        clear_marks(local)  # first: the recalculation may fill a cell marked last time
        try:
            report = recalculate_adapter(local, language=language)
        except BookInputError as error:
            report_problems(local, error.problems, clear_old=False)
        else:
            report_problems(local, [], done=done_text(report), clear_old=False, warnings=report.warnings)
    adapter.flush()  # everything waited until here: sent in the order that fails before any value


def add_next_sheet(book, day: dt.date | None = None, name: str | None = None, next_period: bool = False) -> None:
    """New evening (Heeg) / New tournament (BridgeMania): add the next sheet of this
    season workbook (``book``: a live ``xlwings.Book``), enter it on the Season sheet
    and show it (:func:`xlbridge.workbooks.nextsheet.add_next`).  ``day``: its date
    (``None``: one week after the last); a problem is shown in a message box, each at
    its sheet and cell, and nothing is written."""
    if isinstance(day, dt.datetime):
        day = day.date()
    adapter = XlwingsBook(book)
    language = language_of(adapter)
    with speaking(language):
        try:
            found = add_next(adapter, day=day, name=name or None, next_period=bool(next_period), language=language)
        except BookInputError as error:
            shown = "\n".join(str(p) for p in error.problems[:10])
            adapter.alert(f"{nothing_added(len(error.problems))}\n{shown}")
        else:
            if found.pending or found.report is not None:  # the season recalculated too: its Messages sheet
                report_problems(localised(adapter, language), found.pending, done=added_text(found),
                                warnings=found.report.warnings if found.report is not None else ())
            if found.report is None:  # (report_problems told the recalculation's outcome already)
                adapter.alert(added_text(found))
    adapter.flush()


@xw.script(name=ACTION)
def recalculate_season(book: xw.Book):
    """Fill every computed cell from what you typed: percentages, corrections,
    standings and points. Nothing is written when something you typed is wrong:
    the message and the Messages sheet say what and where."""
    recalculate(book)
