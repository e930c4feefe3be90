"""The BridgeMania PTS tables (section C.03) re-read from the rules' text.

The text (docs/sources/004_*.txt) prints Tab.1 and Tab.2 side by side and Tab.3
as a tab-separated grid whose short columns are simply missing on the right.
These tests parse it independently of the CSV files and of the engine, require
the CSV files to agree cell for cell, and re-derive every printed average row
("In lista di Attesa/Malattia", Tab.3's "a" row) from the places.
"""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlbridge.rules import award, awards, get_scheme
from xlbridge.rules.base import RuleError, load_table, round_half_up
from xlbridge.rules.bm_bridgemania import HYBRID_COLUMNS

ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10, "XI": 11, "XII": 12}


def number(text: str) -> float:
    return float(text.strip().replace(",", "."))


@pytest.fixture(scope="module")
def rules(source_text):
    return source_text("004")


@pytest.fixture(scope="module")
def printed_fixed(rules):
    """Tab.1 and Tab.2 as printed: ({place: pts}, {place: pts}, avg1, avg2, unable1, unable2)."""
    block = rules[rules.index("Tab.1\t\tTab.2") : rules.index("n.b. I PTS")]
    tab1, tab2 = {}, {}
    avg = unable = None
    for line in block.splitlines():
        cells = line.split("\t")
        place = cells[0].replace("\xa0", " ").replace("°", "").strip()
        if place in ROMAN:
            assert cells[2].replace("\xa0", " ").replace("°", "").strip() == place
            tab1[ROMAN[place]] = number(cells[1])
            tab2[ROMAN[place]] = number(cells[3])
        elif place.startswith("In lista di Attesa"):
            avg = (cells[1], cells[3])
        elif place.startswith("Impossibilitato"):
            unable = (number(cells[1]), number(cells[3]))
    return tab1, tab2, avg, unable


@pytest.fixture(scope="module")
def printed_hybrid(rules):
    """Tab.3 as printed: {column: {place: pts}}, {column: "a" text}, {column: "i"}."""
    block = rules[rules.index("Tab.3\t") : rules.index("In caso di pari-merito")]
    lines = block.splitlines()
    header = [c for c in lines[1].split("\t")[1:] if c]
    assert [c.replace(",", ".") for c in header] == list(HYBRID_COLUMNS)
    columns = [c.replace(",", ".") for c in header]
    table = {c: {} for c in columns}
    a_row = i_row = None
    for line in lines[2:]:
        cells = line.split("\t")
        label = cells[0].replace("\xa0", " ").replace("°", "").strip()
        values = [c for c in cells[1:] if c.strip()]
        if label in ROMAN:
            # short columns are missing on the right: fill left to right
            for column, value in zip(columns, values):
                table[column][ROMAN[label]] = number(value)
        elif label.startswith("In lista di Attesa"):
            a_row = dict(zip(columns, values))
        elif label.startswith("Impossibilitato"):
            i_row = dict(zip(columns, (number(v) for v in values)))
    return table, a_row, i_row


def test_tab1_and_tab2_csv_match_the_text(printed_fixed):
    tab1, tab2, _, _ = printed_fixed
    assert len(tab1) == len(tab2) == 12
    assert {int(r["place"]): float(r["points"]) for r in load_table("bm_f1_fast")} == tab1
    assert {int(r["place"]): float(r["points"]) for r in load_table("bm_indycar_hard")} == tab2


def test_tab3_csv_matches_the_text(printed_hybrid):
    table, _, _ = printed_hybrid
    stored = {c: {} for c in HYBRID_COLUMNS}
    for row in load_table("bm_f1_hybrid"):
        for c in HYBRID_COLUMNS:
            if row[c].strip():
                stored[c][int(row["place"])] = float(row[c])
    assert stored == table
    # a column for T tables has exactly 2*T places (6+ -> 12)
    for column, places in table.items():
        pairs = 12 if column == "6+" else int(float(column) * 2)
        assert sorted(places) == list(range(1, pairs + 1)), column


