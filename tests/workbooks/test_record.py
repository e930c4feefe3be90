"""Issue 16, points 2 and 5: the record of the last recalculation (xlbridge/workbooks/record.py).

The typed change that caused the corrections goes first on Corrections; a value typed
over a computed cell is a warning, overwritten and kept on Corrections; recalculating
twice changes nothing (the record included); a damaged record counts as none, with a
warning; the record's sheet stays hidden headless (the Excel path: tests/officejs/
test_record_click.py and tests/pyodide).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from xlbridge.cli import main
from xlbridge.files.headless import recalc_path
from xlbridge.language import _, sheet_name, speaking
from xlbridge.workbooks.heeg.declaration import evening_table
from xlbridge.workbooks.messages import HEADER_WARNINGS, MESSAGES, WARNING_MARK, report_problems
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.record import DAMAGED_CODE, RECORD, TYPED, TYPED_OVER, TYPED_OVER_CODE, Record
from xlbridge.workbooks.recalc import recalculate
from xlbridge.workbooks.write import RECALCULATED as RECALCULATED_WRITE

ROOT = Path(__file__).resolve().parents[2]
TABLE = evening_table(6, ["1", "2", "3"])
R1, MP, PCT, INV = TABLE.col("r1"), TABLE.col("mp"), TABLE.col("pct"), TABLE.col("code")
DOCS = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
EVENING = "Avond 2025-09-18"  # the Dutch demo's third evening


def _documented(code_id: str) -> str:
    match = re.search(rf"^\| `{code_id}` \|[^|]*\| `([^`]+)` \|", DOCS, re.M)
    assert match, code_id
    return match[1]


@pytest.fixture
def demo(tmp_path: Path, built_once) -> Path:
    """The shipped Heeg demo (Dutch), recalculated once more (it holds its record already): made once, a
    fresh copy for each test."""
    def make(path: Path) -> None:
        shutil.copy(ROOT / "workbooks" / "heeg-demo.xlsx", path)
        assert RECORD in load_workbook(path).sheetnames  # shipped with the record of its own recalculation
        recalc_path(path, when="T0", backup=False)

    return built_once.copy(("heeg demo recalculated at T0",), tmp_path / "heeg.xlsx", make)


def _corrections(path: Path, when: str) -> list[list]:
    ws = load_workbook(path)[sheet_name("Corrections", "nl")]
    return [[c.value for c in row] for row in ws.iter_rows(min_row=2) if row[0].value == when]


def _row_with_rounds(ws) -> int:
    for row in range(2, ws.max_row + 1):
        if isinstance(ws.cell(row=row, column=R1).value, (int, float)) and not ws.cell(row=row, column=INV).value:
            return row
    raise AssertionError("no row with rounds")


@pytest.mark.slow
def test_one_changed_round_goes_first_then_what_it_changed(demo: Path) -> None:
    wb = load_workbook(demo)
    ws = wb[EVENING]
    row = _row_with_rounds(ws)
    old = ws.cell(row=row, column=R1).value
    ws.cell(row=row, column=R1, value=old + 2)
    pair = ws.cell(row=row, column=1).value
    wb.save(demo)
    report = recalc_path(demo, when="T1", backup=False)
    rows = _corrections(demo, "T1")
    ref = f"{ws.cell(row=row, column=R1).column_letter}{row}"
    with speaking("nl"):
        assert rows[0] == ["T1", EVENING, ref, pair, "R1", old, old + 2, _(TYPED)]
        assert _(TYPED) == "uw wijziging" and _(RECALCULATED_WRITE) == "herberekend"
        assert [r[7] for r in rows[1:]] == [_(RECALCULATED_WRITE)] * (len(rows) - 1)
    assert len(rows) == 1 + len(report.changes) and len(report.typed) == 1
    mp_ref = f"{ws.cell(row=row, column=MP).column_letter}{row}"
    mp = next(r for r in rows if r[2] == mp_ref and r[1] == EVENING)
    assert mp[6] == mp[5] + 2  # the MP total, the sum of the rounds, follows
    # the header of the sheet names the column: one row per cell, the values as typed
    assert load_workbook(demo)[sheet_name("Corrections", "nl")]["H1"].value == "Oorzaak"
    again = recalc_path(demo, when="T2", backup=False)
    assert again.typed == [] and again.changes == [] and _corrections(demo, "T2") == []


@pytest.mark.slow
def test_one_changed_mp_total_goes_first(demo: Path) -> None:
    """The issue's case: one MP changed (typed as a total, on a row without rounds)."""
    wb = load_workbook(demo)
    ws = wb[EVENING]
    row = _row_with_rounds(ws)
    total = sum(ws.cell(row=row, column=c).value or 0 for c in range(R1, R1 + 6))
    for c in range(R1, R1 + 6):
        ws.cell(row=row, column=c).value = None
    ws.cell(row=row, column=MP, value=total)  # the same total, typed: nothing else changes
    wb.save(demo)
    recalc_path(demo, when="T1", backup=False)
    wb = load_workbook(demo)
    wb[EVENING].cell(row=row, column=MP, value=total + 5)
    wb.save(demo)
    report = recalc_path(demo, when="T2", backup=False)
    rows = _corrections(demo, "T2")
    mp_ref = f"{ws.cell(row=row, column=MP).column_letter}{row}"
    assert rows[0] == ["T2", EVENING, mp_ref, ws.cell(row=row, column=1).value, "MP", total, total + 5,
                       "uw wijziging"]
    assert len(rows) == 1 + len(report.changes) > 1 and {r[7] for r in rows[1:]} == {"herberekend"}
    assert report.warnings == []


