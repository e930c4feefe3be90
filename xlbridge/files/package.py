"""The parts of an .xlsx package, read and edited without touching any other byte.

An .xlsx is a zip of parts (OPC): XML parts, their relationship parts
(``_rels/NAME.rels``) and ``[Content_Types].xml``.  openpyxl rewrites the whole
package when it saves; the layers that must keep what openpyxl does not know
(:mod:`xlbridge.files.kept_parts`, :mod:`xlbridge.files.drawings`) and the button
writer (:mod:`xlbridge.excel.button`) use these small tools instead: read a
package (:class:`Package`), add a relationship, a drawing reference, a content
type, re-target relationships, and rewrite a zip atomically with some parts
replaced (:func:`rewrite`).
"""

from __future__ import annotations

import os
import posixpath
import re
import xml.etree.ElementTree as ET
from xml.parsers import expat
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote
from xml.sax.saxutils import escape, unescape

from xlbridge.files.atomic import Keep, write_atomically

NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
NS_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
NS_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
NS_TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
NS_XDR = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
NS_A = "http://schemas.openxmlformats.org/drawingml/2006/main"

REL_OFFICE_DOCUMENT = f"{NS_R}/officeDocument"
REL_WORKSHEET = f"{NS_R}/worksheet"
REL_DRAWING = f"{NS_R}/drawing"
REL_HYPERLINK = f"{NS_R}/hyperlink"
REL_STYLES = f"{NS_R}/styles"
CT_DRAWING = "application/vnd.openxmlformats-officedocument.drawing+xml"
CT_RELS = "application/vnd.openxmlformats-package.relationships+xml"

ROOT_RELS = "_rels/.rels"
CONTENT_TYPES = "[Content_Types].xml"
XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
#: the zip time of the parts this module adds: the bytes depend on the inputs only
FIXED_TIME = (1980, 1, 1, 0, 0, 0)

#: CT_Worksheet children that come after <drawing> (mc:AlternateContent wraps oleObjects/controls)
AFTER_DRAWING = frozenset({"legacyDrawing", "legacyDrawingHF", "drawingHF", "picture", "oleObjects", "controls",
                           "webPublishItems", "tableParts", "extLst", "AlternateContent"})


# ------------------------------------------------------------------ package paths and relationships

def rels_name(part: str) -> str:
    """The relationships part of ``part`` (``""``: the package's own)."""
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def resolve(source: str, target: str) -> str:
    """The part name ``target`` (a relationship's Target) points to from ``source``."""
    target = unquote(target.split("#", 1)[0])
    if target.startswith("/"):
        return posixpath.normpath(target[1:])
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), target))


def relative(source: str, part: str) -> str:
    """A relative Target from ``source`` to ``part``."""
    return posixpath.relpath(part, posixpath.dirname(source) or ".")


@dataclass(frozen=True)
class Rel:
    id: str
    type: str
    target: str
    external: bool


def parse_rels(xml: bytes | None) -> list[Rel]:
    if not xml:
        return []
    root = ET.fromstring(xml)
    return [Rel(r.get("Id", ""), r.get("Type", ""), r.get("Target", ""), r.get("TargetMode") == "External")
            for r in root.iter(f"{{{NS_RELS}}}Relationship")]


def is_internal_part(rel: Rel) -> bool:
    """Does ``rel`` point to a part of the package (not a URL, not a place in the document)?"""
    return not rel.external and bool(rel.target) and not rel.target.startswith("#")


