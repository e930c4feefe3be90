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


@pytest.fixture(scope="session")
def quotes(source_text):
    """``quotes("000")``: a check that each sentence given stands in that rule document
    (white space as it may be: the documents are flattened text)."""

    def of(prefix: str):
        text = " ".join(source_text(prefix).split())

        def check(*sentences: str) -> None:
            for sentence in sentences:
                assert " ".join(sentence.split()) in text, sentence

        return check

    return of

import os

# tests/officejs needs xlwings imported with XLWINGS_ON_SERVER=true; it runs in its own
# process, started by tests/test_officejs_process.py (so one `pytest` runs everything).
OFFICEJS = os.environ.get("XLWINGS_ON_SERVER") == "true"
collect_ignore = [] if OFFICEJS else ["officejs"]

# No test asserts a wall-clock time (CI runs on loaded machines): hypothesis' per-example
# deadline (200 ms by default) is one, so it is off for every property test.
from hypothesis import settings as _hypothesis_settings

_hypothesis_settings.register_profile("xlbridge", deadline=None)
_hypothesis_settings.load_profile("xlbridge")
