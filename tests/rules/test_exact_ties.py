"""The engine's tie detection is exact: places are whole numbers (issue 15, point 1; docs/rules/sweden.md)."""

from __future__ import annotations

import pytest

import xlbridge
from xlbridge.rules.problems import RuleError


@pytest.mark.parametrize("scheme", ["se.bronze.pairs", "tr.club"])
def test_typed_forms_of_one_place_are_one_tie(scheme: str) -> None:
    got = xlbridge.awards(scheme, [1, 2.0, "2", 4, 5, 6, 7, 8, 9, 10, 11, 12])
    untied = xlbridge.awards(scheme, list(range(1, 13)))
    assert got[1].points == got[2].points
    assert got[1].points == pytest.approx((untied[1].points + untied[2].points) / 2, abs=1)


@pytest.mark.parametrize("place", [2.0000000000000004, 2.5, "2,5"])
def test_a_place_that_is_not_whole_is_not_a_near_tie(place) -> None:
    with pytest.raises(RuleError) as info:
        xlbridge.awards("se.bronze.pairs", [1, 2, place, 4, 5, 6, 7, 8])
    assert info.value.problem.code == "ranks.not-a-place"
    assert info.value.problem.params["position"] == 3
