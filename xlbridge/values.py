"""How a typed cell becomes a value: one home for numbers, blanks, text, dates and keys.

A value arrives from a worksheet cell (openpyxl headless; Office.js through
xlwings in Excel, where a whole number is a float, a blank is ``""`` and a date
is ISO text ending in ``Z``), from a pandas frame, or from Python.  Every layer
reads it through these functions, so that ``"2,5"``, ``2.5`` and ``" 2.5 "`` are
the same number everywhere and pair ``7``, ``7.0`` and ``"7"`` the same pair.

>>> as_number(3), as_number(" 2,5 "), as_number("1O3"), as_number(True), as_number(float("nan"))
(3.0, 2.5, None, None, None)
>>> is_blank(None), is_blank("  "), is_blank(float("nan")), is_blank(0)
(True, True, True, False)
>>> pair_key(7.0), pair_key(" 7 "), pair_key("NS3")
(7, 7, 'NS3')
>>> as_text(12.0), as_text(None), as_text(" Anna "), label(1.0)
('12', '', 'Anna', '1')
>>> as_date("2025-09-04T00:00:00.000Z"), as_date("4 Sept"), as_whole("6"), as_whole(6.5)
(datetime.date(2025, 9, 4), None, 6, None)

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from fractions import Fraction
from typing import Any

__all__ = ["is_blank", "is_number", "as_number", "exact", "as_whole", "as_text", "as_date", "pair_key", "label"]

_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][0-9:.]*Z?)?")


def is_blank(value: Any) -> bool:
    """An empty cell: ``None``, blank text or NaN (a pandas gap)."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return isinstance(value, str) and not value.strip()


def is_number(value: Any) -> bool:
    """A finite int or float (not a bool)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def as_number(value: Any) -> float | None:
    """A typed number (text with a decimal comma too); ``None`` when it is not one
    (text, a flag, NaN or an infinity)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:  # a whole number beyond any float (10**400)
            return None
    elif isinstance(value, str):
        try:
            number = float(value.strip().replace(",", "."))
        except ValueError:
            return None
    else:
        try:
            number = float(value)  # numpy scalars, Decimal, Fraction
        except (TypeError, ValueError, OverflowError):
            return None
    return number if math.isfinite(number) else None


def exact(value: Any) -> Fraction:
    """A number as an exact fraction, a float by its shortest decimal -- the number
    as typed and shown (``0.1`` is 1/10, not the binary float nearest to it).
    Standings compare and rank on exact values (docs/clubs/heeg.md §6.1).

    >>> exact(0.1), exact(3), exact(Fraction(1, 3)), exact(" 2,5 ")
    (Fraction(1, 10), Fraction(3, 1), Fraction(1, 3), Fraction(5, 2))
    """
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return Fraction(value)
    number = value if isinstance(value, float) else as_number(value)
    if number is None or not math.isfinite(number):
        raise ValueError(f"not a finite number: {value!r}")
    if number.is_integer() and abs(number) < 2**53:  # its shortest decimal is itself (a board score): no parsing
        return Fraction(int(number))
    return Fraction(repr(float(number)))


def as_whole(value: Any) -> int | None:
    """A typed whole number (``6``, ``6.0``, ``"6"``); ``None`` otherwise."""
    number = as_number(value)
    return int(number) if number is not None and number.is_integer() else None


def as_text(value: Any) -> str:
    """A name, id or code as text: ``""`` for a blank, a whole number without its
    ``.0`` (Excel sends 12 as 12.0), a date as ISO text, other text stripped."""
    if is_blank(value):
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()[:10]
    return str(value).strip()


def as_date(value: Any) -> dt.date | None:
    """A typed date: a date or datetime (openpyxl, desktop Excel, pandas), ISO text
    (``2025-09-04``; Office.js sends ``2025-09-04T00:00:00.000Z``) or Excel's day number
    of it (xlwings-server up to 1.16 sends a date in a format of its own, such as
    ``yyyy-mm-dd``, as its number: 45904 is 2025-09-04).

    >>> as_date(45904), as_date(45904.75), as_date(0), as_date(True)
    (datetime.date(2025, 9, 4), datetime.date(2025, 9, 4), None, None)
    """
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return day_of(value)
    if isinstance(value, str):
        match = _ISO_DATE.fullmatch(value.strip())
        if match:
            try:
                return dt.date(int(match[1]), int(match[2]), int(match[3]))
            except ValueError:
                return None
    return None


#: Excel's day 0 (its 1900 date system, from 1900-03-01 on) and its last day (9999-12-31).
EXCEL_EPOCH = dt.datetime(1899, 12, 30)
LAST_DAY_NUMBER = 2958465


def day_of(number: float) -> dt.date | None:
    """The date of Excel's day ``number`` (1 to 2958465), else None."""
    if not 1 <= number <= LAST_DAY_NUMBER:  # (NaN too)
        return None
    return (EXCEL_EPOCH + dt.timedelta(days=float(number))).date()


def pair_key(value: Any) -> int | str:
    """A pair's identity: whole numbers as int (7, 7.0 and "7" are pair 7), other text stripped."""
    whole = as_whole(value)
    return whole if whole is not None else str(value).strip()


def label(value: Any) -> str:
    """A label such as a period: ``1``, ``1.0`` and ``"1"`` are the same label."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()
