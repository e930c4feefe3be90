"""BridgeMania championship points (PTS): the three tables of the club's rules.

Document: *Regolamento 24^ Campionato BridgeMania 2019-2020* ("La Ricalibratura
della storia"), Italian, ``docs/sources/004_e33e1ee257b1898e.txt``.

Sections implemented here:

- C.03 "PTS - Punteggi Torneo Speciali (solo coppie base)": Tab.1 *F1 FAST*
  (``bm.f1-fast``), Tab.2 *IndyCar HARD* (``bm.indycar-hard``), Tab.3 *F1 HIBRYD*
  (``bm.f1-hybrid``, by place and number of tables 3, 3.5, ..., 6+);
  the waiting-list / illness row ("In lista di Attesa/Malattia": 8,417 / 28,667 /
  Tab.3's "a" row), "Impossibilitato" = 0; averaged ties ("pari-merito");
  the single extra PTS ("1 SOLO PTS EXTRA") for the highest hand of the night.

The tables live in ``xlbridge/rules/data/bm_f1_fast.csv``,
``bm_indycar_hard.csv`` and ``bm_f1_hybrid.csv``.  The average rows are *not*
stored: they are the mean of the table's places (all 12 rows of Tab.1/Tab.2, the
2*T places of Tab.3's column for T tables), rounded as printed (3 decimals for
Tab.1/Tab.2, 2 decimals for Tab.3) -- ``tests/rules/test_bm_tables.py`` checks that this
reproduces every printed figure.

Decisions (argued in ``docs/clubs/bridgemania.md``):

- ``field`` / the ranking counts *all* pairs of the tournament, guests included:
  a base pair earns the points of the place it took in the single tournament
  ranking; the points of places taken by guests are not given to anybody
  ("i punteggi ottenuti dalle Coppie Ospiti non saranno assegnati").
- Tab.3's column is the number of tables = ranked pairs / 2 (11 pairs = 5.5
  tables); 12 or more pairs use the "6+" column; fewer than 6 pairs (3 tables)
  is not a valid tournament.  ``tables=`` overrides it (``5,5``, ``6+``).
- A place beyond the last printed row (a base pair 13th or 14th behind guests, 6+
  tables) earns 0 in all three tables: "Il punteggio è quello univoco della
  posizione acquisita" -- a place earns its own points, and the tables print none
  for XIII°; the points of XII° belong to XII°.
- Tied places share the mean of their points (C.03 example), rounded half up to 3
  decimals as the document prints 12,333 and 32,333.  The document's Tab.3
  example "(13+11+9)/3 = 12,000" is a misprint: 33/3 = 11,000.
- ``extra=yes`` adds the 1 extra PTS (the caller decides who earns it).

References:
    Regolamento 24^ Campionato BridgeMania 2019-2020, Sezione C.03 (Tab.1, Tab.2,
    Tab.3, pari-merito, PTS EXTRA, Impossibilitato, Lista di Attesa, Malattia).

>>> from xlbridge.rules import award, awards
>>> award("bm.f1-fast", 6, 11).points, award("bm.indycar-hard", 6, 6).points
(8.0, 28.0)
>>> [a.points for a in awards("bm.f1-fast", [1, 2, 3, 3, 3, 6])]
[25.0, 18.0, 12.333, 12.333, 12.333, 8.0]
>>> award("bm.f1-hybrid", 1, 11).points, award("bm.f1-hybrid", 1, 11, status="ill").points
(22.0, 9.64)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

from xlbridge.rules.base import Award, Option, Ranks, RuleError, SchemeBase, load_table, round_half_up, share_ties

__all__ = [
    "SCHEMES", "F1Fast", "IndyCarHard", "F1Hybrid", "HYBRID_COLUMNS", "fixed_table", "hybrid_table", "average_points",
    "hybrid_column", "parse_tables", "STATUSES",
]

SOURCE = "Regolamento 24^ Campionato BridgeMania 2019-2020"
UNIT = "pts"
#: The statuses a base pair can have in one tournament (option ``status``).
STATUSES = ("played", "waiting", "ill", "unable")
#: Tab.3's columns, as printed, best first.
HYBRID_COLUMNS = ("6+", "5.5", "5", "4.5", "4", "3.5", "3")
TIE_DECIMALS = 3


@cache
def fixed_table(name: str) -> tuple[float, ...]:
    """Tab.1 (``bm_f1_fast``) or Tab.2 (``bm_indycar_hard``): points of places 1..12."""
    rows = load_table(name)
    points = tuple(float(row["points"]) for row in rows)
    if [int(row["place"]) for row in rows] != list(range(1, len(rows) + 1)):
        raise RuntimeError(f"{name}.csv: places must run 1, 2, 3, ...")
    return points


@cache
def hybrid_table() -> dict[str, tuple[float, ...]]:
    """Tab.3: column (``"6+"``, ``"5.5"``, ... ``"3"``) -> points of its places.

    >>> hybrid_table()["3"]
    (12.0, 8.0, 6.0, 4.0, 2.0, 1.0)
    """
    rows = load_table("bm_f1_hybrid")
    table: dict[str, tuple[float, ...]] = {}
    for column in HYBRID_COLUMNS:
        values = [row[column].strip() for row in rows]
        filled = [v for v in values if v]
        if values[: len(filled)] != filled:
            raise RuntimeError(f"bm_f1_hybrid.csv: column {column} has a gap")
        table[column] = tuple(float(v) for v in filled)
    return table


def parse_tables(scheme: str, value: Any) -> str:
    """Text or number of tables -> a Tab.3 column name.

    >>> parse_tables("x", "5,5"), parse_tables("x", 7), parse_tables("x", "6+"), parse_tables("x", 3)
    ('5.5', '6+', '6+', '3')
    """
    text = str(value).strip().replace(",", ".")
    if text.endswith("+"):
        text = text[:-1].strip()
    try:
        tables = float(text)
    except ValueError:
        raise RuleError("bm.tables.not-a-number", "{scheme}: tables must be a number of tables such as 4,5 or 6+; "
                        "got {value!r}", scheme=scheme, option="tables", value=value) from None
    if not math.isfinite(tables * 2) or tables * 2 != int(tables * 2):  # (1e308 doubles to infinity)
        raise RuleError("bm.tables.not-half", "{scheme}: tables must be whole or half tables; got {value!r}",
                        scheme=scheme, option="tables", value=value)
    if tables < 3:
        raise RuleError("bm.tables.too-few",
                        "{scheme}: a BridgeMania tournament needs at least 3 tables (6 pairs); got {value!r} tables",
                        scheme=scheme, option="tables", value=value)
    if tables >= 6:
        return "6+"
    return f"{tables:g}"


def hybrid_column(scheme: str, pairs: int) -> str:
    """Tab.3 column for a tournament of ``pairs`` pairs (11 pairs = 5.5 tables).

    >>> hybrid_column("x", 11), hybrid_column("x", 6), hybrid_column("x", 14)
    ('5.5', '3', '6+')
    """
    if pairs < 6:
        raise RuleError("bm.field.too-small",
                        "{scheme}: a BridgeMania tournament needs at least 3 tables (6 pairs); got {pairs} pairs",
                        scheme=scheme, argument="field", pairs=pairs)
    return parse_tables(scheme, pairs / 2)


def average_points(points: Sequence[float], decimals: int) -> float:
    """The printed waiting-list / illness row: the mean of a table's places.

    >>> average_points(fixed_table("bm_f1_fast"), 3), average_points(hybrid_table()["5.5"], 2)
    (8.417, 9.64)
    """
    return round_half_up(sum(points) / len(points), decimals)


class _BridgeMania(SchemeBase):
    units: ClassVar[tuple[str, ...]] = (UNIT,)
    source: ClassVar[str] = SOURCE
    average_decimals: ClassVar[int] = 3
    table: ClassVar[str] = ""  # Tab.1 and Tab.2: the one column of every field
    options: ClassVar[Mapping[str, Option]] = {
        "status": Option("status", "str", "played", "played | waiting (lista di attesa) | ill (malattia): the "
                         "table's average row | unable (impossibilitato): 0", STATUSES),
        "extra": Option("extra", "bool", False, "add the 1 extra PTS for the highest hand of the night"),
    }

    def column(self, ranks: Ranks, options: Mapping[str, Any]) -> tuple[float, ...]:
        return fixed_table(self.table)

    def awards(self, ranks: Ranks, options: Mapping[str, Any]) -> list[Award]:
        status = options.get("status", "played")
        extra = 1.0 if options.get("extra", False) else 0.0
        points = self.column(ranks, options)
        if extra and status != "played":
            raise RuleError("bm.extra.not-played", "{scheme}: the extra PTS goes to a pair that played; status is {status}",
                            scheme=self.id, option="extra", status=status)
        if status == "unable":
            return [Award(0.0, UNIT, 3) for _ in ranks]
        if status in ("waiting", "ill"):
            value = average_points(points, self.average_decimals)
            return [Award(value, UNIT, 3) for _ in ranks]

        def place_value(place: int) -> float:
            return points[place - 1] if place <= len(points) else 0.0

        shares = share_ties(ranks, place_value)
        return [
            Award(0.0 if rank is None else round_half_up(share, TIE_DECIMALS) + extra, UNIT, 3)
            for rank, share in zip(ranks, shares)
        ]


class F1Fast(_BridgeMania):
    id = "bm.f1-fast"
    title = "BridgeMania Tab.1 F1 FAST (PTS by place, any number of pairs)"
    section = "C.03 Tab.1"
    table = "bm_f1_fast"


class IndyCarHard(_BridgeMania):
    id = "bm.indycar-hard"
    title = "BridgeMania Tab.2 IndyCar HARD (PTS by place, any number of pairs)"
    section = "C.03 Tab.2"
    table = "bm_indycar_hard"


class F1Hybrid(_BridgeMania):
    id = "bm.f1-hybrid"
    title = "BridgeMania Tab.3 F1 HIBRYD (PTS by place and number of tables 3 ... 6+)"
    section = "C.03 Tab.3"
    average_decimals = 2
    options: ClassVar[Mapping[str, Option]] = {
        **_BridgeMania.options,
        "tables": Option("tables", "str", "", "number of tables (3, 3,5, ... 6+); default: pairs in the ranking / 2"),
    }

    def column(self, ranks: Ranks, options: Mapping[str, Any]) -> tuple[float, ...]:
        ranked = [r for r in ranks if r is not None]
        given = options.get("tables", "")
        if given:
            name = parse_tables(self.id, given)
        else:
            name = hybrid_column(self.id, len(ranked))
        points = hybrid_table()[name]
        if name != "6+":
            worst = max(ranked, default=1.0)
            if worst > len(points):
                raise RuleError(
                    "bm.place.beyond-table",
                    "{scheme}: place {place} does not exist with {tables} tables ({count} pairs); "
                    "check tables= or the ranking",
                    scheme=self.id, place=int(worst), tables=name, count=len(points),
                    **({"option": "tables"} if given else {"argument": "ranks"}),
                )
        return points


SCHEMES = (F1Fast(), IndyCarHard(), F1Hybrid())
