"""What can be wrong with a results file, and the bounds a file must keep.

Every problem is a :class:`~xlbridge.rules.problems.Problem` with a stable code
``results.*`` and a template that names where it is: ``line {row}`` in a PBN file,
the element path (``USEBIO/EVENT/BOARD[3]/TRAVELLER_LINE[2]/SCORE``) in a USEBIO
file.  A reader collects every problem of a file and raises them together as one
:class:`ResultsFileError`; nothing is returned then.

The bounds keep a damaged or hostile file from taking the machine: a club evening
is some 30 kB, the largest congress a few MB.

Standard library only.
"""

from __future__ import annotations

import re
from fractions import Fraction

from xlbridge.rules.problems import N_, Problem, ProblemsError

__all__ = ["ResultsFileError", "check", "MAX_BYTES", "MAX_BOARDS", "MAX_LINES", "MAX_PAIRS", "MAX_DEPTH",
           "number", "whole", "preflight", "bounded", "add"]

MAX_BYTES = 20_000_000  # the largest file read (bytes)
MAX_BOARDS = 1_000  # boards of one file (a long congress plays some 150)
MAX_LINES = 200_000  # traveller lines of one file (1,000 boards at 200 tables)
MAX_PAIRS = 10_000  # pairs of one file
MAX_DEPTH = 32  # XML nesting (USEBIO needs 8)
MAX_PROBLEMS = 1_000  # problems listed of one file (a file of junk would have millions)

#: A number as a results file writes one: sign, at most 15 digits, a decimal point
#: or comma and at most 15 decimals.  No exponent: ``1e999999`` would be a number
#: with a million digits.
_NUMBER = re.compile(r"[+-]?(\d{1,15})?([.,]\d{1,15})?")


def number(text: str) -> Fraction | None:
    """The exact number ``text`` writes (``"61.21"`` is 6121/100), or ``None``."""
    text = text.strip()
    match = _NUMBER.fullmatch(text)
    if not match or not (match[1] or match[2]):
        return None
    return Fraction(text.replace(",", "."))


def whole(text: str) -> int | None:
    """The whole number ``text`` writes, or ``None``."""
    value = number(text)
    return int(value) if value is not None and value.denominator == 1 else None


class ResultsFileError(ProblemsError):
    """Every problem of one results file; nothing was read."""

    what = N_("the results file")


def add(problems: list[Problem], problem: Problem) -> None:
    """Add ``problem`` unless :data:`MAX_PROBLEMS` are listed already."""
    if len(problems) < MAX_PROBLEMS:
        problems.append(problem)


def check(problems: list[Problem]) -> None:
    """Raise every problem found in a file together (none: return)."""
    if problems:
        raise ResultsFileError(problems)


def preflight(data: bytes) -> None:
    """Refuse, before reading it, a file that is too large, empty or not text."""
    if len(data) > MAX_BYTES:
        check([Problem("results.file.too-large", "the file has {size:,} bytes, more than {limit:,}, the "
                       "largest results file xlbridge reads", size=len(data), limit=MAX_BYTES)])
    if not data.strip():
        check([Problem("results.file.empty", "the file is empty")])
    if b"\x00" in data[:4096]:
        check([Problem("results.file.binary", "the file is not text (it holds zero bytes): neither PBN nor "
                       "USEBIO")])


def bounded(problems: list[Problem], boards: int, lines: int, pairs: int) -> None:
    """Add a problem for each count beyond its bound."""
    if boards > MAX_BOARDS:
        problems.append(Problem("results.limit.boards", "the file has {count:,} boards, more than {limit:,}, "
                                "the most xlbridge reads", count=boards, limit=MAX_BOARDS))
    if lines > MAX_LINES:
        problems.append(Problem("results.limit.lines", "the file has {count:,} traveller lines, more than "
                                "{limit:,}, the most xlbridge reads", count=lines, limit=MAX_LINES))
    if pairs > MAX_PAIRS:
        problems.append(Problem("results.limit.pairs", "the file has {count:,} pairs, more than {limit:,}, "
                                "the most xlbridge reads", count=pairs, limit=MAX_PAIRS))
