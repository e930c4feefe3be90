"""One pair on one evening as a typed record, and the one parser that makes it.

The season (:func:`xlbridge.clubs.heeg.season.season`) takes :class:`Entry`
records.  :func:`parse_row` turns one raw row -- a workbook's cell values or a
DataFrame row as a mapping, keys as in :data:`INPUT_COLUMNS` and
:data:`OPTIONAL_COLUMNS` -- into an :class:`Entry`, checking every value once and
collecting the coded problems on the record (``Entry.problems``); both the
DataFrame interface and the workbook reader use it, so a raw value is validated
in one place only.  The checks that need other rows (a pair twice on an evening,
a pair in two lines within a period, the evening's line tops) are the season's.

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from xlbridge.clubs.heeg.problems import COMBI_ABSENT, LINE_EMPTY, HeegProblem, problem
from xlbridge.clubs.heeg.rules import ABSENT_CODES, CODE_TEMPLATE, MAXIMA, normalise_code
from xlbridge.clubs.heeg.settings import HeegSettings
from xlbridge.rules.problems import RuleError
from xlbridge.values import as_date, as_number, is_blank, label, pair_key

__all__ = ["INPUT_COLUMNS", "OPTIONAL_COLUMNS", "REQUIRED_COLUMNS", "Entry", "parse_row"]

#: Columns ``recalculate`` needs (``line`` may be blank when the roster gives it;
#: ``max_mp`` and ``rounds`` may be blank, see docs/clubs/heeg.md).
INPUT_COLUMNS: tuple[str, ...] = ("date", "period", "line", "pair", "mp", "max_mp", "code", "rounds")
#: Columns ``recalculate`` reads when present.
OPTIONAL_COLUMNS: tuple[str, ...] = ("combi_mp", "combi_top", "line_top", "names", "in_doubt")
#: Columns without which nothing can be computed.
REQUIRED_COLUMNS: tuple[str, ...] = ("date", "pair", "mp", "code")


@dataclass(frozen=True)
class Entry:
    """One pair on one evening, typed: what the season computes from.

    ``pair`` is the pair's key (7, 7.0 and "7" are pair 7; ``None`` when blank),
    ``typed_pair`` the pair as typed (messages and standings show it); ``line``
    the line typed, else the roster's line for the period (``""`` when neither);
    ``period`` the label of the evening's period (``None`` when in none); ``code``
    the normalised inv code (``"?"`` when unknown); ``rounds`` and ``combi_top``
    the row's own or the settings' default; ``mp``, ``max_mp``, ``combi_mp``,
    ``line_top`` ``None`` when blank (or not valid).  ``in_doubt``: the caller has
    reported a problem of this row already (it is not scored, but its pair counts
    for its line's top).  ``ref`` is the caller's: a DataFrame's index label, the
    workbook's sheet and row; problems carry it as their ``row``.  ``problems``:
    what :func:`parse_row` found wrong with the row's own values.
    """

    date: dt.date | None
    pair: int | str | None
    typed_pair: Any
    names: str
    line: str
    period: str | None
    mp: float | None
    code: str
    combi_mp: float | None
    max_mp: float | None
    rounds: int
    combi_top: float
    line_top: float | None
    in_doubt: bool = False
    ref: Any = None
    problems: tuple[HeegProblem, ...] = ()
    round_mp: tuple[tuple[int, float], ...] = ()  # (round, MP) of every round typed (``r1``, ``r2``, ...)

    def roster_line(self, settings: HeegSettings) -> str:
        """The line the roster gives this pair in this evening's period (``""`` when none)."""
        pair = settings.roster_by_pair.get(self.pair) if settings.roster else None
        return pair.lines.get(self.period, "") if pair is not None and self.period is not None else ""


class _Row:
    """The problems of one raw row while it is parsed (each with the row's place)."""

    __slots__ = ("problems", "day", "pair", "ref")

    def __init__(self, pair: Any, ref: Any) -> None:
        self.problems: list[HeegProblem] = []
        self.day: dt.date | None = None
        self.pair = pair
        self.ref = ref

    def bad(self, code: str, template: str, field: str, value: Any, /, **params: Any) -> None:
        self.problems.append(problem(code, template, evening=self.day, pair=self.pair, field=field, row=self.ref,
                                     value=value, **params))


#: A typed number beyond the largest that makes sense (:data:`~xlbridge.clubs.heeg.rules.MAXIMA`).
TOO_LARGE = "heeg.number.too-large"
TOO_LARGE_TEMPLATE = "{what} {value!r} is more than {maximum:,}, the largest that makes sense"


def _number(row: _Row, raw: Any, field: str, code: str, template: str, low: float, above: bool) -> float | None:
    """A typed number at least ``low`` (above ``low`` when ``above``); ``None`` when
    blank, or not valid (then a problem)."""
    if is_blank(raw):
        return None
    number = as_number(raw)
    if number is None or (number <= low if above else number < low):
        row.bad(code, template, field, raw)
        return None
    if field in MAXIMA and number > MAXIMA[field]:
        row.bad(TOO_LARGE, TOO_LARGE_TEMPLATE, field, raw, what=field.replace("_", " "), maximum=MAXIMA[field])
        return None
    return number


def parse_row(raw: Mapping[str, Any], settings: HeegSettings, *, ref: Any = None,
              fields: Collection[str] | None = None) -> Entry:
    """The typed :class:`Entry` of one raw row, with the problems of its values.

    ``raw`` maps the input columns to raw values (cell values, a DataFrame row; a
    blank is ``None``, NaN or blank text); ``fields`` restricts which columns are
    read (default: all in ``raw``).  ``ref`` is the caller's reference of the row.
    The problems are in the order of the checks: date, pair, period, line, code,
    MP, maximum, rounds, combi, line top, combi for an absent pair.
    """
    get: Callable[[str], Any] = raw.get if fields is None else (lambda key: raw.get(key) if key in fields else None)
    raw_pair = get("pair")
    shown = raw_pair if not is_blank(raw_pair) else None
    row = _Row(shown, ref)
    raw_date = get("date")
    row.day = None if is_blank(raw_date) else as_date(raw_date)
    if row.day is None:
        row.bad("heeg.date.not-a-date", "date {value!r} is not a date (row {row})", "date", raw_date)
    key = _pair(row, raw_pair, settings)
    period = _period(row, raw_date, get("period"), settings)
    line = _line(row, get("line"), key, raw_pair, period, settings)
    code = _code(row, get("code"))
    mp, max_mp = _mp(row, get("mp"), get("max_mp"))
    rounds = _rounds(row, get("rounds"), settings)
    round_mp = _round_mp(row, {k: get(k) for k in (raw if fields is None else fields) if _is_round(k)})
    combi_mp, combi_top = _combi(row, get("combi_mp"), get("combi_top"), settings)
    line_top = _number(row, get("line_top"), "line_top", "heeg.line-top.invalid",
                       "line top {value!r} is not a number above 0", 0, True)
    if combi_mp is not None and code in ABSENT_CODES:
        row.bad(COMBI_ABSENT, "combi MP {value!r} typed for a pair marked absent ({code})", "combi_mp",
                get("combi_mp"), code=code)
    names = get("names")
    in_doubt = not is_blank(get("in_doubt")) and bool(get("in_doubt"))
    return Entry(row.day, key, shown, "" if is_blank(names) else str(names), line, period, mp, code, combi_mp,
                 max_mp, rounds, combi_top, line_top, in_doubt, ref, tuple(row.problems), round_mp)


def _is_round(key: Any) -> bool:
    """``r1``, ``r2``, ...: the MP of one round."""
    return isinstance(key, str) and key[:1] == "r" and key[1:].isdigit() and int(key[1:]) >= 1


def _round_mp(row: _Row, typed: Mapping[str, Any]) -> tuple[tuple[int, float], ...]:
    """The MP of every round typed, by round number (a number from 0; else a problem)."""
    out = []
    for key, raw in sorted(typed.items(), key=lambda item: int(item[0][1:])):
        if is_blank(raw):
            continue
        number, i = as_number(raw), int(key[1:])
        if number is None:
            row.bad("heeg.round.not-a-number", "MP {value!r} in round {round} is not a number", key, raw, round=i)
        elif number < 0:
            row.bad("heeg.round.negative", "MP {value!r} in round {round} is negative", key, raw, round=i)
        else:
            out.append((i, number))
    return tuple(out)


def _pair(row: _Row, raw_pair: Any, settings: HeegSettings) -> int | str | None:
    """The pair's key (``None`` when blank); on a roster, the pair must be on it."""
    if row.pair is None:
        row.bad("heeg.pair.empty", "pair is empty (row {row})", "pair", raw_pair)
        return None
    key = pair_key(raw_pair)
    if settings.roster and key not in settings.roster_by_pair:
        row.bad("heeg.pair.not-on-roster", "pair {value!r} is not on the roster", "pair", raw_pair)
    return key


def _period(row: _Row, raw_date: Any, raw_period: Any, settings: HeegSettings) -> str | None:
    """The label of the evening's period; a typed period must agree with it."""
    if row.day is None:
        return None
    period = settings.period_of(row.day)
    if period is None:
        row.bad("heeg.date.no-period", "evening {day} is in no period of the season", "date", raw_date,
                day=row.day.isoformat())
        return None
    if not is_blank(raw_period) and label(raw_period) != period.label:
        row.bad("heeg.period.mismatch",
                "period {value!r} does not match the settings: evening {day} is in period {expected}", "period",
                raw_period, day=row.day.isoformat(), expected=period.label)
    return period.label


def _line(row: _Row, raw_line: Any, key: Any, raw_pair: Any, period: str | None, settings: HeegSettings) -> str:
    """The line typed, else the roster's; checked against the lines and the roster."""
    line = "" if is_blank(raw_line) else str(raw_line).strip()
    pair = settings.roster_by_pair.get(key) if settings.roster else None
    roster_line = pair.lines.get(period, "") if pair is not None and period is not None else ""
    if not line:
        line = roster_line
        if not line:
            row.bad(LINE_EMPTY, "line is empty", "line", raw_line)
    elif line not in settings.lines:
        row.bad("heeg.line.unknown", "line {value!r} is not one of {lines}", "line", line,
                lines=", ".join(settings.lines))
    elif roster_line and roster_line != line:
        row.bad("heeg.line.not-roster",
                "line {value!r} differs from the roster, which puts pair {typed} in line {roster} in period {period}",
                "line", line, typed=raw_pair, roster=roster_line, period=period)
    return line


def _rounds(row: _Row, raw_rounds: Any, settings: HeegSettings) -> int:
    if is_blank(raw_rounds):
        return settings.rounds
    number = as_number(raw_rounds)
    if number is None or not number.is_integer() or number < 2:
        row.bad("heeg.rounds.invalid", "rounds {value!r} is not a whole number from 2", "rounds", raw_rounds)
        return settings.rounds
    if number > MAXIMA["rounds"]:
        row.bad(TOO_LARGE, TOO_LARGE_TEMPLATE, "rounds", raw_rounds, what="rounds", maximum=MAXIMA["rounds"])
        return settings.rounds
    return int(number)


def _code(row: _Row, raw_code: Any) -> str:
    try:
        return normalise_code(raw_code)
    except RuleError:
        row.bad("heeg.code.unknown", CODE_TEMPLATE, "code", raw_code)
        return "?"


def _mp(row: _Row, raw_mp: Any, raw_max: Any) -> tuple[float | None, float | None]:
    mp: float | None = None
    if not is_blank(raw_mp):
        mp = as_number(raw_mp)
        if mp is None:
            row.bad("heeg.mp.not-a-number", "MP {value!r} is not a number", "mp", raw_mp)
        elif mp < 0:
            row.bad("heeg.mp.negative", "MP {value!r} is negative", "mp", raw_mp)
            mp = None
    max_mp = _number(row, raw_max, "max_mp", "heeg.max-mp.invalid", "maximum MP {value!r} is not a number above 0",
                     0, True)
    if max_mp is not None and mp is not None and mp > max_mp:
        row.bad("heeg.mp.above-max", "MP {value!r} is above the evening's maximum {maximum!r}", "mp", raw_mp,
                maximum=raw_max)
    return mp, max_mp


def _combi(row: _Row, raw_combi: Any, raw_top: Any, settings: HeegSettings) -> tuple[float | None, float]:
    combi_mp = _number(row, raw_combi, "combi_mp", "heeg.combi-mp.invalid", "combi MP {value!r} is not a number from 0",
                       0, False)
    combi_top = float(settings.combi_top)
    top = _number(row, raw_top, "combi_top", "heeg.combi-top.invalid",
                  "combi table top {value!r} is not a number above 0", 0, True)
    if top is not None:
        combi_top = top
    if combi_mp is not None and combi_mp > combi_top * settings.boards_per_round:
        row.bad("heeg.combi-mp.above-max", "combi MP {value!r} is above the combi table's maximum {maximum:g}",
                "combi_mp", raw_combi, maximum=combi_top * settings.boards_per_round)
    return combi_mp, combi_top
