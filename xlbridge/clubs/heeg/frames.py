"""The analyst's interface to the Heeg season: pandas DataFrames in and out.

:func:`recalculate` is :func:`~xlbridge.clubs.heeg.season.compute` on a frame's
rows; :func:`period_standings` and :func:`year_standings` are the standings
tables as frames.  This is the only module of the Heeg season logic that imports
pandas (it is not part of the xlwings Lite bundle).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from xlbridge.clubs.frames import plain_records
from xlbridge.clubs.heeg.season import compute, output_columns, period_table, year_table
from xlbridge.clubs.heeg.settings import HeegSettings
from xlbridge.clubs.heeg.standings import PERIOD_COLUMNS, year_columns
from xlbridge.rules.problems import RuleError

__all__ = ["recalculate", "period_standings", "year_standings"]


def recalculate(results: Any, settings: HeegSettings) -> Any:
    """Recalculate the season: the input rows of a pandas DataFrame with every
    computed column (:func:`~xlbridge.clubs.heeg.season.compute` on the frame's rows).

    ``results`` has one row per pair per evening (columns: see
    :data:`~xlbridge.clubs.heeg.records.INPUT_COLUMNS`,
    :data:`~xlbridge.clubs.heeg.records.OPTIONAL_COLUMNS` and docs/clubs/heeg.md).
    Columns computed by an earlier run are ignored and recomputed, so running it
    on its own output gives the same output.  All bad input of the run is
    reported together in one :class:`~xlbridge.clubs.heeg.problems.HeegInputError`.
    The result keeps the input's index, row order and columns, and adds
    :func:`~xlbridge.clubs.heeg.season.output_columns`.
    """
    if not isinstance(results, pd.DataFrame):
        raise RuleError("heeg.results.not-a-frame", "results must be a pandas DataFrame; got {kind}",
                        kind=type(results).__name__)
    computed = set(output_columns(settings))
    base = results[[c for c in results.columns if c not in computed]].copy()
    out = compute(plain_records(base), settings, columns=base.columns, index=list(base.index))
    extra = pd.DataFrame(out, index=base.index, columns=output_columns(settings))
    for column in ("played", "star", "red_star", "red_inv"):
        extra[column] = extra[column].astype(bool)
    for column in ("period_marks", "year_marks"):
        extra[column] = extra[column].astype(int)
    extra["signal"] = extra["signal"].astype(object)
    return pd.concat([base, extra], axis=1)


def _recalculated_rows(results: Any, settings: HeegSettings, recalculated: Any) -> list[dict[str, Any]]:
    return plain_records(recalculated if recalculated is not None else recalculate(results, settings))


def period_standings(results: Any, settings: HeegSettings, period: Any = None, *, recalculated: Any = None) -> Any:
    """:func:`~xlbridge.clubs.heeg.standings.period_table` as a pandas DataFrame
    (columns :data:`~xlbridge.clubs.heeg.standings.PERIOD_COLUMNS`).
    ``recalculated``: :func:`recalculate` of these results when the caller already
    has it (it is then not computed again; it is not modified)."""
    table = period_table(_recalculated_rows(results, settings, recalculated), settings, period)
    return pd.DataFrame(table, columns=list(PERIOD_COLUMNS))


def year_standings(results: Any, settings: HeegSettings, *, recalculated: Any = None) -> Any:
    """:func:`~xlbridge.clubs.heeg.standings.year_table` as a pandas DataFrame
    (columns :func:`~xlbridge.clubs.heeg.standings.year_columns`).
    ``recalculated`` as for :func:`period_standings`."""
    table = year_table(_recalculated_rows(results, settings, recalculated), settings)
    return pd.DataFrame(table, columns=year_columns(settings))