class Package:
    """Read access to the parts of a package (a zip, or a mapping of name -> bytes);
    part names are case-insensitive (OPC), zip names are not."""

    def __init__(self, parts: Mapping[str, bytes] | zipfile.ZipFile):
        self._parts = parts
        names = parts.namelist() if isinstance(parts, zipfile.ZipFile) else list(parts)
        self.names = [n for n in names if not n.endswith("/")]
        self._lower = {n.lower(): n for n in self.names}

    def find(self, name: str) -> str | None:
        return self._lower.get(name.lower())

    def __contains__(self, name: str) -> bool:
        return self.find(name) is not None

    def read(self, name: str) -> bytes | None:
        real = self.find(name)
        if real is None:
            return None
        return self._parts.read(real) if isinstance(self._parts, zipfile.ZipFile) else self._parts[real]

    def rels(self, part: str) -> list[Rel]:
        return parse_rels(self.read(rels_name(part)))

    def workbook(self) -> str:
        for rel in self.rels(""):
            if rel.type == REL_OFFICE_DOCUMENT and is_internal_part(rel):
                return resolve("", rel.target)
        return "xl/workbook.xml"

    def sheets(self) -> dict[str, str]:
        """Worksheet name -> its part, as xl/workbook.xml and its rels say (in order)."""
        book = self.workbook()
        data = self.read(book)
        if data is None:
            raise ValueError(f"the package has no workbook part {book}")
        targets = {r.id: resolve(book, r.target) for r in self.rels(book) if r.type == REL_WORKSHEET}
        found = {}
        for sheet in ET.fromstring(data).iter(f"{{{NS_MAIN}}}sheet"):
            part = targets.get(sheet.get(f"{{{NS_R}}}id", ""))
            if part is not None:
                found[sheet.get("name", "")] = self.find(part) or part
        return found

    def workbook_level(self) -> set[str]:
        """The workbook part and every part it or the package refers to directly
        (sheets, styles, theme, ...): never carried as part of a drawing."""
        book = self.workbook()
        parts = {book.lower()}
        parts |= {resolve("", r.target).lower() for r in self.rels("") if is_internal_part(r)}
        parts |= {resolve(book, r.target).lower() for r in self.rels(book) if is_internal_part(r)}
        return parts

    def drawing_of(self, sheet_part: str) -> str | None:
        """The drawing part of a worksheet (its ``<drawing r:id>``), or None."""
        rels = {r.id: r for r in self.rels(sheet_part) if r.type == REL_DRAWING and is_internal_part(r)}
        data = self.read(sheet_part) if rels else None  # no drawing relationship: no need to read the sheet
        if data is None:
            return None
        element = ET.fromstring(data).find(f"{{{NS_MAIN}}}drawing")
        rel = rels.get(element.get(f"{{{NS_R}}}id", "")) if element is not None else None
        if rel is None:
            return None
        return self.find(resolve(sheet_part, rel.target)) or resolve(sheet_part, rel.target)

    def content_types(self) -> tuple[dict[str, str], dict[str, str]]:
        """(Override: lower-case part name -> type, Default: lower-case extension -> type)."""
        data = self.read(CONTENT_TYPES)
        overrides, defaults = {}, {}
        if data:
            root = ET.fromstring(data)
            for item in root.iter(f"{{{NS_TYPES}}}Override"):
                overrides[item.get("PartName", "").lstrip("/").lower()] = item.get("ContentType", "")
            for item in root.iter(f"{{{NS_TYPES}}}Default"):
                defaults[item.get("Extension", "").lower()] = item.get("ContentType", "")
        return overrides, defaults


# ------------------------------------------------------------------ XML edits that keep every other byte

@dataclass
class Outline:
    root: str  # qualified name of the root element
    root_start: int
    root_end: int  # where the root's end tag starts (or where a self-closed root ends)
    self_closed: bool
    namespaces: dict[str, str]  # prefix ("" = default) -> URI, declared on the root
    children: list[tuple[str, int, dict[str, str]]] = field(default_factory=list)  # (qname, start, attributes)


def parse_outline(xml: bytes) -> Outline:
    """The root element and its children, with byte positions (expat)."""
    parser = expat.ParserCreate()
    depth = 0
    found: dict = {}
    children: list = []

    def start(name, attributes):
        nonlocal depth
        if depth == 0:
            found.update(root=name, start=parser.CurrentByteIndex, attributes=attributes)
        elif depth == 1:
            children.append((name, parser.CurrentByteIndex, attributes))
        depth += 1

    def end(name):
        nonlocal depth
        depth -= 1
        if depth == 0:
            found["end"] = parser.CurrentByteIndex

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.Parse(xml, True)
    namespaces = {}
    for key, value in found["attributes"].items():
        if key == "xmlns":
            namespaces[""] = value
        elif key.startswith("xmlns:"):
            namespaces[key[6:]] = value
    self_closed = xml[found["end"]:found["end"] + 2] != b"</"
    return Outline(found["root"], found["start"], found["end"], self_closed, namespaces, children)


