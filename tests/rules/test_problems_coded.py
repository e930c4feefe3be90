"""Every problem of the rule engine is typed: a stable dotted code, a template, and the
concerns that say where it is (``scheme``, ``option``, ``argument``) -- so that a workbook
puts it at its cell from the fields alone, never from the message text.

- the sources: no ``RuleError("...")`` with a bare message, every code dotted and in the
  pinned list below, every placeholder of a template given, no decision on message text;
- the behaviour: a wrong option of any scheme names that option, a field or place names
  its argument, and everything raised through ``award``/``awards`` names the scheme.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from xlbridge import RuleError, award, awards, schemes
from xlbridge.rules import get_scheme, parse_options
from xlbridge.rules.problems import UNCODED

RULES = Path(__file__).resolve().parents[2] / "xlbridge" / "rules"
MODULES = sorted(RULES.rglob("*.py"))
ALL_IDS = [s.id for s in schemes()]
CODE = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9_-]*)+$")

#: Every code the rule engine raises.  Codes are stable: a workbook or a translation
#: keys on them.  Renaming one is a breaking change -- change this list on purpose.
CODES = {
    # any scheme: the arguments of award/awards and the option text
    "scheme.unknown", "option.syntax", "option.twice", "option.unknown", "option.not-yes-no", "option.not-a-number",
    "option.out-of-range", "option.not-whole", "option.not-a-choice", "field.not-a-number", "field.not-whole",
    "field.not-finite", "field.too-large", "tr.mastery.too-large", "tr.title.too-large", "se.number.too-large",
    "place.empty", "place.not-a-place", "place.outside-field", "ranks.empty", "ranks.not-a-place", "ranks.not-competition",
    # BridgeMania
    "bm.extra.not-played", "bm.field.too-small", "bm.place.beyond-table", "bm.tables.not-a-number",
    "bm.tables.not-half", "bm.tables.too-few",
    # Sweden
    "se.boards.too-few", "se.bronze.boards", "se.bronze.division", "se.bronze.groups-range",
    "se.bronze.no-such-group", "se.conversion.country", "se.count.played-range", "se.count.zero",
    "se.e7.final-place", "se.e7.negative", "se.fee.negative", "se.field.too-small", "se.g1.boards-per-match",
    "se.g2.boards", "se.g3.division", "se.g3.final-place", "se.g3.negative", "se.gold.boards", "se.kind.unknown",
    "se.level.unknown", "se.match.final-place", "se.match.halves-range", "se.match.no-figure", "se.match.outcome",
    "se.match.table", "se.match.two-teams", "se.match.unknown-table", "se.match.vp", "se.match.vp-scale",
    "se.matches.played-range", "se.matches.too-few-played", "se.number.negative", "se.number.not-a-number",
    "se.rally.too-few-events", "se.ranking.date", "se.ranking.event", "se.ranks.team-tie",
    "se.reserve.evenings-pair", "se.sanction.members", "se.series-bonus.rounds", "se.sessions.boards",
    # Sweden: what the sanction and eligibility checks find (coded problems, returned)
    "se.sanction.silver-field", "se.sanction.half-scale", "se.sanction.silver-boards", "se.sanction.five-clubs",
    "se.sanction.club-share", "se.sanction.team-clubs", "se.sanction.other-clubs", "se.sanction.gold-field",
    "se.sanction.gold-boards", "se.sanction.gold-boards-32", "se.sanction.season-events",
    "se.sanction.season-weekdays", "se.sanction.bridge-week", "se.dm-bonus.played", "se.dm-bonus.closed",
    "se.rally.april-october", "se.rally.six-events",
    # ... and their input problems
    "se.sanction.date", "se.number.not-whole", "se.dm-bonus.players", "se.rally.event",
    "se.sessions.no-session", "se.silver.a-final-rounds", "se.silver.a-final-total",
    "se.silver.above-needs-rounds", "se.silver.above-range", "se.silver.carry-over-rounds", "se.silver.met",
    "se.silver.needs-approval", "se.silver.rounds", "se.unit.unknown", "se.bronze.group-missing",
    "se.bronze.group-without-groups",
    # Turkey
    "tr.boards.not-positive", "tr.festival.too-few-tables", "tr.ledger.level", "tr.lehman.needs-boards",
    "tr.lehman.needs-tables", "tr.lehman.sessions", "tr.mastery.negative", "tr.mastery.not-a-number",
    "tr.match.needs-boards", "tr.match.two-teams", "tr.mitchell.ns", "tr.session.boards", "tr.session.first-mp",
    "tr.sessions.needs-boards", "tr.sessions.too-few", "tr.share.range", "tr.tables.not-positive", "tr.tables.too-many",
    "tr.tables.too-few", "tr.tablo1.place", "tr.tablo1.scale", "tr.tablo4.boards", "tr.tablo4.level",
    "tr.tablo4.segments", "tr.team.eligibility", "tr.team.not-teams", "tr.team.players", "tr.title.not-a-number",
}


# ------------------------------------------------------------------ the sources


def _calls(name: str):
    """(module, call) for every call of ``name`` (a plain name or an attribute) in the rule engine."""
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if called == name:
                    yield path.relative_to(RULES.parent.parent), node


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, (ast.JoinedStr, ast.BinOp)) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


@pytest.mark.parametrize("name", ["RuleError", "Problem"])
def test_no_bare_message(name):
    """``RuleError("...")`` / ``RuleError(f"...")``: a message without a code or concerns."""
    bare = [f"{path}:{call.lineno}" for path, call in _calls(name)
            if len(call.args) == 1 and _is_text(call.args[0]) and not call.keywords]
    assert not bare, f"{name} with a bare message (give a code, a template and the concerns): {bare}"


def _coded_calls():
    """The coded problems the rules raise (problems.py is the machinery that builds them)."""
    for name in ("RuleError", "Problem"):
        for path, call in _calls(name):
            if len(call.args) >= 2 and path.name != "problems.py":
                yield path, call


def _template_texts(node: ast.AST) -> list[str] | None:
    """The literal text(s) of a template: a literal, or ``N_plural`` of two literals (None: neither)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_plural" and \
            len(node.args) == 2 and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args):
        return [a.value for a in node.args]
    return None


