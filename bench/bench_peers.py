"""4. Peers on the same season: the ``formulas`` package and LibreOffice headless.

For each club kind (size 1) the season is written three ways and each tool does
its whole job on its own file, measured interleaved with xlbridge:

- xlbridge: ``xlbridge recalc`` of the club's workbook (every computed column,
  standings, audit, backup, atomic save);
- ``formulas``: a *formula workbook* -- one row per scored result, every
  computed cell a call of xlbridge's worksheet functions (``=HEEG_PCT`` per
  pair-evening; ``=BM_PCT`` and ``=AWARD("bm.f1-fast", place, places)`` per
  entry), registered as ``formulas`` custom functions -- loaded, calculated and
  written back (``ExcelModel().loads().finish().calculate().write()``);
- LibreOffice: the same rows with native Excel formulas only (IF / AVERAGEIFS /
  COUNTIFS / INDEX, the way club spreadsheets work today), recalculated on load
  (profile with ``OOXMLRecalcMode`` = always) and saved by
  ``soffice --headless --convert-to xlsx``; the time of converting an empty
  workbook (LibreOffice's start-up) is shown too.

The peers' workbooks compute a subset of what xlbridge computes (no EGS, no
promotion, no participation lists, no audit): the ratios flatter the peers.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bench.common import Table, side_by_side

PROFILE_XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">\
<value>0</value></prop></item>
</oor:items>
"""
F1 = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)  # first places of the F1 FAST column (Tab.1), for the native version


# ------------------------------------------------------------------ the workbooks


def heeg_rows():
    from bench.seasons import heeg_season

    _, frame = heeg_season(1)
    return frame.sort_values(["period", "pair", "date"]).to_dict("records")


def heeg_formula_book(path: Path, native: bool) -> int:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Evenings"
    ws.append(["Date", "Period", "Pair", "Line", "MP", "Max", "Code", "Rounds", "%", "To date"])
    rows = heeg_rows()
    for r, rec in enumerate(rows, start=2):
        code = rec["code"] or None
        ws.append([rec["date"], rec["period"], rec["pair"], rec["line"], rec["mp"], rec["max_mp"], code,
                   rec["rounds"]])
        if native:
            ws[f"I{r}"] = (f'=IF(OR(G{r}="0",G{r}="a"),IF(G{r}="0",40,50),E{r}/F{r}*100'
                           f'*IF(OR(G{r}="s",G{r}="s1"),H{r}/(H{r}-1),1)-IF(G{r}=1,1,IF(G{r}=2,2,0)))')
        else:
            ws[f"I{r}"] = f"=HEEG_PCT(E{r},F{r},G{r},50,1,H{r})"
        ws[f"J{r}"] = f'=AVERAGEIFS($I$2:$I${len(rows) + 1},$B$2:$B${len(rows) + 1},B{r},$C$2:$C${len(rows) + 1},C{r},' \
                      f'$A$2:$A${len(rows) + 1},"<="&A{r})'
    wb.save(path)
    return len(rows)


def bm_formula_book(path: Path, native: bool) -> int:
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter

    from bench.seasons import bm_season

    season = bm_season(1)
    width = max(len(v) for t in season.tournaments for v in t.scores.values())
    last = get_column_letter(3 + width)
    pct, place, pts = (get_column_letter(4 + width + i) for i in range(3))
    wb = Workbook()
    ws = wb.active
    ws.title = "Entries"
    ws.append(["Tournament", "Entry", "TOP"] + [f"B{i + 1}" for i in range(width)] + ["%", "Place", "PTS"])
    r = 2
    for t in season.tournaments:
        first, n = r, len(t.scores)
        for entry, scores in t.scores.items():
            ws.append([t.id, entry, t.top] + list(scores))
            if native:
                ws[f"{pct}{r}"] = f"=ROUND(SUM(D{r}:{last}{r})/(COUNT(D{r}:{last}{r})*C{r})*100,2)"
                ws[f"{place}{r}"] = f"=RANK({pct}{r},${pct}${first}:${pct}${first + n - 1})"
                ws[f"{pts}{r}"] = f"=IFERROR(INDEX({{{','.join(map(str, F1))}}},{place}{r}),0)"
            else:
                ws[f"{pct}{r}"] = f"=BM_PCT(D{r}:{last}{r},C{r})"
                ws[f"{place}{r}"] = f"=RANK({pct}{r},${pct}${first}:${pct}${first + n - 1})"
                ws[f"{pts}{r}"] = f'=AWARD("bm.f1-fast",{place}{r},${place}${first}:${place}${first + n - 1})'
            r += 1
    wb.save(path)
    return r - 2


# ------------------------------------------------------------------ the tools


def formulas_runner(path: Path, outdir: Path):
    import formulas
    import schedula

    from xlbridge.excel import functions

    def plain(value):
        if hasattr(value, "value"):
            value = value.value
        if hasattr(value, "tolist"):
            value = value.tolist()
        if isinstance(value, list):
            rows = [[plain(v) for v in (row if isinstance(row, list) else [row])] for row in value]
            return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else rows
        if value is schedula.EMPTY:
            return None
        return value.item() if hasattr(value, "item") else value

    def adapter(func):
        return lambda *args: func(*(plain(a) for a in args))

    registry = formulas.get_functions()
    for name in ("AWARD", "HEEG_PCT", "BM_PCT"):
        registry[name] = adapter(getattr(functions, name.lower()))

    def run() -> None:
        model = formulas.ExcelModel().loads(str(path)).finish()
        solution = model.calculate()
        model.write(solution=solution, dirpath=str(outdir))

    return run


