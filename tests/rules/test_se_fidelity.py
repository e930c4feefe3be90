"""Svenska Mästarpoäng 2009, issue 25: the boards coefficient of table E1 (point 16) and the
printed figures to decide (point 19).

Every test quotes the sentence it rests on; ``quote`` checks that it is in the seed text.
The decisions, with their arithmetic, are in ``docs/rules/sweden.md`` ("Principles and
errata", "se.silver.team-barometer").
"""

from __future__ import annotations

import pytest

from xlbridge import awards
from xlbridge.rules.se_fsb import tables as t

ceil = t.ceil


@pytest.fixture(scope="module")
def quote(quotes):
    return quotes("000")


def given(scheme, n, **options):
    return [(a.points, a.unit) for a in awards(scheme, list(range(1, n + 1)), **options) if a.points]


def sp(*values):
    return [(float(v), "sp") for v in values]


def bp(*values):
    return [(float(v), "bp") for v in values]


# --------------------------------------------------------------------------- 16. E1 from 100 boards

COEFFICIENT = ("Om antalet brickor är minst 100 utdelas poäng efter 1,2 x poängantalet. Dock får poängen ej "
               "överstiga 100 oavsett koefficient.")


def test_e1_boards_coefficient_multiplies_the_winners_points(quote):
    quote(COEFFICIENT,
          "Om minst 100 brickor spelas används samma koefficient som i tabell D. Segrarens poäng utgår med 1,5 för "
          "varje deltagande lag.",
          "150-199 brickor 1,4 200-249 brickor 1,6",
          # where the document means the number of units, it says so:
          "Det är parantalet som multipliceras, inte poängen i tabellen.",
          "div 1 poäng efter 1,2 x lagantalet")
    # 16 teams: 24 points x 1,2 = 28,8 -> 29 (not the row of 1,2 x 16 -> 20 teams, 30); bronze B1 16 x 2
    assert given("se.silver.team-barometer", 16, boards=100) == sp(29, 20, 14, 10) + bp(20, 14)
    assert given("se.silver.team-barometer", 16, boards=150) == sp(34, 23, 16, 11) + bp(20, 14)  # 33,6 -> 34
    assert given("se.silver.team-barometer", 16, boards=200)[0] == (39.0, "sp")  # 38,4 -> 39
    # 15 teams: the table's 23 (1,5 x 15 = 22,5 -> 23) is the number of points multiplied: 27,6 -> 28
    assert given("se.silver.team-barometer", 15, boards=100)[0] == (28.0, "sp")


def test_e1_places_after_the_winner_follow_the_scale_of_that_winner(quote):
    quote("Tvåan, trean osv erhåller då poäng enligt tabellen för 46 par",
          "Vid 32 lag och färre gäller, att varje lag erhåller 2/3 av närmast bättre placerade lags poäng.",
          "Man tar medeltalet av vad närmast högre")
    # 29 is the winner of 19 teams: its row; 34 is no field's winner (22 teams 33, 23 teams 35): their mean
    assert t.winner_scale("E1", 29)[:5] == [p for p, _ in t.row("E1", 19)][:5] == [29, 20, 14, 10, 7]
    low, high = t.silver_scale("E1", 22)[:6], t.silver_scale("E1", 23)[:6]
    assert t.winner_scale("E1", 34)[:6] == [ceil((a + b) / 2) for a, b in zip(low, high)] == [34, 23, 16, 11, 8, 6]
    # up to 32 teams that is the 2/3 chain from the winner, as the table says
    assert t.winner_scale("E1", 34)[:6] == t.chain(34, 6)


def test_e1_winner_is_capped_in_points(quote):
    quote(COEFFICIENT)
    assert given("se.silver.team-barometer", 60, boards=100)[0] == (100.0, "sp")  # 90 x 1,2 = 108
    assert given("se.silver.team-barometer", 67)[0] == (100.0, "sp")  # 1,5 x 67 = 100,5 (was 99, 66 teams' row)
    assert given("se.silver.team-barometer", 66)[0] == (99.0, "sp")


