"""No English left in a shipped workbook built in another language (issue 17).

Each shipped workbook and template (``xlbridge.excel.shipped.SHIPPED``) is built in its
club's language. Every text cell is read and fails when it still shows English:

- the whole text is an English catalogue entry whose translation in that language is
  another word (a label, a note, a status written in the code's word);
- it holds an English phrase of two or more words of such an entry, as whole words
  (``points like``, ``tournaments played``);
- it holds one of the English words that never belong in a non-English workbook
  (:data:`NEVER`), as a whole word.

A text that starts with ``=`` (a How-to line showing a worksheet function, ``=BM_PCT(...) -> ...``)
fails when it is a whole English entry, or when what it says after ``->`` has an English word that
no other language uses (:data:`ENGLISH_GLUE`; a line the builder never marked for translation has no
entry to find): the function names stay English on purpose (docs/languages.md), what the line says
of them is translated (issue 26, point 9).

Not read: the typed example data of the demos (pair names, notes; :data:`TYPED`) and technical
tokens (file names, ``xlbridge recalc``, codes).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tools import catalogues
from xlbridge.excel.shipped import KINDS, SHIPPED
from xlbridge.language import _, speaking
from xlbridge.workbooks.record import RECORD, TITLE

ROOT = Path(__file__).resolve().parents[2]

#: English words that must never appear in a workbook built in nl, it, sv or tr.
NEVER = ("waiting", "unable", "split", "partial", "irreversible", "guest", "guests", "points like", "list",
         "played", "Recalculate", "Season", "Evening", "Year", "Period", "Corrections", "Messages", "still tied",
         "ill", "tournaments", "Blank", "How to", "Participation", "Championship")

#: English words found in any English sentence and in no sentence of nl, it, sv or tr: what a How-to line says
#: of a worksheet function after its ``->`` must not hold one.
ENGLISH_GLUE = ("the", "of", "for", "every", "with", "within", "and", "its", "two")

#: Typed example data of the demos: the scorer's own words, not the builder's.
TYPED = {
    "board 5: cards swapped at the table",
    "board 3 misboarded",
}

#: Technical tokens removed before looking: file paths, the CLI, codes.
TECHNICAL = re.compile(r"\S+\.(?:md|xlsx|py)\b|xlbridge recalc|\b[A-Z][A-Z0-9_]+\b")

#: Words equal in English and the language, or the same token in every language.
SAME = re.compile(r"^[\W\d_]*$")


def _phrase(words: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w/.-])" + re.escape(words) + r"(?![\w/.-])")


def _english(language: str) -> tuple[set[str], list[tuple[str, re.Pattern[str]]]]:
    """The English entries of the catalogue that read otherwise in ``language``: the
    whole texts, and the phrases of 2-4 plain words."""
    whole: set[str] = set()
    phrases: dict[str, re.Pattern[str]] = {}
    for m in catalogues.read(language):
        if not m.id or not m.string or isinstance(m.id, tuple):
            continue
        text, there = str(m.id), str(m.string)
        if text == there or SAME.match(text) or "{" in text:
            continue
        whole.add(text)
        words = text.split()
        if 2 <= len(words) <= 4 and all(re.fullmatch(r"[A-Za-z]+", w) for w in words) and text not in there:
            phrases[text] = _phrase(text)
    return whole, sorted(phrases.items())


def _texts(path: Path):
    wb = load_workbook(path)
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if ws.title == RECORD and c.coordinate != "A1":
                    # the record of the last recalculation (A2 on) is program data, JSON keyed by the
                    # program's sheet names, never shown to the scorer; its A1 title is read like any text
                    continue
                if isinstance(c.value, str) and c.value.strip():
                    yield f"{ws.title}!{c.coordinate}", c.value


def findings(path: Path, language: str) -> list[str]:
    whole, phrases = _english(language)
    never = [(w, _phrase(w)) for w in NEVER]
    out = []
    for where, text in _texts(path):
        if text in TYPED:
            continue
        if text in whole:
            out.append(f"{where}: {text!r} is an English entry")
            continue
        if text.startswith("="):  # a worksheet function's line: its names are the same in every language
            said = " ".join(TECHNICAL.sub(" ", part) for part in text.split("->")[1:])
            hits = [w for w in ENGLISH_GLUE if _phrase(w).search(said)]
            if hits:
                out.append(f"{where}: {text!r} says in English {hits} what the function gives")
            continue
        plain = TECHNICAL.sub(" ", text)
        hits = [w for w, p in never if p.search(plain)] + [w for w, p in phrases if p.search(plain)]
        if hits:
            out.append(f"{where}: {text!r} has English {sorted(set(hits))}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kind, blank, relative", SHIPPED, ids=[s[2] for s in SHIPPED])
def test_no_english_left(kind, blank, relative):
    language = KINDS[kind].language
    assert language != "en"
    found = findings(ROOT / relative, language)
    assert not found, f"{relative} ({language}) still shows English:\n" + "\n".join(found)
    # built with the record of its own recalculation: its title (A1, what a scorer who unhides the
    # sheet reads) is in the workbook's language
    title = load_workbook(ROOT / relative)[RECORD]["A1"].value
    with speaking(language):
        assert title == _(TITLE) != TITLE


@pytest.mark.parametrize("kind, blank, relative", SHIPPED, ids=[s[2] for s in SHIPPED])
def test_the_how_to_sheet_points_to_the_guide_in_its_language(kind, blank, relative):
    """Issue 26, point 9: Istruzioni pointed to docs/guide-bridgemania.md (English), not the Italian guide."""
    from xlbridge.workbooks.kinds import workbooks

    guides = workbooks()[kind].guides
    language = KINDS[kind].language
    texts = " ".join(text for _, text in _texts(ROOT / relative))
    if language in guides:
        assert guides[language] in texts
        english = guides.get("")
        assert not english or not _phrase(english).search(texts), f"{relative} names the English guide {english}"
