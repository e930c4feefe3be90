"""Issue 25, failures 6 to 10 and 13: sheet names, chart sheets and the record.

6. ``xlbridge next --name Corrections`` (``Messages``, another language's ``Correcties``, ``xlbridge``);
7. a scorer's own sheet named ``xlbridge`` (no record in it), in the four kinds;
8. a chart sheet (Excel's Move Chart, New sheet) in the four kinds, an empty one, one named ``xlbridge``;
9. a sheet named like xlbridge's own in another case (``XLBridge``, ``CORRECTIONS``, ``season``, a Dutch
   ``CORRECTIES``);
10. ``xlbridge next --name`` against Excel's rules (``t14`` when T14 is there, 5,000 characters,
    ``'quoted'``, ``a/b``, ``History``);
13. a record claiming 100,000 typed cells, another workbook's record (the sheet copied), a Heeg record in a
    BridgeMania season, a record of more than 2 million cells.

A refused run holds when it exits 2 with ``xlbridge: error:`` lines naming the problem, no traceback, the
file byte for byte and no backup; a run that goes on holds when it exits 0 and keeps what it must (the
chart sheet's parts byte for byte; no "your change" row from a record that is not this workbook's).  The
builders (:func:`with_chart_sheet`, ...) write the attack files from a workbook ``xlbridge new`` made
(saved with every part kept: :func:`xlbridge.files.kept_parts.save_keeping`); the tests use them too.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.attacks import Case, Run, Tree, group
from tools.attacks.bounds import MEMORY_MB, new_workbook

KINDS = ("heeg", "bridgemania", "tbf-club", "se-masterpoints")


# ------------------------------------------------------------------ the attack files


def edited(source: Path, target: Path, edit: Callable[[Any], object]) -> Path:
    """``source`` loaded with openpyxl, ``edit(workbook)``, saved to ``target`` with every part openpyxl
    does not write kept (the Lite code, the buttons, the charts)."""
    import io

    from xlbridge.files import kept_parts
    from xlbridge.files.headless import check_bytes, load_checked

    data = source.read_bytes()
    workbook = load_checked(data, source.name, check_bytes(data, source.name))
    edit(workbook)
    kept_parts.save_keeping(workbook, target, kept_parts.carried(io.BytesIO(data)))
    return target


def with_chart_sheet(source: Path, target: Path, title: str = "Chart1", empty: bool = False) -> Path:
    """``source`` with a chart sheet ``title`` (a bar chart of the first sheet's column B, as Excel's Move
    Chart, New sheet makes one; ``empty``: no chart on it), after the last sheet."""
    from openpyxl.chart import BarChart, Reference

    def add(workbook: Any) -> None:
        if title in workbook.sheetnames:
            del workbook[title]
        sheet = workbook.create_chartsheet(title)
        if not empty:
            chart = BarChart()
            chart.add_data(Reference(workbook.worksheets[0], min_col=2, min_row=1, max_row=8))
            sheet.add_chart(chart)

    edited(source, target, add)
    return target if empty else as_excel_writes(target)


#: What Excel writes with a chart and openpyxl does not keep: a colour style part (and a comment in the chart).
COLORS = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cs:colorStyle '
          b'xmlns:cs="http://schemas.microsoft.com/office/drawing/2012/chartStyle" '
          b'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" meth="cycle" id="10">'
          b'<a:schemeClr val="accent1"/></cs:colorStyle>')
REL_COLORS = "http://schemas.microsoft.com/office/2011/relationships/chartColorStyle"
CT_COLORS = "application/vnd.ms-office.chartcolorstyle+xml"


def as_excel_writes(path: Path) -> Path:
    """The chart of the workbook's chart sheet given what Excel writes and openpyxl would drop on a save: a
    comment in the chart's XML and a colour style part (``xl/charts/colors1.xml``) the chart refers to."""
    from xlbridge.files.package import CONTENT_TYPES, add_override, add_relationship, relative, rels_name, rewrite

    chart = next(n for parts in chart_sheet_parts(path).values() for n in parts if n.startswith("xl/charts/chart"))
    with zipfile.ZipFile(path) as archive:
        xml, types = archive.read(chart), archive.read(CONTENT_TYPES)
        rels = archive.read(rels_name(chart)) if rels_name(chart) in archive.namelist() else None
    head, body = xml.split(b"?>", 1) if xml.startswith(b"<?xml") else (b"<?xml version=\"1.0\"", xml)
    rels, _ = add_relationship(rels, REL_COLORS, relative(chart, "xl/charts/colors1.xml"))
    rewrite(path, {chart: head + b"?><!-- as Excel writes it -->" + body, rels_name(chart): rels,
                   "xl/charts/colors1.xml": COLORS,
                   CONTENT_TYPES: add_override(types, "xl/charts/colors1.xml", CT_COLORS)})
    return path


