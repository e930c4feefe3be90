"""One recalculation for every kind of xlbridge workbook, on any backend.

:func:`recalculate` detects the kind (:func:`xlbridge.workbooks.kinds.kinds`), lets
it plan (reads only; :class:`~xlbridge.workbooks.plan.BookInputError` lists every
problem and nothing is written), diffs the plan against the cells, applies it
through the :class:`~xlbridge.workbooks.book.BookAdapter` and appends the changed
earlier values to the Corrections sheet -- the same code for Excel (the "Recalculate
season" script) and headless (``xlbridge recalc``).  The workbook is read and written
in its own language (:mod:`xlbridge.workbooks.localised`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from xlbridge.language import _, speaking
from xlbridge.workbooks.book import BookAdapter, Layout, cell_position
from xlbridge.workbooks.kinds import kinds
from xlbridge.workbooks.plan import BookInputError, Kind, LocatedProblem, Report, at
from xlbridge.workbooks.changes import Comparison, compare
from xlbridge.workbooks.record import RECORD, Record, foreign, make_record, moved_rows, read_record, write_record
from xlbridge.workbooks.sheetnames import misnamed, renamed_copies
from xlbridge.workbooks.localised import Localised, language_of, localised
from xlbridge.workbooks.messages import clear_marks, done_text, report_problems
from xlbridge.workbooks.write import CORRECTIONS, append_corrections, apply, diff, now_stamp

__all__ = ["recalculate", "recalculate_and_list", "detect", "diff", "apply", "append_corrections", "now_stamp",
           "CORRECTIONS", "BookInputError", "LocatedProblem", "Report"]


def _kinds() -> tuple[Kind, ...]:
    return kinds()


def detect(book: BookAdapter) -> Kind:
    """The kind of the workbook (read in its own language)."""
    language = getattr(book, "language", None) or language_of(book)
    with speaking(language):
        book = localised(book, language)
        for kind in _kinds():
            if kind.recognises(book):
                return kind
        names = ", ".join(book.sheet_names()) or _("no sheets")
        raise BookInputError([at("workbook", None, "workbook.unknown", "not an xlbridge workbook (sheets: {names}); start "
                                 "from a template: xlbridge new KIND PATH", names=names)])


def recalculate(book: BookAdapter, *, when: dt.datetime | str | None = None, language: str | None = None,
                record: tuple[Record | None, list[LocatedProblem]] | None = None) -> Report:
    """Check, compute and write one workbook; nothing is written on a problem.

    Computed cells whose earlier value changes are listed in the Corrections
    sheet with ``when``, after the typed cells that changed since the last
    recalculation and the computed cells typed over (:mod:`~xlbridge.workbooks.record`:
    the record of the last recalculation, written here too, in the same run) (default: now, to the minute); a new Corrections sheet
    goes right after the first sheet (the Season sheet of a season workbook).  The
    workbook is read and written in its own language
    (:func:`~xlbridge.workbooks.localised.language_of`; ``language`` to say it); the
    report and a :class:`~xlbridge.workbooks.plan.BookInputError` carry it as ``.language``.
    ``record``: what :func:`~xlbridge.workbooks.record.read_record` gives for this book, when the
    caller has read it already (the record is then not read again).
    """
    language = language or getattr(book, "language", None) or language_of(book)
    with speaking(language):
        misnamed_sheets = misnamed(book, language)  # (by the names the scorer sees: the book itself, not localised)
        seen, book = book, localised(book, language)
        kinds_view = _WithoutRecord(book)
        try:
            if misnamed_sheets:
                raise BookInputError(misnamed_sheets)
            kind = detect(kinds_view)
            plan = kind.plan(kinds_view)
        except BookInputError as error:
            error.language = language
            raise
        changes = diff(book, plan)
        there = set(book.sheet_names())
        titles = {b.sheet: b.values[0][0] for b in plan.blocks if b.row == b.col == 1 and b.values and b.values[0]}
        copies = renamed_copies(seen, {Localised.local_name(s, language): titles.get(s) for s in plan.new_sheets
                                       if s not in there}, language)
        record, damaged = read_record(book) if record is None else record
        now = make_record(kinds_view, plan, getattr(kind, "never_read", ()), record, kind.name)
        moves = moved_rows(record, now) if record is not None else {}  # (rows inserted or deleted: once)
        aside = foreign(record, now, kind.name, moves) if record is not None else None
        if aside is not None:  # another workbook's record: never "your change" rows
            record, damaged = None, damaged + [aside]
        found = compare(book, plan, record, now, changes, getattr(kind, "routine", ()), moves) \
            if record is not None else Comparison()
        try:
            written = apply(book, plan)
        except BookInputError as error:  # a computed cell the book cannot take (merged into another)
            error.language = language
            raise
        _formats_back(book, found.over, changes)
        write_record(book, now, record)
        over = {(c.sheet, c.cell) for c in found.over}
        ordered = found.typed + found.over + [c for c in changes if (c.sheet, c.cell) not in over]
        if ordered:
            stamp = when or now_stamp()
            append_corrections(book, ordered, stamp, after=book.sheet_names()[0])
    results = sum(1 for block in plan.blocks if block.audit for line in block.values for v in line
                  if isinstance(v, (int, float)) and not isinstance(v, bool))  # results, not headers
    return Report(kind.name, written, found.over + [c for c in changes if (c.sheet, c.cell) not in over],
                  list(plan.warnings) + found.warnings + damaged + copies, results, language, plan=plan,
                  typed=found.typed)


def recalculate_and_list(book: BookAdapter, *, when: dt.datetime | str | None = None, language: str | None = None,
                         record: tuple[Record | None, list[LocatedProblem]] | None = None) -> Report:
    """:func:`recalculate`, and the Messages sheet kept as every door keeps it
    (:mod:`~xlbridge.workbooks.messages`): the marks of the last run cleared first (the
    recalculation may fill a cell marked then), then this run's outcome listed there and its
    warnings marked.  A problem raises :class:`BookInputError` as :func:`recalculate` does: the
    caller lists it (Excel) or writes nothing (headless)."""
    language = language or getattr(book, "language", None) or language_of(book)
    with speaking(language):
        local = localised(book, language)
        clear_marks(local)
        report = recalculate(book, when=when, language=language, record=record)
        report_problems(local, [], done=done_text(report), clear_old=False, warnings=report.warnings)
    return report


def _formats_back(book: BookAdapter, over: list, changes: list) -> None:
    """The declared number format back on each computed cell typed over, and on each that read as a date or a
    time: what the scorer typed there brought its own (a date typed into a computed cell showed the 288
    written there as 14-10-1900, read back as a date, and each later run listed it as changed again)."""
    formats: dict[str, list] = {}
    for c in [*over, *(c for c in changes if isinstance(c.old, (dt.date, dt.time)))]:
        if c.number_format:
            row, col = cell_position(c.cell)
            formats.setdefault(c.sheet, []).append(((row, col, 1, 1), c.number_format))
    for sheet, number_formats in formats.items():
        book.lay_out(sheet, Layout(number_formats=tuple(number_formats)))


class _WithoutRecord:
    """The book as the kinds see it: without the record of the last recalculation (not a sheet of theirs)."""

    def __init__(self, book: BookAdapter):
        self.book = book

    def sheet_names(self) -> list[str]:
        return [n for n in self.book.sheet_names() if n != RECORD]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.book, name)
