"""The scripts a scorer clicks in Excel: "Recalculate season", "New evening" /
"New tournament" (:func:`add_next_sheet`) and "Import results" (:func:`import_results_file`).

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
from pathlib import Path

import xlwings as xw

from xlbridge.excel.book import XlwingsBook
from xlbridge.language import speaking
from xlbridge.workbooks.messages import ACTION, clear_marks, report_problems
from xlbridge.workbooks.nextsheet import add_next, added_text, nothing_added
from xlbridge.workbooks.plan import BookInputError, LocatedProblem, at
from xlbridge.workbooks.recalc import recalculate_and_list
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
        try:
            recalculate_and_list(adapter, language=language)  # the book itself, as headless (it localises it)
        except BookInputError as error:  # (the last run's marks cleared already)
            report_problems(localised(adapter, language), error.problems, clear_old=False)
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
            if found.report is None:  # (add_next listed a recalculation's outcome on the Messages sheet)
                adapter.alert(added_text(found))
    adapter.flush()


#: Where xlwings Lite keeps the files the scorer imports with its Files menu ("Files that you import are
#: available in Python under /data", lite.xlwings.org; docs/import.md, "The Excel path").
LITE_FILES = Path("/data")
#: A scoring program's results file: PBN or USEBIO.
RESULTS_SUFFIXES = (".pbn", ".xml")


def import_results_file(book, file: str = "", sheet: str = "", section: str = "") -> None:
    """Import results: type the scoring program's file the scorer imported into xlwings Lite (its Files
    menu, under :data:`LITE_FILES`) into this workbook by its kind, then recalculate it, as ``xlbridge import``
    does (:func:`xlbridge.workbooks.importing.import_and_recalculate`).  ``file``: its name (empty: the only
    PBN or USEBIO file there); ``sheet``, ``section``: as ``--sheet`` and ``--section``.  A problem of the
    file, the sheet or the recalculation is shown and listed on the Messages sheet, and nothing of the
    import is written."""
    from xlbridge.results import read_results
    from xlbridge.results.problems import MAX_BYTES, ResultsFileError
    from xlbridge.workbooks.importing import import_and_recalculate

    adapter = XlwingsBook(book)
    language = language_of(adapter)
    with speaking(language):
        name = file
        try:
            name, data = _results_file(LITE_FILES, file, MAX_BYTES)
            import_and_recalculate(adapter, read_results(data), sheet=sheet or None, ranking=section or None,
                                   language=language, file=name)  # (listed on the Messages sheet, as headless)
        except BookInputError as error:
            problems = error.problems
        except ResultsFileError as error:
            problems = [LocatedProblem(name, None, p) for p in error.problems]
        else:
            adapter.flush()
            return
    fresh = XlwingsBook(book)  # (the import's cells wait in ``adapter``, never sent)
    with speaking(language):
        local = localised(fresh, language)
        clear_marks(local)
        report_problems(local, problems, clear_old=False)
    fresh.flush()


def _results_file(folder: Path, file: str, limit: int) -> tuple[str, bytes]:
    """The name and bytes of the results file under ``folder`` (``file``: its name; empty: the only one)."""
    files = sorted(p.name for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []
    there = [name for name in files if name.lower().endswith(RESULTS_SUFFIXES)]
    if file:
        if file not in files:  # (a name only: never a path out of the folder)
            raise BookInputError([at("workbook", None, "import.file-unknown", "{file!r} is not among the files "
                                     "imported into xlwings Lite (its Files menu; there: {files})", file=file,
                                     files=", ".join(there) or "-")])
        there = [file]
    if not there:
        raise BookInputError([at("workbook", None, "import.no-file", "no results file: import the scoring "
                                 "program's PBN or USEBIO file into xlwings Lite first (its Files menu, Import), "
                                 "then run Import results")])
    if len(there) > 1:
        raise BookInputError([at("workbook", None, "import.file-choose", "xlwings Lite holds {count} results "
                                 "files ({files}): type the one to import in file", count=len(there),
                                 files=", ".join(there))])
    with open(folder / there[0], "rb") as handle:
        return there[0], handle.read(limit + 1)  # (a larger file is refused by its size, unread beyond)


@xw.script(name=ACTION)
def recalculate_season(book: xw.Book):
    """Fill every computed cell from what you typed: percentages, corrections,
    standings and points. Nothing is written when something you typed is wrong:
    the message and the Messages sheet say what and where."""
    recalculate(book)
