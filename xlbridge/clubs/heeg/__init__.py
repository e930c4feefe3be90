"""Season logic of Bridge club Heeg (source: ``docs/sources/003_58bc20b693ef4dc0.txt``).

Every rule and every decision is explained, with the Dutch sentence it comes
from, in ``docs/clubs/heeg.md``.  The modules, by job:

- :mod:`~xlbridge.clubs.heeg.rules` -- the stateless rules: the inv codes,
  :func:`line_top`, :func:`evening_max`, :func:`absence_cap`, :func:`heeg_pct`
  (worksheet function ``HEEG_PCT``) and :func:`heeg_c` (``HEEG_C``);
- :mod:`~xlbridge.clubs.heeg.settings` -- :class:`Period`, :class:`Pair`,
  :class:`HeegSettings` and their checks;
- :mod:`~xlbridge.clubs.heeg.records` -- :class:`Entry`, one pair on one evening
  typed, and :func:`parse_row`, the one parser of a raw row (cells or a frame's row);
- :mod:`~xlbridge.clubs.heeg.season` -- :func:`season` (typed records in, one
  :class:`SeasonResult` out: the values of every record, the standings, the
  problems) and :func:`compute` (the same on raw mappings);
- :mod:`~xlbridge.clubs.heeg.standings` -- :func:`period_table`, :func:`year_table`;
- :mod:`~xlbridge.clubs.heeg.problems` -- the coded problems and :class:`HeegInputError`;
- :mod:`~xlbridge.clubs.heeg.frames` -- the analyst's pandas interface:
  :func:`recalculate`, :func:`period_standings`, :func:`year_standings` (pandas is
  imported when one of them is first used: everything else is standard library
  only and runs in Excel, in xlwings Lite, too);
- :mod:`~xlbridge.clubs.heeg.demo` -- a synthetic season.

>>> round(heeg_pct(103, 180, ""), 4)            # 103 of 180 MP
57.2222
>>> heeg_c(20, line_top(9), 10)       # average at the combi table -> average of a 9-pair line
12.0
"""

from __future__ import annotations

from typing import Any

from xlbridge.clubs.heeg.problems import HeegInputError, HeegProblem
from xlbridge.clubs.heeg.records import INPUT_COLUMNS, OPTIONAL_COLUMNS, Entry, parse_row
from xlbridge.clubs.heeg.rules import (
    ABSENCE_CAPS, ABSENT_CODES, CODES, EGS_CODES, MARK_CODES, MP_CODES, absence_cap, evening_max, heeg_c, heeg_pct,
    line_top, normalise_code,
)
from xlbridge.clubs.heeg.season import (
    OUTPUT_COLUMNS, SeasonResult, compute, output_columns, period_table, season, year_table,
)
from xlbridge.clubs.heeg.settings import HeegSettings, Pair, Period
from xlbridge.clubs.heeg.standings import PERIOD_COLUMNS, year_columns

#: The problems of the season input (the name the engine's problems had before they were typed).
Problem = HeegProblem

__all__ = [
    "CODES", "EGS_CODES", "MARK_CODES", "ABSENT_CODES", "MP_CODES", "ABSENCE_CAPS", "INPUT_COLUMNS", "OPTIONAL_COLUMNS",
    "OUTPUT_COLUMNS", "Period", "Pair", "HeegSettings", "Problem", "HeegProblem", "HeegInputError", "Entry",
    "parse_row", "normalise_code", "line_top", "evening_max", "absence_cap", "heeg_pct", "heeg_c", "season",
    "SeasonResult", "compute", "recalculate", "output_columns", "PERIOD_COLUMNS", "year_columns", "period_table",
    "year_table", "period_standings", "year_standings",
]

_FRAMES = ("recalculate", "period_standings", "year_standings")


def __getattr__(name: str) -> Any:
    """The pandas interface (:mod:`~xlbridge.clubs.heeg.frames`), imported when first used."""
    if name in _FRAMES:
        from xlbridge.clubs.heeg import frames

        return getattr(frames, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
