"""The catalogue of problem messages (docs/errors.md): every entry is a test.

docs/errors.md holds one markdown table row per message:
``| E-ID | situation | `message as printed` | what to do |``.  This module
parses it and, for every id, runs a scenario that produces the message the way a
scorer meets it (a damaged file, a workbook with a typo, a worksheet function,
a command line) and asserts the printed text equals the catalogue text exactly.
:func:`test_every_entry_has_a_scenario_and_every_scenario_an_entry` keeps the
two from drifting apart.

How a message is taken:

- the file and any workbook: ``xlbridge recalc season.xlsx`` (``xlbridge.cli.main``)
  in a fresh temporary folder, so the path printed is exactly the ``season.xlsx``
  typed (no variable part to normalise); the line must read
  ``xlbridge: error: <message>``, exit code 2, and the file must be unchanged with
  no backup written;
- a workbook problem also goes through the Excel script's code path
  (:func:`xlbridge.workbooks.messages.report_problems` on the same workbook, as
  "Recalculate season" script does): the Messages sheet must list the same messages, the
  alert must show them and a located cell must get the light red mark;
- worksheet functions: the plain Python function returns the cell text
  ``#xlbridge: ...``;
- the command line: ``xlbridge.cli.main`` with the arguments shown.

``python tests/test_errors_catalogue.py`` prints what every scenario produces
(to write or check the catalogue by hand).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import os
import re
import sys
import tempfile
import zipfile
from typing import Any
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import FileLock
from openpyxl import Workbook, load_workbook

from xlbridge.files import headless, kept_parts
from xlbridge.files.locks import RunLock
from xlbridge.files.package import add_default, add_relationship, rewrite
from xlbridge.cli import main
from xlbridge.clubs import bridgemania as bm
from xlbridge.excel import functions as fn
from xlbridge.workbooks.bridgemania import season_workbook
from xlbridge.workbooks.bridgemania.declaration import FIRST_BOARD_COL as BM_BOARD_1
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.messages import MARK, MESSAGES, clear_marks, report_problems
from xlbridge.workbooks.recalc import BookInputError, recalculate
from xlbridge.excel.shipped import build
from xlbridge.results import ResultsFileError, read_results
from xlbridge.results.matchpoints import matchpoints

pytestmark = pytest.mark.slow  # the inner loop while developing is pytest -m "not slow" (pyproject.toml)

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "docs" / "errors.md"
PREFIX = "xlbridge: error: "
BOOK = "season.xlsx"  # the name every workbook scenario recalculates
ID = re.compile(r"E-[A-Z0-9]+(?:-[A-Z0-9]+)+")


# ------------------------------------------------------------------ the catalogue


@dataclass(frozen=True)
class Entry:
    id: str
    situation: str
    message: str
    todo: str


def _cells(line: str) -> list[str]:
    """The cells of a markdown table row (``\\|`` is a literal bar)."""
    inner = line.strip()[1:-1] if line.strip().endswith("|") else line.strip()[1:]
    return [part.replace("\\|", "|").strip() for part in re.split(r"(?<!\\)\|", inner)]


def catalogue(text: str | None = None) -> dict[str, Entry]:
    """Every entry of docs/errors.md, by id, in order."""
    text = CATALOGUE.read_text(encoding="utf-8") if text is None else text
    entries: dict[str, Entry] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not re.match(r"^\|\s*`?E-", line):
            continue
        cells = _cells(line)
        assert len(cells) == 4, f"docs/errors.md line {number}: expected id | situation | message | what to do"
        ident, situation, message, todo = cells
        ident = ident.strip("`")
        assert ID.fullmatch(ident), f"docs/errors.md line {number}: bad id {ident!r}"
        assert ident not in entries, f"docs/errors.md line {number}: id {ident} is listed twice"
        quoted = re.fullmatch(r"`([^`]+)`", message)
        assert quoted, f"docs/errors.md line {number}: the message must be one `code span`"
        assert situation and todo, f"docs/errors.md line {number}: situation and what to do must not be empty"
        entries[ident] = Entry(ident, situation, quoted[1], todo)
    return entries


# ------------------------------------------------------------------ the workbooks (built once per module)

HEEG_P1 = [dt.datetime(2026, 10, 7), dt.datetime(2026, 10, 14)]
HEEG_P2 = [dt.datetime(2026, 10, 21)]
EV = "Evening 2026-10-14"  # pair p on row p + 1; line A pairs 1-6 (max 96), line B pairs 7-10 (max 48)
MP_A = [48, 46, 44, 42, 40, 38]  # at most 48: the maximum of a line of 5 (E-HEEG-COMBI-ABSENT marks a pair absent)
MP_B = [30, 26, 22, 18]


def heeg_season(folder: Path, build: Callable[..., Path] = build) -> Path:
    """A small Heeg season typed into the blank template (``build``: as :func:`xlbridge.excel.shipped.build`):
    lines A (6 pairs) and B (4 pairs), period 1 with two evenings, period 2 with one; recalculated."""
    path = build("heeg", folder / "heeg.xlsx", blank=True, language="en")
    wb = load_workbook(path)
    ws = wb["Season"]
    ws["B4"], ws["B5"] = "2026/2027", "A, B"
    ws["C12"], ws["D12"] = HEEG_P1
    ws["C13"] = HEEG_P2[0]
    for pair in range(1, 11):
        row = 16 + pair
        ws.cell(row=row, column=1, value=pair)
        ws.cell(row=row, column=2, value=f"Pair {pair} names")
        for col in (3, 4, 5):
            ws.cell(row=row, column=col, value="A" if pair <= 6 else "B")
    wb.save(path)
    headless.recalc_path(path, backup=False, when="t")  # creates the evening sheets with the pairs
    wb = load_workbook(path)
    for day in HEEG_P1 + HEEG_P2:
        ev = wb[f"Evening {day.date().isoformat()}"]
        for row, mp in enumerate(MP_A + MP_B, start=2):
            ev.cell(row=row, column=12, value=mp)
    wb.save(path)
    headless.recalc_path(path, backup=False, when="t")
    return path


Q1 = [6, 0, 4, 2, 2, 4, 0, 6]
Q2 = [0, 6, 2, 4, 4, 2, 6, 0]
Q3 = [6, 0, 6, 0, 0, 6, 0, 6]
BM_BOARDS = [Q1] * 7 + [Q2] * 6 + [Q3]  # 14 boards, 4 rows, TOP 6: each board adds up


def bm_season(folder: Path) -> Path:
    """A small BridgeMania season: base pairs A..I (H waits, I is unable), guest G1,
    tournaments T1 (host A) and T2 (host B) of 8 pairs and 14 boards.  On T1 pair
    A is row 9, B row 10, ..., G row 15, H 16, I 17, G1 18; board b is column 4 + b."""
    base = tuple(bm.BasePair(x, (x.lower() + "1", x.lower() + "2"), f"Pair {x}") for x in "ABCDEFGHI")
    slots = ["A", "B", "C", "D", "E", "F", "G", "G1"]

    def tournament(tid: str, host: str) -> bm.Tournament:
        return bm.Tournament(id=tid, host=host, date="2026-01-10", top=6,
                             scores={name: [b[i] for b in BM_BOARDS] for i, name in enumerate(slots)},
                             status={"H": "waiting", "I": "unable"})

    season = bm.Season(base_pairs=base, tournaments=(tournament("T1", "A"), tournament("T2", "B")),
                       guests=(bm.Guest("G1", "Guest pair"),))
    path = folder / "bm.xlsx"
    season_workbook(season).save(path)
    return path


class Sources:
    """The workbooks the scenarios start from, built once and copied (``build``: as
    :func:`xlbridge.excel.shipped.build`; the tests pass ``built_once``, which the other modules share)."""

    def __init__(self, folder: Path, build: Callable[..., Path] = build):
        self.folder = folder
        self.build = build
        self._bytes: dict[str, bytes] = {}

    def __call__(self, kind: str) -> bytes:
        if kind not in self._bytes:
            makers: dict[str, Callable[[], Path]] = {
                "heeg": lambda: heeg_season(self.folder, self.build),
                "bm": lambda: bm_season(self.folder),
                "bm-blank": lambda: self._save(season_workbook(None), "bm-blank.xlsx"),
                "empty": lambda: self._save(Workbook(), "empty.xlsx"),
                "heeg-demo": lambda: self.build("heeg", self.folder / "heeg-demo.xlsx", language="en"),
                "tbf-club": lambda: self.build("tbf-club", self.folder / "tbf.xlsx", language="en"),
                "se-masterpoints": lambda: self.build("se-masterpoints", self.folder / "se.xlsx", language="en"),
                # a late correction typed: a recalculation that writes (one that changes nothing saves nothing)
                "tbf-corrected": lambda: self._corrected(self("tbf-club"), "Tournament", "C20", 66.0),
            }
            self._bytes[kind] = makers[kind]().read_bytes()
        return self._bytes[kind]

    def _corrected(self, data: bytes, sheet: str, cell: str, value: object) -> Path:
        wb = load_workbook(io.BytesIO(data))
        wb[sheet][cell] = value
        return self._save(wb, "corrected.xlsx")

    def _save(self, wb: Workbook, name: str) -> Path:
        wb.save(self.folder / name)
        return self.folder / name


# ------------------------------------------------------------------ running a scenario


@dataclass
class Ctx:
    sources: Sources
    folder: Path  # the current folder of the scenario (fresh, empty)


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def cli_error(*argv: str) -> list[str]:
    """The messages ``xlbridge ARGS`` prints: each line ``xlbridge: error: ...``, exit 2."""
    code, out, err = cli(*argv)
    assert code == 2 and out == "", (code, out, err)
    lines = err.splitlines()
    if lines and lines[-1].startswith("xlbridge: nothing was written: "):  # what to do next, after a workbook's problems
        lines.pop()
    assert lines and all(line.startswith(PREFIX) for line in lines), err
    return [line[len(PREFIX):] for line in lines]


#: Above this size a file is not read to check that it stayed the same (E-FILE-SIZE's 3 GB sparse file:
#: reading it twice took most of the scenario's time and 6 GB of memory).
READ_UP_TO = 64 << 20


def contents(path: Path) -> object:
    """What shows that ``path`` was not touched: its bytes; for a larger file its size, inode, modification
    time (a save replaces the inode, a write in place moves the time) and first megabyte."""
    stat = path.stat()
    if stat.st_size <= READ_UP_TO:
        return path.read_bytes()
    with path.open("rb") as handle:
        return stat.st_size, stat.st_ino, stat.st_mtime_ns, handle.read(1 << 20)


def recalc_file(name: str = BOOK) -> list[str]:
    """``xlbridge recalc NAME`` refuses: the messages; the file is not touched, no backup."""
    path = Path(name)
    before = contents(path) if path.is_file() else None
    printed = cli_error("recalc", name)
    if before is not None:
        assert contents(path) == before
        assert not headless.backup_path(path).exists()
    return printed


def excel_messages(workbook: Workbook) -> list[str]:
    """The Excel script's way ("Recalculate season") on the same workbook: the Messages
    sheet, the alert and the light red marks."""
    book = OpenpyxlBook(workbook)
    clear_marks(book)
    with pytest.raises(BookInputError) as caught:
        recalculate(book)
    problems = caught.value.problems
    report_problems(book, problems, clear_old=False)
    listed = [line[0] for line in book.read(MESSAGES)[1:] if line and line[0] is not None]
    shown = [str(p) for p in problems]
    assert listed == shown
    assert book.messages and book.messages[-1].startswith(
        f"Nothing was recalculated: {len(problems)} problem{'' if len(problems) == 1 else 's'}.\n")
    assert all(message in book.messages[-1] for message in shown[:10])
    for p in problems:
        if p.cell and p.sheet in book.sheet_names():
            ws = book.wb[p.sheet]
            assert ws[p.cell].fill.start_color.rgb == "FF" + MARK.lstrip("#"), p
    return shown


def workbook_problems(ctx: Ctx, kind: str, edit: Callable[[Workbook], object] | None = None) -> list[str]:
    """Copy the ``kind`` workbook to season.xlsx, ``edit`` it as a scorer would, and
    recalculate: what the CLI printed, checked equal to what the Excel script shows."""
    path = Path(BOOK)
    path.write_bytes(ctx.sources(kind))
    wb = load_workbook(path)
    if edit is not None:
        edit(wb)
        wb.save(path)
    printed = recalc_file(BOOK)
    assert excel_messages(wb) == printed  # the workbook as saved, still in memory: one load less
    return printed


def setting(sheet: str, **cells: object) -> Callable[[Workbook], None]:
    def edit(wb: Workbook) -> None:
        for ref, value in cells.items():
            wb[sheet][ref] = value
    return edit


# ------------------------------------------------------------------ the scenarios

#: id -> (scenario, alone): ``alone`` = the run reports this one problem only.
SCENARIOS: dict[str, tuple[Callable[[Ctx], list[str]], bool]] = {}


def scenario(ident: str, alone: bool = True):
    def register(func: Callable[[Ctx], list[str]]) -> Callable[[Ctx], list[str]]:
        assert ident not in SCENARIOS, ident
        SCENARIOS[ident] = (func, alone)
        return func
    return register


def simple(ident: str, kind: str, edit: Callable[[Workbook], object] | None, alone: bool = True) -> None:
    scenario(ident, alone)(lambda ctx: workbook_problems(ctx, kind, edit))


# --- the file


@scenario("E-FILE-MISSING")
def _(ctx):
    return recalc_file()


@scenario("E-FILE-FOLDER")
def _(ctx):
    Path(BOOK).mkdir()
    return recalc_file()


@scenario("E-FILE-NOT-XLSX-NAME")
def _(ctx):
    Path("season.csv").write_text("pair,score\n1,50\n")
    return recalc_file("season.csv")


@scenario("E-FILE-XLS-NAME")
def _(ctx):
    Path("season.xls").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504)
    return recalc_file("season.xls")


@scenario("E-FILE-PROTECTED")
def _(ctx):
    # Excel saves a password-protected .xlsx (and an old .xls) as an OLE compound file:
    # its signature is what xlbridge recognises.
    Path(BOOK).write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504)
    return recalc_file()


@scenario("E-FILE-NOT-ZIP")
def _(ctx):
    printed = []
    for content in (b"pair;score\n1;50\n", b"", ctx.sources("tbf-club")[:4000]):  # CSV, empty, cut short
        Path(BOOK).write_bytes(content)
        printed += recalc_file()
    assert len(set(printed)) == 1, printed
    return printed[:1]


@scenario("E-FILE-DAMAGED")
def _(ctx):
    data = bytearray(ctx.sources("tbf-club"))
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as archive:
        info = archive.getinfo("xl/worksheets/sheet1.xml")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    middle = start + info.compress_size // 2
    data[middle:middle + 4] = bytes(b ^ 0xFF for b in data[middle:middle + 4])  # damaged compressed data
    Path(BOOK).write_bytes(bytes(data))
    printed = recalc_file()
    # a part cut off inside a valid zip (openpyxl: a raw ParseError): the same message
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    sheet = zipfile.ZipFile(BOOK).read("xl/worksheets/sheet1.xml")
    rewrite(BOOK, {"xl/worksheets/sheet1.xml": sheet[: len(sheet) // 2]})
    assert recalc_file() == printed
    return printed


@scenario("E-FILE-NOT-A-WORKBOOK-ZIP")
def _(ctx):
    with zipfile.ZipFile(BOOK, "w") as archive:  # e.g. a .zip download renamed .xlsx
        archive.writestr("results.txt", "pair;score\n1;50\n")
    return recalc_file()


@scenario("E-FILE-STRICT")
def _(ctx):
    """Saved as "Strict Open XML Spreadsheet": every part's transitional namespaces become the ISO Strict ones."""
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    with zipfile.ZipFile(BOOK) as archive:
        parts = {name: archive.read(name) for name in archive.namelist() if name.endswith((".xml", ".rels"))}
    strict = {name: data.replace(b"http://schemas.openxmlformats.org/spreadsheetml/2006/main",
                                 b"http://purl.oclc.org/ooxml/spreadsheetml/main")
              .replace(b"http://schemas.openxmlformats.org/officeDocument/2006/relationships",
                       b"http://purl.oclc.org/ooxml/officeDocument/relationships") for name, data in parts.items()}
    rewrite(BOOK, strict)
    return recalc_file()


