"""Results a club can print (issue 16, points 4-6): the Corrections sheet every kind
shares, and the print setup of the sheets a recalculation adds."""

from __future__ import annotations

from openpyxl import load_workbook

from xlbridge.excel.shipped import build
from xlbridge.files.headless import recalc_path
from xlbridge.workbooks.write import CORRECTIONS_HEADER

WHEN = "2026-11-30 12:00"


def _late_heeg_correction(path):
    """Six more MP in R1 of the first pair of the first evening of the Heeg demo."""
    wb = load_workbook(path)
    ws = next(ws for ws in wb.worksheets if ws.title.startswith("Evening "))
    ws["D2"] = ws["D2"].value + 6
    wb.save(path)
    return ws.title


def test_corrections_sheet_is_readable_and_next_to_the_season(tmp_path):
    path = build("heeg", tmp_path / "heeg.xlsx")
    evening = _late_heeg_correction(path)
    report = recalc_path(path, when=WHEN)
    assert report.changes
    wb = load_workbook(path)
    assert wb.sheetnames[:2] == ["Season", "Corrections"]  # not after 18 evening tabs
    ws = wb["Corrections"]
    header = [c.value for c in ws[1]]
    assert header == CORRECTIONS_HEADER == ["When", "Sheet", "Cell", "Pair", "Column", "Old value", "New value"]
    assert all(c.font.bold and c.fill.start_color.rgb == "FF1F4E78" for c in ws[1])  # the house header
    assert ws.freeze_panes == "A2"
    assert ws.column_dimensions["B"].width >= len(evening)  # the sheet name is not cut off
    assert ws.page_setup.orientation == "landscape" and ws.print_title_rows == "$1:$1"
    rows = list(ws.iter_rows(min_row=2))
    assert len(rows) == len(report.changes)
    pct = [r for r in rows if r[4].value == "%"]
    assert pct, "a changed % is listed"
    for r in pct:  # 95.83333 shows as 95.83: the number format of the % column
        assert isinstance(r[5].value, float) and r[5].number_format == "0.00" and r[6].number_format == "0.00"


def test_an_earlier_corrections_sheet_keeps_its_columns(tmp_path):
    """A Corrections sheet made by an earlier xlbridge (with an Event column) gets its rows under its own header."""
    path = build("tbf-club", tmp_path / "club.xlsx")
    wb = load_workbook(path)
    old = wb.create_sheet("Corrections")
    old.append(["When", "Sheet", "Cell", "Event", "Pair", "Column", "Old value", "New value"])
    wb["Tournament"]["C28"] = 70.0
    wb.save(path)
    recalc_path(path, when=WHEN)
    rows = [[c.value for c in r] for r in load_workbook(path)["Corrections"].iter_rows()]
    assert [WHEN, "Tournament", "D28", "Tournament", "20", "Place", 20, 1] in rows


def test_a_sheet_the_recalculation_adds_prints_like_the_template(tmp_path):
    """An evening sheet and the Year sheet a recalculation (re)creates: landscape, one page wide,
    the header row on every page."""
    path = build("heeg", tmp_path / "heeg.xlsx")
    wb = load_workbook(path)
    evening = next(ws.title for ws in wb.worksheets if ws.title.startswith("Evening "))
    del wb[evening]
    del wb["Year"]
    wb.save(path)
    recalc_path(path, when=WHEN)
    wb = load_workbook(path)
    for name, repeat in ((evening, "$1:$1"), ("Year", "$1:$3")):
        ws = wb[name]
        assert ws.page_setup.orientation == "landscape", name
        assert ws.sheet_properties.pageSetUpPr.fitToPage and ws.page_setup.fitToWidth == 1, name
        assert ws.page_setup.fitToHeight == 0, name
        assert ws.print_title_rows == repeat, name
