"""Issue 16, point 9: the Chart sheets of the Heeg and BridgeMania workbooks.

Per pair, the Heeg chart shows the evening %, periode and jaar of every evening;
per BridgeMania base pair, the F1, IndyCar and Hybrid PTS after each tournament.
Checked on the shipped demos (in the clubs' languages, as a scorer gets them):
the table's numbers are the evening sheets' / the Championship sheet's, a blank
pair is the leader, an unknown pair is a problem at its cell, the chart drawn by
the builder reads the table's ranges, a headless recalculation keeps it byte for
byte (twice; the second changes nothing), a deleted Chart sheet comes back with
its table and a warning, and LibreOffice draws the chart from the recalculated
cells (its own re-save caches the values it read).
"""

from __future__ import annotations

import datetime as dt

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.files import kept_parts
from xlbridge.files.headless import recalc_path
from xlbridge.files.package import Package, parse_rels, rels_name, resolve
from xlbridge.language import sheet_name, speaking
from xlbridge.workbooks.bridgemania import declaration as bmd
from xlbridge.workbooks.heeg.declaration import CHART_PAIR, EVENING_PREFIX, YEAR, chart_spec, evening_table
from xlbridge.workbooks.recalc import BookInputError

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
HEEG_TABLE = chart_spec(18).tables[0]
EVENING = evening_table(6, ["1", "2", "3"])
GRAFIEK, GRAFICO = sheet_name("Chart", "nl"), sheet_name("Chart", "it")


def documented(ident: str) -> str:
    match = re.search(rf"^\| `{ident}` \|[^|]*\| `([^`]+)` \|", DOCS, re.M)
    assert match, ident
    return match[1]


@pytest.fixture
def heeg(tmp_path: Path) -> Path:
    path = tmp_path / "heeg.xlsx"
    shutil.copy(ROOT / "workbooks" / "heeg-demo.xlsx", path)
    return path


@pytest.fixture
def bm(tmp_path: Path) -> Path:
    path = tmp_path / "bm.xlsx"
    shutil.copy(ROOT / "workbooks" / "bridgemania-demo.xlsx", path)
    return path


def type_into(path: Path, sheet: str, ref: str, value: object) -> None:
    """Type ``value`` as a scorer would in Excel: the cell changes, every other part
    (the chart) stays as it was (openpyxl alone would write the chart again, its way)."""
    kept = kept_parts.carried(path)
    wb = load_workbook(path)
    wb[sheet][ref] = value
    kept_parts.save_keeping(wb, path, kept)


def chart_rows(ws, table) -> list[list[object]]:
    rows = []
    for r in range(table.first_row, table.first_row + table.room):
        line = [ws.cell(row=r, column=table.first_col + i).value for i in range(table.width())]
        if line[0] is not None:
            rows.append(line)
    return rows


# ------------------------------------------------------------------ Heeg


def heeg_pair_evenings(wb, pair: int) -> list[list[object]]:
    """Per evening sheet in date order: date, line, %, periode, jaar of ``pair`` as its row holds them."""
    prefix = sheet_name(EVENING_PREFIX, "nl")
    out = []
    for name in sorted(n for n in wb.sheetnames if n.startswith(prefix)):
        ws = wb[name]
        row = next(r for r in range(2, ws.max_row + 1) if ws.cell(row=r, column=EVENING.col("pair")).value == pair)
        out.append([dt.datetime.fromisoformat(name[len(prefix):]), ws.cell(row=row, column=EVENING.col("line")).value,
                    *(ws.cell(row=row, column=EVENING.col(c)).value for c in ("pct", "period_pct", "year_pct"))])
    return out


@pytest.mark.slow
def test_heeg_blank_pair_is_the_year_leader_with_its_evening_sheet_values(heeg: Path) -> None:
    wb = load_workbook(heeg)
    year = wb[sheet_name(YEAR, "nl")]
    leader = next(year.cell(row=r, column=3).value for r in range(4, year.max_row + 1)
                  if year.cell(row=r, column=1).value == "A" and year.cell(row=r, column=2).value == 1)
    chart = wb[GRAFIEK]
    assert chart[CHART_PAIR.cell].value is None
    rows = chart_rows(chart, HEEG_TABLE)
    assert len(rows) == 18 and rows == heeg_pair_evenings(wb, leader)
    assert chart["A1"].value.startswith(f"Paar {leader} (")
    assert [chart.cell(row=5, column=c).value for c in range(1, 6)] == ["Avond", "Lijn", "Avond %", "periode", "jaar"]


@pytest.mark.slow
def test_heeg_typed_pair_after_a_headless_recalculation(heeg: Path) -> None:
    type_into(heeg, GRAFIEK, "B3", 7)
    report = recalc_path(heeg, backup=False)
    assert report.changes == [] and report.warnings == []  # the chart repeats the evenings: nothing audited
    wb = load_workbook(heeg)
    rows = chart_rows(wb[GRAFIEK], HEEG_TABLE)
    assert rows == heeg_pair_evenings(wb, 7)
    assert isinstance(rows[3][2], float) and rows[3][4] == pytest.approx(sum(r[2] for r in rows[:4]) / 4)
    assert wb[GRAFIEK]["A1"].value.startswith("Paar 7 (")


