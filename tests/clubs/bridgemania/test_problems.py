"""The BridgeMania engine's problems are typed: a ``bm.*`` code and the tournament,
pair, board and field they concern -- the workbook kind puts them at their cells from
these, never from the message text."""

from __future__ import annotations

import dataclasses

import pytest

from xlbridge.clubs.bridgemania import (
    BasePair,
    Guest,
    Penalty,
    Rectification,
    Season,
    SeasonError,
    SeasonProblem,
    Tournament,
    bm_final,
    bm_pct,
    first_participation_list,
    next_participation_list,
    recalculate,
)
from xlbridge.clubs.bridgemania.demo import demo_season
from xlbridge.rules.problems import ProblemsError, RuleError

P1 = [4, 0, 2, 2, 0, 4]
P2 = [0, 4, 4, 0, 2, 2]
P3 = [2, 2, 0, 4, 4, 0]
BOARDS = [P1] * 6 + [P2] * 4 + [P3] * 4
BASE = tuple(BasePair(x, (x.lower() + "1", x.lower() + "2")) for x in "ABCDEFGH")


def columns(slots):
    return {name: [board[i] for board in BOARDS] for i, name in enumerate(slots)}


def tournament(tid="T1", slots="ABCDEF", **kw):
    status = kw.pop("status", {"G": "waiting", "H": "unable"})
    return Tournament(id=tid, host=kw.pop("host", "A"), scores=columns(list(slots)), top=kw.pop("top", 4),
                      status=status, **kw)


def problems(*tournaments, **season):
    with pytest.raises(SeasonError) as caught:
        recalculate(Season(base_pairs=season.pop("base_pairs", BASE), tournaments=tournaments, **season))
    return caught.value


def one(error, code):
    (found,) = [p for p in error.problems if p.code == code]
    return found


def test_season_error_is_a_problems_error_and_keeps_its_message():
    scores = columns(list("ABCDEF"))
    scores["C"] = list(scores["C"])
    scores["C"][4] = "2x"
    error = problems(Tournament("T9", "A", scores, top=4, status={"G": "waiting", "H": "unable"}))
    assert isinstance(error, ProblemsError) and isinstance(error, RuleError)
    assert str(error) == ("1 problem in the BridgeMania season:\n"
                          "- Tournament T9, pair C, board 5: score '2x' is not a number (type R for a sit-out)")
    (p,) = error.problems
    assert isinstance(p, SeasonProblem)
    assert (p.code, p.tournament, p.pair, p.board, p.field, p.value) == (
        "bm.score.not-a-number", "T9", "C", 5, "score", "2x")
    assert p.message == "score '2x' is not a number (type R for a sit-out)"
    assert p.concerns() == {"tournament": "T9", "pair": "C", "board": 5, "field": "score"}
    assert error.codes() == ["bm.score.not-a-number"]


def test_the_concerns_of_each_kind_of_problem():
    scores = columns(list("ABCDEF"))
    scores["A"] = [5] + scores["A"][1:]
    error = problems(Tournament("T4", "A", scores, top=4, status={"G": "waiting", "H": "unable"}))
    above, board = one(error, "bm.score.above-top"), one(error, "bm.board.sum")
    assert (above.pair, above.board, above.field, above.value) == ("A", 1, "score", 5)
    assert (board.pair, board.board, board.field) == (None, 1, "score")
    error = problems(tournament("T5", rectifications=(Rectification(1, "partial", ("C", "E"), ("A", "C", "E")),),
                                penalties=(Penalty(("Q",)),)))
    assert (one(error, "bm.penalty.unknown-pair").pair, one(error, "bm.rect.ns").board) == ("Q", 1)
    assert one(error, "bm.rect.ns").field == "ns"
    # the name of the field in the message is a parameter: a workbook names its column
    ns = one(error, "bm.rect.ns")
    assert ns.replace(ns_name="'NS pairs of the board'").message.startswith(
        "rectification: 'NS pairs of the board' must list the 3 NS entries")
    error = problems(dataclasses.replace(tournament("T2"), movement="mitchell", top=5, host="ZZ"))
    assert one(error, "bm.top").field == "top" and one(error, "bm.top").tournament == "T2"
    assert one(error, "bm.host.not-base-pair").field == "host"
    error = problems(dataclasses.replace(tournament("T2"), movement="mitchell"))
    movement = one(error, "bm.valid.movement")
    assert (movement.field, movement.value) == ("movement", "mitchell")
    assert movement.replace(advice="type no").message.endswith("(Howell or scrambled Mitchell); type no")


