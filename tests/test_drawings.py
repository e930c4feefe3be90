"""Sheet drawings: the button shape (xlbridge/files/drawings.py) and keeping every
sheet's drawing byte for byte through a headless recalculation (xlbridge/files/kept_parts.py)."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.comments import Comment
from openpyxl.worksheet.table import Table

from xlbridge.excel import button
from xlbridge.files import drawings
from xlbridge.files import package as opc
from tests import lite_files
from xlbridge.files import kept_parts
from xlbridge.files.package import NS_MAIN, NS_R, Package
from xlbridge.files.headless import recalc_path

WHEN = "2026-11-30 12:00"
#: CT_Worksheet's children in schema order (ECMA-376 part 1, sml.xsd)
WORKSHEET_ORDER = [
    "sheetPr", "dimension", "sheetViews", "sheetFormatPr", "cols", "sheetData", "sheetCalcPr", "sheetProtection",
    "protectedRanges", "scenarios", "autoFilter", "sortState", "dataConsolidate", "customSheetViews", "mergeCells",
    "phoneticPr", "conditionalFormatting", "dataValidations", "hyperlinks", "printOptions", "pageMargins",
    "pageSetup", "headerFooter", "rowBreaks", "colBreaks", "customProperties", "cellWatches", "ignoredErrors",
    "smartTags", "drawing", "legacyDrawing", "legacyDrawingHF", "drawingHF", "picture", "oleObjects", "controls",
    "webPublishItems", "tableParts", "extLst",
]


# ------------------------------------------------------------------ helpers

def parts_of(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None
        return {name: archive.read(name) for name in archive.namelist()}


def sheet_drawing(path: Path, sheet: str) -> tuple[str, dict[str, bytes]]:
    """The drawing part of ``sheet`` and every part it refers to (by the package's own links)."""
    found = drawings.sheet_drawings(path)
    assert sheet in found, f"{path.name}: sheet {sheet!r} has no drawing"
    return found[sheet].drawing, found[sheet].parts


def assert_valid_package(path: Path) -> None:
    """Every XML part parses, every content type is declared, every sheet has at most
    one drawing at its place in CT_Worksheet, every drawing part belongs to one sheet,
    and openpyxl opens the file."""
    parts = parts_of(path)
    for name, data in parts.items():
        if name.endswith((".xml", ".rels", ".vml")):
            ET.fromstring(data)
    package = Package(parts)
    overrides, defaults = package.content_types()
    for name in parts:
        if name != "[Content_Types].xml":
            ext = name.rsplit(".", 1)[-1].lower()
            assert name.lower() in overrides or ext in defaults, f"{path.name}: {name} has no content type"
    for name in overrides:
        assert package.find(name), f"{path.name}: an Override names {name}, which is not in the package"
    used = []
    for sheet, part in package.sheets().items():
        children = [child.tag.rsplit("}", 1)[-1] for child in ET.fromstring(parts[part])]
        assert children.count("drawing") <= 1, f"{sheet}: {children.count('drawing')} drawings"
        known = [c for c in children if c in WORKSHEET_ORDER]
        assert known == sorted(known, key=WORKSHEET_ORDER.index), f"{sheet}: children out of order: {known}"
        if (drawing := package.drawing_of(part)) is not None:
            assert drawing in package, f"{sheet}: its drawing {drawing} is missing"
            used.append(drawing)
    drawing_parts = [n for n, t in overrides.items() if t == opc.CT_DRAWING]
    assert sorted(d.lower() for d in used) == sorted(drawing_parts), "a drawing that no sheet uses, or one used twice"
    load_workbook(path)


def drawing_elements(path: Path, sheet: str) -> int:
    package = Package(parts_of(path))
    root = ET.fromstring(package.read(package.sheets()[sheet]))
    return len(root.findall(f"{{{NS_MAIN}}}drawing"))


@pytest.fixture
def plain(tmp_path) -> Path:
    """A workbook as openpyxl writes it, with what follows <drawing> in a worksheet
    (a comment's legacyDrawing, a table's tableParts) and sheet names to quote."""
    wb = Workbook()
    season = wb.active
    season.title = "Season"
    season.append(["Pair", "Score"])
    for n in range(1, 6):
        season.append([f"pair {n}", 50 + n])
    season["A1"].comment = Comment("typed by the scorer", "scorer")
    season.add_table(Table(displayName="Scores", ref="A1:B6"))
    season.page_setup.orientation = "landscape"
    other = wb.create_sheet("Club's results")
    other["A1"] = "notes"
    path = tmp_path / "plain.xlsx"
    wb.save(path)
    return path


@pytest.fixture
def club(tmp_path, built_once) -> Path:
    """The TBF club workbook with a button on "Tournament" (the builder may add it already)."""
    path = built_once("tbf-club", tmp_path / "club.xlsx", language="en")
    if not any(b["sheet"] == "Tournament" for b in button.buttons(path)):
        button.add_button(path, "Tournament", name="xlbridge_button", label="Recalculate season", cell="B2")
    return path


# ------------------------------------------------------------------ the button

def test_a_button_reads_back_and_the_file_stays_valid(plain):
    button.add_button(plain, "Season", name="xlbridge_button", label="Recalculate season", cell="D2")
    button.add_button(plain, "Club's results", name="other", label="Two\nlines", cell="$c$4",
                        fill="#FF336699", font="000000")
    assert button.buttons(plain) == [
        {"sheet": "Season", "name": "xlbridge_button", "label": "Recalculate season", "target": "#'Season'!D2",
         "external": False, "cell": "D2"},
        {"sheet": "Club's results", "name": "other", "label": "Two\nlines", "target": "#'Club''s results'!C4",
         "external": False, "cell": "C4"},
    ]
    assert_valid_package(plain)
    parts = parts_of(plain)
    drawing, _ = sheet_drawing(plain, "Season")
    assert b'<a:hlinkClick xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1"' \
        in parts[drawing]
    assert b'<a:prstGeom prst="roundRect">' in parts[drawing] and b'<a:srgbClr val="1F4E78"/>' in parts[drawing]
    assert b'b="1"' in parts[drawing] and b'algn="ctr"' in parts[drawing]
    assert b"<xdr:oneCellAnchor><xdr:from><xdr:col>3</xdr:col>" in parts[drawing]
    assert f'<xdr:ext cx="{button.width("Recalculate season") * 9525}" cy="381000"/>'.encode() in parts[drawing]
    assert b'<xdr:clientData fPrintsWithSheet="0"/>' in parts[drawing]
    rels = parts[opc.rels_name(drawing)].decode()
    assert "TargetMode" not in rels and opc.REL_HYPERLINK in rels
    other, _ = sheet_drawing(plain, "Club's results")
    assert b'<a:srgbClr val="336699"/>' in parts[other] and b"<xdr:row>3</xdr:row>" in parts[other]
    types = parts["[Content_Types].xml"].decode()
    for part in (drawing, other):
        assert f'<Override PartName="/{part}" ContentType="{opc.CT_DRAWING}"/>' in types
    # the comment, the table and the page setup survived next to the drawing
    wb = load_workbook(plain)
    assert wb["Season"]["A1"].comment.text == "typed by the scorer" and "Scores" in wb["Season"].tables
    assert wb["Season"].page_setup.orientation == "landscape"


def test_the_button_is_a_pure_function_of_its_inputs(plain, tmp_path):
    copy = tmp_path / "copy.xlsx"
    shutil.copy2(plain, copy)
    for path in (plain, copy):
        button.add_button(path, "Season", name="b", label="Go", cell="B2")
    assert plain.read_bytes() == copy.read_bytes()


def test_the_sheet_is_found_by_its_name_not_its_part_number(plain, tmp_path):
    """Swap the parts of the two sheets (sheet1.xml is the second sheet): the button
    must go into the part that xl/workbook.xml links to the sheet's name."""
    parts = parts_of(plain)
    swap = {"xl/worksheets/sheet1.xml": "xl/worksheets/sheet2.xml",
            "xl/worksheets/sheet2.xml": "xl/worksheets/sheet1.xml",
            "xl/worksheets/_rels/sheet1.xml.rels": "xl/worksheets/_rels/sheet2.xml.rels"}
    swapped = {swap.get(name, name): data for name, data in parts.items()}
    rels = swapped["xl/_rels/workbook.xml.rels"].decode()
    rels = rels.replace("sheet1.xml", "@").replace("sheet2.xml", "sheet1.xml").replace("@", "sheet2.xml")
    swapped["xl/_rels/workbook.xml.rels"] = rels.encode()
    path = tmp_path / "swapped.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in swapped.items():
            archive.writestr(name, data)
    assert load_workbook(path)["Season"]["B2"].value == 51
    button.add_button(path, "Season", name="b", label="Go", cell="B2")
    after = parts_of(path)
    assert b"<drawing" in after["xl/worksheets/sheet2.xml"] and b"<drawing" not in after["xl/worksheets/sheet1.xml"]
    assert "xl/worksheets/_rels/sheet2.xml.rels" in after
    assert [b["sheet"] for b in button.buttons(path)] == ["Season"]
    assert_valid_package(path)


def test_a_button_joins_a_sheet_that_has_a_chart(tmp_path):
    wb = Workbook()
    ws = wb.active
    ws.title = "Season"
    for n in range(1, 6):
        ws.append([n, n * n])
    chart = BarChart()
    chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=5))
    ws.add_chart(chart, "D2")
    path = tmp_path / "chart.xlsx"
    wb.save(path)
    before, _ = sheet_drawing(path, "Season")
    button.add_button(path, "Season", name="b", label="Go", cell="J2")
    drawing, parts = sheet_drawing(path, "Season")
    assert drawing == before and drawing_elements(path, "Season") == 1
    assert b"graphicFrame" in parts[drawing] and b'name="b"' in parts[drawing]
    ids = [e.get("id") for e in ET.fromstring(parts[drawing]).iter(f"{{{opc.NS_XDR}}}cNvPr")]
    assert len(ids) == len(set(ids)) == 2
    assert [b["name"] for b in button.buttons(path)] == ["b"]
    assert len(load_workbook(path)["Season"]._charts) == 1
    assert_valid_package(path)


