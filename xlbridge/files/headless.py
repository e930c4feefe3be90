"""``xlbridge recalc PATH``: the recalculation without Excel, safely.

- The file is read with openpyxl and recalculated by the same code as the Excel
  button (:func:`xlbridge.workbooks.recalc.recalculate_and_list`, the Messages sheet
  kept as a click keeps it) -- only after its
  signature, its size and every part are checked against one memory budget
  (:mod:`xlbridge.files.budget`): a zip bomb is refused before it is unpacked.
- Nothing is written when the workbook has a problem: every problem is reported.
- Honours every lock a scorer's other programs use (:mod:`xlbridge.files.locks`):
  refuses a workbook open in Excel (``~$NAME``) or LibreOffice (``.~lock.NAME#``)
  or locked by another program, at the start and again just before the replace;
  one run at a time per real file (``.NAME.xlbridge-lock``, removed after the run).
- Never overwrites another program's save: the file's identity and content
  (:class:`xlbridge.files.atomic.Snapshot`) are taken when it is read and checked
  again just before the replace; if it changed, nothing is written.
- Writes atomically (:mod:`xlbridge.files.atomic`): the new version and the backup
  ``NAME.backup.xlsx`` (the version read, byte for byte) each go to a temporary
  file, synced, and replace the old ones by a rename -- never through a link.
  A symlinked workbook is updated where it really is; mode and, where possible,
  owner are kept; read-only workbooks are refused.
- Keeps what the file is: an ``.xlsm`` keeps its VBA project byte for byte and its
  macro-enabled content type, or nothing is written; the xlwings Lite code, the
  task pane and every sheet's drawing (the button shape, charts) are kept too.

docs/reliability.md states these promises with the figures of an attack run.
"""

from __future__ import annotations

import io
import os
import re
import stat
import zipfile
from pathlib import Path
from xml.parsers import expat

from xlbridge.rules.problems import N_
from xlbridge.files import kept_parts
from xlbridge.files.kept_parts import REL_VBA, vba_parts
from xlbridge.files.budget import (BUDGET, Budget, check_entries, check_parts, damaged, opened,
                                   signature_problem)
from xlbridge.files.atomic import ChangedWhileReading, Keep, Snapshot, clear_stale_temps, commit, discard, prepare
from xlbridge.files.othersheets import set_aside
from xlbridge.files.locks import Busy, RunLock, held_by_another, open_in_excel, open_in_libreoffice
from xlbridge.workbooks.localised import language_of
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.files.package import CONTENT_TYPES, Package
from xlbridge.files.problems import LOCKED, FileProblem, from_os_error
from xlbridge.files.unchanged import unchanged_report
from xlbridge.workbooks.plan import at
from xlbridge.workbooks.recalc import BookInputError, LocatedProblem, Report, recalculate_and_list

LOCK_WAIT_SECONDS = 60

CHANGED = N_("{name} changed while it was being recalculated (another program saved it); nothing was written: "
             "run xlbridge recalc again")
OPENED = N_("{name} was opened in Excel or LibreOffice during the recalculation; nothing was written: close it "
            "there, then run xlbridge recalc again")
FOLDER_READ_ONLY = N_("{name}: its folder does not let you create files (xlbridge writes the new version and the "
                      "backup beside the workbook, then renames them into place); nothing was changed: copy the "
                      "workbook to a folder of your own, or ask for write access to this one")
NOT_XLSX = N_("{name} is not an .xlsx workbook (damaged, or another kind of file renamed)")


def backup_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}.backup{path.suffix}")


def lock_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.xlbridge-lock")


def real_path(path: Path) -> Path:
    """Where the workbook at ``path`` really is (links followed)."""
    return Path(os.path.realpath(path))


# ------------------------------------------------------------------ reading


def malformed_xml_part(archive: zipfile.ZipFile) -> str | None:
    """The first XML part that is not well-formed (cut off inside a valid zip, say)."""
    for info in archive.infolist():
        if not info.filename.lower().endswith((".xml", ".rels", ".vml")):
            continue
        try:
            expat.ParserCreate().Parse(archive.read(info), True)
        except expat.ExpatError:
            return info.filename
    return None


def macro_enabled(package: Package) -> bool:
    """Is the workbook macro-enabled (its content type, or a VBA project)?"""
    return "macroenabled" in workbook_content_type(package).lower() or any(
        r.type == REL_VBA for r in package.rels(package.workbook()))


def workbook_content_type(package: Package) -> str:
    overrides, _ = package.content_types()
    return overrides.get(package.workbook().lower(), "")


