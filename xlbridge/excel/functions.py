"""Worksheet functions: one short call into the engine each.

Each docstring is the help text Excel shows.  Arguments arrive from Excel as
cells or ranges; a bad argument returns a short readable text starting with
``#xlbridge:`` instead of a Python traceback, in :data:`MESSAGES_LANGUAGE` (a
workbook's ``main.py`` sets its own: a Dutch workbook's =HEEG_PCT says *is geen getal*
as its Recalculate season button does).  Every function is a plain Python
function too (``from xlbridge.excel.functions import award``).
"""

# No ``from __future__ import annotations`` here: xlwings' dispatch calls
# typing.get_type_hints() on every call, and string annotations are compiled anew
# each time (about a quarter of a single AWARD call, see docs/performance.md).

import functools
from collections.abc import Callable
from typing import Annotated, Any

import xlwings as xw

from xlbridge.language import speaking
from xlbridge.rules import award as engine_award
from xlbridge.rules import awards as engine_awards
from xlbridge.rules import Option, RuleError, parse_options
from xlbridge.rules.tr_tbf import mastery_points, title
from xlbridge.values import day_of

CATEGORY = "xlbridge"
ERROR_PREFIX = "#xlbridge: "
#: The language of the messages in a cell: English, but in a workbook's ``main.py`` (xlwings Lite: one
#: workbook per runtime), which sets the workbook's own (:mod:`xlbridge.excel.bundle`).  The names and help
#: of the functions and the units they give (green, sp) stay English (docs/languages.md).
MESSAGES_LANGUAGE = "en"

Scheme = Annotated[str, {"doc": "Scheme id, e.g. \"tr.club\" (xlbridge schemes lists them)."}]
Place = Annotated[float, {"doc": "Final place (1 = first)."}]
Field = Annotated[Any, {"doc": "Number of pairs/teams/players, or the range of all final places (equal = tied, blank = not ranked; blanks after the last place are no pairs)."}]
Ranks = Annotated[Any, {"doc": "The range of final places, one cell per pair/team/player (equal = tied, blank = not ranked; blanks after the last place are no pairs)."}]
Options = Annotated[str, {"doc": "Optional settings as text, e.g. \"boards=26; movement=mitchell\"."}]
Number = Annotated[float, {"doc": "A number (blank = 0)."}]
INCLUDE_WHITE = Option("include_white", "bool", True, "count white (online) MP")


def _flatten(value: Any) -> Any:
    """A range arrives as a list (1-D) or a list of rows (2-D): make it one list."""
    if isinstance(value, (list, tuple)):
        flat: list[Any] = []
        for item in value:
            flat.extend(_flatten(item) if isinstance(item, (list, tuple)) else [item])
        return flat
    return value


def _column(value: Any) -> list[Any]:
    """A range or a single cell as one list of values."""
    return _flatten(value) if isinstance(value, (list, tuple)) else [value]


def _ranking(value: Any) -> Any:
    """A range of places as one list without the blank cells after the last place: a range taken longer
    than the field (a template's 20 rows for 14 pairs, a whole column) counts the pairs that are there.  A
    blank between places stays a unit without a place, counted in the field.  A number stays a number."""
    if not isinstance(value, (list, tuple)):
        return value
    places = _flatten(value)
    end = len(places)
    while end and (places[end - 1] is None or isinstance(places[end - 1], str) and not places[end - 1].strip()):
        end -= 1
    return places[:end]


def _options(text: Any) -> dict[str, str]:
    if text is None or (isinstance(text, str) and not text.strip()):
        return {}
    return parse_options(str(text))


def _number_argument(function: str, name: str, value: Any) -> float:
    """A numeric argument (blank = 0) or a message naming the function and argument."""
    if value is None or value == "":
        return 0.0
    if not isinstance(value, bool):
        try:
            return float(str(value).replace(",", ".")) if isinstance(value, str) else float(value)
        except (TypeError, ValueError):
            pass
    raise RuleError("fn.not-a-number", "{function}: {argument} must be a number; got {value!r}", function=function,
                    argument=name, value=value)


def cell_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn any exception into ``#xlbridge: message`` for the cell."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ValueError as error:  # RuleError and friends: already readable (a template, in the language)
            with speaking(MESSAGES_LANGUAGE):
                return ERROR_PREFIX + str(error)
        except Exception as error:  # noqa: BLE001 - a cell must never show a traceback
            return f"{ERROR_PREFIX}unexpected {type(error).__name__}: {error}"

    return wrapper