@pytest.mark.slow
@pytest.mark.parametrize("typed", [99, "zeven"])
def test_heeg_unknown_pair_is_a_problem_at_its_cell_and_nothing_is_written(heeg: Path, typed: object) -> None:
    type_into(heeg, GRAFIEK, "B3", typed)
    before = heeg.read_bytes()
    with pytest.raises(BookInputError) as caught:
        recalc_path(heeg, backup=False)
    [problem] = caught.value.problems
    assert (problem.sheet, problem.cell, problem.code, caught.value.language) == ("Chart", "B3",
                                                                                 "heeg.chart.pair-unknown", "nl")
    with speaking("nl"):  # as the scorer reads it
        shown = str(problem)
    assert shown.startswith(f"{GRAFIEK}, B3: paar {typed} is geen paar van dit seizoen")
    assert "blad Seizoen" in shown
    assert heeg.read_bytes() == before


# ------------------------------------------------------------------ the chart part, kept


def chart_of(path: Path, sheet: str) -> tuple[dict[str, bytes], list[str]]:
    """The chart parts of ``sheet``'s drawing (name -> bytes) and every formula in them."""
    with zipfile.ZipFile(path) as archive:
        package = Package(archive)
        part = package.sheets()[sheet]
        drawing = package.drawing_of(part)
        assert drawing is not None, f"{sheet} has no drawing"
        charts = {}
        for rel in parse_rels(package.read(rels_name(drawing))):
            name = package.find(resolve(drawing, rel.target))
            if name and "/charts/" in name:
                charts[name] = package.read(name)
    formulas = [f for data in charts.values() for f in re.findall(r"<(?:c:)?f>([^<]+)</(?:c:)?f>", data.decode())]
    return charts, formulas


@pytest.mark.slow
@pytest.mark.parametrize("book, sheet, columns", [
    ("heeg", GRAFIEK, ("A", "C", "D", "E")),
    ("bm", GRAFICO, ("A", "C", "D", "E")),
])
def test_the_chart_reads_the_table_and_survives_two_headless_recalculations(request, book, sheet, columns) -> None:
    path = request.getfixturevalue(book)
    charts, formulas = chart_of(path, sheet)
    assert len(charts) == 1
    table = HEEG_TABLE if book == "heeg" else bmd.CHART_TABLE
    last = table.first_row + (18 if book == "heeg" else 20) - 1
    ranges = {f"'{sheet}'!${c}${table.first_row}:${c}${last}" for c in columns}
    headers = {f"'{sheet}'!${c}${table.header_row}" for c in columns[1:]}
    assert ranges | headers == set(formulas)  # the categories, three series and their names: the table
    type_into(path, sheet, "B3", 7 if book == "heeg" else "BE")
    first = recalc_path(path, backup=False)  # openpyxl loads and saves: the carry puts the chart back
    kept, kept_formulas = chart_of(path, sheet)
    assert list(kept.values()) == list(charts.values()) and kept_formulas == formulas
    cells = [list(r) for r in load_workbook(path)[sheet].iter_rows(values_only=True)]
    second = recalc_path(path, backup=False)
    assert second.changes == [] and first.warnings == second.warnings == []
    assert list(chart_of(path, sheet)[0].values()) == list(charts.values())
    assert [list(r) for r in load_workbook(path)[sheet].iter_rows(values_only=True)] == cells


@pytest.mark.slow
def test_a_deleted_chart_sheet_comes_back_with_its_table_and_a_warning(tmp_path: Path, built_once) -> None:
    path = built_once("heeg", tmp_path / "heeg-en.xlsx", language="en")  # docs/errors.md quotes English
    wb = load_workbook(path)
    expected = chart_rows(wb["Chart"], HEEG_TABLE)
    del wb["Chart"]
    wb.save(path)
    report = recalc_path(path, backup=False)
    assert [str(w) for w in report.warnings] == [documented("W-HEEG-CHART-ADDED")]
    ws = load_workbook(path)["Chart"]
    assert chart_rows(ws, HEEG_TABLE) == expected and ws["A3"].value == "Pair" and ws["B3"].value is None
    assert ws["B3"].fill.fgColor.rgb.endswith("FFF2CC")  # typed: yellow
    assert recalc_path(path, backup=False).warnings == []  # said once: the sheet is there again


# ------------------------------------------------------------------ BridgeMania


def after_table(wb, pair: str) -> list[list[object]]:
    """The pair's F1, IndyCar, Hybrid PTS per tournament, from the Championship sheet's 'after' table."""
    ws = wb[sheet_name("Championship", "it")]
    t = bmd.AFTER
    out = []
    for r in range(t.first_row, ws.max_row + 1):
        if ws.cell(row=r, column=t.col("pair")).value == pair:
            out.append([ws.cell(row=r, column=t.col(c)).value for c in ("after", "f1", "indy", "hybrid")])
    return out


