"""A small PBN writer for the round-trip test: a Result written as PBN 2.1 tables.

Test equipment only (the package reads PBN, it does not write it).  It writes what
PBN can say -- no sessions -- in export format's shape: CRLF, one game per board.
"""

from __future__ import annotations

from fractions import Fraction

from xlbridge.results import Result

PAIR_COLUMNS = ("Rank\\2R;PairId\\2R;Direction;Section;Names\\30L;TotalScore;TotalMP;TotalPercentage;NrBoards;"
                "MemberID1;MemberID2;MasterPoints;MasterPointType")
LINE_COLUMNS = ("Section;Table;Round;PairId_NS;PairId_EW;Contract\\3L;Declarer;Result;Score_NS\\5R;Score_EW\\5R;"
                "MP_NS;MP_EW;Percentage_NS;Percentage_EW;IMP_NS;IMP_EW;Multiplicity")


def string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cell(value: object) -> str:
    """A table element: ``-`` for nothing, a number as a decimal, text as a string."""
    if value is None or value == "":
        return "-"
    if isinstance(value, Fraction):
        whole, rest = divmod(abs(value.numerator) * 100 // value.denominator, 100)
        assert Fraction(whole * 100 + rest, 100) == abs(value), value  # two decimals at most
        return ("-" if value < 0 else "") + (f"{whole}.{rest:02d}" if rest else str(whole))
    if isinstance(value, int):
        return str(value)
    return string(str(value))


def write_pbn(result: Result) -> bytes:
    event = result.event
    out = ["% PBN 2.1", "% EXPORT"]
    if event.program:
        out.append(f'% <META  name=Generator                  content="{event.program}">')
    date = event.date.strftime("%Y.%m.%d") if event.date else "????.??.??"
    for tag, value in (("Event", event.name), ("Site", event.site), ("Date", date), ("Scoring", event.scoring)):
        out.append(f"[{tag} {string(value)}]")
    out.append(f"[TotalScoreTable {string(PAIR_COLUMNS)}]")
    for p in result.pairs:
        members = [pl.number for pl in p.players] + ["", ""]
        names = ";".join(p.names)
        out.append(" ".join(cell(v) for v in (p.place, p.id, p.direction, p.section, names, p.total, p.matchpoints,
                                               p.percentage, p.boards, members[0], members[1], p.masterpoints,
                                               p.masterpoint_type)))
    for board, lines in result.boards().items():
        out += ["", f'[Board "{board}"]', f"[ScoreTable {string(LINE_COLUMNS)}]"]
        for line in lines:
            ns = line.artificial if line.score is None else (line.score if line.score >= 0 else None)
            ew = -line.score if line.score is not None and line.score < 0 else None
            out.append(" ".join(cell(v) for v in (line.section, line.table, line.round, line.ns, line.ew,
                                                   line.contract, line.declarer, line.tricks, ns, ew, line.mp_ns,
                                                   line.mp_ew, line.percentage_ns, line.percentage_ew, line.imp_ns,
                                                   line.imp_ew, line.count)))
        optimum = [o for o in result.optimum if o.board == board]
        if optimum:
            out.append('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]')
            out += [f"{o.declarer} {o.denomination:>2} {o.tricks:>2}" for o in optimum]
    return ("\r\n".join(out) + "\r\n").encode("utf-8")
