"""The Heeg workbook places every problem by its code and concerns through the
declaration, never by its words: with every message template translated (here: a
marker in front) each problem keeps its sheet, its cell and its code, and the
workbook's own wordings (a line too small, an empty line, the sum of the rounds)
are still chosen."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.rules.problems import set_translator
from xlbridge.workbooks.heeg import heeg_workbook
from xlbridge.workbooks.recalc import BookInputError
from xlbridge.workbooks.recalc import recalculate as recalc_book

E3 = "Evening 2025-09-18"  # period 1, evening 3: line A 14 pairs, max 288; pair p on the row below


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("heeg") / "heeg-demo.xlsx"
    heeg_workbook(False, language="en").save(path)
    return path


def _row_of(ws, pair: int) -> int:
    return next(r for r in range(2, ws.max_row + 1) if ws.cell(row=r, column=1).value == pair)


def _bad_season(wb) -> None:
    ws = wb[E3]
    ws.cell(row=_row_of(ws, 4), column=4).value = 250  # R1: the sum of the rounds above the maximum
    ws.cell(row=_row_of(ws, 6), column=14).value = "x"  # an unknown inv code
    ws.cell(row=_row_of(ws, 7), column=3).value = None  # a blank line ...
    season = wb["Season"]
    pair_7 = next(r for r in range(17, season.max_row + 1) if season.cell(row=r, column=1).value == 7)
    season.cell(row=pair_7, column=3).value = None  # ... and none on the roster for period 1
    line_b = [_row_of(ws, p) for p in range(15, 30) if ws.cell(row=_row_of(ws, p), column=3).value == "B"]
    for row in line_b[:-3]:  # line B: only 3 pairs at the tables
        ws.cell(row=row, column=12).value, ws.cell(row=row, column=14).value = None, "a"
        for col in range(4, 10):
            ws.cell(row=row, column=col).value = None
        ws.cell(row=row, column=10).value = None


def _problems(path: Path):
    with pytest.raises(BookInputError) as caught:
        recalc_book(OpenpyxlBook(load_workbook(path)))
    return caught.value.problems


@pytest.mark.slow
def test_problems_are_placed_by_code_and_concerns_not_by_words(built, tmp_path):
    path = tmp_path / "bad.xlsx"
    shutil.copy(built, path)
    wb = load_workbook(path)
    _bad_season(wb)
    wb.save(path)
    english = _problems(path)
    set_translator(lambda template: "[nl] " + template)
    try:  # (a message is built when it is read: in the language set then)
        marked = [(p.sheet, p.cell, p.code, p.message) for p in _problems(path)]
    finally:
        set_translator(None)
    assert [m[:3] for m in marked] == [(p.sheet, p.cell, p.code) for p in english]
    assert [m[3] for m in marked] == ["[nl] " + p.message for p in english]
    codes = [p.code for p in english]
    assert codes.count("heeg.line.too-small") == 1  # one per evening and line
    assert {"heeg.line.empty", "heeg.code.unknown", "heeg.mp.above-max"} <= set(codes)
    by_code = {p.code: p for p in english}
    assert by_code["heeg.line.empty"].message.startswith("line is empty; type the pair's line here")
    assert by_code["heeg.mp.above-max"].message.endswith("(the sum of R1..R6)")
    assert by_code["heeg.line.too-small"].message.startswith("line B has only 3 pairs playing on this evening")
    for p in english:
        assert p.sheet == E3 and p.cell and p.code.startswith("heeg.")
        assert p.problem.evening == dt.date(2025, 9, 18) and p.problem.row == (E3, int(p.cell[1:]))


@pytest.mark.slow
def test_season_sheet_problems_are_at_their_declared_cells(built, tmp_path):
    from xlbridge.workbooks.heeg import SETTINGS

    path = tmp_path / "bad.xlsx"
    shutil.copy(built, path)
    wb = load_workbook(path)
    for setting, value in (("lines", None), ("rounds", "six"), ("boards_per_round", 0), ("combi_top", "ten"),
                           ("absence_span", "year")):
        spec = next(s for s in SETTINGS if s.id == setting)
        wb["Season"].cell(row=spec.row, column=spec.col).value = value
    wb.save(path)
    found = _problems(path)
    assert [(p.sheet, p.cell, p.problem.field) for p in found] == [
        ("Season", s.cell, s.id) for s in SETTINGS if s.id in ("lines", "rounds", "boards_per_round", "combi_top",
                                                                "absence_span")]
    assert all(p.code.startswith("heeg.season.") for p in found)


def test_a_header_problem_is_said_whole_in_the_workbooks_language(tmp_path, capsys):
    """A column inserted into an evening's rounds, then a header renamed: the header problems end in Dutch too
    ("de cel is leeg", "gevonden 'ronde'"), not in the English "the cell is empty" / "found ..." of the shared
    header check (the inserted column is one problem: tests/workbooks/test_inserted_column.py)."""
    from xlbridge.cli import main

    book = tmp_path / "heeg.xlsx"
    shutil.copy(Path(__file__).resolve().parents[3] / "workbooks" / "heeg-demo.xlsx", book)
    wb = load_workbook(book)
    wb["Avond 2025-09-18"].insert_cols(5)
    wb.save(book)
    assert main(["recalc", str(book), "--no-backup"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "xlbridge: fout: Avond 2025-09-18, E1: hier is een kolom ingevoegd, die een tabel verschoof " \
                       "die xlbridge leest en schrijft op de plaats van haar kolommen (de cel is leeg): verwijder de kolom"
    wb["Avond 2025-09-18"].delete_cols(5)
    wb["Avond 2025-09-18"]["N1"] = "ronde"
    wb.save(book)
    assert main(["recalc", str(book), "--no-backup"]) == 2
    lines += capsys.readouterr().err.splitlines()
    assert "xlbridge: fout: Avond 2025-09-18, N1: verwacht de kop 'inv'; gevonden 'ronde'" in lines
    assert not any(word in line for line in lines for word in ("found", "the cell", "error", "inserted"))
