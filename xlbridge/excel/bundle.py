"""The code a shipped workbook carries for xlwings Lite.

xlwings Lite runs the workbook's ``main.py`` in Pyodide and installs what
``requirements.txt`` lists from PyPI (pure-Python wheels only).  xlbridge is not
something Lite can install by name, so the workbook carries the package itself:
``main.py`` defines the "Recalculate season" script itself (Lite lists the scripts
it finds in ``main.py``; a thin call into the package) and holds a zip of the
``xlbridge`` package (base64) -- of a built workbook, only the modules its kind's
Excel path imports with their data tables, and its language's catalogue
(:func:`source_files`: fewer files to unpack and compile on start) -- which it unpacks into
Pyodide's in-memory file system on start; it then imports the worksheet functions
into its own namespace, where Lite finds and registers them.  The Excel path needs
only the standard library and xlwings (``requirements.txt``).

Reasons (docs/install.md): no network location to host a wheel, no version drift
between a workbook and its code, and the test ``tests/test_lite.py`` can prove
that every shipped workbook carries exactly the current sources.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import io
import json
import textwrap
import zipfile
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import PurePosixPath

from xlbridge import __version__
from xlbridge.language import _, sheet_name, speaking
from xlbridge.rules import RULE_SET_MODULES
from xlbridge.rules.problems import N_
from xlbridge.workbooks import kinds as registry
from xlbridge.workbooks.kinds import Button  # noqa: F401  (the button, declared by each kind)
from xlbridge.workbooks.messages import ACTION

#: What ``requirements.txt`` asks Lite to install: xlwings only, besides the two
#: packages every Lite workbook observed carried as "required" (the add-in's own
#: start-up uses them).  A bounded range, as xlwings Lite's documentation advises
#: (Lite records the exact versions it resolved in ``requirements-pinned.txt``); the
#: tests run the newest release in the range, which is what Lite resolves to
#: (docs/install.md, "Versions").  Nothing else: the Excel path needs only the
#: standard library and xlwings, so Lite starts fast; and the one pure-Python wheel the
#: Import results script needs for USEBIO's XML, imported only when that script runs.
REQUIREMENTS = (
    "xlwings>=0.37,<0.38  # required\n"
    "python-dotenv>=1.0,<2  # required\n"
    "pyodide-http>=0.2,<0.3  # required\n"
    "defusedxml>=0.7,<0.8  # Import results: USEBIO files (docs/import.md)\n"
)

#: Parts of the package that are never needed inside Excel: the headless door and
#: the file layer (openpyxl, a lock library), the shipped-workbook builder and the
#: house style (openpyxl), the analyst's pandas interface; with them each kind's builder
#: and the files its declaration names, such as its demo season (:func:`excluded`).
#: A folder ends in "/".
EXCLUDED = {"cli.py", "__main__.py", "files/", "excel/bundle.py", "excel/server.py",
            "excel/server_guard.py", "excel/server_pool.py", "excel/classic.py", "excel/shipped.py", "excel/lite.py",
            "excel/button.py", "clubs/frames.py", "workbooks/style.py", "workbooks/openpyxl_book.py"}


def excluded() -> set[str]:
    """:data:`EXCLUDED` and, of every kind (:func:`xlbridge.workbooks.kinds.workbooks`), its builder's
    module and what its declaration leaves out (:attr:`~xlbridge.workbooks.kinds.WorkbookKind.lite_excluded`)."""
    kinds = registry.workbooks().values()
    return EXCLUDED | {kind.builder_file() for kind in kinds} | {name for kind in kinds for name in kind.lite_excluded}
SUFFIXES = (".py", ".csv", ".mo")  # .mo: the compiled catalogues of the languages
FIXED_TIME = (2026, 1, 1, 0, 0, 0)  # zip entries get a fixed time: the bundle is reproducible

MARK_BEGIN = '_BUNDLE = """'
MARK_END = '"""'


#: The prose xlwings Lite shows the scorer (``main.py``'s docstring, App Mode and the
#: task pane) and the script's docstring: one catalogue entry per paragraph, in the
#: workbook's language (:func:`main_py`), wrapped when written.  ``{label}`` is the
#: button's label on the sheet (translated), ``{action}`` the script's name in the
#: pane (English in every workbook, docs/languages.md).
MAIN_DOC = (
    N_("After typing results, click **{label}** (the blue button on the sheet *{sheet}*, or the button "
       "*{action}* below). xlbridge then fills every computed cell of this workbook by the rules of {rules}. "
       "Cells you typed are never changed."),
    N_("Something wrong in what you typed? Then nothing is recalculated: a message lists every problem with "
       "its sheet and cell, those cells turn red, and the sheet *{messages}* keeps the list. Correct them and "
       "click again."),
    N_("A result that changes a number computed earlier (a late correction) is listed on the sheet "
       "*{corrections}*, with the old and the new value."),
    N_("The sheet *{how_to}* explains what to type where, and the worksheet functions (such as `=AWARD(...)`) "
       "that work in any cell."),
    N_("This file was written by xlbridge {version}; do not edit it here (a new workbook from `xlbridge new` "
       "carries the newest code)."),
)
SCRIPT_DOC = N_("Fill every computed cell from what you typed: percentages, corrections, standings and points. "
                "Nothing is written when something you typed is wrong: the message and the *{messages}* sheet "
                "say what and where.")

