"""TBF Masterpoint Kitapçığı v2.0: a player's record -- mastery points, titles, decay, visas.

Document: *Masterpoint Kitapçığı v2.0*, Türkiye Briç Federasyonu, in force from
1 January 2015 (``docs/sources/001_f6c92b37b6e7abbd.txt``).

Sections implemented here (plain functions; ``=TBF_MASTERY`` and ``=TBF_TITLE`` in Excel):

- 3 (Üyelik): no MP without visa in province/region/national events; club MP of an
  unvisaed player removed at month end -> :func:`apply_visa_rules`;
- 11 (Ustalık puanı): :func:`mastery_points`;
- 12 (Tablo-5 titles): :func:`title`, :func:`titles`;
- 14 (current ranking with the yearly 10 % decay): :func:`current_total`.

References:
    Türkiye Briç Federasyonu, Masterpoint Kitapçığı v2.0 (2015), sections 3, 11, 12 and 14,
    Tablo-5; ``xlbridge/rules/data/tr_mastery.csv``, ``tr_tablo5.csv``.
"""

from __future__ import annotations

import calendar
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from functools import cache

from xlbridge.rules.base import RuleError, load_table, round_half_up
from xlbridge.rules.tr_tbf.tables import DECIMALS


@cache
def _mastery_k() -> dict[str, float | None]:
    return {r["colour"]: (float(r["k"]) if r["k"] else None) for r in load_table("tr_mastery")}


#: The largest holding of one colour (docs/reliability.md, "Bounds of the numbers in rules"): the
#: engine's limit for any number (``Option.limit``); no player holds a billion masterpoints.
MAX_HOLDING = 1e9


def mastery_points(yellow: float = 0, red: float = 0, green: float = 0, white: float = 0, *,
                   include_white: bool = True) -> float:
    """Section 11: mastery points (ustalık puanı), the yellow equivalent.

    Yellow counts 1:1; red, green and white as k*ln(1 + mp/k) with k = 300, 100
    and 30 (fitted to the twelve printed examples).  ``include_white`` resolves
    the self-contradictory last sentence of section 11 (default: included).

    >>> round(mastery_points(green=100), 2), round(mastery_points(white=1000), 2)
    (69.31, 106.08)
    """
    total = 0.0
    for colour, value in (("yellow", yellow), ("red", red), ("green", green), ("white", white)):
        if value is None or value == "":
            value = 0.0
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise RuleError("tr.mastery.not-a-number", "mastery points: {argument} MP must be a number; got {value!r}",
                            argument=colour, value=value) from None
        if value != value:
            raise RuleError("tr.mastery.not-a-number", "mastery points: {argument} MP must be a number; got {value!r}",
                            argument=colour, value=value)
        if value < 0:
            raise RuleError("tr.mastery.negative", "mastery points: {argument} MP cannot be negative; got {value:g}",
                            argument=colour, value=value)
        if value > MAX_HOLDING:  # (an infinity too)
            raise RuleError("tr.mastery.too-large", "mastery points: {argument} MP {value:g} is more than "
                            "{maximum:,.0f}, the largest that makes sense", argument=colour, value=value,
                            maximum=MAX_HOLDING)
        if colour == "white" and not include_white:
            continue
        k = _mastery_k()[colour]
        total += value if k is None else k * math.log1p(value / k)
    return round_half_up(total, DECIMALS)


@dataclass(frozen=True)
class Title:
    turkish: str
    english: str
    min_mastery: float
    min_yellow: float


def titles() -> list[Title]:
    """Tablo-5, lowest title first."""
    return [Title(r["title"], r["english"], float(r["min_mastery"]), float(r["min_yellow"])) for r in load_table("tr_tablo5")]


def title(mastery: float, yellow: float, *, english: bool = False) -> str:
    """Section 12, Tablo-5: the highest title whose minimum mastery points and
    minimum yellow MP are both reached ("" when none).

    >>> title(125, 19), title(125, 20), title(2500, 1300, english=True)
    ('Bölge Ustası', 'Bronz Usta', 'Platinum Grand Master')
    """
    for value, what, name in ((mastery, "mastery points", "mastery"), (yellow, "yellow MP", "yellow")):
        if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise RuleError("tr.title.not-a-number", "Tablo-5: {what} must be a number of 0 or more; got {value!r}",
                            argument=name, what=what, value=value)
        if value > MAX_HOLDING:  # (1e300 was a silent Platin Büyük Usta)
            raise RuleError("tr.title.too-large", "Tablo-5: {what} {value:g} is more than {maximum:,.0f}, the largest "
                            "that makes sense", argument=name, what=what, value=value, maximum=MAX_HOLDING)
    best = ""
    for t in titles():
        if mastery >= t.min_mastery and yellow >= t.min_yellow:
            best = t.english if english else t.turkish
    return best


def current_total(mp_by_year: Mapping[int, float], year: int, decay: float = 0.10) -> float:
    """Section 14: the current ranking total in ``year``.

    At the start of every year the MP collected up to the previous year are
    reduced by 10 %, so MP won in year y count (1 - 0.10)^(year - y).  Years
    after ``year`` are ignored.

    >>> current_total({2015: 10.0, 2016: 10.0, 2017: 10.0}, 2017)
    27.1
    """
    total = 0.0
    for won_in, mp in mp_by_year.items():
        if won_in <= year:
            total += mp * (1 - decay) ** (year - won_in)
    return round_half_up(total, DECIMALS)


# -- section 3: the ledger

PROVINCE_AND_ABOVE = frozenset({"province", "regional", "national"})


@dataclass(frozen=True)
class LedgerEntry:
    """One MP entry of a player: the event's date and level, points and colour."""

    player: str
    day: date
    level: str  # club, province, regional, national or online
    points: float
    colour: str


def _month_end(day: date) -> date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def apply_visa_rules(entries: Iterable[LedgerEntry], visas: Mapping[str, date | None], today: date) -> tuple[list[LedgerEntry], list[tuple[LedgerEntry, str]]]:
    """Section 3: which MP entries stand, given each player's visa date.

    - no MP from province, regional or national events without a visa on the day;
    - club MP of an unvisaed player are deleted at the end of the month unless
      the visa is made by then (still pending before the month ends).

    Returns ``(kept, removed)`` where ``removed`` pairs each entry with the reason.
    """
    kept: list[LedgerEntry] = []
    removed: list[tuple[LedgerEntry, str]] = []
    for entry in entries:
        visa = visas.get(entry.player)
        if entry.level in PROVINCE_AND_ABOVE:
            if visa is None or visa > entry.day:
                removed.append((entry, f"{entry.player} had no visa on {entry.day.isoformat()}: no MP from {entry.level} events"))
                continue
        elif entry.level == "club":
            deadline = _month_end(entry.day)
            if (visa is None or visa > deadline) and today > deadline:
                removed.append((entry, f"{entry.player} had no visa by {deadline.isoformat()}: club MP deleted at month end"))
                continue
        elif entry.level != "online":
            raise RuleError("tr.ledger.level",
                            "ledger: level must be club, province, regional, national or online; got {value!r}",
                            argument="level", value=entry.level)
        kept.append(entry)
    return kept, removed