def test_every_code_is_dotted_literal_and_pinned():
    found = {}
    for path, call in _coded_calls():
        code, template = call.args[0], call.args[1]
        where = f"{path}:{call.lineno}"
        assert isinstance(code, ast.Constant) and isinstance(code.value, str), f"{where}: the code must be a literal"
        assert CODE.match(code.value), f"{where}: code {code.value!r} is not dotted lower-case"
        assert _template_texts(template) is not None, f"{where}: the template must be a literal (no f-string)"
        found.setdefault(code.value, where)
    assert set(found) == CODES, f"new codes: {sorted(set(found) - CODES)}; gone: {sorted(CODES - set(found))}"


def test_every_placeholder_of_a_template_is_given():
    for path, call in _coded_calls():
        if any(k.arg is None for k in call.keywords):
            continue  # **params: checked by the behaviour tests below
        given = {k.arg for k in call.keywords}
        wanted = {field.split(".")[0].split("[")[0] for text in _template_texts(call.args[1])
                  for _, field, _, _ in string.Formatter().parse(text) if field}
        assert wanted <= given, f"{path}:{call.lineno}: template fields {sorted(wanted - given)} are not given"


def test_no_decision_on_message_text():
    """Nothing in the rule engine compares, searches or slices the text of a problem."""
    suspicious = []
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            texts = []
            if isinstance(node, ast.Compare):
                texts = [node.left, *node.comparators]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                    "startswith", "endswith", "find", "index", "count"):
                texts = [node.func.value]
            for text in texts:
                is_str_of_error = (isinstance(text, ast.Call) and isinstance(text.func, ast.Name)
                                   and text.func.id == "str" and text.args
                                   and isinstance(text.args[0], ast.Name) and "err" in text.args[0].id.lower())
                is_message = isinstance(text, ast.Attribute) and text.attr in ("message", "args")
                if is_str_of_error or is_message:
                    suspicious.append(f"{path.name}:{node.lineno}")
    assert not suspicious, f"decisions on message text: {suspicious}"


# ------------------------------------------------------------------ the behaviour


def _problem(call):
    with pytest.raises(RuleError) as caught:
        call()
    problem = caught.value.problem
    assert problem.code != UNCODED and problem.code in CODES, problem
    return problem