#: The second script of a season workbook, by its action (the kind's ``next_button``, :mod:`xlbridge.workbooks.kinds`):
#: the function's name, its arguments after the book (form fields in App Mode; a sheet button
#: passes none) and the scorer's text (``{season}``: the Season sheet's name).
NEXT_SCRIPTS = {
    "New evening": ("new_evening", "date: dt.date | None = None, next_period: bool = False",
                    "day=date, next_period=next_period"),
    "New tournament": ("new_tournament", 'date: dt.date | None = None, name: str = ""', "day=date, name=name"),
}
NEXT_DOCS = {
    "New evening": N_("Add the next evening: its sheet with the pairs of the period, and its date in the periods "
                      "table of the sheet *{season}*. *date*: the evening's date (empty: one week after the last "
                      "evening, or the first evening the sheet *{season}* lists without its sheet); *next_period*: "
                      "start the next period. Nothing is written when something is wrong: the message says what "
                      "and where."),
    "New tournament": N_("Add the next tournament: its sheet with the base pairs, and its row in the calendar of "
                         "the sheet *{season}* (the next host from the Participation sheet). *date*: the "
                         "tournament's date (empty: one week after the last one); *name*: its name (empty: the "
                         "next number, T14 -> T15). Nothing is written when something is wrong: the message says "
                         "what and where."),
}
NEXT_PARAGRAPH = N_("To start the next evening or tournament, click **{next_label}** (beside it, or the button "
                    "*{next_action}* below): xlbridge adds its sheet with the pairs already listed and enters it on "
                    "the sheet *{sheet}*.")
NEXT_TEMPLATE = '''

@script(name={action!r}, button={button!r}, show_taskpane=True{sheets})
def {function}(book: xw.Book, {arguments}):
    """{doc}"""
    from xlbridge.excel.scripts import add_next_sheet

    add_next_sheet(book, {call})
'''

#: The Import results script (no button: the task pane and App Mode, with its form fields).
IMPORT_ACTION = "Import results"
IMPORT_DOC = N_("Import the evening's results from the scoring program: first import its PBN or USEBIO file into "
                "xlwings Lite (its Files menu, Import); this fills the typed cells the results give and "
                "recalculates, as xlbridge import does. *file*: the file's name (empty: the only one); *sheet*: "
                "the sheet to fill (empty: the one the file is for); *section*: the file's section or ranking. "
                "Nothing is written when something is wrong: the message says what and where.")
IMPORT_TEMPLATE = '''

@script(name={action!r}, show_taskpane=True{sheets})
def import_results(book: xw.Book, file: str = "", sheet: str = "", section: str = ""):
    """{doc}"""
    from xlbridge.excel.scripts import import_results_file

    import_results_file(book, file=file, sheet=sheet, section=section)
'''

#: The code of ``main.py`` around the prose (``{doc}``, ``{script_doc}``): Python, never translated.
MAIN_TEMPLATE = '''"""{doc}
"""

import datetime as dt

import xlwings as xw
from xlwings import script


@script(name={action!r}, button={button!r}, show_taskpane=True{sheets})
def recalculate_season(book: xw.Book):
    """{script_doc}"""
    from xlbridge.excel.scripts import recalculate

    recalculate(book)
{next_script}{import_script}

# --------------------------------------------------------------------------
# The xlbridge package itself (xlbridge {version}, {count} files, sha256 {digest}),
# unpacked into Pyodide's memory when the workbook starts. Generated by
# xlbridge/excel/bundle.py.

import base64  # noqa: E402
import io  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import zipfile  # noqa: E402
from pathlib import Path  # noqa: E402

{begin}{payload}{end}


def _install_xlbridge():
    target = Path(tempfile.gettempdir()) / "xlbridge-{short}"
    if not (target / "xlbridge" / "__init__.py").exists():
        with zipfile.ZipFile(io.BytesIO(base64.b64decode(_BUNDLE))) as archive:
            archive.extractall(target)
    if str(target) not in sys.path:
        sys.path.insert(0, str(target))


_install_xlbridge()

from xlbridge.excel.functions import *  # noqa: E402,F401,F403  (the worksheet functions)
from xlbridge.excel import functions as _functions  # noqa: E402

_functions.MESSAGES_LANGUAGE = {language!r}  # (their messages in the workbook's language)
'''