@pytest.mark.parametrize("kwargs, message", [
    ({"sheet": "Nope"}, "no worksheet named 'Nope'"),
    ({"cell": "B0"}, "not a cell reference"),
    ({"cell": "Season!B2"}, "not a cell reference"),
    ({"fill": "blue"}, "not an RGB colour"),
    ({"label": " "}, "a name and a label"),
])
def test_a_bad_button_is_refused_and_the_file_untouched(plain, kwargs, message):
    before = plain.read_bytes()
    args = {"sheet": "Season", "name": "b", "label": "Go", "cell": "B2", **kwargs}
    with pytest.raises(ValueError, match=message):
        button.add_button(plain, args.pop("sheet"), **args)
    assert plain.read_bytes() == before


def test_two_buttons_of_one_name_on_a_sheet_are_refused(plain):
    button.add_button(plain, "Season", name="b", label="Go", cell="B2")
    with pytest.raises(ValueError, match="already has a shape named 'b'"):
        button.add_button(plain, "Season", name="b", label="Again", cell="D2")


# ------------------------------------------------------------------ through a headless recalculation

def test_the_button_survives_recalculations_byte_for_byte(club):
    drawing, before = sheet_drawing(club, "Tournament")
    shown = button.buttons(club)
    code = lite_files.extract(club)
    assert code
    for run in (1, 2):
        recalc_path(club, when=WHEN)
        after_drawing, after = sheet_drawing(club, "Tournament")
        assert after[after_drawing] == before[drawing], f"run {run}: the drawing part changed"
        assert after == {after_drawing if n == drawing else n: d for n, d in before.items()}, f"run {run}"
        assert button.buttons(club) == shown, f"run {run}"
        types = parts_of(club)["[Content_Types].xml"].decode()
        assert f'PartName="/{after_drawing}" ContentType="{opc.CT_DRAWING}"' in types
        assert drawing_elements(club, "Tournament") == 1
        assert lite_files.extract(club) == code, f"run {run}: the Lite code was lost"
        assert_valid_package(club)


