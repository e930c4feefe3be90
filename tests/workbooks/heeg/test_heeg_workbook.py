"""The Heeg season workbook: recalculated by xlbridge it holds exactly the
engine's numbers, recalculating twice changes nothing, a late correction changes
exactly the cells that depend on it, and bad input is located by sheet + cell."""

from __future__ import annotations

import datetime as dt
import math
import shutil
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import Workbook, load_workbook

from xlbridge.cli import main
from xlbridge.clubs.heeg import period_standings, recalculate, year_standings
from xlbridge.clubs.heeg.demo import demo_season
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from tests.emulate import snapshot
from xlbridge.workbooks.record import RECORD, TYPED
from xlbridge.workbooks.heeg import HeegSeason, evening_sheet
from xlbridge.workbooks.recalc import BookInputError
from xlbridge.workbooks.recalc import recalculate as recalc_book
from xlbridge.files.headless import backup_path, recalc_path

RED = "FFFF0000"
LABELS = ["1", "2", "3"]
# evening sheet columns (1-based): Pair A, Names B, Line C, R1..R6 D-I, C J, C K, MP L, max M, inv N,
# EGS O, % P, tot vandaag Q, periode R, jaar S, eind 1 T, eind 2 U, * V
COLUMN_OF = {"c_corrected": 11, "evening_max": 13, "egs": 15, "pct": 16, "to_date": 17, "period_pct": 18,
             "year_pct": 19, "end_1": 20, "end_2": 21}


def signal_in_words(rec) -> str | None:
    """The * cell: the * and every red signal in words (issue 16, point 7)."""
    words = ([f"cannot be champion ({rec['year_marks']} marks)"] if rec["red_star"] else []) + \
        ([f"cannot promote or stay up ({rec['period_marks']} marks this period)"] if rec["red_inv"] else [])
    text = "; ".join(words)
    if rec["star"]:
        text = f"* {text}" if text else "*"
    return text or None


@pytest.fixture(scope="module")
def demo():
    settings, results = demo_season()
    return settings, results, recalculate(results, settings)


@pytest.fixture(scope="module")
def built(tmp_path_factory, built_once) -> Path:
    return built_once("heeg", tmp_path_factory.mktemp("heeg") / "heeg-demo.xlsx", language="en")


@pytest.fixture
def book(built, tmp_path) -> Path:
    target = tmp_path / "season.xlsx"
    shutil.copy(built, target)
    return target


#: The first column of an evening's result right of its columns (after the empty column)
RESULT_FIRST_COL = 23

def close(a, b) -> bool:
    if a is None or (isinstance(a, float) and math.isnan(a)):
        return b is None or (isinstance(b, float) and math.isnan(b))
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return b is not None and abs(float(a) - float(b)) < 1e-9


def fill(cell) -> str | None:
    return cell.fill.start_color.rgb if cell.fill is not None and cell.fill.fill_type == "solid" else None


@pytest.mark.slow
def test_layout_mirrors_the_heeg_spreadsheet(built):
    wb = load_workbook(built)
    assert wb.sheetnames[:8] == ["Season", "Messages", "Year", "Period 1", "Period 2", "Period 3", "Chart", "How to"]
    ws = wb["Evening 2025-09-04"]
    assert [c.value for c in ws[1]] == ["Pair", "Names", "Line", "R1", "R2", "R3", "R4", "R5", "R6", "C", "C", "MP",
                                        "max", "inv", "EGS", "%", "tot vandaag", "periode", "jaar", "eind 1",
                                        "eind 2", "*", None, "Line", "Rank", "Pair", "Names", "Evening %"]
    assert ws.freeze_panes == "D2"
    assert ws["P2"].number_format == "0.00" and ws["S2"].number_format == "0.00"
    season = wb["Season"]
    assert [season.cell(row=r, column=1).value for r in range(3, 10)] == [
        "Club", "Season", "Lines (top line first)", "Rounds per evening", "Boards per round", "Combi table top",
        "Count 'a' per"]
    assert season["B5"].value == "A, B" and season["B6"].value == 6 and season["B7"].value == 4
    assert season["A11"].value == "Period" and season["C12"].value == dt.datetime(2025, 9, 4)
    assert season["A16"].value == "Pair" and [season.cell(row=16, column=c).value for c in range(2, 6)] == [
        "Names", "Line 1", "Line 2", "Line 3"]


