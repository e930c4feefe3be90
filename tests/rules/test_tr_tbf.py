"""TBF Masterpoint v2.0: every printed example of the booklet, and its rules.

Numbers quoted in comments are the booklet's (docs/sources/001_*.txt).
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from xlbridge import RuleError, award, awards
from xlbridge.rules import get_scheme
from xlbridge.rules.tr_tbf import (
    LedgerEntry,
    apply_visa_rules,
    current_total,
    festival_violations,
    mastery_points,
    match_award,
    table_weight,
    team_player_eligible,
    team_player_share,
    title,
)


def shown(a) -> str:
    """The figure as the booklet shows it: two decimals."""
    return str(a).split()[0]


# --------------------------------------------------------------- pinned behaviour


def test_club_first_of_26_pairs_over_24_boards():
    a = award("tr.club", 1, 26, boards=24)
    assert (a.points, a.unit) == (0.62, "green")
    assert str(a) == "0.62 green"


@pytest.mark.parametrize(
    "scheme, colour",
    [("tr.club", "green"), ("tr.online", "white"), ("tr.regional", "red"), ("tr.festival", "yellow")],
)
def test_pinned_schemes_and_their_colour(scheme, colour):
    field = 60 if scheme != "tr.festival" else 64
    assert award(scheme, 1, field).unit == colour


# --------------------------------------------------------------- section 8, examples 1-4


def test_example_1_mitchell_13_tables():
    # overall: 1st 0.62, 2nd 0.50, 3rd 0.43, 4th 0.37 (Howell-like single ranking of 26 pairs)
    overall = awards("tr.club", list(range(1, 27)))
    assert [shown(a) for a in overall[:4]] == ["0.62", "0.50", "0.43", "0.37"]
    # direction winners: (0.62 + 0.50) / 2 = 0.56; direction seconds (0.43 + 0.37) / 2 = 0.40
    assert shown(award("tr.club", 1, 26, movement="mitchell")) == "0.56"
    assert shown(award("tr.club", 2, 26, movement="mitchell")) == "0.40"
    # exact values before display: (0.62 + 0.8*0.62) / 2 = 0.558, (0.7*0.62 + 0.6*0.62) / 2 = 0.403
    assert award("tr.club", 1, 26, movement="mitchell").points == 0.558
    assert award("tr.club", 2, 26, movement="mitchell").points == 0.403


def test_example_1_mitchell_keeps_the_total():
    ranks = list(range(1, 14)) * 2  # NS 1..13 then EW 1..13
    mitchell = awards("tr.club", ranks, movement="mitchell")
    howell = awards("tr.club", list(range(1, 27)))
    assert sum(a.points for a in mitchell) == pytest.approx(sum(a.points for a in howell), abs=1e-3)
    # both directions get the same
    assert [a.points for a in mitchell[:13]] == [a.points for a in mitchell[13:]]


def test_example_2_howell_6_tables():
    # "6 masalık bir howell kulüp turnuvasında, birinci 0,35, ikinci 0,28"
    first, second = awards("tr.club", list(range(1, 13)))[:2]
    assert (first.points, second.points) == (0.35, 0.28)


def test_example_2_needs_scale_b():
    # the other printed scale (100/70) would give 0.245 to the second: it is not the default
    assert award("tr.club", 2, 12, scale="a").points == 0.245


def test_example_3_lehman_period():
    scheme = get_scheme("tr.club")
    from xlbridge.rules import _options

    options = _options(scheme, {"tables": 7.72, "boards": 10, "lehman_sessions": 16})
    # one equivalent single session distributes 1.31 MP in total (counted per player)
    assert scheme.session_total(7.72, options) == 1.31
    # the period distributes 1.31 * 16 / 2 = 10.48
    assert scheme.lehman_total(options) == pytest.approx(10.48)
    ranked = 45
    result = awards("tr.club", list(range(1, ranked + 1)), tables=7.72, boards=10, lehman_sessions=16)
    # to one third of the ranked: 15 players get MP, the rest none
    assert sum(a.points > 0 for a in result) == 15
    assert sum(a.points for a in result) == pytest.approx(10.48, abs=ranked * 0.00005)
    # the Tablo-1 proportions hold inside the Lehman ranking: second = 80 % of first
    assert result[1].points / result[0].points == pytest.approx(0.8, abs=1e-3)


def test_example_3_session_total_arithmetic():
    # 7.72 tables: weight 0.40 + 0.72 * (0.44 - 0.40) = 0.4288; 10 boards: x 10/24
    first = 0.4288 * 10 / 24
    # 15.44 pairs, one third = 5.1467: places 1-5 full, 6th gets 0.1467 of its share
    per_pair = first * (1 + 0.8 + 0.7 + 0.6 + 2 / 4 + (2 / 5) * (15.44 / 3 - 5))
    assert round(2 * per_pair, 2) == 1.31


def test_example_4_two_sessions_of_26_boards_46_tables():
    # "birinci 1.29 * 2 * 26 / 32 = 2.10 yeşil masterpoint"
    a = award("tr.club", 1, 92, sessions=2, boards=26)
    assert a.points == 2.0963  # 1.29 * 2 * 26 / 32 = 2.09625, rounded half up at 4 decimals
    assert str(a) == "2.10 green"


# --------------------------------------------------------------- section 9


def test_session_prizes_istanbul_open():
    # "40*50/500 = 4,0 sarı masterpoint" and "40*26/500 = 2,08"
    qualifying = award("tr.national.istanbul-open-pairs", 1, 80, session_boards=50)
    final = award("tr.national.istanbul-open-pairs", 1, 40, session_boards=26)
    assert (qualifying.points, qualifying.unit) == (4.0, "yellow")
    assert final.points == 2.08


def test_session_ranking_is_distributed_like_a_tournament():
    second = award("tr.national.istanbul-open-pairs", 2, 40, session_boards=26)
    assert second.points == round(2.08 * 0.8, 4)


def test_consolation_session_with_given_general_first():
    a = award("tr.national.mixed-pairs", 1, 20, session_boards=26, first_mp=12.5)
    assert a.points == round(12.5 * 26 / 500, 4)


def test_club_events_have_no_session_prizes():
    with pytest.raises(RuleError, match="no option 'session_boards'"):
        award("tr.club", 1, 20, session_boards=26)


# --------------------------------------------------------------- section 13


def test_one_third_boundary_8_pair_howell():
    # 8 pairs: 8/3 = 2.67 units get MP; the 3rd gets 2/3 of its award
    result = awards("tr.club", list(range(1, 9)))
    full_third = 0.25 * 0.7  # 4 tables -> 0.25; third place 70 %
    assert result[2].points == round(full_third * 2 / 3, 4)
    assert [a.points for a in result[3:]] == [0.0] * 5


def test_half_table_is_interpolated_not_rounded():
    # 25 pairs = 12.5 tables: halfway between 0.59 and 0.62
    assert award("tr.club", 1, 25).points == 0.605
    assert table_weight(12.5) == pytest.approx(0.605)


def test_ties_share_the_sum_of_the_places():
    untied = awards("tr.club", list(range(1, 27)))
    tied = awards("tr.club", [1, 2, 2] + list(range(4, 27)))
    assert tied[1].points == tied[2].points == round((untied[1].points + untied[2].points) / 2, 4)


def test_tie_across_the_one_third_boundary():
    # 8 pairs; places 3 and 4 tied: (0.7 * 0.25 * 2/3 + 0) / 2 each
    result = awards("tr.club", [1, 2, 3, 3, 5, 6, 7, 8])
    assert result[2].points == result[3].points == round(0.7 * 0.25 * (2 / 3) / 2, 4)


def test_rounding_to_four_decimals():
    # 13 tables, 3rd: 0.7 * 0.62 = 0.434 exactly; 7 tables 2nd: 0.8 * 0.40 = 0.32;
    # 12.5 tables 3rd: 0.7 * 0.605 = 0.4235
    assert award("tr.club", 3, 25).points == 0.4235
    assert award("tr.club", 9, 40, tables=20).points == round(0.82 * 2 / 8, 4)


# --------------------------------------------------------------- sections 5 and 8: boards


@pytest.mark.parametrize("boards, factor", [(12, 0.5), (18, 0.75), (24, 1.0), (32, 1.0), (36, 36 / 32), (48, 1.5)])
def test_boards_scale_the_first_place(boards, factor):
    assert award("tr.club", 1, 26, boards=boards).points == round(0.62 * factor, 4)


def test_boards_do_not_change_fixed_or_table_only_events():
    with pytest.raises(RuleError, match="no option 'boards'"):
        award("tr.national.mixed-pairs", 1, 40, boards=12)


def test_regional_and_online_coefficients():
    # 2.5 * Tablo-3 (red) and 0.50 * Tablo-3 (white), 20 tables -> 0.82
    assert award("tr.regional", 1, 40).points == round(2.5 * 0.82, 4)
    assert award("tr.online", 1, 40).points == round(0.5 * 0.82, 4)


def test_national_fixed_and_by_tables():
    assert award("tr.national.winter-open-teams", 1, 30).points == 80.0
    assert award("tr.national.women-pairs", 1, 56).points == round(20 * 1.00, 4)  # 28 tables
    assert award("tr.regional.winter-women-teams", 1, 10).points == round(10 * 0.52, 4)  # 10 teams


def test_under_3_tables_is_an_error():
    with pytest.raises(RuleError, match=r"tr.club needs at least 3 tables; got 2.5"):
        award("tr.club", 1, 5)


def test_over_49_tables_keeps_the_last_weight():
    assert award("tr.club", 1, 140).points == 1.33


# --------------------------------------------------------------- section 7: festivals


@pytest.mark.parametrize("pairs, mp", [(60, 5), (100, 5), (102, 10), (140, 10), (142, 15), (200, 15), (202, 20)])
def test_festival_first_place_by_tables(pairs, mp):
    assert award("tr.festival", 1, pairs).points == mp


def test_festival_needs_30_tables():
    with pytest.raises(RuleError, match="tr.festival needs at least 30 tables"):
        award("tr.festival", 1, 58)


def test_festival_conditions():
    assert festival_violations(kind="pairs", tables=30, consecutive_years=4, sessions=2, boards_per_session=24) == []
    problems = festival_violations(kind="pairs", tables=30, consecutive_years=4, sessions=1, boards_per_session=22)
    assert problems == [
        "pairs events need at least 2 sessions; got 1",
        "pairs events need at least 2 x 24 = 48 boards over their sessions; got 1 x 22",
    ]
    # "... veya buna eşdeğer bord ve seans": 3 sessions of 16 boards are as many boards as 2 of 24 (D12)
    assert festival_violations(kind="pairs", tables=30, consecutive_years=4, sessions=3, boards_per_session=16) == []
    assert festival_violations(kind="pairs", tables=30, consecutive_years=4, sessions=3, boards_per_session=15) == [
        "pairs events need at least 2 x 24 = 48 boards over their sessions; got 3 x 15"]


# --------------------------------------------------------------- section 10 and team rules


def test_match_awards_tablo4():
    assert [a.points for a in awards("tr.match.regional", [1, 2], boards=16)] == [0.20, 0.0]
    assert [a.points for a in awards("tr.match.national", [2, 1], boards=32)] == [0.0, 0.90]
    assert awards("tr.match.national", [2, 1], boards=32)[1].unit == "yellow"


def test_match_boards_between_rows_are_interpolated():
    # 18 boards: halfway between 16 (0.20) and 20 (0.23)
    assert award("tr.match.regional", 1, 2, boards=18).points == 0.215
    assert match_award(44, "national") == pytest.approx(1.04)


def test_no_match_award_for_draw_walkover_or_no_segment():
    assert [a.points for a in awards("tr.match.regional", [1, 1], boards=16)] == [0.0, 0.0]
    assert award("tr.match.regional", 1, 2, boards=16, walkover=True).points == 0.0
    assert award("tr.match.regional", 1, 2, boards=16, segments=0).points == 0.0


def test_match_outside_tablo4_is_an_error():
    with pytest.raises(RuleError, match="8 to 64 boards; got 6"):
        award("tr.match.regional", 1, 2, boards=6)


def test_team_player_eligibility():
    # <= 6 players: 1/3 of the boards, overall and after the qualification
    assert team_player_eligible(40, 120, 6)
    assert not team_player_eligible(39, 120, 6)
    assert not team_player_eligible(60, 120, 6, final_played=10, final_total=64)
    # more players: 1/4
    assert team_player_eligible(30, 120, 8)
    assert not team_player_eligible(29, 120, 8)


def test_six_players_without_segment_records_share_four_players_mp():
    full = award("tr.national.open-teams", 1, 20)
    shared = award("tr.national.open-teams", 1, 20, players=6, segment_records=False)
    assert full.points == 60.0
    assert shared.points == 40.0  # 60 * 4 / 6
    assert team_player_share(60.0, 5, segment_records=True) == 60.0


def test_club_and_regional_team_events_share_four_players_mp_too():
    # Section 8 is "KULÜP TURNUVALARI İLE DİĞER BÖLGESEL TURNUVA VE FESTİVALLERE UYGULANACAK ÖZEL DURUMLAR"
    # (special cases for club tournaments and other regional tournaments and festivals): a club team event
    # (kind=teams) of six-player teams without segment records pays each player 4/6 of the award.
    ranks = list(range(1, 13))
    full = awards("tr.club", ranks, kind="teams")
    shared = awards("tr.club", ranks, kind="teams", players=6, segment_records="no")
    assert [a.points for a in full[:2]] == [0.59, 0.472]  # 1 x the Tablo-3 weight of 12 tables (a team fills one); 80 %
    assert [a.points for a in shared[:2]] == [0.3933, 0.3147]  # x 4/6, rounded half up to 4 decimals
    regional = awards("tr.regional", ranks, kind="teams", players=5, segment_records=False)
    assert regional[0].points == round(awards("tr.regional", ranks, kind="teams")[0].points * 4 / 5, 4)


def test_players_on_a_pairs_event_is_a_mistake_said_so():
    with pytest.raises(RuleError, match="players and segment_records are for team events") as caught:
        award("tr.club", 1, 26, players=6, segment_records=False)
    assert caught.value.code == "tr.team.not-teams"
    assert award("tr.club", 1, 26, players=4).points == award("tr.club", 1, 26).points  # the default says nothing


# --------------------------------------------------------------- section 11 and 12


def test_all_twelve_mastery_examples(booklet_examples):
    assert len(booklet_examples) == 12
    for mp, colour, expected in booklet_examples:
        result = mastery_points(**{colour: mp})
        assert f"{result:.2f}" == expected, (mp, colour)


@pytest.fixture(scope="module")
def booklet_examples(source_text):
    colours = {"beyaz": "white", "yeşil": "green", "kırmızı": "red", "sarı": "yellow"}
    found = re.findall(r"- (\d+) (\w+) masterpoint ([\d.]+) ustalık", source_text("001"))
    return [(int(mp), colours[c], value) for mp, c, value in found]


def test_mastery_adds_colours_and_white_can_be_left_out():
    together = mastery_points(yellow=10, red=10, green=10, white=10)
    assert together == pytest.approx(10 + 9.8369 + 9.5310 + 8.6305, abs=2e-4)
    assert mastery_points(yellow=10, white=10, include_white=False) == 10.0


def test_mastery_rejects_negative():
    with pytest.raises(RuleError, match="green MP cannot be negative; got -1"):
        mastery_points(green=-1)


@pytest.mark.parametrize(
    "mastery, yellow, expected",
    [(29.99, 0, ""), (30, 0, "Kulüp Ustası"), (119, 500, "Bölge Ustası"), (120, 19, "Bölge Ustası"),
     (120, 20, "Bronz Usta"), (1000, 599, "Gümüş Büyük Usta"), (1000, 349, "Bronz Büyük Usta"), (1000, 600, "Altın Büyük Usta"),
     (5000, 1300, "Platin Büyük Usta")],
)
def test_titles_tablo5(mastery, yellow, expected):
    assert title(mastery, yellow) == expected


# --------------------------------------------------------------- sections 3 and 14


def test_current_ranking_decays_earlier_years():
    # 2014: 100 -> x0.9^2; 2015: 50 -> x0.9; 2016: 20 counts fully
    assert current_total({2014: 100, 2015: 50, 2016: 20}, 2016) == pytest.approx(81 + 45 + 20)
    assert current_total({2014: 100, 2017: 50}, 2016) == pytest.approx(81)


def test_visa_rules_ledger():
    entries = [
        LedgerEntry("ali", date(2026, 3, 10), "national", 5.0, "yellow"),
        LedgerEntry("ali", date(2026, 3, 12), "club", 0.5, "green"),
        LedgerEntry("ayse", date(2026, 3, 12), "club", 0.4, "green"),
        LedgerEntry("can", date(2026, 3, 12), "club", 0.3, "green"),
        LedgerEntry("can", date(2026, 4, 2), "club", 0.3, "green"),
    ]
    visas = {"ali": date(2026, 3, 20), "ayse": None, "can": date(2026, 4, 15)}
    kept, removed = apply_visa_rules(entries, visas, today=date(2026, 4, 5))
    # ali: no visa on 10 March -> national MP lost; visa by 31 March -> club MP kept
    # ayse: no visa at all, March is over -> club MP deleted
    # can: visa only in April -> March club MP deleted; April still pending (month not over)
    assert [(e.player, e.day.day) for e in kept] == [("ali", 12), ("can", 2)]
    assert [e.player for e, _ in removed] == ["ali", "ayse", "can"]
    assert "no MP from national events" in removed[0][1]
