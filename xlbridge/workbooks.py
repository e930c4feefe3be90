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

from xlbridge.awards import awards
from xlbridge.examples import TBF_CLUB, ranks_from_scores, tbf_club_results
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


# ------------------------------------------------------------------ TBF club tournament

TBF_HEADERS = ["Pair", "Players", "Score %", "Place", "MP", "Colour"]
TBF_FIRST_ROW = 9  # first result row; settings above


def tbf_club(blank: bool = False) -> Workbook:
    """A TBF club pairs tournament: settings, results typed by the scorer (pair,
    players, score) and the computed place, MP and colour."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Tournament"
    ws["A1"] = "TBF club tournament — masterpoints (TBF Masterpoint v2.0)"
    ws["A1"].font = TITLE_FONT
    settings = [("Scheme", TBF_CLUB["scheme"]), ("Boards", None if blank else TBF_CLUB["boards"]),
                ("Options", ""), ("Event", "" if blank else "Club pairs, Howell (synthetic example)")]
    for offset, (label, value) in enumerate(settings):
        ws.cell(row=3 + offset, column=1, value=label).font = Font(bold=True)
        cell = ws.cell(row=3 + offset, column=2, value=value)
        cell.fill = INPUT_FILL
    style_header(ws, TBF_FIRST_ROW - 1, TBF_HEADERS, [7, 34, 10, 8, 9, 9])
    ws.freeze_panes = ws.cell(row=TBF_FIRST_ROW, column=1)
    if not blank:
        entries = tbf_club_results()
        ranks = ranks_from_scores([e.score for e in entries])
        results = awards(TBF_CLUB["scheme"], ranks, boards=TBF_CLUB["boards"])
        for row, (entry, rank, result) in enumerate(zip(entries, ranks, results), start=TBF_FIRST_ROW):
            ws.cell(row=row, column=1, value=entry.pair)
            ws.cell(row=row, column=2, value=entry.players)
            ws.cell(row=row, column=3, value=entry.score).number_format = "0.00"
            ws.cell(row=row, column=4, value=rank)
            ws.cell(row=row, column=5, value=result.points).number_format = "0.00"
            ws.cell(row=row, column=6, value=result.unit)
    help_ws = wb.create_sheet("How to")
    lines = [
        "How to use this workbook",
        "",
        "1. Type the scheme, the boards and any options in the yellow cells of the Tournament sheet.",
        "2. Type one row per pair: pair number, players, score in percent.",
        "3. Place, MP and Colour are computed by xlbridge (recalculate, or the worksheet functions below).",
        "",
        "Worksheet functions (with the xlbridge add-in):",
        '=AWARD("tr.club", 1, 26, "boards=24")  ->  0.62',
        '=AWARD_UNIT("tr.club", 1, 26)  ->  green',
        '=AWARDS("tr.club", D9:D28, "boards=26")  ->  two columns: MP and colour for every place',
        "=TBF_MASTERY(yellow, red, green, white)  ->  mastery points (ustalık puanı)",
        "=TBF_TITLE(mastery, yellow)  ->  the Tablo-5 title",
        "",
        "MP are kept to 4 decimals and shown with 2 (TBF Masterpoint v2.0, section 13).",
    ]
    for row, text in enumerate(lines, start=1):
        help_ws.cell(row=row, column=1, value=text)
    help_ws["A1"].font = TITLE_FONT
    help_ws.column_dimensions["A"].width = 100
    return wb


# ------------------------------------------------------------------ registry of kinds

BUILDERS: dict[str, Callable[[bool], Workbook]] = {
    "tbf-club": tbf_club,
    "bridgemania": bridgemania_workbook,
    "heeg": heeg_workbook,
}

#: What the repository ships: (kind, blank, path relative to the repository root).
SHIPPED = [
    ("tbf-club", False, "workbooks/tbf-club.xlsx"),
    ("tbf-club", True, "templates/tbf-club.xlsx"),
    ("bridgemania", False, "workbooks/bridgemania-demo.xlsx"),
    ("bridgemania", True, "templates/bridgemania-season.xlsx"),
    ("heeg", False, "workbooks/heeg-demo.xlsx"),
    ("heeg", True, "templates/heeg-season.xlsx"),
]


def save_atomically(wb: Workbook, path: Path) -> None:
    """Write to a temporary file in the same folder, embed the xlwings Lite code
    (the last step: openpyxl would drop it), then replace: a reader never sees
    half a file and an error leaves the old file as it was."""
    from xlbridge.excel import lite
    from xlbridge.excel.lite_bundle import lite_files

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