@pytest.mark.slow
def test_a_changed_setting_and_a_changed_name_are_listed_even_without_computed_changes(demo: Path) -> None:
    wb = load_workbook(demo)
    ws = wb[EVENING]
    ws.cell(row=2, column=2, value="Miedema - Dijkstra-Bos")  # a name: nothing computed follows
    wb.save(demo)
    report = recalc_path(demo, when="T1", backup=False)
    assert report.changes == []
    assert [(c.sheet, c.cell, c.new, c.cause) for c in report.typed] == [
        ("Evening 2025-09-18", "B2", "Miedema - Dijkstra-Bos", TYPED)]
    assert [r[2] for r in _corrections(demo, "T1")] == ["B2"]


@pytest.mark.slow
def test_a_value_typed_over_a_computed_percentage_is_a_warning_overwritten_and_kept(tmp_path: Path, built_once) -> None:
    path = built_once("heeg", tmp_path / "heeg-en.xlsx", language="en")  # docs/errors.md quotes English
    recalc_path(path, when="T0", backup=False)
    wb = load_workbook(path)
    ws = wb["Evening 2025-09-18"]
    computed = ws.cell(row=5, column=PCT).value
    ws.cell(row=5, column=PCT, value=62.5)
    wb.save(path)
    book = OpenpyxlBook(load_workbook(path))
    report = recalculate(book, when="T1")
    assert [(w.sheet, w.cell, w.code) for w in report.warnings] == [("Evening 2025-09-18", "P5", TYPED_OVER_CODE)]
    assert str(report.warnings[0]) == _documented("W-TYPED-OVER")
    assert book.wb["Evening 2025-09-18"]["P5"].value == pytest.approx(computed)  # the computed value is back
    rows = [[c.value for c in row] for row in book.wb["Corrections"].iter_rows(min_row=2)]
    assert rows == [["T1", "Evening 2025-09-18", "P5", 4, "%", 62.5, pytest.approx(computed), TYPED_OVER]]
    assert book.wb["Corrections"]["F2"].number_format == "0.00"  # in the cell's format
    # on the Messages sheet below the warnings' header, with no cell to mark: a computed cell keeps its look
    report_problems(book, [], done="done", warnings=report.warnings)
    messages = [[row[0].value, row[1].value] for row in book.wb[MESSAGES].iter_rows(max_col=2)]
    assert messages[1:] == [[HEADER_WARNINGS, None], [str(report.warnings[0]), None]]
    assert book.wb["Evening 2025-09-18"]["P5"].fill.fgColor.rgb != "FF" + WARNING_MARK[1:]
    again = recalculate(book, when="T2")
    assert again.warnings == [] and again.changes == [] and again.typed == []


@pytest.mark.slow
def test_the_cli_prints_the_typed_over_warning(tmp_path: Path, built_once, capsys: pytest.CaptureFixture[str]) -> None:
    path = built_once("tbf-club", tmp_path / "tbf.xlsx", language="en")
    recalc_path(path, when="T0", backup=False)
    wb = load_workbook(path)
    ws = wb.worksheets[0]
    place = next((r, c) for r in range(1, ws.max_row + 1) for c in range(1, ws.max_column + 1)
                 if ws.cell(row=r, column=c).value == "Place")
    cell = ws.cell(row=place[0] + 1, column=place[1])
    computed, cell.value = cell.value, 99
    wb.save(path)
    assert main(["recalc", "--no-backup", str(path)]) == 0
    err = capsys.readouterr().err
    assert f"{ws.title}, {cell.coordinate}: computed cell: 99 was typed here, xlbridge fills it (now {computed})" in err
    assert load_workbook(path)[ws.title][cell.coordinate].value == computed


