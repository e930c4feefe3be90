"""Event sheets: one event's results and its masterpoint awards, for any scheme
(the TBF club tournament, the Swedish bronze/silver/team events).

- :mod:`.declaration` -- the sheet, declared once;
- :mod:`.kind` -- reading and recalculating (:class:`EventSheets`);
- :mod:`.build` -- the workbooks ``xlbridge new tbf-club`` / ``se-masterpoints``
  write (openpyxl; not part of the Excel path).
"""

from xlbridge.workbooks.events.kind import EventSheets, is_event_sheet, ranks_by_score

__all__ = ["EventSheets", "is_event_sheet", "ranks_by_score"]
