"""BridgeMania championship engine: tournaments, three PTS standings, final ranking.

Document: *Regolamento 24^ Campionato BridgeMania 2019-2020*
(``docs/sources/004_e33e1ee257b1898e.txt``), sections A.01 (validity), A.04 B
(split pairs, "coppie scoppiate"), B (participation list O/P/A/I), C.01-C.04
(board, tournament and PTS scores, championship and "Ricalibratura della storia"),
D.04-D.05 (penalties, score rectification).  Every decision is argued in
``docs/clubs/bridgemania.md``.

Pure Python (pandas only for :meth:`Standings.frames`): the workbook adapter reads
the sheets into a :class:`Season`, calls :func:`recalculate` and writes the
:class:`Standings` back.  Bad input never yields a ranking: every problem of the
season is collected and raised together as :class:`SeasonError` (a
:class:`~xlbridge.rules.base.RuleError`) whose ``problems`` name tournament, pair,
board and value.

References:
    Regolamento 24^ Campionato BridgeMania 2019-2020, Sezioni A.01, A.04 B, B,
    C.01, C.02, C.03, C.04, D.04, D.05.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlbridge.rules import awards as _awards
from xlbridge.rules.base import RuleError, round_half_up

__all__ = [
    "BasePair",
    "Guest",
    "Penalty",
    "Rectification",
    "Tournament",
    "Season",
    "Problem",
    "SeasonError",
    "EntryResult",
    "BaseNight",
    "TournamentResult",
    "GeneralRow",
    "StandingRow",
    "FinalRow",
    "Standings",
    "recalculate",
    "bm_pct",
    "bm_final",
    "ricalibratura_points",
    "penalty_points",
    "rectify_partial",
    "rectify_irreversible",
    "first_participation_list",
    "next_participation_list",
    "upcoming_participation_list",
    "SCHEMES",
    "SIT_OUT",
]

#: The three standings, in the document's order: (key, scheme id).
SCHEMES = (("f1", "bm.f1-fast"), ("indy", "bm.indycar-hard"), ("hybrid", "bm.f1-hybrid"))
#: What a scorer types for a sit-out board ("riposo").
SIT_OUT = ("r", "riposo")
MIN_TABLES = 3
MIN_BOARDS = 14
MIN_BASE_PAIRS = 6
MOVEMENTS = {
    "howell": "howell",
    "mitchell scrambled": "mitchell scrambled",
    "scrambled mitchell": "mitchell scrambled",
    "mitchell-scrambled": "mitchell scrambled",
}
#: Typed status of a base pair that did not play -> canonical name.
STATUS_WORDS = {
    "waiting": "waiting",
    "a": "waiting",
    "attesa": "waiting",
    "lista di attesa": "waiting",
    "ill": "ill",
    "m": "ill",
    "malattia": "ill",
    "unable": "unable",
    "i": "unable",
    "impossibilitato": "unable",
    "impossibilitata": "unable",
}


# --------------------------------------------------------------------------- input


@dataclass(frozen=True)
class BasePair:
    """One of the (11) fixed base pairs: ``id`` as used in every tournament."""

    id: str
    players: tuple[str, str]
    name: str = ""


@dataclass(frozen=True)
class Guest:
    """A guest pair of the register: ranked in tournaments, never in the championship."""

    id: str
    name: str = ""


@dataclass(frozen=True)
class Penalty:
    """One error confirmed by the director (D.04): each guilty entry loses the penalty once."""

    pairs: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class Rectification:
    """A score (traveller) rectified under D.05.

    ``kind`` is ``"partial"`` (partially reversible error: ``row`` = the (NS, EW)
    entries of the annulled row, ``ns`` = every entry that sat NS on this board,
    needed to rescore each line) or ``"irreversible"`` (every entry gets the average).
    ``board`` counts from 1.  The typed scores stay as the traveller had them; the
    engine applies the rectification.
    """

    board: int
    kind: str
    row: tuple[str, ...] = ()
    ns: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tournament:
    """One tournament as typed.

    ``scores``: entry id -> board-by-board scores on the 0-2-4-...-TOP scale as typed
    (numbers or numeric text; ``"R"`` = sit-out).  An entry is a base pair id, a
    guest id, or a temporary pair id of ``splits`` (temporary pair -> its two
    players, by name).  ``status``: base pair id -> ``waiting`` / ``ill`` / ``unable``
    (also ``A``, ``M``, ``I`` and the Italian words) for every base pair that did not
    play.  ``top``: the TOP; blank = derived from the scores (2 x (rows - 1)).
    ``hand_scores``: optional, entry id -> the bridge score it recorded on each board
    (``+1430``, ``-100``); the pair(s) with the highest one earn the extra PTS.
    ``top_hand``: instead of ``hand_scores``, the entries the director names for it.
    ``championship=False``: a friendly, scored but not counted (validity not required).
    """

    id: str
    host: str
    scores: Mapping[str, Sequence[Any]]
    date: str = ""
    top: Any = None
    movement: str = "howell"
    status: Mapping[str, str] = field(default_factory=dict)
    splits: Mapping[str, Sequence[str]] = field(default_factory=dict)
    penalties: Sequence[Penalty] = ()
    rectifications: Sequence[Rectification] = ()
    hand_scores: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    top_hand: Sequence[str] = ()
    championship: bool = True


@dataclass(frozen=True)
class Season:
    """A whole season: base pairs, guest register, tournaments in playing order.

    ``reference``: the reference list drawn by lot at the first tournament
    (section B); blank = the order of ``base_pairs``.
    """

    base_pairs: Sequence[BasePair]
    tournaments: Sequence[Tournament]
    guests: Sequence[Guest] = ()
    reference: Sequence[str] = ()
    name: str = ""


# -------------------------------------------------------------------------- errors


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, located as precisely as possible."""

    tournament: str
    pair: str
    message: str
    value: Any = None
    board: int | None = None

    def __str__(self) -> str:
        where = [f"Tournament {self.tournament}"] if self.tournament else []
        if self.pair:
            where.append(f"pair {self.pair}")
        if self.board is not None:
            where.append(f"board {self.board}")
        return ", ".join(where) + ": " + self.message if where else self.message


