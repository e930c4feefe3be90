"""recalculate() on a hand-made season: EGS, n-th a, period/year columns, signals,
standings.  The expected values are worked out by hand in the comments."""

import math
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the shared hand-made season (heeg_season_fixture.py beside this file)
from heeg_season_fixture import P1, P2, rows_of, season_frame, settings  # noqa: E402
from xlbridge.clubs.heeg import HeegSettings, Period, output_columns, period_standings, recalculate, year_standings  # noqa: E402

nan = math.nan


def approx_list(values):
    return pytest.approx(values, nan_ok=True)


@pytest.fixture(scope="module")
def result():
    return recalculate(season_frame(), settings())


def test_output_keeps_input_and_adds_the_documented_columns(result):
    source = season_frame()
    assert list(result.columns) == [*source.columns, *output_columns(settings())]
    assert result.index.equals(source.index)
    pd.testing.assert_frame_equal(result[source.columns], source)
    assert output_columns(settings())[-2:] == ["end_1", "end_2"]


def test_pair_1_egs_absences_and_running_columns(result):
    r = rows_of(result, 1)
    # d1 60; d2 a: EGS 60, 1st a -> min(60, 50) = 50; d3 40 (code 1 scores normally);
    # d4 a: EGS mean(60, 40) = 50 (the a of d2 is not an achieved score), 2nd a -> min(50, 45) = 45;
    # period 2: d5 a: no EGS in the new period -> 50; d6 2: still no EGS -> 50;
    # d7 s: 50 * 6/5 = 60; d8 0: 25.
    assert list(r["pct"]) == approx_list([60, 50, 40, 45, 50, 50, 60, 25])
    assert list(r["egs"]) == approx_list([nan, 60, 60, (60 + 40) / 2, nan, nan, nan, 60])
    assert list(r["nth_absence"]) == approx_list([nan, 1, nan, 2, 1, nan, nan, nan])
    # tot vandaag: mean of the earlier evenings of the period
    assert list(r["to_date"]) == approx_list([nan, 60, (60 + 50) / 2, (60 + 50 + 40) / 3, nan, 50, 50, (50 + 50 + 60) / 3])
    assert list(r["period_pct"]) == approx_list(
        [60, 55, 50, (60 + 50 + 40 + 45) / 4, 50, 50, (50 + 50 + 60) / 3, (50 + 50 + 60 + 25) / 4]
    )
    assert list(r["year_pct"]) == approx_list(
        [60, 55, 50, 48.75, (195 + 50) / 5, (245 + 50) / 6, (295 + 60) / 7, (355 + 25) / 8]
    )
    # the end result of period 1 is kept on the rows of period 2
    assert list(r["end_1"]) == approx_list([nan] * 4 + [48.75] * 4)
    assert r["end_2"].isna().all()
    # score = MP typed (+ corrected combi MP); blank where nothing was typed
    assert list(r["score"]) == approx_list([60, nan, 40, nan, nan, nan, 50, nan])


def test_red_star_more_than_5_marks_in_the_year(result):
    r = rows_of(result, 1)
    # marks: a (d2), 1 (d3), a (d4), a (d5), 2 (d6), 0 (d8) -- s (d7) is not a mark
    assert list(r["year_marks"]) == [0, 1, 2, 3, 4, 5, 5, 6]
    # "vaker dan 5 keer": only the 6th mark turns the * column red
    assert list(r["red_star"]) == [False] * 7 + [True]
    assert list(r["period_marks"]) == [0, 1, 2, 3, 1, 2, 2, 3]
    assert not r["red_inv"].any()


def test_pair_2_codes_2_s1_0_and_red_inv(result):
    r = rows_of(result, 2)
    # d1 1: 50; d2 2: EGS 50 -> min(50, 50) = 50; d3 s1: 40 * 6/5 = 48; d4 0: 25
    assert list(r["pct"])[:4] == approx_list([50, 50, 48, 25])
    assert list(r["egs"])[:4] == approx_list([nan, 50, 50, (50 + 48) / 2])  # the 2 is left out of the EGS
    # "4 keer of vaker invallers gehad of was afwezig" -> red inv from the 4th mark on
    assert list(r["period_marks"])[:4] == [1, 2, 3, 4]
    assert list(r["red_inv"]) == [False, False, False, True, False, False, False, False]
    assert list(r["end_1"])[4:] == approx_list([(50 + 50 + 48 + 25) / 4] * 4)  # 43.25


def test_pair_3_code_2_capped_and_equals_not_in_egs(result):
    r = rows_of(result, 3)
    # d2 2: EGS 70 capped at 50; d3 =: 50; d4 30; EGS on d4 is still 70 (2 and = are not achieved)
    assert list(r["pct"])[:4] == approx_list([70, 50, 50, 30])
    assert list(r["egs"])[:4] == approx_list([nan, 70, 70, 70])
    assert list(r["period_marks"])[:4] == [0, 1, 1, 1]  # = is no mark


