"""Svenska Mästarpoäng 2009 at the edges (issue 15): the met rule, unprinted silver rows, ties
across currencies, the 24-month window, A2 46/2.

Every test quotes the sentence of the document it rests on; ``quote`` checks that the
sentence is in the seed text (``docs/sources/000_...``, whitespace normalised).  The
decisions are written in ``docs/rules/sweden.md``.
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from xlbridge import award, awards
from xlbridge.rules import se_fsb as se
from xlbridge.rules.se_fsb import tables as t


@pytest.fixture(scope="module")
def quote(quotes):
    return quotes("000")


def cells(scheme, n, **options):
    return [(a.points, a.unit) for a in awards(scheme, list(range(1, n + 1)), **options)]


def value(a) -> Fraction:
    """An award's worth in bp (1 gp = 10 sp = 100 bp), every currency part counted."""
    return sum(Fraction(p) * se.VALUE[u] for p, u in a.parts)


# --------------------------------------------------------------------------- 2. not all met


RED_RULE = "OBS! Dessa poäng gäller om alla mött alla. I övriga fall måste man gå in i tabellen för bronspoäng och rätt parantal."
MET_RULE = ("Om inte alla mött alla, blir segrarens poäng summan av 1 (egna paret) + antalet par man mött + hälften "
            "av det antal par man inte mött. Decimaler avrundas uppåt.")


def test_40_pairs_each_met_38_get_the_bronze_table_of_the_real_field(quote):
    # 1 + 38 + 1/2 = 39.5 -> 40: the winner is the field's, but not all met all, so the red figures of
    # row 40 (12, 8, 8, 8 bp) do not apply; the bronze table of 40 pairs x 2 does (A2 40: 8, 7, 6, 4)
    quote(RED_RULE, MET_RULE)
    assert se.met_winner(40, 38) == 40
    result = cells("se.silver.pairs", 40, met=38)
    assert result[10] == (16.0, "bp")  # was 12 bp
    assert result[:10] == [(float(p), "sp") for p in (40, 27, 20, 17, 14, 12, 10, 9, 7, 5)]
    assert result[10:14] == [(16.0, "bp"), (14.0, "bp"), (12.0, "bp"), (8.0, "bp")]
    assert cells("se.silver.pairs", 40)[10:14] == [(12.0, "bp"), (8.0, "bp"), (8.0, "bp"), (8.0, "bp")]  # all met all


def test_no_jump_between_met_38_and_met_37():
    # the bronze part depends on the real field only, whatever the number of pairs met
    assert cells("se.silver.pairs", 40, met=38)[10:] == cells("se.silver.pairs", 40, met=37)[10:]


@settings(max_examples=150, deadline=None)
@given(n=st.integers(16, 160), met=st.integers(1, 158))
@example(n=40, met=38)
@example(n=100, met=98)
def test_not_all_met_pays_the_bronze_table_of_the_real_field_x_2(n, met):
    met = min(met, n - 2)  # 1 .. n - 2: not all met all
    result = awards("se.silver.pairs", list(range(1, n + 1)), met=met)
    silver = [a for a in result if a.unit == "sp" and a.points]
    bronze = t.row("A", n)
    lowest = silver[-1].points
    for place in range(len(silver) + 1, t.third(n) + 1):
        expected = 2 * (bronze[place - 1][0] if place <= len(bronze) else 4)
        assert (result[place - 1].points, result[place - 1].unit) == (min(expected, 10 * lowest), "bp"), (n, met, place)


def test_team_barometer_and_sm_pairs_round_1_read_met_the_same_way(quote):
    quote("OBS! Att dessa poäng gäller om alla mött alla eller motsvarande ronder. I övriga fall måste man gå in i "
          "tabellen för bronspoäng och rätt parantal.")
    # E1, 36 teams, each met 34 (1 + 34 + 1/2 -> 36): bronze is B1 row 36 x 2 (11, 9, 6 x 2), not the red 16, 12, 8
    assert cells("se.silver.team-barometer", 36)[9:12] == [(16.0, "bp"), (12.0, "bp"), (8.0, "bp")]
    assert cells("se.silver.team-barometer", 36, met=34)[9:12] == [(22.0, "bp"), (18.0, "bp"), (12.0, "bp")]
    # H1 round 1, 40 pairs each met 38: as table D
    assert cells("se.gold.sm-pairs-final", 40, round="1", met=38)[10:14] == cells("se.silver.pairs", 40, met=38)[10:14]


def test_individual_not_all_with_all_follows_the_table_row_like_pairs(quote):
    quote("Om alla inte spelar med alla, används", "samma princip som för par. Ex: 24 spelare som spelar 19 ronder. "
          "(19+1) x 0,75 + 4 x 0,75/2 = 16,5=17 sp.")
    # 48 players, 46 rounds: 1 + 46 + 1/2 -> the row of 48 for silver ('enligt tabellen'), table C x 2 for bronze
    result = cells("se.silver.individual", 48, rounds=46)
    assert result[:12] == cells("se.silver.individual", 48)[:12]  # was 4 sp at 12th (the principle), printed 3
    assert result[12:16] == [(2.0 * p, "bp") for p, _ in t.row("C", 48)[12:16]]


