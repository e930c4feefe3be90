"""The Excel layer: thin xlwings wrappers around the engine.

- :mod:`xlbridge.excel.functions` -- worksheet functions (``=AWARD(...)``);
- :mod:`xlbridge.excel.scripts` -- recalculation scripts taking ``book: xw.Book``;
- :mod:`xlbridge.excel.book` -- the workbook adapter: one recalculation, run on a
  live xlwings Book or headless on an openpyxl workbook.
"""
