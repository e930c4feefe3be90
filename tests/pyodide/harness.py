"""Run a workbook's own embedded xlwings Lite code in real Pyodide (Node, offline).

Use::

    wb = PyodideWorkbook("workbooks/tbf-club.xlsx", "314.0.7")  # default version: the one it names
    wb.meta()                     # {"functions": custom_functions_meta(main), "scripts": ...}
    wb.call("award", "tr.club", 1.0, 26.0, "boards=24")         # -> [[0.62]]
    wb.pin("xlbridge.workbooks.recalc.now_stamp", "2026-11-30 12:00")
    actions = wb.run_script("recalculate_season", openpyxl_workbook)
    wb.last["call_ms"]            # the dispatch's time inside Pyodide

A :class:`PyodideWorkbook` reads the files the workbook carries
(``tests.lite_files.extract``), prepares Pyodide and the wheels of its
``requirements.txt`` (:mod:`tests.pyodide.runtime`), and talks to one Node
process (``runner.mjs``) that loaded Pyodide once, installed the wheels, wrote
the ``.py`` files to ``/home/pyodide`` and imported ``main``.  Processes are
shared: one per (Pyodide version, code, requirements), kept until
:func:`close_all` (the tests' session fixture calls it).  A :class:`CPythonWorkbook`
runs the same code through the same driver in a CPython subprocess, for reference
timings.

Failures are never hidden: a Python exception inside Pyodide raises
:class:`PythonError` with the Python traceback from inside the runtime; a failed
preparation raises :class:`~tests.pyodide.runtime.PreparationError`; a runner that
dies raises :class:`HarnessError` with its stderr.
"""

from __future__ import annotations

import atexit
import hashlib
import itertools
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import OrderedDict, deque
from pathlib import Path
from typing import Any

from tests.pyodide import runtime

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "runner.mjs"
DRIVER = HERE / "driver.py"
MAIN_DIR = "/home/pyodide"  # where xlwings Lite's Pyodide keeps main.py (its working directory)
ENV = {"XLWINGS_ON_SERVER": "true", "XLWINGS_LICENSE_KEY": "noncommercial"}

STARTUP_TIMEOUT = float(os.environ.get("XLBRIDGE_PYODIDE_STARTUP_TIMEOUT", "180"))
REQUEST_TIMEOUT = float(os.environ.get("XLBRIDGE_PYODIDE_REQUEST_TIMEOUT", "600"))


class HarnessError(RuntimeError):
    """The runner process failed (not the workbook's Python code)."""


class PythonError(Exception):
    """A Python exception raised inside the runtime, with its traceback from there."""

    def __init__(self, where: str, error: dict[str, str], output: str = ""):
        self.type, self.message, self.traceback = error.get("type"), error.get("message"), error.get("traceback", "")
        text = f"{where}: {self.type}: {self.message}\n--- Python traceback from inside the runtime ---\n" \
               f"{self.traceback.rstrip()}"
        if output.strip():
            text += f"\n--- its output ---\n{output.strip()[-3000:]}"
        super().__init__(text)


# ------------------------------------------------------------------ one process