@pytest.mark.slow
def test_a_value_typed_over_a_view_is_a_warning_and_kept_on_corrections(demo: Path) -> None:
    """Standings are views (never audited: their changes follow from audited ones), but a Place or a
    % typed into them is still a value typed over a computed cell (issue 16, point 2)."""
    year = sheet_name("Year", "nl")
    wb = load_workbook(demo)
    place, pct = wb[year]["B4"].value, wb[year]["F5"].value
    assert place == 1 and isinstance(pct, float)
    wb[year]["B4"], wb[year]["F5"] = 7, 99.5
    wb.save(demo)
    report = recalc_path(demo, when="T1", backup=False)
    assert report.typed == []
    assert [(w.sheet, w.cell, w.code) for w in report.warnings] == [
        ("Year", "B4", TYPED_OVER_CODE), ("Year", "F5", TYPED_OVER_CODE)]
    assert [(c.cell, c.old, c.new, c.cause) for c in report.changes] == [
        ("B4", 7, place, TYPED_OVER), ("F5", 99.5, pytest.approx(pct), TYPED_OVER)]
    done = load_workbook(demo)
    assert (done[year]["B4"].value, done[year]["F5"].value) == (place, pytest.approx(pct))
    rows = [[c.value for c in line] for line in done[sheet_name("Corrections", "nl")].iter_rows(min_row=2)]
    with speaking("nl"):
        assert [(r[1], r[2], r[5], r[-1]) for r in rows] == [(year, "B4", 7, _(TYPED_OVER)), (year, "F5", 99.5,
                                                                                          _(TYPED_OVER))]
    again = recalc_path(demo, when="T2", backup=False)
    assert (again.warnings, again.changes, again.typed) == ([], [], [])


@pytest.mark.slow
@pytest.mark.parametrize("spoil", ["edited", "cleared", "json", "deleted"])
def test_a_damaged_record_counts_as_none_with_a_warning_and_nothing_is_lost(demo: Path, spoil: str) -> None:
    wb = load_workbook(demo)
    record = wb[RECORD]
    if spoil == "edited":
        record["A2"] = "~oops" + record["A2"].value[5:]  # (its start: an edit inside a text would still parse)
    elif spoil == "cleared":
        record["A2"] = None
    elif spoil == "json":
        record["A2"] = "~" + json.dumps({"v": 1, "s": {"Season": {"t": [[1, 1, [[1]]]], "c": []}}})
    else:
        del wb[RECORD]
    ws = wb[EVENING]
    row = _row_with_rounds(ws)
    ws.cell(row=row, column=R1, value=ws.cell(row=row, column=R1).value + 2)
    typed_columns = [*range(1, MP - 1), INV]  # Pair .. the first C, and inv (MP follows the rounds here)
    typed = [[line[c - 1].value for c in typed_columns] for line in ws.iter_rows(max_col=INV)]
    wb.save(demo)
    report = recalc_path(demo, when="T1", backup=False)
    if spoil == "deleted":  # no record: nothing to say
        assert report.warnings == []
    else:
        assert [(w.sheet, w.cell, w.code) for w in report.warnings] == [(RECORD, "A2", DAMAGED_CODE)]
        with speaking("nl"):
            assert report.warnings[0].message.startswith("het verslag van de vorige herberekening")
    assert report.typed == [] and report.changes  # the computed changes, as without a record
    after = load_workbook(demo)
    assert [[line[c - 1].value for c in typed_columns] for line in after[EVENING].iter_rows(max_col=INV)] == typed
    assert [r[7] for r in _corrections(demo, "T1")] == ["herberekend"] * len(report.changes)
    assert after[RECORD].sheet_state == "hidden"
    again = recalc_path(demo, when="T2", backup=False)  # a new record was written
    assert again.warnings == [] and again.typed == [] and again.changes == []


@pytest.mark.slow
def test_the_damaged_record_message_is_the_catalogue_s(tmp_path: Path, built_once) -> None:
    path = built_once("se-masterpoints", tmp_path / "se.xlsx", language="en")
    recalc_path(path, when="T0", backup=False)
    wb = load_workbook(path)
    wb[RECORD]["A2"] = "I looked in here"
    wb.save(path)
    report = recalc_path(path, when="T1", backup=False)
    assert [str(w) for w in report.warnings] == [_documented("W-RECORD-DAMAGED")]


