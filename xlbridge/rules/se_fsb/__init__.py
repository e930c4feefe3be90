"""Sweden -- Förbundet Svensk Bridge (FSB) masterpoints: *Svenska Mästarpoäng*.

Source document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*,
Rev 1.1 MME (090427), Förbundet Svensk Bridge
(``docs/sources/000_b38bcd2d61619209.txt``).  Currencies (section 1): guld-,
silver- and bronspoäng, units ``gp``, ``sp``, ``bp``; 1 mp = 1 gp = 10 sp = 100 bp.

Sections used, and the module of this package that implements each:

- 1 (Att samla mästarpoäng): bronze to the best third, silver to the best quarter
  then bronze to the third, gold to the first three -- :mod:`.helpers` (currencies,
  rounding up), :mod:`.bronze`, :mod:`.silver_gold`;
- 2 (Mästarklasser): :func:`master_class` -- :mod:`.player`;
- 3 (Avgifter): :func:`fee`, :func:`sessions` -- :mod:`.federation`;
- 4 (Tävlingsbestämmelser) and 5 (Tävlingarna, page 4 table): :func:`silver_sanction_violations`,
  :func:`gold_sanction_violations`, :func:`silver_events_allowed`, :func:`silver_season_violations`,
  :func:`bridge_week_violations`, :func:`rally_violations` and, for the DM bonus of section 9,
  :func:`dm_pairs_bonus_violations` (:mod:`.federation`, coded problems); the A-final with
  carry-over (options ``qual_rounds``/``final_rounds``/``total``, :mod:`.silver_gold`); simultaneous
  events and rally bonus (:mod:`.special`), shared places (:mod:`.helpers`), beginners' meeting,
  handicap events and reserves (:func:`reserve_share`, :mod:`.bronze`), walkover (option ``walkover``,
  :mod:`.series`), deliberately abandoned events (option ``stopped``, :mod:`.options`);
- 7 (Ranking): :func:`ranking_points`, :func:`ranking_total` -- :mod:`.player`;
- 8 (Konvertering av utländska mp): :func:`convert_foreign`, :func:`conversion_fee` -- :mod:`.player`;
- 9 (MP-tabeller): tables A1, A2, B1-B4, C, D, E1-E7, F, gold, G1-G3, H1-H2 as data
  (``xlbridge/rules/data/se_*.csv``, parsed by ``tools/se_parse.py``, principles and
  errata in :mod:`.tables`); the schemes by the document's own grouping: :mod:`.bronze`
  (A1, A2, B1, C), :mod:`.series` (B2-B4, E2-E7, G1, G3 per match), :mod:`.silver_gold`
  (D, E1, F, Guldpoäng), :mod:`.special` (simultaneous, DM and SM finals, G2, H1, H2, rallies).

Every decision where the document is ambiguous is in ``docs/rules/sweden.md``.

References:
    - Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
      Rev 1.1 (MME 090427), sections 1-9, pages 1-16.
    - Tables: ``xlbridge/rules/data/se_*.csv`` (each with its provenance header);
      corrections: ``xlbridge/rules/data/se_errata.csv``.

>>> from xlbridge import award, awards
>>> print(award("se.bronze.pairs", 1, 20))
40 bp
>>> print(award("se.silver.pairs", 1, 60, met=30))   # page 12: 1 + 30 + 29/2 = 45.5 -> 46
46 sp
"""

from __future__ import annotations

