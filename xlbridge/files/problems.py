"""What the file layer tells the scorer when a file cannot be read or written.

:class:`FileProblem` is a problem with the file itself (missing, open in another
program, damaged, no permission, a full disk...): one message, naming the file
as the scorer typed it.  :func:`from_os_error` turns an error of the operating
system into such a message (``[Errno 28] No space left on device`` would say
neither which file nor whether anything was written); every one of them is in
docs/errors.md.
"""

from __future__ import annotations

import errno
import os


class FileProblem(ValueError):
    """The file itself cannot be recalculated or written (missing, open in Excel,
    damaged, no permission...); the message says why and names the file."""


#: errno -> the message after the file name ({name}: the file as typed).
_BY_ERRNO = {
    errno.EACCES: "{name}: permission denied; nothing was changed (xlbridge must be able to read the workbook "
                  "and to create and replace files in its folder)",
    errno.ENOSPC: "{name}: the disk is full (no space left on device); nothing was changed: free some space, "
                  "then run again",
    errno.EFBIG: "{name}: the new version would be larger than this system allows for one file (file too large); "
                 "nothing was changed",
    errno.EROFS: "{name} is on a read-only disk or share; nothing was changed: copy it to a folder you can write to",
}
_BY_ERRNO[errno.EPERM] = _BY_ERRNO[errno.EACCES]
if hasattr(errno, "EDQUOT"):
    _BY_ERRNO[errno.EDQUOT] = _BY_ERRNO[errno.ENOSPC]
#: Windows: "The process cannot access the file because it is being used by another process".
WINDOWS_SHARING_VIOLATION = 32
LOCKED = "{name} is locked by another program; close the workbook there (or wait until it is done), then run again"
OTHER = '{name}: the system reported "{reason}"; nothing was changed'


def describe_os_error(name: object, error: OSError) -> str:
    """The message for ``error`` met while reading or writing the file ``name``."""
    if getattr(error, "winerror", None) == WINDOWS_SHARING_VIOLATION:
        return LOCKED.format(name=name)
    template = _BY_ERRNO.get(error.errno or 0)
    if template is not None:
        return template.format(name=name)
    reason = error.strerror or (os.strerror(error.errno) if error.errno else str(error)) or type(error).__name__
    return OTHER.format(name=name, reason=reason)


def from_os_error(name: object, error: OSError) -> FileProblem:
    return FileProblem(describe_os_error(name, error))