class _Process:
    """A process speaking the harness protocol (runner.mjs, or driver.py --serve)."""

    def __init__(self, argv: list[str], *, env: dict[str, str], cwd: Path, label: str):
        self.label = label
        self._ids = itertools.count(1)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=200)
        self._lock = threading.Lock()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=cwd, env=env, text=True, encoding="utf-8", bufsize=1)
        threading.Thread(target=self._pump_stdout, daemon=True).start()
        self._stderr_thread = threading.Thread(target=self._pump_stderr, daemon=True)
        self._stderr_thread.start()
        ready = self._read(STARTUP_TIMEOUT, "start")
        if ready.get("event") != "ready":
            self.close()
            raise HarnessError(f"{label} did not start:\n{ready.get('error', ready)}{self._stderr_tail()}")
        self.ready = ready

    def _pump_stdout(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)  # the process ended

    def _pump_stderr(self) -> None:
        for line in self.proc.stderr:
            self._stderr.append(line.rstrip("\n"))

    def _stderr_tail(self) -> str:
        tail = "\n".join(line[:400] for line in list(self._stderr)[-40:])
        return f"\n--- stderr of {self.label} ---\n{tail}" if tail.strip() else ""

    def _read(self, timeout: float, what: str) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self.close()
            raise HarnessError(f"{self.label}: no answer to {what} within {timeout:.0f} s{self._stderr_tail()}") from None
        if line is None:
            code = self.proc.wait(timeout=10)
            self._stderr_thread.join(timeout=5)  # its last words
            raise HarnessError(f"{self.label} ended (exit {code}) during {what}{self._stderr_tail()}")
        try:
            return json.loads(line)
        except ValueError:
            raise HarnessError(f"{self.label}: not a protocol line during {what}: {line[:500]!r}"
                               f"{self._stderr_tail()}") from None

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        with self._lock:
            if self.proc.poll() is not None:
                raise HarnessError(f"{self.label} is not running (exit {self.proc.returncode}){self._stderr_tail()}")
            ident = next(self._ids)
            self.proc.stdin.write(json.dumps({"op": op, "id": ident, **fields}) + "\n")
            self.proc.stdin.flush()
            envelope = self._read(REQUEST_TIMEOUT, f"request {op!r}")
        reply = envelope.get("reply", {})
        if reply.get("id") != ident:
            raise HarnessError(f"{self.label}: reply {reply.get('id')} to request {ident}")
        reply["stdout"] = envelope.get("stdout", "")
        if envelope.get("network"):
            raise HarnessError(f"{self.label} tried the network (the harness must run offline): "
                               f"{envelope['network']}")
        return reply

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(timeout=10)


# ------------------------------------------------------------------ shared runtimes


def code_files(files: dict[str, str]) -> dict[str, str]:
    """The Python files of a workbook's Lite project (``main.py`` and any other ``.py``)."""
    return {name: text for name, text in files.items() if name.endswith(".py")}


def _digest(files: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode("utf-8")).hexdigest()[:16]


