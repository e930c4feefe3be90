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
# deadline (200 ms by default) and its too-slow health check are such asserts, so they are off
# for every property test.  Every run tries the same examples (derandomize, no example database):
# a run's outcome depends on the code only, in one process or in several (pytest-xdist).
from hypothesis import HealthCheck as _HealthCheck, settings as _hypothesis_settings

_hypothesis_settings.register_profile("xlbridge", deadline=None, derandomize=True, database=None,
                                      suppress_health_check=[_HealthCheck.too_slow])
_hypothesis_settings.load_profile("xlbridge")


# ------------------------------------------------------------------ pytest-xdist: which tests run together
# The README's test command runs the suite in one process per core (pytest -n auto; pyproject.toml adds
# --dist loadgroup --no-loadscope-reorder).  A group runs in one worker, in collection order:
#
# - by default a test module is one group, so that its module fixtures and module-level caches (a built
#   workbook, a runtime, the first click a second click starts from) are made once;
# - a test marked ``pytest.mark.xdist_group(name)`` keeps its own group (tests/test_officejs_process.py
#   runs tests/officejs in two groups);
# - the groups are handed out heaviest first (WEIGHTS, else by their number of tests), so that no long
#   group starts last while the other worker idles.

#: The groups' relative weight: seconds measured for the heaviest modules of a full run (the rest of the
#: 2,358 tests took 0.12 s each on average).  Only the order of the groups depends on it, never a result.
WEIGHTS = {
    "tests/test_bench_smoke.py": 124,
    "tests/pyodide/test_shipped_workbooks.py": 116,
    "tests/test_errors_catalogue.py": 91,
    "officejs: test_actions.py": 81,
    "officejs: the other modules": 77,
    "tests/xlwingsjs/test_clicks.py": 66,
    "tests/files/test_unchanged.py": 66,
    "tests/workbooks/bridgemania/test_workbook.py": 51,
    "tests/workbooks/bridgemania/test_declaration.py": 49,
    "tests/workbooks/heeg/test_heeg_workbook.py": 46,
    "tests/workbooks/test_sheet_names.py": 43,
    "tests/excel/test_serve_process.py": 40,
    "tests/workbooks/test_record.py": 39,
    "tests/test_libreoffice.py": 37,
    "tests/files/test_memory_budget.py": 33,
    "tests/test_languages.py": 32,
    "tests/workbooks/test_charts.py": 31,
}
SECONDS_PER_TEST = 0.12


def _group(item: pytest.Item) -> str:
    marks = list(item.iter_markers("xdist_group"))
    if marks:
        return str(marks[0].args[0] if marks[0].args else marks[0].kwargs.get("name", "default"))
    return item.path.relative_to(ROOT).as_posix()


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not hasattr(config, "workerinput") or config.getoption("dist", "no") != "loadgroup":
        return  # one process: the tests run as collected
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        group = _group(item)
        if not any(item.iter_markers("xdist_group")):
            item.add_marker(pytest.mark.xdist_group(group))
        groups.setdefault(group, []).append(item)
    order = sorted(groups, key=lambda g: -WEIGHTS.get(g, SECONDS_PER_TEST * len(groups[g])))  # stable
    items[:] = [item for group in order for item in groups[group]]
