"""Scores of one tournament: board scores, TOPs, percentages, rectifications, penalties, PTS.

Sections C.01-C.02 (board and tournament scores, the extra PTS), D.04 (penalties),
D.05 (score rectification) of the *Regolamento*; the PTS tables themselves are
:mod:`xlbridge.rules.bm_bridgemania` (schemes ``bm.*``).

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from xlbridge.clubs.bridgemania.model import (
    MIN_TABLES, RECTIFICATION_KINDS, SCHEMES, SIT_OUT, BaseNight, Collector, EntryResult, Night, Rectification,
)
from xlbridge.rules import awards as _awards
from xlbridge.rules.base import round_half_up
from xlbridge.rules.problems import RuleError
from xlbridge.values import as_number, exact, is_blank

__all__ = ["bm_pct", "penalty_points", "rectify_partial", "rectify_irreversible", "is_sit_out", "top_of",
           "competition_ranks", "score", "base_nights"]


def is_sit_out(value: Any) -> bool:
    """``R`` (or ``riposo``): the entry sat out this board."""
    return isinstance(value, str) and value.strip().lower() in SIT_OUT


#: The largest TOP: a board played at 501 tables (issue 14: every number that enters a rule
#: has a range; docs/reliability.md, "Bounds of the numbers in rules").
MAX_TOP = 1000


def top_of(value: Any) -> int:
    """The TOP as typed: an even whole number from 2 to :data:`MAX_TOP` (``RuleError``
    ``bm.top`` / ``bm.top.too-large`` otherwise)."""
    top = as_number(value)
    if top is None or top != int(top) or top < 2 or int(top) % 2:
        raise RuleError("bm.top", "TOP must be an even whole number from 2; got {value!r}", field="top", value=value)
    if top > MAX_TOP:
        raise RuleError("bm.top.too-large", "TOP {value!r} is more than {maximum:,}, the largest that makes sense",
                        field="top", value=value, maximum=MAX_TOP)
    return int(top)


def bm_pct(scores: Sequence[Any], top: Any, penalty: Any = 0) -> float:
    """C.02 tournament score: (sum of board scores + penalties) / (boards x TOP), in %, 2 decimals.

    ``scores`` as typed, ``"R"`` for a sit-out (TOP/2); ``penalty`` is added (type it
    negative, or positive -- its absolute value is subtracted).

    >>> bm_pct([8, 4, 6, 0, "R"], 8)
    55.0
    >>> bm_pct([8] * 14, 8, penalty=-2)
    98.21
    """
    t = top_of(top)
    values = [s for s in scores if not (s is None or (isinstance(s, str) and not s.strip()))]
    if not values:
        raise RuleError("bm.pct.no-scores", "BM_PCT: no board scores", argument="scores")
    total = 0.0
    for board, value in enumerate(values, start=1):
        if is_sit_out(value):
            total += t / 2
            continue
        number = as_number(value)
        if number is None:
            raise RuleError("bm.pct.score-text", "BM_PCT: board {board}: score {value!r} is not a number",
                            argument="scores", board=board, value=value)
        if not 0 <= number <= t:
            raise RuleError("bm.pct.score-range", "BM_PCT: board {board}: score {value!r} is outside 0..{top}",
                            argument="scores", board=board, value=value, top=t)
        if not number.is_integer():  # C.01: the scale 0 - 2 - 4 -... up to the TOP (a tie: 1, 3, ...)
            raise RuleError("bm.pct.score-scale", "BM_PCT: board {board}: score {value!r} is not on the scale "
                            "0-2-4-...-TOP (a whole number)", argument="scores", board=board, value=value)
        total += number
    pen = as_number(penalty)
    if pen is None:
        raise RuleError("bm.pct.penalty", "BM_PCT: penalty {value!r} is not a number", argument="penalty",
                        value=penalty)
    if abs(pen) > len(values) * t:
        raise RuleError("bm.pct.penalty-range", "BM_PCT: penalty {value!r} is more than the all-TOP score {maximum:g}",
                        argument="penalty", value=penalty, maximum=len(values) * t)
    total -= abs(pen)
    return round_half_up(100 * total / (len(values) * t), 2)


def penalty_points(top: Any) -> int:
    """D.04: half the average board score (TOP/2), rounded up when the average is odd.

    >>> [penalty_points(t) for t in (4, 6, 8, 10, 12)]
    [1, 2, 2, 3, 3]
    """
    average = top_of(top) // 2
    return (average + 1) // 2


def rectify_irreversible(board: Sequence[float | None], top: int) -> list[float | None]:
    """D.05 irreversible error: every entry that played the board gets the average (TOP/2).

    >>> rectify_irreversible([8, 0, None, 4], 8)
    [4.0, 4.0, None, 4.0]
    """
    return [None if s is None else top / 2 for s in board]


def rectify_partial(line: Sequence[float], annulled: int, top: int) -> list[float]:
    """D.05 partially reversible error, one line (the NS or the EW scores of a board).

    The annulled row's entry gets the average (TOP/2); every other score is rescored
    without the annulled result on the (TOP-1), (TOP-3), ..., 1 scale: its
    matchpoints against the remaining rows (2 per result beaten, 1 per tie) + 1.
    The line still adds up to what a regular line does.

    >>> rectify_partial([8, 5, 5, 2, 0], 0, 8)   # the top row annulled
    [4.0, 6.0, 6.0, 3.0, 1.0]
    >>> rectify_partial([8, 5, 5, 2, 0], 1, 8)
    [7.0, 4.0, 5.0, 3.0, 1.0]
    """
    k = line[annulled]
    out: list[float] = []
    for i, score in enumerate(line):
        if i == annulled:
            out.append(top / 2)
            continue
        beaten = 2.0 if score > k else (1.0 if score == k else 0.0)
        out.append(score - beaten + 1)
    return out


def competition_ranks(values: Sequence[float | Fraction], descending: bool = True) -> list[int]:
    """1, 1, 3, ...: equal values share the best place, compared exact (a float by its
    shortest decimal, :func:`~xlbridge.values.exact`; a sum should come as the exact
    sum of its terms, a fraction: docs/clubs/bridgemania.md, "Exact comparisons").

    >>> competition_ranks([5, 7, 5, 1]), competition_ranks([0.1 + 0.2, 0.3]), competition_ranks([Fraction(3, 10), 0.3])
    ([2, 1, 2, 4], [1, 2], [1, 1])
    """
    keys = [exact(v) for v in values]
    ordered = sorted(keys)
    if descending:  # 1 + how many are greater
        return [1 + len(ordered) - bisect_right(ordered, key) for key in keys]
    return [1 + bisect_left(ordered, key) for key in keys]


# ------------------------------------------------------------------ rectifications (D.05)


def rectify(night: Night, out: Collector) -> None:
    """Apply the tournament's rectifications to ``night.boards`` (problems to ``out``)."""
    seen: set[int] = set()
    for r in night.tournament.rectifications:
        b = r.board
        if not isinstance(b, int) or not 1 <= b <= night.nboards:
            out.add("bm.rect.board-range", "rectification of board {value!r}: the tournament has boards 1..{boards}",
                    tournament=night.id, field="board", value=b, boards=night.nboards)
            continue
        if b in seen:
            out.add("bm.rect.twice", "two rectifications of the same board", tournament=night.id, board=b,
                    field="board", value=b)
            continue
        seen.add(b)
        kind = RECTIFICATION_KINDS.get(str(r.kind).strip().lower())
        played = [e for e in night.boards if night.boards[e][b - 1] is not None]
        if kind == "irreversible":
            for e in played:
                night.boards[e][b - 1] = night.top / 2
        elif kind == "partial":
            _rectify_partial(night, r, played, out)
        elif r.kind is None or not str(r.kind).strip():
            out.add("bm.rect.kind-empty", "rectification kind is empty (type partial or irreversible)",
                    tournament=night.id, board=b, field="kind", value=r.kind)
        else:
            out.add("bm.rect.kind", "rectification kind {value!r} is not partial or irreversible",
                    tournament=night.id, board=b, field="kind", value=r.kind)