@pytest.mark.slow
def test_recalculated_demo_holds_the_engine_numbers(built, demo):
    settings, results, out = demo
    wb = load_workbook(built)
    checked = 0
    for day in settings.evenings:
        ws = wb[evening_sheet(day)]
        part = out[out["date"] == day]
        for row, rec in enumerate(part.to_dict("records"), start=2):
            assert ws.cell(row=row, column=1).value == rec["pair"]
            for column, col in COLUMN_OF.items():
                got, want = ws.cell(row=row, column=col).value, rec[column]
                assert close(want if want != "" else None, got), (day, rec["pair"], column, got, want)
            typed_rounds = [rec[f"r{i}"] for i in range(1, 7) if not pd.isna(rec[f"r{i}"])]
            if typed_rounds:  # MP computed from the rounds
                assert ws.cell(row=row, column=12).value == sum(typed_rounds) == rec["mp"]
            assert fill(ws.cell(row=row, column=14)) == (RED if rec["red_inv"] else "FFFFF2CC")  # typed: the input fill when not red
            assert fill(ws.cell(row=row, column=22)) == (RED if rec["red_star"] else "FFFFFFFF")  # white: NOT_RED
            assert ws.cell(row=row, column=22).value == signal_in_words(rec)
            checked += 1
    assert checked == len(results)
    # every signal appears somewhere in the demo
    assert out["red_inv"].any() and out["red_star"].any() and (out["signal"] == "*").any()
    assert out["c_corrected"].notna().any()


def test_standings_sheets_hold_the_engine_standings(built, demo):
    settings, results, _ = demo
    wb = load_workbook(built)
    table = period_standings(results, settings)
    for label in LABELS:
        ws = wb[f"Period {label}"]
        assert "final: all 6 evenings played" in ws["A1"].value
        rows = [[c.value for c in row] for row in ws.iter_rows(min_row=4) if row[0].value is not None]
        part = table[table["period"] == label]
        assert len(rows) == len(part)
        for got, want in zip(rows, part.to_dict("records")):
            assert got[:5] == [want["line"], want["rank"], want["pair"], want["names"], want["evenings"]]
            assert close(want["period_pct"], got[5]) and got[6] == want["marks"]
            assert got[8] == want["next_line"]
            assert (got[7] or "").startswith({"promote": "promotes", "relegate": "relegates", "": ""}[want["move"]])
    # pair 9 relegates from A in period 1 with 4 marks: red marks cell, move cell filled
    ws = wb["Period 1"]
    nine = next(r for r in range(4, ws.max_row + 1) if ws.cell(row=r, column=3).value == 9)
    assert ws.cell(row=nine, column=8).value == "relegates to B (4 marks: cannot promote)"  # the red, in words
    assert fill(ws.cell(row=nine, column=7)) == RED and fill(ws.cell(row=nine, column=8)) == "FFF8CBAD"
    year = year_standings(results, settings)
    ws = wb["Year"]
    rows = [[c.value for c in row] for row in ws.iter_rows(min_row=4) if row[0].value is not None]
    assert len(rows) == len(year)
    for r, (got, want) in enumerate(zip(rows, year.to_dict("records")), start=4):
        assert got[:5] == [want["line"], want["rank"], want["pair"], want["names"], want["evenings"]]
        assert all(close(want[k], g) for k, g in zip(["year_pct", "end_1", "end_2", "end_3"], got[5:9]))
        assert got[9] == want["marks"] and got[10] == ("*" if want["star"] else None)
        champion = want["champion_rank"]
        why = ([f"no: not every evening in line {settings.lines[0]}"] if want["star"] else []) + \
            ([f"no: {want['marks']} marks (more than 5)"] if want["red_star"] else [])
        assert got[11] == ("; ".join(why) or None if math.isnan(champion) else int(champion))
        assert fill(ws.cell(row=r, column=11)) == (RED if want["red_star"] else "FFFFFFFF")
    # pair 3 has the best year but 6 marks: red *, not champion
    three = next(r for r in rows if r[2] == 3)
    assert three[1] == 1 and three[11] == "no: 6 marks (more than 5)"


