"""Equal percentages rank alike, compared exact (issue 15, point 1; docs/clubs/heeg.md §6.1)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from hypothesis import given, settings as hyp_settings, strategies as st

from xlbridge.clubs.heeg import HeegSettings, Period, parse_row, period_table, season, year_table

DAYS = tuple(dt.date(2025, 9, 2) + dt.timedelta(days=7 * k) for k in range(6))


def _rows(scores: dict[int, list[tuple[float, float]]]) -> list[dict]:
    """One row per pair per evening: (MP, maximum MP) typed."""
    return [{"date": DAYS[k], "pair": pair, "line": "A", "mp": mp, "max_mp": top, "code": ""}
            for pair, evenings in scores.items() for k, (mp, top) in enumerate(evenings)]


# The issue's pairs: 12 = (48/96 + 52/96 + (70+66+64)/144)/5 and 15 = (44/96 + 50/96 + (66+75+68)/144)/5,
# both exactly 48.6111...%; pairs 1-3 above them, 20 below.
ISSUE = {
    1: [(60, 96), (60, 96), (90, 144), (90, 144), (90, 144)],
    2: [(58, 96), (58, 96), (88, 144), (88, 144), (88, 144)],
    3: [(56, 96), (56, 96), (86, 144), (86, 144), (86, 144)],
    15: [(44, 96), (50, 96), (66, 144), (75, 144), (68, 144)],
    12: [(48, 96), (52, 96), (70, 144), (66, 144), (64, 144)],
    20: [(30, 96), (30, 96), (40, 144), (40, 144), (40, 144)],
}
ISSUE_SETTINGS = HeegSettings(periods=(Period("1", DAYS[:5], promote=1),), lines=("A",))


def test_the_issue_pairs_12_and_15_share_rank_4_ordered_by_pair_number() -> None:
    rows = _rows(ISSUE)
    periods = period_table(rows, ISSUE_SETTINGS)
    got = [(r["rank"], r["pair"]) for r in periods]
    floats = {r["pair"]: r["period_pct"] for r in periods}
    # the float sums were 48.61111111111111 and 48.611111111111114; the exact mean is one value, shown as
    # the float nearest to it, and both rank alike
    exact = (Fraction(48, 96) + Fraction(52, 96) + Fraction(70 + 66 + 64, 144)) / 5 * 100
    assert exact == (Fraction(44, 96) + Fraction(50, 96) + Fraction(66 + 75 + 68, 144)) / 5 * 100
    assert floats[12] == floats[15] == float(exact) == 48.611111111111114
    assert got == [(1, 1), (2, 2), (3, 3), (4, 12), (4, 15), (6, 20)]
    year = year_table(rows, ISSUE_SETTINGS)
    assert [(r["rank"], r["pair"], r["champion_rank"]) for r in year] == [
        (1, 1, 1.0), (2, 2, 2.0), (3, 3, 3.0), (4, 12, 4.0), (4, 15, 4.0), (6, 20, 6.0)]
    result = season([parse_row(row, ISSUE_SETTINGS, ref=i) for i, row in enumerate(rows)], ISSUE_SETTINGS)
    assert [(r["rank"], r["pair"]) for r in result.periods] == got
    assert [(r["rank"], r["pair"]) for r in result.year] == got


def test_promotion_at_a_tie_goes_by_pair_number_not_by_the_last_bit() -> None:
    """Two lines, one pair moves: B's two best are the issue's pairs 15 and 12 (equal);
    pair 12 promotes (equal values are ordered by pair number), whatever the floats say."""
    rows = _rows({p: ISSUE[p] for p in (1, 2, 3, 20)}) + [
        {**row, "line": "B"} for row in _rows({15: ISSUE[15], 12: ISSUE[12], 30: ISSUE[20], 31: ISSUE[20]})]
    two = HeegSettings(periods=(Period("1", DAYS[:5], promote=1),), lines=("A", "B"))
    moves = {r["pair"]: (r["rank"], r["move"]) for r in period_table(rows, two)}
    assert moves[12] == (1, "promote") and moves[15] == (1, "")
    assert moves[20] == (4, "relegate")


MP = st.tuples(st.integers(0, 96), st.sampled_from([96, 144, 120])).filter(lambda s: s[0] <= s[1])


@hyp_settings(max_examples=60, deadline=None)
@given(evenings=st.lists(MP, min_size=2, max_size=6), order=st.randoms(use_true_random=False),
       others=st.lists(st.lists(MP, min_size=6, max_size=6), min_size=2, max_size=3))
def test_equal_exact_values_share_a_rank_whatever_the_order_of_evenings(evenings, order, others) -> None:
    shuffled = list(evenings)
    order.shuffle(shuffled)
    scores = {1: evenings, 2: shuffled}
    scores.update({3 + i: other[: len(evenings)] for i, other in enumerate(others)})
    n = len(evenings)
    settings = HeegSettings(periods=(Period("1", DAYS[:n]),), lines=("A",))
    rows = _rows(scores)
    ranks = {r["pair"]: r["rank"] for r in period_table(rows, settings)}
    assert ranks[1] == ranks[2]
    year = {r["pair"]: (r["rank"], r["champion_rank"]) for r in year_table(rows, settings)}
    assert year[1] == year[2]
