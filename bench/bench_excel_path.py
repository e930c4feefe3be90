"""5. The Excel path in real Pyodide: what the scorer's click costs (issue 18).

The workbook's own ``main.py`` (as :func:`xlbridge.excel.bundle.lite_files` writes it
for the Heeg and BridgeMania workbooks from the current sources) runs in real
Pyodide under Node, offline, through xlwings' own dispatch: the harness of
``tests/pyodide`` (:class:`tests.pyodide.harness.Runtime`, the runtime its
``pyodideVersion`` names, prepared by :mod:`tests.pyodide.runtime`).  Beside it the
same ``main.py`` runs through the same driver in a CPython process; every request
goes to both in turn (Pyodide, CPython, Pyodide, CPython, ...), with the same
payload.  Times are measured inside each runtime (``time.perf_counter`` around
xlwings' dispatch call), so the JSON lines between the processes do not count.

Measured:

- start-up: ``import xlwings`` and the import of ``main.py`` (which unpacks the
  bundled package and imports the worksheet functions) in a fresh process; then,
  repeated in the same process (``reload_main`` of :mod:`bench.excel_path_driver`),
  the import again with its parts: base64, unzip, importing the package;
- each worksheet function: its first call in a fresh process and later calls;
- the "Recalculate season" script on the Heeg and BridgeMania seasons of
  :mod:`bench.seasons` at 1x, 4x, 16x (the shipped builder's workbook).  *First
  click*: the season as typed, without computed values (every cell of the plan's
  blocks emptied, found by planning it headless), so the script has every
  computed cell to write.  *Second click*: the same workbook after the first
  click's actions were applied as Excel applies them
  (:func:`tests.emulate.apply_actions`): nothing changed; each timed second
  click follows a first click in the same process, as the scorer's does;
- the payload Office.js sends (:func:`tests.emulate.payload`, with the
  script's ``include``/``exclude`` applied as xlwings' Office.js client applies
  them: an excluded sheet travels with ``values: [[]]``), its bytes as compact
  JSON, and the sheets the recalculation reads (``XlwingsBook._read``); the bytes
  of the actions, their number, the cells the ``setValues`` actions write, and
  ``setValues`` actions that touch another one with the same rows or columns
  (contiguous cells that could have been one write).

Profile inside Pyodide (cProfile)::

    python -m bench.bench_excel_path --profile heeg 16 [--second] [--cpython]
    python -m bench.bench_excel_path --profile-import heeg [--cpython]   # main.py's import, then the first click's

The baseline beside today (issue 23, point 7) is :mod:`bench.baseline`, which ``python -m bench`` runs right after
this section.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # tests.pyodide is imported from the repository root
    sys.path.insert(0, str(ROOT))

from bench.common import Table, fmt_time

SECTION = "5"
SCRIPT = "recalculate_season"
SIZES = (1, 4, 16)
KINDS = ("heeg", "bridgemania")  # the kinds with seasons (bench/seasons.py)
STARTUP_KINDS = ("heeg", "bridgemania", "tbf-club", "se-masterpoints")  # every kind: its start-up
QUICK_KINDS = ("heeg", "tbf-club")  # --quick, a smoke run: one kind with seasons, one of worksheet functions only
#: targets of issue 18
SCRIPT_RATIO = 2.5  # Pyodide / CPython, the same script on the same payload
GROWTH = 20.0  # 16x / 1x
IMPORT_SECONDS = 0.5  # main.py in Pyodide
#: phases of one click (bench/excel_path_driver.py, ``phases``)
PHASES = ("read", "plan", "diff", "apply", "flush", "rest")

PLACES = [[1.0], [2.0], [2.0], [4.0], [5.0], [6.0], [7.0], [8.0], [9.0], [10.0], [11.0], [12.0]]
#: one call of each worksheet function, as Office.js sends it (the harness tests' cases)
FUNCTIONS: list[tuple[str, tuple]] = [
    ("award", ("tr.club", 1.0, 26.0, "boards=24")),
    ("award_unit", ("tr.club", 1.0, 26.0, None)),
    ("awards", ("tr.club", PLACES, "boards=24")),
    ("tbf_mastery", (0.0, 0.0, 100.0, None, None)),
    ("tbf_title", (125.0, 20.0)),
    ("se_class", (0.0, 0.0, 2000.0)),
    ("se_ranking", ([[22.5], [12.0]], [["gp"], ["sp"]], [["gold"], [""]],
                    [["2025-03-01T00:00:00.000Z"], ["2025-06-01T00:00:00.000Z"]], None)),
    ("heeg_pct", (173.0, 288.0, "")),
    ("heeg_c", (31.0, 12.0, 10.0)),
    ("bm_pct", ([[8.0, 4.0, 6.0, 0.0, "R"]], 8.0, None)),
    ("bm_final", ([[1.0], [2.0], [3.0]], [[2.0], [1.0], [3.0]], [[1.0], [3.0], [2.0]])),
]


class BenchError(RuntimeError):
    pass


# ------------------------------------------------------------------ runtimes


def driver_text() -> str:
    """The harness's driver with this benchmark's requests added (bench/excel_path_driver.py)."""
    from tests.pyodide import harness

    text = harness.DRIVER.read_text(encoding="utf-8")
    tail = 'if __name__ == "__main__":\n    sys.exit(_serve(sys.argv[1:]))\n'
    if tail not in text:
        raise BenchError(f"{harness.DRIVER} no longer ends in its __main__ block; update bench/bench_excel_path.py")
    extra = (Path(__file__).with_name("excel_path_driver.py")).read_text(encoding="utf-8")
    return text.replace(tail, "") + "\n\n# ---- bench/excel_path_driver.py\n" + extra + "\n\n" + tail


@contextlib.contextmanager
def _bench_driver(folder: Path):
    """The harness's runtimes started with the extended driver (tests/pyodide is left as it is)."""
    from tests.pyodide import harness

    path = folder / "driver.py"
    path.write_text(driver_text(), encoding="utf-8")
    original = harness.DRIVER
    harness.DRIVER = path
    try:
        yield
    finally:
        harness.DRIVER = original


