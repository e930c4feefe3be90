"""The house style of the workbooks xlbridge builds (builders only: openpyxl
objects; never imported on the Excel path).

Text: a cell whose text starts with ``=``, ``+``, ``-`` or ``@`` is stored as text, as
Excel does when the text is typed with a leading apostrophe (the cell's
``quotePrefix``): an example line such as ``=AWARD("tr.club", 1, 26)  ->  0.62``
on a How-to sheet must be read, not evaluated -- as a formula it does not parse.
"""

from __future__ import annotations

from typing import Any

from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from xlbridge.language import _
from xlbridge.workbooks.book import looks_like_formula
from xlbridge.workbooks.declare import text_pixels


def font(**style: Any) -> Font:
    """A font of the house type, Calibri 11 (Excel's default), with ``style`` (bold, size, colour...).
    A font without a name is shown in the spreadsheet program's own default: LibreOffice takes a
    serif, wider than Calibri, so headers sized for Calibri are cut."""
    return Font(**{"name": "Calibri", "size": 11, **style})


HEADER_FILL = PatternFill("solid", start_color="FF1F4E78", end_color="FF1F4E78")
HEADER_FONT = font(bold=True, color="FFFFFFFF")
TITLE_FONT = font(bold=True, size=14)


def write_text(ws: Any, row: int, col: int, value: Any) -> Any:
    """Write ``value`` into the openpyxl sheet ``ws`` at (row, col); text that
    would read as a formula is stored as text.  Returns the cell."""
    cell = ws.cell(row=row, column=col)
    cell.value = value
    if looks_like_formula(value):
        cell.data_type = "s"
        cell.quotePrefix = True
    return cell


def how_to(ws: Any, lines: list[str], width: int) -> None:
    """A How-to sheet: one paragraph of ``lines`` (English, translated here; an empty one is a gap) per entry
    from row 1 in column A, ``width`` characters wide, the first a title.  A paragraph wider than the column
    in Calibri 11 is broken at spaces over several rows: text running on over empty columns widens the print, and a sheet printed one page wide shrinks to an
    unreadable size (found by the LibreOffice pictures, tests/test_libreoffice.py); a wrapped cell is no
    remedy, LibreOffice cuts its lines at the page edge.  The lines of a paragraph are as even as the
    column allows (:func:`balanced`), so no word is left alone on a line (issue 26, point 11), and go on
    indented, so each paragraph reads as one.  A formula line (``=...``) is never broken.  The sheet prints
    on one page, so no heading is left at the foot of a page."""
    rows: list[str] = []
    room = width * 7 + 5 - 2 * CELL_MARGIN  # Excel shows width w as 7 w + 5 pixels
    for line in lines:
        text = _(line) if line else line
        if not text or text.startswith("=") or text_pixels(text) <= room:
            rows.append(text)
            continue
        rows.extend(balanced(text, room, "   "))
    for row, line in enumerate(rows, start=1):
        write_text(ws, row, 1, line)
    ws["A1"].font = TITLE_FONT
    ws.column_dimensions["A"].width = width
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_setup.fitToWidth = ws.page_setup.fitToHeight = 1


#: Pixels a cell keeps clear of its text on each side.
CELL_MARGIN = 3


def _greedy(words: list[str], room: float, indent: str, bold: bool = False) -> list[str]:
    lines: list[str] = []
    for word in words:
        if lines and text_pixels(lines[-1] + " " + word, bold) <= room:
            lines[-1] += " " + word
        else:
            lines.append((indent if lines else "") + word)
    return lines


#: Points of one line of Calibri 11 in a row (Excel's default row height).
LINE_HEIGHT = 15.0
#: The look of a cell holding a sentence (``Column.wrap``): wrapped, its last line on the line of its neighbours.
WRAPPED = Alignment(wrap_text=True, vertical="bottom")  # on the line of the cells beside it, as Excel puts them


def column_pixels(ws: Any, col: int) -> int:
    """The width of column ``col`` (1: A) of ``ws`` in pixels as Excel shows it (7 w + 5; Excel's default
    8.43 where none is set -- read without ``ws.column_dimensions[...]``, which would set openpyxl's 13)."""
    dimension = ws.column_dimensions.get(get_column_letter(col))
    width = dimension.width if dimension is not None and dimension.width else 8.43
    return int(width * 7 + 5)


def fit_row(ws: Any, cell: Any) -> None:
    """Make the row of ``cell`` (a wrapped text) tall enough for its lines in its column: neither Excel nor
    LibreOffice grows a row for its text when it opens a file (issue 26, point 6).  Only ever taller."""
    text = cell.value
    if not isinstance(text, str) or not cell.alignment.wrap_text or (ws.merged_cells.ranges and
                                                                      cell.coordinate in ws.merged_cells):
        return  # (a merged caption: fit_caption)
    _grow(ws, cell.row, _lines(text, column_pixels(ws, cell.column) - 2 * CELL_MARGIN, bool(cell.font.b)),
          cell.font.sz)


def _lines(text: str, room: float, bold: bool) -> int:
    """How many lines ``text`` takes wrapped at spaces in ``room`` pixels (each line break a line more)."""
    return sum(len(_greedy(part.split(), room, "", bold)) or 1 for part in text.split("\n"))


