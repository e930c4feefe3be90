"""The typed result of a scoring program's file: one shape for PBN and USEBIO.

A reader turns a file into one :class:`Result` -- the event, its pairs with their
places and totals, every traveller line of every board and, where the file has
them, the double-dummy optimum results.  Everything is immutable and exact
(numbers are :class:`~fractions.Fraction` as written in the file: ``61.21`` is
6121/100), so two reads of the same file compare equal and a round trip can be
checked with ``==``.  What the file does not say is ``None`` (a number), ``""``
(a text) or ``()``; the reader never guesses.

Standard library only.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

__all__ = ["Event", "Player", "Pair", "Line", "Optimum", "Result", "ranking_of", "with_ties", "name_key"]


@dataclass(frozen=True)
class Event:
    """What the file says about the event as a whole.

    ``scoring`` is the file's own words for the scoring method (PBN's Scoring tag,
    ``"MatchPoints;MP1"``; USEBIO's BOARD_SCORING_METHOD or EVENT_TYPE,
    ``"MP_PAIRS"``); ``masterpoint_scale`` USEBIO's MASTER_POINT_SCALE (``"Club"``).
    """

    format: str  # "PBN" or "USEBIO"
    name: str = ""
    date: dt.date | None = None
    site: str = ""
    program: str = ""
    scoring: str = ""
    masterpoint_scale: str = ""


@dataclass(frozen=True)
class Player:
    name: str
    number: str = ""  # the member (national id) number as written; "" when not given


@dataclass(frozen=True)
class Pair:
    """A pair and its final result.

    ``id`` is the pair as the file names it on the travellers (``"7"``, USEBIO's
    ``"1NS"``); ``number`` its number where the id holds one.  ``place`` is the
    file's rank, ``tied`` true when another pair of the same ranking shares it.
    ``total`` is the file's total score (matchpoints, IMPs or Butler points, as
    ``Event.scoring`` says), ``matchpoints`` the total when it is one of
    matchpoints.  ``masterpoints`` are in the program's own unit (Compscore writes
    hundredths, the EBU whole local points) with ``masterpoint_type`` its colour.
    """

    id: str
    number: int | None = None
    players: tuple[Player, ...] = ()
    direction: str = ""  # "NS", "EW" or "" (a Howell, or not given)
    section: str = ""
    session: str = ""
    place: int | None = None
    tied: bool = False
    total: Fraction | None = None
    matchpoints: Fraction | None = None
    percentage: Fraction | None = None
    boards: int | None = None
    masterpoints: Fraction | None = None
    masterpoint_type: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)


@dataclass(frozen=True)
class Line:
    """One line of a board's traveller: who played, what, and how it scored.

    ``score`` is the trick score from North-South's side (``-620`` when East-West
    made 4S vulnerable; ``0`` for a passed board); ``None`` when the line has no
    played score, and then ``artificial`` holds the file's text for the assigned
    score (PBN ``^...`` or ``"A+"``, USEBIO ``"A6040"``).  ``tricks`` are the
    declarer's tricks.  ``count`` is PBN's Multiplicity: the number of tables that
    reached this same line (1 when not given).
    """

    board: int
    ns: str
    ew: str
    section: str = ""
    session: str = ""
    table: int | None = None
    round: int | None = None
    contract: str = ""
    declarer: str = ""
    tricks: int | None = None
    score: int | None = None
    artificial: str = ""
    mp_ns: Fraction | None = None
    mp_ew: Fraction | None = None
    percentage_ns: Fraction | None = None
    percentage_ew: Fraction | None = None
    imp_ns: Fraction | None = None
    imp_ew: Fraction | None = None
    count: int = 1


@dataclass(frozen=True)
class Optimum:
    """One row of PBN's OptimumResultTable: the double-dummy tricks of a declarer in a denomination."""

    board: int
    declarer: str
    denomination: str
    tricks: int


@dataclass(frozen=True)
class Result:
    """One file's results: the event, the pairs, the traveller lines, the optimum tables."""

    event: Event
    pairs: tuple[Pair, ...] = ()
    lines: tuple[Line, ...] = ()
    optimum: tuple[Optimum, ...] = ()

    @property
    def sections(self) -> tuple[str, ...]:
        """Every section the file names, in order of first appearance (``("",)`` for one unnamed section)."""
        seen = dict.fromkeys([p.section for p in self.pairs] + [line.section for line in self.lines])
        return tuple(seen)

    def boards(self) -> dict[int, tuple[Line, ...]]:
        """The traveller lines by board number, boards in ascending order."""
        found: dict[int, list[Line]] = {}
        for line in self.lines:
            found.setdefault(line.board, []).append(line)
        return {board: tuple(found[board]) for board in sorted(found)}


def ranking_of(pairs: Sequence[Pair]) -> list[tuple[str, str]]:
    """The ranking each of ``pairs`` is placed in, as (section, direction): a ranking is a
    section's, and a direction's (else ``""``) where both directions of the section have a
    first place (a two-winner Mitchell)."""
    firsts = {(p.section, p.direction) for p in pairs if p.place == 1}
    two = {s for s, d in firsts if d == "NS"} & {s for s, d in firsts if d == "EW"}
    return [(p.section, p.direction if p.section in two else "") for p in pairs]


def with_ties(pairs: list[Pair]) -> tuple[Pair, ...]:
    """``pairs`` with ``tied`` set where another pair of the same ranking (:func:`ranking_of`)
    has the same place."""
    keys = [(*ranking, p.place) for ranking, p in zip(ranking_of(pairs), pairs)]
    shared = Counter(keys)
    return tuple(replace(p, tied=p.tied or (p.place is not None and shared[k] > 1)) for p, k in zip(pairs, keys))


def name_key(names: Sequence[str]) -> frozenset[str]:
    """The players of a pair as a file's pair and a workbook's are compared: each name without case, accents
    or extra spaces, the order free; the names may be one text with its players separated by ``,``, ``;``,
    ``/``, ``&``, ``+`` or `` - ``.

    >>> name_key(["Dino", "Giulia"]) == name_key(["giulia & DINO"]) == name_key(["Giulia - Dino"])
    True
    """
    parts = []
    for name in names:
        text = str(name).replace(" - ", ",")
        for sep in (";", "/", "&", "+"):
            text = text.replace(sep, ",")
        parts += text.split(",")
    plain = ("".join(ch for ch in unicodedata.normalize("NFKD", p) if not unicodedata.combining(ch)) for p in parts)
    return frozenset(" ".join(p.casefold().split()) for p in plain if p.strip())
