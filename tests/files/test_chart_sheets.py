"""A chart sheet is carried through untouched (issue 25, point 8).

On main before this work every kind failed on a chart sheet (``AttributeError: 'Chartsheet' object has no
attribute '_cells'``) and an empty chart sheet failed inside openpyxl's load.  Now the chart sheet is in the
saved file, at its place among the sheets, with its parts (the sheet, its drawing, the chart) byte for byte.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tools.attacks.sheets import chart_sheet_names, other_parts, with_chart_sheet
from xlbridge.files.headless import next_sheet_path, recalc_path
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.plan import BookInputError


def _order(path: Path) -> list[str]:
    from xml.etree import ElementTree as ET

    with zipfile.ZipFile(path) as archive:
        root = ET.fromstring(archive.read("xl/workbook.xml"))
    return [s.get("name") for s in root.iter("{http://schemas.openxmlformats.org/spreadsheetml/2006/main}sheet")]


@pytest.mark.parametrize("kind", ["heeg", "bridgemania", "tbf-club", "se-masterpoints"])
@pytest.mark.slow
def test_a_chart_sheet_is_kept_byte_for_byte(tmp_path: Path, kind: str, built_once) -> None:
    path = with_chart_sheet(built_once(kind, tmp_path / "new.xlsx", language="en"), tmp_path / "chart.xlsx")
    before, order = other_parts(path), _order(path)
    assert before and order[-1] == "Chart1"
    recalc_path(path, backup=False)  # (a run always saves)
    assert other_parts(path) == before
    assert _order(path) == order and chart_sheet_names(path) == ["Chart1"]
    assert type(load_workbook(path)["Chart1"]).__name__ == "Chartsheet"


def test_an_empty_chart_sheet_is_kept_and_not_read(tmp_path: Path, built_once) -> None:
    path = with_chart_sheet(built_once("tbf-club", tmp_path / "new.xlsx", language="en"), tmp_path / "empty.xlsx",
                            empty=True)
    before = other_parts(path)
    recalc_path(path, backup=False)
    assert other_parts(path) == before and chart_sheet_names(path) == ["Chart1"]


def test_the_headless_adapter_reads_no_chart_sheet(tmp_path: Path, built_once) -> None:
    import io

    from xlbridge.files.othersheets import set_aside

    path = with_chart_sheet(built_once("tbf-club", tmp_path / "new.xlsx", language="en"), tmp_path / "chart.xlsx")
    for workbook in (load_workbook(path), load_workbook(io.BytesIO(set_aside(path.read_bytes())))):
        book = OpenpyxlBook(workbook)
        assert "Chart1" not in book.sheet_names() and book.other_sheets() == ["Chart1"]


def test_an_empty_chart_sheet_named_xlbridge_is_a_problem(tmp_path: Path, built_once) -> None:
    path = with_chart_sheet(built_once("tbf-club", tmp_path / "new.xlsx", language="en"), tmp_path / "x.xlsx",
                            "xlbridge", empty=True)
    before = path.read_bytes()
    with pytest.raises(BookInputError) as raised:
        recalc_path(path)
    assert [(p.sheet, p.code) for p in raised.value.problems] == [("xlbridge", "sheet.name.chart-sheet")]
    assert path.read_bytes() == before


@pytest.mark.slow
def test_new_tournament_keeps_the_chart_sheet_and_its_name(tmp_path: Path, built_once) -> None:
    path = with_chart_sheet(built_once("bridgemania", tmp_path / "new.xlsx", language="en"), tmp_path / "bm.xlsx")
    before = other_parts(path)
    next_sheet_path(path, backup=False)
    assert other_parts(path) == before and "T15" in _order(path) and chart_sheet_names(path) == ["Chart1"]
    with pytest.raises(BookInputError) as raised:
        next_sheet_path(path, name="CHART1")
    assert [p.code for p in raised.value.problems] == ["sheet.name.taken"]


def test_a_workbook_without_chart_sheets_is_read_as_it_is(tmp_path: Path, built_once) -> None:
    from xlbridge.files.othersheets import set_aside

    data = built_once("tbf-club", tmp_path / "new.xlsx", language="en").read_bytes()
    assert set_aside(data) is data


def test_openpyxl_failing_inside_its_load_is_a_message_not_a_traceback(tmp_path: Path, monkeypatch,
                                                                       built_once) -> None:
    """openpyxl's load failed on an empty chart sheet with an AttributeError the load did not catch."""
    import openpyxl

    from xlbridge.files.headless import FileProblem, check_bytes, load_checked

    def fails(*args, **kwargs):
        raise AttributeError("'list' object has no attribute 'find'")

    data = built_once("tbf-club", tmp_path / "new.xlsx", language="en").read_bytes()
    monkeypatch.setattr(openpyxl, "load_workbook", fails)
    with pytest.raises(FileProblem, match="is not a readable .xlsx workbook"):
        load_checked(data, "new.xlsx", check_bytes(data, "new.xlsx"))
