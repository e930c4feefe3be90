"""A synthetic, reproducible Heeg season for the demo workbook and the tests.

:func:`demo_season` returns ``(settings, results)``: the season settings (with
the roster: names and line per period) and one row per pair per evening in the
input layout of :func:`xlbridge.clubs.heeg.recalculate`, plus the MP per round
as the scorer types them (``r1`` .. ``r6``; blank for the round a pair sat out or
played at the combi table).

What is in it (checked by ``tests/test_heeg_demo.py``):

- 3 periods x 6 evenings, lines A (14 pairs) and B (15 pairs) (by default;
  ``lines=`` adds lines C, D, ... of 15 pairs: a bigger club for the benchmarks);
- a real movement: each round the present pairs of a line are paired at
  tables, both pairs of a table share ``top`` MP per board, so a line averages
  50 %; an odd line has a sitter each round;
- when both lines are odd the sitters meet at the combi table (``combi_mp``);
  otherwise a sitter gets ``s`` (``s1`` with one substitute);
- every inv code: blank, ``1``, ``2``, ``0``, ``a``, ``s``, ``s1``, ``=``;
- promotion and relegation between the periods from
  :func:`xlbridge.clubs.heeg.period_standings`, so lines change;
- pair 9 collects 4 substitutes/absences in period 1 (red inv: relegates), pair
  3 collects 6 over the year (red * : cannot be champion), promoted pairs carry
  the ``*``.

Only the standard library's :class:`random.Random` is used, so a seed gives
the same season on every platform.

>>> settings, results = demo_season()
>>> len(settings.periods), sorted(set(results["line"])), len(results)
(3, ['A', 'B'], 522)
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from xlbridge.clubs.heeg import HeegSettings, Pair, Period, line_top
from xlbridge.clubs.heeg.season import period_table

__all__ = ["demo_season", "SURNAMES"]

SURNAMES = (
    "de Boer", "Hoekstra", "Visser", "Bakker", "de Jong", "Dijkstra", "Postma", "Hiemstra",
    "Bosma", "van der Meer", "Kuipers", "Wiersma", "Zijlstra", "Terpstra", "Brouwer", "Jansen",
    "Smit", "Mulder", "Veenstra", "Kramer", "Yntema", "Haitsma", "Tolsma", "Algra",
    "Feenstra", "Sikkema", "Boersma", "Hofstra", "Jellema", "Westra", "Faber", "Nauta",
    "Schaafsma", "Rienstra", "Kingma", "Miedema", "Stienstra", "Vellinga", "Wijbenga", "Zandstra",
    "de Vries", "van Dijk", "Hoogland", "Reitsma", "Attema", "Bouma", "Dykstra", "Groen",
    "Heeringa", "Kooistra", "Landman", "Meijer", "Oosterhof", "Rijpma", "Sinnema", "Tjalsma",
    "Visscher", "Wouda", "IJpma", "Zwart",
)  # fmt: skip

ROUNDS = 6
BOARDS = 4
#: Evenings inside each period where the parity of the lines is steered:
#: (A odd?, B odd?).  Both odd -> combi table; one odd -> that line's sitters get s.
PARITY = ((False, True), (True, True), (True, False), (False, True), (True, True), (True, False))


def _dates(first: dt.date, count: int, skip: set[dt.date]) -> list[dt.date]:
    days, day = [], first
    while len(days) < count:
        if day not in skip:
            days.append(day)
        day += dt.timedelta(days=7)
    return days


def _binomial(rng: random.Random, n: int, p: float) -> int:
    return sum(rng.random() < p for _ in range(n))


def _lines(count: int) -> tuple[str, ...]:
    return tuple(chr(ord("A") + i) for i in range(count))


@dataclass
class _Club:
    """The club of the demo: its lines, pairs, names and skills, and the codes forced on some evenings."""

    labels: tuple[str, ...]
    pairs: list[int]
    pair_names: dict[int, str]
    home: dict[int, int]  # pair -> index of its first line
    skill: dict[int, float]
    groups: list[tuple[str, ...]]  # the lines that share a combi table: (A, B), (C, D), ...
    # forced codes: (pair, period index, evening index) -> code
    forced: dict[tuple[int, int, int], str] = field(default_factory=lambda: {
        (9, 0, 0): "1", (9, 0, 1): "2", (9, 0, 2): "1", (9, 0, 3): "a",  # 4 in period 1: red inv
        (3, 0, 0): "1", (3, 0, 3): "a", (3, 1, 1): "1", (3, 1, 4): "0", (3, 2, 0): "1", (3, 2, 2): "2",  # 6 in the year
        (12, 0, 2): "=", (20, 1, 3): "=",
    })  # fmt: skip

    @property
    def forced_pairs(self) -> set[int]:
        return {p for p, _, _ in self.forced}


def _club(rng: random.Random, lines: int) -> _Club:
    labels = _lines(lines)
    sizes = [14 if i == 0 else 15 for i in range(lines)]
    first = [1 + sum(sizes[:i]) for i in range(lines)]  # first pair number of each line
    pairs = list(range(1, sum(sizes) + 1))
    if 2 * len(pairs) <= len(SURNAMES):
        names = rng.sample(SURNAMES, 2 * len(pairs))
    else:  # a bigger club than the list of names: numbered namesakes
        names = [f"{rng.choice(SURNAMES)} {i + 1}" for i in range(2 * len(pairs))]
    pair_names = {p: f"{names[2 * i]} - {names[2 * i + 1]}" for i, p in enumerate(pairs)}
    home = {p: max(i for i in range(lines) if first[i] <= p) for p in pairs}  # index of the first line
    skill = {p: rng.gauss(0.0, 1.0) - 0.8 * home[p] for p in pairs}
    skill[3] = 1.8  # a strong A pair that stays in A but has too many substitutes for the title
    # the lines that share a combi table: (A, B), (C, D), ...; a last line alone has none
    groups = [labels[i : i + 2] for i in range(0, lines, 2)]
    return _Club(labels, pairs, pair_names, home, skill, groups)


def demo_season(seed: int = 2025, periods: int = 3, evenings_per_period: int = 6, lines: int = 2) -> tuple[HeegSettings, pd.DataFrame]:
    """A full synthetic season (see the module docstring); same seed, same season.

    ``lines``: how many lines (A, B, C, ...) of 14 or 15 pairs (A 14, the others 15);
    two lines next to each other (A with B, C with D, ...) share the combi table.
    A bigger club for benchmarks; the default is the demo's club.
    """
    rng = random.Random(seed)
    club = _club(rng, lines)
    days = _dates(dt.date(2025, 9, 4), periods * evenings_per_period, {dt.date(2025, 12, 25), dt.date(2026, 1, 1)})
    period_list = tuple(
        Period(str(k + 1), tuple(days[k * evenings_per_period : (k + 1) * evenings_per_period]), promote=3)
        for k in range(periods)
    )
    base = HeegSettings(
        club="Bridge club Heeg", season="2025/2026", periods=period_list, lines=club.labels,
        rounds=ROUNDS, boards_per_round=BOARDS, combi_top=10.0,
    )  # fmt: skip
    line_of = {p: club.labels[club.home[p]] for p in club.pairs}
    lines_by_period: dict[str, dict[int, str]] = {}
    rows: list[dict[str, Any]] = []
    for k, period in enumerate(period_list):
        lines_by_period[period.label] = dict(line_of)
        for e, day in enumerate(period.evenings):
            rows.extend(_evening(rng, club, line_of, k, e, day, period.label))
        # promotion and relegation at the end of the period decide the next period's lines
        if k + 1 < len(period_list):
            partial = replace(base, periods=period_list[: k + 1])
            table = period_table(rows, partial, period=period.label)  # (period_standings, without its frame)
            moved = {row["pair"]: row["next_line"] for row in table}
            line_of = moved | {p: line_of[p] for p in club.pairs if p not in moved}
    roster = tuple(Pair(p, club.pair_names[p], {label: lines[p] for label, lines in lines_by_period.items()})
                   for p in club.pairs)
    return replace(base, roster=roster), pd.DataFrame(rows)


def _codes(rng: random.Random, club: _Club, line_of: dict[int, str], k: int, e: int) -> dict[int, str]:
    """The inv codes of one evening (before the sitters get s): forced, drawn, and
    steered so that each line has the parity of present pairs :data:`PARITY` asks."""
    codes: dict[int, str] = {}
    forced_pairs = club.forced_pairs
    for p in club.pairs:
        if (p, k, e) in club.forced:
            codes[p] = club.forced[(p, k, e)]
        elif p in forced_pairs:
            codes[p] = ""
        else:
            x = rng.random()
            codes[p] = "0" if x < 0.015 else "a" if x < 0.06 else "1" if x < 0.12 else "2" if x < 0.135 else ""
    for group in club.groups:
        for line, odd in zip(group, PARITY[e % len(PARITY)]):
            members = [p for p in club.pairs if line_of[p] == line]
            present = [p for p in members if codes[p] not in ("0", "a")]
            if (len(present) % 2 == 1) != odd:
                absent_free = [p for p in members if codes[p] in ("0", "a") and p not in forced_pairs]
                if absent_free and rng.random() < 0.5:
                    codes[rng.choice(absent_free)] = ""
                else:
                    candidates = [p for p in present if codes[p] == "" and p not in forced_pairs]
                    codes[rng.choice(candidates)] = "a"
    return codes


def _play(rng: random.Random, club: _Club, present: dict[str, list[int]], sitters: dict[str, list[int]],
          combi: dict[tuple[str, ...], bool]) -> tuple[dict[int, list[float | None]], dict[int, float]]:
    """The MP per round of every pair at its own line's tables, and at the combi table."""
    score: dict[int, list[float | None]] = {p: [None] * ROUNDS for p in club.pairs}
    combi_mp: dict[int, float] = {}
    tops = {line: line_top(len(present[line])) for line in club.labels}
    skill = club.skill
    for r in range(ROUNDS):
        for line in club.labels:
            playing = [p for p in present[line] if not (sitters[line] and sitters[line][r] == p)]
            rng.shuffle(playing)
            top = tops[line]
            for ns, ew in zip(playing[0::2], playing[1::2]):
                chance = min(0.9, max(0.1, 0.5 + 0.12 * (skill[ns] - skill[ew])))
                got = sum(_binomial(rng, top, chance) for _ in range(BOARDS))
                score[ns][r] = float(got)
                score[ew][r] = float(BOARDS * top - got)
        for group in club.groups:
            if combi[group]:
                upper_pair, lower_pair = sitters[group[0]][r], sitters[group[1]][r]
                # scored against the 12-pair comparison of the combi table (top 10)
                combi_mp[upper_pair] = float(sum(_binomial(rng, 10, 0.5 + 0.05 * skill[upper_pair]) for _ in range(BOARDS)))
                combi_mp[lower_pair] = float(sum(_binomial(rng, 10, 0.5 + 0.05 * skill[lower_pair]) for _ in range(BOARDS)))
    return score, combi_mp


