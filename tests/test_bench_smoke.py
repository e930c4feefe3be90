"""The benchmark command runs and prints its table (a smoke run: no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the inner loop while developing is pytest -m "not slow" (pyproject.toml)

ROOT = Path(__file__).resolve().parent.parent


def test_engine_bench_prints_a_table():
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--only", "engine", "--rankings", "40"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert any(line.startswith("| # ") and "median" in line for line in lines), done.stdout
    assert any(line.startswith("| 1 ") and "40 rankings" in line and "of sorting them" in line for line in lines), done.stdout


def test_excel_path_bench_prints_its_table():
    """bench --only excel-path --quick (issue 18): real Pyodide beside CPython, 1x seasons, the Excel path of
    one kind with seasons and one of worksheet functions (the others go through the same code)."""
    import shutil

    import pytest

    if shutil.which("node") is None:
        pytest.skip("node is not on PATH: the Excel-path section runs Pyodide under Node")
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--only", "excel-path"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith(("| 5 ", "| 5b "))]
    assert not any("cannot run" in row or "failed:" in row for row in rows), "\n".join(rows)
    for expected in ("main.py import in a fresh Pyodide", "AWARD: a later call", "heeg 1×: first click",
                     "second click in Pyodide", "sheets sent but not read", "tbf-club: main.py import",
                     "beside the baseline 3fa77e4"):
        assert any(expected in row for row in rows), (expected, done.stdout)
    assert not any("DIFFER" in row for row in rows), "\n".join(rows)
