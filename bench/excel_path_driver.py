"""Requests the Excel-path benchmark adds to the Pyodide harness's driver.

:mod:`bench.bench_excel_path` appends this file to ``tests/pyodide/driver.py``
(before its ``__main__`` block) and runs the result as the driver, inside Pyodide
(``runner.mjs``) and in the CPython reference process alike.  Standard library
only; it uses the driver's ``_state``, ``_main``, ``_ms`` and ``_OPS``.

Requests:

- ``collect``: ``gc.collect()`` (before each timed click, as bench/common.py does);
- ``reload_main``: import the workbook's ``main.py`` again as on start-up: its
  unpacked package folder removed, ``main`` and every ``xlbridge`` module dropped
  from ``sys.modules``; replies ``main_ms`` (the import, unpacking included) and,
  measured apart on a copy, ``decode_ms`` (base64), ``extract_ms`` (zip to the
  file system) and ``package_ms`` (``import xlbridge.excel.functions`` from the
  unpacked files);
- ``import_main``: ``main.py`` imported afresh as on start-up (as ``reload_main`` leaves it), only that;
  replies ``main_ms`` (under ``profile``: where the start-up goes);
- ``reads`` with ``name`` and ``payload``: the script run as ``script`` does,
  replying the sheets the recalculation read (``XlwingsBook._read``), in order;
- ``phases`` with ``name`` and ``payload``: the script run as ``script`` does, replying
  the milliseconds of each phase of the recalculation (see :func:`_bench_phases`);
- ``profile`` with ``request`` (any request) and ``top``: that request under
  ``cProfile``; replies its own reply and the statistics as text, sorted by
  cumulative and by own time.
"""

# ruff: noqa: F821  (_state, _main, _ms and _OPS are the driver's, which this file is appended to)
import io as _bench_io
import os as _bench_os
import shutil as _bench_shutil
import sys as _bench_sys
import tempfile as _bench_tempfile
import time as _bench_time


def _bench_unpacked_dirs():
    temp = _bench_tempfile.gettempdir()
    return [p for p in _bench_sys.path
            if p and _bench_os.path.dirname(p) == temp and _bench_os.path.basename(p).startswith("xlbridge-")]


def _bench_forget_package():
    for name in [n for n in _bench_sys.modules if n == "main" or n == "xlbridge" or n.startswith("xlbridge.")]:
        del _bench_sys.modules[name]
    for path in _bench_unpacked_dirs():
        _bench_sys.path.remove(path)
        _bench_shutil.rmtree(path, ignore_errors=True)
    import importlib

    importlib.invalidate_caches()


async def _bench_reload_main(request):
    import base64
    import importlib
    import zipfile

    main = _main()
    bundle = main._BUNDLE
    # the parts, on a scratch copy (the workbook's own folder is left alone)
    scratch = _bench_tempfile.mkdtemp(prefix="bench-unpack-")
    try:
        start = _bench_time.perf_counter()
        data = base64.b64decode(bundle)
        decode_ms = _ms(start)
        start = _bench_time.perf_counter()
        with zipfile.ZipFile(_bench_io.BytesIO(data)) as archive:
            archive.extractall(scratch)
            files = len(archive.namelist())
        extract_ms = _ms(start)
    finally:
        _bench_shutil.rmtree(scratch, ignore_errors=True)
    # the whole import, as on start-up
    _bench_forget_package()
    start = _bench_time.perf_counter()
    _state["main"] = importlib.import_module("main")
    main_ms = _ms(start)
    # the package's import alone, from the files now unpacked
    for name in [n for n in _bench_sys.modules if n == "xlbridge" or n.startswith("xlbridge.")]:
        del _bench_sys.modules[name]
    start = _bench_time.perf_counter()
    importlib.import_module("xlbridge.excel.functions")
    package_ms = _ms(start)
    # leave the process as a fresh start would: main and its package imported once
    _bench_forget_package()
    _state["main"] = importlib.import_module("main")
    return {"main_ms": main_ms, "decode_ms": decode_ms, "extract_ms": extract_ms, "package_ms": package_ms,
            "zip_bytes": len(data), "bundle_chars": len(bundle), "files": files}


async def _bench_import_main(request):
    import importlib

    _bench_forget_package()
    start = _bench_time.perf_counter()
    _state["main"] = importlib.import_module("main")
    return {"main_ms": _ms(start)}


