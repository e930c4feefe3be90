"""LibreOffice as a real spreadsheet client: every shipped workbook, and a
recalculated copy of every demo, opened headless, recalculated by LibreOffice,
exported to one CSV per sheet and (the demos) to PDF.

Checked: no error value (``Err:``, ``#VALUE!``, ``#REF!``, ``#NAME?``, ...)
anywhere (no shipped cell holds a formula LibreOffice cannot evaluate; the
How-to sheets' example lines are text); every value LibreOffice shows equals what openpyxl
reads from the file, and in the computed columns what the engine wrote; the
PDF of each demo has pages, its text carries the header row of every computed
table and the computed numbers in their number format, and no cell is too
narrow for its number (``###``).

LibreOffice keeps the cached values of an .xlsx unless its profile says
otherwise, so the run uses a throw-away profile whose registrymodifications.xcu
sets ``OOXMLRecalcMode`` to 0 (always recalculate); a control workbook with a
deliberately stale cached value proves it did.  All CSVs come from one
soffice run and all PDFs from a second one.
"""

from __future__ import annotations

import ast
import csv
import math
import re
import shutil
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

pytestmark = pytest.mark.slow  # the inner loop while developing is pytest -m "not slow" (pyproject.toml)

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "workbooks").glob("*.xlsx")) + sorted((ROOT / "templates").glob("*.xlsx"))
DEMOS = sorted((ROOT / "workbooks").glob("*.xlsx"))
SOFFICE_SECONDS = 300


def _late_heeg_correction(path: Path) -> None:
    """Six more MP in R1 of the first pair of the first evening (in the workbook's language)."""
    from xlbridge.language import sheet_name
    from xlbridge.workbooks.heeg import EVENING_PREFIX, evening_table
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.localised import language_of

    wb = load_workbook(path)
    prefix = sheet_name(EVENING_PREFIX, language_of(OpenpyxlBook(wb)))
    ws = next(ws for ws in wb.worksheets if ws.title.startswith(prefix))
    table = evening_table(6, ["1"])
    cell = ws.cell(table.first_row, table.col("r1"))
    cell.value += 6
    wb.save(path)


def _clicked_with_a_problem(path: Path) -> None:
    """A text typed over the first MP of the first evening, then the Excel click's steps on the file: the
    Messages sheet lists the problem with its cell (headless, a refused run writes nothing)."""
    from xlbridge.language import sheet_name, speaking
    from xlbridge.workbooks.heeg import EVENING_PREFIX, evening_table
    from xlbridge.workbooks.localised import language_of, localised
    from xlbridge.workbooks.messages import clear_marks, report_problems
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.plan import BookInputError
    from xlbridge.workbooks.recalc import recalculate

    wb = load_workbook(path)
    language = language_of(OpenpyxlBook(wb))
    prefix = sheet_name(EVENING_PREFIX, language)
    ws = next(ws for ws in wb.worksheets if ws.title.startswith(prefix))
    table = evening_table(6, ["1"])
    ws.cell(table.first_row, table.col("r1")).value = "zes"
    book = localised(OpenpyxlBook(wb), language)
    with speaking(language), pytest.raises(BookInputError) as refused:
        clear_marks(book)
        recalculate(book, language=language)
    with speaking(language):
        report_problems(book, refused.value.problems, clear_old=False)
    wb.save(path)


def _one_evening(path: Path) -> None:
    """The blank Heeg season after its first evening, added with New evening (``xlbridge next``) and
    recalculated: eight pairs in lines A and B, every round typed."""
    from tests.heegseason import add_evening, type_pairs
    from xlbridge.cli import main

    type_pairs(path)
    add_evening(path, "2026-09-03")
    assert main(["recalc", str(path), "--no-backup"]) == 0


#: demos printed once more after a late correction, for the Corrections sheet it adds
LATE_CORRECTIONS = {"corrected/heeg-demo.xlsx": _late_heeg_correction}
#: demos printed in another state (as the scorer meets it), by label: (shipped file, the change)
PREPARED = {**{label: ("workbooks/" + Path(label).name, change) for label, change in LATE_CORRECTIONS.items()},
            "problem/heeg-demo.xlsx": ("workbooks/heeg-demo.xlsx", _clicked_with_a_problem),
            "one-evening/heeg-season.xlsx": ("templates/heeg-season.xlsx", _one_evening)}
