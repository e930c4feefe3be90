"""Every number that enters a rule has a range, and a located message outside it
(issue 14, point 5; docs/reliability.md, "Bounds of the numbers in rules")."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.clubs.heeg import HeegInputError, HeegSettings, Period, compute
from xlbridge.clubs.heeg.rules import heeg_c, heeg_pct
from xlbridge.excel import functions as fn
from xlbridge.language import _, sheet_name, speaking
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.rules.problems import RuleError
from xlbridge.values import as_number
from xlbridge.workbooks.heeg import heeg_workbook
from xlbridge.workbooks.recalc import BookInputError, recalculate


@pytest.fixture(scope="module")
def heeg(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("heeg") / "heeg.xlsx"
    heeg_workbook(False, language="en").save(path)  # the messages below are the English ones
    return path


@pytest.fixture(scope="module")
def heeg_nl(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("heeg_nl") / "heeg.xlsx"
    heeg_workbook(False).save(path)  # the club's language: Dutch
    return path


def located(path: Path, sheet: str, **cells) -> list[tuple[str, str | None, str, str]]:
    wb = load_workbook(path)
    for ref, value in cells.items():
        wb[sheet][ref] = value
    with pytest.raises(BookInputError) as caught:
        recalculate(OpenpyxlBook(wb))
    return [(p.sheet, p.cell, p.code, p.message) for p in caught.value.problems]


@pytest.mark.slow
@pytest.mark.parametrize(("ref", "value", "message"), [
    ("B6", 1e308, "rounds per evening 1e+308 is more than 30, the largest that makes sense"),
    ("B7", 10**25, "boards per round 10000000000000000000000000 is more than 36, the largest that makes sense"),
    ("B8", 1e308, "combi table top 1e+308 is more than 1,000, the largest that makes sense"),
    ("B12", 1e308, "promote/relegate 1e+308 is more than 1,000, the largest that makes sense"),
])
def test_a_huge_heeg_setting_is_one_message_at_its_cell(heeg, ref, value, message):
    assert located(heeg, "Season", **{ref: value}) == [("Season", ref, "heeg.season.too-large", message)]


TOO_LARGE = "{what} {value!r} is more than {maximum:,}, the largest that makes sense"


@pytest.mark.slow
@pytest.mark.parametrize(("ref", "value", "what", "maximum"), [
    ("B6", 1e308, "ronden per avond", 30),
    ("B7", 10**25, "spellen per ronde", 36),
    ("B8", 1e308, "top combitafel", 1000),
    ("B12", 1e308, "promotie/degradatie", 1000),
])
def test_a_huge_heeg_setting_is_one_message_at_its_cell_in_the_clubs_language(heeg_nl, ref, value, what, maximum):
    wb = load_workbook(heeg_nl)
    wb[sheet_name("Season", "nl")][ref] = value
    with pytest.raises(BookInputError) as caught:
        recalculate(OpenpyxlBook(wb))
    with speaking("nl"):
        shown = [(p.sheet, p.cell, p.code, str(p)) for p in caught.value.problems]
        message = _(TOO_LARGE).format(what=what, value=value, maximum=maximum)
    assert message != TOO_LARGE.format(what=what, value=value, maximum=maximum)  # in Dutch, not English
    assert shown == [("Season", ref, "heeg.season.too-large", f"Seizoen, {ref}: {message}")]


def test_heeg_settings_and_rows_beyond_their_range_are_problems_naming_the_field():
    settings = HeegSettings(periods=(Period("1", ("2025-09-02",)),), boards_per_round=10**25)
    assert [(p.code, p.field) for p in settings.check()] == [("heeg.settings.too-large", "boards_per_round")]
    ok = HeegSettings(periods=(Period("1", ("2025-09-02",)),), lines=("A",))
    rows = [{"date": "2025-09-02", "pair": p, "line": "A", "mp": 20, "code": "", "rounds": 1e308 if p == 1 else None,
             "max_mp": 1e308 if p == 2 else None} for p in range(1, 5)]
    with pytest.raises(HeegInputError) as info:
        compute(rows, ok)
    assert sorted((p.code, p.field) for p in info.value.problems) == [
        ("heeg.number.too-large", "max_mp"), ("heeg.number.too-large", "rounds")]


@pytest.mark.parametrize(("call", "code", "field"), [
    (lambda: heeg_pct(100, 288, "s", rounds=1e308), "heeg.number.too-large", "rounds"),
    (lambda: heeg_pct(100, 1e308, ""), "heeg.number.too-large", "max_mp"),
    (lambda: heeg_c(20, 1e308, 10), "heeg.number.too-large", "line_top"),
    (lambda: heeg_c(20, 8, 1e308), "heeg.number.too-large", "combi_top"),
    (lambda: heeg_c(1e308, 8, 10), "heeg.combi-mp.above-max", "combi_mp"),
])
def test_heeg_functions_name_the_argument_beyond_its_range(call, code, field):
    with pytest.raises(RuleError) as info:
        call()
    assert (info.value.problem.code, info.value.problem.field) == (code, field)


@pytest.mark.parametrize(("call", "start"), [
    (lambda: fn.tbf_mastery(1e308), "#xlbridge: mastery points: yellow MP 1e+308 is more than 1,000,000,000"),
    (lambda: fn.tbf_mastery(float("nan")), "#xlbridge: mastery points: yellow MP must be a number; got nan"),
    (lambda: fn.bm_pct([[8, 4, 6, 0]], 1e308), "#xlbridge: TOP 1e+308 is more than 1,000"),
    (lambda: fn.bm_pct([[8, 4, 6, 0]], 8, -1e308), "#xlbridge: BM_PCT: penalty -1e+308 is more than the all-TOP"),
    (lambda: fn.se_ranking([[10]], [["bp"]], [["x"]], [[1e308]]), "#xlbridge: SE_RANKING: 1e+308 is not a date"),
    (lambda: fn.award("tr.club", 1, 1e308), "#xlbridge: tr.club: field of 1e+308 units is more than the largest"),
    (lambda: fn.award("tr.club", 1, float("inf")), "#xlbridge: tr.club: field must be a finite number of units"),
    (lambda: fn.award("tr.club", 1, 20, "boards=1e25"), "#xlbridge: tr.club option boards must lie between"),
    # points beyond any holding: decimal.InvalidOperation / OverflowError text in the cell, or a silent result
    (lambda: fn.se_ranking(1e70, "sp", "silver", 44713.0),
     "#xlbridge: SE_RANKING: points 1e+70 is more than 1,000,000,000, the largest that makes sense"),
    (lambda: fn.se_ranking(1e308, "gp", "gold", 44713.0), "#xlbridge: SE_RANKING: points 1e+308 is more than"),
    (lambda: fn.se_ranking(1e60, "sp", "silver", 44713.0), "#xlbridge: SE_RANKING: points 1e+60 is more than"),
    (lambda: fn.se_class(1e308), "#xlbridge: SE_CLASS: gp 1e+308 is more than 1,000,000,000"),
    (lambda: fn.tbf_title(1e300, 1e300), "#xlbridge: Tablo-5: mastery points 1e+300 is more than 1,000,000,000"),
    # the Heeg maximum as its docs print it (it was 1.08e+06)
    (lambda: fn.heeg_pct(5.0, 2e6, ""),
     "#xlbridge: maximum MP 2000000 is more than 1,080,000, the largest that makes sense"),
])
def test_worksheet_functions_show_a_number_beyond_its_range_as_readable_text(call, start):
    assert str(call()).startswith(start)


def test_a_whole_number_beyond_any_float_is_not_a_number():
    assert as_number(10**400) is None


def test_boards_1e25_on_an_event_sheet_is_at_the_boards_cell(tmp_path, built_once):
    wb = load_workbook(built_once("tbf-club", tmp_path / "club.xlsx"))  # in the club's language, Turkish
    wb[sheet_name("Tournament", "tr")]["B4"] = 10**25
    with pytest.raises(BookInputError) as caught:
        recalculate(OpenpyxlBook(wb))
    assert [(p.cell, p.code) for p in caught.value.problems] == [("B4", "option.out-of-range")]


def test_a_bridgemania_top_beyond_its_bound_is_at_the_top_cell(tmp_path, built_once):
    """TOP 1002 was said at T01, A1 (the bounds table promises the TOP cell, as TOP 7 or 'eight' are)."""
    wb = load_workbook(built_once("bridgemania", tmp_path / "bm.xlsx", language="en"))
    wb["T01"]["B4"] = 1002
    with pytest.raises(BookInputError) as caught:
        recalculate(OpenpyxlBook(wb))
    assert [(p.sheet, p.cell, p.code) for p in caught.value.problems] == [("T01", "B4", "bm.top.too-large")]
