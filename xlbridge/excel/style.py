"""How the workbooks xlbridge builds store text (builders only: openpyxl cells).

A cell whose text starts with ``=``, ``+``, ``-`` or ``@`` is stored as text, as
Excel does when the text is typed with a leading apostrophe (the cell's
``quotePrefix``): an example line such as ``=AWARD("tr.club", 1, 26)  ->  0.62``
on a How-to sheet must be read, not evaluated -- as a formula it does not parse.
"""

from __future__ import annotations

from typing import Any

from xlbridge.excel.book import looks_like_formula


def write_text(ws: Any, row: int, col: int, value: Any) -> Any:
    """Write ``value`` into the openpyxl sheet ``ws`` at (row, col); text that
    would read as a formula is stored as text.  Returns the cell."""
    cell = ws.cell(row=row, column=col)
    cell.value = value
    if looks_like_formula(value):
        cell.data_type = "s"
        cell.quotePrefix = True
    return cell


def write_lines(ws: Any, lines: list[str], col: int = 1) -> None:
    """One line of text per row from row 1 (a How-to sheet)."""
    for row, line in enumerate(lines, start=1):
        write_text(ws, row, col, line)
