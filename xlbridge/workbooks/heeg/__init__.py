"""The Heeg season workbook: a mirror of Bridge club Heeg's spreadsheet.

Sheets (``xlbridge new heeg PATH [--blank]``; the rules are in docs/clubs/heeg.md,
the scorer's guide in docs/guide-heeg.md):

- ``Season`` -- the settings the scorer types: club, season, lines, rounds per
  evening, boards per round, combi table top, how the n-th ``a`` is counted, the
  periods with their evenings and promotion/relegation count, and the pairs with
  their names and line per period.
- ``Evening YYYY-MM-DD`` -- one per playing evening, one row per pair::

      Pair | Names | Line | R1..R6 | C | C | MP | max | inv | EGS | % | tot vandaag | periode | jaar | eind 1.. | *

  Typed: Pair, Names, Line, the MP per round (R1..R6), the combi MP as scored
  (the first C), the inv code, and the MP total *when no round is typed on the
  row*.  Computed: the corrected combi MP (the second C), the MP total on a row
  with MP per round (their sum, as the old workbook's SUM formula), max, EGS, %,
  tot vandaag, periode, jaar, the kept period results (eind) and the ``*``.
  Signals: ``*`` text, red fill of the ``*`` cell (red_star), red fill of the
  inv cell (red_inv).
- ``Period 1`` .. and ``Year`` -- standings, entirely computed.

The kind by job:

- :mod:`~xlbridge.workbooks.heeg.declaration` -- the one declaration of the sheets;
- :mod:`~xlbridge.workbooks.heeg.read` -- the Season sheet read and checked;
- :mod:`~xlbridge.workbooks.heeg.evening` -- an evening sheet read and checked;
- :mod:`~xlbridge.workbooks.heeg.compute` -- :class:`HeegSeason`, the recalculation
  (a :class:`~xlbridge.workbooks.plan.Kind`);
- :mod:`~xlbridge.workbooks.heeg.views` -- the standings and each evening's result
  (never audited: they follow from the evenings), a new evening sheet;
- :mod:`~xlbridge.workbooks.heeg.imported` -- a scoring program's evening typed in (``xlbridge import``);
- :mod:`~xlbridge.workbooks.heeg.build` -- the builder :func:`heeg_workbook`
  (openpyxl; imported only when a workbook is built, never by the recalculation).
"""

from __future__ import annotations

from typing import Any

from xlbridge.workbooks.heeg.declaration import (
    EVENING_PREFIX,
    NEVER_READ,
    RED,
    SEASON,
    SETTINGS,
    YEAR,
    evening_sheet,
    evening_spec,
    evening_table,
    period_sheet,
    period_spec,
    season_spec,
    year_spec,
)
from xlbridge.workbooks.heeg.compute import HeegSeason
from xlbridge.workbooks.heeg.read import read_season
from xlbridge.workbooks.kinds import Button, WorkbookKind
from xlbridge.workbooks.nextsheet import NEW_EVENING
from xlbridge.rules.problems import N_

__all__ = ["HeegSeason", "RECALCULATION", "WORKBOOKS", "LANGUAGE", "plan_next", "IMPORTER", "heeg_workbook",
           "SEASON", "EVENING_PREFIX", "YEAR", "RED", "SETTINGS", "evening_sheet", "period_sheet", "season_spec",
           "evening_spec", "evening_table", "period_spec", "year_spec", "read_season"]


#: The club's language: the workbook is built in Dutch unless asked otherwise.
LANGUAGE = "nl"

#: The kind, for the registry (:mod:`xlbridge.workbooks.kinds`).
RECALCULATION = HeegSeason
#: ``xlbridge import`` into an evening sheet (named, so that the Excel path never imports it).
IMPORTER = "xlbridge.workbooks.heeg.imported:import_evening"


def plan_next(book: Any, *, day: Any, name: Any, next_period: bool, today: Any, taken: Any) -> Any:
    """New evening, for :func:`xlbridge.workbooks.nextsheet.plan_next`
    (:func:`xlbridge.workbooks.heeg.next.next_evening`; an evening's sheet is named by its date:
    ``name`` and ``taken`` are not asked)."""
    from xlbridge.workbooks.heeg.next import next_evening

    return next_evening(book, day=day, next_period=next_period, today=today)


WORKBOOKS = {
    "heeg": WorkbookKind("xlbridge.workbooks.heeg.build:heeg_workbook", Button("Season", "D1"),
                         N_("Heeg club season"), N_("Bridge club Heeg's score calculation"), NEVER_READ,
                         language=LANGUAGE,
                         next_button=Button("Season", "G1", name="xlbridge_next_button", label=NEW_EVENING,
                                            action=NEW_EVENING),
                         guides={"": "docs/guide-heeg.md", "nl": "docs/guide-heeg.nl.md"},
                         shipped=((False, "workbooks/heeg-demo.xlsx"), (True, "templates/heeg-season.xlsx")),
                         lite_excluded=("clubs/heeg/demo.py", "clubs/heeg/frames.py")),
}


def heeg_workbook(blank: bool = False, language: str = LANGUAGE) -> Any:
    """The Heeg season workbook (an openpyxl ``Workbook``) in ``language``: the demo
    season as typed (its computed cells empty until recalculated), or (``blank``) an empty season
    (:func:`xlbridge.workbooks.heeg.build.heeg_workbook`)."""
    from xlbridge.workbooks.heeg.build import heeg_workbook as build
    from xlbridge.workbooks.localised import built_in

    return built_in(build, language, blank)
