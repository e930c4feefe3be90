"""``xlbridge recalc PATH``: the recalculation without Excel, safely.

- The file is read with openpyxl and recalculated by the same code as the Excel
  button (:func:`xlbridge.workbooks.recalc.recalculate`).
- Nothing is written when the workbook has a problem: every problem is reported.
- Refuses a workbook that Excel has open (its ``~$`` owner file lies beside it).
- One run at a time per file (a lock file beside it, ``.<name>.xlbridge-lock``,
  left in place: deleting it while another run waits would let two runs in).
- Writes atomically (a temporary file in the same folder, then replace) and keeps
  the previous version as ``<name>.backup.xlsx`` in the same folder.
- Keeps the xlwings Lite code and task pane that openpyxl would drop, and every
  sheet's drawing (the button shape, charts, images) byte for byte.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
import zlib
from pathlib import Path

from filelock import FileLock, Timeout

from xlbridge.files import carry
from xlbridge.files.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.recalc import BookInputError, Problem, Report, recalculate

LOCK_WAIT_SECONDS = 60


class FileProblem(ValueError):
    """The file itself cannot be recalculated (missing, open in Excel, damaged...)."""


def backup_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}.backup{path.suffix}")


def lock_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.xlbridge-lock")


def owner_file(path: Path) -> Path:
    """Excel's lock ("owner") file: ``~$`` + the name (Excel drops the first two
    characters of long names; both spellings are checked)."""
    return path.with_name("~$" + path.name)


def excel_has_it_open(path: Path) -> bool:
    return owner_file(path).exists() or (len(path.name) > 2 and path.with_name("~$" + path.name[2:]).exists())


def unreadable_part(archive: zipfile.ZipFile) -> str | None:
    """The first part that does not read back (bad CRC, or damaged compressed data:
    ``ZipFile.testzip`` lets the latter escape as ``zlib.error``)."""
    for info in archive.infolist():
        try:
            with archive.open(info) as part:
                while part.read(1 << 20):
                    pass
        except (zipfile.BadZipFile, zlib.error, EOFError):
            return info.filename
    return None


def load(path: Path):
    """Open an .xlsx with openpyxl, with a clear message for what it is not."""
    from openpyxl import load_workbook

    if not path.exists():
        raise FileProblem(f"{path}: no such file")
    if path.is_dir():
        raise FileProblem(f"{path} is a folder, not a workbook")
    with path.open("rb") as handle:
        head = handle.read(8)
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        raise FileProblem(f"{path} is password-protected or an old .xls workbook; save it from Excel as an "
                          "unprotected .xlsx workbook first")
    if not zipfile.is_zipfile(path):
        raise FileProblem(f"{path} is not an .xlsx workbook (damaged, or another kind of file renamed)")
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            bad = unreadable_part(archive)
        if not {"[Content_Types].xml", "xl/workbook.xml"} <= names:
            raise FileProblem(f"{path} is a zip file but not an Excel workbook (it has no xl/workbook.xml); "
                              "use the real workbook")
        if bad is not None:
            raise FileProblem(f"{path} is damaged (part {bad} does not read back); restore it from its backup")
        return load_workbook(path)
    except FileProblem:
        raise
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError) as error:
        raise FileProblem(f"{path} is not a readable .xlsx workbook ({type(error).__name__}: {error})") from None


def save_atomically(workbook, path: Path, carry_from: Path | None = None) -> None:
    """Save to a temporary file beside ``path`` and move it into place.

    ``carry_from``: an earlier version whose xlwings Lite parts and sheet drawings
    (the button, charts: :func:`xlbridge.files.carry.carried`) are put back into the
    new file, in the same pass, before it replaces the old one.  The workbook's
    own copies of those drawings' charts and images are dropped first
    (:func:`xlbridge.files.carry.detach_drawings`): openpyxl would write them as a
    second, lossy drawing of the sheet.
    """
    parts = carry.carried(carry_from) if carry_from is not None else carry.Carried()
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    temp = Path(temp_name)
    try:
        carry.save_keeping(workbook, temp, parts)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def recalc_path(path: str | os.PathLike[str], *, backup: bool = True, when: str | None = None) -> Report:
    """Recalculate the workbook at ``path`` in place (see the module docstring)."""
    target = Path(path)
    if target.suffix.lower() not in (".xlsx", ".xlsm"):
        if target.suffix.lower() == ".xls":
            raise FileProblem(f"{target} is an old .xls workbook; save it from Excel as .xlsx first")
        raise FileProblem(f"{target} must be an .xlsx workbook")
    if excel_has_it_open(target):
        raise FileProblem(f"{target} is open in Excel (its ~$ owner file exists); close it in Excel first")
    try:
        with FileLock(str(lock_path(target)), timeout=LOCK_WAIT_SECONDS):
            workbook = load(target)
            report = recalculate(OpenpyxlBook(workbook), when=when)
            if backup:
                shutil.copy2(target, backup_path(target))
            save_atomically(workbook, target, carry_from=backup_path(target) if backup else target)
            return report
    except Timeout:
        raise FileProblem(f"{target} is being recalculated by another run; try again when it is done") from None


__all__ = ["FileProblem", "BookInputError", "Problem", "recalc_path", "backup_path", "load"]