def test_nth_absence_span_period_or_season():
    # pair 6: a on d2 (period 1) and on d6 (period 2), EGS on d6 = 80 (d5)
    by_period = rows_of(recalculate(season_frame(), settings(span="period")), 6)
    by_season = rows_of(recalculate(season_frame(), settings(span="season")), 6)
    assert by_period["pct"].iloc[5] == 50  # 1st a of the period: min(80, 50)
    assert by_season["pct"].iloc[5] == 45  # 2nd a of the season: min(80, 45)
    assert by_season["nth_absence"].iloc[5] == 2


def test_star_for_a_line_pair_that_was_not_all_year_in_a(result):
    r5 = rows_of(result, 5)
    assert list(r5["star"]) == [False] * 4 + [True] * 4  # B in period 1, A in period 2
    assert list(r5["signal"]) == [""] * 4 + ["*"] * 4
    for pair in (1, 3, 4):  # A all year
        assert not rows_of(result, pair)["star"].any()
    assert not rows_of(result, 2)["star"].any()  # relegated to B: no * outside the A-line


def test_star_for_a_pair_missing_from_an_evening():
    frame = season_frame()
    frame = frame[~((frame["pair"] == 4) & (frame["date"] == P1[0]))]  # pair 4 joins on evening 2
    r = rows_of(recalculate(frame, settings()), 4)
    assert r["star"].all()


def test_period_standings_promotion_and_relegation():
    table = period_standings(season_frame(), settings(promote=1), period=1)
    a = table[table["line"] == "A"]
    b = table[table["line"] == "B"]
    # A: 3 = (70+50+50+30)/4 = 50, 1 = 48.75, 4 = 45, 2 = 43.25 (red inv: blocked)
    assert list(a["pair"]) == [3, 1, 4, 2]
    assert list(a["period_pct"]) == approx_list([50, 48.75, 45, 43.25])
    assert list(a["rank"]) == [1, 2, 3, 4]
    assert list(a["move"]) == ["", "", "", "relegate"]
    # B: 8 = 90 but 4 substitutes (blocked, cannot promote), 5 = 75, 6 = (80+50+80+80)/4 = 72.5, 7 = 50
    assert list(b["pair"]) == [8, 5, 6, 7]
    assert list(b["period_pct"]) == approx_list([90, 75, 72.5, 50])
    assert list(b["blocked"]) == [True, False, False, False]
    assert list(b["move"]) == ["", "promote", "", ""]
    assert list(b["next_line"]) == ["B", "A", "B", "B"]
    assert table["final"].all()
    assert list(a["names"]) == ["Pair 3", "Pair 1", "Pair 4", "Pair 2"]

    two = period_standings(season_frame(), settings(promote=2), period="1")
    # blocked pair 2 takes one of the two places, the lowest other (4) the second
    assert set(two[two["move"] == "relegate"]["pair"]) == {2, 4}
    assert set(two[two["move"] == "promote"]["pair"]) == {5, 6}


def test_period_standings_all_periods_and_provisional():
    frame = season_frame()
    frame = frame[frame["date"] != P2[-1]]  # period 2 not finished
    table = period_standings(frame, settings())
    assert set(table["period"]) == {"1", "2"}
    assert table[table["period"] == "1"]["final"].all()
    assert not table[table["period"] == "2"]["final"].any()


def test_year_standings_champion_eligibility():
    table = year_standings(season_frame(), settings())
    a = table[table["line"] == "A"].set_index("pair")
    # year: 5 = (4*75 + 4*65)/8 = 70, 3 = (70+50+50+30+4*55)/8 = 52.5, 1 = 380/8 = 47.5, 4 = 45
    assert list(a.index) == [5, 3, 1, 4]
    assert list(a["year_pct"]) == approx_list([70, 52.5, 47.5, 45])
    assert list(a["star"]) == [True, False, False, False]  # 5 played period 1 in B
    assert list(a["red_star"]) == [False, False, True, False]  # 1 had 6 marks
    assert list(a["eligible"]) == [False, True, False, True]
    assert list(a["champion_rank"]) == approx_list([nan, 1, nan, 2])
    assert a.loc[1, "end_1"] == pytest.approx(48.75)
    assert a.loc[1, "end_2"] == pytest.approx(46.25)
    b = table[table["line"] == "B"]
    assert not b["eligible"].any() and not b["star"].any()


def test_unplayed_evening_is_left_blank():
    frame = season_frame()
    last = frame["date"] == P2[-1]
    frame.loc[last, "mp"] = None
    frame.loc[last, "code"] = ""
    out = recalculate(frame, settings())
    assert not out.loc[last, "played"].any()
    assert out.loc[last, "pct"].isna().all()
    assert out.loc[~last, "played"].all()


