"""``xlbridge import BOOK RESULTS`` into a BridgeMania tournament (issue 27, part 2): the night a scoring
program exported (trick scores only) becomes the board scores of the Regolamento's scale on the tournament
New tournament added, its pairs recognised by their players; then the season is recalculated."""

from __future__ import annotations

import datetime as dt
import shutil
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.results.bmfile import ABSENT, BOARDS, PAIRS, in_matchpoints, night
from tests.results.pbn_writer import write_pbn
from tests.results.usebio_writer import write_usebio
from xlbridge.cli import main
from xlbridge.workbooks.bridgemania.declaration import FIRST_BOARD_COL
from xlbridge.results.model import name_key

ROOT = Path(__file__).resolve().parents[2]
#: the file's pairs -> the demo season's (base pairs by their players, OSP1 the guest "Ivo & Ines")
OURS = {1: "NO", 2: "DG", 3: "GM", 4: "AF", 5: "LS", 6: "PR", 7: "CT", 8: "OSP1"}


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def season_with_t15(tmp_path: Path, capsys, statuses: bool = True) -> Path:
    """The demo season after New tournament (T15, its base pairs listed), the absent pairs' status typed."""
    book = tmp_path / "bm.xlsx"
    shutil.copy2(ROOT / "workbooks" / "bridgemania-demo.xlsx", book)
    assert run(capsys, "next", book, "--no-backup")[0] == 0
    if statuses:
        wb = load_workbook(book)
        ws = wb["T15"]
        for r in range(9, 25):
            if ws.cell(r, 1).value in ABSENT:
                ws.cell(r, 2).value = "lista di attesa"
        wb.save(book)
    return book


def by_hand(scores: list[int]) -> list[int]:
    """North-South's board scores on the 0-2 scale: two for each score beaten, one for each equal one."""
    return [sum(2 if s > o else 1 if s == o else 0 for j, o in enumerate(scores) if j != i)
            for i, s in enumerate(scores)]


@pytest.mark.slow
def test_a_night_typed_as_board_scores_on_the_regolamento_scale(tmp_path, capsys):
    book = season_with_t15(tmp_path, capsys)
    results = tmp_path / "t15.pbn"
    results.write_bytes(write_pbn(night()))
    code, out, err = run(capsys, "import", book, results, "--no-backup")
    assert code == 0, err
    assert out.strip() == f"{book}: 8 coppie di {results} scritte in T15: 15 board, TOP 6; ricalcolato."
    wb = load_workbook(book)
    assert wb.active.title == "T15"  # opens where New tournament left it (the Corrections sheet added before it)
    ws = wb["T15"]
    rows = {ws.cell(r, 1).value: r for r in range(9, 26) if ws.cell(r, 1).value}
    assert ws["B4"].value == 6  # TOP: four tables, 2 x (4 - 1)
    assert rows["OSP1"] == 20  # the guest, in the first free row below the listed base pairs
    file = night()
    for board, lines in file.boards().items():
        ns = by_hand([line.score for line in lines])
        for line, mp in zip(lines, ns):
            assert ws.cell(rows[OURS[int(line.ns)]], FIRST_BOARD_COL + board - 1).value == mp
            assert ws.cell(rows[OURS[int(line.ew)]], FIRST_BOARD_COL + board - 1).value == 6 - mp
    for pair in ABSENT:  # no score for a pair that did not play
        assert all(ws.cell(rows[pair], c).value is None for c in range(FIRST_BOARD_COL, FIRST_BOARD_COL + BOARDS))
    # recalculated: each pair's % is its board scores' share of the TOP, the guest ranked without PTS
    title = next(r for r in range(26, 60) if ws.cell(r, 1).value == "Classifica del torneo, ordinata per punteggio "
                                                                        "(calcolata)")
    result = {ws.cell(r, 2).value: [ws.cell(r, c).value for c in range(1, 9)] for r in range(title + 2, title + 14)
              if ws.cell(r, 2).value}
    for pair, row in rows.items():
        if pair in ABSENT:
            assert result[pair][3] == "lista di attesa" and result[pair][0] is None
            continue
        total = sum(ws.cell(row, c).value for c in range(FIRST_BOARD_COL, FIRST_BOARD_COL + BOARDS))
        assert result[pair][4] == round(float(Fraction(total, BOARDS * 6) * 100), 2)
    assert result["OSP1"][3] == "ospite" and result["OSP1"][5] is None


def test_the_players_match_whatever_their_case_accents_and_order():
    assert name_key(["GIULIA", "Dino"]) == name_key(["Dino", "Giulia"]) == name_key(["dino & giulia"])
    assert name_key(["Lùcia", "Sergio"]) == name_key(["Lucia", "Sergio"])
    assert name_key(["Ivo - Ines"]) == name_key(["Ivo & Ines"]) != name_key(["Ivo", "Ada"])


