"""The season computation of Bridge club Heeg: typed records in, one result out.

:func:`season` takes the :class:`~xlbridge.clubs.heeg.records.Entry` records of
the season (one pair on one evening each, made by
:func:`~xlbridge.clubs.heeg.records.parse_row`) and gives a :class:`SeasonResult`:
the computed values of every record (:func:`output_columns`), the period and
year standings, and every problem of the run.  :func:`compute` is the same on
raw mappings (it parses them first).  Every rule is explained in
``docs/clubs/heeg.md``.

Standard library only: this is what the workbook recalculation calls, in Excel too.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from xlbridge.clubs.heeg.problems import COMBI_ABSENT, LINE_TOO_SMALL, HeegInputError, HeegProblem, as_heeg, problem
from xlbridge.clubs.heeg.records import REQUIRED_COLUMNS, Entry, parse_row
from xlbridge.clubs.heeg.rules import ABSENT_CODES, EGS_CODES, MARK_CODES, MP_CODES, exact_c, exact_pct, line_top
from xlbridge.clubs.heeg.settings import HeegSettings
from xlbridge.clubs.heeg.standings import Played, period_rows, year_rows
from xlbridge.rules.problems import RuleError
from xlbridge.values import exact, label

__all__ = ["OUTPUT_COLUMNS", "output_columns", "SeasonResult", "season", "compute", "period_table", "year_table"]

#: Columns ``recalculate`` adds (plus one ``end_<period>`` per period, see :func:`output_columns`).
OUTPUT_COLUMNS: tuple[str, ...] = (
    "played", "own_top", "evening_max", "c_corrected", "score", "egs", "nth_absence", "pct", "to_date", "period_pct",
    "year_pct", "period_marks", "year_marks", "star", "red_star", "red_inv", "signal",
)


def output_columns(settings: HeegSettings) -> list[str]:
    """Every column :func:`recalculate` adds, in order (``end_<label>`` per period)."""
    return [*OUTPUT_COLUMNS, *(f"end_{p.label}" for p in settings.periods)]


def _not_played(settings: HeegSettings) -> dict[str, Any]:
    blank: dict[str, Any] = {c: math.nan for c in output_columns(settings)}
    blank.update({"played": False, "star": False, "red_star": False, "red_inv": False, "signal": "",
                  "period_marks": 0, "year_marks": 0})
    return blank


@dataclass
class SeasonResult:
    """What :func:`season` computed.

    ``values[i]`` holds the computed values of ``entries[i]`` (the keys of
    :func:`output_columns`; an entry that is not played has ``played`` False and
    NaN values).  ``problems`` lists every problem of the run (then ``values`` is
    empty).  ``exact[i]`` is the exact % of ``entries[i]`` (a fraction; ``None`` when
    not played): the standings rank on it, and its ``pct`` is the float nearest to it.
    :attr:`periods` and :attr:`year` are the standings
    (:func:`~xlbridge.clubs.heeg.standings.period_table`,
    :func:`~xlbridge.clubs.heeg.standings.year_table`), computed when first read.
    """

    settings: HeegSettings
    entries: list[Entry]
    values: list[dict[str, Any]] = field(default_factory=list)
    problems: list[HeegProblem] = field(default_factory=list)
    exact: list[Fraction | None] = field(default_factory=list)

    @cached_property
    def played(self) -> Played:
        chosen = [(entry, value) for entry, values, value in zip(self.entries, self.values, self.exact)
                  if values["played"]]
        return Played.of_entries([e for e, _ in chosen], self.settings, [value for _, value in chosen])

    @property
    def played_days(self) -> set[dt.date]:
        """The evenings that have been played."""
        return set(self.played.days)

    def progress(self, period: str | None = None) -> tuple[int, int]:
        """How many evenings of period ``period`` (of the year when None) have been played,
        and how many the plan has (:meth:`HeegSettings.planned`): final when they are equal."""
        periods = [p for p in self.settings.periods if period is None or p.label == period]
        played = self.played_days
        return (sum(1 for p in periods for d in p.evenings if d in played),
                sum(self.settings.planned(p.label) for p in periods))

    @cached_property
    def periods(self) -> list[dict[str, Any]]:
        """The period standings of every period (:func:`~xlbridge.clubs.heeg.standings.period_table`)."""
        return period_rows(self.played, self.settings, [p.label for p in self.settings.periods])

    @cached_property
    def year(self) -> list[dict[str, Any]]:
        """The year standings (:func:`~xlbridge.clubs.heeg.standings.year_table`)."""
        return year_rows(self.played, self.settings)


class _Running:
    """A pair's evenings so far (in a period or the year), as exact running sums of
    their % (fractions) added in date order; a mean is shown as the float nearest to it."""

    __slots__ = ("total", "count", "egs_total", "egs_count", "absences", "marks")

    def __init__(self) -> None:
        self.total = self.egs_total = Fraction(0)
        self.count = self.egs_count = self.absences = self.marks = 0

    def add(self, code: str, pct: Fraction) -> None:
        self.total += pct
        self.count += 1
        if code in EGS_CODES:
            self.egs_total += pct
            self.egs_count += 1
        if code == "a":
            self.absences += 1
        if code in MARK_CODES:
            self.marks += 1

    def mean(self, pct: Fraction | None = None) -> float:
        """The mean so far as a float (NaN without any), with ``pct`` as one evening more."""
        total, count = (self.total, self.count) if pct is None else (self.total + pct, self.count + 1)
        return float(total / count) if count else math.nan


@dataclass
class _Scored:
    """The records that passed their checks, and what the evening checks need of the others."""

    rows: list[tuple[int, Entry]] = field(default_factory=list)  # (position, entry)
    rejected_days: set[dt.date] = field(default_factory=set)
    # (evening, line) of every rejected or in-doubt row whose pair sat at a table: left out of
    # the scoring, it still counts as a pair of its line (only its own values are in doubt)
    present: list[tuple[dt.date, str]] = field(default_factory=list)


def _row_problems(entries: Sequence[Entry], settings: HeegSettings, problems: list[HeegProblem]) -> _Scored:
    """Sort the records into scored and rejected ones; the problems of every record
    (its own, a pair twice on an evening, a pair in two lines within a period)."""
    scored = _Scored()
    seen: dict[tuple[dt.date, Any], Any] = {}
    for pos, entry in enumerate(entries):
        own = list(entry.problems)
        if entry.date is not None and entry.pair is not None and not entry.in_doubt:
            if (entry.date, entry.pair) in seen:
                twice = problem("heeg.pair.twice", "pair {value!r} appears twice on this evening (rows {first} and "
                                "{row})", evening=entry.date, pair=entry.typed_pair, field="pair", row=entry.ref,
                                value=entry.typed_pair, first=seen[(entry.date, entry.pair)])
                at = next((i for i, p in enumerate(own) if p.code == COMBI_ABSENT), len(own))  # in check order
                own.insert(at, twice)
            else:
                seen[(entry.date, entry.pair)] = entry.ref
        if entry.in_doubt or own:
            # left out of the scoring, but the pair is (most likely) at a table:
            # it counts for its line's top -- the roster's line, else the line typed
            count_line = entry.roster_line(settings) or (entry.line if entry.line in settings.lines else "")
            if entry.date is not None and entry.period is not None and count_line and entry.code not in ABSENT_CODES:
                scored.present.append((entry.date, count_line))
            if entry.date is not None and (entry.in_doubt or _typed(entry)):
                scored.rejected_days.add(entry.date)  # (a row with nothing typed: the evening may be unplayed)
        if entry.in_doubt:
            continue  # the caller has reported its problem already
        problems.extend(own)
        if not own:
            scored.rows.append((pos, entry))
    _line_changes(scored.rows, problems)
    return scored


def _line_changes(rows: list[tuple[int, Entry]], problems: list[HeegProblem]) -> None:
    """A pair keeps one line within a period (standings are per line)."""
    lines_seen: dict[tuple[str, Any], dict[str, dt.date]] = defaultdict(dict)
    for _, entry in rows:
        lines_seen[(entry.period, entry.pair)].setdefault(entry.line, entry.date)
    for (period, pair), found in lines_seen.items():
        if len(found) > 1:
            problems.append(problem("heeg.line.changed", "pair {pair} plays in lines {lines} within period {period}; "
                                    "a pair keeps one line per period", evening=max(found.values()), pair=pair,
                                    field="line", value=", ".join(found), lines=" and ".join(sorted(found)),
                                    period=period))


def _typed(entry: Entry) -> bool:
    """Whether the row has a result or a code typed (an MP, an inv code, a combi MP)."""
    return entry.mp is not None or bool(entry.code) or entry.combi_mp is not None


def _played_days(by_evening: Mapping[dt.date, list[tuple[int, Entry]]], rejected: set[dt.date]) -> list[dt.date]:
    """An evening where nothing is typed yet (no MP, no code, no combi MP) is not played."""
    return sorted(day for day, group in by_evening.items() if day in rejected or any(_typed(e) for _, e in group))


def _line_tops(played_days: list[dt.date], by_evening: Mapping[dt.date, list[tuple[int, Entry]]],
               present: list[tuple[dt.date, str]], problems: list[HeegProblem], skip: set[int]
               ) -> dict[tuple[dt.date, str], float]:
    """The top of every line on every played evening: typed, else from the pairs at the tables."""
    tops: dict[tuple[dt.date, str], float] = {}
    for day in played_days:
        counts: dict[str, int] = defaultdict(int)
        for _, entry in by_evening[day]:
            if entry.code not in ABSENT_CODES:
                counts[entry.line] += 1
        for present_day, line in present:  # rows left out for a problem of their own
            if present_day == day:
                counts[line] += 1
        for line, count in counts.items():
            typed = {e.line_top for _, e in by_evening[day] if e.line == line and e.line_top is not None}
            if len(typed) > 1:
                problems.append(problem("heeg.line-top.different", "line {line} has different line tops typed: "
                                        "{tops}", evening=day, field="line_top", value=sorted(typed), line=line,
                                        tops=", ".join(f"{t:g}" for t in sorted(typed))))
            if typed:
                tops[(day, line)] = typed.pop()
            elif count >= 4:
                tops[(day, line)] = float(line_top(count))
            else:
                for pos, e in by_evening[day]:
                    if e.line == line and (e.max_mp is None or e.combi_mp is not None) and e.code in MP_CODES:
                        problems.append(problem(LINE_TOO_SMALL, "line {value} has only {count} pairs playing; type "
                                                "max_mp and line_top for it", evening=day, pair=e.typed_pair,
                                                field="line", row=e.ref, value=line, line=line, count=count))
                        skip.add(pos)
    return tops


@dataclass
class _Pairs:
    """Every pair's state through the season, in date order."""

    settings: HeegSettings
    # Running sums per pair and per pair and period, added in date order: each mean
    # is the same float as sum() over the list of earlier evenings (see _Running), in
    # time linear in the evenings (recomputing from that list was quadratic).
    year_runs: dict[Any, _Running] = field(default_factory=lambda: defaultdict(_Running))
    period_runs: dict[tuple[Any, str], _Running] = field(default_factory=lambda: defaultdict(_Running))
    own_days: dict[Any, dict[dt.date, str]] = field(default_factory=lambda: defaultdict(dict))  # pair -> {evening: line}


