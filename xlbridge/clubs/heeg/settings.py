"""The settings of a Heeg season: the periods, the pairs of the roster, the lines,
rounds and tops, and their checks (``docs/clubs/heeg.md`` §1.1).

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from xlbridge.clubs.heeg.problems import HeegProblem, problem
from xlbridge.clubs.heeg.rules import MAXIMA
from xlbridge.values import as_date, is_number, label, pair_key

__all__ = ["Period", "Pair", "HeegSettings", "to_date"]


def to_date(value: Any) -> dt.date:
    """A date, datetime or ISO text (``2025-09-04``, ``2025-09-04T00:00:00.000Z``) as a date;
    ``ValueError`` for anything else."""
    day = as_date(value)
    if day is None:
        raise ValueError(f"not a date: {value!r}")
    return day


def _whole_from(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


@dataclass(frozen=True)
class Period:
    """One period (competitieronde): its label, its evenings, and how many pairs
    move between two adjacent lines at its end (``promote``; default 3).  ``slots``:
    how many evenings the season's plan has room for in it (the Season sheet's evening
    columns; 0: just the evenings listed)."""

    label: str
    evenings: tuple[dt.date, ...]
    promote: int = 3
    slots: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", label(self.label))
        object.__setattr__(self, "evenings", tuple(to_date(d) for d in self.evenings))


@dataclass(frozen=True)
class Pair:
    """A pair of the roster: season-wide identity, names, line per period label."""

    pair: Any
    names: str = ""
    lines: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pair", pair_key(self.pair))
        object.__setattr__(self, "lines", {label(k): str(v).strip() for k, v in dict(self.lines).items()})


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
        return self._period_by_day.get(to_date(day))

    @cached_property
    def _period_by_day(self) -> dict[dt.date, Period]:
        found: dict[dt.date, Period] = {}
        for period in self.periods:
            for day in period.evenings:
                found.setdefault(day, period)  # the first period that lists it
        return found

    @property
    def evenings(self) -> tuple[dt.date, ...]:
        """Every evening of the season, in date order."""
        return tuple(sorted(d for p in self.periods for d in p.evenings))

    def planned(self, label: str) -> int:
        """How many evenings period ``label`` has on the plan: its listed evenings once a
        later period lists one (evenings are listed in date order, so it can get no more),
        otherwise as many as its slots hold (at least those listed)."""
        index = next(i for i, p in enumerate(self.periods) if p.label == label)
        period = self.periods[index]
        if any(p.evenings for p in self.periods[index + 1:]):
            return len(period.evenings)
        return max(period.slots, len(period.evenings))

    @cached_property
    def roster_by_pair(self) -> dict[Any, Pair]:
        """The roster's pairs by their key (the last one of a pair listed twice)."""
        return {p.pair: p for p in self.roster}

    def check(self) -> list[HeegProblem]:
        """Problems of the settings themselves (empty list when fine)."""
        problems: list[HeegProblem] = []

        def bad(code: str, template: str, setting: str, value: Any, /, **params: Any) -> None:
            problems.append(problem(code, template, field=setting, value=value, where="Settings", **params))

        if not self.periods:
            bad("heeg.settings.no-periods", "the season has no periods", "periods", None)
        self._check_periods(bad)
        if not self.lines or len(set(self.lines)) != len(self.lines):
            bad("heeg.settings.lines", "lines must be distinct names, top line first; got {value!r}", "lines",
                self.lines)
        if not _whole_from(self.rounds, 2):
            bad("heeg.settings.rounds", "rounds per evening must be a whole number from 2; got {value!r}", "rounds",
                self.rounds)
        if not _whole_from(self.boards_per_round, 1):
            bad("heeg.settings.boards", "boards per round must be a whole number from 1; got {value!r}",
                "boards_per_round", self.boards_per_round)
        if not is_number(self.combi_top) or self.combi_top <= 0:
            bad("heeg.settings.combi-top", "the combi table top must be a number above 0; got {value!r}",
                "combi_top", self.combi_top)
        for name in ("rounds", "boards_per_round", "combi_top"):
            value = getattr(self, name)
            if is_number(value) and value > MAXIMA[name]:
                bad("heeg.settings.too-large", "{setting} {value!r} is more than {maximum:,}, the largest that makes "
                    "sense", name, value, setting=name.replace("_", " "), maximum=MAXIMA[name])
        if self.absence_span not in ("period", "season"):
            bad("heeg.settings.absence-span", "absence_span must be 'period' or 'season'; got {value!r}",
                "absence_span", self.absence_span)
        self._check_roster(bad)
        return problems

    def _check_periods(self, bad: Any) -> None:
        seen: dict[dt.date, str] = {}
        labels: set[str] = set()
        for period in self.periods:
            if period.label in labels:
                bad("heeg.settings.period-twice", "period {value!r} is listed twice", "periods", period.label)
            labels.add(period.label)
            if _whole_from(period.promote, 0) and period.promote > MAXIMA["promote"]:
                bad("heeg.settings.too-large", "period {period}: promotion count {value!r} is more than {maximum:,}, "
                    "the largest that makes sense", "promote", period.promote, period=period.label,
                    maximum=MAXIMA["promote"])
            if not _whole_from(period.promote, 0):
                bad("heeg.settings.promote",
                    "period {period}: promotion count must be a whole number from 0; got {value!r}", "promote",
                    period.promote, period=period.label)
            for day in period.evenings:
                if day in seen:
                    bad("heeg.settings.evening-twice", "evening {value} is in period {first} and in period {period}",
                        "periods", day.isoformat(), first=seen[day], period=period.label)
                seen[day] = period.label

    def _check_roster(self, bad: Any) -> None:
        keys = [p.pair for p in self.roster]
        for key in {k for k in keys if keys.count(k) > 1}:
            bad("heeg.settings.roster-twice", "pair {value} is on the roster twice", "roster", key)
        for pair in self.roster:
            for period, line in pair.lines.items():
                if line not in self.lines:
                    bad("heeg.settings.roster-line", "pair {number}: line {value!r} for period {period} is not one "
                        "of {lines}", "roster", line, number=pair.pair, period=period, lines=", ".join(self.lines))