def _rectify_partial(night: Night, r: Rectification, played: list[str], out: Collector) -> None:
    b, top = r.board, night.top
    row, ns = tuple(r.row), tuple(r.ns)
    bad = [x for x in (*row, *ns) if x not in played]
    if len(row) != 2 or bad:
        out.add("bm.rect.row", "rectification: the annulled row must be two entries that played the board; "
                "got {value}", tournament=night.id, pair=str(bad[0]) if bad else None, board=b, field="row",
                value=list(row))
        return
    if len(set(ns)) * 2 != len(played) or row[0] not in ns or row[1] in ns:
        out.add("bm.rect.ns", "rectification: {ns_name} must list the {count} NS entries of the board, with the "
                "row's NS entry {ns_entry!r} and not its EW entry {ew_entry!r}; got {value}", tournament=night.id,
                board=b, field="ns", ns_name="ns", count=len(played) // 2, ns_entry=row[0], ew_entry=row[1],
                value=list(ns))
        return
    ew = [e for e in played if e not in ns]
    ns_scores = [night.boards[e][b - 1] for e in ns]
    ew_scores = [night.boards[e][b - 1] for e in ew]
    if abs(sum(ns_scores) - len(ns) * (len(ns) - 1)) > 1e-9 or top != 2 * (len(ns) - 1):  # type: ignore[arg-type]
        out.add("bm.rect.ns-line", "rectification: the NS line does not add up to a regular line of {rows} rows "
                "with TOP {top}", tournament=night.id, board=b, field="ns", rows=len(ns), top=top,
                value=sum(ns_scores))  # type: ignore[arg-type]
        return
    new_ns = rectify_partial(ns_scores, ns.index(row[0]), top)  # type: ignore[arg-type]
    new_ew = rectify_partial(ew_scores, ew.index(row[1]), top)  # type: ignore[arg-type]
    for e, v in zip(ns, new_ns):
        night.boards[e][b - 1] = v
    for e, v in zip(ew, new_ew):
        night.boards[e][b - 1] = v


