"""The contract every workbook kind keeps, one test run over every kind.

For each kind (:data:`xlbridge.excel.shipped.KINDS`): the file ``xlbridge new``
writes is recognised as that kind; recalculating it changes nothing it already
holds, and twice changes nothing at all; a late correction of a typed value
changes computed cells and each changed cell is listed on the Corrections sheet
with its old and new value; a bad typed value is reported at its own cell and
nothing is written.  The kind-specific part is only *which* typed cell to change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from openpyxl import load_workbook

from xlbridge.excel.shipped import KINDS
from xlbridge.language import sheet_name
from xlbridge.workbooks.localised import Localised
from xlbridge.files.headless import recalc_path
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.plan import BookInputError
from xlbridge.workbooks.recalc import detect
from xlbridge.workbooks.bridgemania.declaration import FIRST_BOARD_COL as BM_BOARD_1
from xlbridge.workbooks.record import RECORD

WHEN = "2026-11-30 12:00"


def values(path) -> dict[str, list[list[object]]]:
    wb = load_workbook(path)
    return {ws.title: [[c.value for c in row] for row in ws.iter_rows()] for ws in wb.worksheets}


def typed_number(ws, row: int, first_col: int, last_col: int) -> tuple[int, int]:
    """The first cell of ``row`` between the columns holding a number."""
    for col in range(first_col, last_col + 1):
        if isinstance(ws.cell(row=row, column=col).value, (int, float)):
            return row, col
    raise AssertionError(f"no number in row {row}")


def event_correction(kind: str, sheet: str) -> Callable:
    def change(wb):
        name = sheet_name(sheet, KINDS[kind].language)  # the event sheet in the federation's language
        wb[name]["C10"] = 99.5  # the second pair wins now
        return name, "C10"
    return change


def event_bad(kind: str, sheet: str) -> Callable:
    def spoil(wb):
        name = sheet_name(sheet, KINDS[kind].language)
        wb[name]["C12"] = "5x"
        return name, "C12"
    return spoil


def heeg_evening(wb):
    english = lambda ws: Localised.canonical_name(ws.title, KINDS["heeg"].language)  # noqa: E731
    return next(ws for ws in reversed(wb.worksheets) if english(ws).startswith("Evening ") and ws.max_row > 2)


def heeg_correction(wb):
    ws = heeg_evening(wb)
    row, col = typed_number(ws, 2, 4, 9)  # R1..R6 of the first pair
    ws.cell(row=row, column=col).value = max(0, ws.cell(row=row, column=col).value - 1)
    return ws.title, ws.cell(row=row, column=col).coordinate


def heeg_bad(wb):
    ws = heeg_evening(wb)
    ws.cell(row=3, column=4).value = "1O3"
    return ws.title, "D3"


def bm_tournament(wb):
    return wb[wb.sheetnames[[n.startswith("T") and n[1:].isdigit() for n in wb.sheetnames].index(True)]]


def bm_correction(wb):
    """Swap two scores of board 1 (the board still adds up); board 1 is right of the pairs."""
    ws = bm_tournament(wb)
    col = BM_BOARD_1
    rows = [r for r in range(9, 40) if isinstance(ws.cell(row=r, column=col).value, (int, float))]
    a, b = rows[0], rows[1]
    ws.cell(row=a, column=col).value, ws.cell(row=b, column=col).value = (ws.cell(row=b, column=col).value,
                                                                          ws.cell(row=a, column=col).value)
    assert ws.cell(row=a, column=col).value != ws.cell(row=b, column=col).value, "pick two different scores"
    return ws.title, ws.cell(row=a, column=col).coordinate


def bm_bad(wb):
    ws = bm_tournament(wb)
    ws.cell(row=9, column=BM_BOARD_1).value = "x"
    return ws.title, ws.cell(row=9, column=BM_BOARD_1).coordinate


@dataclass(frozen=True)
class Case:
    kind: str
    recognised_as: str
    correct: Callable
    spoil: Callable


CASES = [
    Case("tbf-club", "event awards", event_correction("tbf-club", "Tournament"), event_bad("tbf-club", "Tournament")),
    Case("se-masterpoints", "event awards", event_correction("se-masterpoints", "Bronze pairs"),
         event_bad("se-masterpoints", "Bronze pairs")),
    Case("bridgemania", "bridgemania", bm_correction, bm_bad),
    Case("heeg", "heeg", heeg_correction, heeg_bad),
]


def test_every_kind_has_a_case():
    assert sorted(c.kind for c in CASES) == sorted(KINDS)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.kind)
@pytest.mark.parametrize("blank", [False, True], ids=["demo", "blank"])
def test_built_read_back_and_recalculated_twice_changes_nothing(tmp_path, built_once, case, blank):
    path = built_once(case.kind, tmp_path / "book.xlsx", blank=blank)
    book = OpenpyxlBook(load_workbook(path))
    assert detect(book).name == case.recognised_as
    built = values(path)
    if blank:  # an empty template may ask for its first typed values instead; it is then left as it is
        before = path.read_bytes()
        try:
            recalc_path(path, when=WHEN)
        except BookInputError as error:
            assert all(p.cell for p in error.problems), "each problem points at a cell to type"
            assert path.read_bytes() == before
            return
        path.write_bytes(before)
    assert RECORD in built, "a built workbook holds the record of its own recalculation"
    assert load_workbook(path)[RECORD].sheet_state == "hidden"
    first = recalc_path(path, when=WHEN)
    assert first.changes == [], f"the built file is not what a recalculation gives: {first.changes[:3]}"
    assert first.typed == [] and first.warnings == []
    assert values(path) == built  # the record included: the built file is what a recalculation gives
    second = recalc_path(path, when=WHEN)
    assert second.changes == [] and second.typed == [] and values(path) == built


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.kind)
def test_a_late_correction_is_listed_on_corrections(tmp_path, built_once, case):
    path = built_once(case.kind, tmp_path / "book.xlsx")
    wb = load_workbook(path)
    sheet, cell = case.correct(wb)
    typed = wb[sheet][cell].value
    wb.save(path)
    report = recalc_path(path, when=WHEN)
    assert report.changes, "a changed typed value changes computed cells"
    after = load_workbook(path)
    assert after[sheet][cell].value == typed, "the typed cell is never written"
    local = lambda name: Localised.local_name(name, report.language)  # noqa: E731  (the sheets' names in the book)
    assert report.language == KINDS[case.kind].language  # built in the club's language, read in it
    rows = [[c.value for c in row] for row in after[local("Corrections")].iter_rows(min_row=2)]
    listed = [(r[1], r[2]) for r in rows if r[0] == WHEN]
    # first the scorer's change (the shipped file holds the record of its own recalculation), then
    # every computed cell it changed
    yours = [(local(c.sheet), c.cell) for c in report.typed]
    assert (sheet, cell) in yours and listed[:len(yours)] == yours  # (a board's correction types two cells)
    assert set(listed[len(yours):]) == {(local(c.sheet), c.cell) for c in report.changes}
    assert len(listed) == len(yours) + len(report.changes)
    for change in report.changes:
        new = pytest.approx(change.new, rel=1e-12) if isinstance(change.new, float) else change.new  # as stored
        assert after[local(change.sheet)][change.cell].value == new


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.kind)
def test_a_bad_cell_is_named_and_nothing_is_written(tmp_path, built_once, case):
    path = built_once(case.kind, tmp_path / "book.xlsx")
    wb = load_workbook(path)
    sheet, cell = case.spoil(wb)
    wb.save(path)
    before = path.read_bytes()
    with pytest.raises(BookInputError) as caught:
        recalc_path(path, when=WHEN)
    language = caught.value.language
    assert (sheet, cell) in {(Localised.local_name(p.sheet, language), p.cell) for p in caught.value.problems}
    assert path.read_bytes() == before
