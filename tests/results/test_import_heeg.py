"""``xlbridge import BOOK RESULTS`` into a Heeg evening (issue 27): a club evening a scoring program exported
(lines A and B as two sections, trick scores only) becomes each pair's MP per round -- or, from a file without
rounds, the evening's MP -- on the evening sheet of its date, the pairs found on the roster by their names;
then the season is recalculated, as if the scorer had typed the same MP by hand."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.results.heegfile import (DAY, LINE_A, LINE_B, SIT_OUT, by_hand, clear_last_evening, dated, evening,
                                    one_section, renamed, roster, without_rounds)
from tests.results.pbn_writer import write_pbn
from tests.results.usebio_writer import write_usebio
from xlbridge.cli import main
from xlbridge.workbooks.heeg.declaration import evening_table

ROOT = Path(__file__).resolve().parents[2]
SHEET = f"Avond {DAY.isoformat()}"
TABLE = evening_table(6, ())
R1, MP, CODE, PCT = TABLE.col("r1"), TABLE.col("mp"), TABLE.col("code"), TABLE.col("pct")
#: (section, the file's pair) -> the roster's pair
ROSTER_OF = {(s, str(n)): p for s, line in (("A", LINE_A), ("B", LINE_B)) for n, p in enumerate(line, 1)}


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def cleared(tmp_path: Path, name: str = "heeg.xlsx") -> Path:
    """The demo season with the MP of its last evening cleared (the inv codes kept: s, s1, a, 1)."""
    book = tmp_path / name
    shutil.copy2(ROOT / "workbooks" / "heeg-demo.xlsx", book)
    wb = load_workbook(book)
    clear_last_evening(wb)
    wb.save(book)
    return book


def rows(ws) -> dict[int, int]:
    return {ws.cell(r, 1).value: r for r in range(2, ws.max_row + 1) if isinstance(ws.cell(r, 1).value, int)}


def typed_by_hand(book: Path, mp: dict[int, list[int]]) -> None:
    """The same evening as the scorer types it: each pair's MP per round, nothing in a round it sat out."""
    wb = load_workbook(book)
    ws = wb[SHEET]
    for pair, row in rows(ws).items():
        for i, value in enumerate(mp.get(pair, [])):
            sat = pair in SIT_OUT and SIT_OUT.index(pair) == i
            ws.cell(row, R1 + i).value = None if sat else value
    wb.save(book)


def values(book: Path) -> dict[str, list[tuple]]:
    """Every visible sheet's values but the Messages sheet's (which names the file imported) and the minute of
    each Corrections line (when it was recalculated: two runs may fall in two minutes)."""
    wb = load_workbook(book)
    return {ws.title: [row[1:] if ws.title == "Correcties" else row for row in ws.iter_rows(values_only=True)]
            for ws in wb.worksheets if ws.sheet_state == "visible" and ws.title != "Meldingen"}


@pytest.fixture(scope="module")
def file() -> object:
    return evening(roster(ROOT / "workbooks" / "heeg-demo.xlsx"))


@pytest.mark.slow
def test_an_evening_typed_as_mp_per_round_equals_the_same_typed_by_hand(tmp_path, capsys, file):
    book = cleared(tmp_path)
    results = tmp_path / "avond.pbn"
    results.write_bytes(write_pbn(file))
    code, out, err = run(capsys, "import", book, results, "--no-backup")
    assert code == 0, err
    assert out.strip() == f"{book}: 27 paren van {results} ingevuld in {SHEET} (MP per ronde; lijnen: A, B); herberekend."
    mp = by_hand(file, ROSTER_OF)
    ws = load_workbook(book)[SHEET]
    at = rows(ws)
    for pair, rounds in mp.items():
        got = [ws.cell(at[pair], R1 + i).value for i in range(6)]
        assert got == [None if pair in SIT_OUT and SIT_OUT.index(pair) == i else v for i, v in enumerate(rounds)]
        assert ws.cell(at[pair], MP).value == sum(rounds)
    assert ws.cell(at[6], R1).value is None and ws.cell(at[6], CODE).value == "a"  # absent: nothing typed
    # the % by the rule, by hand: MP / (6 rounds x 4 boards x the line's top), x 6/5 for a pair that sat out
    assert ws.cell(at[1], PCT).value == pytest.approx(100 * sum(mp[1]) / (6 * 4 * 10))  # line A: 13 pairs, top 10
    assert ws.cell(at[5], PCT).value == pytest.approx(100 * sum(mp[5]) / (6 * 4 * 12))  # line B: 14 pairs, top 12
    assert ws.cell(at[4], PCT).value == pytest.approx(100 * sum(mp[4]) * 6 / 5 / 240)  # s
    hand = cleared(tmp_path, "by-hand.xlsx")
    typed_by_hand(hand, mp)
    assert run(capsys, "recalc", hand, "--no-backup")[0] == 0
    assert values(book) == values(hand)


