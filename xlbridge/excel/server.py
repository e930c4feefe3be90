"""``xlbridge serve``: xlwings Server with xlbridge's worksheet functions and scripts.

A federation can host one server for all its clubs: Excel (desktop or on the
web) loads the add-in from the server's manifest, and ``=AWARD(...)`` and the
"Recalculate season" script run there.  The server is the ``xlwings-server``
package (``pip install "xlbridge[server]"``), unchanged: xlbridge only gives it
a *project directory* whose ``custom_functions`` and ``custom_scripts``
packages serve :mod:`xlbridge.excel.functions` and :mod:`xlbridge.excel.scripts`.
No Redis is needed: without ``XLWINGS_OBJECT_CACHE_URL`` xlwings Server keeps
its small object cache in memory, and xlbridge's functions use no object handles.

xlwings must be imported with ``XLWINGS_ON_SERVER=true`` (that switches
``@xw.func``/``@xw.script`` to the Office.js dispatch), and xlwings' server
code needs a licence key (``XLWINGS_LICENSE_KEY``: a paid key, or
``noncommercial`` under the PolyForm Noncommercial licence).  :func:`run`
therefore starts the server in a fresh Python process with that environment.

What keeps one caller from harming the others (docs/reliability.md):

- every function call and script runs in a worker process (``Pool``), off
  the event loop, with a time limit and a memory limit: a call over either is
  stopped (its worker is replaced) and its cell says so; other requests go on;
- ``Guard``, in front of xlwings Server: a Host allow-list (the localhost
  names and ``--host``; more with ``--allow-host``: DNS rebinding), a request
  body size limit and time limit, and 4xx answers to malformed bodies and unknown
  function or script names (:mod:`xlbridge.excel.server_guard`; the workers:
  :mod:`xlbridge.excel.server_pool`);
- request headers must arrive in time (:func:`~xlbridge.excel.server_guard.guarded_protocol`);
  idle connections close after a few seconds;
- SIGTERM or Ctrl+C stops the server and its workers, with exit code 0.

The limits travel from ``xlbridge serve``'s options to the server process as
``XLBRIDGE_SERVE_*`` environment variables (:class:`Limits`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from xlbridge.excel.server_limits import (LOCAL_HOSTS, PYODIDE_MODULES, Limits, ServeError, bounded,  # noqa: F401
                                          quiet_pyodide_probe)  # (PYODIDE_MODULES: also this module's name)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000

#: The project directory's packages: xlbridge's worksheet functions and scripts for xlwings Server.
SHIMS = {f"custom_{kind}/__init__.py": (
    f'"""Written by xlbridge serve: xlbridge\'s {what} for xlwings Server,\n'
    f'{each} in a worker process with a time limit (xlbridge.excel.server_pool)."""\n'
    f"from xlbridge.excel.server_pool import served_{kind} as _served\n\n"
    "globals().update(_served())\n"
    "del _served\n"
) for kind, what, each in (("functions", "worksheet functions", "each call run"), ("scripts", "scripts", "each run"))}

LICENCE_HELP = (
    "xlwings Server needs a licence key: set XLWINGS_LICENSE_KEY to your xlwings key, "
    "or pass --noncommercial for noncommercial use under the PolyForm Noncommercial licence"
)
PORT_IN_USE = "port {port} on {host} is in use by another program; choose another with --port (e.g. --port {next})"
PORT_DENIED = "port {port} on {host} needs administrator rights on this system; choose one from 1024 up with --port"
NOT_AN_ADDRESS = "--host {host} is not an address of this machine ({reason})"
PROJECT_DIR = "--project-dir {folder}: {reason}; choose a folder xlbridge serve can write to"
#: uvicorn: at most this many connections and tasks at once (503 beyond), idle connections close after
MAX_CONNECTIONS = 512
KEEP_ALIVE_SECONDS = 5
SHUTDOWN_SECONDS = 5


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower() if isinstance(error, OSError) else str(error)


def prepare_project(project_dir: str | os.PathLike[str] | None = None) -> Path:
    """Write the xlwings Server project directory (a new temporary one when
    ``project_dir`` is None) and return it.  Only the two shim packages are
    written; anything else there (a ``.env`` with the server's settings, say)
    is left as it is."""
    try:
        root = Path(project_dir) if project_dir else Path(tempfile.mkdtemp(prefix="xlbridge-serve-"))
        for rel, text in SHIMS.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise ServeError(PROJECT_DIR.format(folder=project_dir, reason=_reason(error))) from None
    return root


# ------------------------------------------------------------------ the limits


def allowed_hosts(host: str, extra: Sequence[str] = ()) -> tuple[str, ...]:
    """The Host names served: the localhost names, ``host`` (unless it is every
    address of the machine) and ``extra``."""
    names = list(LOCAL_HOSTS)
    if host not in ("0.0.0.0", "::", ""):
        names.append(host.strip("[]").lower())
    names += [h.strip().lower() for h in extra if h.strip()]
    return tuple(dict.fromkeys(names))


def server_environment(project_dir: Path, *, noncommercial: bool = False, base: dict[str, str] | None = None,
                       limits: Limits | None = None) -> dict[str, str]:
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
    if limits is not None:
        env.update(limits.environment())
    return env


