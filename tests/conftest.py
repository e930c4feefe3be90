"""Shared test helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from filelock import FileLock

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
    """Workbooks made once per test run and kept as files; every call writes a fresh copy, so that a test may
    change its copy freely (tests never share a mutable workbook).  Under pytest-xdist the processes share
    the made files (``folder`` is the run's own, never an earlier run's): a workbook one process made (or is
    making: the other waits for it), the other copies."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.folder.mkdir(exist_ok=True)

    def __call__(self, kind: str, path, *, blank: bool = False, language: str | None = None) -> Path:
        """A copy at ``path`` of what ``xlbridge.excel.shipped.build(kind, path, ...)`` writes, but for the
        add-in instance's id in ``xl/webextensions`` (:func:`xlbridge.excel.lite.stable_guid` of the file
        name), which is that of the file name the workbook was first made under: no test reads it."""
        from xlbridge.excel.shipped import KINDS, build

        language = language or KINDS[kind].language
        return self.copy(("build", kind, blank, language), path,
                         lambda made: build(kind, made, blank=blank, language=language), named=False)

    def copy(self, key, path, make, *, named: bool = True) -> Path:
        """A copy at ``path`` of the file ``make(made)`` writes at ``made`` (a path of the same name), made
        once per ``key`` (and file name, when ``named``)."""
        import hashlib
        import tempfile

        path = Path(path)
        if named:
            key = (*key, path.name)
        kept = self.folder / hashlib.sha256(repr(key).encode()).hexdigest()
        with FileLock(f"{kept}.lock"):  # one process makes it, another asking meanwhile waits for it
            if not kept.exists():
                with tempfile.TemporaryDirectory(dir=self.folder) as making:
                    made = Path(making) / path.name
                    make(made)
                    os.replace(made, kept)  # whole or not at all: another process may be reading kept
        path.write_bytes(kept.read_bytes())
        return path

    def heeg_16x(self, path) -> Path:
        """The largest season of the benchmarks (``bench.seasons.heeg_workbook(16)``, about 10 s to make)."""
        from bench.seasons import heeg_workbook

        return self.copy(("bench", "heeg", 16), path, lambda made: heeg_workbook(16).save(made))


@pytest.fixture(scope="session")
def built_once(tmp_path_factory, request) -> Built:
    """``built_once(kind, path, blank=..., language=...)``: the shipped build, made once per test run, copied
    to ``path``; ``built_once.copy(key, path, make)`` for any other workbook made once."""
    base = tmp_path_factory.getbasetemp()  # a pytest-xdist worker's is its own folder in the run's folder
    return Built((base.parent if hasattr(request.config, "workerinput") else base) / "built")


# The command line speaks the user's language before a workbook tells its own (xlbridge.language.user_language):
# the tests expect English there, whatever the locale of the machine they run on; the tests of that set it.
os.environ["LANGUAGE"] = "en"

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
# --dist loadfile --no-loadscope-reorder): every test module runs whole in one process, so that its module
# fixtures and module-level caches (a built workbook, a runtime, the first click a second click starts
# from) are made once, and the modules are handed out heaviest first (WEIGHTS, else by their number of
# tests), so that no long module starts last while the other process idles.  (Not --dist loadgroup: with
# pytest 9.2 it no longer groups anything, pytest-xdist issue 1386, and every module's fixtures were made
# in both processes.)

#: The modules' relative weight: seconds measured in a full run (`--durations=0`, 2026-12-07, 2,667 tests; the
#: bench smoke, the memory budget and the server processes again after bench --quick and the Heeg demo
#: generator were made cheaper; the rest took 0.2 s a test on average).  Only the order of the modules depends
#: on it, never a result.
WEIGHTS = {
    "tests/test_officejs_process.py": 110,
    "tests/pyodide/test_shipped_workbooks.py": 68,
    "tests/files/test_unchanged.py": 54,
    "tests/test_errors_catalogue.py": 37,
    "tests/test_libreoffice.py": 35,
    "tests/files/test_memory_budget.py": 33,
    "tests/xlwingsjs/test_clicks.py": 30,
    "tests/workbooks/heeg/test_heeg_workbook.py": 30,
    "tests/test_bench_smoke.py": 29,
    "tests/workbooks/bridgemania/test_workbook.py": 26,
    "tests/excel/test_serve_process.py": 25,
    "tests/workbooks/test_record.py": 25,
    "tests/results/test_import_bridgemania.py": 25,
    "tests/results/test_import_heeg.py": 22,
    "tests/workbooks/test_charts.py": 22,
    "tests/workbooks/test_sheet_names.py": 20,
    "tests/workbooks/test_text_fits.py": 19,
    "tests/test_languages.py": 18,
    "tests/workbooks/test_contract.py": 13,
    "tests/pyodide/test_harness.py": 12,
}
SECONDS_PER_TEST = 0.2


@pytest.hookimpl(trylast=True)  # after pytest's own reordering (by fixture parameters, within a module)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not hasattr(config, "workerinput"):
        return  # one process: the tests run as collected
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.path.relative_to(ROOT).as_posix(), []).append(item)
    order = sorted(modules, key=lambda m: -WEIGHTS.get(m, SECONDS_PER_TEST * len(modules[m])))  # stable
    items[:] = [item for module in order for item in modules[module]]