@pytest.mark.slow
def test_a_file_without_rounds_gives_the_evenings_mp_and_the_same_standings(tmp_path, capsys, file):
    """USEBIO (EBUScore's layout) says nothing of rounds: the evening's MP go into MP, and the standings equal
    those of the same evening typed by round."""
    book = cleared(tmp_path)
    results = tmp_path / "avond.xml"
    results.write_bytes(write_usebio(without_rounds(file)))
    code, out, err = run(capsys, "import", book, results, "--no-backup")
    assert code == 0, err
    assert "(de MP van de avond: het bestand heeft geen ronden; lijnen: A, B)" in out
    mp = by_hand(file, ROSTER_OF)
    wb = load_workbook(book)
    ws = wb[SHEET]
    at = rows(ws)
    for pair, rounds in mp.items():
        assert ws.cell(at[pair], MP).value == sum(rounds)
        assert all(ws.cell(at[pair], R1 + i).value is None for i in range(6))
    hand = cleared(tmp_path, "by-hand.xlsx")
    typed_by_hand(hand, mp)
    assert run(capsys, "recalc", hand, "--no-backup")[0] == 0
    theirs = load_workbook(hand)
    for sheet in ("Periode 3", "Jaar"):
        assert list(wb[sheet].iter_rows(values_only=True)) == list(theirs[sheet].iter_rows(values_only=True))


@pytest.mark.slow
def test_a_pair_the_roster_does_not_know_by_name_is_refused_until_the_scorer_types_it_in_the_file(
        tmp_path, capsys, file):
    results = tmp_path / "avond.pbn"  # (the file's pair A3 is roster pair 3, "Faber - Wiersma")
    results.write_bytes(write_pbn(renamed(file, "A", "3", "Jan Faber", "Wiersma")))
    book = cleared(tmp_path)
    before = book.read_bytes()
    code, out, err = run(capsys, "import", book, results, "--no-backup")
    assert code == 2 and out == ""
    assert err.splitlines()[0] == ("xlbridge: fout: Seizoen, F16: paar 3 van het bestand (Jan Faber - Wiersma) staat met "
                                   "deze namen niet in de parenlijst: typ ze zoals het bestand ze schrijft in 'In het "
                                   "bestand' naast zijn paar")
    assert book.read_bytes() == before  # nothing written
    wb = load_workbook(book)
    ws = wb["Seizoen"]
    assert ws["F16"].value == "In het bestand"
    row = next(r for r in range(18, 60) if ws.cell(r, 1).value == 3)
    ws.cell(row, 6).value = "wiersma & jan faber"
    wb.save(book)
    code, out, err = run(capsys, "import", book, results, "--no-backup")
    assert code == 0, err
    ws = load_workbook(book)[SHEET]
    assert ws.cell(rows(ws)[3], MP).value == sum(by_hand(file, ROSTER_OF)[3])


@pytest.mark.slow
def test_nothing_typed_is_replaced_and_a_second_import_writes_nothing(tmp_path, capsys, file):
    book = cleared(tmp_path)
    results = tmp_path / "avond.pbn"
    results.write_bytes(write_pbn(file))
    assert run(capsys, "import", book, results, "--no-backup")[0] == 0
    before = book.read_bytes()
    code, _out, err = run(capsys, "import", book, results, "--no-backup")
    assert code == 2
    assert err.splitlines()[0] == (f"xlbridge: fout: {SHEET}, A2: paar 1 heeft al MP ingevuld op {SHEET} (rij 2): er "
                                   "wordt niets vervangen; wis zijn MP om het te importeren")
    assert book.read_bytes() == before


@pytest.mark.slow
def test_each_line_imports_on_its_own_with_section(tmp_path, capsys, file):
    """A club that scores its lines apart (docs/import.md): --section A types line A only and says line B is still
    to come, without a recalculation (line B has no MP yet, which the recalculation would refuse: the first of the
    two imports was refused every time); --section B then completes the evening and the season is recalculated,
    the same as the whole file imported at once."""
    book = cleared(tmp_path)
    results = tmp_path / "avond.pbn"
    results.write_bytes(write_pbn(file))
    code, out, err = run(capsys, "import", book, results, "--no-backup", "--section", "A")
    assert code == 0, err
    assert out.strip() == f"{book}: 13 paren van {results} ingevuld in {SHEET} (lijnen: A); lijn B heeft nog geen MP: " \
        "importeer het bestand ervan (of typ de MP), dan wordt het seizoen herberekend."
    ws = load_workbook(book)[SHEET]
    at = rows(ws)
    assert [ws.cell(at[1], R1 + i).value for i in range(6)] == by_hand(file, ROSTER_OF)[1]  # line A's rounds
    assert all(ws.cell(at[p], R1).value is None for p in LINE_B)
    code, out, err = run(capsys, "import", book, results, "--no-backup", "--section", "B")
    assert code == 0 and out.strip().endswith("(MP per ronde; lijnen: B); herberekend."), err
    whole = cleared(tmp_path, "whole.xlsx")
    assert run(capsys, "import", whole, results, "--no-backup")[0] == 0
    assert values(book) == values(whole)
    code, _out, err = run(capsys, "import", book, results, "--no-backup", "--section", "C")
    assert code == 2 and "het bestand heeft geen sectie 'C' (zijn secties: 'A', 'B')" in err


