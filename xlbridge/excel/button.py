"""The "Recalculate season" button: a named shape linked to the cell behind it.

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
"""

from __future__ import annotations

import math
import os
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

from xlbridge.files.package import (CONTENT_TYPES, CT_DRAWING, NS_A, NS_R, NS_XDR, REL_DRAWING, REL_HYPERLINK,
                                    XML_DECLARATION, Package, add_override, add_relationship, append_to_root,
                                    free_name, insert_drawing, parse_outline, prefix_for, relative, rels_name, rewrite,
                                    xml_attr)


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


#: A button's size (issue 26, point 12): its label's width in the bold 11-point font (Carlito's metrics, which
#: are Calibri's), this much room on each side, at least :data:`MIN_WIDTH`; two default rows high.  Pixels at
#: 96 dpi; DrawingML counts EMU (914,400 an inch: 9,525 a pixel).
PADDING = 14
MIN_WIDTH = 96
HEIGHT = 40
EMU_PER_PIXEL = 9525


def width(label: str) -> int:
    """The width in pixels of a button showing ``label`` on one line (a character not measured counts as ``W``)."""
    from xlbridge.workbooks.declare import text_pixels

    text = max((text_pixels(line, bold=True) for line in label.split("\n")), default=0.0)
    return max(MIN_WIDTH, math.ceil(text) + 2 * PADDING)


def _button_anchor(*, shape_id: int, name: str, label: str, rid: str, col: int, row: int, fill: str, font: str,
                   xdr: str, a: str, declare: str) -> str:
    paragraphs = "".join(
        f'<{a}p><{a}pPr algn="ctr"/><{a}r><{a}rPr lang="en-US" sz="1100" b="1">'
        f'<{a}solidFill><{a}srgbClr val="{font}"/></{a}solidFill>'
        f'<{a}latin typeface="+mn-lt"/><{a}cs typeface="+mn-cs"/></{a}rPr>'
        f'<{a}t>{escape(line)}</{a}t></{a}r></{a}p>'
        for line in label.split("\n"))
    return (
        f'<{xdr}oneCellAnchor{declare}>'
        f'<{xdr}from><{xdr}col>{col}</{xdr}col><{xdr}colOff>0</{xdr}colOff>'
        f'<{xdr}row>{row}</{xdr}row><{xdr}rowOff>0</{xdr}rowOff></{xdr}from>'
        f'<{xdr}ext cx="{width(label) * EMU_PER_PIXEL}" cy="{HEIGHT * EMU_PER_PIXEL}"/>'
        f'<{xdr}sp macro="" textlink="">'
        f'<{xdr}nvSpPr><{xdr}cNvPr id="{shape_id}" name="{xml_attr(name)}" descr="{xml_attr(label)}">'
        f'<{a}hlinkClick xmlns:r="{NS_R}" r:id="{rid}" tooltip="{xml_attr(label)}"/></{xdr}cNvPr>'
        f'<{xdr}cNvSpPr/></{xdr}nvSpPr>'
        f'<{xdr}spPr><{a}prstGeom prst="roundRect"><{a}avLst/></{a}prstGeom>'
        f'<{a}solidFill><{a}srgbClr val="{fill}"/></{a}solidFill><{a}ln><{a}noFill/></{a}ln></{xdr}spPr>'
        f'<{xdr}txBody><{a}bodyPr vertOverflow="clip" horzOverflow="clip" wrap="none" rtlCol="0" anchor="ctr"/>'
        f'<{a}lstStyle/>{paragraphs}</{xdr}txBody>'
        f'</{xdr}sp><{xdr}clientData fPrintsWithSheet="0"/></{xdr}oneCellAnchor>'
    )


def add_button(path: str | os.PathLike[str], sheet: str, *, name: str, label: str, cell: str,
               fill: str = "1F4E78", font: str = "FFFFFF") -> None:
    """Put a button on worksheet ``sheet`` of the .xlsx at ``path`` (rewritten atomically):
    a rounded rectangle named ``name`` showing ``label`` on one line (bold, centred, ``font`` on
    ``fill``), from ``cell`` and as wide as its label (:func:`width`), never printed, with a
    hyperlink to ``cell`` -- xlwings Lite's sheet button for ``@script(button="[name]sheet!cell")``.

    The shape goes into the sheet's drawing (a new one when it has none).  The
    bytes written depend on the file and the arguments only."""
    target = Path(path)
    if not name.strip() or not label.strip():
        raise ValueError("a button needs a name and a label")
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
        drawing = free_name("xl/drawings/drawing1.xml", taken)
        drawing_xml = (f'{XML_DECLARATION}<xdr:wsDr xmlns:xdr="{NS_XDR}" xmlns:a="{NS_A}"></xdr:wsDr>').encode()
        shape_id = 2
        sheet_rels, rid = add_relationship(package.read(rels_name(sheet_part)), REL_DRAWING,
                                           relative(sheet_part, drawing))
        replace[rels_name(sheet_part)] = sheet_rels
        replace[sheet_part] = insert_drawing(package.read(sheet_part), rid)
        replace[CONTENT_TYPES] = add_override(package.read(CONTENT_TYPES), drawing, CT_DRAWING)
    drawing_rels, link_rid = add_relationship(package.read(rels_name(drawing)), REL_HYPERLINK, link)
    outline = parse_outline(drawing_xml)
    xdr, declare_xdr = prefix_for(outline, NS_XDR, "xdr")
    a, declare_a = prefix_for(outline, NS_A, "a")
    anchor = _button_anchor(shape_id=shape_id, name=name, label=label, rid=link_rid, col=col, row=row, fill=fill,
                            font=font, xdr=xdr, a=a, declare=declare_xdr + declare_a)
    replace[drawing] = append_to_root(drawing_xml, outline, anchor)
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
