"""A workbook in its own language: which language it speaks, and its sheets by their English names.

A workbook is built in one language (``xlbridge new heeg PATH --lang nl``); its
language is the language of its sheet names -- ``Seizoen``, ``Avond 2025-09-04``,
``Jaar`` say Dutch -- so it travels with the workbook and needs no hidden setting
(docs/languages.md).  :func:`language_of` finds it; :class:`Localised` is the
workbook seen through its English sheet names, so that every kind reads, plans
and writes by the names it declares (``Season``, ``Evening ``), whatever the
language; the words on the sheets -- headers, labels, messages -- are looked up
in the language while :func:`xlbridge.language.speaking` is in force.

>>> Localised.local_name("Evening 2025-09-04", "nl"), Localised.canonical_name("Jaar", "nl")
('Avond 2025-09-04', 'Year')

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xlbridge.language import current, installed, sheet_name, speaking
from xlbridge.workbooks.book import BookAdapter, Grid, Layout

__all__ = ["SHEET_NAMES", "SHEET_PREFIXES", "Localised", "language_of", "localised", "rename_sheets", "built_in", "shown_name"]

#: Every sheet name a kind declares, in English (the kinds' own and the shared ones).
SHEET_NAMES: tuple[str, ...] = ("Season", "Year", "How to", "Corrections", "Messages", "Championship",
                                "Participation", "Blank tournament", "Chart")
#: Every declared prefix of a sheet name (the rest is a date or a label).
SHEET_PREFIXES: tuple[str, ...] = ("Evening ", "Period ")


def _names(language: str) -> dict[str, str]:
    return {sheet_name(n, language): n for n in SHEET_NAMES}


def language_of(book: BookAdapter, default: str = "en") -> str:
    """The language whose sheet names the workbook has most of (``default`` on a
    tie or when it has none of any installed language's)."""
    names = book.sheet_names()
    scores = {}
    for language in installed():
        own = set(_names(language))
        prefixes = [sheet_name(p, language) for p in SHEET_PREFIXES]
        scores[language] = sum(1 for n in names if n in own or any(n.startswith(p) for p in prefixes))
    best = max(scores.values())
    return default if best == 0 or scores.get(default) == best else max(scores, key=lambda k: scores[k])


class Localised:
    """``book`` (in ``language``) seen through the English sheet names."""

    english_names = True  # (seen through: never localised twice, also behind a view such as the kinds')

    def __init__(self, book: BookAdapter, language: str):
        self.book = book
        self.language = language

    @staticmethod
    def local_name(name: str, language: str) -> str:
        """The sheet ``name`` (English) as it is called in ``language``."""
        if name in SHEET_NAMES:
            return sheet_name(name, language)
        for prefix in SHEET_PREFIXES:
            if name.startswith(prefix):
                return sheet_name(prefix, language) + name[len(prefix):]
        return name

    @staticmethod
    def canonical_name(local: str, language: str) -> str:
        """The English name of the sheet called ``local`` in ``language``."""
        english = _names(language).get(local)
        if english is not None:
            return english
        for prefix in SHEET_PREFIXES:
            own = sheet_name(prefix, language)
            if local.startswith(own):
                return prefix + local[len(own):]
        return local

    def local(self, name: str) -> str:
        return self.local_name(name, self.language)

    def sheet_names(self) -> list[str]:
        """The sheets by their English names; a sheet whose name is a declared English
        name called otherwise in this language (a scorer's own sheet "Chart" in a Dutch
        workbook, whose chart sheet is "Grafiek") is not one of ours: left out."""
        out = []
        for name in self.book.sheet_names():
            canonical = self.canonical_name(name, self.language)
            if self.local(canonical) == name:
                out.append(canonical)
        return out

    def read(self, sheet: str) -> Grid:
        return self.book.read(self.local(sheet))

    def write(self, sheet: str, row: int, col: int, values: Sequence[Sequence[Any]]) -> None:
        self.book.write(self.local(sheet), row, col, values)

    def fill(self, sheet: str, row: int, col: int, colour: str | None) -> None:
        self.book.fill(self.local(sheet), row, col, colour)

    def add_sheet(self, name: str, after: str | None = None) -> None:
        self.book.add_sheet(self.local(name), after=self.local(after) if after is not None else None)

    def lay_out(self, sheet: str, layout: Layout) -> None:
        self.book.lay_out(self.local(sheet), layout)

    def alert(self, message: str) -> None:
        self.book.alert(message)

    def activate(self, sheet: str, cell: str = "A1") -> None:
        self.book.activate(self.local(sheet), cell)

    def __getattr__(self, name: str) -> Any:  # what else the backend offers (flush, ...)
        return getattr(self.book, name)


def localised(book: BookAdapter, language: str) -> BookAdapter:
    """``book`` through its English sheet names (itself when it speaks English)."""
    if language == "en" or getattr(book, "english_names", False):  # a Localised book, or a view over one
        return book
    return Localised(book, language)


def rename_sheets(workbook: Any, language: str) -> None:
    """Give every sheet of a workbook built with the English names (an openpyxl
    ``Workbook``) its name in ``language``."""
    for sheet in workbook.worksheets:
        sheet.title = Localised.local_name(sheet.title, language)


def built_in(build: Callable[..., Any], language: str, *args: Any, **kwargs: Any) -> Any:
    """The workbook ``build(*args, **kwargs)`` makes, in ``language``: built while the
    language is spoken (headers, labels, titles, the How to sheet), its sheets then
    given their names in it."""
    with speaking(language):
        workbook = build(*args, **kwargs)
    rename_sheets(workbook, language)
    return workbook


def shown_name(name: str) -> str:
    """A sheet's English name as the scorer sees it (in the language spoken now), for a message."""
    return Localised.local_name(name, current())
