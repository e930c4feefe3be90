"""The season input validated once: who is who, and each tournament as numbers.

:func:`season_problems` checks the base pairs, the guest register, the tournament
ids and the reference list; :func:`night` turns one typed :class:`Tournament`
into a :class:`~xlbridge.clubs.bridgemania.model.Night` (split pairs, statuses,
board scores, the TOP, every board adding up) or reports why it cannot;
:func:`validity` checks section A.01 for a championship tournament.  Every
problem is a typed :class:`~xlbridge.clubs.bridgemania.model.SeasonProblem` with
a ``bm.*`` code and its tournament, pair, board and field.

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xlbridge.clubs.bridgemania.model import (
    MIN_BASE_PAIRS, MIN_BOARDS, MIN_TABLES, MOVEMENTS, PLAYED, STATUS_WORDS, Collector, Night, Season, Tournament,
)
from xlbridge.clubs.bridgemania.scores import is_sit_out, top_of
from xlbridge.rules.problems import RuleError
from xlbridge.values import as_number

__all__ = ["Roster", "roster", "night", "validity", "status_word"]


@dataclass
class Roster:
    """Who is who in the season: the base pairs (in order), the guests, each player's base pair."""

    base_ids: list[str]
    guest_ids: set[str]
    player_of: dict[str, str] = field(default_factory=dict)
    reference: list[str] = field(default_factory=list)


def status_word(value: Any) -> str | None:
    """The canonical status (``waiting``, ``ill``, ``unable``) of a typed word, or ``None``."""
    if value is None:
        return None
    return STATUS_WORDS.get(str(value).strip().lower())


def _twice(ids: list[str]) -> list[str]:
    return sorted({x for x in ids if ids.count(x) > 1})


def roster(season: Season, out: Collector) -> Roster:
    """The base pairs, guests and players of ``season``, each problem to ``out``."""
    base_ids = [str(b.id) for b in season.base_pairs]
    guest_list = [str(g.id) for g in season.guests]
    who = Roster(base_ids, set(guest_list))
    for b in season.base_pairs:
        if len(tuple(b.players)) != 2:
            out.add("bm.base-pair.players", "a base pair has two players; got {value}", pair=str(b.id),
                    field="players", value=list(b.players))
        for player in b.players:
            if player in who.player_of:
                out.add("bm.player.twice", "player {value!r} is also in base pair {other}", pair=str(b.id),
                        field="players", value=player, other=who.player_of[player])
            who.player_of[str(player)] = str(b.id)
    for i in _twice(base_ids):
        out.add("bm.base-pair.twice", "base pair id appears twice", pair=i, field="pair", value=i)
    for i in _twice(guest_list):
        out.add("bm.guest.twice", "guest id appears twice", pair=i, field="guest", value=i)
    for g in sorted(who.guest_ids & set(base_ids)):
        out.add("bm.guest.is-base-pair", "id is both a base pair and a guest", pair=g, field="guest", value=g)
    for i in _twice([str(t.id) for t in season.tournaments]):
        out.add("bm.tournament.twice", "tournament id appears twice", tournament=i, field="tournament", value=i)
    who.reference = [str(r) for r in season.reference] or list(base_ids)
    if sorted(who.reference) != sorted(base_ids):
        out.add("bm.reference", "the reference list must hold each base pair once; got {value}", field="reference",
                value=who.reference)
    return who


# ------------------------------------------------------------------ one tournament


def _splits(t: Tournament, who: Roster, out: Collector) -> dict[str, tuple[str, ...]]:
    """The temporary pairs of a split night -> their two players (A.04 B)."""
    tid = str(t.id)
    members_of: dict[str, tuple[str, ...]] = {}
    for temp, members in dict(t.splits).items():
        members = tuple(str(m).strip() for m in members)
        if temp in who.base_ids or temp in who.guest_ids:
            out.add("bm.split.own-id", "a temporary split pair needs its own id, not a base or guest pair id",
                    tournament=tid, pair=temp, field="players", value=temp)
        if len(members) != 2:
            out.add("bm.split.players", "a split pair has two players; got {value}", tournament=tid, pair=temp,
                    field="players", value=list(members))
            continue
        for m in members:
            if m not in who.player_of:
                out.add("bm.split.player-unknown", "player {value!r} is not a player of a base pair",
                        tournament=tid, pair=temp, field="players", value=m)
        members_of[temp] = members
    return members_of


