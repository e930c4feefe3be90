"""The "Recalculate season" script: the button a scorer clicks in Excel.

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

import xlwings as xw

from xlbridge.excel.book import XlwingsBook
from xlbridge.language import speaking
from xlbridge.workbooks.messages import clear_marks, done_message, report_problems
from xlbridge.workbooks.plan import BookInputError
from xlbridge.workbooks.recalc import recalculate as recalculate_adapter
from xlbridge.workbooks.speak import language_of, localised

#: The action's one name (the script's display name and the button's label).
ACTION = "Recalculate season"


def recalculate(book) -> None:
    """Recalculate every computed column of this xlbridge workbook (``book``: a
    live ``xlwings.Book``)."""
    adapter = XlwingsBook(book)
    try:
        language = language_of(adapter)  # the workbook's own (its sheet names)
        with speaking(language):
            local = localised(adapter, language)
            clear_marks(local)  # first: the recalculation may fill a cell marked last time
            try:
                report = recalculate_adapter(local, language=language)
            except BookInputError as error:
                report_problems(local, error.problems, clear_old=False)
                return
            report_problems(local, [], done=done_message(report.cells_written, len(report.changes)), clear_old=False)
    finally:
        adapter.flush()  # the values and fills still waiting (the alert sends them first)


@xw.script(name=ACTION)
def recalculate_season(book: xw.Book):
    """Fill every computed cell from what you typed: percentages, corrections,
    standings and points. Nothing is written when something you typed is wrong:
    the message and the Messages sheet say what and where."""
    recalculate(book)
