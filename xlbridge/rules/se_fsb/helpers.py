"""Svenska Mästarpoäng 2009: what every Swedish scheme shares.

Document: *Svenska Mästarpoäng -- Regler gällande från 1 april 2009*, Rev 1.1
(MME 090427), Förbundet Svensk Bridge (``docs/sources/000_b38bcd2d61619209.txt``).

Sections implemented here:

- 1 (Att samla mästarpoäng): the currencies and their values (1 gp = 10 sp = 100 bp),
  all decimals rounded up;
- 5 (Tävlingarna): "Delad placering" (:func:`share_places`), team events are always
  tie-broken (:func:`no_ties`), the A-final's winner (:func:`a_final_winner`);
- 9 (MP-tabeller), table D: the boards coefficient (:func:`boards_coefficient`), the
  winner when not all met all (:func:`met_winner`), the 100-point cap (:data:`SILVER_CAP`).

References:
    Förbundet Svensk Bridge, Svenska Mästarpoäng, regler gällande från 1 april 2009,
    Rev 1.1 (MME 090427), sections 1, 5 and 9 (table D).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from xlbridge.rules.base import Award, Ranks, RuleError, tie_groups
from xlbridge.rules.problems import N_, translate
from xlbridge.rules.se_fsb import tables as t

SOURCE = "FSB Svenska Mästarpoäng 2009, Rev 1.1"
DECIMALS = 0  # every figure is a whole number: "alla decimaler avrundas uppåt"
VALUE = {"gp": 100, "sp": 10, "bp": 1}  # section 1: 1 gp = 10 sp = 100 bp
BRONZE_MIN = 4
Cell = tuple[float, str]

ceil = t.ceil


#: The words a field is counted in (``need_units``), said in the language spoken.
UNIT_WORDS = {"pairs": N_("pairs"), "teams": N_("teams"), "players": N_("players")}


def need_units(scheme: str, word: str, value: int, minimum: int) -> None:
    """The field has at least ``minimum`` pairs, teams or players (``word``)."""
    if value < minimum:
        raise RuleError("se.field.too-small", "{scheme} needs at least {minimum} {what}; got {value}",
                        scheme=scheme, argument="field", minimum=minimum, what=translate(UNIT_WORDS.get(word, word)),
                        value=value)


def need_boards(scheme: str, boards: int, minimum: int) -> None:
    """At least ``minimum`` boards were played (option ``boards``)."""
    if boards < minimum:
        raise boards_problem(scheme, boards, minimum)


def boards_problem(scheme: str, boards: int, minimum: int) -> RuleError:
    """Too few boards: fewer than ``minimum`` were played."""
    return RuleError("se.boards.too-few", "{scheme} needs at least {minimum} boards; got {value}",
                     scheme=scheme, option="boards", minimum=minimum, value=boards)


def no_ties(scheme: str, ranks: Ranks) -> None:
    """'I lagtävlingar ska alltid särskiljning tillämpas vid utdelande av mp.'"""
    for rank, count in tie_groups(ranks).items():
        if count > 1:
            raise RuleError(
                "se.ranks.team-tie",
                "{scheme}: team events are always tie-broken ('I lagtävlingar ska alltid särskiljning "
                "tillämpas'); place {place} is shared by {count} teams",
                scheme=scheme, argument="ranks", place=int(rank), count=count,
            )


def share_places(
    ranks: Ranks, cells: Sequence[Cell], *, last_minimum: dict[str, float] | None = None, zero_unit: str = "bp"
) -> list[Award]:
    """Section 5 'Delad placering': 'Par som delar en placering, delar lika på de poäng som de berörda
    placeringarna ger tillsammans och alla decimaler avrundas uppåt.'

    ``cells[p - 1]`` is the award ``(points, unit)`` of untied place ``p``.  Tied units share
    the points of their places **currency by currency**: places worth 6 sp and 14 bp
    together give each of two tied pairs 3 sp + 7 bp (one :class:`Award` with a part in
    each currency, the most valuable first).  Each currency's share is rounded up to a
    whole point, so the ``k`` tied units together receive, in each currency, the places'
    total rounded up to a multiple of ``k`` -- at most ``k - 1`` points more than the
    places give, never less.  'Delad sista bp-plats ger 4 bp till alla som delar
    platsen': when a tie reaches past the last awarded place, the currency of that last
    place is paid at least ``last_minimum[unit]`` to everybody in it (4 bp in bronze,
    8 bp for doubled bronze, 12 bp for tripled).

    >>> share_places([1, 2, 3, 4, 4], [(16, "sp"), (11, "sp"), (8, "sp"), (6, "sp"), (14, "bp")])[3]
    Award(points=3.0, unit='sp', also=((7.0, 'bp'),))
    """
    out: dict[float, Award] = {}
    for rank, count in tie_groups(ranks).items():
        first = int(rank)
        inside = [cells[p - 1] for p in range(first, first + count) if p <= len(cells)]
        if not inside:
            out[rank] = Award(0.0, zero_unit, DECIMALS)
            continue
        totals: dict[str, Fraction] = {}
        for points, unit in inside:
            totals[unit] = totals.get(unit, Fraction(0)) + Fraction(points)
        shares = {unit: -(-total // count) for unit, total in totals.items()}  # rounded up, exactly
        last_unit = inside[-1][1]
        if count > len(inside) and last_minimum and last_unit in last_minimum:
            shares[last_unit] = max(shares[last_unit], Fraction(last_minimum[last_unit]))
        order = sorted(shares, key=lambda unit: -VALUE.get(unit, 0))
        parts = [(float(shares[unit]), unit) for unit in order if shares[unit] > 0]
        if not parts:
            out[rank] = Award(0.0, inside[0][1], DECIMALS)
            continue
        (points, unit), *also = parts
        out[rank] = Award(points, unit, DECIMALS, also=tuple(also))
    return [Award(0.0, zero_unit, DECIMALS) if r is None else out[r] for r in ranks]


def cells_of(values: Sequence[int], unit: str) -> list[Cell]:
    return [(float(v), unit) for v in values]


def halve(values: Sequence[Cell], minimum: int) -> list[Cell]:
    return [(float(max(minimum, ceil(p / 2))), u) for p, u in values]


def bronze_row(family: str, n: int) -> list[int]:
    return [p for p, _ in t.row(family, n)]


def red_cells(family: str, field: int, after: int, factor: int = 1, *, lowest_silver: float | None = None,
              last: int | None = None) -> list[Cell]:
    """Bronze x ``factor`` in red from the bronze table ``family``'s row for ``field``: places ``after`` + 1
    to one third of the field (or ``last``), a place beyond the row at the minimum 4 bp.  'Om antalet
    bronspoäng för bästa placering överskrider antalet silverpoäng för lägsta placering sker reducering':
    with ``lowest_silver``, bronze is never worth more than the lowest silver award (1 sp = 10 bp)."""
    scale = bronze_row(family, field)
    end = t.third(field) if last is None else last
    red = [(float(factor * (scale[p - 1] if p <= len(scale) else BRONZE_MIN)), "bp") for p in range(after + 1, end + 1)]
    if lowest_silver is None:
        return red
    return [(min(p, lowest_silver * 10), u) for p, u in red]


def boards_coefficient(boards: int) -> float:
    """Table D: 'Om antalet brickor är minst 100 utdelas poäng efter 1,2 x poängantalet ... För varje
    fullt 50-tal brickor därutöver ökas koefficienten med 0,2 (150-199 brickor 1,4, 200-249 brickor 1,6 osv.)'

    >>> boards_coefficient(99), boards_coefficient(100), boards_coefficient(150), boards_coefficient(249)
    (1.0, 1.2, 1.4, 1.6)
    """
    if boards < 100:
        return 1.0
    return round(1.2 + 0.2 * ((boards - 100) // 50), 9)


def met_winner(field: int, met: int) -> int:
    """Table D: 'Om inte alla mött alla, blir segrarens poäng summan av 1 (egna paret) + antalet par man
    mött + hälften av det antal par man inte mött. Decimaler avrundas uppåt.'

    >>> met_winner(60, 30), met_winner(200, 30), met_winner(142, 29)
    (46, 116, 86)
    """
    return ceil(1 + met + (field - 1 - met) / 2)


def a_final_winner(qual_rounds: int, final_rounds: int, total: int) -> int:
    """Page 4: a) rounds in qualification + A-final, b) plus 1, c) plus (total pairs minus (a + 1)) / 2
    rounded up; a + b + c = silver points of the A-final's winner.

    >>> a_final_winner(12, 12, 60)
    43
    """
    a = qual_rounds + final_rounds
    return a + 1 + ceil((total - (a + 1)) / 2)


SILVER_CAP = 100  # 'Dock får poängen ej överstiga 100 oavsett koefficient.'


# -- the arguments of the plain functions (sections 2, 3, 7, 8)


def amount(rule: str, name: str, value) -> Fraction:
    """A number of points (or kronor) given to a plain function: blank is 0, never negative."""
    if value is None or value == "":
        return Fraction(0)
    if isinstance(value, bool):
        raise _not_a_number(rule, name, value)
    try:
        number = Fraction(str(value).strip().replace(",", ".")) if isinstance(value, str) else Fraction(value)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        raise _not_a_number(rule, name, value) from None
    if number < 0:
        raise RuleError("se.number.negative", "{rule}: {argument} must not be negative; got {value!r}",
                        rule=rule, argument=name, value=value)
    if number > MAX_AMOUNT:  # (1e70 points: decimal.InvalidOperation further on; 1e60: a silent result)
        raise RuleError("se.number.too-large", "{rule}: {argument} {value!r} is more than {maximum:,}, the largest "
                        "that makes sense", rule=rule, argument=name, value=value, maximum=MAX_AMOUNT)
    return number


#: The largest number of points (or kronor) a plain function takes: far above any player's holding or fee
#: (docs/reliability.md, "Bounds of the numbers in rules").
MAX_AMOUNT = 10**9


def _not_a_number(rule: str, name: str, value) -> RuleError:
    return RuleError("se.number.not-a-number", "{rule}: {argument} must be a number; got {value!r}",
                     rule=rule, argument=name, value=value)


LEVELS = ("bronze", "silver", "gold")


def level_of(rule: str, level: str) -> str:
    text = str(level).strip().lower()
    aliases = {"brons": "bronze", "guld": "gold", "bp": "bronze", "sp": "silver", "gp": "gold"}
    text = aliases.get(text, text)
    if text not in LEVELS:
        raise RuleError("se.level.unknown", "{rule}: level must be bronze, silver or gold; got {value!r}",
                        rule=rule, argument="level", value=level)
    return text
