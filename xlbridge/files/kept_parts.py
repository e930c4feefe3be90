"""Keeping what openpyxl drops: a headless save puts back every part it did not write.

openpyxl reads the cells, styles and sheet settings of a workbook and, when it
saves, writes a new package from them.  Parts it does not model are lost:

- package-level parts linked from the root relationships (``_rels/.rels``) other
  than the ones openpyxl writes itself (the workbook, core, app and custom
  properties): the xlwings Lite code and task pane (``xl/webextensions/...``), a
  thumbnail, ...  (:func:`package_extras`);
- every worksheet's drawing (the "Recalculate season" button; charts and images
  openpyxl would re-write, lossy) with everything it refers to
  (:func:`xlbridge.files.drawings.sheet_drawings`);
- the parts a macro-enabled workbook's VBA project refers to (its signature)
  that openpyxl's ``keep_vba`` does not write back (:func:`vba_parts`).

:func:`carried` reads both from the earlier version of a file;
:func:`save_keeping` saves an openpyxl workbook and puts them back, byte for
byte, in the same pass (the zip openpyxl writes into completes the root
relationships, the content types and the worksheets as they go by).  Nothing
here knows what the kept parts are for.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from xlbridge.files import drawings, othersheets
from xlbridge.files.package import (CONTENT_TYPES, ROOT_RELS, Package, Rel, add_override, add_relationship, add_type,
                                    is_internal_part, parse_rels, resolve)

#: Root relationships openpyxl writes itself (their last path segment).
OPENPYXL_ROOT = frozenset({"officeDocument", "core-properties", "extended-properties", "custom-properties"})
REL_VBA = "http://schemas.microsoft.com/office/2006/relationships/vbaProject"


@dataclass(frozen=True)
class Extras:
    """Package-level parts openpyxl does not write: the root relationships that
    lead to them, the parts (with their own relationship parts) and their content
    types (Override by part; Default by extension for the others)."""

    rels: tuple[Rel, ...] = ()
    parts: dict[str, bytes] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.rels)


@dataclass(frozen=True)
class Carried:
    """Everything a save must put back: the package-level extras, every
    worksheet's drawing and every sheet that is not a worksheet (a chart sheet), by sheet name."""

    extras: Extras = field(default_factory=Extras)
    drawings: dict[str, drawings.SheetDrawing] = field(default_factory=dict)
    vba: Extras = field(default_factory=Extras)  # parts only (no root relationships)
    others: dict[str, othersheets.OtherSheet] = field(default_factory=dict)


def package_extras(package: Package) -> Extras:
    """The package-level parts of ``package`` that openpyxl does not write."""
    rels = tuple(r for r in package.rels("") if is_internal_part(r) and r.type.rsplit("/", 1)[-1] not in OPENPYXL_ROOT)
    starts = [found for r in rels if (found := package.find(resolve("", r.target))) is not None]
    parts = drawings.reached(package, starts, package.workbook_level())
    return Extras(tuple(r for r in rels if package.find(resolve("", r.target)) in parts), parts,
                  *drawings.types_of(package, parts))


def vba_parts(package: Package) -> dict[str, bytes]:
    """The workbook's VBA project with everything it refers to (a signature), by name."""
    book = package.workbook()
    return drawings.reached(package, [found for r in package.rels(book) if r.type == REL_VBA and is_internal_part(r)
                                      and (found := package.find(resolve(book, r.target))) is not None])


def vba_extras(package: Package) -> Extras:
    """The VBA project's parts with their content types (written back where openpyxl did not)."""
    parts = vba_parts(package)
    return Extras((), parts, drawings.types_of(package, parts)[0], {})


def carried(source: str | os.PathLike[str] | IO[bytes]) -> Carried:
    """What a save of the workbook at ``source`` (a path or an open binary file) must put back."""
    with zipfile.ZipFile(source) as archive:
        package = Package(archive)
        return Carried(package_extras(package), drawings.sheet_drawings(package), vba_extras(package),
                       othersheets.other_sheets(package))


def _with_extras(extras: Extras, root_rels: bytes, types: bytes, written: set[str]) -> tuple[dict[str, bytes], bytes, bytes]:
    """The extras' parts (those openpyxl did not write under the same name), the
    root relationships and content types completed for them."""
    present = {(r.type, resolve("", r.target).lower()) for r in parse_rels(root_rels)}
    for rel in extras.rels:
        if (rel.type, resolve("", rel.target).lower()) not in present:
            root_rels, _ = add_relationship(root_rels, rel.type, rel.target)
    parts = {n: data for n, data in extras.parts.items() if n.lower() not in written}
    for name in parts:
        types = add_type(types, name, extras.overrides.get(name), extras.defaults.get(name))
    return parts, root_rels, types