def _evening(rng: random.Random, club: _Club, line_of: dict[int, str], k: int, e: int, day: dt.date,
             period: str) -> list[dict[str, Any]]:
    """The rows of one evening: evening ``e`` of period ``k``."""
    codes = _codes(rng, club, line_of, k, e)
    labels = club.labels
    present = {line: [p for p in club.pairs if line_of[p] == line and codes[p] not in ("0", "a")] for line in labels}
    combi = {group: len(group) == 2 and all(len(present[line]) % 2 == 1 for line in group) for group in club.groups}
    sitters = {line: rng.sample(present[line], ROUNDS) if len(present[line]) % 2 else [] for line in labels}
    score, combi_mp = _play(rng, club, present, sitters, combi)
    tops = {line: line_top(len(present[line])) for line in labels}
    for group in club.groups:
        for line in group:
            if sitters[line] and not combi[group]:
                for p in sitters[line]:
                    if codes[p] == "":
                        codes[p] = "s"
                    elif codes[p] == "1":
                        codes[p] = "s1"
    rows = []
    for p in club.pairs:
        line = line_of[p]
        absent = codes[p] in ("0", "a")
        typed = [s for s in score[p] if s is not None]
        rows.append({
            "date": day, "period": period, "line": line, "pair": p, "names": club.pair_names[p],
            **{f"r{r + 1}": (None if absent else score[p][r]) for r in range(ROUNDS)},
            "mp": None if absent else float(sum(typed)), "max_mp": float(ROUNDS * BOARDS * tops[line]),
            "code": codes[p], "rounds": ROUNDS, "combi_mp": combi_mp.get(p),
        })
    return rows