def test_a_boards_coefficient_takes_bronze_from_the_bronze_table(quote):
    quote("Bästa fjärdedelen erhåller silverpoäng dock högst 16 par. Därefter erhåller paren ner till 1/3 "
          "bronspoäng enligt skalan för antalet startande par i tävlingen.")
    # 100 pairs, 100 boards: 1.2 x 100 -> capped at 100, the field's own winner -- but not the printed red figures
    result = cells("se.silver.pairs", 100, boards=100)
    assert result[:16] == cells("se.silver.pairs", 100)[:16]
    assert result[23] == (2.0 * t.row("A", 100)[23][0], "bp") == (20.0, "bp")  # printed red: 16 bp
    assert cells("se.silver.pairs", 100)[23] == (16.0, "bp")


# --------------------------------------------------------------------------- 2. unprinted silver rows

MEAN_RULE = "Udda parantal är inte angivna. Man tar medeltalet av vad närmast högre"


def test_96_pairs_26th_place_lies_between_rows_90_and_100(quote):
    quote(MEAN_RULE, "Vid fler än 32 par används samma princip som i tabell A2.")
    assert [award("se.silver.pairs", 26, n) for n in (90, 96, 100)] == [se.Award(8.0, "bp")] * 3  # 96 was 16 bp


def _printed_rows(family):
    """The printed rows, less one whose winner the errata replace (E1 "60" prints a 48-unit field's scale)."""
    return sorted(f for f in t.final_printed(family)
                  if t.errata().get((t.table_of(family, f), f, 1), {}).get("decision") != "principle")


def _neighbours(family, n):
    rows = _printed_rows(family)
    return max(f for f in rows if f < n), min(f for f in rows if f > n)


UNPRINTED = [(family, n) for family in t.SILVER for n in range(33, 101)
             if n not in t.final_printed(family) and _printed_rows(family)[-1] > n]


def test_the_unprinted_rows_are_those_between_printed_rows_above_32():
    got = {family: [n for f, n in UNPRINTED if f == family] for family in t.SILVER}
    assert got["D"] == [*range(53, 90, 2), *range(91, 100)]
    assert got["E1"] == [33, 35, 37, 39]  # E1 "60" prints another field's scale (errata): no neighbour
    assert got["F"] == [n for n in range(33, 64) if n % 4]
    assert all(t.interpolated(family, n) == t.row(family, n) for family, n in UNPRINTED)
    assert t.interpolated("D", 101) is None and t.interpolated("E1", 50) is None and t.interpolated("F", 30) is None


