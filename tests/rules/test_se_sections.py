"""Svenska Mästarpoäng 2009: the rules closed after the first build -- Allsvenskan div III in gold (E7),
the G3 winner's bonus, walkover, deliberately abandoned events, reserves and B/C finals with carry-over.
Every figure is the document's own (quoted)."""

from __future__ import annotations

import pytest

from xlbridge import RuleError, award, awards
from xlbridge.rules import se_fsb as se


def pts(scheme, ranks, **options):
    return [(a.points, a.unit) for a in awards(scheme, ranks, **options)]


# --------------------------------------------------------------------------- E7: Allsvenskan div III


def test_e7_div3_match_is_32_sp_and_div4_20():
    # 'I div III spelas om 32 poäng per match och i div IV 20.'
    assert pts("se.silver.team-series", [1, 2], table="e7", division=3) == [(32, "sp"), (0, "sp")]
    assert pts("se.silver.team-series", [1, 2], table="e7", division=4) == [(20, "sp"), (0, "sp")]


def test_e7_first_and_second_of_div3_are_paid_in_gold_at_10_sp_per_gp():
    # 'För ettan och tvåan i div III omvandlas silverpoängen till guldpoäng.' 1 gp = 10 sp (section 1).
    won = pts("se.silver.team-series", [1, 2], table="e7", division=3, final_place=1)
    assert won == [(3.2, "gp"), (0, "gp")]
    drawn = pts("se.silver.team-series", [1, 1], table="e7", division=3, final_place=2)
    assert drawn == [(1.6, "gp"), (1.6, "gp")]
    # third place keeps silver
    assert pts("se.silver.team-series", [1, 2], table="e7", division=3, final_place=3)[0] == (32, "sp")
    # a player who played every match of five won matches: 5 x 3.2 / 4 = 4.0 gp (no float drift)
    share = se.player_share(3.2, 2)
    assert se.series_total([share] * 5) == 4.0


def test_e7_conversion_of_a_total_follows_the_52_sp_to_6_gp_example():
    # Gold section: 'Skulle vinnarna fått 52 silverpoäng blir det 6 guldpoäng'
    assert se.allsvenskan_div3_gold(52, 1) == se.Award(6.0, "gp")
    assert se.allsvenskan_div3_gold(52, 2) == se.Award(6.0, "gp")
    assert se.allsvenskan_div3_gold(52, 3) == se.Award(52.0, "sp")
    # 'Rankingpoäng baseras dock på det inspelade antalet silverpoäng': rank on the 52 sp
    assert se.ranking_points(52, "sp", "silver") == 52


def test_e7_final_place_only_in_div3():
    with pytest.raises(RuleError, match="division III"):
        awards("se.silver.team-series", [1, 2], table="e7", division=4, final_place=1)
    with pytest.raises(RuleError, match="division III"):
        awards("se.silver.team-series", [1, 2], table="e2", final_place=1)
    with pytest.raises(RuleError, match="final_place"):
        se.allsvenskan_div3_gold(52, 0)


# --------------------------------------------------------------------------- G3: 20 % bonus


def test_g3_div1_winner_gets_20_percent_bonus_rounded_up():
    # 'I div I spelas om 12 poäng per match och i div II 6. ... Segraren i Div I får 20% bonustillägg
    # på sina inspelade poäng. Ingen bonus utdelas i Div II.'
    assert award("se.gold.team-series", 1, 2, table="g3", division=1).points == 12
    assert award("se.gold.team-series", 1, 2, table="g3", division=2).points == 6
    assert se.allsvenskan_bonus(12) == se.Award(3.0, "gp")  # 2.4 -> 3
    assert se.allsvenskan_bonus(60) == se.Award(12.0, "gp")
    assert se.allsvenskan_bonus(60, final_place=2).points == 0
    assert se.allsvenskan_bonus(36, division=2).points == 0
    # 'Bonus i Allsvenskan ... ger ej rankingpoäng'
    assert se.ranking_points(12, "gp", "bonus") == 0
    with pytest.raises(RuleError, match="division 1 or 2"):
        se.allsvenskan_bonus(12, division=3)