def source_files(kind: str | None = None, language: str | None = None) -> dict[str, bytes]:
    """The package files that go into the bundle: path inside the zip -> bytes.

    ``kind`` (the recalculation's name of a workbook kind, :data:`xlbridge.workbooks.kinds.MODULES`):
    only the modules that kind's Excel path imports (:func:`imported_by`), with the data
    files of their packages; ``language``: only that language's catalogue (English has
    none).  Without them: every file Excel may need, every catalogue."""
    root = resources.files("xlbridge")
    found: dict[str, bytes] = {}
    left_out = excluded()

    def walk(node, prefix: PurePosixPath) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            rel = prefix / child.name
            if child.is_dir():
                if child.name != "__pycache__" and f"{rel}/" not in left_out:
                    walk(child, rel)
            elif child.name.endswith(SUFFIXES) and str(rel) not in left_out:
                found[f"xlbridge/{rel}"] = child.read_bytes()

    walk(root, PurePosixPath())
    if language is not None:
        found = {name: data for name, data in found.items()
                 if not name.endswith(".mo") or name.startswith(f"xlbridge/locale/{language}/")}
    if kind is None:
        return found
    modules = {_module(name): name for name in found if name.endswith(".py")}
    imports = registry.importer_module(kind)  # (the Import results script's, named: no import statement reaches it)
    needed = imported_by(ENTRIES + (registry.package(kind),) + ((imports,) if imports else ()) + tuple(RULE_SET_MODULES),
                         found, modules)
    packages = {modules[m].rsplit("/", 1)[0] for m in needed if modules[m].endswith("/__init__.py")}

    def data_kept(name: str) -> bool:  # a data file belongs to the nearest package above it
        folder = name.rsplit("/", 1)[0]
        while f"{folder}/__init__.py" not in found:
            folder = folder.rsplit("/", 1)[0]
        return folder in packages

    kept = {modules[m] for m in needed}
    return {name: data for name, data in found.items() if (name in kept if name.endswith(".py") else data_kept(name))}


#: Where every kind's Excel path starts: the worksheet functions (``main.py`` imports them) and
#: the scripts (the first click imports them); with them the kind's own package and the rule
#: sets, which code imports by name (:data:`xlbridge.workbooks.kinds.MODULES`, ``RULE_SET_MODULES``).
ENTRIES = ("xlbridge.excel.functions", "xlbridge.excel.scripts")


def _module(path: str) -> str:
    """``xlbridge/a/b.py`` -> ``xlbridge.a.b``; ``xlbridge/a/__init__.py`` -> ``xlbridge.a``."""
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def imported_by(entries: Sequence[str], files: dict[str, bytes], modules: dict[str, str]) -> set[str]:
    """The modules of ``modules`` (name -> path in ``files``) that ``entries`` import, directly or
    not: every ``import`` statement of a module counts, also one inside a function (it runs when
    that function does), and importing a module imports the packages above it."""
    needed: set[str] = set()
    todo = list(entries)
    while todo:
        name = todo.pop()
        if name in needed or name not in modules:
            continue  # (outside the package, or left out of the bundle: EXCLUDED)
        needed.add(name)
        todo.extend(name.rsplit(".", depth)[0] for depth in range(1, name.count(".") + 1))
        package = name if modules[name].endswith("/__init__.py") else name.rsplit(".", 1)[0]
        for level, base, names in _imports(files[modules[name]]):
            if level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - level + 1] + ([base] if base else []))
            todo.append(base)
            todo.extend(f"{base}.{alias}" for alias in names)
    return needed


@lru_cache(maxsize=None)
def _imports(source: bytes) -> tuple[tuple[int, str, tuple[str, ...]], ...]:
    """Every import statement of ``source``: (level, module, names); ``import a.b`` is (0, "a.b", ()).
    Remembered by the source itself: every build parses the same hundred modules again (parsing them
    was a fifth of a Heeg build, 0.18 of 0.91 s; the tests build dozens of workbooks per process)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(0, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or "", tuple(alias.name for alias in node.names)))
    return tuple(found)


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return buffer.getvalue()


def _docstring(text: str) -> str:
    """``text`` safe inside a triple-quoted docstring (a translation holds no code)."""
    if '"""' in text or text.endswith('"'):
        raise ValueError(f"a docstring cannot hold or end in a double quote: {text!r}")
    return text.replace("\\", "\\\\")


