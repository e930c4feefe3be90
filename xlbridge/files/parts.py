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

openpyxl drops the sheets' drawings it did not create too (the "Recalculate
season" button, :mod:`xlbridge.files.drawings`) and re-writes, lossy, the charts
and images it half understands.  :func:`carried` reads the Lite parts and every
worksheet's drawing (with its charts, images, ...) of the earlier version, and
:func:`save_with_parts` puts all of them back in the same pass, each drawing
re-linked to the worksheet of the same name.
"""

from __future__ import annotations

import json
import os
import re
import uuid
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from xlbridge.files import drawings

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


def _rewrite(path: Path, replace: dict[str, bytes]) -> None:
    """Rewrite the zip at ``path`` with some parts replaced or added (atomically)."""
    drawings.rewrite(path, replace)


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


@dataclass(frozen=True)
class Carried:
    """What openpyxl drops when it saves and :func:`save_with_parts` puts back:
    the xlwings Lite parts (:func:`lite_parts`) and every worksheet's drawing with
    everything it refers to (:func:`xlbridge.files.drawings.sheet_drawings`: the
    button shape, charts, images), by sheet name."""

    lite: dict[str, bytes] = field(default_factory=dict)
    drawings: dict[str, drawings.SheetDrawing] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.lite or self.drawings)


def carried(source: str | os.PathLike[str]) -> Carried:
    """Everything of the workbook at ``source`` that a save must put back."""
    return Carried(lite_parts(source), drawings.sheet_drawings(source))


def _as_carried(parts: Carried | dict[str, bytes]) -> Carried:
    return parts if isinstance(parts, Carried) else Carried(lite=dict(parts))


def carry_over(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> bool:
    """Copy the xlwings Lite parts of ``source`` into ``target`` (saved by
    openpyxl, which dropped them).  Returns False when ``source`` has none.
    (Drawings need the workbook before it is saved: :func:`save_with_parts`.)"""
    parts = lite_parts(source)
    if not parts:
        return False
    _put_back(Path(target), parts)
    return True


def _patch(lite: bool, name: str, data: bytes | str) -> bytes:
    """A part as openpyxl wrote it, with the Lite task pane's root relationship
    and content types added (when Lite parts are carried)."""
    data = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if lite and name == ROOT_RELS:
        return _patch_root_rels(data.decode("utf-8")).encode("utf-8")
    if lite and name == CONTENT_TYPES:
        return _patch_content_types(data.decode("utf-8")).encode("utf-8")
    return data


def _holding(carried: Carried):
    """Which parts must wait until openpyxl has written everything else: with
    drawings to put back, the parts :func:`drawings.place` completes or reads
    (the root relationships, the workbook and its relationships, every worksheet
    and its relationships, the content types)."""
    if not carried.drawings:
        return lambda name: False
    try:
        from openpyxl.xml.constants import ARC_WORKBOOK, ARC_WORKBOOK_RELS
    except ImportError:  # pragma: no cover - every openpyxl has them
        ARC_WORKBOOK, ARC_WORKBOOK_RELS = "xl/workbook.xml", "xl/_rels/workbook.xml.rels"
    fixed = {ROOT_RELS, CONTENT_TYPES, ARC_WORKBOOK, ARC_WORKBOOK_RELS}
    return lambda name: name in fixed or name.startswith("xl/worksheets/")


def _put_back(dst: Path, parts: Carried | dict[str, bytes]) -> None:
    """Rewrite the saved workbook ``dst`` with ``parts`` added (the second pass)."""
    carried = _as_carried(parts)
    holds = _holding(carried)
    with zipfile.ZipFile(dst) as archive:
        names = archive.namelist()
        held = {name: _patch(bool(carried.lite), name, archive.read(name)) for name in names
                if holds(name) or name in (ROOT_RELS, CONTENT_TYPES)}
    replace = {**carried.lite, **held}
    if carried.drawings:
        replace.update(drawings.place(carried.drawings, [n for n in names if n not in held], held))
    _rewrite(dst, replace)


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


class _CarryingZip(zipfile.ZipFile):
    """The zip openpyxl writes a workbook into, getting the carried parts on the
    way (one pass, instead of saving and then rewriting the whole file): the root
    relationships and content types are patched for the Lite parts as openpyxl
    writes them; with drawings to put back, the parts that need them (worksheets,
    their relationships, the content types: :func:`_holding`) are held back, and
    when the file is closed the Lite parts are added and :func:`drawings.place`
    completes the held parts and adds the drawings under names openpyxl did not
    use."""

    def __init__(self, file: Path, parts: Carried | dict[str, bytes]):
        super().__init__(file, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
        carried = _as_carried(parts)
        self._lite = bool(carried.lite)
        self._parts = dict(carried.lite)
        self._drawings = carried.drawings
        self._holds = _holding(carried)
        self._held: dict[str, bytes] = {}
        self._abandoned = False

    def writestr(self, zinfo_or_arcname, data, *args, **kwargs):  # type: ignore[override]
        name = getattr(zinfo_or_arcname, "filename", zinfo_or_arcname)
        if name in (ROOT_RELS, CONTENT_TYPES) or self._holds(name):
            data = _patch(self._lite, name, data)
            if self._holds(name):
                self._held[name] = data
                return None
        return super().writestr(zinfo_or_arcname, data, *args, **kwargs)

    def write(self, filename, arcname=None, *args, **kwargs):  # type: ignore[override]
        name = arcname if arcname is not None else os.fspath(filename)
        if name in (ROOT_RELS, CONTENT_TYPES) or self._holds(name):  # openpyxl writes worksheets from a file
            return self.writestr(name, Path(filename).read_bytes())
        return super().write(filename, arcname, *args, **kwargs)

    def abandon(self) -> None:
        """A failed save: close the file as it is, adding nothing (the caller discards it)."""
        self._abandoned = True
        self._parts, self._held = {}, {}

    def close(self) -> None:
        if self.fp is not None and self.mode == "w" and not self._abandoned:
            parts, self._parts = self._parts, {}
            held, self._held = self._held, {}
            if self._drawings:
                parts.update(drawings.place(self._drawings, self.namelist(), held))
            else:
                parts.update(held)
            for name, data in parts.items():
                super().writestr(name, data)
        super().close()


def save_with_parts(workbook, target: str | os.PathLike[str], parts: Carried | dict[str, bytes]) -> None:
    """Save an openpyxl ``workbook`` to ``target`` carrying ``parts``: the Lite
    parts (a dict from :func:`lite_parts`) or everything :func:`carried` read from
    the earlier version (Lite parts and drawings; the workbook's own copies of
    those drawings' charts and images are dropped first, see
    :func:`detach_drawings`).  A plain ``workbook.save`` when there is nothing."""
    carried = _as_carried(parts)
    if not carried:
        workbook.save(target)
        return
    import datetime as dt

    detach_drawings(workbook, carried)
    try:
        from openpyxl.writer.excel import ExcelWriter
    except ImportError:  # an openpyxl without it: save, then put the parts back (two passes)
        workbook.save(target)
        _put_back(Path(target), carried)
        return
    # what openpyxl's own save_workbook does, with the carrying zip
    workbook.properties.modified = dt.datetime.now(tz=dt.timezone.utc).replace(tzinfo=None)
    archive = _CarryingZip(Path(target), carried)
    try:
        ExcelWriter(workbook, archive).save()
    except BaseException:
        archive.abandon()
        archive.close()
        raise


__all__ = ["embed", "extract", "carry_over", "carried", "Carried", "detach_drawings", "lite_parts",
           "save_with_parts", "PARTS"]
