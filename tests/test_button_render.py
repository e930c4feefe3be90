"""LibreOffice draws the button shape: a workbook with a button (before and after a
headless recalculation), converted to PDF, shows the button's label; the same
workbook without the button does not (the control).  (A button says it is not printed,
``fPrintsWithSheet="0"``, which Excel honours; LibreOffice 7.4 reads that attribute but
prints every shape, so its PDF shows the shape as drawn: tests/excel/test_button_layout.py.)"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from openpyxl import Workbook

from xlbridge.excel import button
from xlbridge.files.headless import recalc_path

sys.path.insert(0, str(Path(__file__).parent))  # how this project runs LibreOffice (tests/test_libreoffice.py)
from test_libreoffice import PROFILE_XCU, pdf_text, run_soffice, soffice  # noqa: E402

LABEL = "Recalculate season"
UNIQUE = "Tap here 4711"  # a label no cell of the shipped workbooks holds


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory, built_once) -> dict[str, str]:
    if soffice() is None:
        pytest.skip("LibreOffice (soffice) is not installed here: apt-get install libreoffice-calc-nogui")
    if shutil.which("pdftotext") is None:
        pytest.importorskip("pypdf", reason="neither pdftotext (poppler-utils) nor pypdf is installed")
    base = tmp_path_factory.mktemp("buttons")
    stage, outdir, profile = base / "in", base / "out", base / "profile"
    for folder in (stage, outdir, profile / "user"):
        folder.mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(PROFILE_XCU, encoding="utf-8")

    wb = Workbook()
    ws = wb.active
    ws.title = "Season"
    ws["A1"] = "Pair"
    ws["A12"] = "the last row"
    wb.save(stage / "control.xlsx")
    shutil.copy2(stage / "control.xlsx", stage / "plain.xlsx")
    button.add_button(stage / "plain.xlsx", "Season", name="xlbridge_button", label=LABEL, cell="B2")

    club = built_once("tbf-club", stage / "club.xlsx", language="en")
    button.add_button(club, "Tournament", name="unique_button", label=UNIQUE, cell="H2")
    shutil.copy2(club, stage / "recalculated.xlsx")
    recalc_path(stage / "recalculated.xlsx", backup=False, when="2026-11-30 12:00")
    assert UNIQUE in [b["label"] for b in button.buttons(stage / "recalculated.xlsx")]

    files = [stage / f"{name}.xlsx" for name in ("control", "plain", "club", "recalculated")]
    run_soffice(profile, "pdf", outdir, files)
    return {path.stem: words(pdf_text(outdir / f"{path.stem}.pdf")) for path in files}


@pytest.mark.slow
def test_the_control_has_no_label(pdfs):
    assert LABEL not in pdfs["control"] and "Pair" in pdfs["control"]


@pytest.mark.slow
def test_the_button_prints_its_label(pdfs):
    assert LABEL in pdfs["plain"], pdfs["plain"][:500]


@pytest.mark.parametrize("name", ["club", "recalculated"])
def test_the_button_of_a_built_workbook_prints_before_and_after_a_recalculation(pdfs, name):
    assert UNIQUE in pdfs[name], pdfs[name][:800]

