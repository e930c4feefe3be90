"""The sheet names xlbridge owns and Excel's rules for a sheet name (issue 25, points 6, 7, 9, 10).

Each case failed on main before this work: ``next --name Corrections`` was added (and the next
recalculation's Corrections rows landed in it), a scorer's own sheet ``xlbridge`` was overwritten by
the record, ``XLBridge`` / ``CORRECTIONS`` / ``--name t14`` raised ``KeyError``, and a 5,000-character
or ``'quoted'`` name was written.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from tools.attacks.sheets import renamed, with_sheet
from xlbridge.files.headless import next_sheet_path, recalc_path
from xlbridge.language import LANGUAGES, sheet_name
from xlbridge.workbooks.plan import BookInputError
from xlbridge.workbooks.localised import SHEET_NAMES


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory, built_once) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("sources")
    return {kind: built_once(kind, folder / f"{kind}.xlsx", language="en")
            for kind in ("heeg", "bridgemania", "tbf-club", "se-masterpoints")}


def _copy(source: Path, tmp_path: Path, name: str = "book.xlsx") -> Path:
    target = tmp_path / name
    target.write_bytes(source.read_bytes())
    return target


def _refused(call, path: Path) -> list[tuple[str, str | None, str]]:
    """The problems of a refused run (sheet, cell, code); the file byte for byte, no backup."""
    before = path.read_bytes()
    with pytest.raises(BookInputError) as raised:
        call()
    assert path.read_bytes() == before
    assert not path.with_name(f"{path.stem}.backup{path.suffix}").exists()
    return [(p.sheet, p.cell, p.code) for p in raised.value.problems]


# ------------------------------------------------------------------ 6 and 10: next --name


@pytest.mark.parametrize("name", ["Corrections", "Messages", "corrections", "Correcties", "MESSAGGI", "Mesajlar",
                                  "Rättelser", "History"])
@pytest.mark.slow
def test_next_refuses_xlbridge_s_own_names_in_every_language_and_case(sources, tmp_path: Path, name: str) -> None:
    path = _copy(sources["bridgemania"], tmp_path)
    assert _refused(lambda: next_sheet_path(path, name=name), path) == [("Season", "J19", "sheet.name.reserved")]


@pytest.mark.parametrize("name, code", [
    ("x" * 5000, "sheet.name.too-long"), ("y" * 32, "sheet.name.too-long"), ("'quoted'", "sheet.name.apostrophe"),
    ("it's'", "sheet.name.apostrophe"), ("a/b", "sheet.name.character"), ("T[15]", "sheet.name.character"),
    ("a:b", "sheet.name.character"), ("a?*", "sheet.name.character"), ("back\\slash", "sheet.name.character")])
@pytest.mark.slow
def test_next_follows_excel_s_sheet_name_rules(sources, tmp_path: Path, name: str, code: str) -> None:
    path = _copy(sources["bridgemania"], tmp_path)
    assert _refused(lambda: next_sheet_path(path, name=name), path) == [("Season", "J19", code)]


@pytest.mark.parametrize("name, where", [("t14", ("Season", "J18")), ("T14", ("Season", "J18"))])
def test_next_tells_names_apart_without_case_as_excel_does(sources, tmp_path: Path, name: str, where) -> None:
    path = _copy(sources["bridgemania"], tmp_path)
    assert _refused(lambda: next_sheet_path(path, name=name), path) == [(*where, "bm.next.exists")]


@pytest.mark.parametrize("name", ["xlbridge", "XLBRIDGE", "chart", "messaggi"])
def test_a_name_xlbridge_keeps_is_refused_as_such_even_where_a_sheet_has_it(sources, tmp_path: Path,
                                                                           name: str) -> None:
    """Every workbook has its Messages sheet and its record: their names are refused for being xlbridge's
    (in any language and case), not for being there."""
    path = _copy(sources["bridgemania"], tmp_path)
    assert _refused(lambda: next_sheet_path(path, name=name), path) == [("Season", "J19", "sheet.name.reserved")]


@pytest.mark.slow
def test_a_name_of_31_characters_is_added(sources, tmp_path: Path) -> None:
    path = _copy(sources["bridgemania"], tmp_path)
    found = next_sheet_path(path, name="z" * 31, backup=False)
    assert found.sheet == "z" * 31 and "z" * 31 in load_workbook(path).sheetnames


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=40))
def test_a_name_that_passes_is_one_excel_takes(name: str) -> None:
    from xlbridge.workbooks.sheetnames import FORBIDDEN, name_problem, owned

    if name_problem(name) is None:
        assert 0 < len(name) <= 31 and not set(name) & set(FORBIDDEN) and name[0] != "'" != name[-1]
        assert name.casefold() not in owned() and name.casefold() != "history"


def test_xlbridge_owns_every_declared_sheet_name_in_every_language() -> None:
    from xlbridge.workbooks.sheetnames import owned

    names = owned()
    for language in LANGUAGES:
        for english in SHEET_NAMES:
            assert names[sheet_name(english, language).casefold()] == sheet_name(english, language)
    assert names["xlbridge"] == "xlbridge"


# ------------------------------------------------------------------ 7 and 9: a scorer's sheets


@pytest.mark.parametrize("kind", ["heeg", "bridgemania", "tbf-club", "se-masterpoints"])
@pytest.mark.slow
def test_a_scorer_s_own_sheet_named_xlbridge_is_a_problem_never_overwritten(sources, tmp_path: Path,
                                                                            kind: str) -> None:
    path = with_sheet(sources[kind], tmp_path / "own.xlsx", "xlbridge", replace="xlbridge")
    assert _refused(lambda: recalc_path(path), path) == [("xlbridge", None, "sheet.name.not-the-record")]
    sheet = load_workbook(path)["xlbridge"]
    assert (sheet["A1"].value, sheet["B2"].value, sheet.sheet_state) == ("my own notes", 42, "visible")


@pytest.mark.parametrize("kind, title, replace", [
    ("tbf-club", "XLBridge", "xlbridge"), ("tbf-club", "CORRECTIONS", None), ("heeg", "CORRECTIONS", None),
    ("heeg", "messages", "Messages"), ("se-masterpoints", "MESSAGES", "Messages"), ("bridgemania", "corrections", None)])
@pytest.mark.slow
def test_a_sheet_named_like_xlbridge_s_own_in_another_case_is_a_problem(sources, tmp_path: Path, kind: str,
                                                                        title: str, replace: str | None) -> None:
    path = with_sheet(sources[kind], tmp_path / "case.xlsx", title, replace=replace)
    assert _refused(lambda: recalc_path(path), path) == [(title, None, "sheet.name.case")]


@pytest.mark.slow
def test_the_season_sheet_in_another_case_and_in_dutch(sources, tmp_path: Path, built_once) -> None:
    path = renamed(sources["heeg"], tmp_path / "season.xlsx", "Season", "season")
    assert _refused(lambda: recalc_path(path), path) == [("season", None, "sheet.name.case")]
    dutch = built_once("heeg", tmp_path / "nl.xlsx", language="nl")
    path = with_sheet(dutch, tmp_path / "correcties.xlsx", "CORRECTIES")
    before = path.read_bytes()
    with pytest.raises(BookInputError) as raised:
        recalc_path(path)
    assert [(p.sheet, p.code) for p in raised.value.problems] == [("CORRECTIES", "sheet.name.case")]
    assert raised.value.language == "nl" and path.read_bytes() == before


@pytest.mark.slow
def test_next_refuses_a_workbook_with_a_misnamed_sheet(sources, tmp_path: Path) -> None:
    path = with_sheet(sources["bridgemania"], tmp_path / "case.xlsx", "CORRECTIONS")
    assert _refused(lambda: next_sheet_path(path), path) == [("CORRECTIONS", None, "sheet.name.case")]


def test_a_damaged_record_is_still_the_record(sources, tmp_path: Path) -> None:
    """The record's title in A1 (or its cells in column A) say it is xlbridge's: a warning, a new record."""
    path = _copy(sources["tbf-club"], tmp_path)
    wb = load_workbook(path)
    wb["xlbridge"]["A2"] = "I looked in here"
    wb.save(path)
    report = recalc_path(path, backup=False)
    assert [w.code for w in report.warnings if w.sheet == "xlbridge"] == ["recalc.record-damaged"]


@pytest.mark.slow
def test_a_scorer_s_sheet_named_chart_in_a_dutch_workbook_is_left_alone(tmp_path: Path, built_once) -> None:
    """Only the workbook's own language's names are refused on a scorer's sheets (docs/reliability.md)."""
    path = with_sheet(built_once("heeg", tmp_path / "nl.xlsx", language="nl"), tmp_path / "chart.xlsx", "Corrections")
    report = recalc_path(path, backup=False)
    assert report.kind == "heeg"
    assert load_workbook(path)["Corrections"]["B2"].value == 42


