"""Every shipped workbook carries the current xlbridge code for xlwings Lite."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from xlbridge.excel import bundle, lite
from tests import lite_files
from xlbridge.files import kept_parts
from xlbridge.excel.bundle import REQUIREMENTS, main_py, source_files
from xlbridge.excel.shipped import KINDS, SHIPPED

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_PATHS = [ROOT / rel for _, _, rel in SHIPPED]


@pytest.mark.parametrize(("kind", "path"), [(kind, ROOT / rel) for kind, _, rel in SHIPPED], ids=lambda p: str(p))
def test_shipped_workbook_carries_exactly_the_current_sources(kind, path):
    files = lite_files.extract(path)
    assert set(files) == {"main.py", "requirements.txt", "pyodideVersion", "addinVersion"}
    assert files["requirements.txt"] == REQUIREMENTS
    bundled = lite_files.unpack(files["main.py"])
    current = source_files(KINDS[kind].recognised_as, KINDS[kind].language)
    assert sorted(bundled) == sorted(current), "rebuild: python -m xlbridge.excel.shipped"
    stale = [name for name in current if bundled[name] != current[name]]
    assert not stale, f"out of date in {path.name}: {stale[:5]} -- rebuild: python -m xlbridge.excel.shipped"


@pytest.mark.parametrize("path", SHIPPED_PATHS, ids=lambda p: p.name)
def test_shipped_workbook_has_the_lite_parts(path):
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        assert set(lite.PARTS) <= set(names)
        rels = archive.read("_rels/.rels").decode()
        types = archive.read("[Content_Types].xml").decode()
        web = archive.read(lite.WEBEXTENSION).decode()
    assert 'Target="xl/webextensions/taskpanes.xml"' in rels and lite.REL_TASKPANES in rels
    assert 'PartName="/xl/webextensions/taskpanes.xml"' in types and lite.CT_TASKPANES in types
    assert 'PartName="/xl/webextensions/webextension1.xml"' in types and lite.CT_WEBEXTENSION in types
    assert 'id="wa200008175"' in web and 'storeType="OMEX"' in web
    # values are JSON strings, XML-escaped
    assert '&quot;' in web


def test_bundle_leaves_out_what_needs_files_or_openpyxl():
    names = set(source_files())
    assert "xlbridge/excel/functions.py" in names and "xlbridge/rules/data/tr_tablo3.csv" in names
    assert not {"xlbridge/cli.py", "xlbridge/files/headless.py", "xlbridge/excel/shipped.py"} & names


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_kind_carries_only_its_own_code_and_catalogue(name):
    """Start-up (issue 23, point 7): a workbook unpacks and imports only what its kind's Excel path imports."""
    kind = KINDS[name]
    names = set(source_files(kind.recognised_as, kind.language))
    own = {"heeg": "heeg", "bridgemania": "bridgemania", "event awards": "events"}[kind.recognised_as]
    packages = {n.split("/")[2] for n in names if n.startswith("xlbridge/workbooks/") and n.count("/") == 3}
    assert packages == {own}, packages
    assert {"xlbridge/__init__.py", "xlbridge/excel/functions.py", "xlbridge/excel/scripts.py",
            f"xlbridge/workbooks/{own}/__init__.py", "xlbridge/rules/se_fsb/__init__.py",
            "xlbridge/rules/data/tr_tablo3.csv"} <= names
    assert {n.split("/")[2] for n in names if n.endswith(".mo")} == {kind.language} - {"en"}
    assert not {n for n in names if n.startswith("xlbridge/examples/")}
    imported = {"heeg": "heeg", "bridgemania": "bridgemania", "event awards": "events"}[kind.recognised_as]
    assert {"xlbridge/results/pbn.py", "xlbridge/results/usebio.py", "xlbridge/workbooks/importing.py",
            f"xlbridge/workbooks/{imported}/imported.py"} <= names  # (the Import results script's)
    assert names < set(source_files())


def test_the_import_walk_follows_every_import_statement():
    files = {"p/__init__.py": b"from p.a import x\n", "p/a.py": b"def f():\n    from . import b\n",
             "p/b.py": b"import p.c.d\n", "p/c/__init__.py": b"", "p/c/d.py": b"from .e import y\n",
             "p/c/e.py": b"", "p/unused.py": b"import os\n"}
    modules = {name.removesuffix(".py").removesuffix("/__init__").replace("/", "."): name for name in files}
    assert bundle.imported_by(["p"], files, modules) == {"p", "p.a", "p.b", "p.c", "p.c.d", "p.c.e"}
    assert bundle.imported_by(["p.c.e"], files, modules) == {"p", "p.a", "p.b", "p.c", "p.c.d", "p.c.e"}