def _kinds(t: Tournament, who: Roster, members_of: dict[str, tuple[str, ...]], out: Collector) -> dict[str, str]:
    """Each entry of the scores: a base pair, a guest or a temporary split pair."""
    tid = str(t.id)
    kinds: dict[str, str] = {}
    if not t.scores:
        out.add("bm.scores.none", "no scores typed", tournament=tid, field="scores")
    for entry in t.scores:
        if entry in who.base_ids:
            kinds[entry] = "base"
        elif entry in who.guest_ids:
            kinds[entry] = "guest"
        elif entry in members_of:
            kinds[entry] = "split"
        else:
            out.add("bm.pair.unknown", "unknown pair: not a base pair, a registered guest or a split pair",
                    tournament=tid, pair=str(entry), field="pair", value=entry)
    for temp in members_of:
        if temp not in t.scores:
            out.add("bm.split.no-scores", "split pair has no scores", tournament=tid, pair=temp, field="pair",
                    value=temp)
    return kinds


def _split_of(t: Tournament, who: Roster, members_of: dict[str, tuple[str, ...]],
              out: Collector) -> dict[str, tuple[str, str]]:
    """The base pairs that are split tonight -> the temporary pairs of their two players."""
    tid = str(t.id)
    seat: dict[str, str] = {}
    for temp, members in members_of.items():
        for m in members:
            if m in seat:
                out.add("bm.split.player-twice", "player {value!r} plays in two split pairs ({first}, {second})",
                        tournament=tid, pair=temp, field="players", value=m, first=seat[m], second=temp)
            seat[m] = temp
    split_of: dict[str, tuple[str, str]] = {}
    for pair in who.base_ids:
        players = [p for p, b in who.player_of.items() if b == pair]
        placed = [p for p in players if p in seat]
        if not placed:
            continue
        if pair in t.scores:
            out.add("bm.split.and-played", "plays as a pair and is also split", tournament=tid, pair=pair,
                    field="pair", value=pair)
        elif len(placed) != len(players):
            absent = [p for p in players if p not in seat][0]
            out.add("bm.split.incomplete", "is split but player {value!r} has no split pair", tournament=tid,
                    pair=pair, field="status", value=absent)
        else:
            split_of[pair] = (seat[players[0]], seat[players[1]])
    return split_of


def _host(t: Tournament, who: Roster, split_of: dict[str, tuple[str, str]], out: Collector) -> None:
    tid = str(t.id)
    if t.host is None or not str(t.host).strip():
        out.add("bm.host.empty", "the host is empty (type the host's base pair id)", tournament=tid, field="host",
                value=t.host)
    elif t.host not in who.base_ids:
        out.add("bm.host.not-base-pair", "the host is not a base pair", tournament=tid, pair=str(t.host),
                field="host", value=t.host)
    elif t.host not in t.scores and t.host not in split_of:
        out.add("bm.host.absent", "the host did not play", tournament=tid, pair=str(t.host), field="host",
                value=t.host)


