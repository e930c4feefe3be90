"""The buttons on a workbook's main sheet (issue 26, point 12): each as wide as its label in the bold
11-point font on one line, the two apart from each other, never printed -- in every language a
workbook can be built in.  Geometry from the file itself: the drawing's anchors and the sheet's column
widths (Excel shows a column of width w as 7 w + 5 pixels; Carlito's advance widths, which are Calibri's,
measure the label)."""

from __future__ import annotations

import re
import zipfile

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from xlbridge.excel.button import EMU_PER_PIXEL
from xlbridge.workbooks.fontwidths import BOLD_11
from xlbridge.workbooks.kinds import workbooks

LANGUAGES = ("en", "nl", "it", "sv", "tr")
TWO_BUTTONS = [name for name, kind in workbooks().items() if kind.next_button is not None]
ROOM = 8  # pixels of the button's colour at least on each side of its label
GAP = 8  # pixels at least between two buttons


def _anchors(path) -> list[dict]:
    """Every button anchor of the workbook: sheet part, column and row from 0, width in pixels, label,
    whether it prints."""
    found = []
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if not re.fullmatch(r"xl/drawings/drawing\d+\.xml", name):
                continue
            xml = archive.read(name).decode()
            for kind, body in re.findall(r"<xdr:(oneCellAnchor|twoCellAnchor)\b[^>]*>(.*?)</xdr:\1>", xml, re.S):
                if "hlinkClick" not in body:
                    continue  # a chart
                col, row = (int(v) for v in re.search(r"<xdr:from><xdr:col>(\d+)</xdr:col><xdr:colOff>0</xdr:colOff>"
                                                      r"<xdr:row>(\d+)</xdr:row>", body).groups())
                ext = re.search(r'<xdr:ext cx="(\d+)" cy="(\d+)"/>', body)
                found.append({"kind": kind, "col": col, "row": row,
                              "width": int(ext.group(1)) / EMU_PER_PIXEL if ext else None,
                              "label": "".join(re.findall(r"<a:t>([^<]*)</a:t>", body)),
                              "wraps": 'wrap="none"' not in body,
                              "prints": 'fPrintsWithSheet="0"' not in body})
    return found


def _left(ws, col: int) -> float:
    """The left edge in pixels of column ``col`` (from 0)."""
    edge = 0.0
    for c in range(1, col + 1):
        width = ws.column_dimensions[get_column_letter(c)].width or 8.43
        edge += int(width * 7 + 5)
    return edge


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", sorted(workbooks()))
def test_each_button_fits_its_label_on_one_line_and_never_prints(tmp_path, kind, language, built_once):
    path = built_once(kind, tmp_path / f"{kind}-{language}.xlsx", blank=True, language=language)
    anchors = _anchors(path)
    spec = workbooks()[kind].in_language(language)
    assert sorted(a["label"] for a in anchors) == sorted(b.label for b in (spec.button, spec.next_button) if b)
    for a in anchors:
        text = sum(BOLD_11.get(ch, BOLD_11["W"]) for ch in a["label"])
        assert a["kind"] == "oneCellAnchor" and a["width"] >= text + 2 * ROOM, a
        assert not a["wraps"] and not a["prints"], a


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", TWO_BUTTONS)
def test_the_two_buttons_stand_apart(tmp_path, kind, language, built_once):
    path = built_once(kind, tmp_path / f"{kind}-{language}.xlsx", blank=True, language=language)
    spec = workbooks()[kind].in_language(language)
    ws = load_workbook(path)[spec.button.sheet]
    first, second = sorted(_anchors(path), key=lambda a: a["col"])
    assert first["row"] == second["row"]
    assert _left(ws, first["col"]) + first["width"] + GAP <= _left(ws, second["col"]), (first, second)