# ------------------------------------------------------------------ the server process


def app():
    """The xlwings Server ASGI app serving xlbridge, behind :class:`Guard` (in a
    process whose environment :func:`server_environment` made, before xlwings was
    imported).  Also calls :func:`quiet_pyodide_probe`: this process is the server;
    and starts the worker processes."""
    if os.environ.get("XLWINGS_ON_SERVER") != "true" or not os.environ.get("XLWINGS_PROJECT_DIR"):
        raise ServeError("xlbridge.excel.server.app() needs the environment of server_environment()")
    if "xlwings" in sys.modules and not getattr(sys.modules["xlwings"], "on_server", False):
        raise ServeError("xlwings was imported before XLWINGS_ON_SERVER=true was set")
    try:
        from xlwings_server.config import settings
        from xlwings_server.main import main_app
    except ImportError as error:
        raise ServeError('xlwings Server is not installed: pip install "xlbridge[server]"') from error
    from xlbridge.excel import server_pool
    from xlbridge.excel.server_guard import Guard

    quiet_pyodide_probe()
    workers = server_pool.pool()
    return Guard(main_app, workers.limits, set(server_pool.served_functions()), set(server_pool.served_scripts()),
                 prefix=getattr(settings, "app_path", "") or "", on_shutdown=server_pool.close)


def _check_installed() -> None:
    import importlib.util

    missing = [name for name in ("xlwings_server", "uvicorn") if importlib.util.find_spec(name) is None]
    if missing:
        raise ServeError(f'{", ".join(missing)} not installed: pip install "xlbridge[server]"')


def check_address(host: str, port: int) -> None:
    """Can the server listen there?  A clear message now instead of uvicorn's errno later."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise ServeError(NOT_AN_ADDRESS.format(host=host, reason=_reason(error))) from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        if os.name != "nt":
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except PermissionError:
            raise ServeError(PORT_DENIED.format(host=host, port=port)) from None
        except OSError as error:
            import errno

            if error.errno == errno.EADDRINUSE:
                raise ServeError(PORT_IN_USE.format(host=host, port=port, next=port + 1 if port < 65535 else 8000)
                                 ) from None
            raise ServeError(NOT_AN_ADDRESS.format(host=host, reason=_reason(error))) from None


def command(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> list[str]:
    """The command line of the server process."""
    return [sys.executable, "-m", "xlbridge.excel.server", "--host", host, "--port", str(port)]


def run(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, project_dir: str | os.PathLike[str] | None = None,
        noncommercial: bool = False, limits: Limits | None = None) -> int:
    """Serve until stopped (Ctrl+C or SIGTERM: exit code 0); returns the server
    process's exit code otherwise."""
    _check_installed()
    bounded("--port", port, 1, 65535)
    limits = (limits or Limits(allowed_hosts=allowed_hosts(host))).check()
    server_environment(Path("."), noncommercial=noncommercial)  # the licence first: nothing written without it
    check_address(host, port)
    env = server_environment(prepare_project(project_dir), noncommercial=noncommercial, limits=limits)
    print(f"xlbridge: serving xlwings Server on http://{host}:{port} "
          f"(manifest: http://{host}:{port}/manifest; Ctrl+C stops)", file=sys.stderr, flush=True)
    process = subprocess.Popen(command(host, port), env=env)
    previous = _stop_on_sigterm()
    try:
        code = process.wait()
    except (KeyboardInterrupt, SystemExit):  # Ctrl+C, or SIGTERM (below): stop the server too
        process.terminate()
        try:
            process.wait(timeout=SHUTDOWN_SECONDS * 3)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        return 0
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    # the server process itself was stopped by a signal (kill PID, a service manager): a clean stop
    return 0 if code in (-signal.SIGTERM, -signal.SIGINT, 128 + signal.SIGTERM, 128 + signal.SIGINT) else code


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
    """Entry of the server process (``python -m xlbridge.excel.server``): stops
    cleanly (exit code 0) on SIGTERM or Ctrl+C."""
    import argparse

    import uvicorn

    from xlbridge.excel import server_pool
    from xlbridge.excel.server_guard import guarded_protocol

    p = argparse.ArgumentParser(prog="python -m xlbridge.excel.server")
    p.add_argument("--host", default=DEFAULT_HOST)
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    args = p.parse_args(argv)
    limits = Limits.from_environment()

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):  # uvicorn re-raises the signal after its shutdown: exit 0 instead
            previous = {s: signal.signal(s, self.handle_exit) for s in (signal.SIGINT, signal.SIGTERM)}
            try:
                yield
            finally:
                for s, handler in previous.items():
                    signal.signal(s, handler)

    config = uvicorn.Config(app(), host=args.host, port=args.port, log_level="info",
                            http=guarded_protocol(limits.header_seconds), limit_concurrency=MAX_CONNECTIONS,
                            timeout_keep_alive=KEEP_ALIVE_SECONDS, timeout_graceful_shutdown=SHUTDOWN_SECONDS)
    Server(config).run()
    server_pool.close()


if __name__ == "__main__":  # pragma: no cover - the server process
    from xlbridge.excel.server import main as _main  # one copy of this module (the workers import it by name)

    _main()
