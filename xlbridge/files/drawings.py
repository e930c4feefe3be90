"""Sheet drawings: the "Recalculate season" button shape, and keeping every
sheet's drawing byte for byte when openpyxl saves a workbook.

What a button is (xlwings Lite, "Running a script via sheet button",
https://lite.xlwings.org/custom_scripts): a shape with a name, linked by a
hyperlink "Place in This Document" to a cell hidden behind it; the script is
decorated ``@script(button="[name]Sheet!B2")`` and runs when that cell gets
selected.  openpyxl cannot write shapes, so :func:`add_button` writes the
DrawingML itself.  What the parts look like, and where that was found:

- The shape carries the link in its non-visual properties,
  ``<xdr:cNvPr id=".." name=".."><a:hlinkClick r:id="rIdN"/></xdr:cNvPr>``
  (ECMA-376 CT_NonVisualDrawingProps: hlinkClick, hlinkHover, extLst), the
  relationships namespace declared on it, as EPPlus' ``ExcelPicture`` writes it.
- The drawing's relationship for an in-document link has Type
  ``.../officeDocument/2006/relationships/hyperlink``, Target ``#`` + the
  reference, and **no** ``TargetMode`` (internal, the OPC default):
  PhpSpreadsheet writes ``Target="#sheet2!C3"`` for a drawing linked to another
  sheet (tests/PhpSpreadsheetTests/Writer/Xlsx/Issue993Test.php, PR #4764: the
  ``sheet://`` form of its cell links gave Excel a damaged file there, issue
  #993); LibreOffice's exporter treats a URL starting with ``#`` as not
  external (oox/source/export/drawingml.cxx ``URLTransformer::isExternalURL``),
  and its ``testTdf115192XLSX`` (sc/qa/unit/subsequent_export_test2.cxx)
  re-saves an .xlsx whose drawing has links and expects one relationship
  without TargetMode beside two External ones.  (No drawing written by Excel
  itself with such a link was found to compare byte for byte.)
- The sheet name is quoted as in a formula reference, ``'`` doubled inside:
  ``#'Season'!B2``, ``#'Club''s season'!B2``.  Quotes are optional for a plain
  name (PhpSpreadsheet's unquoted ``#sheet2!C3``; exceljs PR #1137 documents
  the quoted ``#'Sheet2'!A1`` for a plain name) and needed for a name with
  spaces (fast-excel-writer issue #108: ``#'Sheet 1'!C7``; the VBA idiom
  ``Hyperlinks.Add ... SubAddress:="'" & name & "'!A1"``), so they are always
  written.
- ``<drawing r:id>`` comes in CT_Worksheet after pageSetup, headerFooter,
  rowBreaks, colBreaks, customProperties, cellWatches, ignoredErrors,
  smartTags and before legacyDrawing, legacyDrawingHF, drawingHF, picture,
  oleObjects, controls, webPublishItems, tableParts, extLst (ECMA-376 part 1,
  sml.xsd); the drawing part has content type
  ``application/vnd.openxmlformats-officedocument.drawing+xml``.

openpyxl, on load and save, drops drawings it did not create (shapes) and
re-writes, lossy, the charts and images it half understands.
:func:`sheet_drawings` reads every worksheet's drawing with everything it refers
to (charts, their style and colour parts, images, ...) and :func:`place` puts
them into the package openpyxl wrote, re-linked to the sheets of the same name
(:mod:`xlbridge.files.parts` does it in the same pass as the xlwings Lite parts).
"""

from __future__ import annotations

import os
import posixpath
import re
import tempfile
import xml.etree.ElementTree as ET
from xml.parsers import expat
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote
from xml.sax.saxutils import escape, unescape

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
class _Outline:
    root: str  # qualified name of the root element
    root_start: int
    root_end: int  # where the root's end tag starts (or where a self-closed root ends)
    self_closed: bool
    namespaces: dict[str, str]  # prefix ("" = default) -> URI, declared on the root
    children: list[tuple[str, int, dict[str, str]]] = field(default_factory=list)  # (qname, start, attributes)