class Runtime:
    """One started runtime: its process, what it loaded and how long that took."""

    def __init__(self, kind: str, version: str | None, files: dict[str, str], requirements: str):
        self.kind, self.version, self.requirements = kind, version, requirements
        self.origin = "main.py"
        self.files = code_files(files)
        self.digest = _digest(self.files)
        self.workdir = Path(tempfile.mkdtemp(prefix=f"xlbridge-{kind}-"))
        if kind == "pyodide":
            self.prepared = runtime.prepare(requirements, version)
            self.process = self._start_pyodide()
        else:
            self.prepared = None
            self.process = self._start_cpython()
        self.ready = self.process.ready

    @property
    def label(self) -> str:
        if self.kind == "pyodide":
            return f"Pyodide {self.version}"
        return f"CPython {sys.version.split()[0]} (beside Pyodide {self.version})"

    def _start_pyodide(self) -> _Process:
        node = shutil.which("node")
        if node is None:
            raise HarnessError("node is not on PATH (Node 18 or newer runs Pyodide)")
        config = {
            "indexURL": str(self.prepared.dist.index_dir),
            "wheels": [str(w) for w in self.prepared.wheels.wheels],
            "pyodidePackages": self.prepared.wheels.pyodide_packages,
            "driver": str(DRIVER),
            "mainDir": MAIN_DIR,
            "files": self.files,
            "env": ENV,
        }
        config_path = self.workdir / "config.json"
        config_path.write_text(json.dumps(config), encoding="utf-8")
        return _Process([node, str(RUNNER), str(config_path)], env=dict(os.environ), cwd=self.workdir,
                        label=f"Pyodide {self.version} runner")

    def _start_cpython(self) -> _Process:
        main_dir = self.workdir / "main"
        main_dir.mkdir()
        for name, text in self.files.items():
            (main_dir / name).write_text(text, encoding="utf-8")
        temp = self.workdir / "tmp"  # the workbook's code unpacks into a fresh temp folder, as in Pyodide
        temp.mkdir()
        env = {**os.environ, **ENV, "TMPDIR": str(temp), "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("PYTHONPATH", None)
        return _Process([sys.executable, str(DRIVER), "--serve", "--main-dir", str(main_dir)], env=env,
                        cwd=main_dir, label="CPython reference")

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        return self.process.request(op, **fields)

    def close(self) -> None:
        self.process.close()
        shutil.rmtree(self.workdir, ignore_errors=True)


#: Live runtimes, least recently used first; more than MAX_RUNTIMES are not kept
#: (a Pyodide process holds a few hundred MB; tests using one runtime run together).
MAX_RUNTIMES = int(os.environ.get("XLBRIDGE_PYODIDE_MAX_RUNTIMES", "4"))
_RUNTIMES: OrderedDict[tuple, Runtime] = OrderedDict()
_FAILURES: dict[tuple, BaseException] = {}
_STARTED: list[str] = []  # describe() of every runtime started, for the summary
_LOCK = threading.Lock()


def runtime_key(kind: str, version: str | None, files: dict[str, str], requirements: str) -> tuple:
    return (kind, version, _digest(code_files(files)), requirements)


def shared_runtime(kind: str, version: str | None, files: dict[str, str], requirements: str,
                   origin: str = "main.py") -> Runtime:
    """The runtime for (kind, version, code, requirements): started once, then reused;
    a failure to start is remembered and raised again for every later use."""
    key = runtime_key(kind, version, files, requirements)
    with _LOCK:
        if key in _FAILURES:
            raise _FAILURES[key]
        if key in _RUNTIMES:
            rt = _RUNTIMES[key]
            if rt.process.proc.poll() is None:
                _RUNTIMES.move_to_end(key)
                return rt
            # it ended (the test that saw it go says why): a fresh one for the next tests
            _STARTED.append(f"{rt.label} for {rt.origin} ended (exit {rt.process.proc.returncode}); restarted")
            del _RUNTIMES[key]
            rt.close()
        try:
            rt = Runtime(kind, version, files, requirements)
            rt.origin = origin  # what the code came from (the first workbook that asked for it)
        except (runtime.PreparationError, HarnessError) as error:
            _FAILURES[key] = error
            raise
        _RUNTIMES[key] = rt
        _STARTED.append(describe(rt))
        while len(_RUNTIMES) > max(MAX_RUNTIMES, 1):
            _, oldest = _RUNTIMES.popitem(last=False)
            oldest.close()
        return rt


def started() -> list[str]:
    """One line per runtime started in this process (what it loaded, how long it took)."""
    return list(_STARTED)


def close_all() -> None:
    with _LOCK:
        for rt in _RUNTIMES.values():
            rt.close()
        _RUNTIMES.clear()


atexit.register(close_all)


# ------------------------------------------------------------------ the workbook API


def _origin(path: Path | None) -> str:
    if path is None:
        return "main.py"
    try:
        return str(path.resolve().relative_to(runtime.ROOT))
    except ValueError:
        return path.name


class _Workbook:
    kind = ""

    def __init__(self, path: str | os.PathLike[str] | None, version: str | None = None, *,
                 files: dict[str, str] | None = None):
        from tests import lite_files

        if files is None:
            if path is None:
                raise ValueError("a workbook path or its files")
            with tempfile.TemporaryDirectory() as temp:  # one read: the file may be rebuilt meanwhile
                copy = Path(temp) / Path(path).name
                self.data = Path(path).read_bytes()
                copy.write_bytes(self.data)
                files = lite_files.extract(copy)
            if "main.py" not in files:
                raise HarnessError(f"{path} carries no xlwings Lite main.py (lite_files.extract gave {sorted(files)})")
        else:
            self.data = None
        self.path = Path(path) if path is not None else None
        self.origin = _origin(self.path)
        self.files = files
        self.requirements = files.get("requirements.txt", "")
        self.version = version or files.get("pyodideVersion") or runtime.LATEST_PYODIDE
        self.last: dict[str, Any] = {}
        self.runtime  # noqa: B018 - prepare and start now: a failure belongs to the caller's setup

    @property
    def runtime(self) -> Runtime:
        """The shared runtime (started again if it was let go meanwhile)."""
        return self._runtime()

    def _runtime(self) -> Runtime:
        raise NotImplementedError

    @property
    def label(self) -> str:
        where = f"Pyodide {self.version}" if self.kind == "pyodide" else f"CPython {sys.version.split()[0]}"
        return f"{self.origin} in {where}"

    def startup_error(self) -> PythonError | None:
        """The exception importing main.py raised, if it did."""
        error = self.runtime.ready.get("main_error")
        return PythonError(f"{self.label}: importing main.py", error) if error else None

    def _ask(self, op: str, what: str, **fields: Any) -> dict[str, Any]:
        rt = self.runtime
        reply = rt.request(op, **fields)
        self.last = reply
        if "error" in reply:
            raise PythonError(f"{self.label}: {what}", reply["error"], reply.get("stdout", ""))
        return reply

    def meta(self) -> dict[str, Any]:
        """``{"functions": custom_functions_meta(main), "scripts": custom_scripts_meta(main) or None}``."""
        return self._ask("meta", "meta")

    def call(self, func_name: str, *args: Any) -> Any:
        """A worksheet function called as Office.js calls it (``emulate.function_body``)."""
        from tests.emulate import function_body

        return self._ask("function", f"{func_name}{args!r}", body=function_body(func_name, *args))["result"]

    def run_script(self, name: str, workbook: Any, book_name: str = "Book1.xlsx",
                   args: list[Any] | None = None, files: dict[str, bytes] | None = None) -> list[dict[str, Any]]:
        """The actions the script returns for ``workbook`` (openpyxl) sent as Office.js sends it
        (``args``: the script's form fields, a date as ISO text; none: a sheet button's click;
        ``files``: path -> bytes placed in the runtime's file system for the click, as xlwings Lite's
        Files menu puts them under /data); ``self.last["call_ms"]`` is the dispatch's time inside the runtime."""
        import base64

        from tests.emulate import payload

        asked = self.script_meta(name)
        body = payload(workbook, book_name, include=asked.get("include"), exclude=asked.get("exclude"))
        placed = {path: base64.b64encode(data).decode("ascii") for path, data in (files or {}).items()}
        return self._ask("script", f"script {name}", name=name, payload=body, args=args or [],
                         files=placed)["actions"]

    def script_meta(self, name: str) -> dict[str, Any]:
        """What the workbook's ``@script`` declares for ``name`` (``include``, ``exclude``,
        ...), as xlwings Lite reads it; ``{}`` when the xlwings has no script metadata."""
        if not hasattr(self, "_scripts"):
            self._scripts = {s.get("function_name"): s for s in (self.meta().get("scripts") or [])}
        return self._scripts.get(name, {})

    def pin(self, target: str, value: Any) -> None:
        """Make ``target`` ("package.module.function" of the workbook's code) return ``value``."""
        self._ask("pin", f"pin {target}", target=target, value=value)

    def unpin(self, target: str) -> None:
        self._ask("unpin", f"unpin {target}", target=target)

    def info(self) -> dict[str, Any]:
        return self._ask("info", "info")

    def close(self) -> None:
        """Shared runtimes stay up for the next test; :func:`close_all` ends them."""


class PyodideWorkbook(_Workbook):
    """A workbook's embedded code in real Pyodide ``version`` (default: the one it names)."""

    kind = "pyodide"

    def _runtime(self) -> Runtime:
        return shared_runtime("pyodide", self.version, self.files, self.requirements, self.origin)


class CPythonWorkbook(_Workbook):
    """The same code through the same driver on this CPython (its installed packages), for
    reference timings.  One process per (code, ``version``): give it the Pyodide version
    it stands beside, and it sees the same sequence of calls (cold and warm alike)."""

    kind = "cpython"

    def _runtime(self) -> Runtime:
        return shared_runtime("cpython", self.version, self.files, "", self.origin)


def describe(rt: Runtime) -> str:
    """One line on a started runtime: what it loaded and how long each step took."""
    r = rt.ready
    parts = [f"{rt.label} for {rt.origin} (code {rt.digest})"]
    if rt.kind == "pyodide":
        parts.append(f"load {r['load_ms']:.0f} ms, wheels {r['install_ms']:.0f} ms "
                     f"({len(rt.prepared.wheels.wheels)}: {', '.join(rt.prepared.wheels.pinned.split())})")
    parts.append(f"xlwings {r.get('xlwings', '-')} import {r.get('xlwings_import_ms', 0):.0f} ms")
    main = f"main.py import {r.get('main_import_ms', 0):.0f} ms"
    if r.get("main_error"):
        main += f" FAILED ({r['main_error']['type']}: {r['main_error']['message'][:120]})"
    parts.append(main)
    return "; ".join(parts)
