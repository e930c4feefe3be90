"""Results from a scoring program's file into a workbook (issue 27): ``xlbridge import BOOK RESULTS``.

The workbook's kind is recognised as for a recalculation (:func:`~xlbridge.workbooks.recalc.detect`)
and its package's own import is asked (:func:`~xlbridge.workbooks.kinds.importer`): the event
sheets type one ranking (:mod:`~xlbridge.workbooks.events.imported`), a BridgeMania season a
tournament's board scores (:mod:`~xlbridge.workbooks.bridgemania.imported`).  Each returns what
it typed (an object with ``message(file)`` and ``warnings``) or raises
:class:`~xlbridge.workbooks.plan.BookInputError` having written nothing.

Standard library only.
"""

from __future__ import annotations

from typing import Any

from xlbridge.results.model import Result
from xlbridge.workbooks.book import BookAdapter
from xlbridge.workbooks.kinds import importer
from xlbridge.workbooks.plan import BookInputError, at
from xlbridge.workbooks.recalc import detect

__all__ = ["import_results"]


def import_results(book: BookAdapter, result: Result, *, sheet: str | None = None,
                   ranking: str | None = None) -> Any:
    """Type ``result`` into ``book`` by its kind's import (see the module docstring)."""
    found = importer(detect(book).name)
    if found is None:
        raise BookInputError([at("workbook", None, "import.kind", "this workbook has no import of results yet: "
                                 "results import into the event sheets of the TBF club and Swedish masterpoint "
                                 "workbooks and into the tournaments of a BridgeMania season")])
    return found(book, result, sheet=sheet, ranking=ranking)
