"""HEEG_PCT and HEEG_C: one hand-worked example per inv code and for the combi table.

Every expected number is written as the arithmetic of the rule in
docs/sources/003_58bc20b693ef4dc0.txt, not copied from the engine.
"""

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from xlbridge.rules.base import RuleError
from xlbridge.clubs.heeg import absence_cap, evening_max, heeg_c, heeg_pct, line_top, normalise_code
from xlbridge.clubs.heeg.rules import exact_pct

# A 14-pair line: top 12, 6 rounds of 4 boards -> max 6 * 4 * 12 = 288 MP.
MAX = 288


def test_blank_code_is_mp_over_max():
    assert heeg_pct(173, MAX, None) == pytest.approx(173 / 288 * 100)  # 60.069...
    assert heeg_pct(173, MAX, "") == pytest.approx(60.0694444)


def test_code_1_one_substitute_gets_the_normal_score():
    # "1 invaller, men krijgt wel de normale score"
    assert heeg_pct(144, MAX, 1) == pytest.approx(144 / 288 * 100) == pytest.approx(50.0)
    assert heeg_pct(144, MAX, "1") == heeg_pct(144, MAX, "")


def test_code_2_two_substitutes_egs_capped_at_50():
    # "men krijgt de EGS, met een maximum van 50%"
    assert heeg_pct(200, MAX, 2, egs=43.75) == 43.75  # min(43.75, 50)
    assert heeg_pct(200, MAX, 2, egs=58.2) == 50.0  # min(58.2, 50)
    # "Gebeurt dit op de eerste speelavond van een ronde, dan krijgt dit paar 50%."
    assert heeg_pct(200, MAX, 2, egs=None) == 50.0
    assert heeg_pct(None, None, 2) == 50.0  # the MP is not needed


def test_code_0_absent_without_notice_25():
    assert heeg_pct(None, MAX, 0) == 25.0
    assert heeg_pct(None, None, "0", egs=70) == 25.0


def test_code_a_egs_capped_by_nth_time():
    # "1e keer a: 50%, 2e keer 45%, 3e keer 40%, verder 35%."
    egs = 47.5
    assert heeg_pct(None, None, "a", egs=egs, nth_absence=1) == 47.5  # min(47.5, 50)
    assert heeg_pct(None, None, "a", egs=egs, nth_absence=2) == 45.0  # min(47.5, 45)
    assert heeg_pct(None, None, "a", egs=egs, nth_absence=3) == 40.0  # min(47.5, 40)
    assert heeg_pct(None, None, "a", egs=egs, nth_absence=4) == 35.0  # min(47.5, 35)
    assert heeg_pct(None, None, "A", egs=egs, nth_absence=7) == 35.0  # "verder 35%"
    assert heeg_pct(None, None, "a", egs=38.0, nth_absence=2) == 38.0  # min(38, 45)
    # "Gebeurt dit de eerste zitting dan krijgt men 50% (omdat de EGS dan nog 0 is)"
    assert heeg_pct(None, None, "a", egs=None, nth_absence=1) == 50.0
    assert heeg_pct(None, None, "a", egs=0, nth_absence=3) == 50.0
    assert [absence_cap(n) for n in (1, 2, 3, 4, 5)] == [50, 45, 40, 35, 35]


def test_code_s_sit_out_adds_the_average_of_the_other_tables():
    # 5 rounds played out of 6: 150 MP * 6/5 = 180 MP of 288 -> 62.5 %
    assert heeg_pct(150, MAX, "s", rounds=6) == pytest.approx(150 * 6 / 5 / 288 * 100) == pytest.approx(62.5)
    # 7 rounds evening: 168 * 7/6 = 196 of 7*4*12 = 336 -> 58.333 %
    assert heeg_pct(168, 336, "s", rounds=7) == pytest.approx(196 / 336 * 100)
    # rounds blank: the document's 6/5
    assert heeg_pct(150, MAX, "S") == pytest.approx(62.5)


def test_code_s1_both_corrections():
    # sit-out correction; the "1" changes the score not at all (only the counting)
    assert heeg_pct(120, MAX, "s1", rounds=6) == pytest.approx(120 * 6 / 5 / 288 * 100) == pytest.approx(50.0)


