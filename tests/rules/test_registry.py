"""The scheme registry, the public contract, and junk fed to every scheme."""

from __future__ import annotations

import importlib
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import xlbridge
from xlbridge import Award, RuleError, award, awards, schemes
from xlbridge.rules import MAX_UNITS, RULE_SET_MODULES, get_scheme, parse_options
from xlbridge.rules.base import RuleSet, convert_ranks
from xlbridge.values import as_number

DOCS = Path(__file__).resolve().parents[2] / "docs"
ALL_IDS = [s.id for s in schemes()]


def test_every_module_is_registered_once_and_prefixes_hold():
    seen = set()
    for module_name, prefix in RULE_SET_MODULES.items():
        module = importlib.import_module(module_name)
        assert module.__doc__ and "References:" in module.__doc__, module_name
        for scheme in module.SCHEMES:
            assert scheme.id.startswith(prefix)
            assert scheme.id not in seen
            seen.add(scheme.id)
    assert seen == set(ALL_IDS)


def test_pinned_tbf_ids_exist():
    assert {"tr.club", "tr.online", "tr.regional", "tr.festival"} <= set(ALL_IDS)


@pytest.mark.parametrize("scheme_id", ALL_IDS)
def test_every_scheme_fulfils_the_contract_and_is_documented(scheme_id):
    scheme = get_scheme(scheme_id)
    assert isinstance(scheme, RuleSet)
    assert scheme.title and scheme.source and scheme.section and scheme.units
    docs = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.rglob("*.md"))
    assert f"`{scheme_id}`" in docs, f"{scheme_id} is not documented in docs/"


def test_award_prints_two_decimals_and_unit():
    assert str(Award(0.558, "green")) == "0.56 green"
    assert str(Award(0.125, "green")) == "0.13 green"


def test_public_names():
    assert xlbridge.award is award and xlbridge.awards is awards
    assert issubclass(RuleError, ValueError)