def test_average_rows_of_tab1_tab2_are_the_mean_of_the_twelve_places(printed_fixed):
    tab1, tab2, avg, unable = printed_fixed
    assert avg == ("8,417", "28,667")
    for places, text in ((tab1, avg[0]), (tab2, avg[1])):
        decimals = len(text.split(",")[1])
        derived = round_half_up(sum(places.values()) / len(places), decimals)
        assert derived == number(text)
    # the engine gives the derived value, not a typed one
    assert award("bm.f1-fast", 1, 11, status="waiting").points == round_half_up(101 / 12, 3) == 8.417
    assert award("bm.indycar-hard", 3, 6, status="ill").points == round_half_up(344 / 12, 3) == 28.667
    assert unable == (0.0, 0.0)
    assert award("bm.f1-fast", 1, 11, status="unable").points == 0
    assert award("bm.indycar-hard", 1, 11, status="unable").points == 0


def test_tab3_a_row_is_the_mean_of_each_column(printed_hybrid):
    table, a_row, i_row = printed_hybrid
    assert set(a_row) == set(HYBRID_COLUMNS)
    for column, text in a_row.items():
        places = table[column]
        decimals = len(text.split(",")[1])
        derived = round_half_up(sum(places.values()) / len(places), decimals)
        assert derived == number(text), column
        pairs = 12 if column == "6+" else int(float(column) * 2)
        assert award("bm.f1-hybrid", 1, pairs, status="waiting").points == derived
        assert award("bm.f1-hybrid", 1, pairs, status="ill").points == derived
        assert award("bm.f1-hybrid", 1, pairs, status="unable").points == 0
    assert set(i_row.values()) == {0.0}
    # hand check of two columns: 6+ = 122/12, 3 tables = 33/6
    assert award("bm.f1-hybrid", 1, 14, status="waiting").points == 10.17
    assert award("bm.f1-hybrid", 1, 6, status="waiting").points == 5.5


def test_document_tie_example_third_to_fifth(rules):
    """C.03: 10 pairs, III, IV and V tied: Tab.1 12,333 - Tab.2 32,333 - Tab.3 (13+11+9)/3."""
    assert "Tab.1 (15+12+10)/3 = 12,333 - Tab.2 (35+32+30)/3 = 32,333 - Tab.3 (13+11+9)/3 = 12,000" in rules
    ranks = [1, 2, 3, 3, 3, 6, 7, 8, 9, 10]
    f1 = [a.points for a in awards("bm.f1-fast", ranks)]
    indy = [a.points for a in awards("bm.indycar-hard", ranks)]
    hybrid = [a.points for a in awards("bm.f1-hybrid", ranks)]
    assert f1[2:5] == [12.333] * 3
    assert indy[2:5] == [32.333] * 3
    # 10 pairs = 5 tables: III 13, IV 11, V 9 as the formula says; 33/3 is 11, the printed
    # "12,000" is an arithmetic misprint (no column of Tab.3 gives 12 for III-V).
    assert hybrid[2:5] == [11.0] * 3
    assert hybrid == [20, 16, 11, 11, 11, 8, 6, 4, 2, 1]
    assert f1 == [25, 18, 12.333, 12.333, 12.333, 8, 6, 4, 2, 1]


def test_nb_example_sixth_place_independent_of_pairs():
    """n.b.: VI place = 8 (F1 FAST) and 28 (IndyCar HARD) with 6 or 11 pairs."""
    for pairs in (6, 11):
        assert award("bm.f1-fast", 6, pairs).points == 8
        assert award("bm.indycar-hard", 6, pairs).points == 28


def test_hybrid_by_tables_and_half_tables():
    assert award("bm.f1-hybrid", 1, 11).points == 22  # 5.5 tables
    assert award("bm.f1-hybrid", 11, 11).points == 1
    assert award("bm.f1-hybrid", 6, 6).points == 1  # 3 tables
    assert award("bm.f1-hybrid", 2, 9).points == 14  # 4.5 tables
    assert award("bm.f1-hybrid", 12, 12).points == 1  # 6+
    assert award("bm.f1-hybrid", 1, 16).points == 25  # 8 tables -> 6+
    assert award("bm.f1-hybrid", 3, 8, tables="5,5").points == 15
    assert award("bm.f1-hybrid", 3, 8, tables="6+").points == 16
    assert award("bm.f1-hybrid", 3, 8, tables=7).points == 16