@xw.func(category=CATEGORY)
@cell_errors
def award(scheme: Scheme, place: Place, field: Field, options: Options = None):
    """Masterpoint award (points) for one final place. Example: =AWARD("tr.club", 1, 26, "boards=24") gives 0.62."""
    return engine_award(scheme, place, _ranking(field), **_options(options)).points


@xw.func(category=CATEGORY)
@cell_errors
def award_unit(scheme: Scheme, place: Place, field: Field, options: Options = None):
    """Unit of the award for one final place (green, yellow, bp, sp, ...). Example: =AWARD_UNIT("tr.club", 1, 26) gives green. A Swedish tie across currencies adds its further parts: sp + 7 bp."""
    return engine_award(scheme, place, _ranking(field), **_options(options)).unit_text


@xw.func(category=CATEGORY)
@cell_errors
def awards(scheme: Scheme, ranks: Ranks, options: Options = None):
    """Awards of a whole ranking: spills two columns (points, unit), one row per place of the ranks range, down to its last place."""
    return [[a.points, a.unit_text] for a in engine_awards(scheme, _column(_ranking(ranks)), **_options(options))]


@xw.func(category=CATEGORY)
@cell_errors
def tbf_mastery(yellow: Number = None, red: Number = None, green: Number = None, white: Number = None,
                include_white: Annotated[bool, {"doc": "Count white (online) MP? Default TRUE."}] = True):
    """TBF mastery points (ustalık puanı) from the yellow, red, green and white MP totals."""
    totals = [_number_argument("TBF_MASTERY", name, value)
              for name, value in (("yellow", yellow), ("red", red), ("green", green), ("white", white))]
    return mastery_points(*totals, include_white=INCLUDE_WHITE.convert("TBF_MASTERY", include_white))


@xw.func(category=CATEGORY)
@cell_errors
def tbf_title(mastery: Number, yellow: Number = None):
    """TBF title (Tablo-5) reached with these mastery points and yellow MP; empty text when none."""
    return title(_number_argument("TBF_TITLE", "mastery", mastery), _number_argument("TBF_TITLE", "yellow", yellow))


# ------------------------------------------------------------------ BridgeMania (xlbridge.clubs.bridgemania)

BoardScores = Annotated[Any, {"doc": "The board scores of one pair as typed (0-2-4-...-TOP); R = sit-out (TOP/2); blanks are skipped."}]
Top = Annotated[float, {"doc": "The TOP of the tournament (an even number: 2 x (rows - 1))."}]
Penalty = Annotated[float, {"doc": "Optional penalty points (D.04), subtracted from the sum; default 0."}]
StandingRanks = Annotated[Any, {"doc": "The places of the pairs in one of the three standings (blank = not eligible)."}]
TieBreak = Annotated[Any, {"doc": "Optional tie-break column, one cell per pair (tournaments played / TOPs / POTs)."}]


@xw.func(category=CATEGORY)
@cell_errors
def bm_pct(scores: BoardScores, top: Top, penalty: Penalty = None):
    """BridgeMania tournament score (C.02): (sum of board scores - penalty) / (boards x TOP) in %, 2 decimals. Example: =BM_PCT({8,4,6,0,"R"}, 8) gives 55."""
    from xlbridge.clubs.bridgemania import bm_pct as engine_bm_pct

    return engine_bm_pct(_column(scores), top, penalty or 0)


@xw.func(category=CATEGORY)
@cell_errors
def bm_final(ranks1: StandingRanks, ranks2: StandingRanks, ranks3: StandingRanks, played: TieBreak = None,
             tops: TieBreak = None, pots: TieBreak = None):
    """BridgeMania final places (C.04, Ricalibratura): 2 points per place in each standing, summed, lowest first; ties broken by fewer tournaments played, more TOPs, fewer POTs. Spills one column."""
    from xlbridge.clubs.bridgemania import bm_final as engine_bm_final

    def column(value: Any) -> Any:  # (a tie-break left out, or one blank cell: none)
        return None if value is None else _column(value)

    places = engine_bm_final(_column(ranks1), _column(ranks2), _column(ranks3), column(played), column(tops),
                             column(pots))
    return [["" if place is None else place] for place in places]


# ------------------------------------------------------------------ Heeg (xlbridge.clubs.heeg)

HeegMP = Annotated[Any, {"doc": "The pair's MP of the evening (own-line tables plus the corrected combi MP); blank for 0, a, 2, =."}]
HeegMax = Annotated[Any, {"doc": "The evening's maximum MP of the pair's line (rounds x boards x the line's top)."}]
HeegCode = Annotated[Any, {"doc": "The inv code: blank, 1, 2, 0, a, s, s1 or =."}]
HeegEgs = Annotated[Any, {"doc": "Optional EGS: the pair's own average % earlier in the period (blank or 0 = none yet)."}]
HeegNth = Annotated[Any, {"doc": "Optional: which 'a' of the pair this is (1, 2, 3, ...); default 1."}]
HeegRounds = Annotated[Any, {"doc": "Optional rounds per evening for the sit-out factor rounds/(rounds-1); default 6."}]


