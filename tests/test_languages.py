"""The languages: complete catalogues, compiled as committed, and a workbook that
gives the same numbers in every language (docs/languages.md).

- every message template and declared word of the package is an entry of every
  catalogue (``tools/catalogues.py`` extracts them with Babel), and every entry of a
  finished language is translated with the same ``{placeholders}``;
- the committed ``.mo`` files are what Babel compiles from the committed ``.po`` files;
- the Heeg workbook is Dutch unless asked otherwise, and a season typed in the Dutch
  workbook and the same season in the English one give identical numbers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tools import catalogues
from xlbridge.cli import main
from xlbridge.excel.shipped import KINDS
from xlbridge.files.headless import recalc_path
from xlbridge.language import LANGUAGES, _, catalogue, label, speaking
from xlbridge.rules.problems import Problem
from xlbridge.workbooks.recalc import BookInputError
from xlbridge.workbooks.record import RECORD
from xlbridge.workbooks.localised import Localised

#: The languages whose catalogue is complete: every entry translated.
FINISHED = ("nl", "it", "sv", "tr")


@pytest.fixture(scope="module")
def template():
    return catalogues.template()


def test_the_languages_are_the_catalogues():
    assert LANGUAGES == catalogues.LANGUAGES
    assert sorted(p.name for p in catalogues.LOCALE.iterdir()) == sorted(LANGUAGES)


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_and_label_is_an_entry(template, language):
    catalog = catalogues.read(language)
    absent = [(m.context, m.id) for m in template if m.id and catalog.get(m.id, m.context) is None]
    assert absent == [], "run: python -m tools.catalogues update (then translate and compile)"
    stale = [(m.context, m.id) for m in catalog if m.id and template.get(m.id, m.context) is None]
    assert stale == [], "entries no code uses any more: python -m tools.catalogues update"


@pytest.mark.slow
@pytest.mark.parametrize("language", FINISHED)
def test_a_finished_language_translates_every_entry(template, language):
    assert catalogues.missing(language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_translation_keeps_the_placeholders(language):
    def fields(text: str) -> list[str]:
        return sorted(re.findall(r"\{[^{}]*\}", text))

    def forms(text: str | tuple[str, ...]) -> list[list[str]]:  # a plural entry: each of its forms
        return [fields(t) for t in ((text,) if isinstance(text, str) else text)]

    wrong = [(m.id, m.string) for m in catalogues.read(language) if m.id and m.string
             and any(f != forms(m.id)[min(i, 1)] for i, f in enumerate(forms(m.string)))]  # singular, plural(s)
    assert wrong == []


@pytest.mark.parametrize("language", catalogues.TRANSLATED)
def test_the_mo_files_are_compiled_from_the_po_files(language):
    mo = catalogues.po_path(language).with_suffix(".mo")
    assert mo.read_bytes() == catalogues.mo_bytes(language), "run: python -m tools.catalogues compile"


def test_the_extraction_finds_the_problem_templates():
    source = 'at(sheet, "D7", "heeg.mp.not-a-number", "MP {value!r} is " "not a number", value=1)\nf("x.y", name)'
    assert list(catalogues.problem_templates(source)) == [(1, "heeg.mp.not-a-number", "MP {value!r} is not a number")]


def test_a_problem_is_worded_when_shown_in_the_language_spoken():
    p = Problem("heeg.mp.not-a-number", "MP {value!r} is not a number", value="1O3")
    with speaking("nl"):
        dutch = p.message
    assert dutch == "MP '1O3' is geen getal" and p.message == "MP '1O3' is not a number"
    assert label("code", "inv", "nl") == "inv" and label("pair", "Pair", "nl") == "Paar"
    assert catalogue("nl").gettext("Evening ") == "Avond "


# ------------------------------------------------------------------ the Heeg workbook in Dutch and in English


def _numbers(path: Path, language: str) -> dict[tuple[str, str], float]:
    """Every number of the workbook by (English sheet name, cell)."""
    wb = load_workbook(path)
    return {(Localised.canonical_name(ws.title, language), c.coordinate): c.value
            for ws in wb.worksheets for row in ws.iter_rows() for c in row
            if isinstance(c.value, (int, float)) and not isinstance(c.value, bool)}


@pytest.fixture(scope="module")
def heeg_books(tmp_path_factory, built_once):
    folder = tmp_path_factory.mktemp("languages")
    return built_once("heeg", folder / "nl.xlsx"), built_once("heeg", folder / "en.xlsx", language="en")


@pytest.mark.slow
def test_heeg_is_dutch_unless_asked(heeg_books):
    dutch, english = (load_workbook(p) for p in heeg_books)
    assert KINDS["heeg"].language == "nl"
    assert dutch.sheetnames[:4] == ["Seizoen", "Meldingen", "Jaar", "Periode 1"] and "Uitleg" in dutch.sheetnames
    assert english.sheetnames[:4] == ["Season", "Messages", "Year", "Period 1"] and "How to" in english.sheetnames
    evening = next(ws for ws in dutch.worksheets if ws.title.startswith("Avond "))
    assert [c.value for c in evening[1]][:3] == ["Paar", "Namen", "Lijn"]
    assert dutch["Seizoen"]["A1"].value == "Seizoen Bridge club Heeg (xlbridge)"
    assert dutch["Seizoen"]["A5"].value == "Lijnen (hoogste lijn eerst)" and dutch["Seizoen"]["B9"].value == "periode"
    assert [c.value for c in dutch["Jaar"][3]][:12] == ["Lijn", "Plaats", "Paar", "Namen", "Avonden", "jaar", "eind 1",
                                                       "eind 2", "eind 3", "tekens", "*", "kampioen"]
    assert dutch["Uitleg"]["A1"].value == "Zo houdt u het seizoen van Heeg bij in deze werkmap"


@pytest.mark.slow
def test_a_season_gives_the_same_numbers_in_dutch_and_in_english(heeg_books, tmp_path):
    dutch, english = heeg_books
    for path in heeg_books:  # a late correction typed in both: the same MP on the same evening
        wb = load_workbook(path)
        ws = next(ws for ws in reversed(wb.worksheets) if ws.title.startswith(("Avond ", "Evening ")))
        ws["D2"] = ws["D2"].value - 3
        wb.save(path)
    reports = [recalc_path(path, when="2026-11-30 20:00") for path in heeg_books]
    assert [r.language for r in reports] == ["nl", "en"]
    assert [(c.sheet, c.cell, c.old, c.new) for c in reports[0].changes] == \
        [(c.sheet, c.cell, c.old, c.new) for c in reports[1].changes] != []
    numbers = [_numbers(path, language) for path, language in zip(heeg_books, ("nl", "en"))]
    assert numbers[0] == numbers[1] and len(numbers[0]) > 5000
    corrections = load_workbook(dutch)["Correcties"]
    assert [c.value for c in corrections[1]] == ["Wanneer", "Blad", "Cel", "Paar", "Kolom", "Oude waarde", "Nieuwe waarde",
                                                   "Oorzaak"]
    assert corrections["B2"].value.startswith("Avond ")


@pytest.mark.slow
def test_the_dutch_workbook_speaks_dutch_on_the_command_line(heeg_books, tmp_path, capsys):
    path = tmp_path / "bad.xlsx"
    path.write_bytes(heeg_books[0].read_bytes())
    wb = load_workbook(path)
    ws = next(ws for ws in wb.worksheets if ws.title.startswith("Avond "))
    ws["D3"] = "1O3"
    wb.save(path)
    assert main(["recalc", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"xlbridge: fout: {ws.title}, D3: MP '1O3' in ronde 1 is geen getal" in err.splitlines()
    assert main(["recalc", str(path), "--lang", "en"]) == 2  # the workbook read as English: no Season sheet
    assert capsys.readouterr().err.startswith("xlbridge: error: workbook: the settings sheet 'Season' is missing")
    with pytest.raises(BookInputError) as caught:
        recalc_path(path)
    assert caught.value.language == "nl"
    with speaking("nl"):
        assert str(caught.value).startswith("de werkmap: 1 probleem: ")


def test_new_builds_in_the_language_asked(tmp_path, capsys):
    assert main(["new", "heeg", str(tmp_path / "en.xlsx"), "--blank", "--lang", "en"]) == 0
    assert load_workbook(tmp_path / "en.xlsx").sheetnames[0] == "Season"
    assert main(["new", "heeg", str(tmp_path / "nl.xlsx"), "--blank"]) == 0
    assert load_workbook(tmp_path / "nl.xlsx").sheetnames[0] == "Seizoen"
    assert main(["new", "heeg", str(tmp_path / "x.xlsx"), "--lang", "fr"]) == 2
    assert "invalid choice: 'fr'" in capsys.readouterr().err


def test_the_button_speaks_the_language(tmp_path, built_once):
    from xlbridge.excel.button import buttons

    with speaking("nl"):
        assert _("Recalculate season") == "Seizoen herberekenen"
    found = buttons(built_once("heeg", tmp_path / "nl.xlsx", blank=True))
    assert [(b["label"], b["sheet"]) for b in found] == [("Seizoen herberekenen", "Seizoen"),
                                                         ("Nieuwe avond", "Seizoen")]  # (New evening beside it)


# ------------------------------------------------------------------ the BridgeMania workbook in Italian and in English


def _number_or_text(value):
    """A changed value as compared across languages: a number as it is, a text as only 'a text'."""
    return "<text>" if isinstance(value, str) else value


@pytest.fixture(scope="module")
def bm_books(tmp_path_factory, built_once):
    folder = tmp_path_factory.mktemp("bm-languages")
    return built_once("bridgemania", folder / "it.xlsx"), built_once("bridgemania", folder / "en.xlsx", language="en")


@pytest.mark.slow
def test_bridgemania_is_italian_unless_asked(bm_books):
    italian, english = (load_workbook(p) for p in bm_books)
    assert KINDS["bridgemania"].language == "it"
    # last, the hidden record of the recalculation each was built with, named the same in every
    # language (workbooks/record.py)
    assert italian.sheetnames[0] == "Stagione" and italian.sheetnames[-6:] == ["Torneo vuoto", "Campionato", "Grafico",
                                                                               "Partecipazione", "Istruzioni", RECORD]
    assert english.sheetnames[0] == "Season" and english.sheetnames[-6:] == ["Blank tournament", "Championship", "Chart",
                                                                             "Participation", "How to", RECORD]
    season = italian["Stagione"]
    assert [season.cell(row=4, column=c).value for c in (1, 2, 3, 7, 10)] == ["Coppia", "Giocatore 1", "Giocatore 2",
                                                                              "Ospite", "Torneo"]
    assert season["G3"].value == "Registro delle coppie ospiti"
    assert italian["Campionato"]["A4"].value == "Classifica finale — Ricalibratura della storia (C.04)"
    statuses = {c.value for ws in italian.worksheets if ws.title.startswith("T") for c in ws["B"][8:]}
    assert {"lista di attesa", "malattia"} <= statuses and not statuses & {"waiting", "ill", "unable"}


@pytest.mark.slow
def test_a_season_gives_the_same_numbers_in_italian_and_in_english(bm_books):
    for path in bm_books:  # a late correction typed in both: two scores of a board swapped
        wb = load_workbook(path)
        ws = wb["T03"]
        ws["E9"], ws["E10"] = ws["E10"].value, ws["E9"].value  # board 1
        wb.save(path)
    reports = [recalc_path(path, when="2026-11-30 20:00") for path in bm_books]
    assert [r.language for r in reports] == ["it", "en"]
    # the same cells change to the same numbers; a changed text (a tie-break note) is in each book's language
    changed = [[(c.sheet, c.cell, _number_or_text(c.old), _number_or_text(c.new)) for c in r.changes] for r in reports]
    assert changed[0] == changed[1] != []
    texts = {v for c in reports[0].changes for v in (c.old, c.new) if isinstance(v, str)}
    assert not any("points like" in t or "tournaments played" in t for t in texts)
    numbers = [_numbers(path, language) for path, language in zip(bm_books, ("it", "en"))]
    assert numbers[0] == numbers[1] and len(numbers[0]) > 2000


# ------------------------------------------------------------------ the event workbooks in Turkish and Swedish


@pytest.mark.slow
@pytest.mark.parametrize("kind, language, sheet, header, unit", [
    ("tbf-club", "tr", "Turnuva", ["Çift", "Oyuncular", "Skor %", "Derece", "MP", "Renk"], "yeşil"),
    ("se-masterpoints", "sv", "Brons par", ["Par", "Spelare", "Resultat %", "Plac", "Poäng", "Enhet"], "bp"),
])
def test_an_event_workbook_speaks_its_federations_language_and_gives_the_same_numbers(tmp_path, kind, language, sheet,
                                                                                      header, unit, built_once):
    assert KINDS[kind].language == language
    books = built_once(kind, tmp_path / "own.xlsx"), built_once(kind, tmp_path / "en.xlsx", language="en")
    own = load_workbook(books[0])
    assert sheet in own.sheetnames and Localised.local_name("How to", language) in own.sheetnames
    in_place = [header[3], *header[:3], *header[4:]]  # the results again in place order, right of the table
    assert [c.value for c in own[sheet][8]] == header + [None] + in_place
    assert own[sheet]["A3"].value == label("scheme", "Scheme", language)
    assert own[sheet]["F9"].value == unit
    reports = [recalc_path(path, when="2026-11-30 20:00") for path in books]
    assert [r.language for r in reports] == [language, "en"] and [r.changes for r in reports] == [[], []]
    numbers = [_numbers(path, lang) for path, lang in zip(books, (language, "en"))]
    assert list(numbers[0].values()) == list(numbers[1].values()) and len(numbers[0]) > 50


def test_translated_sheet_names_name_one_language():
    from xlbridge.workbooks.localised import SHEET_NAMES, SHEET_PREFIXES

    for english in (*SHEET_NAMES, *SHEET_PREFIXES):
        words = {language: catalogue(language).gettext(english) for language in LANGUAGES}
        own = [w for w in words.values() if w != english]
        assert len(own) == len(set(own)), (english, words)


def test_italian_names_the_third_table_as_the_regolamento_does():
    """Issue 26, point 15: the Grafico's title said "Hybrid" while its columns said "PTS Hibryd";
    the Regolamento writes F1 HIBRYD."""
    hybrid = [m.string for m in catalogues.read("it") if m.string and "Hybrid" in str(m.string)]
    assert hybrid == []
    with speaking("it"):
        assert "Hibryd" in _("Pair {pair}: F1, IndyCar and Hybrid PTS after each tournament")


def test_a_number_in_a_message_has_the_languages_decimal_sign():
    """Issue 26, point 10: Dutch messages showed "62.5 ... (nu 68.06)" where the scorer types 62,5."""
    from xlbridge.rules.problems import Problem

    problem = Problem("x", "{value!r} {share:.1f} {count}", value=62.5, share=60.0, count=3)
    assert problem.message == "62.5 60.0 3"
    for language in ("nl", "it", "sv", "tr"):
        with speaking(language):
            assert problem.message == "62,5 60,0 3"


@pytest.mark.parametrize("environment, system, expected", [
    ({"LANG": "C"}, "", "en"), ({"LANG": "POSIX"}, "nl_NL", "en"), ({"LANGUAGE": ":"}, "", "en"),
    ({"LANGUAGE": "::nl"}, "", "nl"), ({"LANG": "nl_NL@euro"}, "", "nl"), ({"LANG": "zh_TW.Big5"}, "", "en"),
    ({"LANG": " "}, "", "en"), ({"LANG": "NL_nl.utf8"}, "", "nl"), ({"LANG": "it-IT"}, "", "it"),
    ({"LANG": "tr_TR.ISO-8859-9"}, "", "tr"), ({"LANG": "x" * 10_000}, "", "en"), ({"LANG": "\x00"}, "", "en"),
    ({}, "Swedish_Sweden", "sv"), ({}, "English_United States", "en"), ({}, "", "en"),
])
def test_the_users_language_from_any_locale_setting(environment, system, expected):
    """What a machine may hold in its locale variables (xlbridge.language.user_language): one of xlbridge's
    languages where it names one, else English; never an error."""
    from xlbridge.language import user_language

    assert user_language(environment, system) == expected
