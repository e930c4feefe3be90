"""The How-to sheet's text (issue 26, point 11): each paragraph broken over as few lines as its column
allows, the lines as even as possible -- no word alone on a line --, every line within the column in
Calibri 11 (Carlito's advance widths), and the sheet on one printed page; in every language each kind
can be built in."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from xlbridge.language import sheet_name
from xlbridge.workbooks.kinds import workbooks
from xlbridge.workbooks.declare import text_pixels
from xlbridge.workbooks.style import CELL_MARGIN, balanced

LANGUAGES = ("en", "nl", "it", "sv", "tr")


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", sorted(workbooks()))
def test_the_how_to_lines_fit_their_column_and_leave_no_word_alone(tmp_path, kind, language, built_once):
    wb = load_workbook(built_once(kind, tmp_path / f"{kind}.xlsx", blank=True, language=language))
    ws = wb[sheet_name("How to", language)]
    room = ws.column_dimensions["A"].width * 7 + 5 - 2 * CELL_MARGIN
    lines = [ws.cell(row, 1).value for row in range(1, ws.max_row + 1)]
    assert len(lines) > 10
    for line in filter(None, lines):
        assert text_pixels(line) <= room, (line, text_pixels(line), room)
        assert len(line.split()) > 1, f"a word alone on a line: {line!r}"
    assert ws.page_setup.fitToHeight == 1 and ws.page_setup.fitToWidth == 1
    assert ws.sheet_properties.pageSetUpPr.fitToPage


def test_a_paragraph_breaks_into_the_fewest_even_lines():
    text = " ".join(["word"] * 30)
    room = text_pixels(" ".join(["word"] * 12)) + 1
    lines = balanced(text, room, "   ")
    widths = [len(line.split()) for line in lines]
    assert widths == [10, 10, 10] and lines[1].startswith("   word")
    assert balanced("a " + "x" * 200, 50, "   ") == ["a", "   " + "x" * 200]  # a word wider than the room: alone
