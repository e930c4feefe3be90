"""The contract every rule set fulfils, and the small helpers they share.

A *rule set* (one module per rule document, see :mod:`xlbridge.rules`) publishes
one or more *schemes*.  A scheme is an object that satisfies :class:`RuleSet`:
metadata as attributes, the options it understands, and one method that turns a
whole final ranking into awards.  Everything else -- awarding a single place,
parsing option text typed in a cell, the CLI -- is built on that one method by
:mod:`xlbridge.rules`.

Nothing here imports Excel libraries; the engine is pure Python so that it runs
inside Pyodide (xlwings Lite) as well as on a server.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, localcontext
from functools import cache
from importlib import resources
from typing import Any, ClassVar, Protocol, runtime_checkable

from xlbridge.rules.problems import Problem, ProblemsError, RuleError

__all__ = [
    "Award", "Problem", "ProblemsError", "RuleError", "Option", "RuleSet", "Ranks", "convert_ranks", "concerning",
    "option_problem", "check_competition_ranking", "tie_groups", "share_ties", "round_half_up", "load_table",
]

Rank = float | None
Ranks = list[Rank]


@dataclass(frozen=True)
class Award:
    """The award for one unit (pair, team or player) in one ranking.

    ``points`` is the official figure after the rule set's own rounding;
    ``unit`` names the currency (``green``, ``yellow``, ``bp``, ``sp``, ...).
    ``decimals`` is how many decimals the rule document shows.
    """

    points: float
    unit: str
    decimals: int = field(default=2, compare=False, repr=False)
    #: further parts in other currencies, most valuable first: a tie across a currency
    #: boundary shares each currency's points separately (Svenska Mästarpoäng section 5,
    #: "Delad placering"), e.g. ``Award(3.0, "sp", 0, also=((7.0, "bp"),))`` is 3 sp + 7 bp.
    also: tuple[tuple[float, str], ...] = field(default=(), repr=False)

    @property
    def parts(self) -> tuple[tuple[float, str], ...]:
        """Every ``(points, unit)`` of the award, the main one first.

        >>> Award(3.0, "sp", 0, also=((7.0, "bp"),)).parts
        ((3.0, 'sp'), (7.0, 'bp'))
        """
        return ((self.points, self.unit), *self.also)

    @property
    def unit_text(self) -> str:
        """The unit, followed by the further parts: what a cell beside ``points`` shows.

        >>> Award(3.0, "sp", 0, also=((7.0, "bp"),)).unit_text, Award(0.62, "green").unit_text
        ('sp + 7 bp', 'green')
        """
        return " + ".join([self.unit, *(self._shown(p, u) for p, u in self.also)])

    def _shown(self, points: float, unit: str) -> str:
        shown = round_half_up(points, self.decimals)
        return f"{shown:.{self.decimals}f} {unit}"

    def __str__(self) -> str:
        """``0.62 green``; an award in several currencies: ``3 sp + 7 bp``."""
        return " + ".join(self._shown(p, u) for p, u in self.parts)

    def __repr__(self) -> str:
        also = f", also={self.also!r}" if self.also else ""
        return f"Award(points={self.points!r}, unit={self.unit!r}{also})"

    def __float__(self) -> float:
        return float(self.points)


@dataclass(frozen=True)
class Option:
    """One option a scheme understands (``boards=26``, ``movement=mitchell``).

    ``kind`` is one of ``int``, ``float``, ``str``, ``bool``; ``choices``
    restricts a ``str`` option; a number must lie within ``limit`` either side
    of zero (no rule document counts boards, points or tables beyond it; the
    arithmetic of a rule stays exact inside it).  Values arriving as text (a
    worksheet cell, the CLI) are converted by :meth:`convert`.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    limit: float = 1e9

    def convert(self, scheme: str, value: Any) -> Any:
        if value is None or (isinstance(value, str) and value.strip() == ""):
            return self.default
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, (int, float)) and value in (0, 1):
                return bool(value)
            text = str(value).strip().lower()
            if text in ("true", "yes", "1", "on", "ja", "evet", "sì", "si"):
                return True
            if text in ("false", "no", "0", "off", "nee", "nej", "hayir", "hayır"):
                return False
            raise RuleError("option.not-yes-no", "{scheme} option {option} must be yes or no; got {value!r}",
                            scheme=scheme, option=self.name, value=value)
        if self.kind in ("int", "float"):
            number = _number(value)
            if number is None or not math.isfinite(number):
                raise RuleError("option.not-a-number", "{scheme} option {option} must be a number; got {value!r}",
                                scheme=scheme, option=self.name, value=value)
            if abs(number) > self.limit:
                raise RuleError("option.out-of-range",
                                "{scheme} option {option} must lie between -{limit:,.0f} and {limit:,.0f}; got {value!r}",
                                scheme=scheme, option=self.name, limit=self.limit, value=value)
            if self.kind == "int":
                if number != int(number):
                    raise RuleError("option.not-whole", "{scheme} option {option} must be a whole number; got {value!r}",
                                    scheme=scheme, option=self.name, value=value)
                return int(number)
            return float(number)
        text = str(value).strip()
        if self.choices:
            lowered = text.lower()
            if lowered not in self.choices:
                raise RuleError("option.not-a-choice", "{scheme} option {option} must be one of {choices}; got {value!r}",
                                scheme=scheme, option=self.name, choices=", ".join(self.choices), value=value)
            return lowered
        return text


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and abs(value) > 10**300:  # beyond a float: as large as one (out of range)
        return 1e300 if value > 0 else -1e300
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip().replace(",", ".")
        try:
            return float(text)
        except ValueError:
            if "/" in text:
                num, _, den = text.partition("/")
                try:
                    return float(num) / float(den)
                except (ValueError, ZeroDivisionError):
                    return None
            return None
    return None


