"""The Python side of the test harness: runs inside Pyodide (loaded by runner.mjs)
and, for reference timings, in a CPython process (``python driver.py --serve``).

Only the standard library at import time: xlwings and the workbook's ``main``
are imported by :func:`startup`, timed.  Every request is one JSON object, every
reply one JSON string (``handle``); a Python exception becomes
``{"error": {"type", "message", "traceback"}}`` instead of ending the process.

Requests (``op``):

- ``meta``: ``xlwings.server.custom_functions_meta(main)`` and
  ``custom_scripts_meta(main)`` (``null`` with a reason when this xlwings has none);
- ``function`` with ``body``: ``await custom_functions_call(body, main)``;
- ``script`` with ``name`` and ``payload``: the script run on
  ``xw.Book(json=payload)`` through ``custom_scripts_call``; the reply carries
  ``book.json()["actions"]``; ``files`` (path -> base64) are placed first and removed
  after, as the scorer puts a file into xlwings Lite's Files (``/data``; in CPython
  a temporary folder stands for it);
- ``pin`` with ``target`` (``"package.module.function"``) and ``value``: replace that
  function by one returning ``value`` (e.g. the clock of the Corrections sheet);
  ``unpin`` with ``target`` puts it back;
- ``info``: Python, platform and the installed distributions.

Each reply has ``elapsed_ms`` (the whole request, measured here with
``time.perf_counter``) and, for ``function`` and ``script``, ``call_ms`` (the
xlwings dispatch call alone).
"""

from __future__ import annotations

import importlib
import json
import sys
import time
import traceback

_state: dict = {"main": None, "main_error": None, "pins": {}}