@pytest.mark.slow
def test_bm_blank_pair_is_the_leader_with_the_championship_values(bm: Path) -> None:
    wb = load_workbook(bm)
    final = wb[sheet_name("Championship", "it")]
    leader = next(final.cell(row=r, column=2).value for r in range(bmd.FINAL.first_row, final.max_row + 1)
                  if final.cell(row=r, column=1).value == 1)
    rows = chart_rows(wb[GRAFICO], bmd.CHART_TABLE)
    assert len(rows) == 14 and [[r[0], *r[2:]] for r in rows] == after_table(wb, leader)
    assert [r[1] for r in rows[:2]] == [dt.datetime(2019, 9, 20), dt.datetime(2019, 10, 4)]  # the calendar's dates
    assert wb[GRAFICO]["A1"].value.startswith(f"Coppia {leader} (")


@pytest.mark.slow
def test_bm_typed_pair_and_an_unknown_one(bm: Path) -> None:
    type_into(bm, GRAFICO, "B3", "be")  # as the reader takes ids: any case
    assert recalc_path(bm, backup=False).warnings == []
    wb = load_workbook(bm)
    assert [[r[0], *r[2:]] for r in chart_rows(wb[GRAFICO], bmd.CHART_TABLE)] == after_table(wb, "BE")
    type_into(bm, GRAFICO, "B3", "ZZ")
    with pytest.raises(BookInputError) as caught:
        recalc_path(bm, backup=False)
    [problem] = caught.value.problems
    assert (problem.sheet, problem.cell, problem.code, caught.value.language) == ("Chart", "B3",
                                                                                 "bm.chart.pair-unknown", "it")
    with speaking("it"):
        assert str(problem).startswith(f"{GRAFICO}, B3: la coppia ZZ non è una coppia base")


@pytest.mark.slow
def test_bm_deleted_chart_sheet(tmp_path: Path, built_once) -> None:
    path = built_once("bridgemania", tmp_path / "bm-en.xlsx", language="en")
    wb = load_workbook(path)
    expected = chart_rows(wb["Chart"], bmd.CHART_TABLE)
    del wb["Chart"]
    wb.save(path)
    assert [str(w) for w in recalc_path(path, backup=False).warnings] == [documented("W-BM-CHART-ADDED")]
    assert chart_rows(load_workbook(path)["Chart"], bmd.CHART_TABLE) == expected


# ------------------------------------------------------------------ LibreOffice draws the recalculated values


@pytest.mark.slow
def test_libreoffice_draws_the_chart_from_the_recalculated_cells(heeg: Path, tmp_path: Path) -> None:
    """LibreOffice opens the recalculated file and saves it again: the chart it writes
    caches the values it drew, which must be pair 7's (openpyxl's chart has no cache)."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    assert soffice, "LibreOffice (soffice) is needed for this test"
    type_into(heeg, GRAFIEK, "B3", 7)
    recalc_path(heeg, backup=False)
    expected = [r[2] for r in chart_rows(load_workbook(heeg)[GRAFIEK], HEEG_TABLE)]
    out = tmp_path / "lo"
    subprocess.run([soffice, f"-env:UserInstallation=file://{tmp_path / 'profile'}", "--headless", "--convert-to",
                    "xlsx", "--outdir", str(out), str(heeg)], check=True, capture_output=True, timeout=300)
    charts, _ = chart_of(out / heeg.name, GRAFIEK)
    [xml] = [data.decode() for data in charts.values()]
    first_series = xml.split("<c:ser>")[1]
    values = re.search(r"<c:val>.*?</c:val>", first_series, re.S)[0]
    drawn = [float(v) for v in re.findall(r"<c:v>([^<]+)</c:v>", values)]
    assert drawn == pytest.approx(expected)


@pytest.mark.slow
def test_a_scorers_own_sheet_named_chart_in_a_dutch_workbook_is_not_taken_for_grafiek(heeg: Path) -> None:
    """In a Dutch workbook the chart sheet is Grafiek; a sheet the scorer named "Chart"
    is the scorer's (it was read as Grafiek, which then did not exist: a crash)."""
    wb = load_workbook(heeg)
    wb[GRAFIEK].title = "Chart"
    wb.create_sheet("Seizoen (oud)")
    kept_parts.save_keeping(wb, heeg, kept_parts.carried(heeg))
    report = recalc_path(heeg, backup=False)
    assert [w.code for w in report.warnings] == ["heeg.chart.added"]
    wb = load_workbook(heeg)
    assert "Chart" in wb.sheetnames and GRAFIEK in wb.sheetnames
    assert wb["Chart"]["B3"].value is None and wb[GRAFIEK]["A1"].value.startswith("Paar ")
