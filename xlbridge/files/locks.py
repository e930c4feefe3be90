"""The lock conventions of a scorer's programs, honoured by ``xlbridge recalc``.

- Excel: while a workbook is open, its *owner file* ``~$NAME`` lies beside it
  (Excel drops the first two characters of a long name: both spellings count).
- LibreOffice (and OpenOffice): ``.~lock.NAME#`` beside it.
- Any program that holds an advisory lock on the workbook itself (``flock`` or a
  POSIX ``fcntl`` lock, as LibreOffice takes on Linux): :func:`held_by_another`.
- Another ``xlbridge recalc`` of the same file: :class:`RunLock`, an exclusive
  ``flock`` on ``.NAME.xlbridge-lock`` beside the real file (a symlinked workbook
  is locked where it really is, so two links to one file exclude each other).
  The lock file is removed on release, safely: a run that obtains the lock
  checks that the name still leads to the file it locked (else it starts again),
  and only the holder removes the name, while it holds the lock.  So no lock
  file stays behind after a run, and a waiting run can never hold a lock on a
  removed file while a newcomer holds one on a new file.  Where there is no
  ``flock`` (Windows), :mod:`filelock` does the locking (it removes its file too).
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

from xlbridge.files.atomic import usual_mode

_CONTENTION = {errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES}


def excel_owner_files(path: Path) -> list[Path]:
    """Excel's owner files for ``path`` (both spellings)."""
    names = ["~$" + path.name]
    if len(path.name) > 2:
        names.append("~$" + path.name[2:])
    return [path.with_name(n) for n in names]


def libreoffice_lock_file(path: Path) -> Path:
    return path.with_name(f".~lock.{path.name}#")


def open_in_excel(*paths: Path) -> bool:
    return any(owner.exists() for path in paths for owner in excel_owner_files(path))


def open_in_libreoffice(*paths: Path) -> bool:
    return any(libreoffice_lock_file(path).exists() for path in paths)


def held_by_another(path: Path) -> bool:
    """Does another process hold an advisory lock on the file ``path`` (an exclusive
    ``flock``, or a POSIX write lock)?  Probed without waiting, released at once."""
    if fcntl is None:  # pragma: no cover - Windows: Excel's own sharing rules refuse the replace
        return False
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        for lock in (fcntl.flock, fcntl.lockf):
            try:
                lock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError as error:
                if error.errno in _CONTENTION:
                    return True
                continue  # e.g. a file system without such locks
            lock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


class Busy(Exception):
    """Another run held the lock for the whole wait."""


class RunLock:
    """One ``xlbridge recalc`` at a time per real file (see the module docstring)."""

    poll = 0.05

    def __init__(self, path: Path, timeout: float):
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None
        self._fallback = None

    def __enter__(self) -> RunLock:
        if fcntl is None:  # pragma: no cover - Windows
            self._enter_fallback()
            return self
        deadline = time.monotonic() + self.timeout
        while True:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                os.close(fd)
                if error.errno not in _CONTENTION:
                    raise
                if time.monotonic() >= deadline:
                    raise Busy(str(self.path)) from None
                time.sleep(self.poll)
                continue
            try:
                current = os.stat(self.path, follow_symlinks=False)
            except FileNotFoundError:
                current = None
            if current is not None and os.path.samestat(current, os.fstat(fd)):
                self._fd = fd
                return self
            os.close(fd)  # the holder before us removed it: lock the file now at that name

    def _open(self) -> int:
        flags = os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            return os.open(self.path, os.O_RDWR | flags, usual_mode())
        except PermissionError as denied:
            # another user's lock file that we may not write: flock needs only reading
            try:
                return os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
            except FileNotFoundError:  # no lock file, and the folder does not let us make one: that is the error
                raise denied from None

    def __exit__(self, *exc: object) -> None:
        if self._fallback is not None:  # pragma: no cover - Windows
            self._fallback.release()
            self._fallback = None
            return
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            # while holding it (see the module docstring); another user's lock file in a sticky folder stays, harmless
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def _enter_fallback(self) -> None:  # pragma: no cover - Windows
        from filelock import FileLock, Timeout

        lock = FileLock(str(self.path), timeout=self.timeout)
        try:
            lock.acquire()
        except Timeout:
            raise Busy(str(self.path)) from None
        self._fallback = lock
