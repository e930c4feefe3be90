"""Runs tests/officejs in a process of its own with the environment xlwings' Office.js
dispatch needs (set before xlwings is first imported)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
OFFICEJS = HERE / "officejs"


def test_officejs_dispatch_suite_passes(request):
    env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial")
    marks = request.config.option.markexpr  # -m "not slow" (the inner loop) runs the quick ones there too
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *(["-m", marks] if marks else []),
         str(OFFICEJS)],
        cwd=HERE.parent, env=env, capture_output=True, text=True, timeout=900,
    )
    summary = result.stdout.strip().splitlines()[-1:] if result.stdout.strip() else []
    if result.returncode == 5 and marks and summary and re.fullmatch(r"=* *\d+ deselected in .*", summary[0]):
        pytest.skip(f"-m {marks!r} selects no test of tests/officejs")  # exit 5: every test deselected (all slow)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert summary and " passed" in summary[0] and "failed" not in summary[0], result.stdout[-2000:]
