"""``xlbridge serve``: xlwings Server with xlbridge's worksheet functions and scripts.

A federation can host one server for all its clubs: Excel (desktop or on the
web) loads the add-in from the server's manifest, and ``=AWARD(...)`` and the
"Recalculate season" script run there.  The server is the ``xlwings-server``
package (``pip install "xlbridge[server]"``), unchanged: xlbridge only gives it
a *project directory* whose ``custom_functions`` and ``custom_scripts``
packages re-export :mod:`xlbridge.excel.functions` and
:mod:`xlbridge.excel.scripts`.  No Redis is needed: without
``XLWINGS_OBJECT_CACHE_URL`` xlwings Server keeps its small object cache in
memory, and xlbridge's functions use no object handles.

xlwings must be imported with ``XLWINGS_ON_SERVER=true`` (that switches
``@xw.func``/``@xw.script`` to the Office.js dispatch), and xlwings' server
code needs a licence key (``XLWINGS_LICENSE_KEY``: a paid key, or
``noncommercial`` under the PolyForm Noncommercial licence).  :func:`run`
therefore starts the server in a fresh Python process with that environment.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000

SHIMS = {
    "custom_functions/__init__.py": (
        '"""Written by xlbridge serve: xlbridge\'s worksheet functions for xlwings Server."""\n'
        "from xlbridge.excel.functions import *  # noqa: F401,F403\n"
    ),
    "custom_scripts/__init__.py": (
        '"""Written by xlbridge serve: xlbridge\'s scripts for xlwings Server."""\n'
        "from xlbridge.excel.scripts import *  # noqa: F401,F403\n"
    ),
}

LICENCE_HELP = (
    "xlwings Server needs a licence key: set XLWINGS_LICENSE_KEY to your xlwings key, "
    "or pass --noncommercial for noncommercial use under the PolyForm Noncommercial licence"
)


class ServeError(ValueError):
    """The server cannot be started as asked; the message says why."""


def prepare_project(project_dir: str | os.PathLike[str] | None = None) -> Path:
    """Write the xlwings Server project directory (a new temporary one when
    ``project_dir`` is None) and return it.  Only the two shim packages are
    written; anything else there (a ``.env`` with the server's settings, say)
    is left as it is."""
    root = Path(project_dir) if project_dir else Path(tempfile.mkdtemp(prefix="xlbridge-serve-"))
    for rel, text in SHIMS.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    return root


def server_environment(project_dir: Path, *, noncommercial: bool = False,
                       base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment xlwings Server must be started with."""
    env = dict(os.environ if base is None else base)
    if noncommercial:
        env["XLWINGS_LICENSE_KEY"] = "noncommercial"
    if not env.get("XLWINGS_LICENSE_KEY"):
        raise ServeError(LICENCE_HELP)
    env["XLWINGS_ON_SERVER"] = "true"
    env["XLWINGS_PROJECT_DIR"] = str(project_dir)
    env.setdefault("XLWINGS_FUNCTIONS_NAMESPACE", "XLBRIDGE")  # in Excel: =XLBRIDGE.AWARD(...)
    env.setdefault("XLWINGS_ENABLE_EXAMPLES", "false")
    env.setdefault("XLWINGS_ENABLE_HOTRELOAD", "false")
    return env


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


def app():
    """The xlwings Server ASGI app serving xlbridge (in a process whose
    environment :func:`server_environment` made, before xlwings was imported).
    Also calls :func:`quiet_pyodide_probe`: this process is the server."""
    if os.environ.get("XLWINGS_ON_SERVER") != "true" or not os.environ.get("XLWINGS_PROJECT_DIR"):
        raise ServeError("xlbridge.excel.server.app() needs the environment of server_environment()")
    if "xlwings" in sys.modules and not getattr(sys.modules["xlwings"], "on_server", False):
        raise ServeError("xlwings was imported before XLWINGS_ON_SERVER=true was set")
    try:
        from xlwings_server.main import main_app
    except ImportError as error:
        raise ServeError('xlwings Server is not installed: pip install "xlbridge[server]"') from error
    quiet_pyodide_probe()
    return main_app


def _check_installed() -> None:
    import importlib.util

    missing = [name for name in ("xlwings_server", "uvicorn") if importlib.util.find_spec(name) is None]
    if missing:
        raise ServeError(f'{", ".join(missing)} not installed: pip install "xlbridge[server]"')


def command(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> list[str]:
    """The command line of the server process."""
    return [sys.executable, "-m", "xlbridge.excel.server", "--host", host, "--port", str(port)]


def run(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, project_dir: str | os.PathLike[str] | None = None,
        noncommercial: bool = False) -> int:
    """Serve until interrupted (Ctrl+C); returns the server process's exit code."""
    _check_installed()
    if not 0 < port < 65536:
        raise ServeError(f"--port must be between 1 and 65535; got {port}")
    env = server_environment(prepare_project(project_dir), noncommercial=noncommercial)
    print(f"xlbridge: serving xlwings Server on http://{host}:{port} "
          f"(manifest: http://{host}:{port}/manifest; Ctrl+C stops)", file=sys.stderr, flush=True)
    process = subprocess.Popen(command(host, port), env=env)
    previous = _stop_on_sigterm()
    try:
        return process.wait()
    except (KeyboardInterrupt, SystemExit):  # Ctrl+C, or SIGTERM (below): stop the server too
        process.terminate()
        try:
            return process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            return process.wait()
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _stop_on_sigterm():
    """Make SIGTERM raise SystemExit here, so that the server process is stopped
    with this one; returns the previous handler (None where it cannot be set)."""
    def stop(signum, frame):
        raise SystemExit(128 + signum)

    try:
        return signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread
        return None


def main(argv: Sequence[str] | None = None) -> None:
    """Entry of the server process (``python -m xlbridge.excel.server``)."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m xlbridge.excel.server")
    p.add_argument("--host", default=DEFAULT_HOST)
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    args = p.parse_args(argv)
    import uvicorn

    uvicorn.run(app(), host=args.host, port=args.port, log_level="info")


if __name__ == "__main__":  # pragma: no cover - the server process
    main()
