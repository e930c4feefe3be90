"""The period standings (promotion and relegation per line) and the year
standings (the club championship) of a Heeg season (``docs/clubs/heeg.md`` §6).

:func:`period_rows` and :func:`year_rows` make the tables from the played rows
(:class:`Played`) of a :class:`~xlbridge.clubs.heeg.season.SeasonResult`; its
module's :func:`~xlbridge.clubs.heeg.season.period_table` and
:func:`~xlbridge.clubs.heeg.season.year_table` give them from plain mappings.

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from xlbridge.clubs.heeg.rules import MARK_CODES, normalise_code
from xlbridge.clubs.heeg.settings import HeegSettings
from xlbridge.values import is_blank, pair_key

__all__ = ["PERIOD_COLUMNS", "year_columns", "period_rows", "year_rows", "evening_result", "Played"]

#: Columns of :func:`period_table` / :func:`period_standings`.
PERIOD_COLUMNS: tuple[str, ...] = ("period", "line", "rank", "pair", "names", "evenings", "period_pct", "marks",
                                   "blocked", "move", "next_line", "final")


def year_columns(settings: HeegSettings) -> list[str]:
    """Columns of :func:`year_table` / :func:`year_standings`."""
    return ["line", "rank", "pair", "names", "evenings", "year_pct", *(f"end_{p.label}" for p in settings.periods),
            "marks", "star", "red_star", "eligible", "champion_rank"]


class Played:
    """The played rows of a recalculated season as plain lists read once: the pair
    as given (``pairs``) and its key, the evening, its period label, the names,
    the inv code, the line (``lines[i]`` is the row's own line, or the roster's line
    for the row's period when the row left it blank) and the exact %."""

    def __init__(self, pairs: list[Any], keys: list[Any], days: list[dt.date], labels: list[str],
                 names: list[Any], codes: list[Any], lines: list[str], exacts: list[Fraction]) -> None:
        self.pairs, self.keys, self.days, self.labels = pairs, keys, days, labels
        self.names, self.codes, self.lines, self.exacts = names, codes, lines, exacts

    @classmethod
    def of_entries(cls, entries: Sequence[Any], settings: HeegSettings, exacts: list[Fraction]) -> Played:
        """From the season's played :class:`~xlbridge.clubs.heeg.records.Entry` records and their exact %."""
        return cls([e.typed_pair for e in entries], [e.pair for e in entries], [e.date for e in entries],
                   [e.period for e in entries], [e.names for e in entries], [e.code for e in entries],
                   [e.line for e in entries], exacts)

    def __len__(self) -> int:
        return len(self.keys)

    def names_of(self, group: list[int]) -> str:
        """The last names typed for the pair in the group ("" when none)."""
        typed = [self.names[i] for i in group if not is_blank(self.names[i])]
        return str(typed[-1]) if typed else ""

    def marks_of(self, group: list[int]) -> int:
        return sum(1 for i in group if normalise_code(self.codes[i]) in MARK_CODES)

    def mean_pct(self, group: list[int]) -> float:
        """The float nearest to :meth:`mean_exact` (NaN without any): the same float as
        the running value of the evening sheets."""
        mean = self.mean_exact(group)
        return math.nan if mean is None else float(mean)

    def mean_exact(self, group: list[int]) -> Fraction | None:
        """The exact mean of the group's % (what the standings rank on); ``None`` without any."""
        return sum((self.exacts[i] for i in group), Fraction(0)) / len(group) if group else None


def _groups(keys: Iterable[Any], days: list[Any]) -> list[tuple[Any, list[int]]]:
    """Positions per key, keys in order of first appearance (``groupby(sort=False)``),
    the positions of each key in day order (a pair plays once per evening)."""
    groups: dict[Any, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    return [(key, sorted(group, key=lambda i: days[i])) for key, group in groups.items()]


def _rank_by_line(rows: list[dict[str, Any]], lines: Sequence[str]) -> list[dict[str, Any]]:
    """The standings order and ranks: rows sorted by line (the season's order, unknown
    lines last), then the value from high to low, then pair (numbers before text);
    ``rank`` is the competition rank on the value within the row's line (equal
    values share the best rank: 1, 2, 2, 4).  Values are compared exact: ``row["_exact"]``
    is the exact fraction of ``value`` (``None`` for NaN), so that two means equal as
    fractions rank alike whatever their floats (docs/clubs/heeg.md §6.1)."""
    line_no: dict[str, int] = {}
    for i, line in enumerate(lines):
        line_no.setdefault(line, i)

    def order(row: dict[str, Any]) -> tuple[Any, ...]:
        v = row["_exact"]
        missing = v is None  # NaN: after every number
        key = row["_key"]
        pair = (0, key, "") if isinstance(key, int) else (1, 0, str(key))
        return (line_no.get(row["line"], len(lines)), missing, 0 if missing else -v, pair)

    ranked = sorted(rows, key=order)
    seen: dict[Any, tuple[int, Any, int]] = {}  # line -> (rows so far, last value, its rank)
    for row in ranked:
        count, last, rank = seen.get(row["line"], (0, None, 0))
        v = row["_exact"]
        rank = rank if v is not None and v == last else count + 1
        row["rank"] = rank
        seen[row["line"]] = (count + 1, v, rank)
    return ranked


def _names(cols: Played, group: list[int], key: Any, settings: HeegSettings) -> str:
    names = cols.names_of(group)
    roster = settings.roster_by_pair
    if not names and key in roster:
        names = roster[key].names
    return names


def _one_period(cols: Played, settings: HeegSettings, period_label: str) -> list[dict[str, Any]]:
    """The standings of one period, ranked per line, promotion and relegation marked."""
    settings_period = next(p for p in settings.periods if p.label == period_label)
    positions = [i for i in range(len(cols)) if cols.labels[i] == period_label]
    if not positions:
        return []
    final = len({cols.days[i] for i in positions}) >= settings.planned(period_label)  # (played: of its evenings)
    table = []
    groups = _groups(((cols.lines[i], cols.keys[i]) for i in positions), [cols.days[i] for i in positions])
    for (line, key), members in groups:
        group = [positions[j] for j in members]
        marks = cols.marks_of(group)
        table.append({
            "period": period_label, "line": line, "pair": cols.pairs[group[-1]], "_key": key,
            "names": _names(cols, group, key, settings), "evenings": len(group), "period_pct": cols.mean_pct(group),
            "_exact": cols.mean_exact(group),
            "marks": marks, "blocked": marks >= 4, "move": "", "next_line": line, "final": final,
        })
    table = _rank_by_line(table, settings.lines)
    _mark_moves(table, settings.lines, settings_period.promote)
    return [{c: row[c] for c in PERIOD_COLUMNS} for row in table]


def _mark_moves(table: list[dict[str, Any]], lines: Sequence[str], promote: int) -> None:
    """For each two adjacent lines: every blocked pair of the upper line relegates,
    the lowest ranked others fill up to ``promote``; as many of the lower line's
    best ranked pairs that are not blocked promote."""
    present = {row["line"] for row in table}
    for upper, lower in zip(lines, lines[1:]):
        if upper not in present or lower not in present:
            continue
        up = [row for row in table if row["line"] == upper]
        blocked = [row for row in up if row["blocked"]]
        others = [row for row in reversed(up) if not row["blocked"]]
        relegate = blocked + others[: max(0, promote - len(blocked))]
        promoted = [row for row in table if row["line"] == lower and not row["blocked"]][: len(relegate)]
        for row in relegate:
            row["move"], row["next_line"] = "relegate", lower
        for row in promoted:
            row["move"], row["next_line"] = "promote", upper


def period_rows(cols: Played, settings: HeegSettings, wanted: Sequence[str]) -> list[dict[str, Any]]:
    """The standings of the periods ``wanted`` (labels), one after the other."""
    out: list[dict[str, Any]] = []
    for period_label in wanted:
        out.extend(_one_period(cols, settings, period_label))
    return out


def year_rows(cols: Played, settings: HeegSettings) -> list[dict[str, Any]]:
    """The year standings of the played rows ``cols``."""
    columns = year_columns(settings)
    if not len(cols):
        return []
    all_days = sorted(set(cols.days))
    top = settings.lines[0]
    table = []
    for key, group in _groups(cols.keys, cols.days):
        line = cols.lines[group[-1]]
        own = {cols.days[i]: cols.lines[i] for i in group}
        whole_top = all(own.get(d) == top for d in all_days)
        marks = cols.marks_of(group)
        row = {
            "line": line, "pair": cols.pairs[group[-1]], "_key": key, "names": _names(cols, group, key, settings),
            "evenings": len(group), "year_pct": cols.mean_pct(group), "_exact": cols.mean_exact(group), "marks": marks,
            "star": line == top and not whole_top, "red_star": marks > 5,
        }
        for p in settings.periods:
            row[f"end_{p.label}"] = cols.mean_pct([i for i in group if cols.labels[i] == p.label])
        row["eligible"] = whole_top and not row["red_star"]
        table.append(row)
    table = _rank_by_line(table, settings.lines)
    eligible = [row["_exact"] for row in table if row["eligible"] and row["_exact"] is not None]
    for row in table:
        # competition rank among the eligible pairs, on the exact values (NaN for the others)
        v = row["_exact"]
        row["champion_rank"] = float(1 + sum(1 for e in eligible if e > v)) if row["eligible"] and v is not None \
            else math.nan
    return [{c: row[c] for c in columns} for row in table]


def evening_result(rows: Iterable[Mapping[str, Any]], lines: Sequence[str]) -> list[dict[str, Any]]:
    """One evening's result (the club's nightly *uitslag*): ``rows`` are the pairs
    that played at the tables (``line``, ``pair``, ``names``, ``pct``, and ``exact``,
    the exact fraction of ``pct`` when known), returned sorted per line (the season's
    order) by ``pct`` from high to low, each with its ``rank`` within the line ranked
    as the standings are (equal values share the best rank)."""
    table = []
    for row in rows:
        pct = float(row["pct"])
        exact = row.get("exact")
        table.append({"line": row["line"], "pair": row["pair"], "names": row.get("names") or "", "pct": pct,
                      "_key": pair_key(row["pair"]),
                      "_exact": exact if exact is not None else Fraction(pct) if pct == pct else None})
    return _rank_by_line(table, lines)