class Pair:
    """One ``main.py`` started in Pyodide and in the CPython reference process."""

    def __init__(self, files: dict[str, str], version: str, folder: Path):
        from tests.pyodide import harness

        self.runtimes: dict[str, Any] = {}
        with _bench_driver(folder):
            self.runtimes["pyodide"] = harness.Runtime("pyodide", version, files, files["requirements.txt"])
            self.runtimes["cpython"] = harness.Runtime("cpython", version, files, "")
        for side, rt in self.runtimes.items():
            if rt.ready.get("main_error"):
                error = rt.ready["main_error"]
                raise BenchError(f"main.py did not import in {side}: {error['type']}: {error['message']}")

    def ready(self, side: str) -> dict[str, Any]:
        return self.runtimes[side].ready

    def ask(self, side: str, op: str, **fields: Any) -> dict[str, Any]:
        reply = self.runtimes[side].request(op, **fields)
        if "error" in reply:
            error = reply["error"]
            raise BenchError(f"{side} {op}: {error.get('type')}: {error.get('message')}\n{error.get('traceback', '')}")
        return reply

    def close(self) -> None:
        for rt in self.runtimes.values():
            rt.close()


def kind_files(kind: str) -> dict[str, str]:
    """The Lite files a workbook of ``kind`` built now carries (as ``xlbridge new`` embeds them:
    in the kind's language, with only its own code and catalogue; xlbridge.excel.shipped)."""
    from xlbridge.excel.shipped import KINDS as SHIPPED_KINDS
    from xlbridge.excel.shipped import kind_lite_files

    return kind_lite_files(SHIPPED_KINDS[kind])


def fresh_imports(files: dict[str, str], version: str, folder: Path, starts: int) -> list[float]:
    """``main.py`` import in ``starts`` fresh Pyodide processes, seconds each."""
    from tests.pyodide import harness

    times = []
    for _ in range(starts):
        with _bench_driver(folder):
            rt = harness.Runtime("pyodide", version, files, files["requirements.txt"])
        try:
            if rt.ready.get("main_error"):
                raise BenchError(f"main.py did not import: {rt.ready['main_error']['message']}")
            times.append(rt.ready["main_import_ms"] / 1000)
        finally:
            rt.close()
    return times


# ------------------------------------------------------------------ payloads and actions