@scenario("E-FILE-OPEN-IN-EXCEL")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    Path("~$" + BOOK).write_bytes(b"owner")
    return recalc_file()


@scenario("E-FILE-BUSY")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    wait, headless.LOCK_WAIT_SECONDS = headless.LOCK_WAIT_SECONDS, 0.1
    try:
        with FileLock(str(headless.lock_path(Path(BOOK)))):  # another run holds the file
            return recalc_file()
    finally:
        headless.LOCK_WAIT_SECONDS = wait


@contextlib.contextmanager
def patched(owner: object, name: str, value: object):
    """``owner.name`` is ``value`` for the duration (the scenarios have no monkeypatch)."""
    old = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, old)


def failing(error: OSError) -> Callable[..., object]:
    def fail(*args: object, **kwargs: object) -> object:
        raise error
    return fail


def during_the_run(action: Callable[[], object]):
    """``action()`` in the middle of the recalculation (between the read and the replace)."""
    real = headless.recalculate_and_list

    def recalculate(book, **kwargs):
        report = real(book, **kwargs)
        action()
        return report

    return patched(headless, "recalculate_and_list", recalculate)


@scenario("E-FILE-OPEN-IN-LIBREOFFICE")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    Path(f".~lock.{BOOK}#").write_text("LibreOffice user,host,...")
    return recalc_file()


@scenario("E-FILE-LOCKED")
def _(ctx):
    import fcntl

    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    fd = os.open(BOOK, os.O_RDONLY)  # another program's lock on the workbook itself
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return recalc_file()
    finally:
        os.close(fd)