def test_code_equals_arbitrary_50():
    assert heeg_pct(10, MAX, "=") == 50.0
    assert heeg_pct(None, None, "=") == 50.0


def test_unknown_and_bad_values_raise_rule_error_naming_the_value():
    with pytest.raises(RuleError, match="'x'"):
        heeg_pct(100, MAX, "x")
    with pytest.raises(RuleError, match="'3'"):
        normalise_code("3")
    with pytest.raises(RuleError, match="'1O3'"):
        heeg_pct("1O3", MAX, "")
    with pytest.raises(RuleError, match="-5"):
        heeg_pct(-5, MAX, "")
    with pytest.raises(RuleError, match="maximum"):
        heeg_pct(100, 0, "")
    with pytest.raises(RuleError, match="empty"):
        heeg_pct(None, MAX, "1")
    with pytest.raises(RuleError, match="EGS"):
        heeg_pct(None, None, "a", egs=120)
    with pytest.raises(RuleError, match="nth_absence"):
        heeg_pct(None, None, "a", egs=40, nth_absence=0)
    with pytest.raises(RuleError, match="rounds"):
        heeg_pct(100, MAX, "s", rounds=1)


def test_line_tops_from_the_document():
    # "Aan de combitafel spelen altijd 12 paren. Dus de top is 10. De maximum score
    #  aan deze tafel is 40. En het gemiddelde dus 20 MP."
    assert line_top(12) == 10
    boards = 40 // 10  # max 40 with top 10 -> 4 boards per round
    assert boards * line_top(12) == 40 and boards * line_top(12) / 2 == 20
    # "In een lijn met 9 paren is de gemiddelde score 12 MP. Bij 11 paren is dat 16 MP."
    assert boards * line_top(9) / 2 == 12  # 4 tables -> top 2*(4-1) = 6
    assert boards * line_top(11) / 2 == 16  # 5 tables -> top 8
    assert evening_max(14, 6, 4) == 6 * 4 * 12


def test_combi_correction():
    # "punten van de combitafel / top van de combitafel x de top van je eigen lijn"
    assert heeg_c(20, line_top(9), 10) == 20 / 10 * 6 == 12.0  # average stays average
    assert heeg_c(20, line_top(11), 10) == 20 / 10 * 8 == 16.0
    assert heeg_c(31, line_top(14), 10) == pytest.approx(31 / 10 * 12)  # 37.2
    assert heeg_c(0, 12, 10) == 0.0
    with pytest.raises(RuleError, match="combi MP"):
        heeg_c(-1, 12, 10)
    with pytest.raises(RuleError, match="combi table top"):
        heeg_c(20, 12, 0)


def test_sit_out_mp_cannot_exceed_the_rounds_played():
    # 5 of 6 rounds played: at most 288 * 5/6 = 240 MP before the correction
    assert heeg_pct(240, MAX, "s") == pytest.approx(100.0)
    with pytest.raises(RuleError, match="above the maximum of the 5 rounds played"):
        heeg_pct(241, MAX, "s")
    with pytest.raises(RuleError, match="above the evening's maximum 288"):
        heeg_pct(289, MAX, "")


@given(mp=st.integers(0, 2000), extra=st.integers(1, 2000), code=st.sampled_from(["", "1", "s", "s1"]),
       rounds=st.integers(2, 8))
def test_the_pct_is_the_float_nearest_to_the_exact_rule(mp, extra, code, rounds) -> None:
    """One exact computation serves both (issue 24): the % is the rule's fraction, rounded once."""
    top = mp + extra
    sit_out = code in ("s", "s1")
    if sit_out and mp * rounds > top * (rounds - 1):
        return  # above the sit-out maximum: a problem, tested above
    rule = Fraction(mp * rounds, rounds - 1) / top * 100 if sit_out else Fraction(mp, top) * 100
    assert exact_pct(float(mp), float(top), code, rounds=rounds) == rule
    assert heeg_pct(float(mp), float(top), code, rounds=rounds) == float(rule)
