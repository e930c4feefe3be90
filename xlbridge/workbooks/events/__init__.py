"""Event sheets: one event's results and its masterpoint awards, for any scheme
(the TBF club tournament, the Swedish bronze/silver/team events).

- :mod:`.declaration` -- the sheet, declared once;
- :mod:`.kind` -- reading and recalculating (:class:`EventSheets`);
- :mod:`.build` -- the workbooks ``xlbridge new tbf-club`` / ``se-masterpoints``
  write (openpyxl; not part of the Excel path);
- :mod:`.imported` -- a scoring program's ranking typed in (``xlbridge import``).
"""

from xlbridge.workbooks.events.declaration import NEVER_READ
from xlbridge.workbooks.events.kind import EventSheets, is_event_sheet, ranks_by_score
from xlbridge.workbooks.kinds import Button, WorkbookKind
from xlbridge.rules.problems import N_

#: The kind, for the registry (:mod:`xlbridge.workbooks.kinds`): one recalculation, two workbooks.
RECALCULATION = EventSheets
TRIED_LAST = True  # an event sheet may sit in any workbook: a season is recognised by its own sheets first
WORKBOOKS = {
    "tbf-club": WorkbookKind("xlbridge.workbooks.events.build:tbf_club", Button("Tournament", "D3"),
                             N_("TBF club tournament"), N_("the TBF Masterpoint booklet v2.0"), NEVER_READ,
                             language="tr",
                             shipped=((False, "workbooks/tbf-club.xlsx"), (True, "templates/tbf-club.xlsx"))),
    "se-masterpoints": WorkbookKind("xlbridge.workbooks.events.build:se_masterpoints",
                                    Button("Bronze pairs", "D3"),
                                    N_("Swedish masterpoint events"), N_("Svenska Mästarpoäng 2009"), NEVER_READ,
                                    language="sv", shipped=((False, "workbooks/se-masterpoints.xlsx"),
                                                            (True, "templates/se-masterpoints.xlsx"))),
}


#: The import of a scoring program's ranking (``xlbridge import``; the Excel path never imports it).
IMPORTER = "xlbridge.workbooks.events.imported:import_ranking"

__all__ = ["EventSheets", "RECALCULATION", "TRIED_LAST", "WORKBOOKS", "is_event_sheet", "ranks_by_score",
           "IMPORTER"]