class SeasonError(RuleError):
    """All the problems of a season, reported together (``.problems``)."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = tuple(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} in the BridgeMania season:"
        super().__init__("\n".join([head, *(f"- {p}" for p in self.problems)]))


# -------------------------------------------------------------------------- output


@dataclass(frozen=True)
class EntryResult:
    """One entry of one tournament (base pair, guest or temporary split pair)."""

    entry: str
    kind: str  # "base" | "guest" | "split"
    boards: tuple[float, ...]  # after rectification; sit-outs = TOP/2
    penalty: float  # negative or 0
    absolute: float
    percent: float
    rank: int
    tops: int
    pots: int
    extra: int  # 1 if it earned the extra PTS
    f1: float | None  # PTS incl. extra; None for guests (not assigned)
    indy: float | None
    hybrid: float | None


@dataclass(frozen=True)
class BaseNight:
    """One base pair in one tournament: what the championship counts."""

    pair: str
    status: str  # O | P | S (split) | waiting | ill | unable
    percent: float | None
    rank: int | None
    f1: float
    indy: float
    hybrid: float
    extra: float
    tops: float
    pots: float

    @property
    def played(self) -> bool:
        return self.status in ("O", "P", "S")


@dataclass(frozen=True)
class TournamentResult:
    id: str
    date: str
    host: str
    championship: bool
    pairs: int
    tables: float
    boards: int
    top: int
    penalty_unit: int
    base_pairs_playing: int
    entries: tuple[EntryResult, ...]  # in ranking order
    base: tuple[BaseNight, ...]  # in base_pairs order
    participation: tuple[tuple[str, str], ...]  # the O/P/A/I list for this tournament


@dataclass(frozen=True)
class GeneralRow:
    """C.02 general ranking: mean of tournament scores, base pairs and guests."""

    pair: str
    kind: str  # "base" | "guest"
    played: int
    mean: float
    rank: int


@dataclass(frozen=True)
class StandingRow:
    """The three championship standings of one base pair after one tournament."""

    pair: str
    played: int
    f1: float
    indy: float
    hybrid: float
    rank_f1: int
    rank_indy: int
    rank_hybrid: int


@dataclass(frozen=True)
class FinalRow:
    """The final ranking ("Ricalibratura della storia", C.04)."""

    pair: str
    played: int
    eligible: bool
    rank_f1: int | None  # among eligible pairs
    rank_indy: int | None
    rank_hybrid: int | None
    points: int | None  # 2 x (sum of the three places); lowest wins
    tops: float
    pots: float
    place: int | None


@dataclass(frozen=True)
class Standings:
    tournaments: tuple[TournamentResult, ...]
    general: tuple[GeneralRow, ...]
    after: tuple[tuple[str, tuple[StandingRow, ...]], ...]  # (tournament id, standings) per counted tournament
    valid: int  # counted (valid) tournaments
    threshold: int  # tournaments needed to be eligible: valid // 2 + 1
    final: tuple[FinalRow, ...]  # in final order, ineligible pairs last

    def frames(self) -> dict[str, Any]:
        """The standings as pandas DataFrames (one per future sheet block)."""
        import pandas as pd

        entries = [
            {"tournament": t.id, **{k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(e).items()}}
            for t in self.tournaments
            for e in t.entries
        ]
        nights = [{"tournament": t.id, **vars(b)} for t in self.tournaments for b in t.base]
        after = [{"after": tid, **vars(row)} for tid, rows in self.after for row in rows]
        return {
            "entries": pd.DataFrame(entries),
            "base": pd.DataFrame(nights),
            "general": pd.DataFrame([vars(r) for r in self.general]),
            "after": pd.DataFrame(after),
            "final": pd.DataFrame([vars(r) for r in self.final]),
        }


# ---------------------------------------------------------------- small functions


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            number = float(value.strip().replace(",", "."))
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def _is_sit_out(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() in SIT_OUT


def _top(value: Any, where: str = "") -> int:
    top = _number(value)
    if top is None or top != int(top) or top < 2 or int(top) % 2:
        raise RuleError(f"{where}TOP must be an even whole number from 2; got {value!r}")
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
    t = _top(top)
    values = [s for s in scores if not (s is None or (isinstance(s, str) and not s.strip()))]
    if not values:
        raise RuleError("BM_PCT: no board scores")
    total = 0.0
    for board, value in enumerate(values, start=1):
        if _is_sit_out(value):
            total += t / 2
            continue
        number = _number(value)
        if number is None:
            raise RuleError(f"BM_PCT: board {board}: score {value!r} is not a number")
        if not 0 <= number <= t:
            raise RuleError(f"BM_PCT: board {board}: score {value!r} is outside 0..{t}")
        total += number
    pen = _number(penalty)
    if pen is None:
        raise RuleError(f"BM_PCT: penalty {penalty!r} is not a number")
    total -= abs(pen)
    return round_half_up(100 * total / (len(values) * t), 2)


def penalty_points(top: Any) -> int:
    """D.04: half the average board score (TOP/2), rounded up when the average is odd.

    >>> [penalty_points(t) for t in (4, 6, 8, 10, 12)]
    [1, 2, 2, 3, 3]
    """
    average = _top(top) // 2
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


def _competition_ranks(values: Sequence[float], descending: bool = True) -> list[int]:
    keys = [round(v, 6) for v in values]
    if descending:
        return [1 + sum(other > key for other in keys) for key in keys]
    return [1 + sum(other < key for other in keys) for key in keys]


def ricalibratura_points(rank1: Any, rank2: Any, rank3: Any) -> int:
    """C.04: 2 points per place in each of the three standings, summed (lowest wins).

    >>> ricalibratura_points(1, 3, 2)
    12
    """
    total = 0
    for value in (rank1, rank2, rank3):
        number = _number(value)
        if number is None or number != int(number) or number < 1:
            raise RuleError(f"BM_FINAL: a place must be a whole number from 1; got {value!r}")
        total += 2 * int(number)
    return total


def bm_final(
    ranks1: Sequence[Any],
    ranks2: Sequence[Any],
    ranks3: Sequence[Any],
    played: Sequence[Any] | None = None,
    tops: Sequence[Any] | None = None,
    pots: Sequence[Any] | None = None,
) -> list[int | None]:
    """C.04 final places from the places in the three standings.

    Lowest 2+4+... total first; ties broken by fewer tournaments played, then more
    TOPs, then fewer POTs (each list optional); what is still tied shares the place.
    A blank in any of the three rank lists = not eligible -> ``None``.

    >>> bm_final([1, 2, 3], [2, 1, 3], [1, 3, 2])
    [1, 2, 3]
    >>> bm_final([1, 2], [2, 1], [1, 1], played=[8, 7])
    [2, 1]
    """
    n = len(ranks1)
    if len(ranks2) != n or len(ranks3) != n:
        raise RuleError(f"BM_FINAL: the three rank lists differ in length ({n}, {len(ranks2)}, {len(ranks3)})")
    extras = []
    for name, values, sign in (("played", played, 1), ("tops", tops, -1), ("pots", pots, 1)):
        if values is None:
            extras.append([0.0] * n)
            continue
        if len(values) != n:
            raise RuleError(f"BM_FINAL: {name} has {len(values)} entries, the ranks {n}")
        column = []
        for value in values:
            number = _number(value)
            if number is None or number < 0:
                raise RuleError(f"BM_FINAL: {name} must be numbers from 0; got {value!r}")
            column.append(sign * number)
        extras.append(column)
    keys: list[tuple[float, ...] | None] = []
    for i in range(n):
        cells = (ranks1[i], ranks2[i], ranks3[i])
        if any(c is None or (isinstance(c, str) and not c.strip()) for c in cells):
            keys.append(None)
            continue
        keys.append((ricalibratura_points(*cells), extras[0][i], extras[1][i], extras[2][i]))
    return [None if key is None else 1 + sum(other is not None and other < key for other in keys) for key in keys]


# -------------------------------------------------------- participation list (B)


def _statuses(order: Sequence[str], host: str, capacity: int, unable: Sequence[str]) -> list[tuple[str, str]]:
    blocked = set(unable)
    out: list[tuple[str, str]] = []
    taken = 0
    for pair in order:
        if pair == host:
            out.append((pair, "O"))
            taken += 1
        elif pair in blocked:
            out.append((pair, "I"))
        elif taken < capacity:
            out.append((pair, "P"))
            taken += 1
        else:
            out.append((pair, "A"))
    return out


def _check_list(order: Sequence[str], host: str, capacity: Any, unable: Sequence[str]) -> int:
    if len(set(order)) != len(order):
        raise RuleError(f"participation list: a pair appears twice in {list(order)}")
    if host not in order:
        raise RuleError(f"participation list: the host {host!r} is not a base pair")
    missing = [p for p in unable if p not in order]
    if missing:
        raise RuleError(f"participation list: unknown pair {missing[0]!r} among the unable pairs")
    if host in unable:
        raise RuleError(f"participation list: the host {host!r} cannot be unable")
    number = _number(capacity)
    if number is None or number != int(number) or not 1 <= number <= len(order):
        raise RuleError(f"participation list: the number of base pairs must be 1..{len(order)}; got {capacity!r}")
    return int(number)


def first_participation_list(
    reference: Sequence[str], host: str, capacity: Any, unable: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """Section B, first tournament: the reference list drawn by lot, host moved to the top.

    ``capacity`` = base pairs that can play (host included); unable pairs are I
    wherever they stand; P goes down the list until the capacity is reached; the rest A.

    >>> first_participation_list(["a", "b", "c", "d", "e"], "c", 3, unable=["a"])
    [('c', 'O'), ('a', 'I'), ('b', 'P'), ('d', 'P'), ('e', 'A')]
    """
    size = _check_list(reference, host, capacity, unable)
    order = [host] + [p for p in reference if p != host]
    return _statuses(order, host, size, unable)


def next_participation_list(
    previous: Sequence[tuple[str, str]],
    host: str,
    capacity: Any,
    played: Mapping[str, int],
    unable: Sequence[str] = (),
) -> list[tuple[str, str]]:
    """Section B, from the "ex" list: the next tournament's list.

    1. the block of ex-O and ex-P pairs goes to the bottom (keeping its order);
    2. the next host goes to the top (O);
    3. the others move up so that those with the fewest tournaments ``played`` come
       2nd, 3rd, ... -- a stable sort, so equal counts keep the order of step 1
       (ex-A / ex-I pairs before the ex-O/P block).
    Then statuses as in :func:`first_participation_list`.

    >>> ex = [("a", "O"), ("b", "P"), ("c", "P"), ("d", "A"), ("e", "I")]
    >>> next_participation_list(ex, "c", 3, {"a": 1, "b": 1, "c": 1, "d": 0, "e": 0})
    [('c', 'O'), ('d', 'P'), ('e', 'P'), ('a', 'A'), ('b', 'A')]
    """
    names = [p for p, _ in previous]
    size = _check_list(names, host, capacity, unable)
    unknown = [p for p in names if p not in played]
    if unknown:
        raise RuleError(f"participation list: no count of tournaments played for {unknown[0]!r}")
    block = [p for p, s in previous if s in ("O", "P")]
    rest = [p for p, s in previous if s not in ("O", "P")]
    shifted = [p for p in rest + block if p != host]
    shifted.sort(key=lambda p: played[p])
    return _statuses([host, *shifted], host, size, unable)


def upcoming_participation_list(
    standings: Standings, host: str, capacity: Any, unable: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """Section B: the list for the tournament after the last one of ``standings``."""
    if not standings.tournaments:
        raise RuleError("participation list: no tournament yet; use first_participation_list")
    counts: dict[str, int] = {}
    for t in standings.tournaments:
        for n in t.base:
            counts[n.pair] = counts.get(n.pair, 0) + (1 if n.played else 0)
    return next_participation_list(standings.tournaments[-1].participation, host, capacity, counts, unable)


# ------------------------------------------------------------------- the engine


class _Collector:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, tournament: str, pair: str, message: str, value: Any = None, board: int | None = None) -> None:
        self.problems.append(Problem(tournament, pair, message, value, board))


def _status_word(value: Any) -> str | None:
    if value is None:
        return None
    return STATUS_WORDS.get(str(value).strip().lower())


@dataclass
class _Parsed:
    tournament: Tournament
    kinds: dict[str, str]
    boards: dict[str, list[float | None]]  # None = sit-out
    top: int
    members: dict[str, str]  # split entry -> ... (unused)
    split_of: dict[str, tuple[str, str]]  # base pair -> (temp entry of player 1, of player 2)
    status: dict[str, str]  # base pair -> O/P/S/waiting/ill/unable
    nboards: int


def _parse(season: Season, t: Tournament, out: _Collector, base_ids: list[str], guest_ids: set[str],
           player_of: dict[str, str]) -> _Parsed | None:
    tid = str(t.id)
    start = len(out.problems)
    kinds: dict[str, str] = {}
    split_members: dict[str, tuple[str, ...]] = {}
    for temp, members in dict(t.splits).items():
        members = tuple(str(m).strip() for m in members)
        if temp in base_ids or temp in guest_ids:
            out.add(tid, temp, "a temporary split pair needs its own id, not a base or guest pair id", temp)
        if len(members) != 2:
            out.add(tid, temp, f"a split pair has two players; got {list(members)}", list(members))
            continue
        for m in members:
            if m not in player_of:
                out.add(tid, temp, f"player {m!r} is not a player of a base pair", m)
        split_members[temp] = members
    if not t.scores:
        out.add(tid, "", "no scores typed")
    for entry in t.scores:
        if entry in base_ids:
            kinds[entry] = "base"
        elif entry in guest_ids:
            kinds[entry] = "guest"
        elif entry in split_members:
            kinds[entry] = "split"
        else:
            out.add(tid, str(entry), "unknown pair: not a base pair, a registered guest or a split pair", entry)
    for temp in split_members:
        if temp not in t.scores:
            out.add(tid, temp, "split pair has no scores", temp)
    # players of split pairs
    seat: dict[str, str] = {}
    for temp, members in split_members.items():
        for m in members:
            if m in seat:
                out.add(tid, temp, f"player {m!r} plays in two split pairs ({seat[m]}, {temp})", m)
            seat[m] = temp
    split_of: dict[str, tuple[str, str]] = {}
    for pair in base_ids:
        players = [p for p, b in player_of.items() if b == pair]
        placed = [p for p in players if p in seat]
        if not placed:
            continue
        if pair in t.scores:
            out.add(tid, pair, "plays as a pair and is also split", pair)
        elif len(placed) != len(players):
            absent = [p for p in players if p not in seat][0]
            out.add(tid, pair, f"is split but player {absent!r} has no split pair", absent)
        else:
            split_of[pair] = (seat[players[0]], seat[players[1]])
    # host, statuses
    if t.host is None or not str(t.host).strip():
        out.add(tid, "", "the host is empty (type the host's base pair id)", t.host)
    elif t.host not in base_ids:
        out.add(tid, str(t.host), "the host is not a base pair", t.host)
    elif t.host not in t.scores and t.host not in split_of:
        out.add(tid, str(t.host), "the host did not play", t.host)
    status: dict[str, str] = {}
    typed = dict(t.status)
    for pair, value in typed.items():
        if pair not in base_ids:
            out.add(tid, str(pair), "status for an unknown base pair", value)
    for pair in base_ids:
        plays = pair in t.scores or pair in split_of
        word = typed.get(pair)
        blank = word is None or (isinstance(word, str) and not word.strip())
        if plays:
            if not blank and str(word).strip().upper() not in ("O", "P", "PLAYED", "S"):
                out.add(tid, pair, f"played but its status says {word!r}", word)
            status[pair] = "S" if pair in split_of else ("O" if pair == t.host else "P")
        elif blank:
            out.add(tid, pair, "did not play and has no status (waiting, ill or unable)", word)
        elif _status_word(word) is None:
            out.add(tid, pair, f"status {word!r} is not waiting, ill or unable", word)
        else:
            status[pair] = _status_word(word)  # type: ignore[assignment]
    # scores
    lengths = {len(list(row)) for row in t.scores.values()}
    nboards = max(lengths, default=0)
    if len(lengths) > 1:
        for entry, row in t.scores.items():
            if len(list(row)) != nboards:
                out.add(tid, str(entry), f"has {len(list(row))} board scores, others have {nboards}", len(list(row)))
    top: int | None = None
    if t.top is not None and not (isinstance(t.top, str) and not t.top.strip()):
        try:
            top = _top(t.top)
        except RuleError as error:
            out.add(tid, "", str(error), t.top)
    boards: dict[str, list[float | None]] = {}
    for entry, row in t.scores.items():
        parsed: list[float | None] = []
        for b, value in enumerate(row, start=1):
            if _is_sit_out(value):
                parsed.append(None)
                continue
            number = _number(value)
            if number is None:
                if value is None or (isinstance(value, str) and not value.strip()):
                    out.add(tid, str(entry), "the score is empty (type the score, or R for a sit-out)", value, b)
                else:
                    out.add(tid, str(entry), f"score {value!r} is not a number (type R for a sit-out)", value, b)
                parsed.append(None)
            elif number < 0:
                out.add(tid, str(entry), f"score {value!r} is negative", value, b)
                parsed.append(None)
            else:
                parsed.append(number)
        boards[str(entry)] = parsed
    if len(out.problems) > start:
        return None
    if top is None:
        rows = {sum(1 for e in boards if boards[e][b] is not None) for b in range(nboards)}
        derived = {2 * (r // 2 - 1) for r in rows}
        if len(derived) != 1 or min(derived) < 2:
            out.add(tid, "", f"cannot derive the TOP from the scores (rows per board: {sorted(rows)}); type it")
            return None
        top = derived.pop()
    for entry, row in boards.items():
        for b, value in enumerate(row, start=1):
            if value is not None and value > top:
                out.add(tid, entry, f"score {value:g} is above the TOP {top}", value, b)
    for b in range(nboards):
        played = [boards[e][b] for e in boards if boards[e][b] is not None]
        expected = len(played) * top / 2
        if len(played) % 2 or abs(sum(played) - expected) > 1e-9:  # type: ignore[arg-type]
            out.add(tid, "", f"the scores add up to {sum(played):g} on {len(played)} results; "  # type: ignore[arg-type]
                    f"a board's two lines must add up to rows x TOP = {expected:g}", sum(played), b + 1)  # type: ignore[arg-type]
    if len(out.problems) > start:
        return None
    return _Parsed(t, kinds, boards, top, {}, split_of, status, nboards)


def _rectify(p: _Parsed, out: _Collector) -> None:
    tid = str(p.tournament.id)
    seen: set[int] = set()
    for r in p.tournament.rectifications:
        b = r.board
        if not isinstance(b, int) or not 1 <= b <= p.nboards:
            out.add(tid, "", f"rectification of board {b!r}: the tournament has boards 1..{p.nboards}", b)
            continue
        if b in seen:
            out.add(tid, "", "two rectifications of the same board", b, b)
            continue
        seen.add(b)
        kind = str(r.kind).strip().lower()
        played = [e for e in p.boards if p.boards[e][b - 1] is not None]
        if kind in ("irreversible", "irreversibile"):
            for e in played:
                p.boards[e][b - 1] = p.top / 2
        elif kind in ("partial", "parziale", "partially reversible", "parzialmente reversibile"):
            row = tuple(r.row)
            ns = tuple(r.ns)
            bad = [x for x in (*row, *ns) if x not in played]
            if len(row) != 2 or bad:
                out.add(tid, str(bad[0]) if bad else "", f"rectification: the annulled row must be two entries that "
                        f"played the board; got {list(row)}", list(row), b)
                continue
            if len(set(ns)) * 2 != len(played) or row[0] not in ns or row[1] in ns:
                out.add(tid, "", f"rectification: ns must list the {len(played) // 2} NS entries of the board, "
                        f"with the row's NS entry {row[0]!r} and not its EW entry {row[1]!r}; got {list(ns)}",
                        list(ns), b)
                continue
            ew = [e for e in played if e not in ns]
            ns_scores = [p.boards[e][b - 1] for e in ns]
            ew_scores = [p.boards[e][b - 1] for e in ew]
            if abs(sum(ns_scores) - len(ns) * (len(ns) - 1)) > 1e-9 or p.top != 2 * (len(ns) - 1):  # type: ignore[arg-type]
                out.add(tid, "", "rectification: the NS line does not add up to a regular line of "
                        f"{len(ns)} rows with TOP {p.top}", sum(ns_scores), b)  # type: ignore[arg-type]
                continue
            new_ns = rectify_partial(ns_scores, ns.index(row[0]), p.top)  # type: ignore[arg-type]
            new_ew = rectify_partial(ew_scores, ew.index(row[1]), p.top)  # type: ignore[arg-type]
            for e, v in zip(ns, new_ns):
                p.boards[e][b - 1] = v
            for e, v in zip(ew, new_ew):
                p.boards[e][b - 1] = v
        else:
            if r.kind is None or not str(r.kind).strip():
                out.add(tid, "", "rectification kind is empty (type partial or irreversible)", r.kind, b)
            else:
                out.add(tid, "", f"rectification kind {r.kind!r} is not partial or irreversible", r.kind, b)


def _extra(p: _Parsed, out: _Collector) -> set[str]:
    t = p.tournament
    tid = str(t.id)
    if t.hand_scores:
        best: float | None = None
        holders: set[str] = set()
        for entry, row in t.hand_scores.items():
            if entry not in p.boards:
                out.add(tid, str(entry), "hand scores for a pair that is not in the tournament", entry)
                continue
            for b, value in enumerate(row, start=1):
                if value is None or _is_sit_out(value) or (isinstance(value, str) and not value.strip()):
                    continue
                number = _number(value)
                if number is None:
                    out.add(tid, str(entry), f"hand score {value!r} is not a number", value, b)
                    continue
                if best is None or number > best:
                    best, holders = number, {str(entry)}
                elif number == best:
                    holders.add(str(entry))
        return holders
    chosen = set()
    for entry in t.top_hand:
        if entry not in p.boards:
            out.add(tid, str(entry), "the extra PTS goes to a pair that is not in the tournament", entry)
        chosen.add(str(entry))
    return chosen


def _score(p: _Parsed, out: _Collector) -> tuple[list[EntryResult], dict[str, Any]]:
    t = p.tournament
    tid = str(t.id)
    unit = penalty_points(p.top)
    pen: dict[str, float] = {e: 0.0 for e in p.boards}
    for penalty in t.penalties:
        if not penalty.pairs:
            continue  # guilty pairs not identified: no penalty (D.04 "se identificate")
        for e in penalty.pairs:
            if e not in pen:
                out.add(tid, str(e), "penalty for a pair that is not in the tournament", e)
            else:
                pen[e] -= unit
    _rectify(p, out)
    extra = _extra(p, out)
    entries = list(p.boards)
    full = p.nboards * p.top
    absolute = {e: sum(p.top / 2 if v is None else v for v in p.boards[e]) + pen[e] for e in entries}
    ranks = _competition_ranks([absolute[e] for e in entries])
    pts: dict[str, dict[str, float]] = {e: {} for e in entries}
    if len(entries) >= 2 * MIN_TABLES:
        for key, scheme in SCHEMES:
            for e, a in zip(entries, _awards(scheme, ranks)):
                pts[e][key] = a.points + (1 if e in extra else 0)
    results = []
    for e, rank in zip(entries, ranks):
        kind = p.kinds[e]
        given = kind != "guest" and bool(pts[e])
        played_boards = [v for v in p.boards[e] if v is not None]
        results.append(EntryResult(
            entry=e,
            kind=kind,
            boards=tuple(p.top / 2 if v is None else float(v) for v in p.boards[e]),
            penalty=pen[e],
            absolute=absolute[e],
            percent=round_half_up(100 * absolute[e] / full, 2),
            rank=rank,
            tops=sum(1 for v in played_boards if v == p.top),
            pots=sum(1 for v in played_boards if v == 0),
            extra=1 if e in extra else 0,
            f1=pts[e]["f1"] if given else None,
            indy=pts[e]["indy"] if given else None,
            hybrid=pts[e]["hybrid"] if given else None,
        ))
    results.sort(key=lambda r: (r.rank, entries.index(r.entry)))
    return results, {"ranks": ranks}


def _base_nights(p: _Parsed, results: list[EntryResult], base_ids: list[str]) -> list[BaseNight]:
    by = {r.entry: r for r in results}
    ranks = [r.rank for r in results]
    nights = []
    for pair in base_ids:
        status = p.status[pair]
        if status in ("O", "P"):
            r = by[pair]
            nights.append(BaseNight(pair, status, r.percent, r.rank, r.f1 or 0.0, r.indy or 0.0, r.hybrid or 0.0,
                                    float(r.extra), float(r.tops), float(r.pots)))
        elif status == "S":
            a, b = (by[x] for x in p.split_of[pair])
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


def _validity(p: _Parsed, out: _Collector) -> None:
    t = p.tournament
    tid = str(t.id)
    movement = MOVEMENTS.get(str(t.movement).strip().lower())
    if movement is None:
        out.add(tid, "", f"not valid: movement {t.movement!r} has no single ranking "
                "(Howell or scrambled Mitchell); mark it championship=False to keep it as a friendly", t.movement)
    pairs = len(p.boards)
    if pairs < 2 * MIN_TABLES:
        out.add(tid, "", f"not valid: {pairs} pairs = {pairs / 2:g} tables, at least {MIN_TABLES} tables needed", pairs)
    if p.nboards < MIN_BOARDS:
        out.add(tid, "", f"not valid: {p.nboards} boards, at least {MIN_BOARDS} needed", p.nboards)
    playing = sum(1 for s in p.status.values() if s in ("O", "P", "S"))
    if playing < MIN_BASE_PAIRS:
        out.add(tid, "", f"not valid: {playing} base pairs played, at least {MIN_BASE_PAIRS} needed", playing)


def recalculate(season: Season) -> Standings:
    """Recalculate a whole season from the typed data (section C, D; see module doc).

    Raises :class:`SeasonError` with every problem found; never returns a partial
    result.  The input is not modified; the same season always gives equal Standings.
    """
    out = _Collector()
    base_ids = [str(b.id) for b in season.base_pairs]
    guest_ids = {str(g.id) for g in season.guests}
    player_of: dict[str, str] = {}
    for b in season.base_pairs:
        if len(tuple(b.players)) != 2:
            out.add("", str(b.id), f"a base pair has two players; got {list(b.players)}", list(b.players))
        for player in b.players:
            if player in player_of:
                out.add("", str(b.id), f"player {player!r} is also in base pair {player_of[player]}", player)
            player_of[str(player)] = str(b.id)
    for ids, what in ((base_ids, "base pair"), ([str(g.id) for g in season.guests], "guest")):
        for i in sorted({x for x in ids if ids.count(x) > 1}):
            out.add("", i, f"{what} id appears twice", i)
    for g in guest_ids & set(base_ids):
        out.add("", g, "id is both a base pair and a guest", g)
    tids = [str(t.id) for t in season.tournaments]
    for i in sorted({x for x in tids if tids.count(x) > 1}):
        out.add(i, "", "tournament id appears twice", i)
    reference = [str(r) for r in season.reference] or list(base_ids)
    if sorted(reference) != sorted(base_ids):
        out.add("", "", f"the reference list must hold each base pair once; got {reference}", reference)

    parsed: list[_Parsed] = []
    for t in season.tournaments:
        p = _parse(season, t, out, base_ids, guest_ids, player_of)
        if p is not None:
            parsed.append(p)
            if t.championship:
                _validity(p, out)
    scored = []
    for p in parsed:
        results, _ = _score(p, out)
        scored.append((p, results))
    if out.problems:
        raise SeasonError(out.problems)

    # participation lists (section B), reconstructed from what happened
    lists: list[list[tuple[str, str]]] = []
    counts = {b: 0 for b in base_ids}
    previous: list[tuple[str, str]] | None = None
    for p, _ in scored:
        playing = sum(1 for s in p.status.values() if s in ("O", "P", "S"))
        unable = [b for b, s in p.status.items() if s in ("unable", "ill")]
        if previous is None:
            current = first_participation_list(reference, p.tournament.host, playing, unable)
        else:
            current = next_participation_list(previous, p.tournament.host, playing, counts, unable)
        lists.append(current)
        for b, s in p.status.items():
            if s in ("O", "P", "S"):
                counts[b] += 1
        previous = current

    tournaments: list[TournamentResult] = []
    after: list[tuple[str, tuple[StandingRow, ...]]] = []
    totals = {b: {"f1": 0.0, "indy": 0.0, "hybrid": 0.0, "played": 0, "tops": 0.0, "pots": 0.0} for b in base_ids}
    general: dict[str, list[float]] = {}
    kinds: dict[str, str] = {}
    for (p, results), plist in zip(scored, lists):
        nights = _base_nights(p, results, base_ids)
        t = p.tournament
        tournaments.append(TournamentResult(
            id=str(t.id), date=str(t.date), host=str(t.host), championship=bool(t.championship),
            pairs=len(results), tables=len(results) / 2, boards=p.nboards, top=p.top,
            penalty_unit=penalty_points(p.top),
            base_pairs_playing=sum(1 for n in nights if n.played),
            entries=tuple(results), base=tuple(nights), participation=tuple(plist),
        ))
        if not t.championship:
            continue
        for r in results:
            if r.kind == "guest":
                general.setdefault(r.entry, []).append(r.percent)
                kinds[r.entry] = "guest"
        for n in nights:
            total = totals[n.pair]
            for key in ("f1", "indy", "hybrid", "tops", "pots"):
                total[key] += getattr(n, key)
            if n.played:
                total["played"] += 1
                general.setdefault(n.pair, []).append(n.percent)  # type: ignore[arg-type]
                kinds[n.pair] = "base"
        rows = []
        ranks = {key: _competition_ranks([totals[b][key] for b in base_ids]) for key, _ in SCHEMES}
        for i, b in enumerate(base_ids):
            rows.append(StandingRow(b, int(totals[b]["played"]), round_half_up(totals[b]["f1"], 4),
                                    round_half_up(totals[b]["indy"], 4), round_half_up(totals[b]["hybrid"], 4),
                                    ranks["f1"][i], ranks["indy"][i], ranks["hybrid"][i]))
        after.append((str(t.id), tuple(rows)))

    general_ids = [g for g in general]
    means = [round_half_up(sum(general[g]) / len(general[g]), 2) for g in general_ids]
    granks = _competition_ranks(means)
    general_rows = sorted(
        (GeneralRow(g, kinds[g], len(general[g]), m, r) for g, m, r in zip(general_ids, means, granks)),
        key=lambda row: (row.rank, row.pair),
    )

    valid = len(after)
    threshold = valid // 2 + 1
    eligible = [b for b in base_ids if totals[b]["played"] >= threshold] if valid else []
    eranks = {key: dict(zip(eligible, _competition_ranks([totals[b][key] for b in eligible]))) for key, _ in SCHEMES}
    points = {b: 2 * (eranks["f1"][b] + eranks["indy"][b] + eranks["hybrid"][b]) for b in eligible}
    places = dict(zip(eligible, bm_final(
        [eranks["f1"][b] for b in eligible], [eranks["indy"][b] for b in eligible],
        [eranks["hybrid"][b] for b in eligible], played=[totals[b]["played"] for b in eligible],
        tops=[totals[b]["tops"] for b in eligible], pots=[totals[b]["pots"] for b in eligible],
    ))) if eligible else {}
    final = [
        FinalRow(
            pair=b, played=int(totals[b]["played"]), eligible=b in places,
            rank_f1=eranks["f1"].get(b), rank_indy=eranks["indy"].get(b), rank_hybrid=eranks["hybrid"].get(b),
            points=points.get(b), tops=totals[b]["tops"], pots=totals[b]["pots"], place=places.get(b),
        )
        for b in base_ids
    ]
    final.sort(key=lambda row: (row.place is None, row.place or 0, base_ids.index(row.pair)))
    return Standings(
        tournaments=tuple(tournaments), general=tuple(general_rows), after=tuple(after),
        valid=valid, threshold=threshold, final=tuple(final),
    )
