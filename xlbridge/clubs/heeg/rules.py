"""The stateless rules of Bridge club Heeg: inv codes, line tops, the evening %.

Each is wrapped as a worksheet function by the Excel layer (``HEEG_PCT``,
``HEEG_C``) or used by the season (:mod:`xlbridge.clubs.heeg.season`); the rules
and the Dutch sentences they come from are in ``docs/clubs/heeg.md``.  A bad
value raises :class:`~xlbridge.rules.problems.RuleError` with a coded problem
naming it (``field`` = the argument).

>>> round(heeg_pct(103, 180, ""), 4)            # 103 of 180 MP
57.2222
>>> round(heeg_pct(100, 180, "s", rounds=6), 4)  # sit-out: 100 x 6/5 = 120 of 180
66.6667
>>> heeg_pct(None, 180, "a", egs=47.5, nth_absence=2)   # min(47.5, 45)
45.0
>>> heeg_c(20, line_top(9), 10)       # average at the combi table -> average of a 9-pair line
12.0

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from xlbridge.rules.problems import N_, RuleError
from xlbridge.values import as_number, exact, is_blank

__all__ = ["CODES", "EGS_CODES", "MARK_CODES", "ABSENT_CODES", "MP_CODES", "ABSENCE_CAPS", "CODE_TEMPLATE",
           "normalise_code", "line_top", "evening_max", "absence_cap", "heeg_pct", "heeg_c",
           "exact_pct", "exact_c", "MAXIMA", "too_large"]

#: The largest value of every number that enters a Heeg rule (issue 14: a number beyond it is a
#: problem naming it, not an overflow or a silent nonsense; docs/reliability.md, "Bounds of the
#: numbers in rules").  No club evening comes near: 6-7 rounds of 2-4 boards, tops of 4-12.
MAXIMA: dict[str, float] = {
    "rounds": 30,  # rounds per evening
    "boards_per_round": 36,
    "combi_top": 1000,  # a top of 1000 is a line of 1002 pairs
    "line_top": 1000,
    "max_mp": 30 * 36 * 1000,  # the evening's maximum: rounds x boards x top
    "promote": 1000,
}


def too_large(field: str, value: Any, number: float, what: str) -> RuleError | None:
    """The problem of a number above its :data:`MAXIMA` (``None`` when within)."""
    if number <= MAXIMA[field]:
        return None
    return RuleError("heeg.number.too-large", "{what} {value!r} is more than {maximum:,}, the largest that makes "
                     "sense", field=field, value=value, what=what, maximum=MAXIMA[field])


#: Every ``inv`` code the workbook knows ("" is a blank cell).
CODES: tuple[str, ...] = ("", "1", "2", "0", "a", "s", "s1", "=")
#: Codes whose % is an *achieved* score and therefore enters the EGS.
EGS_CODES: frozenset[str] = frozenset({"", "1", "s", "s1"})
#: Codes that count as "had substitutes or was absent" for the red signals.
MARK_CODES: frozenset[str] = frozenset({"1", "2", "s1", "0", "a"})
#: Codes of pairs that did not sit at a table (not counted for the line top, MP not needed).
ABSENT_CODES: frozenset[str] = frozenset({"0", "a"})
#: Codes whose % is computed from the MP (so the MP must be typed).
MP_CODES: frozenset[str] = frozenset({"", "1", "s", "s1"})
#: Cap of the EGS for the 1st, 2nd, 3rd and any later ``a``.
ABSENCE_CAPS: tuple[float, ...] = (50.0, 45.0, 40.0, 35.0)

#: The message of an unknown inv code (the season reports it with the same words).
CODE_TEMPLATE = N_("inv code {value!r} is not one of 1, 2, 0, a, s, s1, = or blank")


def normalise_code(code: Any) -> str:
    """The ``inv`` code as the engine knows it ("" for a blank cell).

    Excel stores a typed ``1`` as the number 1.0; ``A``, ``S1`` are lower-cased.
    An unknown code raises :class:`RuleError` naming it.

    >>> [normalise_code(c) for c in (None, 1.0, " S1 ", "=", "a", 0)]
    ['', '1', 's1', '=', 'a', '0']
    """
    if is_blank(code):
        return ""
    if isinstance(code, bool):
        raise RuleError("heeg.code.unknown", CODE_TEMPLATE, field="code", value=code)
    if isinstance(code, (int, float)) and float(code).is_integer():
        text = str(int(code))
    else:
        text = str(code).strip().lower()
    if text not in CODES:
        raise RuleError("heeg.code.unknown", CODE_TEMPLATE, field="code", value=code)
    return text


def line_top(pairs: int) -> int:
    """The top (MP per board) of a line where ``pairs`` pairs play.

    Each board is played at ``pairs // 2`` tables (an odd pair out sits out or
    plays at the combi table), so a board is scored against ``pairs // 2 - 1``
    others at 2 MP each: top = 2 x (pairs // 2) - 2.  12 pairs -> 10 (the combi
    table), 9 -> 6 (average 3 x 4 boards = 12 MP), 11 -> 8 (average 16 MP).

    >>> [line_top(n) for n in (9, 11, 12, 13, 14)]
    [6, 8, 10, 10, 12]
    """
    if isinstance(pairs, bool) or not isinstance(pairs, int) or pairs < 4:
        raise RuleError("heeg.line.pairs", "a line needs at least 4 pairs to have a top; got {value!r}",
                        field="pairs", value=pairs)
    return 2 * (pairs // 2) - 2


def evening_max(pairs: int, rounds: int, boards_per_round: int) -> int:
    """Maximum MP of one evening: rounds x boards per round x line top.

    >>> evening_max(14, 6, 4)
    288
    """
    return rounds * boards_per_round * line_top(pairs)


def _nth_problem(value: Any) -> RuleError:
    return RuleError("heeg.nth-absence.invalid", "nth_absence must be a whole number from 1; got {nth!r}",
                     field="nth_absence", value=value, nth=value)


def absence_cap(nth: int) -> float:
    """The cap of the EGS for the n-th ``a``: 50, 45, 40, then 35.

    >>> [absence_cap(n) for n in (1, 2, 3, 4, 9)]
    [50.0, 45.0, 40.0, 35.0, 35.0]
    """
    if isinstance(nth, bool) or not isinstance(nth, int) or nth < 1:
        raise _nth_problem(nth)
    return ABSENCE_CAPS[min(nth, len(ABSENCE_CAPS)) - 1]


def _from_egs(kind: str, egs: Any, nth_absence: Any) -> Fraction:
    """The % of a ``2`` or an ``a``: the EGS under its cap, 50 without an EGS.

    (The messages of :func:`heeg_pct` name each argument by its own parameter, so
    that a caller may set ``value`` -- what its row typed -- without changing them.)"""
    average = None if is_blank(egs) else as_number(egs)
    if not is_blank(egs) and (average is None or not 0 <= average <= 100):
        raise RuleError("heeg.egs.range", "EGS must be a percentage from 0 to 100; got {egs!r}",
                        field="egs", value=egs, egs=egs)
    nth = 1
    if kind == "a":
        nth_number = 1.0 if is_blank(nth_absence) else as_number(nth_absence)
        if nth_number is None or not nth_number.is_integer():
            raise _nth_problem(nth_absence)
        nth = int(nth_number)
    cap = Fraction(50) if kind == "2" else Fraction(absence_cap(nth))
    if not average:  # no EGS yet ("omdat de EGS dan nog 0 is")
        return Fraction(50)
    return min(exact(egs), cap)


def _from_mp(kind: str, mp: Any, max_mp: Any, rounds: Any) -> Fraction:
    """The % of a score computed from the MP (blank, ``1``, ``s``, ``s1``)."""
    points = as_number(mp)
    if points is None:
        if is_blank(mp):
            raise RuleError("heeg.mp.empty", "MP is empty; type the MP or an inv code", field="mp", value=mp, mp=mp)
        raise RuleError("heeg.mp.not-a-number", "MP {mp!r} is not a number", field="mp", value=mp, mp=mp)
    if points < 0:
        raise RuleError("heeg.mp.negative", "MP {mp!r} is negative", field="mp", value=mp, mp=mp)
    top = as_number(max_mp)
    if top is None or top <= 0:
        raise RuleError("heeg.max-mp.invalid", "maximum MP must be a number above 0; got {maximum!r}",
                        field="max_mp", value=max_mp, maximum=max_mp)
    if top > MAXIMA["max_mp"]:
        raise too_large("max_mp", max_mp, top, "maximum MP")  # type: ignore[misc]
    score = exact(mp)
    if kind in ("s", "s1"):
        r = 6.0 if is_blank(rounds) else as_number(rounds)
        if r is None or not r.is_integer() or r < 2:
            raise RuleError("heeg.rounds.invalid", "rounds must be a whole number from 2; got {rounds!r}",
                            field="rounds", value=rounds, rounds=rounds)
        if r > MAXIMA["rounds"]:
            raise too_large("rounds", rounds, r, "rounds")  # type: ignore[misc]
        if points > top * (r - 1) / r + 1e-9:
            raise RuleError("heeg.mp.above-sit-out-max",
                            "MP {mp!r} is above the maximum of the {played:g} rounds played before the sit-out "
                            "correction ({top:g} x {played:g}/{rounds:g} = {maximum:g})",
                            field="mp", value=mp, mp=mp, played=r - 1, top=top, rounds=r, maximum=top * (r - 1) / r)
        points = points * r / (r - 1)
        score = score * int(r) / (int(r) - 1)
    if points > top + 1e-9:
        raise RuleError("heeg.mp.above-max", "MP {mp!r} is above the evening's maximum {maximum!r}",
                        field="mp", value=mp, mp=mp, maximum=max_mp)
    return score / exact(max_mp) * 100


def heeg_pct(mp: Any, max_mp: Any, code: Any, egs: Any = None, nth_absence: Any = 1, rounds: Any = None) -> float:
    """The evening % of one pair (worksheet function ``HEEG_PCT``).

    - blank, ``1``: mp / max_mp x 100 (``1`` is counted for the signals only);
    - ``s``, ``s1``: mp x rounds / (rounds - 1) / max_mp x 100 (rounds blank: 6);
    - ``0``: 25;  ``=``: 50;
    - ``2``: min(egs, 50); ``a``: min(egs, 50/45/40/35 for the 1st/2nd/3rd/later
      ``a``); both give 50 when there is no EGS yet (``egs`` blank or 0).

    ``mp`` already holds the corrected combi MP when the pair played the combi
    table.  Errors raise :class:`RuleError` naming the value.  The float nearest
    to :func:`exact_pct` (computed in fractions, then rounded once).

    >>> heeg_pct(None, None, 0), heeg_pct(None, None, "="), heeg_pct(None, None, 2, egs=61.0)
    (25.0, 50.0, 50.0)
    >>> heeg_pct(None, None, "a", egs=None, nth_absence=3)
    50.0
    """
    return float(exact_pct(mp, max_mp, code, egs, nth_absence, rounds))


def exact_pct(mp: Any, max_mp: Any, code: Any, egs: Any = None, nth_absence: Any = 1, rounds: Any = None
              ) -> Fraction:
    """:func:`heeg_pct` as an exact fraction (what the standings rank on, docs/clubs/heeg.md
    §6.1): the same arguments and checks, every number read as the decimal it is typed
    as (:func:`~xlbridge.values.exact`; a fraction stays itself).

    >>> exact_pct(150, 288, "s", rounds=6), exact_pct(None, None, "a", egs=Fraction(95, 2), nth_absence=2)
    (Fraction(125, 2), Fraction(45, 1))
    """
    kind = normalise_code(code)
    if kind == "0":
        return Fraction(25)
    if kind == "=":
        return Fraction(50)
    if kind in ("2", "a"):
        return _from_egs(kind, egs, nth_absence)
    return _from_mp(kind, mp, max_mp, rounds)


def heeg_c(points: Any, own_top: Any, combi_top: Any) -> float:
    """Corrected combi-table MP (worksheet function ``HEEG_C``):
    points x own line's top / combi table top (the float nearest to :func:`exact_c`).

    >>> heeg_c(20, 8, 10), heeg_c(40, 6, 10)
    (16.0, 24.0)
    """
    return float(exact_c(points, own_top, combi_top))


def exact_c(points: Any, own_top: Any, combi_top: Any) -> Fraction:
    """:func:`heeg_c` as an exact fraction (the same checks; numbers as typed, :func:`~xlbridge.values.exact`).

    >>> exact_c(43, 10, 12)
    Fraction(215, 6)
    """
    p = as_number(points)
    if p is None or p < 0:
        raise RuleError("heeg.combi-mp.invalid", "combi MP must be a number from 0; got {value!r}",
                        field="combi_mp", value=points)
    own = as_number(own_top)
    if own is None or own < 0:
        raise RuleError("heeg.line-top.invalid", "own line top must be a number from 0; got {value!r}",
                        field="line_top", value=own_top)
    combi = as_number(combi_top)
    if combi is None or combi <= 0:
        raise RuleError("heeg.combi-top.invalid", "combi table top must be a number above 0; got {value!r}",
                        field="combi_top", value=combi_top)
    for field, value, number, what in (("line_top", own_top, own, "own line top"),
                                       ("combi_top", combi_top, combi, "combi table top")):
        error = too_large(field, value, number, what)
        if error is not None:
            raise error
    if p > combi * MAXIMA["boards_per_round"]:
        raise RuleError("heeg.combi-mp.above-max", "combi MP {value!r} is above the combi table's maximum "
                        "{maximum:g}", field="combi_mp", value=points, maximum=combi * MAXIMA["boards_per_round"])
    return exact(points) * exact(own_top) / exact(combi_top)
