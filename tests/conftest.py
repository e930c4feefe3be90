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

class Built:
    """Workbooks made once per session and kept as bytes; every call writes a fresh copy, so that a test may
    change its copy freely (tests never share a mutable workbook)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._bytes: dict[tuple, bytes] = {}

    def __call__(self, kind: str, path, *, blank: bool = False, language: str | None = None) -> Path:
        """A copy at ``path`` of what ``xlbridge.excel.shipped.build(kind, path, ...)`` writes (its file
        name is part of the key: the embedded add-in's id comes from it)."""
        from xlbridge.excel.shipped import build

        return self.copy(("build", kind, blank, language), path,
                         lambda made: build(kind, made, blank=blank, language=language))

    def copy(self, key, path, make) -> Path:
        """A copy at ``path`` of the file ``make(made)`` writes at ``made`` (a path of the same name), made
        once per ``key`` and file name."""
        path = Path(path)
        key = (*key, path.name)
        if key not in self._bytes:
            made = self.folder / str(len(self._bytes)) / path.name
            made.parent.mkdir()
            make(made)
            self._bytes[key] = made.read_bytes()
        path.write_bytes(self._bytes[key])
        return path


@pytest.fixture(scope="session")
def built_once(tmp_path_factory) -> Built:
    """``built_once(kind, path, blank=..., language=...)``: the shipped build, made once per session, copied
    to ``path``; ``built_once.copy(key, path, make)`` for any other workbook made once."""
    return Built(tmp_path_factory.mktemp("built"))


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
