"""Svenska Mästarpoäng 2009, sections 4, 5 and the DM bonus (issue 25, point 18): the checks a
federation officer runs over a season, each finding a coded problem.

Every test quotes the sentence it rests on; ``quote`` checks that it is in the seed text.
The decisions are in ``docs/rules/sweden.md`` ("Sanctions and eligibility").
"""

from __future__ import annotations

from datetime import date, datetime

import pytest

from xlbridge import RuleError
from xlbridge.language import speaking
from xlbridge.rules import se_fsb as se
from xlbridge.rules.problems import Problem


@pytest.fixture(scope="module")
def quote(quotes):
    return quotes("000")


def codes(problems):
    assert all(isinstance(p, Problem) for p in problems)
    return [p.code for p in problems]


# --------------------------------------------------------------------------- a club's season

SEASON = ("En klubb med färre än 100 medlemmar kan få sanktion för högst fem silvertävlingar per spelår, varav högst "
          "tre på vardagar. Klubb med 100-199 medlemmar räknas som två klubbar (10 silvertävlingar) och 200 eller "
          "fler som tre klubbar (15).")
# September 2024: the 2nd is a Monday, the 7th a Saturday, the 8th a Sunday
MON, TUE, WED, THU, FRI, SAT, SUN = (date(2024, 9, d) for d in range(2, 9))


def test_five_silver_events_of_which_three_on_weekdays(quote):
    quote(SEASON)
    assert se.silver_season_violations(80, [MON, TUE, WED, SAT, SUN]) == []
    found = se.silver_season_violations(80, [MON, TUE, WED, THU, SAT])
    assert codes(found) == ["se.sanction.season-weekdays"] and found[0].argument == "days"
    assert str(found[0]) == ("season: a club of 80 members may play at most 3 of its silver events on weekdays; "
                             "got 4 (2024-09-02, 2024-09-03, 2024-09-04, 2024-09-05)")
    six = [SAT, SUN, date(2024, 10, 5), date(2024, 10, 6), date(2024, 11, 2), date(2024, 11, 3)]
    assert [str(p) for p in se.silver_season_violations(99, six)] == [
        "season: a club of 99 members may be sanctioned for at most 5 silver events; got 6"]


def test_a_club_counting_as_two_or_three_clubs_doubles_or_triples_both_limits(quote):
    quote(SEASON)
    weekdays = [date(2024, 9, 2 + 7 * k) for k in range(4)] + [date(2024, 10, 7), date(2024, 10, 14)]  # Mondays
    assert se.silver_season_violations(150, weekdays) == []  # 6 of 10 on weekdays
    assert codes(se.silver_season_violations(150, [*weekdays, FRI])) == ["se.sanction.season-weekdays"]
    eleven = [*weekdays, SAT, SUN, date(2024, 10, 5), date(2024, 10, 6), date(2024, 11, 2)]
    assert codes(se.silver_season_violations(199, eleven)) == ["se.sanction.season-events"]
    assert se.silver_season_violations(200, eleven) == []  # three clubs: 15, of which 9 on weekdays


def test_a_holiday_on_a_weekday_is_not_a_weekday():
    # Kristi himmelsfärdsdag 2025 is Thursday 29 May: the caller names the holidays
    ascension = date(2025, 5, 29)
    four = [MON, TUE, WED, ascension]
    assert codes(se.silver_season_violations(80, four)) == ["se.sanction.season-weekdays"]
    assert se.silver_season_violations(80, four, holidays=[ascension]) == []
    assert se.silver_season_violations(80, [datetime(2024, 9, 7, 19, 0)] * 3) == []  # a date and time is its day


@pytest.mark.parametrize("call, code, argument", [
    (lambda: se.silver_season_violations(80, ["2024-09-02"]), "se.sanction.date", "days"),
    (lambda: se.silver_season_violations(80, [MON], holidays=[None]), "se.sanction.date", "holidays"),
    (lambda: se.silver_season_violations(-1, [MON]), "se.sanction.members", "members"),
])
def test_season_input_problems(call, code, argument):
    with pytest.raises(RuleError) as caught:
        call()
    assert (caught.value.code, caught.value.problem.argument) == (code, argument)


# --------------------------------------------------------------------------- bridge weeks


