"""A recalculation that changes nothing reads through python-calamine and writes nothing (issue 24, point 8):
the same outcome as the openpyxl path, always -- compared here on the shipped workbooks, the demo seasons and
bad inputs (xlbridge/files/unchanged.py)."""

from __future__ import annotations

import datetime as dt
import io
import re
import shutil
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from xlbridge import cli
from xlbridge.files import headless, unchanged
from xlbridge.files.budget import Budget
from xlbridge.files.package import rewrite
from xlbridge.files.problems import FileProblem
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.plan import BookInputError
from xlbridge.workbooks.record import RECORD, read_record
from xlbridge.workbooks.localised import language_of, localised

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "workbooks").glob("*.xlsx")) + sorted((ROOT / "templates").glob("*.xlsx"))
DEMOS = [ROOT / "workbooks" / "heeg-demo.xlsx", ROOT / "workbooks" / "bridgemania-demo.xlsx"]
WHEN = "2026-01-01 00:00"


@pytest.fixture
def spy(monkeypatch):
    """What the fast path answered, run by run (``None``: the openpyxl path went on)."""
    answers: list = []

    def fast(data, **recalc):
        answers.append(unchanged.unchanged_report(data, **recalc))
        return answers[-1]

    monkeypatch.setattr(headless, "unchanged_report", fast)
    return answers


def _outcome(path: Path):
    try:
        return headless.recalc_path(path, when=WHEN)
    except (BookInputError, FileProblem) as error:
        return type(error).__name__, [str(p) for p in getattr(error, "problems", [error])]


