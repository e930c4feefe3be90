"""The Excel mock does what Office.js documents: excel-mock.test.mjs under ``node --test``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def test_the_excel_mock_behaves_as_office_js_documents():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH (Node 18 or newer runs the Excel mock)", pytrace=False)
    result = subprocess.run([node, "--test", "excel-mock.test.mjs"], cwd=HERE, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout and "# pass 12" in result.stdout, result.stdout[-2000:]
