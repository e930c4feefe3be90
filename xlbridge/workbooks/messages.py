"""How a recalculation tells the scorer about problems inside Excel.

Problems are shown in a message box, listed on the "Messages" sheet (column A:
the message, column B: the marked cell) and their cells get a light red fill.
The next recalculation removes the marks it made before: the cell gets the
light yellow fill of typed cells back (xlwings cannot read a cell's fill in every
runtime, so the earlier fill is not remembered).
"""

from __future__ import annotations

from collections.abc import Sequence

from xlbridge.language import N_, _
from xlbridge.workbooks.book import BookAdapter
from xlbridge.workbooks.plan import Problem
from xlbridge.workbooks.speak import Localised

MESSAGES = "Messages"
MARK = "#FFC7CE"  # Excel's light red "bad" fill
#: Problems are always in typed cells, and typed cells of xlbridge workbooks are
#: light yellow: a cleared mark gives the cell that fill back.
INPUT = "#FFF2CC"
HEADER_PROBLEMS = N_("Problems found by the last recalculation (nothing was recalculated):")
#: What the scorer is told after a recalculation without problems.
DONE = N_("Recalculated {count} cells{changed}.")
CHANGED = N_("; {count} earlier values changed (see Corrections)")


def done_message(cells: int, changes: int) -> str:
    """``Recalculated 60 cells; 2 earlier values changed (see Corrections).`` in the language spoken."""
    changed = _(CHANGED).format(count=changes) if changes else ""
    return _(DONE).format(count=cells, changed=changed)


def is_done_message(text: str) -> bool:
    """Whether ``text`` is :func:`done_message` in any language (for tests and tools)."""
    import re

    from xlbridge.language import LANGUAGES, speaking

    for language in LANGUAGES:
        with speaking(language):
            pattern = re.escape(_(DONE)).replace(r"\{count\}", r"\d+").replace(r"\{changed\}", ".*")
        if re.fullmatch(pattern, text, re.DOTALL):
            return True
    return False


def cell_position(cell: str) -> tuple[int, int]:
    """``cell_position("D7") == (7, 4)``."""
    letters = "".join(ch for ch in cell if ch.isalpha())
    digits = "".join(ch for ch in cell if ch.isdigit())
    col = 0
    for ch in letters.upper():
        col = col * 26 + (ord(ch) - 64)
    return int(digits), col


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


def report_problems(book: BookAdapter, problems: Sequence[Problem], done: str | None = None,
                    clear_old: bool = True) -> None:
    """Show ``problems`` (or ``done`` when there are none) and keep the Messages sheet
    current; ``clear_old=False`` when :func:`clear_marks` already removed the old marks."""
    names = book.sheet_names()
    if MESSAGES not in names and not problems:
        if done:
            book.alert(done)
        return
    if MESSAGES not in names:
        book.add_sheet(MESSAGES)
        old = []
    else:
        old = book.read(MESSAGES)
    if clear_old:  # remove the marks of the previous run
        _unmark(book, old, names)
    rows: list[list[object]] = [[_(HEADER_PROBLEMS) if problems else (done or _("No problems.")), None]]
    for p in problems:
        located = p.cell and p.sheet in names
        rows.append([str(p), f"{p.shown_sheet}!{p.cell}" if located else None])
    rows += [[None, None]] * (max(len(old), 1) - len(rows))
    book.write(MESSAGES, 1, 1, rows)
    for p in problems:
        if p.cell and p.sheet in names:
            row, col = cell_position(p.cell)
            book.fill(p.sheet, row, col, MARK)
    if problems:
        shown = "\n".join(str(p) for p in problems[:10])
        more = "\n" + _("... and {count} more (see the Messages sheet)").format(count=len(problems) - 10) \
            if len(problems) > 10 else ""
        book.alert(_("Nothing was recalculated: {count} problem(s).").format(count=len(problems)) + f"\n{shown}{more}")
    elif done:
        book.alert(done)