# ------------------------------------------------------------------ penalties (D.04) and the extra PTS (C.02)


def penalties(night: Night, out: Collector) -> dict[str, float]:
    """Each entry's penalty: minus the penalty unit per error it is guilty of."""
    unit = penalty_points(night.top)
    pen: dict[str, float] = {e: 0.0 for e in night.boards}
    for penalty in night.tournament.penalties:
        if not penalty.pairs:
            continue  # guilty pairs not identified: no penalty (D.04 "se identificate")
        for e in penalty.pairs:
            if e not in pen:
                out.add("bm.penalty.unknown-pair", "penalty for a pair that is not in the tournament",
                        tournament=night.id, pair=str(e), field="pair", value=e)
            else:
                pen[e] -= unit
    return pen


def extra(night: Night, out: Collector) -> set[str]:
    """The entries that earn the extra PTS: the highest bridge score of the night,
    or the entries the director names."""
    t = night.tournament
    if t.hand_scores:
        best: float | None = None
        holders: set[str] = set()
        for entry, row in t.hand_scores.items():
            if entry not in night.boards:
                out.add("bm.hand.unknown-pair", "hand scores for a pair that is not in the tournament",
                        tournament=night.id, pair=str(entry), field="hand", value=entry)
                continue
            for b, value in enumerate(row, start=1):
                if is_blank(value) or is_sit_out(value):
                    continue
                number = as_number(value)
                if number is None:
                    out.add("bm.hand.not-a-number", "hand score {value!r} is not a number", tournament=night.id,
                            pair=str(entry), board=b, field="hand", value=value)
                    continue
                if best is None or number > best:
                    best, holders = number, {str(entry)}
                elif number == best:
                    holders.add(str(entry))
        return holders
    chosen = set()
    for entry in t.top_hand:
        if entry not in night.boards:
            out.add("bm.extra.unknown-pair", "the extra PTS goes to a pair that is not in the tournament",
                    tournament=night.id, pair=str(entry), field="extra", value=entry)
        chosen.add(str(entry))
    return chosen


