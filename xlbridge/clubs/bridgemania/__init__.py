"""BridgeMania championship engine: tournaments, three PTS standings, final ranking.

Document: *Regolamento 24^ Campionato BridgeMania 2019-2020*
(``docs/sources/004_e33e1ee257b1898e.txt``), sections A.01 (validity), A.04 B
(split pairs, "coppie scoppiate"), B (participation list O/P/A/I, M for ill), C.01-C.04
(board, tournament and PTS scores, championship and "Ricalibratura della storia"),
D.04-D.05 (penalties, score rectification).  Every decision is argued in
``docs/clubs/bridgemania.md``.

Pure Python (pandas only for :meth:`Standings.frames`): the workbook kind reads
the sheets into a :class:`Season`, calls :func:`recalculate` and writes the
:class:`Standings` back.  Bad input never yields a ranking: every problem of the
season is collected and raised together as :class:`SeasonError` (a
:class:`~xlbridge.rules.problems.ProblemsError`) whose ``problems`` are typed
(:class:`SeasonProblem`: a ``bm.*`` code, the tournament, pair, board and field
it concerns, and the value).

One module per job:

- :mod:`~xlbridge.clubs.bridgemania.model` -- the typed input records, the result
  records, the problems;
- :mod:`~xlbridge.clubs.bridgemania.check` -- the input validated once (who is
  who, each tournament as numbers, validity A.01);
- :mod:`~xlbridge.clubs.bridgemania.scores` -- board scores, TOPs, percentages,
  rectifications (D.05), penalties (D.04), the extra PTS, each pair's PTS;
- :mod:`~xlbridge.clubs.bridgemania.lists` -- the participation lists (section B);
- :mod:`~xlbridge.clubs.bridgemania.championship` -- the standings, the general
  ranking, the final Ricalibratura ranking and its tie-breaks (C.02-C.04);
- :mod:`~xlbridge.clubs.bridgemania.season` -- :func:`recalculate`;
- :mod:`~xlbridge.clubs.bridgemania.frames` -- the standings as pandas DataFrames;
- :mod:`~xlbridge.clubs.bridgemania.demo` -- a deterministic synthetic season.

References:
    Regolamento 24^ Campionato BridgeMania 2019-2020, Sezioni A.01, A.04 B, B,
    C.01, C.02, C.03, C.04, D.04, D.05.
"""

from __future__ import annotations

from xlbridge.clubs.bridgemania.championship import bm_final, ricalibratura_points
from xlbridge.clubs.bridgemania.lists import (
    first_participation_list, next_participation_list, upcoming_participation_list,
)
from xlbridge.clubs.bridgemania.model import (
    MIN_BASE_PAIRS, MIN_BOARDS, MIN_TABLES, MOVEMENTS, SCHEMES, SIT_OUT, STATUS_WORDS, BaseNight, BasePair, EntryResult,
    FinalRow, GeneralRow, Guest, Penalty, Rectification, Season, SeasonError, SeasonProblem, StandingRow, Standings,
    Tournament, TournamentResult,
)
from xlbridge.clubs.bridgemania.scores import bm_pct, penalty_points, rectify_irreversible, rectify_partial
from xlbridge.clubs.bridgemania.season import recalculate

#: The engine's problem type (a typed :class:`~xlbridge.rules.problems.Problem`).
Problem = SeasonProblem

__all__ = [
    "BasePair", "Guest", "Penalty", "Rectification", "Tournament", "Season", "Problem", "SeasonProblem", "SeasonError",
    "EntryResult", "BaseNight", "TournamentResult", "GeneralRow", "StandingRow", "FinalRow", "Standings", "recalculate",
    "bm_pct", "bm_final", "ricalibratura_points", "penalty_points", "rectify_partial", "rectify_irreversible",
    "first_participation_list", "next_participation_list", "upcoming_participation_list", "SCHEMES", "SIT_OUT",
    "STATUS_WORDS", "MOVEMENTS", "MIN_TABLES", "MIN_BOARDS", "MIN_BASE_PAIRS",
]
