"""xlwings Lite: the Python code a workbook carries, and keeping it across saves.

xlwings Lite (the Office add-in, Pyodide in Excel) stores each file of the
workbook's Python project as a property of the add-in instance in
``xl/webextensions/webextension1.xml`` (value: the file as a JSON string), next
to ``taskpanes.xml``, its rels, a root relationship and two content-type
overrides (facts in ``docs/install.md``).  openpyxl drops all of these when it
saves, so:

- :func:`embed` is the last step when a shipped workbook is built;
- :func:`save_with_parts` saves with openpyxl and puts the parts of the
  earlier version (:func:`lite_parts`) back in the same pass (``xlbridge
  recalc``); :func:`carry_over` does it to a file already saved;
- :func:`extract` reads the files back (tests compare them with the sources).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import uuid
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

WEBEXTENSION = "xl/webextensions/webextension1.xml"
TASKPANES = "xl/webextensions/taskpanes.xml"
TASKPANES_RELS = "xl/webextensions/_rels/taskpanes.xml.rels"
PARTS = (WEBEXTENSION, TASKPANES, TASKPANES_RELS)
ROOT_RELS = "_rels/.rels"
CONTENT_TYPES = "[Content_Types].xml"

STORE_ID = "wa200008175"
REL_TASKPANES = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
REL_WEBEXTENSION = "http://schemas.microsoft.com/office/2011/relationships/webextension"
CT_TASKPANES = "application/vnd.ms-office.webextensiontaskpanes+xml"
CT_WEBEXTENSION = "application/vnd.ms-office.webextension+xml"
PYODIDE_VERSION = "0.27.5"
ADDIN_VERSION = "1.0.0.0-18"


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


def _rewrite(path: Path, replace: dict[str, bytes]) -> None:
    """Rewrite the zip at ``path`` with some parts replaced or added (atomically)."""
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    temp = Path(temp_name)
    try:
        with zipfile.ZipFile(path) as src, zipfile.ZipFile(temp, "w", zipfile.ZIP_DEFLATED) as dst:
            for item in src.infolist():
                if item.filename in replace:
                    continue
                dst.writestr(item, src.read(item.filename))
            for name, data in replace.items():
                dst.writestr(name, data)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


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
    _rewrite(target, {
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


def carry_over(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> bool:
    """Copy the xlwings Lite parts of ``source`` into ``target`` (saved by
    openpyxl, which dropped them).  Returns False when ``source`` has none."""
    parts = lite_parts(source)
    if not parts:
        return False
    _put_back(Path(target), parts)
    return True


def _put_back(dst: Path, parts: dict[str, bytes]) -> None:
    """Rewrite the saved workbook ``dst`` with the Lite ``parts`` added."""
    with zipfile.ZipFile(dst) as archive:
        rels = archive.read(ROOT_RELS).decode("utf-8")
        types = archive.read(CONTENT_TYPES).decode("utf-8")
    parts = {**parts, ROOT_RELS: _patch_root_rels(rels).encode("utf-8"),
             CONTENT_TYPES: _patch_content_types(types).encode("utf-8")}
    _rewrite(dst, parts)


class _CarryingZip(zipfile.ZipFile):
    """The zip openpyxl writes a workbook into, getting the Lite parts on the way:
    the root relationships and content types are patched as openpyxl writes them,
    and the parts are added before the file is closed (one pass, instead of saving
    and then rewriting the whole file)."""

    def __init__(self, file: Path, parts: dict[str, bytes]):
        super().__init__(file, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
        self._parts = dict(parts)

    def writestr(self, zinfo_or_arcname, data, *args, **kwargs):  # type: ignore[override]
        name = getattr(zinfo_or_arcname, "filename", zinfo_or_arcname)
        if name in (ROOT_RELS, CONTENT_TYPES):
            text = data.decode("utf-8") if isinstance(data, bytes) else data
            data = (_patch_root_rels(text) if name == ROOT_RELS else _patch_content_types(text)).encode("utf-8")
        return super().writestr(zinfo_or_arcname, data, *args, **kwargs)

    def close(self) -> None:
        if self.fp is not None and self.mode == "w":
            parts, self._parts = self._parts, {}
            for name, data in parts.items():
                super().writestr(name, data)
        super().close()


def save_with_parts(workbook, target: str | os.PathLike[str], parts: dict[str, bytes]) -> None:
    """Save an openpyxl ``workbook`` to ``target`` carrying the Lite ``parts``
    (from :func:`lite_parts`); a plain ``workbook.save`` when there are none."""
    if not parts:
        workbook.save(target)
        return
    import datetime as dt

    try:
        from openpyxl.writer.excel import ExcelWriter
    except ImportError:  # an openpyxl without it: save, then put the parts back (two passes)
        workbook.save(target)
        _put_back(Path(target), parts)
        return
    # what openpyxl's own save_workbook does, with the carrying zip
    workbook.properties.modified = dt.datetime.now(tz=dt.timezone.utc).replace(tzinfo=None)
    archive = _CarryingZip(Path(target), parts)
    try:
        ExcelWriter(workbook, archive).save()
    except BaseException:
        archive._parts = {}  # a failed save: close the file as it is (the caller discards it)
        archive.close()
        raise


__all__ = ["embed", "extract", "carry_over", "lite_parts", "save_with_parts", "PARTS"]
