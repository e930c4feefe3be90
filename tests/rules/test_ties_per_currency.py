"""Ties share what the places give together, currency by currency -- for every scheme.

The rounding each document states, and what it means for a tie of ``k`` units whose
places give ``S`` (per currency) when untied:

* Sweden, section 5 "Delad placering": "Par som delar en placering, delar lika på de poäng
  som de berörda placeringarna ger tillsammans och alla decimaler avrundas uppåt."  Each
  currency is shared on its own and each share rounded up to a whole point: every tied unit
  gets ``ceil(S / k)``, so together they get ``k * ceil(S / k)``, between ``S`` and
  ``S + k - 1`` points of that currency -- the only way the document's rounding lets the
  sum differ.  "Delad sista bp-plats ger 4 bp till alla som delar platsen": a tie reaching
  past the last awarded place pays the currency of that last place at least the minimum
  (4 bp; 8 bp doubled in silver events; 12 bp tripled in gold events; 2 bp on half scales).
  "Delad placering ger här den högre bonusen" (DM bonus) and "I lagtävlingar ska alltid
  särskiljning tillämpas" (team events: a tie is an error) are the document's exceptions.
* Turkey, section 13: "Eşitliklerde, alınması gereken masterpointlerin toplamı paylaşılır"
  and D5 (rounded half up to 4 decimals once, after the last stage): the tied units
  together get the places' sum within ``k * 0.0001`` (each untied and each shared award
  is within 0.00005 of its exact value).
* BridgeMania, C.03 ("pari-merito"): the mean of the places, rounded half up to 3
  decimals: within ``k * 0.001`` of the places' sum.
* A match scheme (``se.*.team-series``, ``tr.match.*``) ranks the two teams of one match:
  ``[1, 1]`` is a drawn match, scored by the draw rule, not a shared place.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlbridge import RuleError, awards, schemes
from xlbridge.rules import get_scheme
from xlbridge.rules.se_fsb import VALUE

MATCHES = {"se.bronze.team-series", "se.silver.team-series", "se.gold.team-series", "tr.match.national",
           "tr.match.regional"}
#: scheme -> (smallest field, options) for a field the scheme awards with its default options
FIELDS = {
    "tr.festival": (60, {}),
    "se.gold.pairs": (32, {"boards": 60}),
    "se.gold.individual": (32, {"boards": 60}),
    "se.gold.team-barometer": (16, {"boards": 60}),
    "se.gold.rally-bonus": (1, {"pairs": 250}),
}
IDS = sorted(s.id for s in schemes() if s.id not in MATCHES)


def _smallest(scheme: str) -> tuple[int, dict]:
    if scheme in FIELDS:
        return FIELDS[scheme]
    for n in range(1, 80):
        try:
            awards(scheme, list(range(1, n + 1)))
            return n, {}
        except RuleError:
            continue
    raise AssertionError(f"{scheme}: no field awards with default options")


def _parts(award) -> dict[str, Fraction]:
    parts = getattr(award, "parts", ((award.points, award.unit),))
    return {unit: Fraction(points).limit_denominator(10**6) for points, unit in parts if points}


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(data=st.data())
def test_tied_units_together_receive_what_their_places_give_per_currency(data):
    scheme = data.draw(st.sampled_from(IDS), label="scheme")
    smallest, options = _smallest(scheme)
    n = data.draw(st.integers(max(smallest, 2), max(smallest, 2) + 70), label="field")
    k = data.draw(st.integers(2, min(6, n)), label="tied")
    first = data.draw(st.integers(1, n - k + 1), label="place")
    untied = awards(scheme, list(range(1, n + 1)), **options)
    ranks = [*range(1, first), *[first] * k, *range(first + k, n + 1)]
    try:
        tied = awards(scheme, ranks, **options)
    except RuleError as error:
        # 'I lagtävlingar ska alltid särskiljning tillämpas vid utdelande av mp.'
        assert scheme.startswith("se.") and error.problem.code == "se.ranks.team-tie", (scheme, error)
        assert getattr(get_scheme(scheme), "team", False) or scheme == "se.silver.dm-bonus"
        return
    group = tied[first - 1: first - 1 + k]
    places = untied[first - 1: first - 1 + k]
    assert tied[: first - 1] == untied[: first - 1] and tied[first - 1 + k:] == untied[first - 1 + k:]
    assert len(set(group)) == 1, group  # 'delar lika'
    share = group[0]
    if scheme == "se.silver.dm-bonus":  # 'Delad placering ger här den högre bonusen.'
        assert share == places[0]
        return
    if scheme.startswith("se."):
        given_ = {}
        for award in places:
            for unit, points in _parts(award).items():
                given_[unit] = given_.get(unit, Fraction(0)) + points
        got = _parts(share)
        assert list(got) == sorted(got, key=lambda u: -VALUE[u])  # the most valuable currency first
        past_end = any(not a.points for a in places) and any(a.points for a in places)
        last_unit = [a for a in places if a.points][-1].unit if past_end else None
        minimum = get_scheme(scheme).cells(n, {**{k_: o.default for k_, o in get_scheme(scheme).options.items()},
                                                **options})[1].get(last_unit, 0) if past_end else 0
        assert set(got) == {u for u, s in given_.items() if s} | ({last_unit} if minimum else set())
        for unit, total in given_.items():
            each = -(-total // k)  # 'alla decimaler avrundas uppåt'
            if unit == last_unit:
                each = max(each, minimum)  # 'Delad sista bp-plats ger 4 bp till alla som delar platsen'
            assert got[unit] == each, (scheme, n, first, k, unit)
            if unit != last_unit or each == -(-total // k):
                assert total <= k * got[unit] <= total + k - 1  # the bound the rounding up allows
        return
    bound = Fraction(1, 10**4) if scheme.startswith("tr.") else Fraction(1, 10**3)
    total = sum(Fraction(a.points).limit_denominator(10**6) for a in places)
    assert {a.unit for a in places} | {share.unit} == {share.unit}  # one colour per TBF / BridgeMania scheme
    assert abs(k * Fraction(share.points).limit_denominator(10**6) - total) <= k * bound, (scheme, n, first, k)


@pytest.mark.parametrize("scheme", sorted(MATCHES))
def test_a_match_scheme_reads_1_1_as_a_draw_not_a_shared_place(scheme):
    options = {"boards": 24} if scheme.startswith("tr.") else {}
    won, lost = awards(scheme, [1, 2], **options)
    drawn = awards(scheme, [1, 1], **options)
    assert drawn[0] == drawn[1]
    if scheme.startswith("tr."):  # Tablo-4: 'maçı kazanmış olması gerekir' -- a draw wins nothing
        assert drawn[0].points == 0 and won.points > 0
    else:  # B2: 'För vunnen match erhåller laget 64 poäng. Vid oavgjord match erhåller båda lagen 32 poäng.'
        assert 2 * drawn[0].points == won.points + lost.points