def _outline(xml: bytes) -> _Outline:
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
    return _Outline(found["root"], found["start"], found["end"], self_closed, namespaces, children)


def _local(qname: str) -> str:
    return qname.rsplit(":", 1)[-1]


def _prefix_of(qname: str) -> str:
    return qname.split(":", 1)[0] + ":" if ":" in qname else ""


def _append_to_root(xml: bytes, outline: _Outline, text: str, *, before: int | None = None) -> bytes:
    """Insert ``text`` into the root element at ``before`` (default: as its last child)."""
    data = text.encode("utf-8")
    if before is not None:
        return xml[:before] + data + xml[before:]
    if not outline.self_closed:
        return xml[:outline.root_end] + data + xml[outline.root_end:]
    # <Root .../>: open it up
    close = xml.rindex(b"/>", outline.root_start, outline.root_end)
    return xml[:close] + b">" + data + f"</{outline.root}>".encode() + xml[outline.root_end:]


def _prefix_for(outline: _Outline, uri: str, wanted: str) -> tuple[str, str]:
    """(prefix with colon, declaration to add) for ``uri`` inside the root element."""
    for prefix, bound in outline.namespaces.items():
        if bound == uri:
            return (prefix + ":" if prefix else ""), ""
    return wanted + ":", f' xmlns:{wanted}="{uri}"'


def _attr(value: str) -> str:
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
    outline = _outline(xml)
    prefix = _prefix_of(outline.root)
    element = f'<{prefix}Relationship Id="{rid}" Type="{_attr(rel_type)}" Target="{_attr(target)}"/>'
    return _append_to_root(xml, outline, element), rid


def insert_drawing(sheet_xml: bytes, rid: str) -> bytes:
    """The worksheet with ``<drawing r:id="rid"/>`` at its place in CT_Worksheet."""
    outline = _outline(sheet_xml)
    if _local(outline.root) != "worksheet":
        raise ValueError(f"not a worksheet: <{outline.root}>")
    if any(_local(name) == "drawing" for name, _, _ in outline.children):
        raise ValueError("the worksheet already has a drawing")
    r, declare = _prefix_for(outline, NS_R, "r")
    element = f'<{_prefix_of(outline.root)}drawing{declare} {r}id="{rid}"/>'
    before = next((start for name, start, _ in outline.children if _local(name) in AFTER_DRAWING), None)
    return _append_to_root(sheet_xml, outline, element, before=before)


def add_override(types_xml: bytes, part: str, content_type: str) -> bytes:
    """[Content_Types].xml with an Override for ``part`` (unchanged if it has one)."""
    overrides = {item.get("PartName", "").lstrip("/").lower()
                 for item in ET.fromstring(types_xml).iter(f"{{{NS_TYPES}}}Override")}
    if part.lower() in overrides:
        return types_xml
    outline = _outline(types_xml)
    element = f'<{_prefix_of(outline.root)}Override PartName="/{_attr(part)}" ContentType="{_attr(content_type)}"/>'
    return _append_to_root(types_xml, outline, element)


def add_default(types_xml: bytes, extension: str, content_type: str) -> tuple[bytes, bool]:
    """[Content_Types].xml with a Default for ``extension``; False when it has
    one for another content type (then the part needs an Override)."""
    for item in ET.fromstring(types_xml).iter(f"{{{NS_TYPES}}}Default"):
        if item.get("Extension", "").lower() == extension.lower():
            return types_xml, item.get("ContentType") == content_type
    outline = _outline(types_xml)
    element = f'<{_prefix_of(outline.root)}Default Extension="{_attr(extension)}" ContentType="{_attr(content_type)}"/>'
    return _append_to_root(types_xml, outline, element), True


_RELATIONSHIP = re.compile(rb"<(?:[\w.-]+:)?Relationship\b(?:[^>\"']|\"[^\"]*\"|'[^']*')*>")
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
        return element[:start] + f'"{_attr(new)}"'.encode() + element[end:]

    return _RELATIONSHIP.sub(one, rels_xml)


# ------------------------------------------------------------------ writing a package