@xw.func(category=CATEGORY)
@cell_errors
def heeg_pct(mp: HeegMP, max_mp: HeegMax, code: HeegCode, egs: HeegEgs = None, nth_absence: HeegNth = None,
             rounds: HeegRounds = None):
    """Heeg evening % after the inv correction (1, 2, 0, a, s, s1, =). Example: =HEEG_PCT(150, 288, "s") gives 62.5 (150 x 6/5 of 288)."""
    from xlbridge.clubs.heeg import heeg_pct as engine_heeg_pct

    return engine_heeg_pct(mp, max_mp, code, egs=egs, nth_absence=1 if nth_absence is None else nth_absence, rounds=rounds)


@xw.func(category=CATEGORY)
@cell_errors
def heeg_c(points: Annotated[Any, {"doc": "MP scored at the combi table (the first C column)."}],
           own_top: Annotated[Any, {"doc": "The top of the pair's own line (e.g. 12 for 14 pairs)."}],
           combi_top: Annotated[Any, {"doc": "The top of the combi table (10 for 12 pairs)."}]):
    """Heeg corrected combi MP: points x own line's top / combi table top. Example: =HEEG_C(20, 8, 10) gives 16."""
    from xlbridge.clubs.heeg import heeg_c as engine_heeg_c

    return engine_heeg_c(points, own_top, combi_top)


# ---------------------------------------------------------------- Svenska Mästarpoäng 2009

Holding = Annotated[float, {"doc": "Points held (blank = 0)."}]
Column = Annotated[Any, {"doc": "A range: one cell per result."}]


@xw.func(category=CATEGORY)
@cell_errors
def se_class(gp: Holding = None, sp: Holding = None, bp: Holding = None):
    """Swedish master class (mästarklass) with its stars from gold, silver and bronze points; empty text below 2 mp."""
    from xlbridge.rules.se_fsb import master_class

    return master_class(*(_number_argument("SE_CLASS", name, value) for name, value in (("gp", gp), ("sp", sp), ("bp", bp))),
                        rule="SE_CLASS")


@xw.func(category=CATEGORY)
@cell_errors
def se_ranking(points: Column, units: Column, events: Column, dates: Column,
               as_of: Annotated[Any, {"doc": "Date the ranking is for (blank = the latest result)."}] = None):
    """Swedish ranking points (section 7): the 18 best results of the last 24 months; one row per result: points, unit (gp/sp/bp), event kind (silver, gold, ...), date."""
    from xlbridge.rules.se_fsb import ranking_points, ranking_total

    rows = _result_rows(points, units, events, dates)
    if not rows:
        return 0
    results = [(day, ranking_points(p, u, e or "silver", rule="SE_RANKING")) for p, u, e, day in rows]
    return ranking_total(results, _as_date(as_of) if as_of not in (None, "") else max(day for *_, day in rows))


def _as_date(value: Any):
    import datetime as dt

    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):  # an Excel serial date
        day = day_of(value)
        if day is None:
            raise RuleError("fn.date.serial", "SE_RANKING: {value!r} is not a date (an Excel date is a serial from 1 "
                            "to 2958465)", argument="dates", value=value)
        return day
    try:
        return dt.date.fromisoformat(str(value).strip()[:10])
    except ValueError:
        raise RuleError("fn.date.not-a-date", "SE_RANKING: {value!r} is not a date", argument="dates",
                        value=value) from None


def _result_rows(points: Any, units: Any, events: Any, dates: Any) -> list[tuple[Any, Any, Any, Any]]:
    columns = [_column(c) for c in (points, units, events, dates)]
    if len({len(c) for c in columns}) != 1:
        raise RuleError("fn.se-ranking.sizes", "SE_RANKING: points, units, events and dates must be ranges of the "
                        "same size; got {sizes}", argument="points", sizes=", ".join(str(len(c)) for c in columns))
    rows = []
    for p, u, e, d in zip(*columns):
        if p in (None, "") and u in (None, ""):
            continue
        rows.append((p, u, e, _as_date(d)))
    return rows


#: The worksheet functions (what ``from xlbridge.excel.functions import *`` gives a
#: workbook's ``main.py``).
__all__ = ["award", "award_unit", "awards", "tbf_mastery", "tbf_title", "bm_pct", "bm_final", "heeg_pct", "heeg_c",
           "se_class", "se_ranking"]