@pytest.mark.slow
def test_recalculating_twice_changes_nothing(book):
    before = snapshot(load_workbook(book))
    assert RECORD in before  # built with the record of its own recalculation
    report = recalc_path(book, when="2026-01-20 20:00")
    assert report.kind == "heeg" and report.changes == [] and report.typed == []
    assert snapshot(load_workbook(book)) == before  # the record included: the first recalculation writes nothing
    recalc_path(book, when="2026-01-20 20:01")
    assert snapshot(load_workbook(book)) == before
    assert "Corrections" not in load_workbook(book).sheetnames


def _engine_cells(settings, frame) -> dict[tuple[str, str], object]:
    """(sheet, cell) -> computed value of every evening sheet, from the engine."""
    from xlbridge.workbooks.book import cell_ref

    out = recalculate(frame, settings)
    cells = {}
    for day in settings.evenings:
        for row, rec in enumerate(out[out["date"] == day].to_dict("records"), start=2):
            for column, col in COLUMN_OF.items():
                value = rec[column]
                cells[(evening_sheet(day), cell_ref(row, col))] = None if (value == "" or pd.isna(value)) else value
            cells[(evening_sheet(day), cell_ref(row, 12))] = rec["mp"]
    return cells


@pytest.mark.slow
def test_a_late_correction_on_evening_3_changes_exactly_the_dependent_cells(book, demo):
    settings, results, _ = demo
    day = settings.evenings[2]
    sheet = evening_sheet(day)
    wb = load_workbook(book)
    ws = wb[sheet]
    # pair 6 (blank code, rounds typed): round 2 was 18 MP, really 24
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(row=r, column=1).value == 6)
    old_r2 = ws.cell(row=row, column=5).value
    ws.cell(row=row, column=5).value = old_r2 + 6
    wb.save(book)
    before = snapshot(load_workbook(book))
    report = recalc_path(book, when="2026-01-20 20:00")
    after = snapshot(load_workbook(book))

    changed = set()
    for name in before:
        if name.startswith("Evening "):
            old, new = before[name], after[name]
            for r in range(max(len(old), len(new))):
                a, b = (old[r] if r < len(old) else []), (new[r] if r < len(new) else [])
                for c in range(max(len(a), len(b))):
                    if (a[c] if c < len(a) else (None, None)) != (b[c] if c < len(b) else (None, None)):
                        from xlbridge.workbooks.book import cell_ref

                        if c + 1 >= RESULT_FIRST_COL:  # the evening's result: sorted anew, not audited
                            assert name == sheet
                            continue
                        changed.add((name, cell_ref(r + 1, c + 1)))
    # what the engine says depends on that MP
    frame = results.copy()
    mask = (frame["date"] == day) & (frame["pair"] == 6)
    frame.loc[mask, "r2"] = old_r2 + 6
    frame.loc[mask, "mp"] = frame.loc[mask, "mp"] + 6
    old_cells, new_cells = _engine_cells(settings, results), _engine_cells(settings, frame)
    expected = {key for key in new_cells if not close(old_cells[key], new_cells[key])}
    assert changed == expected  # the MP total (the typed round is not in the snapshot diff: it was saved before)
    assert (sheet, f"L{row}") in expected and (sheet, f"P{row}") in expected
    # only pair 6's rows, on evening 3 and later
    later = {evening_sheet(d) for d in settings.evenings[2:]}
    assert {s for s, _ in changed} <= later
    assert all(after[s][int(c[1:]) - 1][0][0] == 6 for s, c in changed)
    # the audit trail lists exactly these cells with old and new values
    corrections = [[c.value for c in r] for r in load_workbook(book)["Corrections"].iter_rows(min_row=2)]
    # first the typed round itself, "your change" (the built workbook holds the record of its own
    # recalculation), then exactly the computed cells it changed
    assert [(c.sheet, c.cell) for c in report.typed] == [(sheet, f"E{row}")]
    assert corrections[0][1:3] == [sheet, f"E{row}"] and corrections[0][5:] == [old_r2, old_r2 + 6, TYPED]
    assert {(r[1], r[2]) for r in corrections[1:]} == changed
    assert len(report.changes) == len(changed) == len(corrections) - 1
    mp_line = next(r for r in corrections if r[2] == f"L{row}")
    assert mp_line[1] == sheet and mp_line[3] == 6 and mp_line[4] == "MP" and mp_line[6] == mp_line[5] + 6


