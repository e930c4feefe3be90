"""Section B: the participation list (O host, P plays, A waits, I unable, M ill) of every tournament.

The document's list has O, P, A and I ("impossibilitata"); a pair kept away by illness is
"impossibilitata a partecipare per malattia" and earns the averaged PTS, unlike I (0 PTS), so
the list marks it M (malattia), placed as an I (docs/clubs/bridgemania.md, Participation list).

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from xlbridge.rules.problems import RuleError
from xlbridge.values import as_number

if TYPE_CHECKING:
    from xlbridge.clubs.bridgemania.model import Standings

__all__ = ["first_participation_list", "next_participation_list", "upcoming_participation_list"]


def _statuses(order: Sequence[str], host: str, capacity: int, unable: Sequence[str],
              ill: Sequence[str] = ()) -> list[tuple[str, str]]:
    blocked, sick = set(unable), set(ill)
    out: list[tuple[str, str]] = []
    taken = 0
    for pair in order:
        if pair == host:
            out.append((pair, "O"))
            taken += 1
        elif pair in sick:
            out.append((pair, "M"))
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
        raise RuleError("bm.list.twice", "participation list: a pair appears twice in {value}", field="list",
                        value=list(order))
    if host not in order:
        raise RuleError("bm.list.host", "participation list: the host {value!r} is not a base pair", field="host",
                        value=host)
    missing = [p for p in unable if p not in order]
    if missing:
        raise RuleError("bm.list.unable-unknown", "participation list: unknown pair {value!r} among the unable pairs",
                        field="unable", value=missing[0])
    if host in unable:
        raise RuleError("bm.list.host-unable", "participation list: the host {value!r} cannot be unable",
                        field="unable", value=host)
    number = as_number(capacity)
    if number is None or number != int(number) or not 1 <= number <= len(order):
        raise RuleError("bm.list.capacity", "participation list: the number of base pairs must be 1..{pairs}; "
                        "got {value!r}", field="capacity", pairs=len(order), value=capacity)
    return int(number)


def first_participation_list(reference: Sequence[str], host: str, capacity: Any, unable: Sequence[str] = (),
                             ill: Sequence[str] = ()) -> list[tuple[str, str]]:
    """Section B, first tournament: the reference list drawn by lot, host moved to the top.

    ``capacity`` = base pairs that can play (host included); unable pairs are I
    wherever they stand, ill pairs M (they cannot play either, but earn the averaged PTS);
    P goes down the list until the capacity is reached; the rest A.

    >>> first_participation_list(["a", "b", "c", "d", "e"], "c", 3, unable=["a"])
    [('c', 'O'), ('a', 'I'), ('b', 'P'), ('d', 'P'), ('e', 'A')]
    """
    size = _check_list(reference, host, capacity, [*unable, *ill])
    order = [host] + [p for p in reference if p != host]
    return _statuses(order, host, size, unable, ill)


def next_participation_list(previous: Sequence[tuple[str, str]], host: str, capacity: Any, played: Mapping[str, int],
                            unable: Sequence[str] = (), ill: Sequence[str] = ()) -> list[tuple[str, str]]:
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
    size = _check_list(names, host, capacity, [*unable, *ill])
    unknown = [p for p in names if p not in played]
    if unknown:
        raise RuleError("bm.list.no-count", "participation list: no count of tournaments played for {value!r}",
                        field="list", value=unknown[0])
    block = [p for p, s in previous if s in ("O", "P")]
    rest = [p for p, s in previous if s not in ("O", "P")]
    shifted = [p for p in rest + block if p != host]
    shifted.sort(key=lambda p: played[p])
    return _statuses([host, *shifted], host, size, unable, ill)


def upcoming_participation_list(standings: Standings, host: str, capacity: Any, unable: Sequence[str] = ()
                                ) -> list[tuple[str, str]]:
    """Section B: the list for the tournament after the last one of ``standings``."""
    if not standings.tournaments:
        raise RuleError("bm.list.no-tournament", "participation list: no tournament yet; use first_participation_list",
                        field="list")
    counts: dict[str, int] = {}
    for t in standings.tournaments:
        for n in t.base:
            counts[n.pair] = counts.get(n.pair, 0) + (1 if n.played else 0)
    return next_participation_list(standings.tournaments[-1].participation, host, capacity, counts, unable)


def season_lists(nights: Sequence[Any], reference: Sequence[str], base_ids: Sequence[str]) -> list[list[tuple[str, str]]]:
    """The list of every tournament of the season, reconstructed from what happened:
    ``nights`` are the validated tournaments (:class:`~xlbridge.clubs.bridgemania.model.Night`)."""
    lists: list[list[tuple[str, str]]] = []
    counts = {b: 0 for b in base_ids}
    previous: list[tuple[str, str]] | None = None
    for n in nights:
        unable = [b for b, s in n.status.items() if s == "unable"]
        ill = [b for b, s in n.status.items() if s == "ill"]
        if previous is None:
            current = first_participation_list(reference, n.tournament.host, n.playing(), unable, ill)
        else:
            current = next_participation_list(previous, n.tournament.host, n.playing(), counts, unable, ill)
        lists.append(current)
        for b, s in n.status.items():
            if s in ("O", "P", "S"):
                counts[b] += 1
        previous = current
    return lists