def _score(entry: Entry, own_top: float | None, settings: HeegSettings, problems: list[HeegProblem]
           ) -> tuple[Fraction | None, Fraction | None, Fraction | None] | None:
    """The corrected combi MP, the evening's maximum and the score of one record, exact
    (from the numbers as typed, :func:`~xlbridge.values.exact`); ``None`` (and a problem)
    when the score is above the maximum."""
    c_exact = exact_c(entry.combi_mp, own_top, entry.combi_top) if entry.combi_mp is not None and own_top is not None \
        else None
    max_exact = exact(entry.max_mp) if entry.max_mp is not None else None
    if max_exact is None and own_top is not None:
        max_exact = entry.rounds * settings.boards_per_round * exact(own_top)
    score_exact = None
    if entry.mp is not None or c_exact is not None:
        score_exact = exact(entry.mp or 0) + (c_exact or 0)
    c_corr, max_mp, score = (None if x is None else float(x) for x in (c_exact, max_exact, score_exact))
    if score is not None and max_mp is not None and entry.code in MP_CODES and score > max_mp + 1e-9:
        where = {"evening": entry.date, "pair": entry.typed_pair, "row": entry.ref}
        if c_corr is None:
            problems.append(problem("heeg.mp.above-max", "MP {mp:g} is above the evening's maximum {maximum:g}",
                                    field="mp", value=entry.mp, mp=entry.mp, maximum=max_mp, **where))
        else:
            problems.append(problem("heeg.score.above-max", "MP {mp:g} + corrected combi MP {combi:g} = {score:g} is "
                                    "above the evening's maximum {maximum:g}", field="combi_mp",
                                    value=entry.combi_mp, mp=entry.mp or 0, combi=c_corr, score=score,
                                    maximum=max_mp, **where))
        return None
    # (a total above the evening's maximum says so at the MP cell; a round can be above its own within the total)
    if own_top is not None and _rounds_above_max(entry, settings.boards_per_round * own_top, own_top, settings,
                                                 problems):
        return None
    return c_exact, max_exact, score_exact


