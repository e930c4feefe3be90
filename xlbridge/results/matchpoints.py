"""Matchpoints from scores, where a file gives scores but no matchpoints.

The standard duplicate rule on the 0-2-4 scale -- the scale of the BridgeMania
Regolamento ("secondo la scala 0 - 2 - 4 -... fino al TOP", Sezione C 01) and of
PBN's ``MP1`` (§3.4.12: "earning 2 points for each lower score, 1 point for each
equal score, and 0 points for each higher score"): a board played at ``n`` tables
has the top ``2 (n - 1)`` and its matchpoints add up to ``n (n - 1)``.

A board with fewer results than the tournament's TOP (a line cancelled, an
assigned score): the Regolamento's rule, not Neuberg's formula.  Sezione C 05
values the remaining lines "secondo la seguente scala: (TOP-1) (TOP-3) … 1" and
gives each pair of the cancelled line the average TOP/2, "in questo modo la somma
dei punteggi mano su ciascuna linea risulta uguale a quello degli score regolari".
That scale is the 0-2-4 scale of the results there are, raised by one; for ``k``
missing results it is raised by ``k``, which keeps that same sum
(docs/import.md, "A board with fewer results").

Everything is exact (:class:`~fractions.Fraction`).  Standard library only.

>>> [int(mp) for mp in matchpoints([420, 420, 170, -50])]
[5, 5, 2, 0]
>>> [int(mp) for mp in matchpoints([420, 170, -50], top=6)]  # one of four lines cancelled
[5, 3, 1]
>>> rescale(Fraction(3), 3, 6)  # BridgeComposer's MP2 (0-1 scale) to the 0-2 scale
Fraction(6, 1)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from fractions import Fraction

from xlbridge.results.model import Line
from xlbridge.results.problems import check
from xlbridge.rules.problems import Problem

__all__ = ["matchpoints", "rescale", "board_top", "board_points"]


def board_top(rows: int) -> int:
    """The top of a board played ``rows`` times on the 0-2 scale: ``2 (rows - 1)``."""
    return 2 * (rows - 1)


def matchpoints(scores: Sequence[int], top: int | Fraction | None = None,
                counts: Sequence[int] | None = None) -> list[Fraction]:
    """North-South's matchpoints of each score of one board (North-South's trick
    scores), on the 0-2 scale: 2 for each lower score, 1 for each equal one.

    ``counts`` (PBN's Multiplicity) says how many tables each score stands for
    (1 each when not given).  ``top``: the board's TOP when it is more than the
    results there are make (``2 (n - 1)`` for ``n`` tables): each result is then
    raised by half the difference, the Regolamento's scale for a board with fewer
    results.  East-West's matchpoints are ``top - ns``.
    """
    counts = [1] * len(scores) if counts is None else list(counts)
    rows = sum(counts)
    standard = 2 * (rows - 1)
    top = Fraction(standard if top is None else top)  # (exact: a whole top gives whole or half points, never floats)
    if top < standard:
        check([Problem("results.top.too-small", "a TOP of {top} is less than {rows} results make "
                       "(2 x ({rows} - 1) = {standard})", top=top, rows=rows, standard=standard)])
    ordered = sorted(s for s, c in zip(scores, counts) for _ in range(c))
    raise_by = (top - standard) / 2
    return [2 * bisect_left(ordered, s) + (bisect_right(ordered, s) - bisect_left(ordered, s) - 1) + raise_by
            for s in scores]


def rescale(points: Fraction, top: int | Fraction, new_top: int | Fraction) -> Fraction:
    """``points`` on a scale with ``top`` as the same share of ``new_top`` (exact)."""
    return Fraction(points) * Fraction(new_top) / Fraction(top)


def board_points(board: int, lines: Sequence[Line], top: int | Fraction | None = None) -> list[tuple[str, Fraction]]:
    """Each pair's points of one board (North-South's then East-West's of every line, in the lines' order) on
    the 0-2 scale with ``top`` (``2 (rows - 1)`` when not given; a higher one raises every result as
    :func:`matchpoints` does): from the lines' trick scores, or where a line has none from the file's
    matchpoints rescaled from their own top.  A problem of the file when a line stands for several tables
    or has neither a score nor matchpoints.

    >>> [(pair, int(mp)) for pair, mp in board_points(1, [Line(1, "1", "5", score=420), Line(1, "2", "6", score=-50)])]
    [('1', 2), ('5', 0), ('2', 0), ('6', 2)]
    """
    standard = board_top(len(lines))
    top = Fraction(standard if top is None else top)
    if top < standard:  # (a board listed at more tables than its section has: its lines twice, or another's)
        check([Problem("results.board.top-too-small", "board {board}: a TOP of {top} is less than its {rows} results "
                       "make (2 x ({rows} - 1) = {standard})", board=board, top=top, rows=len(lines),
                       standard=standard)])
    if any(line.count != 1 for line in lines):
        check([Problem("results.board.multiplicity", "board {board}: a line stands for several tables without "
                       "naming their pairs", board=board)])
    if all(line.score is not None for line in lines):
        ns = matchpoints([line.score for line in lines], top)  # type: ignore[misc]
    elif all(line.mp_ns is not None and line.mp_ew is not None and line.mp_ns + line.mp_ew > 0 for line in lines):
        ns = [rescale(line.mp_ns, line.mp_ns + line.mp_ew, standard) + (top - standard) / 2  # type: ignore[operator]
              for line in lines]
    else:
        check([Problem("results.board.no-score", "board {board}: a line has neither a score nor matchpoints",
                       board=board)])
    return [(pair, mp) for line, n in zip(lines, ns) for pair, mp in ((line.ns, n), (line.ew, top - n))]