@pytest.mark.slow
def test_a_renamed_period_sheet_is_said_once_the_recalculation_adds_it_again(sources, tmp_path: Path) -> None:
    """"Period 1" renamed "Period one": xlbridge cannot follow a rename, adds "Period 1" again and fills it; the
    renamed copy keeps its old standings, which was said nowhere. Now a warning at its title, once; the Year and a
    sheet of the scorer's own with another title say nothing."""
    path = _copy(sources["heeg"], tmp_path)
    wb = load_workbook(path)
    wb["Period 1"].title = "Period one"
    wb.create_sheet("My notes")["A1"] = "Period 1 was a good one"  # (a title that only starts with the word)
    wb.save(path)
    report = recalc_path(path, backup=False)
    docs = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text(encoding="utf-8")
    documented = re.search(r"^\| `W-SHEET-RENAMED` \|[^|]*\| `([^`]+)` \|", docs, re.M)[1]
    assert [str(w) for w in report.warnings] == [documented]
    assert "Period 1" in load_workbook(path).sheetnames
    assert recalc_path(path, backup=False).warnings == []


@pytest.mark.slow
def test_an_evening_added_beside_others_is_no_renamed_sheet(tmp_path: Path) -> None:
    """The evening sheets' A1 is the header 'Pair', no title: a recalculation that adds an evening said every
    other evening was it renamed, and to delete it (the first W-SHEET-RENAMED: a sheet's title names it)."""
    import datetime as dt

    from xlbridge.excel.shipped import build

    path = build("heeg", tmp_path / "blank.xlsx", blank=True, language="en")
    wb = load_workbook(path)
    for row in range(17, 25):  # eight pairs, two lines
        for col, value in enumerate((row - 16, f"Player {row} - Player {row + 8}", "A" if row < 21 else "B"), 1):
            wb["Season"].cell(row, col, value)
    wb.save(path)
    next_sheet_path(path, day=dt.date(2026, 9, 3), backup=False)
    wb = load_workbook(path)
    wb["Season"]["D12"] = dt.datetime(2026, 9, 10)  # the next evening's date typed: the recalculation adds it
    wb.save(path)
    report = recalc_path(path, backup=False)
    assert "Evening 2026-09-10" in load_workbook(path).sheetnames
    assert [w.code for w in report.warnings if w.code == "sheet.name.renamed"] == []


