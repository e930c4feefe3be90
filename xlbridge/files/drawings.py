"""Keeping every sheet's drawing byte for byte when openpyxl saves a workbook.

openpyxl, on load and save, drops drawings it did not create (shapes) and
re-writes, lossy, the charts and images it half understands.
:func:`sheet_drawings` reads every worksheet's drawing with everything it refers
to (charts, their style and colour parts, images, ...) and :func:`place` puts
them into the package openpyxl wrote, re-linked to the sheets of the same name
(:mod:`xlbridge.files.kept_parts` does it in the same pass as the package-level parts).
"""


from __future__ import annotations

import os
import posixpath
import zipfile
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass

from xlbridge.files.package import (CONTENT_TYPES, CT_RELS, REL_DRAWING, Package, add_default, add_relationship,
                                    add_type, free_name, insert_drawing, is_internal_part, parse_rels, relative,
                                    rels_name, resolve, retarget)


@dataclass(frozen=True)
class SheetDrawing:
    """A worksheet's drawing as read from a package: ``parts`` holds the drawing,
    every part it refers to (recursively: charts, their style and colour parts,
    images, ...) and their relationship parts, by name, drawing first."""

    sheet: str
    drawing: str
    parts: dict[str, bytes]
    overrides: dict[str, str]  # part name -> content type (its Override)
    defaults: dict[str, str]  # part name -> content type of its extension's Default (parts without an Override)


def sheet_drawings(source: str | os.PathLike[str] | Package) -> dict[str, SheetDrawing]:
    """Every worksheet's drawing in ``source`` (a file, or a package being read: only the drawings'
    parts are read), by sheet name."""
    if not isinstance(source, Package):
        with zipfile.ZipFile(source) as archive:
            return sheet_drawings(Package(archive))
    skip = source.workbook_level()
    found = {}
    for sheet, part in source.sheets().items():
        drawing = source.drawing_of(part)
        if drawing is None or drawing not in source:
            continue
        parts = reached(source, [drawing], skip)
        found[sheet] = SheetDrawing(sheet, drawing, parts, *types_of(source, parts))
    return found


def reached(package: Package, starts: Iterable[str], skip: Container[str] = frozenset()) -> dict[str, bytes]:
    """``starts`` (part names as the package has them) and every part they refer to (recursively, leaving
    out ``skip``: lower-case names), with their relationship parts, by name, in the order reached."""
    parts: dict[str, bytes] = {}
    queue = list(starts)
    while queue:
        current = queue.pop(0)
        if current in parts:
            continue
        parts[current] = package.read(current)
        rels = package.find(rels_name(current))
        if rels is None:
            continue
        parts[rels] = package.read(rels)
        for rel in parse_rels(parts[rels]):
            if not is_internal_part(rel):
                continue
            referred = package.find(resolve(current, rel.target))
            if referred is not None and referred.lower() not in skip and referred not in parts:
                queue.append(referred)
    return parts


def types_of(package: Package, parts: Mapping[str, bytes]) -> tuple[dict[str, str], dict[str, str]]:
    """The content types of ``parts``: by Override, and by their extension's Default (the others but
    relationship parts)."""
    overrides, defaults = package.content_types()
    typed, by_extension = {}, {}
    for name in parts:
        if name.lower() in overrides:
            typed[name] = overrides[name.lower()]
        elif not name.endswith(".rels") and (ext := posixpath.splitext(name)[1][1:].lower()) in defaults:
            by_extension[name] = defaults[ext]
    return typed, by_extension


def put(parts: Mapping[str, bytes], overrides: Mapping[str, str], defaults: Mapping[str, str], names: dict[str, str],
        taken: set[str], out: dict[str, bytes], types: bytes) -> bytes:
    """Put ``parts`` (and their relationship parts) into ``out``, each under its own name unless that is
    taken (then the same folder and stem with a free number: ``names`` maps each old name to its new one),
    their relationships re-targeted; the content types ``types`` completed, returned."""
    owners = [p for p in parts if not p.endswith(".rels")]
    for part in owners:
        if part not in names:
            names[part] = free_name(part, taken)
            taken |= {names[part].lower(), rels_name(names[part]).lower()}
    for part in owners:
        new = names[part]
        if new in out:
            continue  # shared with parts placed before
        out[new] = parts[part]
        rels = next((r for r in parts if r.lower() == rels_name(part).lower()), None)
        if rels is not None:
            def change(target: str, external: bool, source: str = part, new_source: str = new) -> str | None:
                if external or not target or target.startswith("#"):
                    return None
                referred = next((n for n in names if n.lower() == resolve(source, target).lower()), None)
                if referred is None or (names[referred] == referred and new_source == source):
                    return None
                if target.startswith("/"):
                    return "/" + names[referred]
                return relative(new_source, names[referred])

            out[rels_name(new)] = retarget(parts[rels], change)
        types = add_type(types, new, overrides.get(part), defaults.get(part))
    return types


def place(drawings: Mapping[str, SheetDrawing], written: Iterable[str], held: Mapping[str, bytes]) -> dict[str, bytes]:
    """Put ``drawings`` into a package being written: ``written`` names the parts
    already in it; ``held`` holds the parts still to write, among them the
    package's own relationships, the workbook and its relationships, every
    worksheet with its relationships and [Content_Types].xml.  Returns every part
    still to write: the held ones (a worksheet that gets a drawing with its
    ``<drawing r:id>`` and relationship, the content types completed) and the
    drawings' parts, each under its own name unless that is taken (then the
    same folder and stem with a free number), their relationships re-targeted.

    Worksheets are matched by name; a drawing of a sheet the package does not
    have is left out; a worksheet that already has a drawing is an error."""
    out = dict(held)
    package = Package(out)
    sheets = package.sheets()
    taken = {n.lower() for n in written} | {n.lower() for n in out}
    names: dict[str, str] = {}  # source part -> new part (a part two drawings share is written once)
    types = out.get(CONTENT_TYPES)
    if types is None:
        raise ValueError("the package being written has no [Content_Types].xml to complete")
    for sheet in sheets:
        if sheet not in drawings:
            continue
        carried = drawings[sheet]
        types = put(carried.parts, carried.overrides, carried.defaults, names, taken, out, types)
        sheet_part = sheets[sheet]
        sheet_xml = out.get(sheet_part)
        if sheet_xml is None:
            raise ValueError(f"worksheet {sheet!r} ({sheet_part}) is not among the parts still to write")
        sheet_rels = rels_name(sheet_part)
        new_rels, rid = add_relationship(out.get(sheet_rels), REL_DRAWING, relative(sheet_part, names[carried.drawing]))
        try:
            out[sheet_part] = insert_drawing(sheet_xml, rid)
        except ValueError as error:
            raise ValueError(f"worksheet {sheet!r}: {error}; its drawing cannot be put back") from None
        out[sheet_rels] = new_rels
    types, _ = add_default(types, "rels", CT_RELS)
    out[CONTENT_TYPES] = types
    return out

