"""Reading back what a workbook carries for xlwings Lite (test equipment: the package only writes it).

- :func:`extract`: the files of the workbook's Lite project, as :func:`xlbridge.excel.lite.embed` stored them;
- :func:`lite_parts`: the xlwings Lite parts of the .xlsx;
- :func:`unpack`: the files inside a ``main.py`` made by :func:`xlbridge.excel.bundle.main_py`.
"""

from __future__ import annotations

import base64
import io
import json
import os
import xml.etree.ElementTree as ET
import zipfile
from typing import IO

from xlbridge.excel.bundle import MARK_BEGIN, MARK_END
from xlbridge.excel.lite import PARTS, WEBEXTENSION

_NS = {"we": "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"}


def extract(path: str | os.PathLike[str] | IO[bytes]) -> dict[str, str]:
    """The files a workbook carries for xlwings Lite (``{}`` when none)."""
    with zipfile.ZipFile(path) as archive:
        if WEBEXTENSION not in archive.namelist():
            return {}
        root = ET.fromstring(archive.read(WEBEXTENSION))
    return {p.get("name"): json.loads(p.get("value")) for p in root.iterfind("we:properties/we:property", _NS)}


def lite_parts(source: str | os.PathLike[str]) -> dict[str, bytes]:
    """The xlwings Lite parts of the workbook at ``source`` (``{}`` when it has none)."""
    with zipfile.ZipFile(source) as archive:
        names = set(archive.namelist())
        if WEBEXTENSION not in names:
            return {}
        return {name: archive.read(name) for name in PARTS if name in names}


def unpack(main_py_text: str) -> dict[str, bytes]:
    """The files inside a ``main.py`` made by :func:`xlbridge.excel.bundle.main_py`."""
    start = main_py_text.index(MARK_BEGIN) + len(MARK_BEGIN)
    end = main_py_text.index(MARK_END, start)
    data = base64.b64decode("".join(main_py_text[start:end].split()))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}