def test_combi_table_correction_in_the_season():
    day = P1[0]
    # line A: 11 pairs (top 8, max 6*4*8 = 192), line B: 9 pairs (top 6, max 6*4*6 = 144);
    # pair 1 (A) and pair 12 (B) met at the combi table in one round.
    rows = [{"date": day, "line": "A", "pair": p, "mp": 96, "code": ""} for p in range(1, 12)]
    rows += [{"date": day, "line": "B", "pair": p, "mp": 72, "code": ""} for p in range(12, 21)]
    rows[0].update(mp=80, combi_mp=25)
    rows[11].update(mp=60, combi_mp=15)
    frame = pd.DataFrame(rows)
    frame["max_mp"] = None  # computed from the line's pair count
    frame["rounds"] = 6
    frame["period"] = "1"
    out = recalculate(frame, settings()).set_index("pair")
    assert out.loc[2, "own_top"] == 8 and out.loc[13, "own_top"] == 6
    assert out.loc[2, "evening_max"] == 192 and out.loc[13, "evening_max"] == 144
    # A: 25 * 8 / 10 = 20 corrected; score 80 + 20 = 100 of 192
    assert out.loc[1, "c_corrected"] == pytest.approx(25 * 8 / 10)
    assert out.loc[1, "score"] == pytest.approx(100)
    assert out.loc[1, "pct"] == pytest.approx(100 / 192 * 100)
    # B: 15 * 6 / 10 = 9 corrected; 60 + 9 = 69 of 144
    assert out.loc[12, "c_corrected"] == pytest.approx(9)
    assert out.loc[12, "pct"] == pytest.approx(69 / 144 * 100)
    assert math.isnan(out.loc[2, "c_corrected"])
    assert out.loc[2, "pct"] == pytest.approx(50)  # 96 of 192


def test_line_top_counts_only_pairs_that_played():
    day = P1[0]
    rows = [{"date": day, "line": "A", "pair": p, "mp": 120, "code": ""} for p in range(1, 15)]
    rows[13].update(mp=None, code="0")  # 13 pairs played -> 6 tables -> top 10
    rows[12].update(mp=None, code="a")  # 12 pairs played -> 6 tables -> top 10
    out = recalculate(pd.DataFrame(rows), settings())
    assert set(out["own_top"]) == {10}
    assert set(out["evening_max"]) == {6 * 4 * 10}


def test_settings_period_lookup():
    s = HeegSettings(periods=(Period(1, ("2025-09-02",)),))
    assert s.period_of("2025-09-02").label == "1"
    assert s.period_of(P2[0]) is None


@pytest.mark.parametrize("seed, periods, evenings", [(2025, 3, 6), (7, 2, 4), (11, 4, 5)])
def test_standings_order_and_ranks_are_pandas_stable_sort_and_min_rank(seed, periods, evenings):
    """The standings are built in plain Python; their order and ranks must be what
    pandas gives: a stable sort on (line, pct high to low, pair) and
    ``rank(method="min")`` per line (ties share the best rank)."""
    from xlbridge.clubs.heeg.demo import demo_season

    demo_settings, results = demo_season(seed, periods, evenings)
    for table, value in ((period_standings(results, demo_settings), "period_pct"),
                         (year_standings(results, demo_settings), "year_pct")):
        groups = ["period", "line"] if "period" in table.columns else ["line"]
        ref = table.copy()
        ref["_line_no"] = ref["line"].map(list(demo_settings.lines).index)
        ref["_pair"] = ref["pair"].astype(int)
        ref = ref.sort_values([*groups[:-1], "_line_no", value, "_pair"], ascending=[*([True] * (len(groups) - 1)), True, False, True],
                              kind="mergesort")
        assert list(ref.index) == list(table.index)
        expected = ref.groupby(groups)[value].rank(method="min", ascending=False).astype(int)
        assert list(table["rank"]) == list(expected)
    year = year_standings(results, demo_settings)
    eligible = year[year["eligible"]]
    assert list(eligible["champion_rank"]) == list(eligible["year_pct"].rank(method="min", ascending=False))
    assert year.loc[~year["eligible"], "champion_rank"].isna().all()


def test_equal_period_percentages_share_a_rank_and_are_ordered_by_pair():
    frame = season_frame()
    frame.loc[(frame["pair"] == 7) & frame["date"].isin(P1), "mp"] = 72.5  # pair 7: 72.5 like pair 6
    b = period_standings(frame, settings(promote=1), period=1).query("line == 'B'")
    assert list(b["pair"]) == [8, 5, 6, 7]
    assert list(b["period_pct"]) == approx_list([90, 75, 72.5, 72.5])
    assert list(b["rank"]) == [1, 2, 3, 3]