def rewrite(path: str | os.PathLike[str], replace: Mapping[str, bytes]) -> None:
    """Rewrite the zip at ``path`` with some parts replaced or added, atomically
    (a temporary file in the same folder, then ``os.replace``).  A replaced part
    keeps its zip entry's time; an added one gets :data:`FIXED_TIME`: the result
    depends on the inputs only."""
    target = Path(path)
    handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(handle)
    temp = Path(temp_name)
    try:
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
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _free_name(name: str, taken: set[str]) -> str:
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


# ------------------------------------------------------------------ the button

def _quote_sheet(sheet: str) -> str:
    return "'" + sheet.replace("'", "''") + "'"


def _cell(cell: str) -> tuple[int, int]:
    """(column, row), both from 0, of a reference such as ``B2`` or ``$B$2``."""
    from openpyxl.utils.cell import column_index_from_string

    match = re.fullmatch(r"\$?([A-Za-z]{1,3})\$?([1-9][0-9]{0,6})", cell.strip())
    if not match:
        raise ValueError(f"{cell!r} is not a cell reference such as B2")
    column = column_index_from_string(match.group(1).upper())
    row = int(match.group(2))
    if column > 16384 or row > 1048576:
        raise ValueError(f"{cell!r} lies outside a worksheet")
    return column - 1, row - 1


def _colour(value: str, what: str) -> str:
    text = value.strip().lstrip("#").upper()
    if re.fullmatch(r"[0-9A-F]{8}", text):
        text = text[2:]  # ARGB as openpyxl writes it
    if not re.fullmatch(r"[0-9A-F]{6}", text):
        raise ValueError(f"{what} {value!r} is not an RGB colour such as 1F4E78")
    return text


def _button_anchor(*, shape_id: int, name: str, label: str, rid: str, col: int, row: int, cols: int, rows: int,
                   fill: str, font: str, xdr: str, a: str, declare: str) -> str:
    paragraphs = "".join(
        f'<{a}p><{a}pPr algn="ctr"/><{a}r><{a}rPr lang="en-US" sz="1100" b="1">'
        f'<{a}solidFill><{a}srgbClr val="{font}"/></{a}solidFill>'
        f'<{a}latin typeface="+mn-lt"/><{a}cs typeface="+mn-cs"/></{a}rPr>'
        f'<{a}t>{escape(line)}</{a}t></{a}r></{a}p>'
        for line in label.split("\n"))
    return (
        f'<{xdr}twoCellAnchor{declare}>'
        f'<{xdr}from><{xdr}col>{col}</{xdr}col><{xdr}colOff>0</{xdr}colOff>'
        f'<{xdr}row>{row}</{xdr}row><{xdr}rowOff>0</{xdr}rowOff></{xdr}from>'
        f'<{xdr}to><{xdr}col>{col + cols}</{xdr}col><{xdr}colOff>0</{xdr}colOff>'
        f'<{xdr}row>{row + rows}</{xdr}row><{xdr}rowOff>0</{xdr}rowOff></{xdr}to>'
        f'<{xdr}sp macro="" textlink="">'
        f'<{xdr}nvSpPr><{xdr}cNvPr id="{shape_id}" name="{_attr(name)}" descr="{_attr(label)}">'
        f'<{a}hlinkClick xmlns:r="{NS_R}" r:id="{rid}" tooltip="{_attr(label)}"/></{xdr}cNvPr>'
        f'<{xdr}cNvSpPr/></{xdr}nvSpPr>'
        f'<{xdr}spPr><{a}prstGeom prst="roundRect"><{a}avLst/></{a}prstGeom>'
        f'<{a}solidFill><{a}srgbClr val="{fill}"/></{a}solidFill><{a}ln><{a}noFill/></{a}ln></{xdr}spPr>'
        f'<{xdr}txBody><{a}bodyPr vertOverflow="clip" horzOverflow="clip" wrap="square" rtlCol="0" anchor="ctr"/>'
        f'<{a}lstStyle/>{paragraphs}</{xdr}txBody>'
        f'</{xdr}sp><{xdr}clientData/></{xdr}twoCellAnchor>'
    )