# ------------------------------------------------------------------ the tournament's results


def score(night: Night, out: Collector) -> list[EntryResult]:
    """Every entry's result (C.02, D.04, D.05), in ranking order."""
    pen = penalties(night, out)
    rectify(night, out)
    extras = extra(night, out)
    entries = list(night.boards)
    full = night.nboards * night.top
    half = Fraction(night.top, 2)
    exacts = [sum((half if v is None else exact(v) for v in night.boards[e]), exact(pen[e])) for e in entries]
    absolute = {e: float(x) for e, x in zip(entries, exacts)}  # shown: the float nearest to the exact sum
    ranks = competition_ranks(exacts)
    pts: dict[str, dict[str, float]] = {e: {} for e in entries}
    if len(entries) >= 2 * MIN_TABLES:
        for key, scheme in SCHEMES:
            for e, a in zip(entries, _awards(scheme, ranks)):
                pts[e][key] = a.points + (1 if e in extras else 0)
    results = []
    for e, rank in zip(entries, ranks):
        kind = night.kinds[e]
        given = kind != "guest" and bool(pts[e])
        played_boards = [v for v in night.boards[e] if v is not None]
        results.append(EntryResult(
            entry=e, kind=kind, boards=tuple(night.top / 2 if v is None else float(v) for v in night.boards[e]),
            penalty=pen[e], absolute=absolute[e], percent=round_half_up(100 * absolute[e] / full, 2), rank=rank,
            tops=sum(1 for v in played_boards if v == night.top), pots=sum(1 for v in played_boards if v == 0),
            extra=1 if e in extras else 0, f1=pts[e]["f1"] if given else None,
            indy=pts[e]["indy"] if given else None, hybrid=pts[e]["hybrid"] if given else None,
        ))
    results.sort(key=lambda r: (r.rank, entries.index(r.entry)))
    return results


def base_nights(night: Night, results: list[EntryResult], base_ids: list[str]) -> list[BaseNight]:
    """What the championship counts of every base pair: its own result, the mean of
    its two split players' results (A.04 B), or the PTS of a pair that did not play."""
    by = {r.entry: r for r in results}
    ranks = [r.rank for r in results]
    nights = []
    for pair in base_ids:
        status = night.status[pair]
        if status in ("O", "P"):
            r = by[pair]
            nights.append(BaseNight(pair, status, r.percent, r.rank, r.f1 or 0.0, r.indy or 0.0, r.hybrid or 0.0,
                                    float(r.extra), float(r.tops), float(r.pots)))
        elif status == "S":
            a, b = (by[x] for x in night.split_of[pair])
            nights.append(BaseNight(
                pair, "S", round_half_up((a.percent + b.percent) / 2, 2), None,
                ((a.f1 or 0.0) + (b.f1 or 0.0)) / 2, ((a.indy or 0.0) + (b.indy or 0.0)) / 2,
                ((a.hybrid or 0.0) + (b.hybrid or 0.0)) / 2,
                (a.extra + b.extra) / 2, (a.tops + b.tops) / 2, (a.pots + b.pots) / 2,
            ))
        else:
            if len(ranks) >= 2 * MIN_TABLES:
                values = {key: _awards(scheme, ranks, status=status)[0].points for key, scheme in SCHEMES}
            else:  # a friendly too small for the tables: nothing to average
                values = {key: 0.0 for key, _ in SCHEMES}
            nights.append(BaseNight(pair, status, None, None, values["f1"], values["indy"], values["hybrid"],
                                    0.0, 0.0, 0.0))
    return nights
