"""Invariants of the TBF distribution, checked on random fields and ties."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from xlbridge import awards
from xlbridge.rules.tr_tbf import place_share

HALF_UNIT = 0.00005  # rounding to 4 decimals moves each award by at most this

SCHEMES = st.sampled_from(["tr.club", "tr.online", "tr.regional", "tr.national.open-pairs", "tr.national.mixed-pairs"])


@st.composite
def tied_ranking(draw, min_size=6, max_size=120):
    """A competition ranking (1, 2, 2, 4, ...) with random tie groups."""
    size = draw(st.integers(min_size, max_size))
    groups = draw(st.lists(st.integers(1, 4), min_size=1, max_size=size))
    ranks: list[int] = []
    for group in groups:
        if len(ranks) >= size:
            break
        place = len(ranks) + 1
        ranks.extend([place] * min(group, size - len(ranks)))
    ranks.extend(range(len(ranks) + 1, size + 1))
    return ranks


@settings(max_examples=150, deadline=None)
@given(scheme=SCHEMES, ranks=tied_ranking(), scale=st.sampled_from(["a", "b"]))
def test_ties_conserve_the_points_of_the_places_they_share(scheme, ranks, scale):
    tied = awards(scheme, ranks, scale=scale)
    untied = awards(scheme, list(range(1, len(ranks) + 1)), scale=scale)
    for place in set(ranks):
        members = [a.points for r, a in zip(ranks, tied) if r == place]
        places = [untied[p - 1].points for p in range(place, place + len(members))]
        assert math.isclose(sum(members), sum(places), abs_tol=2 * HALF_UNIT * len(members))
        assert len(set(members)) == 1  # equal shares


@settings(max_examples=150, deadline=None)
@given(scheme=SCHEMES, ranks=tied_ranking(), scale=st.sampled_from(["a", "b"]),
       movement=st.sampled_from(["howell", "mitchell"]))
def test_awards_never_rise_down_the_ranking(scheme, ranks, scale, movement):
    if movement == "mitchell" and scheme.startswith("tr.national"):
        movement = "howell"  # section 8 movements apply to club/regional/online events
    options = {"scale": scale}
    if movement == "mitchell":
        options["movement"] = "mitchell"
        half = (len(ranks) + 1) // 2  # the first direction holds the odd pair
        ranks = list(range(1, half + 1)) + list(range(1, len(ranks) - half + 1))
    result = awards(scheme, ranks, **options)
    ordered = sorted(zip(ranks, (a.points for a in result)))
    points = [p for _, p in ordered]
    assert all(b <= a for a, b in zip(points, points[1:]))
    assert all(p >= 0 and math.isfinite(p) for p in points)


@settings(max_examples=200, deadline=None)
@given(size=st.integers(6, 200), scale=st.sampled_from(["a", "b"]))
def test_one_third_boundary_is_exact(size, scale):
    result = awards("tr.national.open-pairs", list(range(1, size + 1)), scale=scale)  # fixed first: 60
    third = Fraction(size, 3)
    whole = math.floor(third)
    assert all(a.points > 0 for a in result[:whole])
    boundary = third - whole
    if boundary:
        expected = 60 * place_share(whole + 1, scale) * float(boundary)
        assert math.isclose(result[whole].points, expected, abs_tol=HALF_UNIT)
        assert all(a.points == 0 for a in result[whole + 1 :])
    else:
        assert all(a.points == 0 for a in result[whole:])
