"""Ready workbooks and blank templates, written by code (``xlbridge new KIND PATH``).

Each kind has one builder; ``workbooks/`` and ``templates/`` in the repository
are produced by :func:`build_all` and a test checks that they are up to date.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from xlbridge.excel.event_book import se_masterpoints, tbf_club
from xlbridge.excel.bm_book import bridgemania_workbook
from xlbridge.excel.heeg_book import heeg_workbook

HEADER_FILL = PatternFill("solid", start_color="FF1F4E78", end_color="FF1F4E78")
HEADER_FONT = Font(bold=True, color="FFFFFFFF")
INPUT_FILL = PatternFill("solid", start_color="FFFFF2CC", end_color="FFFFF2CC")
TITLE_FONT = Font(bold=True, size=14)


class WorkbookError(ValueError):
    """A workbook cannot be written or read as asked; the message says why."""


def style_header(ws, row: int, headers: list[str], widths: list[int]) -> None:
    for col, (text, width) in enumerate(zip(headers, widths), start=1):
        cell = ws.cell(row=row, column=col, value=text)
        cell.fill, cell.font = HEADER_FILL, HEADER_FONT
        cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
        ws.column_dimensions[get_column_letter(col)].width = width


# ------------------------------------------------------------------ registry of kinds

BUILDERS: dict[str, Callable[[bool], Workbook]] = {
    "tbf-club": tbf_club,
    "se-masterpoints": se_masterpoints,
    "bridgemania": bridgemania_workbook,
    "heeg": heeg_workbook,
}

#: What the repository ships: (kind, blank, path relative to the repository root).
SHIPPED = [
    ("tbf-club", False, "workbooks/tbf-club.xlsx"),
    ("tbf-club", True, "templates/tbf-club.xlsx"),
    ("se-masterpoints", False, "workbooks/se-masterpoints.xlsx"),
    ("se-masterpoints", True, "templates/se-masterpoints.xlsx"),
    ("bridgemania", False, "workbooks/bridgemania-demo.xlsx"),
    ("bridgemania", True, "templates/bridgemania-season.xlsx"),
    ("heeg", False, "workbooks/heeg-demo.xlsx"),
    ("heeg", True, "templates/heeg-season.xlsx"),
]


def print_setup(ws) -> None:
    """Print every sheet one page wide (as many pages down as needed), landscape:
    a table never splits its columns across pages."""
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.page_setup.orientation = "landscape"
    ws.print_options.gridLines = False


def save_atomically(wb: Workbook, path: Path) -> None:
    """Write to a temporary file in the same folder, embed the xlwings Lite code
    (the last step: openpyxl would drop it), then replace: a reader never sees
    half a file and an error leaves the old file as it was."""
    from xlbridge.excel import lite
    from xlbridge.excel.lite_bundle import lite_files

    for ws in wb.worksheets:
        print_setup(ws)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    try:
        wb.save(temp)
        lite.embed(temp, lite_files(), guid=_stable_guid(path.name))
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _stable_guid(name: str) -> str:
    import uuid

    return str(uuid.uuid5(uuid.NAMESPACE_URL, "xlbridge:" + name)).upper()


def build(kind: str, path: str | os.PathLike[str], *, blank: bool = False, force: bool = False) -> Path:
    """Write the workbook of ``kind`` to ``path``; refuses to overwrite unless ``force``."""
    if kind not in BUILDERS:
        raise WorkbookError(f"unknown workbook kind {kind!r}; choose one of {', '.join(BUILDERS)}")
    target = Path(path)
    if target.suffix.lower() != ".xlsx":
        raise WorkbookError(f"{target} must end in .xlsx")
    if target.exists() and not force:
        raise WorkbookError(f"{target} exists; add --force to overwrite it")
    save_atomically(BUILDERS[kind](blank), target)
    return target


def build_all(root: str | os.PathLike[str]) -> list[Path]:
    """(Re)write every shipped workbook and template under ``root``."""
    return [build(kind, Path(root) / rel, blank=blank, force=True) for kind, blank, rel in SHIPPED]


if __name__ == "__main__":  # python -m xlbridge.workbooks: refresh workbooks/ and templates/
    for written in build_all(Path(__file__).resolve().parent.parent):
        print(f"wrote {written}")
