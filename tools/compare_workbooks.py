"""Compare the shipped workbooks with those of another git revision, cell by cell.

    python tools/compare_workbooks.py [REV]          (default REV: HEAD)
    python tools/compare_workbooks.py --fresh [REV]  (build every shipped file into a
                                                      temporary folder first, compare those)

For every file of ``workbooks/`` and ``templates/`` it compares, sheet by sheet,
the sheet names and order, every cell's value (numbers equal to 12 significant
digits count as equal; those that differ beyond the last bit are counted), fill,
number format, font (bold, colour, size), the column widths and the frozen panes,
and prints one line per file: ``same`` or what differs.  Used before and after a
change that must leave the workbooks as they are (issue notes quote its output).
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from openpyxl import load_workbook

ROOT = Path(__file__).resolve().parent.parent


def look(path_or_bytes):
    source = io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes) else path_or_bytes
    wb = load_workbook(source)
    out = {"sheets": wb.sheetnames}
    for ws in wb.worksheets:
        cells = {}
        for row in ws.iter_rows():
            for c in row:
                fill = c.fill.start_color.rgb if c.fill is not None and c.fill.fill_type == "solid" else None
                colour = c.font.color.rgb if c.font is not None and c.font.color is not None else None
                entry = (c.value, fill, c.number_format, bool(c.font.bold), colour if isinstance(colour, str) else None,
                         float(c.font.sz or 11))
                if entry != (None, None, "General", False, None, 11.0):
                    cells[c.coordinate] = entry
        widths = {k: round(v.width, 2) for k, v in ws.column_dimensions.items() if v.width}
        out[ws.title] = {"cells": cells, "widths": widths, "freeze": ws.freeze_panes}
    return out


def same_value(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, (int, float)) or isinstance(b, float) and isinstance(a, (int, float)):
        return a == b or abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))
    return a == b


def compare(old, new) -> list[str]:
    notes = []
    if old["sheets"] != new["sheets"]:
        notes.append(f"sheets {old['sheets']} -> {new['sheets']}")
    ulps = 0
    for name in old["sheets"]:
        if name not in new:
            continue
        a, b = old[name], new[name]
        for what in ("widths", "freeze"):
            if a[what] != b[what]:
                notes.append(f"{name}: {what} {a[what]} -> {b[what]}")
        for ref in sorted(set(a["cells"]) | set(b["cells"])):
            x = a["cells"].get(ref, (None, None, "General", False, None, 11.0))
            y = b["cells"].get(ref, (None, None, "General", False, None, 11.0))
            if x == y:
                continue
            if same_value(x[0], y[0]) and x[1:] == y[1:]:
                ulps += 1
                continue
            notes.append(f"{name}!{ref}: {x} -> {y}")
    if ulps:
        notes.append(f"{ulps} numbers differ only beyond 12 significant digits")
    return notes


def main(argv: list[str]) -> int:
    fresh = "--fresh" in argv
    argv = [a for a in argv if a != "--fresh"]
    rev = argv[0] if argv else "HEAD"
    base = ROOT
    if fresh:
        import tempfile

        from xlbridge.excel.shipped import build_all

        base = Path(tempfile.mkdtemp(prefix="xlbridge-fresh-"))
        build_all(base)
    changed = 0
    for folder in ("workbooks", "templates"):
        for path in sorted((base / folder).glob("*.xlsx")):
            rel = path.relative_to(base).as_posix()
            try:
                before = subprocess.run(["git", "show", f"{rev}:{rel}"], cwd=ROOT, capture_output=True, check=True).stdout
            except subprocess.CalledProcessError:
                print(f"{rel}: new (not in {rev})")
                continue
            notes = compare(look(before), look(path))
            changed += bool(notes)
            print(f"{rel}: " + ("same" if not notes else f"{len(notes)} difference(s)"))
            for note in notes[:40]:
                print(f"    {note}")
            if len(notes) > 40:
                print(f"    ... and {len(notes) - 40} more")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
