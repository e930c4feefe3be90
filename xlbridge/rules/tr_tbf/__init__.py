"""Turkey -- Türkiye Briç Federasyonu (TBF) masterpoints.

Source document: *Masterpoint Kitapçığı v2.0*, Türkiye Briç Federasyonu, in force
from 1 January 2015 (``docs/sources/001_f6c92b37b6e7abbd.txt``).  Sections used,
and the module of this package that implements each:

- 3 (Üyelik): no MP without visa in province/region/national events; club MP of an
  unvisaed player removed at month end -> :func:`apply_visa_rules` (:mod:`.player`);
- 4 (Masterpoint tipleri): the four colours yellow/red/green/white (the ``unit``, :mod:`.schemes`);
- 5 (Dağıtım kuralları): first place fixed / by tables / by tables and boards,
  Tablo-1 scales, one third of the field, team-player eligibility (:mod:`.tables`, :mod:`.schemes`);
- 6 (Tablo-2, Tablo-3): one scheme per row of Tablo-2, weights of Tablo-3 (:mod:`.schemes`, :mod:`.tables`);
- 7 (Özel bölgesel festivaller): ``tr.festival`` and :func:`festival_violations` (:mod:`.schemes`);
- 8 (club and other regional events): boards, team players without segment
  records, multi-session, Lehman, Mitchell, examples 1-4 (:mod:`.schemes`);
- 9 (session prizes): option ``session_boards`` (:mod:`.schemes`, :func:`session_first`);
- 10 (team match awards, Tablo-4): ``tr.match.regional``, ``tr.match.national`` (:mod:`.schemes`,
  :func:`match_award` in :mod:`.tables`);
- 11 (Ustalık puanı): :func:`mastery_points` (:mod:`.player`);
- 12 (Tablo-5 titles): :func:`title` (:mod:`.player`);
- 13 (rounding, ties, half tables, the one-third boundary) (:mod:`.tables`);
- 14 (current ranking with the yearly 10 % decay): :func:`current_total` (:mod:`.player`).

Every decision where the booklet is ambiguous is in ``docs/rules/tbf.md``.

References:
    - Türkiye Briç Federasyonu, Masterpoint Kitapçığı v2.0 (2015), sections 3-14.
    - Tables: ``xlbridge/rules/data/tr_*.csv`` (each with its provenance header).

>>> from xlbridge import award
>>> print(award("tr.club", 1, 26, boards=24))
0.62 green
>>> print(award("tr.club", 2, 12))   # Example 2 of section 8: 6-table Howell
0.28 green
"""

from __future__ import annotations

from xlbridge.rules.tr_tbf.player import (
    PROVINCE_AND_ABOVE, LedgerEntry, Title, apply_visa_rules, current_total, mastery_points, title, titles,
)
from xlbridge.rules.tr_tbf.schemes import (
    SCHEMES, TbfEvent, TbfMatch, festival_violations, team_player_eligible, team_player_share,
)
from xlbridge.rules.tr_tbf.tables import (
    DECIMALS, FULL_SESSION_BOARDS, SHORT_SESSION_BOARDS, SOURCE, UNITS_PER_TABLE, board_factor, boundary_fraction,
    festival_mp, match_award, place_share, session_first, table_weight, third_boundary,
)

__all__ = [
    "SCHEMES", "TbfEvent", "TbfMatch", "place_share", "table_weight", "board_factor", "festival_mp", "third_boundary",
    "boundary_fraction", "session_first", "match_award", "team_player_eligible", "team_player_share", "mastery_points",
    "title", "titles", "Title", "current_total", "festival_violations", "LedgerEntry", "apply_visa_rules",
    # constants
    "SOURCE", "DECIMALS", "UNITS_PER_TABLE", "FULL_SESSION_BOARDS", "SHORT_SESSION_BOARDS", "PROVINCE_AND_ABOVE",
]
