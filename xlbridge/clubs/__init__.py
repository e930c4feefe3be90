"""Club season logic: one module per club workbook (pure Python + pandas, no Excel).

- :mod:`xlbridge.clubs.heeg` -- Bridge club Heeg: MP to % with the ``inv``
  corrections, EGS, combi-table correction, period and year columns, signals,
  period and year standings.
- :mod:`xlbridge.clubs.heeg.demo` -- a deterministic synthetic Heeg season.
"""
