"""Ready workbooks and blank templates, written by code (``xlbridge new KIND PATH``).

Each kind has one builder; ``workbooks/`` and ``templates/`` in the repository
are produced by :func:`build_all` and a test checks that they are up to date.
"""

from __future__ import annotations

import os
from pathlib import Path

from openpyxl import Workbook

from xlbridge.workbooks import kinds as registry
from xlbridge.workbooks.kinds import WorkbookKind
from xlbridge.excel.bundle import lite_files
from xlbridge.excel.lite import stable_guid
from xlbridge.rules.problems import N_
from xlbridge.files.atomic import write_atomically

class WorkbookError(ValueError):
    """A workbook cannot be written or read as asked; the message says why."""


# ------------------------------------------------------------------ the kinds, from their registry

#: What ``xlbridge new KIND`` builds, by ``KIND`` (declared in each kind's package: :mod:`xlbridge.workbooks.kinds`;
#: :func:`build` asks the registry each time).
KINDS: dict[str, WorkbookKind] = registry.workbooks()

#: What the repository ships: (kind, blank, path relative to the repository root).
SHIPPED = [(name, blank, rel) for name, kind in KINDS.items() for blank, rel in kind.shipped]


def save_atomically(wb: Workbook, path: Path, kind: WorkbookKind) -> None:
    """Write to a temporary file in the same folder, embed the xlwings Lite code
    (the last step: openpyxl would drop it), then replace: a reader never sees
    half a file and an error leaves the old file as it was
    (:func:`xlbridge.files.atomic.write_atomically`; the new file gets the usual
    mode, ``0o666 & ~umask``)."""
    from xlbridge.workbooks.style import print_setup

    for ws in wb.worksheets:
        print_setup(ws)
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(temp: Path) -> None:
        wb.save(temp)
        embed_code(temp, kind, guid=stable_guid(path.name))

    # the mode of any new file (0o666 & ~umask), not the 0o600 of a temporary file
    write_atomically(path, write)


def kind_lite_files(kind: WorkbookKind) -> dict[str, str]:
    """The xlwings Lite files of ``kind`` as built: its language's text, catalogue and only its own code."""
    return lite_files(kind.button, title=kind.title, rules=kind.rules, exclude=kind.never_read,
                      language=kind.language, next_button=kind.next_button, kind=kind.recognised_as or None)


def embed_code(path: Path, kind: WorkbookKind, guid: str) -> None:
    """The xlwings Lite code of ``kind`` (its language's) and its buttons, into the saved file
    ``path``; a button the file has already (by its sheet and name) stays as it is."""
    from xlbridge.excel import button as buttons
    from xlbridge.excel import lite

    lite.embed(path, kind_lite_files(kind), guid=guid)
    present = {(b["sheet"], b["name"]) for b in buttons.buttons(path)}
    for button in (kind.button, kind.next_button):
        if button is not None and (button.sheet, button.name) not in present:
            buttons.add_button(path, button.sheet, name=button.name, label=button.label, cell=button.cell)


#: A workbook that lost its xlwings Lite code (another program saved it: LibreOffice drops the
#: parts it does not know), on ``xlbridge recalc``.
LITE_PUT_BACK = N_("the workbook had lost its xlwings Lite code (a program other than Excel saved it); xlbridge put "
                   "back the current code and buttons of this kind of workbook, so that its buttons work in Excel again")
LITE_LOST = N_("the workbook has lost its xlwings Lite code (a program other than Excel saved it), and xlbridge "
               "cannot put it back: the sheet of its button ({sheets}) is missing; give the main sheet that name and "
               "run xlbridge recalc again")


def put_back_code(path: Path, sheets: list[str], kind: str, language: str):
    """The last step of ``xlbridge recalc``, ``import`` and ``next`` on the saved file ``path`` (a workbook of
    ``kind`` in ``language``): when it carries no xlwings Lite code, that of its kind (as ``xlbridge new`` embeds
    it, in the workbook's language) and the buttons, and the warning that says so; when its kind cannot be told,
    the warning that says how to get them back; ``None`` when the code is there."""
    import zipfile

    from xlbridge.excel import lite
    from xlbridge.workbooks.plan import at

    with zipfile.ZipFile(path) as archive:
        if lite.WEBEXTENSION in archive.namelist():
            return None
    kinds = [spec.in_language(language) for spec in registry.workbooks().values() if spec.recognised_as == kind]
    fitting = [spec for spec in kinds if spec.button.sheet in sheets]
    if len(fitting) != 1:
        return at("workbook", None, "recalc.lite-lost", LITE_LOST,
                  sheets=" / ".join(sorted({k.button.sheet for k in kinds})))
    embed_code(path, fitting[0], guid=stable_guid(fitting[0].title))
    return at("workbook", None, "recalc.lite-put-back", LITE_PUT_BACK)


def build(kind: str, path: str | os.PathLike[str], *, blank: bool = False, force: bool = False,
          language: str | None = None) -> Path:
    """Write the workbook of ``kind`` to ``path`` in ``language`` (default: the
    club's, :attr:`WorkbookKind.language`); refuses to overwrite unless ``force``."""
    known = registry.workbooks()
    if kind not in known:
        raise WorkbookError(f"unknown workbook kind {kind!r}; choose one of {', '.join(known)}")
    target = Path(path)
    if target.suffix.lower() != ".xlsx":
        raise WorkbookError(f"{target} must end in .xlsx")
    if target.exists() and not force:
        raise WorkbookError(f"{target} exists; add --force to overwrite it")
    spec = known[kind]
    spec = spec.in_language(language or spec.language)
    save_atomically(built(spec, blank), target, spec)
    return target


def built(kind: WorkbookKind, blank: bool) -> Workbook:
    """The workbook of ``kind`` in its language (:func:`~xlbridge.workbooks.localised.built_in`)."""
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.recalc import recalculate
    from xlbridge.language import speaking
    from xlbridge.workbooks.localised import built_in, localised
    from xlbridge.workbooks.messages import add_messages_sheet

    workbook = built_in(kind.builder(), kind.language, blank)
    with speaking(kind.language):
        add_messages_sheet(localised(OpenpyxlBook(workbook), kind.language))
    # recalculated once, as it is: it writes no cell (the builder filled them) but the record of
    # this recalculation, so that the scorer's first change already shows as "your change" on Corrections
    recalculate(OpenpyxlBook(workbook), language=kind.language, when="-")
    return workbook


def build_all(root: str | os.PathLike[str]) -> list[Path]:
    """(Re)write every shipped workbook and template under ``root``."""
    return [build(kind, Path(root) / rel, blank=blank, force=True) for kind, blank, rel in SHIPPED]


if __name__ == "__main__":  # python -m xlbridge.excel.shipped: refresh workbooks/ and templates/
    for written in build_all(Path(__file__).resolve().parents[2]):
        print(f"wrote {written}")
