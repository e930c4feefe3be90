"""``xlbridge serve`` marks the module ``pyodide`` absent in the server process
(:func:`xlbridge.excel.server.quiet_pyodide_probe`).  Every check runs in a child
process, so this test process's ``sys.modules`` stays as it is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def child(code: str, *, env: dict[str, str] | None = None) -> dict:
    """Run ``code`` in a fresh Python; it prints one JSON line, returned here."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


PROBE = """
    import json, sys
    from xlbridge.excel.server import quiet_pyodide_probe
    {before}
    done = quiet_pyodide_probe()
    import xlwings.utils
    try:
        import pyodide
        found = getattr(pyodide, "__file__", None) or "module"
    except ImportError:
        found = None
    print(json.dumps({{"done": done, "again": quiet_pyodide_probe(), "found": found,
                      "jsnull": xlwings.utils.is_jsnull(1.0), "marked": "pyodide" in sys.modules,
                      "ffi": sys.modules.get("pyodide.ffi", "absent")}}))
"""


def test_marks_pyodide_absent_outside_pyodide():
    r = child(PROBE.format(before=""))
    assert r == {"done": True, "again": False, "found": None, "jsnull": False, "marked": True, "ffi": None}


def test_leaves_an_importable_pyodide_alone(tmp_path):
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "__init__.py").write_text("", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    r = child(PROBE.format(before=""), env=env)
    assert r["done"] is False and r["again"] is False
    assert r["found"] == str(tmp_path / "pyodide" / "__init__.py")


def test_leaves_an_imported_pyodide_alone():
    r = child(PROBE.format(before="import types; sys.modules['pyodide'] = types.ModuleType('pyodide')"))
    assert r["done"] is False and r["found"] == "module"


def test_does_nothing_in_xlwings_lite():
    r = child(PROBE.format(before="sys.platform = 'emscripten'"))
    assert r["done"] is False and r["marked"] is False and r["ffi"] == "absent"


@pytest.mark.slow
def test_the_server_app_marks_it_and_answers_as_before(tmp_path):
    r = child(f"""
        import asyncio, json, os, sys
        from xlbridge.excel import server
        os.environ.update(server.server_environment(server.prepare_project({str(tmp_path)!r}), noncommercial=True))
        from xlwings import server as xw_server
        from xlbridge.excel import functions
        from tests.emulate import function_body

        bodies = [function_body("award", "tr.club", 1.0, 26.0, "boards=24"),
                  function_body("award", "tr.club", 3.0, 26.0, None),  # an omitted optional: null
                  function_body("award_unit", "tr.club", 1.0, [[1.0], [2.0], [""]], None),
                  function_body("award", "tr.club", 1.0, 2.5)]  # an error, shown in the cell

        def answers():
            return [asyncio.run(xw_server.custom_functions_call(b, functions)) for b in bodies]

        before = answers()
        server.app()
        print(json.dumps({{"marked": all(name in sys.modules and sys.modules[name] is None
                                         for name in server.PYODIDE_MODULES),
                          "before": before, "after": answers()}}))
    """)
    assert r["marked"] is True
    assert r["after"] == r["before"]
    assert r["before"][0] == [[0.62]]
