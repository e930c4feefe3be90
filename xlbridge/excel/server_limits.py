"""What ``xlbridge serve`` allows one caller (:class:`Limits`), its start-up error
(:class:`ServeError`) and :func:`quiet_pyodide_probe`: shared by the server
process (:mod:`xlbridge.excel.server`) and its workers
(:mod:`xlbridge.excel.server_pool`)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, fields
from typing import Any

OPTION_RANGE = "{option} must be between {low} and {high}; got {value}"
#: Host names always served (with the address given to --host).
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


class ServeError(ValueError):
    """The server cannot be started as asked; the message says why."""


def bounded(option: str, value: Any, low: float, high: float) -> None:
    if not (isinstance(value, (int, float)) and low <= value <= high):
        raise ServeError(OPTION_RANGE.format(option=option, low=low, high=high, value=value))


@dataclass(frozen=True)
class Limits:
    """What one caller may take of the server (docs/reliability.md has the figures)."""

    allowed_hosts: tuple[str, ...] = LOCAL_HOSTS  # "*": any (behind a proxy that checks it)
    time_limit: float = 10.0  # seconds per worksheet function call
    script_time_limit: float = 120.0  # seconds per script (a season's recalculation)
    workers: int = max(2, min(4, os.cpu_count() or 1))  # at least 2: one stays free for functions
    memory_mb: int = 2048  # address space of a worker (where the system limits it); 0: none
    max_body_mb: int = 32  # a request body (a script call sends the whole workbook)
    bodies_mb: int = 256  # the bodies the server process holds at once, each counted twice (body and answer)
    body_seconds: float = 30.0  # for the whole request body to arrive
    header_seconds: float = 10.0  # for the request headers to arrive

    ENV = "XLBRIDGE_SERVE_"

    def check(self) -> Limits:
        bounded("--time-limit", self.time_limit, 0.01, 3600)
        bounded("--script-time-limit", self.script_time_limit, 0.01, 3600)
        bounded("--workers", self.workers, 1, 64)
        bounded("--memory-limit", self.memory_mb, 0, 1 << 20)
        bounded("the body limit", self.max_body_mb, 1, 1024)
        bounded("the limit of the bodies held at once", self.bodies_mb, 2 * self.max_body_mb, 1 << 20)
        bounded("the body time limit", self.body_seconds, 0.1, 3600)
        bounded("the header time limit", self.header_seconds, 0.1, 3600)
        return self

    def environment(self) -> dict[str, str]:
        return {self.ENV + f.name.upper(): ",".join(v) if isinstance(v := getattr(self, f.name), tuple) else str(v)
                for f in fields(self)}

    @classmethod
    def from_environment(cls, env: dict[str, str] | None = None) -> Limits:
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            text = env.get(cls.ENV + f.name.upper())
            if text is None:
                continue
            if f.name == "allowed_hosts":
                values[f.name] = tuple(h.strip().lower() for h in text.split(",") if h.strip())
            else:
                kind = int if f.name in ("workers", "memory_mb", "max_body_mb", "bodies_mb") else float
                try:
                    values[f.name] = kind(text)
                except ValueError:
                    raise ServeError(OPTION_RANGE.format(option=cls.ENV + f.name.upper(), low="", high="",
                                                         value=text)) from None
        return cls(**values).check()


#: The modules :func:`quiet_pyodide_probe` marks absent: xlwings imports ``pyodide.ffi``.
PYODIDE_MODULES = ("pyodide", "pyodide.ffi")


def quiet_pyodide_probe() -> bool:
    """Mark the module ``pyodide`` (and ``pyodide.ffi``) as absent in this
    process, so that importing it fails at once; returns whether it did.

    Why: for every argument value of every worksheet function call, xlwings
    (0.37: ``xlwings.utils.is_jsnull`` and ``js_to_none`` of its Office.js
    dispatch) tries ``from pyodide.ffi import JsNull`` to recognise an empty
    cell as xlwings Lite sends it.  On a server there is no Pyodide, and each
    failed import searches every folder of ``sys.path`` again -- tens of µs a
    time, eight times for ``=AWARD("tr.club", 1, 26, "boards=24")``, more than
    half of the whole call, and once or twice per cell of a range argument.
    ``None`` in ``sys.modules`` is Python's documented way to say "this module
    does not exist": the import then raises ``ModuleNotFoundError`` (an
    ``ImportError``, which xlwings expects outside Pyodide) without searching.
    ``pyodide.ffi`` is marked too, since that is the name xlwings imports: with
    only the parent marked, each attempt still takes Python's import lock for
    the submodule (about 9 µs instead of 2).  Nothing else changes: xlwings
    answers exactly as before, only sooner.

    Nothing is done where Pyodide is, or may be, real: in xlwings Lite (the
    ``emscripten`` platform), when ``pyodide`` is already imported or already
    marked, or when a module of that name can be found on ``sys.path``.
    """
    import importlib.util

    if sys.platform == "emscripten" or any(name in sys.modules for name in PYODIDE_MODULES):
        return False
    if importlib.util.find_spec("pyodide") is not None:
        return False
    for name in PYODIDE_MODULES:
        sys.modules[name] = None  # type: ignore[assignment]
    return True