@scenario("E-FILE-CHANGED")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-corrected"))
    theirs = ctx.sources("se-masterpoints")  # what the other program saved meanwhile

    def save() -> None:
        Path("EXCEL0001.tmp").write_bytes(theirs)
        os.replace("EXCEL0001.tmp", BOOK)

    with during_the_run(save):
        printed = cli_error("recalc", BOOK)
    assert Path(BOOK).read_bytes() == theirs and not headless.backup_path(Path(BOOK)).exists()
    return printed


@scenario("E-FILE-OPENED-DURING-RUN")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-corrected"))
    with during_the_run(lambda: Path("~$" + BOOK).write_bytes(b"owner")):
        return recalc_file()


@scenario("E-FILE-READ-ONLY")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    os.chmod(BOOK, 0o444)
    return recalc_file()


@scenario("E-FILE-HARD-LINKS")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    os.link(BOOK, "season-copy.xlsx")
    return recalc_file()


@scenario("E-FILE-BACKUP-FOLDER")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    Path("season.backup.xlsx").mkdir()
    printed = cli_error("recalc", BOOK)
    assert Path(BOOK).read_bytes() == ctx.sources("tbf-club")
    return printed


@scenario("E-FILE-MACROS")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    wb = load_workbook(BOOK)
    wb["Tournament"]["C28"] = 70.0  # a corrected score: a run that changes nothing writes nothing, macros or not
    wb.save(BOOK)
    with zipfile.ZipFile(BOOK) as archive:
        rels, types = archive.read("xl/_rels/workbook.xml.rels"), archive.read("[Content_Types].xml")
    rels, _ = add_relationship(rels, "http://schemas.microsoft.com/office/2006/relationships/vbaProject",
                               "/xl/macros/project.bin")
    types, _ = add_default(types, "bin", "application/vnd.ms-office.vbaProject")
    types = types.replace(b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
                          b"application/vnd.ms-excel.sheet.macroEnabled.main+xml")
    rewrite(BOOK, {"xl/_rels/workbook.xml.rels": rels, "[Content_Types].xml": types,
                   "xl/macros/project.bin": b"a VBA project"})
    os.replace(BOOK, "season.xlsm")
    return recalc_file("season.xlsm")


@scenario("E-FILE-NO-PERMISSION")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    # where the issue met "[Errno 13] Permission denied: '.season.xlsx.xlbridge-lock'": a folder it may not write in
    # (tests/files/test_file_safety.py does it for real, as another user)
    with patched(RunLock, "_open", failing(PermissionError(13, "Permission denied", ".season.xlsx.xlbridge-lock"))):
        return recalc_file()


@scenario("E-FILE-DISK-FULL")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-corrected"))
    with patched(kept_parts, "save_keeping", failing(OSError(28, "No space left on device"))):
        printed = recalc_file()
    assert sorted(os.listdir(".")) == [BOOK]  # no temporary file left
    return printed


@scenario("E-FILE-TOO-LARGE")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-corrected"))
    with patched(kept_parts, "save_keeping", failing(OSError(27, "File too large"))):
        return recalc_file()


@scenario("E-FILE-READ-ONLY-DISK")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    with patched(RunLock, "_open", failing(OSError(30, "Read-only file system", ".season.xlsx.xlbridge-lock"))):
        return recalc_file()


@scenario("E-FILE-OS-ERROR")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    with patched(headless.Snapshot, "take", failing(OSError(5, "Input/output error", BOOK))):
        return recalc_file()


#: The smallest workbook package, by hand: its parts' sizes (and so the memory figures below) are fixed here.
SMALL_PACKAGE = {
    "[Content_Types].xml": b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    "_rels/.rels": b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                   b'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": b'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                       b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
                       b'<sheet name="Tournament" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
                                  b'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
                                  b'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
                                  b"</Relationships>",
    "xl/worksheets/sheet1.xml": b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                                b"<sheetData/></worksheet>",
    "xl/styles.xml": b'<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs>'
                     b"</cellXfs></styleSheet>",
}


def small_package(path: str = "small.xlsx") -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in SMALL_PACKAGE.items():
            archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)
    return Path(path)


@scenario("E-FILE-SIZE")
def _(ctx):
    from tools.attacks.bounds import sparse

    sparse(Path(BOOK), 3 * 10**9, b"PK\x03\x04")  # 3 GB, no disk used: refused from its size, never read
    return recalc_file()


@scenario("E-FILE-PARTS")
def _(ctx):
    from tools.attacks.bounds import many_parts

    many_parts(small_package(), Path(BOOK), 800_000)
    return recalc_file()


@scenario("E-FILE-UNPACKED")
def _(ctx):
    from tools.attacks.bounds import sheet_bomb

    sheet_bomb(small_package(), Path(BOOK), 300 << 20)  # a 300 KB file
    return recalc_file()


@scenario("E-FILE-ELEMENTS")
def _(ctx):
    from tools.attacks.bounds import cell_formats

    cell_formats(small_package(), Path(BOOK), 1_000_000)  # 5 MB of <xf/> in 10 KB
    return recalc_file()


@scenario("E-FILE-FOLDER-READ-ONLY")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    here, real = Path.cwd().resolve(), os.access
    # tests/files/test_file_safety.py denies it for real (without root's override)
    with patched(headless.os, "access", lambda path, mode: real(path, mode) and Path(path) != here):
        return recalc_file()


# --- any workbook

simple("E-BOOK-NOT-XLBRIDGE", "empty", None)


def edited_file(ctx: Ctx, edit: Callable[[Workbook], object]) -> list[str]:
    """The TBF club workbook edited as a scorer would, then ``xlbridge recalc``."""
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    wb = load_workbook(BOOK)
    edit(wb)
    wb.save(BOOK)
    return recalc_file()


scenario("E-BOOK-FAR-OUT")(lambda ctx: edited_file(ctx, setting("Tournament", XFD1048576="stray")))
scenario("E-BOOK-MERGED-COMPUTED")(lambda ctx: edited_file(
    ctx, lambda wb: (setting("Tournament", C20=66.0)(wb), wb["Tournament"].merge_cells("D12:E12"))))


@scenario("E-BOOK-MERGED-FAR")
def _(ctx):
    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    from tools.attacks.bounds import worksheet

    part = worksheet(Path(BOOK), "How to")  # openpyxl would make 17 billion cells
    sheet = zipfile.ZipFile(BOOK).read(part)
    rewrite(BOOK, {part: sheet.replace(
        b"</sheetData>", b'</sheetData><mergeCells count="1"><mergeCell ref="A1000:XFD1048576"/></mergeCells>', 1)})
    return recalc_file()


@scenario("E-BOOK-HYPERLINK-FAR")
def _(ctx):
    from tools.attacks.bounds import hyperlink_over

    Path("tbf.xlsx").write_bytes(ctx.sources("tbf-club"))
    hyperlink_over(Path("tbf.xlsx"), Path(BOOK), "A1:XFD1048576")  # on How to: openpyxl would make 17 billion cells
    return recalc_file()


# --- event sheets (TBF club tournament, Swedish events)

simple("E-EVENT-SCORE-TEXT", "tbf-club", setting("Tournament", C12="5x"))
simple("E-EVENT-SCORE-NEGATIVE", "tbf-club", setting("Tournament", C15=-40))
simple("E-EVENT-SCORE-EMPTY", "tbf-club", setting("Tournament", C11=None))
simple("E-EVENT-SCORE-FRACTION", "tbf-club", setting("Tournament", C12=0.625))
simple("E-EVENT-SCHEME-EMPTY", "tbf-club", setting("Tournament", B3=None))
simple("E-EVENT-SCHEME-UNKNOWN", "tbf-club", setting("Tournament", B3="tr.clb"))
simple("E-EVENT-BOARDS-TEXT", "tbf-club", setting("Tournament", B4="many"))
simple("E-EVENT-OPTION-UNKNOWN", "tbf-club", setting("Tournament", B5="bords=24"))
simple("E-EVENT-OPTION-SYNTAX", "tbf-club", setting("Tournament", B5="boards 24"))
simple("E-EVENT-MITCHELL", "tbf-club", setting("Tournament", B5="movement=mitchell"))
simple("E-EVENT-BOARDS-TWICE", "tbf-club", setting("Tournament", B4=24, B5="boards=26"))
simple("E-EVENT-OPTION-TWICE", "tbf-club", setting("Tournament", B4=None, B5="boards=12; boards=40"))
simple("E-EVENT-UNIT-TWICE", "tbf-club",
       lambda wb: setattr(wb["Tournament"]["A13"], "value", wb["Tournament"]["A12"].value))
simple("E-CELL-FORMULA", "tbf-club", setting("Tournament", B4="=20+4"))
simple("E-CELL-ERROR", "tbf-club", setting("Tournament", C12="#DIV/0!"))
simple("E-EVENT-TOO-SMALL", "tbf-club",
       lambda wb: [setattr(wb["Tournament"].cell(row=r, column=c), "value", None)
                   for r in range(14, 29) for c in range(1, 7)])
