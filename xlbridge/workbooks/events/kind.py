"""Reading and recalculating event sheets (:class:`EventSheets`, a recalculation kind).

A workbook may hold any number of event sheets (:mod:`.declaration`); every one
of them is recalculated.  Places come from the scores (highest first, equal
scores tie); the awards from the rule engine.  Every problem is typed and put at
its cell through the declaration: a rule problem about the option ``boards`` at
the Boards cell, about any other option at the Options cell, anything else about
the scheme at the Scheme cell.
"""

from __future__ import annotations

import datetime as dt

from typing import Any

from xlbridge.rules import awards, check_options, parse_options
from xlbridge.language import N_
from xlbridge.rules.problems import Problem
from xlbridge.rules.problems import RuleError
from xlbridge.values import as_number, as_text, is_blank, pair_key
from xlbridge.workbooks.book import BookAdapter, Grid, cell
from xlbridge.workbooks.declare import column_inserted, inserted_column
from xlbridge.workbooks.events.declaration import NEVER_READ
from xlbridge.workbooks.events.declaration import (BOARDS, EVENT, IN_PLACE_ORDER, NAMES, OPTIONS, PLACE, READER,
                                                   SCHEME, SCORE, UNIT, shown_unit)
from xlbridge.workbooks.plan import Block, BookInputError, Plan, LocatedProblem, at
from xlbridge.workbooks.typed_checks import cell_problem, spaced

TABLE = READER.table("results")
RANKED = READER.table("in_place_order")
FIRST_ROW, HEADER_ROW, COMPUTED_COL = TABLE.first_row, TABLE.header_row, TABLE.col(PLACE)


def ranks_by_score(scores: list[float | None]) -> list[int | None]:
    """Competition places, highest score first; None stays unranked.

    >>> ranks_by_score([50.0, 61.5, 50.0, None, 40.2])
    [2, 1, 2, None, 4]
    """
    present = [s for s in scores if s is not None]
    return [None if s is None else 1 + sum(o > s for o in present) for s in scores]


def is_event_sheet(grid: Grid) -> bool:
    """Laid out as an event sheet: ``Scheme`` in A3 or ``Place`` in D8 (one of the
    two is enough, so that a renamed label is reported instead of skipped)."""
    scheme = READER.setting(SCHEME)
    return cell(grid, scheme.row, scheme.label_col) == scheme.text() or \
        cell(grid, HEADER_ROW, COMPUTED_COL) == TABLE.column(PLACE).text()


def setting_of(problem: Problem, typed_in: dict[str, str] | None = None) -> str:
    """The setting a rule problem is about: the cell its option was typed in
    (``typed_in``: option name -> setting; ``boards`` may be typed in Boards or in
    Options), else the option ``boards``, another option, or the scheme (the field,
    the ranking, the scheme itself)."""
    typed_in = typed_in or {}
    if problem.option in typed_in:
        return typed_in[problem.option]
    if problem.option == BOARDS:
        return BOARDS
    if problem.option is not None:
        return OPTIONS
    return SCHEME


class EventSheets:
    """Every event sheet of a workbook (``xlbridge new tbf-club`` / ``se-masterpoints``)."""

    name = "event awards"
    never_read = NEVER_READ  # (the record of the last recalculation leaves them out)

    def recognises(self, book: BookAdapter) -> bool:
        return any(is_event_sheet(book.read(sheet)) for sheet in book.sheet_names())

    def plan(self, book: BookAdapter) -> Plan:
        plan = Plan()
        problems: list[LocatedProblem] = []
        for sheet in book.sheet_names():
            grid = book.read(sheet)
            if is_event_sheet(grid):
                try:
                    blocks = _sheet(sheet, grid)
                    plan.blocks.extend(blocks)
                    plan.blocks.append(in_place_order(sheet, grid, blocks))
                    plan.warnings += [w for r in range(FIRST_ROW, len(grid) + 1) if (w := spaced(
                        sheet, TABLE.cell(UNIT, r), cell(grid, r, TABLE.col(UNIT)), field=UNIT)) is not None]
                except BookInputError as error:
                    problems.extend(error.problems)
        if problems:
            raise BookInputError(problems)
        return plan


def _layout_problems(sheet: str, grid: Grid) -> list[LocatedProblem]:
    scheme = READER.setting(SCHEME)
    out = []
    found = cell(grid, scheme.row, scheme.label_col)
    if found != scheme.text():
        out.append(at(sheet, f"A{scheme.row}", "event.label", "expected the label Scheme (the scheme id goes in "
                      "{cell}); found {found!r}", field=SCHEME, cell=scheme.cell, found=found))
    header = TABLE.check_header(grid, sheet, only=(PLACE,))  # (the other headers are each kind's own words)
    if not header and _blank_header(grid):  # a column inserted right of Place: the table's computed columns moved
        col = inserted_column(grid, HEADER_ROW, lambda trial: not TABLE.header_problems(trial, sheet, only=(PLACE,))
                              and not _blank_header(trial))
        if col is not None:
            header = [column_inserted(sheet, HEADER_ROW, col, grid)]
    return out + header