def _statuses(t: Tournament, who: Roster, split_of: dict[str, tuple[str, str]], out: Collector) -> dict[str, str]:
    """Every base pair's status tonight: O (host), P, S (split) or why it did not play."""
    tid = str(t.id)
    status: dict[str, str] = {}
    typed = dict(t.status)
    for pair, value in typed.items():
        if pair not in who.base_ids:
            out.add("bm.status.not-base-pair", "status for an unknown base pair", tournament=tid, pair=str(pair),
                    field="status", value=value)
    for pair in who.base_ids:
        plays = pair in t.scores or pair in split_of
        word = typed.get(pair)
        blank = word is None or (isinstance(word, str) and not word.strip())
        if plays:
            if not blank and str(word).strip().upper() not in ("O", "P", "PLAYED", "S"):
                out.add("bm.status.played", "played but its status says {value!r}", tournament=tid, pair=pair,
                        field="status", value=word)
            status[pair] = "S" if pair in split_of else ("O" if pair == t.host else "P")
        elif blank:
            out.add("bm.status.missing", "did not play and has no status (waiting, ill or unable)", tournament=tid,
                    pair=pair, field="status", value=word)
        elif status_word(word) is None:
            out.add("bm.status.unknown", "status {value!r} is not waiting, ill or unable", tournament=tid, pair=pair,
                    field="status", value=word)
        else:
            status[pair] = status_word(word)  # type: ignore[assignment]
    return status


def _typed_top(t: Tournament, out: Collector) -> int | None:
    """The TOP as typed (``None``: blank, to be derived from the scores)."""
    if t.top is None or (isinstance(t.top, str) and not t.top.strip()):
        return None
    try:
        return top_of(t.top)
    except RuleError as error:
        out.add(error.problem.code, error.problem.template, **{**error.problem.params, "tournament": str(t.id)})
        return None


def _lengths(t: Tournament, out: Collector) -> int:
    """The number of boards: every entry has a score (or R) on each."""
    lengths = {len(list(row)) for row in t.scores.values()}
    nboards = max(lengths, default=0)
    if len(lengths) > 1:
        for entry, row in t.scores.items():
            if len(list(row)) != nboards:
                out.add("bm.scores.count", "has {value} board scores, others have {boards}", tournament=str(t.id),
                        pair=str(entry), field="scores", value=len(list(row)), boards=nboards)
    return nboards


def _score(tid: str, entry: str, board: int, value: Any, out: Collector) -> float | None:
    """One board score as a number; ``None`` for a sit-out or a bad score (reported)."""
    if is_sit_out(value):
        return None
    number = as_number(value)
    where = {"tournament": tid, "pair": entry, "board": board, "field": "score", "value": value}
    if number is None:
        if value is None or (isinstance(value, str) and not value.strip()):
            out.add("bm.score.empty", "the score is empty (type the score, or R for a sit-out)", **where)
        else:
            out.add("bm.score.not-a-number", "score {value!r} is not a number (type R for a sit-out)", **where)
    elif number < 0:
        out.add("bm.score.negative", "score {value!r} is negative", **where)
        return None
    elif not number.is_integer():  # C.01 "secondo la scala 0 - 2 - 4 -... fino al TOP"; a tie shares: 1, 3, ...
        out.add("bm.score.scale", "score {value!r} is not on the scale 0-2-4-...-TOP: a board score is a whole "
                "number (2 for each result beaten, 1 for each tie)", **where)
        return None
    return number


def _boards(t: Tournament, nboards: int, out: Collector) -> tuple[dict[str, list[float | None]], set[int]]:
    """The board scores as numbers (``None`` = sit-out) and the boards (0-based) that
    cannot be checked: a score on them is wrong (reported) or missing from a short row."""
    boards: dict[str, list[float | None]] = {}
    unchecked: set[int] = set()
    for entry, row in t.scores.items():
        values = list(row)
        boards[str(entry)] = numbers = []
        for b, value in enumerate(values, start=1):
            before = len(out)
            numbers.append(_score(str(t.id), str(entry), b, value, out))
            if len(out) > before:
                unchecked.add(b - 1)
        unchecked.update(range(len(values), nboards))
        numbers.extend([None] * (nboards - len(values)))
    return boards, unchecked