def with_sheet(source: Path, target: Path, title: str, replace: str | None = None) -> Path:
    """``source`` with a scorer's own sheet ``title`` (two values in it); ``replace``: a sheet it takes the
    place of (deleted first: openpyxl, like Excel, allows no two names that differ only in case)."""

    def add(workbook: Any) -> None:
        if replace is not None:
            del workbook[replace]
        sheet = workbook.create_sheet(title)
        sheet["A1"], sheet["B2"] = "my own notes", 42

    return edited(source, target, add)


def renamed(source: Path, target: Path, old: str, new: str) -> Path:
    def rename(workbook: Any) -> None:
        workbook[old].title = "xlbridge-renaming"  # (openpyxl takes ``old`` itself for a name ``new`` clashes with)
        workbook["xlbridge-renaming"].title = new

    return edited(source, target, rename)


def record_of(path: Path) -> dict:
    """The record (``xlbridge`` sheet) of the workbook at ``path``, as JSON."""
    from openpyxl import load_workbook

    sheet = load_workbook(path)["xlbridge"]
    return json.loads("".join(c.value[1:] for c in sheet["A"][1:] if isinstance(c.value, str)))


def with_record(source: Path, target: Path, record: dict) -> Path:
    """``source`` with ``record`` in its record sheet (cut into cells as xlbridge writes it)."""
    from xlbridge.workbooks.record import CHUNK

    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    parts = ["~" + text[i:i + CHUNK - 1] for i in range(0, len(text), CHUNK - 1)]

    def put(workbook: Any) -> None:
        sheet = workbook["xlbridge"]
        for row in range(2, sheet.max_row + 1):
            sheet.cell(row=row, column=1).value = None
        for row, part in enumerate(parts, start=2):
            sheet.cell(row=row, column=1).value = part

    return edited(source, target, put)


