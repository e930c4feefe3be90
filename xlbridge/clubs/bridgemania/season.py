"""One recalculation of a whole BridgeMania season: typed records in, :class:`Standings` out.

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

from xlbridge.clubs.bridgemania.championship import Totals
from xlbridge.clubs.bridgemania.check import night, roster, validity
from xlbridge.clubs.bridgemania.lists import season_lists
from xlbridge.clubs.bridgemania.model import (
    Collector, EntryResult, Night, Season, SeasonError, Standings, TournamentResult,
)
from xlbridge.clubs.bridgemania.scores import base_nights, penalty_points, score

__all__ = ["recalculate"]


def recalculate(season: Season) -> Standings:
    """Recalculate a whole season from the typed data (sections B, C, D).

    Raises :class:`~xlbridge.clubs.bridgemania.model.SeasonError` with every problem
    found; never returns a partial result.  The input is not modified; the same
    season always gives equal Standings.
    """
    out = Collector()
    who = roster(season, out)
    nights: list[Night] = []
    for t in season.tournaments:
        n = night(t, who, out)
        if n is not None:
            nights.append(n)
            if t.championship:
                validity(n, out)
    scored: list[tuple[Night, list[EntryResult]]] = [(n, score(n, out)) for n in nights]
    if out.problems:
        raise SeasonError(out.problems)

    lists = season_lists(nights, who.reference, who.base_ids)
    totals = Totals(who.base_ids)
    tournaments: list[TournamentResult] = []
    for (n, results), plist in zip(scored, lists):
        base = base_nights(n, results, who.base_ids)
        t = n.tournament
        result = TournamentResult(
            id=str(t.id), date=str(t.date), host=str(t.host), championship=bool(t.championship),
            pairs=len(results), tables=len(results) / 2, boards=n.nboards, top=n.top,
            penalty_unit=penalty_points(n.top),
            base_pairs_playing=sum(1 for b in base if b.played),
            entries=tuple(results), base=tuple(base), participation=tuple(plist),
        )
        tournaments.append(result)
        if t.championship:
            totals.count(result)
    valid = len(totals.after)
    threshold = valid // 2 + 1
    return Standings(
        tournaments=tuple(tournaments), general=tuple(totals.general_ranking()), after=tuple(totals.after),
        valid=valid, threshold=threshold, final=tuple(totals.final_ranking(threshold)),
    )
