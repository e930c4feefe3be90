"""The text xlwings Lite shows the scorer (``main.py``'s docstring, App Mode and the
task pane, and the script's docstring) is in the workbook's language: the kind's
language by default, English with ``language="en"`` (``--lang en``); the code
around it stays valid Python and the script keeps its name."""

from __future__ import annotations

import ast

import pytest

from xlbridge.excel.bundle import ACTION, MAIN_DOC, SCRIPT_DOC, lite_files, main_py
from xlbridge.excel.shipped import KINDS

#: Words of each kind's language the docstring must hold (the title, the button's
#: label, the sheet names), and English words it must not.
WORDS = {
    "heeg": ("nl", ["Clubseizoen Heeg", "Klik na het invullen", "**Seizoen herberekenen**", "*Seizoen*",
                    "*Meldingen*", "*Correcties*", "*Uitleg*", "Score berekening Bridge club Heeg"]),
    "bridgemania": ("it", ["Stagione del Campionato BridgeMania", "cliccare **Ricalcola stagione**", "*Stagione*",
                           "*Messaggi*", "*Correzioni*", "*Istruzioni*", "Regolamento 24^ Campionato BridgeMania"]),
    "se-masterpoints": ("sv", ["Svenska mästarpoängtävlingar", "**Räkna om säsongen**", "*Brons par*",
                               "*Meddelanden*", "*Rättelser*", "*Instruktioner*"]),
    "tbf-club": ("tr", ["TBF kulüp turnuvası", "**Sezonu yeniden hesapla**", "*Turnuva*", "*Mesajlar*",
                        "*Düzeltmeler*", "*Nasıl kullanılır*", "TBF Masterpoint Kitapçığı v2.0"]),
}
ENGLISH = ["After typing results", "Cells you typed are never changed", "keeps the list", "*Messages*",
           "Fill every computed cell"]


def _main(kind_name: str, language: str | None = None) -> str:
    kind = KINDS[kind_name]
    kind = kind.in_language(language or kind.language)
    return main_py(kind.button, title=kind.title, rules=kind.rules, exclude=kind.never_read, files={},
                   language=kind.language)


def _docs(text: str) -> tuple[str, str, ast.FunctionDef]:
    tree = ast.parse(text)
    script = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "recalculate_season")
    return ast.get_docstring(tree, clean=False), ast.get_docstring(script), script


@pytest.mark.parametrize("kind_name", sorted(WORDS))
def test_the_lite_text_is_in_the_kinds_language(kind_name: str) -> None:
    language, words = WORDS[kind_name]
    assert KINDS[kind_name].language == language
    text = _main(kind_name)
    compile(text, "main.py", "exec")
    doc, script_doc, script = _docs(text)
    flat, flat_script = " ".join(doc.split()), " ".join(script_doc.split())  # (the text is wrapped)
    for word in words:
        assert word in flat, (kind_name, word, doc)
    for word in ENGLISH:
        assert word not in flat and word not in flat_script, (kind_name, word)
    assert script_doc and "xlbridge" not in script_doc.split()[0]
    # the script keeps its name (English, docs/languages.md) and stays wired to the button
    call = script.decorator_list[0]
    assert isinstance(call, ast.Call)
    keywords = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    assert keywords["name"] == ACTION == "Recalculate season"
    assert keywords["button"].startswith("[xlbridge_button]")


@pytest.mark.parametrize("kind_name", sorted(WORDS))
def test_lang_en_gives_the_english_text(kind_name: str) -> None:
    text = _main(kind_name, "en")
    compile(text, "main.py", "exec")
    doc, script_doc, _ = _docs(text)
    kind = KINDS[kind_name]
    assert doc.startswith(f"# {kind.title}\n\nAfter typing results, click **Recalculate season**")
    assert f"by the rules of {kind.rules}." in " ".join(doc.split())
    for word in ("*Messages*", "*Corrections*", "*How to*"):
        assert word in " ".join(doc.split())
    assert " ".join(script_doc.split()) == SCRIPT_DOC.format(messages="Messages")
    for paragraph in MAIN_DOC[1:]:
        assert paragraph.split("{")[0].strip() in " ".join(doc.split())


def test_the_default_language_is_english_and_lite_files_passes_it_on() -> None:
    kind = KINDS["heeg"]
    english = main_py(kind.button, title=kind.title, rules=kind.rules, files={})
    assert "After typing results" in english
    dutch = kind.in_language("nl")
    files = lite_files(dutch.button, title=dutch.title, rules=dutch.rules, exclude=dutch.never_read, language="nl")
    assert "Klik na het invullen" in files["main.py"]
    compile(files["main.py"], "main.py", "exec")


@pytest.mark.parametrize("kind_name", sorted(WORDS))
@pytest.mark.parametrize("language", ["en", "nl", "it", "sv", "tr"])
def test_every_kind_in_every_language_compiles(kind_name: str, language: str) -> None:
    """Any kind may be built in any language (``--lang``): its text is translated and valid."""
    text = _main(kind_name, language)
    compile(text, "main.py", "exec")
    doc, _, _ = _docs(text)
    assert "{" not in doc.replace("`=AWARD(...)`", "")  # every placeholder filled


def test_the_shipped_workbooks_carry_the_text_in_their_language() -> None:
    from pathlib import Path

    from tests import lite_files

    root = Path(__file__).resolve().parents[2]
    main = lite_files.extract(root / "workbooks" / "heeg-demo.xlsx")["main.py"]
    main = " ".join(main.split())
    assert "Klik na het invullen" in main and "After typing results" not in main
    main = lite_files.extract(root / "templates" / "bridgemania-season.xlsx")["main.py"]
    assert "cliccare **Ricalcola stagione**" in " ".join(main.split())
