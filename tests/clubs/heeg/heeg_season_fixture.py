"""A small hand-made Heeg season shared by the Heeg tests.

Two periods of four evenings, lines A and B of four pairs each, every row has
``max_mp = 100`` so that a plain score's % equals its MP (easy arithmetic).
Period 1 ends with pair 2 relegated (red inv) and pair 5 promoted.
"""

from __future__ import annotations

import datetime as dt

import pandas as pd

from xlbridge.clubs.heeg import HeegSettings, Period

P1 = [dt.date(2025, 9, 2), dt.date(2025, 9, 9), dt.date(2025, 9, 16), dt.date(2025, 9, 23)]
P2 = [dt.date(2025, 9, 30), dt.date(2025, 10, 7), dt.date(2025, 10, 14), dt.date(2025, 10, 21)]

# pair -> (line in P1, line in P2, [(mp, code) x 8 evenings])
SEASON = {
    1: ("A", "A", [(60, ""), (None, "a"), (40, "1"), (None, "a"), (None, "a"), (None, "2"), (50, "s"), (None, "0")]),
    2: ("A", "B", [(50, "1"), (None, "2"), (40, "s1"), (None, "0"), (50, ""), (50, ""), (50, ""), (50, "")]),
    3: ("A", "A", [(70, ""), (None, "2"), (None, "="), (30, ""), (55, ""), (55, ""), (55, ""), (55, "")]),
    4: ("A", "A", [(45, "")] * 8),
    5: ("B", "A", [(75, "")] * 4 + [(65, "")] * 4),
    6: ("B", "B", [(80, ""), (None, "a"), (80, ""), (80, ""), (80, ""), (None, "a"), (80, ""), (80, "")]),
    7: ("B", "B", [(50, "")] * 8),
    8: ("B", "B", [(90, "1")] * 4 + [(60, "")] * 4),
}


def settings(promote: int = 1, span: str = "period") -> HeegSettings:
    return HeegSettings(
        club="Bridge club Heeg",
        season="2025/2026",
        periods=(Period("1", tuple(P1), promote=promote), Period("2", tuple(P2), promote=promote)),
        lines=("A", "B"),
        rounds=6,
        boards_per_round=4,
        absence_span=span,
    )


def season_frame() -> pd.DataFrame:
    rows = []
    for number, day in enumerate(P1 + P2):
        period = "1" if day in P1 else "2"
        for pair, (line1, line2, results) in SEASON.items():
            mp, code = results[number]
            rows.append(
                {
                    "date": day,
                    "period": period,
                    "line": line1 if period == "1" else line2,
                    "pair": pair,
                    "names": f"Pair {pair}",
                    "mp": mp,
                    "max_mp": 100,
                    "code": code,
                    "rounds": 6,
                }
            )
    return pd.DataFrame(rows)


def rows_of(frame: pd.DataFrame, pair: int) -> pd.DataFrame:
    return frame[frame["pair"] == pair].sort_values("date")