#: What xlwings Lite's documentation lists as not available: ``.api``, ``Sheet.autofit``, a
#: range's colour and font getters, ``Book.save``.
UNAVAILABLE_ANYWHERE = {"api", "autofit", "save"}


def unavailable(source: str) -> list[str]:
    """Each use in ``source`` of what Lite does not offer, as ``line: what``: the attribute
    ``api``, ``autofit`` or ``save`` (any object: a book's ``save`` cannot be told apart), and
    the getters -- loads, not stores -- of ``color`` and of anything under ``font``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute):
            continue
        loaded = isinstance(node.ctx, ast.Load)
        under_font = isinstance(node.value, ast.Attribute) and node.value.attr == "font"
        if node.attr in UNAVAILABLE_ANYWHERE or loaded and (node.attr == "color" or under_font):
            found.append((node.lineno, node.col_offset, ast.unparse(node)))
    return [f"{line}: {what}" for line, _col, what in sorted(found)]


def test_the_walk_finds_each_unavailable_call():
    source = ("v = ws.api.get('values')\nws.autofit('columns')\nbook.save()\nc = rng.color\nb = rng.font.bold\n"
              "rng.color = '#FFFFFF'\nrng.font.bold = True\nrng.font.size = 14\nx = rng.number_format\n")
    assert unavailable(source) == ["1: ws.api", "2: ws.autofit", "3: book.save", "4: rng.color", "5: rng.font.bold"]


def test_the_lite_bundle_calls_nothing_lite_lacks():
    code = {name: data.decode("utf-8") for name, data in source_files().items() if name.endswith(".py")}
    assert "xlbridge/excel/book.py" in code and "xlbridge/excel/scripts.py" in code
    found = {name: unavailable(text) for name, text in code.items()}
    assert {name: uses for name, uses in found.items() if uses} == {}


def test_main_py_registers_the_functions_from_its_own_bundle(tmp_path):
    """Run the embedded main.py as Lite would import it: it must unpack its bundle,
    import xlbridge from there (not from this checkout) and expose the functions."""
    script = tmp_path / "main.py"
    kind = KINDS["heeg"]
    script.write_text(main_py(kind.button, title=kind.title, rules=kind.rules), encoding="utf-8")
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "import main, xlbridge\n"
        "from xlwings import server\n"
        "meta = server.custom_functions_meta(main)\n"
        "scripts = server.custom_scripts_meta(main)\n"
        "print(json.dumps({'file': xlbridge.__file__, 'functions': sorted(f['name'] for f in meta['functions']),"
        " 'scripts': [s.get('function_name') or s.get('name') for s in scripts]}))\n",
        encoding="utf-8",
    )
    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial", TMPDIR=str(tmp_path))
    env.pop("PYTHONPATH", None)
    result = subprocess.run([sys.executable, str(probe)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    info = json.loads(result.stdout.strip().splitlines()[-1])
    assert info["file"].startswith(str(tmp_path)), info["file"]
    assert {"AWARD", "AWARD_UNIT", "AWARDS", "TBF_MASTERY", "TBF_TITLE"} <= set(info["functions"])
    assert "recalculate_season" in info["scripts"]


def test_embedding_is_reproducible(tmp_path):
    kind = KINDS["tbf-club"]
    assert main_py(kind.button, title="t", rules="r") == main_py(kind.button, title="t", rules="r")
    first = lite_files.extract(SHIPPED_PATHS[0])
    assert json.dumps(first, sort_keys=True)


def carry_over(source: Path, target: Path) -> bool:
    """The two-pass way, the oracle of the one-pass save: put the package-level extras of ``source`` into
    ``target`` (a file openpyxl saved, which dropped them), rewriting it; False when ``source`` has none."""
    from xlbridge.files.package import CONTENT_TYPES, ROOT_RELS, rewrite

    extras = kept_parts.carried(source).extras
    if not extras:
        return False
    with zipfile.ZipFile(target) as archive:
        written = {n.lower() for n in archive.namelist()}
        root_rels, types = archive.read(ROOT_RELS), archive.read(CONTENT_TYPES)
    parts, root_rels, types = kept_parts._with_extras(extras, root_rels, types, written)
    rewrite(target, {**parts, ROOT_RELS: root_rels, CONTENT_TYPES: types})
    return True


def test_saving_in_one_pass_gives_what_save_then_carry_over_gives(tmp_path):
    """``xlbridge recalc`` saves and puts the parts openpyxl drops back in one pass;
    the file must hold exactly what saving and then rewriting it with
    :func:`carry_over` gives (the two-pass way)."""
    from openpyxl import load_workbook

    source = SHIPPED_PATHS[0]
    extras = kept_parts.carried(source).extras
    assert set(lite.PARTS) <= set(extras.parts)  # the Lite parts are kept without being named
    one, two = tmp_path / "one.xlsx", tmp_path / "two.xlsx"
    kept_parts.save_keeping(load_workbook(source), one, kept_parts.Carried(extras=extras))
    load_workbook(source).save(two)
    assert carry_over(source, two)
    with zipfile.ZipFile(one) as a, zipfile.ZipFile(two) as b:
        assert sorted(a.namelist()) == sorted(b.namelist())
        assert a.testzip() is None
        for name in a.namelist():
            if name != "docProps/core.xml":  # holds the time of saving
                assert a.read(name) == b.read(name), name
    assert lite_files.extract(one) == lite_files.extract(source)
    # nothing to keep: a plain save
    kept_parts.save_keeping(load_workbook(source), tmp_path / "plain.xlsx", kept_parts.Carried())
    assert lite_files.lite_parts(tmp_path / "plain.xlsx") == {}


def test_a_failed_save_raises_and_adds_nothing(tmp_path, monkeypatch):
    from openpyxl import load_workbook
    from openpyxl.writer import excel

    workbook = load_workbook(SHIPPED_PATHS[0])

    def broken(self):
        raise OSError("disk full")

    monkeypatch.setattr(excel.ExcelWriter, "write_data", broken)
    with pytest.raises(OSError, match="disk full"):
        kept_parts.save_keeping(workbook, tmp_path / "broken.xlsx", kept_parts.carried(SHIPPED_PATHS[0]))
    with zipfile.ZipFile(tmp_path / "broken.xlsx") as archive:
        assert archive.namelist() == []


def test_every_root_part_openpyxl_does_not_write_is_kept(tmp_path):
    """Not only the Lite parts: any package-level part linked from the root
    relationships that openpyxl does not write (here a thumbnail) comes back."""
    from openpyxl import load_workbook

    from xlbridge.files.headless import recalc_path
    from xlbridge.files.package import add_default, add_relationship, rewrite

    club = tmp_path / "club.xlsx"
    club.write_bytes(SHIPPED_PATHS[0].read_bytes())
    jpeg = bytes(range(256)) * 4
    with zipfile.ZipFile(club) as archive:
        rels, types = archive.read("_rels/.rels"), archive.read("[Content_Types].xml")
    rels, _ = add_relationship(rels, "http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail",
                               "docProps/thumbnail.jpeg")
    types, _ = add_default(types, "jpeg", "image/jpeg")
    rewrite(club, {"docProps/thumbnail.jpeg": jpeg, "_rels/.rels": rels, "[Content_Types].xml": types})
    load_workbook(club)  # still a workbook
    recalc_path(club)
    with zipfile.ZipFile(club) as archive:
        assert archive.read("docProps/thumbnail.jpeg") == jpeg
        assert b"metadata/thumbnail" in archive.read("_rels/.rels")
        assert b'Extension="jpeg"' in archive.read("[Content_Types].xml")
    assert lite_files.extract(club) == lite_files.extract(SHIPPED_PATHS[0])


def _saved_by_libreoffice(sources: list[Path], folder: Path) -> list[Path]:
    """Each workbook as LibreOffice saves it (``soffice --headless --convert-to xlsx``): it drops
    the xlwings Lite code (``xl/webextensions/webextension1.xml``), keeps the sheets and the buttons."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    assert soffice, "LibreOffice (soffice) is needed: apt-get install libreoffice-calc-nogui (.ci/run installs it)"
    out = folder / "saved"
    subprocess.run([soffice, f"-env:UserInstallation={(folder / 'profile').as_uri()}", "--headless", "--norestore",
                    "--convert-to", "xlsx", "--outdir", str(out), *map(str, sources)],
                   check=True, capture_output=True, timeout=300)
    saved = [out / source.name for source in sources]
    assert all(lite_files.extract(path) == {} for path in saved)
    return saved