def test_table_d_is_the_same_in_both_readings(quote):
    quote("Segraren erhåller lika många poäng som antalet deltagande par om alla par mött alla.")
    # D's winner gets as many points as there are pairs: 20 x 1,2 = 24 points, the scale of the 24-pair row
    assert given("se.silver.pairs", 20, boards=100)[:5] == sp(*[p for p, _ in t.row("D", 24)][:5]) == sp(24, 16, 11, 8, 6)
    assert given("se.silver.pairs", 60, met=30, boards=100)[0] == (56.0, "sp")  # 46 x 1,2 = 55,2 -> 56


def test_gold_team_barometer_takes_the_same_winner(quote):
    quote("Poäng vid guldtävlingar räknas som för silverpoäng men i guldvaluta. Skulle vinnarna fått 52 "
          "silverpoäng blir det 6 guldpoäng")
    # 22 teams, 100 boards: 33 x 1,2 = 39,6 -> 40 sp -> 4 gp (the row of 27 teams gave 41 sp -> 5 gp);
    # 40 is the mean of rows 26 (39, 26, 18, 12, 8, 6) and 27 (41, 28, 19, 13, 9, 6)
    result = given("se.gold.team-barometer", 22, boards=100)
    assert result[:6] == [(4.0, "gp"), (3.0, "gp"), (2.0, "gp")] + sp(13, 9, 6)
    assert given("se.gold.team-barometer", 16, boards=150)[:4] == [(4.0, "gp"), (3.0, "gp"), (2.0, "gp")] + sp(11)


def test_gold_individual_is_silver_individual_in_gold_without_a_boards_coefficient(quote):
    quote("Poäng vid guldtävlingar räknas som för silverpoäng men i guldvaluta.")
    quote("Tabellen gäller om alla spelare spelar med alla. Segrarens poäng blir 3/4 av antalet deltagare.")
    # table F has no coefficient for 100+ boards (D has one, E1 'samma koefficient som i tabell D'), so the
    # gold individual at 250 boards is what it is at 57: the F winner of 28 players, 21 sp -> 3 gp
    assert given("se.silver.individual", 28, boards=250)[0] == (21.0, "sp")
    assert given("se.gold.individual", 28, boards=250) == given("se.gold.individual", 28, boards=57)
    assert given("se.gold.individual", 28, boards=250)[:3] == [(3.0, "gp"), (2.0, "gp"), (10.0, "sp")]


# --------------------------------------------------------------------------- 19. printed figures to decide


@pytest.mark.parametrize(
    "table, field, place, printed, used, arithmetic",
    [
        # 'Fyran får vad trean + femman får delat med två'
        ("A2", 72, 4, 63, 60, lambda: ceil((t.row("A", 72)[2][0] + t.row("A", 72)[4][0]) / 2)),
        # 'sexan vad femman + sjuan får delat med två'
        ("A2", 80, 6, 43, 47, lambda: ceil((t.row("A", 80)[4][0] + t.row("A", 80)[6][0]) / 2)),
        # 'nian som fyran': the 4th of 43 pairs, the mean of rows 42 and 44
        ("A2", 86, 9, 34, 36, lambda: ceil((t.row("A", 42)[3][0] + t.row("A", 44)[3][0]) / 2)),
        # 'Tvåan erhåller 2/3 av ettan' (C above 32 players follows A2)
        ("C", 34, 2, 32, 34, lambda: ceil(2 * 51 / 3)),
        # 'trean erhåller lika många poäng som ettan vid halva parantalet'
        ("D", 82, 3, 46, 41, lambda: t.row("D", 41)[0][0]),
        ("D", 76, 9, 15, 16, lambda: t.row("D", 38)[3][0]),
        # red figures: table B1 x 2
        ("E1", 12, 4, 20, 22, lambda: 2 * t.row("B1", 12)[3][0]),
    ],
)
def test_misprints_use_the_principle_with_its_arithmetic(table, field, place, printed, used, arithmetic):
    family = "A" if table == "A2" else table
    assert t.printed(table)[field][place - 1][0] == printed
    erratum = t.errata()[(table, field, place)]
    assert (erratum["decision"], erratum["used"].split()[0]) == ("principle", str(used))
    assert arithmetic() == used == t.row(family, field)[place - 1][0]
    # and it keeps the order with the same place (in the same currency) of the neighbouring printed rows
    sizes = sorted(t.printed(table))
    unit = t.row(family, field)[place - 1][1]
    below, above = (t.row(family, sizes[sizes.index(field) + k])[place - 1] for k in (-1, 1))
    assert below[1] != unit or below[0] <= used
    assert above[1] != unit or used <= above[0]