@pytest.mark.parametrize("family, n", UNPRINTED)
def test_an_unprinted_silver_row_lies_between_its_printed_neighbours(family, n):
    lo, hi = _neighbours(family, n)
    row, low, high = t.row(family, n), t.row(family, lo), t.row(family, hi)
    assert row[0][0] == t.WINNER[family](n)  # the table's own winner
    assert [u for _, u in row] == ["sp"] * t.quarter(n) + ["bp"] * (t.third(n) - t.quarter(n))
    for place, (points, unit) in enumerate(row, start=1):
        assert all(p <= points for p, u in row[place:] if u == unit)  # never rises down the row
        below = low[place - 1] if place <= len(low) else (8, "bp")
        above = high[place - 1]
        if below[1] == above[1] == unit:
            assert min(below[0], above[0]) <= points <= max(below[0], above[0]), (family, n, place)
    if hi - lo == 2:  # the document's own rule for the rows it leaves out: the mean, rounded up
        for place, (points, unit) in enumerate(row, start=1):
            if unit == "sp":  # the lower row's silver continued by its 2/3 rule where it has fewer silver places
                a, b = t.silver_scale(family, lo)[place - 1], t.silver_scale(family, hi)[place - 1]
            else:  # past the lower row's third: the doubled minimum, 8 bp
                a, b = (low[place - 1][0] if place <= len(low) else 8), high[place - 1][0]
            assert points == -(-(a + b) // 2), (family, n, place)


def test_silver_pairs_awards_never_fall_as_the_field_grows():
    # place by place, all met all, 16..100 pairs: a larger field never pays a place less
    previous = None
    for n in range(16, 101):
        worth = [value(a) for a in awards("se.silver.pairs", list(range(1, n + 1)))]
        if previous:
            assert all(b >= a for a, b in zip(previous, worth) if a), n
        previous = worth


# --------------------------------------------------------------------------- 3. ties across currencies

TIE_RULE = ("Delad placering: Par som delar en placering, delar lika på de poäng som de berörda placeringarna ger "
            "tillsammans och alla decimaler avrundas uppåt.")


def test_silver_16_pairs_tie_for_4th_and_5th_shares_6_sp_and_14_bp(quote):
    quote(TIE_RULE)
    untied = awards("se.silver.pairs", list(range(1, 17)))
    assert untied[3].parts == ((6.0, "sp"),) and untied[4].parts == ((14.0, "bp"),)
    tied = awards("se.silver.pairs", [1, 2, 3, 4, 4, *range(6, 17)])
    assert tied[3] == tied[4] == se.Award(3.0, "sp", also=((7.0, "bp"),))  # was 4 sp each
    assert str(tied[3]) == "3 sp + 7 bp"


def test_gold_52_pairs_tie_for_3rd_and_4th_shares_3_gp_and_22_sp(quote):
    quote(TIE_RULE, "Skulle vinnarna fått 52 silverpoäng blir det 6 guldpoäng")
    untied = awards("se.gold.pairs", list(range(1, 53)), boards=60)
    assert untied[2].parts == ((3.0, "gp"),) and untied[3].parts == ((22.0, "sp"),)
    tied = awards("se.gold.pairs", [1, 2, 3, 3, *range(5, 53)], boards=60)
    # 3 gp / 2 = 1.5 -> 2 gp (rounded up), 22 sp / 2 = 11 sp: together 4 gp + 22 sp for places of 3 gp + 22 sp
    assert tied[2] == tied[3] == se.Award(2.0, "gp", also=((11.0, "sp"),))  # was 3 gp each


def test_a_tie_past_the_last_place_gets_the_minimum_in_its_last_currency(quote):
    quote("Delad sista bp-plats ger 4 bp till alla som delar platsen.")
    # 16 pairs: silver 16 11 8 6, red 14 10; a tie for 6th-8th shares 10 bp three ways -> 4, at least 8 (x 2)
    tied = awards("se.silver.pairs", [1, 2, 3, 4, 5, 6, 6, 6, *range(9, 17)])
    assert tied[5].parts == ((8.0, "bp"),)
    # a tie for 4th-8th: 6 sp and 24 bp over 5 pairs -> 2 sp (1.2 rounded up) + 8 bp (4.8 -> 5, at least 8)
    tied = awards("se.silver.pairs", [1, 2, 3, 4, 4, 4, 4, 4, *range(9, 17)])
    assert tied[3].parts == ((2.0, "sp"), (8.0, "bp"))


# --------------------------------------------------------------------------- 4. the 24-month window

WINDOW = "Resultat äldre än 24 månader stryks. Man får räkna sina 18 bästa resultat."


@pytest.mark.parametrize("result, last_day", [
    (date(2022, 6, 1), date(2024, 6, 1)),
    (date(2022, 8, 31), date(2024, 8, 31)),
    (date(2022, 2, 28), date(2024, 2, 28)),  # into a leap year: 29 Feb 2024 is one day too late
    (date(2020, 2, 29), date(2022, 2, 28)),  # out of a leap day: the month's last day
    (date(2021, 12, 31), date(2023, 12, 31)),
    (date(2022, 1, 1), date(2024, 1, 1)),
])
def test_a_result_counts_up_to_the_day_24_months_later_and_is_struck_the_day_after(quote, result, last_day):
    quote(WINDOW)
    assert se.ranking_total([(result, 12)], last_day) == 12  # 2022-06-01 on 2024-06-01: was 0
    assert se.ranking_total([(result, 12)], date.fromordinal(last_day.toordinal() + 1)) == 0
    assert se.ranking_total([(result, 12)], result) == 12
    assert se.ranking_total([(result, 12)], date.fromordinal(result.toordinal() - 1)) == 0  # not yet played


def test_se_ranking_worksheet_function_keeps_the_last_valid_day(quote):
    from xlbridge.excel.functions import se_ranking

    quote(WINDOW)
    points, units, events = [[12.0], [20.0]], [["sp"], ["sp"]], [["silver"], ["silver"]]
    dates = [[date(2022, 6, 1)], [date(2024, 6, 1)]]
    assert se_ranking(points, units, events, dates) == 32  # as of the latest date, 2024-06-01: was 20
    assert se_ranking(points, units, events, dates, date(2024, 6, 2)) == 20


# --------------------------------------------------------------------------- 5. A2 46 pairs, 2nd place


def test_a2_46_pairs_second_place_is_two_thirds_of_92_rounded_up(quote):
    quote("Tvåan erhåller 2/3 av ettan", "Decimaler avrundas uppåt.")
    assert t.printed("A2")[46][1] == (61, "bp")  # as printed
    assert t.row("A", 46)[1] == (62, "bp")  # 2/3 x 92 = 61 1/3 -> 62
    assert award("se.bronze.pairs", 2, 46) == se.Award(62.0, "bp")  # was 61
    assert t.errata()[("A2", 46, 2)]["decision"] == "principle"
    # every other printed row of A1 and A2: the second place is 2/3 of the winner rounded up
    for table in ("A1", "A2"):
        for field, row in t.printed(table).items():
            if (table, field) != ("A2", 46):
                assert row[1][0] == -(-2 * row[0][0] // 3), (table, field)
    # the rows built on it: 45 is the mean of 44 and 46 ('Man tar medeltalet'), the printed 90 and 92 stay printed
    assert t.row("A", 45)[1] == (61, "bp")
    assert t.row("A", 92)[4] == (61, "bp") and t.row("A", 90)[4] == (60, "bp")