def _openpyxl_only(path: Path, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(headless, "unchanged_report", lambda data, **recalc: None)
        return _outcome(path)


def _cells(path: Path) -> dict:
    """Every value and sheet state of the workbook at ``path``."""
    wb = load_workbook(path)
    return {ws.title: (ws.sheet_state, {p: c.value for p, c in ws._cells.items() if c.value is not None})
            for ws in wb.worksheets}


FORMATS = ["General", "yyyy-mm-dd", "dd/mm/yyyy", "mmm yy", "h:mm", "[h]:mm", "mm:ss", "yyyy-mm-dd hh:mm",
           "[$-409]mmmm d, yyyy", "dd\\.mm\\.yyyy", "m/d/yy h:mm AM/PM", "ss.0", "[s]", '"Date" yyyy', "0.00%", "@",
           "0.0", "#,##0", '0" days"']
ODD = [45000, 45000.5, 0.25, 1.5, 60, 61, -2, 0, 1e-7, 3.14159, 45000.123456, 123456789012345, "Jan ", " x\r\ny ",
       True]


@pytest.mark.parametrize("number_format", FORMATS)
@pytest.mark.slow
def test_calamine_reads_a_value_in_any_format_as_openpyxl_or_declines(number_format):
    """A date, a time, a duration, a number beyond the last date ...: the same value and type, or NotFast."""
    from python_calamine import CalamineWorkbook

    agreed = 0
    for value in ODD:
        wb = load_workbook(ROOT / "templates" / "tbf-club.xlsx")
        wb.active["Z1"] = value
        wb.active["Z1"].number_format = number_format
        buffer = io.BytesIO()
        wb.save(buffer)
        data = buffer.getvalue()
        if unchanged.differs_from_openpyxl(data):  # 1e-07: an exponent
            continue
        try:
            grid = unchanged.CalamineBook(CalamineWorkbook.from_filelike(io.BytesIO(data))).read(wb.active.title)
        except unchanged.NotFast:
            continue
        expected = OpenpyxlBook(load_workbook(io.BytesIO(data))).read(wb.active.title)
        assert (grid[0][25], type(grid[0][25])) == (expected[0][25], type(expected[0][25])), value
        agreed += 1
    assert agreed >= 3  # (text and flags at least are read fast)


@pytest.mark.parametrize("source", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.slow
def test_a_shipped_workbook_is_answered_by_calamine_and_left_untouched(source, tmp_path, spy, monkeypatch):
    fast, slow = tmp_path / "fast" / source.name, tmp_path / "slow" / source.name
    for path in (fast, slow):
        path.parent.mkdir()
        shutil.copyfile(source, path)
    report = _outcome(fast)
    assert spy == [report] and report is not None, "the fast path answered"
    assert fast.read_bytes() == source.read_bytes() and sorted(fast.parent.iterdir()) == [fast]  # no backup either
    assert _openpyxl_only(slow, monkeypatch) == report  # kind, cells, results, changes, warnings, language
    assert _cells(slow) == _cells(source), "the openpyxl path changed nothing either"


@pytest.mark.parametrize("source", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_calamine_reads_every_sheet_as_openpyxl_does(source):
    from python_calamine import CalamineWorkbook

    data = source.read_bytes()
    assert not unchanged.differs_from_openpyxl(data)
    fast = unchanged.CalamineBook(CalamineWorkbook.from_filelike(io.BytesIO(data)))
    slow = OpenpyxlBook(load_workbook(io.BytesIO(data)))
    assert fast.sheet_names() == slow.sheet_names()
    for sheet in slow.sheet_names():
        grid, expected = fast.read(sheet), slow.read(sheet)
        assert grid == expected, sheet
        assert [[type(v) for v in line] for line in grid] == [[type(v) for v in line] for line in expected], sheet


@pytest.mark.slow
def test_the_cli_says_what_it_said(tmp_path, capsys, monkeypatch, spy):
    """`xlbridge recalc` of an unchanged workbook: every line as the openpyxl path prints it."""
    path = tmp_path / "heeg-demo.xlsx"
    said = []
    for fast in (True, False):
        shutil.copyfile(DEMOS[0], path)
        with monkeypatch.context() as patch:
            if not fast:
                patch.setattr(headless, "unchanged_report", lambda data, **recalc: None)
            assert cli.main(["recalc", str(path)]) == 0
        said.append(capsys.readouterr())
    assert spy[0] is not None and said[0] == said[1]
    assert "heeg" in said[0].out and said[0].err == ""


def _typed_and_computed(wb):
    """A recorded typed cell holding a number, and a recorded computed cell (sheet, row, column)."""
    book = localised(OpenpyxlBook(wb), language_of(OpenpyxlBook(wb)))
    record, _ = read_record(book)
    typed = next((book.local(s), r, c) for s in record.sheets for (r, c), v in record.typed(s).items()
                 if type(v) is int and s not in ("chart",))
    computed = next((book.local(s), r, c) for s in record.sheets for (r, c), v in record.computed(s).items()
                    if type(v) in (int, float) and v)
    return typed, computed


def _formula(wb, typed, computed):
    wb[typed[0]].cell(typed[1], typed[2]).value = "=1+1"


def _error(wb, typed, computed):
    wb[typed[0]].cell(typed[1], typed[2]).value = "#REF!"


def _changed(wb, typed, computed):
    cell = wb[typed[0]].cell(typed[1], typed[2])
    cell.value += 1


def _typed_over(wb, typed, computed):
    cell = wb[computed[0]].cell(computed[1], computed[2])
    cell.value += 1000


def _record_shown(wb, typed, computed):
    wb[RECORD].sheet_state = "visible"


def _text(wb, typed, computed):
    wb[typed[0]].cell(typed[1], typed[2]).value = "twelve"


@pytest.mark.parametrize("edit", [_formula, _error, _changed, _typed_over, _record_shown, _text],
                         ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("source", DEMOS, ids=lambda p: p.stem)
@pytest.mark.slow
def test_a_bad_or_changed_input_takes_the_openpyxl_path_with_the_same_outcome(source, edit, tmp_path, spy,
                                                                              monkeypatch):
    wb = load_workbook(source)
    edit(wb, *_typed_and_computed(wb))
    edited = tmp_path / source.name
    wb.save(edited)
    fast, slow = tmp_path / "fast" / source.name, tmp_path / "slow" / source.name
    for path in (fast, slow):
        path.parent.mkdir()
        shutil.copyfile(edited, path)
    outcome = _outcome(fast)
    assert spy == [None], "the fast path declined"
    assert outcome == _openpyxl_only(slow, monkeypatch)
    assert _cells(fast) == _cells(slow)
    if isinstance(outcome, tuple):  # a problem: nothing written
        assert fast.read_bytes() == edited.read_bytes()
    else:
        assert fast.read_bytes() != edited.read_bytes()


def test_a_text_another_program_wrote_with_white_space_unmarked_gives_the_openpyxl_outcome(tmp_path, spy,
                                                                                          monkeypatch):
    """A typed text written back by a program that does not mark its leading space as kept (``<t> ...</t>``):
    calamine would read the text as recorded and answer "nothing typed"; openpyxl reads the space, a change
    the Corrections sheet lists.  The fast path declines, and both runs end alike."""
    wb = load_workbook(TBF)
    record, _ = read_record(OpenpyxlBook(wb))
    sheet, (row, col), text = next((s, at, v) for s in record.sheets for at, v in record.typed(s).items()
                                   if isinstance(v, str))
    part = f"xl/worksheets/sheet{wb.sheetnames.index(sheet) + 1}.xml"
    cell = f'<c r="{wb[sheet].cell(row, col).coordinate}"'.encode()
    fast, slow = tmp_path / "fast.xlsx", tmp_path / "slow.xlsx"
    shutil.copyfile(TBF, fast)
    data = zipfile.ZipFile(TBF).read(part)
    start = data.index(b"<t>", data.index(cell))
    assert data[start + 3:].startswith(text.encode())
    rewrite(fast, {part: data[:start] + b"<t> " + data[start + 3:]})
    shutil.copyfile(fast, slow)
    outcome = _outcome(fast)
    assert spy == [None], "the fast path declined"
    assert outcome == _openpyxl_only(slow, monkeypatch)
    assert [(c.cell, c.old, c.new) for c in outcome.typed] == [(wb[sheet].cell(row, col).coordinate, text, " " + text)]
    assert _cells(fast) == _cells(slow)


EAST_ASIAN_DATES = [*range(27, 37), *range(50, 59)]
BUILT_IN_VALUES = [45000, 45000.5, 0.25, 60, 1.5, 123, -2]


def _in_built_in_format(values: list, number_format: int) -> bytes:
    """A workbook whose first row holds ``values`` in the built-in number format ``number_format``, written by
    its id alone as Excel writes a built-in format."""
    from openpyxl import Workbook

    wb = Workbook()
    for col, value in enumerate(values, start=1):
        wb.active.cell(1, col).value = value
        wb.active.cell(1, col).number_format = "0\\z"  # one of its own, renumbered below
    buffer = io.BytesIO()
    wb.save(buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(buffer) as old, zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            data = old.read(info)
            if info.filename == "xl/styles.xml":
                own = re.search(rb'<numFmt numFmtId="(\d+)" formatCode="0\\z"', data).group(1)
                data = re.sub(rb'(<xf [^>]*numFmtId=")%s"' % own, rb'\g<1>%d"' % number_format, data)
            new.writestr(info, data)
    return out.getvalue()


def test_a_value_in_any_built_in_format_is_read_as_openpyxl_reads_it_or_declined():
    """Excel writes a built-in number format by its id alone; calamine knows the East Asian date formats
    (27-36, 50-58) and reads a date, openpyxl does not and reads the number: those decline."""
    from python_calamine import CalamineWorkbook

    read = 0
    for number_format in range(164):
        data = _in_built_in_format(BUILT_IN_VALUES, number_format)
        assert unchanged.differs_from_openpyxl(data) == (number_format in EAST_ASIAN_DATES), number_format
        if number_format in EAST_ASIAN_DATES:
            continue
        try:
            fast = unchanged.CalamineBook(CalamineWorkbook.from_filelike(io.BytesIO(data))).read("Sheet")
        except unchanged.NotFast:  # (a time, a date before March 1900: declined while reading)
            continue
        slow = OpenpyxlBook(load_workbook(io.BytesIO(data))).read("Sheet")
        assert [(v, type(v)) for v in fast[0]] == [(v, type(v)) for v in slow[0]], number_format
        read += 1
    assert read >= 120  # (133 of the 145 with calamine 0.9: the rest holds a time or a duration)


@pytest.mark.slow
def test_dates_in_an_east_asian_built_in_format_give_the_openpyxl_outcome(tmp_path, spy, monkeypatch):
    """The Heeg demo as a Japanese Excel may keep it: its date formats the built-in 57 (an era date, ge.m.d).  The
    openpyxl path reads the dates as numbers and writes them back as dates in the workbook's format; calamine
    would read dates and answer "nothing to change".  The fast path declines, and both runs end alike."""
    fast, slow = tmp_path / "fast.xlsx", tmp_path / "slow.xlsx"
    shutil.copyfile(DEMOS[0], fast)
    styles = zipfile.ZipFile(DEMOS[0]).read("xl/styles.xml")
    for own in re.findall(rb'<numFmt numFmtId="(\d+)" formatCode="yyyy[^"]*"', styles):
        styles = re.sub(rb'(<xf [^>]*numFmtId=")%s"' % own, rb'\g<1>57"', styles)
    rewrite(fast, {"xl/styles.xml": styles})
    shutil.copyfile(fast, slow)
    outcome = _outcome(fast)
    assert spy == [None], "the fast path declined"
    assert outcome == _openpyxl_only(slow, monkeypatch)
    assert _cells(fast) == _cells(slow)
    assert dt.datetime(2025, 9, 4) in _cells(fast)["Grafiek"][1].values()  # (written back as a date)


MAIN = b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = b"http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _zip(sheet: bytes, strings: bytes | None = None, properties: bytes = b"") -> bytes:
    """A workbook of one sheet whose first row holds ``sheet`` (cells)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("xl/workbook.xml", b"<workbook xmlns='" + MAIN + b"' xmlns:r='" + RELS + b"'>" + properties
                         + b"<sheets><sheet name='S' sheetId='1' r:id='rId1'/></sheets></workbook>")
        archive.writestr("xl/_rels/workbook.xml.rels", b"<Relationships xmlns='http://schemas.openxmlformats.org/"
                         b"package/2006/relationships'><Relationship Id='rId1' Type='" + RELS + b"/worksheet' "
                         b"Target='worksheets/sheet1.xml'/></Relationships>")
        archive.writestr("xl/worksheets/sheet1.xml", b"<worksheet xmlns='" + MAIN + b"'><sheetData><row r='1'>" +
                         sheet + b"</row></sheetData></worksheet>")
        if strings is not None:
            archive.writestr("xl/sharedStrings.xml", strings)
    return buffer.getvalue()


@pytest.mark.parametrize("sheet, strings, properties", [
    (b"<c r='A1'><f>1+1</f><v>2</v></c>", None, b""),  # openpyxl reads "=1+1", calamine 2
    (b"<c r='A1' t='e'><v>#REF!</v></c>", None, b""),
    (b"<c r='A1' t='d'><v>2026-01-01</v></c>", None, b""),
    (b"<c r='A1'><v>6.0</v></c>", None, b""),  # openpyxl: the float 6.0; calamine: 6.0 (read as 6)
    (b"<c r='A1'><v>1E+20</v></c>", None, b""),
    (b"<c r='A1'><v>12345678901234567890</v></c>", None, b""),  # an int beyond a float's digits
    (b"<c r='A1' t='s'><v>0</v></c>", b"<sst><si><t>a_x000D_b</t></si></sst>", b""),
    (b"<c r='A1' t='s'><v>0</v></c>", b"<sst><si><t>a</t><rPh><t>b</t></rPh></si></sst>", b""),
    (b"<c r='A1'><v>6</v></c><c r='B1'><v>7</v></c></row></sheetData><mergeCells><mergeCell ref='A1:B1'/>"
     b"</mergeCells><sheetData><row>", None, b""),  # a value under a merged area: openpyxl empties it
    (b"<c r='A1'><v>6</v></c><c s='0' r='B1'><v>7</v></c></row></sheetData><mergeCells><mergeCell ref='A1:B1'/>"
     b"</mergeCells><sheetData><row>", None, b""),  # (its reference after another attribute)
    (b"<c r='A1'><v>6</v></c><c r='b1'><v>7</v></c></row></sheetData><mergeCells><mergeCell ref='A1:B1'/>"
     b"</mergeCells><sheetData><row>", None, b""),  # (in lower case)
    (b"<c r='A1' xmlns:x='" + MAIN + b"'><x:f>1+1</x:f><v>2</v></c>", None, b""),  # (a prefix for the namespace)
    (b"<c r='A1'><v>6</v></c>", None, b"<workbookPr date1904='1'/>"),
    (b"<c r='A1'><v>6</v></c>", None, b"<workbookPr date1904 = 'TRUE'/>"),  # (calamine: 1900, openpyxl: 1904)
    # calamine's grid would reach these (whole, before a value is read): openpyxl says where
    (b"<c r='XFD1048576'><v>6</v></c>", None, b""),
    (b"<c r='A1'><v>6</v></c></row><row r='100001'><c r='A100001'><v>6</v></c>", None, b""),
    (b"<c r='ALM1'><v>6</v></c>", None, b""),  # column 1001
    (b"<c r='ALL2001'><v>6</v></c>", None, b""),  # in the row and column bounds, 2,001,000 cells
    (b"<c r = 'XFD1'><v>6</v></c>", None, b""),  # a reference spelt otherwise: not counted, declined
    (b"<c\tr='XFD1'><v>6</v></c>", None, b""),
    (b"<c s='1'><v>6</v></c>", None, b""),  # (a cell without its reference)
    (b"<c r='A" + b"9" * 5000 + b"'><v>6</v></c>", None, b""),  # (a row Python's int() refuses to read)
    (b"<c r='A1' t='s'><v>0</v></c>", b"<sst uniqueCount='4000000000'><si><t>a</t></si></sst>", b""),  # room made
    (b"<c r='A1' t='s'><v>0</v></c>", b"<sst uniqueCount='" + b"9" * 5000 + b"'><si><t>a</t></si></sst>", b""),
    # white space at an end of a text not marked as kept: calamine trims it, openpyxl keeps it
    (b"<c r='A1' t='inlineStr'><is><t> a</t></is></c>", None, b""),
    (b"<c r='A1' t='s'><v>0</v></c>", b"<sst><si><t>a\t</t></si></sst>", b""),
    (b"<c r='A1' t='s'><v>0</v></c>", b"<sst><si><r><t>a </t></r><r><t>b</t></r></si></sst>", b""),
    (b"<c r='A1' t='s'><v>0</v></c>", b"<sst><si><t xml:space='default'>a </t></si></sst>", b""),
    (b"<c r='A1' t='s'><v>0</v></c>", b"<sst><si><t>a&#x20;</t></si></sst>", b""),
    (b"<c r='A1' t='s'><v>0</v></c>", b"<sst><si><t><![CDATA[ a]]></t></si></sst>", b""),
    # a text where a number belongs: calamine reads it, openpyxl refuses the file (or reads the number)
    (b"<c r='A1'><v>Jansen</v></c>", None, b""),
    (b"<c r='A1'><v> 5</v></c>", None, b""),
    (b"<c r='A1' t='str'><v><![CDATA[ ]]>a</v></c>", None, b""),
    (b"<c r='A1'><is><t>a</t></is></c>", None, b""),  # (openpyxl reads it only in a cell of type inlineStr)
], ids=["formula", "error", "iso-date", "6.0", "exponent", "20-digits", "escaped", "phonetic", "merged",
        "merged-s-first", "merged-lower", "prefixed", "1904", "1904-otherwise", "far-out", "row-100001",
        "column-1001", "cells-2000000", "spaced", "tab", "no-reference", "row-of-5000-digits",
        "strings-miscounted", "strings-of-5000-digits", "inline-space", "tab-at-end", "run-space", "space-default",
        "space-reference", "cdata", "text-as-number", "spaced-number", "value-cdata", "inline-untyped"])
def test_what_the_readers_read_differently_is_found_before_calamine_reads(sheet, strings, properties):
    assert unchanged.differs_from_openpyxl(_zip(sheet, strings, properties))
    assert not unchanged.differs_from_openpyxl(_zip(b"<c r='A1'><v>6.5</v></c><c r='B1' t='s'><v>0</v></c>",
                                                    b"<sst><si><t>6.0 E</t></si></sst>"))
    assert not unchanged.differs_from_openpyxl(_zip(b"<c r='A1' t='s'><v>1</v></c>",
                                                    b"<sst count='3' uniqueCount='2'><si><t>a</t></si><si><t>b</t>"
                                                    b"</si></sst>"))  # (count: the cells that use one)
    # white space kept (marked, or inside), an empty text, a reference inside: read alike
    assert not unchanged.differs_from_openpyxl(_zip(
        b"<c r='A1' t='s'><v>0</v></c><c r='B1' t='inlineStr'><is><t xml:space=\"preserve\"> b </t></is></c>",
        b"<sst><si><t xml:space='preserve'> a\t</t></si><si><t>a  b&amp;c</t></si><si><t></t></si></sst>"))
    assert not unchanged.differs_from_openpyxl(_zip(b"<c r='A1'><v>6</v></c>", None, b"<workbookPr date1904='false'/>"))
    # within the bounds, found fast or counted
    assert not unchanged.differs_from_openpyxl(_zip(b"<c r='ALL1'><v>6</v></c><c r=\"A2000\"><v>6</v></c>"))
    assert not unchanged.differs_from_openpyxl(_zip(b"<c r='B1'><v>6</v></c></row><row r='100000'>"))
    # a caption merged over empty cells (issue 26, point 6) reads alike
    assert not unchanged.differs_from_openpyxl(_zip(
        b"<c r='A1'><v>6</v></c><c r=\"B1\" s=\"1\"/></row></sheetData><mergeCells><mergeCell ref='A1:C1'/>"
        b"</mergeCells><sheetData><row>"))


@pytest.mark.parametrize("sheet, strings, huge", [
    (b"<c r='XFD1048576'><v>6</v></c>", None, True),
    (b"<c r='A1'><v>6</v></c></row><row r='100001'><c r='A100001'><v>6</v></c>", None, True),
    (b"<c r='ALM1'><v>6</v></c>", None, True),
    (b"<c r='ALL2001'><v>6</v></c>", None, True),
    (b"<c r='A1' t='s'><v>0</v></c>", b"<sst uniqueCount='4000000000'><si><t>a</t></si></sst>", True),
    (b"<c r='A1'><v>6</v></c>", None, False),  # (an ordinary one: calamine reads it)
], ids=["far-out", "row-100001", "column-1001", "cells-2000000", "strings-miscounted", "ordinary"])
def test_calamine_never_opens_a_workbook_whose_grid_would_be_huge(sheet, strings, huge, monkeypatch):
    """calamine makes room for a sheet's whole grid, and for as many shared strings as a workbook says it
    has, before it reads a value: such a workbook is declined before calamine opens it (the openpyxl path
    then says where the far cell is), never after -- whatever else the fast path would look at first."""
    import python_calamine

    opened: list = []

    class Opening:
        @staticmethod
        def from_filelike(handle):
            opened.append(handle)
            raise RuntimeError("(not read in this test)")

    monkeypatch.setattr(python_calamine, "CalamineWorkbook", Opening)
    assert unchanged.unchanged_report(_zip(sheet, strings)) is None
    assert len(opened) == (0 if huge else 1)


def test_the_memory_budget_is_checked_before_calamine_reads(tmp_path, spy):
    path = tmp_path / "heeg-demo.xlsx"
    shutil.copyfile(DEMOS[0], path)
    with pytest.raises(FileProblem):
        headless.recalc_path(path, budget=Budget(total=2 * 1024 * 1024))
    assert spy == [] and path.read_bytes() == DEMOS[0].read_bytes()


@pytest.mark.slow
def test_a_workbook_that_lost_its_lite_code_gets_it_back(tmp_path, spy):
    """The CLI's last step would change the file: the openpyxl path runs, as before."""
    from xlbridge.excel.lite import WEBEXTENSION

    path = tmp_path / "heeg-demo.xlsx"
    with zipfile.ZipFile(DEMOS[0]) as old, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if info.filename != WEBEXTENSION:
                new.writestr(info, old.read(info))
    assert cli._code_lost(set(zipfile.ZipFile(path).namelist()))
    assert cli.main(["recalc", str(path)]) == 0
    assert spy == [] and WEBEXTENSION in zipfile.ZipFile(path).namelist()


def test_a_macro_enabled_workbook_takes_the_openpyxl_path(tmp_path, spy):
    """Whether its macros survive a save is the openpyxl path's to say (it refuses when they would not)."""
    from tests.files.test_file_safety import macro_workbook

    path, _ = macro_workbook(tmp_path)
    headless.recalc_path(path)
    assert spy == [] and headless.backup_path(path).exists()


TBF = ROOT / "workbooks" / "tbf-club.xlsx"
KEEP = object()  # the value the cell holds (the file saved again by openpyxl: nothing to change)
VALUES = st.one_of(st.just(KEEP), st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(-1e6, 1e6, allow_nan=False),
                   st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), max_size=8),
                   st.datetimes(dt.datetime(1899, 12, 1), dt.datetime(2100, 1, 1)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.integers(0, 10**6), value=VALUES)
@pytest.mark.slow
def test_any_value_typed_anywhere_gives_the_openpyxl_outcome(pick, value, tmp_path_factory, monkeypatch):
    """Whatever one typed cell of the TBF club example holds (the same value too): the run with the fast path
    and the openpyxl path alone end alike, in their outcome and in every cell."""
    wb = load_workbook(TBF)
    book = OpenpyxlBook(wb)
    record, _ = read_record(book)
    cells = sorted((s, r, c) for s in record.sheets for (r, c) in record.typed(s))
    sheet, row, col = cells[pick % len(cells)]
    if value is not KEEP:
        wb[sheet].cell(row, col).value = value
    folder = tmp_path_factory.mktemp("typed")
    fast, slow = folder / "fast.xlsx", folder / "slow.xlsx"
    wb.save(fast)
    shutil.copyfile(fast, slow)
    saved = fast.read_bytes()
    assert _outcome(fast) == _openpyxl_only(slow, monkeypatch)
    assert _cells(fast) == _cells(slow)
    if value is KEEP:
        assert fast.read_bytes() == saved  # the fast path left its copy as it was


HELD = "{held}"  # the value the record holds for the cell: a text read as recorded by one reader only
EDGE = st.sampled_from(["", "", " ", "  ", "\t", "\n", "&#32;", "&#x9;", "<!-- c -->", "<![CDATA[ ]]>"])
TEXTS = st.one_of(st.just(HELD), st.tuples(EDGE, st.sampled_from([HELD, HELD, "", "a", "é", "&amp;b", "a;", "&lt;5"]),
                                            EDGE).map("".join))
SPACE = st.sampled_from(["", "", ' xml:space="preserve"', " xml:space='preserve'", ' xml:space="default"'])
NUMBERS = st.one_of(st.integers(-10**7, 10**7).map(str), st.floats(-1e6, 1e6, allow_nan=False).map(repr),
                    st.sampled_from(["+5", " 5", "5 ", "05", ".5", "-0", "1_000", "5.", "1e3", "NaN", "", "x", HELD,
                                     f" {HELD}"]))
CELLS = st.one_of(
    st.builds(lambda kind, space, text: (kind, f'<is><t{space}>{text}</t></is>'),
              st.sampled_from(["inlineStr", "inlineStr", None, "str"]), SPACE, TEXTS),
    st.lists(st.tuples(SPACE, TEXTS), min_size=1, max_size=3).map(
        lambda runs: ("inlineStr", "<is>" + "".join(f"<r><t{s}>{t}</t></r>" for s, t in runs) + "</is>")),
    NUMBERS.map(lambda n: (None, f"<v>{n}</v>")),
    st.sampled_from(["0", "1", "true", "2", " 1"]).map(lambda b: ("b", f"<v>{b}</v>")),
    TEXTS.map(lambda text: ("str", f"<v>{text}</v>")),
    st.just((None, "")))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.booleans(), pick=st.integers(0, 10**6), written=CELLS)
@pytest.mark.slow
def test_any_xml_another_program_writes_for_a_typed_cell_gives_the_openpyxl_outcome(text, pick, written,
                                                                                    tmp_path_factory, monkeypatch):
    """One typed cell of the TBF club example as another program may write it (text marked as kept or not,
    with white space, references, CDATA or comments; numbers spelt as they come; flags; a formula's text
    result; nothing): the run with the fast path and the openpyxl path alone end alike, in every cell."""
    kind, content = written
    wb = load_workbook(TBF)
    record, _ = read_record(OpenpyxlBook(wb))
    cells = sorted((s, r, c) for s in record.sheets for (r, c), v in record.typed(s).items()
                   if not text or isinstance(v, str))  # (text: a cell that holds text)
    sheet, row, col = cells[pick % len(cells)]
    content = content.replace(HELD, escape(str(record.typed(sheet)[row, col])))
    part = f"xl/worksheets/sheet{wb.sheetnames.index(sheet) + 1}.xml"
    reference = wb[sheet].cell(row, col).coordinate
    folder = tmp_path_factory.mktemp("written")
    fast, slow = folder / "fast.xlsx", folder / "slow.xlsx"
    shutil.copyfile(TBF, fast)
    data = zipfile.ZipFile(TBF).read(part)
    found = re.search(rb'<c r="%s"( s="\d+")?[^>]*?(?:/>|>.*?</c>)' % reference.encode(), data)
    kind_attribute = f' t="{kind}"'.encode() if kind else b""
    written = b'<c r="%s"%s%s>%s</c>' % (reference.encode(), found.group(1) or b"", kind_attribute, content.encode())
    rewrite(fast, {part: data[:found.start()] + written + data[found.end():]})
    shutil.copyfile(fast, slow)
    said_fast, said_slow = str(_outcome(fast)), str(_openpyxl_only(slow, monkeypatch))  # (each names its file)
    assert said_fast.replace(str(fast), TBF.name) == said_slow.replace(str(slow), TBF.name)
    if not said_fast.startswith("('FileProblem'"):
        assert _cells(fast) == _cells(slow)


@pytest.mark.slow
def test_a_run_that_changes_nothing_writes_nothing_where_calamine_declines(tmp_path, spy):
    """A formula on the scorer's own notes sheet makes calamine decline (openpyxl reads its text): every later
    run then saved the same workbook again and replaced the backup with it, so the version before the last
    real change was gone.  Now the openpyxl path writes nothing either when no value changed."""
    path = tmp_path / "heeg.xlsx"
    wb = load_workbook(DEMOS[0])
    wb.create_sheet("Notes")["B1"] = "=COUNT(Seizoen!A17:A60)"
    _changed(wb, *_typed_and_computed(wb))  # a real change first: this run writes, the backup is the file before
    wb.save(path)
    before = path.read_bytes()
    assert headless.recalc_path(path, when=WHEN).typed
    saved = path.read_bytes()
    assert saved != before and headless.backup_path(path).read_bytes() == before
    again = headless.recalc_path(path, when=WHEN)
    assert spy[-1] is None, "calamine answered: the test proves nothing"
    assert again.changes == [] and again.typed == [] and again.warnings == []
    assert path.read_bytes() == saved and headless.backup_path(path).read_bytes() == before
