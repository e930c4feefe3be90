"""3. The Excel path: worksheet functions through xlwings' own Office.js dispatch.

xlwings' dispatch (``xlwings.server.custom_functions_call``) needs
``XLWINGS_ON_SERVER=true`` (and a licence key) set before xlwings is imported,
so the measurements run in a child process (``--worker``) that prints JSON.

Two hosts are measured, batch by batch in turn:

- *xlbridge serve*: the server process as ``xlbridge serve`` runs it, that is
  after :func:`xlbridge.excel.server.quiet_pyodide_probe` (xlwings' per-value
  ``from pyodide.ffi import JsNull`` then fails at once);
- *plain xlwings host*: the same dispatch without it, as any other host of
  xlbridge's functions would run them (each failed import searches ``sys.path``).

Rows:

- one ``AWARD`` cell, 26 pairs: a request body as Office.js sends it, awaited
  inside one running event loop (as xlwings Server / Lite do), the place going
  1, 2, ..., 26 in turn (a column of cells); the same with the engine's field
  cache emptied before every call (the first cell of a column); on the plain
  host; and the same function called directly in Python;
- one ``AWARD`` cell with the 26 places as a range;
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
PAIRS = 26


def _body(func_name: str, *args):
    from tests.emulate import function_body

    return function_body(func_name, *args)


def worker(quick: bool) -> dict:
    import asyncio
    import random
    import statistics
    import time

    assert os.environ.get("XLWINGS_ON_SERVER") == "true"
    from xlwings import server

    from bench.bench_engine import competition_ranks
    from xlbridge.rules import award as engine_award
    from xlbridge.rules import clear_cache
    from xlbridge.excel import functions
    from xlbridge.excel.server import PYODIDE_MODULES, quiet_pyodide_probe

    results: dict[str, float | int] = {}

    def serve_host() -> None:
        """What ``xlbridge serve`` does in its server process (see the module docstring)."""
        quiet_pyodide_probe()
        assert all(name in sys.modules and sys.modules[name] is None for name in PYODIDE_MODULES)

    def plain_host() -> None:
        """Undo it: the module ``pyodide`` is looked for again on every import."""
        for name in PYODIDE_MODULES:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]

    async def timed_calls(bodies: list[dict], count: int) -> float:
        """Seconds per call, over ``count`` calls cycling through ``bodies``."""
        start = time.perf_counter()
        for i in range(count):
            await server.custom_functions_call(bodies[i % len(bodies)], functions)
        return (time.perf_counter() - start) / count

    async def first_calls(bodies: list[dict]) -> list[float]:
        """Seconds of each call with the engine's field cache emptied just before it."""
        times = []
        for body in bodies:
            clear_cache()
            start = time.perf_counter()
            await server.custom_functions_call(body, functions)
            times.append(time.perf_counter() - start)
        return times

    async def main() -> None:
        # single AWARD: 26 pairs, boards=24 (a club evening), places 1..26 in turn
        places = [float(p) for p in range(1, PAIRS + 1)]
        singles26 = [_body("award", "tr.club", p, float(PAIRS), "boards=24") for p in places]
        expected = [[[engine_award("tr.club", p, PAIRS, boards=24).points]] for p in places]
        plain_host()
        assert [await server.custom_functions_call(b, functions) for b in singles26] == expected
        serve_host()
        assert [await server.custom_functions_call(b, functions) for b in singles26] == expected
        assert expected[0] == [[0.62]]
        calls, batches = (4 * PAIRS, 5) if quick else (20 * PAIRS, 15)
        serve, first, plain, direct = [], [], [], []
        for _ in range(batches):  # the hosts in turn, so that load from elsewhere hits all alike
            plain_host()
            plain.append(await timed_calls(singles26, calls))
            serve_host()
            serve.append(await timed_calls(singles26, calls))
            first.extend(await first_calls(singles26))
            start = time.perf_counter()
            for i in range(calls):
                functions.award("tr.club", places[i % PAIRS], float(PAIRS), "boards=24")
            direct.append((time.perf_counter() - start) / calls)
        results["award_serve"] = statistics.median(serve)
        results["award_serve_first"] = statistics.median(first)
        results["award_plain"] = statistics.median(plain)
        results["award_direct"] = statistics.median(direct)

        # the same AWARD with the 26 places as a range (ties possible)
        rng = random.Random(PAIRS)
        places26 = [[float(r)] for r in competition_ranks([rng.randint(0, 40) for _ in range(PAIRS)])]
        ranged = [_body("award", "tr.club", p[0], places26, "boards=24") for p in places26]
        range_serve, range_plain = [], []
        for _ in range(batches):
            plain_host()
            range_plain.append(await timed_calls(ranged, calls // 4))
            serve_host()
            range_serve.append(await timed_calls(ranged, calls // 4))
        results["award_range_serve"] = statistics.median(range_serve)
        results["award_range_plain"] = statistics.median(range_plain)

        # AWARDS spill of 1,000 rows vs 1,000 single AWARD calls over the same range (xlbridge serve)
        serve_host()
        rows = 1000
        rng = random.Random(1000)
        places = [[float(r)] for r in competition_ranks([rng.randint(0, 2500) for _ in range(rows)])]
        spill = _body("awards", SPILL_SCHEME, places, "boards=24")
        singles = [_body("award", SPILL_SCHEME, p[0], places, "boards=24") for p in places]
        spilled = await server.custom_functions_call(spill, functions)
        assert len(spilled) == rows and all(not str(r[0]).startswith("#") for r in spilled), spilled[:3]
        first_single = await server.custom_functions_call(singles[0], functions)
        assert first_single[0][0] == spilled[0][0], (first_single, spilled[0])
        spill_times, spill_plain_times, single_times = [], [], []
        for _ in range(2 if quick else 3):
            start = time.perf_counter()
            await server.custom_functions_call(spill, functions)
            spill_times.append(time.perf_counter() - start)
            plain_host()
            start = time.perf_counter()
            await server.custom_functions_call(spill, functions)
            spill_plain_times.append(time.perf_counter() - start)
            serve_host()
            # every single call converts the whole 1,000-cell range: a sample, scaled to 1,000
            chosen = singles[:50] if quick else singles[::5]
            start = time.perf_counter()
            for body in chosen:
                await server.custom_functions_call(body, functions)
            single_times.append((time.perf_counter() - start) * rows / len(chosen))
        results["spill_1000"] = statistics.median(spill_times)
        results["spill_1000_plain"] = statistics.median(spill_plain_times)
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
    t = table.add("3", f"AWARD, one cell through custom_functions_call, xlbridge serve ({PAIRS} pairs, places 1-{PAIRS} in turn)",
                  r["award_serve"], r["award_serve"] / r["award_direct"], "of the direct Python call", "< 1 ms")
    t.ok = r["award_serve"] < 1e-3
    table.add("3", "  the same cells, each the first of its field (award cache emptied before each)",
              r["award_serve_first"], r["award_serve_first"] / r["award_serve"], "of the cached cell")
    table.add("3", "  the same cells on a plain xlwings host (without quiet_pyodide_probe)", r["award_plain"],
              r["award_plain"] / r["award_serve"], "of xlbridge serve",
              note="xlwings tries 'from pyodide.ffi import JsNull' per argument value")
    table.add("3", "  the same function called directly in Python", r["award_direct"])
    table.add("3", f"AWARD, one cell with the {PAIRS} places as a range, xlbridge serve", r["award_range_serve"])
    table.add("3", "  the same on a plain xlwings host", r["award_range_plain"],
              r["award_range_plain"] / r["award_range_serve"], "of xlbridge serve")
    table.add("3", f"AWARDS spill of 1,000 rows ({SPILL_SCHEME}), xlbridge serve", r["spill_1000"])
    table.add("3", "  the same spill on a plain xlwings host", r["spill_1000_plain"],
              r["spill_1000_plain"] / r["spill_1000"], "of xlbridge serve")
    sampled = "" if r["singles_sampled"] == 1000 else f"; scaled from {r['singles_sampled']} calls"
    t = table.add("3", "1,000 single AWARD cells over the same 1,000-row range, xlbridge serve", r["singles_1000"],
                  r["singles_1000"] / r["spill_1000"], "of the spill", "spill ≥ 20× faster", note=sampled.lstrip("; "))
    t.ok = r["singles_1000"] / r["spill_1000"] >= 20


if __name__ == "__main__":
    if "--worker" in sys.argv:
        print(json.dumps(worker("--quick" in sys.argv)))
    else:
        t = Table()
        run(t, quick="--quick" in sys.argv)
        print(t.render())
