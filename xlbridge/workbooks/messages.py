"""How a recalculation tells the scorer about problems inside Excel.

Problems are shown in a message box, listed on the "Messages" sheet (column A:
the message, column B: the marked cell) and their cells get a light red fill.
The next recalculation removes the marks it made before: the cell gets the
light yellow fill of typed cells back (xlwings cannot read a cell's fill in every
runtime, so the earlier fill is not remembered).
"""

from __future__ import annotations

from collections.abc import Sequence

from xlbridge.language import N_, N_plural, _, ngettext
from xlbridge.rules.problems import Problem
from xlbridge.workbooks.book import BookAdapter, Layout, cell_position
from xlbridge.workbooks.declare import INPUT  # problems are in typed cells: a cleared mark gives that fill back
from xlbridge.workbooks.plan import LocatedProblem, Report
from xlbridge.workbooks.record import DAMAGED_CODE, FOREIGN_CODE, TOO_LARGE_CODE, TYPED_OVER_CODE
from xlbridge.workbooks.localised import Localised

MESSAGES = "Messages"
#: Warnings whose cell is not marked (nor named in column B, which the next run unmarks
#: with the typed-cell yellow): a computed cell typed over keeps its computed look (its
#: fill is the kind's, which xlwings cannot read back), the record's sheet is hidden.
NOT_MARKED = (TYPED_OVER_CODE, DAMAGED_CODE, FOREIGN_CODE, TOO_LARGE_CODE)
MARK = "#FFC7CE"  # Excel's light red "bad" fill
WARNING_MARK = "#FFEB9C"  # Excel's light orange "neutral" fill: a warning's cell
#: The one name of the action, everywhere (the button, the script, the guides, the CLI's texts).
ACTION = N_("Recalculate season")
HEADER_PROBLEMS = N_("Problems found by the last recalculation (nothing was recalculated):")
HEADER_WARNINGS = N_("Warnings (the recalculation went on; check these cells, marked orange):")
#: What a recalculation says when it is done (typed: the front doors only choose a template by the report's numbers).
DONE = N_("Recalculated {cells} cells.")
DONE_CHANGED = N_plural("Recalculated {cells} cells; {count} earlier value changed (see Corrections).",
                        "Recalculated {cells} cells; {count} earlier values changed (see Corrections).")
DONE_EMPTY = N_("Nothing is filled in yet: type the results in the yellow cells (see the How to sheet), then "
                "{action} again{how}.")
DONE_WARNINGS = N_plural(" {count} warning: see the Messages sheet.", " {count} warnings: see the Messages sheet.")
#: What the Messages sheet of a new workbook says until a recalculation has something to say.
NONE_YET = N_("No messages yet: each recalculation that finds a problem or a warning lists it here, with its cell.")
#: Column B holds a whole cell reference: a sheet name (at most 31 characters), "!", a cell.
REFERENCE_WIDTH = 41
#: The look of the Messages sheet.  Every built workbook has it from the start (``add_messages_sheet``),
#: since xlwings Lite cannot size columns: a click only writes values into it.
LAYOUT = Layout(widths=(100, REFERENCE_WIDTH), wrap_columns=(1,), orientation="landscape", fit_width=True)
NOTHING_RECALCULATED = N_plural("Nothing was recalculated: {count} problem.", "Nothing was recalculated: {count} problems.")
NOTHING_WRITTEN = N_plural("nothing was written: fix the problem at its cell, then {action} again{how}",
                           "nothing was written: fix the {count} problems at their cells, then {action} again{how}")


def clear_marks(book: BookAdapter) -> None:
    """Remove the marks of the previous run.

    Called before a recalculation (then ``report_problems(..., clear_old=False)``):
    the recalculation may set its own fill on a cell that was marked (a red signal
    on a corrected inv code), and clearing the old marks afterwards would remove it."""
    names = book.sheet_names()
    if MESSAGES in names:
        _unmark(book, book.read(MESSAGES), names)


def _unmark(book: BookAdapter, messages: Sequence[Sequence[object]], names: Sequence[str]) -> None:
    """Give the cells named on the Messages sheet (``messages``: its rows) the
    typed-cell yellow back."""
    for line in messages[1:]:
        ref = line[1] if len(line) > 1 else None
        if isinstance(ref, str) and "!" in ref:
            sheet, _bang, address = ref.rpartition("!")
            sheet = Localised.canonical_name(sheet, getattr(book, "language", "en"))
            if sheet in names:
                row, col = cell_position(address)
                book.fill(sheet, row, col, INPUT)


