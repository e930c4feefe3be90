"""The next sheet of a season: "New evening" (Heeg) and "New tournament" (BridgeMania).

One implementation for both front doors -- the workbook's own script in Excel
(:mod:`xlbridge.excel.scripts`) and ``xlbridge next PATH`` (:mod:`xlbridge.cli`):
:func:`add_next` detects the kind, lets it plan the next sheet (reads only; every
problem at its cell, nothing written), then adds the sheet after the season's last
one, writes it, enters it where the season lists it (the Heeg periods table, the
BridgeMania calendar) and selects it.  The sheet is built from the kind's
declaration, as the builder and a recalculation build it: the same header, typed
cells yellow, number formats, widths, print setup, and pre-filled with what the
season already knows (the period's pairs and lines; the base pairs).

Decisions (docs/clubs/heeg.md and docs/clubs/bridgemania.md, "New evening" /
"New tournament"): the date defaults to one week after the last evening or
tournament (today when there is none); a date on or before the last one, a name
that is already a sheet, a full list and a season without pairs are problems at
their cells, in the workbook's language.

Standard library only: it runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt

from xlbridge.language import N_, N_plural, speaking
from xlbridge.workbooks.book import BookAdapter
from xlbridge.workbooks.kinds import next_planner
from xlbridge.workbooks.plan import BookInputError, NextSheet, at
from xlbridge.workbooks.recalc import detect, recalculate
from xlbridge.workbooks.record import note_new_sheet
from xlbridge.workbooks.sheetnames import misnamed, other_sheets
from xlbridge.workbooks.localised import language_of, localised
from xlbridge.workbooks.messages import report_problems
from xlbridge.workbooks.write import RECORD_SHEET, apply

__all__ = ["NextSheet", "add_next", "plan_next", "NEW_EVENING", "NEW_TOURNAMENT", "added_text",
           "nothing_added"]

#: The actions' one name each, everywhere (the script in the pane, the button, the CLI's words).
NEW_EVENING = N_("New evening")
NEW_TOURNAMENT = N_("New tournament")
#: What the scorer reads when the sheet is there (typed: the front doors choose by the result, never by text).
ADDED = N_("Added the sheet {sheet} ({pairs} pairs listed), entered on the sheet {season} at {cell}. Type the "
           "results in its yellow cells, then {action}.")
ADDED_LISTED = N_("Added the sheet {sheet} ({pairs} pairs listed; the {season} sheet already lists it). Type the "
                  "results in its yellow cells, then {action}.")
#: After a sheet whose kind recalculates the season once it is there (BridgeMania's New tournament).
RECALCULATED_TOO = N_("The season was recalculated too: the next participation list is the new tournament's.")
NOT_RECALCULATED = N_plural("The season was not recalculated: fix the problem at its cell, then {action}.",
                            "The season was not recalculated: fix the {count} problems at their cells, then {action}.")
NOTHING_ADDED = N_plural("nothing was added: fix the problem at its cell, then add the sheet again{how}",
                         "nothing was added: fix the {count} problems at their cells, then add the sheet again{how}")


def plan_next(book: BookAdapter, *, day: dt.date | None = None, name: str | None = None,
              next_period: bool = False, today: dt.date | None = None, taken: list[str] | None = None) -> NextSheet:
    """The next sheet of ``book`` (already seen through its English sheet names, in its
    language): raises :class:`BookInputError` with every problem, writes nothing.  ``taken``: every
    sheet's name as the scorer sees it (default: ``book``'s), chart sheets too."""
    planner = next_planner(detect(book).name)  # a season kind's package plans its next sheet
    if planner is not None:
        return planner(book, day=day, name=name, next_period=next_period, today=today or dt.date.today(),
                       taken=book.sheet_names() if taken is None else taken)
    raise BookInputError([at("workbook", None, "next.no-season", "this workbook has no next sheet to add: only a "
                             "Heeg season (New evening) and a BridgeMania season (New tournament) have one")])


def add_next(book: BookAdapter, *, day: dt.date | None = None, name: str | None = None, next_period: bool = False,
             language: str | None = None, today: dt.date | None = None) -> NextSheet:
    """Add the next evening or tournament sheet to ``book`` (any backend), enter it
    where the season lists it and select it; nothing is written on a problem
    (:class:`BookInputError`, ``.language`` the workbook's)."""
    language = language or getattr(book, "language", None) or language_of(book)
    whole = book  # (the recalculation after the sheet is added sees the book itself: it localises it so)
    with speaking(language):
        taken = book.sheet_names() + other_sheets(book)  # (by the names the scorer sees)
        problems = misnamed(book, language)
        book = localised(book, language)
        try:
            if problems:
                raise BookInputError(problems)
            found = plan_next(book, day=day, name=name, next_period=next_period, today=today, taken=taken)
        except BookInputError as error:
            error.language = language
            raise
        after = found.after
        names = book.sheet_names()
        if after is None and len(names) > 1 and names[-1] == RECORD_SHEET:  # the record stays the last sheet
            after = names[-2]
        book.add_sheet(found.sheet, after=after)
        plan = found.plan
        plan.new_sheets = [n for n in plan.new_sheets if n != found.sheet]
        apply(book, plan)
        note_new_sheet(book, found.sheet)
        if found.recalculate:
            try:
                found.report = recalculate(whole, language=language)
            except BookInputError as error:  # the sheet stays: the problems are the season's, shown as such
                found.pending = error.problems
        activate = getattr(book, "activate", None)
        if activate is not None:
            activate(found.sheet, found.select)
        if found.pending or found.report is not None:  # the season recalculated too: its Messages sheet, as ever
            report_problems(book, found.pending, done=added_text(found),
                            warnings=found.report.warnings if found.report is not None else ())
    found.language = language
    return found


def added_text(found: NextSheet) -> str:
    """What the scorer reads after the sheet was added (in the language spoken)."""
    from xlbridge.language import _
    from xlbridge.rules.problems import Problem
    from xlbridge.workbooks.messages import ACTION
    from xlbridge.workbooks.localised import shown_name

    params = dict(sheet=shown_name(found.sheet), pairs=found.pairs, action=_(ACTION),
                  season=shown_name(found.entered[0] if found.entered else "Season"),
                  cell=found.entered[1] if found.entered else "")
    text = Problem("next.added", ADDED if found.entered else ADDED_LISTED, **params).message
    if found.pending:
        text += " " + Problem("next.not-recalculated", NOT_RECALCULATED, count=len(found.pending),
                              action=params["action"]).message
    elif found.report is not None:
        text += " " + Problem("next.recalculated", RECALCULATED_TOO).message
    return text


def nothing_added(count: int, how: str = "") -> str:
    """After the problems: nothing was added, and what to do (``how``: the command, for the CLI)."""
    from xlbridge.rules.problems import Problem

    return Problem("next.nothing-added", NOTHING_ADDED, count=count, how=f" ({how})" if how else "").message