simple("E-EVENT-HEADER", "tbf-club", setting("Tournament", D8="Plaats"))
simple("E-EVENT-LABEL", "tbf-club", setting("Tournament", A3="Schema"))
simple("E-SE-OPTION-MET", "se-masterpoints", setting("Silver pairs", B5="met=70"))
simple("E-SE-BOARDS", "se-masterpoints", setting("Bronze pairs", B4=6))

# --- the Heeg season


def heeg(ident: str, edit: Callable[[Workbook], object], alone: bool = True) -> None:
    simple(ident, "heeg", edit, alone)


def rows(sheet: str, ref: str, values: list[object]) -> Callable[[Workbook], None]:
    """Type ``values`` from ``ref`` rightwards."""
    def edit(wb: Workbook) -> None:
        start = wb[sheet][ref]
        for offset, value in enumerate(values):
            wb[sheet].cell(row=start.row, column=start.column + offset, value=value)
    return edit


heeg("E-HEEG-ROUND-TEXT", setting(EV, D5="1O3"))
heeg("E-HEEG-ROUND-NEGATIVE", setting(EV, E5=-5))
heeg("E-HEEG-MP-TEXT", setting(EV, L5="1O3"))
heeg("E-HEEG-MP-NEGATIVE", setting(EV, L5=-5))
heeg("E-HEEG-MP-EMPTY", setting(EV, L5=None))
heeg("E-HEEG-MP-ABOVE-MAX", setting(EV, L5=130))
heeg("E-HEEG-MP-ABOVE-SIT-OUT-MAX", setting(EV, N7="0", L7=None, N5="s", L5=45))
heeg("E-HEEG-SIT-OUT-PLAYED", setting(EV, N7="0", L7=None, N5="s", L5=None, D5=8, E5=8, F5=8, G5=8, H5=8, I5=8))
heeg("E-HEEG-ROUND-ABOVE-MAX", setting(EV, D5=20))  # line A of 6: top 4, 4 boards a round; the total 20 < 96
heeg("E-HEEG-ROUNDS-ABOVE-MAX", rows(EV, "D5", [20] * 6))
heeg("E-HEEG-COMBI-ABOVE-MAX", setting(EV, J5=41, L5=30, L7=None, N7="0"))  # line A of 5: one sits out
heeg("E-HEEG-MP-ABSENT", setting(EV, N5="a"))
heeg("E-HEEG-COMBI-SIT-OUT", setting(EV, J5=10, N5="s"))
heeg("E-HEEG-ROUNDS-TOO-MANY", lambda wb: (rows(EV, "D5", [8] * 6)(wb), setting(EV, J5=10)(wb)))
heeg("E-HEEG-SIT-OUT-EVEN", setting(EV, N5="s"))
heeg("E-HEEG-COMBI-EVEN", setting(EV, J5=10))
heeg("E-HEEG-COMBI-ABSENT", setting(EV, J5=10, L5=None, N5="a"))
heeg("E-HEEG-INV-UNKNOWN", setting(EV, N5="x"))
heeg("E-HEEG-PAIR-TWICE", setting(EV, A6=4))
heeg("E-HEEG-PAIR-NOT-ON-ROSTER", setting(EV, A6=99))
heeg("E-HEEG-PAIR-EMPTY", setting(EV, A6=None))
heeg("E-HEEG-CHART-PAIR-UNKNOWN", setting("Chart", B3=99))
heeg("E-HEEG-LINE-UNKNOWN", setting(EV, C5="C"))
heeg("E-HEEG-LINE-NOT-ROSTER", setting(EV, C5="B"))
heeg("E-HEEG-LINE-TOO-SMALL", setting(EV, L11=None, N11="a"))
heeg("E-HEEG-HEADER", setting(EV, N1="invallers"))
heeg("E-SHEET-COLUMN-INSERTED", lambda wb: wb[EV].insert_cols(4))
heeg("E-HEEG-EVENING-EMPTY", lambda wb: wb[EV].delete_rows(1, wb[EV].max_row))
heeg("E-HEEG-EVENING-OUTSIDE", lambda wb: setattr(wb[EV], "title", "Evening 2026-12-25"))
heeg("E-HEEG-EVENING-SHEET-NAME", lambda wb: setattr(wb[EV], "title", "Evening 14-10-2026"))
heeg("E-HEEG-EVENING-LOOKALIKE", lambda wb: setattr(wb[EV], "title", "14 okt"))
heeg("E-HEEG-SEASON-MISSING", lambda wb: wb.remove(wb["Season"]))
heeg("E-HEEG-SEASON-RENAMED", lambda wb: setattr(wb["Season"], "title", "Seizoen"))
heeg("E-HEEG-TITLE", setting("Season", A1="Seizoen Heeg"))
heeg("E-HEEG-LABEL", setting("Season", A6="Rondes"))
heeg("E-HEEG-LINES-EMPTY", setting("Season", B5=None))
heeg("E-HEEG-LINES", setting("Season", B5="A, B, A"))
heeg("E-HEEG-ROUNDS", setting("Season", B6="six"))
heeg("E-HEEG-BOARDS", setting("Season", B7=0))
heeg("E-HEEG-TOO-LARGE", setting("Season", B7=1000))
heeg("E-HEEG-COMBI-TOP", setting("Season", B8="ten"))
heeg("E-HEEG-SPAN", setting("Season", B9="year"))
heeg("E-HEEG-PERIOD-DATE", setting("Season", D13="someday"))
heeg("E-HEEG-PERIOD-DATE-TWICE", setting("Season", D13=HEEG_P1[1]))
heeg("E-HEEG-PERIOD-DATE-ORDER", setting("Season", C13=dt.datetime(2026, 10, 10)))
heeg("E-HEEG-PROMOTE", setting("Season", B12="three"))
heeg("E-HEEG-NO-PERIODS-TABLE", setting("Season", A11="Periode"))
heeg("E-HEEG-NO-PAIRS-TABLE", setting("Season", A16="Paar"))
heeg("E-HEEG-ROSTER-TWICE", setting("Season", A18=1))
heeg("E-HEEG-ROSTER-LINE", setting("Season", C20="C"))
heeg("E-HEEG-ROSTER-HEADER", setting("Season", C16="Lijn 1"))
heeg("E-HEEG-ROSTER-PAIR-EMPTY", setting("Season", A26=None, B26="Pair 10 names"))

# --- the BridgeMania season


def bmania(ident: str, edit: Callable[[Workbook], object], alone: bool = True) -> None:
    simple(ident, "bm", edit, alone)


def clear_board(board: int) -> Callable[[Workbook], None]:
    def edit(wb: Workbook) -> None:
        for row in range(9, 19):
            wb["T1"].cell(row=row, column=BM_BOARD_1 - 1 + board).value = None
    return edit


def add_row(sheet: str, row: int, pair: str, scores: list[object]) -> Callable[[Workbook], None]:
    def edit(wb: Workbook) -> None:
        wb[sheet].cell(row=row, column=1, value=pair)
        for board, value in enumerate(scores, start=1):
            wb[sheet].cell(row=row, column=BM_BOARD_1 - 1 + board, value=value)
    return edit


def rename_section(label: str, new: str) -> Callable[[Workbook], None]:
    def edit(wb: Workbook) -> None:
        ws = wb["T1"]
        row = next(r for r in range(9, ws.max_row + 1) if ws.cell(row=r, column=1).value == label)
        ws.cell(row=row, column=1).value = new
    return edit


def rename_header(header: str, new: str) -> Callable[[Workbook], None]:
    def edit(wb: Workbook) -> None:
        ws = wb["T1"]
        cell = [c for c in ws[8] if c.value == header][-1]  # the per-pair column (the sorted result is rewritten)
        cell.value = new
    return edit


bmania("E-BM-SCORE-TEXT", setting("T1", E9="1O"))
bmania("E-BM-SCORE-NEGATIVE", setting("T1", E9=-2))
bmania("E-BM-SCORE-BLANK", setting("T1", E9=None))
bmania("E-BM-SCORE-ABOVE-TOP", setting("T1", E9=8), alone=False)
bmania("E-BM-SCORE-SCALE", setting("T1", E9=5.5, E10=0.5), alone=False)  # (board 1 still adds up)
bmania("E-BM-DATE", setting("Season", K5="soon"))
bmania("E-BM-DATE-ORDER", setting("Season", K6="2026-01-03"))
bmania("E-BM-BOARD-SUM", setting("T1", E9=4))
bmania("E-BM-BOARD-ODD", setting("T1", E9="R"))  # (pair A sat out board 1: 7 results)
bmania("E-BM-CHART-PAIR-UNKNOWN", setting("Chart", B3="Z"))
bmania("E-BM-PAIR-UNKNOWN", setting("T1", A18="ZZ"))  # (the guest G1's row: the boards still add up)
bmania("E-BM-PAIR-TWICE", add_row("T1", 19, "A", [b[0] for b in BM_BOARDS]))
bmania("E-BM-STATUS-UNKNOWN", setting("T1", B16="sick"))
bmania("E-BM-NO-STATUS", setting("T1", B16=None))
bmania("E-BM-STATUS-AND-SCORES", setting("T1", B11="waiting"))
bmania("E-BM-NOT-VALID-BOARDS", clear_board(14))
bmania("E-BM-NOT-VALID-MOVEMENT", setting("T1", B3="mitchell"))
bmania("E-BM-CHAMPIONSHIP-WORD", setting("T1", B5="maybe"))
bmania("E-BM-TOURNAMENT-SHEET-MISSING", lambda wb: wb.remove(wb["T2"]))
bmania("E-BM-TOURNAMENT-NOT-LISTED", lambda wb: setattr(wb.copy_worksheet(wb["T1"]), "title", "T3"))
bmania("E-BM-SEASON-HEADER", setting("Season", C4="Giocatore 2"))
bmania("E-BM-TOURNAMENT-HEADER", rename_header("Score %", "Pct"))
bmania("E-BM-SECTION-MISSING", rename_section("Penalties", "Penalità"))