def _error(exc: BaseException) -> dict:
    return {"type": type(exc).__name__, "message": str(exc),
            "traceback": "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))}


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def startup(config_json: str) -> str:
    """Import xlwings and the workbook's ``main`` from ``main_dir``, timing both."""
    config = json.loads(config_json)
    main_dir = config["main_dir"]
    if main_dir not in sys.path:
        sys.path.insert(0, main_dir)
    result: dict = {"python": sys.version.split()[0], "platform": sys.platform}
    start = time.perf_counter()
    try:
        import xlwings

        result["xlwings"] = xlwings.__version__
    except BaseException as exc:  # noqa: BLE001 - reported to the test
        result["xlwings_error"] = _error(exc)
    result["xlwings_import_ms"] = _ms(start)
    start = time.perf_counter()
    try:
        _state["main"] = importlib.import_module(config.get("module", "main"))
    except BaseException as exc:  # noqa: BLE001 - reported with every later request
        _state["main_error"] = _error(exc)
        result["main_error"] = _state["main_error"]
    result["main_import_ms"] = _ms(start)
    return json.dumps(result)


def _main():
    if _state["main"] is None:
        error = _state["main_error"] or {"type": "RuntimeError", "message": "startup() was not run",
                                         "traceback": ""}
        raise _MainImportFailed(error)
    return _state["main"]


class _MainImportFailed(Exception):
    def __init__(self, error: dict):
        super().__init__(f"main.py failed to import: {error['type']}: {error['message']}")
        self.error = error


def _resolve(target: str):
    module_name, _, attr = target.rpartition(".")
    if not module_name:
        raise ValueError(f"pin target must be 'module.function', got {target!r}")
    return importlib.import_module(module_name), attr


async def _meta(request: dict) -> dict:
    from xlwings import server

    main = _main()
    reply = {"functions": server.custom_functions_meta(main)}
    if hasattr(server, "custom_scripts_meta"):
        reply["scripts"] = server.custom_scripts_meta(main)
    else:
        import xlwings

        reply["scripts"] = None
        reply["scripts_missing"] = (f"xlwings {xlwings.__version__} has no xlwings.server.custom_scripts_meta "
                                    "(it exists from 0.33.13)")
    return reply


async def _function(request: dict) -> dict:
    from xlwings import server

    main = _main()
    start = time.perf_counter()
    value = await server.custom_functions_call(request["body"], main)
    return {"result": value, "call_ms": _ms(start)}


async def _script(request: dict) -> dict:
    """One click; ``files`` (path -> base64): placed first and removed after, as the scorer puts a file
    into xlwings Lite's Files (under /data) before running a script."""
    import base64
    from pathlib import Path

    import xlwings as xw
    from xlwings import server

    main = _main()
    book = xw.Book(json=request["payload"])
    files = request.get("files") or {}
    folder = None
    if files and sys.platform != "emscripten":  # CPython: /data is the machine's; the files go to a folder of ours
        import tempfile

        scripts = importlib.import_module("xlbridge.excel.scripts")  # (the workbook's own copy)
        folder = tempfile.TemporaryDirectory(prefix="xlbridge-lite-data-")
        kept, scripts.LITE_FILES = scripts.LITE_FILES, Path(folder.name)
        placed = [Path(folder.name, Path(path).relative_to(kept)) for path in files]
    else:
        placed = [Path(path) for path in files]
    for path, data in zip(placed, files.values()):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
    try:
        start = time.perf_counter()
        await server.custom_scripts_call(main, request["name"], typehint_to_value={xw.Book: book},
                                         args=request.get("args") or None)
        call_ms = _ms(start)
    finally:
        for path in placed:
            path.unlink()
        if folder is not None:
            scripts.LITE_FILES = kept
            folder.cleanup()
    return {"actions": book.json()["actions"], "call_ms": call_ms}


async def _pin(request: dict) -> dict:
    _main()  # the targets live in the workbook's code
    target, value = request["target"], request["value"]
    module, attr = _resolve(target)
    if not hasattr(module, attr):
        raise AttributeError(f"cannot pin {target}: {module.__name__} has no {attr!r}")
    original = _state["pins"].get(target, (module, getattr(module, attr)))[1]
    _state["pins"][target] = (module, original)
    setattr(module, attr, lambda *args, **kwargs: value)
    return {"pinned": target, "value": value}


async def _unpin(request: dict) -> dict:
    target = request["target"]
    if target in _state["pins"]:
        module, original = _state["pins"].pop(target)
        setattr(module, target.rpartition(".")[2], original)
        return {"unpinned": target}
    return {"unpinned": None}


async def _info(request: dict) -> dict:
    from importlib import metadata

    dists = sorted({(d.metadata["Name"], d.version) for d in metadata.distributions() if d.metadata["Name"]})
    return {"python": sys.version, "platform": sys.platform, "distributions": [f"{n}=={v}" for n, v in dists],
            "main_loaded": _state["main"] is not None}


_OPS = {"meta": _meta, "function": _function, "script": _script, "pin": _pin, "unpin": _unpin, "info": _info}


async def handle(line: str) -> str:
    """One request (a JSON object) -> one reply (a JSON string)."""
    start = time.perf_counter()
    request: dict = {}
    try:
        request = json.loads(line)
        op = _OPS.get(request.get("op"))
        if op is None:
            raise ValueError(f"unknown op {request.get('op')!r}; one of {sorted(_OPS)}")
        reply = await op(request)
    except _MainImportFailed as exc:
        reply = {"error": {**exc.error, "message": str(exc)}}
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the test as text
        reply = {"error": _error(exc)}
    reply["id"] = request.get("id")
    reply["elapsed_ms"] = _ms(start)
    try:
        return json.dumps(reply)
    except (TypeError, ValueError) as exc:
        return json.dumps({"id": request.get("id"), "elapsed_ms": reply["elapsed_ms"],
                           "error": {**_error(exc), "message": f"the reply is not JSON: {exc}"}})


def _serve(argv: list[str]) -> int:
    """CPython: the same protocol as runner.mjs on stdin/stdout (reference timings)."""
    import argparse
    import asyncio
    import contextlib
    import io
    import os

    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", action="store_true", required=True)
    parser.add_argument("--main-dir", required=True)
    args = parser.parse_args(argv)
    here = os.path.dirname(os.path.abspath(__file__))  # the harness folder is no place to import from
    sys.path[:] = [p for p in sys.path if not p or os.path.abspath(p) != here]
    protocol = sys.stdout
    sys.stdout = sys.stderr  # prints of the workbook's code must not mix with replies
    start = time.perf_counter()
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        started = json.loads(startup(json.dumps({"main_dir": args.main_dir})))
    ready = {"event": "ready", "runtime": "cpython", "load_ms": 0, "install_ms": 0,
             "startup_ms": _ms(start), **started}
    protocol.write(json.dumps(ready) + "\n")
    protocol.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        captured = io.StringIO()
        with contextlib.redirect_stdout(captured):
            reply = asyncio.run(handle(line))
        protocol.write(json.dumps({"stdout": captured.getvalue(), "network": []})[:-1]
                       + ', "reply": ' + reply + "}\n")
        protocol.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_serve(sys.argv[1:]))