#: The namespace of a workbook saved as "Strict Open XML Spreadsheet" (ISO/IEC 29500 Strict).
STRICT = b"http://purl.oclc.org/ooxml/spreadsheetml/main"
#: At most this many merged cells, and as many cells with a hyperlink, per sheet: openpyxl makes an
#: object of every one (a merge of A1:XFD1048576 would be 17 billion; so would a hyperlink over it).
MAX_MERGED_CELLS = 100_000
MERGED_FAR = N_("cells merged far outside the sheet's tables (a sheet may have at most {limit:,} merged cells); "
              "unmerge them")
HYPERLINK_FAR = N_("a hyperlink over {count:,} cells (a sheet may have at most {limit:,} cells with a hyperlink); "
                   "give it one cell")
_AREA = re.compile(rb"<(?:[\w.-]+:)?(mergeCell|hyperlink)\b[^>]*?\bref\s*=\s*[\"']([A-Za-z$]{1,4}[$]?\d{1,8})"
                   rb"(?::([A-Za-z$]{1,4}[$]?\d{1,8}))?")
_REF = re.compile(r"\$?([A-Za-z]{1,3})\$?(\d+)")


def _position(ref: bytes) -> tuple[int, int]:
    from openpyxl.utils import column_index_from_string

    match = _REF.fullmatch(ref.decode("ascii"))
    if match is None:
        return (0, 0)
    try:
        return int(match[2]), column_index_from_string(match[1].upper())
    except ValueError:
        return (0, 0)


def merges_too_large(package: Package) -> list[LocatedProblem]:
    """Sheets whose merged areas, or cells with a hyperlink, openpyxl could not hold (checked before loading)."""
    problems = []
    for sheet, part in package.sheets().items():
        data = package.read(part) or b""
        if b"mergeCell" not in data and b"hyperlink" not in data:
            continue
        total = {b"mergeCell": 0, b"hyperlink": 0}
        largest = {b"mergeCell": (0, ""), b"hyperlink": (0, "")}
        for match in _AREA.finditer(data):
            (r1, c1), (r2, c2) = _position(match[2]), _position(match[3] or match[2])
            size = (abs(r2 - r1) + 1) * (abs(c2 - c1) + 1)
            if match[1] == b"hyperlink" and size == 1:  # one cell: one element, in the memory budget
                continue
            total[match[1]] += size
            where = (match[2] + (b":" + match[3] if match[3] else b"")).decode("ascii").replace("$", "")
            largest[match[1]] = max(largest[match[1]], (size, where))
        if total[b"mergeCell"] > MAX_MERGED_CELLS:
            problems.append(at(sheet, largest[b"mergeCell"][1], "file.sheet.merged-far", MERGED_FAR,
                               limit=MAX_MERGED_CELLS))
        if total[b"hyperlink"] > MAX_MERGED_CELLS:
            size, where = largest[b"hyperlink"]
            problems.append(at(sheet, where, "file.sheet.hyperlink-far", HYPERLINK_FAR, count=size,
                               limit=MAX_MERGED_CELLS))
    return problems


def load_checked(data: bytes, name: object, keep_vba: bool):
    """Open the .xlsx (or .xlsm) whose bytes are ``data``, which :func:`check_bytes` passed (``keep_vba``:
    what it returned: a macro-enabled workbook is loaded with its VBA project kept), with openpyxl, with a
    clear message (naming the file ``name``) for what it cannot read."""
    from openpyxl import load_workbook

    # (a chart sheet set aside as a placeholder worksheet: files/othersheets.py)
    return _readable(data, name, lambda: load_workbook(io.BytesIO(set_aside(data)), keep_vba=keep_vba))


def check_bytes(data: bytes, name: object, budget: Budget = BUDGET) -> bool:
    """Check the .xlsx (or .xlsm) whose bytes are ``data`` before any reader opens it: a clear
    message (naming the file ``name``) for what it is not, and every part measured against
    ``budget`` (:mod:`xlbridge.files.budget`); whether it is macro-enabled."""
    problem = signature_problem(data[:8], name)
    if problem is not None:
        raise problem
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise FileProblem("file.not-zip", NOT_XLSX, name=name)
    check_entries(data, name, budget)

    def parts() -> bool:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if not {"[Content_Types].xml", "xl/workbook.xml"} <= set(archive.namelist()):
                raise FileProblem("file.not-a-workbook-zip", N_("{name} is a zip file but not an Excel workbook (it "
                                                                "has no xl/workbook.xml); use the real workbook"),
                                  name=name)
            check_parts(archive, len(data), name, budget)
            package = Package(archive)
            if STRICT in (package.read(package.workbook()) or b""):  # (openpyxl would read no sheet at all)
                raise FileProblem("file.strict", N_("{name} is saved as a Strict Open XML Spreadsheet, which "
                                                    "xlbridge cannot read; nothing was changed: save it from Excel "
                                                    "as an Excel Workbook (.xlsx)"), name=name)
            keep_vba = macro_enabled(package)
            too_large = merges_too_large(package)
        if too_large:
            raise BookInputError(too_large)
        return keep_vba

    return _readable(data, name, parts)


