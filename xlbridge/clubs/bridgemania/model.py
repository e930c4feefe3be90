"""What the BridgeMania engine takes and gives: typed input records, result records, problems.

Input (as the scorer typed it, validated once by :mod:`~xlbridge.clubs.bridgemania.check`):
:class:`BasePair`, :class:`Guest`, :class:`Penalty`, :class:`Rectification`,
:class:`Tournament`, :class:`Season`.  Output of
:func:`~xlbridge.clubs.bridgemania.recalculate`: one :class:`Standings`.  Problems:
:class:`SeasonProblem` (a typed :class:`~xlbridge.rules.problems.Problem` with its
tournament, pair and board) and :class:`SeasonError`, every problem of a season.

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlbridge.rules.problems import CONCERNS, N_, N_plural, Problem, ProblemsError

#: The three standings, in the document's order: (key, scheme id).
SCHEMES = (("f1", "bm.f1-fast"), ("indy", "bm.indycar-hard"), ("hybrid", "bm.f1-hybrid"))
#: What a scorer types for a sit-out board ("riposo").
SIT_OUT = ("r", "riposo")
MIN_TABLES = 3
MIN_BOARDS = 14
MIN_BASE_PAIRS = 6
MOVEMENTS = {"howell": "howell", "mitchell scrambled": "mitchell scrambled",
             "scrambled mitchell": "mitchell scrambled", "mitchell-scrambled": "mitchell scrambled"}
#: Typed status of a base pair that did not play -> canonical name.
STATUS_WORDS = {
    "waiting": "waiting", "a": "waiting", "attesa": "waiting", "lista di attesa": "waiting",
    "ill": "ill", "m": "ill", "malattia": "ill",
    "unable": "unable", "i": "unable", "impossibilitato": "unable", "impossibilitata": "unable",
}
#: The statuses of a base pair that played: host (O), on the list (P), split (S).
PLAYED = ("O", "P", "S")
RECTIFICATION_KINDS = {"irreversible": "irreversible", "irreversibile": "irreversible", "partial": "partial",
                       "parziale": "partial", "partially reversible": "partial", "parzialmente reversibile": "partial"}


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


# -------------------------------------------------------------------------- problems


class SeasonProblem(Problem):
    """One thing wrong with the season input: a typed problem (``code``, the
    concerns ``tournament``, ``pair``, ``board``, ``field``, and ``value``) that
    prints where it is: ``Tournament T9, pair C, board 5: score '2x' is not a number``.

    >>> p = SeasonProblem("bm.score.negative", "score {value!r} is negative", tournament="T1", pair="A",
    ...                   board=3, field="score", value=-2)
    >>> str(p), p.message, p.board
    ('Tournament T1, pair A, board 3: score -2 is negative', 'score -2 is negative', 3)
    """

    __slots__ = ()

    @property
    def value(self) -> Any:
        """The offending value as typed (``None`` when there is none)."""
        return self.params.get("value")

    def where(self) -> str:
        """``Tournament T1, pair A, board 3`` (the concerns that are given)."""
        where = [f"Tournament {self.tournament}"] if self.tournament else []
        if self.pair:
            where.append(f"pair {self.pair}")
        if self.board is not None:
            where.append(f"board {self.board}")
        return ", ".join(where)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


class SeasonError(ProblemsError):
    """All the problems of a season, reported together (``.problems``)."""

    what = N_("the BridgeMania season")

    def summary(self) -> Problem:
        count = len(self.problems)
        return Problem("bm.season", N_plural("{count} problem in {what}:{lines}", "{count} problems in {what}:{lines}"),
                       count=count, what=self.what,
                       lines="".join(f"\n- {p}" for p in self.problems))


@dataclass
class Night:
    """One tournament after validation (:func:`xlbridge.clubs.bridgemania.check.night`):
    the scores as numbers (``None`` = sit-out), the TOP, what each entry is and what
    each base pair did.  Rectifications are applied to ``boards`` in place when scored."""

    tournament: Tournament
    kinds: dict[str, str]  # entry -> "base" | "guest" | "split"
    boards: dict[str, list[float | None]]  # None = sit-out
    top: int
    split_of: dict[str, tuple[str, str]]  # base pair -> (temp entry of player 1, of player 2)
    status: dict[str, str]  # base pair -> O/P/S/waiting/ill/unable
    nboards: int

    @property
    def id(self) -> str:
        return str(self.tournament.id)

    def playing(self) -> int:
        """The base pairs that played (O, P or split)."""
        return sum(1 for s in self.status.values() if s in PLAYED)


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
        return self.status in PLAYED


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
    participation: tuple[tuple[str, str], ...]  # the O/P/A/I/M list for this tournament (M: ill)


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
        """The standings as pandas DataFrames (one per future sheet block):
        :func:`xlbridge.clubs.bridgemania.frames.to_frames`."""
        from xlbridge.clubs.bridgemania.frames import to_frames

        return to_frames(self)


class Collector:
    """The problems of one recalculation, in the order they are found."""

    def __init__(self) -> None:
        self.problems: list[SeasonProblem] = []

    def add(self, code: str, template: str, /, **params: Any) -> None:
        """One problem; concerns given as ``None`` are left out."""
        self.problems.append(SeasonProblem(code, template, **{
            k: v for k, v in params.items() if v is not None or k not in CONCERNS}))

    def __len__(self) -> int:
        return len(self.problems)
