"""Bundled example data (synthetic, made up for xlbridge's demos and tests)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources

from xlbridge.rules.base import RuleError

TBF_CLUB = {"scheme": "tr.club", "boards": 26, "movement": "howell"}


@dataclass(frozen=True)
class Entry:
    pair: int
    players: str
    score: float


def tbf_club_results() -> list[Entry]:
    """The bundled TBF club tournament (tbf-club.csv)."""
    text = resources.files(__name__).joinpath("tbf-club.csv").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return [Entry(int(r["pair"]), r["players"], float(r["score"])) for r in csv.DictReader(lines)]


def ranks_from_scores(scores: list[float | None]) -> list[int | None]:
    """Competition ranking by score, highest first; equal scores tie; blank = not ranked.

    >>> ranks_from_scores([50.0, 61.5, 50.0, None, 40.2])
    [2, 1, 2, None, 4]
    """
    numbers = []
    for position, score in enumerate(scores, start=1):
        if score is None or score == "":
            numbers.append(None)
            continue
        try:
            numbers.append(float(score))
        except (TypeError, ValueError):
            raise RuleError(f"score {position} must be a number; got {score!r}") from None
    present = [s for s in numbers if s is not None]
    return [None if s is None else 1 + sum(other > s for other in present) for s in numbers]