def _readable(data: bytes, name: object, read):
    """``read()``, with what makes a file unreadable said as a :class:`FileProblem`."""
    try:
        return read()
    except (FileProblem, BookInputError):
        raise
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError, AttributeError, SyntaxError,
            expat.ExpatError) as error:  # (AttributeError: openpyxl on a part it half understands)
        # an XML part cut off inside a valid zip (openpyxl: a raw ParseError) is a damaged file
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                bad = malformed_xml_part(archive)
        except (zipfile.BadZipFile, OSError, ValueError):
            bad = None
        if bad is not None:
            raise damaged(name, bad) from None
        raise FileProblem("file.unreadable", N_("{name} is not a readable .xlsx workbook ({error})"), name=name,
                          error=f"{type(error).__name__}: {error}") from None


# ------------------------------------------------------------------ the checks


def check_name(shown: Path) -> None:
    if shown.suffix.lower() not in (".xlsx", ".xlsm"):
        if shown.suffix.lower() == ".xls":
            raise FileProblem("file.xls-name", N_("{name} is an old .xls workbook; save it from Excel as .xlsx "
                                                  "first"), name=shown)
        raise FileProblem("file.not-xlsx-name", N_("{name} must be an .xlsx workbook"), name=shown)


def check_file(shown: Path, real: Path) -> os.stat_result:
    """The workbook is there, a regular file, writable, in a folder this user may write, with one name;
    its stat."""
    if not shown.exists():
        raise FileProblem("file.missing", N_("{name}: no such file"), name=shown)
    if shown.is_dir():
        raise FileProblem("file.folder", N_("{name} is a folder, not a workbook"), name=shown)
    info = os.stat(real)
    if not stat.S_ISREG(info.st_mode):
        raise FileProblem("file.not-zip", NOT_XLSX, name=shown)
    if not info.st_mode & 0o222 or not os.access(real, os.W_OK):
        raise FileProblem("file.read-only", N_("{name} is read-only; nothing was changed: make it writable first if "
                                               "it should be recalculated"), name=shown)
    if not os.access(real.parent, os.W_OK | os.X_OK):
        raise FileProblem("file.folder-read-only", FOLDER_READ_ONLY, name=shown)
    if info.st_nlink > 1:
        raise FileProblem("file.hard-links", N_("{name} has {count} names (hard links); xlbridge recalc replaces the "
                                                "file, which would leave the other names on the old version: copy it "
                                                "to a file of its own first"), name=shown, count=info.st_nlink)
    return info


def check_not_open(shown: Path, real: Path, *, late: bool = False) -> None:
    """Excel's and LibreOffice's lock files, and an advisory lock on the file."""
    places = (shown, real) if shown.absolute() != real else (real,)
    if open_in_excel(*places):
        raise FileProblem("file.opened", OPENED, name=shown) if late else FileProblem(
            "file.open-in-excel", N_("{name} is open in Excel (its ~$ owner file exists); close it in Excel first"),
            name=shown)
    if open_in_libreoffice(*places):
        raise FileProblem("file.opened", OPENED, name=shown) if late else FileProblem(
            "file.open-in-libreoffice", N_("{name} is open in LibreOffice (its {lock} lock file exists); close it in "
                                           "LibreOffice first"), name=shown, lock=f".~lock.{shown.name}#")
    if held_by_another(real):
        raise FileProblem("file.locked", LOCKED, name=shown)


def check_backup_place(shown: Path, real: Path) -> None:
    backup = backup_path(real)
    if backup.is_dir() and not backup.is_symlink():
        raise FileProblem("file.backup-folder", N_("{backup} is a folder; nothing was changed: rename it (xlbridge "
                                                   "keeps the previous version of {file} under that name), or run "
                                                   "with --no-backup"), backup=backup_path(shown).name, file=shown.name)


