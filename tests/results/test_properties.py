"""Properties: the matchpoint rule, the PBN round trip, and junk that only ResultsFileError may answer."""

from __future__ import annotations

import datetime as dt
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlbridge.results import Event, Line, Optimum, Pair, Player, Result, ResultsFileError, read_pbn, read_results
from xlbridge.results.matchpoints import board_top, matchpoints, rescale
from xlbridge.results.model import with_ties

sys.path.insert(0, str(Path(__file__).parent))  # the writer beside this file (test equipment)
from pbn_writer import write_pbn  # noqa: E402

DATA = Path(__file__).parent / "data"
scores = st.lists(st.integers(-7600, 7600).map(lambda s: s - s % 10), min_size=1, max_size=40)


# ------------------------------------------------------------------ matchpoints


@given(scores)
def test_a_board_adds_up_to_rows_times_rows_minus_one(board):
    assert sum(matchpoints(board)) == len(board) * (len(board) - 1)


@given(scores)
def test_equal_scores_equal_matchpoints_and_a_better_score_never_fewer(board):
    mps = matchpoints(board)
    for a, mp_a in zip(board, mps):
        for b, mp_b in zip(board, mps):
            assert (a == b) <= (mp_a == mp_b)
            assert (a > b) <= (mp_a > mp_b)
    assert all(0 <= mp <= board_top(len(board)) for mp in mps)


@given(scores, st.integers(0, 5))
def test_a_board_with_fewer_results_keeps_the_sum_of_a_regular_board(board, missing):
    """The Regolamento (Sezione C 05): the pairs of a cancelled line get TOP/2 each and
    "la somma dei punteggi mano su ciascuna linea risulta uguale a quello degli score regolari"."""
    rows = len(board) + missing
    mps = matchpoints(board, top=board_top(rows))
    assert sum(mps) + missing * Fraction(board_top(rows), 2) == rows * (rows - 1)
    assert all(missing <= mp <= board_top(rows) - missing for mp in mps)


def test_the_regolamento_scale_for_one_cancelled_line():
    """"lo score residuo viene valorizzato secondo la seguente scala: (TOP-1) (TOP-3) … 1":
    a board of 6 tables (TOP 10), one line cancelled, five different scores."""
    assert matchpoints([600, 420, 170, -50, -100], top=10) == [9, 7, 5, 3, 1]


@given(st.lists(st.tuples(st.integers(-200, 200), st.integers(1, 4)), min_size=1, max_size=12))
def test_a_count_is_that_many_equal_rows(board):
    expanded = matchpoints([score for score, count in board for _ in range(count)])
    by_score = dict(zip([score for score, count in board for _ in range(count)], expanded))
    assert matchpoints([s for s, _ in board], counts=[c for _, c in board]) == [by_score[s] for s, _ in board]


def test_rescale_is_exact():
    assert rescale(Fraction(7), 10, 100) == 70 and rescale(Fraction(1), 3, 2) == Fraction(2, 3)


# ------------------------------------------------------------------ the round trip


decimals = st.integers(-99999, 99999).map(lambda n: Fraction(n, 100))
names = st.text(st.characters(whitelist_categories=("L",), whitelist_characters=" 'ÆØÅæøåéü"), min_size=2,
                max_size=12).map(str.strip).filter(lambda s: len(s) >= 2)
optional = st.none() | decimals


