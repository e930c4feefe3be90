"""The record is this workbook's, and bounded (issue 25, point 13).

On main before this work a record claiming 100,000 typed cells gave 100,000 phantom "your change" rows
(and every later run was refused at Corrections, A100001), and another workbook's record, its sheet
copied in, 131 phantom rows with no warning.  Now such a record is set aside with a warning, and the
run goes on as without a record.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from tools.attacks.sheets import corrections_causes, phantom_record, record_of, with_record
from xlbridge.files.headless import recalc_path

FOREIGN_CODE, TOO_LARGE_CODE = "recalc.record-foreign", "recalc.record-too-large"
FOREIGN_MIN, MAX_RECORD_CELLS = 20, 2_000_000  # (record.py's; literal here, so that the tests also run on main)


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory, built_once) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("sources")
    return {"tbf": built_once("tbf-club", folder / "tbf.xlsx", language="en"),
            "heeg": built_once("heeg", folder / "heeg.xlsx", language="en"),
            "heeg-blank": built_once("heeg", folder / "blank.xlsx", blank=True, language="en"),
            "bm": built_once("bridgemania", folder / "bm.xlsx", language="en")}


def _record_warnings(report) -> list[str]:
    return [w.code for w in report.warnings if w.sheet == "xlbridge"]


def _set_aside(path: Path, code: str) -> None:
    report = recalc_path(path, when="T1", backup=False)
    assert _record_warnings(report) == [code]
    assert report.typed == [] and "your change" not in corrections_causes(path)
    again = recalc_path(path, when="T2", backup=False)  # the new record is this workbook's
    assert _record_warnings(again) == [] and again.typed == []


@pytest.mark.slow
def test_the_record_names_its_kind(sources) -> None:
    assert record_of(sources["heeg"])["k"] == "heeg" and record_of(sources["bm"])["k"] == "bridgemania"


def test_a_record_claiming_100000_typed_cells_is_set_aside(sources, tmp_path: Path) -> None:
    path = phantom_record(sources["tbf"], tmp_path / "phantom.xlsx", 100_000)
    _set_aside(path, FOREIGN_CODE)


def test_another_workbook_s_record_copied_in_is_set_aside(sources, tmp_path: Path) -> None:
    path = with_record(sources["heeg-blank"], tmp_path / "copied.xlsx", record_of(sources["heeg"]))
    _set_aside(path, FOREIGN_CODE)


def _documented(code_id: str) -> str:
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text("utf-8")
    match = re.search(rf"^\| `{code_id}` \|[^|]*\| `([^`]+)` \|", text, re.M)
    assert match, code_id
    return match[1]


@pytest.mark.slow
def test_the_warnings_are_the_catalogue_s(sources, tmp_path: Path) -> None:
    path = with_record(sources["heeg-blank"], tmp_path / "copied.xlsx", record_of(sources["heeg"]))
    assert [str(w) for w in recalc_path(path, backup=False).warnings] == [_documented("W-RECORD-FOREIGN")]
    record = record_of(sources["tbf"])
    record["s"]["Tournament"]["t"].append([300, 1, [0] * MAX_RECORD_CELLS])
    path = with_record(sources["tbf"], tmp_path / "huge.xlsx", record)
    assert [str(w) for w in recalc_path(path, backup=False).warnings] == [_documented("W-RECORD-TOO-LARGE")]


@pytest.mark.slow
def test_a_record_of_another_kind_is_set_aside(sources, tmp_path: Path) -> None:
    path = with_record(sources["bm"], tmp_path / "heeg-record.xlsx", record_of(sources["heeg"]))
    _set_aside(path, FOREIGN_CODE)


@pytest.mark.slow
def test_a_record_of_more_than_the_bound_is_set_aside(sources, tmp_path: Path) -> None:
    record = record_of(sources["tbf"])
    record["s"]["Tournament"]["t"].append([300, 1, [0] * MAX_RECORD_CELLS])
    _set_aside(with_record(sources["tbf"], tmp_path / "huge.xlsx", record), TOO_LARGE_CODE)


def test_a_record_outside_excel_s_sheet_is_damaged(sources, tmp_path: Path) -> None:
    record = record_of(sources["tbf"])
    record["s"]["Tournament"]["t"].append([1_048_577, 1, [1]])
    _set_aside(with_record(sources["tbf"], tmp_path / "far.xlsx", record), "recalc.record-damaged")


def test_the_scorer_s_own_corrections_are_still_listed(sources, tmp_path: Path) -> None:
    """The control: FOREIGN_MIN typed cells changed (of about 60) are the scorer's changes, each listed."""
    path = tmp_path / "mine.xlsx"
    path.write_bytes(sources["tbf"].read_bytes())
    wb = load_workbook(path)
    ws = wb["Tournament"]
    for row in range(9, 9 + FOREIGN_MIN):
        ws.cell(row=row, column=3).value = 40 + row / 10  # the scores
    wb.save(path)
    report = recalc_path(path, when="T1", backup=False)
    assert _record_warnings(report) == [] and len(report.typed) == FOREIGN_MIN


def test_a_record_without_its_kind_is_a_damaged_one(sources, tmp_path: Path) -> None:
    """(No release wrote a record without its kind: xlbridge 0.1.0 was never released.)"""
    record = record_of(sources["tbf"])
    del record["k"]
    path = with_record(sources["tbf"], tmp_path / "kindless.xlsx", record)
    wb = load_workbook(path)
    wb["Tournament"]["C9"] = 12.5
    wb.save(path)
    _set_aside(path, "recalc.record-damaged")


def test_the_bounds_here_are_record_py_s() -> None:
    from xlbridge.workbooks import record

    assert (record.FOREIGN_CODE, record.TOO_LARGE_CODE, record.FOREIGN_MIN, record.MAX_RECORD_CELLS) == (
        FOREIGN_CODE, TOO_LARGE_CODE, FOREIGN_MIN, MAX_RECORD_CELLS)