def test_places_beyond_the_printed_rows_earn_nothing(quotes):
    """Issue 25, point 17: the tables print I°..XII°; a base pair 13th or 14th behind guests
    earns the points of its own place, and the tables give XIII° and XIV° none."""
    quotes("004")("Il punteggio è quello univoco della posizione acquisita, pertanto i punteggi ottenuti dalle "
                  "Coppie Ospiti non saranno assegnati.",
                  "Per la successiva Tab.3 il punteggio è l’incrocio della posizione in classifica ed il numero di "
                  "tavoli (e/o partecipanti).")
    for scheme in ("bm.f1-fast", "bm.indycar-hard", "bm.f1-hybrid"):
        assert [award(scheme, place, 14).points for place in (13, 14)] == [0, 0], scheme
    # 14 pairs (7 tables, the 6+ column): XII° keeps its own points, XII°-XIII° tied share them with XIII°'s 0
    assert [award(s, 12, 14).points for s in ("bm.f1-fast", "bm.indycar-hard", "bm.f1-hybrid")] == [0, 18, 1]
    tied = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 14]
    assert [awards("bm.indycar-hard", tied)[i].points for i in (11, 12, 13)] == [9, 9, 0]
    assert [awards("bm.f1-hybrid", tied)[i].points for i in (11, 12, 13)] == [0.5, 0.5, 0]
    # the extra PTS still goes to a pair placed there, and the waiting-list mean stays the printed 10,17
    assert award("bm.f1-hybrid", 13, 14, extra=True).points == 1
    assert award("bm.f1-hybrid", 1, 14, status="waiting").points == 10.17


def test_guest_places_are_not_passed_down():
    # a guest is 1st (its 25 is not given to anybody); base pairs keep their own places
    ranks = [1, 2, 3]
    base = [a.points for a in awards("bm.f1-fast", ranks)][1:]
    assert base == [18, 15]


def test_extra_point():
    assert award("bm.f1-fast", 2, 8, extra=True).points == 19
    assert award("bm.f1-hybrid", 1, 6, extra="yes").points == 13
    assert award("bm.indycar-hard", 3, [1, 2, 3, 3], extra=True).points == 34.5
    with pytest.raises(RuleError, match="extra"):
        award("bm.f1-fast", 1, 8, extra=True, status="waiting")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: award("bm.f1-hybrid", 1, 5), "at least 3 tables"),
        (lambda: award("bm.f1-hybrid", 1, 8, tables="2,5"), "at least 3 tables"),
        (lambda: award("bm.f1-hybrid", 1, 8, tables="4,2"), "whole or half tables"),
        (lambda: award("bm.f1-hybrid", 1, 8, tables="many"), "'many'"),
        (lambda: award("bm.f1-hybrid", 8, 8, tables=3), "place 8 does not exist with 3 tables"),
        (lambda: award("bm.f1-fast", 1, 8, status="sick"), "status must be one of"),
        (lambda: award("bm.f1-fast", 0, 8), "place must be a whole number from 1"),
    ],
)
def test_bad_input_is_a_rule_error(call, message):
    with pytest.raises(RuleError, match=message):
        call()


@settings(max_examples=60, deadline=None)
@given(
    scheme=st.sampled_from(["bm.f1-fast", "bm.indycar-hard", "bm.f1-hybrid"]),
    scores=st.lists(st.integers(0, 6), min_size=1, max_size=16),
    status=st.sampled_from(["played", "waiting", "ill", "unable"]),
)
def test_property_finite_non_negative_and_never_rising(scheme, scores, status):
    ranks = [1 + sum(other > s for other in scores) for s in scores]
    try:
        result = awards(scheme, ranks, status=status)
    except RuleError as error:
        assert str(error)
        assert scheme == "bm.f1-hybrid" and len(scores) < 6
        return
    points = [a.points for a in result]
    assert all(p >= 0 and p == p and p != float("inf") for p in points)
    order = sorted(range(len(ranks)), key=lambda i: ranks[i])
    assert all(points[a] >= points[b] for a, b in zip(order, order[1:]))
    if status == "played":
        # ties share: the total is the sum of the places (to rounding)
        column = get_scheme(scheme).column(ranks, {"tables": ""})
        total = sum(column[p - 1] for p in range(1, min(len(ranks), len(column)) + 1))  # XIII° on: 0
        assert abs(sum(points) - total) < 0.002 * len(ranks)