from xlbridge.rules.base import Award
from xlbridge.rules.se_fsb.bronze import (
    BeginnersMeeting, BronzeHandicap, BronzeIndividual, BronzePairs, BronzeTeamBarometer, dm_pairs_bonus_eligible,
    group_coefficient, handicap_awards, reserve_share, series_bonus_eligible, share_by_matches, sm_teams_bonus_eligible,
)
from xlbridge.rules.se_fsb.federation import (
    bridge_week_violations, dm_pairs_bonus_violations, fee, gold_sanction_violations, manual_report_fee,
    rally_violations, sessions, silver_events_allowed, silver_sanction_violations, silver_season_violations,
)
from xlbridge.rules.se_fsb.helpers import (
    BRONZE_MIN, DECIMALS, SILVER_CAP, SOURCE, VALUE, Cell, a_final_winner, boards_coefficient, ceil, met_winner,
    share_places,
)
from xlbridge.rules.se_fsb.options import O_BOARDS, O_GROUP, O_GROUPS, O_MET, O_STOPPED
from xlbridge.rules.se_fsb.player import (
    conversion_fee, convert_foreign, master_class, master_class_info, ranking_points, ranking_total,
)
from xlbridge.rules.se_fsb.series import (
    G3_BONUS, BronzeTeamSeries, GoldTeamSeries, SeriesBonus, SilverTeamSeries, allsvenskan_bonus, allsvenskan_div3_gold,
    match_outcome, match_points, player_share, series_total,
)
from xlbridge.rules.se_fsb.silver_gold import (
    GoldIndividual, GoldPairs, GoldTeamBarometer, SilverIndividual, SilverPairs, SilverTeamBarometer, fixed_scale,
    gold_cells, silver_cells,
)
from xlbridge.rules.se_fsb.special import (
    DmBonus, RallyBonus, SimultaneousBonus, SimultaneousHeat, SmPairsFinal, SmPairsOther, SmTeamsBonus, SmTeamsVeterans,
)

__all__ = [
    "SCHEMES",
    # constants
    "SOURCE", "DECIMALS", "VALUE", "BRONZE_MIN", "SILVER_CAP", "G3_BONUS", "Cell", "Award",
    "O_BOARDS", "O_GROUP", "O_GROUPS", "O_MET", "O_STOPPED",
    # schemes
    "BronzePairs", "BronzeHandicap", "BronzeTeamBarometer", "BronzeTeamSeries", "SeriesBonus", "BronzeIndividual",
    "BeginnersMeeting", "SilverPairs", "SilverTeamBarometer", "SilverTeamSeries", "SilverIndividual",
    "SimultaneousHeat", "SimultaneousBonus", "DmBonus", "GoldPairs", "GoldTeamBarometer", "GoldIndividual",
    "GoldTeamSeries", "SmTeamsBonus", "SmTeamsVeterans", "SmPairsFinal", "SmPairsOther", "RallyBonus",
    # plain functions: awards and their pieces
    "a_final_winner", "boards_coefficient", "ceil", "met_winner", "share_places", "group_coefficient",
    "handicap_awards", "share_by_matches", "reserve_share", "series_bonus_eligible", "sm_teams_bonus_eligible",
    "dm_pairs_bonus_eligible", "match_outcome", "match_points", "player_share", "series_total",
    "allsvenskan_div3_gold", "allsvenskan_bonus", "silver_cells", "gold_cells", "fixed_scale",
    # a player's standing and the federation's bookkeeping
    "master_class", "master_class_info", "ranking_points", "ranking_total", "convert_foreign", "conversion_fee",
    "sessions", "fee", "manual_report_fee", "silver_sanction_violations", "gold_sanction_violations",
    "silver_events_allowed", "silver_season_violations", "bridge_week_violations", "dm_pairs_bonus_violations",
    "rally_violations",
]

#: Every Swedish scheme (the registry, :data:`xlbridge.rules.RULE_SET_MODULES`, reads this).
SCHEMES = tuple(scheme() for scheme in (
    BronzePairs, BronzeHandicap, BronzeTeamBarometer, BronzeTeamSeries, SeriesBonus, BronzeIndividual,
    BeginnersMeeting, SilverPairs, SilverTeamBarometer, SilverTeamSeries, SilverIndividual, SimultaneousHeat,
    SimultaneousBonus, DmBonus, GoldPairs, GoldTeamBarometer, GoldIndividual, GoldTeamSeries, SmTeamsBonus,
    SmTeamsVeterans, SmPairsFinal, SmPairsOther, RallyBonus,
))
