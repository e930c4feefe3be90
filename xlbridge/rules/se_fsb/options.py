"""Svenska Mästarpoäng 2009: the option sets of the Swedish schemes and their common base.

Document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*, Rev 1.1
(MME 090427), Förbundet Svensk Bridge (``docs/sources/000_b38bcd2d61619209.txt``).

Sections implemented here:

- 5 (Tävlingarna): no mp when a silver or gold event is deliberately abandoned
  (option ``stopped``), "Delad placering" and team tie-breaks for every scheme
  (:class:`Scheme`);
- 9 (MP-tabeller): the options the tables' footnotes name -- boards ("brickor"),
  pairs met ("antal par man mött", table D), strength groups ("gruppindelning",
  table A1).

References:
    Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
    Rev 1.1 (MME 090427), sections 5 and 9.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from xlbridge.rules.base import Award, Option, Ranks, SchemeBase
from xlbridge.rules.se_fsb.helpers import DECIMALS, SOURCE, Cell, no_ties, share_places

O_BOARDS = lambda default: Option("boards", "int", default, "boards played in the event (brickor)")  # noqa: E731
O_MET = Option("met", "int", 0, "pairs/teams met by each ('antal par man mött'); 0 = all met all")
O_GROUPS = Option("groups", "int", 1, "strength groups the pairs were split into (2-5; 'gruppindelning')")
O_STOPPED = Option("stopped", "bool", False,
                   "the silver/gold event was deliberately abandoned before all boards were played: no mp")
O_GROUP = Option("group", "str", "", "this ranking's group letter (A = strongest), with groups", ("a", "b", "c", "d", "e"))


class Scheme(SchemeBase):
    """A Swedish scheme: untied cells of the table for a field, shared places, no ties in team events."""

    source = SOURCE
    team = False

    def check_ranks(self, ranks: Ranks, options: Mapping[str, Any]) -> None:
        super().check_ranks(ranks, options)
        if self.team:
            no_ties(self.id, ranks)

    def awards(self, ranks: Ranks, options: Mapping[str, Any]) -> list[Award]:
        self.check_ranks(ranks, options)
        if options.get("stopped"):
            # section 5: 'Inga mp delas ut om en silver- eller guldtävling avsiktligt avbryts innan alla
            # brickor spelats.'
            return [Award(0.0, self.units[0], DECIMALS) for _ in ranks]
        cells, last_min = self.cells(len(ranks), options)
        return share_places(ranks, cells, last_minimum=last_min, zero_unit=self.units[-1])

    def cells(self, n: int, options: Mapping[str, Any]) -> tuple[list[Cell], dict[str, float]]:  # pragma: no cover
        raise NotImplementedError