def _rounds_above_max(entry: Entry, maximum: float, own_top: float, settings: HeegSettings,
                      problems: list[HeegProblem]) -> bool:
    """Whether a round's MP is above the round's maximum, boards per round x the line's top (a problem each):
    a round of 90 where 48 is the most stays unseen in an evening total under its maximum (issue 25)."""
    over = [(i, mp) for i, mp in entry.round_mp if mp > maximum + 1e-9]
    for i, mp in over:
        problems.append(problem("heeg.round.above-max", "MP {value:g} in round {round} is above the round's maximum "
                                "{maximum:g} ({boards} boards x the line's top {top:g})", evening=entry.date,
                                pair=entry.typed_pair, field=f"r{i}", row=entry.ref, value=mp, round=i,
                                maximum=maximum, boards=settings.boards_per_round, top=own_top))
    return bool(over)


def _evening_values(state: _Pairs, entry: Entry, day_number: int, played_days: list[dt.date],
                    tops: Mapping[tuple[dt.date, str], float], problems: list[HeegProblem]
                    ) -> tuple[dict[str, Any], Fraction] | None:
    """The computed values of one scored record and its exact % (``None`` and a problem
    when it cannot be scored): computed once, in fractions; each value shown is the float
    nearest to its exact value."""
    settings = state.settings
    earlier = state.year_runs[entry.pair]
    in_period = state.period_runs[(entry.pair, entry.period)]
    egs = in_period.egs_total / in_period.egs_count if in_period.egs_count else None
    span = in_period if settings.absence_span == "period" else earlier
    nth = span.absences + 1 if entry.code == "a" else None
    own_top = tops.get((entry.date, entry.line))
    scored = _score(entry, own_top, settings, problems)
    if scored is None:
        return None
    c_corr, max_mp, score = scored
    try:
        pct = exact_pct(score, max_mp, entry.code, egs=egs, nth_absence=nth or 1, rounds=entry.rounds)
    except RuleError as error:
        problems.append(as_heeg(error.problem, evening=entry.date, pair=entry.typed_pair, field="mp",
                                row=entry.ref, value=entry.mp))
        return None
    mark = entry.code in MARK_CODES
    top_line = settings.lines[0]
    # '*': not the whole year (so far) in the top line
    own = state.own_days[entry.pair]
    day = entry.date
    whole_year_top = entry.line == top_line and all(own.get(d) == top_line for d in played_days[: day_number + 1]
                                                    if d != day)
    star = entry.line == top_line and not whole_year_top
    period_marks, year_marks = in_period.marks + mark, earlier.marks + mark
    values: dict[str, Any] = {
        "played": True,
        "own_top": own_top if own_top is not None else math.nan,
        "evening_max": float(max_mp) if max_mp is not None else math.nan,
        "c_corrected": float(c_corr) if c_corr is not None else math.nan,
        "score": float(score) if score is not None else math.nan,
        "egs": float(egs) if egs is not None else math.nan,
        "nth_absence": float(nth) if nth is not None else math.nan,
        "pct": float(pct),
        "to_date": in_period.mean(),
        "period_pct": in_period.mean(pct),
        "year_pct": earlier.mean(pct),
        "period_marks": period_marks,
        "year_marks": year_marks,
        "star": star,
        "red_star": year_marks > 5,
        "red_inv": period_marks >= 4,
        "signal": "*" if star else "",
    }
    return values, pct