def _documented(code_id: str) -> str:
    import re

    match = re.search(rf"^\| `{code_id}` \|[^|]*\| `([^`]+)` \|", (ROOT / "docs" / "errors.md").read_text("utf-8"), re.M)
    assert match, code_id
    return match[1]


@pytest.mark.slow
def test_a_workbook_saved_by_libreoffice_gets_its_lite_code_back_on_recalc(tmp_path, capsys):
    from openpyxl import load_workbook

    from xlbridge.cli import main
    from xlbridge.excel.button import buttons
    from xlbridge.excel.shipped import LITE_PUT_BACK, build
    from xlbridge.language import _, speaking

    english = build("heeg", tmp_path / "heeg-en.xlsx", language="en")
    dutch, club = ROOT / "workbooks" / "heeg-demo.xlsx", ROOT / "workbooks" / "tbf-club.xlsx"
    warnings = []
    for saved, original, language in zip(_saved_by_libreoffice([english, dutch, club], tmp_path),
                                         (english, dutch, club), ("en", "nl", "tr")):
        assert main(["recalc", str(saved), "--no-backup"]) == 0
        with speaking(language):
            warnings.append(_("xlbridge: warning: {warning}").format(warning=f"{_('workbook')}: {_(LITE_PUT_BACK)}"))
        assert warnings[-1] in capsys.readouterr().err.splitlines()  # in the workbook's language
        assert lite_files.extract(saved) == lite_files.extract(original)  # the kind's current code, as xlbridge new embeds it
        assert [(b["sheet"], b["name"], b["cell"]) for b in buttons(saved)] == \
            [(b["sheet"], b["name"], b["cell"]) for b in buttons(original)]
        assert main(["recalc", str(saved), "--no-backup"]) == 0 and "warning" not in capsys.readouterr().err
    assert warnings[0] == f"xlbridge: warning: {_documented('W-LITE-PUT-BACK')}"
    assert len(set(warnings)) == 3  # (translated: nl, tr)
    assert load_workbook(saved).sheetnames == load_workbook(club).sheetnames