@pytest.mark.slow
def test_start_a_season_from_the_blank_template_hand_worked(tmp_path, built_once):
    """A small season typed by hand: 8 pairs in line A (top 6: 4 tables -> 2 x 4 - 2),
    6 rounds x 4 boards -> max 6 x 4 x 6 = 144 MP."""
    path = built_once("heeg", tmp_path / "new.xlsx", blank=True, language="en")
    wb = load_workbook(path)
    ws = wb["Season"]
    ws["B4"] = "2026/2027"
    ws["B5"] = "A"
    ws["C12"], ws["D12"] = dt.datetime(2026, 9, 3), dt.datetime(2026, 9, 10)
    for i in range(8):
        ws.cell(row=17 + i, column=1, value=i + 1)
        ws.cell(row=17 + i, column=2, value=f"Pair {i + 1} names")
        ws.cell(row=17 + i, column=3, value="A")
    wb.save(path)
    recalc_path(path, when="t")  # creates the two evening sheets with the pairs
    wb = load_workbook(path)
    assert wb.sheetnames[-3:] == ["Evening 2026-09-03", "Evening 2026-09-10", RECORD]  # the record last (hidden)
    ev1 = wb["Evening 2026-09-03"]
    # laid out as the demo's evening sheets: header, yellow typed cells, 2 decimals, panes
    demo = load_workbook(built_once("heeg", tmp_path / "demo.xlsx", language="en"))["Evening 2025-09-04"]
    assert ev1.freeze_panes == demo.freeze_panes == "D2"
    for ref in ("A1", "P1", "D2", "J5", "K3", "P2", "T9"):
        assert (fill(ev1[ref]), ev1[ref].number_format, ev1[ref].font.bold) == \
            (fill(demo[ref]), demo[ref].number_format, demo[ref].font.bold), ref
    assert [ev1.column_dimensions[c].width for c in "ABP"] == [demo.column_dimensions[c].width for c in "ABP"]
    assert fill(ev1["D2"]) == "FFFFF2CC" and ev1["P2"].number_format == "0.00" and ev1["A1"].font.bold
    assert [ev1.cell(row=r, column=1).value for r in range(2, 10)] == list(range(1, 9))
    assert ev1["C2"].value == "A" and ev1["B5"].value == "Pair 4 names"
    # evening 1: pair 1 types rounds, pair 2 only a total, pair 3 '1', pair 4 a total of 60,
    # pair 5 '0', pair 6 'a', pair 7 '=', pair 8 '2'
    for col, mp in zip("DEFGHI", (12, 14, 10, 16, 12, 8)):  # 72 MP
        ev1[f"{col}2"] = mp
    ev1["L3"] = 90
    ev1["L4"], ev1["N4"] = 72, 1
    ev1["L5"] = 60
    ev1["N6"], ev1["N7"], ev1["N8"], ev1["N9"] = 0, "a", "=", 2
    # evening 2: pair 6 'a' a second time, pair 2 '2'
    ev2 = wb["Evening 2026-09-10"]
    for r in range(2, 10):
        ev2[f"L{r}"] = 72
    ev2["L7"], ev2["N7"] = None, "a"
    ev2["L3"], ev2["N3"] = None, 2
    wb.save(path)
    recalc_path(path, when="t")
    wb = load_workbook(path)
    ev1, ev2 = wb["Evening 2026-09-03"], wb["Evening 2026-09-10"]
    # evening 1: 6 pairs at a table (0 and a do not count): top 2 x 3 - 2 = 4, max 6 x 4 x 4 = 96
    assert ev1["M2"].value == 96
    assert ev1["L2"].value == 72 and ev1["P2"].value == pytest.approx(75.0)  # 72 / 96
    assert ev1["P3"].value == pytest.approx(93.75)  # 90 / 96
    assert ev1["P4"].value == pytest.approx(75.0)  # '1': normal score
    assert ev1["P5"].value == pytest.approx(62.5)  # 60 / 96
    assert ev1["P6"].value == 25  # '0'
    assert ev1["P7"].value == 50  # 'a' on the first evening: 50
    assert ev1["P8"].value == 50  # '='
    assert ev1["P9"].value == 50  # '2' on the first evening: 50
    # evening 2: 7 pairs at a table -> top 2 x 3 - 2 = 4, max 96; pair 2 '2': EGS 93.75 capped at 50
    assert ev2["O3"].value == pytest.approx(93.75) and ev2["P3"].value == 50
    # pair 6 second 'a' without EGS (its only earlier score was an 'a'): 50
    assert ev2["P7"].value == 50
    assert ev2["R2"].value == pytest.approx((75.0 + 75.0) / 2) and ev2["Q2"].value == pytest.approx(75.0)