def nbytes(value: Any) -> int:
    """Bytes of ``value`` as compact JSON (what JSON.stringify sends)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def typed_workbook(kind: str, size: int):
    """The season of ``kind`` and ``size`` as typed: every computed cell emptied."""
    from bench import seasons
    from tests.emulate import as_typed

    return as_typed(seasons.WORKBOOKS[kind](size))


def headless_snapshot(kind: str, size: int) -> Any:
    """Values and fills of the typed season recalculated by ``xlbridge recalc``'s code."""
    from tests.emulate import snapshot
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks import recalc

    wb = typed_workbook(kind, size)
    recalc.recalculate(OpenpyxlBook(wb))
    return snapshot(wb)


def _span(action: dict[str, Any]) -> tuple[int, int, int, int]:
    if action["func"] == "setValues":
        values = action["values"]
        return action["start_row"], action["start_column"], len(values), len(values[0]) if values else 0
    return action["start_row"], action["start_column"], action["row_count"], action["column_count"]


def mergeable(actions: list[dict[str, Any]], func: str) -> int:
    """Actions of ``func`` that touch another one of the same sheet (and, for fills, colour)
    along a whole edge: the two could have been one rectangle, one action."""
    groups: dict[tuple, set[tuple[int, int, int, int]]] = {}
    for a in actions:
        if a["func"] == func:
            key = (a["sheet_position"],) + ((json.dumps(a["args"]),) if func != "setValues" else ())
            groups.setdefault(key, set()).add(_span(a))
    count = 0
    for spans in groups.values():
        lefts = {(row, col, nrows) for row, col, nrows, _ in spans}  # (top row, left column, height)
        tops = {(row, col, ncols) for row, col, _, ncols in spans}  # (top row, left column, width)
        for row, col, nrows, ncols in spans:
            if (row, col + ncols, nrows) in lefts or (row + nrows, col, ncols) in tops:
                count += 1
    return count


def describe(actions: list[dict[str, Any]]) -> dict[str, Any]:
    funcs = Counter(a["func"] for a in actions)
    cells = sum(r * c for a in actions if a["func"] == "setValues" for _, _, r, c in [_span(a)])
    filled = sum(r * c for a in actions if a["func"] == "setRangeColor" for _, _, r, c in [_span(a)])
    return {"actions": len(actions), "bytes": nbytes(actions), "funcs": dict(funcs), "cells": cells,
            "writes": funcs.get("setValues", 0), "fills": funcs.get("setRangeColor", 0), "filled": filled,
            "mergeable_writes": mergeable(actions, "setValues"),
            "mergeable_fills": mergeable(actions, "setRangeColor")}


# ------------------------------------------------------------------ measurements