def test_season_problems_concern_pairs_and_fields():
    base = (*BASE, BasePair("A", ("x1", "a1")))
    error = problems(tournament("T1"), tournament("T1"), base_pairs=base, guests=(Guest("B"), Guest("N"), Guest("N")))
    assert [(p.code, p.pair, p.field) for p in error.problems if p.tournament is None] == [
        ("bm.player.twice", "A", "players"),
        ("bm.base-pair.twice", "A", "pair"),
        ("bm.guest.twice", "N", "guest"),
        ("bm.guest.is-base-pair", "B", "guest"),
    ]
    assert (one(error, "bm.tournament.twice").tournament, one(error, "bm.tournament.twice").field) == (
        "T1", "tournament")


def every_problem(season):
    try:
        recalculate(season)
    except SeasonError as error:
        return error.problems
    return []


def test_no_problem_is_uncoded():
    """A battery of damaged demo seasons: every problem has a bm.* code and a field."""
    season = demo_season()
    t = season.tournaments[4]
    damaged = [
        dataclasses.replace(t, top="x"),
        dataclasses.replace(t, top=None, scores={e: list(r)[:-1] + ["R"] for e, r in t.scores.items()}),
        dataclasses.replace(t, host=""),
        dataclasses.replace(t, status={**t.status, "BE": "sick", "ZZ": "ill"}),
        dataclasses.replace(t, splits={"S9": ("Nobody",), "BE": ("Barbara", "Elio")}),
        dataclasses.replace(t, rectifications=(Rectification(99, "partial"), Rectification(3, "maybe"),
                                               Rectification(3, "")), penalties=(Penalty(("ZZ",)),)),
        dataclasses.replace(t, hand_scores={"ZZ": [1], "RU": ["x"]}),
        dataclasses.replace(t, hand_scores={}, top_hand=("ZZ",)),
        dataclasses.replace(t, scores={e: list(r)[:10] for e, r in t.scores.items()}, movement="x"),
        dataclasses.replace(t, scores={}),
    ]
    seen = set()
    for bad in damaged:
        found = every_problem(dataclasses.replace(season, tournaments=(*season.tournaments, bad),
                                                  reference=("BE",)))
        assert found
        for p in found:
            assert isinstance(p, SeasonProblem)
            assert p.code.startswith("bm.") and p.code != "uncoded", p
            assert p.field, p
            seen.add(p.code)
    assert len(seen) >= 20, sorted(seen)


@pytest.mark.parametrize("call, code, field", [
    (lambda: bm_pct([4, "x"], 4), "bm.pct.score-text", None),
    (lambda: bm_pct([4], 5), "bm.top", "top"),
    (lambda: bm_pct([], 4), "bm.pct.no-scores", None),
    (lambda: bm_pct([4], 4, penalty="x"), "bm.pct.penalty", None),
    (lambda: bm_final([1], [1, 2], [1]), "bm.final.lengths", None),
    (lambda: bm_final([1], [1], [0]), "bm.final.place", None),
    (lambda: bm_final([1], [1], [1], played=[1, 2]), "bm.final.length", None),
    (lambda: first_participation_list(["a", "b"], "a", 3), "bm.list.capacity", "capacity"),
    (lambda: first_participation_list(["a", "b"], "a", 1, unable=["z"]), "bm.list.unable-unknown", "unable"),
    (lambda: first_participation_list(["a", "b"], "a", 1, unable=["a"]), "bm.list.host-unable", "unable"),
    (lambda: first_participation_list(["a", "b"], "z", 1), "bm.list.host", "host"),
    (lambda: next_participation_list([("a", "O")], "a", 1, {}), "bm.list.no-count", "list"),
])
def test_the_functions_raise_coded_rule_errors(call, code, field):
    with pytest.raises(RuleError) as caught:
        call()
    assert caught.value.code == code
    if field:
        assert caught.value.problem.field == field
