"""BridgeMania engine: hand-worked tournaments, split pairs, penalties, rectifications,
participation list, championship and tie-breaks, bad input, determinism."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlbridge.clubs.bridgemania import (
    BasePair,
    Guest,
    Penalty,
    Rectification,
    Season,
    SeasonError,
    Tournament,
    bm_final,
    bm_pct,
    first_participation_list,
    next_participation_list,
    penalty_points,
    recalculate,
    rectify_partial,
    ricalibratura_points,
    upcoming_participation_list,
)
from xlbridge.clubs.bridgemania.demo import demo_season
from xlbridge.rules.problems import RuleError

# Six entries in three rows per board: (A,B) (C,D) (E,F), NS = A, C, E; TOP = 4.
P1 = [4, 0, 2, 2, 0, 4]
P2 = [0, 4, 4, 0, 2, 2]
P3 = [2, 2, 0, 4, 4, 0]
BOARDS = [P1] * 6 + [P2] * 4 + [P3] * 4  # 14 boards
# hand totals: A 6*4+4*0+4*2 = 32, B 0+16+8 = 24, C 12+16+0 = 28, D 12+0+16 = 28, E 0+8+16 = 24, F 24+8+0 = 32


def columns(slots):
    return {name: [board[i] for board in BOARDS] for i, name in enumerate(slots)}


BASE = tuple(BasePair(x, (x.lower() + "1", x.lower() + "2")) for x in "ABCDEFGH")


def tournament(tid="T1", slots="ABCDEF", status=None, **kw):
    status = {"G": "waiting", "H": "unable"} if status is None else status
    return Tournament(id=tid, host=kw.pop("host", "A"), scores=columns(list(slots)), top=4, status=status, **kw)


def season(*tournaments, guests=()):
    return Season(base_pairs=BASE, tournaments=tournaments, guests=guests)


def night(result, pair):
    return next(n for n in result.base if n.pair == pair)


def entry(result, name):
    return next(e for e in result.entries if e.entry == name)


def test_hand_worked_tournament_scores_ranks_and_pts():
    r = recalculate(season(tournament())).tournaments[0]
    assert (r.pairs, r.tables, r.boards, r.top, r.penalty_unit) == (6, 3.0, 14, 4, 1)
    absolute = {e.entry: e.absolute for e in r.entries}
    assert absolute == {"A": 32, "B": 24, "C": 28, "D": 28, "E": 24, "F": 32}
    assert entry(r, "A").percent == 57.14  # 32/56
    assert entry(r, "B").percent == 42.86  # 24/56
    assert entry(r, "C").percent == 50.0
    assert [e.rank for e in r.entries] == [1, 1, 3, 3, 5, 5]
    # ties share the mean: F1 (25+18)/2, (15+12)/2, (10+8)/2; 3 tables for Tab.3
    assert (night(r, "A").f1, night(r, "C").f1, night(r, "E").f1) == (21.5, 13.5, 9.0)
    assert (night(r, "A").indy, night(r, "C").indy, night(r, "E").indy) == (45.0, 33.5, 29.0)
    assert (night(r, "A").hybrid, night(r, "C").hybrid, night(r, "E").hybrid) == (10.0, 5.0, 1.5)
    # waiting pair: the average rows (Tab.3 column "3" = 33/6); unable: 0
    g, h = night(r, "G"), night(r, "H")
    assert (g.status, g.f1, g.indy, g.hybrid) == ("waiting", 8.417, 28.667, 5.5)
    assert (h.status, h.f1, h.indy, h.hybrid) == ("unable", 0, 0, 0)
    assert night(r, "A").status == "O" and night(r, "B").status == "P"
    # TOPs = boards at TOP (4), POTs = boards at 0
    assert (entry(r, "A").tops, entry(r, "A").pots) == (6, 4)
    assert (entry(r, "D").tops, entry(r, "D").pots) == (4, 4)


def test_sit_out_is_half_top_and_bm_pct():
    assert bm_pct([4, 0, "R", 2], 4) == 50.0  # (4+0+2+2)/16
    assert bm_pct(["4", "3,0", "r"], 4) == round(100 * 9 / 12, 2)
    assert bm_pct([4] * 14, 4, penalty=-1) == 98.21  # 55/56 = 0.98214
    with pytest.raises(RuleError, match="board 2: score 'x' is not a number"):
        bm_pct([4, "x"], 4)
    with pytest.raises(RuleError, match="outside 0..4"):
        bm_pct([4, 6], 4)
    with pytest.raises(RuleError, match="TOP"):
        bm_pct([4], 5)


def test_penalty_is_half_the_average_rounded_up():
    # TOP 4 -> average 2 -> 1; TOP 10 -> average 5 (odd) -> 2.5 -> 3; TOP 8 -> 2
    assert [penalty_points(t) for t in (4, 8, 10, 12, 14)] == [1, 2, 3, 3, 4]
    r = recalculate(season(tournament(penalties=(Penalty(("A", "B")), Penalty(("A",)), Penalty(()))))).tournaments[0]
    assert entry(r, "A").penalty == -2 and entry(r, "A").absolute == 30  # two errors
    assert entry(r, "B").absolute == 23
    assert entry(r, "A").percent == 53.57  # 30/56
    assert [(e.entry, e.rank) for e in r.entries] == [("F", 1), ("A", 2), ("C", 3), ("D", 3), ("E", 5), ("B", 6)]
    assert (night(r, "F").f1, night(r, "A").f1, night(r, "B").f1) == (25, 18, 8)


def test_partially_reversible_rectification():
    # board 1 (P1): NS A4 C2 E0, EW B0 D2 F4; row (C, D) annulled
    assert rectify_partial([4, 2, 0], 1, 4) == [3, 2, 1]
    assert rectify_partial([0, 2, 4], 1, 4) == [1, 2, 3]
    fix = Rectification(1, "partial", ("C", "D"), ("A", "C", "E"))
    r = recalculate(season(tournament(rectifications=(fix,)))).tournaments[0]
    assert [entry(r, x).boards[0] for x in "ABCDEF"] == [3, 1, 2, 2, 1, 3]
    assert {e.entry: e.absolute for e in r.entries} == {"A": 31, "B": 25, "C": 28, "D": 28, "E": 25, "F": 31}
    assert entry(r, "A").tops == 5  # the rescored 3 is no longer a TOP
    # five rows, TOP 8: annul a row tied with another
    assert rectify_partial([8, 5, 5, 2, 0], 1, 8) == [7, 4, 5, 3, 1]
    assert sum(rectify_partial([8, 5, 5, 2, 0], 1, 8)) == 20


def test_irreversible_rectification():
    fix = Rectification(1, "irreversible")
    r = recalculate(season(tournament(rectifications=(fix,)))).tournaments[0]
    assert [entry(r, x).boards[0] for x in "ABCDEF"] == [2] * 6
    assert {e.entry: e.absolute for e in r.entries} == {"A": 30, "B": 26, "C": 28, "D": 28, "E": 26, "F": 30}


def test_split_pairs_take_half_of_each_players_points():
    # A, B, C split: S1 = a1+b1 (slot A: 32), S2 = a2+c1 (slot B: 24), S3 = b2+c2 (slot C: 28)
    t = tournament(slots=["S1", "S2", "S3", "D", "E", "F"], host="D",
                   splits={"S1": ("a1", "b1"), "S2": ("a2", "c1"), "S3": ("b2", "c2")})
    r = recalculate(season(t)).tournaments[0]
    assert (entry(r, "S1").f1, entry(r, "S3").f1, entry(r, "S2").f1) == (21.5, 13.5, 9.0)
    assert night(r, "A").f1 == (21.5 + 9.0) / 2 == 15.25
    assert night(r, "B").f1 == (21.5 + 13.5) / 2 == 17.5
    assert night(r, "C").f1 == (9.0 + 13.5) / 2 == 11.25
    assert night(r, "A").hybrid == (10 + 1.5) / 2
    assert night(r, "A").status == "S" and night(r, "A").played
    assert night(r, "B").percent == 53.57  # (57.14 + 50.00) / 2
    assert r.base_pairs_playing == 6


def test_guests_take_places_and_their_points_are_not_assigned():
    # eight entries, four rows, TOP 6: NS A6 C4 E2 G0, EW B0 D2 F4 X6 on all 14 boards
    q1 = [6, 0, 4, 2, 2, 4, 0, 6]
    scores = {name: [q1[i]] * 14 for i, name in enumerate("ABCDEFGX")}
    t = Tournament("T1", "A", scores, top=6, status={"H": "ill"})
    s = recalculate(season(t, guests=(Guest("X"),)))
    r = s.tournaments[0]
    assert entry(r, "X").rank == 1 and entry(r, "X").f1 is None
    # A shares 1st-2nd with the guest: (25+18)/2; the guest's share goes to nobody
    assert night(r, "A").f1 == 21.5 and night(r, "A").hybrid == (16 + 12) / 2
    assert night(r, "C").f1 == 13.5 and night(r, "F").f1 == 13.5  # 3rd-4th, not moved up
    assert night(r, "H").f1 == 8.417 and night(r, "H").hybrid == 7.38  # ill, 4 tables column
    assert [(g.pair, g.rank) for g in s.general][:2] == [("A", 1), ("X", 1)]  # guests in the general ranking
    assert {g.pair: g.kind for g in s.general}["X"] == "guest"
    assert all(row.pair != "X" for row in s.final)


def test_extra_point_goes_to_the_highest_bridge_score_of_the_night():
    hands = {"A": [420, -50], "B": [-420, 50], "C": [1430, "R"], "D": [-1430], "E": [100], "F": ["1430"]}
    r = recalculate(season(tournament(hand_scores=hands))).tournaments[0]
    assert {e.entry for e in r.entries if e.extra} == {"C", "F"}
    assert night(r, "C").f1 == 13.5 + 1 and night(r, "C").indy == 33.5 + 1 and night(r, "C").hybrid == 5 + 1
    assert night(r, "A").f1 == 21.5
    r = recalculate(season(tournament(top_hand=("B",)))).tournaments[0]
    assert night(r, "B").f1 == 9 + 1


def three_nights():
    t1 = tournament("T1")  # A,F 21.5; C,D 13.5; B,E 9; G waiting 8.417; H unable 0
    t2 = tournament("T2", slots="FEDCBA", host="F")  # F,A 21.5; D,C 13.5; E,B 9
    t3 = tournament("T3", slots="GBCDEF", host="G", status={"A": "unable", "H": "waiting"})
    return season(t1, t2, t3)


def test_championship_standings_eligibility_and_ricalibratura():
    s = recalculate(three_nights())
    assert s.valid == 3 and s.threshold == 2  # 3 // 2 + 1
    last = dict((row.pair, row) for row in s.after[-1][1])
    # A: 21.5 + 21.5 + 0 ; G: 8.417 + 8.417 + 21.5 ; F: 21.5 * 3
    assert last["A"].f1 == 43.0 and last["G"].f1 == 38.334 and last["F"].f1 == 64.5
    assert last["H"].f1 == 8.417 and last["H"].played == 0
    # C, D 13.5 x 3 = 40.5; B, E 9 x 3 = 27
    assert [last[x].rank_f1 for x in "FACDGBEH"] == [1, 2, 3, 3, 5, 6, 6, 8]
    final = {row.pair: row for row in s.final}
    assert not final["H"].eligible and final["H"].place is None
    assert not final["G"].eligible  # 1 tournament < 2
    assert final["A"].eligible and final["A"].played == 2
    # among the 6 eligible pairs: F1 F A C/D B/E; Indy (A 90, C/D 100.5, B/E 87) F C/D A B/E; Tab.3 like F1
    assert [(final[x].rank_f1, final[x].rank_indy, final[x].rank_hybrid) for x in "FACB"] == [
        (1, 1, 1), (2, 4, 2), (3, 2, 3), (5, 5, 5)]
    assert [final[x].points for x in "FACDBE"] == [6, 16, 16, 16, 30, 30]
    # A, C, D tied on 16: A played fewer tournaments (2 < 3); C and D also tie on TOPs and POTs (12, 12)
    assert (final["C"].tops, final["C"].pots, final["D"].tops, final["D"].pots) == (12, 12, 12, 12)
    assert [(row.pair, row.place) for row in s.final] == [
        ("F", 1), ("A", 2), ("C", 3), ("D", 3), ("B", 5), ("E", 5), ("G", None), ("H", None)]


def test_tie_breaks_in_order():
    # equal Ricalibratura totals (2+4+6 = 12 each)
    tied = ([1, 2, 3], [2, 3, 1], [3, 1, 2])
    assert [ricalibratura_points(*r) for r in zip(*tied)] == [12, 12, 12]
    assert bm_final(*tied) == [1, 1, 1]
    # 1. fewer tournaments played
    assert bm_final(*tied, played=[9, 8, 10]) == [2, 1, 3]
    # 2. more TOPs when played is equal
    assert bm_final(*tied, played=[9, 9, 8], tops=[30, 40, 10]) == [3, 2, 1]
    # 3. fewer POTs when played and TOPs are equal
    assert bm_final(*tied, played=[9, 9, 9], tops=[30, 30, 30], pots=[12, 10, 11]) == [3, 1, 2]
    # still tied: shared place
    assert bm_final(*tied, played=[9, 9, 9], tops=[30, 30, 30], pots=[10, 10, 11]) == [1, 1, 3]
    # a blank rank = not eligible
    assert bm_final([1, None], [1, 2], [1, 2]) == [1, None]
    with pytest.raises(RuleError, match="differ in length"):
        bm_final([1], [1, 2], [1])


def test_participation_list_rotation_hand_worked():
    ref = ["A", "B", "C", "D", "E", "F", "G"]
    first = first_participation_list(ref, "C", 4, unable=["B"])
    assert first == [("C", "O"), ("A", "P"), ("B", "I"), ("D", "P"), ("E", "P"), ("F", "A"), ("G", "A")]
    played = {"A": 1, "B": 0, "C": 1, "D": 1, "E": 1, "F": 0, "G": 0}
    second = next_participation_list(first, "E", 5, played, unable=["G"])
    # ex-O/P block (C, A, D, E) to the bottom: B F G C A D ; host E first; fewest played first (stable)
    assert second == [("E", "O"), ("B", "P"), ("F", "P"), ("G", "I"), ("C", "P"), ("A", "P"), ("D", "A")]
    played = {"A": 2, "B": 1, "C": 2, "D": 1, "E": 2, "F": 1, "G": 0}
    third = next_participation_list(second, "A", 4, played)
    # block (E B F C A) to the bottom: G D E B F C A ; host A ; sort by played: G0 D1 B1 F1 E2 C2
    assert third == [("A", "O"), ("G", "P"), ("D", "P"), ("B", "P"), ("F", "A"), ("E", "A"), ("C", "A")]
    with pytest.raises(RuleError, match="host"):
        next_participation_list(third, "Z", 4, played)


def test_season_participation_lists_and_upcoming():
    s = recalculate(three_nights())
    t1 = s.tournaments[0].participation
    assert t1[0] == ("A", "O") and dict(t1)["H"] == "I" and dict(t1)["G"] == "A"
    upcoming = upcoming_participation_list(s, "B", 6)
    assert upcoming[0] == ("B", "O") and len(upcoming) == 8
    assert upcoming[1] == ("H", "P")  # H has played no tournament


def test_recalculating_twice_changes_nothing_and_input_is_untouched():
    data = demo_season()
    before = copy.deepcopy(data)
    one = recalculate(data)
    two = recalculate(data)
    assert one == two
    assert data == before
    assert recalculate(copy.deepcopy(data)) == one


def test_demo_season_has_everything_the_issue_asks():
    data = demo_season()
    s = recalculate(data)
    assert len(s.tournaments) >= 12 and s.valid == len(s.tournaments)
    statuses = {n.status for t in s.tournaments for n in t.base}
    assert {"O", "P", "S", "waiting", "ill", "unable"} <= statuses
    assert any(e.kind == "guest" for t in s.tournaments for e in t.entries)
    assert any(len({e.rank for e in t.entries}) < len(t.entries) for t in s.tournaments)  # ties
    assert any(t.penalties for t in data.tournaments)
    kinds = {r.kind for t in data.tournaments for r in t.rectifications}
    assert kinds == {"partial", "irreversible"}
    # standings = sums of the nights
    for key in ("f1", "indy", "hybrid"):
        for row in s.after[-1][1]:
            total = sum(getattr(n, key) for t in s.tournaments for n in t.base if n.pair == row.pair)
            assert abs(getattr(row, key) - total) < 1e-3
    assert sorted(r.place for r in s.final if r.eligible) == sorted(
        bm_final([r.rank_f1 for r in s.final if r.eligible], [r.rank_indy for r in s.final if r.eligible],
                 [r.rank_hybrid for r in s.final if r.eligible],
                 played=[r.played for r in s.final if r.eligible], tops=[r.tops for r in s.final if r.eligible],
                 pots=[r.pots for r in s.final if r.eligible]))
    frames = s.frames()
    assert set(frames) == {"entries", "base", "general", "after", "final"}


# ------------------------------------------------------------------ bad input


def test_bad_input_collects_every_problem_with_tournament_pair_and_value():
    scores = columns(list("ABCDEF"))
    scores["C"] = list(scores["C"])
    scores["C"][4] = "2x"
    scores["Z"] = [2] * 14
    bad = Tournament("T9", "A", scores, top=4, status={"G": "sick"})
    with pytest.raises(SeasonError) as caught:
        recalculate(season(bad))
    error = caught.value
    assert isinstance(error, RuleError)
    text = [str(p) for p in error.problems]
    assert "Tournament T9, pair Z: unknown pair: not a base pair, a registered guest or a split pair" in text
    assert "Tournament T9, pair C, board 5: score '2x' is not a number (type R for a sit-out)" in text
    assert "Tournament T9, pair G: status 'sick' is not waiting, ill or unable" in text
    assert "Tournament T9, pair H: did not play and has no status (waiting, ill or unable)" in text
    # Every problem at once (issue 15, point 6): pair Z's row makes 7 results on every board, so
    # each board whose scores are all numbers (all but board 5, where C's score is wrong) is
    # also a board error: an odd number of results.
    sums = [p.board for p in error.problems if p.code == "bm.board.odd"]
    assert sums == [b for b in range(1, 15) if b != 5]
    assert len(error.problems) == 4 + 13
    assert str(error).startswith("17 problems")


def test_invalid_tournaments_are_reported():
    few_boards = Tournament("T1", "A", {k: v[:10] for k, v in columns(list("ABCDEF")).items()}, top=4,
                            status={"G": "waiting", "H": "unable"})
    mitchell = dataclasses.replace(tournament("T2"), movement="mitchell")
    five_base = tournament("T3", slots="ABCDEX", status={"F": "ill", "G": "waiting", "H": "unable"})
    five_base = dataclasses.replace(five_base, status={**five_base.status, "E": "waiting"},
                                    scores={**{("Y" if k == "E" else k): v for k, v in five_base.scores.items()}})
    with pytest.raises(SeasonError) as caught:
        recalculate(season(few_boards, mitchell, five_base, guests=(Guest("X"), Guest("Y"))))
    text = "\n".join(str(p) for p in caught.value.problems)
    assert "Tournament T1: not valid: 10 boards, at least 14 needed" in text
    assert "Tournament T2: not valid: movement 'mitchell' has no single ranking" in text
    assert "Tournament T3: not valid: 4 base pairs played, at least 6 needed" in text
    # the same tournament as a friendly is accepted and not counted
    ok = recalculate(season(tournament("T0"), dataclasses.replace(few_boards, championship=False)))
    assert ok.valid == 1 and len(ok.tournaments) == 2


def test_more_bad_input():
    scores = columns(list("ABCDEF"))
    scores["A"] = [5] + scores["A"][1:]
    t = Tournament("T4", "A", scores, top=4, status={"G": "waiting", "H": "unable"})
    with pytest.raises(SeasonError) as caught:
        recalculate(season(t))
    text = "\n".join(str(p) for p in caught.value.problems)
    assert "Tournament T4, pair A, board 1: score 5 is above the TOP 4" in text
    assert "Tournament T4, board 1: the scores add up to 13" in text
    bad_fix = tournament("T5", rectifications=(Rectification(1, "partial", ("C", "E"), ("A", "C", "E")),),
                         penalties=(Penalty(("Q",)),))
    with pytest.raises(SeasonError) as caught:
        recalculate(season(bad_fix))
    text = "\n".join(str(p) for p in caught.value.problems)
    assert "Tournament T5, pair Q: penalty for a pair that is not in the tournament" in text
    assert "Tournament T5, board 1: rectification: ns must list" in text


# ------------------------------------------------------------------ properties


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-2000, 2000), min_size=2, max_size=9), st.data())
def test_property_partial_rectification_keeps_the_line_sum(raw, data):
    n = len(raw)
    top = 2 * (n - 1)
    line = [sum(2 if r > o else 1 if r == o else 0 for o in raw) - 1 for r in raw]
    k = data.draw(st.integers(0, n - 1))
    new = rectify_partial(line, k, top)
    assert sum(new) == sum(line) == n * (n - 1)
    assert new[k] == top / 2
    # equal to rescoring the remaining results directly, +1
    rest = [r for i, r in enumerate(raw) if i != k]
    direct = [sum(2 if r > o else 1 if r == o else 0 for o in rest) - 1 + 1 for r in rest]
    assert [v for i, v in enumerate(new) if i != k] == direct
    assert all(1 <= v <= top - 1 for i, v in enumerate(new) if i != k)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6).map(lambda x: 2 * x), st.data())
def test_property_bm_pct_between_0_and_100(top, data):
    scores = data.draw(st.lists(st.one_of(st.integers(0, top), st.just("R")), min_size=1, max_size=30))
    pct = bm_pct(scores, top)
    assert 0 <= pct <= 100


@settings(max_examples=40, deadline=None)
@given(st.permutations(list("ABCDEFGHIJK")), st.data())
def test_property_participation_list(order, data):
    host = data.draw(st.sampled_from(order))
    capacity = data.draw(st.integers(1, 11))
    unable = data.draw(st.lists(st.sampled_from([p for p in order if p != host]), unique=True, max_size=3))
    played = {p: data.draw(st.integers(0, 5)) for p in order}
    first = first_participation_list(order, host, capacity, unable)
    nxt = next_participation_list(first, host, capacity, played, unable)
    for lst in (first, nxt):
        assert lst[0] == (host, "O")
        assert sorted(p for p, _ in lst) == sorted(order)
        assert {p for p, s in lst if s == "I"} == set(unable)
        assert sum(1 for _, s in lst if s in "OP") == min(capacity, len(order) - len(unable))
    counts = [played[p] for p, _ in nxt[1:]]
    assert counts == sorted(counts)
