"""Issue 25, points 1-5: wrong results without a word, each on a fresh ``xlbridge new KIND --lang en`` workbook.

1. Heeg: a round above the round's maximum (boards per round x the line's top) inside an evening total under
   the evening's maximum; 2. a formula in any typed cell (a BridgeMania Name, an event sheet's Names); 3. the
   BridgeMania tournament list out of date order; 4. BridgeMania board scores off the 0-2-4-...-TOP scale;
5. ids typed with a space before or after them (a warning; compared without it) and Heeg evenings out of order.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from xlbridge.clubs import bridgemania as bm
from xlbridge.clubs.heeg import HeegInputError, HeegSettings, Period, compute
from xlbridge.rules.problems import RuleError
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.recalc import BookInputError, recalculate

from tests.clubs.bridgemania.test_engine import season, tournament

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text(encoding="utf-8")
EVENING = "Evening 2025-09-04"  # pair p on row p + 1: pair 2 has R1 9, total 84 of 288 (29.17 %)


@pytest.fixture(scope="module")
def heeg(tmp_path_factory, built_once) -> Path:
    return built_once("heeg", tmp_path_factory.mktemp("heeg") / "heeg.xlsx", language="en")


@pytest.fixture(scope="module")
def bridgemania(tmp_path_factory, built_once) -> Path:
    return built_once("bridgemania", tmp_path_factory.mktemp("bm") / "bm.xlsx", language="en")


def edited(path: Path, **sheets: dict[str, object]):
    """The workbook with ``{sheet: {cell: value}}`` typed in (``_`` in a sheet name for a space)."""
    wb = load_workbook(path)
    for sheet, cells in sheets.items():
        for ref, value in cells.items():
            wb[sheet.replace("_", " ")][ref] = value
    return wb


def problems(wb) -> list[tuple[str, str | None, str, str]]:
    with pytest.raises(BookInputError) as caught:
        recalculate(OpenpyxlBook(wb), when="t")
    return [(p.sheet, p.cell, p.code, p.message) for p in caught.value.problems]


# ------------------------------------------------------------------ 1. a round above its maximum


@pytest.mark.parametrize("typed", [90, 49])
@pytest.mark.slow
def test_a_round_above_the_rounds_maximum_is_a_problem_at_its_cell(heeg, typed):
    wb = edited(heeg, **{EVENING.replace(" ", "_"): {"D3": typed}})
    assert problems(wb) == [(EVENING, "D3", "heeg.round.above-max", f"MP {typed} in round 1 is above the round's "
                             "maximum 48 (4 boards x the line's top 12)")]


def test_a_round_at_the_maximum_is_recalculated(heeg):
    wb = edited(heeg, **{EVENING.replace(" ", "_"): {"D3": 48}})
    recalculate(OpenpyxlBook(wb), when="t")
    assert wb[EVENING]["L3"].value == 84 - 9 + 48 and round(wb[EVENING]["P3"].value, 2) == 42.71


def test_the_engine_checks_the_rounds_of_a_frame_too():
    settings = HeegSettings(periods=(Period("1", ("2025-09-04",)),))  # 4 pairs: top 2, 4 boards: 8 a round
    rows = [{"date": "2025-09-04", "pair": p, "line": "A", "mp": mp, "code": "", "r1": r1}
            for p, mp, r1 in zip(range(1, 5), (30, 22, 24, 20), (9, 8, 0, None))]
    with pytest.raises(HeegInputError) as caught:
        compute(rows, settings)
    assert [(p.code, p.pair, p.field) for p in caught.value.problems] == [("heeg.round.above-max", 1, "r1")]
    rows[0]["r1"] = "nine"
    with pytest.raises(HeegInputError) as caught:
        compute(rows, settings)
    assert [p.code for p in caught.value.problems] == ["heeg.round.not-a-number"]


# ------------------------------------------------------------------ 2. a formula in any typed cell


@pytest.mark.slow
def test_a_name_built_by_a_formula_is_a_problem_at_its_cell(bridgemania):
    wb = edited(bridgemania, Season={"D14": '=B14&" & "&C14'})
    assert [p[:3] for p in problems(wb)] == [("Season", "D14", "cell.formula")]


@pytest.mark.parametrize("sheet, ref", [("T01", "B3"), ("T01", "C9"), ("Season", "K6"), ("Season", "B2"),
                                        ("Participation", "B4")])
@pytest.mark.slow
def test_a_formula_in_any_typed_bridgemania_cell_is_the_same_problem(bridgemania, sheet, ref):
    wb = edited(bridgemania, **{sheet: {ref: "=A1"}})
    assert [p[:3] for p in problems(wb)] == [(sheet, ref, "cell.formula")]


def test_a_formula_in_an_event_sheets_names_is_a_problem_at_its_cell(tmp_path, built_once):
    wb = edited(built_once("tbf-club", tmp_path / "tbf.xlsx", language="en"), Tournament={"B12": "=B11"})
    assert [p[:3] for p in problems(wb)] == [("Tournament", "B12", "cell.formula")]


# ------------------------------------------------------------------ 3. the tournament list in date order


def test_the_tournament_list_out_of_date_order_is_a_problem_naming_both_rows(bridgemania):
    wb = load_workbook(bridgemania)
    ws = wb["Season"]
    for col in "JKL":  # T04 (row 8) and T05 (row 9) swapped, each row whole
        ws[f"{col}8"].value, ws[f"{col}9"].value = ws[f"{col}9"].value, ws[f"{col}8"].value
    assert problems(wb) == [("Season", "K9", "bm.season.date-order", "T04 (2019-11-08) is listed after T05 "
                             "(2019-11-22, row 8): list the tournaments in date order, as the standings after each "
                             "tournament follow the list")]


def test_one_mistyped_date_is_one_problem_naming_both_rows(bridgemania):
    wb = edited(bridgemania, Season={"K6": dt.datetime(2020, 10, 4)})  # T02 2019-10-04 typed a year late
    assert [p[:3] for p in problems(wb)] == [("Season", "K7", "bm.season.date-order")]


def test_a_tournament_date_that_is_no_date_is_a_problem(bridgemania):
    wb = edited(bridgemania, Season={"K6": "soon"})
    assert [p[:3] for p in problems(wb)] == [("Season", "K6", "bm.season.date")]


# ------------------------------------------------------------------ 4. the 0-2-4-...-TOP scale


def test_board_scores_off_the_scale_are_a_problem_each(bridgemania):
    wb = edited(bridgemania, T01={"E9": 2.5, "E14": 7.5})  # BE 2 and PR 8 on board 1: the board still adds up
    assert [p[:3] for p in problems(wb)] == [("T01", "E9", "bm.score.scale"), ("T01", "E14", "bm.score.scale")]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 8), st.sampled_from([0.5, 0.25, 0.1, 0.75]))
def test_a_whole_score_is_on_the_scale_and_a_fraction_is_not(whole, part):
    t = tournament("T1")
    scores = {k: list(v) for k, v in t.scores.items()}
    first = next(iter(scores))
    top = 2 * (len(scores) // 2 - 1)
    for value, off in ((min(whole, top), False), (min(whole, top - 1) + part, True)):
        scores[first][0] = value
        try:
            bm.recalculate(season(dataclasses.replace(t, scores=scores)))
            codes = set()
        except bm.SeasonError as error:
            codes = {p.code for p in error.problems}
        assert ("bm.score.scale" in codes) is off


def test_bm_pct_takes_the_same_scale():
    with pytest.raises(RuleError) as caught:
        bm.bm_pct([8, 2.5, 4], 8)
    assert caught.value.problem.code == "bm.pct.score-scale"
    assert bm.bm_pct([8, 3, 4], 8) == 62.5  # a tie


# ------------------------------------------------------------------ 5. spaces around ids, evenings in order


def documented(code_id: str) -> str:
    match = re.search(rf"^\| `{code_id}` \|[^|]*\| `([^`]+)` \|", DOCS, re.M)
    assert match, code_id
    return match[1]


@pytest.mark.slow
def test_a_pair_typed_with_a_space_is_a_warning_and_the_same_pair(heeg):
    plain = load_workbook(heeg)
    recalculate(OpenpyxlBook(plain), when="t")
    wb = edited(heeg, **{EVENING.replace(" ", "_"): {"A4": "3 "}}, Season={"A19": " 3"},
                Chart={"B3": "3 "})
    report = recalculate(OpenpyxlBook(wb), when="t")
    assert [(w.sheet, w.cell, w.code) for w in report.warnings] == [
        ("Season", "A19", "cell.spaced"), (EVENING, "A4", "cell.spaced"), ("Chart", "B3", "cell.spaced")]
    assert report.warnings[1].message == "'3 ' has a space before or after it; it is read as '3' (delete the space)"
    assert [c.value for c in wb[EVENING][4]][1:20] == [c.value for c in plain[EVENING][4]][1:20]  # pair 3's


def test_a_bridgemania_id_typed_with_a_space_is_a_warning(bridgemania):
    wb = edited(bridgemania, T01={"A9": "BE "}, Season={"L6": " LS"})
    report = recalculate(OpenpyxlBook(wb), when="t")
    assert [(w.sheet, w.cell, w.code) for w in report.warnings] == [("Season", "L6", "cell.spaced"),
                                                                     ("T01", "A9", "cell.spaced")]
    assert report.warnings[1].message == documented("W-ID-SPACED").split(": ", 1)[1].replace("'A", "'BE")


def test_an_event_sheets_unit_typed_with_a_space_is_a_warning(tmp_path, built_once):
    wb = edited(built_once("tbf-club", tmp_path / "tbf.xlsx", language="en"), Tournament={"A12": " 4"})
    report = recalculate(OpenpyxlBook(wb), when="t")
    assert [(w.sheet, w.cell, w.code) for w in report.warnings] == [("Tournament", "A12", "cell.spaced")]


@pytest.mark.parametrize("cells, at, before", [
    ({"C12": dt.datetime(2025, 9, 11), "D12": dt.datetime(2025, 9, 4)}, "D12", "2025-09-11 (C12)"),  # in a period
    ({"C13": dt.datetime(2025, 10, 9), "H12": dt.datetime(2025, 10, 16)}, "C13", "2025-10-16 (H12)"),  # across
    ({"D12": dt.datetime(2026, 9, 11)}, "E12", "2026-09-11 (D12)"),  # a year late: one problem, after it
])
def test_heeg_evenings_out_of_date_order_are_a_problem(heeg, cells, at, before):
    found = problems(edited(heeg, Season=cells))
    assert [p[:3] for p in found] == [("Season", at, "heeg.periods.date-order")]
    assert f"is listed after {before}: list the evenings in date order" in found[0][3]