@pytest.mark.slow
def test_a_pair_the_season_does_not_know_is_named_and_nothing_is_written(tmp_path, capsys):
    book = season_with_t15(tmp_path, capsys)
    before = book.read_bytes()
    results = tmp_path / "t15.pbn"
    results.write_bytes(write_pbn(night({**PAIRS, 8: ("Ivo", "Irene")})))
    code, out, err = run(capsys, "import", book, results)
    assert code == 2 and err.splitlines() == [
        "xlbridge: errore: cartella: la coppia 8 del file (Ivo - Irene) non è né una coppia base né "
        "un'ospite registrata della stagione: scrivere i suoi giocatori nel foglio Stagione come li scrive il file, o "
        "registrarla come ospite",
        f"xlbridge: non è stato scritto nulla: correggere il problema, poi importare di nuovo (xlbridge import {book} "
        f"{results})"]
    assert book.read_bytes() == before and not list(tmp_path.glob("*.backup.xlsx"))


def test_a_file_of_another_date_is_refused_unless_the_tournament_is_named(tmp_path, capsys):
    """A file of a date the calendar has no tournament of is not the last tournament's night: refused, nothing
    written (it went into T15 without a word); last week's file meets last week's tournament, played already;
    named with --sheet it is imported as asked, with a warning that the dates differ."""
    book = season_with_t15(tmp_path, capsys)
    before = book.read_bytes()
    results = tmp_path / "old.pbn"
    old = night()
    results.write_bytes(write_pbn(replace(old, event=replace(old.event, date=dt.date(2020, 6, 26)))))
    code, out, err = run(capsys, "import", book, results)
    assert code == 2 and out == "" and err.splitlines()[0] == (
        "xlbridge: errore: cartella: il file è del 2020-06-26 e T15, l'ultimo torneo, del 2020-07-10: correggere la "
        "sua data nel foglio Stagione se il file è la sua serata, o indicare il torneo con --sheet")
    assert book.read_bytes() == before and not list(tmp_path.glob("*.backup.xlsx"))
    code, out, err = run(capsys, "import", book, results, "--sheet", "T15", "--no-backup")
    assert code == 0 and "T15" in out
    assert err.splitlines()[0] == "xlbridge: avvertenza: T15: il file è del 2020-06-26 e T15 del 2020-07-10: " \
        "importato come richiesto (--sheet)"  # (then the Lite code put back: openpyxl saved the statuses)


@pytest.mark.slow
def test_the_base_pairs_without_a_status_are_the_recalculations_problems(tmp_path, capsys):
    """Who did not play, and why, is the scorer's: typed before the import, or the import is refused with
    their cells (nothing written)."""
    book = season_with_t15(tmp_path, capsys, statuses=False)
    results = tmp_path / "t15.pbn"
    results.write_bytes(write_pbn(night()))
    before = book.read_bytes()
    code, out, err = run(capsys, "import", book, results)
    rows = {"BE": 9, "MV": 16, "RU": 18, "SZ": 19}
    assert code == 2 and err.splitlines()[:4] == [
        f"xlbridge: errore: T15, B{rows[p]}: {p}: non ha giocato e non ha uno status (lista di attesa, malattia o "
        f"impossibilitata)" for p in ABSENT]
    assert book.read_bytes() == before


@pytest.mark.slow
def test_board_scores_typed_already_are_never_replaced(tmp_path, capsys):
    book = season_with_t15(tmp_path, capsys)
    results = tmp_path / "t15.pbn"
    results.write_bytes(write_pbn(night()))
    assert run(capsys, "import", book, results, "--no-backup")[0] == 0
    before = book.read_bytes()
    code, out, err = run(capsys, "import", book, results)
    assert code == 2 and err.splitlines()[0] == ("xlbridge: errore: T15, E10: T15 contiene già punteggi dei board "
                                                 "(riga 10): nulla viene sostituito; importare in un nuovo torneo")
    assert book.read_bytes() == before
    # a tournament of the calendar named on purpose: T14 is played
    code, out, err = run(capsys, "import", book, results, "--sheet", "T14")
    assert code == 2 and "T14 contiene già punteggi dei board" in err.splitlines()[0]
    code, out, err = run(capsys, "import", book, results, "--sheet", "T99")
    assert code == 2 and err.splitlines()[0].startswith("xlbridge: errore: cartella: 'T99' non è un torneo "
                                                        "del calendario con il suo foglio (i tornei: T01, T02,")


@pytest.mark.slow
def test_a_night_too_short_to_count_is_refused_in_italian_with_the_friendly_way_out(tmp_path, capsys):
    """Twelve boards (the Regolamento asks for 14): the validity message and its advice in the workbook's
    language, none of it English (issue 26, point 9: the advice was English in every language)."""
    book = season_with_t15(tmp_path, capsys)
    results = tmp_path / "t15.pbn"
    results.write_bytes(write_pbn(night(boards=12)))
    code, out, err = run(capsys, "import", book, results)
    assert code == 2 and err.splitlines()[0] == (
        "xlbridge: errore: T15, B5: non valido: 12 board, ne servono almeno 14 (oppure scrivere no in Campionato "
        "(B5) per tenerlo come amichevole)")