def add_button(path: str | os.PathLike[str], sheet: str, *, name: str, label: str, cell: str, cols: int = 2,
               rows: int = 2, fill: str = "1F4E78", font: str = "FFFFFF") -> None:
    """Put a button on worksheet ``sheet`` of the .xlsx at ``path`` (rewritten atomically):
    a rounded rectangle named ``name`` showing ``label`` (bold, centred, ``font`` on
    ``fill``), over ``cols`` x ``rows`` cells from ``cell``, with a hyperlink to
    ``cell`` -- xlwings Lite's sheet button for ``@script(button="[name]sheet!cell")``.

    The shape goes into the sheet's drawing (a new one when it has none).  The
    bytes written depend on the file and the arguments only."""
    target = Path(path)
    if not name.strip() or not label.strip():
        raise ValueError("a button needs a name and a label")
    if cols < 1 or rows < 1:
        raise ValueError(f"a button spans at least one cell; got {cols} x {rows}")
    col, row = _cell(cell)
    fill, font = _colour(fill, "fill"), _colour(font, "font")
    link = f"#{_quote_sheet(sheet)}!{cell.replace('$', '').strip().upper()}"

    with zipfile.ZipFile(target) as archive:
        package = Package({n: archive.read(n) for n in archive.namelist() if not n.endswith("/")})
    sheets = package.sheets()
    if sheet not in sheets:
        raise ValueError(f"{target.name} has no worksheet named {sheet!r} (it has {', '.join(map(repr, sheets))})")
    sheet_part = sheets[sheet]
    replace: dict[str, bytes] = {}
    drawing = package.drawing_of(sheet_part)
    if drawing is not None and drawing in package:
        drawing_xml = package.read(drawing)
        if any(b.get("name") == name for b in _shapes(drawing_xml)):
            raise ValueError(f"sheet {sheet!r} already has a shape named {name!r}")
        shape_id = max((int(i) for i in re.findall(rb'<(?:[\w.-]+:)?cNvPr\b[^>]*?\bid="(\d+)"', drawing_xml)),
                       default=1) + 1
    else:
        taken = {n.lower() for n in package.names}
        drawing = _free_name("xl/drawings/drawing1.xml", taken)
        drawing_xml = (f'{XML_DECLARATION}<xdr:wsDr xmlns:xdr="{NS_XDR}" xmlns:a="{NS_A}"></xdr:wsDr>').encode()
        shape_id = 2
        sheet_rels, rid = add_relationship(package.read(rels_name(sheet_part)), REL_DRAWING,
                                           relative(sheet_part, drawing))
        replace[rels_name(sheet_part)] = sheet_rels
        replace[sheet_part] = insert_drawing(package.read(sheet_part), rid)
        replace[CONTENT_TYPES] = add_override(package.read(CONTENT_TYPES), drawing, CT_DRAWING)
    drawing_rels, link_rid = add_relationship(package.read(rels_name(drawing)), REL_HYPERLINK, link)
    outline = _outline(drawing_xml)
    xdr, declare_xdr = _prefix_for(outline, NS_XDR, "xdr")
    a, declare_a = _prefix_for(outline, NS_A, "a")
    anchor = _button_anchor(shape_id=shape_id, name=name, label=label, rid=link_rid, col=col, row=row, cols=cols,
                            rows=rows, fill=fill, font=font, xdr=xdr, a=a, declare=declare_xdr + declare_a)
    replace[drawing] = _append_to_root(drawing_xml, outline, anchor)
    replace[rels_name(drawing)] = drawing_rels
    rewrite(target, replace)


