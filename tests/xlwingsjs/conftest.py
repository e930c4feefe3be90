"""Fixtures of the xlwings-JavaScript tests: shared processes, and what each click did in the summary."""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
if str(ROOT) not in sys.path:  # `from tests.xlwingsjs import ...` also under plain `pytest`
    sys.path.insert(0, str(ROOT))

from tests.pyodide import harness as pyodide_harness  # noqa: E402
from tests.xlwingsjs import harness, scenarios  # noqa: E402

_CLICKS: list[dict] = []


@pytest.fixture(scope="session", autouse=True)
def _close_processes():
    yield
    harness.close_all()
    pyodide_harness.close_all()


@pytest.fixture(scope="session")
def headless():
    """``headless(scenario_id)``: the scenario's :class:`~tests.xlwingsjs.scenarios.Expected`, worked
    out in two worker processes (openpyxl reading and writing the files) while the clicks run here."""
    pool = ProcessPoolExecutor(max_workers=min(2, os.cpu_count() or 1), mp_context=multiprocessing.get_context("spawn"))
    futures = {}
    for chain in scenarios.chains():
        future = pool.submit(scenarios.work_out, chain)
        futures.update({i: future for i in chain})
    yield lambda scenario_id: futures[scenario_id].result()[scenario_id]
    pool.shutdown(cancel_futures=True)


@pytest.fixture(scope="session")
def clicked():
    """Record one line for the terminal summary: ``clicked(version=..., scenario=..., actions=..., result=...)``."""
    return lambda **row: _CLICKS.append(row)


def pytest_terminal_summary(terminalreporter):
    if not _CLICKS:
        return
    write = terminalreporter.write_line
    terminalreporter.section("xlwings' JavaScript: every click, its actions and how it ended")
    columns = ["version", "scenario", "actions", "result"]
    widths = [max(len(c), *(len(str(row[c])) for row in _CLICKS)) for c in columns[:-1]]
    write("  ".join(c.ljust(w) for c, w in zip(columns, widths + [0])))
    for row in _CLICKS:
        write("  ".join(str(row[c]).ljust(w) for c, w in zip(columns, widths + [0])))