def chart_workbook(club: Path) -> Path:
    """The club workbook with an openpyxl BarChart on "Tournament" (beside the
    button) and on "How to", saved by openpyxl (which drops the button and the
    Lite parts: both are put back as a builder would)."""
    source = club.with_name("source.xlsx")
    shutil.copy2(club, source)
    wb = load_workbook(club)
    for title, anchor in (("Tournament", "J2"), ("How to", "F2")):
        ws = wb[title]
        chart = BarChart()
        chart.title = f"chart on {ws.title}"
        chart.add_data(Reference(wb["Tournament"], min_col=3, min_row=9, max_row=28))
        ws.add_chart(chart, anchor)
    kept_parts.save_keeping(wb, club, kept_parts.Carried(extras=kept_parts.carried(source).extras))
    button.add_button(club, "Tournament", name="xlbridge_button_2", label="Recalculate season", cell="H2")
    return club


def test_openpyxl_charts_survive_recalculations_byte_for_byte(club):
    chart_workbook(club)
    before = drawings.sheet_drawings(club)
    assert len(before) == 2 and all(any("charts/chart" in n for n in d.parts) for d in before.values())
    for run in (1, 2):
        recalc_path(club, when=WHEN)
        after = drawings.sheet_drawings(club)
        assert set(after) == set(before)
        for sheet, carried in before.items():
            now = after[sheet]
            assert now.parts[now.drawing] == carried.parts[carried.drawing], f"run {run}: {sheet}'s drawing changed"
            assert sorted(now.parts.values()) == sorted(carried.parts.values()), f"run {run}: {sheet}: a part changed"
            assert drawing_elements(club, sheet) == 1
        assert_valid_package(club)
        wb = load_workbook(club)
        assert {ws.title: len(ws._charts) for ws in wb.worksheets if ws._charts} == {s: 1 for s in before}
    assert "xlbridge_button_2" in [b["name"] for b in button.buttons(club)]