def _setting(scheme) -> tuple[int, dict]:
    """A field (and base options) the scheme awards as it is."""
    for base in ({}, {"boards": 24}):
        for n in (40, 2, 12, 60, 100):
            try:
                award(scheme.id, 1, n, **base)
            except RuleError:
                continue
            return n, base
    raise AssertionError(f"{scheme.id} awards no field with its default options")


@pytest.mark.parametrize("scheme_id", ALL_IDS)
def test_an_unknown_option_names_itself(scheme_id):
    p = _problem(lambda: award(scheme_id, 1, 20, bords=24))
    assert (p.code, p.scheme, p.option) == ("option.unknown", scheme_id, "bords")


@pytest.mark.parametrize("scheme_id", ALL_IDS)
def test_a_wrong_value_of_any_option_names_the_option(scheme_id):
    scheme = get_scheme(scheme_id)
    n, base = _setting(scheme)
    for name, opt in scheme.options.items():
        bad = {"int": ["many", "2,5", "1e12"], "float": ["many", "1e12"], "bool": ["maybe"]}.get(opt.kind, [])
        if opt.choices:
            bad = ["zigzag"]
        for value in bad:
            p = _problem(lambda: award(scheme_id, 1, n, **{**base, name: value}))
            assert (p.scheme, p.option) == (scheme_id, name), (name, value, p.message)
            assert p.code.startswith("option."), p


@pytest.mark.parametrize("scheme_id", ALL_IDS)
def test_a_value_out_of_the_rules_range_names_an_option(scheme_id):
    """Any one option at the edges: when the scheme refuses it, the problem names an option
    of the scheme (the one given, or the one the rule needs with it); boards names boards."""
    scheme = get_scheme(scheme_id)
    n, base = _setting(scheme)
    refused = 0
    for name, opt in scheme.options.items():
        values = {"int": [-5, 0, 1, 5, 12, 1000], "float": [-5, 0, 0.5, 5, 1000], "bool": [True, False],
                  "str": ["abc", "", "6+", "17-12", "2"]}[opt.kind]
        for value in ([] if opt.choices else values):
            try:
                awards(scheme_id, list(range(1, n + 1)), **{**base, name: value})
            except RuleError as error:
                refused += 1
                p = error.problem
                assert p.scheme == scheme_id and p.option in scheme.options, (name, value, p.message, p.concerns())
                if name == "boards" and value in (-5, 0, 1):
                    assert p.option == "boards", (value, p.message)
    if scheme_id in ("se.bronze.pairs", "se.silver.pairs", "se.gold.pairs", "tr.club", "tr.match.regional"):
        assert refused, f"{scheme_id} refuses no option value"


@pytest.mark.parametrize("scheme_id", [s for s in ALL_IDS if "boards" in get_scheme(s).options])
def test_too_few_boards_names_the_boards_option(scheme_id):
    """Where the scheme checks the boards, too few of them name the option ``boards``
    (the events workbook marks its Boards cell)."""
    scheme = get_scheme(scheme_id)
    n, base = _setting(scheme)
    try:
        awards(scheme_id, list(range(1, n + 1)), **{**base, "boards": 1})
    except RuleError as error:
        assert (error.problem.scheme, error.problem.option) == (scheme_id, "boards"), error.problem.concerns()


