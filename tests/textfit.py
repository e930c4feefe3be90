"""Does each text of a sheet show whole in its cell? (issue 26, point 6; test equipment.)

Measured with the font's metrics: Carlito's advance widths (Calibri's; bold or regular as the cell's font
says, scaled to its size) against the cell's width in pixels (a column of width w shows as 7 w + 5 pixels,
a merged cell as its columns together; 3 pixels kept clear on each side).  A text wider than its cell
still shows whole when

- it wraps (``wrap_text``), each word fits the width and its lines fit the height of its row (15 points a
  line; a row with no height set is one line high: neither Excel nor LibreOffice grows a row for its text
  when it opens a file); or
- it does not wrap and spills over empty cells beside it: right of a left-aligned (or General) text,
  both ways from a centred one, left of a right-aligned one.

It is cut otherwise: :func:`cut` lists each such cell with why.
"""

from __future__ import annotations

from dataclasses import dataclass

from openpyxl.utils import get_column_letter

from xlbridge.workbooks.fontwidths import BOLD_11, REGULAR_11

MARGIN = 3  # pixels clear of the text on each side of a cell
INDENT = 5  # pixels: the "_(" of a number format's text section (declare.TEXT_APART)


@dataclass(frozen=True)
class Cut:
    sheet: str
    cell: str
    text: str
    why: str

    def __str__(self) -> str:
        return f"{self.sheet}!{self.cell} {self.text!r}: {self.why}"


def text_width(text: str, bold: bool = False, size: float | None = None) -> float:
    table = BOLD_11 if bold else REGULAR_11
    return sum(table.get(ch, table["W"]) for ch in text) * (size or 11) / 11


def column_width(ws, col: int) -> int:
    dimension = ws.column_dimensions.get(get_column_letter(col))
    if dimension is not None and dimension.hidden:
        return 0
    width = dimension.width if dimension is not None and dimension.width else 8.43
    return int(width * 7 + 5)


def _merged(ws) -> tuple[dict, set]:
    tops, covered = {}, set()
    for area in ws.merged_cells.ranges:
        tops[(area.min_row, area.min_col)] = area
        covered |= {(r, c) for r in range(area.min_row, area.max_row + 1)
                    for c in range(area.min_col, area.max_col + 1)} - {(area.min_row, area.min_col)}
    return tops, covered


def _filled(ws, row: int, col: int, covered: set) -> bool:
    if col < 1 or (row, col) in covered:
        return col < 1 or (row, col) in covered
    value = ws.cell(row, col).value
    return value is not None and value != ""


def _lines(words: list[str], room: float, bold: bool, size: float | None) -> int:
    lines, used = 1, 0.0
    for word in words:
        width = text_width(word, bold, size)
        if used and used + text_width(" ", bold, size) + width > room:
            lines, used = lines + 1, width
        else:
            used += (text_width(" ", bold, size) if used else 0) + width
    return lines


def cut(ws) -> list[Cut]:
    """Every cell of the sheet ``ws`` whose text does not show whole."""
    found: list[Cut] = []
    tops, covered = _merged(ws)
    for row in ws.iter_rows():
        for cell in row:
            text = cell.value
            if not isinstance(text, str) or not text.strip() or (cell.row, cell.column) in covered:
                continue
            area = tops.get((cell.row, cell.column))
            cols = range(area.min_col, area.max_col + 1) if area else range(cell.column, cell.column + 1)
            room = sum(column_width(ws, c) for c in cols) - 2 * MARGIN
            room -= INDENT if "_(@" in (cell.number_format or "") else 0
            bold, size = bool(cell.font.b), cell.font.sz
            need = max(text_width(line, bold, size) for line in text.split("\n"))
            if need <= room:
                continue
            words = text.split()
            if cell.alignment.wrap_text:
                widest = max(text_width(w, bold, size) for w in words)
                height = ws.row_dimensions[cell.row].height
                lines = _lines(words, room, bold, size)
                fits = int((height or 15) // ((size or 11) * 15 / 11))
                if widest > room:
                    found.append(Cut(ws.title, cell.coordinate, text, f"a word is {widest:.0f} px wide in "
                                     f"{room:.0f} px: it breaks inside the word"))
                elif lines > fits:
                    found.append(Cut(ws.title, cell.coordinate, text, f"{lines} lines in a row for {fits}"))
                continue
            align = cell.alignment.horizontal or "general"
            over = need - room
            sides = {"center": ((1, over / 2), (-1, over / 2)), "centerContinuous": ((1, over / 2), (-1, over / 2)),
                     "right": ((-1, over),)}.get(align, ((1, over),))
            for side, short in sides:
                spare, col = 0.0, (cols[-1] + 1 if side > 0 else cols[0] - 1)
                while spare < short:
                    if _filled(ws, cell.row, col, covered):
                        other = get_column_letter(col) + str(cell.row) if col >= 1 else "the sheet's edge"
                        found.append(Cut(ws.title, cell.coordinate, text, f"{need:.0f} px of text in {room:.0f} px, "
                                         f"and {other} beside it is filled"))
                        break
                    spare += column_width(ws, col)
                    col += side
    return found


def cuts(wb) -> list[Cut]:
    """Every cut text of the visible worksheets of ``wb`` (an openpyxl workbook)."""
    return [c for ws in wb.worksheets if ws.sheet_state == "visible" for c in cut(ws)]
