"""Headers fit their columns in the font the workbook names (issue 26, point 6, for the header rows).

Before: the fonts xlbridge set named no typeface, so LibreOffice showed them in its default serif
(DejaVu Serif Bold, wider than Calibri) and cut "Derece", "Plaats", "Tavoli" inside the word; and a
column's declared width did not know the length of its header in the workbook's language.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.workbooks.declare import word_width
from xlbridge.workbooks.fontwidths import BOLD_11

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "workbooks").glob("*.xlsx")) + sorted((ROOT / "templates").glob("*.xlsx"))


def pixels(word: str) -> float:
    return sum(BOLD_11[ch] for ch in word)


def test_a_word_width_shows_the_word_with_room_on_both_sides():
    for word in ("Derece", "Plaats", "Ospitante", "Penalità", "Sıralama", "WWWWWWWWWW", "i"):
        width = word_width(word)
        shown = 7 * width + 5  # Excel's pixels for a width in characters of Calibri 11
        assert pixels(word) + 7 <= shown < pixels(word) + 7 + 7 * 0.25 + 0.01, (word, width)  # (a pixel for rounding)
    assert word_width("Tornei vinti") == word_width("Tornei") and word_width("") == 0.0
    assert word_width("ẞ") == word_width("W")  # a character not measured counts as wide as W


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_font_names_calibri_and_every_header_word_fits_its_column(path):
    wb = load_workbook(path)
    cut = []
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.value is None:
                    continue
                assert c.font.name == "Calibri", f"{ws.title}!{c.coordinate}: font {c.font.name!r}"
                header = c.fill.fgColor.rgb == "FF1F4E78" and isinstance(c.value, str)
                if header and c.coordinate not in ws.merged_cells:
                    width = ws.column_dimensions[c.column_letter].width or 8.43
                    if word_width(c.value) > width:
                        cut.append(f"{ws.title}!{c.coordinate} {c.value!r}")
    assert not cut  # (the rectifications' "NS pairs of the board" under a gap column two characters wide: fixed)
