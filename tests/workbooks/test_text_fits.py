"""Every text shows whole in its cell (issue 26, point 6): each label, header, caption and sentence
xlbridge writes, measured with the font's metrics against its column (merged cells and wrapped rows
included; tests/textfit.py says how) -- over every shipped workbook and template, every kind built in
every language, and what ``next`` and ``recalc`` write."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.heegseason import add_evening, type_pairs
from tests.textfit import cut, cuts
from xlbridge.cli import main
from xlbridge.workbooks.kinds import workbooks
from xlbridge.workbooks.style import fit_row

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "workbooks").glob("*.xlsx")) + sorted((ROOT / "templates").glob("*.xlsx"))
LANGUAGES = ("en", "nl", "it", "sv", "tr")


def _shown(found) -> list[str]:
    return [str(c) for c in found]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_text_of_a_shipped_file_fits(path):
    assert _shown(cuts(load_workbook(path))) == []


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", sorted(workbooks()))
def test_every_text_fits_in_every_language(tmp_path, kind, language, built_once):
    for blank in (False, True):
        path = built_once(kind, tmp_path / f"{kind}-{blank}.xlsx", blank=blank, language=language)
        assert _shown(cuts(load_workbook(path))) == [], (kind, language, blank)


@pytest.mark.slow
def test_what_next_and_recalc_write_fits(tmp_path):
    heeg = tmp_path / "heeg.xlsx"
    shutil.copy(ROOT / "templates/heeg-season.xlsx", heeg)
    type_pairs(heeg)
    add_evening(heeg, "2026-09-03")
    assert main(["recalc", str(heeg)]) == 0
    bm = tmp_path / "bm.xlsx"
    shutil.copy(ROOT / "workbooks/bridgemania-demo.xlsx", bm)
    wb = load_workbook(bm)
    guests = wb["Stagione"]
    row = next(r for r in range(5, 20) if guests.cell(r, 7).value)
    guests.cell(row, 8, "Ospiti di Milano (Piero / Ornella)")  # a long guest name (the issue's)
    fit_row(guests, guests.cell(row, 8))  # as Excel and LibreOffice grow the row of a wrapped cell as it is typed
    wb.save(bm)
    assert main(["next", str(bm)]) == 0  # (recalculates too)
    for path in (heeg, bm):
        assert _shown(cuts(load_workbook(path))) == [], path.name


def test_the_measure_sees_a_cut_label(tmp_path):
    """The check itself: a label cut by the value beside it, a word broken inside a narrow wrapped
    column, and a caption that spills over empty cells (not cut)."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment

    ws = Workbook().active
    ws["A1"], ws["B1"] = "Championship", "yes"  # 85 px of regular text in a column of 64 px
    ws["A2"] = "A caption that runs over the empty cells right of it"
    ws["D3"] = "Board"
    ws["D3"].alignment = Alignment(wrap_text=True)
    ws.column_dimensions["D"].width = 2
    assert [(c.cell, c.why.split(":")[0]) for c in cut(ws)] == [
        ("A1", "85 px of text in 58 px, and B1 beside it is filled"), ("D3", "a word is 36 px wide in 13 px")]