def _end_values(state: _Pairs, entry: Entry, values: dict[str, Any], period_index: Mapping[str, int]) -> None:
    """The kept result of every earlier period (NaN for this and later ones)."""
    here = period_index[entry.period]
    for period in state.settings.periods:
        values[f"end_{period.label}"] = math.nan
        if period_index[period.label] < here:
            done = state.period_runs.get((entry.pair, period.label))
            values[f"end_{period.label}"] = done.mean() if done is not None else math.nan


def season(records: Iterable[Entry], settings: HeegSettings, *, raise_problems: bool = True) -> SeasonResult:
    """Compute the season from its typed records (made by :func:`~xlbridge.clubs.heeg.records.parse_row`).

    All bad input of the run is reported together: the settings' problems alone
    when there are any (nothing else is checked), else every record's own problems
    and those the season finds (a pair twice on an evening, a pair in two lines
    within a period, a line without a top, a score above the maximum).  With
    ``raise_problems`` (default) they raise one :class:`HeegInputError`; otherwise
    the result carries them in ``problems`` (and no values).
    """
    entries = list(records)
    problems: list[HeegProblem] = list(settings.check())
    if not problems:
        problems, values, exacts = _compute(entries, settings)
    if problems:
        if raise_problems:
            raise HeegInputError(problems)
        return SeasonResult(settings, entries, [], problems)
    return SeasonResult(settings, entries, values, [], exacts)


