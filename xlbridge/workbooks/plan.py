"""What a recalculation plans and reports: the types every workbook kind shares.

A *kind* (TBF club tournament, Heeg season, BridgeMania season) knows how to
recognise its workbook and how to turn the scorer's sheets into a :class:`Plan`:
the blocks of computed values and the fills to write.  Planning reads only;
nothing is written until the whole workbook has been checked, so bad input
never causes a partial write.  :func:`recalculate` then applies the plan through
the :class:`~xlbridge.workbooks.book.BookAdapter` -- the same code for Excel
("Recalculate season" script) and headless (``xlbridge recalc``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from xlbridge.rules.problems import Problem
from xlbridge.rules.problems import N_, ProblemsError, RuleError
from xlbridge.workbooks.book import BookAdapter, Grid, Layout


class LocatedProblem:
    """One thing wrong in the workbook, located for the scorer: the typed problem
    (:class:`xlbridge.rules.problems.Problem`) and the sheet and cell it is at.

    ``LocatedProblem(sheet, cell, problem)``; ``cell`` is ``None`` for a whole sheet (or
    ``sheet`` is ``"workbook"``).  ``code`` and the concerns are the typed problem's.
    """

    __slots__ = ("sheet", "cell", "problem")

    def __init__(self, sheet: str, cell: str | None, problem: Problem | str):
        self.sheet = sheet
        self.cell = cell
        self.problem = problem if isinstance(problem, Problem) else RuleError(problem).problem

    @property
    def message(self) -> str:
        return self.problem.message

    @property
    def code(self) -> str:
        return self.problem.code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LocatedProblem) and (self.sheet, self.cell, self.problem) == (
            other.sheet, other.cell, other.problem)

    def __hash__(self) -> int:
        return hash((self.sheet, self.cell, self.problem))

    def __repr__(self) -> str:
        return f"LocatedProblem({self.sheet!r}, {self.cell!r}, {self.message!r})"

    @property
    def shown_sheet(self) -> str:
        """The sheet's name as the scorer sees it (in the workbook's language)."""
        from xlbridge.language import current
        from xlbridge.workbooks.localised import Localised

        return self.sheet if self.sheet == "workbook" else Localised.local_name(self.sheet, current())

    def __str__(self) -> str:
        sheet = self.shown_sheet
        if sheet == "workbook":
            from xlbridge.language import _

            sheet = _("workbook")
        where = f"{sheet}, {self.cell}" if self.cell else sheet
        return f"{where}: {self.message}"


def at(sheet: str, cell: str | None, code: str, template: str, /, **params: Any) -> LocatedProblem:
    """A located problem in one call:
    ``at("Tournament", "C12", "event.score.text", "score {value!r} is not a number", value="5x")``."""
    return LocatedProblem(sheet, cell, Problem(code, template, **params))


class BookInputError(ProblemsError):
    """The workbook cannot be recalculated; ``problems`` lists every reason
    (``language``: the workbook's, in which to show them)."""

    what = N_("the workbook")
    language = "en"


@dataclass
class Block:
    """Computed values written with their top-left corner at (row, col).

    ``what`` names, for the audit trail, the event of the block (an evening, a
    tournament), ``rows`` the unit of each row (a pair) and ``columns`` the
    header of each column.  ``audit=False`` keeps a block out of the audit trail
    (a derived view such as a sorted standings table, whose every change
    follows from an audited change elsewhere).
    """

    sheet: str
    row: int
    col: int
    values: Grid
    what: str = ""
    rows: Sequence[str] = ()
    columns: Sequence[str] = ()
    audit: bool = True
    formats: Sequence[str] = ()  # the number format of each column (the Corrections sheet shows values so)


@dataclass
class Plan:
    """Everything a recalculation will write, and its ``warnings``: located
    problems (typed by their code, like the problems that stop a recalculation)
    about a typed value the recalculation went on without, or replaced -- shown
    at their cells, on the Messages sheet and by the CLI."""

    new_sheets: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    fills: list[tuple[str, int, int, str | None]] = field(default_factory=list)
    clear: list[tuple[str, int, int, int, int]] = field(default_factory=list)  # sheet, row, col, nrows, ncols
    layouts: list[tuple[str, Layout]] = field(default_factory=list)  # the look of sheets in new_sheets
    warnings: list[LocatedProblem] = field(default_factory=list)


class Kind(Protocol):
    name: str

    def recognises(self, book: BookAdapter) -> bool: ...

    def plan(self, book: BookAdapter) -> Plan:
        """Read the workbook and compute; raise :class:`BookInputError` listing
        every problem found."""
        ...


@dataclass(frozen=True)
class Change:
    """A computed cell whose earlier value changed (for the audit trail)."""

    sheet: str
    cell: str
    what: str
    unit: str
    column: str
    old: Any
    new: Any
    number_format: str = "General"
    cause: str = ""  # record.TYPED (the scorer's change), record.TYPED_OVER; "" recalculated (English)


@dataclass
class Report:
    """What a recalculation did: the workbook kind, the number of computed cells
    (each now holds its value: written, or left when it already held it), the
    earlier values that changed, the plan's warnings and how many cells hold a
    result (``results``; 0: nothing is filled in yet; ``None``: not counted)."""

    kind: str
    cells_written: int
    changes: list[Change]
    warnings: list[LocatedProblem] = field(default_factory=list)
    results: int | None = None
    language: str = "en"
    plan: Plan | None = field(default=None, repr=False, compare=False)  # what was applied
    typed: list[Change] = field(default_factory=list)  # the typed cells changed since the last recalculation


@dataclass
class NextSheet:
    """The next sheet as planned, then added: its (English) ``sheet`` name, the ``day``,
    where it goes (right ``after`` that sheet), where the season lists it
    (``entered``: sheet and cell, or ``None`` when it was listed already), how many
    ``pairs`` it lists, the cell to select, and the ``plan`` that writes it."""

    kind: str
    sheet: str
    day: dt.date
    after: str | None
    entered: tuple[str, str] | None
    pairs: int
    select: str = "A2"
    plan: Plan = field(default_factory=Plan, repr=False)
    language: str = "en"
    #: The season is recalculated once the sheet is there (BridgeMania: the next participation list is
    #: then the new tournament's, from the next host typed now; issue 26, point 4); ``report``: that
    #: recalculation's, ``pending``: the problems that stopped it (the sheet stays added).
    recalculate: bool = False
    report: Report | None = field(default=None, repr=False)
    pending: list[LocatedProblem] = field(default_factory=list, repr=False)
