"""A column the scorer inserts into a table xlbridge reads and writes by the place of its columns is one
problem at that column, and nothing is written.

Before, a column inserted on an event sheet right of Place (the computed columns) passed the header check,
which reads only Place there: the recalculation wrote MP and Colour one column off, over the moved ones,
with 127 "computed cell typed over" warnings; inserted elsewhere, it gave one header problem per moved
header ("D1: expected the header 'C'; the cell is empty", "F1: expected 'MP'; found 'R2'", ...), or, among
a BridgeMania tournament's board columns, "not valid: 7 boards, at least 14 needed (or type no in
Championship to keep it as a friendly)".
"""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from xlbridge.files.headless import recalc_path
from xlbridge.workbooks.recalc import BookInputError

pytestmark = pytest.mark.slow  # (a built workbook per case)

CASES = [  # kind, sheet, the column inserted (1 = A), the cell of the problem
    ("tbf-club", "Tournament", 2, "B8"),  # among the typed columns
    ("tbf-club", "Tournament", 5, "E8"),  # among the computed ones, right of Place (written one column off)
    ("tbf-club", "Tournament", 6, "F8"),
    ("se-masterpoints", "Silver pairs", 3, "C8"),
    ("heeg", "Evening 2025-09-04", 4, "D1"),  # before R1: the rounds moved too
    ("heeg", "Evening 2025-09-04", 7, "G1"),  # among the rounds
    ("heeg", "Season", 4, "D16"),  # the roster
    ("bridgemania", "Season", 3, "C4"),  # three tables side by side: one problem, not one per table
    ("bridgemania", "Season", 8, "H4"),
    ("bridgemania", "T03", 5, "E8"),  # before board 1
    ("bridgemania", "T03", 12, "L8"),  # among the boards
]


@pytest.mark.parametrize(("kind", "sheet", "col", "where"), CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_an_inserted_column_is_one_problem_at_it_and_nothing_is_written(built_once, tmp_path, kind, sheet, col,
                                                                        where):
    path = built_once(kind, tmp_path / "book.xlsx", language="en")
    wb = load_workbook(path)
    wb[sheet].insert_cols(col)
    wb.save(path)
    before = path.read_bytes()
    with pytest.raises(BookInputError) as caught:
        recalc_path(path)
    on_sheet = [(p.cell, p.code) for p in caught.value.problems if p.sheet == sheet]
    assert on_sheet == [(where, "sheet.column-inserted")], on_sheet
    problem = next(p for p in caught.value.problems if p.sheet == sheet)
    assert str(problem) == f"{sheet}, {where}: a column was inserted here, which moved a table xlbridge reads and " \
                           "writes by the place of its columns (the cell is empty): delete the column"
    assert path.read_bytes() == before
    wb[sheet].delete_cols(col)  # deleted again: recalculated as before
    wb.save(path)
    assert recalc_path(path).kind
