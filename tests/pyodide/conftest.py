"""Fixtures of the Pyodide tests: shared runtimes, and a timing report in the summary."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
if str(ROOT) not in sys.path:  # `from tests.pyodide import ...` also under plain `pytest`
    sys.path.insert(0, str(ROOT))

from tests.pyodide import harness  # noqa: E402

_TIMINGS: list[dict] = []


@pytest.fixture(scope="session", autouse=True)
def _close_runtimes():
    yield
    harness.close_all()


@pytest.fixture(scope="session")
def timings():
    """Record one timing line for the terminal summary: ``timings(label=..., **columns)``."""

    def record(**row) -> None:
        _TIMINGS.append(row)

    return record


def _fmt(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.0f} ms"
    return str(value)


def pytest_terminal_summary(terminalreporter):
    lines = harness.started()
    if not lines and not _TIMINGS:
        return
    write = terminalreporter.write_line
    terminalreporter.section("Pyodide harness: runtimes and times")
    for line in lines:
        write(line)
    if _TIMINGS:
        write("")
        columns = list(dict.fromkeys(key for row in _TIMINGS for key in row))
        table = [[_fmt(row.get(c)) for c in columns] for row in _TIMINGS]
        widths = [max(len(c), *(len(r[i]) for r in table)) for i, c in enumerate(columns)]
        write("  ".join(c.ljust(w) for c, w in zip(columns, widths)))
        for r in table:
            write("  ".join(v.ljust(w) for v, w in zip(r, widths)))
