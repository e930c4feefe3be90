"""A scoring program's file of one BridgeMania night (test equipment): eight pairs at four tables, fifteen
boards (five rounds of three) each played at every table, trick scores only (no matchpoints), as a PBN export."""

from __future__ import annotations

import datetime as dt

from dataclasses import replace
from fractions import Fraction

from xlbridge.results.matchpoints import matchpoints
from xlbridge.results.model import Event, Line, Pair, Player, Result

#: The file's pairs: its number, its players as the program writes them (the season's base pairs of the
#: demo in other case, order and accents, and the registered guest "Ivo & Ines").
PAIRS = {1: ("Nadia", "Oreste"), 2: ("GIULIA", "Dino"), 3: ("Gaetano", "Marta"), 4: ("Anna", "Franco"),
         5: ("Lùcia", "Sergio"), 6: ("Paola", "Renato"), 7: ("Carla", "Tommaso"), 8: ("Ivo", "Ines")}
BOARDS = 15
SCORES = (420, -50, 170, 140, -100, 620, 110, -420, 90, 200, -620, 450, 100, 130, -110, 400, 50)


def night(pairs: dict[int, tuple[str, str]] = PAIRS, boards: int = BOARDS) -> Result:
    """Pairs 1-4 sit North-South, 5-8 East-West; in round r (three boards each) table t meets EW (t + r) mod 4;
    every board is played at all four tables, its scores from ``SCORES`` in turn (two tables score the same on
    some boards: a tie)."""
    numbers = sorted(pairs)
    ns, ew = numbers[:4], numbers[4:]
    lines = []
    i = 0
    for board in range(1, boards + 1):
        rnd = (board - 1) // 3
        for table in range(4):
            score = SCORES[i % len(SCORES)] if not (board % 4 == 0 and table == 3) else SCORES[(i - 1) % len(SCORES)]
            i += 1
            lines.append(Line(board=board, ns=str(ns[table]), ew=str(ew[(table + rnd) % 4]), table=table + 1,
                              round=rnd + 1, score=score))
    return Result(Event("PBN", name="BridgeMania T15", date=dt.date(2020, 7, 10), program="a scoring program",
                        scoring="MatchPoints;MP1"),
                  pairs=tuple(Pair(str(n), n, tuple(Player(name) for name in pairs[n])) for n in numbers),
                  lines=tuple(lines))


def in_matchpoints(result: Result) -> Result:
    """``result`` as a program writes it that gives matchpoints on its own scale and no trick scores: MP1's
    top of ``n - 1`` (one for each score beaten, a half for each equal one)."""
    lines = []
    for board, board_lines in result.boards().items():
        top = len(board_lines) - 1
        for line, mp in zip(board_lines, matchpoints([line.score for line in board_lines])):
            ns = Fraction(mp, 2)
            lines.append(replace(line, score=None, mp_ns=ns, mp_ew=top - ns))
    return replace(result, lines=tuple(lines))


#: The demo season's base pairs that did not play the night.
ABSENT = ("BE", "MV", "RU", "SZ")


def next_tournament(wb) -> None:
    """The demo season (openpyxl) after New tournament (T15, its base pairs listed), the status of the base pairs
    that did not play typed: the tournament as the scorer has it before importing the night."""
    from xlbridge.workbooks.nextsheet import add_next
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook

    add_next(OpenpyxlBook(wb))
    for r in range(9, 25):
        if wb["T15"].cell(r, 1).value in ABSENT:
            wb["T15"].cell(r, 2).value = "lista di attesa"