@pytest.mark.parametrize(
    "call, code, concerns",
    [
        (lambda: award("tr.club", 1, 5), "tr.tables.too-few", {"scheme": "tr.club", "argument": "field"}),
        (lambda: award("tr.club", 1, 20, tables=2), "tr.tables.too-few", {"scheme": "tr.club", "option": "tables"}),
        (lambda: award("tr.festival", 1, 20), "tr.festival.too-few-tables", {"scheme": "tr.festival", "argument": "field"}),
        (lambda: award("se.bronze.pairs", 1, 20, boards=6), "se.bronze.boards", {"scheme": "se.bronze.pairs", "option": "boards"}),
        (lambda: award("se.silver.pairs", 1, 60, met=70), "se.silver.met", {"scheme": "se.silver.pairs", "option": "met"}),
        (lambda: award("se.bronze.pairs", 1, 3), "se.field.too-small", {"scheme": "se.bronze.pairs", "argument": "field"}),
        (lambda: award("se.bronze.pairs", 1, 20, groups=2, group="c"), "se.bronze.no-such-group",
         {"scheme": "se.bronze.pairs", "option": "group"}),
        (lambda: award("se.gold.pairs", 1, 34, boards=54), "se.gold.boards", {"scheme": "se.gold.pairs", "option": "boards"}),
        (lambda: award("tr.match.regional", 1, 2, boards=4), "tr.tablo4.boards",
         {"scheme": "tr.match.regional", "option": "boards"}),
        (lambda: award("tr.match.regional", 1, 2, boards=16, segments=-1), "tr.tablo4.segments",
         {"scheme": "tr.match.regional", "option": "segments"}),
        (lambda: award("tr.national.open-teams", 1, 12, players=0), "tr.team.players",
         {"scheme": "tr.national.open-teams", "option": "players"}),
        (lambda: award("tr.club", 1, 12, players=6, segment_records=False), "tr.team.not-teams",
         {"scheme": "tr.club", "option": "players"}),
        (lambda: award("se.silver.team-series", 1, 2, table="e3", divisions=3, division=9), "se.match.no-figure",
         {"scheme": "se.silver.team-series", "option": "division"}),
        (lambda: award("se.silver.team-series", 1, 2, vp="17-12", scale=7), "se.match.vp-scale",
         {"scheme": "se.silver.team-series", "option": "scale"}),
        (lambda: award("bm.f1-hybrid", 1, 12, tables="2"), "bm.tables.too-few", {"scheme": "bm.f1-hybrid", "option": "tables"}),
        (lambda: award("bm.f1-hybrid", 1, 4), "bm.field.too-small", {"scheme": "bm.f1-hybrid", "argument": "field"}),
        (lambda: award("tr.club", 1, "twenty"), "field.not-a-number", {"scheme": "tr.club", "argument": "field"}),
        (lambda: award("tr.club", 1, [1, 2, 2, 3]), "ranks.not-competition", {"scheme": "tr.club", "argument": "field"}),
        (lambda: award("tr.club", 0, 20), "place.not-a-place", {"scheme": "tr.club", "argument": "place"}),
        (lambda: award("tr.club", 21, 20), "place.outside-field", {"scheme": "tr.club", "argument": "place"}),
        (lambda: awards("tr.club", [1, 2, 2, 3]), "ranks.not-competition", {"scheme": "tr.club", "argument": "ranks"}),
        (lambda: awards("tr.club", []), "ranks.empty", {"scheme": "tr.club", "argument": "ranks"}),
        (lambda: award("tr.clb", 1, 20), "scheme.unknown", {"argument": "scheme"}),
        (lambda: parse_options("boards 26"), "option.syntax", {"option": "boards 26"}),
    ],
)
def test_concerns_say_where(call, code, concerns):
    p = _problem(call)
    assert p.code == code, p
    assert {k: v for k, v in p.concerns().items() if k in concerns} == concerns, p.concerns()


JUNK = [None, "", "abc", -3, 0, 1, 2, 3, 7, 18, 30, 57, 1000, 0.5, "2,5", True, "e7", "6+", "17-12"]


@pytest.mark.parametrize("scheme_id", ALL_IDS)
def test_everything_raised_through_a_scheme_is_coded_and_names_it(scheme_id):
    scheme = get_scheme(scheme_id)
    calls = [lambda n=n: award(scheme_id, 1, n) for n in (0, 1, 2, 3, 5, 8, 20, 40, 101, "x", 2.5)]
    calls += [lambda r=r: awards(scheme_id, r) for r in ([1, 1], [1, 2, 2, 3], [1, None, 3], ["x"], [1, 2])]
    for name in scheme.options:
        for value in JUNK:
            calls += [lambda n=n, v=value, k=name: awards(scheme_id, list(range(1, n + 1)), **{k: v}) for n in (2, 8, 40)]
    for call in calls:
        try:
            call()
        except RuleError as error:
            p = error.problem
            assert p.code in CODES and p.scheme == scheme_id, (p.message, p.code, p.concerns())
            assert p.option is not None or p.argument in ("field", "place", "ranks"), (p.message, p.concerns())
