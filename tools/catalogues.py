"""The gettext catalogues of xlbridge: extract, update, compile (Babel).

    python -m tools.catalogues update     extract every message and label, merge into each xlbridge/locale/LANG .po
    python -m tools.catalogues compile    compile every translated .po into its .mo (what the package reads at run time)
    python -m tools.catalogues check      exit 1 when a .po lacks an entry or a translation, or a .mo is stale

What goes into the catalogues (docs/languages.md):

- every message template: the ``_()`` / ``N_()`` / ``pgettext()`` calls, and every
  typed problem's template -- a call whose arguments hold a problem code
  (``"heeg.mp.not-a-number"``) followed by the template as a literal
  (``RuleError``, ``Problem``, ``at``, a module's own ``bad``/``add`` helpers) --
  found by :func:`extract_xlbridge`, a Babel extraction method;
- every declared word: each kind's sheets (:func:`declared`): the labels of
  columns and settings with their label id as the context, settings' notes,
  titles and sheet names.

Babel is needed only here and in the tests; the package reads the ``.mo`` files
with the standard library's :mod:`gettext`.
"""

from __future__ import annotations

import ast
import io
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "xlbridge"
LOCALE = PACKAGE / "locale"
DOMAIN = "xlbridge"
TRANSLATED = ("nl", "it", "sv", "tr")
LANGUAGES = ("en", *TRANSLATED)
#: A problem code: dotted lower-case words (``heeg.mp.not-a-number``, ``option.range``).
CODE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_-]+)+$")


def _literal(node: ast.AST) -> str | None:
    """A string literal, or literals joined with ``+`` / implicit concatenation."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left), _literal(node.right)
        return left + right if left is not None and right is not None else None
    return None


def problem_templates(source: str) -> Iterator[tuple[int, str, str]]:
    """(line, code, template) of every call with a problem code followed by a literal template."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        for i, arg in enumerate(node.args[:-1]):
            code = _literal(arg)
            if code and CODE.match(code):
                template = _literal(node.args[i + 1])
                if template:
                    yield node.lineno, code, template
                break


def extract_xlbridge(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple]:
    """A Babel extraction method: the gettext calls and the problem templates of a module."""
    data = fileobj.read()
    yield from extract_python(io.BytesIO(data), keywords, comment_tags, options)
    for line, code, template in problem_templates(data.decode("utf-8")):
        yield line, None, template, [f"problem {code}"]


def declared() -> Iterator[tuple[str | None, str, str]]:
    """(context, message, where) of every declared word: labels (context: the label id),
    notes and sheet names of each kind's sheets."""
    from xlbridge.workbooks import declare
    from xlbridge.workbooks.localised import SHEET_NAMES, SHEET_PREFIXES

    for name in (*SHEET_NAMES, *SHEET_PREFIXES):
        yield None, name, "sheet name"
    from xlbridge.workbooks.events.declaration import UNIT_WORDS

    for word in UNIT_WORDS:
        yield "unit", word, "events: an award's unit"
    from xlbridge.workbooks.heeg.declaration import SIGNAL_WORDS

    for words, where in ((declare.RULE_WORDS, "an input rule's words"), (SIGNAL_WORDS, "heeg: a signal in words")):
        for key, text in words.items():
            yield key, text, where
    for kind, specs in _kind_sheets().items():
        for spec in specs:  # (titles are marked where they are written: N_ or _)
            for setting in spec.settings:
                yield setting.label_id or setting.id, setting.label, f"{kind} {spec.id} setting"
                for value in setting.allowed:
                    yield setting.label_id or setting.id, value, f"{kind} {spec.id} setting value"
                if setting.note:
                    yield None, setting.note, f"{kind} {spec.id} note"
                if setting.help:
                    yield None, setting.help, f"{kind} {spec.id} setting help"
            for table in spec.tables:
                for column in table.columns:
                    if re.search(r"[A-Za-z]", column.label):
                        yield column.label_id or column.id, column.label, f"{kind} {table.id} column"
                    if column.help:
                        yield None, column.help, f"{kind} {table.id} column help"
                    for value in column.allowed:  # the words typed in it (not codes such as a, s1)
                        if len(value) > 2:
                            yield column.label_id or column.id, value, f"{kind} {table.id} column value"
    assert declare  # the declarations' module is what is walked


