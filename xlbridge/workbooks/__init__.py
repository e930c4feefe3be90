"""Floor 3: the workbook kinds -- how each kind of club or federation workbook is
laid out, read, recalculated and built (no xlwings, no openpyxl at import time).

- :mod:`xlbridge.workbooks.book` -- the adapter protocol every recalculation talks to;
- :mod:`xlbridge.workbooks.recalc` -- one recalculation: detect, plan, diff, apply, audit;
- :mod:`xlbridge.workbooks.kinds` -- the registry of kinds;
- :mod:`xlbridge.workbooks.heeg`, :mod:`~xlbridge.workbooks.bridgemania`,
  :mod:`~xlbridge.workbooks.events` -- the kinds;
- :mod:`xlbridge.workbooks.messages` -- problems shown in the workbook;
- :mod:`xlbridge.workbooks.style` -- the house style (builders only).
"""