def _shapes(drawing_xml: bytes) -> list[dict]:
    """Every shape of a drawing: name, text, the r:id of its hlinkClick, top-left cell."""
    from openpyxl.utils.cell import get_column_letter

    root = ET.fromstring(drawing_xml)
    found = []
    for anchor in root:
        start = anchor.find(f"{{{NS_XDR}}}from")
        cell = None
        if start is not None:
            col, row = start.findtext(f"{{{NS_XDR}}}col"), start.findtext(f"{{{NS_XDR}}}row")
            if col is not None and row is not None:
                cell = f"{get_column_letter(int(col) + 1)}{int(row) + 1}"
        for shape in anchor.iter(f"{{{NS_XDR}}}sp"):
            properties = shape.find(f"{{{NS_XDR}}}nvSpPr/{{{NS_XDR}}}cNvPr")
            link = properties.find(f"{{{NS_A}}}hlinkClick") if properties is not None else None
            body = shape.find(f"{{{NS_XDR}}}txBody")
            text = "\n".join("".join(t.text or "" for t in p.iter(f"{{{NS_A}}}t"))
                             for p in body.iter(f"{{{NS_A}}}p")) if body is not None else ""
            found.append({"name": properties.get("name") if properties is not None else None, "label": text,
                          "rid": link.get(f"{{{NS_R}}}id") if link is not None else None, "cell": cell})
    return found


def buttons(path: str | os.PathLike[str]) -> list[dict]:
    """Every shape with a hyperlink on the worksheets of ``path``: ``sheet``,
    ``name``, ``label`` (its text), ``target`` (the link's Target), ``external``
    (its TargetMode) and ``cell`` (where its anchor starts), in sheet order."""
    with zipfile.ZipFile(path) as archive:
        package = Package(archive)
        found = []
        for sheet, part in package.sheets().items():
            drawing = package.drawing_of(part)
            data = package.read(drawing) if drawing else None
            if data is None:
                continue
            links = {r.id: r for r in package.rels(drawing)}
            for shape in _shapes(data):
                rel = links.get(shape["rid"]) if shape["rid"] else None
                if rel is not None and rel.type == REL_HYPERLINK:
                    found.append({"sheet": sheet, "name": shape["name"], "label": shape["label"],
                                  "target": rel.target, "external": rel.external, "cell": shape["cell"]})
    return found


# ------------------------------------------------------------------ keeping drawings through openpyxl

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


def sheet_drawings(source: str | os.PathLike[str] | Mapping[str, bytes]) -> dict[str, SheetDrawing]:
    """Every worksheet's drawing in ``source`` (a file, or a mapping of parts), by sheet name."""
    if isinstance(source, Mapping):
        return _sheet_drawings(Package(source))
    with zipfile.ZipFile(source) as archive:
        return _sheet_drawings(Package(archive))


def _sheet_drawings(package: Package) -> dict[str, SheetDrawing]:
    overrides, defaults = package.content_types()
    skip = package.workbook_level()
    found = {}
    for sheet, part in package.sheets().items():
        drawing = package.drawing_of(part)
        if drawing is None or drawing not in package:
            continue
        parts: dict[str, bytes] = {}
        queue = [drawing]
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
        typed, by_extension = {}, {}
        for name in parts:
            if name.endswith(".rels"):
                continue
            if name.lower() in overrides:
                typed[name] = overrides[name.lower()]
            elif (ext := posixpath.splitext(name)[1][1:].lower()) in defaults:
                by_extension[name] = defaults[ext]
        found[sheet] = SheetDrawing(sheet, drawing, parts, typed, by_extension)
    return found


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
        owners = [p for p in carried.parts if not p.endswith(".rels")]
        for part in owners:
            if part not in names:
                names[part] = _free_name(part, taken)
                taken |= {names[part].lower(), rels_name(names[part]).lower()}
        for part in owners:
            new = names[part]
            if new in out:
                continue  # shared with a drawing placed before
            out[new] = carried.parts[part]
            rels = next((r for r in carried.parts if r.lower() == rels_name(part).lower()), None)
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

                out[rels_name(new)] = retarget(carried.parts[rels], change)
            if part in carried.overrides:
                types = add_override(types, new, carried.overrides[part])
            elif part in carried.defaults:
                extension = posixpath.splitext(new)[1][1:]
                types, fits = add_default(types, extension, carried.defaults[part])
                if not fits:
                    types = add_override(types, new, carried.defaults[part])
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


__all__ = ["add_button", "buttons", "sheet_drawings", "place", "SheetDrawing", "Package", "rewrite",
           "insert_drawing", "add_relationship", "add_override", "add_default", "retarget"]
