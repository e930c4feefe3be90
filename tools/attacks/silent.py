"""Issue 25, failures 1-5: wrong results without a word, each on a fresh ``xlbridge new KIND --lang en`` workbook.

1. Heeg: a round above the round's maximum (R1 90 or 49 where 4 boards x top 12 = 48) in a total under 288;
2. a formula in a typed cell: a BridgeMania Name ``=B10&" & "&C10`` (Heeg refused it), and in the other typed
   cells of every kind;
3. the BridgeMania tournament list out of date order (T04 and T05 swapped);
4. BridgeMania board scores 2.5 and 7.5 on a board that still adds up;
5. a pair id with a space after it (Heeg ``"3 "``, BridgeMania ``"BE "``, a TBF pair ``" 4"``), Heeg evenings out
   of date order.

A wrong value holds when xlbridge stops at its cell (exit 2, an ``xlbridge: error:`` line naming the sheet and
cell of each, nothing written), an id with a space when the run goes on with a warning at its cell; each group
has a control that must still be recalculated.  The workbooks are edited with openpyxl, which drops the xlwings
Lite code: the warning that xlbridge put it back is expected on every run that goes through.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from tools.attacks import Case, Run, Tree, group
from tools.attacks.bounds import new_workbook

EVENING = "Evening 2025-09-04"  # pair 2 (row 3): R1 9, total 84 of 288 = 29.17 %


def edited(source: Path, name: str, cells: dict[tuple[str, str], Any], swap: tuple[str, int, int] | None = None
           ) -> Path:
    """A copy of ``source`` named ``name`` with ``cells`` ({(sheet, cell): value}) typed in, and the rows of
    ``swap`` (sheet, row, row) exchanged in columns J to L (the BridgeMania tournament list)."""
    from openpyxl import load_workbook

    wb = load_workbook(source)
    for (sheet, ref), value in cells.items():
        wb[sheet][ref] = value
    if swap is not None:
        sheet, one, other = swap
        for col in "JKL":
            ws = wb[sheet]
            ws[f"{col}{one}"].value, ws[f"{col}{other}"].value = ws[f"{col}{other}"].value, ws[f"{col}{one}"].value
    path = source.with_name(name)
    wb.save(path)
    return path


def _lines(run: Run, prefix: str) -> list[str]:
    return [line[len(prefix):] for line in run.err.splitlines() if line.startswith(prefix)]


def stopped(tree: Tree, path: Path, *places: str, says: str = "") -> Case:
    """Holds when the run stops at every one of ``places`` (``"Sheet, Cell"``) and nowhere else, the message
    saying ``says``, without a traceback, and leaves the file byte for byte with no backup."""
    before = path.read_bytes()
    run = tree.measure("recalc", path.name, cwd=path.parent)
    errors = _lines(run, "xlbridge: error: ")
    at = sorted(line.split(": ", 1)[0] for line in errors)
    backup = path.with_name(f"{path.stem}.backup{path.suffix}")
    held = (run.code == 2 and at == sorted(places) and all(says in line for line in errors)
            and "Traceback" not in run.err and path.read_bytes() == before and not backup.exists())
    return Case(path.name, held, f"exit {run.code}: {' / '.join(errors) or run.out.strip() or run.line}"[:300])


def warned(tree: Tree, path: Path, *places: str) -> Case:
    """Holds when the run goes through (exit 0) with a warning at every one of ``places`` about the space."""
    run = tree.measure("recalc", path.name, cwd=path.parent)
    warnings = [w for w in _lines(run, "xlbridge: warning: ") if not w.startswith("workbook: ")]
    at = sorted(w.split(": ", 1)[0] for w in warnings)
    held = run.code == 0 and at == sorted(places) and all("space" in w for w in warnings)
    return Case(path.name, held, f"exit {run.code}: {' / '.join(warnings) or 'no warning'}"[:300])


def recalculated(tree: Tree, path: Path, quiet: bool = True) -> Case:
    """A control: the workbook is recalculated (exit 0), ``quiet``: with no warning but the Lite code's."""
    run = tree.measure("recalc", path.name, cwd=path.parent)
    warnings = [w for w in _lines(run, "xlbridge: warning: ") if not w.startswith("workbook: ")]
    return Case(path.name, run.code == 0 and not (quiet and warnings),
                f"exit {run.code}: {' / '.join([*warnings, run.out.strip()])}"[:300])


@group("1. a round above its maximum")
def round_maximum(tree: Tree, folder: Path) -> list[Case]:
    heeg = new_workbook(tree, folder, "heeg")
    return [
        stopped(tree, edited(heeg, "heeg-R1-90.xlsx", {(EVENING, "D3"): 90}), f"{EVENING}, D3", says="maximum 48"),
        stopped(tree, edited(heeg, "heeg-R1-49.xlsx", {(EVENING, "D3"): 49}), f"{EVENING}, D3", says="maximum 48"),
        recalculated(tree, edited(heeg, "heeg-R1-48.xlsx", {(EVENING, "D3"): 48})),  # at the maximum
    ]