def test_a_carried_drawing_moves_aside_for_what_openpyxl_writes(club, tmp_path):
    """A sheet added before saving gets openpyxl's own chart: openpyxl writes
    drawing1.xml and chart1.xml, the names the carried drawing had; the carried
    parts move to free names, their links re-targeted, their bytes unchanged."""
    chart_workbook(club)
    carried = kept_parts.carried(club)
    wb = load_workbook(club)
    new = wb.create_sheet("Added")
    new.append([1])
    new.append([2])
    chart = BarChart()
    chart.add_data(Reference(new, min_col=1, min_row=1, max_row=2))
    new.add_chart(chart, "C2")
    out = tmp_path / "out.xlsx"
    kept_parts.save_keeping(wb, out, carried)
    assert_valid_package(out)
    after = drawings.sheet_drawings(out)
    assert set(after) == set(carried.drawings) | {"Added"}
    taken = {n for d in carried.drawings.values() for n in d.parts}
    assert after["Added"].drawing in taken  # openpyxl did take a carried name ...
    for sheet, was in carried.drawings.items():
        now = after[sheet]
        assert now.parts[now.drawing] == was.parts[was.drawing]
        owners = lambda d: sorted(v for n, v in d.parts.items() if not n.endswith(".rels"))  # noqa: E731
        assert owners(now) == owners(was)  # ... so the carried ones moved, bytes unchanged
    assert not set(after["Added"].parts) & {n for s in carried.drawings for n in after[s].parts}
    assert lite_files.extract(out) == lite_files.extract(club)
    assert {ws.title: len(ws._charts) for ws in load_workbook(out).worksheets if ws._charts} == \
        {"Tournament": 1, "How to": 1, "Added": 1}


def test_a_deleted_sheet_takes_its_drawing_along(club, tmp_path):
    button.add_button(club, "How to", name="b", label="Go", cell="B2")
    carried = kept_parts.carried(club)
    wb = load_workbook(club)
    del wb["How to"]
    out = tmp_path / "out.xlsx"
    kept_parts.save_keeping(wb, out, carried)
    assert [b["sheet"] for b in button.buttons(out)] == ["Tournament"]
    assert_valid_package(out)


def test_an_image_keeps_its_media_part_and_default_content_type(club, tmp_path):
    """A picture (as Excel stores one: xl/media/image1.png, typed by a Default
    entry) on the button's sheet survives a recalculation with its bytes."""
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5f6f2e40000000049454e44ae426082")
    parts = parts_of(club)
    drawing, _ = sheet_drawing(club, "Tournament")
    pic = ('<xdr:oneCellAnchor><xdr:from><xdr:col>9</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row>'
           '<xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx="95250" cy="95250"/><xdr:pic><xdr:nvPicPr>'
           '<xdr:cNvPr id="9" name="Picture 8"/><xdr:cNvPicPr/></xdr:nvPicPr><xdr:blipFill>'
           f'<a:blip xmlns:r="{NS_R}" r:embed="rId9"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>'
           '<xdr:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/>'
           '</xdr:oneCellAnchor></xdr:wsDr>')
    parts[drawing] = parts[drawing].replace(b"</xdr:wsDr>", pic.encode())
    rels = opc.rels_name(drawing)
    parts[rels] = parts[rels].replace(b"</Relationships>", (
        f'<Relationship Id="rId9" Type="{NS_R}/image" Target="../media/image1.png"/></Relationships>').encode())
    parts["xl/media/image1.png"] = png
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b"<Default ", b'<Default Extension="png" ContentType="image/png"/><Default ', 1)
    with zipfile.ZipFile(club, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    assert_valid_package(club)
    before = drawings.sheet_drawings(club)["Tournament"]
    assert before.defaults == {"xl/media/image1.png": "image/png"}
    recalc_path(club, when=WHEN)
    after = drawings.sheet_drawings(club)["Tournament"]
    assert after.parts == before.parts and after.defaults == before.defaults
    assert_valid_package(club)


def test_a_failed_save_with_drawings_adds_nothing(club, tmp_path, monkeypatch):
    from openpyxl.writer import excel

    def broken(self):
        self._archive.writestr("xl/worksheets/sheet1.xml", b"<worksheet/>")
        raise OSError("disk full")

    monkeypatch.setattr(excel.ExcelWriter, "write_data", broken)
    with pytest.raises(OSError, match="disk full"):
        kept_parts.save_keeping(load_workbook(club), tmp_path / "broken.xlsx", kept_parts.carried(club))
    with zipfile.ZipFile(tmp_path / "broken.xlsx") as archive:
        assert archive.namelist() == []
