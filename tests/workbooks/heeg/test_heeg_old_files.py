"""Clubs keep their files: a Heeg workbook written by an earlier release still
recalculates, to the values today's code gives today's workbook (the layout did
not change when the kind was split into declaration, reading, planning and
building).

``data/`` holds the shipped demo and the blank template as commit f90c1a3 wrote
them (``git show f90c1a3:workbooks/heeg-demo.xlsx``, ``...:templates/heeg-season.xlsx``),
Lite parts and all.
"""

from __future__ import annotations

import datetime as dt
import math
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.files.headless import recalc_path
from xlbridge.workbooks.heeg import heeg_workbook
from xlbridge.workbooks.recalc import BookInputError

DATA = Path(__file__).parent / "data"
OLD_DEMO = DATA / "heeg-demo-f90c1a3.xlsx"
OLD_TEMPLATE = DATA / "heeg-season-f90c1a3.xlsx"


def _today(tmp_path: Path, blank: bool) -> Path:
    path = tmp_path / ("today-blank.xlsx" if blank else "today.xlsx")
    heeg_workbook(blank, language="en").save(path)
    return path


def _values(path: Path) -> dict[tuple[str, str], object]:
    """Every non-empty value of the season's sheets (the How to text is the release's own; the
    record of the last recalculation keeps each file's own history: which cells were typed)."""
    wb = load_workbook(path)
    out = {}
    for ws in wb.worksheets:
        if ws.title in ("How to", "Corrections", "xlbridge"):
            continue
        for row in ws.iter_rows():
            for c in row:
                if c.value is not None:
                    out[(ws.title, c.coordinate)] = c.value
    return out


def _same(a: object, b: object) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def _assert_same_values(old: Path, new: Path) -> None:
    a, b = _values(old), _values(new)
    assert a.keys() == b.keys()
    differ = {k: (a[k], b[k]) for k in a if not _same(a[k], b[k])}
    assert not differ, list(differ.items())[:5]


@pytest.mark.slow
def test_the_shipped_demo_of_f90c1a3_recalculates_to_todays_values(tmp_path):
    old = tmp_path / "old.xlsx"
    shutil.copy(OLD_DEMO, old)
    report = recalc_path(old, when="2026-01-20 20:00")
    assert report.kind == "heeg" and report.changes == []  # every computed value was already right
    new = _today(tmp_path, blank=False)
    recalc_path(new, when="2026-01-20 20:00")
    _assert_same_values(old, new)
    assert len(_values(old)) > 10_000


def _type_a_season(path: Path) -> None:
    """A small season typed into a blank workbook: two periods, lines A (6 pairs)
    and B (4 pairs); recalculated once to get the evening sheets, then the MP."""
    wb = load_workbook(path)
    ws = wb["Season"]
    ws["B4"], ws["B5"] = "2026/2027", "A, B"
    ws["C12"], ws["D12"], ws["C13"] = dt.datetime(2026, 10, 7), dt.datetime(2026, 10, 14), dt.datetime(2026, 10, 21)
    for pair in range(1, 11):
        ws.cell(row=16 + pair, column=1, value=pair)
        ws.cell(row=16 + pair, column=2, value=f"Pair {pair} names")
        for col in (3, 4, 5):
            ws.cell(row=16 + pair, column=col, value="A" if pair <= 6 else "B")
    wb.save(path)
    recalc_path(path, backup=False, when="t")
    wb = load_workbook(path)
    for number, name in enumerate(("Evening 2026-10-07", "Evening 2026-10-14", "Evening 2026-10-21")):
        ev = wb[name]
        for row, mp in enumerate([48, 46, 44, 42, 40, 38, 30, 26, 22, 18], start=2):
            ev.cell(row=row, column=12, value=mp - number)
        ev["N3"] = ["a", "1", "2"][number]  # (no "s": a line of 6 pairs has no sit-out)
        ev["L3"] = None if number == 0 else 20
        for col, mp in zip(range(4, 10), (8, 6, 8, 4, 6, 8)):  # pair 7 types its rounds
            ev.cell(row=8, column=col, value=mp - number)
    wb.save(path)
    recalc_path(path, backup=False, when="t")


@pytest.mark.slow
def test_a_season_typed_into_the_template_of_f90c1a3(tmp_path):
    old = tmp_path / "old.xlsx"
    shutil.copy(OLD_TEMPLATE, old)
    new = _today(tmp_path, blank=True)
    for path in (old, new):
        _type_a_season(path)
    _assert_same_values(old, new)
    assert load_workbook(old)["Evening 2026-10-21"]["P2"].value == pytest.approx(46 / 96 * 100)
    # a late correction changes the same cells in both
    for path in (old, new):
        wb = load_workbook(path)
        wb["Evening 2026-10-07"]["L2"] = 30
        wb.save(path)
    changes = [[(c.sheet, c.cell, c.old, c.new) for c in recalc_path(path, backup=False, when="t").changes]
               for path in (old, new)]
    assert changes[0] == changes[1] and changes[0]
    _assert_same_values(old, new)


@pytest.mark.slow
def test_bad_input_in_an_old_file_is_named_as_in_a_new_one(tmp_path):
    messages = []
    for source in (OLD_TEMPLATE, None):
        path = tmp_path / ("old.xlsx" if source else "new.xlsx")
        if source:
            shutil.copy(source, path)
        else:
            heeg_workbook(True, language="en").save(path)
        _type_a_season(path)
        found = []
        for boards in (0, 4):
            wb = load_workbook(path)
            wb["Evening 2026-10-14"]["E5"] = "1O3"
            wb["Evening 2026-10-14"]["N6"] = "x"
            wb["Season"]["B7"] = boards
            wb.save(path)
            with pytest.raises(BookInputError) as caught:
                recalc_path(path, backup=False)
            found.append([str(p) for p in caught.value.problems])
        messages.append(found)
    assert messages[0] == messages[1] == [
        ["Season, B7: boards per round 0 is not a whole number from 1",
         "Evening 2026-10-14, E5: MP '1O3' in round 2 is not a number",
         # every problem at once (issue 14, point 7): the Season problem no longer hides the inv code
         "Evening 2026-10-14, N6: inv code 'x' is not one of 1, 2, 0, a, s, s1, = or blank"],
        ["Evening 2026-10-14, E5: MP '1O3' in round 2 is not a number",
         "Evening 2026-10-14, N6: inv code 'x' is not one of 1, 2, 0, a, s, s1, = or blank"],
    ]