def test_sit_out_and_combi_by_hand(tmp_path, built_once):
    """8 pairs, 'a' for pair 8: 7 at a table -> top 2 x 3 - 2 = 4, max 96.
    's': 70 x 6/5 = 84 -> 87.5 %; combi 20 of top 10 in a line of top 4: 20 x 4 / 10 = 8 MP."""
    path = built_once("heeg", tmp_path / "new.xlsx", blank=True, language="en")
    wb = load_workbook(path)
    ws = wb["Season"]
    ws["B5"] = "A"
    ws["C12"] = dt.datetime(2026, 9, 3)
    for i in range(8):
        ws.cell(row=17 + i, column=1, value=i + 1)
        ws.cell(row=17 + i, column=3, value="A")
    wb.save(path)
    recalc_path(path, when="t")
    wb = load_workbook(path)
    ev = wb["Evening 2026-09-03"]
    for r in range(2, 10):
        ev[f"L{r}"] = 48
    ev["L2"], ev["N2"] = 70, "s"
    ev["L3"], ev["J3"] = 40, 20  # combi table: 20 MP as scored
    ev["L9"], ev["N9"] = None, "a"
    wb.save(path)
    recalc_path(path, when="t")
    ev = load_workbook(path)["Evening 2026-09-03"]
    assert ev["M2"].value == 96
    assert ev["P2"].value == pytest.approx(70 * 6 / 5 / 96 * 100)  # 87.5
    assert ev["K3"].value == pytest.approx(8.0)  # 20 x 4 / 10
    assert ev["P3"].value == pytest.approx((40 + 8) / 96 * 100)  # 50 %


def test_the_blank_template_is_empty_and_recalculates(tmp_path, built_once):
    path = built_once("heeg", tmp_path / "blank.xlsx", blank=True, language="en")
    wb = load_workbook(path)
    # last, hidden, the record of the recalculation it was built with (workbooks/record.py)
    assert wb.sheetnames == ["Season", "Messages", "Year", "Period 1", "Period 2", "Period 3", "Chart", "How to", RECORD]
    assert wb["Season"]["B4"].value is None and wb["Season"]["C12"].value is None
    assert "no evening played yet" in wb["Period 1"]["A1"].value
    assert wb["Chart"]["A1"].value.startswith("No evening played yet") and wb["Chart"]["A6"].value is None
    report = recalc_path(path, when="t")
    assert report.kind == "heeg" and report.changes == [] and report.typed == []


# ------------------------------------------------------------------ bad input (issue 7, Heeg catalogue)


def _edit(path: Path, edit) -> None:
    wb = load_workbook(path)
    edit(wb)
    wb.save(path)


def _row_of(ws, pair: int) -> int:
    return next(r for r in range(2, ws.max_row + 1) if ws.cell(row=r, column=1).value == pair)


