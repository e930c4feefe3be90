"""The memory budget (issue 25, failures 11 and 12): every file is checked before it is read -- its
signature, its size, each part's declared and actual unpacked size and its XML elements -- against one
budget (xlbridge.files.budget, docs/reliability.md), so that a zip bomb, a dense part or a huge file is
refused with one line naming the part, nothing written, and little memory used.

Each run is a child process whose peak memory (its maximum resident set) is asserted.  The attack files
are small where a small one proves the bound; tools/attack_files.py (group 11) runs them at full size.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from tools.attacks.bounds import (cell_formats, cells, data_validations, hyperlink_over, liar, many_parts, rows,
                                  shared_strings, sheet_bomb, sheets, sparse, thumbnail, worksheet)
from xlbridge.files.budget import BUDGET, MB, Budget
from xlbridge.files.headless import backup_path

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="a child's peak memory is read with resource"),
              pytest.mark.slow]  # the inner loop while developing is pytest -m "not slow" (pyproject.toml)

ROOT = Path(__file__).resolve().parents[2]
#: A refused file is not unpacked: the child stays near the interpreter's own memory (about 50 MB here).
NOT_UNPACKED_MB = 200

CHILD = textwrap.dedent("""
    import resource, sys
    from xlbridge.cli import main
    from xlbridge.files.budget import Budget
    from xlbridge.files.headless import recalc_path

    name, total = sys.argv[1], sys.argv[2]
    if total == "-":
        code = main(["recalc", name])
    else:  # a lower budget, as a caller of the API can give it
        try:
            recalc_path(name, budget=Budget(total=int(total)))
            code = 0
        except ValueError as error:
            print(f"xlbridge: error: {error}", file=sys.stderr)
            code = 2
    try:  # this process's own high-water mark (getrusage's keeps that of the parent it was forked from)
        with open("/proc/self/status") as status:
            kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
    except OSError:
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // (1024 if sys.platform == "darwin" else 1)
    print(code, kb // 1024, flush=True)
""")


def recalc(path: Path, budget: Budget | None = None) -> tuple[int, list[str], int]:
    """``xlbridge recalc PATH`` in a child (with ``budget``: through the API): exit code, stderr lines,
    peak memory in MB."""
    done = subprocess.run([sys.executable, "-c", CHILD, path.name, "-" if budget is None else str(budget.total)],
                          cwd=path.parent, capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.stdout.strip(), done.stderr[-2000:]
    code, mb = done.stdout.split()[-2:]
    return int(code), done.stderr.splitlines(), int(mb)


@pytest.fixture(scope="module")
def base(tmp_path_factory, built_once) -> Path:
    return built_once("tbf-club", tmp_path_factory.mktemp("base") / "base.xlsx", language="en")


def declared_need(path: Path) -> int:
    """The documented estimate from the zip's directory: the file, and per part 1 KB and 3 bytes a byte."""
    with zipfile.ZipFile(path) as archive:
        need = path.stat().st_size + sum(1024 + 3 * i.file_size for i in archive.infolist())
    return math.ceil(need / MB)


def refused_untouched(path: Path, code: int, lines: list[str], mb: int, before: bytes,
                      prefix: str = "xlbridge: error: ") -> str:
    assert code == 2 and len(lines) == 1 and lines[0].startswith(prefix), lines
    assert mb < NOT_UNPACKED_MB, mb
    assert path.read_bytes() == before and not backup_path(path).exists()
    return lines[0][len(prefix):]


@pytest.mark.parametrize("attack, part", [
    (lambda base, out: sheet_bomb(base, out, 300 * MB), "xl/worksheets/sheet1.xml (sheet Tournament)"),
    (lambda base, out: thumbnail(base, out, 300 * MB), "docProps/thumbnail.jpeg"),
    (lambda base, out: shared_strings(base, out, 300_000, 1000), "xl/sharedStrings.xml"),
], ids=["sheet", "thumbnail", "shared strings"])
def test_a_bomb_is_refused_from_the_sizes_it_declares_before_anything_is_unpacked(base, tmp_path, attack, part):
    """Before: a 1 GiB part took 3.2 GB (ParseError: out of memory in package.drawing_of; a thumbnail
    was recalculated); 300 MB declared is past the budget (3 x 300 MB > 768 MB)."""
    path = attack(base, tmp_path / "club.xlsx")
    before = path.read_bytes()
    with zipfile.ZipFile(path) as archive:
        size = max(i.file_size for i in archive.infolist())
    message = refused_untouched(path, *recalc(path), before)
    assert message == (f"club.xlsx: its part {part} unpacks to {math.ceil(size / MB):,} MB; the whole workbook "
                       f"would need about {declared_need(path):,} MB of memory, more than the 768 MB xlbridge "
                       "allows one workbook; nothing was changed")


@pytest.mark.parametrize("attack, part, added", [
    (lambda base, out: cell_formats(base, out, 1_000_000), "xl/styles.xml", 1_000_000),
    (lambda base, out: data_validations(base, out, 500_000), "How to", 500_001),
    (lambda base, out: cells(base, out, 1_100_000), "How to", 2_201_102),
    (lambda base, out: sheets(base, out, 30_000), "xl/workbook.xml", 30_000),
], ids=["cell formats", "data validations", "cells", "sheets"])
def test_a_dense_part_is_refused_by_its_xml_elements_as_it_unpacks(base, tmp_path, attack, part, added):
    """Before: 16 MB of cell formats (3 million ``<xf/>``) took 2.8 GB and almost 4 minutes."""
    path = attack(base, tmp_path / "club.xlsx")
    before = path.read_bytes()
    message = refused_untouched(path, *recalc(path), before)
    found = re.fullmatch(r"club\.xlsx: its part (.+) holds ([\d,]+) XML elements \(([\d,]+) MB unpacked\); the whole "
                         r"workbook would need about ([\d,]+) MB of memory, more than the 768 MB xlbridge allows one "
                         r"workbook; nothing was changed", message)
    assert found, message
    elements, need = (int(found[i].replace(",", "")) for i in (2, 4))
    if part == "How to":  # the worksheet's own part, wherever the workbook keeps it
        part = f"{worksheet(base, part)} (sheet How to)"
    assert found[1] == part and added <= elements < added + 1_000  # the part's own few elements besides
    assert need > 768


def test_a_hyperlink_over_a_huge_range_is_refused_before_openpyxl_gives_each_cell_one(base, tmp_path):
    path = hyperlink_over(base, tmp_path / "club.xlsx", "A1:XFD1048576")
    before = path.read_bytes()
    code, lines, mb = recalc(path)
    assert lines[1:] == ["xlbridge: nothing was written: fix the problem at its cell, then Recalculate "
                         "season again (xlbridge recalc club.xlsx)"]
    assert refused_untouched(path, code, lines[:1], mb, before) == (
        "How to, A1:XFD1048576: a hyperlink over 17,179,869,184 cells (a sheet may have at most 100,000 cells with "
        "a hyperlink); give it one cell")


def test_a_part_that_claims_less_than_it_holds_is_damaged_not_unpacked(base, tmp_path):
    path = liar(base, tmp_path / "club.xlsx", 300 * MB)
    before = path.read_bytes()
    assert refused_untouched(path, *recalc(path), before) == (
        "club.xlsx is damaged (part xl/media/liar.bin does not read back); restore it from its backup")


def test_too_many_parts_are_refused_before_the_zip_directory_is_read(base, tmp_path):
    path = many_parts(base, tmp_path / "club.xlsx", 5_000)
    before = path.read_bytes()
    budget = Budget(total=4 * MB)  # 5,000 parts at 1 KB each and the file: past 4 MB
    code, lines, mb = recalc(path, budget)
    with zipfile.ZipFile(path) as archive:
        count = len(archive.infolist())
    need = math.ceil((path.stat().st_size + count * 1024) / MB)
    assert refused_untouched(path, code, lines, mb, before) == (
        f"club.xlsx holds {count:,} parts; reading them would need about {need:,} MB of memory, more than the 4 MB "
        "xlbridge allows one workbook; nothing was changed")


@pytest.mark.parametrize("head, message", [
    (b"pair;score\n1;50\n", "huge.xlsx is not an .xlsx workbook (damaged, or another kind of file renamed)"),
    (b"PK\x03\x04", "huge.xlsx is 2,862 MB; xlbridge reads workbooks of up to 192 MB (reading one takes several "
                    "times its size in memory); nothing was changed"),
], ids=["text", "zip"])
def test_a_huge_file_is_refused_before_it_is_read(tmp_path, head, message):
    """Before: a 3 GB file named .xlsx was read whole (2.9 GB) before its signature was checked."""
    path = sparse(tmp_path / "huge.xlsx", 3 * 10**9, head)
    code, lines, mb = recalc(path)
    assert (code, lines) == (2, [f"xlbridge: error: {message}"]) and mb < NOT_UNPACKED_MB


@pytest.mark.parametrize("make, fits, too_many", [
    (lambda base, out, n: cell_formats(base, out, n), 40_000, 48_000),  # 2 KB each
    (lambda base, out, n: data_validations(base, out, n), 40_000, 48_000),  # 2 KB each
    (lambda base, out, n: rows(base, out, n), 40_000, 48_000),  # 2 KB each
    (lambda base, out, n: sheets(base, out, n), 2_400, 3_000),  # 32 KB each, and 2 KB for its relationship
    (lambda base, out, n: shared_strings(base, out, n, 1000), 20_000, 27_000),  # 3 KB of text, 768 bytes of tags
], ids=["cell formats", "data validations", "rows", "sheets", "shared strings"])
def test_the_budget_bounds_what_it_accepts(base, tmp_path, make, fits, too_many):
    """The charges are upper bounds: a workbook of the dearest elements measured (data validations and rows
    as Excel writes them, 1.2 KB each in openpyxl; cell formats, 820 bytes; worksheets, 15 KB) or of long
    strings, just within a budget, is recalculated using no more memory than that budget above what the
    workbook alone takes; a little more is refused."""
    budget = Budget(total=96 * MB)
    code, _, alone = recalc(base, budget)
    assert code == 0
    code, lines, mb = recalc(make(base, tmp_path / "fits.xlsx", fits), budget)
    assert code == 0, lines
    assert mb - alone <= budget.total // MB, (mb, alone)
    code, lines, _ = recalc(make(base, tmp_path / "too-many.xlsx", too_many), budget)
    assert code == 2 and "more than the 96 MB xlbridge allows one workbook" in lines[0], lines


def test_a_real_season_is_far_within_the_budget(tmp_path, built_once):
    """The largest season of the benchmarks (Heeg 16x: 72 evenings, 119 pairs) fits, with room to spare; its
    measured peak is 228 MB (docs/reliability.md)."""
    from xlbridge.files.budget import check_entries, check_parts
    import io

    data = built_once.heeg_16x(tmp_path / "heeg.xlsx").read_bytes()
    check_entries(data, "heeg.xlsx")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        check_parts(archive, len(data), "heeg.xlsx", Budget(total=BUDGET.total // 2))  # half of it to spare


def test_the_message_is_in_the_workbooks_language(tmp_path, built_once):
    """A Dutch Heeg season (its sheets: Seizoen, Avond ...) is told in Dutch (the line's prefix too), the sheet
    named as it is."""
    from tools.attacks.bounds import worksheet

    dutch = built_once("heeg", tmp_path / "seizoen.xlsx", language="nl")
    path = sheet_bomb(dutch, tmp_path / "club.xlsx", 300 * MB, sheet="Seizoen")
    before = path.read_bytes()
    with zipfile.ZipFile(path) as archive:
        part = worksheet(path, "Seizoen")
        size = math.ceil(archive.getinfo(part).file_size / MB)
    assert refused_untouched(path, *recalc(path), before, prefix="xlbridge: fout: ") == (
        f"club.xlsx: het onderdeel {part} (blad Seizoen) is uitgepakt {size:,} MB; de hele werkmap zou ongeveer "
        f"{declared_need(path):,} MB geheugen nodig hebben, meer dan de 768 MB die xlbridge een werkmap toestaat; er "
        "is niets gewijzigd")
