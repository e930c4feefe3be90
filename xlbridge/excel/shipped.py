"""Ready workbooks and blank templates, written by code (``xlbridge new KIND PATH``).

Each kind has one builder; ``workbooks/`` and ``templates/`` in the repository
are produced by :func:`build_all` and a test checks that they are up to date.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from openpyxl import Workbook

from xlbridge.workbooks.bridgemania.build import build_workbook as bridgemania_workbook
from xlbridge.workbooks.bridgemania.declaration import NEVER_READ as BM_NEVER_READ
from xlbridge.workbooks.events.build import se_masterpoints, tbf_club
from xlbridge.workbooks.events.declaration import NEVER_READ as EVENTS_NEVER_READ
from xlbridge.workbooks.heeg.build import heeg_workbook
from xlbridge.workbooks.heeg.declaration import NEVER_READ as HEEG_NEVER_READ
from xlbridge.workbooks.nextsheet import NEW_EVENING, NEW_TOURNAMENT
from xlbridge.excel.bundle import Button, lite_files
from xlbridge.rules.problems import N_
from xlbridge.files.atomic import write_atomically

class WorkbookError(ValueError):
    """A workbook cannot be written or read as asked; the message says why."""


# ------------------------------------------------------------------ registry of kinds


@dataclass(frozen=True)
class WorkbookKind:
    """What ``xlbridge new KIND`` builds: the builder, the "Recalculate season"
    button on the main sheet, and the workbook's title and rule document for the
    text xlwings Lite shows the scorer (``main.py``'s docstring; both English catalogue
    entries, written in the kind's ``language``); ``never_read``:
    the sheets the recalculation never reads, which Excel then sends without their
    values (the script's ``exclude``; the kind's declaration names them)."""

    build: Callable[[bool], Workbook]
    button: Button
    title: str
    rules: str
    never_read: tuple[str, ...] = ()
    language: str = "en"  # the club's or federation's language: what ``xlbridge new`` builds by default
    next_button: Button | None = None  # New evening / New tournament, beside the first button
    recognised_as: str = ""  # the recalculation's name of the kind (workbooks/kinds.py)

    def in_language(self, language: str) -> WorkbookKind:
        """This kind as built in ``language``: the button on the main sheet under its
        name there, with its label in that language; the sheets never read by their names."""
        from xlbridge.language import _, sheet_name, speaking
        from xlbridge.workbooks.localised import Localised

        with speaking(language):
            label = _(self.button.label)
            following = self.next_button and replace(self.next_button, label=_(self.next_button.label),
                                                      sheet=sheet_name(self.next_button.sheet, language))
        return replace(self, button=replace(self.button, sheet=sheet_name(self.button.sheet, language), label=label),
                       next_button=following,
                       never_read=tuple(Localised.local_name(n, language) for n in self.never_read),
                       language=language)


KINDS: dict[str, WorkbookKind] = {
    "tbf-club": WorkbookKind(tbf_club, Button("Tournament", "D3", cols=3), N_("TBF club tournament"),
                             N_("the TBF Masterpoint booklet v2.0"), EVENTS_NEVER_READ, language="tr",
                             recognised_as="event awards"),
    "se-masterpoints": WorkbookKind(se_masterpoints, Button("Bronze pairs", "D3", cols=3),
                                    N_("Swedish masterpoint events"), N_("Svenska Mästarpoäng 2009"), EVENTS_NEVER_READ,
                                    language="sv", recognised_as="event awards"),
    "bridgemania": WorkbookKind(bridgemania_workbook, Button("Season", "G1"),
                                N_("BridgeMania championship season"),
                                N_("the BridgeMania championship rules 2019-2020"), BM_NEVER_READ, language="it",
                                next_button=Button("Season", "I1", name="xlbridge_next_button", label=NEW_TOURNAMENT,
                                                   action=NEW_TOURNAMENT), recognised_as="bridgemania"),
    "heeg": WorkbookKind(heeg_workbook, Button("Season", "D1"), N_("Heeg club season"),
                         N_("Bridge club Heeg's score calculation"), HEEG_NEVER_READ, language="nl",
                         next_button=Button("Season", "F1", name="xlbridge_next_button", label=NEW_EVENING,
                                            action=NEW_EVENING), recognised_as="heeg"),
}
BUILDERS: dict[str, Callable[[bool], Workbook]] = {name: kind.build for name, kind in KINDS.items()}

#: What the repository ships: (kind, blank, path relative to the repository root).
SHIPPED = [
    ("tbf-club", False, "workbooks/tbf-club.xlsx"),
    ("tbf-club", True, "templates/tbf-club.xlsx"),
    ("se-masterpoints", False, "workbooks/se-masterpoints.xlsx"),
    ("se-masterpoints", True, "templates/se-masterpoints.xlsx"),
    ("bridgemania", False, "workbooks/bridgemania-demo.xlsx"),
    ("bridgemania", True, "templates/bridgemania-season.xlsx"),
    ("heeg", False, "workbooks/heeg-demo.xlsx"),
    ("heeg", True, "templates/heeg-season.xlsx"),
]


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
        embed_code(temp, kind, guid=_stable_guid(path.name))

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
            buttons.add_button(path, button.sheet, name=button.name, label=button.label, cell=button.cell,
                               cols=button.cols, rows=button.rows)


#: A workbook that lost its xlwings Lite code (another program saved it: LibreOffice drops the
#: parts it does not know), on ``xlbridge recalc``.
LITE_PUT_BACK = N_("the workbook had lost its xlwings Lite code (a program other than Excel saved it); xlbridge put "
                   "back the current code and buttons of this kind of workbook, so that its buttons work in Excel again")
LITE_LOST = N_("the workbook has lost its xlwings Lite code (a program other than Excel saved it), and xlbridge "
               "cannot put it back: the sheet of its button ({sheets}) is missing; give the main sheet that name and "
               "run xlbridge recalc again")


def put_back_code(path: Path, sheets: list[str], report) -> None:
    """``xlbridge recalc``'s last step on the saved file ``path``: when it carries no
    xlwings Lite code, that of its kind (as ``xlbridge new`` embeds it, in the workbook's
    language) and the buttons, with a warning in ``report`` that says so; when its kind
    cannot be told, a warning that says how to get them back."""
    import zipfile

    from xlbridge.excel import lite
    from xlbridge.workbooks.plan import at

    with zipfile.ZipFile(path) as archive:
        if lite.WEBEXTENSION in archive.namelist():
            return
    kinds = [kind.in_language(report.language) for kind in KINDS.values() if kind.recognised_as == report.kind]
    fitting = [kind for kind in kinds if kind.button.sheet in sheets]
    if len(fitting) != 1:
        report.warnings.append(at("workbook", None, "recalc.lite-lost", LITE_LOST,
                                  sheets=" / ".join(sorted({k.button.sheet for k in kinds}))))
        return
    embed_code(path, fitting[0], guid=_stable_guid(fitting[0].title))
    report.warnings.append(at("workbook", None, "recalc.lite-put-back", LITE_PUT_BACK))


def _stable_guid(name: str) -> str:
    import uuid

    return str(uuid.uuid5(uuid.NAMESPACE_URL, "xlbridge:" + name)).upper()


def build(kind: str, path: str | os.PathLike[str], *, blank: bool = False, force: bool = False,
          language: str | None = None) -> Path:
    """Write the workbook of ``kind`` to ``path`` in ``language`` (default: the
    club's, :attr:`WorkbookKind.language`); refuses to overwrite unless ``force``."""
    if kind not in KINDS:
        raise WorkbookError(f"unknown workbook kind {kind!r}; choose one of {', '.join(KINDS)}")
    target = Path(path)
    if target.suffix.lower() != ".xlsx":
        raise WorkbookError(f"{target} must end in .xlsx")
    if target.exists() and not force:
        raise WorkbookError(f"{target} exists; add --force to overwrite it")
    spec = KINDS[kind]
    spec = spec.in_language(language or spec.language)
    save_atomically(built(spec, blank), target, spec)
    return target


def built(kind: WorkbookKind, blank: bool) -> Workbook:
    """The workbook of ``kind`` in its language (:func:`~xlbridge.workbooks.localised.built_in`)."""
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.recalc import recalculate
    from xlbridge.workbooks.localised import built_in

    workbook = built_in(kind.build, kind.language, blank)
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