def detach_drawings(workbook, carried: Carried) -> None:
    """Make openpyxl write no drawing of its own for the worksheets whose drawing
    is carried: the charts and images it read from that drawing (``ws._charts``,
    ``ws._images``) are forgotten.  openpyxl would write them again as a second,
    lossy drawing of the sheet (a worksheet has one drawing), while the carried
    drawing holds them byte for byte.  Worksheets are matched by name."""
    for ws in workbook.worksheets:
        if ws.title in carried.drawings:
            ws._charts = []
            ws._images = []


def _held(carried: Carried, name: str) -> bool:
    """Whether a part openpyxl writes must wait until it has written everything
    else: the root relationships and the content types always (the extras
    complete them), with drawings or other sheets also the workbook, its relationships and every
    worksheet with its relationships (:func:`drawings.place`, :func:`othersheets.restore` complete them)."""
    if name in (ROOT_RELS, CONTENT_TYPES):
        return True
    if not carried.drawings and not carried.others:
        return False
    return name in ("xl/workbook.xml", "xl/_rels/workbook.xml.rels") or name.startswith("xl/worksheets/")


def _finish(carried: Carried, held: dict[str, bytes], written: list[str]) -> dict[str, bytes]:
    """Every part still to write: the held ones completed, the extras and the drawings."""
    out = dict(held)
    taken = {n.lower() for n in written} | {n.lower() for n in held}
    for extras in (carried.extras, carried.vba):
        if extras.parts and ROOT_RELS in out and CONTENT_TYPES in out:
            parts, out[ROOT_RELS], out[CONTENT_TYPES] = _with_extras(extras, out[ROOT_RELS], out[CONTENT_TYPES], taken)
            if extras is carried.vba:  # its content types also for the parts openpyxl wrote back
                for name, content_type in extras.overrides.items():
                    out[CONTENT_TYPES] = add_override(out[CONTENT_TYPES], name, content_type)
            out.update(parts)
            taken |= {n.lower() for n in parts}
    if carried.drawings:
        out = drawings.place(carried.drawings, [n for n in written if n not in out], out)
    if carried.others:
        out = othersheets.restore(carried.others, [n for n in written if n not in out], out)
    return out


class _KeepingZip(zipfile.ZipFile):
    """The zip openpyxl writes a workbook into, completing it on the way (one pass):
    the parts to complete (:func:`_held`) are held back, and when the file is
    closed they are written completed, with the extras and drawings."""

    def __init__(self, file: Path, carried: Carried):
        super().__init__(file, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
        self._carried = carried
        self._hold: dict[str, bytes] = {}
        self._abandoned = False

    def writestr(self, zinfo_or_arcname, data, *args, **kwargs):  # type: ignore[override]
        name = getattr(zinfo_or_arcname, "filename", zinfo_or_arcname)
        if _held(self._carried, name):
            self._hold[name] = data.encode("utf-8") if isinstance(data, str) else bytes(data)
            return None
        return super().writestr(zinfo_or_arcname, data, *args, **kwargs)

    def write(self, filename, arcname=None, *args, **kwargs):  # type: ignore[override]
        name = arcname if arcname is not None else os.fspath(filename)
        if _held(self._carried, name):  # openpyxl writes worksheets from a temporary file
            return self.writestr(name, Path(filename).read_bytes())
        return super().write(filename, arcname, *args, **kwargs)

    def abandon(self) -> None:
        """A failed save: close the file as it is, adding nothing (the caller discards it)."""
        self._abandoned = True
        self._hold = {}

    def close(self) -> None:
        if self.fp is not None and self.mode == "w" and not self._abandoned:
            held, self._hold = self._hold, {}
            for name, data in _finish(self._carried, held, self.namelist()).items():
                super().writestr(name, data)
        super().close()


def save_keeping(workbook, target: str | os.PathLike[str], carried: Carried) -> None:
    """Save the openpyxl ``workbook`` to ``target`` with everything ``carried``
    put back.  Also with nothing to keep it saves through :class:`_KeepingZip`,
    which closes the file when the save fails (openpyxl's own save leaves it
    open: on a full disk, its flush fails again later, when it is collected)."""
    detach_drawings(workbook, carried)
    from openpyxl.writer.excel import ExcelWriter

    # what openpyxl's own save_workbook does, with the completing zip
    workbook.properties.modified = dt.datetime.now(tz=dt.timezone.utc).replace(tzinfo=None)
    archive = _KeepingZip(Path(target), carried)
    try:
        ExcelWriter(workbook, archive).save()
    except BaseException:
        archive.abandon()
        with contextlib.suppress(OSError):  # a full disk again: the save's own error says what went wrong
            archive.close()
        raise


