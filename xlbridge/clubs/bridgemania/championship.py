"""The championship: the three PTS standings (C.03), the general ranking (C.02) and the
final "Ricalibratura della storia" ranking with its tie-breaks (C.04).

Tie averaging of the PTS tables (pairs sharing a place share the mean of their
places' PTS) is :mod:`xlbridge.rules.bm_bridgemania`; the ties of the final ranking
are broken here (:func:`bm_final`): fewer tournaments played, then more TOPs, then
fewer POTs.

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from xlbridge.clubs.bridgemania.model import SCHEMES, FinalRow, GeneralRow, StandingRow, TournamentResult
from xlbridge.clubs.bridgemania.scores import competition_ranks
from xlbridge.rules.base import round_half_up
from xlbridge.rules.problems import RuleError
from xlbridge.values import as_number, exact

__all__ = ["ricalibratura_points", "bm_final", "Totals"]


def ricalibratura_points(rank1: Any, rank2: Any, rank3: Any) -> int:
    """C.04: 2 points per place in each of the three standings, summed (lowest wins).

    >>> ricalibratura_points(1, 3, 2)
    12
    """
    total = 0
    for value in (rank1, rank2, rank3):
        number = as_number(value)
        if number is None or number != int(number) or number < 1:
            raise RuleError("bm.final.place", "BM_FINAL: a place must be a whole number from 1; got {value!r}",
                            argument="ranks", value=value)
        total += 2 * int(number)
    return total


def _tie_break(name: str, values: Sequence[Any] | None, sign: int, eligible: list[bool]) -> list[float]:
    """One tie-break column, signed so that lower is better (``None``: no tie-break); the row of a pair
    that is not eligible is not read (0)."""
    n = len(eligible)
    if values is None:
        return [0.0] * n
    if len(values) != n:
        raise RuleError("bm.final.length", "BM_FINAL: {argument} has {count} entries, the ranks {ranks}",
                        argument=name, count=len(values), ranks=n)
    column = []
    for row, (value, counted) in enumerate(zip(values, eligible), start=1):
        if not counted:
            column.append(0.0)
            continue
        if value is None or isinstance(value, str) and not value.strip():
            raise RuleError("bm.final.tie-break-empty", "BM_FINAL: {argument} is empty in row {row}, a pair with "
                            "its three places: type its number", argument=name, row=row)
        number = as_number(value)
        if number is None or number < 0:
            raise RuleError("bm.final.tie-break", "BM_FINAL: {argument} must be numbers from 0; got {value!r}",
                            argument=name, value=value)
        column.append(sign * number)
    return column


def bm_final(ranks1: Sequence[Any], ranks2: Sequence[Any], ranks3: Sequence[Any], played: Sequence[Any] | None = None,
             tops: Sequence[Any] | None = None, pots: Sequence[Any] | None = None) -> list[int | None]:
    """C.04 final places from the places in the three standings.

    Lowest 2+4+... total first; ties broken by fewer tournaments played, then more
    TOPs, then fewer POTs (each list optional); what is still tied shares the place.
    A blank in any of the three rank lists = not eligible -> ``None``.

    >>> bm_final([1, 2, 3], [2, 1, 3], [1, 3, 2])
    [1, 2, 3]
    >>> bm_final([1, 2], [2, 1], [1, 1], played=[8, 7])
    [2, 1]
    """
    n = len(ranks1)
    if len(ranks2) != n or len(ranks3) != n:
        raise RuleError("bm.final.lengths", "BM_FINAL: the three rank lists differ in length ({one}, {two}, {three})",
                        argument="ranks", one=n, two=len(ranks2), three=len(ranks3))
    eligible = [not any(c is None or (isinstance(c, str) and not c.strip()) for c in cells)
                for cells in zip(ranks1, ranks2, ranks3)]
    extras = [_tie_break("played", played, 1, eligible), _tie_break("tops", tops, -1, eligible),
              _tie_break("pots", pots, 1, eligible)]
    keys: list[tuple[float, ...] | None] = []
    for i in range(n):
        if not eligible[i]:
            keys.append(None)
            continue
        keys.append((ricalibratura_points(ranks1[i], ranks2[i], ranks3[i]), extras[0][i], extras[1][i], extras[2][i]))
    ordered = sorted(key for key in keys if key is not None)  # (n log n: a long range is no hang, issue 14)
    return [None if key is None else 1 + bisect_left(ordered, key) for key in keys]


# ------------------------------------------------------------------ the season's standings


@dataclass
class Totals:
    """What the championship adds up over the counted tournaments."""

    base_ids: list[str]
    sums: dict[str, dict[str, float]] = field(default_factory=dict)  # played, tops, pots
    exact: dict[str, dict[str, Fraction]] = field(default_factory=dict)  # the PTS sums, exact (what ranks)
    general: dict[str, list[float]] = field(default_factory=dict)  # pair -> its tournament scores (C.02)
    kinds: dict[str, str] = field(default_factory=dict)  # pair -> "base" | "guest"
    after: list[tuple[str, tuple[StandingRow, ...]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sums = {b: {"played": 0, "tops": 0.0, "pots": 0.0} for b in self.base_ids}
        self.exact = {b: {key: Fraction(0) for key, _ in SCHEMES} for b in self.base_ids}

    def count(self, result: TournamentResult) -> None:
        """Add one counted (championship) tournament; the standings after it."""
        for r in result.entries:
            if r.kind == "guest":
                self.general.setdefault(r.entry, []).append(r.percent)
                self.kinds[r.entry] = "guest"
        for n in result.base:
            total = self.sums[n.pair]
            for key in ("tops", "pots"):
                total[key] += getattr(n, key)
            for key, _ in SCHEMES:
                self.exact[n.pair][key] += exact(getattr(n, key))
            if n.played:
                total["played"] += 1
                self.general.setdefault(n.pair, []).append(n.percent)  # type: ignore[arg-type]
                self.kinds[n.pair] = "base"
        ranks = {key: competition_ranks([self.exact[b][key] for b in self.base_ids]) for key, _ in SCHEMES}
        rows = []
        for i, b in enumerate(self.base_ids):
            pts = {key: round_half_up(float(self.exact[b][key]), 4) for key, _ in SCHEMES}
            rows.append(StandingRow(b, int(self.sums[b]["played"]), pts["f1"], pts["indy"], pts["hybrid"],
                                    ranks["f1"][i], ranks["indy"][i], ranks["hybrid"][i]))
        self.after.append((result.id, tuple(rows)))

    def general_ranking(self) -> list[GeneralRow]:
        """C.02: the mean of each pair's tournament scores, ranked."""
        ids = list(self.general)
        means = [round_half_up(sum(self.general[g]) / len(self.general[g]), 2) for g in ids]
        ranks = competition_ranks(means)
        return sorted((GeneralRow(g, self.kinds[g], len(self.general[g]), m, r) for g, m, r in zip(ids, means, ranks)),
                      key=lambda row: (row.rank, row.pair))

    def final_ranking(self, threshold: int) -> list[FinalRow]:
        """C.04: the Ricalibratura among the pairs that played ``threshold`` tournaments, ineligible pairs last."""
        sums, base_ids = self.sums, self.base_ids
        eligible = [b for b in base_ids if sums[b]["played"] >= threshold] if self.after else []
        eranks = {key: dict(zip(eligible, competition_ranks([self.exact[b][key] for b in eligible])))
                  for key, _ in SCHEMES}
        points = {b: 2 * (eranks["f1"][b] + eranks["indy"][b] + eranks["hybrid"][b]) for b in eligible}
        places = dict(zip(eligible, bm_final(
            [eranks["f1"][b] for b in eligible], [eranks["indy"][b] for b in eligible],
            [eranks["hybrid"][b] for b in eligible], played=[sums[b]["played"] for b in eligible],
            tops=[sums[b]["tops"] for b in eligible], pots=[sums[b]["pots"] for b in eligible],
        ))) if eligible else {}
        final = [
            FinalRow(
                pair=b, played=int(sums[b]["played"]), eligible=b in places,
                rank_f1=eranks["f1"].get(b), rank_indy=eranks["indy"].get(b), rank_hybrid=eranks["hybrid"].get(b),
                points=points.get(b), tops=sums[b]["tops"], pots=sums[b]["pots"], place=places.get(b),
            )
            for b in base_ids
        ]
        final.sort(key=lambda row: (row.place is None, row.place or 0, base_ids.index(row.pair)))
        return final