@runtime_checkable
class RuleSet(Protocol):
    """What every scheme provides.

    Attributes are metadata shown by ``xlbridge schemes``; :meth:`awards` does the
    work.  ``ranks`` arrives converted (see :func:`convert_ranks`) and checked
    by :meth:`check_ranks`: one entry per competing unit, ``None`` for a unit
    that is not ranked, equal numbers for tied units.  ``options`` arrives complete and converted (every name of
    :attr:`options`, defaults filled in).
    """

    id: str
    title: str
    units: tuple[str, ...]
    source: str
    section: str
    options: Mapping[str, Option]

    def awards(self, ranks: Ranks, options: Mapping[str, Any]) -> list[Award]:
        """The award of every entry of ``ranks``, in the same order."""
        ...

    def default_ranks(self, field: int, options: Mapping[str, Any]) -> Ranks:
        """The untied ranking of a field of ``field`` units (what ``award`` uses
        when it is given a number instead of a ranking)."""
        ...

    def check_ranks(self, ranks: Ranks, options: Mapping[str, Any]) -> None:
        """Raise :class:`RuleError` unless ``ranks`` is a ranking this scheme can
        award (most schemes: one competition ranking, :func:`check_competition_ranking`)."""
        ...


class SchemeBase:
    """Convenience base: class attributes for metadata, plain ``1..n`` default ranks."""

    id: ClassVar[str]
    title: ClassVar[str]
    units: ClassVar[tuple[str, ...]]
    source: ClassVar[str]
    section: ClassVar[str]
    options: ClassVar[Mapping[str, Option]] = {}
    #: Whether each direction of a two-winner Mitchell is an event of its own (Sweden: "ren Mitchell räknas som
    #: två tävlingar"); TBF awards the directions over both together (section 8).
    directions_apart: ClassVar[bool] = True

    def default_ranks(self, field: int, options: Mapping[str, Any]) -> Ranks:
        return [float(p) for p in range(1, field + 1)]

    def check_ranks(self, ranks: Ranks, options: Mapping[str, Any]) -> None:
        check_competition_ranking(self.id, ranks)

    def awards(self, ranks: Ranks, options: Mapping[str, Any]) -> list[Award]:  # pragma: no cover
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<scheme {self.id}>"


def concerning(error: RuleError, **concerns: Any) -> RuleError:
    """``error`` again, its problem concerning ``concerns`` too: a caller adds what it
    knows (the place, the field, the scheme); the message stays the same.

    >>> concerning(RuleError("ranks.empty", "{scheme}: the ranking is empty", scheme="demo"), argument="ranks").problem.concerns()
    {'scheme': 'demo', 'argument': 'ranks'}
    """
    return RuleError(error.problem.replace(**concerns))


def option_problem(error: RuleError, scheme: Any) -> RuleError:
    """A plain function's problem about its argument ``x``, met while ``scheme`` computes
    with its option ``x`` (``match_award(boards)`` under ``boards=``): the problem
    concerns that option and the scheme; the message stays the same.

    >>> class Demo: id, options = "demo", {"boards": None}
    >>> error = RuleError("demo.boards", "at most 64 boards; got {boards}", argument="boards", boards=70)
    >>> option_problem(error, Demo()).problem.concerns()
    {'scheme': 'demo', 'option': 'boards'}
    """
    problem = error.problem
    extra: dict[str, Any] = {} if problem.scheme is not None else {"scheme": scheme.id}
    if problem.option is None and problem.argument in scheme.options:
        extra.update(option=problem.argument, argument=None)
    return RuleError(problem.replace(**extra)) if extra else error


