"""Black-box attacks on ``xlbridge recalc`` in a child process (issue 14, points 1
and 4): another program saves while a run is writing, and runs are killed while
they write.  The moment is found from outside -- the run's temporary file appears
beside the workbook -- so these tests say the same of any version of xlbridge.

Before: every such save was overwritten (6 of 6 on a 16x season), and killed runs
left hidden temporary files nothing removed.  Now: the other program's save is
always kept, a killed run leaves the old or the new file (and a readable backup),
and its temporary file is cleared by a later run.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.files.headless import backup_path

pytestmark = pytest.mark.slow  # the inner loop while developing is pytest -m "not slow" (pyproject.toml)

ROOT = Path(__file__).resolve().parents[2]
RUNS = 3


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(scope="module")
def season(tmp_path_factory, built_once) -> bytes:
    """The bundled Heeg demo season with a late correction (a run takes a second or two)."""
    path = built_once("heeg", tmp_path_factory.mktemp("season") / "heeg.xlsx", language="en")
    wb = load_workbook(path)
    evening = next(ws for ws in wb.worksheets if ws.title.startswith("Evening "))
    evening["L2"] = (evening["L2"].value or 0) + 1
    wb.save(path)
    return path.read_bytes()


def start(path: Path) -> subprocess.Popen:
    """``xlbridge recalc path`` in a process of its own, its temporary folder beside ``path``: openpyxl writes
    each sheet to a file there first, which a run killed while saving leaves (not in the system's folder)."""
    temp = path.parent / "temp"
    temp.mkdir(exist_ok=True)
    return subprocess.Popen([sys.executable, "-m", "xlbridge", "recalc", str(path)], cwd=ROOT,
                            env=dict(os.environ, TMPDIR=str(temp)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def temporary_files(folder: Path, name: str) -> list[Path]:
    """Any version's temporary files for ``name`` (``.NAME.<something>.tmp``)."""
    return [p for p in folder.iterdir() if p.name.startswith(f".{name}.") and p.name.endswith(".tmp")]


def wait_for_a_temporary_file(run: subprocess.Popen, folder: Path, name: str, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and run.poll() is None:
        if temporary_files(folder, name):
            return True
        time.sleep(0.002)
    return False


def test_another_programs_save_while_a_run_writes_is_always_kept(tmp_path, season):
    path = tmp_path / "heeg.xlsx"
    path.write_bytes(season)
    wb = load_workbook(path)
    wb.worksheets[0]["Z1"] = "typed in Excel meanwhile"
    theirs_file = tmp_path / "theirs.bin"
    wb.save(theirs_file)
    theirs = theirs_file.read_bytes()
    kept = 0
    for _ in range(RUNS):
        path.write_bytes(season)
        run = start(path)
        assert wait_for_a_temporary_file(run, tmp_path, path.name), run.communicate()
        temp = tmp_path / "EXCEL9999.tmp"  # Excel's save: a temporary file renamed over the workbook
        temp.write_bytes(theirs)
        os.replace(temp, path)
        out, err = run.communicate(timeout=120)
        assert load_workbook(path).worksheets[0]["Z1"].value == "typed in Excel meanwhile", (run.returncode, err)
        assert path.read_bytes() == theirs
        assert run.returncode == 2 and "changed while it was being recalculated" in err
        kept += 1
        for leftover in temporary_files(tmp_path, path.name):
            pytest.fail(f"left behind: {leftover.name}")
    assert kept == RUNS


def test_killed_runs_leave_the_old_or_the_new_file_and_nothing_behind(tmp_path, season):
    path = tmp_path / "heeg.xlsx"
    path.write_bytes(season)
    reference = tmp_path / "reference" / "heeg.xlsx"
    reference.parent.mkdir()
    reference.write_bytes(season)
    assert subprocess.run([sys.executable, "-m", "xlbridge", "recalc", str(reference)], cwd=ROOT,
                          capture_output=True).returncode == 0
    new = reference.read_bytes()
    versions = {digest(season), digest(new)}
    killed_writing = 0
    for attempt in range(RUNS + 1):
        path.write_bytes(season)
        run = start(path)
        if wait_for_a_temporary_file(run, tmp_path, path.name):
            time.sleep(random.Random(attempt).uniform(0, 0.05))
            killed_writing += run.poll() is None
        os.kill(run.pid, signal.SIGKILL)
        run.wait(timeout=60)
        assert digest(path.read_bytes()) in versions or _same_cells(path, reference)
        load_workbook(path)
        if backup_path(path).exists():
            load_workbook(backup_path(path))  # never a truncated backup
    assert killed_writing >= 1
    # what the killed runs left is cleared by the next run once it is stale
    old = time.time() - 86400  # a day ago: stale by any measure
    for temp in temporary_files(tmp_path, path.name):
        os.utime(temp, (old, old))
    done = subprocess.run([sys.executable, "-m", "xlbridge", "recalc", str(path)], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["heeg.backup.xlsx", "heeg.xlsx"]


def _same_cells(path: Path, reference: Path) -> bool:
    """The new version written by a killed run differs from the reference run's in
    its time stamps only (the Corrections sheet's When, the file's properties)."""
    def cells(p: Path):
        return [[c for c in row] for ws in load_workbook(p, data_only=False).worksheets
                if ws.title != "Corrections" for row in ws.iter_rows(values_only=True)]
    return cells(path) == cells(reference)
