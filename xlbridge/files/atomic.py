"""Writing a file so that a reader only ever finds the old or the new version.

- A new version is written to a temporary file in the same folder (the same file
  system, so that :func:`os.replace` is one atomic rename), flushed to the disk
  (``fsync``), given the mode -- and, where this process may, the owner -- of the
  file it replaces, and only then renamed over it; the folder is synced after the
  rename.  A full disk, a file-size limit or a kill mid-write leaves the old file
  as it was; only a temporary file can be left behind.
- Temporary files are named ``.NAME.xlbridge-XXXXXXXX.tmp`` (8 random characters
  of ``[a-z0-9_]``): a pattern no other program uses, so that
  :func:`clear_stale_temps` can remove the ones a killed run left behind --
  regular files (never a link), owned by this user, untouched for
  :data:`STALE_AFTER_SECONDS` -- and nothing else.
- :class:`Snapshot`: a file's identity and content (device, inode, size,
  modification time in ns, SHA-256), taken when it is read and compared again
  just before a replace: a save by another program in between is detected.
- :func:`usual_mode`: the mode a new file gets from an ordinary program
  (``0o666 & ~umask``), not the ``0o600`` of :func:`tempfile.mkstemp`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

TEMP_INFIX = ".xlbridge-"
TEMP_SUFFIX = ".tmp"
#: A temporary file untouched this long (seconds) is a killed run's: it is cleared.
#: The per-file lock already keeps two runs apart; the age is a second safeguard
#: (a run on another machine of a network share whose locks do not reach here).
STALE_AFTER_SECONDS = 15 * 60


def temp_pattern(name: str) -> re.Pattern[str]:
    """The names of xlbridge's temporary files for a file called ``name``."""
    return re.compile(re.escape(f".{name}{TEMP_INFIX}") + r"[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX))


def new_temp(path: Path) -> Path:
    """A new, empty temporary file beside ``path`` (created exclusively)."""
    handle, name = tempfile.mkstemp(prefix=f".{path.name}{TEMP_INFIX}", suffix=TEMP_SUFFIX, dir=path.parent)
    os.close(handle)
    return Path(name)


def discard(temp: Path | None) -> None:
    if temp is not None:
        temp.unlink(missing_ok=True)


def clear_stale_temps(path: Path, older_than: float = STALE_AFTER_SECONDS) -> list[str]:
    """Remove the temporary files a killed run left beside ``path`` (see the module
    docstring for which); returns their names."""
    pattern = temp_pattern(path.name)
    now = time.time()
    me = os.geteuid() if hasattr(os, "geteuid") else None
    cleared = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return cleared
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode) or (me is not None and info.st_uid != me):
                continue
            if now - info.st_mtime < older_than:
                continue
            os.unlink(entry.path)
            cleared.append(entry.name)
        except OSError:
            continue
    return cleared


# ------------------------------------------------------------------ modes and owners


def current_umask() -> int:
    """This process's umask (read without changing it where the system says it)."""
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def usual_mode() -> int:
    """The mode an ordinary program gives a new file: ``0o666 & ~umask``."""
    return 0o666 & ~current_umask()


@dataclass(frozen=True)
class Keep:
    """What a replacing file keeps of the file it replaces: mode, owner, group."""

    mode: int
    uid: int | None = None
    gid: int | None = None

    @classmethod
    def of(cls, info: os.stat_result) -> Keep:
        return cls(stat.S_IMODE(info.st_mode), info.st_uid, info.st_gid)


def _apply(temp: Path, fd: int, keep: Keep) -> None:
    if hasattr(os, "fchmod"):
        os.fchmod(fd, keep.mode)
    else:  # Windows: the read-only flag only
        os.chmod(temp, keep.mode)
    if not hasattr(os, "fchown") or keep.uid is None:
        return
    if os.geteuid() == 0:
        os.fchown(fd, keep.uid, keep.gid if keep.gid is not None else -1)
        return
    if keep.gid is not None and keep.gid != os.getegid():
        with contextlib.suppress(OSError):  # a member of the file's group may give it that group
            os.fchown(fd, -1, keep.gid)


def finish(temp: Path, keep: Keep | None) -> None:
    """Give ``temp`` the mode and owner it must have and flush it to the disk."""
    fd = os.open(temp, os.O_RDWR | getattr(os, "O_BINARY", 0))
    try:
        if keep is not None:
            _apply(temp, fd, keep)
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (the rename) to the disk, where the system can."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def prepare(path: Path, write: Callable[[Path], object], keep: Keep | None) -> Path:
    """Write a new version of ``path`` to a temporary file beside it (``write(temp)``),
    finished (:func:`finish`); returns the temporary file, to :func:`commit` or
    :func:`discard`.  Nothing is left behind when writing fails."""
    temp = new_temp(path)
    try:
        write(temp)
        finish(temp, keep)
    except BaseException:
        discard(temp)
        raise
    return temp


def commit(temp: Path, path: Path) -> None:
    """Move a prepared temporary file into place (never through a link at ``path``:
    a link there is itself replaced)."""
    os.replace(temp, path)
    sync_folder(path.parent)


def write_atomically(path: Path, write: Callable[[Path], object], keep: Keep | None = None) -> None:
    """:func:`prepare` then :func:`commit` (``keep`` None: the usual mode of a new file)."""
    temp = prepare(path, write, keep if keep is not None else Keep(usual_mode()))
    try:
        commit(temp, path)
    except BaseException:
        discard(temp)
        raise


# ------------------------------------------------------------------ identity and content


@dataclass(frozen=True)
class Snapshot:
    """A file's identity and content at one moment."""

    dev: int
    ino: int
    size: int
    mtime_ns: int
    sha256: str
    info: os.stat_result

    @classmethod
    def take(cls, path: Path, check: Callable[[BinaryIO, os.stat_result], object] | None = None
             ) -> tuple[Snapshot, bytes]:
        """Read ``path`` once: its snapshot and its bytes (the bytes the snapshot hashes).  ``check`` sees
        the open file before a byte is read (its size and signature: :func:`xlbridge.files.budget.opened`);
        no more is read than the file held when it was opened."""
        with open(path, "rb") as handle:
            before = os.fstat(handle.fileno())
            if check is not None:
                check(handle, before)
            data = handle.read(before.st_size + 1)
            after = os.fstat(handle.fileno())
        if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns) or len(data) != after.st_size:
            raise ChangedWhileReading(path)
        return cls(after.st_dev, after.st_ino, after.st_size, after.st_mtime_ns, hashlib.sha256(data).hexdigest(),
                   after), data

    def matches(self, path: Path) -> bool:
        """Is ``path`` still this very file with this content?"""
        try:
            info = os.stat(path, follow_symlinks=False)
        except FileNotFoundError:
            return False
        if (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns) != (self.dev, self.ino, self.size, self.mtime_ns):
            return False
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest() == self.sha256


class ChangedWhileReading(OSError):
    """The file changed while it was being read (another program was saving it)."""