#: every shipped workbook and template, and the prepared demos: one picture of each sheet kind
RENDERED = [f"{p.parent.name}/{p.name}" for p in SHIPPED] + list(PREPARED)
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
#  separator ',', quote '"', UTF-8, from line 1, language default, quoted fields not as text,
#  detect special numbers, cell contents NOT as shown (raw values), no formulas, keep spaces,
#  -1 = every sheet to its own file NAME-SHEET.csv
ERROR = re.compile(r"^(Err:\d+|#VALUE!|#REF!|#NAME\?|#DIV/0!|#NUM!|#N/A|#NULL!)$")
PROFILE_XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">\
<value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse">\
<value>0</value></prop></item>
</oor:items>
"""


def xlbridge_function_names() -> set[str]:
    """The Excel names of every ``@xw.func`` in functions.py (read from the
    source: outside xlwings' server mode the decorator leaves no mark)."""
    tree = ast.parse((ROOT / "xlbridge" / "excel" / "functions.py").read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if isinstance(target, ast.Attribute) and target.attr == "func":
                    names.add(node.name.upper())
    assert names, "no @xw.func found in xlbridge/excel/functions.py"
    return names


FUNCTIONS = xlbridge_function_names()
CUSTOM_CALL = re.compile(r"\b(" + "|".join(sorted(FUNCTIONS)) + r")\s*\(", re.IGNORECASE)


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def run_soffice(profile: Path, target: str, outdir: Path, files: list[Path]) -> str:
    result = subprocess.run(
        [soffice(), f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore", "--nolockcheck",
         "--convert-to", target, "--outdir", str(outdir), *map(str, files)],
        capture_output=True, text=True, timeout=SOFFICE_SECONDS,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def control_workbook(path: Path) -> None:
    """=1+1 cached as 99 (only a recalculation shows 2), and an xlbridge call
    that LibreOffice cannot know."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Control"
    ws["A1"] = "=1+1"
    ws["A2"] = '=AWARD("tr.club",1,26,"boards=24")'
    wb.save(path)
    with zipfile.ZipFile(path) as zin:
        parts = {name: zin.read(name) for name in zin.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    patched = re.sub(r"(<f>1\+1</f>)(<v\s*/>|<v></v>)?", r"\1<v>99</v>", sheet, count=1)
    assert "<v>99</v>" in patched, sheet
    parts["xl/worksheets/sheet1.xml"] = patched.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in parts.items():
            zout.writestr(name, data)


def hidden_workbook(path: Path) -> None:
    """A shown sheet and a hidden one (as a record sheet the scorer never prints)."""
    wb = Workbook()
    wb.active.title = "Shown"
    wb.active["A1"] = "printed"
    record = wb.create_sheet("Record")
    record["A1"] = "never printed"
    record.sheet_state = "hidden"
    wb.save(path)


@dataclass
class Converted:
    files: dict[str, Path]  # label -> the workbook LibreOffice opened
    outdir: Path
    demos: list[str]  # labels of the recalculated demos (also converted to PDF)

    def sheet(self, label: str, sheet: str) -> list[list[str]]:
        path = self.outdir / f"{self.files[label].stem}-{sheet}.csv"
        assert path.exists(), f"LibreOffice wrote no CSV for {label} / {sheet}: {sorted(p.name for p in self.outdir.iterdir())}"
        with path.open(encoding="utf-8", newline="") as f:
            return list(csv.reader(f))

    def pdf(self, label: str) -> Path:
        return self.outdir / f"{self.files[label].stem}.pdf"


@pytest.fixture(scope="module")
def converted(tmp_path_factory) -> Converted:
    if soffice() is None:
        pytest.skip("LibreOffice (soffice) is not installed here: apt-get install libreoffice-calc-nogui "
                    "(.ci/run installs it); the LibreOffice checks did not run")
    from xlbridge.files.headless import recalc_path

    assert SHIPPED and DEMOS, "no shipped workbooks found"
    base = tmp_path_factory.mktemp("libreoffice")
    stage, outdir, profile = base / "in", base / "out", base / "profile"
    for d in (stage, outdir, profile / "user"):
        d.mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(PROFILE_XCU, encoding="utf-8")
    files: dict[str, Path] = {}
    for path in SHIPPED:
        label = f"{path.parent.name}/{path.name}"
        files[label] = stage / f"{path.parent.name}__{path.stem}.xlsx"
        shutil.copy2(path, files[label])
    demos = []
    for path in DEMOS:
        label = f"recalculated/{path.name}"
        files[label] = stage / f"recalculated__{path.stem}.xlsx"
        shutil.copy2(path, files[label])
        recalc_path(files[label], backup=False, when="2026-11-30 12:00")
        demos.append(label)
    files["control"] = stage / "control.xlsx"
    control_workbook(files["control"])
    run_soffice(profile, CSV_FILTER, outdir, list(files.values()))
    for label, (name, change) in PREPARED.items():  # printed only (the Corrections a late change adds, ...)
        files[label] = stage / f"{Path(label).parent.name}__{Path(label).stem}.xlsx"
        shutil.copy2(ROOT / name, files[label])
        change(files[label])
        if label in LATE_CORRECTIONS:
            recalc_path(files[label], backup=False, when="2026-11-30 12:00")
    files["hidden"] = stage / "hidden.xlsx"
    hidden_workbook(files["hidden"])
    # one PDF per workbook, all in one soffice run: the demos' checks below and the pictures (RENDERED)
    run_soffice(profile, "pdf", outdir, [files[label] for label in demos + RENDERED + ["hidden"]])
    return Converted(files, outdir, demos)


def test_the_profile_makes_libreoffice_recalculate(converted):
    rows = converted.sheet("control", "Control")
    assert rows[0][0] == "2", "LibreOffice showed the stale cached value: OOXMLRecalcMode was not applied"
    assert ERROR.match(rows[1][0]), f"an xlbridge function unknown to LibreOffice shows {rows[1][0]!r}"


def same(shown: str, value, label: str, where: str) -> None:
    import datetime as dt

    if value is None:
        assert shown == "", f"{label} {where}: LibreOffice shows {shown!r} in an empty cell"
    elif isinstance(value, bool):
        assert shown.upper() == str(value).upper(), f"{label} {where}: {shown!r} != {value!r}"
    elif isinstance(value, (int, float)):
        try:
            number = float(shown)
        except ValueError:
            raise AssertionError(f"{label} {where}: LibreOffice shows {shown!r}, the file holds {value!r}") from None
        assert math.isclose(number, value, rel_tol=1e-9, abs_tol=1e-9), f"{label} {where}: {shown!r} != {value!r}"
    elif isinstance(value, (dt.datetime, dt.date, dt.time)):
        assert shown, f"{label} {where}: the date {value!r} shows empty"
    else:
        assert shown == str(value), f"{label} {where}: LibreOffice shows {shown!r}, the file holds {value!r}"


def cell_text(rows: list[list[str]], row: int, col: int) -> str:
    return rows[row - 1][col - 1] if row <= len(rows) and col <= len(rows[row - 1]) else ""


@pytest.mark.parametrize("label", [f"{p.parent.name}/{p.name}" for p in SHIPPED] +
                         [f"recalculated/{p.name}" for p in DEMOS])
def test_every_cell_as_libreoffice_shows_it(converted, label):
    wb = load_workbook(converted.files[label])
    for ws in wb.worksheets:
        rows = converted.sheet(label, ws.title)
        for r, line in enumerate(rows, start=1):
            for c, shown in enumerate(line, start=1):
                value = ws.cell(row=r, column=c).value
                assert not ERROR.match(shown.strip()), f"{label} {ws.title}!{ws.cell(row=r, column=c).coordinate}: {shown} for {value!r}"
        for line in ws.iter_rows():
            for cell in line:
                if cell.data_type == "f":
                    continue  # a formula: LibreOffice's own result was checked for errors above
                # text is text, also "=AWARD(...)  ->  0.62" on a How-to sheet
                same(cell_text(rows, cell.row, cell.column), cell.value, label, f"{ws.title}!{cell.coordinate}")


def engine_plan(path: Path):
    """The plan of the workbook, read in its own language; its blocks on the sheets as named in the file."""
    from dataclasses import replace

    from xlbridge.language import speaking
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.recalc import detect
    from xlbridge.workbooks.localised import Localised, language_of, localised

    book = OpenpyxlBook(load_workbook(path))
    language = language_of(book)
    with speaking(language):
        local = localised(book, language)
        plan = detect(local).plan(local)
    plan.blocks = [replace(b, sheet=Localised.local_name(b.sheet, language)) for b in plan.blocks]
    return plan


@pytest.mark.parametrize("name", [p.name for p in DEMOS])
def test_computed_columns_equal_what_the_engine_wrote(converted, name):
    label = f"recalculated/{name}"
    plan = engine_plan(converted.files[label])
    assert plan.blocks, f"{label}: the engine computes nothing"
    checked = 0
    for block in plan.blocks:
        rows = converted.sheet(label, block.sheet)
        for i, line in enumerate(block.values):
            for j, value in enumerate(line):
                same(cell_text(rows, block.row + i, block.col + j), value, label,
                     f"{block.sheet} row {block.row + i} col {block.col + j}")
                checked += 1
    assert checked


def pdf_text(path: Path) -> str:
    if shutil.which("pdftotext"):
        return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                              check=True, timeout=120).stdout
    pypdf = pytest.importorskip("pypdf", reason="neither pdftotext (poppler-utils) nor pypdf is installed")
    return "\n".join(page.extract_text() or "" for page in pypdf.PdfReader(str(path)).pages)


def pdf_pages(path: Path) -> int:
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True, timeout=60).stdout
        return int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))
    pypdf = pytest.importorskip("pypdf", reason="neither pdfinfo (poppler-utils) nor pypdf is installed")
    return len(pypdf.PdfReader(str(path)).pages)


def shown_as(value: float, number_format: str) -> str | None:
    """``value`` as a fixed-decimals format (0, 0.0, 0.00, ...) shows it; None for other formats."""
    match = re.fullmatch(r"0(?:\.(0+))?", number_format)
    if not match:
        return None
    from decimal import ROUND_HALF_UP, Decimal

    places = len(match.group(1) or "")
    # spreadsheets round a shown number half away from zero (33.125 shows 33.13)
    return str(Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


#: demos with known readability defects in print, each with where to fix it; remove an entry when fixed


def printed(ws, block) -> bool:
    """Whether a block lies in what its sheet prints: its print area when it has one
    (a Heeg evening prints its result, docs/printing.md), else the whole sheet."""
    from openpyxl.utils import range_boundaries

    if not ws.print_area:
        return True
    min_col, _, max_col, _ = range_boundaries(ws.print_area.split("!")[-1].replace("$", ""))
    width = max((len(line) for line in block.values), default=0)
    return block.col <= max_col and block.col + width - 1 >= min_col


def header_of(ws, block) -> list[str]:
    """The header row over a computed block: the nearest row, from the block's
    first row up to two rows above it, whose cells over the block's columns
    are all text (a block may write its own header row); [] when none."""
    width = max((len(line) for line in block.values), default=0)
    for row in range(block.row, max(block.row - 3, 0), -1):
        texts = [ws.cell(row=row, column=c).value for c in range(block.col, block.col + width)]
        if texts and all(isinstance(t, str) and t.strip() for t in texts):
            return texts
    return []


@pytest.mark.parametrize("name", [p.name for p in DEMOS])
def test_the_pdf_of_each_demo_is_readable(converted, name):
    label = f"recalculated/{name}"
    pdf = converted.pdf(label)
    assert pdf.exists(), f"no PDF for {label}"
    assert pdf_pages(pdf) >= 1
    text = pdf_text(pdf)
    words = set(text.split())
    wb = load_workbook(converted.files[label])
    headed, unreadable = 0, []
    for block in engine_plan(converted.files[label]).blocks:
        ws = wb[block.sheet]
        if not printed(ws, block):
            continue
        header = header_of(ws, block)
        headed += bool(header)
        for h in header:
            missing = [w for w in h.split() if w not in words]
            if missing:
                unreadable.append(f"{block.sheet}: header {h!r} is cut or missing in the PDF ({missing})")
        for j, value in enumerate(block.values[0] if block.values else []):
            cell = ws.cell(row=block.row, column=block.col + j)
            if isinstance(value, float) and (expected := shown_as(value, cell.number_format)):
                if expected not in words:
                    unreadable.append(f"{block.sheet}!{cell.coordinate}: {expected} not in the PDF")
    assert headed, f"{label}: no computed table has a header row"
    narrow = [line.strip() for line in text.splitlines() if "###" in line]
    if narrow:
        unreadable.append(f"a column is too narrow for its numbers (LibreOffice prints ###): {narrow[:3]}")
    assert not unreadable, f"{label}: fix in the workbook's builder (column widths, wrap): " + "; ".join(unreadable[:6])


@pytest.mark.parametrize("name", [p.name for p in DEMOS])
def test_each_computed_table_prints_its_header_row_on_one_page(converted, name):
    label = f"recalculated/{name}"
    pages = [set(page.split()) for page in pdf_text(converted.pdf(label)).split("\f")]
    wb = load_workbook(converted.files[label])
    for block in engine_plan(converted.files[label]).blocks:
        if not printed(wb[block.sheet], block):
            continue
        words = {w for h in header_of(wb[block.sheet], block) for w in h.split()}
        if not words:
            continue
        assert any(words <= page for page in pages), f"{label} {block.sheet}: the header row is split over pages"


# ---------------------------------------------------------------------------------------------------------------
# One picture of each sheet kind (issue 16, "Done when"): every shipped workbook and template, and a demo after a
# late correction, printed to PDF by LibreOffice (the one run of the fixture); each sheet's pages are found from
# the PDF's outline (LibreOffice writes one bookmark per printed sheet, at its first page), the first page of one
# sheet of each kind is rendered to PNG.  Checked: every visible sheet prints and a hidden one does not; no
# cell shows an error; a sheet set to print one page wide prints its header row on every page (no page holds
# only the columns on the right), in its orientation, and not on more pages than its rows need; the picture is
# not blank.

PRINT_ERROR = re.compile(r"(Err:\d+|#VALUE!|#REF!|#NAME\?|#DIV/0!|#NUM!|#N/A|#NULL!)")
#: the fewest rows a page holds: A4 landscape, 15 pt rows, LibreOffice's default margins (about 30),
#: less a few for the repeated header rows and the title
ROWS_PER_PAGE = 25
PNG_DPI = 50


def pdf_outline(path: Path) -> list[tuple[str, int]]:
    """The PDF's bookmarks: (title, first page), in order."""
    import html

    if not shutil.which("pdftohtml"):
        pytest.fail("pdftohtml (poppler-utils, as pdftotext) is needed to find each sheet's pages")
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", str(path)], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    return [(html.unescape(t), int(p)) for p, t in re.findall(r'<item page="(\d+)">(.*?)</item>', xml)]


def png_ink(path: Path, enough: int = 200) -> tuple[int, int, int]:
    """Width, height and the number of dark pixels (every channel below 128, counted up to ``enough``) of an
    8-bit grey or RGB PNG (what ``pdftoppm -gray -png`` writes), decoded with the standard library."""
    import struct
    import zlib

    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (0, 2) and not interlace, f"{path}: not an 8-bit grey or RGB PNG ({header})"
    step = 1 if colour == 0 else 3  # bytes per pixel
    stride = width * step
    raw, dark, previous = zlib.decompress(idat), 0, bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        dark += sum(1 for x in range(0, stride, step) if max(line[x:x + step]) < 128)
        if dark >= enough:
            break
        previous = line
    return width, height, dark


@dataclass
class PrintedSheet:
    name: str
    kind: str  # the sheet's kind: its English name, its name's prefix, "tournament", "event", "chart sheet"
    hidden: bool
    pages: list[int]  # 1-based pages of the PDF


def sheet_kind(book, name: str, language: str) -> str:
    """A sheet's kind from the declarations: its English name when a kind declares it (localised.SHEET_NAMES), the
    declared prefix of its name (an evening, a period), else what the kinds recognise it as (a BridgeMania
    tournament, an event sheet); a sheet of no declared kind is a kind of its own (printed all the same)."""
    from xlbridge.language import speaking
    from xlbridge.workbooks.bridgemania.read import is_tournament_sheet
    from xlbridge.workbooks.events.kind import is_event_sheet
    from xlbridge.workbooks.localised import SHEET_NAMES, SHEET_PREFIXES, Localised

    english = Localised.canonical_name(name, language)
    if english in SHEET_NAMES:
        return english
    for prefix in SHEET_PREFIXES:
        if english.startswith(prefix):
            return prefix.strip()
    with speaking(language):
        grid = book.read(name)
        if is_tournament_sheet(grid):
            return "tournament"
        if is_event_sheet(grid):
            return "event"
    return english


def printed_sheets(wb, pdf: Path, outline: list[tuple[str, int]]) -> list[PrintedSheet]:
    """Every sheet of the workbook ``wb`` (openpyxl) with its kind and its pages in ``pdf`` (its ``outline``)."""
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.localised import language_of

    book = OpenpyxlBook(wb)
    language = language_of(book)
    charts = {cs.title for cs in wb.chartsheets}
    total = pdf_pages(pdf)
    first = {title: page for title, page in outline}
    ends = {title: (outline[i + 1][1] - 1 if i + 1 < len(outline) else total) for i, (title, _) in enumerate(outline)}
    out = []
    for name in wb.sheetnames:
        kind = "chart sheet" if name in charts else sheet_kind(book, name, language)
        hidden = wb[name].sheet_state != "visible"
        pages = list(range(first[name], ends[name] + 1)) if name in first else []
        out.append(PrintedSheet(name, kind, hidden, pages))
    return out


def header_words(ws) -> tuple[set[str], bool, int]:
    """The words of a sheet's header row within its print area, whether it is repeated on every page, and how
    many rows the sheet prints.  The header row is the last of the print title rows; on a sheet that repeats
    none (BridgeMania's, see docs/printing.md) the row among the first 20 with the most texts, on its first page."""
    from openpyxl.utils import range_boundaries

    min_col, max_col, max_row = 1, ws.max_column, ws.max_row
    if ws.print_area:
        min_col, _, max_col, max_row = range_boundaries(ws.print_area.split("!")[-1].replace("$", ""))
    max_row = min(max_row, max((c.row for line in ws.iter_rows(min_col=min_col, max_col=max_col)
                                for c in line if c.value not in (None, "")), default=1))

    def texts(row: int) -> list[str]:
        return [v for c in range(min_col, max_col + 1) if isinstance(v := ws.cell(row, c).value, str) and v.strip()]

    if ws.print_title_rows:
        row, repeated = int(ws.print_title_rows.split(":")[-1].replace("$", "")), True
    else:
        row, repeated = max(range(1, min(max_row, 20) + 1), key=lambda r: len(texts(r)), default=1), False
    return {w for t in texts(row) for w in t.split()}, repeated, max_row


@pytest.mark.parametrize("label", RENDERED)
def test_one_page_of_each_sheet_kind_renders(converted, label):
    pdf = converted.pdf(label)
    assert pdf.exists(), f"LibreOffice wrote no PDF for {label}"
    pages = pdf_text(pdf).split("\f")
    wb = load_workbook(converted.files[label])
    outline = pdf_outline(pdf)
    sheets = printed_sheets(wb, pdf, outline)
    assert [t for t, _ in outline] == [s.name for s in sheets if not s.hidden], \
        f"{label}: the PDF's sheets are not the visible sheets in order"
    if not PICTURES:  # its own temporary directory: pytest's numbered ones are pruned by the next runs
        PICTURES.append(Path(tempfile.mkdtemp(prefix="xlbridge-pictures-")))
    pictures = PICTURES[0]
    kinds: dict[str, PrintedSheet] = {}
    for sheet in sheets:
        where = f"{label} {sheet.name!r} ({sheet.kind})"
        if sheet.hidden:
            assert not sheet.pages, f"{where}: a hidden sheet prints"
            continue
        assert sheet.pages, f"{where}: prints no page"
        text = "\n".join(pages[p - 1] for p in sheet.pages)
        errors = PRINT_ERROR.findall(text)
        assert not errors, f"{where}: a cell prints an error: {errors[:3]}"
        kinds.setdefault(sheet.kind, sheet)
        if sheet.kind == "chart sheet":
            continue
        ws = wb[sheet.name]
        words, repeated, rows = header_words(ws)
        # every sheet prints one page wide (docs/printing.md): set so, and so printed -- every page shows
        # the whole header row (a page of only the columns on the right would lack its first words)
        assert ws.sheet_properties.pageSetUpPr.fitToPage and ws.page_setup.fitToWidth == 1, \
            f"{where}: not set to print one page wide"
        for p in sheet.pages if repeated else sheet.pages[:1]:
            missing = words - set(pages[p - 1].split())
            assert not missing, f"{where}: page {p} lacks the header words {sorted(missing)}: not one page wide"
        assert len(sheet.pages) <= max(1, math.ceil(rows / ROWS_PER_PAGE)), \
            f"{where}: {rows} rows print on {len(sheet.pages)} pages"
        if ws.sheet_properties.pageSetUpPr.fitToPage and ws.page_setup.fitToHeight == 1:
            assert len(sheet.pages) == 1, f"{where}: set to one page high, prints on {len(sheet.pages)}"
    for kind, sheet in kinds.items():
        stem = re.sub(r"\W+", "_", f"{label}__{kind}").strip("_")
        subprocess.run(["pdftoppm", "-f", str(sheet.pages[0]), "-l", str(sheet.pages[0]), "-r", str(PNG_DPI),
                        "-gray", "-png", "-singlefile", str(pdf), str(pictures / stem)], check=True, timeout=120)
        png = pictures / f"{stem}.png"
        assert png.exists(), f"{label} {sheet.name!r}: pdftoppm wrote no picture"
        width, height, dark = png_ink(png)
        assert dark >= 200, f"{png}: the page of {label} {sheet.name!r} is blank ({dark} dark pixels)"
        if sheet.kind != "chart sheet":
            orientation = wb[sheet.name].page_setup.orientation or "portrait"
            assert (width > height) == (orientation == "landscape"), \
                f"{png}: {width}x{height} pixels, the sheet is set to {orientation}"
        print(f"picture: {png}  ({label}, {kind}: sheet {sheet.name!r}, {len(sheet.pages)} page(s))")
    assert kinds, f"{label}: no sheet printed"


PICTURES: list[Path] = []  # the one directory of every picture of a run (printed with -rA or -s)


def test_a_hidden_sheet_does_not_print(converted):
    """The check above that a hidden sheet has no pages can fail: LibreOffice leaves it out of the PDF
    and its outline."""
    pdf = converted.pdf("hidden")
    sheets = printed_sheets(load_workbook(converted.files["hidden"]), pdf, pdf_outline(pdf))
    assert [(s.name, s.hidden, s.pages) for s in sheets] == [("Shown", False, [1]), ("Record", True, [])]
    assert "printed" in pdf_text(pdf) and "never" not in pdf_text(pdf)


def printed_pages(converted, label: str) -> tuple[Path, dict[str, PrintedSheet], list[str]]:
    """A converted workbook's PDF, its printed sheets by name, and the text of each page."""
    pdf = converted.pdf(label)
    sheets = printed_sheets(load_workbook(converted.files[label]), pdf, pdf_outline(pdf))
    return pdf, {s.name: s for s in sheets}, pdf_text(pdf).split("\f")


def sheet_text(sheets: dict[str, PrintedSheet], pages: list[str], name: str) -> str:
    """The text sheet ``name`` prints (of :func:`printed_pages`), on all its pages, its white space as single spaces."""
    return " ".join(" ".join(pages[p - 1] for p in sheets[name].pages).split())


def test_a_period_after_its_first_evening_prints_as_provisional(converted):
    """Issue 26, point 1: after the first evening added with New evening, Periode 1 printed
    "(eindstand: alle 1 avonden gespeeld)" and its moves as final."""
    _, sheets, pages = printed_pages(converted, "one-evening/heeg-season.xlsx")
    period = sheet_text(sheets, pages, "Periode 1")
    assert "(voorlopig: 1 van 6 avonden gespeeld)" in period
    assert "zou degraderen naar B" in period and "eindstand" not in period
    assert "(voorlopig: 1 van 18 avonden gespeeld)" in sheet_text(sheets, pages, "Jaar")


def _words_of_page(pdf: Path, page: int) -> list[tuple[float, float, float, float, str]]:
    """Each word LibreOffice printed on ``page``: its box (x0, y0, x1, y1, in points) and text."""
    html = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"], check=True,
                          capture_output=True, text=True, timeout=120).stdout
    return [(float(a), float(b), float(c), float(d), t) for a, b, c, d, t in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', html)]


def test_a_word_right_of_a_number_prints_apart_from_it(converted):
    """Issue 26, point 7: marks 0 against "zou degraderen naar B" printed as "0zou"; the inv codes
    and BridgeMania's R ran into the number left of them the same way (declare.TEXT_APART)."""
    pdf, sheets, _ = printed_pages(converted, "one-evening/heeg-season.xlsx")
    words = _words_of_page(pdf, sheets["Periode 1"].pages[0])
    gaps = [(before[4], word[4], round(word[0] - before[2], 2), round(before[3] - before[1], 2))
            for before, word in zip(words, words[1:]) if word[4] in ("zou", "degradeert", "promoveert") and before[4].isdigit()]
    assert len(gaps) == 6, gaps  # three pairs relegate, three promote
    assert all(gap >= 0.2 * height for _, _, gap, height in gaps), gaps


def test_pts_print_as_the_regolamento_prints_them(converted):
    """Issue 26, point 14: every PTS printed with three decimals ("25.000", "140.000", Hibryd "9.640")."""
    printed = sheet_text(*printed_pages(converted, "workbooks/bridgemania-demo.xlsx")[1:], "Campionato")
    padded = re.findall(r"\b\d+\.\d\d0\b", printed)  # (the % columns print two decimals: 49.30)
    assert not padded, padded[:5]
    assert re.search(r"(?<![.\d])\d{2,3}(?![.\d])", printed)  # a whole number of points, as it is


def test_the_messages_sheet_prints_each_message_and_its_whole_reference(converted):
    """Issue 26, point 3: in Excel column A kept its default width and the reference in B was cut
    ("Avond 202Avond 2026-09-17!L5")."""
    label = "problem/heeg-demo.xlsx"
    ws = load_workbook(converted.files[label])["Meldingen"]
    message, reference = ws["A2"].value, ws["B2"].value
    assert reference.startswith("Avond ") and reference.endswith("!D2") and message.startswith(reference[:-3] + ", D2: ")
    _, sheets, pages = printed_pages(converted, label)
    printed = sheet_text(sheets, pages, "Meldingen")
    assert " ".join(message.split()) in printed and reference in printed
    assert len(sheets["Meldingen"].pages) == 1


# ------------------------------------------------------------------ dates New evening / New tournament write

ODS_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
ODS_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"


def ods_cell(path: Path, sheet: str, row: int, col: int) -> tuple[str | None, str | None]:
    """What LibreOffice holds in (row, col) of ``sheet`` of a flat ODS file it wrote: the cell's value type
    (``date``, ``string``, ``float``) and its date value."""
    import xml.etree.ElementTree as ET

    table = next(t for t in ET.parse(path).getroot().iter(f"{ODS_TABLE}table") if t.get(f"{ODS_TABLE}name") == sheet)
    r = 0
    for line in table.iter(f"{ODS_TABLE}table-row"):
        r += int(line.get(f"{ODS_TABLE}number-rows-repeated", "1"))
        if r < row:
            continue
        c = 0
        for cell in line:
            if cell.tag in (f"{ODS_TABLE}table-cell", f"{ODS_TABLE}covered-table-cell"):
                c += int(cell.get(f"{ODS_TABLE}number-columns-repeated", "1"))
                if c >= col:
                    return cell.get(f"{ODS_OFFICE}value-type"), cell.get(f"{ODS_OFFICE}date-value")
        break
    return None, None


def _base_pairs(path: Path) -> None:
    """Eight base pairs on the Italian Season sheet of the blank BridgeMania season (row 5 down)."""
    wb = load_workbook(path)
    ws = wb["Stagione"]
    for i, (pair, one, two) in enumerate([("AA", "Anna", "Aldo"), ("BB", "Bea", "Bruno"), ("CC", "Carla", "Carlo"),
                                          ("DD", "Dino", "Dora"), ("EE", "Elio", "Eva"), ("FF", "Fabio", "Fede"),
                                          ("GG", "Gino", "Gea"), ("HH", "Ivo", "Ines")]):
        for col, value in enumerate((pair, one, two, None, i + 1), start=1):
            ws.cell(5 + i, col, value)
    wb.save(path)


def test_new_sheets_after_a_libreoffice_save_write_dates_libreoffice_reads_as_dates(tmp_path):
    """Issue 26, point 13: the blank seasons saved by LibreOffice (as the scorer saves them), then New evening
    and New tournament twice each (a date given, then the default: one week later): LibreOffice reads every
    date xlbridge wrote as a date (office:value-type "date"), never as text."""
    if soffice() is None:
        pytest.skip("LibreOffice (soffice) is not installed here: apt-get install libreoffice-calc-nogui")
    from tests.heegseason import type_pairs
    from xlbridge.files.headless import next_sheet_path

    profile, typed, saved, out = (tmp_path / d for d in ("profile", "typed", "saved", "out"))
    for d in (profile / "user", typed, saved, out):
        d.mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(PROFILE_XCU, encoding="utf-8")
    heeg, bm = typed / "heeg.xlsx", typed / "bm.xlsx"
    shutil.copy2(ROOT / "templates" / "heeg-season.xlsx", heeg)
    shutil.copy2(ROOT / "templates" / "bridgemania-season.xlsx", bm)
    type_pairs(heeg)
    _base_pairs(bm)
    run_soffice(profile, "xlsx:Calc MS Excel 2007 XML", saved, [heeg, bm])  # the scorer's save in LibreOffice
    import datetime as dt

    for name, first in (("heeg.xlsx", dt.date(2026, 9, 3)), ("bm.xlsx", dt.date(2026, 10, 1))):
        next_sheet_path(saved / name, day=first, backup=False)
        next_sheet_path(saved / name, backup=False, today=dt.date(2026, 9, 1))
    run_soffice(profile, "fods", out, [saved / "heeg.xlsx", saved / "bm.xlsx"])
    assert [ods_cell(out / "heeg.fods", "Seizoen", 12, c) for c in (3, 4)] == [
        ("date", "2026-09-03"), ("date", "2026-09-10")]  # Period 1, Avond 1 and 2
    assert [ods_cell(out / "bm.fods", "Stagione", r, 11) for r in (5, 6)] == [
        ("date", "2026-10-01"), ("date", "2026-10-08")]  # the calendar's Date
    assert ods_cell(out / "heeg.fods", "Seizoen", 17, 2) == ("string", None)  # (a text reads as one)
