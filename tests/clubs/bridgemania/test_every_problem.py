"""BridgeMania: every problem of a tournament at once, the ill mark, numbers as typed
(issue 15, point 6)."""

from __future__ import annotations

import dataclasses

import pytest

from xlbridge.clubs.bridgemania import SeasonError, first_participation_list, next_participation_list, recalculate
from xlbridge.clubs.heeg import HeegInputError, HeegSettings, Period, compute

from .test_engine import columns, season, tournament


def _problems(t) -> list[tuple[str, object, object]]:
    with pytest.raises(SeasonError) as caught:
        recalculate(season(t))
    return sorted((p.code, p.pair, p.board) for p in caught.value.problems)


def test_a_blank_score_does_not_hide_a_board_sum_error_elsewhere() -> None:
    scores = {k: list(v) for k, v in columns(list("ABCDEF")).items()}
    scores["A"][2] = None  # board 3: blank
    scores["B"][9] = 3  # board 10: 4 + 3 + 0 + ... does not add up
    got = _problems(_with(scores))
    assert got == [("bm.board.sum", None, 10), ("bm.score.empty", "A", 3)]


def test_a_wrong_typed_top_or_status_does_not_hide_a_board_sum_error() -> None:
    scores = {k: list(v) for k, v in columns(list("ABCDEF")).items()}
    scores["B"][9] = 3
    got = _problems(_with(scores, status={"G": "sick", "H": "unable"}))
    assert got == [("bm.board.sum", None, 10), ("bm.status.unknown", "G", None)]


def test_a_short_row_leaves_its_missing_boards_unchecked_but_checks_the_others() -> None:
    scores = {k: list(v) for k, v in columns(list("ABCDEF")).items()}
    scores["C"] = scores["C"][:12]
    scores["D"][0] = 1  # board 1 wrong
    got = _problems(_with(scores))
    assert got == [("bm.board.sum", None, 1), ("bm.scores.count", "C", None)]


def _with(scores, status=None):
    return dataclasses.replace(tournament("T1", status=status), scores=scores)


def test_an_ill_pair_is_m_on_the_list_an_unable_pair_i() -> None:
    first = first_participation_list(list("ABCDEFG"), "C", 4, unable=["B"], ill=["E"])
    assert first == [("C", "O"), ("A", "P"), ("B", "I"), ("D", "P"), ("E", "M"), ("F", "P"), ("G", "A")]
    played = {"A": 1, "B": 0, "C": 1, "D": 1, "E": 0, "F": 1, "G": 0}
    second = next_participation_list(first, "A", 4, played, ill=["G"])
    # ex-O/P block (C A D F) to the bottom: B E G C D F; host A first; fewest played first (stable)
    assert second == [("A", "O"), ("B", "P"), ("E", "P"), ("G", "M"), ("C", "P"), ("D", "A"), ("F", "A")]


def test_the_season_lists_show_ill_pairs_as_m() -> None:
    result = recalculate(season(tournament("T1", status={"G": "ill", "H": "unable"})))
    listed = dict(result.tournaments[0].participation)
    assert (listed["G"], listed["H"]) == ("M", "I")
    assert next(n for n in result.tournaments[0].base if n.pair == "G").f1 > 0  # the averaged PTS


def test_numbers_in_messages_are_printed_as_typed() -> None:
    """Excel sends a typed 130 as 130.0; the message says 130."""
    scores = {k: list(v) for k, v in columns(list("ABCDEF")).items()}
    scores["A"][0] = -5.0
    with pytest.raises(SeasonError) as caught:
        recalculate(season(_with(scores)))
    assert "Tournament T1, pair A, board 1: score -5 is negative" in [str(p) for p in caught.value.problems]
    settings = HeegSettings(periods=(Period("1", ("2025-09-02",)),), lines=("A",))
    rows = [{"date": "2025-09-02", "pair": float(p), "line": "A", "mp": 130.0 if p == 1 else 20.0, "max_mp": 100.0,
             "code": ""} for p in range(1, 5)]
    with pytest.raises(HeegInputError) as heeg:
        compute(rows, settings)
    assert [p.message for p in heeg.value.problems] == ["MP 130 is above the evening's maximum 100"]