def local_name(qname: str) -> str:
    return qname.rsplit(":", 1)[-1]


def prefix_of(qname: str) -> str:
    return qname.split(":", 1)[0] + ":" if ":" in qname else ""


def append_to_root(xml: bytes, outline: Outline, text: str, *, before: int | None = None) -> bytes:
    """Insert ``text`` into the root element at ``before`` (default: as its last child)."""
    data = text.encode("utf-8")
    if before is not None:
        return xml[:before] + data + xml[before:]
    if not outline.self_closed:
        return xml[:outline.root_end] + data + xml[outline.root_end:]
    # <Root .../>: open it up
    close = xml.rindex(b"/>", outline.root_start, outline.root_end)
    return xml[:close] + b">" + data + f"</{outline.root}>".encode() + xml[outline.root_end:]


def prefix_for(outline: Outline, uri: str, wanted: str) -> tuple[str, str]:
    """(prefix with colon, declaration to add) for ``uri`` inside the root element."""
    for prefix, bound in outline.namespaces.items():
        if bound == uri:
            return (prefix + ":" if prefix else ""), ""
    return wanted + ":", f' xmlns:{wanted}="{uri}"'


def xml_attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def add_relationship(xml: bytes | None, rel_type: str, target: str) -> tuple[bytes, str]:
    """A relationships part with one more (internal) relationship; creates the part
    when ``xml`` is None.  Returns (the part, the new relationship's Id)."""
    if xml is None:
        xml = f'{XML_DECLARATION}<Relationships xmlns="{NS_RELS}"></Relationships>'.encode()
    used = {r.id for r in parse_rels(xml)}
    number = max((int(m) for m in re.findall(r"rId(\d+)", " ".join(used))), default=0) + 1
    while f"rId{number}" in used:
        number += 1
    rid = f"rId{number}"
    outline = parse_outline(xml)
    prefix = prefix_of(outline.root)
    element = f'<{prefix}Relationship Id="{rid}" Type="{xml_attr(rel_type)}" Target="{xml_attr(target)}"/>'
    return append_to_root(xml, outline, element), rid


def insert_drawing(sheet_xml: bytes, rid: str) -> bytes:
    """The worksheet with ``<drawing r:id="rid"/>`` at its place in CT_Worksheet."""
    outline = parse_outline(sheet_xml)
    if local_name(outline.root) != "worksheet":
        raise ValueError(f"not a worksheet: <{outline.root}>")
    if any(local_name(name) == "drawing" for name, _, _ in outline.children):
        raise ValueError("the worksheet already has a drawing")
    r, declare = prefix_for(outline, NS_R, "r")
    element = f'<{prefix_of(outline.root)}drawing{declare} {r}id="{rid}"/>'
    before = next((start for name, start, _ in outline.children if local_name(name) in AFTER_DRAWING), None)
    return append_to_root(sheet_xml, outline, element, before=before)


def add_override(types_xml: bytes, part: str, content_type: str) -> bytes:
    """[Content_Types].xml with an Override for ``part`` (unchanged if it has one)."""
    overrides = {item.get("PartName", "").lstrip("/").lower()
                 for item in ET.fromstring(types_xml).iter(f"{{{NS_TYPES}}}Override")}
    if part.lower() in overrides:
        return types_xml
    outline = parse_outline(types_xml)
    element = f'<{prefix_of(outline.root)}Override PartName="/{xml_attr(part)}" ContentType="{xml_attr(content_type)}"/>'
    return append_to_root(types_xml, outline, element)


