"""Every problem of a results file: its code, its one-line message naming the line or
the element, and every problem of a file raised together as one ResultsFileError."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.catalogues import problem_templates
from xlbridge.results import ResultsFileError, problems, read_results, usebio
from xlbridge.results.matchpoints import matchpoints

PACKAGE = Path(__file__).resolve().parents[2] / "xlbridge" / "results"

#: (file, the messages, in order)
CASES = {
    'results.file.empty': (b'  \n',
        ['the file is empty']),
    'results.file.binary': (b'PK\x03\x04\x00\x00',
        ['the file is not text (it holds zero bytes): neither PBN nor USEBIO']),
    'results.file.unknown-format': (b'hello world\nthis is text\n',
        ['the file is neither PBN (no [Tag "value"] in it) nor USEBIO (XML)']),
    'results.pbn.no-results': (b'[Event "x"]\n[Board "1"]\n[Deal "N:... ... ... ..."]\n',
        ['the file has no ScoreTable or TotalScoreTable: it holds deals, not results']),
    'results.pbn.tag': (b'[Event "x"]\n[Board 1]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 100\n',
        ['line 2: a tag must read [Name "value"]', "line 3: a ScoreTable needs its game's Board number; the Board tag is ''"]),
    'results.pbn.string': (b'[Event "x"]\n[Site "y]\n',
        ['line 2: a string is not closed (its closing quote is missing)', 'line 2: a tag must read [Name "value"]']),
    'results.pbn.comment': (b'[Event "x"]\n{ never closed\n',
        ['line 2: a comment opened with { is never closed']),
    'results.pbn.stray': (b'1 2 3\n[Event "x"]\n[TotalScoreTable "PairId;Rank"]\n1 1\n',
        ["line 1: '1' is outside any tag or table"]),
    'results.pbn.inherit': (b'[Board "1"]\n[ScoreTable "#"]\n1 2 100\n',
        ['line 2: [ScoreTable "#"] repeats the previous ScoreTable\'s columns, but there is none']),
    'results.pbn.column': (b'[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS\\x"]\n1 2 100\n',
        ["line 2: ScoreTable column 'Score_NS\\\\x' is not a column name (a name, then optionally \\ and a width, L or R)"]),
    'results.pbn.column-twice': (b'[Board "1"]\n[ScoreTable "PairId_NS;PairId_NS"]\n1 2\n',
        ['line 2: ScoreTable names the column PairId_NS twice']),
    'results.pbn.row': (b'[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 100\n3 4\n',
        ['line 4: a ScoreTable row has 2 values; its header names 3 columns']),
    'results.pbn.whole': (b'[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;MP_NS;Result"]\n1 2 100 1O 14\n',
        ["line 3: Result '14' is not a whole number from 0 to 13", "line 3: MP_NS '1O' is not a number"]),
    'results.pbn.board': (b'[Board "x"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 100\n',
        ["line 2: a ScoreTable needs its game's Board number; the Board tag is 'x'"]),
    'results.pbn.pair-id': (b'[TotalScoreTable "Rank;PairId"]\n1 -\n',
        ['line 2: a TotalScoreTable row without a PairId']),
    'results.pbn.pair-twice': (b'[TotalScoreTable "Rank;PairId;TotalMP"]\n1 7 10\n2 7 9\n',
        ['line 3: pair 7 is ranked twice']),
    'results.pbn.date': (b'[Date "24 Jan 2012"]\n[TotalScoreTable "Rank;PairId"]\n1 7\n',
        ["line 1: Date '24 Jan 2012' is not a date (YYYY.MM.DD)"]),
    'results.usebio.xml': (b'<?xml version="1.0"?>\n<USEBIO Version="1.2"><EVENT></USEBIO>',
        ['line 2, column 32: the XML is malformed (mismatched tag)']),
    'results.usebio.entities': (b'<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY a "aaaa">]>\n<USEBIO>&a;</USEBIO>',
        ['the XML declares entities or refers to other files; xlbridge does not read such XML (it can hide an attack)']),
    'results.usebio.too-deep': (b'<USEBIO><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A><A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></A></USEBIO>',
        ['USEBIO/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A/A: the XML nests elements more than 32 deep; no USEBIO file does']),
    'results.usebio.root': (b'<html><body/></html>',
        ["the XML's root element is <html>, not <USEBIO>: this is not a USEBIO file"]),
    'results.usebio.version': (b'<USEBIO Version="2.0"><EVENT><PARTICIPANTS><PAIR><PAIR_NUMBER>1</PAIR_NUMBER></PAIR></PARTICIPANTS></EVENT></USEBIO>',
        ["USEBIO: Version '2.0' is not USEBIO 1.x, the version xlbridge reads"]),
    'results.usebio.events': (b'<USEBIO Version="1.2"></USEBIO>',
        ['USEBIO: the file holds 0 EVENT elements; xlbridge reads a file of one event']),
    'results.usebio.event-type': (b'<USEBIO Version="1.2"><EVENT EVENT_TYPE="TEAMS"/></USEBIO>',
        ["USEBIO/EVENT[1]: EVENT_TYPE 'TEAMS' is not a pairs event; xlbridge reads the results of pairs"]),
    'results.usebio.missing': (b'<USEBIO Version="1.2"><EVENT><PARTICIPANTS><PAIR><PLACE>1</PLACE></PAIR></PARTICIPANTS></EVENT></USEBIO>',
        ['USEBIO/EVENT[1]/PARTICIPANTS/PAIR[1]: PAIR_NUMBER is missing']),
    'results.usebio.number': (b'<USEBIO Version="1.2"><EVENT><PARTICIPANTS><PAIR><PAIR_NUMBER>1</PAIR_NUMBER><PERCENTAGE>5O</PERCENTAGE></PAIR></PARTICIPANTS></EVENT></USEBIO>',
        ["USEBIO/EVENT[1]/PARTICIPANTS/PAIR[1]/PERCENTAGE: '5O' is not a number"]),
    'results.usebio.date': (b'<USEBIO Version="1.2"><EVENT><DATE>someday</DATE><PARTICIPANTS><PAIR><PAIR_NUMBER>1</PAIR_NUMBER></PAIR></PARTICIPANTS></EVENT></USEBIO>',
        ["USEBIO/EVENT[1]/DATE: DATE 'someday' is not a date (DD/MM/YYYY)"]),
    'results.usebio.no-pairs': (b'<USEBIO Version="1.2"><EVENT><BOARD><BOARD_NUMBER>1</BOARD_NUMBER></BOARD></EVENT></USEBIO>',
        ["USEBIO/EVENT[1]: no PARTICIPANTS/PAIR: the file holds no pair's result"]),
}

#: Every code the readers raise (stable: a workbook or a translation keys on them).
CODES = set(CASES) | {"results.pbn.number", "results.pbn.score", "results.usebio.whole", "results.usebio.place","results.file.too-large", "results.limit.boards", "results.limit.lines", "results.limit.pairs",
                      "results.usebio.too-many", "results.top.too-small"}


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
    monkeypatch.setattr(problems, "MAX_BYTES", 10**6)
    monkeypatch.setattr(usebio, "MAX_ELEMENTS", 3)
    assert raised(b"<USEBIO><A/><B/><C/></USEBIO>") == [
        "USEBIO/C: the XML holds more than 3 elements, more than any USEBIO file"]


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
