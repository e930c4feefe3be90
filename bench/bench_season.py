"""2. Season recalculation headless (``xlbridge recalc``) against openpyxl's load + save.

For each club kind and size the workbook is built once by the shipped builder
(filled with a bigger season, see :mod:`bench.seasons`) and saved.  Then,
interleaved, repeatedly:

- the floor: ``openpyxl.load_workbook(file)`` and ``save`` to another file --
  what any tool that reads and writes the file with openpyxl pays;
- ``xlbridge.files.headless.recalc_path(copy)`` -- the whole ``xlbridge recalc``: lock,
  checks, load, recalculation, backup, atomic save, xlwings Lite parts kept.  The copy is
  of the file with one computed cell typed over, so that the recalculation has something to
  write (of the file as built, recalculated once already, nothing is left to change).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from bench.common import Table, side_by_side

SIZES = (1, 4, 16)


def measure(path: Path, repeats: int) -> dict[str, float]:
    from openpyxl import load_workbook

    from bench.seasons import typed_over
    from xlbridge.files.headless import recalc_path

    work = path.with_name("work-" + path.name)
    floor_out = path.with_name("floor-" + path.name)
    changed = path.with_name("changed-" + path.name)
    typed_over(path, changed)  # written back and listed on Corrections: a recalculation that saves

    def floor() -> None:
        load_workbook(path).save(floor_out)

    def recalc() -> None:
        recalc_path(work)

    return side_by_side({"floor": floor, "recalc": recalc}, repeats,
                        setups={"recalc": lambda: shutil.copyfile(changed, work)})


def run(table: Table, *, quick: bool = False) -> None:
    from bench import seasons

    sizes = (1,) if quick else SIZES
    available = []
    for kind, module in (("heeg", "xlbridge.workbooks.heeg"), ("bridgemania", "xlbridge.workbooks.bridgemania")):
        try:
            __import__(module)
            available.append(kind)
        except ImportError as error:
            table.add("2", f"{kind} season", note=f"cannot run: {error}")
    with tempfile.TemporaryDirectory(prefix="xlbridge-bench-") as tmp:
        files = seasons.build_files(Path(tmp), available, sizes)
        for kind in available:
            base = None
            for size in sizes:
                path = files[(kind, size)]
                repeats = 3 if quick else {1: 11, 4: 5, 16: 5}[size]
                m = measure(path, repeats)
                results = seasons.results_count(kind, size)
                mb = path.stat().st_size / 1e6
                what = f"{kind} {size}×: xlbridge recalc ({results:,} results, {mb:.1f} MB)"
                row = table.add("2", what, m["recalc"], m["recalc"] / m["floor"], "of load+save",
                                "≤ 1.3× load+save" if size == 1 else "")
                if size == 1:
                    row.ok = m["recalc"] / m["floor"] <= 1.3
                    base = (m["recalc"], results, m["floor"], path.stat().st_size)
                table.add("2", "  openpyxl load + save of the same file", m["floor"])
                if size > 1 and base is not None:
                    growth = m["recalc"] / base[0]
                    row = table.add("2", f"  growth 1× → {size}× (results ×{results / base[1]:.1f})", None, growth,
                                    "of the 1× time", f"≤ {20 * size // 16}× " if size == 16 else "")
                    if size == 16:
                        row.ok = growth <= 20
                    # what the file alone grows by: no recalculation can grow less than its floor
                    table.add("2", f"    the floor's own growth 1× → {size}× (file ×{path.stat().st_size / base[3]:.1f})",
                              None, m["floor"] / base[2], "of the 1× floor")
