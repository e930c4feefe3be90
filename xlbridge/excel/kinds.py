"""The kinds of workbook xlbridge recalculates, each recognised by its own sheets.

The registry :data:`KINDS` is explicit; a kind is tried in this order.
"""

from __future__ import annotations

import math
from typing import Any

from xlbridge.awards import awards
from xlbridge.awards.base import RuleError
from xlbridge.excel.book import BookAdapter, Grid
from xlbridge.excel.recalc import Block, BookInputError, Plan, Problem, cell_name


def cell(grid: Grid, row: int, col: int) -> Any:
    """1-based read that tolerates short rows."""
    if row <= len(grid) and col <= len(grid[row - 1]):
        return grid[row - 1][col - 1]
    return None


def as_number(value: Any) -> float | None:
    """A typed number (text with a decimal comma too); None when it is not one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    try:
        number = float(str(value).strip().replace(",", "."))
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def ranks_by_score(scores: list[float | None]) -> list[int | None]:
    present = [s for s in scores if s is not None]
    return [None if s is None else 1 + sum(o > s for o in present) for s in scores]


class TbfClub:
    """The TBF club tournament workbook (``xlbridge new tbf-club``)."""

    name = "tbf-club"
    sheet = "Tournament"
    first_row = 9
    title_prefix = "TBF club tournament"

    def recognises(self, book: BookAdapter) -> bool:
        if self.sheet not in book.sheet_names():
            return False
        title = cell(book.read(self.sheet), 1, 1)
        return isinstance(title, str) and title.startswith(self.title_prefix)

    def plan(self, book: BookAdapter) -> Plan:
        grid = book.read(self.sheet)
        problems: list[Problem] = []
        scheme = cell(grid, 3, 2)
        if not isinstance(scheme, str) or not scheme.strip():
            problems.append(Problem(self.sheet, "B3", "the scheme is empty (e.g. tr.club)"))
        options: dict[str, Any] = {}
        boards = cell(grid, 4, 2)
        if boards is not None:
            number = as_number(boards)
            if number is None:
                problems.append(Problem(self.sheet, "B4", f"boards {boards!r} is not a number"))
            else:
                options["boards"] = number
        text = cell(grid, 5, 2)
        if text not in (None, ""):
            from xlbridge.awards import parse_options

            try:
                options.update(parse_options(str(text)))
            except RuleError as error:
                problems.append(Problem(self.sheet, "B5", str(error)))

        last = len(grid)
        pairs, scores = [], []
        for row in range(self.first_row, last + 1):
            pair, score = cell(grid, row, 1), cell(grid, row, 3)
            if pair is None and score is None:
                scores.append(None)
                pairs.append("")
                continue
            pairs.append(str(pair if pair is not None else ""))
            number = as_number(score)
            if score is None:
                problems.append(Problem(self.sheet, cell_name(row, 3), f"pair {pair}: the score is empty"))
            elif number is None:
                problems.append(Problem(self.sheet, cell_name(row, 3), f"score {score!r} is not a number"))
            elif not 0 <= number <= 100:
                problems.append(Problem(self.sheet, cell_name(row, 3), f"score {score!r} is not a percentage from 0 to 100"))
            scores.append(number)
        if problems:
            raise BookInputError(problems)
        placed = [i for i, s in enumerate(scores) if s is not None]
        values: Grid = [[None, None, None] for _ in scores]
        if placed:
            ranks = ranks_by_score([scores[i] for i in placed])
            try:
                result = awards(str(scheme), ranks, **options)
            except RuleError as error:
                raise BookInputError([Problem(self.sheet, "B3", str(error))]) from None
            for i, rank, a in zip(placed, ranks, result):
                values[i] = [rank, a.points, a.unit]
        plan = Plan()
        if values:
            plan.blocks.append(Block(self.sheet, self.first_row, 4, values, what=self.sheet,
                                     rows=pairs, columns=["Place", "MP", "Colour"]))
        return plan


from xlbridge.excel.bm_book import BridgeManiaSeason  # noqa: E402
from xlbridge.excel.heeg_book import HeegSeason  # noqa: E402

KINDS: list[Any] = [TbfClub(), BridgeManiaSeason(), HeegSeason()]