def test_bridge_week_two_silver_or_one_gold_and_one_silver(quote):
    quote("Vid bridgeveckor får arrangör spela högst två silvertävlingar eller en guld och en silvertävling.")
    for silver, gold in ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1)):
        assert se.bridge_week_violations(silver, gold) == [], (silver, gold)
    for silver, gold in ((3, 0), (2, 1), (0, 2)):
        found = se.bridge_week_violations(silver, gold)
        assert codes(found) == ["se.sanction.bridge-week"], (silver, gold)
    assert str(se.bridge_week_violations(2, 1)[0]) == (
        "bridge week: an organiser may play at most two silver events, or one gold and one silver event; "
        "got 2 silver and 1 gold")
    with pytest.raises(RuleError) as caught:
        se.bridge_week_violations(1.5)
    assert (caught.value.code, caught.value.problem.argument) == ("se.number.not-whole", "silver")


# --------------------------------------------------------------------------- the DM pairs bonus

CLOSED = ("I ett slutet DM-par får bara äkta distriktspar (där båda spelarna respresenterar klubbar inom "
          "distriktet) bonus. I ett öppet DM-par utdelas bonus. Om inget sägs om att DM (par) är slutet eller "
          "öppet, är det slutet.")


def test_closed_dm_pairs_only_genuine_district_pairs_get_the_bonus(quote):
    quote(CLOSED)
    assert se.dm_pairs_bonus_violations(54, 54) == []
    found = se.dm_pairs_bonus_violations(54, 54, in_district=(True, False))  # nothing said: closed
    assert codes(found) == ["se.dm-bonus.closed"] and found[0].argument == "in_district"
    assert str(found[0]) == ("DM pairs: in a closed DM (one not announced as open) only genuine district pairs get "
                             "the bonus, both players representing clubs within the district; 1 of the two do not")
    assert se.dm_pairs_bonus_violations(54, 54, in_district=(False, False), open_dm=True) == []


def test_dm_pairs_bonus_needs_half_the_event(quote):
    quote("I partävling måste man ha deltagit i minst 50 % av tävlingen för att få bonus.")
    assert se.dm_pairs_bonus_violations(27, 54) == []
    assert [str(p) for p in se.dm_pairs_bonus_violations(26, 54)] == [
        "DM pairs: a pair must have taken part in at least 50 % of the event for the bonus; got 26 of 54"]
    with pytest.raises(RuleError) as caught:
        se.dm_pairs_bonus_violations(54, 54, in_district=(True,))
    assert caught.value.code == "se.dm-bonus.players"


# --------------------------------------------------------------------------- rallies

RALLY = "Rallyt ska omfatta minst sex silvertävlingar, det får inte vara april- eller oktobersilvertävlingar."


def test_a_rally_holds_six_silver_events_none_april_or_october_silver(quote):
    quote(RALLY)
    assert se.rally_violations(["silver"] * 6) == []
    found = se.rally_violations(["silver"] * 6 + ["October-silver"])
    assert codes(found) == ["se.rally.april-october"]
    assert str(found[0]) == "rally: April and October silver events may not be part of a rally; got 1 (october-silver)"
    # an April silver event does not count towards the six
    assert codes(se.rally_violations(["silver"] * 5 + ["april-silver"])) == ["se.rally.april-october",
                                                                            "se.rally.six-events"]
    assert [str(p) for p in se.rally_violations(["silver"] * 4)] == [
        "rally: at least six silver events are needed for the bonus (April and October silver not counted); got 4"]
    with pytest.raises(RuleError) as caught:
        se.rally_violations(["silver", "bronze"])
    assert (caught.value.code, caught.value.problem.argument) == ("se.rally.event", "events")
    # the same words as the ranking, which leaves April and October silver out too
    assert se.ranking_points(10, "sp", "april-silver") == se.ranking_points(10, "sp", "october-silver") == 0


def test_the_findings_are_translated():
    """The templates are in the catalogues: a Swedish officer reads Swedish."""
    with speaking("sv"):
        assert str(se.bridge_week_violations(3)[0]) == (
            "bridgevecka: en arrangör får spela högst två silvertävlingar eller en guld- och en silvertävling; "
            "fick 3 silver och 0 guld")
        assert str(se.rally_violations(["silver"] * 4)[0]) == (
            "rally: minst sex silvertävlingar krävs för bonus (april- och oktobersilver räknas inte); fick 4")