async def _bench_reads(request):
    import xlwings as xw
    from xlwings import server

    main = _main()
    from xlbridge.excel import book as xlbook

    read = []
    original = xlbook.XlwingsBook._read

    def _read(self, sheet):
        read.append(sheet)
        return original(self, sheet)

    xlbook.XlwingsBook._read = _read
    try:
        book = xw.Book(json=request["payload"])
        await server.custom_scripts_call(main, request["name"], typehint_to_value={xw.Book: book})
    finally:
        xlbook.XlwingsBook._read = original
    return {"read": read, "actions": book.json()["actions"]}


async def _bench_phases(request):
    """The script on ``payload``, with the time of each phase of the recalculation:
    ``read`` (XlwingsBook reading sheets: xlwings' conversion of the payload's values),
    ``plan`` (the workbook kind's planning, without its reads), ``diff``, ``apply``
    (comparing and queueing the cells), ``flush`` (making the actions), ``rest``."""
    import xlwings as xw
    from xlwings import server

    main = _main()
    from xlbridge.excel import book as xlbook
    from xlbridge.workbooks import recalc

    spent = {"read": 0.0, "plan": 0.0, "diff": 0.0, "apply": 0.0, "flush": 0.0}
    clock = _bench_time.perf_counter

    def timed(key, func, nested=()):
        def wrapper(*args, **kwargs):
            before = {k: spent[k] for k in nested}
            start = clock()
            try:
                return func(*args, **kwargs)
            finally:
                spent[key] += clock() - start - sum(spent[k] - before[k] for k in nested)
        return wrapper

    originals = {(xlbook.XlwingsBook, "_read"): xlbook.XlwingsBook._read,
                 (xlbook.XlwingsBook, "flush"): xlbook.XlwingsBook.flush,
                 (recalc, "diff"): recalc.diff, (recalc, "apply"): recalc.apply, (recalc, "detect"): recalc.detect}
    xlbook.XlwingsBook._read = timed("read", originals[(xlbook.XlwingsBook, "_read")])
    xlbook.XlwingsBook.flush = timed("flush", originals[(xlbook.XlwingsBook, "flush")])
    recalc.diff = timed("diff", originals[(recalc, "diff")], ("read",))
    recalc.apply = timed("apply", originals[(recalc, "apply")], ("read", "flush"))

    def detect(book):
        kind = originals[(recalc, "detect")](book)
        plan = kind.plan

        class Timed:
            name = kind.name

            def plan(self, book):
                return timed("plan", plan, ("read",))(book)

            def __getattr__(self, attr):
                return getattr(kind, attr)

        return Timed()

    recalc.detect = detect
    try:
        book = xw.Book(json=request["payload"])
        start = clock()
        await server.custom_scripts_call(main, request["name"], typehint_to_value={xw.Book: book})
        total = clock() - start
    finally:
        for (owner, attr), original in originals.items():
            setattr(owner, attr, original)
    spent["rest"] = total - sum(spent.values())
    return {"total_ms": total * 1000, **{f"{k}_ms": v * 1000 for k, v in spent.items()}}


async def _bench_profile(request):
    import cProfile
    import pstats

    inner = request["request"]
    op = _OPS[inner["op"]]
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        reply = await op(inner)
    finally:
        profiler.disable()
    texts = {}
    for order in ("cumulative", "tottime"):
        out = _bench_io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(int(request.get("top", 40)))
        texts[order] = out.getvalue()
    raw = pstats.Stats(profiler).stats  # (file, line, name) -> (calls, primitive calls, own time, cumulative, callers)
    functions = sorted(([f"{_bench_os.path.basename(f)}:{n}", calls, own, cum] for (f, _, n), (_, calls, own, cum, _)
                        in raw.items()), key=lambda item: -item[2])
    reply.pop("actions", None)
    return {"reply": reply, "stats": texts, "functions": functions[:int(request.get("top", 40)) * 4]}


async def _bench_collect(request):
    import gc

    return {"collected": gc.collect()}


_OPS.update({"collect": _bench_collect, "reload_main": _bench_reload_main,
             "import_main": _bench_import_main, "reads": _bench_reads, "phases": _bench_phases,
             "profile": _bench_profile})