def check_unchanged(shown: Path, real: Path, snapshot: Snapshot) -> None:
    """Just before a replace: nobody opened, locked or saved the file since it was read."""
    check_not_open(shown, real, late=True)
    if not snapshot.matches(real):
        raise FileProblem("file.changed", CHANGED, name=shown)


def check_macros(shown: Path, data: bytes, written: Path) -> None:
    """The new version keeps the VBA project -- reached through the workbook's own
    relationship, as Excel finds it -- byte for byte, and the content type."""
    with zipfile.ZipFile(io.BytesIO(data)) as old_zip:
        old = Package(old_zip)
        if not macro_enabled(old):
            return
        kept, kind = vba_parts(old), workbook_content_type(old)
    with zipfile.ZipFile(written) as new_zip:
        new = Package(new_zip)
        found = vba_parts(new)
        lost = sorted(name for name, part in kept.items() if found.get(name) != part)
        if workbook_content_type(new) != kind:
            lost.append(CONTENT_TYPES)
    if lost:
        raise FileProblem("file.macros", N_("{name}: its macros ({parts}) would not survive a recalculation without "
                                            "Excel; nothing was written: recalculate it in Excel with the "
                                            "Recalculate season button"), name=shown, parts=", ".join(lost))


# ------------------------------------------------------------------ writing


def _write_backup(data: bytes, info: os.stat_result):
    def write(temp: Path) -> None:
        temp.write_bytes(data)
        os.utime(temp, ns=(info.st_atime_ns, info.st_mtime_ns))  # the backup shows when that version was saved
    return write


def recalc_path(path: str | os.PathLike[str], *, backup: bool = True, when: str | None = None,
                language: str | None = None, finish=None, finish_needed=None,
                budget: Budget = BUDGET) -> Report:
    """Recalculate the workbook at ``path`` in place (see the module docstring), in its
    own language or ``language``; a file beyond ``budget`` is refused before it is read.
    ``finish(temp, workbook, report)``: a last step on the saved new version before it
    replaces the file (the CLI puts back lost xlwings Lite code); ``finish_needed(names)``:
    whether it would change a file whose parts are ``names`` (default: yes, when there is one).
    A recalculation that would change nothing writes nothing, not even the backup: found without
    openpyxl where it can be (:mod:`xlbridge.files.unchanged`), else after openpyxl's recalculation
    (a formula on a notes sheet, a time typed: the backup was replaced by the same workbook)."""
    def finishing(data: bytes) -> bool:
        if finish is None:
            return False
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return finish_needed is None or finish_needed(set(archive.namelist()))

    def fast(data: bytes) -> Report | None:
        return None if finishing(data) else unchanged_report(data, when=when, language=language)

    books: list[OpenpyxlBook] = []

    def change(workbook) -> Report:
        books.append(OpenpyxlBook(workbook))
        return recalculate_and_list(books[-1], when=when, language=language)

    def nothing(report: Report, data: bytes) -> bool:
        return not (books[-1].wrote or report.changes or report.typed or report.warnings or finishing(data))

    return _on_path(path, backup, change, budget, finish, fast, nothing, language=language)


def next_sheet_path(path: str | os.PathLike[str], *, day=None, name: str | None = None, next_period: bool = False,
                    backup: bool = True, language: str | None = None, today=None, budget: Budget = BUDGET,
                    finish=None):
    """``xlbridge next PATH``: add the next evening or tournament sheet to the workbook at
    ``path`` (:func:`xlbridge.workbooks.nextsheet.add_next`) with every safety of
    :func:`recalc_path`: locks, atomic save, backup, nothing written on a problem.  ``finish(temp,
    workbook, next_sheet)``: as :func:`recalc_path`'s."""
    from xlbridge.workbooks.nextsheet import add_next

    return _on_path(path, backup, lambda workbook: add_next(OpenpyxlBook(workbook), day=day, name=name,
                                                            next_period=next_period, language=language, today=today),
                    budget, finish, language=language)


