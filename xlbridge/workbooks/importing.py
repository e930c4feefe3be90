"""Results from a scoring program's file into a workbook (issue 27): ``xlbridge import BOOK RESULTS``.

The workbook's kind is recognised as for a recalculation (:func:`~xlbridge.workbooks.recalc.detect`)
and its package's own import is asked (:func:`~xlbridge.workbooks.kinds.importer`): the event
sheets type one ranking (:mod:`~xlbridge.workbooks.events.imported`), a BridgeMania season a
tournament's board scores (:mod:`~xlbridge.workbooks.bridgemania.imported`), a Heeg season an
evening's MP (:mod:`~xlbridge.workbooks.heeg.imported`); a kind that names none (a toy kind) refuses.  Each returns what
it typed (an object with ``message(file)`` and ``warnings``) or raises
:class:`~xlbridge.workbooks.plan.BookInputError` having written nothing.

Standard library only.
"""

from __future__ import annotations

from typing import Any

from xlbridge.language import speaking
from xlbridge.results.model import Result
from xlbridge.workbooks.book import BookAdapter
from xlbridge.workbooks.kinds import importer
from xlbridge.workbooks.localised import language_of, localised
from xlbridge.workbooks.messages import clear_marks, report_problems
from xlbridge.workbooks.plan import BookInputError, at
from xlbridge.workbooks.recalc import Report, detect, recalculate

__all__ = ["import_results", "import_and_recalculate"]


def import_results(book: BookAdapter, result: Result, *, sheet: str | None = None,
                   ranking: str | None = None) -> Any:
    """Type ``result`` into ``book`` by its kind's import (see the module docstring)."""
    found = importer(detect(book).name)
    if found is None:
        raise BookInputError([at("workbook", None, "import.kind", "this kind of workbook has no import of results")])
    return found(book, result, sheet=sheet, ranking=ranking)


def import_and_recalculate(book: BookAdapter, result: Result, *, sheet: str | None = None,
                           ranking: str | None = None, language: str | None = None,
                           file: object = "results") -> tuple[Any, Report]:
    """What both doors do (``xlbridge import``, the Import results script): type ``result`` into ``book``
    (:func:`import_results`), then recalculate it, in the workbook's language (``language`` to say it),
    and list the outcome on the Messages sheet (``file``: the results file's name in it), as every
    recalculation does (:func:`~xlbridge.workbooks.recalc.recalculate_and_list`).
    A problem of either raises :class:`BookInputError` (``.language`` set); the caller then writes
    nothing of ``book``."""
    language = language or getattr(book, "language", None) or language_of(book)
    with speaking(language):  # (the sheet's labels in its language)
        local = localised(book, language)
        clear_marks(local)  # (first: the recalculation may fill a cell marked last time)
        try:
            imported = import_results(book, result, sheet=sheet, ranking=ranking)
        except BookInputError as error:
            error.language = language
            raise
        if getattr(imported, "waiting", ()):  # (a Heeg evening's other line still to import: recalculated then)
            report = Report(detect(book).name, 0, [], language=language)
        else:
            report = recalculate(book, language=language)
        report_problems(local, [], done=imported.message(file), clear_old=False,
                        warnings=[*imported.warnings, *report.warnings])
    return imported, report
