"""The cache behind ``award(scheme, place, n)``: same answers and same errors as the
uncached calculation, and nothing a caller can change."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlbridge import RuleError, award, schemes
from xlbridge.rules import CACHE_MAX_UNITS, _default_awards, _options, _options_key, clear_cache, get_scheme

ALL_IDS = [s.id for s in schemes()]
NUMBERS = {"int": [0, 1, 2, 3, 4, 24], "float": [None, 0.5, 12, 24.0, 26]}


@st.composite
def calls(draw):
    """A scheme, a field size, a place (sometimes outside the field) and some options
    with values the scheme may accept or refuse."""
    scheme = get_scheme(draw(st.sampled_from(ALL_IDS)))
    options = {}
    for name, opt in scheme.options.items():
        if draw(st.integers(0, 3)) == 0:  # most options stay at their default
            if opt.choices:
                options[name] = draw(st.sampled_from(opt.choices))
            elif opt.kind == "bool":
                options[name] = draw(st.booleans())
            elif opt.kind in NUMBERS:
                options[name] = draw(st.sampled_from(NUMBERS[opt.kind]))
    size = draw(st.integers(1, 40))
    place = draw(st.integers(1, size + 2))
    return scheme.id, place, size, options


def uncached(scheme_id, place, size, options):
    """The award as the rule set computes it, without :func:`award` or its cache."""
    rule_set = get_scheme(scheme_id)
    opts = _options(rule_set, options)
    ranks = rule_set.default_ranks(size, opts)
    rule_set.check_ranks(ranks, opts)
    if float(place) not in ranks:
        raise RuleError("place.outside-field", "{scheme}: place {place}", scheme=scheme_id, place=place)
    return rule_set.awards(ranks, opts)[ranks.index(float(place))]


def outcome(func, *args, **options):
    try:
        result = func(*args, **options)
    except RuleError as error:  # (the message is the same template: what it names is compared)
        return "error", error.code, {k: error.problem.params.get(k) for k in ("scheme", "place", "option")}
    return result.points, result.unit, result.decimals


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(call=calls(), fresh=st.booleans())
def test_cached_award_equals_the_uncached_calculation(call, fresh):
    scheme_id, place, size, options = call
    if fresh:
        clear_cache()
    expected = outcome(uncached, scheme_id, place, size, options)
    assert outcome(award, scheme_id, place, size, **options) == expected  # first call (maybe a miss)
    assert outcome(award, scheme_id, place, size, **options) == expected  # now from the cache
    assert outcome(award, scheme_id, float(place), str(size), **options) == expected  # same field, typed otherwise


def test_a_column_of_places_computes_the_field_once():
    clear_cache()
    for place in range(1, 27):
        award("tr.club", place, 26, boards=24)
    info = _default_awards.cache_info()
    assert (info.misses, info.hits) == (1, 25)


def test_a_cached_result_cannot_be_changed_by_the_caller():
    clear_cache()
    first = award("tr.club", 1, 26, boards=24)
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.points = 99.0
    table = _cached_table("tr.club", 26, boards=24)
    assert isinstance(table, tuple)
    with pytest.raises(TypeError):
        table[0] = None
    assert award("tr.club", 1, 26, boards=24) == first and first.points == 0.62


def _cached_table(scheme_id, size, **options):
    """What the cache keeps for a field: every award of it."""
    return _default_awards(scheme_id, size, _options_key(_options(get_scheme(scheme_id), options)))


def test_options_that_convert_alike_share_one_entry():
    clear_cache()
    assert award("tr.club", 1, 26, boards="24") == award("tr.club", 1, 26, boards=24.0)
    assert _default_awards.cache_info().currsize == 1
    assert award("tr.club", 1, 26) == award("tr.club", 1, 26, boards="")  # "" is the default
    assert _default_awards.cache_info().currsize == 2


def test_key_keeps_equal_values_of_other_types_apart():
    keys = {_options_key({"x": value}) for value in (1, 1.0, True)}
    assert len(keys) == 3
    assert _options_key({"x": [1]}) is None  # not hashable: computed without the cache


def test_big_fields_are_computed_but_not_kept():
    clear_cache()
    big = award("tr.club", 1, CACHE_MAX_UNITS + 1, boards=24)
    assert big == uncached("tr.club", 1, CACHE_MAX_UNITS + 1, {"boards": 24})
    assert _default_awards.cache_info().currsize == 0


def test_errors_are_not_kept_and_keep_their_order():
    clear_cache()
    # a wrong place is reported before a missing option, as without the cache
    with pytest.raises(RuleError, match="place 5 is not in a field of 2"):
        award("tr.match.regional", 5, 2)
    for _ in range(2):
        with pytest.raises(RuleError, match="needs boards="):
            award("tr.match.regional", 1, 2)
    assert _default_awards.cache_info().currsize == 0
