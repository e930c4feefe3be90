"""The Excel path against a baseline commit's (issue 23, point 7): start-up and the click, then and now.

The baseline is :data:`BASELINE`, the commit that resolved the click-speed issue 18.  Its
tree is extracted (``git archive``) into a temporary folder, and a subprocess running that
tree's own code (``PYTHONPATH`` = the tree) writes each kind's Lite files as its bench
built them (its ``bench.bench_excel_path.kind_files``) and the typed season of each size
(its ``typed_workbook``: its own builder, the same demo seasons) as ``.xlsx``.  Each
side's payload is then made by today's emulator (:func:`tests.emulate.payload`, as
Office.js sends it) from that side's own workbook: the same season, in the layout each
side's code reads (the baseline cannot read today's BridgeMania layout), with each
side's ``@script`` include/exclude applied.

Measured in real Pyodide (the harness of ``tests/pyodide``), the two sides in turn
(today, baseline, today, baseline, ...):

- start-up: ``main.py`` import in a fresh Pyodide, and the first click right after it
  (1×, what the scorer waits for after opening the workbook), ``starts`` fresh
  processes of each side;
- the first click at each size (the season as typed, every computed cell to write),
  ``repeats`` times in one process per side, after one untimed click.

The ratio is today / baseline; *per cell written* divides each time by the cells that
side's ``setValues`` actions write first (today writes more: the record, the charts).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

from bench.common import Table, fmt_time

BASELINE = "3fa77e4"  # Merge speed: issue 18, the remembered click (docs/performance.md)
KINDS = ("heeg", "bridgemania")
SIZES = (1, 16)
PER_CELL = 1.1  # target: today / baseline per cell written
SECTION = "5b"
SCRIPT = "recalculate_season"

CHILD = r'''
import json, sys
from pathlib import Path
from bench.bench_excel_path import kind_files, typed_workbook
out, folder = {}, Path(sys.argv[1])
for kind in sys.argv[3].split(","):
    out[kind] = kind_files(kind)
    for size in sys.argv[2].split(","):
        typed_workbook(kind, int(size)).save(folder / f"{kind}-{size}.xlsx")
(folder / "files.json").write_text(json.dumps(out), encoding="utf-8")
'''


def baseline_tree(folder: Path, commit: str = BASELINE) -> Path:
    """The tree of ``commit`` extracted into ``folder``/tree."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=root, capture_output=True, check=True)
    tree = folder / "tree"
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(tree, filter="data")
    return tree


def baseline_inputs(tree: Path, sizes: tuple[int, ...], kinds: tuple[str, ...]) -> dict[str, Any]:
    """The baseline's Lite files of each kind and its typed workbooks, made by its own code."""
    out = tree.parent / "made"
    out.mkdir()
    env = dict(os.environ, PYTHONPATH=str(tree), TQDM_DISABLE="1")
    done = subprocess.run([sys.executable, "-c", CHILD, str(out), ",".join(map(str, sizes)), ",".join(kinds)],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"the baseline {BASELINE} could not build its files: {done.stderr[-2000:]}")
    return {"files": json.loads((out / "files.json").read_text(encoding="utf-8")),
            "books": {(kind, size): out / f"{kind}-{size}.xlsx" for kind in kinds for size in sizes}}


def _payload(workbook, meta: dict[str, Any]) -> dict[str, Any]:
    from tests.emulate import payload, sent_as_asked

    return sent_as_asked(payload(workbook), meta.get("include"), meta.get("exclude"))


def _cells(actions: list[dict[str, Any]]) -> int:
    return sum(len(a["values"]) * len(a["values"][0]) for a in actions if a["func"] == "setValues" and a["values"])


