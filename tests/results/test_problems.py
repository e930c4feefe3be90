"""Every problem of a results file: its code, its one-line message naming the line or
the element, and every problem of a file raised together as one ResultsFileError."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tools.catalogues import problem_templates
from xlbridge.results import ResultsFileError, problems, read_results
from xlbridge.results.matchpoints import matchpoints

PACKAGE = Path(__file__).resolve().parents[2] / "xlbridge" / "results"
sys.path.insert(0, str(Path(__file__).parent))  # the cases beside this file, shared with docs/errors.md
from cases import CASES  # noqa: E402


#: Every code the readers raise (stable: a workbook or a translation keys on them).
CODES = set(CASES) | {"results.pbn.number", "results.pbn.score", "results.usebio.whole", "results.usebio.place","results.file.too-large", "results.limit.boards", "results.limit.lines", "results.limit.pairs",
                      "results.top.too-small", "results.board.top-too-small", "results.board.multiplicity",
                      "results.board.no-score"}


def raised(data: bytes) -> list[str]:
    with pytest.raises(ResultsFileError) as caught:
        read_results(data)
    assert all(problem.code.startswith("results.") for problem in caught.value.problems)
    return [str(problem) for problem in caught.value.problems]


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_problem_names_its_line_or_element(code):
    data, messages = CASES[code]
    with pytest.raises(ResultsFileError) as caught:
        read_results(data)
    assert caught.value.problems[0].code == code
    assert [str(p) for p in caught.value.problems] == messages
    assert "\n" not in str(caught.value)


def test_the_bounds(monkeypatch):
    board = b'[Board "{n}"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 100\n3 4 -50\n\n'
    data = b'[TotalScoreTable "Rank;PairId"]\n1 1\n2 2\n3 3\n\n' + b"".join(board.replace(b"{n}", b"%d" % n)
                                                                          for n in (1, 2, 3))
    monkeypatch.setattr(problems, "MAX_BOARDS", 2)
    monkeypatch.setattr(problems, "MAX_LINES", 5)
    monkeypatch.setattr(problems, "MAX_PAIRS", 2)
    assert raised(data) == ["the file has 3 boards, more than 2, the most xlbridge reads",
                            "the file has 6 traveller lines, more than 5, the most xlbridge reads",
                            "the file has 3 pairs, more than 2, the most xlbridge reads"]
    monkeypatch.setattr(problems, "MAX_BYTES", 100)
    assert raised(data) == [f"the file has {len(data):,} bytes, more than 100, the largest results file xlbridge reads"]


def test_values_not_of_their_column():
    assert raised(b'[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 12.5\n') == [
        "line 3: Score_NS '12.5' is not a trick score (a whole number, or an assigned score such as A+)"]
    pair = b"<USEBIO><EVENT><PARTICIPANTS><PAIR><PAIR_NUMBER>1</PAIR_NUMBER>%s</PAIR></PARTICIPANTS></EVENT></USEBIO>"
    assert raised(pair % b"<PLACE>first</PLACE><BOARDS_PLAYED>-2</BOARDS_PLAYED>") == [
        "USEBIO/EVENT[1]/PARTICIPANTS/PAIR[1]/PLACE: 'first' is not a place (a whole number, = after it for a tie)",
        "USEBIO/EVENT[1]/PARTICIPANTS/PAIR[1]/BOARDS_PLAYED: '-2' is not a whole number from 0 to 1000000000"]


def test_a_top_smaller_than_the_results_make():
    with pytest.raises(ResultsFileError) as caught:
        matchpoints([100, 200, 300], top=2)
    assert [str(p) for p in caught.value.problems] == ["a TOP of 2 is less than 3 results make (2 x (3 - 1) = 4)"]


def test_a_board_with_more_results_than_its_top_allows_is_named():
    from xlbridge.results.matchpoints import board_points
    from xlbridge.results.model import Line

    lines = [Line(2, str(n), str(n + 4), score=100 * n) for n in range(1, 9)]  # eight results, a section of 8 pairs
    with pytest.raises(ResultsFileError) as caught:
        board_points(2, lines, 6)
    assert [str(p) for p in caught.value.problems] == [
        "board 2: a TOP of 6 is less than its 8 results make (2 x (8 - 1) = 14)"]


def test_a_board_whose_lines_cannot_be_scored():
    from xlbridge.results.matchpoints import board_points
    from xlbridge.results.model import Line

    for lines, message in (
            ([Line(3, "1", "2", score=420, count=2), Line(3, "3", "4", score=50)],
             "board 3: a line stands for several tables without naming their pairs"),
            ([Line(3, "1", "2", score=420), Line(3, "3", "4", artificial="A+")],
             "board 3: a line has neither a score nor matchpoints")):
        with pytest.raises(ResultsFileError) as caught:
            board_points(3, lines)
        assert [str(p) for p in caught.value.problems] == [message]


def test_every_problem_of_a_file_is_listed_together_and_counted():
    data = b'[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;MP_NS"]\n1 2 x 1O\n3 4 50 2O\n5 6 70 3O\n7 8 90 4O\n'
    with pytest.raises(ResultsFileError) as caught:
        read_results(data)
    assert len(caught.value.problems) == 4
    assert str(caught.value) == ("4 problems in the results file: line 3: MP_NS '1O' is not a number; line 4: MP_NS "
                                 "'2O' is not a number; line 5: MP_NS '3O' is not a number (and 1 more)")


def test_a_file_of_junk_lists_at_most_a_thousand_problems():
    data = b'[Board "1"]\n[ScoreTable "PairId_NS;MP_NS"]\n' + b"1 x\n" * 5000
    with pytest.raises(ResultsFileError) as caught:
        read_results(data)
    assert len(caught.value.problems) == problems.MAX_PROBLEMS


def test_the_codes_are_the_pinned_ones():
    """Every template in the package has a pinned code, and every code a test above."""
    found = {code for path in PACKAGE.glob("*.py")
             for _, code, _ in problem_templates(path.read_text(encoding="utf-8"))}
    assert found == CODES
