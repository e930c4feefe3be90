"""Self-test of the Pyodide harness, independent of the shipped workbooks: a tiny
xlwings Lite project embedded in a workbook (as xlbridge embeds its own) runs in
real Pyodide on every version the shipped tests use and on runtime.EARLIER_PYODIDE."""

from __future__ import annotations

import importlib.metadata
import os

import pytest
from openpyxl import Workbook, load_workbook

from tests.pyodide import harness, runtime
from tests.pyodide.harness import HarnessError, PyodideWorkbook, PythonError
from xlbridge.excel import lite
from tests.emulate import apply_actions

pytestmark = pytest.mark.slow  # the inner loop while developing is pytest -m "not slow" (pyproject.toml)

REQUIREMENTS = runtime.HARNESS_REQUIREMENTS  # "xlwings>=0.37,<0.38"

TINY_MAIN = '''"""A tiny xlwings Lite project (the harness self-test)."""
import xlwings as xw


def stamp():
    return "the real clock"


@xw.func
def double(x):
    """Twice x."""
    return 2 * x


@xw.func
def when():
    return stamp()


@xw.func
def fails(x):
    raise ValueError(f"boom {x}")


@xw.func
async def fetches():
    import js  # Pyodide only: the runner refuses the network

    await js.fetch("https://cdn.jsdelivr.net/pyodide/")
    return "fetched"


@xw.script
def write_double(book: xw.Book):
    """Sheet1!B1 = 2 x Sheet1!A1."""
    sheet = book.sheets[0]
    sheet["B1"].value = 2 * sheet["A1"].value
'''

BROKEN_MAIN = 'import xlwings as xw\n\n\ndef helper():\n    return 1 / 0\n\n\nVALUE = helper()\n'

WRITE_DOUBLE_ACTIONS = [{"func": "setValues", "args": [None], "values": [[42]], "sheet_position": 0,
                         "start_row": 0, "start_column": 1, "row_count": 1, "column_count": 1}]


def tiny_workbook(path, main_py: str, version: str):
    wb = Workbook()
    wb.active.title = "Sheet1"
    wb.active["A1"] = 21
    wb.save(path)
    lite.embed(path, {"main.py": main_py, "requirements.txt": REQUIREMENTS}, pyodide_version=version)
    return path


@pytest.fixture(params=runtime.self_test_versions(), ids=lambda v: f"pyodide-{v}", scope="module")
def version(request):
    return request.param


@pytest.fixture(scope="module")
def tiny(version, tmp_path_factory):
    path = tiny_workbook(tmp_path_factory.mktemp("tiny") / "tiny.xlsx", TINY_MAIN, version)
    return PyodideWorkbook(path, version)


def test_the_runtime_is_the_one_asked_for(tiny, version):
    ready = tiny.runtime.ready
    assert ready["pyodide"] == version
    assert ready["python"] == tiny.runtime.prepared.dist.python_full
    # the newest xlwings of the workbooks' range, as Lite installs it: the one pip gave the tests
    # (pyproject.toml, the test extra); a cache resolved before a newer release: prepare --refresh
    assert ready["xlwings"] == importlib.metadata.version("xlwings") and ready["xlwings"].startswith("0.37.")
    assert "main_error" not in ready
    pinned = tiny.runtime.prepared.wheels.pinned
    assert pinned == f"xlwings=={ready['xlwings']}\n"
    if "XLBRIDGE_PYODIDE_CACHE" not in os.environ:  # by default the cache lives outside the git tree
        assert not tiny.runtime.prepared.dist.index_dir.is_relative_to(runtime.ROOT)


def test_meta_lists_the_function_and_the_script(tiny):
    meta = tiny.meta()
    assert sorted(f["name"] for f in meta["functions"]["functions"]) == ["DOUBLE", "FAILS", "FETCHES", "WHEN"]
    assert [s["function_name"] for s in meta["scripts"]] == ["write_double"]


