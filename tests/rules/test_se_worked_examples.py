"""Svenska Mästarpoäng 2009: the worked examples and stated figures that were not yet tests.

The other examples are in ``test_se_fsb.py`` (page 4 A/B finals, page 12 60/30, 200/30 and
142/29 winners, page 15 24 players 19 rounds, gold 52 -> 6, simultaneous, rally, beginners,
handicap, master classes, ranking 22,5 gp), ``test_se_sections.py`` (E7, G3, reserves, B/C
finals) and ``test_se_edges.py`` (issue 15).  Every test quotes its sentence; ``quote``
checks it is in the seed text.
"""

from __future__ import annotations

import pytest

from xlbridge import award, awards
from xlbridge.rules import se_fsb as se
from xlbridge.rules.se_fsb import tables as t


@pytest.fixture(scope="module")
def quote(quotes):
    return quotes("000")


def given(scheme, n, **options):
    return [(a.points, a.unit) for a in awards(scheme, list(range(1, n + 1)), **options) if a.points]


def test_page12_example1_bronze_of_places_17_to_67_from_the_200_scale(quote):
    quote("16 par får silverpoäng efter 100-parsskalan i tabell D. Ytterligare 51 par får bronspoäng. 17-67 plats "
          "får bronspoäng efter 200-skalan.",
          "Om antalet bronspoäng för bästa placering överskrider antalet silverpoäng för lägsta placering sker "
          "reducering efter anpassad skala.")
    result = given("se.silver.pairs", 200, met=30)
    lowest_silver = result[15]
    assert lowest_silver == (7.0, "sp")
    scale = t.row("A", 200)  # the 200-pair bronze table, x 2 in a silver event, never above the lowest silver
    assert result[16:] == [(float(min(2 * p, 10 * 7)), "bp") for p, _ in scale[16:67]]


def test_page12_example2_bronze_of_places_17_to_48_from_the_142_scale(quote):
    quote("Ytterligare 32 par får bronspoäng, 17-48 plats får bronspoäng efter 142-skalan.")
    result = given("se.silver.pairs", 142, met=29)
    assert result[15] == (5.0, "sp")
    assert result[16:] == [(float(min(2 * p, 50)), "bp") for p, _ in t.row("A", 142)[16:48]]


def test_page12_boards_coefficients_1_4_and_1_6(quote):
    quote("För varje fullt 50-tal brickor därutöver ökas koefficienten med 0,2 150-199 brickor 1,4 200-249 "
          "brickor 1,6 osv.")
    # 30 pairs: 1.2 x 30 = 36, 1.4 x 30 = 42, 1.6 x 30 = 48, 1.8 x 30 = 54 -- the winner of that row
    assert [award("se.silver.pairs", 1, 30, boards=b).points for b in (100, 150, 200, 249, 250)] == [36, 42, 48, 48, 54]


def test_page4_championship_qualification_needs_12_pairs(quote):
    quote("Mästerskapkval. 12 42 Lag 4 42 Lagbaromter 8 42 Individuellt 16 38 Till Mästerskapskvalificeringar "
          "räknas SM-kvalificeringar och DM-finaler.")
    assert given("se.silver.pairs", 12, championship=True)[0] == (12.0, "sp")


def test_page3_manual_report_fees(quote):
    quote("Brons 0,50 kronor per bronspoäng. Silver 1 krona per silverpoäng. Guld 20 kronor per guldpoäng.")
    assert se.manual_report_fee(bp=100, sp=10, gp=1) == 50 + 10 + 20


def test_page3_sessions_of_team_events(quote):
    quote("Brons En match om minst 24 brickor, 12-23 brickor är ett halvt speltillfälle, 6-11 brickor i serie/cup "
          "är ¼ speltillfälle.",
          "Lagbarometer har samma kostnad som partävling silver, 5 kronor/spelare.")
    assert se.sessions("bronze", "teams", 24) == 1 and se.sessions("bronze", "teams", 12) == 0.5
    assert se.sessions("bronze", "teams", 8, series=True) == 0.25
    assert se.fee("silver", "barometer", 32) == 32 * 5


def test_page3_silver_events_a_club_may_hold(quote):
    quote("En klubb med färre än 100 medlemmar kan få sanktion för högst fem silvertävlingar per spelår, varav högst "
          "tre på vardagar. Klubb med 100-199 medlemmar räknas som två klubbar (10 silvertävlingar) och 200 eller "
          "fler som tre klubbar (15).")
    assert [se.silver_events_allowed(m) for m in (99, 100, 199, 200)] == [5, 10, 10, 15]


def test_page14_e2_half_points_are_added_and_the_final_decimal_rounded_up(quote):
    quote("A, B och C erhåller 5 poäng var, D och E 2½ poäng. Halvpoängen adderas i tävlingen och eventuell "
          "slutpoängsdecimal avrundas uppåt.")
    half = se.player_share(20, 1)
    assert half == 2.5 and se.series_total([half, half, half]) == 8  # 7.5 -> 8
    assert se.series_total([half, half]) == 5


def test_page14_e6_junior_semifinal_20_per_match(quote):
    quote("Tabell E6, JSM-semifinaler för lag. I varje match spelas om 20 poäng om minst 20 brickor spelas.")
    assert given("se.silver.team-series", 2, table="e6") == [(20.0, "sp")]


def test_page16_g1_draws(quote):
    quote("För varje vunnen match om 20 brickor utan halvtidspaus erhåller laget 12 gp och vid oavgjort 6 gp. Vid 24 "
          "brickor utan halvtidspaus 16 gp och vid oavgjort 8 gp (17-13, 16-14 och 15-15 räknas som oavgjort.)")
    assert [a.points for a in awards("se.gold.team-series", [1, 1], table="g1", boards=20)] == [6, 6]
    for vp in ("17-13", "16-14", "15-15"):
        assert [a.points for a in awards("se.gold.team-series", [1, 2], table="g1", boards=24, vp=vp)] == [8, 8]


def test_page16_h1_round_2b_under_100_pairs_three_gold_places_by_the_normal_scale(quote):
    quote("I omgång 2B utdelas 10-7-6-5 gp om minst 100 par deltar. Annars får de tre första gp enligt normal skala "
          "och därefter sp och bp till berättigade.")
    # 80 pairs: table D row 80 (80, 54, 40 sp) in gold, 52 sp -> 6 gp style: 8, 6, 4 gp; then silver
    result = given("se.gold.sm-pairs-final", 80, round="2b")
    assert result[:4] == [(8.0, "gp"), (6.0, "gp"), (4.0, "gp"), (33.0, "sp")]
