"""The BridgeMania standings as pandas DataFrames (the analyst's interface; the
engine itself never imports pandas, and this module is not in the xlwings Lite bundle)."""

from __future__ import annotations

from typing import Any

import pandas as pd


def to_frames(standings: Any) -> dict[str, Any]:
    """``standings``: a :class:`xlbridge.clubs.bridgemania.model.Standings` (not imported:
    the model calls this module through ``Standings.frames()``, never the other way).
    One DataFrame per future sheet block: ``entries`` (every entry of every
    tournament), ``base`` (every base pair's night), ``general``, ``after`` (the
    three standings after each counted tournament) and ``final``."""
    entries = [
        {"tournament": t.id, **{k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(e).items()}}
        for t in standings.tournaments
        for e in t.entries
    ]
    nights = [{"tournament": t.id, **vars(b)} for t in standings.tournaments for b in t.base]
    after = [{"after": tid, **vars(row)} for tid, rows in standings.after for row in rows]
    return {
        "entries": pd.DataFrame(entries),
        "base": pd.DataFrame(nights),
        "general": pd.DataFrame([vars(r) for r in standings.general]),
        "after": pd.DataFrame(after),
        "final": pd.DataFrame([vars(r) for r in standings.final]),
    }
