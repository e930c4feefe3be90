"""Sheets that are not worksheets, carried through a headless run untouched (issue 25, point 8).

A chart sheet (Excel's *Move Chart*, *New sheet*: ``Chart1``), a dialog sheet or an Excel 4 macro
sheet is a sheet of the workbook that holds no cells.  openpyxl reads a chart sheet into a chart
of its own (lossy: it writes it again without what it does not model) and fails on an empty one;
xlbridge reads and writes none of them.  So, before openpyxl reads the file, :func:`set_aside`
points each such sheet's relationship at an empty worksheet of the same name (at the same place
among the sheets, so that every sheet keeps its number: print areas and the active sheet refer to
sheets by number), marked with the code name :data:`SET_ASIDE`, which the headless adapter leaves
out of the sheets it reads (``OpenpyxlBook.other_sheets``); and when the workbook is saved,
:func:`restore` puts the sheet back, with every part it refers to (its drawing, the chart, the
chart's style and colours), byte for byte, in place of that empty worksheet
(:mod:`xlbridge.files.kept_parts` does it in the same pass as the drawings).
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from xml.etree import ElementTree as ET

from xlbridge.files.drawings import put, reached, types_of
from xlbridge.files.package import (CONTENT_TYPES, NS_MAIN, NS_R, REL_WORKSHEET, RELATIONSHIP, Package,
                                    add_override, free_name, is_internal_part, relative, rels_name, resolve, xml_attr)
from xlbridge.workbooks.openpyxl_book import SET_ASIDE

CT_WORKSHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
#: The empty worksheet openpyxl reads in the place of a sheet that is not one.
PLACEHOLDER = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="{NS_MAIN}">'
               f'<sheetPr codeName="{SET_ASIDE}"/><sheetData/></worksheet>').encode()


@dataclass(frozen=True)
class OtherSheet:
    """A sheet that is not a worksheet, as read from a package: its relationship (type, Id) and
    ``parts``: its own part first, then every part it refers to, with their relationship parts."""

    name: str
    rid: str
    type: str
    part: str
    parts: dict[str, bytes]
    overrides: dict[str, str]
    defaults: dict[str, str]


def other_sheets(package: Package) -> dict[str, OtherSheet]:
    """Every sheet of ``package`` that is not a worksheet, by name (in the workbook's order)."""
    book = package.workbook()
    data = package.read(book)
    if data is None:
        return {}
    rels = {r.id: r for r in package.rels(book) if is_internal_part(r)}
    skip = package.workbook_level()
    found = {}
    for sheet in ET.fromstring(data).iter(f"{{{NS_MAIN}}}sheet"):
        rel = rels.get(sheet.get(f"{{{NS_R}}}id", ""))
        part = package.find(resolve(book, rel.target)) if rel is not None and rel.type != REL_WORKSHEET else None
        if part is None:
            continue
        parts = reached(package, [part], skip)
        found[sheet.get("name", "")] = OtherSheet(sheet.get("name", ""), rel.id, rel.type, part, parts,
                                                  *types_of(package, parts))
    return found


def _with(element: bytes, **attributes: str) -> bytes:
    """A Relationship element with ``attributes`` (Type, Target) set to new values."""
    for name, value in attributes.items():
        element = re.sub(rb'\s' + name.encode() + rb'\s*=\s*("[^"]*"|\'[^\']*\')',
                         f' {name}="{xml_attr(value)}"'.encode(), element, count=1)
    return element


def _relink(rels_xml: bytes, links: dict[str, dict[str, str]]) -> bytes:
    """The relationships part with the relationships whose Id is in ``links`` given new attributes."""

    def one(match: re.Match) -> bytes:
        element = match.group(0)
        rid = re.search(rb'\sId\s*=\s*("([^"]*)"|\'([^\']*)\')', element)
        key = (rid.group(2) or rid.group(3) or b"").decode() if rid else ""
        return _with(element, **links[key]) if key in links else element

    return RELATIONSHIP.sub(one, rels_xml)


def _without_override(types_xml: bytes, part: str) -> bytes:
    return re.sub(rb'<(?:[\w.-]+:)?Override\b[^>]*PartName\s*=\s*["\']/' + re.escape(part.encode()) + rb'["\'][^>]*/>',
                  b"", types_xml, flags=re.IGNORECASE)


def set_aside(data: bytes) -> bytes:
    """The workbook ``data`` with every sheet that is not a worksheet replaced by an empty worksheet
    of the same name (:data:`PLACEHOLDER`), for openpyxl to read; ``data`` itself when there is none."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        package = Package(archive)
        others = other_sheets(package)
        if not others:
            return data
        book = package.workbook()
        taken = {n.lower() for n in package.names}
        links, added = {}, {}
        for other in others.values():
            name = free_name("xl/worksheets/set-aside1.xml", taken)
            taken.add(name.lower())
            added[name] = PLACEHOLDER
            links[other.rid] = {"Type": REL_WORKSHEET, "Target": "/" + name}
        rels = package.find(rels_name(book))
        added[rels] = _relink(package.read(rels), links)
        types = package.read(CONTENT_TYPES)
        for name in added:
            if name != rels:
                types = add_override(types, name, CT_WORKSHEET)
        added[package.find(CONTENT_TYPES)] = types
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
            for item in archive.infolist():
                if item.filename not in added:
                    target.writestr(item, archive.read(item))
            for name, content in added.items():
                target.writestr(name, content)
    return out.getvalue()


def restore(others: dict[str, OtherSheet], written: list[str], out: dict[str, bytes]) -> dict[str, bytes]:
    """The parts still to write (``out``: among them the workbook, its relationships, the worksheets and
    the content types) with each sheet of ``others`` back in the place of the empty worksheet of its name
    openpyxl wrote, with all its parts; ``written``: the parts already written."""
    package = Package(out)
    book = package.workbook()
    rels = package.find(rels_name(book))
    targets = {r.id: resolve(book, r.target) for r in package.rels(book)}
    taken = {n.lower() for n in written} | {n.lower() for n in out}
    names: dict[str, str] = {}
    types = out[CONTENT_TYPES]
    links = {}
    for sheet in ET.fromstring(out[book]).iter(f"{{{NS_MAIN}}}sheet"):
        other = others.get(sheet.get("name", ""))
        rid = sheet.get(f"{{{NS_R}}}id", "")
        placeholder = package.find(targets.get(rid, ""))
        if other is None or placeholder is None:
            continue
        for gone in (placeholder, rels_name(placeholder)):
            out.pop(package.find(gone) or gone, None)
        types = _without_override(types, placeholder)
        types = put(other.parts, other.overrides, other.defaults, names, taken, out, types)
        links[rid] = {"Type": other.type, "Target": relative(book, names[other.part])}
    if links and rels is not None:
        out[rels] = _relink(out[rels], links)
    out[CONTENT_TYPES] = types
    return out
