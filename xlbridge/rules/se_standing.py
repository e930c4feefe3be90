"""Svenska Mästarpoäng 2009: a player's standing and the federation's bookkeeping.

Plain functions (re-exported by :mod:`xlbridge.rules.se_fsb`):

- section 2, master classes: :func:`master_class`, :func:`master_class_info`;
- section 3, fees: :func:`sessions`, :func:`fee`, :func:`manual_report_fee`;
- sections 4-5, sanctions: :func:`silver_sanction_violations`, :func:`gold_sanction_violations`,
  :func:`silver_events_allowed`;
- section 7, ranking: :func:`ranking_points`, :func:`ranking_total`;
- section 8, foreign points: :func:`convert_foreign`, :func:`conversion_fee`.

Every function raises :class:`~xlbridge.rules.base.RuleError` with the rule and
the value for input that makes no sense.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import cache

from xlbridge.rules.base import RuleError, load_table, round_half_up

STAR = "★"


def _amount(rule: str, name: str, value) -> Fraction:
    if value is None or value == "":
        return Fraction(0)
    if isinstance(value, bool):
        raise RuleError(f"{rule}: {name} must be a number; got {value!r}")
    try:
        number = Fraction(str(value).strip().replace(",", ".")) if isinstance(value, str) else Fraction(value)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        raise RuleError(f"{rule}: {name} must be a number; got {value!r}") from None
    if number < 0:
        raise RuleError(f"{rule}: {name} must not be negative; got {value!r}")
    return number


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


def master_class_info(gp=0, sp=0, bp=0) -> tuple[str, int]:
    """``(class name, stars)`` for holdings in gold, silver and bronze points ('' if below 2 mp).

    >>> master_class_info(0, 0, 2000)   # 'Med enbart bp blir man rutermästare med 20 mp'
    ('Rutermästare', 0)
    >>> master_class_info(0, 0, 1999)
    ('Klövermästare', 3)
    """
    rule = "master_class"
    g, s, b = _amount(rule, "gp", gp), _amount(rule, "sp", sp), _amount(rule, "bp", bp)
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


def master_class(gp=0, sp=0, bp=0) -> str:
    """The master class with its stars, e.g. ``'Hjärtermästare ★★'`` (``SE_CLASS(gp, sp, bp)``).

    >>> master_class(0, 0, 2000), master_class(20, 300, 0), master_class(1, 0, 0)
    ('Rutermästare', 'Hjärtermästare', '')
    """
    name, stars = master_class_info(gp, sp, bp)
    return f"{name} {STAR * stars}" if stars else name


# --------------------------------------------------------------------------- section 3


@cache
def _fees() -> dict[tuple[str, str], float]:
    return {(r["level"], r["kind"]): float(r["kr"]) for r in load_table("se_fees")}


LEVELS = ("bronze", "silver", "gold")


def _level(rule: str, level: str) -> str:
    text = str(level).strip().lower()
    aliases = {"brons": "bronze", "guld": "gold", "bp": "bronze", "sp": "silver", "gp": "gold"}
    text = aliases.get(text, text)
    if text not in LEVELS:
        raise RuleError(f"{rule}: level must be bronze, silver or gold; got {level!r}")
    return text


def sessions(level: str, kind: str, boards: int, *, series: bool = False) -> float:
    """'Speltillfälle' (section 3): how many sessions one event or match counts as.

    Pairs: bronze -- at least 18 boards 1, fewer 1/2 (each evening of a multi-evening
    event separately); silver and gold events 1.  Teams: a match of at least 24 boards 1,
    12-23 boards 1/2, 6-11 boards in a series or cup 1/4; a gold event 1.

    >>> sessions("bronze", "pairs", 24), sessions("bronze", "pairs", 16), sessions("silver", "teams", 8, series=True)
    (1.0, 0.5, 0.25)
    """
    rule = "sessions"
    level = _level(rule, level)
    if kind not in ("pairs", "teams", "barometer"):
        raise RuleError(f"{rule}: kind must be pairs, teams or barometer; got {kind!r}")
    if boards < 1:
        raise RuleError(f"{rule}: boards must be at least 1; got {boards}")
    if kind == "barometer" or level == "gold":
        return 1.0  # 'En lagbarometer räknas som ett speltillfälle', 'En guldtävling är ett speltillfälle'
    if kind == "pairs":
        if level == "silver":
            return 1.0
        return 1.0 if boards >= 18 else 0.5
    if boards >= 24:
        return 1.0
    if boards >= 12:
        return 0.5
    if boards >= 6 and series:
        return 0.25
    raise RuleError(f"{rule}: a team match of {boards} boards is no session (6-11 boards only in a series or cup)")


def fee(level: str, kind: str, players: int, session_count: float = 1.0) -> float:
    """Club fee in kronor: players x sessions x the rate of section 3.

    >>> fee("silver", "pairs", 40), fee("silver", "teams", 24, 0.5), fee("silver", "barometer", 32)
    (200.0, 36.0, 160.0)
    """
    rule = "fee"
    level = _level(rule, level)
    if kind not in ("pairs", "teams", "barometer"):
        raise RuleError(f"{rule}: kind must be pairs, teams or barometer; got {kind!r}")
    if kind == "barometer" and level != "silver":
        kind = "teams" if level == "gold" else "pairs"
    if players < 0 or session_count < 0:
        raise RuleError(f"{rule}: players and sessions must not be negative; got {players}, {session_count}")
    return round(_fees()[(level, kind)] * players * session_count, 2)


def manual_report_fee(bp=0, sp=0, gp=0) -> float:
    """Odd event forms reported by hand: 0.50 kr per bp, 1 kr per sp, 20 kr per gp.

    >>> manual_report_fee(bp=100, sp=10, gp=1)
    80.0
    """
    f = _fees()
    rule = "manual_report_fee"
    return float(_amount(rule, "bp", bp) * Fraction(str(f[("bronze", "manual_per_point")]))
                 + _amount(rule, "sp", sp) * Fraction(str(f[("silver", "manual_per_point")]))
                 + _amount(rule, "gp", gp) * Fraction(str(f[("gold", "manual_per_point")])))


# --------------------------------------------------------------------------- sections 4-5


@cache
def _minima() -> dict[str, dict[str, str]]:
    return {r["kind"]: r for r in load_table("se_silver_minima")}


def club_weight(members: int) -> int:
    """'Klubb med 100-199 medlemmar räknas som två klubbar och 200 och fler som tre klubbar.'"""
    return 1 if members < 100 else 2 if members < 200 else 3


def silver_events_allowed(members: int) -> int:
    """Silver events a club may be sanctioned per season: five per 'club' (100-199 members two clubs,
    200+ three), of which at most three on weekdays for the smallest clubs.

    >>> silver_events_allowed(80), silver_events_allowed(150), silver_events_allowed(250)
    (5, 10, 15)
    """
    if members < 0:
        raise RuleError(f"silver_events_allowed: members must not be negative; got {members}")
    return 5 * club_weight(members)


def silver_sanction_violations(kind: str, units: int, boards: int, participants: Mapping[str, int] | None = None,
                               members: Mapping[str, int] | None = None, championship: bool = False) -> list[str]:
    """Why an event may not carry silver status (empty list: it may).

    ``kind``: pairs, teams, barometer or individual; ``units`` pairs/teams/players;
    ``participants``: players per club; ``members``: club sizes (for the 100/200 rules).

    >>> silver_sanction_violations("pairs", 14, 40)
    ['pairs: at least 16 pairs needed for silver; got 14', 'pairs: 36-41 boards are played on half the silver scale; got 40']
    """
    rule = kind
    if kind not in ("pairs", "teams", "barometer", "individual"):
        raise RuleError(f"silver_sanction_violations: kind must be pairs, teams, barometer or individual; got {kind!r}")
    row = _minima()["championship" if championship and kind == "pairs" else kind]
    out: list[str] = []
    word = {"pairs": "pairs", "teams": "teams", "barometer": "teams", "individual": "players"}[kind]
    if units < int(row["min_units"]):
        out.append(f"{rule}: at least {row['min_units']} {word} needed for silver; got {units}")
    half = int(row["half_scale_from"]) if row["half_scale_from"] else None
    if boards < int(row["min_boards"]):
        if half and boards >= half:
            out.append(f"{rule}: {half}-{int(row['min_boards']) - 1} boards are played on half the silver scale; got {boards}")
        else:
            out.append(f"{rule}: at least {row['min_boards']} boards needed for silver; got {boards}")
    if participants:
        members = members or {}
        total = sum(participants.values())
        weights = {club: club_weight(members.get(club, 0)) for club in participants}
        if kind in ("pairs", "individual"):
            clubs = sum(weights.values())
            if clubs < 5:
                out.append(f"{rule}: participants from at least five clubs needed for silver; got {clubs}")
            if not championship and total:
                # a club counting as w clubs is split into w equal parts
                parts = sorted((n / weights[c] for c, n in participants.items() for _ in range(weights[c])), reverse=True)
                for k, limit in ((1, 50), (2, 70), (3, 90)):
                    share = 100 * sum(parts[:k]) / total
                    if share > limit + 1e-9:
                        out.append(f"{rule}: {k} club(s) hold {share:.1f} % of the participants; at most {limit} % allowed")
        else:
            clubs = sum(weights.values())
            if clubs < 2:
                out.append(f"{rule}: a team event with silver needs two clubs (a club of 100+ members counts as two); got {clubs}")
            if not championship and total:
                biggest = max(participants, key=participants.get)
                if weights[biggest] == 1 and 100 * (total - participants[biggest]) / total < 20 - 1e-9:
                    out.append(f"{rule}: a club under 100 members needs at least 20 % from other clubs; got "
                               f"{100 * (total - participants[biggest]) / total:.1f} %")
    return out


def gold_sanction_violations(kind: str, units: int, boards: int) -> list[str]:
    """Why an event may not carry gold status: at least 28 pairs/players and 54 boards, 57 boards from
    32 pairs/players (three gold places), at least 16 teams.

    >>> gold_sanction_violations("pairs", 34, 54)
    ['pairs: 32 or more pairs must play at least 57 boards; got 54']
    """
    if kind not in ("pairs", "individual", "teams"):
        raise RuleError(f"gold_sanction_violations: kind must be pairs, individual or teams; got {kind!r}")
    out: list[str] = []
    word = {"pairs": "pairs", "individual": "players", "teams": "teams"}[kind]
    if kind == "teams":
        if units < 16:
            out.append(f"teams: at least 16 teams needed for gold; got {units}")
        return out
    if units < 28:
        out.append(f"{kind}: at least 28 {word} needed for gold; got {units}")
    if boards < 54:
        out.append(f"{kind}: at least 54 boards needed for gold; got {boards}")
    elif units >= 32 and boards < 57:
        out.append(f"{kind}: 32 or more {word} must play at least 57 boards; got {boards}")
    return out


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


def ranking_points(points, unit: str, event: str = "silver") -> int:
    """Ranking points of one result, on the unrounded award ('22,5 gp ... ger 338 rp').

    >>> ranking_points(22.5, "gp", "gold"), ranking_points(12, "sp"), ranking_points(10, "sp", "gold")
    (338, 12, 15)
    """
    rule = "ranking_points"
    amount = _amount(rule, "points", points)
    kind = str(event).strip().lower()
    if kind in EXCLUDED:
        kind = "excluded"
    if kind not in RANKING_FACTORS:
        raise RuleError(f"{rule}: event must be one of {', '.join([*RANKING_FACTORS, *EXCLUDED])}; got {event!r}")
    unit = str(unit).strip().lower()
    if unit == "bp":
        return 0
    if unit not in ("gp", "sp"):
        raise RuleError(f"{rule}: unit must be gp, sp or bp; got {unit!r}")
    per_gp, per_sp = RANKING_FACTORS[kind]
    if unit == "gp" and kind == "silver":
        per_gp = 15  # gold earned in a silver-labelled list counts as gold
    factor = per_gp if unit == "gp" else per_sp
    return int(round_half_up(float(amount * Fraction(factor)), 0))


def ranking_total(results: Iterable[tuple[date, float]], as_of: date, best: int = 18, months: int = 24) -> float:
    """Ranking: the 18 best results of the last 24 months ('Resultat äldre än 24 månader stryks.
    Man får räkna sina 18 bästa resultat.')."""
    month = as_of.month - months % 12
    year = as_of.year - months // 12 - (1 if month < 1 else 0)
    month = month + 12 if month < 1 else month
    day = min(as_of.day, 28 if month == 2 else 30 if month in (4, 6, 9, 11) else 31)
    cutoff = date(year, month, day)
    kept = []
    for when, rp in results:
        if not isinstance(when, date):
            raise RuleError(f"ranking_total: each result needs a date; got {when!r}")
        value = float(_amount("ranking_total", "ranking points", rp))
        if cutoff < when <= as_of:
            kept.append(value)
    return float(sum(sorted(kept, reverse=True)[:best]))


# --------------------------------------------------------------------------- section 8

CONVERSION_FEES = {"bronze": 7, "silver": 14, "gold": 50}


def convert_foreign(points, unit: str, country: str) -> float:
    """Foreign masterpoints in Swedish ones: 'Danska mästarpoäng konverteras 1:1'. Other countries need
    the event's details (place, field, pairs met, boards, finals) and are converted by the office."""
    amount = _amount("convert_foreign", "points", points)
    if str(unit).strip().lower() not in ("gp", "sp", "bp"):
        raise RuleError(f"convert_foreign: unit must be gp, sp or bp; got {unit!r}")
    if str(country).strip().lower() in ("dk", "denmark", "danmark", "danish", "dansk"):
        return float(amount)
    raise RuleError(
        f"convert_foreign: only Danish points convert 1:1; {country!r} needs the event's details sent to the office (section 8)"
    )


def conversion_fee(levels: Iterable[str]) -> float:
    """Fee for one registration: 7 kr per bronze, 14 per silver, 50 per gold event, at most 100 kr,
    at least 15 kr.

    >>> conversion_fee(["bronze"]), conversion_fee(["gold", "gold", "silver"]), conversion_fee(["silver", "bronze"])
    (15.0, 100.0, 21.0)
    """
    total = sum(CONVERSION_FEES[_level("conversion_fee", level)] for level in levels)
    return float(min(100, max(15, total)))
