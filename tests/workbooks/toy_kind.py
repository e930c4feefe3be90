"""A toy workbook kind, declared outside the package (tests/workbooks/test_toy_kind.py registers it):
one sheet ``Toy`` with a typed column (Score) and a computed one (Double, twice the score)."""

from __future__ import annotations

from xlbridge.workbooks.book import BookAdapter, cell
from xlbridge.workbooks.kinds import Button, WorkbookKind
from xlbridge.workbooks.plan import Block, Plan

SHEET = "Toy"
HEADERS = ("Score", "Double")


class ToySheet:
    """Recognises the Toy sheet by its header and doubles every score."""

    name = "toy"

    def recognises(self, book: BookAdapter) -> bool:
        return SHEET in book.sheet_names() and cell(book.read(SHEET), 1, 1) == HEADERS[0]

    def plan(self, book: BookAdapter) -> Plan:
        grid = book.read(SHEET)
        doubled = [[2 * score if isinstance(score := cell(grid, row, 1), int | float) else None]
                   for row in range(2, len(grid) + 1)]
        return Plan(blocks=[Block(SHEET, 2, 2, doubled, what="toy", columns=HEADERS[1:])])


def build(blank: bool = False):
    """The toy workbook: three scores, or (``blank``) none."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = SHEET
    sheet.append(HEADERS)
    for score in () if blank else (1, 2.5, 4):
        sheet.append((score, None))
    return workbook


RECALCULATION = ToySheet
WORKBOOKS = {"toy": WorkbookKind(f"{__name__}:build", Button(SHEET, "D1"), "Toy workbook", "the toy rules",
                                 guides={"": "docs/toy.md"})}