@pytest.mark.slow
def test_a_ranking_asked_of_a_tournament_is_refused(tmp_path, capsys):
    """--section chooses among an event sheet's rankings; a BridgeMania tournament has one: never ignored."""
    book = season_with_t15(tmp_path, capsys)
    results = tmp_path / "t15.pbn"
    results.write_bytes(write_pbn(night()))
    code, out, err = run(capsys, "import", book, results, "--section", "NS")
    assert code == 2 and err.splitlines()[0] == ("xlbridge: errore: cartella: un torneo BridgeMania classifica "
                                                 "insieme tutte le sue coppie: togliere --section 'NS'")


@pytest.mark.slow
def test_matchpoints_on_another_scale_are_rescaled_to_the_regolamento_exactly(tmp_path, capsys):
    """A file with the program's matchpoints (MP1: top n - 1, halves for ties) and no trick scores gives the
    same board scores as the trick scores: each rescaled from the file's top to 2 (rows - 1)."""
    typed = {}
    for name, file in (("scores", night()), ("matchpoints", in_matchpoints(night()))):
        (tmp_path / name).mkdir()
        book = season_with_t15(tmp_path / name, capsys)
        results = tmp_path / name / "t15.pbn"
        results.write_bytes(write_pbn(file))
        code, out, err = run(capsys, "import", book, results, "--no-backup")
        assert code == 0, err
        ws = load_workbook(book)["T15"]
        typed[name] = [[ws.cell(r, c).value for c in range(1, FIRST_BOARD_COL + BOARDS)] for r in range(9, 21)]
    assert typed["matchpoints"] == typed["scores"]
    assert any(v in (1, 3, 5) for row in typed["scores"] for v in row[FIRST_BOARD_COL - 1:])  # (ties: halves x 2)


@pytest.mark.slow
def test_a_listed_sheet_that_is_no_tournament_sheet_is_the_readers_problem(tmp_path, capsys):
    """--sheet names a tournament of the calendar whose sheet holds something else: the reader's own structure
    check says so at A1, and nothing is written."""
    book = season_with_t15(tmp_path, capsys)
    wb = load_workbook(book)
    wb["T15"]["A1"] = "Appunti"
    wb.save(book)
    before = book.read_bytes()
    results = tmp_path / "t15.pbn"
    results.write_bytes(write_pbn(night()))
    code, out, err = run(capsys, "import", book, results, "--sheet", "T15")
    assert code == 2 and err.splitlines()[0] == (
        "xlbridge: errore: T15, A1: non è un foglio torneo di BridgeMania (A1 dovrebbe iniziare con 'Torneo "
        "BridgeMania'; copiare 'Torneo vuoto' per un nuovo torneo)")
    assert book.read_bytes() == before


def values(book: Path) -> dict[str, list[tuple]]:
    """Every sheet's values but the Messages sheet's (which names the file imported) and the minute of each
    Corrections line (when it was recalculated)."""
    wb = load_workbook(book)
    return {ws.title: [row[1:] if ws.title == "Correzioni" else row for row in ws.iter_rows(values_only=True)]
            for ws in wb.worksheets if ws.title != "Messaggi"}


@pytest.mark.slow
def test_the_night_from_usebio_and_typed_by_hand_give_the_same_season(tmp_path, capsys):
    """Issue 27: the same night exported as USEBIO (EBUScore's layout: no rounds, trick scores) types the same
    board scores as the PBN file, and the season recalculated after the import equals the season with the
    same TOP, guest and board scores typed by hand."""
    seasons = {}
    for name, data in (("pbn", write_pbn(night())), ("usebio", write_usebio(night()))):
        (tmp_path / name).mkdir()
        book = season_with_t15(tmp_path / name, capsys)
        results = tmp_path / name / f"t15.{'pbn' if name == 'pbn' else 'xml'}"
        results.write_bytes(data)
        code, out, err = run(capsys, "import", book, results, "--no-backup")
        assert code == 0, err
        seasons[name] = book
    (tmp_path / "hand").mkdir()
    hand = season_with_t15(tmp_path / "hand", capsys)
    imported = load_workbook(seasons["pbn"])["T15"]
    wb = load_workbook(hand)
    ws = wb["T15"]
    assert ws["B4"].value is None and ws.cell(20, 1).value is None
    ws["B4"] = imported["B4"].value  # TOP
    for r in range(9, 25):
        for c in [1, *range(FIRST_BOARD_COL, FIRST_BOARD_COL + BOARDS)]:
            if ws.cell(r, c).value is None:
                ws.cell(r, c).value = imported.cell(r, c).value
    wb.save(hand)
    assert run(capsys, "recalc", hand, "--no-backup")[0] == 0
    got = values(seasons["pbn"])
    assert got == values(seasons["usebio"]) == values(hand)
    assert any(isinstance(v, int) for v in got["T15"][9][FIRST_BOARD_COL - 1:FIRST_BOARD_COL - 1 + BOARDS])