def test_e1_red_figures_are_b1_doubled_up_to_30_teams_but_the_misprint(quote):
    quote("multiplicerar bronspoäng med tre för guldtävlingar och med två för silvertävlingar",
          "Om antalet bronspoäng för bästa placering överskrider antalet silverpoäng för lägsta placering sker "
          "reducering efter anpassad skala.")
    for teams in range(8, 31):
        cells = t.printed("E1")[teams]
        for place, (points, unit) in enumerate(cells, start=1):
            if unit == "bp" and (teams, place) != (12, 4):
                assert points == 2 * t.row("B1", teams)[place - 1][0], (teams, place)
    # row 12: 18, 12, 8 sp, then 2 x 11 (B1 12/4: 2/3 x 16 = 10 2/3, rounded up); 22 bp is less than 8 sp
    assert given("se.silver.team-barometer", 12) == sp(18, 12, 8) + bp(22)


def test_e1_row_60_is_the_principle():
    printed = [p for p, _ in t.printed("E1")[60]]
    assert printed[:3] == [72, 48, 36] and len(printed) == 17  # 1,5 x 48; 15 silver and 2 of 5 red places
    half = t.silver_scale("E1", 30)  # 45, 30, 20, 14, 10, 7, 5, 4, ...
    row = [p for p, _ in t.row("E1", 60)]
    # winner 1,5 x 60; second 2/3 of it; odd places the half field's; even places the mean of their neighbours
    assert row[:5] == [90, 60, half[0], ceil((half[0] + half[1]) / 2), half[1]] == [90, 60, 45, 38, 30]
    assert row[:15] == [90, 60, 45, 38, 30, 25, 20, 17, 14, 12, 10, 9, 7, 6, 5]
    # places 16-20 (one third of 60): table B1 60 = A2 60 x 1,5, then x 2
    assert row[15:] == [2 * ceil(1.5 * t.row("A", 60)[p][0]) for p in range(15, 20)] == [16, 12, 12, 12, 12]


def test_e4_quarter_scale_is_five_points_no_misprint(quote):
    quote("I varje match spelas om 10 poäng. Minsta antalet brickor: 12 Man får spela 6-11 brickor med 1/4 skala, "
          "dvs man spelar om 5 poäng/ match.",
          "Segrarpoängen utgår med 20 per vunnen match",
          "Silver En match om minst 24 brickor, 12-23 brickor är ett halvt speltillfälle, 6-11 brickor i serie/cup "
          "är ¼ speltillfälle.")
    full = awards("se.silver.team-series", [1, 2], table="e2", boards=24)[0].points
    assert full == 20
    # E4's 10 is the half scale of a 12-23-board match; 6-11 boards a quarter of the full 20: 5
    assert awards("se.silver.team-series", [1, 2], table="e4", boards=12)[0].points == full / 2
    assert awards("se.silver.team-series", [1, 2], table="e4", boards=8)[0].points == full / 4 == 5
    assert awards("se.silver.team-series", [1, 1], table="e4", boards=8)[0].points == 2.5


def test_b_final_example_bronze_is_the_undoubled_a2_row(quote):
    quote("Man skulle kunna fördela sp på detta sättet: 43, 29, 21, 18, 14, 12, 10, 9, 7, 5 sp i A-final och 4 sp, "
          "10, 8, 7, 6, 5, 4, 4, 4, 4 bp i B-final under förutsättning att man har carry-over där också.",
          "multiplicerar bronspoäng med tre för guldtävlingar och med två för silvertävlingar")
    b = given("se.silver.pairs", 20, qual_rounds=12, final_rounds=12, total=60, above=10, approved=True)
    # the example's bronze is A2 row 60, places 12-20, as printed: not x 2 (which would give 20, 16, 14, ...)
    assert b == sp(4) + bp(*[p for p, _ in t.row("A", 60)[11:20]]) == sp(4) + bp(10, 8, 7, 6, 5, 4, 4, 4, 4)