def import_path(path: str | os.PathLike[str], results: bytes, *, sheet: str | None = None,
                ranking: str | None = None, backup: bool = True, language: str | None = None,
                budget: Budget = BUDGET, finish=None, source: str = "results"):
    """``xlbridge import PATH RESULTS``: type one ranking of a scoring program's file (``results``:
    its bytes, read by :func:`xlbridge.results.read_results` before the workbook is touched) into an
    event sheet, a BridgeMania tournament or a Heeg evening (:func:`xlbridge.workbooks.importing.import_results`) and
    recalculate, with every safety of :func:`recalc_path`; nothing is written on a problem of the
    file, the sheet or the recalculation.  Returns what the kind typed and the recalculation's
    :class:`~xlbridge.workbooks.recalc.Report`.  ``finish(temp, workbook, (imported, report))``: as
    :func:`recalc_path`'s.  A problem of the results file is a :class:`BookInputError` at ``source`` (the
    file's name), in the workbook's language: the file is read first, and told once the workbook is open."""
    from xlbridge.results import read_results
    from xlbridge.results.problems import ResultsFileError
    from xlbridge.workbooks.importing import import_and_recalculate
    from xlbridge.workbooks.plan import LocatedProblem

    try:
        result, unreadable = read_results(results), None
    except ResultsFileError as error:
        result, unreadable = None, error

    def change(workbook):
        book = OpenpyxlBook(workbook)
        try:
            if unreadable is not None:
                raise unreadable
            return import_and_recalculate(book, result, sheet=sheet, ranking=ranking, language=language,
                                          file=source)
        except ResultsFileError as error:  # (unreadable, or a board the import cannot score)
            refused = BookInputError([LocatedProblem(source, None, p) for p in error.problems])
            refused.language = language or language_of(book)
            raise refused from None

    return _on_path(path, backup, change, budget, finish, language=language)


def _on_path(path: str | os.PathLike[str], backup: bool, change, budget: Budget, finish=None, fast=None,
             nothing=None, *, language: str | None = None):
    shown = Path(path)
    check_name(shown)
    try:
        real = real_path(shown)
        check_file(shown, real)
        check_not_open(shown, real)
        if backup:
            check_backup_place(shown, real)
        with RunLock(lock_path(real), LOCK_WAIT_SECONDS):
            return _changed_locked(shown, real, backup=backup, change=change, budget=budget, finish=finish, fast=fast,
                                   nothing=nothing, language=language)
    except Busy:
        raise FileProblem("file.busy", N_("{name} is being recalculated by another run; try again when it is done"),
                          name=shown) from None
    except ChangedWhileReading:
        raise FileProblem("file.changed", CHANGED, name=shown) from None
    except OSError as error:
        raise from_os_error(shown, error) from None


def _changed_locked(shown: Path, real: Path, *, backup: bool, change, budget: Budget, finish=None, fast=None,
                    nothing=None, language: str | None = None):
    """Read, ``change(workbook)`` (nothing written when it raises), then save atomically
    with the backup (``finish``: see :func:`recalc_path`); what ``change`` returned.
    ``fast(data)``: the report of a run that changes nothing (nothing read with openpyxl,
    nothing written), or ``None``; it sees only bytes checked against ``budget``, and no
    macro-enabled workbook (the openpyxl path tells whether its macros would survive); ``nothing(report,
    data)``: whether ``change`` changed nothing that is worth a save (then nothing is written).  A problem of
    the file met while writing is said in the workbook's language (``language``, else its sheets')."""
    clear_stale_temps(real)
    if backup:
        clear_stale_temps(backup_path(real))
    check_file(shown, real)  # again: it may have changed while this run waited
    check_not_open(shown, real)
    snapshot, data = Snapshot.take(real, lambda handle, info: opened(handle, info.st_size, shown, budget))
    keep_vba = check_bytes(data, shown, budget)  # before any reader reads anything
    report = fast(data) if fast is not None and not keep_vba else None  # an .xlsm: whether its macros survive
    if report is not None:
        return report
    workbook = load_checked(data, shown, keep_vba)
    report = change(workbook)
    if nothing is not None and nothing(report, data):
        return report
    keep = Keep.of(snapshot.info)
    parts = kept_parts.carried(io.BytesIO(data))
    new = old = None
    try:
        def write(temp: Path) -> None:
            kept_parts.save_keeping(workbook, temp, parts)
            if finish is not None:
                finish(temp, workbook, report)

        new = prepare(real, write, keep)
        check_macros(shown, data, new)
        if backup:
            old = prepare(backup_path(real), _write_backup(data, snapshot.info), keep)
        check_unchanged(shown, real, snapshot)
        if old is not None:
            commit(old, backup_path(real))
            old = None
        if not snapshot.matches(real):
            raise FileProblem("file.changed", CHANGED, name=shown)
        commit(new, real)
        new = None
    except FileProblem as problem:
        problem.language = problem.language or language or language_of(OpenpyxlBook(workbook))
        raise
    except OSError as error:
        raise from_os_error(shown, error, language or language_of(OpenpyxlBook(workbook))) from None
    finally:
        discard(new)
        discard(old)
    return report
