"""The synthetic demo season: reproducible, complete (every code, combi tables, line
changes, every signal) and consistent with the engine."""

import pandas as pd
import pytest

from xlbridge.clubs.heeg import CODES, line_top, period_standings, recalculate, year_standings
from xlbridge.clubs.heeg.demo import demo_season


@pytest.fixture(scope="module")
def demo():
    settings, results = demo_season()
    return settings, results, recalculate(results, settings)


def test_same_seed_same_season_other_seed_other_season():
    s1, r1 = demo_season(seed=7)
    s2, r2 = demo_season(seed=7)
    pd.testing.assert_frame_equal(r1, r2)
    assert s1 == s2
    _, r3 = demo_season(seed=8)
    assert not r1.equals(r3)


def test_size_and_shape(demo):
    settings, results, _ = demo
    assert len(settings.periods) >= 3
    assert settings.lines == ("A", "B")
    for period in settings.periods:
        assert len(period.evenings) == 6
        part = results[results["period"] == period.label]
        for line in ("A", "B"):
            sizes = part[part["line"] == line].groupby("date")["pair"].nunique()
            assert sizes.between(12, 16).all(), (period.label, line, sizes)
    assert set(results["code"]) == set(CODES)  # every inv code, blank included


def test_combi_tables_and_line_changes(demo):
    settings, results, out = demo
    combi = results[results["combi_mp"].notna()]
    assert combi["date"].nunique() >= 3
    # each combi evening: one A and one B pair per round
    for _, group in combi.groupby("date"):
        assert (group["line"] == "A").sum() == settings.rounds == (group["line"] == "B").sum()
    played = out[out["combi_mp"].notna()]
    assert (played["c_corrected"] == played["combi_mp"] * played["own_top"] / 10).all()
    lines = results.groupby(["pair", "period"])["line"].first().unstack()
    moved = (lines["1"] != lines["2"]) | (lines["2"] != lines["3"])
    assert moved.sum() >= 6
    # the roster in the settings says the same
    for pair in settings.roster:
        for label, line in pair.lines.items():
            assert set(results[(results["pair"] == pair.pair) & (results["period"] == label)]["line"]) == {line}


def test_the_movement_is_consistent(demo):
    settings, results, out = demo
    rounds = [f"r{r}" for r in range(1, settings.rounds + 1)]
    present = out[~out["code"].isin(["0", "a"])]
    assert (present[rounds].sum(axis=1, min_count=1) == present["mp"]).all()
    assert (out["max_mp"] == settings.rounds * settings.boards_per_round * out["own_top"]).all()
    for (day, line), group in present.groupby(["date", "line"]):
        top = line_top(len(group))
        for column in rounds:
            played = group[column].dropna()
            # every table shares boards x top MP between its two pairs
            assert len(played) % 2 == 0
            assert played.sum() == len(played) // 2 * settings.boards_per_round * top


def test_every_signal_shows_up(demo):
    settings, results, out = demo
    assert out["star"].any() and out["red_star"].any() and out["red_inv"].any()
    assert (out.loc[out["star"], "line"] == "A").all()
    table = period_standings(results, settings, period="1")
    blocked = table[table["blocked"]]
    assert 9 in set(blocked["pair"]) and set(blocked[blocked["line"] == "A"]["move"]) == {"relegate"}
    year = year_standings(results, settings).set_index("pair")
    assert year.loc[3, "red_star"] and not year.loc[3, "eligible"] and year.loc[3, "line"] == "A"
    assert year["champion_rank"].min() == 1


def test_recalculating_the_demo_twice_changes_nothing(demo):
    settings, _, out = demo
    pd.testing.assert_frame_equal(recalculate(out, settings), out)


def test_a_bigger_club_with_four_lines():
    """``lines=4`` (the benchmarks' bigger club): lines A-D of 14-15 pairs, the
    engine accepts every evening, pairs move between each two adjacent lines and
    both pairs of lines (A/B, C/D) meet at combi tables."""
    settings, results = demo_season(2025, 3, 6, lines=4)
    assert settings.lines == ("A", "B", "C", "D")
    assert results["pair"].nunique() == 14 + 3 * 15
    out = recalculate(results, settings)
    assert out["played"].sum() > 0.9 * len(out)
    combi = results.dropna(subset=["combi_mp"])
    assert {"A", "B", "C", "D"} <= set(combi["line"])
    moves = period_standings(results, settings, period="1")
    moved = moves[moves["move"] != ""]
    assert {(line, move) for line, move in zip(moved["line"], moved["move"])} == {
        ("A", "relegate"), ("B", "promote"), ("B", "relegate"), ("C", "promote"), ("C", "relegate"), ("D", "promote")}
    second = {p.pair: p.lines for p in settings.roster}
    assert any(lines["1"] == "C" and lines["2"] == "B" for lines in second.values())