def _grow(ws: Any, row: int, lines: int, size: float | None = None) -> None:
    """Row ``row`` at least ``lines`` lines of a ``size``-point font tall (never lower)."""
    height = LINE_HEIGHT * lines * (size or 11) / 11
    if height > (ws.row_dimensions[row].height or LINE_HEIGHT):
        ws.row_dimensions[row].height = height


def fit_rows(ws: Any) -> None:
    """:func:`fit_row` for every wrapped text of the sheet ``ws``."""
    for row in ws.iter_rows():
        for cell in row:
            if isinstance(cell.value, str):
                fit_row(ws, cell)


def fit_caption(ws: Any, row: int, col: int, cols: int) -> None:
    """The bold caption in ``(row, col)`` over the ``cols`` columns of its table: merged across them,
    wrapped, and its row tall enough for its lines (:func:`_grow`), so that the caption beside it does not
    cut it (issue 26, point 6).  The columns' widths are set already."""
    text = ws.cell(row=row, column=col).value
    room = sum(column_pixels(ws, c) for c in range(col, col + cols)) - 2 * CELL_MARGIN
    if not isinstance(text, str) or text_pixels(text, bold=True) <= room:
        return
    if cols > 1:
        ws.merge_cells(start_row=row, start_column=col, end_row=row, end_column=col + cols - 1)
    ws.cell(row=row, column=col).alignment = WRAPPED
    _grow(ws, row, _lines(text, room, bold=True))


def balanced(text: str, room: float, indent: str = "") -> list[str]:
    """``text`` broken at spaces into the fewest lines no wider than ``room`` pixels (a word wider than
    that alone on its line), each as even as possible: the narrowest width that still needs no more
    lines.  The first line keeps the text's own leading spaces; the others start with ``indent``."""
    lead = text[:len(text) - len(text.lstrip(" "))]
    words = text.split()
    words[0] = lead + words[0]
    fewest = len(_greedy(words, room, indent))
    low, high = 0.0, float(room)
    while high - low > 1:  # the narrowest width (to a pixel) that still gives the fewest lines
        middle = (low + high) / 2
        if len(_greedy(words, middle, indent)) <= fewest:
            high = middle
        else:
            low = middle
    return _greedy(words, high, indent)


def print_setup(ws) -> None:
    """Print every sheet one page wide (as many pages down as needed), landscape:
    a table never splits its columns across pages.  A sheet laid out from its
    declaration keeps the orientation declared (an evening's result prints portrait)."""
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_setup.fitToWidth = 1
    if ws.page_setup.fitToHeight != 1:  # one page down only where the declaration says so (a chart sheet)
        ws.page_setup.fitToHeight = 0
    ws.page_setup.orientation = ws.page_setup.orientation or "landscape"
    ws.print_options.gridLines = False


def draw_chart(ws: Any, spec: Any, sheet: str) -> Any:
    """Draw the line chart ``spec.chart`` (:class:`xlbridge.workbooks.declare.Chart`)
    on the openpyxl sheet ``ws``; ``sheet`` is the name the sheet will carry (in the
    workbook's language: the chart's references name it, and openpyxl does not
    follow a sheet that is renamed).  Every series reads the table's ``room`` rows,
    named by its header cell; empty cells are spanned (no drop to zero).  Returns the chart."""
    from openpyxl.chart import LineChart, Reference, Series
    from openpyxl.chart.data_source import AxDataSource, StrRef
    from openpyxl.chart.marker import Marker
    from openpyxl.chart.series import SeriesLabel
    from openpyxl.chart.axis import ChartLines
    from openpyxl.chart.text import RichText
    from openpyxl.drawing.text import RichTextProperties

    declared = spec.chart
    table = spec.table(declared.table)
    quoted = "'" + sheet.replace("'", "''") + "'"
    first, last = table.first_row, table.first_row + max(table.room, 1) - 1

    def cells(column_id: str, top: int, bottom: int) -> str:
        letter = get_column_letter(table.col(column_id))
        return f"{quoted}!${letter}${top}:${letter}${bottom}" if bottom > top else f"{quoted}!${letter}${top}"

    chart = LineChart()
    chart.width, chart.height = declared.width, declared.height
    chart.display_blanks = "span"
    for column_id in declared.series:
        series = Series(Reference(range_string=cells(column_id, first, last)))
        series.tx = SeriesLabel(strRef=StrRef(cells(column_id, table.header_row, table.header_row)))
        series.cat = AxDataSource(strRef=StrRef(cells(declared.categories, first, last)))  # text: dates, ids
        series.marker = Marker(symbol="circle", size=5)  # a single evening shows as a dot
        series.smooth = False
        chart.series.append(series)
    chart.x_axis.delete = chart.y_axis.delete = False  # openpyxl 3.1 leaves them out: no axis labels in Excel
    # no title of its own: the sheet's title right above it names the pair (LibreOffice shows a
    # title that refers to a cell as "Chart Title"; docs/clubs/heeg.md, "The Chart sheet")
    chart.x_axis.txPr = RichText(bodyPr=RichTextProperties(rot=-2700000, vert="horz"))  # dates at 45 degrees
    chart.y_axis.number_format = declared.number_format
    chart.y_axis.majorGridlines = ChartLines()
    chart.legend.position = "b"
    ws.add_chart(chart, declared.anchor)
    return chart
