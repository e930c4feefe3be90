"""The BridgeMania championship workbook: one kind of :mod:`xlbridge.workbooks.recalc`.

The scorer types the season (base pairs, guest register, the calendar) and one
sheet per tournament (the board scores as typed, statuses, penalties,
rectifications, split pairs, bridge scores for the extra PTS); a recalculation
reads them into a :class:`~xlbridge.clubs.bridgemania.Season`, calls the engine
and writes the computed cells.  One module per job:

- :mod:`~xlbridge.workbooks.bridgemania.declaration` -- the sheets, settings,
  tables and sections, declared once;
- :mod:`~xlbridge.workbooks.bridgemania.read` -- the Season sheet into the engine's
  typed records, the structure checked against the declaration;
- :mod:`~xlbridge.workbooks.bridgemania.tournament` -- a tournament sheet likewise;
- :mod:`~xlbridge.workbooks.bridgemania.locate` -- the engine's problems put at
  their cells from their codes and concerns;
- :mod:`~xlbridge.workbooks.bridgemania.compute` -- the kind
  (:class:`BridgeManiaSeason`, registered in :data:`xlbridge.workbooks.kinds.MODULES`)
  and the computed cells it plans;
- :mod:`~xlbridge.workbooks.bridgemania.views` -- the sorted results, the
  Championship and Participation sheets (never audited);
- :mod:`~xlbridge.workbooks.bridgemania.build` -- the builder
  (:func:`bridgemania_workbook`, ``xlbridge new bridgemania PATH``): imported only
  when called (openpyxl; not in the xlwings Lite bundle).

The layout is documented in ``docs/clubs/bridgemania.md`` ("The workbook").
"""

from __future__ import annotations

from typing import Any

from xlbridge.workbooks.bridgemania.declaration import NEVER_READ
from xlbridge.workbooks.bridgemania.compute import BridgeManiaSeason
from xlbridge.workbooks.kinds import Button, WorkbookKind
from xlbridge.workbooks.nextsheet import NEW_TOURNAMENT
from xlbridge.rules.problems import N_

#: The championship's language: the workbook is built in Italian unless asked otherwise.
LANGUAGE = "it"
#: The kind, for the registry (:mod:`xlbridge.workbooks.kinds`).
RECALCULATION = BridgeManiaSeason


def plan_next(book: Any, *, day: Any, name: Any, next_period: bool, today: Any, taken: Any) -> Any:
    """New tournament, for :func:`xlbridge.workbooks.nextsheet.plan_next`
    (:func:`xlbridge.workbooks.bridgemania.next.next_tournament`; no periods; ``taken``: every sheet's
    name, chart sheets too)."""
    from xlbridge.workbooks.bridgemania.next import next_tournament

    return next_tournament(book, day=day, name=name, today=today, taken=taken)


WORKBOOKS = {
    "bridgemania": WorkbookKind("xlbridge.workbooks.bridgemania.build:build_workbook", Button("Season", "G1"),
                                N_("BridgeMania championship season"),
                                N_("the BridgeMania championship rules 2019-2020"), NEVER_READ, language=LANGUAGE,
                                next_button=Button("Season", "I1", name="xlbridge_next_button", label=NEW_TOURNAMENT,
                                                   action=NEW_TOURNAMENT),
                                guides={"": "docs/guide-bridgemania.md", "it": "docs/guide-bridgemania.it.md"},
                                shipped=((False, "workbooks/bridgemania-demo.xlsx"),
                                         (True, "templates/bridgemania-season.xlsx")),
                                lite_excluded=("clubs/bridgemania/demo.py", "clubs/bridgemania/frames.py")),
}

#: The import of a night's board scores (``xlbridge import``; the Excel path never imports it).
IMPORTER = "xlbridge.workbooks.bridgemania.imported:import_tournament"

_BUILDERS = ("bridgemania_workbook", "build_workbook", "season_workbook")


def __getattr__(name: str) -> Any:
    """The builder's functions, imported when first asked for (the kind never needs openpyxl)."""
    if name in _BUILDERS:
        from xlbridge.workbooks.bridgemania import build

        return getattr(build, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BridgeManiaSeason", "RECALCULATION", "WORKBOOKS", "LANGUAGE", "plan_next", "IMPORTER",
           "bridgemania_workbook", "season_workbook"]
