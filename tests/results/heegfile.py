"""A scoring program's file of one Heeg club evening (test equipment): the demo season's last evening
(2026-01-15), lines A and B each a section of its own, six rounds of four boards, trick scores only.

Line A: the thirteen pairs that played (pair 6 was absent), one of the six with an ``s`` or ``s1`` sitting
out each round, so six tables; line B: fourteen pairs (23 absent) at seven tables.  In each round every
table of a line plays the same four boards.  The program numbers each section's pairs from 1 and writes
their names in its own way (surnames swapped, other case)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

from openpyxl import load_workbook

from xlbridge.results.model import Event, Line, Pair, Player, Result

DAY = dt.date(2026, 1, 15)
ROUNDS, BOARDS = 6, 4
#: The roster's pairs of each line on that evening (the demo's Season sheet, period 3).
LINE_A = (1, 2, 3, 4, 8, 9, 11, 13, 15, 19, 20, 22, 26)
LINE_B = (5, 7, 10, 12, 14, 16, 17, 18, 21, 24, 25, 27, 28, 29)
SIT_OUT = (4, 9, 15, 20, 22, 26)  # line A's pair sitting out in round 1, 2, ...
SCORES = (420, -50, 170, 140, -100, 620, 110, -420, 90, 200, -620, 450, 100, 130, -110, 400, 50, 170, -200)


def names(roster: dict[int, str], pair: int) -> tuple[str, str]:
    """The pair's players as the program writes them: the roster's two names swapped, in capitals."""
    first, second = roster[pair].split(" - ")
    return second.upper(), first


def evening(roster: dict[int, str]) -> Result:
    """The evening as the program exports it; ``roster``: the demo's pair -> names."""
    pairs, lines = [], []
    i = 0
    for section, line in (("A", LINE_A), ("B", LINE_B)):
        number = {pair: str(n) for n, pair in enumerate(line, 1)}
        pairs += [Pair(number[p], int(number[p]), tuple(Player(n) for n in names(roster, p)), section=section)
                  for p in line]
        for rnd in range(1, ROUNDS + 1):
            playing = [p for p in line if not (section == "A" and p == SIT_OUT[rnd - 1])]
            shift = rnd % len(playing)
            playing = playing[shift:] + playing[:shift]
            tables = [(playing[2 * t], playing[2 * t + 1]) for t in range(len(playing) // 2)]
            for board in range((rnd - 1) * BOARDS + 1, rnd * BOARDS + 1):
                for table, (ns, ew) in enumerate(tables, 1):
                    lines.append(Line(board=board, ns=number[ns], ew=number[ew], section=section, table=table,
                                      round=rnd, score=SCORES[i % len(SCORES)]))
                    i += 1
    return Result(Event("PBN", name="Clubavond", date=DAY, program="a scoring program", scoring="MatchPoints"),
                  pairs=tuple(pairs), lines=tuple(lines))


def by_hand(result: Result, roster_of: dict[tuple[str, str], int]) -> dict[int, list[int]]:
    """Each roster pair's MP per round, done by hand: on every board two for each score of its section
    beaten, one for each equal one (``roster_of``: (section, file pair) -> roster pair)."""
    out: dict[int, list[int]] = {}
    for board, lines in result.boards().items():
        for section in ("A", "B"):
            mine = [line for line in lines if line.section == section]
            for line in mine:
                others = [o.score for o in mine if o is not line]
                ns = sum(2 if line.score > o else 1 if line.score == o else 0 for o in others)
                ew = 2 * len(others) - ns
                for pair, mp in ((line.ns, ns), (line.ew, ew)):
                    rounds = out.setdefault(roster_of[(section, pair)], [0] * ROUNDS)
                    rounds[line.round - 1] += mp
    return out


def without_rounds(result: Result) -> Result:
    """``result`` as a program writes it that does not say in which round a board was played."""
    return replace(result, lines=tuple(replace(line, round=None) for line in result.lines))


def roster(book: Path) -> dict[int, str]:
    """The pair -> names of a Heeg workbook's Season sheet (its first sheet, in any language)."""
    ws = load_workbook(book, read_only=True).worksheets[0]
    return {r[0]: r[1] for r in ws.iter_rows(values_only=True) if isinstance(r[0], int) and isinstance(r[1], str)}


def renamed(result: Result, section: str, pair: str, *names: str) -> Result:
    """``result`` with the players of one pair written otherwise."""
    return replace(result, pairs=tuple(replace(p, players=tuple(Player(n) for n in names))
                                       if (p.section, p.id) == (section, pair) else p for p in result.pairs))


def dated(result: Result, day: dt.date) -> Result:
    return replace(result, event=replace(result.event, date=day))


def one_section(result: Result) -> Result:
    """``result`` with both lines in section A, line B's pairs numbered from 21 (a program that put the
    whole evening in one section)."""
    def moved(section: str, pair: str) -> str:
        return pair if section == "A" else str(int(pair) + 20)

    return replace(result, pairs=tuple(replace(p, section="A", id=moved(p.section, p.id)) for p in result.pairs),
                   lines=tuple(replace(line, section="A", ns=moved(line.section, line.ns),
                                       ew=moved(line.section, line.ew)) for line in result.lines))


def clear_last_evening(wb) -> None:
    """The demo season (openpyxl) with the MP of its last evening (``DAY``) cleared, the inv codes kept: the
    evening as the scorer has it before importing the file."""
    from xlbridge.workbooks.heeg.declaration import evening_table

    table = evening_table(6, ())
    ws = wb[f"Avond {DAY.isoformat()}"]
    for row in range(2, ws.max_row + 1):
        for col in [*range(table.col("r1"), table.col("r1") + 6), table.col("mp")]:
            ws.cell(row, col).value = None
