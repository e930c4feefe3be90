"""The languages xlbridge speaks: gettext catalogues, read with the standard library.

Every word a scorer meets -- sheet names, headers, settings labels, the How-to
sheet, messages -- is looked up in the catalogue of the workbook's language
(``xlbridge/locale/LANG/LC_MESSAGES/xlbridge.mo``, the gettext domain
``xlbridge``).  The English text written in the code is the message id; a
declared label has its id as the context (``pgettext(label_id, "Pair")``).
Nothing decides anything from the words: code decides on ids and codes.

The catalogues are made with Babel (docs/languages.md: extract, update, compile);
at run time only :mod:`gettext` reads them, so they work in xlwings Lite too
(the ``.mo`` files are read through :mod:`importlib.resources`, also from a zip).

>>> with speaking("nl"):
...     _("Season"), label("pair", "Pair"), current()
('Seizoen', 'Paar', 'nl')
>>> _("Season"), current()
('Season', 'en')

Standard library only.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources

from xlbridge.rules.problems import N_, N_plural, set_translator, translator

__all__ = ["LANGUAGES", "DOMAIN", "installed", "catalogue", "speaking", "current", "_", "N_", "N_plural", "ngettext", "label", "sheet_name"]

#: The languages of the catalogues; English is the language of the code.
LANGUAGES: tuple[str, ...] = ("en", "nl", "it", "sv", "tr")
#: The gettext domain.
DOMAIN = "xlbridge"
_current = "en"


@lru_cache(maxsize=None)
def catalogue(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English: the words as written)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; xlbridge speaks {', '.join(LANGUAGES)}")
    if language == "en":
        return gettext.NullTranslations()
    path = resources.files("xlbridge").joinpath("locale", language, "LC_MESSAGES", f"{DOMAIN}.mo")
    with path.open("rb") as fp:
        return gettext.GNUTranslations(fp)


@lru_cache(maxsize=None)
def installed() -> tuple[str, ...]:
    """The languages whose catalogue is here (English always): the code an xlwings Lite
    workbook carries has its own language's only (:func:`xlbridge.excel.bundle.source_files`)."""
    root = resources.files("xlbridge").joinpath("locale")
    return tuple(lang for lang in LANGUAGES
                 if lang == "en" or root.joinpath(lang, "LC_MESSAGES", f"{DOMAIN}.mo").is_file())


def current() -> str:
    """The language words are looked up in now (``en`` outside :func:`speaking`)."""
    return _current


#: A language as Windows names a locale (``Dutch_Netherlands``), by its English name.
_LOCALE_NAMES = {"english": "en", "dutch": "nl", "italian": "it", "swedish": "sv", "turkish": "tr"}


def user_language(environ: Mapping[str, str] = os.environ, system: str | None = None) -> str:
    """The language of the user's locale where xlbridge speaks it, else English: the first of the variables
    gettext reads (``LANGUAGE``, a list, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) that is set, else the
    system's locale (``system``, default :func:`locale.getlocale`: Windows names it ``Dutch_Netherlands``).
    What the command line says before a workbook's language is known (a file that is missing, open in Excel).

    >>> user_language({"LANG": "nl_NL.UTF-8"}), user_language({"LANGUAGE": "de:it", "LANG": "nl_NL"})
    ('nl', 'it')
    >>> user_language({"LC_ALL": "C.UTF-8", "LANG": "sv_SE"}), user_language({}, "Turkish_Turkey")
    ('en', 'tr')
    """
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(variable):
            found = [_locale_language(name) for name in environ[variable].split(":")]
            return next((language for language in found if language), "en")
    if system is None:
        import locale

        system = locale.getlocale()[0] or ""
    return _locale_language(system) or "en"


def _locale_language(name: str) -> str | None:
    code = name.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()
    code = _LOCALE_NAMES.get(code, code)
    return code if code in LANGUAGES else None


@contextmanager
def speaking(language: str) -> Iterator[str]:
    """Look every word and message template up in ``language`` inside the block."""
    global _current
    words = catalogue(language)
    before, translating = _current, translator()
    _current = language
    set_translator(*((None, None) if language == "en" else (words.gettext, words.ngettext)))
    try:
        yield language
    finally:
        _current = before
        set_translator(*translating)


def _(message: str) -> str:
    """``message`` in the current language."""
    return catalogue(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` in the current language, as its plural rule chooses for ``n``.

    >>> with speaking("nl"):
    ...     ngettext("provisional: {played} of {count} evening played",
    ...              "provisional: {played} of {count} evenings played", 6).format(played=1, count=6)
    'voorlopig: 1 van 6 avonden gespeeld'
    """
    return catalogue(_current).ngettext(singular, plural, n)


def label(label_id: str, english: str, language: str | None = None) -> str:
    """The declared label ``label_id`` (English ``english``) in ``language``
    (default: the current one)."""
    return catalogue(language or _current).pgettext(label_id, english)


def sheet_name(english: str, language: str | None = None) -> str:
    """A sheet's name (or a name's prefix, ``"Evening "``) in ``language``."""
    return catalogue(language or _current).gettext(english)