def test_function_call(tiny):
    assert tiny.call("double", 21.0) == [[42.0]]
    assert tiny.last["elapsed_ms"] > 0 and tiny.last["call_ms"] > 0


def test_script_returns_the_exact_actions(tiny, tmp_path):
    source = load_workbook(tiny.path)
    actions = tiny.run_script("write_double", source)
    assert actions == WRITE_DOUBLE_ACTIONS
    assert apply_actions(source, actions) == []
    assert source["Sheet1"]["B1"].value == 42


def test_python_errors_come_back_with_their_traceback(tiny):
    with pytest.raises(PythonError) as caught:
        tiny.call("fails", 1.0)
    text = str(caught.value)
    assert caught.value.type == "ValueError" and caught.value.message == "boom 1.0"
    assert 'File "/home/pyodide/main.py", line' in text and "ValueError: boom 1.0" in text
    # the process goes on serving
    assert tiny.call("double", 2.0) == [[4.0]]


def test_pin_replaces_a_function_of_the_workbook_code(tiny):
    assert tiny.call("when") == [["the real clock"]]
    tiny.pin("main.stamp", "2026-11-30 12:00")
    try:
        assert tiny.call("when") == [["2026-11-30 12:00"]]
    finally:
        tiny.unpin("main.stamp")
    assert tiny.call("when") == [["the real clock"]]
    with pytest.raises(PythonError, match="cannot pin main.nothing"):
        tiny.pin("main.nothing", 1)


def test_the_runner_refuses_the_network(tiny):
    with pytest.raises(HarnessError, match=r"tried the network.*cdn\.jsdelivr\.net"):
        tiny.call("fetches")
    assert tiny.call("double", 1.0) == [[2.0]]


def test_one_process_per_code_version_and_requirements(tiny, version):
    again = PyodideWorkbook(tiny.path, version)
    assert again.runtime is tiny.runtime


def test_a_main_py_that_fails_to_import_is_reported(version, tmp_path):
    broken = PyodideWorkbook(tiny_workbook(tmp_path / "broken.xlsx", BROKEN_MAIN, version), version)
    error = broken.startup_error()
    assert error is not None and error.type == "ZeroDivisionError"
    with pytest.raises(PythonError) as caught:
        broken.meta()
    text = str(caught.value)
    assert "main.py failed to import: ZeroDivisionError: division by zero" in text
    assert 'File "/home/pyodide/main.py", line 5, in helper' in text


def test_cpython_reference_runs_the_same_code(tiny):
    reference = harness.CPythonWorkbook(tiny.path)
    assert reference.call("double", 21.0) == [[42.0]]
    assert reference.run_script("write_double", load_workbook(tiny.path)) == WRITE_DOUBLE_ACTIONS


# ------------------------------------------------------------------ preparation (needs PyPI once)


def test_markers_are_evaluated_for_pyodide():
    prepared = runtime.prepare(runtime.MARKERS_REQUIREMENTS, runtime.LATEST_PYODIDE)
    names = [line.split("==")[0] for line in prepared.wheels.pinned.split()]
    assert names == ["python-dotenv", "xlwings"]
    skipped = [s["requirement"] for s in prepared.wheels.manifest["skipped"]]
    assert any(s.startswith("pywin32") for s in skipped)


def test_a_package_without_a_pure_wheel_fails_naming_it():
    with pytest.raises(runtime.PreparationError) as caught:
        runtime.prepare(runtime.NO_PURE_WHEEL_REQUIREMENTS, runtime.LATEST_PYODIDE)
    text = str(caught.value)
    assert text.startswith("cannot prepare pandas (required by requirements.txt) for Pyodide "
                           f"{runtime.LATEST_PYODIDE}")
    assert "not a pure-Python wheel on PyPI" in text and "npm package does not carry" in text
    assert caught.value.definitive  # PyPI answered: remembered, so an offline run says the same
