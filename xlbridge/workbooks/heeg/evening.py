"""Reading one evening sheet of the Heeg season workbook into raw rows for
:func:`~xlbridge.clubs.heeg.records.parse_row`.

The columns are found through the declaration
(:func:`~xlbridge.workbooks.heeg.declaration.evening_table`): the round columns
R1..Rn from the header row, the headers checked by the one check of every kind
(:meth:`~xlbridge.workbooks.declare.Table.check_header`), each row read keyed by
column id (:meth:`~xlbridge.workbooks.declare.Table.row`).  Every problem is
located by sheet and cell as it is found; nothing is written.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from xlbridge.clubs.heeg.rules import ABSENT_CODES, MP_CODES, normalise_code
from xlbridge.rules.problems import RuleError
from xlbridge.values import as_number, as_text, is_blank, pair_key
from xlbridge.workbooks.book import Grid, cell
from xlbridge.workbooks.declare import Table, cell_ref, column_inserted, inserted_column
from xlbridge.workbooks.heeg.declaration import CHECKED_HEADERS, evening_table
from xlbridge.workbooks.plan import LocatedProblem, at
from xlbridge.workbooks.typed_checks import cell_problem, spaced

__all__ = ["EveningRow", "EveningSheet", "read_evening", "typed_code"]


@dataclass
class EveningRow:
    row: int  # sheet row
    key: Any
    label: str  # pair as shown
    mp_from_rounds: float | None  # the MP total computed from R1..Rn (None when not)


@dataclass
class EveningSheet:
    """One evening sheet as read: its rounds (the R1..Rn headers found), the rows
    with a pair and the raw rows for the season (``raw``: sheet row and the values
    by engine field, ``in_doubt`` on a row with a problem reported here)."""

    name: str
    day: dt.date
    grid: Grid
    rounds: int
    rows: list[EveningRow] = field(default_factory=list)
    raw: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    last_row: int = 1
    warnings: list[LocatedProblem] = field(default_factory=list)  # typed values replaced or not counted

    @property
    def table(self) -> Table:
        """The typed columns of this sheet (the computed ones need the periods: :func:`evening_table`)."""
        return evening_table(self.rounds, ())

    def columns(self) -> dict[str, int]:
        """The sheet column of every typed column id."""
        table = self.table
        return {c.id: table.col(c.id) for c in table.typed()}


def _rounds(grid: Grid, first: int) -> int:
    """How many round columns R1, R2, ... the header row has from column ``first``."""
    rounds = 0
    while re.fullmatch(r"[Rr]\d+", as_text(cell(grid, 1, first + rounds))) and \
            as_text(cell(grid, 1, first + rounds)).upper() == f"R{rounds + 1}":
        rounds += 1
    return rounds


def _header_problems(grid: Grid, name: str) -> list[LocatedProblem]:
    """The header check of an evening sheet, whose table has the rounds its header row has."""
    return evening_table(_rounds(grid, evening_table(1, ()).col("r1")), ()).header_problems(grid, name,
                                                                                           only=CHECKED_HEADERS)


def read_evening(name: str, day: dt.date, grid: Grid, problems: list[LocatedProblem]) -> EveningSheet | None:
    """Check one evening sheet and read its rows (``EveningSheet.raw``: the season's input)."""
    if not (grid[0] if grid else []):
        problems.append(at(name, None, "heeg.evening.empty", "the sheet is empty; expected the header row Pair, Names, "
                           "Line, R1..R6, C, C, MP, max, inv, ..."))
        return None
    sheet = EveningSheet(name, day, grid, _rounds(grid, evening_table(1, ()).col("r1")))
    table = sheet.table
    found = _header_problems(grid, name)
    if found:
        col = inserted_column(grid, 1, lambda trial: not _header_problems(trial, name))  # (before R1 too: the
        problems.extend([column_inserted(name, 1, col, grid)] if col is not None else found)  # rounds moved)
        return None
    seen: dict[Any, int] = {}
    cols = sheet.columns()
    for row in range(table.first_row, len(grid) + 1):
        values = table.row(grid, row)  # (by column id)
        if values is None or all(is_blank(values[c]) for c in cols):
            continue
        sheet.last_row = row
        _read_row(sheet, cols, row, values, seen, problems)
    return sheet


def _in_doubt(sheet: EveningSheet, row: int, values: dict[str, Any], key: Any) -> None:
    """A row with a problem reported here: the season does not check or score it,
    but counts it as a pair of its line (the line's maximum must not drop because
    of one mistyped cell, docs/clubs/heeg.md §11.3) -- also when its inv code says
    absent but it has a result typed (which of the two is the typo is the scorer's to
    say: the pair was most likely at a table)."""
    result = any(not is_blank(values[c]) for c in ("mp", "combi_mp", *(f"r{i}" for i in range(1, sheet.rounds + 1))))
    sheet.raw.append((row, {"date": sheet.day, "pair": key, "names": None,
                            "line": as_text(values["line"]) or None, "mp": None,
                            "code": None if result else typed_code(values["code"]), "combi_mp": None,
                            "in_doubt": True}))


def typed_code(value: Any) -> Any:
    """The inv code as typed, with ``'=`` read as ``=``: Excel keeps a typed ``'=`` as
    ``=``, but a cell formatted as text (or another program) keeps the apostrophe."""
    return "=" if isinstance(value, str) and value.strip() == "'=" else value


def _typed_checks(sheet: EveningSheet, cols: dict[str, int], row: int, values: dict[str, Any], key: Any,
                  typed_rounds: list[float], problems: list[LocatedProblem]) -> bool:
    """Typed values the rules would otherwise ignore or replace without a word
    (docs/clubs/heeg.md, "Typed values never silently replaced"): problems (the
    row is not scored: False) and warnings (:attr:`EveningSheet.warnings`).  The MP
    of a ``2`` or ``=`` row is the pair's table result (it counts for the line) and is
    kept without a word: the code gives its % by the rule."""
    name = sheet.name
    try:
        code = normalise_code(typed_code(values["code"]))
    except RuleError:
        return True  # the season reports the unknown code at its cell
    mp_raw, combi = values["mp"], values["combi_mp"]
    total = float(sum(typed_rounds)) if typed_rounds else None
    mp_ref, combi_ref = cell_ref(row, cols["mp"]), cell_ref(row, cols["combi_mp"])
    where = {"evening": sheet.day, "pair": key, "row": row}
    typed_mp = total if total is not None else (None if is_blank(mp_raw) else mp_raw)
    ok = True
    if typed_mp is not None and code in ABSENT_CODES:
        problems.append(at(name, mp_ref if total is None else cell_ref(row, cols["r1"]), "heeg.mp.absent",
                           "MP {value} typed for a pair marked absent ({code}); clear the MP (and rounds) or correct "
                           "the inv code", field="mp", value=typed_mp, code=code, **where))
        ok = False
    if not is_blank(combi) and code in ("s", "s1"):
        problems.append(at(name, combi_ref, "heeg.combi-mp.sit-out", "combi MP {value} with inv {code}: the combi "
                           "round replaces the sit-out, so the sit-out correction would count it twice; clear the "
                           "{code} or the combi MP", field="combi_mp", value=combi, code=code, **where))
        ok = False
    if code in ("s", "s1") and len(typed_rounds) >= sheet.rounds:  # (the 6/5 of a sit-out for a pair at every table)
        problems.append(at(name, cell_ref(row, cols["code"]), "heeg.rounds.sit-out-played", "inv {code} with all "
                           "{typed} rounds typed: a pair that sat out has one round empty; clear the round it sat "
                           "out, or the {code}", field="code", code=code, typed=len(typed_rounds), value=code,
                           **where))
        ok = False
    if not is_blank(combi) and len(typed_rounds) >= sheet.rounds:
        problems.append(at(name, combi_ref, "heeg.rounds.too-many", "{typed} rounds and a combi MP make {count} "
                           "rounds; the evening has {rounds}: clear the round played at the combi table",
                           field="combi_mp", typed=len(typed_rounds), count=len(typed_rounds) + 1,
                           rounds=sheet.rounds, value=combi, **where))
        ok = False
    if total is not None and not is_blank(mp_raw) and code in MP_CODES:
        mp = as_number(mp_raw)
        if mp is None or (abs(mp - total) > 1e-9 and not _written_before(sheet, row, mp, code)):
            sheet.warnings.append(at(name, mp_ref, "heeg.mp.not-rounds", "MP {value} is not the sum of the rounds "
                                     "({total}); the sum counts and replaces it", field="mp", value=mp_raw,
                                     total=total, **where))  # (shown as typed by LocatedProblem)
    return ok


def _written_before(sheet: EveningSheet, row: int, mp: float, code: str) -> bool:
    """Whether the MP cell holds the sum the previous recalculation wrote (a round
    corrected since: the change goes on Corrections, no warning), not an MP typed over
    it: the row's % is then the % of that MP (``% = (MP + C) x factor / max``)."""
    table = evening_table(sheet.rounds, ())
    pct, top = (as_number(cell(sheet.grid, row, table.col(c))) for c in ("pct", "evening_max"))
    combi = as_number(cell(sheet.grid, row, table.col("c_corrected"))) or 0.0
    if pct is None or not top:
        return False
    factor = sheet.rounds / (sheet.rounds - 1) if code in ("s", "s1") and sheet.rounds > 1 else 1.0
    return abs(pct * top / 100 / factor - combi - mp) <= 1e-6 * max(1.0, top)


def _read_row(sheet: EveningSheet, cols: dict[str, int], row: int, values: dict[str, Any], seen: dict[Any, int],
              problems: list[LocatedProblem]) -> None:
    """One pair's row (``cols``: the sheet column of every typed column id; ``values``: the row by column id)."""
    name = sheet.name
    raw_pair = values["pair"]
    found = [p for c, col in cols.items() if (p := cell_problem(name, cell_ref(row, col), values[c],
                                                                evening=sheet.day, row=row)) is not None]
    if found:  # a formula or an error value: reported once at its cell, the row in doubt
        problems.extend(found)
        bad_pair = any(p.cell == cell_ref(row, cols["pair"]) for p in found)
        _in_doubt(sheet, row, values, None if bad_pair or is_blank(raw_pair) else pair_key(raw_pair))
        return
    if is_blank(raw_pair):
        problems.append(at(name, cell_ref(row, cols["pair"]), "heeg.evening.pair-empty", "pair is empty (type the "
                           "pair number, or clear the row)", evening=sheet.day, field="pair", row=row))
        _in_doubt(sheet, row, values, None)
        return
    key = pair_key(raw_pair)
    sheet.warnings += [w for w in [spaced(name, cell_ref(row, cols["pair"]), raw_pair, evening=sheet.day, row=row)]
                       if w]
    if key in seen:
        problems.append(at(name, cell_ref(row, cols["pair"]), "heeg.evening.pair-twice", "pair {typed} is on this "
                           "evening twice (rows {first} and {second}); one row per pair", evening=sheet.day,
                           pair=key, field="pair", typed=raw_pair, first=seen[key], second=row, row=row))
        _in_doubt(sheet, row, values, None)
        return
    seen[key] = row
    typed_rounds, round_ok = [], True
    for i in range(1, sheet.rounds + 1):
        raw = values[f"r{i}"]
        if is_blank(raw):
            continue
        n = as_number(raw)
        where = {"evening": sheet.day, "pair": key, "round": i, "field": f"r{i}", "value": raw, "row": row}
        if n is None:
            problems.append(at(name, cell_ref(row, cols[f"r{i}"]), "heeg.round.not-a-number",
                               "MP {value!r} in round {round} is not a number", **where))
            round_ok = False
        elif n < 0:
            problems.append(at(name, cell_ref(row, cols[f"r{i}"]), "heeg.round.negative",
                               "MP {value!r} in round {round} is negative", **where))
            round_ok = False
        else:
            typed_rounds.append(n)
    if not round_ok or not _typed_checks(sheet, cols, row, values, key, typed_rounds, problems):
        _in_doubt(sheet, row, values, key)
        return
    mp_from_rounds = float(sum(typed_rounds)) if typed_rounds else None
    sheet.raw.append((row, {
        "date": sheet.day,
        "pair": key,
        "names": as_text(values["names"]) or None,
        "line": as_text(values["line"]) or None,
        "mp": mp_from_rounds if mp_from_rounds is not None else values["mp"],
        "code": typed_code(values["code"]),
        "combi_mp": values["combi_mp"],
        "in_doubt": False,
        **{f"r{i}": values[f"r{i}"] for i in range(1, sheet.rounds + 1)},  # (each within its maximum)
    }))
    sheet.rows.append(EveningRow(row, key, str(key), mp_from_rounds))
