"""xlwings Lite: the Python code a workbook carries, written into the .xlsx and read back.

xlwings Lite (the Office add-in, Pyodide in Excel) stores each file of the
workbook's Python project as a property of the add-in instance in
``xl/webextensions/webextension1.xml`` (value: the file as a JSON string), next
to ``taskpanes.xml``, its rels, a root relationship and two content-type
overrides (facts in ``docs/install.md``).

:func:`embed` is the last step when a shipped workbook is built (:mod:`xlbridge.excel.shipped`);
tests read the files back (``tests/lite_files.py``) and compare them with the sources.

openpyxl drops these parts when it saves; ``xlbridge recalc`` keeps them with
every other part openpyxl does not write (:mod:`xlbridge.files.kept_parts`), without
having to know they are xlwings Lite's.
"""

from __future__ import annotations

import json
import os
import uuid
import zipfile
from pathlib import Path

from xlbridge.files.package import CONTENT_TYPES, ROOT_RELS, add_override, add_relationship, rewrite, xml_attr

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


def _webextension_xml(properties: dict[str, str], guid: str) -> str:
    props = "".join(
        f'<we:property name="{xml_attr(name)}" value="{xml_attr(json.dumps(value))}"/>'
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


def embed(path: str | os.PathLike[str], files: dict[str, str], *, pyodide_version: str = PYODIDE_VERSION,
          addin_version: str = ADDIN_VERSION, guid: str | None = None) -> None:
    """Make the workbook at ``path`` carry ``files`` (e.g. ``main.py``,
    ``requirements.txt``) for xlwings Lite, replacing any earlier code."""
    target = Path(path)
    properties = dict(files)
    properties["pyodideVersion"] = pyodide_version
    properties["addinVersion"] = addin_version
    with zipfile.ZipFile(target) as archive:
        rels, types = archive.read(ROOT_RELS), archive.read(CONTENT_TYPES)
    if REL_TASKPANES.encode() not in rels:
        rels, _ = add_relationship(rels, REL_TASKPANES, TASKPANES)
    for part, content_type in ((TASKPANES, CT_TASKPANES), (WEBEXTENSION, CT_WEBEXTENSION)):
        types = add_override(types, part, content_type)
    rewrite(target, {
        WEBEXTENSION: _webextension_xml(properties, guid or stable_guid(target.name)).encode("utf-8"),
        TASKPANES: TASKPANES_XML.encode("utf-8"),
        TASKPANES_RELS: TASKPANES_RELS_XML.encode("utf-8"),
        ROOT_RELS: rels,
        CONTENT_TYPES: types,
    })


def stable_guid(name: str) -> str:
    """The add-in instance's id for a workbook called ``name``: the bytes depend on the inputs only."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "xlbridge:" + name)).upper()
