"""A typed cell that holds a formula or an error value instead of a value.

Read headless (openpyxl), a formula arrives as its text (``"=SUM(A1:A3)"``) and an
error value as its code (``"#REF!"``); in Excel a formula arrives as its value, an
error value as its code.  A kind checks each typed cell it reads with
:func:`not_a_value` first: such a cell is reported once, at that cell (issue 14,
point 7), and the kind reads it as unknown -- the checks that depend on it are not
made (a formula in the Lines setting must not make every roster line "not one of
the lines").

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from xlbridge.workbooks.book import Grid, cell, cell_position
from xlbridge.workbooks.plan import LocatedProblem, at

__all__ = ["EXCEL_ERRORS", "not_a_value", "cell_problem", "one_per_cell", "spaced"]

_REF = re.compile(r"([A-Z]{1,3})([0-9]+)")

#: Excel's error values, as a cell shows them.
EXCEL_ERRORS: frozenset[str] = frozenset({
    "#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!", "#CALC!",
    "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!", "#UNKNOWN!", "#TIMEOUT!", "#PYTHON!", "#EXTERNAL!",
})


def not_a_value(value: Any) -> str | None:
    """``"formula"``, ``"error"`` or ``None`` (a value, or blank).

    >>> not_a_value("=A1"), not_a_value(" #REF! "), not_a_value("= 3"), not_a_value("A"), not_a_value(3.0)
    ('formula', 'error', 'formula', None, None)
    """
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.startswith("=") and len(text) > 1:
        return "formula"
    if text.upper() in EXCEL_ERRORS:
        return "error"
    return None


def cell_problem(sheet: str, ref: str, value: Any, **params: Any) -> LocatedProblem | None:
    """The located problem of a typed cell holding a formula or an error value, else ``None``."""
    kind = not_a_value(value)
    if kind == "formula":
        return at(sheet, ref, "cell.formula", "this cell takes a typed value, not a formula ({value}); type the "
                  "value", value=str(value).strip(), **params)
    if kind == "error":
        return at(sheet, ref, "cell.error", "this cell holds the error value {value}; type the value (a deleted "
                  "cell or sheet leaves #REF!)", value=str(value).strip(), **params)
    return None


def spaced(sheet: str, ref: str, value: Any, **params: Any) -> LocatedProblem | None:
    """The warning of a typed id (a pair number or id, a tournament) with a space or another blank before or
    after it, else ``None``: ids are compared without them (issue 25: pair ``"BE "`` was silently pair ``BE``).

    >>> spaced("T01", "A9", "BE ").message, spaced("T01", "A9", "BE"), spaced("T01", "A9", 3.0)
    ("'BE ' has a space before or after it; it is read as 'BE' (delete the space)", None, None)
    """
    if not isinstance(value, str) or value == value.strip() or not value.strip() or not_a_value(value):
        return None
    return at(sheet, ref, "cell.spaced", "{value!r} has a space before or after it; it is read as {trimmed!r} "
              "(delete the space)", value=value, trimmed=value.strip(), **params)


def _position(ref: str) -> tuple[int, int] | None:
    return cell_position(ref) if _REF.fullmatch(ref) else None


def one_per_cell(problems: Sequence[LocatedProblem], grid: Callable[[str], Grid]) -> list[LocatedProblem]:
    """The problems with each one at a cell holding a formula or an error value replaced by
    that cell's :func:`cell_problem`, once (a kind whose reader does not look for them
    first: the problems its checks found there are what the formula or the error caused).

    ``grid(sheet)`` reads a sheet's grid."""
    out: list[LocatedProblem] = []
    seen: set[tuple[str, str]] = set()
    for problem in problems:
        where = _position(problem.cell) if problem.cell else None
        found = None
        if where is not None:
            found = cell_problem(problem.sheet, problem.cell, cell(grid(problem.sheet), *where))  # type: ignore[arg-type]
        if found is None:
            out.append(problem)
        elif (problem.sheet, problem.cell) not in seen:
            seen.add((problem.sheet, problem.cell))  # type: ignore[arg-type]
            out.append(found)
    return out