def measure(*, quick: bool = False, sizes: tuple[int, ...] | None = None, kinds: tuple[str, ...] = KINDS
            ) -> dict[str, Any]:
    from openpyxl import load_workbook

    from bench.bench_excel_path import Pair, _bench_driver, _click, kind_files, typed_workbook
    from tests.pyodide import harness, runtime
    from xlbridge.excel import lite

    sizes = sizes or ((1,) if quick else SIZES)
    starts, repeats = (1, 2) if quick else (5, 7)
    version = lite.PYODIDE_VERSION
    results: dict[str, Any] = {"load": os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0}
    with tempfile.TemporaryDirectory(prefix="xlbridge-bench-baseline-") as tmp:
        print(f"[bench]   baseline {BASELINE}: extracting its tree and building its files", file=sys.stderr, flush=True)
        base = baseline_inputs(baseline_tree(Path(tmp)), sizes, kinds)
        for kind in kinds:
            sides = {"today": kind_files(kind), "baseline": base["files"][kind]}
            runtime.prepare(sides["today"]["requirements.txt"], version)
            runtime.prepare(sides["baseline"]["requirements.txt"], version)
            books = {"today": {s: typed_workbook(kind, s) for s in sizes},
                     "baseline": {s: load_workbook(base["books"][(kind, s)]) for s in sizes}}
            pairs = {side: Pair(files, version, Path(tmp)) for side, files in sides.items()}
            r: dict[str, Any] = {side: {"zip_files": None} for side in sides}
            try:
                payloads: dict[str, dict[int, Any]] = {}
                for side, pair in pairs.items():
                    meta = next(s for s in pair.ask("cpython", "meta")["scripts"] if s["function_name"] == SCRIPT)
                    payloads[side] = {s: _payload(books[side][s], meta) for s in sizes}
                    info = pair.ask("pyodide", "reload_main")
                    r[side].update(files=info["files"], zip_bytes=info["zip_bytes"], chars=info["bundle_chars"])
                for size in sizes:
                    print(f"[bench]   baseline: {kind} {size}x first clicks", file=sys.stderr, flush=True)
                    times: dict[str, list[float]] = {side: [] for side in sides}
                    for side, pair in pairs.items():  # untimed: first-time imports
                        _, actions = _click(pair, "pyodide", payloads[side][size])
                        r[side][f"cells_{size}"] = _cells(actions)
                    for _ in range(repeats):
                        for side, pair in pairs.items():
                            times[side].append(_click(pair, "pyodide", payloads[side][size])[0])
                    for side in sides:
                        r[side][f"click_{size}"] = statistics.median(times[side])
            finally:
                for pair in pairs.values():
                    pair.close()
            fresh: dict[str, dict[str, list[float]]] = {side: {"import": [], "cold": []} for side in sides}
            for i in range(starts):  # start-up: fresh processes, in turn
                print(f"[bench]   baseline: {kind} fresh start {i + 1} of {starts}", file=sys.stderr, flush=True)
                for side, files in sides.items():
                    with _bench_driver(Path(tmp)):
                        rt = harness.Runtime("pyodide", version, files, files["requirements.txt"])
                    try:
                        fresh[side]["import"].append(rt.ready["main_import_ms"] / 1000)
                        reply = rt.request("script", name=SCRIPT, payload=payloads[side][sizes[0]])
                        fresh[side]["cold"].append(reply["call_ms"] / 1000)
                    finally:
                        rt.close()
            for side in sides:
                r[side]["import"] = statistics.median(fresh[side]["import"])
                r[side]["cold"] = statistics.median(fresh[side]["cold"])
            r["sizes"], r["starts"], r["repeats"] = sizes, starts, repeats
            results[kind] = r
    return results


def render(table: Table, results: dict[str, Any]) -> None:
    table.add(SECTION, f"today beside the baseline {BASELINE} (issue 18), both in Pyodide, in turn", None,
              note=f"load average at start {results['load']:.1f}; ratio = today / baseline")
    for kind in (k for k in results if k != "load"):
        r = results[kind]
        now, then = r["today"], r["baseline"]
        table.add(SECTION, f"{kind}: bundle {now['files']} files, {now['zip_bytes'] / 1000:.0f} kB zip, main.py "
                           f"{now['chars'] / 1000:.0f} kB base64", None, now["zip_bytes"] / then["zip_bytes"],
                  "of the baseline's", note=f"baseline {then['files']} files, {then['zip_bytes'] / 1000:.0f} kB zip")
        table.add(SECTION, f"  main.py import in a fresh Pyodide (median of {r['starts']})", now["import"],
                  now["import"] / then["import"], "of the baseline's", note=f"baseline {fmt_time(then['import'])}")
        first = r["sizes"][0]
        table.add(SECTION, f"  the first click right after start-up, {first}×", now["cold"], now["cold"] / then["cold"],
                  "of the baseline's", note=f"baseline {fmt_time(then['cold'])}")
        for size in r["sizes"]:
            t, b = now[f"click_{size}"], then[f"click_{size}"]
            ct, cb = now[f"cells_{size}"], then[f"cells_{size}"]
            per_cell = (t / ct) / (b / cb) if ct and cb else None
            table.add(SECTION, f"  first click {size}× (median of {r['repeats']}): {ct:,} cells written "
                               f"(baseline {cb:,})", t, t / b, "of the baseline's", note=f"baseline {fmt_time(b)}")
            row = table.add(SECTION, f"    per cell written, {size}×", t / ct if ct else None, per_cell,
                            "of the baseline's", f"≤ {PER_CELL}×", note=f"baseline {fmt_time(b / cb) if cb else '-'}")
            row.ok = per_cell is not None and per_cell <= PER_CELL


def run(table: Table, *, quick: bool = False, sizes: tuple[int, ...] | None = None) -> None:
    root = Path(__file__).resolve().parent.parent
    if subprocess.run(["git", "cat-file", "-e", f"{BASELINE}^{{commit}}"], cwd=root, capture_output=True).returncode:
        table.add(SECTION, f"today beside the baseline {BASELINE}",
                  note=f"not measured: this clone lacks the commit {BASELINE} (git fetch --unshallow)")
        return
    try:
        results = measure(quick=quick, sizes=sizes, kinds=KINDS[:1] if quick else KINDS)  # quick: a smoke run
    except Exception as error:  # noqa: BLE001 - reported in the table
        table.add(SECTION, f"today beside the baseline {BASELINE}",
                  note=f"cannot run: {type(error).__name__}: {str(error).splitlines()[0][:200]}")
        return
    render(table, results)


if __name__ == "__main__":
    t = Table()
    chosen = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--sizes=")), None)
    run(t, quick="--quick" in sys.argv, sizes=tuple(int(x) for x in chosen.split(",")) if chosen else None)
    print(t.render())