def more_pairs_than_the_result_has_room_for(wb: Workbook) -> None:
    """Seven rows inserted among T1's pairs (below its 16 pair rows) and filled: 17 pairs, room for 16."""
    ws = wb["T1"]
    ws.insert_rows(25, 7)
    for i in range(7):
        ws.cell(row=19 + i, column=1, value=f"X{i + 1}")


bmania("E-BM-RESULT-ROOM", more_pairs_than_the_result_has_room_for, alone=False)
bmania("E-BM-SEASON-MISSING", lambda wb: wb.remove(wb["Season"]))
bmania("E-BM-HOST", setting("Season", L5="XX"))
bmania("E-BM-PLAYER-EMPTY", setting("Season", C7=None))
bmania("E-BM-GUEST-TWICE", setting("Season", G6="G1", H6="Same guest"))
simple("E-BM-NO-BASE-PAIRS", "bm-blank", lambda wb: (wb["Season"].__setitem__("G5", "G1"),
                                                     wb["Season"].__setitem__("H5", "Barbara / Sergio")))

# --- worksheet functions (the text a cell shows)


def cell_text(value: object) -> list[str]:
    assert isinstance(value, str) and value.startswith(fn.ERROR_PREFIX), value
    return [value]


scenario("E-FN-SCHEME-UNKNOWN")(lambda ctx: cell_text(fn.award("tr.clb", 1, 20)))
scenario("E-FN-PLACE-OUTSIDE")(lambda ctx: cell_text(fn.award("tr.club", 21, 20)))
scenario("E-FN-PLACE-MITCHELL")(lambda ctx: cell_text(fn.award("tr.club", 14, 26, "movement=mitchell")))
scenario("E-FN-RANKS")(lambda ctx: cell_text(fn.awards("tr.club", [[1], [2], [2], [3]])))
scenario("E-FN-OPTION")(lambda ctx: cell_text(fn.award("tr.club", 1, 20, "boards=many")))
scenario("E-FN-OPTION-RANGE")(lambda ctx: cell_text(fn.award("tr.club", 1, 20, "boards=1e308")))
scenario("E-FN-TBF-MASTERY")(lambda ctx: cell_text(fn.tbf_mastery("abc")))
scenario("E-FN-TBF-TITLE")(lambda ctx: cell_text(fn.tbf_title("x")))
scenario("E-FN-HEEG-CODE")(lambda ctx: cell_text(fn.heeg_pct(150, 96, "x")))
scenario("E-FN-HEEG-MP-TEXT")(lambda ctx: cell_text(fn.heeg_pct("1O3", 96, "")))
scenario("E-FN-HEEG-ABOVE-MAX")(lambda ctx: cell_text(fn.heeg_pct(150, 96, "")))
scenario("E-FN-HEEG-C-TOP")(lambda ctx: cell_text(fn.heeg_c(20, 4, 0)))
scenario("E-FN-BM-SCORE")(lambda ctx: cell_text(fn.bm_pct([[8, "x", 4]], 8)))
scenario("E-FN-BM-SCALE")(lambda ctx: cell_text(fn.bm_pct([[8, 2.5, 4]], 8)))
scenario("E-FN-BM-TOP")(lambda ctx: cell_text(fn.bm_pct([[8, 4]], 7)))
scenario("E-FN-BM-TOP-TOO-LARGE")(lambda ctx: cell_text(fn.bm_pct([[8, 4]], 1000000)))
scenario("E-FN-FIELD-TOO-LARGE")(lambda ctx: cell_text(fn.award("tr.club", 1, 1e308)))
scenario("E-FN-TBF-TABLES-TOO-MANY")(lambda ctx: cell_text(fn.award("tr.club", 3, 7, "tables=1e9")))
scenario("E-FN-TBF-MASTERY-TOO-LARGE")(lambda ctx: cell_text(fn.tbf_mastery(1e12)))
scenario("E-FN-HEEG-TOO-LARGE")(lambda ctx: cell_text(fn.heeg_pct(100, 288, "s", None, None, 100)))
scenario("E-FN-BM-FINAL")(lambda ctx: cell_text(fn.bm_final([[1], [2]], [[1]], [[1], [2]])))
scenario("E-FN-SE-DATE")(lambda ctx: cell_text(fn.se_ranking([[10]], [["bp"]], [["silver"]], [["someday"]])))
scenario("E-FN-SE-CLASS")(lambda ctx: cell_text(fn.se_class("abc")))
scenario("E-FN-SE-NEGATIVE")(lambda ctx: cell_text(fn.se_class(-5)))

# --- the command line

scenario("E-CLI-USAGE")(lambda ctx: cli_error("award", "tr.club", "--field", "26"))
scenario("E-CLI-DASH-NAME")(lambda ctx: cli_error("recalc", "-season.xlsx"))


@scenario("E-CLI-UNKNOWN-COMMAND")
def _(ctx):
    # Normalised: argparse quotes the names of the choices before Python 3.12.8
    # ('schemes', 'award', ...) and not after; the catalogue shows them unquoted.
    (line,) = cli_error("recalculate", BOOK)
    head, sep, choices = line.partition("(choose from ")
    return [head + sep + choices.replace("'", "")]


scenario("E-CLI-OPTION-SYNTAX")(lambda ctx: cli_error("award", "tr.club", "--place", "1", "--field", "26",
                                                      "--option", "boards"))
scenario("E-CLI-UNKNOWN-SCHEME")(lambda ctx: cli_error("award", "tr.nope", "--place", "1", "--field", "5"))
scenario("E-CLI-TOO-SMALL")(lambda ctx: cli_error("award", "tr.club", "--place", "1", "--field", "5"))
scenario("E-CLI-NEW-KIND")(lambda ctx: cli_error("new", "tbf", BOOK))
scenario("E-CLI-NEW-SUFFIX")(lambda ctx: cli_error("new", "heeg", "season.xls"))


@scenario("E-CLI-NEW-EXISTS")
def _(ctx):
    Path(BOOK).write_bytes(b"keep me")
    printed = cli_error("new", "heeg", BOOK)
    assert Path(BOOK).read_bytes() == b"keep me"
    return printed


def next_file(ctx: Ctx, kind: str | None, *options: str) -> list[str]:
    """``xlbridge next season.xlsx`` (New evening / New tournament) refuses: the messages, then
    that nothing was added; the file is not touched, no backup."""
    path = Path(BOOK)
    if kind is not None:  # (None: season.xlsx is there already)
        path.write_bytes(ctx.sources(kind))
    before = path.read_bytes()
    code, out, err = cli("next", BOOK, *options)
    assert code == 2 and out == "", (code, out, err)
    lines = err.splitlines()
    fix = "the problem at its cell" if len(lines) == 2 else f"the {len(lines) - 1} problems at their cells"
    assert lines[-1] == f"xlbridge: nothing was added: fix {fix}, then add " \
        f"the sheet again (xlbridge next {BOOK})", lines[-1]
    assert path.read_bytes() == before and not headless.backup_path(path).exists()
    return [line[len(PREFIX):] for line in lines[:-1]]


scenario("E-SHEET-NAME-TOO-LONG")(lambda ctx: next_file(ctx, "bm", "--name", "Tournament of the spring season 2026"))
scenario("E-SHEET-NAME-CHARACTER")(lambda ctx: next_file(ctx, "bm", "--name", "T3/spring"))
scenario("E-SHEET-NAME-APOSTROPHE")(lambda ctx: next_file(ctx, "bm", "--name", "'T3'"))
scenario("E-SHEET-NAME-RESERVED")(lambda ctx: next_file(ctx, "bm", "--name", "Corrections"))


def _chart_sheet(wb: Workbook, title: str) -> None:
    """A chart sheet ``title`` (Excel's Move Chart, New sheet) with a bar chart of the first sheet."""
    from openpyxl.chart import BarChart, Reference

    chart = BarChart()
    chart.add_data(Reference(wb.worksheets[0], min_col=2, min_row=1, max_row=8))
    wb.create_chartsheet(title).add_chart(chart)