def add_default(types_xml: bytes, extension: str, content_type: str) -> tuple[bytes, bool]:
    """[Content_Types].xml with a Default for ``extension``; False when it has
    one for another content type (then the part needs an Override)."""
    for item in ET.fromstring(types_xml).iter(f"{{{NS_TYPES}}}Default"):
        if item.get("Extension", "").lower() == extension.lower():
            return types_xml, item.get("ContentType") == content_type
    outline = parse_outline(types_xml)
    element = f'<{prefix_of(outline.root)}Default Extension="{xml_attr(extension)}" ContentType="{xml_attr(content_type)}"/>'
    return append_to_root(types_xml, outline, element), True


def add_type(types_xml: bytes, part: str, override: str | None, default: str | None) -> bytes:
    """[Content_Types].xml typing ``part`` by its ``override``, or by its extension's ``default``
    (an Override where the package's Default for that extension is another type)."""
    if override is not None:
        return add_override(types_xml, part, override)
    if default is not None:
        types_xml, fits = add_default(types_xml, posixpath.splitext(part)[1][1:], default)
        if not fits:
            return add_override(types_xml, part, default)
    return types_xml


RELATIONSHIP = re.compile(rb"<(?:[\w.-]+:)?Relationship\b(?:[^>\"']|\"[^\"]*\"|'[^']*')*>")
_ATTRIBUTE = re.compile(rb"([\w:.-]+)\s*=\s*(\"[^\"]*\"|'[^']*')")


def retarget(rels_xml: bytes, change: Callable[[str, bool], str | None]) -> bytes:
    """The relationships part with Targets changed: ``change(target, external)``
    gives the new Target or None to keep it.  Every other byte stays."""

    def one(match: re.Match) -> bytes:
        element = match.group(0)
        attributes = {m.group(1).decode(): m for m in _ATTRIBUTE.finditer(element)}
        target = attributes.get("Target")
        if target is None:
            return element
        mode = attributes.get("TargetMode")
        external = mode is not None and unescape(mode.group(2)[1:-1].decode(), {"&quot;": '"'}) == "External"
        new = change(unescape(target.group(2)[1:-1].decode(), {"&quot;": '"'}), external)
        if new is None:
            return element
        start, end = target.span(2)
        return element[:start] + f'"{xml_attr(new)}"'.encode() + element[end:]

    return RELATIONSHIP.sub(one, rels_xml)


# ------------------------------------------------------------------ writing a package

def rewrite(path: str | os.PathLike[str], replace: Mapping[str, bytes]) -> None:
    """Rewrite the zip at ``path`` with some parts replaced or added, atomically
    (:func:`xlbridge.files.atomic.write_atomically`: a temporary file in the same
    folder, synced, then ``os.replace``; the file keeps its mode).  A replaced part
    keeps its zip entry's time; an added one gets :data:`FIXED_TIME`: the result
    depends on the inputs only."""
    target = Path(path)

    def write(temp: Path) -> None:
        with zipfile.ZipFile(target) as src, zipfile.ZipFile(temp, "w", zipfile.ZIP_DEFLATED) as dst:
            old = {}
            for item in src.infolist():
                if item.filename in replace:
                    old[item.filename] = item
                    continue
                dst.writestr(item, src.read(item.filename))
            for name, data in replace.items():
                info = zipfile.ZipInfo(name, old[name].date_time if name in old else FIXED_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = old[name].external_attr if name in old else 0o600 << 16
                dst.writestr(info, data)

    write_atomically(target, write, Keep.of(os.stat(target)))


def free_name(name: str, taken: set[str]) -> str:
    """``name`` if free, else the same folder and stem with the smallest free number
    (``xl/charts/chart3.xml`` -> ``xl/charts/chart4.xml``); its rels part free too."""

    def free(candidate: str) -> bool:
        return candidate.lower() not in taken and rels_name(candidate).lower() not in taken

    if free(name):
        return name
    folder, base = posixpath.split(name)
    stem, dot, ext = base.partition(".")
    stem = stem.rstrip("0123456789") or stem
    number = 1
    while not free(candidate := posixpath.join(folder, f"{stem}{number}{dot}{ext}")):
        number += 1
    return candidate