@pytest.mark.slow
def test_a_deleted_evening_is_added_again_and_its_typed_results_are_said_and_kept(sources, tmp_path: Path) -> None:
    """An evening sheet deleted: the Season sheet lists it, so the recalculation adds it again -- empty, and the
    evening's 162 typed results went without a word (no warning, no Corrections row). Now a warning, and each lost
    cell a "your change" row with its pair, column and old value, as clearing the cells gives."""
    path = _copy(sources["heeg"], tmp_path)
    wb = load_workbook(path)
    held = {c.coordinate: c.value for row in wb["Evening 2025-09-11"].iter_rows() for c in row if c.value is not None}
    del wb["Evening 2025-09-11"]
    wb.save(path)
    report = recalc_path(path, backup=False)
    docs = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text(encoding="utf-8")
    documented = re.search(r"^\| `W-SHEET-DELETED` \|[^|]*\| `([^`]+)` \|", docs, re.M)[1]
    assert [str(w) for w in report.warnings] == [documented]
    lost = {(c.cell, c.old) for c in report.typed if c.sheet == "Evening 2025-09-11"}
    assert len(lost) == 162 and all(held[cell] == old for cell, old in lost)  # (what it held; not its pairs,
    assert not {cell for cell, _old in lost} & {f"{col}{row}" for col in "AB" for row in range(1, 40)}  # added again)
    rows = [[c.value for c in row] for row in load_workbook(path)["Corrections"].iter_rows(min_row=2)]
    mine = [row[1:] for row in rows if row[7] == "your change"]
    assert ["Evening 2025-09-11", "D3", 2, "R1", 17, None, "your change"] in mine and len(mine) == 162
    assert "Evening 2025-09-11" in load_workbook(path).sheetnames
    assert recalc_path(path, backup=False).warnings == []  # said once


@pytest.mark.slow
def test_a_missing_season_sheet_is_named_as_the_scorer_sees_the_sheets(tmp_path: Path, built_once) -> None:
    """An Italian BridgeMania workbook whose Stagione sheet was renamed: the message asked for a sheet named
    'Season' and listed 'Messages', 'Blank tournament', 'Championship' (sheets it does not have); renaming the sheet
    to 'Season' as told gave the same message again."""
    path = built_once("bridgemania", tmp_path / "bm.xlsx")  # in the club's language, Italian
    wb = load_workbook(path)
    wb["Stagione"].title = "Stagione 2019"
    wb.save(path)
    with pytest.raises(BookInputError) as caught:
        recalc_path(path, backup=False)
    from xlbridge.language import speaking

    with speaking(caught.value.language):  # (as the CLI and the Messages sheet say it)
        (message,) = [str(p) for p in caught.value.problems]
    assert message.startswith("Stagione: ") and "un foglio chiamato 'Stagione'" in message and "Stagione 2019, Messaggi, T01" in message
    assert "Torneo vuoto, Campionato" in message
    assert not re.search(r"\b(Season|Messages|Blank tournament|Championship|How to)\b", message), message