def soffice_runner(path: Path, outdir: Path, profile: Path):
    exe = shutil.which("soffice") or shutil.which("libreoffice")

    def run() -> None:
        done = subprocess.run(
            [exe, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore", "--nolockcheck",
             "--convert-to", "xlsx", "--outdir", str(outdir), str(path)],
            capture_output=True, text=True, timeout=1800)
        if done.returncode != 0 or not (outdir / path.name).exists():
            raise RuntimeError((done.stdout + done.stderr).strip() or "no output written")

    return run


def check_formulas_result(path: Path, outdir: Path) -> str | None:
    """A computed cell of the formulas output that shows an error, or None."""
    from openpyxl import load_workbook

    written = list(outdir.glob("*.xlsx")) + list(outdir.glob("*.XLSX"))
    if not written:
        return "formulas wrote no file"
    ws = load_workbook(written[0], data_only=True).worksheets[0]
    for row in ws.iter_rows(min_row=2, max_row=min(ws.max_row, 40), values_only=True):
        for value in row:
            if isinstance(value, str) and (value.startswith("#xlbridge") or value.startswith("#NAME")):
                return f"a computed cell shows {value!r}"
    return None


def run(table: Table, *, quick: bool = False) -> None:
    from bench.seasons import build_files
    from xlbridge.files.headless import recalc_path

    repeats = 2 if quick else 3
    with tempfile.TemporaryDirectory(prefix="xlbridge-peers-") as tmp:
        folder = Path(tmp)
        profile = folder / "lo-profile"
        (profile / "user").mkdir(parents=True)
        (profile / "user" / "registrymodifications.xcu").write_text(PROFILE_XCU, encoding="utf-8")
        has_soffice = bool(shutil.which("soffice") or shutil.which("libreoffice"))
        try:
            import formulas  # noqa: F401

            formulas_problem = None
        except ImportError:
            formulas_problem = "the formulas package is not installed (pip install formulas)"
        if has_soffice:  # LibreOffice's start-up alone: an empty workbook
            from openpyxl import Workbook

            empty = folder / "empty.xlsx"
            Workbook().save(empty)
            (folder / "out-empty").mkdir()
            start_run = soffice_runner(empty, folder / "out-empty", profile)
            start_run()  # first start writes the profile
        files = build_files(folder, ("heeg", "bridgemania"), (1,))
        for kind, builder in (("heeg", heeg_formula_book), ("bridgemania", bm_formula_book)):
            ours = files[(kind, 1)]
            work = folder / f"work-{kind}.xlsx"
            funcs = {"xlbridge": lambda: recalc_path(work)}
            setups = {"xlbridge": lambda: shutil.copyfile(ours, work)}
            notes: dict[str, str] = {}
            count = 0
            if formulas_problem is None:
                fpath = folder / f"{kind}-formulas.xlsx"
                count = builder(fpath, native=False)
                fout = folder / f"out-formulas-{kind}"
                fout.mkdir()
                try:
                    run_f = formulas_runner(fpath, fout)
                    start = time.perf_counter()
                    run_f()
                    problem = check_formulas_result(fpath, fout)
                    if problem:
                        notes["formulas"] = f"cannot run: {problem}"
                    elif time.perf_counter() - start > 600:
                        notes["formulas"] = "one run took over 10 minutes: measured once"
                    else:
                        funcs["formulas"] = run_f
                except Exception as error:  # noqa: BLE001 - a peer that cannot run is reported, not fatal
                    notes["formulas"] = f"cannot run: {type(error).__name__}: {str(error)[:120]}"
            else:
                notes["formulas"] = formulas_problem
            if has_soffice:
                npath = folder / f"{kind}-native.xlsx"
                count = builder(npath, native=True)
                nout = folder / f"out-lo-{kind}"
                nout.mkdir()
                run_lo = soffice_runner(npath, nout, profile)
                try:
                    run_lo()
                    funcs["LibreOffice"] = run_lo
                except Exception as error:  # noqa: BLE001
                    notes["LibreOffice"] = f"cannot run: {str(error)[:120]}"
                if kind == "heeg":
                    funcs["LibreOffice start-up (empty workbook)"] = start_run
            else:
                notes["LibreOffice"] = "cannot run: soffice not found (apt-get install libreoffice-calc-nogui)"
            m = side_by_side(funcs, repeats, setups)
            table.add("4", f"{kind} 1×: xlbridge recalc (reference for the peers)", m["xlbridge"])
            for peer in ("formulas", "LibreOffice"):
                label = (f"  {peer}: formula workbook, {count:,} rows of =HEEG_PCT / AVERAGEIFS" if kind == "heeg" else
                         f"  {peer}: formula workbook, {count:,} rows of =BM_PCT / RANK / =AWARD")
                if peer == "LibreOffice":
                    label = label.replace("=HEEG_PCT", "native IF").replace("=BM_PCT", "native SUM").replace("=AWARD", "INDEX")
                if peer in m:
                    row = table.add("4", label, m[peer], m[peer] / m["xlbridge"], "of xlbridge", "xlbridge faster")
                    row.ok = m[peer] > m["xlbridge"]
                else:
                    table.add("4", label, note=notes.get(peer, "cannot run"), target="xlbridge faster")
            if "LibreOffice start-up (empty workbook)" in m:
                table.add("4", "  LibreOffice start-up alone (empty workbook)", m["LibreOffice start-up (empty workbook)"])