def _compute(entries: list[Entry], settings: HeegSettings
             ) -> tuple[list[HeegProblem], list[dict[str, Any]], list[Fraction | None]]:
    problems: list[HeegProblem] = []
    scored = _row_problems(entries, settings, problems)
    by_evening: dict[dt.date, list[tuple[int, Entry]]] = defaultdict(list)
    for pos, entry in scored.rows:
        by_evening[entry.date].append((pos, entry))  # type: ignore[index]
    played_days = _played_days(by_evening, scored.rejected_days)
    # Evening checks that need the whole evening: every MP-scored pair needs an MP.
    skip: set[int] = set()
    for day in played_days:
        for pos, entry in by_evening[day]:
            if entry.code in MP_CODES and entry.mp is None:
                problems.append(problem("heeg.mp.empty", "MP is empty; type the MP or an inv code (0, a, 2, =)",
                                        evening=day, pair=entry.typed_pair, field="mp", row=entry.ref, value=None))
                skip.add(pos)
    tops = _line_tops(played_days, by_evening, scored.present, problems, skip)
    state = _Pairs(settings)
    period_index = {p.label: i for i, p in enumerate(settings.periods)}
    out: dict[int, dict[str, Any]] = {}
    exacts: dict[int, Fraction] = {}
    for day_number, day in enumerate(played_days):
        for pos, entry in by_evening[day]:
            if pos in skip:
                continue
            computed = _evening_values(state, entry, day_number, played_days, tops, problems)
            if computed is None:
                continue
            values, exacts[pos] = computed
            _end_values(state, entry, values, period_index)
            out[pos] = values
            for run in (state.year_runs[entry.pair], state.period_runs[(entry.pair, entry.period)]):
                run.add(entry.code, exacts[pos])
            state.own_days[entry.pair][day] = entry.line
    if problems:
        return problems, [], []
    blank = _not_played(settings)
    return [], [out[pos] if pos in out else dict(blank) for pos in range(len(entries))], \
        [exacts.get(pos) for pos in range(len(entries))]