def test_a_saved_workbook_without_its_main_sheet_says_how_to_get_the_code_back(tmp_path, capsys):
    from openpyxl import load_workbook

    from xlbridge.cli import main
    from xlbridge.excel.shipped import build

    club = build("tbf-club", tmp_path / "club.xlsx", language="en")
    wb = load_workbook(club)
    wb["Tournament"].title = "Club night"  # the sheet of the button renamed
    wb.save(club)  # (openpyxl drops the Lite code too)
    assert main(["recalc", str(club), "--no-backup"]) == 0
    assert f"xlbridge: warning: {_documented('W-LITE-LOST')}" in capsys.readouterr().err.splitlines()
    assert lite_files.extract(club) == {}


@pytest.mark.slow
def test_next_and_import_put_back_the_lite_code_as_recalc_does(tmp_path, capsys):
    """A season another program saved (openpyxl, like LibreOffice, drops the Lite code): New tournament and Import
    results on the command line give it back with the same warning as a recalculation (they saved it without)."""
    from openpyxl import load_workbook

    from tests.results.bmfile import ABSENT, night
    from tests.results.pbn_writer import write_pbn
    from xlbridge.cli import main
    from xlbridge.excel.shipped import LITE_PUT_BACK
    from xlbridge.language import _, speaking

    shipped = ROOT / "workbooks" / "bridgemania-demo.xlsx"
    book = tmp_path / "bm.xlsx"
    with speaking("it"):
        warning = _("xlbridge: warning: {warning}").format(warning=f"{_('workbook')}: {_(LITE_PUT_BACK)}")

    def saved_elsewhere(edit=None) -> None:
        wb = load_workbook(book)
        if edit is not None:
            edit(wb)
        wb.save(book)
        assert lite_files.extract(book) == {}

    shutil.copy(shipped, book)
    saved_elsewhere()
    assert main(["next", str(book), "--no-backup"]) == 0
    assert warning in capsys.readouterr().err.splitlines()
    assert lite_files.extract(book) == lite_files.extract(shipped)

    def statuses(wb) -> None:
        for row in wb["T15"].iter_rows(min_row=9, max_row=25, max_col=2):
            if row[0].value in ABSENT:
                row[1].value = "lista di attesa"

    saved_elsewhere(statuses)
    results = tmp_path / "t15.pbn"
    results.write_bytes(write_pbn(night()))
    assert main(["import", str(book), str(results), "--no-backup"]) == 0
    assert warning in capsys.readouterr().err.splitlines()
    assert lite_files.extract(book) == lite_files.extract(shipped)
