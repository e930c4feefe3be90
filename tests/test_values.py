"""``xlbridge.values.exact``: a float is its shortest decimal, whatever path computes it."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, strategies as st

from xlbridge.values import exact


@given(number=st.floats(allow_nan=False, allow_infinity=False)
       | st.integers(-2**60, 2**60).map(float) | st.integers(-10**6, 10**6).map(float))
def test_a_float_is_its_shortest_decimal(number) -> None:
    assert exact(number) == Fraction(repr(number))


def test_whole_floats_beyond_two_to_the_53_keep_their_shortest_decimal() -> None:
    assert exact(float(2**60)) == Fraction("1.152921504606847e+18") != 2**60
    assert exact(4.0) == 4 and exact(-0.0) == 0
