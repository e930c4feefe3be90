"""The Excel path needs only the standard library and xlwings.

In xlwings Lite there is no pandas, numpy or openpyxl (Pyodide's core has none,
and the workbooks' ``requirements.txt`` asks for none).  Here a child process
makes those imports fail, loads a shipped workbook's own ``main.py`` and runs a
worksheet function of every rule set and the "Recalculate season" script of
every workbook kind through xlwings' Office.js dispatch.  (``tests/pyodide/``
runs the same in real Pyodide; this is the quick check on CPython.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests import lite_files
from tests.emulate import function_body, payload
from xlbridge.excel.shipped import SHIPPED
from tests.alerts import is_done_message

ROOT = Path(__file__).resolve().parent.parent

CHILD = r'''
import asyncio, json, sys

class Blocked:
    BLOCKED = ("pandas", "numpy", "openpyxl", "filelock")
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.BLOCKED:
            raise ImportError(f"{name} is not available in xlwings Lite")
        return None

sys.meta_path.insert(0, Blocked())
job = json.load(open(sys.argv[1], encoding="utf-8"))
sys.path.insert(0, job["folder"])
import main  # the workbook's own main.py: unpacks its bundle
import xlwings as xw
from xlwings import server
out = {"functions": [], "actions": None}
for body in job["functions"]:
    out["functions"].append(asyncio.run(server.custom_functions_call(body, main)))
book = xw.Book(json=job["payload"])
asyncio.run(server.custom_scripts_call(main, "recalculate_season", typehint_to_value={xw.Book: book}))
out["actions"] = book.json()["actions"]
out["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in Blocked.BLOCKED)
print(json.dumps(out, default=str))
'''

FUNCTIONS = [
    (("award", "tr.club", 1.0, 26.0, "boards=24"), [[0.62]]),
    (("award", "se.silver.pairs", 1.0, 60.0, "met=30; boards=60"), [[46]]),
    (("award", "bm.f1-fast", 3.0, 10.0, None), None),
    (("heeg_pct", 173.0, 288.0, ""), None),
    (("bm_pct", [[8.0, 4.0]], 8.0, None), None),
    (("se_class", 0.0, 0.0, 2000.0), [["Rutermästare"]]),
]


@pytest.mark.slow
def test_every_kind_recalculates_without_pandas_numpy_openpyxl(tmp_path):
    done = set()
    for kind, blank, rel in SHIPPED:
        if blank or kind in done:
            continue
        done.add(kind)
        path = ROOT / rel
        folder = tmp_path / kind
        folder.mkdir()
        (folder / "main.py").write_text(lite_files.extract(path)["main.py"], encoding="utf-8")
        job = {"folder": str(folder), "payload": payload(load_workbook(path), path.name),
               "functions": [function_body(*args) for args, _ in FUNCTIONS]}
        (folder / "job.json").write_text(json.dumps(job, default=str), encoding="utf-8")
        env = dict(os.environ, XLWINGS_ON_SERVER="true", XLWINGS_LICENSE_KEY="noncommercial", TMPDIR=str(folder))
        env.pop("PYTHONPATH", None)
        result = subprocess.run([sys.executable, "-c", CHILD, str(folder / "job.json")], cwd=folder, env=env,
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{kind}: {result.stderr[-4000:]}"
        out = json.loads(result.stdout.strip().splitlines()[-1])
        assert out["loaded"] == []
        for (args, expected), got in zip(FUNCTIONS, out["functions"]):
            assert not str(got[0][0]).startswith("#xlbridge"), f"{kind} {args}: {got}"
            if expected is not None:
                assert got == expected, f"{kind} {args}: {got}"
        alerts = [a["args"][0] for a in out["actions"] if a["func"] == "alert"]
        assert alerts and is_done_message(alerts[0]), f"{kind}: {alerts}"
