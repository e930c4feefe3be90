"""The benchmark command runs and prints its table (a smoke run: no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_engine_bench_prints_a_table():
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--only", "engine", "--rankings", "40"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert any(line.startswith("| # ") and "median" in line for line in lines), done.stdout
    assert any(line.startswith("| 1 ") and "40 rankings" in line and "of sorting them" in line for line in lines), done.stdout