@scenario("E-SHEET-NAME-TAKEN")
def _(ctx):
    wb = load_workbook(io.BytesIO(ctx.sources("bm")))
    _chart_sheet(wb, "Chart1")
    wb.save(BOOK)
    return next_file(ctx, None, "--name", "CHART1")


simple("E-SHEET-NAME-CASE", "tbf-club", lambda wb: wb.create_sheet("CORRECTIONS"))
simple("E-SHEET-NAME-CHART-SHEET", "tbf-club", lambda wb: _chart_sheet(wb, "Corrections"))


def _own_xlbridge(wb: Workbook) -> None:
    del wb["xlbridge"]
    wb.create_sheet("xlbridge")["A1"] = "my notes"


simple("E-SHEET-NAME-NOT-THE-RECORD", "tbf-club", _own_xlbridge)
scenario("E-CLI-NEXT-DATE")(lambda ctx: cli_error("next", BOOK, "--date", "someday"))
scenario("E-NEXT-HEEG-PERIOD-FULL")(lambda ctx: next_file(ctx, "heeg-demo"))
scenario("E-NEXT-HEEG-LIST-FULL")(lambda ctx: next_file(ctx, "heeg-demo", "--next-period"))
scenario("E-NEXT-HEEG-BEFORE-LAST")(lambda ctx: next_file(ctx, "heeg-demo", "--date", "2025-12-25"))
scenario("E-NEXT-BM-NO-BASE-PAIRS")(lambda ctx: next_file(ctx, "bm-blank"))
scenario("E-NEXT-BM-EXISTS")(lambda ctx: next_file(ctx, "bm", "--name", "T1"))
scenario("E-NEXT-BM-BEFORE-LAST")(lambda ctx: next_file(ctx, "bm", "--date", "2026-01-03"))


# --- xlbridge import: a results file into an event sheet

RESULTS_DATA = Path(__file__).resolve().parent / "results" / "data"


def import_file(ctx: Ctx, kind: str, results: str | Path, *options: str,
                edit: Callable[[Workbook], object] | None = None, added: bool = False) -> list[str]:
    """``xlbridge import season.xlsx RESULTS`` refuses: the messages, then that nothing was written; the
    workbook is not touched, no backup (``added``: after New tournament)."""
    path = Path(BOOK)
    path.write_bytes(ctx.sources(kind))
    if edit is not None:
        wb = load_workbook(path)
        edit(wb)
        wb.save(path)
    if added:
        assert cli("next", BOOK, "--no-backup")[0] == 0
    before = path.read_bytes()
    results = RESULTS_DATA / results if isinstance(results, str) else results
    code, out, err = cli("import", BOOK, str(results), *options)
    assert code == 2 and out == "", (code, out, err)
    lines = err.splitlines()
    fix = "the problem" if len(lines) == 2 else f"the {len(lines) - 1} problems"
    assert lines[-1] == f"xlbridge: nothing was written: fix {fix}, then import again (xlbridge import {BOOK} " \
        f"{results})", lines[-1]
    assert path.read_bytes() == before and not list(ctx.folder.glob("*.backup.xlsx"))
    assert all(line.startswith(PREFIX) for line in lines[:-1]), err
    return [line[len(PREFIX):] for line in lines[:-1]]


MAGIC_PBN = "magic-contest-session.pbn"
scenario("E-IMPORT-SHEET-CHOOSE")(lambda ctx: import_file(ctx, "se-masterpoints", MAGIC_PBN))
scenario("E-IMPORT-SHEET-UNKNOWN")(lambda ctx: import_file(ctx, "tbf-club", MAGIC_PBN, "--sheet", "Evening"))
scenario("E-IMPORT-SHEET-NOT-EMPTY")(lambda ctx: import_file(ctx, "tbf-club", MAGIC_PBN))
scenario("E-IMPORT-RANKING-CHOOSE")(lambda ctx: import_file(ctx, "tbf-club", "compscore-shape.xml"))
scenario("E-IMPORT-MITCHELL")(lambda ctx: import_file(ctx, "tbf-club", "compscore-shape.xml", "--section", "NS"))
scenario("E-IMPORT-RANKING-UNKNOWN")(lambda ctx: import_file(ctx, "tbf-club", "compscore-shape.xml", "--section", "A"))
scenario("E-IMPORT-RANKING-NONE")(lambda ctx: import_file(ctx, "tbf-club", "bridgecomposer-club-game.pbn"))
scenario("E-IMPORT-SCORE-NEGATIVE")(lambda ctx: import_file(ctx, "tbf-club", "ruter-club-evening.pbn"))


def _emptied_with_boards(wb: Workbook) -> None:
    """The demo's results cleared (nothing to replace) and 24 boards typed."""
    ws = wb["Tournament"]
    for row in ws.iter_rows(min_row=9, max_col=3):
        for c in row:
            c.value = None
    ws["B4"] = 24


scenario("E-IMPORT-BOARDS")(lambda ctx: import_file(ctx, "tbf-club", MAGIC_PBN, edit=_emptied_with_boards))


def bm_night(ctx: Ctx, day: dt.date | None = None) -> Path:
    """A scoring program's night of eight pairs (tests/results/bmfile.py), as PBN (of ``day``)."""
    from dataclasses import replace

    from tests.results.bmfile import night
    from tests.results.pbn_writer import write_pbn

    result = night()
    path = ctx.folder / "night.pbn"
    path.write_bytes(write_pbn(result if day is None else replace(result, event=replace(result.event, date=day))))
    return path


T3 = dt.date(2026, 1, 17)  # the date New tournament gives the catalogue's season's T3


scenario("E-IMPORT-BM-NOT-EMPTY")(lambda ctx: import_file(ctx, "bm", bm_night(ctx)))
scenario("E-IMPORT-BM-UNKNOWN-PAIR", alone=False)(lambda ctx: import_file(ctx, "bm", bm_night(ctx, T3), added=True))
scenario("E-IMPORT-BM-DATE")(lambda ctx: import_file(ctx, "bm", bm_night(ctx, dt.date(2026, 1, 24)), added=True))
scenario("E-IMPORT-BM-SHEET-UNKNOWN")(lambda ctx: import_file(ctx, "bm", bm_night(ctx), "--sheet", "T9"))
scenario("E-IMPORT-BM-NO-TOURNAMENT")(lambda ctx: import_file(ctx, "bm-blank", bm_night(ctx)))
scenario("E-IMPORT-BM-SECTION")(lambda ctx: import_file(ctx, "bm", bm_night(ctx), "--section", "NS"))


def lite_file(ctx: Ctx, files: tuple[str, ...], asked: str = "") -> list[str]:
    """The Import results script in Excel looks for its file among ``files`` imported into xlwings Lite (a
    folder standing for /data): the problems it shows on the Messages sheet (xlbridge.excel.scripts)."""
    from xlbridge.excel.scripts import _results_file

    folder = ctx.folder / "data"
    folder.mkdir()
    for name in files:
        (folder / name).write_bytes(b"")
    with pytest.raises(BookInputError) as caught:
        _results_file(folder, asked, 100)
    return [str(p) for p in caught.value.problems]


scenario("E-IMPORT-LITE-NO-FILE")(lambda ctx: lite_file(ctx, ("notes.txt",)))
scenario("E-IMPORT-LITE-CHOOSE")(lambda ctx: lite_file(ctx, ("monday.pbn", "tuesday.xml")))
scenario("E-IMPORT-LITE-UNKNOWN")(lambda ctx: lite_file(ctx, ("monday.pbn",), "tuesday.pbn"))


def heeg_evening(ctx: Ctx, change: Callable[[Any], Any] = lambda result: result) -> Path:
    """The demo's last evening as a scoring program exports it (tests/results/heegfile.py), ``change``d, as PBN."""
    from tests.results.heegfile import evening, roster
    from tests.results.pbn_writer import write_pbn

    source = ctx.folder / "roster.xlsx"
    source.write_bytes(ctx.sources("heeg-demo"))
    path = ctx.folder / "avond.pbn"
    path.write_bytes(write_pbn(change(evening(roster(source)))))
    return path


def _heeg(change: Callable[[Any], Any], *options: str) -> Callable[[Ctx], list[str]]:
    return lambda ctx: import_file(ctx, "heeg-demo", heeg_evening(ctx, change), *options)


def _renamed(result: Any) -> Any:
    from tests.results.heegfile import renamed

    return renamed(result, "A", "3", "Jan Faber", "Wiersma")


def _dated(result: Any) -> Any:
    from tests.results.heegfile import dated

    return dated(result, dt.date(2026, 1, 22))


def _one_section(result: Any) -> Any:
    from tests.results.heegfile import one_section

    return one_section(result)


scenario("E-IMPORT-HEEG-NOT-EMPTY")(_heeg(lambda result: result))
scenario("E-IMPORT-HEEG-UNKNOWN-PAIR")(_heeg(_renamed))
scenario("E-IMPORT-HEEG-NO-SHEET-OF-DATE")(_heeg(_dated))
scenario("E-IMPORT-HEEG-SECTION-LINES")(_heeg(_one_section))


