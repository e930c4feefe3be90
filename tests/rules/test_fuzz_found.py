"""Cases found by ``python -m tools.fuzz_awards`` (issue 14): each a RuleError now, never another exception."""

import pytest

from xlbridge.rules import award, awards
from xlbridge.rules.bm_bridgemania import parse_tables
from xlbridge.rules.problems import RuleError


@pytest.mark.parametrize("tables", [1e308, "1e308", -1e308])
def test_bridgemania_tables_that_double_to_infinity_are_a_rule_error(tables):
    # before: OverflowError: cannot convert float infinity to integer
    with pytest.raises(RuleError) as info:
        parse_tables("bm.f1-hybrid", tables)
    assert info.value.problem.concerns() == {"scheme": "bm.f1-hybrid", "option": "tables"}


def test_tbf_tables_beyond_the_largest_field_are_a_rule_error():
    # before: the call ran for five minutes
    with pytest.raises(RuleError) as info:
        award("tr.club", 3, 7, tables=1e9, boards=68)
    assert info.value.problem.code == "tr.tables.too-many"
    assert info.value.problem.params["maximum"] == 50_000


def test_a_lehman_period_checks_its_share_first():
    # before: share=1e9 with lehman_sessions ran for minutes (the share was checked after the Lehman total)
    with pytest.raises(RuleError) as info:
        awards("tr.online", [1], share="1e9", tables=3, boards=6, lehman_sessions=10)
    assert info.value.problem.code == "tr.share.range"