def test_a_line_started_by_hand_is_no_line_still_to_come(tmp_path, capsys, file):
    """A line whose pairs have a code or MP typed is the scorer's: importing the other line recalculates, and the
    recalculation says what is missing (here: nothing; line B marked not played with 0)."""
    book = cleared(tmp_path)
    wb = load_workbook(book)
    ws = wb[SHEET]
    for pair in LINE_B:
        ws.cell(rows(ws)[pair], CODE).value = "0"
    wb.save(book)
    results = tmp_path / "avond.pbn"
    results.write_bytes(write_pbn(file))
    code, out, err = run(capsys, "import", book, results, "--no-backup", "--section", "A")
    assert code == 0 and out.strip().endswith("(MP per ronde; lijnen: A); herberekend."), err


@pytest.mark.slow
def test_a_file_of_another_date_needs_its_evening(tmp_path, capsys, file):
    import datetime as dt

    book = cleared(tmp_path)
    results = tmp_path / "avond.pbn"
    results.write_bytes(write_pbn(dated(file, dt.date(2026, 1, 22))))
    code, _out, err = run(capsys, "import", book, results, "--no-backup")
    assert code == 2
    assert err.splitlines()[0].startswith("xlbridge: fout: werkmap: het bestand is van 2026-01-22 en het seizoen heeft "
                                          "geen avondblad van die datum")
    code, out, err = run(capsys, "import", book, results, "--no-backup", "--sheet", SHEET)
    assert code == 0, err
    assert f"{SHEET}: het bestand is van 2026-01-22 en het blad van 2026-01-15: geïmporteerd zoals gevraagd (--sheet)" in err


@pytest.mark.slow
def test_a_section_with_pairs_of_two_lines_is_refused(tmp_path, capsys, file):
    results = tmp_path / "avond.pbn"
    results.write_bytes(write_pbn(one_section(file)))
    book = cleared(tmp_path)
    code, _out, err = run(capsys, "import", book, results, "--no-backup")
    assert code == 2
    assert err.splitlines()[0] == (f"xlbridge: fout: {SHEET}: sectie A van het bestand bevat paren van de lijnen A, B; "
                                   "elke lijn speelt een eigen sectie (een combitafel blijft getypt in C)")


@pytest.mark.slow
def test_a_score_for_a_pair_marked_absent_refuses_the_import(tmp_path, capsys, file):
    book = cleared(tmp_path)
    wb = load_workbook(book)
    ws = wb[SHEET]
    ws.cell(rows(ws)[1], CODE).value = "a"
    wb.save(book)
    before = book.read_bytes()
    results = tmp_path / "avond.pbn"
    results.write_bytes(write_pbn(file))
    code, _out, err = run(capsys, "import", book, results, "--no-backup")
    assert code == 2
    assert err.splitlines()[0].startswith(f"xlbridge: fout: {SHEET}, D2: MP 134 getypt voor een paar dat als afwezig "
                                          "staat (a)")
    assert book.read_bytes() == before


@pytest.mark.slow
def test_two_roster_pairs_of_the_same_names_are_not_guessed(tmp_path, capsys, file):
    book = cleared(tmp_path)
    wb = load_workbook(book)
    ws = wb["Seizoen"]
    row = next(r for r in range(18, 60) if ws.cell(r, 1).value == 20)
    ws.cell(row, 2).value = "Faber - Wiersma"  # (as pair 3)
    wb.save(book)
    results = tmp_path / "avond.pbn"
    results.write_bytes(write_pbn(file))
    code, _out, err = run(capsys, "import", book, results, "--no-backup")
    assert code == 2
    assert err.splitlines()[0] == ("xlbridge: fout: Seizoen, F16: paar 3 van het bestand (WIERSMA - Faber) heeft de "
                                   "namen van de paren 20, 3: typ het in 'In het bestand' naast het paar dat het is")


@pytest.mark.slow
def test_a_file_without_names_is_matched_by_the_roster_numbers(tmp_path, capsys, file):
    """A program that keeps the club's pair numbers and writes no names."""
    from dataclasses import replace

    def ours(section: str, pair: str) -> str:
        return str(ROSTER_OF[(section, pair)])

    numbered = replace(file, pairs=tuple(replace(p, id=ours(p.section, p.id), number=int(ours(p.section, p.id)),
                                                 players=()) for p in file.pairs),
                       lines=tuple(replace(line, ns=ours(line.section, line.ns), ew=ours(line.section, line.ew))
                                   for line in file.lines))
    results = tmp_path / "avond.pbn"
    results.write_bytes(write_pbn(numbered))
    book = cleared(tmp_path)
    assert run(capsys, "import", book, results, "--no-backup")[0] == 0
    ws = load_workbook(book)[SHEET]
    mp = by_hand(file, ROSTER_OF)
    assert all(ws.cell(row, MP).value == sum(mp[pair]) for pair, row in rows(ws).items() if pair in mp)