# --- xlbridge serve: starting it


@contextlib.contextmanager
def environ(**values: str | None):
    """Environment variables set (None: removed) for the duration."""
    old = {k: os.environ.get(k) for k in values}
    for key, value in values.items():
        os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)
    try:
        yield
    finally:
        for key, value in old.items():
            os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)


def free_port() -> str:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return str(probe.getsockname()[1])


@scenario("E-SERVE-LICENCE")
def _(ctx):
    with environ(XLWINGS_LICENSE_KEY=None):
        return cli_error("serve", "--port", free_port())


@scenario("E-SERVE-NOT-INSTALLED")
def _(ctx):
    import importlib.util

    real = importlib.util.find_spec
    with patched(importlib.util, "find_spec", lambda name, *a: None if name in ("xlwings_server", "uvicorn")
                 else real(name, *a)):
        return cli_error("serve", "--noncommercial")


scenario("E-SERVE-OPTION-RANGE")(lambda ctx: cli_error("serve", "--port", "70000", "--noncommercial"))


@scenario("E-SERVE-PORT-IN-USE")
def _(ctx):
    import socket

    with socket.socket() as taken:  # another program on the default port (or it is taken already)
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            taken.bind(("127.0.0.1", 8000))
            taken.listen()
        except OSError:
            pass
        return cli_error("serve", "--noncommercial")


@scenario("E-SERVE-PORT-DENIED")
def _(ctx):
    import socket

    from xlbridge.excel import server

    class Socket(socket.socket):  # a system where port 80 is for the administrator (the tests may run as root)
        def bind(self, address):
            raise PermissionError(13, "Permission denied")

    with patched(server.socket, "socket", Socket):
        return cli_error("serve", "--port", "80", "--noncommercial")


scenario("E-SERVE-HOST-ADDRESS")(lambda ctx: cli_error("serve", "--host", "192.0.2.1", "--port", free_port(),
                                                        "--noncommercial"))


@scenario("E-SERVE-PROJECT-DIR")
def _(ctx):
    Path(BOOK).write_bytes(b"a file, not a folder")
    return cli_error("serve", "--noncommercial", "--port", free_port(), "--project-dir", f"{BOOK}/serve")


# --- xlbridge serve: requests it refuses (through its guard, in front of a stand-in for xlwings Server)


def guarded(path: str, data: bytes = b"", *, host: str = "localhost:8000", headers: tuple = (),
            slow: bool = False, busy: bool = False) -> list[str]:
    """The status and message the guard answers to one request (an error, never the stand-in's 200)."""
    import asyncio

    from xlbridge.excel import server_guard
    from xlbridge.excel.server import Limits

    async def stand_in(scope, receive, send):  # xlwings Server: must not be reached
        raise AssertionError("the request reached xlwings Server")

    guard = server_guard.Guard(stand_in, Limits(), {"award"}, {"recalculate_season"})
    if busy:  # other requests hold every byte the server may hold
        guard.bodies.held = guard.bodies.limit
    scope = {"type": "http", "method": "POST", "path": path,
             "headers": [(b"host", host.encode()), *((k.encode(), v.encode()) for k, v in headers)]}
    answer: dict = {}

    async def receive():
        return {"type": "http.request", "body": data, "more_body": False}

    async def send(message):
        answer.update(message)

    async def never(awaitable, timeout):  # the body does not come: the limit's time is up at once
        awaitable.close()
        raise asyncio.TimeoutError

    with patched(server_guard.asyncio, "wait_for", never) if slow or busy else contextlib.nullcontext():
        asyncio.run(guard(scope, receive, send))
    assert 400 <= answer.get("status", 200) < 500 or answer["status"] == 503, answer  # 503: busy, not a fault
    return [answer["body"].decode()]


CALL = "/xlwings/custom-functions-call"


def call_json(func_name: str, **extra: object) -> bytes:
    import json

    return json.dumps({"func_name": func_name, "args": [[["tr.club"]], [[1.0]], [[20.0]]], "version": "0.37.8",
                       "client": "Office.js", "runtime": "1.4", **extra}).encode()


scenario("E-SERVE-HOST-REFUSED")(lambda ctx: guarded(CALL, call_json("award"), host="attacker.example"))
scenario("E-SERVE-BODY-TOO-LARGE")(lambda ctx: guarded(CALL, headers=(("content-length", str(33 << 20)),)))
scenario("E-SERVE-BODY-TOO-SLOW")(lambda ctx: guarded(CALL, slow=True))
scenario("E-SERVE-NOT-A-CALL")(lambda ctx: guarded(CALL, b'{"func_name": "award"}'))
scenario("E-SERVE-JSON-TOO-DEEP")(lambda ctx: guarded(CALL, b"[" * 100_000 + b"]" * 100_000))
scenario("E-SERVE-BUSY")(lambda ctx: guarded(CALL, call_json("award"), busy=True))


@scenario("E-SERVE-NOT-A-BOOK")
def _(ctx):
    """A workbook sent as JSON is checked where it is parsed, in the worker; one sent as a form, by the guard."""
    from xlbridge.excel.server_pool import book_answer

    refused, text = book_answer(None, "recalculate_season", b"[]")
    assert refused == "refused"
    assert guarded("/xlwings/custom-scripts-call/recalculate_season", b"bookData=%5B%5D",
                   headers=(("content-type", "application/x-www-form-urlencoded"),)) == [text]
    return [text]
scenario("E-SERVE-NO-FUNCTION")(lambda ctx: guarded(CALL, call_json("awrd")))
scenario("E-SERVE-NO-SCRIPT")(lambda ctx: guarded("/xlwings/custom-scripts-call/recalculate", b"{}"))


@scenario("E-SERVE-HEADERS-TOO-SLOW")
def _(ctx):
    from xlbridge.excel.server import Limits
    from xlbridge.excel.server_guard import guarded_protocol

    class Transport:  # what the connection is sent when the headers are late (tests/excel: a real uvicorn)
        data = b""

        def is_closing(self):
            return False

        def write(self, data):
            self.data += data

        def close(self):
            pass

    protocol = object.__new__(guarded_protocol(Limits().header_seconds))
    protocol.transport = Transport()
    protocol._too_slow()
    head, _, message = protocol.transport.data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ")
    return [message.decode()]


# --- xlbridge serve: calls it stops (its worker processes)


def served(job: tuple, *, answer_as: str = "function", kill_after: float | None = None, **limits: object) -> list[str]:
    """Run one job in a pool of one worker with ``limits``: what the cell (or the message box) says."""
    import asyncio
    import threading

    from xlbridge.excel import server_pool
    from xlbridge.excel.server import Limits

    settings = Limits(workers=1, **limits)
    pool = server_pool.Pool(settings)
    try:
        if kill_after is not None:
            asyncio.run(pool.call(("function", "award", ("tr.club", 1.0, 26.0), {}), 120))  # started
            threading.Timer(kill_after, lambda: pool._all[0].process.kill()).start()
        answer = asyncio.run(pool.call(job, settings.time_limit if job[0] == "function" else settings.script_time_limit))
    finally:
        pool.close()
    if answer_as == "function":
        return [server_pool._function_answer("AWARD", answer, settings)]
    text = {"timeout": server_pool.SCRIPT_TIME_LIMIT, "memory": server_pool.SCRIPT_MEMORY,
            "died": server_pool.SCRIPT_STOPPED}[answer[0]]
    return [text.format(script="Recalculate season", seconds=settings.script_time_limit, mb=settings.memory_mb)]


def season_payload(ctx: Ctx, filler_rows: int = 0) -> dict:
    from tests.emulate import payload

    Path(BOOK).write_bytes(ctx.sources("tbf-club"))
    book = payload(load_workbook(BOOK))
    if filler_rows:  # a workbook larger than the worker's memory
        book["sheets"].append({**book["sheets"][0], "name": "Filler",
                               "values": [[float(r * 10 + c) for c in range(10)] for r in range(filler_rows)]})
    return book


# (a field beyond 100,000 units is a quick message since issue 14: the heavy calls are the largest
# field, 100,000 places, and ranges of millions of rows)
LARGEST = ("function", "awards", ("se.bronze.pairs", [[float(i)] for i in range(1, 100_001)]), {})
scenario("E-SERVE-CELL-TIME-LIMIT")(lambda ctx: served(LARGEST, time_limit=0.1))
scenario("E-SERVE-CELL-MEMORY")(lambda ctx: served(("function", "bm_final", ([[1.0]] * 3_000_000,) * 3, {}),
                                                   time_limit=120, memory_mb=400))
scenario("E-SERVE-CELL-STOPPED")(lambda ctx: served(LARGEST, time_limit=120, kill_after=0.2))