def _kind_sheets() -> dict[str, list[Any]]:
    """Each kind's sheets, as its declaration gives them (with sample parameters)."""
    from xlbridge.workbooks.bridgemania import declaration as bm
    from xlbridge.workbooks.declare import SheetSpec
    from xlbridge.workbooks.events import declaration as events
    from xlbridge.workbooks.heeg import declaration as heeg

    from xlbridge.workbooks.write import CORRECTIONS_SPEC

    labels = ["1", "2"]
    return {
        "every kind": [CORRECTIONS_SPEC],
        "heeg": [heeg.season_spec(labels, 2), heeg.evening_spec(6, labels), heeg.period_spec("1"),
                 heeg.year_spec(labels), heeg.chart_spec(18)],
        "bridgemania": [bm.SEASON_SHEET, bm.tournament_sheet(2), bm.CHAMPIONSHIP_SHEET, bm.PARTICIPATION_SHEET, bm.CHART_SHEET,
                        SheetSpec("sections", "", tables=tuple(section.table for section in bm.SECTIONS))],
        "events": [events.READER, *(events.event_sheet("", "", labels) for labels in
                                    (events.TBF_LABELS, events.PAIRS_LABELS, events.TEAMS_LABELS))],
    }


def template() -> Catalog:
    """The catalogue template: every message and declared word, untranslated."""
    catalog = Catalog(domain=DOMAIN, project="xlbridge", version="1", copyright_holder="xlbridge",
                      charset="utf-8", fuzzy=False)
    keywords = {**DEFAULT_KEYWORDS, "N_plural": (1, 2)}
    found = extract_from_dir(PACKAGE, method_map=[("**.py", extract_xlbridge)], keywords=keywords,
                             comment_tags=("TRANSLATORS:",), directory_filter=lambda d: "__pycache__" not in d)
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(f"xlbridge/{filename}", lineno)], auto_comments=comments, context=context)
    for context, message, where in declared():
        existing = catalog.get(message, context)
        if existing is None:
            catalog.add(message, None, [], auto_comments=[where], context=context)
    return catalog


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as fp:
        return read_po(fp, locale=language, domain=DOMAIN)


def update(languages: Iterable[str] = LANGUAGES) -> None:
    """Merge the template into every catalogue (new entries untranslated; obsolete ones dropped)."""
    for language in languages:
        pot = template()  # (a merged catalogue takes over the template's entries)
        path = po_path(language)
        if path.exists():
            catalog = read(language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, domain=DOMAIN, project="xlbridge", version="1", fuzzy=False)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        if language == "en":  # English is the language of the code: every entry as written
            for message in catalog:
                if message.id:
                    message.string = message.id
        with path.open("wb") as fp:
            write_po(fp, catalog, width=120, omit_header=False, sort_output=True, include_previous=False)


def mo_bytes(language: str) -> bytes:
    """The compiled catalogue of ``language`` (what ``compile`` writes)."""
    catalog = read(language)
    catalog.creation_date = catalog.revision_date = catalog.creation_date.replace(year=2026, month=1, day=1, hour=0,
                                                                                  minute=0, second=0)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def compile_all(languages: Iterable[str] = TRANSLATED) -> None:
    """Compile the ``.mo`` of every translated language (English needs none: the code's own words)."""
    for language in languages:
        po_path(language).with_suffix(".mo").write_bytes(mo_bytes(language))


def missing(language: str) -> list[str]:
    """What the catalogue of ``language`` lacks: entries of the template, translations."""
    catalog = read(language)
    out = []
    for message in template():
        if not message.id:
            continue
        have = catalog.get(message.id, message.context)
        if have is None:
            out.append(f"{language}: no entry {message.id!r} (context {message.context!r})")
        elif not have.string or (isinstance(have.string, tuple) and not all(have.string)):  # (every plural form)
            out.append(f"{language}: untranslated {message.id!r} (context {message.context!r})")
    return out


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        problems = [p for language in LANGUAGES for p in missing(language)]
        problems += [f"{language}: the .mo is not compiled from the .po" for language in TRANSLATED
                     if po_path(language).with_suffix(".mo").read_bytes() != mo_bytes(language)]
        print("\n".join(problems) or "the catalogues are complete and compiled")
        return 1 if problems else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
