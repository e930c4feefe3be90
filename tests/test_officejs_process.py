"""Runs tests/officejs in separate processes with the environment xlwings'
Office.js dispatch needs (set before xlwings is first imported).

Two processes, so that under pytest-xdist the two halves run side by side (about
half of the time goes to test_actions.py); every module of tests/officejs runs in
exactly one of them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
OFFICEJS = HERE / "officejs"
FIRST = ["test_actions.py"]
REST = sorted(p.name for p in OFFICEJS.glob("test_*.py") if p.name not in FIRST)
PARTS = {"test_actions.py": FIRST, "the other modules": REST}


def test_the_parts_run_every_module_once():
    every = sorted(p.name for p in OFFICEJS.glob("test_*.py"))
    assert sorted(name for part in PARTS.values() for name in part) == every
    assert all(PARTS.values())


@pytest.mark.parametrize("part", [pytest.param(name, marks=pytest.mark.xdist_group(f"officejs: {name}"))
                                  for name in PARTS])
def test_officejs_dispatch_suite_passes(part, request):
    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial")
    marks = request.config.option.markexpr  # -m "not slow" (the inner loop) runs the quick ones there too
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *(["-m", marks] if marks else []),
         *(str(OFFICEJS / name) for name in PARTS[part])],
        cwd=HERE.parent, env=env, capture_output=True, text=True, timeout=900,
    )
    summary = result.stdout.strip().splitlines()[-1:] if result.stdout.strip() else []
    if result.returncode == 5 and marks and summary and re.fullmatch(r"=* *\d+ deselected in .*", summary[0]):
        pytest.skip(f"-m {marks!r} selects no test of {part}")  # exit 5: every test deselected (all slow)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert summary and " passed" in summary[0] and "failed" not in summary[0], result.stdout[-2000:]
