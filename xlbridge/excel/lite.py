"""xlwings Lite: the Python code a workbook carries, written into the .xlsx and read back.

xlwings Lite (the Office add-in, Pyodide in Excel) stores each file of the
workbook's Python project as a property of the add-in instance in
``xl/webextensions/webextension1.xml`` (value: the file as a JSON string), next
to ``taskpanes.xml``, its rels, a root relationship and two content-type
overrides (facts in ``docs/install.md``).

- :func:`embed` is the last step when a shipped workbook is built
  (:mod:`xlbridge.excel.shipped`);
- :func:`extract` reads the files back (tests compare them with the sources);
- :func:`lite_parts` lists the parts.

openpyxl drops these parts when it saves; ``xlbridge recalc`` keeps them with
every other part openpyxl does not write (:mod:`xlbridge.files.kept_parts`), without
having to know they are xlwings Lite's.
"""

from __future__ import annotations

import json
import os
import re
import uuid
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

from xlbridge.files.package import CONTENT_TYPES, ROOT_RELS, rewrite

WEBEXTENSION = "xl/webextensions/webextension1.xml"
TASKPANES = "xl/webextensions/taskpanes.xml"
TASKPANES_RELS = "xl/webextensions/_rels/taskpanes.xml.rels"
PARTS = (WEBEXTENSION, TASKPANES, TASKPANES_RELS)

STORE_ID = "wa200008175"
REL_TASKPANES = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
REL_WEBEXTENSION = "http://schemas.microsoft.com/office/2011/relationships/webextension"
CT_TASKPANES = "application/vnd.ms-office.webextensiontaskpanes+xml"
CT_WEBEXTENSION = "application/vnd.ms-office.webextension+xml"
#: The workbook's Pyodide: the newest 314.x release (stable xlwings Lite runs Pyodide
#: 314.x; pinned requirements need 314.0.0+).  The add-in: the current one (2026-08-18),
#: whose documentation the workbooks follow.  Why, in docs/install.md ("Versions");
#: tests/pyodide runs every workbook in this Pyodide and in 0.27.5 (the 2025 add-ins').
PYODIDE_VERSION = "314.0.7"
ADDIN_VERSION = "1.0.0.103"



def _attr(text: str) -> str:
    """XML attribute text in double quotes, as Lite writes it (quotes as &quot;)."""
    return escape(text, {'"': "&quot;"})


def _webextension_xml(properties: dict[str, str], guid: str) -> str:
    props = "".join(
        f'<we:property name="{_attr(name)}" value="{_attr(json.dumps(value))}"/>'
        for name, value in properties.items()
    )
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<we:webextension xmlns:we="http://schemas.microsoft.com/office/webextensions/webextension/2010/11" '
        f'id="{{{guid}}}">'
        f'<we:reference id="{STORE_ID}" version="1.0.0.0" store="en-US" storeType="OMEX"/>'
        '<we:alternateReferences>'
        f'<we:reference id="{STORE_ID.upper()}" version="1.0.0.0" store="{STORE_ID.upper()}" storeType="OMEX"/>'
        '</we:alternateReferences>'
        f'<we:properties>{props}</we:properties>'
        '<we:bindings/>'
        '<we:snapshot xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/>'
        '<we:extLst>'
        '<a:ext xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" uri="{D87F86FE-615C-45B5-9D79-34F1136793EB}">'
        '<we:containsCustomFunctions/></a:ext>'
        '<a:ext xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" uri="{7C84B067-C214-45C3-A712-C9D94CD141B2}">'
        '<we:customFunctionIdList/></a:ext>'
        '</we:extLst>'
        '</we:webextension>'
    )


TASKPANES_XML = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<wetp:taskpanes xmlns:wetp="http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11">'
    '<wetp:taskpane dockstate="right" visibility="0" width="438" row="3">'
    '<wetp:webextensionref xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1"/>'
    '</wetp:taskpane></wetp:taskpanes>'
)
TASKPANES_RELS_XML = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{REL_WEBEXTENSION}" Target="webextension1.xml"/>'
    '</Relationships>'
)


def _patch_root_rels(xml: str) -> str:
    if REL_TASKPANES in xml:
        return xml
    used = {int(n) for n in re.findall(r'Id="rId(\d+)"', xml)}
    rid = f"rId{max(used, default=0) + 1}"
    rel = f'<Relationship Id="{rid}" Type="{REL_TASKPANES}" Target="xl/webextensions/taskpanes.xml"/>'
    return xml.replace("</Relationships>", rel + "</Relationships>")


def _patch_content_types(xml: str) -> str:
    for part, ctype in ((TASKPANES, CT_TASKPANES), (WEBEXTENSION, CT_WEBEXTENSION)):
        if f'PartName="/{part}"' not in xml:
            xml = xml.replace("</Types>", f'<Override PartName="/{part}" ContentType="{ctype}"/></Types>')
    return xml


def embed(path: str | os.PathLike[str], files: dict[str, str], *, pyodide_version: str = PYODIDE_VERSION,
          addin_version: str = ADDIN_VERSION, guid: str | None = None) -> None:
    """Make the workbook at ``path`` carry ``files`` (e.g. ``main.py``,
    ``requirements.txt``) for xlwings Lite, replacing any earlier code."""
    target = Path(path)
    properties = dict(files)
    properties["pyodideVersion"] = pyodide_version
    properties["addinVersion"] = addin_version
    with zipfile.ZipFile(target) as archive:
        rels = archive.read(ROOT_RELS).decode("utf-8")
        types = archive.read(CONTENT_TYPES).decode("utf-8")
    stable = guid or str(uuid.uuid5(uuid.NAMESPACE_URL, "xlbridge:" + target.name)).upper()
    rewrite(target, {
        WEBEXTENSION: _webextension_xml(properties, stable).encode("utf-8"),
        TASKPANES: TASKPANES_XML.encode("utf-8"),
        TASKPANES_RELS: TASKPANES_RELS_XML.encode("utf-8"),
        ROOT_RELS: _patch_root_rels(rels).encode("utf-8"),
        CONTENT_TYPES: _patch_content_types(types).encode("utf-8"),
    })


def extract(path: str | os.PathLike[str]) -> dict[str, str]:
    """The files a workbook carries for xlwings Lite (``{}`` when none)."""
    import xml.etree.ElementTree as ET

    with zipfile.ZipFile(path) as archive:
        if WEBEXTENSION not in archive.namelist():
            return {}
        root = ET.fromstring(archive.read(WEBEXTENSION))
    ns = {"we": "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"}
    return {p.get("name"): json.loads(p.get("value")) for p in root.iterfind("we:properties/we:property", ns)}


def lite_parts(source: str | os.PathLike[str]) -> dict[str, bytes]:
    """The xlwings Lite parts of the workbook at ``source`` (``{}`` when it has none)."""
    with zipfile.ZipFile(source) as archive:
        names = set(archive.namelist())
        if WEBEXTENSION not in names:
            return {}
        return {name: archive.read(name) for name in PARTS if name in names}


__all__ = ["embed", "extract", "lite_parts", "PARTS", "PYODIDE_VERSION", "ADDIN_VERSION"]