def compute(results: Sequence[Mapping[str, Any]], settings: HeegSettings, *,
            columns: Iterable[str] | None = None, index: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """Recalculate the season on plain records: the computed values of every row.

    ``results`` has one mapping per pair per evening (keys: see
    :data:`~xlbridge.clubs.heeg.records.INPUT_COLUMNS`,
    :data:`~xlbridge.clubs.heeg.records.OPTIONAL_COLUMNS` and docs/clubs/heeg.md; a
    blank is ``None``, ``NaN`` or blank text).  ``columns`` names the input
    columns when not every row carries every key (default: the keys of the
    rows); ``index`` labels the rows in messages (default 0, 1, ...).  Returns
    one dict per input row, in order, holding :func:`output_columns` (a row that
    is not played has ``played`` False and NaN values).  Keys computed by an
    earlier run are ignored.  All bad input of the run is reported together in
    one :class:`HeegInputError`.  Standard library only.

    >>> from xlbridge.clubs.heeg import HeegSettings, Period
    >>> settings = HeegSettings(periods=(Period("1", ("2025-09-04",)),))
    >>> rows = [{"date": "2025-09-04", "pair": p, "line": "A", "mp": mp, "code": ""}
    ...         for p, mp in zip(range(1, 5), (30, 22, 24, 20))]
    >>> out = compute(rows, settings)     # 4 pairs: top 2, maximum 6 rounds x 4 boards x 2
    >>> [round(r["pct"], 2) for r in out], out[0]["evening_max"]
    ([62.5, 45.83, 50.0, 41.67], 48.0)
    """
    present = set(columns) if columns is not None else set().union(*(row.keys() for row in results))
    labels = list(index) if index is not None else list(range(len(results)))
    if len(labels) != len(results):
        raise RuleError("heeg.results.index", "index has {labels} labels for {rows} rows", labels=len(labels),
                        rows=len(results))
    missing = [c for c in REQUIRED_COLUMNS if c not in present]
    fatal = settings.check() or [problem("heeg.results.no-column", "the results have no column {value!r}",
                                         field=c, value=c, where="Results") for c in missing]
    if fatal:  # (the rows are parsed with the settings' defaults: only with settings that are fine)
        raise HeegInputError(fatal)
    fields = None if columns is None else present
    entries = [parse_row(row, settings, ref=label, fields=fields) for row, label in zip(results, labels)]
    return season(entries, settings).values


def _of_rows(rows: Sequence[Mapping[str, Any]], settings: HeegSettings) -> SeasonResult:
    """The season of plain rows again (their input columns; computed keys are ignored), for
    its exact values: the standings rank on the exact %, which a row's float does not hold."""
    return season([parse_row(row, settings, ref=i) for i, row in enumerate(rows)], settings)


def period_table(rows: Sequence[Mapping[str, Any]], settings: HeegSettings, period: Any = None) -> list[dict[str, Any]]:
    """Period standings per line, with promotion/relegation marked, on plain records.

    ``rows``: the season, one mapping per input row holding its input (and maybe its
    computed values, ``{**row, **computed}`` of :func:`compute`: they are ignored and
    computed again, exact).

    One row per pair per line per period (only played evenings count).
    Columns: ``period, line, rank, pair, names, evenings, period_pct, marks,
    blocked, move, next_line, final``.  ``rank`` is the competition rank on
    ``period_pct`` compared exact (ties share a rank); ``blocked`` is the red inv signal (4 or
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
    wanted = labels if period is None else [label(period)]
    for one in wanted:
        if one not in labels:
            raise RuleError("heeg.period.unknown", "period {value!r} is not one of {labels}", field="period",
                            value=period, labels=", ".join(labels))
    return period_rows(_of_rows(rows, settings).played, settings, wanted)


def year_table(rows: Sequence[Mapping[str, Any]], settings: HeegSettings) -> list[dict[str, Any]]:
    """The year standings (club championship) on plain records (``rows`` as for
    :func:`period_table`).

    One row per pair.  Columns: ``line`` (line of the pair's last evening),
    ``rank`` (competition rank on ``year_pct`` within that line, compared exact), ``pair, names,
    evenings, year_pct``, one ``end_<label>`` per period (the pair's period
    result), ``marks`` (substitute/absence codes in the year), ``star`` (not the
    whole year in the top line), ``red_star`` (marks > 5), ``eligible`` (in the
    top line, no star, no red star) and ``champion_rank`` (rank among the
    eligible pairs; NaN for the others).  Sorted by line, then rank.
    """
    return year_rows(_of_rows(rows, settings).played, settings)
