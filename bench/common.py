"""Timing helpers and the result table shared by every benchmark.

Every figure is a median over repeated runs; every ratio compares two things
measured side by side in the same run (interleaved, so that load from other
processes on the machine hits both alike).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def median_time(func: Callable[[], Any], repeats: int, *, setup: Callable[[], Any] | None = None) -> float:
    """Median wall time of ``func()`` in seconds over ``repeats`` runs (``setup`` untimed)."""
    return statistics.median(run_times(func, repeats, setup=setup))


def run_times(func: Callable[[], Any], repeats: int, *, setup: Callable[[], Any] | None = None) -> list[float]:
    times = []
    for _ in range(repeats):
        if setup is not None:
            setup()
        gc.collect()
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return times


def side_by_side(funcs: dict[str, Callable[[], Any]], repeats: int,
                 setups: dict[str, Callable[[], Any]] | None = None, warmup: int = 1) -> dict[str, float]:
    """Medians of several functions measured interleaved: a, b, c, a, b, c, ...
    after ``warmup`` untimed rounds (first-time imports and caches are not what
    a scorer's every run pays)."""
    setups = setups or {}
    for _ in range(warmup):
        for name, func in funcs.items():
            run_times(func, 1, setup=setups.get(name))
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(repeats):
        for name, func in funcs.items():
            times[name].extend(run_times(func, 1, setup=setups.get(name)))
    return {name: statistics.median(values) for name, values in times.items()}


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


@dataclass
class Row:
    """One line of the table: what was measured, its median, a ratio and the target."""

    section: str
    what: str
    time: float | None = None
    ratio: float | None = None
    ratio_of: str = ""
    target: str = ""
    ok: bool | None = None
    note: str = ""

    def cells(self) -> list[str]:
        ratio = f"{self.ratio:.2f}× {self.ratio_of}".strip() if self.ratio is not None else ""
        verdict = {True: "yes", False: "NO", None: ""}[self.ok]
        return [self.section, self.what, fmt_time(self.time), ratio, self.target, verdict, self.note]


HEADER = ["#", "measured", "median", "ratio", "target", "met", "note"]


@dataclass
class Table:
    rows: list[Row] = field(default_factory=list)

    def add(self, *args: Any, **kwargs: Any) -> Row:
        row = Row(*args, **kwargs)
        self.rows.append(row)
        return row

    def render(self) -> str:
        lines = [HEADER] + [r.cells() for r in self.rows]
        widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
        out = ["| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |" for line in lines]
        out.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
        return "\n".join(out)