# --------------------------------------------------------------------------- walkover


@pytest.mark.parametrize("scheme, table", [("se.bronze.team-series", "b2"), ("se.silver.team-series", "e2"),
                                           ("se.gold.team-series", "g1")])
def test_walkover_gives_no_points(scheme, table):
    # 'Inga mp utdelas för wo-seger.'
    assert all(p == 0 for p, _ in pts(scheme, [1, 2], table=table, walkover=True))
    assert pts(scheme, [1, 2], table=table)[0][0] > 0
    # typed in the options text in the club's language: ja / nej
    assert pts(scheme, [1, 2], table=table, walkover="ja") == pts(scheme, [1, 2], table=table, walkover=True)
    assert pts(scheme, [1, 2], table=table, walkover="nej") == pts(scheme, [1, 2], table=table)
    assert pts(scheme, [1, 2], table=table, walkover="sì") == pts(scheme, [1, 2], table=table, walkover=True)


# --------------------------------------------------------------------------- deliberately abandoned events


@pytest.mark.parametrize("scheme, n, options", [
    ("se.silver.pairs", 20, {}), ("se.silver.team-barometer", 8, {}), ("se.silver.individual", 16, {}),
    ("se.gold.pairs", 32, {}), ("se.gold.team-barometer", 16, {}), ("se.gold.individual", 32, {}),
    ("se.silver.simultaneous-heat", 8, {}),
])
def test_deliberately_abandoned_silver_or_gold_event_gives_no_points(scheme, n, options):
    # 'Inga mp delas ut om en silver- eller guldtävling avsiktligt avbryts innan alla brickor spelats.'
    ranks = list(range(1, n + 1))
    assert pts(scheme, ranks, **options)[0][0] > 0
    assert all(p == 0 for p, _ in pts(scheme, ranks, stopped=True, **options))


# --------------------------------------------------------------------------- reserves


def test_reserve_needs_half_the_rounds_or_half_the_boards():
    # 'minst hälften av antalet omgångar i tävlingen, eller ha spelat minst 50 % av brickorna'
    assert se.reserve_share(46, 15, 30, 0, 90) == 46  # half the rounds
    assert se.reserve_share(46, 14, 30, 45, 90) == 46  # 50 % of the boards
    assert se.reserve_share(46, 14, 30, 44, 90) == 0  # neither
    assert se.reserve_share(46, 0, 30, 0, 90) == 0


def test_multi_evening_reserve_gets_its_share_rounded_up():
    # 'Vid flerkvällarstävling får reserven sin andel av erövrade mästarpoäng.' -- 46 sp (page 12 example
    # figure) for a four-evening event, the reserve played two evenings: 23 sp; three evenings of 43: 32.25 -> 33
    assert se.reserve_share(46, 6, 12, 72, 144, evenings_played=2, evenings=4) == 23
    assert se.reserve_share(43, 9, 12, 108, 144, evenings_played=3, evenings=4) == 33
    assert se.reserve_share(43, 3, 12, 36, 144, evenings_played=1, evenings=4) == 0  # not half


def test_reserve_share_bad_input():
    with pytest.raises(RuleError, match="rounds_played must be 0..10"):
        se.reserve_share(40, 11, 10, 0, 30)
    with pytest.raises(RuleError, match="boards must be at least 1"):
        se.reserve_share(40, 5, 10, 0, 0)
    with pytest.raises(RuleError, match="evenings_played and evenings"):
        se.reserve_share(40, 5, 10, 15, 30, evenings=4)
    with pytest.raises(RuleError, match="points must be a number"):
        se.reserve_share("x", 5, 10, 15, 30)


# --------------------------------------------------------------------------- bonus eligibility


