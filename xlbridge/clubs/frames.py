"""Between pandas frames and the plain Python records the season logic runs on
(the analyst's interface; the season logic itself never imports pandas)."""

from __future__ import annotations

from typing import Any

import pandas as pd


def plain(value: Any) -> Any:
    """pandas' missing values (``NA``, ``NaT``) as ``None``; anything else as it is.

    >>> plain(pd.NA), plain(pd.NaT), plain(3)
    (None, None, 3)
    """
    return None if value is pd.NA or value is pd.NaT else value


def plain_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``frame`` as dicts (numpy scalars as Python numbers), pandas' ``NA`` and ``NaT`` as
    ``None``; a float column's ``nan`` stays (the season logic takes both as a blank cell).

    >>> import numpy as np
    >>> frame = pd.DataFrame({"pair": [1, 2], "pct": [55.5, None], "code": ["", np.int64(3)]})
    >>> rows = plain_records(frame)
    >>> rows
    [{'pair': 1, 'pct': 55.5, 'code': ''}, {'pair': 2, 'pct': nan, 'code': 3}]
    >>> [type(v).__name__ for v in rows[1].values()]
    ['int', 'float', 'int']
    """
    return [{k: plain(v) for k, v in row.items()} for row in frame.to_dict("records")]