def convert_ranks(scheme: str, ranks: Iterable[Any]) -> Ranks:
    """Turn typed ranks into floats (``None`` for blank); no ordering check.

    >>> convert_ranks("demo", [1, "2", 2, None, 4.0, ""])
    [1.0, 2.0, 2.0, None, 4.0, None]
    """
    out: Ranks = []
    for position, value in enumerate(ranks, start=1):
        kind = value.__class__
        if kind is int and 1 <= value <= 2**53:  # the common cases first: typed whole places
            out.append(float(value))
            continue
        if kind is float and 1.0 <= value < 1e300 and value.is_integer():
            out.append(value)
            continue
        if value is None or (isinstance(value, str) and value.strip() == ""):
            out.append(None)
            continue
        number = _number(value)
        if number is None or not math.isfinite(number) or number != int(number) or number < 1:
            raise RuleError("ranks.not-a-place", "{scheme}: rank {position} must be a whole number from 1; got {value!r}",
                            scheme=scheme, argument="ranks", position=position, value=value)
        out.append(float(number))
    return out


def check_competition_ranking(scheme: str, ranks: Sequence[Rank]) -> None:
    """A unit's place must be one more than the number of units ranked above it
    (``1, 2, 2, 4`` -- not ``1, 2, 2, 3``).

    >>> check_competition_ranking("demo", [1, 2, 2, 3])
    Traceback (most recent call last):
    ...
    xlbridge.rules.problems.RuleError: demo: ranks must be competition places (1, 2, 2, 4, ...); place 3 follows 3 better-ranked units, expected 4
    """
    placed = sorted(r for r in ranks if r is not None)
    for index, rank in enumerate(placed):
        if index == 0 or rank != placed[index - 1]:
            expected = index + 1
            if rank != expected:
                raise RuleError(
                    "ranks.not-competition",
                    "{scheme}: ranks must be competition places (1, 2, 2, 4, ...); "
                    "place {place} follows {better} better-ranked units, expected {expected}",
                    scheme=scheme, argument="ranks", place=int(rank), better=index, expected=expected,
                )


def tie_groups(ranks: Sequence[Rank]) -> dict[float, int]:
    """How many units share each place.

    >>> tie_groups([1, 2, 2, 4, None])
    {1: 1, 2: 2, 4: 1}
    """
    counts: dict[float, int] = {}
    for rank in ranks:
        if rank is not None:
            counts[rank] = counts.get(rank, 0) + 1
    return counts


def share_ties(ranks: Sequence[Rank], place_value: Callable[[int], float]) -> list[float]:
    """Each unit's share when tied units split the sum of the places they occupy.

    ``place_value(p)`` is the award of the untied place ``p``.  Units that are not
    ranked get 0.

    >>> share_ties([1, 2, 2, 4], lambda p: {1: 10, 2: 6, 3: 4, 4: 1}[p])
    [10.0, 5.0, 5.0, 1.0]
    """
    counts = tie_groups(ranks)
    shares = {
        rank: sum(place_value(int(rank) + k) for k in range(count)) / count
        for rank, count in counts.items()
    }
    return [0.0 if rank is None else float(shares[rank]) for rank in ranks]


def round_half_up(value: float, decimals: int) -> float:
    """Round as a person does on paper (0.125 -> 0.13 at 2 decimals).

    Binary floats are first read at 12 decimals so that 0.285 stored as
    0.28499999... still rounds up.  Any size of number is handled exactly.

    >>> round_half_up(0.125, 2), round_half_up(2.09625, 2), round_half_up(0.403, 2)
    (0.13, 2.1, 0.4)
    >>> round_half_up(1e16 + 0.5, 0)
    1e+16
    """
    # Fast path (the engine rounds every award; the Decimal path costs ~10 µs): a
    # positive value whose scaled form is below 1e9 and not within 1e-5 of a half
    # rounds to the same whole number N whichever way it is read (the float error
    # and the 12-decimal reading move it by less than 1e-6), and N / 10**decimals
    # is the correctly rounded float of the decimal result, as float(Decimal) is.
    if value.__class__ is float and value == 0.0:
        return value  # +0.0 or -0.0, as the Decimal path gives them
    if 0 <= decimals <= 6 and value.__class__ is float and 0.0 < value < _FAST_LIMIT[decimals]:
        scaled = value * _POW10[decimals]
        whole = math.floor(scaled)
        rest = scaled - whole
        if abs(rest - 0.5) > 1e-5:
            return (whole + (rest > 0.5)) / _POW10[decimals]
    return _round_half_up_exact(value, decimals)


_POW10 = tuple(10.0**d for d in range(7))
_FAST_LIMIT = tuple(1e9 / p for p in _POW10)


def _round_half_up_exact(value: float, decimals: int) -> float:
    with localcontext(prec=80):
        exact = Decimal(repr(float(value))).quantize(Decimal("1e-12"), rounding=ROUND_HALF_UP)
        return float(exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))


@cache
def load_table(name: str) -> tuple[dict[str, str], ...]:
    """Read ``xlbridge/rules/data/<name>.csv`` once.

    Lines starting with ``#`` are the provenance header and are skipped; the
    first other line names the columns.  Values stay text: each module converts
    its own columns.
    """
    text = resources.files("xlbridge.rules").joinpath("data", f"{name}.csv").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return tuple(dict(row) for row in csv.DictReader(lines))