def served_script(ctx: Ctx, filler_rows: int = 0, **limits: object) -> list[str]:
    # the worker runs the script as xlwings Server does: xlwings imported with XLWINGS_ON_SERVER=true
    with environ(XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial"):
        return served(("script", "recalculate_season", season_payload(ctx, filler_rows), None), answer_as="script",
                      **limits)


scenario("E-SERVE-SCRIPT-TIME-LIMIT")(lambda ctx: served_script(ctx, 300_000, script_time_limit=0.01))
scenario("E-SERVE-SCRIPT-MEMORY")(lambda ctx: served_script(ctx, 500_000, memory_mb=400))
scenario("E-SERVE-SCRIPT-STOPPED")(lambda ctx: served_script(ctx, memory_mb=50))  # a worker that cannot even start


# --- results files (xlbridge/results/; the files in tests/results/cases.py)

sys.path.insert(0, str(ROOT / "tests" / "results"))
from cases import BOUNDS, CASES, MORE  # noqa: E402


def results_file(data: bytes) -> list[str]:
    """The messages of every problem of a results file."""
    with pytest.raises(ResultsFileError) as caught:
        read_results(data)
    return [str(problem) for problem in caught.value.problems]


def results_ident(code: str) -> str:
    return "E-RESULTS-" + code.split(".", 1)[1].upper().replace(".", "-")


for _code, (_data, _messages) in {**CASES, **MORE}.items():
    scenario(results_ident(_code), alone=len(_messages) == 1)(lambda ctx, data=_data: results_file(data))
for _code, (_make, _message) in BOUNDS.items():
    scenario(results_ident(_code))(lambda ctx, make=_make: results_file(make()))


@scenario("E-RESULTS-TOP-TOO-SMALL")
def _(ctx):
    with pytest.raises(ResultsFileError) as caught:
        matchpoints([100, 200, 300], top=2)
    return [str(problem) for problem in caught.value.problems]


@scenario("E-RESULTS-BOARD-TOP-TOO-SMALL")
def _(ctx):
    from xlbridge.results.matchpoints import board_points
    from xlbridge.results.model import Line

    with pytest.raises(ResultsFileError) as caught:
        board_points(2, [Line(2, str(n), str(n + 4), score=100 * n) for n in range(1, 9)], 6)
    return [str(problem) for problem in caught.value.problems]


# ------------------------------------------------------------------ the tests

ENTRIES = catalogue() if CATALOGUE.exists() else {}

#: The issue's list (issue 7, "Bad input: a catalogue"): each item has entries.
ISSUE_LIST = {
    "text or a negative number in an MP cell": ["E-HEEG-MP-TEXT", "E-HEEG-MP-NEGATIVE", "E-HEEG-ROUND-TEXT",
                                                "E-HEEG-ROUND-NEGATIVE", "E-BM-SCORE-TEXT", "E-BM-SCORE-NEGATIVE",
                                                "E-EVENT-SCORE-TEXT", "E-EVENT-SCORE-NEGATIVE"],
    "MP above the evening's maximum": ["E-HEEG-MP-ABOVE-MAX", "E-HEEG-ROUNDS-ABOVE-MAX", "E-BM-SCORE-ABOVE-TOP"],
    "an unknown inv code": ["E-HEEG-INV-UNKNOWN"],
    "the same pair twice in an evening": ["E-HEEG-PAIR-TWICE", "E-BM-PAIR-TWICE"],
    "a pair not on the roster": ["E-HEEG-PAIR-NOT-ON-ROSTER", "E-BM-PAIR-UNKNOWN"],
    "an evening outside every period": ["E-HEEG-EVENING-OUTSIDE"],
    "a tournament that is not valid": ["E-BM-NOT-VALID-BOARDS", "E-BM-NOT-VALID-MOVEMENT"],
    "a missing or renamed sheet or column header": ["E-HEEG-SEASON-MISSING", "E-HEEG-SEASON-RENAMED", "E-HEEG-HEADER",
                                                    "E-BM-SEASON-MISSING", "E-BM-SEASON-HEADER",
                                                    "E-BM-TOURNAMENT-HEADER", "E-BM-TOURNAMENT-SHEET-MISSING",
                                                    "E-EVENT-HEADER", "E-EVENT-LABEL"],
    "an empty workbook": ["E-BOOK-NOT-XLBRIDGE", "E-HEEG-EVENING-EMPTY", "E-BM-NO-BASE-PAIRS"],
    "a corrupt or non-xlsx file": ["E-FILE-DAMAGED", "E-FILE-NOT-ZIP", "E-FILE-XLS-NAME", "E-FILE-NOT-XLSX-NAME",
                                   "E-FILE-NOT-A-WORKBOOK-ZIP", "E-FILE-STRICT"],
    "a password-protected workbook": ["E-FILE-PROTECTED"],
    "a workbook open in Excel": ["E-FILE-OPEN-IN-EXCEL"],
    "a run already in progress": ["E-FILE-BUSY"],
}


@pytest.fixture(scope="module")
def sources(tmp_path_factory, built_once) -> Sources:
    return Sources(tmp_path_factory.mktemp("catalogue-sources"), built_once)


@pytest.fixture
def ctx(sources, tmp_path, monkeypatch) -> Ctx:
    monkeypatch.chdir(tmp_path)
    return Ctx(sources, tmp_path)


def test_the_catalogue_parses():
    assert len(ENTRIES) >= 40
    text = CATALOGUE.read_text(encoding="utf-8")
    for section in ("The file", "Any workbook", "Event sheets", "Heeg season", "BridgeMania season",
                    "Worksheet functions", "The command line", "Results files"):
        assert re.search(rf"^## .*{section}", text, re.M), section


def test_every_entry_has_a_scenario_and_every_scenario_an_entry():
    assert sorted(set(ENTRIES) - set(SCENARIOS)) == [], "catalogue entries without a scenario"
    assert sorted(set(SCENARIOS) - set(ENTRIES)) == [], "scenarios without a catalogue entry"


def test_the_issue_list_is_covered():
    for item, ids in ISSUE_LIST.items():
        assert ids and all(i in ENTRIES for i in ids), (item, [i for i in ids if i not in ENTRIES])


@pytest.mark.parametrize("ident", list(ENTRIES))
def test_the_message_is_printed_as_catalogued(ident, ctx):
    entry = ENTRIES[ident]
    run, alone = SCENARIOS[ident]
    printed = run(ctx)
    if alone:
        assert printed == [entry.message]
    else:
        assert entry.message in printed, printed


#: One typo on a row of line A (6 pairs, maximum 96): the row is not scored but still
#: counts as a pair of its line, so the other rows keep the maximum 96.
TYPOS = {
    "MP text": setting(EV, L5="1O3"),
    "MP negative": setting(EV, L5=-5),
    "round text": setting(EV, D5="1O3"),
    "inv code": setting(EV, N5="x"),
    "line unknown": setting(EV, C5="C"),
    "line not on the roster": setting(EV, C5="B"),
    "pair twice": setting(EV, A6=4),
    "pair not on the roster": setting(EV, A6=99),
    "pair empty": setting(EV, A6=None),
    "absent with an MP": setting(EV, N5="a"),  # (which is the typo, a or the MP? the pair was likely at a table)
    "absent with rounds": setting(EV, N5="0", D5=10),
}


@pytest.mark.parametrize("typo", list(TYPOS))
def test_one_typo_in_a_full_line_gives_one_message(typo, ctx):
    def edit(wb: Workbook) -> None:
        for row, mp in enumerate([90, 80, 70, 60, 50, 40], start=2):  # above 48, the maximum of a line of 5
            wb[EV].cell(row=row, column=12, value=mp)
        TYPOS[typo](wb)
    printed = workbook_problems(ctx, "heeg", edit)
    assert len(printed) == 1, printed
    assert "maximum" not in printed[0]


def test_a_small_line_given_an_arbitrary_score_is_scored(ctx):
    """The advice of E-HEEG-LINE-TOO-SMALL works: ``=`` for the pairs that played."""
    path = Path(BOOK)
    path.write_bytes(ctx.sources("heeg"))
    wb = load_workbook(path)
    setting(EV, L11=None, N11="a", N8="=", N9="=", N10="=")(wb)
    wb.save(path)
    code, out, err = cli("recalc", BOOK)
    assert code == 0, err
    ws = load_workbook(path, data_only=True)[EV]
    assert [ws.cell(row=r, column=16).value for r in (8, 9, 10)] == [50, 50, 50]


# ------------------------------------------------------------------ python tests/test_errors_catalogue.py


def dump() -> None:  # pragma: no cover - a helper for writing the catalogue
    with tempfile.TemporaryDirectory() as folder:
        sources = Sources(Path(folder))
        here = os.getcwd()
        for ident, (run, alone) in SCENARIOS.items():
            with tempfile.TemporaryDirectory() as work:
                os.chdir(work)
                try:
                    printed = run(Ctx(sources, Path(work)))
                except Exception as error:  # noqa: BLE001
                    printed = [f"!! {type(error).__name__}: {error}"]
                finally:
                    os.chdir(here)
            flag = "" if alone or len(printed) > 1 else "  (alone=False but one line)"
            for line in printed:
                print(f"{ident}\t{line}{flag}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(dump())