def phantom_record(source: Path, target: Path, cells: int, sheet: str = "Tournament") -> Path:
    """``source`` whose record claims ``cells`` more typed cells on ``sheet``, where the sheet is empty
    (from row 200, 10 a row)."""
    record = record_of(source)
    runs = record["s"][sheet]["t"]
    runs += [[200 + i, 20, [f"x{i}"] * 10] for i in range(cells // 10)]
    return with_record(source, target, record)


# ------------------------------------------------------------------ what held


def refused(run: Run, path: Path, before: bytes, code_words: str) -> Case:
    """Exit 2, only ``xlbridge:`` lines (the errors, then what to do, in the workbook's language), the first
    holding ``code_words``, the file as it was, no backup."""
    lines = run.err.strip().splitlines()
    backup = path.with_name(f"{path.stem}.backup{path.suffix}")
    held = (run.code == 2 and bool(lines) and all(line.startswith("xlbridge: ") for line in lines)
            and lines[0].startswith("xlbridge: error: ")
            and code_words in lines[0] and path.read_bytes() == before and not backup.exists()
            and run.mb <= MEMORY_MB)
    return Case(path.name, held, f"exit {run.code}, {run.mb:,.0f} MB, {run.seconds:.1f} s: {run.line}")


def attempt(tree: Tree, path: Path, words: str, *args: str) -> Case:
    """``xlbridge ARGS`` (default ``recalc PATH``) refused as :func:`refused` says."""
    before = path.read_bytes()
    run = tree.measure(*(args or ("recalc", path.name)), cwd=path.parent)
    case = refused(run, path, before, words)
    return Case(" ".join(args[2:]) or case.name, case.held, case.detail) if args else case


def other_parts(path: Path) -> dict[str, bytes]:
    """The parts of the chart sheets (and what they refer to) of the workbook at ``path``."""
    with zipfile.ZipFile(path) as archive:
        return {n: archive.read(n) for n in archive.namelist() if n.startswith(("xl/chartsheets/", "xl/charts/"))}


def kept_chart_sheet(tree: Tree, path: Path, title: str = "Chart1", *args: str) -> Case:
    """``xlbridge recalc PATH`` (or ``ARGS``) goes on, and the chart sheet is there after it, its parts byte
    for byte."""
    before = other_parts(path)
    run = tree.measure(*(args or ("recalc", path.name, "--no-backup")), cwd=path.parent)
    after = other_parts(path) if path.exists() else {}
    held = run.code == 0 and before and after == before and title in chart_sheet_names(path) \
        and "Traceback" not in run.err
    return Case(" ".join(args[:1] + args[2:]) if args else path.name, bool(held),
                f"exit {run.code}, {run.mb:,.0f} MB, {run.seconds:.1f} s, chart parts "
                f"{'kept' if after == before else 'CHANGED'}: {run.line}")


def chart_sheet_parts(path: Path) -> dict[str, list[str]]:
    """The chart sheets of the workbook at ``path`` (read from its parts, as any release writes them: openpyxl
    fails on an empty chart sheet), each with its parts: the sheet, then what it refers to."""
    from xml.etree import ElementTree as ET

    from xlbridge.files.package import NS_MAIN, NS_R, Package, resolve

    with zipfile.ZipFile(path) as archive:
        package = Package(archive)
        book = package.workbook()
        rels = {r.id: r for r in package.rels(book)}
        found = {}
        for sheet in ET.fromstring(package.read(book)).iter(f"{{{NS_MAIN}}}sheet"):
            rel = rels.get(sheet.get(f"{{{NS_R}}}id", ""))
            if rel is None or not rel.type.endswith("/chartsheet"):
                continue
            parts, queue = [], [resolve(book, rel.target)]
            while queue:
                part = queue.pop(0)
                if part not in parts and part in package:
                    parts.append(part)
                    queue += [resolve(part, r.target) for r in package.rels(part) if not r.external]
            found[sheet.get("name", "")] = parts
        return found


def chart_sheet_names(path: Path) -> list[str]:
    return list(chart_sheet_parts(path))


def corrections_causes(path: Path) -> list[str]:
    from openpyxl import load_workbook

    workbook = load_workbook(path)
    if "Corrections" not in workbook.sheetnames:
        return []
    return [row[7] for row in workbook["Corrections"].iter_rows(min_row=2, values_only=True)]


def set_aside(tree: Tree, path: Path, words: str) -> Case:
    """The record is set aside with a warning naming ``words``: exit 0, no "your change" row, and the next run
    recalculates with no warning."""
    run = tree.measure("recalc", path.name, "--no-backup", cwd=path.parent)
    mine = corrections_causes(path).count("your change") if run.code == 0 else -1
    again = tree.measure("recalc", path.name, "--no-backup", cwd=path.parent)
    held = run.code == 0 and words in run.err and mine == 0 and run.mb <= MEMORY_MB and again.code == 0 \
        and "warning: xlbridge" not in again.err
    said = next((line for line in run.err.splitlines() if words in line), run.line)[:160]
    return Case(path.name, held, f"exit {run.code}, {run.mb:,.0f} MB, {run.seconds:.1f} s, {mine} 'your change' "
                f"rows; next run exit {again.code}: {said}")


# ------------------------------------------------------------------ the groups


@group("6. next --name of xlbridge's own sheets")
def own_names(tree: Tree, folder: Path) -> list[Case]:
    bm = new_workbook(tree, folder, "bridgemania")
    named = [(name, "keeps for itself") for name in ("Corrections", "Messages", "Correcties", "MESSAGGI", "Mesajlar")]
    named += [(name, "already there") for name in ("xlbridge", "XLBRIDGE", "chart", "How to")]  # sheets it has
    cases = [attempt(tree, bm, words, "next", bm.name, "--name", name) for name, words in named]
    run = tree.measure("next", bm.name, "--name", "T15", "--no-backup", cwd=folder)
    cases.append(Case("--name T15 (the control)", run.code == 0, f"exit {run.code}: {run.line}"))
    return cases


@group("7. a scorer's own sheet named xlbridge")
def own_record_sheet(tree: Tree, folder: Path) -> list[Case]:
    cases = []
    for kind in KINDS:
        path = with_sheet(new_workbook(tree, folder, kind), folder / f"own-xlbridge-{kind}.xlsx", "xlbridge",
                          replace="xlbridge")
        cases.append(attempt(tree, path, "is not xlbridge's record"))
    return cases


@group("8. chart sheets")
def chart_sheets(tree: Tree, folder: Path) -> list[Case]:
    cases = []
    for kind in KINDS:
        cases.append(kept_chart_sheet(tree, with_chart_sheet(new_workbook(tree, folder, kind),
                                                             folder / f"chart-sheet-{kind}.xlsx")))
    base = new_workbook(tree, folder, "tbf-club")
    cases.append(kept_chart_sheet(tree, with_chart_sheet(base, folder / "empty-chart-sheet.xlsx", empty=True)))
    cases.append(attempt(tree, with_chart_sheet(base, folder / "empty-chart-sheet-xlbridge.xlsx", "xlbridge",
                                                empty=True), "is a chart sheet"))
    bm = with_chart_sheet(new_workbook(tree, folder, "bridgemania"), folder / "bm-chart-sheet-next.xlsx")
    cases.append(kept_chart_sheet(tree, bm, "Chart1", "next", bm.name, "--no-backup"))
    cases.append(attempt(tree, bm, "already there", "next", bm.name, "--name", "chart1"))
    return cases


@group("9. xlbridge's sheet names in another case")
def other_case(tree: Tree, folder: Path) -> list[Case]:
    base = new_workbook(tree, folder, "tbf-club")
    heeg = new_workbook(tree, folder, "heeg")
    dutch = new_workbook(tree, folder, "heeg", "nl")
    files = [  # (the message is in the workbook's language: it names the sheet)
        (with_sheet(base, folder / "XLBridge.xlsx", "XLBridge", replace="xlbridge"), "XLBridge"),
        (with_sheet(base, folder / "CORRECTIONS.xlsx", "CORRECTIONS"), "CORRECTIONS"),
        (with_sheet(heeg, folder / "heeg-CORRECTIONS.xlsx", "CORRECTIONS"), "CORRECTIONS"),
        (with_sheet(heeg, folder / "heeg-messages.xlsx", "messages"), "messages"),
        (renamed(heeg, folder / "heeg-season.xlsx", "Season", "season"), "season"),
        (with_sheet(dutch, folder / "heeg-nl-CORRECTIES.xlsx", "CORRECTIES"), "CORRECTIES"),
    ]
    return [attempt(tree, path, f"error: {sheet}: ") for path, sheet in files]


@group("10. next --name against Excel's rules")
def excel_rules(tree: Tree, folder: Path) -> list[Case]:
    bm = new_workbook(tree, folder, "bridgemania")
    named = [("t14", "already there"), ("x" * 5000, "Excel allows at most 31"), ("'quoted'", "apostrophe"),
             ("a/b", "does not allow"), ("T[15]", "does not allow"), ("History", "keeps for itself"),
             ("y" * 32, "Excel allows at most 31")]
    cases = [attempt(tree, bm, words, "next", bm.name, "--name", name) for name, words in named]
    cases = [Case(c.name[:40] + ("..." if len(c.name) > 40 else ""), c.held, c.detail) for c in cases]
    run = tree.measure("next", bm.name, "--name", "z" * 31, "--no-backup", cwd=folder)
    cases.append(Case("31 characters (the control)", run.code == 0, f"exit {run.code}: {run.line}"))
    return cases


@group("13. a record that is not this workbook's")
def foreign_records(tree: Tree, folder: Path) -> list[Case]:
    base = new_workbook(tree, folder, "tbf-club")
    heeg_demo = folder / "heeg-demo.xlsx"
    code, err = tree.run("new", "heeg", heeg_demo.name, "--lang", "en", "--force", cwd=folder)
    assert code == 0, err
    heeg_blank = folder / "heeg-blank.xlsx"
    code, err = tree.run("new", "heeg", heeg_blank.name, "--lang", "en", "--blank", "--force", cwd=folder)
    assert code == 0, err
    bm = new_workbook(tree, folder, "bridgemania")
    huge = record_of(base)
    huge["s"]["Tournament"]["t"].append([300, 1, [0] * 2_000_001])
    files = [
        (phantom_record(base, folder / "record-100k-typed.xlsx", 100_000), "is not this workbook's"),
        (with_record(heeg_blank, folder / "record-copied.xlsx", record_of(heeg_demo)), "is not this workbook's"),
        (with_record(bm, folder / "record-of-heeg.xlsx", record_of(heeg_demo)), "is not this workbook's"),
        (with_record(base, folder / "record-2M-cells.xlsx", huge), "holds more than a record can"),
    ]
    return [set_aside(tree, path, words) for path, words in files]
