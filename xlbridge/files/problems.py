"""What the file layer tells the scorer when a file cannot be read or written.

:class:`FileProblem` is a problem with the file itself (missing, open in another
program, damaged, no permission, a full disk...): one coded message, naming the file
as the scorer typed it, shown in the workbook's language once the workbook has been
read (``.language``) and before that in the language the message is shown in (the
command line speaks the user's: :func:`xlbridge.language.user_language`).
:func:`from_os_error` turns an error of the operating system into such a message
(``[Errno 28] No space left on device`` would say neither which file nor whether
anything was written); every one of them is in docs/errors.md.
"""

from __future__ import annotations

import errno
import os
from typing import Any

from xlbridge.language import speaking
from xlbridge.rules.problems import N_, Problem


class FileProblem(ValueError):
    """The file itself cannot be recalculated or written (missing, open in Excel,
    damaged, no permission...): ``FileProblem(code, template, **params)``; the message
    says why and names the file, in ``language`` (``None``: the language spoken where
    it is shown)."""

    def __init__(self, code: str, template: str, /, *, language: str | None = None, **params: Any) -> None:
        self.problem, self.language = Problem(code, template, **params), language
        super().__init__(self.problem.message)

    @property
    def code(self) -> str:
        return self.problem.code

    def __str__(self) -> str:
        if self.language is None:
            return self.problem.message
        with speaking(self.language):
            return self.problem.message


#: errno -> (code, the message; {name}: the file as typed).
_BY_ERRNO = {
    errno.EACCES: ("file.permission", N_("{name}: permission denied; nothing was changed (xlbridge must be able to "
                                         "read the workbook and to create and replace files in its folder)")),
    errno.ENOSPC: ("file.disk-full", N_("{name}: the disk is full (no space left on device); nothing was changed: "
                                        "free some space, then run again")),
    errno.EFBIG: ("file.too-large-for-system", N_("{name}: the new version would be larger than this system allows "
                                                  "for one file (file too large); nothing was changed")),
    errno.EROFS: ("file.read-only-disk", N_("{name} is on a read-only disk or share; nothing was changed: copy it to "
                                            "a folder you can write to")),
}
_BY_ERRNO[errno.EPERM] = _BY_ERRNO[errno.EACCES]
if hasattr(errno, "EDQUOT"):
    _BY_ERRNO[errno.EDQUOT] = _BY_ERRNO[errno.ENOSPC]
#: Windows: "The process cannot access the file because it is being used by another process".
WINDOWS_SHARING_VIOLATION = 32
LOCKED = N_("{name} is locked by another program; close the workbook there (or wait until it is done), then run "
            "again")
OTHER = N_('{name}: the system reported "{reason}"; nothing was changed')


def from_os_error(name: object, error: OSError, language: str | None = None) -> FileProblem:
    """The problem for ``error`` met while reading or writing the file ``name``."""
    if getattr(error, "winerror", None) == WINDOWS_SHARING_VIOLATION:
        return FileProblem("file.locked", LOCKED, name=name, language=language)
    code, template = _BY_ERRNO.get(error.errno or 0, ("file.os-error", OTHER))
    reason = error.strerror or (os.strerror(error.errno) if error.errno else str(error)) or type(error).__name__
    return FileProblem(code, template, name=name, reason=reason, language=language)
