"""6. Headless recalculation beside its floors (issue 24, point 8).

For Heeg and BridgeMania at 1x and 16x (built as section 2 builds them, then
recalculated once, so that nothing is left to change), interleaved, repeatedly:

- the zip I/O floor: every part of the file unpacked;
- a calamine read: every value of every sheet read with python-calamine;
- ``recalc_path`` of the unchanged file, as it runs now (python-calamine, nothing
  written: :mod:`xlbridge.files.unchanged`) and on the openpyxl path (as it ran before);
- ``recalc_path`` of the file with one computed cell typed over (a change: the
  fast path declines, the openpyxl path writes it back and lists it on Corrections).

Each recalculation is split (median of each part, exclusive of the parts it calls):
checks (signature, zip, memory budget), read (calamine or openpyxl, grids made),
plan, diff, record (read, make, compare, write the record), write (the plan applied,
Corrections), save (openpyxl's save, backup, atomic replace) and the rest (locks,
snapshot, kind detection).  The target: an unchanged recalculation within 3x of the
calamine read.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import statistics
import tempfile
import time
import zipfile
from collections import defaultdict
from pathlib import Path
from unittest import mock

from bench.common import Table, run_times

PARTS = ("checks", "read", "plan", "diff", "record", "write", "save", "rest")


class Split:
    """Exclusive time per part: a part's nested calls count to theirs."""

    def __init__(self) -> None:
        self.times: dict[str, float] = defaultdict(float)
        self._stack: list[list] = []

    def wrap(self, part: str, func):
        def timed(*args, **kwargs):
            self._stack.append([part, time.perf_counter(), 0.0])
            try:
                return func(*args, **kwargs)
            finally:
                name, start, inner = self._stack.pop()
                spent = time.perf_counter() - start
                self.times[name] += spent - inner
                if self._stack:
                    self._stack[-1][2] += spent
        return timed


@contextlib.contextmanager
def split_of(split: Split):
    """Every part of a recalculation timed into ``split`` while inside."""
    from xlbridge.files import headless, unchanged
    from xlbridge.workbooks import recalc
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook

    class Planned:
        def __init__(self, kind):
            self.kind = kind

        def __getattr__(self, name):
            found = getattr(self.kind, name)
            return split.wrap("plan", found) if name == "plan" else found

    kinds = recalc._kinds()
    targets = [(headless, "check_bytes", "checks"), (headless, "load_checked", "read"),
               (unchanged, "differs_from_openpyxl", "read"), (OpenpyxlBook, "_read", "read"),
               (unchanged.CalamineBook, "_read", "read"), (recalc, "diff", "diff"),
               (recalc, "read_record", "record"), (recalc, "make_record", "record"), (recalc, "compare", "record"),
               (recalc, "write_record", "record"), (unchanged, "typed_since", "record"), (recalc, "apply", "write"),
               (recalc, "append_corrections", "write"), (headless, "prepare", "save"), (headless, "commit", "save")]
    with contextlib.ExitStack() as stack:
        for owner, name, part in targets:
            stack.enter_context(mock.patch.object(owner, name, split.wrap(part, getattr(owner, name))))
        stack.enter_context(mock.patch.object(recalc, "_kinds", lambda: [Planned(k) for k in kinds]))
        yield


def zip_floor(path: Path) -> None:
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            archive.read(info)


def calamine_read(path: Path) -> None:
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_filelike(io.BytesIO(path.read_bytes()))
    for name in book.sheet_names:
        book.get_sheet_by_name(name).to_python(skip_empty_area=False)


def measure(path: Path, repeats: int) -> dict[str, dict[str, float]]:
    """Median times (seconds) of the floors and of each recalculation with its split."""
    from bench.seasons import typed_over

    from xlbridge.files import headless

    changed = path.with_name("changed-" + path.name)
    typed_over(path, changed)
    work = path.with_name("work-" + path.name)

    def openpyxl_only():
        return mock.patch.object(headless, "unchanged_report", lambda data, **recalc: None)

    runs = {"unchanged": (path, contextlib.nullcontext), "unchanged, openpyxl path (before)": (path, openpyxl_only),
            "changed": (changed, contextlib.nullcontext)}
    samples: dict[str, list[dict[str, float]]] = {name: [] for name in runs}
    floors: dict[str, list[float]] = {"zip I/O floor": [], "calamine read": []}
    for round_ in range(repeats + 1):  # the first round warms up
        floors_now = {"zip I/O floor": run_times(lambda: zip_floor(path), 1)[0],
                      "calamine read": run_times(lambda: calamine_read(path), 1)[0]}
        for name, (source, context) in runs.items():
            split = Split()
            with split_of(split), context():
                took = run_times(lambda: headless.recalc_path(work), 1, setup=lambda: shutil.copyfile(source, work))[0]
            split.times["rest"] = took - sum(split.times.values())
            split.times["total"] = took
            if round_:
                samples[name].append(dict(split.times))
        if round_:
            for name, value in floors_now.items():
                floors[name].append(value)
    out = {name: {"total": statistics.median(v)} for name, v in floors.items()}
    for name, listed in samples.items():
        out[name] = {part: statistics.median(s.get(part, 0.0) for s in listed) for part in PARTS + ("total",)}
    return out


def run(table: Table, *, quick: bool = False) -> None:
    from bench.seasons import build_files
    from xlbridge.files.headless import recalc_path

    sizes = (1,) if quick else (1, 16)
    with tempfile.TemporaryDirectory(prefix="xlbridge-bench-") as tmp:
        files = build_files(Path(tmp), ("heeg", "bridgemania"), sizes)
        for (kind, size), path in files.items():
            recalc_path(path, backup=False)  # what is left to change: nothing
            m = measure(path, 3 if quick or size == 16 else 7)
            read = m["calamine read"]["total"]
            table.add("6", f"{kind} {size}× ({path.stat().st_size / 1e6:.1f} MB): zip I/O floor",
                      m["zip I/O floor"]["total"], m["zip I/O floor"]["total"] / read, "of the calamine read")
            table.add("6", "  calamine read of every value", read)
            for name in ("unchanged", "unchanged, openpyxl path (before)", "changed"):
                times = m[name]
                row = table.add("6", f"  recalc, {name}", times["total"], times["total"] / read, "of the calamine read",
                                "≤ 3×" if name == "unchanged" else "")
                if name == "unchanged":
                    row.ok = times["total"] / read <= 3
                table.add("6", "    " + ", ".join(f"{part} {times[part] * 1e3:.0f}" for part in PARTS) + " (ms)")