def _blank_header(grid: Grid) -> bool:
    """Whether a header of the results table is blank (a column inserted into it has none)."""
    return any(is_blank(cell(grid, HEADER_ROW, TABLE.col(c.id))) for c in TABLE.columns)


#: A two-winner Mitchell on an event sheet (``movement=mitchell``, or one direction imported) -- TBF's.
MITCHELL = N_("{scheme} awards a two-winner Mitchell over both directions together (TBF section 8: a direction's "
              "k-th gets the mean of the overall 2k-1 and 2k places), which an event sheet of one ranking cannot: "
              "award it with xlbridge awards {scheme} --ranks (the NS places, then the EW places) --option "
              "movement=mitchell")


def _not_values(sheet: str, grid: Grid, problems: list[LocatedProblem]) -> set[str]:
    """The settings whose cell holds a formula or an error value (reported once, at the cell)."""
    bad = set()
    for name in (SCHEME, BOARDS, OPTIONS):
        setting = READER.setting(name)
        found = cell_problem(sheet, setting.cell, setting.value(grid), field=name)
        if found is not None:
            problems.append(found)
            bad.add(name)
    return bad


def _settings(sheet: str, grid: Grid, problems: list[LocatedProblem]) -> tuple[Any, dict[str, Any], dict[str, str],
                                                                               bool]:
    """The scheme, the options, where each option was typed (Boards or Options) and
    whether the settings can be checked (no problem of their own)."""
    start = len(problems)
    bad = _not_values(sheet, grid, problems)
    typed_in: dict[str, str] = {}
    scheme = READER.setting(SCHEME).value(grid)
    if SCHEME not in bad and not is_blank(scheme) and not isinstance(scheme, str):  # (a number: an unknown scheme)
        scheme = as_text(scheme)
    if SCHEME not in bad and (not isinstance(scheme, str) or not scheme.strip()):
        problems.append(at(sheet, READER.setting(SCHEME).cell, "event.scheme.empty",
                           "the scheme is empty (e.g. tr.club; xlbridge schemes lists them)", field=SCHEME))
    options: dict[str, Any] = {}
    boards = None if BOARDS in bad else READER.setting(BOARDS).value(grid)
    if boards is not None:
        number = as_number(boards)
        if number is None:
            problems.append(at(sheet, READER.setting(BOARDS).cell, "event.boards.text", "boards {value!r} is not a "
                               "number", field=BOARDS, value=boards))
        else:
            options["boards"] = int(number) if number == int(number) else number
            typed_in[BOARDS] = BOARDS
    text = None if OPTIONS in bad else READER.setting(OPTIONS).value(grid)
    if text is not None:
        try:
            typed = parse_options(str(text))
        except RuleError as error:
            problems.append(LocatedProblem(sheet, READER.setting(OPTIONS).cell, error.problem))
        else:
            if "boards" in typed and "boards" in options and as_number(typed["boards"]) != options["boards"]:
                problems.append(at(sheet, READER.setting(OPTIONS).cell, "event.boards.twice", "boards {options} here "
                                   "and {boards} in {cell}: type the boards once (the Boards cell)",
                                   field=OPTIONS, options=typed["boards"], boards=options["boards"],
                                   cell=READER.setting(BOARDS).cell))
            options.update(typed)
            typed_in.update({name: OPTIONS for name in typed})
            if str(typed.get("movement", "")).strip().lower() == "mitchell":  # (one list: no two directions)
                problems.append(at(sheet, READER.setting(OPTIONS).cell, "event.mitchell", MITCHELL, scheme=scheme))
    return scheme, options, typed_in, len(problems) == start


def _scores(sheet: str, grid: Grid, problems: list[LocatedProblem]) -> tuple[list[str], list[float | None]]:
    label = cell(grid, HEADER_ROW, TABLE.col(UNIT)) or "unit"
    units, scores = [], []
    seen: dict[str, int] = {}
    for row in range(FIRST_ROW, len(grid) + 1):
        typed = TABLE.row(grid, row) or {}  # (by column id)
        unit, score = typed.get(UNIT), typed.get(SCORE)
        if unit is None and score is None and is_blank(typed.get(NAMES)):
            units.append("")
            scores.append(None)
            continue
        units.append(str(unit if unit is not None else ""))
        number = as_number(score)
        where = TABLE.cell(SCORE, row)
        odd = [p for p in (cell_problem(sheet, TABLE.cell(UNIT, row), unit, field=UNIT),
                           cell_problem(sheet, TABLE.cell(NAMES, row), typed.get(NAMES), field=NAMES),
                           cell_problem(sheet, where, score, field=SCORE)) if p is not None]
        if odd:  # a formula or an error value: once, at its cell
            problems.extend(odd)
            scores.append(None)
            continue
        key = str(pair_key(unit)) if not is_blank(unit) else ""
        if key and key in seen:
            problems.append(at(sheet, TABLE.cell(UNIT, row), "event.unit.twice", "{label} {unit} is listed twice "
                               "(also row {other}); each unit has one row", field=UNIT, label=label, unit=unit,
                               other=seen[key]))
        elif key:
            seen[key] = row
        if is_blank(score):  # (a row of names only too: it counted as empty, one pair fewer in the field)
            problems.append(at(sheet, where, "event.score.empty", "{label} {unit}: the score is empty",
                               field=SCORE, label=label, unit=unit if not is_blank(unit) else typed.get(NAMES)))
        elif number is None:  # (a date in a score cell: as the scorer sees it, not as Python writes it)
            problems.append(at(sheet, where, "event.score.text", "score {value!r} is not a number", field=SCORE,
                               value=score.date().isoformat() if isinstance(score, dt.datetime) else score))
        elif number < 0:
            problems.append(at(sheet, where, "event.score.negative", "score {value!r} is negative", field=SCORE,
                               value=score))
        elif 0 < number < 1:  # Excel keeps "62.5%" typed in a cell as 0.625
            problems.append(at(sheet, where, "event.score.fraction", "score {value!r} is a fraction; a score typed "
                               "with % is kept as one (62.5% as 0.625): type the score as a number, e.g. {example}",
                               field=SCORE, value=score, example=_percent(number)))
        scores.append(number)
    return units, scores


