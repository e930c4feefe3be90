"""Svenska Mästarpoäng 2009: a player's standing -- master classes, ranking, foreign points.

Document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*, Rev 1.1
(MME 090427), Förbundet Svensk Bridge (``docs/sources/000_b38bcd2d61619209.txt``).

Sections implemented here (plain functions; ``=SE_CLASS`` and ``=SE_RANKING`` in Excel):

- 2 (Mästarklasser): :func:`master_class`, :func:`master_class_info`;
- 7 (Ranking): :func:`ranking_points`, :func:`ranking_total`;
- 8 (Konvertering av utländska mp): :func:`convert_foreign`, :func:`conversion_fee`.

Every function raises :class:`~xlbridge.rules.base.RuleError` with the rule and
the value for input that makes no sense.

References:
    Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
    Rev 1.1 (MME 090427), sections 2, 7 and 8; ``xlbridge/rules/data/se_classes.csv``.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import cache

from xlbridge.rules.base import RuleError, load_table, round_half_up
from xlbridge.rules.se_fsb.helpers import amount, level_of

STAR = "★"


# --------------------------------------------------------------------------- section 2


@dataclass(frozen=True)
class _Level:
    name: str
    stars: int
    min_mp: Fraction | None
    min_sp: Fraction | None
    min_gp: Fraction | None
    min_bp: Fraction | None
    exchange: str


@cache
def _levels() -> tuple[_Level, ...]:
    def num(text: str) -> Fraction | None:
        return Fraction(text) if text.strip() else None

    return tuple(
        _Level(r["class"], int(r["stars"]), num(r["min_mp"]), num(r["min_sp"]), num(r["min_gp"]), num(r["min_bp"]),
               r["exchange"])
        for r in load_table("se_classes")
    )


def _reaches(level: _Level, gp: Fraction, sp: Fraction, bp: Fraction) -> bool:
    """Can the holdings meet the level, exchanging where the footnote allows ('får räknas')?

    Exchanging loses value (20 bp = 0.2 mp count as 1 sp = 0.1 mp), so only the
    shortfall of the sp/gp requirement is exchanged.
    """
    if level.min_bp is not None:
        return bp >= level.min_bp
    routes: list[tuple[Fraction, Fraction, Fraction]] = []
    if level.min_sp is None and level.min_gp is None:
        routes.append((gp, sp, bp))
    if level.min_sp is not None:
        short = max(Fraction(0), level.min_sp - sp)
        if short == 0:
            routes.append((gp, sp, bp))
        elif level.exchange in ("bp", "bp+sp") and bp >= 20 * short:
            routes.append((gp, sp + short, bp - 20 * short))
    if level.min_gp is not None:
        short = max(Fraction(0), level.min_gp - gp)
        if short == 0:
            routes.append((gp, sp, bp))
        elif level.exchange == "bp+sp":
            need_sp = 20 * short
            from_sp = min(sp, need_sp)
            from_bp = 20 * (need_sp - from_sp)
            if from_bp <= bp:
                routes.append((gp + short, sp - from_sp, bp - from_bp))
    return any(g + s / 10 + b / 100 >= (level.min_mp or 0) for g, s, b in routes)


def master_class_info(gp=0, sp=0, bp=0, *, rule: str = "master_class") -> tuple[str, int]:
    """``(class name, stars)`` for holdings in gold, silver and bronze points ('' if below 2 mp); a problem
    names ``rule`` (the worksheet function names itself).

    >>> master_class_info(0, 0, 2000)   # 'Med enbart bp blir man rutermästare med 20 mp'
    ('Rutermästare', 0)
    >>> master_class_info(0, 0, 1999)
    ('Klövermästare', 3)
    """
    g, s, b = amount(rule, "gp", gp), amount(rule, "sp", sp), amount(rule, "bp", bp)
    best = ("", 0)
    order = ["Klövermästare", "Rutermästare", "Hjärtermästare", "Spadermästare", "Stormästare"]
    for level in _levels():
        if level.stars == 0 and _reaches(level, g, s, b):
            if order.index(level.name) >= order.index(best[0]) if best[0] else True:
                best = (level.name, 0)
    if not best[0]:
        return best
    for level in _levels():
        if level.name == best[0] and level.stars > best[1] and _reaches(level, g, s, b):
            best = (level.name, level.stars)
    return best


def master_class(gp=0, sp=0, bp=0, *, rule: str = "master_class") -> str:
    """The master class with its stars, e.g. ``'Hjärtermästare ★★'`` (``SE_CLASS(gp, sp, bp)``).

    >>> master_class(0, 0, 2000), master_class(20, 300, 0), master_class(1, 0, 0)
    ('Rutermästare', 'Hjärtermästare', '')
    """
    name, stars = master_class_info(gp, sp, bp, rule=rule)
    return f"{name} {STAR * stars}" if stars else name


# --------------------------------------------------------------------------- section 7

RANKING_FACTORS = {
    # event kind -> (rp per gp, rp per sp)
    "silver": (0, 1),
    "gold": (15, Fraction(3, 2)),  # 'I guldtävlingar ger varje silverpoäng 1,5 rankingpoäng.'
    "sm-pairs-final": (9, Fraction(3, 2)),  # 'I SM-par final ger varje guldpoäng 9 rankingpoäng.'
    "allsvenskan-div3": (10, 1),  # gold converted from sp counts as the sp received
    "excluded": (0, 0),  # bonus, April/October silver, simultaneous, abroad, rally bonus, bronze
}
EXCLUDED = ("bonus", "april-silver", "october-silver", "simultaneous", "abroad", "rally-bonus", "bronze")


def ranking_points(points, unit: str, event: str = "silver", *, rule: str = "ranking_points") -> int:
    """Ranking points of one result, on the unrounded award ('22,5 gp ... ger 338 rp'); a problem names
    ``rule``.

    >>> ranking_points(22.5, "gp", "gold"), ranking_points(12, "sp"), ranking_points(10, "sp", "gold")
    (338, 12, 15)
    """
    points_given = amount(rule, "points", points)
    kind = str(event).strip().lower()
    if kind in EXCLUDED:
        kind = "excluded"
    if kind not in RANKING_FACTORS:
        raise RuleError("se.ranking.event", "{rule}: event must be one of {events}; got {value!r}",
                        rule=rule, argument="event", events=", ".join([*RANKING_FACTORS, *EXCLUDED]), value=event)
    typed, unit = unit, "" if unit is None else str(unit).strip().lower()
    if unit == "bp":
        return 0
    if unit not in ("gp", "sp"):
        raise _unit_problem(rule, typed)
    per_gp, per_sp = RANKING_FACTORS[kind]
    if unit == "gp" and kind == "silver":
        per_gp = 15  # gold earned in a silver-labelled list counts as gold
    factor = per_gp if unit == "gp" else per_sp
    return int(round_half_up(float(points_given * Fraction(factor)), 0))


def months_later(day: date, months: int) -> date:
    """The same day ``months`` calendar months later; the month's last day where that day does not exist
    (Excel's ``EDATE``).

    >>> months_later(date(2022, 6, 1), 24), months_later(date(2022, 8, 31), 24), months_later(date(2020, 2, 29), 24)
    (datetime.date(2024, 6, 1), datetime.date(2024, 8, 31), datetime.date(2022, 2, 28))
    """
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def ranking_total(results: Iterable[tuple[date, float]], as_of: date, best: int = 18, months: int = 24) -> float:
    """Ranking: the 18 best results of the last 24 months ('Resultat äldre än 24 månader stryks.
    Man får räkna sina 18 bästa resultat.').

    A result is *older than* 24 months once ``as_of`` is past the day 24 calendar months after it
    (:func:`months_later`): a result of 1 June 2022 still counts on 1 June 2024 and is struck from
    2 June 2024; one of 31 August 2022 counts up to 31 August 2024; one of 29 February 2020 up to
    28 February 2022.  Results after ``as_of`` do not count yet.

    >>> ranking_total([(date(2022, 6, 1), 12)], date(2024, 6, 1)), ranking_total([(date(2022, 6, 1), 12)], date(2024, 6, 2))
    (12.0, 0.0)
    """
    kept = []
    for when, rp in results:
        if not isinstance(when, date):
            raise RuleError("se.ranking.date", "ranking_total: each result needs a date; got {value!r}",
                            argument="results", value=when)
        value = float(amount("ranking_total", "ranking points", rp))
        if when <= as_of <= months_later(when, months):
            kept.append(value)
    return float(sum(sorted(kept, reverse=True)[:best]))


# --------------------------------------------------------------------------- section 8

CONVERSION_FEES = {"bronze": 7, "silver": 14, "gold": 50}


def convert_foreign(points, unit: str, country: str) -> float:
    """Foreign masterpoints in Swedish ones: 'Danska mästarpoäng konverteras 1:1'. Other countries need
    the event's details (place, field, pairs met, boards, finals) and are converted by the office."""
    value = amount("convert_foreign", "points", points)
    if str(unit).strip().lower() not in ("gp", "sp", "bp"):
        raise _unit_problem("convert_foreign", unit)
    if str(country).strip().lower() in ("dk", "denmark", "danmark", "danish", "dansk"):
        return float(value)
    raise RuleError(
        "se.conversion.country",
        "convert_foreign: only Danish points convert 1:1; {value!r} needs the event's details sent to the office (section 8)",
        argument="country", value=country,
    )


def conversion_fee(levels: Iterable[str]) -> float:
    """Fee for one registration: 7 kr per bronze, 14 per silver, 50 per gold event, at most 100 kr,
    at least 15 kr.

    >>> conversion_fee(["bronze"]), conversion_fee(["gold", "gold", "silver"]), conversion_fee(["silver", "bronze"])
    (15.0, 100.0, 21.0)
    """
    total = sum(CONVERSION_FEES[level_of("conversion_fee", level)] for level in levels)
    return float(min(100, max(15, total)))


def _unit_problem(rule: str, unit: str) -> RuleError:
    return RuleError("se.unit.unknown", "{rule}: unit must be gp, sp or bp; got {value!r}",
                     rule=rule, argument="unit", value=unit)
