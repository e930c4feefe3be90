"""Equal PTS totals rank alike, compared exact (issue 15, point 1; docs/clubs/bridgemania.md)."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

from hypothesis import given, settings, strategies as st

from xlbridge.clubs.bridgemania.championship import Totals
from xlbridge.clubs.bridgemania.model import BaseNight


def _night(pair: str, pts: float) -> BaseNight:
    return BaseNight(pair, "O", 50.0, 1, pts, pts, pts, 0.0, 0.0, 0.0)


def _totals(per_pair: dict[str, list[float]]) -> Totals:
    totals = Totals(list(per_pair))
    for k in range(len(next(iter(per_pair.values())))):
        totals.count(SimpleNamespace(id=f"T{k + 1}", entries=(),
                                     base=tuple(_night(p, pts[k]) for p, pts in per_pair.items())))
    return totals


def test_equal_pts_in_another_order_share_a_rank() -> None:
    # (8.333 + 0.1) + 0.2 = 8.633 but (0.1 + 0.2) + 8.333 = 8.633000000000001 in floats
    totals = _totals({"1": [0.1, 0.2, 8.333], "2": [8.333, 0.1, 0.2], "3": [1.0, 1.0, 1.0]})
    assert (8.333 + 0.1) + 0.2 != (0.1 + 0.2) + 8.333
    assert totals.exact["1"]["f1"] == totals.exact["2"]["f1"] == Fraction(8633, 1000)  # one exact sum each
    _, rows = totals.after[-1]
    assert [r.f1 for r in rows] == [8.633, 8.633, 3.0]  # shown: the exact sum, rounded once
    assert [(r.pair, r.rank_f1, r.rank_indy, r.rank_hybrid) for r in rows] == [
        ("1", 1, 1, 1), ("2", 1, 1, 1), ("3", 3, 3, 3)]
    final = totals.final_ranking(threshold=3)
    assert [(r.pair, r.rank_f1, r.points) for r in final][:2] in (
        [("1", 1, 6), ("2", 1, 6)], [("2", 1, 6), ("1", 1, 6)])


PTS = st.integers(0, 25000).map(lambda n: n / 1000)  # the PTS are rounded to 3 decimals


@settings(max_examples=80, deadline=None)
@given(pts=st.lists(PTS, min_size=2, max_size=7), order=st.randoms(use_true_random=False),
       other=st.lists(PTS, min_size=7, max_size=7))
def test_equal_exact_totals_always_share_a_rank(pts, order, other) -> None:
    shuffled = list(pts)
    order.shuffle(shuffled)
    _, rows = _totals({"1": pts, "2": shuffled, "3": other[: len(pts)]}).after[-1]
    assert rows[0].rank_f1 == rows[1].rank_f1


VALUES = st.one_of(st.integers(-5, 5), st.fractions(min_value=-3, max_value=3, max_denominator=6),
                   st.integers(-50, 50).map(lambda n: n / 10))


@given(values=st.lists(VALUES, max_size=12), descending=st.booleans())
def test_competition_ranks_count_who_is_ahead(values, descending) -> None:
    """1 + how many are strictly ahead (compared exact), whatever the order found."""
    from xlbridge.clubs.bridgemania.scores import competition_ranks
    from xlbridge.values import exact

    keys = [exact(v) for v in values]
    ahead = (lambda a, b: a > b) if descending else (lambda a, b: a < b)
    assert competition_ranks(values, descending) == [1 + sum(ahead(o, k) for o in keys) for k in keys]
