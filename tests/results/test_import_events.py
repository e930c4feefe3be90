"""``xlbridge import BOOK RESULTS`` into an event sheet (issue 27, part 2, the TBF and Swedish sheets):
one ranking of a real scoring program's file typed as the scorer would type it, then recalculated;
every refusal one line, nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.results.usebio_writer import write_usebio
from xlbridge.cli import main
from xlbridge.results import read_results
from xlbridge.rules import awards
from xlbridge.workbooks.events.imported import rankings
from xlbridge.workbooks.events.kind import ranks_by_score

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
MAGIC = DATA / "magic-contest-session.pbn"  # 44 pairs, one ranking, matchpoints and percentages, 30 boards


def copy(tmp_path: Path, template: str) -> Path:
    path = tmp_path / Path(template).name
    shutil.copy2(ROOT / template, path)
    return path


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_matchpointed_session_into_the_tbf_sheet_is_typed_placed_and_awarded(tmp_path, capsys):
    book = copy(tmp_path, "templates/tbf-club.xlsx")
    code, out, err = run(capsys, "import", book, MAGIC, "--no-backup")
    assert code == 0, err
    assert out.strip() == (f"{book}: {MAGIC} dosyasından 44 çift Turnuva sayfasına yazıldı (dosyanın yüzdeleri) "
                           f"ve yeniden hesaplandı. El: 30.")
    # the file breaks one tie of equal scores (pairs 44 and 1, both 593.2 MP = 47.08 %): the sheet ties them
    assert err.splitlines() == ["xlbridge: uyarı: çalışma kitabı: dosya 1 çiftini bir eşitlik bozma ile 32. sıraya "
                                "koyuyor; sayfa onu aynı skorlu (47,08) çiftlerle 31. sırada eşit sayar ve ödüllerini "
                                "paylaştırır"]
    file = {p.number: p for p in read_results(MAGIC.read_bytes()).pairs}
    ws = load_workbook(book)["Turnuva"]
    assert ws["B4"].value == 30  # Boards, from the file
    rows = [[c.value for c in line[:6]] for line in ws.iter_rows(min_row=9, max_row=9 + 43)]
    assert ws.cell(9 + 44, 1).value is None
    assert sorted(r[0] for r in rows) == sorted(file)
    for unit, names, score, place, points, colour in rows:
        pair = file[unit]
        assert names == " - ".join(pair.names) and score == float(pair.percentage)
        assert place == pair.place or (unit, place, pair.place) == (1, 31, 32)
    assert [r[2] for r in rows] == sorted((r[2] for r in rows), reverse=True)  # typed best first
    expected = awards("tr.club", ranks_by_score([r[2] for r in rows]), boards=30)
    assert [(r[4], r[5]) for r in rows] == [(a.points, "yeşil") for a in expected]
    assert rows[0][4] == 0.87
    # 44 pairs, 40 rows laid out for typing: the four more look as the others
    assert [(ws.cell(52, c).fill.start_color.rgb, ws.cell(52, c).number_format) for c in (1, 3)] == [
        (ws.cell(9, c).fill.start_color.rgb, ws.cell(9, c).number_format) for c in (1, 3)] == [
        ("FFFFF2CC", "General"), ("FFFFF2CC", "0.00")]


@pytest.mark.parametrize("data, args, message", [
    ("ruter-club-evening.pbn", (), "1 çiftinin toplam skoru -1 0'ın altında (IMP veya Butler puanı, yüzde yok): "
                                   "etkinlik sayfası 0'dan başlayan skorları sıralar"),
    ("compscore-shape.xml", (), "dosyada 2 sıralama var ('NS', 'EW'): --section ile birini seçin"),
    ("compscore-shape.xml", ("--section", "A"), "dosyada 'A' sıralaması yok (sıralamaları: 'NS', 'EW')"),
    ("bridgecomposer-club-game.pbn", (), "dosya hiçbir çifti sıralamıyor: derecesi de skoru da yok"),
], ids=["imps", "two-rankings", "no-such-ranking", "no-ranking"])
def test_a_file_the_sheet_cannot_take_is_one_line_and_nothing_is_written(tmp_path, capsys, data, args, message):
    book = copy(tmp_path, "templates/tbf-club.xlsx")
    before = book.read_bytes()
    code, out, err = run(capsys, "import", book, DATA / data, *args)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"xlbridge: hata: çalışma kitabı: {message}",
                                f"xlbridge: hiçbir şey yazılmadı: sorunu düzeltin, sonra yeniden içe aktarın (xlbridge "
                                f"import {book} {DATA / data})"]
    assert book.read_bytes() == before and not list(tmp_path.glob("*.backup.xlsx"))


def test_one_ranking_of_a_two_winner_mitchell_with_section(tmp_path, capsys):
    """Compscore's 4-table Mitchell: two rankings. A Swedish sheet takes one direction as its event ("ren Mitchell
    räknas som två tävlingar"): EW chosen, its four pairs go to the sheet. TBF awards the directions over both
    together (section 8), which one ranking on a sheet cannot: refused, saying how (it was awarded as a Howell of
    the direction's pairs, without a word)."""
    found = rankings(read_results((DATA / "compscore-shape.xml").read_bytes()))
    assert {name: [p.id for p in pairs] for name, pairs in found.items()} == {
        "NS": ["1NS", "2NS", "3NS", "4NS"], "EW": ["1EW", "2EW", "3EW", "4EW"]}
    book = copy(tmp_path, "templates/tbf-club.xlsx")
    code, out, err = run(capsys, "import", book, DATA / "compscore-shape.xml", "--section", "EW")
    assert code == 2 and err.splitlines()[0].startswith("xlbridge: hata: Turnuva, B3: tr.club iki birincili bir "
                                                        "Mitchell'i iki yön birlikte dağıtır (TBF bölüm 8")
    assert book.read_bytes() == (ROOT / "templates/tbf-club.xlsx").read_bytes()
    swedish = copy(tmp_path, "templates/se-masterpoints.xlsx")
    code, out, err = run(capsys, "import", swedish, DATA / "compscore-shape.xml", "--section", "EW", "--sheet",
                         "Brons par")
    # (taken as the event: refused further on, for its few boards, which the Swedish bronze rules need 18 of)
    assert "två vinnare" not in err and "kräver minst 18 brickor" in err, err


def test_nothing_typed_is_replaced_and_a_second_import_is_refused(tmp_path, capsys):
    book = copy(tmp_path, "templates/tbf-club.xlsx")
    assert run(capsys, "import", book, MAGIC, "--no-backup")[0] == 0
    before = book.read_bytes()
    code, out, err = run(capsys, "import", book, MAGIC, "--no-backup")
    assert code == 2 and err.splitlines()[0] == ("xlbridge: hata: Turnuva, A9: Turnuva zaten sonuç içeriyor (9. "
                                                 "satırdan itibaren): hiçbir şey değiştirilmez; onları silin veya "
                                                 "sayfanın bir kopyasına aktarın")
    assert book.read_bytes() == before


def test_boards_typed_otherwise_is_refused_at_its_cell(tmp_path, capsys):
    book = copy(tmp_path, "templates/tbf-club.xlsx")
    wb = load_workbook(book)
    wb["Turnuva"]["B4"] = 24
    wb.save(book)
    code, out, err = run(capsys, "import", book, MAGIC)
    assert code == 2 and err.splitlines()[0] == ("xlbridge: hata: Turnuva, B4: El 24, ancak dosyadaki çiftler 30 el "
                                                 "oynadı: El değerini düzeltin veya bu etkinliğin dosyasını içe aktarın")


def test_the_swedish_workbook_names_its_sheet_and_takes_the_results(tmp_path, capsys):
    book = copy(tmp_path, "templates/se-masterpoints.xlsx")
    sheets = [ws.title for ws in load_workbook(book).worksheets if ws["A3"].value == "Schema"]
    assert len(sheets) > 1
    code, out, err = run(capsys, "import", book, MAGIC)
    assert code == 2 and err.splitlines()[0] == (f"xlbridge: fel: arbetsbok: arbetsboken har {len(sheets)} tävlingsblad "
                                                 f"({', '.join(sheets)}): ange ett med --sheet")
    code, out, err = run(capsys, "import", book, MAGIC, "--sheet", sheets[0], "--no-backup")
    assert code == 0, err
    ws = load_workbook(book)[sheets[0]]
    assert ws["A9"].value == 7 and ws["C9"].value == 61.21 and ws["D9"].value == 1


def test_a_damaged_results_file_is_refused_in_the_workbooks_language_and_nothing_written(tmp_path, capsys):
    """Each problem of the file at the file's name, in the workbook's language (Turkish here: it was "error: 1
    problem in the results file: ..." in English, or half translated), then that nothing was written."""
    book = copy(tmp_path, "templates/tbf-club.xlsx")
    before = book.read_bytes()
    junk = tmp_path / "junk.pbn"
    junk.write_bytes(b'[Event "x"]\n[TotalScoreTable "Rank\\2R;PairId\\2R"]\n 1 \x00\x01\n')
    code, out, err = run(capsys, "import", book, junk)
    assert code == 2 and err.splitlines() == [
        "xlbridge: hata: junk.pbn: dosya metin değil (sıfır baytlar içeriyor): ne PBN ne USEBIO",
        f"xlbridge: hiçbir şey yazılmadı: sorunu düzeltin, sonra yeniden içe aktarın (xlbridge import {book} {junk})"]
    assert book.read_bytes() == before and not list(tmp_path.glob("*.backup.xlsx"))
    code, out, err = run(capsys, "import", book, tmp_path / "missing.pbn")
    assert code == 2 and len(err.splitlines()) == 1 and "missing.pbn" in err


def values(book: Path) -> dict[str, list[tuple]]:
    """Every sheet's values but the Messages sheet's (which names the file imported)."""
    wb = load_workbook(book)
    return {ws.title: list(ws.iter_rows(values_only=True)) for ws in wb.worksheets
            if ws.title not in ("Mesajlar", "Meddelanden")}


def typed_by_hand(book: Path, sheet: str, imported: Path) -> None:
    """The ranking the import typed, typed again as the scorer types it: Boards, then each pair's number,
    players and score, best first, into the template's yellow cells."""
    source = load_workbook(imported)[sheet]
    wb = load_workbook(book)
    ws = wb[sheet]
    ws["B4"] = source["B4"].value
    row = 9
    while source.cell(row, 1).value is not None:
        for col in (1, 2, 3):
            ws.cell(row, col).value = source.cell(row, col).value
        row += 1
    wb.save(book)


@pytest.mark.parametrize("template, args", [("templates/tbf-club.xlsx", ()),
                                            ("templates/se-masterpoints.xlsx", ("--sheet", "Brons par"))],
                         ids=["tbf", "sweden"])
def test_the_import_equals_the_same_ranking_typed_by_hand_and_from_usebio(tmp_path, capsys, template, args):
    """Issue 27: the recalculation after an import equals the same results typed by hand -- and the same
    session exported as USEBIO (EBUScore's layout: places, totals, percentages) gives the same workbook."""
    (tmp_path / "pbn").mkdir(), (tmp_path / "usebio").mkdir(), (tmp_path / "hand").mkdir()
    book = copy(tmp_path / "pbn", template)
    assert run(capsys, "import", book, MAGIC, *args, "--no-backup")[0] == 0
    sheet = args[1] if args else "Turnuva"
    usebio = tmp_path / "session.xml"
    usebio.write_bytes(write_usebio(read_results(MAGIC.read_bytes())))
    from_usebio = copy(tmp_path / "usebio", template)
    code, out, err = run(capsys, "import", from_usebio, usebio, *args, "--no-backup")
    assert code == 0, err
    assert "44" in out and len(err.splitlines()) == 1  # the one warning: the tie the file broke
    hand = copy(tmp_path / "hand", template)
    typed_by_hand(hand, sheet, book)
    assert run(capsys, "recalc", hand, "--no-backup")[0] == 0
    got = values(book)
    assert [row[:6] for row in got[sheet][8:8 + 44]] != [row[:6] for row in values(copy(tmp_path, template))[sheet][8:8 + 44]]
    assert got == values(from_usebio) == values(hand)
