"""round_half_up has a float fast path (for speed, see docs/performance.md): it
must give exactly what the Decimal path gives, bit for bit."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlbridge.rules.base import _round_half_up_exact, round_half_up


def same(a: float, b: float) -> bool:
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


@given(st.floats(min_value=-1e10, max_value=1e10, allow_nan=False), st.integers(min_value=0, max_value=6))
def test_fast_path_equals_the_decimal_path(value, decimals):
    assert same(round_half_up(value, decimals), _round_half_up_exact(value, decimals))


@pytest.mark.slow
def test_near_halves_and_award_like_values():
    rng = random.Random(5)
    values = [k / 10**d + e for d in range(1, 7) for k in range(0, 2000, 7) for e in (0.0, 5e-7, -5e-7, 1e-13, -1e-13)]
    values += [a * b / c for a, b, c in ((rng.uniform(0, 50), rng.random(), rng.randint(1, 9)) for _ in range(20000))]
    values += [0.285, 0.125, 2.09625, 1.005, 2.675, 0.0, -0.0, 1e-300, 5e-324]
    for value in values:
        for decimals in range(0, 7):
            assert same(round_half_up(value, decimals), _round_half_up_exact(value, decimals)), (value, decimals)
