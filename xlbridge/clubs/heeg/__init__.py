"""Season logic of Bridge club Heeg (source: ``docs/sources/003_58bc20b693ef4dc0.txt``).

The season logic is plain Python (standard library only: it runs in Excel, in
xlwings Lite, too): the workbook kind reads the sheets into records, calls
:func:`compute` and the standings tables, and writes back only the computed
columns.  pandas is the analyst's interface on top (:func:`recalculate`,
:func:`period_standings`, :func:`year_standings` take and give DataFrames) and
is imported only when one of those is called.  Every rule and every decision is explained, with the
Dutch sentence it comes from, in ``docs/clubs/heeg.md``.

Stateless pieces (wrapped as worksheet functions by the Excel layer):

- :func:`heeg_pct` -- ``HEEG_PCT(mp, max_mp, code, [egs], [nth_absence], [rounds])``
- :func:`heeg_c` -- ``HEEG_C(points, own_top, combi_top)``
- :func:`line_top` -- the top of a line with a given number of pairs.

>>> round(heeg_pct(103, 180, ""), 4)            # 103 of 180 MP
57.2222
>>> round(heeg_pct(100, 180, "s", rounds=6), 4)  # sit-out: 100 x 6/5 = 120 of 180
66.6667
>>> heeg_pct(None, 180, "a", egs=47.5, nth_absence=2)   # min(47.5, 45)
45.0
>>> heeg_c(20, line_top(9), 10)       # average at the combi table -> average of a 9-pair line
12.0

Season level:

- :func:`recalculate` -- every computed column of every evening,
- :func:`period_standings` -- a period per line with promotion/relegation,
- :func:`year_standings` -- the club championship with eligibility.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlbridge.rules.base import RuleError

__all__ = [
    "CODES",
    "EGS_CODES",
    "MARK_CODES",
    "ABSENCE_CAPS",
    "INPUT_COLUMNS",
    "OPTIONAL_COLUMNS",
    "OUTPUT_COLUMNS",
    "Period",
    "Pair",
    "HeegSettings",
    "Problem",
    "HeegInputError",
    "normalise_code",
    "line_top",
    "evening_max",
    "absence_cap",
    "heeg_pct",
    "heeg_c",
    "compute",
    "recalculate",
    "output_columns",
    "PERIOD_COLUMNS",
    "year_columns",
    "period_table",
    "year_table",
    "period_standings",
    "year_standings",
]

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

#: Columns ``recalculate`` needs (``line`` may be blank when the roster gives it;
#: ``max_mp`` and ``rounds`` may be blank, see docs/clubs/heeg.md).
INPUT_COLUMNS: tuple[str, ...] = ("date", "period", "line", "pair", "mp", "max_mp", "code", "rounds")
#: Columns ``recalculate`` reads when present.
OPTIONAL_COLUMNS: tuple[str, ...] = ("combi_mp", "combi_top", "line_top", "names", "in_doubt")
#: Columns ``recalculate`` adds (plus one ``end_<period>`` per period, see :func:`output_columns`).
OUTPUT_COLUMNS: tuple[str, ...] = (
    "played",
    "own_top",
    "evening_max",
    "c_corrected",
    "score",
    "egs",
    "nth_absence",
    "pct",
    "to_date",
    "period_pct",
    "year_pct",
    "period_marks",
    "year_marks",
    "star",
    "red_star",
    "red_inv",
    "signal",
)


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class Period:
    """One period (competitieronde): its label, its evenings, and how many pairs
    move between two adjacent lines at its end (``promote``; default 3)."""

    label: str
    evenings: tuple[_dt.date, ...]
    promote: int = 3

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", _label(self.label))
        object.__setattr__(self, "evenings", tuple(_to_date(d) for d in self.evenings))


@dataclass(frozen=True)
class Pair:
    """A pair of the roster: season-wide identity, names, line per period label."""

    pair: Any
    names: str = ""
    lines: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pair", _pair_key(self.pair))
        object.__setattr__(self, "lines", {_label(k): str(v).strip() for k, v in dict(self.lines).items()})


@dataclass(frozen=True)
class HeegSettings:
    """The season settings sheet.

    ``lines`` are ordered from the top line down (``lines[0]`` is the A-line, where
    the club champion plays).  ``rounds`` and ``boards_per_round`` are the evening
    defaults (a row's own ``rounds`` wins).  ``combi_top`` is the top of the combi
    table (12 pairs -> 10).  ``absence_span`` says over what span the n-th ``a`` is
    counted: ``"period"`` (default) or ``"season"``.  ``roster`` is optional: when
    given, every pair must be on it and a row's line must match the roster's line
    for that period (a blank line is filled from it).
    """

    club: str = "Bridge club Heeg"
    season: str = ""
    periods: tuple[Period, ...] = ()
    lines: tuple[str, ...] = ("A", "B")
    rounds: int = 6
    boards_per_round: int = 4
    combi_top: float = 10.0
    absence_span: str = "period"
    roster: tuple[Pair, ...] = ()

    def period_of(self, day: Any) -> Period | None:
        """The period an evening belongs to (None when it is in none)."""
        wanted = _to_date(day)
        for period in self.periods:
            if wanted in period.evenings:
                return period
        return None

    @property
    def evenings(self) -> tuple[_dt.date, ...]:
        """Every evening of the season, in date order."""
        return tuple(sorted(d for p in self.periods for d in p.evenings))

    def check(self) -> list[Problem]:
        """Problems of the settings themselves (empty list when fine)."""
        problems: list[Problem] = []

        def bad(column: str, value: Any, message: str) -> None:
            problems.append(Problem(None, None, column, value, message, where="Settings"))

        if not self.periods:
            bad("periods", None, "the season has no periods")
        seen: dict[_dt.date, str] = {}
        labels: set[str] = set()
        for period in self.periods:
            if period.label in labels:
                bad("periods", period.label, f"period {period.label!r} is listed twice")
            labels.add(period.label)
            if not isinstance(period.promote, int) or isinstance(period.promote, bool) or period.promote < 0:
                bad("promote", period.promote, f"period {period.label}: promotion count must be a whole number from 0; got {period.promote!r}")
            for day in period.evenings:
                if day in seen:
                    bad("periods", day.isoformat(), f"evening {day.isoformat()} is in period {seen[day]} and in period {period.label}")
                seen[day] = period.label
        if not self.lines or len(set(self.lines)) != len(self.lines):
            bad("lines", self.lines, f"lines must be distinct names, top line first; got {self.lines!r}")
        if not isinstance(self.rounds, int) or isinstance(self.rounds, bool) or self.rounds < 2:
            bad("rounds", self.rounds, f"rounds per evening must be a whole number from 2; got {self.rounds!r}")
        if not isinstance(self.boards_per_round, int) or isinstance(self.boards_per_round, bool) or self.boards_per_round < 1:
            bad("boards_per_round", self.boards_per_round, f"boards per round must be a whole number from 1; got {self.boards_per_round!r}")
        if not _is_number(self.combi_top) or self.combi_top <= 0:
            bad("combi_top", self.combi_top, f"the combi table top must be a number above 0; got {self.combi_top!r}")
        if self.absence_span not in ("period", "season"):
            bad("absence_span", self.absence_span, f"absence_span must be 'period' or 'season'; got {self.absence_span!r}")
        keys = [p.pair for p in self.roster]
        for key in {k for k in keys if keys.count(k) > 1}:
            bad("roster", key, f"pair {key} is on the roster twice")
        for pair in self.roster:
            for label, line in pair.lines.items():
                if line not in self.lines:
                    bad("roster", line, f"pair {pair.pair}: line {line!r} for period {label} is not one of {', '.join(self.lines)}")
        return problems


# --------------------------------------------------------------------------- problems


@dataclass(frozen=True)
class Problem:
    """One bad input, located without reference to any sheet or cell.

    ``date`` is the evening (None for a settings problem), ``pair`` the pair as
    typed, ``column`` the input column, ``value`` what was there, ``row`` the
    index label of the offending input row (None when not about one row).
    ``kind`` names a problem a caller may want to word or group itself
    (``"small_line"``: a line with too few pairs for a top; ``count`` is then how
    many of its pairs play); it is ``""`` for the others.
    """

    date: _dt.date | None
    pair: Any
    column: str
    value: Any
    message: str
    row: Any = None
    where: str = ""
    kind: str = ""
    count: int | None = None

    def location(self) -> str:
        parts = []
        if self.where:
            parts.append(self.where)
        if self.date is not None:
            parts.append(f"Evening {self.date.isoformat()}")
        if self.pair is not None:
            parts.append(f"pair {self.pair}")
        if self.column:
            parts.append(self.column)
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.location()}: {self.message}"


class HeegInputError(RuleError):
    """Every problem of one run, reported together (``.problems``)."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems: list[Problem] = list(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in the Heeg season input:"
        super().__init__("\n".join([head, *(f"- {p}" for p in self.problems)]))


# --------------------------------------------------------------------------- small helpers


def _blank(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    if isinstance(value, str) and value.strip() == "":
        return True
    return False


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _number(value: Any) -> float | None:
    """A number from a cell value: numbers, or text like ``"103"`` / ``"103,5"``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip().replace(",", "."))
        except ValueError:
            return None
    else:
        try:
            number = float(value)  # numpy scalars
        except (TypeError, ValueError):
            return None
    return number if math.isfinite(number) else None


def _label(value: Any) -> str:
    """Period labels and similar: ``1``, ``1.0`` and ``"1"`` are the same label."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _pair_key(value: Any) -> Any:
    """Pair identity: whole numbers as int (7, 7.0 and "7" are pair 7), else text."""
    number = _number(value)
    if number is not None and number.is_integer():
        return int(number)
    return str(value).strip()


def _to_date(value: Any) -> _dt.date:
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, str):
        text = value.strip().rstrip("Z")
        return _dt.datetime.fromisoformat(text).date() if "T" in text else _dt.date.fromisoformat(text)
    raise ValueError(f"not a date: {value!r}")


def normalise_code(code: Any) -> str:
    """The ``inv`` code as the engine knows it ("" for a blank cell).

    Excel stores a typed ``1`` as the number 1.0; ``A``, ``S1`` are lower-cased.
    An unknown code raises :class:`RuleError` naming it.

    >>> [normalise_code(c) for c in (None, 1.0, " S1 ", "=", "a", 0)]
    ['', '1', 's1', '=', 'a', '0']
    """
    if _blank(code):
        return ""
    if isinstance(code, bool):
        raise RuleError(f"inv code {code!r} is not one of 1, 2, 0, a, s, s1, = or blank")
    if isinstance(code, (int, float)) and float(code).is_integer():
        text = str(int(code))
    else:
        text = str(code).strip().lower()
    if text not in CODES:
        raise RuleError(f"inv code {code!r} is not one of 1, 2, 0, a, s, s1, = or blank")
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
        raise RuleError(f"a line needs at least 4 pairs to have a top; got {pairs!r}")
    return 2 * (pairs // 2) - 2


def evening_max(pairs: int, rounds: int, boards_per_round: int) -> int:
    """Maximum MP of one evening: rounds x boards per round x line top.

    >>> evening_max(14, 6, 4)
    288
    """
    return rounds * boards_per_round * line_top(pairs)


def absence_cap(nth: int) -> float:
    """The cap of the EGS for the n-th ``a``: 50, 45, 40, then 35.

    >>> [absence_cap(n) for n in (1, 2, 3, 4, 9)]
    [50.0, 45.0, 40.0, 35.0, 35.0]
    """
    if isinstance(nth, bool) or not isinstance(nth, int) or nth < 1:
        raise RuleError(f"nth_absence must be a whole number from 1; got {nth!r}")
    return ABSENCE_CAPS[min(nth, len(ABSENCE_CAPS)) - 1]


# --------------------------------------------------------------------------- stateless rules


def heeg_pct(
    mp: Any,
    max_mp: Any,
    code: Any,
    egs: Any = None,
    nth_absence: Any = 1,
    rounds: Any = None,
) -> float:
    """The evening % of one pair (worksheet function ``HEEG_PCT``).

    - blank, ``1``: mp / max_mp x 100 (``1`` is counted for the signals only);
    - ``s``, ``s1``: mp x rounds / (rounds - 1) / max_mp x 100 (rounds blank: 6);
    - ``0``: 25;  ``=``: 50;
    - ``2``: min(egs, 50); ``a``: min(egs, 50/45/40/35 for the 1st/2nd/3rd/later
      ``a``); both give 50 when there is no EGS yet (``egs`` blank or 0).

    ``mp`` already holds the corrected combi MP when the pair played the combi
    table.  Errors raise :class:`RuleError` naming the value.

    >>> heeg_pct(None, None, 0), heeg_pct(None, None, "="), heeg_pct(None, None, 2, egs=61.0)
    (25.0, 50.0, 50.0)
    >>> heeg_pct(None, None, "a", egs=None, nth_absence=3)
    50.0
    """
    kind = normalise_code(code)
    if kind == "0":
        return 25.0
    if kind == "=":
        return 50.0
    if kind in ("2", "a"):
        average = None if _blank(egs) else _number(egs)
        if not _blank(egs) and (average is None or not 0 <= average <= 100):
            raise RuleError(f"EGS must be a percentage from 0 to 100; got {egs!r}")
        nth = 1
        if kind == "a":
            nth_number = 1.0 if _blank(nth_absence) else _number(nth_absence)
            if nth_number is None or not nth_number.is_integer():
                raise RuleError(f"nth_absence must be a whole number from 1; got {nth_absence!r}")
            nth = int(nth_number)
        cap = 50.0 if kind == "2" else absence_cap(nth)
        if not average:  # no EGS yet ("omdat de EGS dan nog 0 is")
            return 50.0
        return min(average, cap)
    # scores computed from the MP
    points = _number(mp)
    if points is None:
        raise RuleError(f"MP {mp!r} is not a number" if not _blank(mp) else "MP is empty; type the MP or an inv code")
    if points < 0:
        raise RuleError(f"MP {mp!r} is negative")
    top = _number(max_mp)
    if top is None or top <= 0:
        raise RuleError(f"maximum MP must be a number above 0; got {max_mp!r}")
    if kind in ("s", "s1"):
        r = 6.0 if _blank(rounds) else _number(rounds)
        if r is None or not r.is_integer() or r < 2:
            raise RuleError(f"rounds must be a whole number from 2; got {rounds!r}")
        if points > top * (r - 1) / r + 1e-9:
            raise RuleError(
                f"MP {mp!r} is above the maximum of the {r - 1:g} rounds played before the sit-out correction "
                f"({top:g} x {r - 1:g}/{r:g} = {top * (r - 1) / r:g})"
            )
        points = points * r / (r - 1)
    if points > top + 1e-9:
        raise RuleError(f"MP {mp!r} is above the evening's maximum {max_mp!r}")
    return points / top * 100.0


def heeg_c(points: Any, own_top: Any, combi_top: Any) -> float:
    """Corrected combi-table MP (worksheet function ``HEEG_C``):
    points x own line's top / combi table top.

    >>> heeg_c(20, 8, 10), heeg_c(40, 6, 10)
    (16.0, 24.0)
    """
    p = _number(points)
    if p is None or p < 0:
        raise RuleError(f"combi MP must be a number from 0; got {points!r}")
    own = _number(own_top)
    if own is None or own < 0:
        raise RuleError(f"own line top must be a number from 0; got {own_top!r}")
    combi = _number(combi_top)
    if combi is None or combi <= 0:
        raise RuleError(f"combi table top must be a number above 0; got {combi_top!r}")
    return p * own / combi


# --------------------------------------------------------------------------- the season


def output_columns(settings: HeegSettings) -> list[str]:
    """Every column :func:`recalculate` adds, in order (``end_<label>`` per period)."""
    return [*OUTPUT_COLUMNS, *(f"end_{p.label}" for p in settings.periods)]


@dataclass
class _Row:
    pos: int  # position in the input frame
    index: Any  # index label in the input frame
    date: _dt.date
    period: Period
    line: str
    pair: Any
    pair_shown: Any
    code: str
    mp: float | None
    max_mp: float | None
    rounds: int
    combi_mp: float | None
    combi_top: float
    line_top: float | None


def _parse(results: Sequence[Mapping[str, Any]], index_labels: Sequence[Any], columns: set[str], settings: HeegSettings
           ) -> tuple[list[_Row], list[Problem], set[_dt.date], bool, list[tuple[_dt.date, str]]]:
    """Rows that passed the row checks, every problem found, the evenings with a
    rejected row, whether the problems are fatal (settings or columns), and the
    (evening, line) of every rejected or in-doubt row whose pair sat at a table:
    such a row is left out of the scoring but still counts as a pair of its line
    (only its own values are in doubt, so the line's top must not drop)."""
    problems: list[Problem] = list(settings.check())
    if problems:
        return [], problems, set(), True, []
    missing = [c for c in ("date", "pair", "mp", "code") if c not in columns]
    if missing:
        return [], [Problem(None, None, c, None, f"the results have no column {c!r}", where="Results") for c in missing], set(), True, []
    roster = {p.pair: p for p in settings.roster}
    has = {c: c in columns for c in (*INPUT_COLUMNS, *OPTIONAL_COLUMNS)}
    rows: list[_Row] = []
    seen: dict[tuple[_dt.date, Any], Any] = {}
    rejected_days: set[_dt.date] = set()
    present: list[tuple[_dt.date, str]] = []
    for pos, (index, record) in enumerate(zip(index_labels, results)):
        in_doubt = has["in_doubt"] and not _blank(record.get("in_doubt")) and bool(record.get("in_doubt"))
        raw_pair = record.get("pair")
        pair_shown = raw_pair if not _blank(raw_pair) else None
        day: _dt.date | None = None
        row_problems: list[Problem] = []

        def bad(column: str, value: Any, message: str) -> None:
            row_problems.append(Problem(day, pair_shown, column, value, message, row=index))

        raw_date = record.get("date")
        try:
            if _blank(raw_date):
                raise ValueError
            day = _to_date(raw_date)
        except (ValueError, TypeError):
            bad("date", raw_date, f"date {raw_date!r} is not a date (row {index})")
        if pair_shown is None:
            bad("pair", raw_pair, f"pair is empty (row {index})")
            key = None
        else:
            key = _pair_key(raw_pair)
            if roster and key not in roster:
                bad("pair", raw_pair, f"pair {raw_pair!r} is not on the roster")
        period = settings.period_of(day) if day is not None else None
        if day is not None and period is None:
            bad("date", raw_date, f"evening {day.isoformat()} is in no period of the season")
        if period is not None and has["period"] and not _blank(record.get("period")):
            if _label(record["period"]) != period.label:
                bad("period", record["period"], f"period {record['period']!r} does not match the settings: evening {day.isoformat()} is in period {period.label}")
        # line
        line = "" if not has["line"] or _blank(record.get("line")) else str(record["line"]).strip()
        roster_line = roster[key].lines.get(period.label, "") if (key in roster and period is not None) else ""
        if not line:
            line = roster_line
            if not line:
                bad("line", record.get("line"), "line is empty")
        elif line not in settings.lines:
            bad("line", line, f"line {line!r} is not one of {', '.join(settings.lines)}")
        elif roster_line and roster_line != line:
            bad("line", line, f"line {line!r} differs from the roster, which puts pair {raw_pair} in line {roster_line} in period {period.label}")
        # code
        try:
            code = normalise_code(record.get("code"))
        except RuleError:
            bad("code", record.get("code"), f"inv code {record.get('code')!r} is not one of 1, 2, 0, a, s, s1, = or blank")
            code = "?"
        # mp
        raw_mp = record.get("mp")
        mp: float | None = None
        if not _blank(raw_mp):
            mp = _number(raw_mp)
            if mp is None:
                bad("mp", raw_mp, f"MP {raw_mp!r} is not a number")
            elif mp < 0:
                bad("mp", raw_mp, f"MP {raw_mp!r} is negative")
                mp = None
        # max_mp
        raw_max = record.get("max_mp") if has["max_mp"] else None
        max_mp: float | None = None
        if not _blank(raw_max):
            max_mp = _number(raw_max)
            if max_mp is None or max_mp <= 0:
                bad("max_mp", raw_max, f"maximum MP {raw_max!r} is not a number above 0")
                max_mp = None
            elif mp is not None and mp > max_mp:
                bad("mp", raw_mp, f"MP {raw_mp!r} is above the evening's maximum {raw_max!r}")
        # rounds
        raw_rounds = record.get("rounds") if has["rounds"] else None
        rounds = settings.rounds
        if not _blank(raw_rounds):
            number = _number(raw_rounds)
            if number is None or not number.is_integer() or number < 2:
                bad("rounds", raw_rounds, f"rounds {raw_rounds!r} is not a whole number from 2")
            else:
                rounds = int(number)
        # combi
        raw_combi = record.get("combi_mp") if has["combi_mp"] else None
        combi_mp: float | None = None
        if not _blank(raw_combi):
            combi_mp = _number(raw_combi)
            if combi_mp is None or combi_mp < 0:
                bad("combi_mp", raw_combi, f"combi MP {raw_combi!r} is not a number from 0")
                combi_mp = None
        raw_ctop = record.get("combi_top") if has["combi_top"] else None
        combi_top = float(settings.combi_top)
        if not _blank(raw_ctop):
            number = _number(raw_ctop)
            if number is None or number <= 0:
                bad("combi_top", raw_ctop, f"combi table top {raw_ctop!r} is not a number above 0")
            else:
                combi_top = number
        if combi_mp is not None and combi_mp > combi_top * settings.boards_per_round:
            bad("combi_mp", raw_combi, f"combi MP {raw_combi!r} is above the combi table's maximum {combi_top * settings.boards_per_round:g}")
        raw_ltop = record.get("line_top") if has["line_top"] else None
        own_top: float | None = None
        if not _blank(raw_ltop):
            own_top = _number(raw_ltop)
            if own_top is None or own_top <= 0:
                bad("line_top", raw_ltop, f"line top {raw_ltop!r} is not a number above 0")
                own_top = None
        if day is not None and key is not None and not in_doubt:
            if (day, key) in seen:
                bad("pair", raw_pair, f"pair {raw_pair!r} appears twice on this evening (rows {seen[(day, key)]} and {index})")
            else:
                seen[(day, key)] = index
        if combi_mp is not None and code in ABSENT_CODES:
            bad("combi_mp", raw_combi, f"combi MP {raw_combi!r} typed for a pair marked absent ({code})")
        if in_doubt or row_problems:
            # left out of the scoring, but the pair is (most likely) at a table:
            # it counts for its line's top -- the roster's line, else the line typed
            count_line = roster_line or (line if line in settings.lines else "")
            if day is not None and period is not None and count_line and code not in ABSENT_CODES:
                present.append((day, count_line))
            if day is not None:
                rejected_days.add(day)
        if in_doubt:
            continue  # the caller has reported its problem already
        problems.extend(row_problems)
        if not row_problems:
            assert day is not None and period is not None
            rows.append(_Row(pos, index, day, period, line, key, pair_shown, code, mp, max_mp, rounds, combi_mp, combi_top, own_top))
    # A pair keeps one line within a period (standings are per line).
    lines_seen: dict[tuple[str, Any], dict[str, _dt.date]] = defaultdict(dict)
    for row in rows:
        lines_seen[(row.period.label, row.pair)].setdefault(row.line, row.date)
    for (label, pair), found in lines_seen.items():
        if len(found) > 1:
            day = max(found.values())
            problems.append(Problem(day, pair, "line", ", ".join(found), f"pair {pair} plays in lines {' and '.join(sorted(found))} within period {label}; a pair keeps one line per period"))
    return rows, problems, rejected_days, False, present


class _Running:
    """A pair's evenings so far (in a period or the year), as running sums added in
    date order: ``total / count`` is the same float as ``sum(list) / len(list)`` of
    the earlier evenings' percentages (the same additions in the same order)."""

    __slots__ = ("total", "count", "egs_total", "egs_count", "absences", "marks")

    def __init__(self) -> None:
        self.total: float = 0
        self.count = 0
        self.egs_total: float = 0
        self.egs_count = 0
        self.absences = 0
        self.marks = 0

    def add(self, code: str, pct: float) -> None:
        self.total += pct
        self.count += 1
        if code in EGS_CODES:
            self.egs_total += pct
            self.egs_count += 1
        if code == "a":
            self.absences += 1
        if code in MARK_CODES:
            self.marks += 1

    def mean(self) -> float:
        return self.total / self.count if self.count else math.nan


def compute(results: Sequence[Mapping[str, Any]], settings: HeegSettings, *,
            columns: Iterable[str] | None = None, index: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """Recalculate the season on plain records: the computed values of every row.

    ``results`` has one mapping per pair per evening (keys: see
    :data:`INPUT_COLUMNS`, :data:`OPTIONAL_COLUMNS` and docs/clubs/heeg.md; a
    blank is ``None``, ``NaN`` or blank text).  ``columns`` names the input
    columns when not every row carries every key (default: the keys of the
    rows); ``index`` labels the rows in messages (default 0, 1, ...).  Returns
    one dict per input row, in order, holding :func:`output_columns` (a row that
    is not played has ``played`` False and NaN values).  Keys computed by an
    earlier run are ignored.  All bad input of the run is reported together in
    one :class:`HeegInputError`.  Standard library only: this is what the
    workbook recalculation calls, in Excel too.

    >>> settings = HeegSettings(periods=(Period("1", ("2025-09-04",)),))
    >>> rows = [{"date": "2025-09-04", "pair": p, "line": "A", "mp": mp, "code": ""}
    ...         for p, mp in zip(range(1, 5), (30, 22, 24, 20))]
    >>> out = compute(rows, settings)     # 4 pairs: top 2, maximum 6 rounds x 4 boards x 2
    >>> [round(r["pct"], 2) for r in out], out[0]["evening_max"]
    ([62.5, 45.83, 50.0, 41.67], 48.0)
    """
    present_columns = set(columns) if columns is not None else set().union(*(row.keys() for row in results))
    labels = list(index) if index is not None else list(range(len(results)))
    if len(labels) != len(results):
        raise RuleError(f"index has {len(labels)} labels for {len(results)} rows")
    rows, problems, rejected_days, fatal, present = _parse(results, labels, present_columns, settings)
    if fatal:
        raise HeegInputError(problems)

    by_evening: dict[_dt.date, list[_Row]] = defaultdict(list)
    for row in rows:
        by_evening[row.date].append(row)
    # An evening where nothing is typed yet (no MP, no code, no combi MP) is not played.
    played_days = sorted(
        d
        for d, group in by_evening.items()
        if d in rejected_days or any(r.mp is not None or r.code or r.combi_mp is not None for r in group)
    )
    # Evening checks that need the whole evening: every MP-scored pair needs an MP.
    skip: set[int] = set()
    for day in played_days:
        for row in by_evening[day]:
            if row.code in MP_CODES and row.mp is None:
                problems.append(Problem(day, row.pair_shown, "mp", None, "MP is empty; type the MP or an inv code (0, a, 2, =)", row=row.index))
                skip.add(row.pos)
    # Line tops per evening and line.
    tops: dict[tuple[_dt.date, str], float] = {}
    for day in played_days:
        counts: dict[str, int] = defaultdict(int)
        for row in by_evening[day]:
            if row.code not in ABSENT_CODES:
                counts[row.line] += 1
        for present_day, line in present:  # rows left out for a problem of their own
            if present_day == day:
                counts[line] += 1
        for line, count in counts.items():
            typed = {r.line_top for r in by_evening[day] if r.line == line and r.line_top is not None}
            if len(typed) > 1:
                problems.append(Problem(day, None, "line_top", sorted(typed), f"line {line} has different line tops typed: {', '.join(f'{t:g}' for t in sorted(typed))}"))
            if typed:
                tops[(day, line)] = typed.pop()
            elif count >= 4:
                tops[(day, line)] = float(line_top(count))
            else:
                needs = [r for r in by_evening[day] if r.line == line and (r.max_mp is None or r.combi_mp is not None) and r.code in MP_CODES]
                for r in needs:
                    problems.append(Problem(day, r.pair_shown, "line", line, f"line {line} has only {count} pairs playing; type max_mp and line_top for it", row=r.index,
                                            kind="small_line", count=count))
                    skip.add(r.pos)

    # Per pair state through the season.
    out: dict[Any, dict[str, Any]] = {}
    # Running sums per pair and per pair and period, added in date order: each mean
    # is the same float as sum() over the list of earlier evenings (see _Running), in
    # time linear in the evenings (recomputing from that list was quadratic).
    year_runs: dict[Any, _Running] = defaultdict(_Running)
    period_runs: dict[tuple[Any, str], _Running] = defaultdict(_Running)
    own_days: dict[Any, dict[_dt.date, str]] = defaultdict(dict)  # pair -> {evening: line}
    period_index = {p.label: i for i, p in enumerate(settings.periods)}
    top_line = settings.lines[0]
    for day_number, day in enumerate(played_days):
        for row in by_evening[day]:
            if row.pos in skip:
                continue
            earlier = year_runs[row.pair]
            in_period = period_runs[(row.pair, row.period.label)]
            egs = in_period.egs_total / in_period.egs_count if in_period.egs_count else math.nan
            span = in_period if settings.absence_span == "period" else earlier
            nth = span.absences + 1 if row.code == "a" else None
            own_top = tops.get((day, row.line))
            c_corr = heeg_c(row.combi_mp, own_top, row.combi_top) if row.combi_mp is not None and own_top is not None else None
            max_mp = row.max_mp
            if max_mp is None and own_top is not None:
                max_mp = float(row.rounds * settings.boards_per_round * own_top)
            score = None
            if row.mp is not None or c_corr is not None:
                score = (row.mp or 0.0) + (c_corr or 0.0)
            if score is not None and max_mp is not None and row.code in MP_CODES and score > max_mp + 1e-9:
                if c_corr is None:
                    message = f"MP {row.mp:g} is above the evening's maximum {max_mp:g}"
                    column, value = "mp", row.mp
                else:
                    message = f"MP {row.mp or 0:g} + corrected combi MP {c_corr:g} = {score:g} is above the evening's maximum {max_mp:g}"
                    column, value = "combi_mp", row.combi_mp
                problems.append(Problem(day, row.pair_shown, column, value, message, row=row.index))
                continue
            try:
                pct = heeg_pct(score, max_mp, row.code, egs=None if math.isnan(egs) else egs, nth_absence=nth or 1, rounds=row.rounds)
            except RuleError as error:
                problems.append(Problem(day, row.pair_shown, "mp", row.mp, str(error), row=row.index))
                continue
            to_date = in_period.mean()
            period_pct = (in_period.total + pct) / (in_period.count + 1)
            year_pct = (earlier.total + pct) / (earlier.count + 1)
            period_marks = in_period.marks + (row.code in MARK_CODES)
            year_marks = earlier.marks + (row.code in MARK_CODES)
            # '*': not the whole year (so far) in the top line
            days_so_far = played_days[: day_number + 1]
            own = own_days[row.pair]
            whole_year_top = row.line == top_line and all(own.get(d) == top_line for d in days_so_far if d != day)
            star = row.line == top_line and not whole_year_top
            values: dict[str, Any] = {
                "played": True,
                "own_top": own_top if own_top is not None else math.nan,
                "evening_max": max_mp if max_mp is not None else math.nan,
                "c_corrected": c_corr if c_corr is not None else math.nan,
                "score": score if score is not None else math.nan,
                "egs": egs,
                "nth_absence": float(nth) if nth is not None else math.nan,
                "pct": pct,
                "to_date": to_date,
                "period_pct": period_pct,
                "year_pct": year_pct,
                "period_marks": period_marks,
                "year_marks": year_marks,
                "star": star,
                "red_star": year_marks > 5,
                "red_inv": period_marks >= 4,
                "signal": "*" if star else "",
            }
            here = period_index[row.period.label]
            for period in settings.periods:
                values[f"end_{period.label}"] = math.nan
                if period_index[period.label] < here:
                    done = period_runs.get((row.pair, period.label))
                    values[f"end_{period.label}"] = done.mean() if done is not None else math.nan
            out[row.pos] = values
            for run in (earlier, in_period):
                run.add(row.code, pct)
            own[row.date] = row.line
    if problems:
        raise HeegInputError(problems)

    blank = {c: math.nan for c in output_columns(settings)}
    blank.update({"played": False, "star": False, "red_star": False, "red_inv": False, "signal": "", "period_marks": 0, "year_marks": 0})
    return [dict(out.get(pos, blank)) for pos in range(len(results))]


# --------------------------------------------------------------------------- standings


class _Played:
    """The played rows of a recalculated season (input and computed values of each
    row in one mapping), as plain lists read once.  ``lines[i]`` is the row's own
    line, or the roster's line for the row's period when the row left it blank."""

    def __init__(self, rows: Sequence[Mapping[str, Any]], settings: HeegSettings) -> None:
        played = [row for row in rows if row["played"]]
        self.pairs = [row["pair"] for row in played]
        self.keys = [_pair_key(row["pair"]) for row in played]
        self.days = [_to_date(row["date"]) for row in played]
        label_of = {day: p.label for p in settings.periods for day in p.evenings}
        self.labels = [label_of[day] for day in self.days]
        self.names = [row.get("names") for row in played]
        self.codes = [row["code"] for row in played]
        self.pcts = [row["pct"] for row in played]
        roster = {p.pair: p for p in settings.roster}
        self.lines = [
            row.get("line") if not _blank(row.get("line")) else (roster[key].lines.get(label, "") if key in roster else "")
            for row, key, label in zip(played, self.keys, self.labels)
        ]

    def __len__(self) -> int:
        return len(self.keys)

    def names_of(self, group: list[int]) -> str:
        """The last names typed for the pair in the group ("" when none)."""
        typed = [self.names[i] for i in group if not _blank(self.names[i])]
        return str(typed[-1]) if typed else ""

    def marks_of(self, group: list[int]) -> int:
        return sum(1 for i in group if normalise_code(self.codes[i]) in MARK_CODES)

    def mean_pct(self, group: list[int]) -> float:
        """The mean of the group's % (NaN skipped), summed in group (date) order: the
        same float as the running value of the evening sheets (see :class:`_Running`)."""
        total, count = 0.0, 0
        for i in group:
            value = self.pcts[i]
            if value == value:
                total += value
                count += 1
        return total / count if count else math.nan


def _groups(keys: Iterable[Any], days: list[Any]) -> list[tuple[Any, list[int]]]:
    """Positions per key, keys in order of first appearance (``groupby(sort=False)``),
    the positions of each key in day order (a pair plays once per evening)."""
    groups: dict[Any, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    return [(key, sorted(group, key=lambda i: days[i])) for key, group in groups.items()]


def _rank_by_line(rows: list[dict[str, Any]], lines: Sequence[str], value: str) -> list[dict[str, Any]]:
    """The standings order and ranks: rows sorted by line (the season's order, unknown
    lines last), then ``value`` from high to low, then pair (numbers before text);
    ``rank`` is the competition rank on ``value`` within the row's line (equal
    values share the best rank: 1, 2, 2, 4)."""
    line_no: dict[str, int] = {}
    for i, line in enumerate(lines):
        line_no.setdefault(line, i)

    def order(row: dict[str, Any]) -> tuple[Any, ...]:
        v = row[value]
        missing = v != v  # NaN: after every number
        key = row["_key"]
        pair = (0, key, "") if isinstance(key, int) else (1, 0, str(key))
        return (line_no.get(row["line"], len(lines)), missing, 0.0 if missing else -v, pair)

    ranked = sorted(rows, key=order)
    seen: dict[Any, tuple[int, float, int]] = {}  # line -> (rows so far, last value, its rank)
    for row in ranked:
        count, last, rank = seen.get(row["line"], (0, math.nan, 0))
        v = row[value]
        rank = rank if v == last else count + 1
        row["rank"] = rank
        seen[row["line"]] = (count + 1, v, rank)
    return ranked


#: Columns of :func:`period_table` / :func:`period_standings`.
PERIOD_COLUMNS: tuple[str, ...] = ("period", "line", "rank", "pair", "names", "evenings", "period_pct", "marks",
                                   "blocked", "move", "next_line", "final")


def year_columns(settings: HeegSettings) -> list[str]:
    """Columns of :func:`year_table` / :func:`year_standings`."""
    return ["line", "rank", "pair", "names", "evenings", "year_pct", *(f"end_{p.label}" for p in settings.periods),
            "marks", "star", "red_star", "eligible", "champion_rank"]


def period_table(rows: Sequence[Mapping[str, Any]], settings: HeegSettings, period: Any = None) -> list[dict[str, Any]]:
    """Period standings per line, with promotion/relegation marked, on plain records.

    ``rows``: the recalculated season, one mapping per input row holding its input
    and its computed values (``{**row, **computed}`` of :func:`compute`).

    One row per pair per line per period (only played evenings count).
    Columns: ``period, line, rank, pair, names, evenings, period_pct, marks,
    blocked, move, next_line, final``.  ``rank`` is the competition rank on
    ``period_pct`` (ties share a rank); ``blocked`` is the red inv signal (4 or
    more substitute/absence codes in the period: cannot promote, relegates);
    ``move`` is ``"promote"``, ``"relegate"`` or ``""``; ``final`` says whether
    every evening of the period has been played (otherwise the marking is
    provisional).  ``period`` restricts to one period label.

    Marking, for each two adjacent lines (upper, lower) with ``n`` = the period's
    ``promote``: every blocked pair of the upper line relegates; if fewer than
    ``n`` do, the lowest ranked others fill up to ``n``.  As many pairs promote
    from the lower line as relegate from the upper one: its best ranked pairs that
    are not blocked.  Equal percentages are ordered by pair number.
    """
    labels = [p.label for p in settings.periods]
    wanted = labels if period is None else [_label(period)]
    for label in wanted:
        if label not in labels:
            raise RuleError(f"period {period!r} is not one of {', '.join(labels)}")
    cols = _Played(rows, settings)
    roster = {p.pair: p for p in settings.roster}
    out: list[dict[str, Any]] = []
    for label in wanted:
        settings_period = next(p for p in settings.periods if p.label == label)
        positions = [i for i in range(len(cols)) if cols.labels[i] == label]
        if not positions:
            continue
        final = set(settings_period.evenings) <= {cols.days[i] for i in positions}
        table = []
        groups = _groups(((cols.lines[i], cols.keys[i]) for i in positions), [cols.days[i] for i in positions])
        for (line, key), members in groups:
            group = [positions[j] for j in members]
            names = cols.names_of(group)
            if not names and key in roster:
                names = roster[key].names
            marks = cols.marks_of(group)
            table.append({
                "period": label,
                "line": line,
                "pair": cols.pairs[group[-1]],
                "_key": key,
                "names": names,
                "evenings": len(group),
                "period_pct": cols.mean_pct(group),
                "marks": marks,
                "blocked": marks >= 4,
                "move": "",
                "next_line": line,
                "final": final,
            })
        table = _rank_by_line(table, settings.lines, "period_pct")
        present = {row["line"] for row in table}
        for upper, lower in zip(settings.lines, settings.lines[1:]):
            if upper not in present or lower not in present:
                continue
            up = [row for row in table if row["line"] == upper]
            blocked = [row for row in up if row["blocked"]]
            others = [row for row in reversed(up) if not row["blocked"]]
            relegate = blocked + others[: max(0, settings_period.promote - len(blocked))]
            promote = [row for row in table if row["line"] == lower and not row["blocked"]][: len(relegate)]
            for row in relegate:
                row["move"], row["next_line"] = "relegate", lower
            for row in promote:
                row["move"], row["next_line"] = "promote", upper
        out.extend({c: row[c] for c in PERIOD_COLUMNS} for row in table)
    return out


def year_table(rows: Sequence[Mapping[str, Any]], settings: HeegSettings) -> list[dict[str, Any]]:
    """The year standings (club championship) on plain records (``rows`` as for
    :func:`period_table`).

    One row per pair.  Columns: ``line`` (line of the pair's last evening),
    ``rank`` (competition rank on ``year_pct`` within that line), ``pair, names,
    evenings, year_pct``, one ``end_<label>`` per period (the pair's period
    result), ``marks`` (substitute/absence codes in the year), ``star`` (not the
    whole year in the top line), ``red_star`` (marks > 5), ``eligible`` (in the
    top line, no star, no red star) and ``champion_rank`` (rank among the
    eligible pairs; NaN for the others).  Sorted by line, then rank.
    """
    columns = year_columns(settings)
    cols = _Played(rows, settings)
    if not len(cols):
        return []
    roster = {p.pair: p for p in settings.roster}
    all_days = sorted(set(cols.days))
    top = settings.lines[0]
    table = []
    for key, group in _groups(cols.keys, cols.days):
        names = cols.names_of(group)
        if not names and key in roster:
            names = roster[key].names
        line = cols.lines[group[-1]]
        own = {cols.days[i]: cols.lines[i] for i in group}
        whole_top = all(own.get(d) == top for d in all_days)
        marks = cols.marks_of(group)
        row = {
            "line": line,
            "pair": cols.pairs[group[-1]],
            "_key": key,
            "names": names,
            "evenings": len(group),
            "year_pct": cols.mean_pct(group),
            "marks": marks,
            "star": line == top and not whole_top,
            "red_star": marks > 5,
        }
        for p in settings.periods:
            part = [i for i in group if cols.labels[i] == p.label]
            row[f"end_{p.label}"] = cols.mean_pct(part) if part else math.nan
        row["eligible"] = whole_top and not row["red_star"]
        table.append(row)
    table = _rank_by_line(table, settings.lines, "year_pct")
    eligible = [row["year_pct"] for row in table if row["eligible"]]
    for row in table:
        # competition rank among the eligible pairs (NaN for the others)
        v = row["year_pct"]
        row["champion_rank"] = float(1 + sum(1 for e in eligible if e > v)) if row["eligible"] and v == v else math.nan
    return [{c: row[c] for c in columns} for row in table]


# --------------------------------------------------------------------------- DataFrames (the analyst's interface)


def recalculate(results: Any, settings: HeegSettings) -> Any:
    """Recalculate the season: the input rows of a pandas DataFrame with every
    computed column (:func:`compute` on the frame's rows).

    ``results`` has one row per pair per evening (columns: see
    :data:`INPUT_COLUMNS`, :data:`OPTIONAL_COLUMNS` and docs/clubs/heeg.md).
    Columns computed by an earlier run are ignored and recomputed, so running it
    on its own output gives the same output.  All bad input of the run is
    reported together in one :class:`HeegInputError`.  The result keeps the
    input's index, row order and columns, and adds :func:`output_columns`.
    """
    import pandas as pd

    from xlbridge.clubs.frames import plain_records

    if not isinstance(results, pd.DataFrame):
        raise RuleError(f"results must be a pandas DataFrame; got {type(results).__name__}")
    computed = set(output_columns(settings))
    base = results[[c for c in results.columns if c not in computed]].copy()
    out = compute(plain_records(base), settings, columns=base.columns, index=list(base.index))
    extra = pd.DataFrame(out, index=base.index, columns=output_columns(settings))
    for column in ("played", "star", "red_star", "red_inv"):
        extra[column] = extra[column].astype(bool)
    for column in ("period_marks", "year_marks"):
        extra[column] = extra[column].astype(int)
    extra["signal"] = extra["signal"].astype(object)
    return pd.concat([base, extra], axis=1)


def _recalculated_rows(results: Any, settings: HeegSettings, recalculated: Any) -> list[dict[str, Any]]:
    from xlbridge.clubs.frames import plain_records

    return plain_records(recalculated if recalculated is not None else recalculate(results, settings))


def period_standings(results: Any, settings: HeegSettings, period: Any = None, *, recalculated: Any = None) -> Any:
    """:func:`period_table` as a pandas DataFrame (columns :data:`PERIOD_COLUMNS`).
    ``recalculated``: :func:`recalculate` of these results when the caller already
    has it (it is then not computed again; it is not modified)."""
    import pandas as pd

    table = period_table(_recalculated_rows(results, settings, recalculated), settings, period)
    return pd.DataFrame(table, columns=list(PERIOD_COLUMNS))


def year_standings(results: Any, settings: HeegSettings, *, recalculated: Any = None) -> Any:
    """:func:`year_table` as a pandas DataFrame (columns :func:`year_columns`).
    ``recalculated`` as for :func:`period_standings`."""
    import pandas as pd

    table = year_table(_recalculated_rows(results, settings, recalculated), settings)
    return pd.DataFrame(table, columns=year_columns(settings))