@group("2. a formula in a typed cell")
def formulas(tree: Tree, folder: Path) -> list[Case]:
    bm, heeg, tbf = (new_workbook(tree, folder, kind) for kind in ("bridgemania", "heeg", "tbf-club"))
    cases = [stopped(tree, edited(bm, "bm-name-formula.xlsx", {("Season", "D14"): '=B14&" & "&C14'}),
                     "Season, D14", says="not a formula"),
             stopped(tree, edited(heeg, "heeg-names-formula.xlsx", {(EVENING, "B3"): '=A3&" & "&A4'}),
                     f"{EVENING}, B3", says="not a formula")]  # (Heeg refused it already)
    for name, (sheet, ref) in (("bm-date", ("Season", "K6")), ("bm-players", ("T01", "C9")),
                               ("bm-season-name", ("Season", "B2")), ("bm-penalty-note", ("T03", "C29")),
                               ("bm-capacity", ("Participation", "B4"))):
        cases.append(stopped(tree, edited(bm, f"{name}-formula.xlsx", {(sheet, ref): "=A1"}), f"{sheet}, {ref}",
                             says="not a formula"))
    cases.append(stopped(tree, edited(tbf, "tbf-names-formula.xlsx", {("Tournament", "B12"): "=B11"}),
                         "Tournament, B12", says="not a formula"))
    cases.append(recalculated(tree, edited(bm, "bm-name-plus.xlsx", {("Season", "D14"): "+Silvia & Zeno"})))
    return cases


@group("3. the tournament list out of date order")
def tournament_order(tree: Tree, folder: Path) -> list[Case]:
    bm = new_workbook(tree, folder, "bridgemania")
    return [stopped(tree, edited(bm, "bm-T04-T05-swapped.xlsx", {}, swap=("Season", 8, 9)), "Season, K9",
                    says="row 8"),
            stopped(tree, edited(bm, "bm-date-text.xlsx", {("Season", "K6"): "soon"}), "Season, K6",
                    says="not a date"),
            # two on one day: the list decides (the Chart's date cell is said to be typed over: a fault of the
            # record's comparison of dates in a view, not of the order)
            recalculated(tree, edited(bm, "bm-same-day.xlsx", {("Season", "K9"): dt.datetime(2019, 11, 8)}),
                         quiet=False)]


@group("4. board scores off the scale")
def board_scale(tree: Tree, folder: Path) -> list[Case]:
    bm = new_workbook(tree, folder, "bridgemania")
    return [stopped(tree, edited(bm, "bm-2.5-7.5.xlsx", {("T01", "N9"): 2.5, ("T01", "N14"): 7.5}),
                    "T01, N9", "T01, N14", says="scale"),
            stopped(tree, edited(bm, "bm-2,5-text.xlsx", {("T01", "N9"): "2,5", ("T01", "N14"): "7,5"}),
                    "T01, N9", "T01, N14", says="scale"),
            recalculated(tree, edited(bm, "bm-tie.xlsx", {("T01", "N9"): 3, ("T01", "N14"): 7}))]  # a tie: 3


@group("5. ids with a space, evenings out of order")
def spaces_and_order(tree: Tree, folder: Path) -> list[Case]:
    heeg, bm, tbf = (new_workbook(tree, folder, kind) for kind in ("heeg", "bridgemania", "tbf-club"))
    return [
        warned(tree, edited(tbf, "tbf-unit-4-space.xlsx", {("Tournament", "A12"): " 4"}), "Tournament, A12"),
        warned(tree, edited(heeg, "heeg-pair-3-space.xlsx", {(EVENING, "A4"): "3 "}), f"{EVENING}, A4"),
        warned(tree, edited(heeg, "heeg-roster-3-space.xlsx", {("Season", "A19"): "3 "}), "Season, A19"),
        warned(tree, edited(bm, "bm-BE-space.xlsx", {("T01", "A9"): "BE "}), "T01, A9"),
        warned(tree, edited(bm, "bm-base-BE-space.xlsx", {("Season", "A5"): "BE "}), "Season, A5"),
        stopped(tree, edited(heeg, "heeg-evenings-swapped.xlsx", {("Season", "C12"): dt.datetime(2025, 9, 11),
                                                                  ("Season", "D12"): dt.datetime(2025, 9, 4)}),
                "Season, D12", says="date order"),
        stopped(tree, edited(heeg, "heeg-period-2-early.xlsx", {("Season", "C13"): dt.datetime(2025, 10, 9),
                                                               ("Season", "H12"): dt.datetime(2025, 10, 16)}),
                "Season, C13", says="date order"),
    ]
