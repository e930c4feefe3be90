"""Floor 4, the Excel door: only what talks to xlwings.

- :mod:`xlbridge.excel.functions` -- worksheet functions (``=AWARD(...)``);
- :mod:`xlbridge.excel.scripts` -- the "Recalculate season" script;
- :mod:`xlbridge.excel.book` -- the live-book adapter (:class:`XlwingsBook`);
- :mod:`xlbridge.excel.bundle`, :mod:`xlbridge.excel.shipped` -- the code a workbook
  carries for xlwings Lite, and the shipped workbooks with it;
- :mod:`xlbridge.excel.server`, :mod:`xlbridge.excel.classic` -- xlwings Server and
  classic xlwings.

Excel's side of the Office.js protocol, for tests and benchmarks, is ``tests/emulate.py``.
"""
