"""One recalculation for every kind of xlbridge workbook, on any backend.

:func:`recalculate` detects the kind (:data:`xlbridge.workbooks.kinds.KINDS`), lets
it plan (reads only; :class:`~xlbridge.workbooks.plan.BookInputError` lists every
problem and nothing is written), diffs the plan against the cells, applies it
through the :class:`~xlbridge.workbooks.book.BookAdapter` and appends the changed
earlier values to the Corrections sheet -- the same code for Excel (the "Recalculate
season" script) and headless (``xlbridge recalc``).
"""

from __future__ import annotations

from xlbridge.workbooks.book import BookAdapter
from xlbridge.workbooks.kinds import KINDS
from xlbridge.workbooks.plan import BookInputError, Kind, Problem, Report
from xlbridge.workbooks.write import CORRECTIONS, append_corrections, apply, diff, now_stamp

__all__ = ["recalculate", "detect", "diff", "apply", "append_corrections", "now_stamp", "CORRECTIONS",
           "BookInputError", "Problem", "Report"]


def _kinds() -> list[Kind]:
    return KINDS


def detect(book: BookAdapter) -> Kind:
    for kind in _kinds():
        if kind.recognises(book):
            return kind
    names = ", ".join(book.sheet_names()) or "no sheets"
    raise BookInputError([Problem("workbook", None,
                                  f"not an xlbridge workbook (sheets: {names}); start from a template: xlbridge new KIND PATH")])


def recalculate(book: BookAdapter, *, when: str | None = None) -> Report:
    """Check, compute and write one workbook; nothing is written on a problem.

    Computed cells whose earlier value changes are listed in the Corrections
    sheet with ``when`` (default: now, to the minute); a new Corrections sheet
    goes right after the first sheet (the Season sheet of a season workbook).
    """
    kind = detect(book)
    plan = kind.plan(book)
    changes = diff(book, plan)
    written = apply(book, plan)
    if changes:
        stamp = when or now_stamp()
        append_corrections(book, changes, stamp, after=book.sheet_names()[0])
    return Report(kind.name, written, changes, plan)