def _derived_top(tid: str, boards: dict[str, list[float | None]], checked: list[int], out: Collector) -> int | None:
    """The TOP from the scores: 2 x (rows - 1), the same on every board (of those that can be checked)."""
    if not checked:
        return None
    rows = {sum(1 for e in boards if boards[e][b] is not None) for b in checked}
    derived = {2 * (r // 2 - 1) for r in rows}
    if len(derived) != 1 or min(derived) < 2:
        out.add("bm.top.derive", "cannot derive the TOP from the scores (rows per board: {rows}); type it",
                tournament=tid, field="top", rows=sorted(rows))
        return None
    return derived.pop()


def _check_sums(tid: str, boards: dict[str, list[float | None]], checked: list[int], top: int, out: Collector) -> None:
    """No score above the TOP, and each board's two lines add up to rows x TOP."""
    for entry, row in boards.items():
        for b, value in enumerate(row, start=1):
            if value is not None and value > top:
                out.add("bm.score.above-top", "score {value:g} is above the TOP {top}", tournament=tid, pair=entry,
                        board=b, field="score", value=value, top=top)
    for b in checked:
        played = [boards[e][b] for e in boards if boards[e][b] is not None]
        expected = len(played) * top / 2
        total = sum(played)  # type: ignore[arg-type]
        if len(played) % 2:  # (the sum can be right: 44 on 11 results was said as 'must add up to 44')
            out.add("bm.board.odd", "{results} results, an odd number: every result has a pair on each line; a "
                    "score is typed too many or is missing", tournament=tid, board=b + 1, field="score",
                    results=len(played))
        elif abs(total - expected) > 1e-9:
            out.add("bm.board.sum", "the scores add up to {value:g} on {results} results; a board's two lines must "
                    "add up to rows x TOP = {expected:g}", tournament=tid, board=b + 1, field="score", value=total,
                    results=len(played), expected=expected)


def night(t: Tournament, who: Roster, out: Collector) -> Night | None:
    """One tournament validated into numbers; ``None`` (problems in ``out``) when it cannot be scored."""
    tid = str(t.id)
    start = len(out)
    members_of = _splits(t, who, out)
    kinds = _kinds(t, who, members_of, out)
    split_of = _split_of(t, who, members_of, out)
    _host(t, who, split_of, out)
    status = _statuses(t, who, split_of, out)
    nboards = _lengths(t, out)
    typed_top = not (t.top is None or (isinstance(t.top, str) and not t.top.strip()))
    top = _typed_top(t, out)
    boards, unchecked = _boards(t, nboards, out)
    # Every problem at once (issue 15, point 6): the boards whose scores are all
    # numbers are still checked when another board, the TOP or a status is wrong.
    checked = [b for b in range(nboards) if b not in unchecked]
    if top is None and not typed_top:
        top = _derived_top(tid, boards, checked, out)
    if top is not None:
        _check_sums(tid, boards, checked, top, out)
    if len(out) > start:
        return None
    return Night(t, kinds, boards, top, split_of, status, nboards)


def validity(n: Night, out: Collector) -> None:
    """A.01: a championship tournament has a single ranking, 3 tables, 14 boards and 6 base pairs."""
    t = n.tournament
    if MOVEMENTS.get(str(t.movement).strip().lower()) is None:
        out.add("bm.valid.movement", "not valid: movement {value!r} has no single ranking (Howell or scrambled "
                "Mitchell); {advice}", tournament=n.id, field="movement", value=t.movement,
                advice="mark it championship=False to keep it as a friendly")
    pairs = len(n.boards)
    if pairs < 2 * MIN_TABLES:
        out.add("bm.valid.tables", "not valid: {value} pairs = {tables:g} tables, at least {minimum} tables needed",
                tournament=n.id, field="championship", value=pairs, tables=pairs / 2, minimum=MIN_TABLES)
    if n.nboards < MIN_BOARDS:
        out.add("bm.valid.boards", "not valid: {value} boards, at least {minimum} needed", tournament=n.id,
                field="championship", value=n.nboards, minimum=MIN_BOARDS)
    playing = sum(1 for s in n.status.values() if s in PLAYED)
    if playing < MIN_BASE_PAIRS:
        out.add("bm.valid.base-pairs", "not valid: {value} base pairs played, at least {minimum} needed",
                tournament=n.id, field="championship", value=playing, minimum=MIN_BASE_PAIRS)