def add_messages_sheet(book: BookAdapter) -> None:
    """Give a new workbook its Messages sheet, laid out, right after its first sheet
    (before the sheets a season adds and the hidden record at the end)."""
    names = book.sheet_names()
    book.add_sheet(MESSAGES, after=names[0] if names else None)
    book.lay_out(MESSAGES, LAYOUT)
    book.write(MESSAGES, 1, 1, [[_(NONE_YET)]])


def _quiet(old: Sequence[Sequence[object]]) -> bool:
    """The Messages sheet lists nothing a quiet run must clear: at most its first line."""
    return not any(value not in (None, "") for line in old[1:] for value in line)


def done_text(report: Report, how: str = "") -> str:
    """What the scorer reads after a recalculation: the cells, the changed values,
    or that nothing is filled in yet (a template recalculated as it came; ``how``:
    the command, for the CLI)."""
    if report.results == 0 and not report.changes:
        problem = Problem("recalc.empty", DONE_EMPTY, action=_(ACTION), how=f" ({how})" if how else "")
    elif report.changes:
        problem = Problem("recalc.done", DONE_CHANGED, cells=report.cells_written, count=len(report.changes))
    else:
        problem = Problem("recalc.done", DONE, cells=report.cells_written)
    return problem.message


def nothing_written(count: int, how: str = "") -> str:
    """What the scorer reads after the problems: nothing was written, and what to
    do next (``how``: the command, for the CLI)."""
    return Problem("recalc.nothing-written", NOTHING_WRITTEN, count=count, action=_(ACTION),
                   how=f" ({how})" if how else "").message


def report_problems(book: BookAdapter, problems: Sequence[LocatedProblem], done: str | None = None,
                    clear_old: bool = True, warnings: Sequence[LocatedProblem] = ()) -> None:
    """Show ``problems`` (or ``done`` when there are none) and keep the Messages sheet
    current; ``clear_old=False`` when :func:`clear_marks` already removed the old marks.
    ``warnings`` (a recalculation that went on) are listed below and marked orange."""
    names = book.sheet_names()
    if warnings and done:
        done += Problem("recalc.warnings", DONE_WARNINGS, count=len(warnings)).message
    local = Localised.local_name(MESSAGES, getattr(book, "language", "en")).casefold()
    others = getattr(book, "other_sheets", list)()  # (chart sheets)
    clash = MESSAGES not in names and any(n.casefold() == local for n in [*names, *others])  # sheetnames.py
    if clash or (MESSAGES not in names and not problems and not warnings):
        if problems:
            book.alert(ngettext(*NOTHING_RECALCULATED, len(problems)).format(count=len(problems)) + "\n"
                       + "\n".join(str(p) for p in problems[:10]))
        elif done:
            book.alert(done)
        return
    if MESSAGES not in names:
        book.add_sheet(MESSAGES, after=names[0] if names else None)
        book.lay_out(MESSAGES, LAYOUT)
        old = []
    else:
        old = book.read(MESSAGES)
        if not problems and not warnings and _quiet(old):  # nothing to clear: the sheet stays as it is
            if done:
                book.alert(done)
            return
    if clear_old:  # remove the marks of the previous run
        _unmark(book, old, names)
    rows: list[list[object]] = [[_(HEADER_PROBLEMS) if problems else (done or _("No problems.")), None]]
    for p in problems:
        located = p.cell and p.sheet in names
        rows.append([str(p), f"{p.shown_sheet}!{p.cell}" if located else None])
    if warnings:
        rows.append([_(HEADER_WARNINGS), None])
        for p in warnings:
            marked = p.cell and p.sheet in names and p.code not in NOT_MARKED
            rows.append([str(p), f"{p.shown_sheet}!{p.cell}" if marked else None])
    rows += [[None, None]] * (max(len(old), 1) - len(rows))
    book.write(MESSAGES, 1, 1, rows)
    book.lay_out(MESSAGES, LAYOUT)  # headless: the new lines wrap too (xlwings: nothing to send)
    for marked, colour in ((warnings, WARNING_MARK), (problems, MARK)):
        for p in marked:
            if p.cell and p.sheet in names and p.code not in NOT_MARKED:
                row, col = cell_position(p.cell)
                book.fill(p.sheet, row, col, colour)
    if problems:
        shown = "\n".join(str(p) for p in problems[:10])
        more = "\n" + _("... and {count} more (see the Messages sheet)").format(count=len(problems) - 10) \
            if len(problems) > 10 else ""
        book.alert(ngettext(*NOTHING_RECALCULATED, len(problems)).format(count=len(problems)) + f"\n{shown}{more}")
    elif done:
        book.alert(done)
