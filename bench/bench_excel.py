"""3. The Excel path: worksheet functions through xlwings' own Office.js dispatch.

xlwings' dispatch (``xlwings.server.custom_functions_call``) needs
``XLWINGS_ON_SERVER=true`` (and a licence key) set before xlwings is imported,
so the measurements run in a child process (``--worker``) that prints JSON.

- one ``AWARD`` cell: a request body as Office.js sends it, awaited inside one
  running event loop (as xlwings Server / Lite do); also the same function
  called directly in Python, to show what the dispatch adds;
- one ``AWARDS`` spill of 1,000 rows versus 1,000 single ``AWARD`` cells over
  the same 1,000-row range of places (how a sheet gets every place's award
  without the spill: ``=AWARD(scheme, D9, $D$9:$D$1008)`` filled down).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench.common import Table

ROOT = Path(__file__).resolve().parent.parent
SPILL_SCHEME = "tr.club"


def _body(func_name: str, *args):
    from xlbridge.excel.emulate import function_body

    return function_body(func_name, *args)


def worker(quick: bool) -> dict:
    import asyncio
    import random
    import statistics
    import time

    assert os.environ.get("XLWINGS_ON_SERVER") == "true"
    from xlwings import server

    from bench.bench_engine import competition_ranks
    from xlbridge.excel import functions

    results: dict[str, float | int] = {}

    async def timed_calls(body: dict, count: int) -> float:
        start = time.perf_counter()
        for _ in range(count):
            await server.custom_functions_call(body, functions)
        return time.perf_counter() - start

    async def main() -> None:
        # single AWARD: 26 pairs, boards=24 (a club evening)
        single = _body("award", "tr.club", 1.0, 26.0, "boards=24")
        assert await server.custom_functions_call(single, functions) == [[0.62]]
        calls, batches = (100, 5) if quick else (500, 15)
        per_call, direct = [], []
        for _ in range(batches):
            per_call.append(await timed_calls(single, calls) / calls)
            start = time.perf_counter()
            for _ in range(calls):
                functions.award("tr.club", 1.0, 26.0, "boards=24")
            direct.append((time.perf_counter() - start) / calls)
        results["award_dispatch"] = statistics.median(per_call)
        results["award_direct"] = statistics.median(direct)
        # the same AWARD with the 26 places as a range (ties possible)
        rng = random.Random(26)
        places26 = [[float(r)] for r in competition_ranks([rng.randint(0, 40) for _ in range(26)])]
        ranged = _body("award", "tr.club", places26[0][0], places26, "boards=24")
        results["award_range_dispatch"] = statistics.median(
            [await timed_calls(ranged, calls) / calls for _ in range(batches)])
        # xlwings' is_jsnull() tries ``from pyodide.ffi import JsNull`` for every argument
        # value; outside Pyodide that failed import searches sys.path each time.  Measured
        # once more with the import failing at once (None in sys.modules), to show its share.
        saved = sys.modules.get("pyodide", "absent")
        sys.modules["pyodide"] = None
        try:
            results["award_dispatch_no_pyodide_probe"] = statistics.median(
                [await timed_calls(single, calls) / calls for _ in range(batches)])
        finally:
            if saved == "absent":
                del sys.modules["pyodide"]
            else:
                sys.modules["pyodide"] = saved

        # AWARDS spill of 1,000 rows vs 1,000 single AWARD calls over the same range
        rows = 1000
        rng = random.Random(1000)
        places = [[float(r)] for r in competition_ranks([rng.randint(0, 2500) for _ in range(rows)])]
        spill = _body("awards", SPILL_SCHEME, places, "boards=24")
        singles = [_body("award", SPILL_SCHEME, p[0], places, "boards=24") for p in places]
        spilled = await server.custom_functions_call(spill, functions)
        assert len(spilled) == rows and all(not str(r[0]).startswith("#") for r in spilled), spilled[:3]
        first = await server.custom_functions_call(singles[0], functions)
        assert first[0][0] == spilled[0][0], (first, spilled[0])
        spill_times, single_times = [], []
        for _ in range(2 if quick else 3):
            start = time.perf_counter()
            await server.custom_functions_call(spill, functions)
            spill_times.append(time.perf_counter() - start)
            # every single call converts the whole 1,000-cell range: a sample, scaled to 1,000
            chosen = singles[:50] if quick else singles[::5]
            start = time.perf_counter()
            for body in chosen:
                await server.custom_functions_call(body, functions)
            single_times.append((time.perf_counter() - start) * rows / len(chosen))
        results["spill_1000"] = statistics.median(spill_times)
        results["singles_1000"] = statistics.median(single_times)
        results["singles_sampled"] = 50 if quick else rows // 5

    asyncio.run(main())
    return results


def run(table: Table, *, quick: bool = False) -> None:
    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial")
    command = [sys.executable, "-m", "bench.bench_excel", "--worker"] + (["--quick"] if quick else [])
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        table.add("3", "Excel path (xlwings.server dispatch)", note="could not run: " + (done.stderr.strip().splitlines() or ["?"])[-1])
        return
    r = json.loads(done.stdout.strip().splitlines()[-1])
    t = table.add("3", "AWARD, one cell through custom_functions_call (26 pairs)", r["award_dispatch"],
                  r["award_dispatch"] / r["award_direct"], "of the direct Python call", "< 1 ms")
    t.ok = r["award_dispatch"] < 1e-3
    table.add("3", "  the same function called directly in Python", r["award_direct"])
    table.add("3", "  the same cell, xlwings' per-value pyodide import probe short-circuited",
              r["award_dispatch_no_pyodide_probe"], note="xlwings.utils.is_jsnull: a failed import per value")
    table.add("3", "AWARD, one cell with the 26 places as a range", r["award_range_dispatch"])
    t = table.add("3", f"AWARDS spill of 1,000 rows ({SPILL_SCHEME})", r["spill_1000"])
    sampled = "" if r["singles_sampled"] == 1000 else f"; scaled from {r['singles_sampled']} calls"
    t = table.add("3", "1,000 single AWARD cells over the same 1,000-row range", r["singles_1000"],
                  r["singles_1000"] / r["spill_1000"], "of the spill", "spill ≥ 20× faster", note=sampled.lstrip("; "))
    t.ok = r["singles_1000"] / r["spill_1000"] >= 20


if __name__ == "__main__":
    if "--worker" in sys.argv:
        print(json.dumps(worker("--quick" in sys.argv)))
    else:
        t = Table()
        run(t, quick="--quick" in sys.argv)
        print(t.render())
