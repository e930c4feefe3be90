"""Between pandas frames and the plain Python records the season logic runs on
(the analyst's interface; the season logic itself never imports pandas)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``frame`` as dicts, the values ``frame.to_dict("records")``
    gives (numpy scalars as Python numbers), read column by column: on the small
    frames of a club season ``to_dict`` spends most of its time per value.

    >>> frame = pd.DataFrame({"pair": [1, 2], "pct": [55.5, 48.0], "code": ["", np.int64(3)]})
    >>> records(frame)
    [{'pair': 1, 'pct': 55.5, 'code': ''}, {'pair': 2, 'pct': 48.0, 'code': 3}]
    >>> records(frame) == frame.to_dict("records")
    True
    >>> [type(v).__name__ for v in records(frame)[1].values()]
    ['int', 'float', 'int']
    """
    columns = list(frame.columns)
    if len(set(columns)) != len(columns):  # to_dict itself warns and keeps the last; do the same
        return frame.to_dict("records")
    lists = []
    for column in columns:
        series = frame[column]
        values = series.tolist()  # numeric columns: Python numbers already
        if series.dtype == object:
            values = [v.item() if isinstance(v, np.generic) else v for v in values]
        lists.append(values)
    return [dict(zip(columns, row)) for row in zip(*lists)]


def plain(value: Any) -> Any:
    """pandas' missing values (``NA``, ``NaT``) as ``None``; anything else as it is.

    >>> plain(pd.NA), plain(pd.NaT), plain(3)
    (None, None, 3)
    """
    return None if value is pd.NA or value is pd.NaT else value


def plain_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """:func:`records` with pandas' missing values as ``None`` (what the season
    logic takes as a blank cell)."""
    return [{k: plain(v) for k, v in row.items()} for row in records(frame)]