@st.composite
def results(draw) -> Result:
    count = draw(st.integers(1, 8))
    sections = draw(st.sampled_from([[""], ["A", "B"]]))
    pairs = [Pair(id=str(i), number=i,
                  players=tuple(Player(draw(names), draw(st.sampled_from(["", "123", "004711"])))
                                for _ in range(draw(st.integers(1, 2)))),
                  direction=draw(st.sampled_from(["", "NS", "EW"])), section=draw(st.sampled_from(sections)),
                  place=draw(st.none() | st.integers(1, count)), total=draw(optional), matchpoints=draw(optional),
                  percentage=draw(optional), boards=draw(st.none() | st.integers(0, 40)),
                  masterpoints=draw(optional), masterpoint_type=draw(st.sampled_from(["", "GREEN"])))
             for i in range(1, count + 1)]
    ids = [p.id for p in pairs]
    lines = sorted((Line(board=draw(st.integers(1, 4)), ns=draw(st.sampled_from(ids)), ew=draw(st.sampled_from(ids)),
                         section=draw(st.sampled_from(sections)), table=draw(st.none() | st.integers(1, 20)),
                         round=draw(st.none() | st.integers(1, 9)),
                         contract=draw(st.sampled_from(["", "Pass", "3NT", "4SX"])),
                         declarer=draw(st.sampled_from(["", "N", "W"])), tricks=draw(st.none() | st.integers(0, 13)),
                         score=score, artificial="" if score is not None else draw(st.sampled_from(["A+", "^60"])),
                         mp_ns=draw(optional), mp_ew=draw(optional), percentage_ns=draw(optional),
                         percentage_ew=draw(optional), imp_ns=draw(optional), imp_ew=draw(optional),
                         count=draw(st.integers(1, 3)))
                    for score in draw(st.lists(st.none() | st.integers(-7600, 7600), max_size=12))),
                   key=lambda line: line.board)
    optimum = [Optimum(board, draw(st.sampled_from("NESW")), draw(st.sampled_from(["S", "NT"])), draw(st.integers(0, 13)))
               for board in sorted({line.board for line in lines}) if draw(st.booleans())]
    event = Event(format="PBN", name=draw(names | st.just("")), date=draw(st.none() | st.dates(dt.date(1990, 1, 1))),
                  site=draw(names | st.just("")), program=draw(st.sampled_from(["", "Ruter i Norge"])),
                  scoring=draw(st.sampled_from(["", "MatchPoints;MP1", "IMP;Butler"])))
    return Result(event, with_ties(pairs), tuple(lines), tuple(optimum))


@pytest.mark.slow
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(results())
def test_a_result_written_as_pbn_reads_back_the_same(result):
    assert read_pbn(write_pbn(result)) == result


# ------------------------------------------------------------------ junk: only the typed exception


def only_results_errors(data: bytes) -> None:
    try:
        read_results(data)
    except ResultsFileError as error:
        assert error.problems and "\n" not in str(error)


@settings(max_examples=300)
@given(st.binary(max_size=2000))
def test_random_bytes(data):
    only_results_errors(data)


@pytest.mark.slow
@settings(max_examples=200)
@given(st.sampled_from(sorted(DATA.glob("*.*"))), st.floats(0, 1))
def test_a_truncated_file(path, share):
    if path.suffix in (".pbn", ".xml"):
        data = path.read_bytes()
        only_results_errors(data[:int(len(data) * share)])


@pytest.mark.slow
@settings(max_examples=200)
@given(st.sampled_from(sorted(DATA.glob("*.*"))), st.integers(0, 10**6), st.binary(min_size=1, max_size=8))
def test_a_damaged_file(path, where, junk):
    if path.suffix in (".pbn", ".xml"):
        data = path.read_bytes()
        where %= len(data)
        only_results_errors(data[:where] + junk + data[where + len(junk):])


HOSTILE = {
    "deep XML": b"<USEBIO>" + b"<X>" * 100_000 + b"</X>" * 100_000 + b"</USEBIO>",
    "billion laughs": (b'<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;">'
                       b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;">]><USEBIO>&d;</USEBIO>'),
    "quadratic blowup": (b'<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY a "' + b"x" * 50_000 + b'">]><USEBIO>'
                         + b"&a;" * 5_000 + b"</USEBIO>"),
    "external entity": (b'<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                        b"<USEBIO>&e;</USEBIO>"),
    "huge exponent": b'[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;MP_NS"]\n1 2 100 1e999999999\n',
    "huge number": b'[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;MP_NS"]\n1 2 ' + b"9" * 100_000 + b" 3\n",
    "huge board": b'[Board "' + b"9" * 5000 + b'"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 100\n',
    "huge XML number": (b'<USEBIO Version="1.2"><EVENT><PARTICIPANTS><PAIR><PAIR_NUMBER>1</PAIR_NUMBER><TOTAL_SCORE>'
                        + b"9" * 100_000 + b"</TOTAL_SCORE></PAIR></PARTICIPANTS></EVENT></USEBIO>"),
    "one long line": b'[Event "' + b"x" * 3_000_000,
    "many tags": b'[A "1"]' * 200_000,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_file(name):
    with pytest.raises(ResultsFileError):
        read_results(HOSTILE[name])