def lite_texts(button: Button, *, title: str, rules: str, language: str = "en",
               next_button: Button | None = None) -> tuple[str, str]:
    """The scorer's text of ``main.py`` in ``language``: the module docstring (App Mode
    and the task pane show it) and the script's docstring, wrapped at 88 columns.
    ``title`` and ``rules`` are English (catalogue entries) and translated here;
    ``button`` is the button as built in ``language`` (its sheet and label)."""
    with speaking(language):
        words = dict(label=button.label, sheet=button.sheet, action=ACTION, rules=_(rules),
                     messages=sheet_name("Messages"), corrections=sheet_name("Corrections"),
                     how_to=sheet_name("How to"), version=__version__)
        paragraphs = [_(p).format(**words) for p in MAIN_DOC]
        if next_button is not None:
            paragraphs.insert(1, _(NEXT_PARAGRAPH).format(next_label=next_button.label, next_action=next_button.action,
                                                          **words))
        script_doc = _(SCRIPT_DOC).format(**words)
        heading = _(title)
    body = [textwrap.fill(paragraphs[0], 88)]
    body.append("\n".join(textwrap.fill(p, 88, initial_indent="- ", subsequent_indent="  ")
                          for p in paragraphs[1:-1]))
    body.append(textwrap.fill(paragraphs[-1], 88))
    doc = f"# {heading}\n\n" + "\n\n".join(body)
    script = textwrap.fill(script_doc, 84, subsequent_indent="    ")
    return _docstring(doc), _docstring(script)


def next_script(button: Button, sheets: str = "", language: str = "en") -> str:
    """The second script (New evening / New tournament) wired to ``button``, its text in ``language``
    (``sheets``: the ``@script`` arguments for the sheets it leaves out, :func:`main_py`)."""
    function, arguments, call = NEXT_SCRIPTS[button.action]
    with speaking(language):
        doc = _(NEXT_DOCS[button.action]).format(season=sheet_name("Season"))
    return NEXT_TEMPLATE.format(action=button.action, button=button.target, function=function, arguments=arguments,
                                call=call, doc=_docstring(textwrap.fill(doc, 84, subsequent_indent="    ")),
                                sheets=sheets)


def import_script(sheets: str = "", language: str = "en") -> str:
    """The Import results script, its text in ``language`` (``sheets``: as :func:`next_script`)."""
    with speaking(language):
        doc = _(IMPORT_DOC)
    return IMPORT_TEMPLATE.format(action=IMPORT_ACTION, doc=_docstring(textwrap.fill(doc, 84, subsequent_indent="    ")),
                                  sheets=sheets)


def main_py(button: Button, *, title: str, rules: str, files: dict[str, bytes] | None = None,
            exclude: Sequence[str] = (), language: str = "en", next_button: Button | None = None,
            kind: str | None = None) -> str:
    """The ``main.py`` a workbook carries: the scorer's docstring (App Mode shows
    it), the script wired to ``button``, and the bundled package; the prose in
    ``language`` (:func:`lite_texts`), the code and the script's name as they are.

    ``exclude``: sheets the recalculation never reads (the workbook kind knows them,
    e.g. "How to"): the script's ``@script(exclude=[...])``, so that Excel sends them
    without their values.  xlwings' Office.js client matches exact sheet names only
    (no patterns), so the sheets a recalculation reads by pattern (an evening or
    tournament sheet per date) cannot be *included*; an excluded name the workbook
    does not have is ignored.  Never name a sheet the recalculation reads: it would
    arrive empty.  ``kind``: the bundle holds only what that kind's Excel path imports,
    and only the catalogue of ``language`` (:func:`source_files`; default: everything)."""
    if files is None:
        files = source_files(kind, language) if kind is not None else source_files()
    data = _zip(files)
    digest = hashlib.sha256(data).hexdigest()
    encoded = base64.b64encode(data).decode("ascii")
    wrapped = "\n".join(encoded[i : i + 100] for i in range(0, len(encoded), 100))
    doc, script_doc = lite_texts(button, title=title, rules=rules, language=language, next_button=next_button)
    sheets = f", exclude={json.dumps(list(exclude), ensure_ascii=False)}" if exclude else ""
    second = next_script(next_button, sheets, language) if next_button is not None else ""
    return MAIN_TEMPLATE.format(doc=doc, script_doc=script_doc, action=ACTION, sheet=button.sheet, button=button.target,
                                next_script=second, import_script=import_script(sheets, language),
                                version=__version__, count=len(files), digest=digest, short=digest[:12],
                                begin=MARK_BEGIN, payload=wrapped, end=MARK_END, sheets=sheets, language=language)


def lite_files(button: Button, *, title: str, rules: str, exclude: Sequence[str] = (),
               language: str = "en", next_button: Button | None = None, kind: str | None = None) -> dict[str, str]:
    """Every file of the workbook's Lite project (``exclude``: see :func:`main_py`;
    ``language``: the language of its prose; ``next_button``: the New evening / New
    tournament script's button, for a season that has one; ``kind``: see :func:`main_py`)."""
    return {"main.py": main_py(button, title=title, rules=rules, exclude=exclude, language=language,
                               next_button=next_button, kind=kind),
            "requirements.txt": REQUIREMENTS}