E3 = "Evening 2025-09-18"  # period 1, evening 3: line A 14 pairs, max 288


def _set(sheet, pair, col, value):
    def edit(wb):
        ws = wb[sheet]
        ws.cell(row=_row_of(ws, pair), column=col).value = value
    return edit


BAD = [
    ("text in a round", _set(E3, 4, 4, "1O3"), [f'{E3}, D5: MP \'1O3\' in round 1 is not a number']),
    ("negative round", _set(E3, 4, 5, -5), [f"{E3}, E5: MP -5 in round 2 is negative"]),
    ("text MP total", lambda wb: [_set(E3, 4, c, None)(wb) for c in range(4, 10)] and _set(E3, 4, 12, "1O3")(wb),
     [f"{E3}, L5: MP '1O3' is not a number"]),
    ("negative MP total", lambda wb: [_set(E3, 4, c, None)(wb) for c in range(4, 10)] and _set(E3, 4, 12, -5)(wb),
     [f"{E3}, L5: MP -5 is negative"]),
    ("deleted Season sheet", lambda wb: wb.remove(wb["Season"]),
     ["workbook: the settings sheet 'Season' is missing; restore it from the backup (NAME.backup.xlsx) or copy it "
      "from a new workbook (xlbridge new heeg)"]),
    ("MP above max", _set(E3, 4, 4, 250), [f"{E3}, L5: MP 359 is above the evening's maximum 240 (the sum of R1..R6)"]),
    ("unknown inv code", _set(E3, 4, 14, "x"), [f"{E3}, N5: inv code 'x' is not one of 1, 2, 0, a, s, s1, = or blank"]),
    ("pair twice", _set(E3, 5, 1, 4), [f"{E3}, A6: pair 4 is on this evening twice (rows 5 and 6); one row per pair"]),
    ("pair not on the roster", _set(E3, 5, 1, 99), [f"{E3}, A6: pair 99 is not on the roster"]),
    ("renamed header", lambda wb: setattr(wb[E3]["N1"], "value", "invallers"),
     [f"{E3}, N1: expected the header 'inv'; found 'invallers'"]),
    ("evening outside every period", lambda wb: setattr(wb[E3], "title", "Evening 2025-12-25"),
     ["Evening 2025-12-25: evening 2025-12-25 is in no period of the season; add it to a period on the Season "
      "sheet (or rename the sheet)"]),
    ("misnamed evening sheet", lambda wb: setattr(wb[E3], "title", "18 sept"),
     ["18 sept: sheet '18 sept' looks like an evening sheet; name it 'Evening YYYY-MM-DD' (the date of the evening)"]),
    ("bad setting", lambda wb: setattr(wb["Season"]["B6"], "value", "six"),
     ["Season, B6: rounds per evening 'six' is not a whole number from 2"]),
    ("bad evening date", lambda wb: setattr(wb["Season"]["C13"], "value", "someday"),
     ["Season, C13: period 2: evening 'someday' is not a date (type a date, e.g. 2025-09-04)"]),
    ("renamed Season sheet", lambda wb: setattr(wb["Season"], "title", "Seizoen"),
     ["workbook: the settings sheet 'Season' is missing; sheet 'Seizoen' holds the season settings: rename it "
      "back to 'Season'"]),
]