@pytest.mark.slow
def test_the_record_stays_hidden_headless_even_when_unhidden(demo: Path) -> None:
    wb = load_workbook(demo)
    assert wb.sheetnames[-1] == RECORD and wb[RECORD].sheet_state == "hidden"
    wb[RECORD].sheet_state = "visible"
    wb.save(demo)
    report = recalc_path(demo, when="T1", backup=False)
    assert report.warnings == [] and report.changes == []
    assert load_workbook(demo)[RECORD].sheet_state == "hidden"


@pytest.mark.slow
def test_the_record_is_compact_and_reads_back(demo: Path) -> None:
    cells = [c.value for c in load_workbook(demo)[RECORD]["A"]]
    assert all(len(v) <= 30000 for v in cells[1:]) and all(v.startswith("~") for v in cells[1:])
    record = Record.loads("".join(v[1:] for v in cells[1:]))
    assert record.dumps() == "".join(v[1:] for v in cells[1:])
    assert record.typed("Evening 2025-09-18")[(2, 1)] == 1  # pair 1, typed
    assert (2, PCT) in record.computed("Evening 2025-09-18")  # its %, computed and audited
    assert (2, PCT) not in record.typed("Evening 2025-09-18")
    assert record.computed("Year") == {}  # a view: not audited


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 40)), min_size=1, max_size=4))
def test_recalculating_twice_changes_nothing_whatever_was_typed(tmp_path_factory, built_once, edits) -> None:
    path = built_once("tbf-club", tmp_path_factory.mktemp("tbf") / "tbf.xlsx", language="en")
    recalc_path(path, when="T0", backup=False)
    wb = load_workbook(path)
    ws = wb.worksheets[0]
    header = next(r for r in range(1, ws.max_row + 1) if ws.cell(row=r, column=1).value == "Pair")
    scores = [c for c in range(1, ws.max_column + 1) if ws.cell(row=header, column=c).value == "Score %"]
    for row, score in edits:
        if scores:
            ws.cell(row=header + 1 + row, column=scores[0], value=score + 30)
    wb.save(path)
    try:
        first = recalc_path(path, when="T1", backup=False)
    except Exception:  # noqa: BLE001 - an edit the rules refuse: nothing written, nothing to compare
        return
    assert not any(c.cause == TYPED_OVER for c in first.changes)
    kept = {ws.title: [[c.value for c in line] for line in ws.iter_rows()] for ws in load_workbook(path).worksheets}
    second = recalc_path(path, when="T2", backup=False)
    assert second.changes == [] and second.typed == [] and second.warnings == []
    assert {ws.title: [[c.value for c in line] for line in ws.iter_rows()]
            for ws in load_workbook(path).worksheets} == kept  # the record included


@pytest.mark.slow
def test_a_deleted_sheet_with_typed_cells_and_views_is_added_again_without_a_word_about_them(demo: Path) -> None:
    """The Chart sheet (a typed pair, a view) typed, recorded, then deleted: the next recalculation
    adds it again (with its own warning) and compares nothing on a sheet that was not there."""
    chart = sheet_name("Chart", "nl")
    wb = load_workbook(demo)
    wb[chart]["B3"] = 7
    wb.save(demo)
    recalc_path(demo, when="T1", backup=False)
    wb = load_workbook(demo)
    del wb[chart]
    wb.save(demo)
    report = recalc_path(demo, when="T2", backup=False)
    assert [w.code for w in report.warnings] == ["heeg.chart.added"]
    assert report.typed == [] and report.changes == []
    assert load_workbook(demo)[chart]["B3"].value is None  # back, blank: the year's leader