def measure_startup(pair: Pair, reloads: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for side in ("pyodide", "cpython"):
        ready = pair.ready(side)
        out[side] = {"main": ready["main_import_ms"] / 1000, "xlwings": ready["xlwings_import_ms"] / 1000,
                     "load": ready.get("load_ms", 0) / 1000, "install": ready.get("install_ms", 0) / 1000}
    parts: dict[str, dict[str, list[float]]] = {"pyodide": {}, "cpython": {}}
    info: dict[str, Any] = {}
    for _ in range(reloads):
        for side in ("pyodide", "cpython"):
            reply = pair.ask(side, "reload_main")
            for key in ("main_ms", "decode_ms", "extract_ms", "package_ms"):
                parts[side].setdefault(key, []).append(reply[key] / 1000)
            info = {k: reply[k] for k in ("zip_bytes", "bundle_chars", "files")}
    for side, measured in parts.items():
        out[side].update({k.removesuffix("_ms"): statistics.median(v) for k, v in measured.items()})
    out["info"] = info
    return out


def measure_functions(pair: Pair, repeats: int) -> dict[str, dict[str, float]]:
    from tests.emulate import function_body

    out: dict[str, dict[str, float]] = {}
    bodies = {name: function_body(name, *args) for name, args in FUNCTIONS}
    results = {}
    for name, body in bodies.items():  # first calls in a fresh process, in this order
        for side in ("pyodide", "cpython"):
            reply = pair.ask(side, "function", body=body)
            out.setdefault(name, {})[f"{side}_first"] = reply["call_ms"] / 1000
            results.setdefault(name, {})[side] = reply["result"]
        if results[name]["pyodide"] != results[name]["cpython"] or str(results[name]["pyodide"][0][0]).startswith("#"):
            raise BenchError(f"{name}: Pyodide {results[name]['pyodide']!r}, CPython {results[name]['cpython']!r}")
    later: dict[tuple[str, str], list[float]] = {}
    for _ in range(repeats):
        for name, body in bodies.items():
            for side in ("pyodide", "cpython"):
                later.setdefault((name, side), []).append(pair.ask(side, "function", body=body)["call_ms"] / 1000)
    for (name, side), times in later.items():
        out[name][f"{side}_later"] = statistics.median(times)
    return out


def _click(pair: Pair, side: str, payload: dict[str, Any]) -> tuple[float, list[dict[str, Any]]]:
    pair.ask(side, "collect")  # the garbage of earlier requests is not this click's
    reply = pair.ask(side, "script", name=SCRIPT, payload=payload)
    return reply["call_ms"] / 1000, reply["actions"]


def measure_season(pair: Pair, kind: str, size: int, repeats: int, meta: dict[str, Any]) -> dict[str, Any]:
    from tests.emulate import apply_actions, sent_as_asked, snapshot
    from tests.emulate import payload as make_payload

    print(f"[bench]   {kind} {size}x: building the season", file=sys.stderr, flush=True)
    wb = typed_workbook(kind, size)
    full1 = make_payload(wb)
    first = sent_as_asked(full1, meta.get("include"), meta.get("exclude"))
    out: dict[str, Any] = {"sheets": len(full1["sheets"]), "payload_full": nbytes(full1), "payload": nbytes(first)}

    # which sheets the recalculation reads, and whether the rest can stay at home
    reads = pair.ask("cpython", "reads", name=SCRIPT, payload=first)
    read = set(reads["read"])
    unread = [s["name"] for s in full1["sheets"] if s["name"] not in read]
    sent_unread = [s for s in first["sheets"] if s["name"] in unread and s["values"] != [[]]]
    out["unread"] = {s["name"]: nbytes(s) for s in sent_unread}
    without = sent_as_asked(full1, exclude=[s["name"] for s in full1["sheets"] if s["name"] in unread])
    out["payload_read_only"] = nbytes(without)
    out["unread_safe"] = pair.ask("cpython", "reads", name=SCRIPT, payload=without)["actions"] == reads["actions"]

    # untimed round: first-time imports and caches; the actions of each side compared
    print(f"[bench]   {kind} {size}x: first clicks", file=sys.stderr, flush=True)
    cold, actions1 = _click(pair, "pyodide", first)
    out["cold_pyodide"] = cold
    out["cold_cpython"], reference = _click(pair, "cpython", first)
    if actions1 != reference:
        raise BenchError(f"{kind} {size}x: the first click's actions differ between Pyodide and CPython")
    out["first"] = describe(actions1)
    apply_actions(wb, actions1)
    out["same_as_headless"] = snapshot(wb) == headless_snapshot(kind, size)
    second = sent_as_asked(make_payload(wb), meta.get("include"), meta.get("exclude"))
    out["payload_second"] = nbytes(second)
    _, actions2 = _click(pair, "pyodide", second)
    _, reference = _click(pair, "cpython", second)
    if actions2 != reference:
        raise BenchError(f"{kind} {size}x: the second click's actions differ between Pyodide and CPython")
    out["second"] = describe(actions2)

    times: dict[str, list[float]] = {}
    for i in range(repeats):
        print(f"[bench]   {kind} {size}x: round {i + 1} of {repeats}", file=sys.stderr, flush=True)
        for click, payload in (("first", first), ("second", second)):
            for side in ("pyodide", "cpython"):
                times.setdefault(f"{side}_{click}", []).append(_click(pair, side, payload)[0])
    out.update({key: statistics.median(values) for key, values in times.items()})
    for click, payload in (("first", first), ("second", second)):  # where the time goes (one run each)
        for side in ("pyodide", "cpython"):
            pair.ask(side, "collect")
            out[f"phases_{click}" + ("" if side == "pyodide" else "_cpython")] = pair.ask(
                side, "phases", name=SCRIPT, payload=payload)
    return out


# ------------------------------------------------------------------ the table


def _kb(n: int) -> str:
    return f"{n / 1000:,.1f} kB" if n < 1_000_000 else f"{n / 1e6:,.2f} MB"


def _ok(row, ok: bool) -> None:
    row.ok = ok


def _asked(meta: dict[str, Any]) -> str:
    asked = [f"{key}={value!r}" for key, value in meta.items() if value]
    return "@script(" + ", ".join(asked) + ")" if asked else "no include/exclude"


def render(table: Table, results: dict[str, Any]) -> None:
    for kind, r in results.items():
        ready = r["ready"]
        table.add(SECTION, f"{kind}: Pyodide {ready['pyodide']} (Python {ready['python']}, xlwings {ready['xlwings']}) "
                           f"beside CPython {ready['cpython']}", None, note=f"load average at start {r['load']:.1f}")
        s = r["startup"]
        py, cp, info = s["pyodide"], s["cpython"], s["info"]
        fresh = r["fresh"]
        row = table.add(SECTION, f"{kind}: main.py import in a fresh Pyodide ({info['files']} files unpacked, "
                                 f"{_kb(info['zip_bytes'])} zip; median of {len(fresh)} starts)",
                        statistics.median(fresh), py["main"] / cp["main"], "of CPython", f"≤ {IMPORT_SECONDS} s",
                        note=f"starts {', '.join(fmt_time(x) for x in fresh)}; first start {fmt_time(py['main'])}, "
                             f"CPython {fmt_time(cp['main'])}; Pyodide load {py['load']:.1f} s, "
                             f"wheels {py['install']:.2f} s")
        _ok(row, statistics.median(fresh) <= IMPORT_SECONDS)
        table.add(SECTION, "  xlwings import before it (Lite imports it anyway)", py["xlwings"], py["xlwings"] / cp["xlwings"],
                  "of CPython")
        if "main_again" in py:
            table.add(SECTION, "  the import again in the same process (median)", py["main_again"],
                      py["main_again"] / cp["main_again"], "of CPython")
        for part, what in (("decode", "base64 of the bundle"), ("extract", "unzip to the in-memory file system"),
                           ("package", "import xlbridge.excel.functions from the unzipped files")):
            if part in py:
                table.add(SECTION, f"    measured apart: {what}", py[part], py[part] / cp[part] if cp.get(part) else None,
                          "of CPython")
        if "functions" in r:
            for name, f in r["functions"].items():
                table.add(SECTION, f"{name.upper()}: a later call (dispatch inside the runtime)", f["pyodide_later"],
                          f["pyodide_later"] / f["cpython_later"], "of CPython",
                          note=f"first call {fmt_time(f['pyodide_first'])} (CPython {fmt_time(f['cpython_first'])})")
        base = None
        for size, m in r["seasons"].items():
            first, second = m["first"], m["second"]
            ratio = m["pyodide_first"] / m["cpython_first"]
            row = table.add(SECTION, f"{kind} {size}×: first click, the script in Pyodide ({first['cells']:,} cells to write)",
                            m["pyodide_first"], ratio, "of CPython", f"≤ {SCRIPT_RATIO}× CPython",
                            note=f"the first click after start-up: {fmt_time(m['cold_pyodide'])}")
            _ok(row, ratio <= SCRIPT_RATIO)
            table.add(SECTION, "  the same script on CPython", m["cpython_first"],
                      note="applied, the actions give the headless recalculation's values and fills"
                      if m["same_as_headless"] else "APPLIED, THE ACTIONS DIFFER FROM THE HEADLESS RECALCULATION")
            ratio2 = m["pyodide_second"] / m["cpython_second"]
            row = table.add(SECTION, f"  second click in Pyodide (nothing changed): {second['cells']:,} cells written",
                            m["pyodide_second"], m["pyodide_second"] / m["pyodide_first"], "of the first click",
                            "no cell", note=f"{ratio2:.2f}× CPython ({fmt_time(m['cpython_second'])}); issue 18's "
                            "≤ 0.3× the first went with the memo (issue 24, docs/performance.md)")
            _ok(row, second["cells"] == 0)
            table.add(SECTION, f"  payload {_kb(m['payload'])} ({m['sheets']} sheets); actions {_kb(first['bytes'])}: "
                               f"{first['actions']:,} ({first['writes']:,} writes, {first['fills']:,} fills of "
                               f"{first['filled']:,} cells)", None,
                      note=f"second click: {second['actions']:,} actions ({second['fills']:,} fills), {_kb(second['bytes'])}")
            plan_ratio = m["phases_first"]["plan_ms"] / max(m["phases_first_cpython"]["plan_ms"], 1e-3)
            table.add(SECTION, "  where the time goes in Pyodide (one run of each click; ms)", None,
                      plan_ratio, "of CPython for the plan",
                      note="; ".join(f"{click}: " + ", ".join(f"{k} {m[f'phases_{click}'][k + '_ms']:.0f}" for k in PHASES)
                                     for click in ("first", "second")))
            unread = ", ".join(f"{n} {_kb(b)}" for n, b in m["unread"].items()) or "none"
            row = table.add(SECTION, f"  sheets sent but not read: {unread}", None,
                            m["payload"] / m["payload_read_only"], "of the payload without them",
                            "only the sheets read",
                            note=("leaving them out gives the same actions" if m["unread_safe"] else
                                  "LEAVING THEM OUT CHANGES THE ACTIONS") + f"; main.py: {_asked(r['meta'])}")
            _ok(row, not m["unread"])
            row = table.add(SECTION, f"  writes touching another write of the same span: {first['mergeable_writes']} "
                                     f"(fills: {first['mergeable_fills']})", None, target="0 (one write)")
            _ok(row, first["mergeable_writes"] == 0)
            if size == 1:
                base = m
            elif base is not None and size == max(r["seasons"]):
                for side in ("pyodide", "cpython"):
                    growth = m[f"{side}_first"] / base[f"{side}_first"]
                    row = table.add(SECTION, f"  growth 1× → {size}×, first click, {'Pyodide' if side == 'pyodide' else 'CPython'}",
                                    None, growth, "of the 1× time", f"≤ {GROWTH:.0f}×" if side == "pyodide" else "")
                    if side == "pyodide":
                        _ok(row, growth <= GROWTH)


def run(table: Table, *, quick: bool = False, sizes: tuple[int, ...] | None = None) -> None:
    try:
        from tests.pyodide import runtime
        from xlbridge.excel import lite
    except ImportError as error:
        table.add(SECTION, "Excel path in Pyodide", note=f"cannot run: {error}")
        return
    version = lite.PYODIDE_VERSION
    sizes = sizes or ((1,) if quick else SIZES)
    repeats = 2 if quick else {1: 11, 4: 5, 16: 5}
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="xlbridge-bench-pyodide-") as tmp:
        for kind in QUICK_KINDS if quick else STARTUP_KINDS:
            print(f"[bench]   {kind}: starting Pyodide {version} and the CPython reference", file=sys.stderr, flush=True)
            files = kind_files(kind)
            try:
                runtime.prepare(files["requirements.txt"], version)
                pair = Pair(files, version, Path(tmp))
            except Exception as error:  # noqa: BLE001 - reported in the table
                table.add(SECTION, f"{kind}: Excel path in Pyodide {version}",
                          note=f"cannot run: {type(error).__name__}: {str(error).splitlines()[0][:200]}")
                continue
            try:
                r: dict[str, Any] = {"startup": {}, "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0}
                startup_fresh = {side: dict(pair.ready(side)) for side in ("pyodide", "cpython")}
                r["ready"] = {"pyodide": startup_fresh["pyodide"].get("pyodide", version),
                              "python": startup_fresh["pyodide"].get("python", "?"),
                              "xlwings": startup_fresh["pyodide"].get("xlwings", "?"),
                              "cpython": startup_fresh["cpython"].get("python", "?")}
                if kind == KINDS[0]:
                    r["functions"] = measure_functions(pair, 5 if quick else 20)
                meta = next(s for s in pair.ask("cpython", "meta")["scripts"] if s["function_name"] == SCRIPT)
                r["meta"] = {k: meta.get(k) for k in ("include", "exclude")}
                r["seasons"] = {}
                for size in sizes if kind in KINDS else ():
                    reps = repeats if isinstance(repeats, int) else repeats[size]
                    r["seasons"][size] = measure_season(pair, kind, size, reps, meta)
                s = measure_startup(pair, 1 if quick else 5)
                for side in ("pyodide", "cpython"):  # the fresh start-up figures, the reloads beside them
                    s[side]["main_again"] = s[side]["main"]
                    s[side]["main"] = startup_fresh[side]["main_import_ms"] / 1000
                r["startup"] = s
                results[kind] = r
            except BenchError as error:
                table.add(SECTION, f"{kind}: Excel path in Pyodide {version}", note=f"failed: {str(error)[:300]}")
            finally:
                pair.close()
            if kind in results:  # more fresh starts, with no other runtime of this kind running
                results[kind]["fresh"] = [results[kind]["startup"]["pyodide"]["main"]] + fresh_imports(
                    files, version, Path(tmp), 0 if quick else 4)  # quick: the pair's own start only
    render(table, results)


# ------------------------------------------------------------------ profiling


def profile(kind: str, size: int, *, second: bool = False, side: str = "pyodide", top: int = 45) -> str:
    """cProfile of one click inside ``side`` (after one untimed click)."""
    from tests.pyodide import runtime
    from xlbridge.excel import lite
    from tests.emulate import apply_actions
    from tests.emulate import payload as make_payload

    version = lite.PYODIDE_VERSION
    files = kind_files(kind)
    runtime.prepare(files["requirements.txt"], version)
    with tempfile.TemporaryDirectory(prefix="xlbridge-bench-pyodide-") as tmp:
        pair = Pair(files, version, Path(tmp))
        try:
            wb = typed_workbook(kind, size)
            body = make_payload(wb)
            _, actions = _click(pair, side, body)
            if second:
                apply_actions(wb, actions)
                body = make_payload(wb)
                _click(pair, side, body)
            reply = pair.ask(side, "profile", top=top, request={"op": "script", "name": SCRIPT, "payload": body})
        finally:
            pair.close()
    stats = reply["stats"]
    return (f"{kind} {size}x, {'second' if second else 'first'} click in {side}: "
            f"{reply['reply']['call_ms']:.0f} ms under the profiler\n" + stats["cumulative"] + stats["tottime"])


def profile_import(kind: str, *, side: str = "pyodide", top: int = 40) -> str:
    """cProfile of ``main.py``'s import afresh, then of the first click at 1× right after it
    (which imports the scripts and the kind): what start-up costs, module by module."""
    from tests.emulate import payload as make_payload
    from tests.pyodide import runtime
    from xlbridge.excel import lite

    version = lite.PYODIDE_VERSION
    files = kind_files(kind)
    runtime.prepare(files["requirements.txt"], version)
    out = []
    with tempfile.TemporaryDirectory(prefix="xlbridge-bench-pyodide-") as tmp:
        pair = Pair(files, version, Path(tmp))
        try:
            first = pair.ask(side, "profile", top=top, request={"op": "import_main"})
            out.append(f"{kind}: main.py import in {side}: {first['reply']['main_ms']:.0f} ms under the profiler\n"
                       + first["stats"]["cumulative"] + first["stats"]["tottime"])
            if kind in KINDS:
                body = make_payload(typed_workbook(kind, 1))
                click = pair.ask(side, "profile", top=top, request={"op": "script", "name": SCRIPT, "payload": body})
                out.append(f"{kind} 1x: the first click right after: {click['reply']['call_ms']:.0f} ms under the "
                           f"profiler\n" + click["stats"]["cumulative"] + click["stats"]["tottime"])
        finally:
            pair.close()
    return "\n".join(out)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--profile-import":
        rest = [a for a in args[1:] if not a.startswith("--")]
        print(profile_import(rest[0] if rest else "heeg", side="cpython" if "--cpython" in args else "pyodide"))
    elif args and args[0] == "--profile":
        rest = [a for a in args[1:] if not a.startswith("--")]
        print(profile(rest[0] if rest else "heeg", int(rest[1]) if len(rest) > 1 else 1,
                      second="--second" in args, side="cpython" if "--cpython" in args else "pyodide"))
    else:
        t = Table()
        chosen = next((a.split("=", 1)[1] for a in args if a.startswith("--sizes=")), None)
        run(t, quick="--quick" in args, sizes=tuple(int(x) for x in chosen.split(",")) if chosen else None)
        print(t.render())