@pytest.mark.slow
@pytest.mark.parametrize("what, edit, messages", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_located_and_nothing_is_written(book, capsys, what, edit, messages):
    _edit(book, edit)
    before = book.read_bytes()
    with pytest.raises(BookInputError) as caught:
        recalc_book(OpenpyxlBook(load_workbook(book)))
    assert [str(p) for p in caught.value.problems] == messages
    assert main(["recalc", str(book)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[:-1] == [f"xlbridge: error: {m}" for m in messages]
    fix = "the problem at its cell" if len(messages) == 1 else f"the {len(messages)} problems at their cells"
    assert err[-1].startswith(f"xlbridge: nothing was written: fix {fix}, then")
    assert book.read_bytes() == before and not backup_path(book).exists()


@pytest.mark.slow
def test_all_problems_of_a_run_are_reported_together(book):
    _edit(book, lambda wb: [_set(E3, 4, 4, "1O3")(wb), _set(E3, 6, 14, "b")(wb),
                            _set("Evening 2026-01-15", 2, 1, 99)(wb)])
    with pytest.raises(BookInputError) as caught:
        recalc_book(OpenpyxlBook(load_workbook(book)))
    cells = [(p.sheet, p.cell) for p in caught.value.problems]
    assert (E3, "D5") in cells and (E3, "N7") in cells
    assert any(s == "Evening 2026-01-15" and c.startswith("A") for s, c in cells)


def test_an_empty_workbook(tmp_path):
    path = tmp_path / "empty.xlsx"
    Workbook().save(path)
    with pytest.raises(BookInputError, match=r"not an xlbridge workbook \(sheets: Sheet\)"):
        recalc_path(path)


def test_the_kind_is_registered_and_recognised(built):
    from xlbridge.workbooks import kinds

    assert any(isinstance(k, HeegSeason) for k in kinds.kinds())
    assert HeegSeason().recognises(OpenpyxlBook(load_workbook(built)))


@pytest.mark.slow
def test_cli_new_heeg_is_reproducible(tmp_path):
    assert main(["new", "heeg", str(tmp_path / "a.xlsx")]) == 0
    assert main(["new", "heeg", str(tmp_path / "b.xlsx")]) == 0
    assert snapshot(load_workbook(tmp_path / "a.xlsx")) == snapshot(load_workbook(tmp_path / "b.xlsx"))


@pytest.mark.slow
def test_recalculating_an_up_to_date_workbook_sets_no_cell(book, monkeypatch):
    """The headless backend leaves cells that already hold the computed value
    alone (a recalculation after one typed score rewrites a handful of cells,
    not the whole season): counted on openpyxl's own value setter."""
    from openpyxl.cell.cell import Cell

    wb = load_workbook(book)
    recalc_book(OpenpyxlBook(wb))  # after a load/save round trip: values as the file holds them
    sizes = {ws.title: len(ws._cells) for ws in wb.worksheets}
    sets = {"values": 0}
    bind = Cell._bind_value

    def counting_bind(self, value):
        sets["values"] += 1
        return bind(self, value)

    monkeypatch.setattr(Cell, "_bind_value", counting_bind)
    report = recalc_book(OpenpyxlBook(wb))
    assert report.changes == []
    assert sets == {"values": 0}
    assert {ws.title: len(ws._cells) for ws in wb.worksheets} == sizes  # no empty cell created for a blank or no fill

    # one typed score changed: only what follows from it is written
    ws = wb["Evening 2025-09-04"]
    r1 = ws.cell(row=2, column=4).value  # R1 of the first pair
    ws.cell(row=2, column=4).value = r1 - 1 if r1 else 1
    sets.update(values=0)
    report = recalc_book(OpenpyxlBook(wb))
    assert report.changes and 0 < sets["values"] < report.cells_written // 10


@pytest.mark.slow
def test_a_deleted_standings_sheet_comes_back_laid_out(book, tmp_path, built_once):
    wb = load_workbook(book)
    del wb["Year"]
    del wb["Period 2"]
    wb.save(book)
    recalc_path(book, when="t")
    again, demo = load_workbook(book), load_workbook(built_once("heeg", tmp_path / "demo.xlsx", language="en"))
    for name in ("Year", "Period 2"):
        new, old = again[name], demo[name]
        assert new.freeze_panes == old.freeze_panes == "A4"
        assert [[c.value for c in row] for row in new.iter_rows(max_row=40)] == \
            [[c.value for c in row] for row in old.iter_rows(max_row=40)]
        for ref in ("A1", "A3", "F3", "F4", "F30", "G4", "D5"):
            assert (fill(new[ref]), new[ref].number_format, new[ref].font.bold, new[ref].font.sz) == \
                (fill(old[ref]), old[ref].number_format, old[ref].font.bold, old[ref].font.sz), (name, ref)
        assert new["A1"].font.sz == 14 and new["F4"].number_format == "0.00"
