"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "docs" / "sources"


@pytest.fixture(scope="session")
def source_text():
    """The text of a rule document (docs/sources), by file-name prefix ("001")."""

    def read(prefix: str) -> str:
        (path,) = SOURCES.glob(f"{prefix}_*.txt")
        return path.read_text(encoding="utf-8")

    return read

import os

# tests/officejs needs xlwings imported with XLWINGS_ON_SERVER=true; it runs in its own
# process, started by tests/test_officejs_process.py (so one `pytest` runs everything).
OFFICEJS = os.environ.get("XLWINGS_ON_SERVER") == "true"
collect_ignore = [] if OFFICEJS else ["officejs"]
