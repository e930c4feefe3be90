"""Recalculation scripts: the button a scorer clicks in Excel.

Each script takes the live ``book: xw.Book`` and runs the one recalculation of
:mod:`xlbridge.excel.recalc` through :class:`~xlbridge.excel.book.XlwingsBook`.
Problems are shown in a message box and listed on a "Messages" sheet; the
cells concerned are marked; no computed cell is written.
"""

from __future__ import annotations

import xlwings as xw

from xlbridge.excel.book import XlwingsBook
from xlbridge.excel.messages import clear_marks, report_problems
from xlbridge.excel.recalc import BookInputError, recalculate


@xw.script
def recalc_season(book: xw.Book):
    """Recalculate every computed column of this xlbridge workbook."""
    adapter = XlwingsBook(book)
    clear_marks(adapter)  # first: the recalculation may fill a cell marked last time
    try:
        report = recalculate(adapter)
    except BookInputError as error:
        report_problems(adapter, error.problems, clear_old=False)
        return
    changed = f"; {len(report.changes)} earlier values changed (see Corrections)" if report.changes else ""
    report_problems(adapter, [], done=f"Recalculated {report.cells_written} cells{changed}.", clear_old=False)