def _percent(fraction: float) -> str:
    """``0.625`` as ``62.5`` (the score the scorer meant)."""
    return f"{fraction * 100:.4f}".rstrip("0").rstrip(".")


def _sheet(sheet: str, grid: Grid) -> list[Block]:
    problems = _layout_problems(sheet, grid)
    if problems:
        raise BookInputError(problems)
    scheme, options, typed_in, settings_ok = _settings(sheet, grid, problems)
    units, scores = _scores(sheet, grid, problems)
    if problems:
        if settings_ok:  # every problem at once: the scheme and options are checked all the same
            try:
                check_options(str(scheme), **options)
            except RuleError as error:
                problems.append(LocatedProblem(sheet, READER.setting(setting_of(error.problem, typed_in)).cell,
                                               error.problem))
        raise BookInputError(problems)
    placed = [i for i, s in enumerate(scores) if s is not None]
    values: Grid = [[None, None, None] for _ in scores]
    if placed:
        ranks = ranks_by_score([scores[i] for i in placed])
        try:
            result = awards(str(scheme), ranks, **options)
        except RuleError as error:
            where = READER.setting(setting_of(error.problem, typed_in)).cell
            raise BookInputError([LocatedProblem(sheet, where, error.problem)]) from None
        for i, rank, a in zip(placed, ranks, result):
            values[i] = [rank, a.points, shown_unit(a.unit_text)]  # "sp + 7 bp" when a tie shares two currencies
    # rows laid out but empty (a template's typed rows) are not written
    width = TABLE.first_col + TABLE.width() - 1
    while values and all(is_blank(cell(grid, FIRST_ROW + len(values) - 1, c)) for c in range(1, width + 1)):
        values.pop()
    if not values:
        return []
    headers = [cell(grid, HEADER_ROW, COMPUTED_COL + k) or "" for k in range(3)]
    formats = [c.number_format for c in TABLE.columns[COMPUTED_COL - TABLE.first_col:][:3]]
    return [Block(sheet, FIRST_ROW, COMPUTED_COL, values, what=sheet, rows=units, columns=headers, formats=formats)]


def in_place_order(sheet: str, grid: Grid, blocks: list[Block]) -> Block:
    """The sheet's results in place order right of its table (what a club prints):
    the rows with a place, by place (a tie in the typed order), under the table's own
    headers; the column left of it and the rows below blanked.  Not audited (it
    follows from the places)."""
    computed = {block.row + r: line for block in blocks for r, line in enumerate(block.values)}
    cols = [TABLE.col(c) for c in IN_PLACE_ORDER]
    placed = []
    for row in range(FIRST_ROW, len(grid) + 1):
        line = computed.get(row)
        if line and line[0] is not None:
            values = {c: cell(grid, row, c) for c in cols}
            values.update(zip(range(COMPUTED_COL, COMPUTED_COL + len(line)), line))
            placed.append((line[0], row, [values[c] for c in cols]))
    rows = [values for _, _, values in sorted(placed, key=lambda p: (p[0], p[1]))]
    header = [cell(grid, HEADER_ROW, c) for c in cols]
    # the rows below to blank: those of an earlier, longer result (not the empty rows laid out for typing)
    area = range(RANKED.first_col - 1, RANKED.first_col + len(cols))
    last = max((r for r in range(HEADER_ROW + 1, len(grid) + 1) if any(cell(grid, r, c) is not None for c in area)),
               default=HEADER_ROW)
    height = max(len(rows), last - HEADER_ROW)
    out: Grid = [[None, *header]] + [[None, *r] for r in rows]
    out += [[None] * (len(cols) + 1) for _ in range(height + 1 - len(out))]
    return Block(sheet, HEADER_ROW, RANKED.first_col - 1, out, what=sheet, audit=False, columns=["", *header],
                 formats=["General", *(TABLE.column(c).number_format for c in IN_PLACE_ORDER)])


__all__ = ["EventSheets", "ranks_by_score", "is_event_sheet", "setting_of", "in_place_order", "NAMES", "EVENT"]