def test_xlbridge_awards_is_only_the_function():
    """The engine is the package xlbridge.rules; xlbridge.awards is the public function, no module."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("xlbridge.awards")
    with pytest.raises(ModuleNotFoundError):
        exec("import xlbridge.awards", {})
    assert xlbridge.awards is awards and callable(xlbridge.awards)


RULES = Path(__file__).resolve().parents[2] / "xlbridge" / "rules"
#: module prefix -> what its docstring must name: the document and its edition
DOCUMENTS = {
    "se_fsb": ("Svenska Mästarpoäng", "Rev 1.1"),
    "tr_tbf": ("Masterpoint Kitapçığı", "v2.0"),
    "bm_bridgemania": ("Regolamento", "BridgeMania 2019-2020"),
}


@pytest.mark.parametrize("path", sorted(p for p in RULES.rglob("*.py") if p.stem != "__init__" or p.parent != RULES),
                         ids=lambda p: str(p.relative_to(RULES)))
def test_every_rule_module_names_its_document_edition_and_sections(path):
    document = next((words for prefix, words in DOCUMENTS.items() if prefix in path.parts or path.stem == prefix), None)
    if document is None:  # the engine's own modules (base, problems)
        return
    module = ".".join(path.relative_to(RULES.parent.parent).with_suffix("").parts).removesuffix(".__init__")
    doc = importlib.import_module(module).__doc__ or ""
    for words in document:
        assert words in doc, f"{module}: the docstring does not name {words!r}"
    assert "References:" in doc and "ection" in doc, f"{module}: the docstring names no sections / References"


@pytest.mark.parametrize("path", sorted(RULES.rglob("*.py")), ids=lambda p: str(p.relative_to(RULES)))
def test_every_rule_module_is_at_most_600_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 600


def test_the_swedish_and_turkish_rule_sets_are_packages_that_keep_their_imports():
    from xlbridge.rules import se_fsb, tr_tbf

    assert {"SCHEMES", "master_class", "ranking_points", "ranking_total", "reserve_share", "share_places"} <= set(dir(se_fsb))
    assert {"SCHEMES", "mastery_points", "title", "table_weight", "apply_visa_rules"} <= set(dir(tr_tbf))
    for name in ("se_standing", "se_tables", "awards"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(f"xlbridge.rules.{name}")


def test_unknown_scheme_suggests_the_closest():
    with pytest.raises(RuleError, match=r"unknown scheme 'tr.clb'; did you mean tr.club\?"):
        award("tr.clb", 1, 20)


def test_unknown_option_names_the_known_ones():
    with pytest.raises(RuleError, match=r"tr.club has no option 'bords'; its options: .*boards"):
        award("tr.club", 1, 20, bords=24)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: award("tr.club", 0, 20), "tr.club: place must be a whole number from 1; got 0"),
        (lambda: award("tr.club", 21, 20), "place 21 is not in a field of 20"),
        (lambda: award("tr.club", 1, "twenty"), "field must be the number of units"),
        (lambda: award("tr.club", 1, 20.5), "field must be a whole number"),
        (lambda: awards("tr.club", [1, 2, 2, 3]), "place 3 follows 3 better-ranked units, expected 4"),
        (lambda: awards("tr.club", []), "the ranking is empty"),
        (lambda: award("tr.club", 1, 20, boards="many"), "option boards must be a number; got 'many'"),
        (lambda: award("tr.club", 1, 20, movement="zigzag"), "option movement must be one of howell, mitchell"),
    ],
)
def test_bad_calls_name_rule_and_value(call, message):
    with pytest.raises(RuleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_field_as_a_list_of_places():
    assert award("tr.club", 2, [1, 2, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12]) == awards("tr.club", [1, 2, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12])[1]


def test_unranked_units_get_nothing_but_count_in_the_field():
    result = awards("tr.club", [1, 2, None, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    assert result[2].points == 0.0
    assert result[0].points == 0.35  # 12 units = 6 tables


def test_option_text_parsing():
    assert parse_options("boards=26; movement=mitchell\nshare=1/2") == {"boards": "26", "movement": "mitchell", "share": "1/2"}
    with pytest.raises(RuleError, match="must look like name=value"):
        parse_options("boards 26")


# ---------------------------------------------------------------- robustness: junk to every scheme

#: Numbers at and beyond every bound (issue 14, point 5): 1e308 in a settings cell, 10^25 boards,
#: a field of 10^7 or 10^8, infinities and NaN.
EXTREME = st.sampled_from([1e308, -1e308, 10**25, 10**7, 10**8, 10**400, float("inf"), float("-inf"), float("nan"),
                           "1e308", "inf", "-inf", "nan", "1E+308", 1e9, 1e9 + 1, 100_000, 100_001])

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 300), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6), st.sampled_from(["", "1", "2,5", "1/3", "abc", "-3", "1e9"]), EXTREME,
)


@st.composite
def calls(draw):
    scheme = get_scheme(draw(st.sampled_from(ALL_IDS)))
    options = {}
    for name, opt in scheme.options.items():
        if draw(st.booleans()):
            if opt.choices and draw(st.booleans()):
                options[name] = draw(st.sampled_from(opt.choices))
            else:
                options[name] = draw(JUNK)
    size = draw(st.integers(1, 70))
    ranks = draw(st.one_of(
        st.just(list(range(1, size + 1))),
        st.lists(st.one_of(st.integers(1, size), st.none()), min_size=1, max_size=size),
        st.lists(JUNK, max_size=8),
    ))
    return scheme.id, ranks, options


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(call=calls())
def test_only_rule_errors_escape_and_awards_are_sane(call):
    scheme_id, ranks, options = call
    try:
        result = awards(scheme_id, ranks, **options)
    except RuleError as error:
        assert str(error).strip()
        assert "Traceback" not in str(error)
        return
    assert len(result) == len(ranks)
    for a in result:
        assert isinstance(a, Award) and math.isfinite(a.points) and a.points >= 0
    # never rise down the ranking, within one unit
    places = convert_ranks(scheme_id, ranks)
    ordered = sorted(((r, a) for r, a in zip(places, result) if r is not None), key=lambda pair: pair[0])
    by_unit: dict[str, list[float]] = {}
    for _, a in ordered:
        by_unit.setdefault(a.unit, []).append(a.points)
    for points in by_unit.values():
        assert all(b <= a + 1e-9 for a, b in zip(points, points[1:]))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scheme_id=st.sampled_from(ALL_IDS), field=EXTREME, place=st.one_of(st.just(1), EXTREME))
def test_a_field_or_place_beyond_its_bounds_is_a_rule_error_naming_scheme_and_argument(scheme_id, field, place):
    """A field of 10^7 or 10^8, 1e308, an infinity or NaN is a quick RuleError naming the scheme
    and the argument (before: 26-56 s, exhausted memory, OverflowError or a bare ValueError)."""
    try:
        result = award(scheme_id, place, field)
    except RuleError as error:
        concerns = error.problem.concerns()
        assert concerns.get("scheme") == scheme_id
        assert concerns.get("argument") in ("field", "place") or concerns.get("option") is not None
        return
    assert as_number(field) is not None and as_number(field) <= MAX_UNITS  # only a field within the bound
    assert math.isfinite(result.points)


@pytest.mark.parametrize("field", [10**7, 10**8, 1e308, "1e308", 10**400])
def test_a_huge_field_names_the_largest(field):
    with pytest.raises(RuleError) as info:
        award("tr.club", 1, field)
    assert info.value.problem.code == "field.too-large"
    assert info.value.problem.params["maximum"] == MAX_UNITS
    with pytest.raises(RuleError) as info:
        awards("se.bronze.pairs", list(range(1, MAX_UNITS + 2)))
    assert (info.value.problem.code, info.value.problem.argument) == ("field.too-large", "ranks")


@pytest.mark.parametrize("field", [float("inf"), float("-inf"), float("nan"), "inf", "nan"])
def test_a_non_finite_field_names_scheme_and_argument(field):
    with pytest.raises(RuleError) as info:
        award("se.silver.pairs", 1, field, met=30)
    assert info.value.problem.concerns() == {"scheme": "se.silver.pairs", "argument": "field"}