def test_bonus_eligibility_rules():
    # B2/B3: 'minst 1/3 av totala antalet halvlekar'
    assert se.series_bonus_eligible(6, 18) and not se.series_bonus_eligible(5, 18)
    # G1: 'minst två 20-brickorsmatcher eller tre halvlekar vid 24-brickorsmatcher'
    assert se.sm_teams_bonus_eligible(20, matches_played=2)
    assert not se.sm_teams_bonus_eligible(20, matches_played=1)
    assert se.sm_teams_bonus_eligible(24, halves_played=3)
    assert se.sm_teams_bonus_eligible(24, matches_played=1, halves_played=1)
    assert not se.sm_teams_bonus_eligible(24, halves_played=2)
    with pytest.raises(RuleError, match="20- or 24-board"):
        se.sm_teams_bonus_eligible(16, matches_played=3)
    # DM bonus: 'I partävling måste man ha deltagit i minst 50 % av tävlingen för att få bonus.'
    assert se.dm_pairs_bonus_eligible(27, 54) and not se.dm_pairs_bonus_eligible(26, 54)


# --------------------------------------------------------------------------- B/C finals with carry-over


def final(n, **options):
    return [(int(p), u) for p, u in pts("se.silver.pairs", list(range(1, n + 1)), **options)]


def test_page4_b_final_with_carry_over_the_documents_distribution():
    # 'Exempel: 60 par och kval över 12 ronder och sedan en final över 12 ronder med carry-over. ...
    # Man skulle kunna fördela sp på detta sättet: 43, 29, 21, 18, 14, 12, 10, 9, 7, 5 sp i A-final och
    # 4 sp, 10, 8, 7, 6, 5, 4, 4, 4, 4 bp i B-final under förutsättning att man har carry-over där också.'
    common = dict(qual_rounds=12, final_rounds=12, total=60)
    assert final(10, **common) == [(v, "sp") for v in (43, 29, 21, 18, 14, 12, 10, 9, 7, 5)]
    b = final(20, above=10, approved=True, **common)
    assert [c for c in b if c[0]] == [(4, "sp")] + [(v, "bp") for v in (10, 8, 7, 6, 5, 4, 4, 4, 4)]
    assert all(p == 0 for p, _ in b[10:])  # one third of the 60 pairs: places 21-30 get nothing


def test_page4_b_final_without_carry_over_is_a_new_bronze_event():
    # '(Skulle man vara 20 par i B-final utan carry-over ger det 40, 27, 18, 12, 8, 6, 4 bp.)'
    assert [c for c in final(20) if c[0]] != []  # sanity: silver table for a 20-pair event
    bronze = [(int(p), u) for p, u in pts("se.bronze.pairs", list(range(1, 21))) if p]
    assert bronze == [(v, "bp") for v in (40, 27, 18, 12, 8, 6, 4)]


def test_b_final_with_carry_over_needs_the_tk_approval():
    # 'Dock ska särskild tilllåtelse i dessa fall begäras från TK ...' / 'Ansökan ... måste göras på förhand.'
    with pytest.raises(RuleError, match="TK's approval"):
        awards("se.silver.pairs", list(range(1, 21)), qual_rounds=12, final_rounds=12, total=60, above=10)
    with pytest.raises(RuleError, match="above"):
        awards("se.silver.pairs", list(range(1, 21)), qual_rounds=12, final_rounds=12, total=60, above=50,
               approved=True)
    with pytest.raises(RuleError, match="needs qual_rounds"):
        awards("se.silver.pairs", list(range(1, 21)), above=10, approved=True)


def test_a_b_and_c_finals_continue_one_scale_within_quarter_and_third():
    # 'B- och C-final (eller fler)': the finals together follow the A-final scale, then bronze to one third.
    common = dict(qual_rounds=10, final_rounds=10, total=90, approved=True)
    a = final(12, **common)
    b = final(16, above=12, **common)
    c = final(16, above=28, **common)
    overall = a + b + c
    winner = se.a_final_winner(10, 10, 90)
    assert overall[0] == (winner, "sp")
    assert [u for p, u in overall if p].count("sp") == -(-winner // 4)
    assert sum(1 for p, _ in overall if p) == 30  # one third of 90
    values = [p * se.VALUE[u] for p, u in overall]
    assert values == sorted(values, reverse=True)
    # an A-final larger than the quarter: 'inga bp delas ut i A-finalen', its last places get nothing
    assert [p for p, _ in final(16, **common)[14:]] == [0, 0]
