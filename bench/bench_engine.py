"""1. Engine throughput: ``xlbridge.awards`` over many rankings of mixed schemes.

The rankings (8-60 units, with ties) are made once; they are split into batches
and each batch is timed twice, interleaved: the engine, then the floor -- a plain
Python loop that only sorts the same rankings.  Per-ranking cost = median batch
time / batch size.
"""

from __future__ import annotations

import gc
import random
import statistics
import time

from bench.common import Table

#: (scheme, options, smallest field it accepts) -- Turkish, Swedish and BridgeMania schemes.
MIX: tuple[tuple[str, dict, int], ...] = (
    ("tr.club", {"boards": 24}, 8),
    ("tr.regional", {}, 8),
    ("tr.online", {"boards": 18}, 8),
    ("tr.national.open-pairs", {}, 8),
    ("tr.national.open-teams", {}, 8),
    ("se.bronze.pairs", {"boards": 24}, 8),
    ("se.bronze.individual", {}, 8),
    ("se.silver.pairs", {"boards": 42}, 16),
    ("se.silver.simultaneous-heat", {}, 8),
    ("se.gold.pairs", {"boards": 60}, 28),
    ("bm.f1-fast", {}, 8),
    ("bm.f1-hybrid", {}, 8),
    ("bm.indycar-hard", {}, 8),
)


def competition_ranks(scores: list[int]) -> list[int]:
    """1, 2, 2, 4 ... from scores (higher is better)."""
    order = sorted(scores, reverse=True)
    first = {}
    for i, s in enumerate(order, start=1):
        first.setdefault(s, i)
    return [first[s] for s in scores]


def make_rankings(count: int, seed: int = 8) -> list[tuple[str, dict, list[int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(8, 60)
        scheme, options, smallest = rng.choice([m for m in MIX if m[2] <= n])
        spread = rng.choice((n // 3, n, 4 * n))  # few, some or rare ties
        scores = [rng.randint(0, max(spread, 2)) for _ in range(n)]
        out.append((scheme, options, competition_ranks(scores)))
    return out


def run(table: Table, *, quick: bool = False, count: int | None = None) -> None:
    import xlbridge

    count = count or (2_000 if quick else 100_000)
    batches = max(1, min(count // 10, 5 if quick else 20))
    rankings = make_rankings(count)
    gc.collect()
    gc.freeze()  # the 100,000 input rankings are not the engine's garbage: keep the collector off them
    for scheme, options, ranks in rankings[: len(MIX) * 20]:  # warm up: tables loaded, code paths hot
        xlbridge.awards(scheme, ranks, **options)
    size = count // batches
    engine_times, floor_times = [], []
    family: dict[str, list[float]] = {"tr": [0.0, 0], "se": [0.0, 0], "bm": [0.0, 0]}
    awards = xlbridge.awards
    for b in range(batches):
        batch = rankings[b * size : (b + 1) * size]
        start = time.perf_counter()
        for scheme, options, ranks in batch:
            t = time.perf_counter()
            awards(scheme, ranks, **options)
            acc = family[scheme[:2]]
            acc[0] += time.perf_counter() - t
            acc[1] += 1
        engine_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        for _scheme, _options, ranks in batch:
            sorted(ranks)
        floor_times.append(time.perf_counter() - start)
    gc.unfreeze()
    per = statistics.median(engine_times) / size
    floor = statistics.median(floor_times) / size
    units = sum(len(r) for _, _, r in rankings) / count
    table.add("1", f"awards, {count:,} rankings of 8-60 units (mean {units:.0f}), {len(MIX)} mixed schemes, per ranking",
              per, per / floor, "of sorting them", note=f"{batches} batches; total {per * count:.1f} s")
    table.add("1", "floor: a Python loop sorting the same rankings, per ranking", floor)
    for prefix, (total, n) in family.items():
        if n:
            table.add("1", f"  of which {prefix}.* schemes ({n:,} rankings), mean per ranking", total / n)


if __name__ == "__main__":
    import sys

    t = Table()
    run(t, quick="--quick" in sys.argv)
    print(t.render())