def test_the_record_follows_rows_inserted_or_deleted() -> None:
    """Rows.aligned: the typed rows then and now aligned as a diff aligns lines."""
    from xlbridge.workbooks.changes import Rows

    then = {(r, 1): r * 10 for r in range(2, 8)} | {(r, 2): f"pair {r}" for r in range(2, 8)}
    inserted = {(r + (r >= 5), c): v for (r, c), v in then.items()}  # an empty row at 5
    rows = Rows.aligned(then, inserted)
    assert [rows.new(r) for r in range(2, 8)] == [2, 3, 4, 6, 7, 8] and rows.new(40) == 41  # below: moved too
    assert [rows.old(r) for r in range(2, 9)] == [2, 3, 4, None, 5, 6, 7]
    deleted = {(r - (r > 4), c): v for (r, c), v in then.items() if r != 4}  # row 4 deleted
    rows = Rows.aligned(then, deleted)
    assert [rows.new(r) for r in range(2, 8)] == [2, 3, None, 4, 5, 6] and rows.old(40) == 41
    changed = dict(then) | {(3, 1): 99}  # a value changed in place: the rows stay
    rows = Rows.aligned(then, changed)
    assert [rows.new(r) for r in range(2, 8)] == list(range(2, 8))


@pytest.mark.slow
def test_a_row_inserted_among_the_pairs_is_no_change_and_no_typed_over(demo: Path) -> None:
    """An empty row inserted among an evening's pairs, and a pair inserted in the middle of the roster: the cells
    below moved with them, which is no change of the scorer's and no value typed over a computed cell (each moved
    cell was listed: 34 warnings "typed here", some "(now None)", and 72 Corrections rows; a new pair on the roster
    gave 83). A value changed in a moved row is still the one change listed, at its new cell."""
    wb = load_workbook(demo)
    evening = wb[EVENING]
    evening.insert_rows(5)
    season = wb["Seizoen"]
    season.insert_rows(19)
    for col, value in enumerate((99, "Nieuw - Paar", "A", "A", "A"), start=1):
        season.cell(19, col, value)
    moved = next(r for r in range(6, evening.max_row + 1)
                 if isinstance(evening.cell(r, R1).value, (int, float)) and not evening.cell(r, INV).value)
    was = evening.cell(moved, R1).value
    evening.cell(moved, R1, was + 1)
    book = OpenpyxlBook(wb)
    report = recalculate(book, when="T1")
    assert report.warnings == []
    assert [(c.sheet, c.cell, c.old, c.new) for c in report.typed] == [
        ("Evening 2025-09-18", evening.cell(moved, R1).coordinate, was, was + 1)]
    again = recalculate(book, when="T2")
    assert again.warnings == [] and again.changes == [] and again.typed == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["A", "B", 1, 2, 3, "s", None]), min_size=3, max_size=3), min_size=1,
                max_size=12).map(lambda rows: [[i + 1] + row for i, row in enumerate(rows)]),
       st.lists(st.tuples(st.booleans(), st.integers(0, 12)), max_size=3))
def test_rows_inserted_or_deleted_are_found_wherever_they_are(rows, edits) -> None:
    """Whatever rows (numbered in column A, as pairs are) get empty rows inserted or rows deleted: every row kept
    is found where it went, both ways; a row deleted is gone (or, deleted where an empty row came, cleared)."""
    from xlbridge.workbooks.changes import Rows

    def cells(lines):
        return {(r, c): v for r, line in enumerate(lines, start=2) if line for c, v in enumerate(line, 1)
                if v is not None}

    now = [list(row) for row in rows]
    for insert, at in edits:
        at = min(at, len(now))
        if insert:
            now.insert(at, None)
        elif at < len(now) and now[at] is not None:
            now.pop(at)
    aligned = Rows.aligned(cells(rows), cells(now))
    where = {line[0]: r for r, line in enumerate(now, start=2) if line}
    empty_now = {r for r, line in enumerate(now, start=2) if line is None}
    for r, line in enumerate(rows, start=2):  # (a row deleted where an empty one was inserted: it was cleared)
        assert aligned.new(r) == where[line[0]] if line[0] in where else aligned.new(r) in empty_now | {None}
    kept = {r for r, line in enumerate(rows, start=2) if line[0] in where}
    for r, line in enumerate(now, start=2):  # (an empty row now never stands for a row whose pair is elsewhere)
        assert aligned.old(r) == line[0] + 1 if line is not None else aligned.old(r) not in kept


@pytest.mark.slow
def test_rows_inserted_at_the_top_of_every_evening_leave_the_record_this_workbooks(demo: Path) -> None:
    """A row inserted above the pairs of every evening moves almost every typed cell: compared where they were,
    more than half differed and the record was set aside as another workbook's (W-RECORD-FOREIGN)."""
    wb = load_workbook(demo)
    for ws in wb.worksheets:
        if ws.title.startswith("Avond"):
            ws.insert_rows(2)
    report = recalculate(OpenpyxlBook(wb), when="T1")
    assert report.warnings == [] and report.typed == [] and report.changes == []
