"""The readers on real files' shapes (tests/results/data/README.md says where each comes from).

Each test asserts the numbers the file holds, read back exactly, and where a file
carries both scores and matchpoints, that the matchpoints computed from the scores
(xlbridge/results/matchpoints.py) are the file's -- or what explains the difference.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction as F
from pathlib import Path

import pytest

from xlbridge.results import Line, Player, read_pbn, read_results, read_usebio
from xlbridge.results.matchpoints import board_top, matchpoints, rescale

DATA = Path(__file__).parent / "data"


def read(name: str):
    return read_results((DATA / name).read_bytes())


def neuberg(mp: F, rows: int, results: int) -> F:
    """Neuberg's formula on the 0-2 scale (what Magic Contest and Compscore apply to a board
    with fewer results): (mp + 1) x rows / results - 1."""
    return (mp + 1) * rows / results - 1


# ------------------------------------------------------------------ Ruter: a club evening, Butler IMPs


def test_ruter_club_evening():
    result = read("ruter-club-evening.pbn")
    assert result.event.format == "PBN" and result.event.program == "Ruter i Norge"
    assert (result.event.name, result.event.date, result.event.scoring) == ("Klubbkveld", dt.date(2012, 1, 24),
                                                                            "IMP;Butler-2;Mean")
    assert len(result.pairs) == 16 and len(result.boards()) == 21 and len(result.lines) == 21 * 8
    first = result.pairs[0]
    assert (first.id, first.place, first.direction, first.total, first.boards) == ("3", 1, "NS", 50, 21)
    assert first.players == (Player("Åse Ødegård", "00001"), Player("Per Moen", "00002"))  # UTF-8 names split at " - "
    assert [(p.id, p.place, p.tied) for p in result.pairs if p.tied] == [("6", 4, True), ("10", 4, True),
                                                                         ("5", 14, True), ("8", 14, True)]
    assert sum(p.total for p in result.pairs) == 0  # Butler IMPs add up to nothing
    board1 = result.boards()[1]
    assert board1[0] == Line(board=1, ns="3", ew="4", table=2, round=1, contract="1N", declarer="N", tricks=8,
                             score=120, imp_ns=F(5), imp_ew=F(-5))
    assert [line.score for line in board1] == [120, 50, -80, -80, -110, -140, -150, -150]  # Score_EW is minus
    assert all(line.mp_ns is None for line in result.lines)  # an IMP file: no matchpoints to compare


# ------------------------------------------------------------------ Magic Contest: a matchpointed session (MP1)


def test_magic_contest_session_reads_iso_8859_1():
    result = read("magic-contest-session.pbn")
    assert result.event.name == "Open /2 DN1 National Finale directe 21-22 - Séance 1"
    assert result.event.site == "Fédération Française de Bridge" and result.event.scoring == "MatchPoints;MP1"
    assert len(result.pairs) == 44 and len(result.boards()) == 30 and len(result.optimum) == 30 * 20
    winner = result.pairs[0]
    assert (winner.id, winner.direction, winner.matchpoints, winner.percentage) == ("7", "EW", F("771.2"),
                                                                                    F("61.21"))
    assert winner.names == ("Hélène DURAND", "Jérôme MERCIER")
    assert [line.artificial for line in result.lines if line.artificial] == ["A+", "A+", "A-/A+", "A+"]
    assert next(o for o in result.optimum if o.board == 1 and o.declarer == "N" and o.denomination == "S").tricks == 10


def test_magic_contest_matchpoints_are_the_standard_rule_and_neuberg_where_a_result_is_missing():
    """A full board: the file's MP (one decimal) are ours to 0.05.  A board with an
    assigned "A+": the file applies Neuberg to the 21 results; the Regolamento's rule
    (ours) gives each result one more than the 0-2 scale of 21 -- 28 where the file says 28.3."""
    result = read("magic-contest-session.pbn")
    short = 0
    for board, lines in result.boards().items():
        played = [line for line in lines if line.score is not None]
        rows, results = len(lines), len(played)
        ours = matchpoints([line.score for line in played], top=board_top(rows))
        assert sum(ours) + F(board_top(rows), 2) * (rows - results) == rows * (rows - 1)
        for line, mp in zip(played, ours):
            expected = mp if rows == results else neuberg(mp - (rows - results), rows, results)
            assert abs(expected - line.mp_ns) <= F(1, 20), (board, line, mp)
            assert line.mp_ns + line.mp_ew == board_top(rows)
        short += rows != results
    assert short == 4
    board1 = result.boards()[1]
    top_line = board1[0]
    assert top_line.mp_ns == F("28.3")
    assert matchpoints([line.score for line in board1 if line.score is not None], top=42)[0] == 28


# ------------------------------------------------------------------ BridgeComposer: two sections, MP2


def test_bridgecomposer_club_game():
    result = read("bridgecomposer-club-game.pbn")
    assert result.event.program == "BridgeComposer Version 5.118.1" and result.event.name == "Placeholder Monday Pairs"
    assert result.sections == ("A", "B") and len(result.lines) == 8
    # [Event "#"] inherits the first game's Event; no TotalScoreTable: the pairs are those on the travellers
    assert {(p.section, p.direction, p.id, p.names) for p in result.pairs} >= {("A", "NS", "1", ("Alfa-Bravo",)),
                                                                               ("A", "EW", "1", ("Charlie-Delta",))}
    passed = result.boards()[1][2]
    assert (passed.contract, passed.score, passed.section) == ("Pass", 0, "B")
    assert result.boards()[1][3].score == -100  # 3NTX down: Score_EW 100


def test_bridgecomposer_mp2_is_half_the_0_2_scale_across_both_sections():
    """MP2 (PBN §3.4.12: 1 per lower score, 0.5 per equal one): the file's MP are ours
    rescaled to the top rows - 1; the two sections are matchpointed as one field."""
    for lines in read("bridgecomposer-club-game.pbn").boards().values():
        ours = matchpoints([line.score for line in lines])
        assert [rescale(mp, board_top(len(lines)), len(lines) - 1) for mp in ours] == [line.mp_ns for line in lines]


# ------------------------------------------------------------------ the PBN reference test file: sort marks, "#", Multiplicity


def test_pbn_reference_tables():
    result = read("pbn-reference-tables.pbn")
    assert result.event.date == dt.date(1999, 1, 29)
    first, second = result.boards()[1][:26], result.boards()[1][26:]
    assert [line.count for line in first][:5] == [2, 1, 5, 1, 12] and sum(line.count for line in first) == 155
    assert second == first[:len(second)]  # [ScoreTable "#"]: the previous columns, the game's own rows
    assert len(result.pairs) == 10  # the TotalScoreTable twice ("#"), each pair once
    assert (result.pairs[0].id, result.pairs[0].total, result.pairs[0].percentage) == ("581", F("1449.8"), F("72.49"))
    assert result.pairs[0].players[0].name == "Ivan PETROV"  # padded names inside the string, split at ";"


def test_pbn_reference_percentages_count_each_table_against_the_field_and_itself():
    """With Multiplicity, 155 tables: the file's Percentage_NS is (mp + 1) / (2 x 155) of
    our matchpoints -- each score compared with every table including its own."""
    lines = read("pbn-reference-tables.pbn").boards()[1][:26]
    ours = matchpoints([line.score for line in lines], counts=[line.count for line in lines])
    assert sum(mp * line.count for mp, line in zip(ours, lines)) == 155 * 154
    for mp, line in zip(ours, lines):
        assert abs((mp + 1) * 100 / 310 - line.percentage_ns) <= F(1, 20), line


# ------------------------------------------------------------------ USEBIO: Compscore3's layout and the EBU's


def test_compscore_shape():
    result = read("compscore-shape.xml")
    assert result.event.format == "USEBIO" and result.event.program == "Compscore3"
    assert (result.event.date, result.event.masterpoint_scale, result.event.scoring) == (dt.date(2025, 3, 12), "Club",
                                                                                          "MP_PAIRS")
    assert [(p.id, p.direction, p.place, p.masterpoints) for p in result.pairs if p.place == 1] == [
        ("3NS", "NS", 1, 57), ("4EW", "EW", 1, 57)]  # two winners; masterpoints in Compscore's hundredths
    assert result.pairs[0].players == (Player("ALICE ADAMS", "100001"), Player("BEN BROWN", "100002"))
    assert [i for i, line in enumerate(result.lines) if line.artificial] == [9]
    adjusted = result.boards()[3][1]
    assert (adjusted.score, adjusted.artificial, adjusted.mp_ns, adjusted.tricks) == (None, "A6040", F("3.6"), None)
    for pair in result.pairs:  # the totals are the pair's matchpoints on the travellers
        side = "ns" if pair.direction == "NS" else "ew"
        mine = [getattr(line, f"mp_{side}") for line in result.lines if getattr(line, side) == pair.id]
        assert sum(mine) == pair.matchpoints


def test_compscore_matchpoints():
    result = read("compscore-shape.xml")
    for board, lines in result.boards().items():
        played = [line for line in lines if line.score is not None]
        ours = matchpoints([line.score for line in played], top=6)
        if board < 3:
            assert ours == [line.mp_ns for line in played]
        else:  # an assigned 60/40: the file's Neuberg (two decimals) against the Regolamento's +1
            assert ours == [1, 5, 3]
            assert all(abs(neuberg(mp - 1, 4, 3) - line.mp_ns) < F(1, 100) for mp, line in zip(ours, played))


def test_ebu_shape():
    result = read_usebio((DATA / "ebu-shape.xml").read_bytes())
    assert result.event.name == "Monday Pairs" and result.event.scoring == "MATCH_POINTS"
    assert result.sections == ("A", "B") and len(result.pairs) == 8 and len(result.lines) == 8
    zoe = result.pairs[0]
    assert (zoe.section, zoe.id, zoe.direction, zoe.names[0]) == ("A", "1", "NS", "Zoë Brontë")  # ISO-8859-1
    winner = next(p for p in result.pairs if p.section == "A" and p.place == 1)
    assert (winner.id, winner.masterpoints, winner.masterpoint_type) == ("2", 6, "Black")  # MASTER_POINTS nested
    assert [(p.section, p.direction, p.id) for p in result.pairs if p.tied] == [("A", "EW", "1"), ("A", "EW", "2"),
                                                                               ("B", "NS", "1"), ("B", "NS", "2")]
    for (board, section), lines in {(b, s): [line for line in ls if line.section == s]
                                    for b, ls in result.boards().items() for s in "AB"}.items():
        assert matchpoints([line.score for line in lines]) == [line.mp_ns for line in lines], (board, section)


@pytest.mark.parametrize("name", ["ruter-club-evening.pbn", "magic-contest-session.pbn",
                                  "bridgecomposer-club-game.pbn", "pbn-reference-tables.pbn"])
def test_a_pbn_file_reads_the_same_in_any_line_ending_and_with_a_bom(name):
    data = (DATA / name).read_bytes()
    plain = read_pbn(data)
    lf = data.replace(b"\r\n", b"\n")
    assert read_pbn(lf.replace(b"\n", b"\r\n")) == read_pbn(lf.replace(b"\n", b"\r")) == read_pbn(lf) == plain
    if name != "magic-contest-session.pbn":  # UTF-8 (or ASCII): a BOM changes nothing
        assert read_pbn(b"\xef\xbb\xbf" + data) == plain
    else:  # the same text in UTF-8, with a BOM, reads the same
        assert read_pbn(b"\xef\xbb\xbf" + data.decode("iso-8859-1").encode("utf-8")) == plain
