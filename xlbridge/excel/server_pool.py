"""The worker processes of ``xlbridge serve``: every worksheet function call and
script runs in one of them, off the server's event loop, with a time limit and a
memory limit (:class:`xlbridge.excel.server.Limits`).

A call over its time limit is stopped -- its worker is killed and replaced -- and
its cell says so (a script: a message box); so is a call that runs out of memory
(``RLIMIT_AS`` in the worker, where the system has it) or whose worker died.
The other calls go on in the other workers meanwhile.  Scripts take at most all
workers but one, so that a worksheet function call always finds a worker while
seasons are recalculated.  A script call's workbook comes as the bytes the client
sent (:class:`xlbridge.excel.server_guard.Handoff`): the worker parses it, runs
the script and serialises the answer; the server's event loop never does.
:func:`served_functions` and :func:`served_scripts` are what the project directory's shims serve: each
keeps the xlwings metadata (name, help, signature) of the function it runs.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import inspect
import json
import queue
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from xlbridge.excel.server_guard import HANDOFF, NOT_A_BOOK, is_book
from xlbridge.excel.server_limits import Limits, quiet_pyodide_probe

CELL_TIME_LIMIT = ("#xlbridge: {function} took longer than {seconds:g} seconds and was stopped (the server's time "
                   "limit); check its arguments")
CELL_MEMORY = ("#xlbridge: {function} needed more memory than the server allows ({mb:,} MB) and was stopped; "
               "check its arguments")
CELL_STOPPED = "#xlbridge: {function} stopped unexpectedly on the server; try again"
CELL_TEXTS = {"timeout": CELL_TIME_LIMIT, "memory": CELL_MEMORY, "died": CELL_STOPPED}
SCRIPT_TIME_LIMIT = ("{script} took longer than {seconds:g} seconds and was stopped (the server's time limit); "
                     "nothing was changed")
SCRIPT_MEMORY = ("{script} needed more memory than the server allows ({mb:,} MB) and was stopped; nothing was "
                 "changed")
SCRIPT_STOPPED = "{script} stopped unexpectedly on the server; nothing was changed: try again"
SCRIPT_TEXTS = {"timeout": SCRIPT_TIME_LIMIT, "memory": SCRIPT_MEMORY, "died": SCRIPT_STOPPED}

WORKER_START_SECONDS = 120  # a worker imports xlwings and xlbridge before its first call


def _worker_main(conn: Any, memory_mb: int) -> None:  # pragma: no cover - runs in the worker process
    """A worker: runs one job at a time (``(kind, name, args, kwargs)``; a ``"book"`` job's workbook
    follows as bytes) and answers ``("ok", result)``, ``("json", bytes)``, ``("refused", text)``,
    ``("memory",)`` or ``("error", text)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C reaches the whole group: the server stops its workers
    if memory_mb:
        with contextlib.suppress(ImportError, ValueError, OSError):
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    quiet_pyodide_probe()
    import xlwings as xw

    from xlbridge.excel import functions, scripts

    conn.send(("ready",))
    while True:
        try:
            kind, name, args, kwargs = conn.recv()
        except (EOFError, OSError):
            return
        except MemoryError:  # the job itself (a workbook) does not fit
            conn.send(("memory",))
            continue
        try:
            if kind == "function":
                answer: tuple = ("ok", _cell_value(functions, name, args, kwargs))
            elif kind == "book":
                answer = book_answer(scripts, name, conn.recv_bytes())
            else:
                answer = ("ok", _run(scripts, name, xw.Book(json=args)).json()["actions"])
        except MemoryError:
            answer = ("memory",)
        except Exception as error:  # noqa: BLE001 - reported to the caller
            answer = ("error", f"{type(error).__name__}: {error}")
        try:
            conn.send(answer)
        except MemoryError:
            conn.send(("memory",))


def book_answer(scripts: Any, name: str, body: bytes) -> tuple:
    """In the worker: the script ``name`` run on the workbook whose JSON is ``body``, its answer as the
    JSON xlwings Server would send (``("json", bytes)``), or ``("refused", text)`` when ``body`` is not
    a workbook as xlwings sends it."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        data = None
    if not is_book(data):
        return ("refused", NOT_A_BOOK)
    import xlwings as xw

    book = _run(scripts, name, xw.Book(json=data))
    # as xlwings Server's JSONResponse renders it
    return ("json", json.dumps(book.json(), ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode())


def _cell_value(functions: Any, name: str, args: tuple, kwargs: dict) -> Any:  # pragma: no cover - in the worker
    """What the cell of ``functions.name(*args)`` shows; a MemoryError escapes (the
    worker answers "memory"), every other error is the text the function's own
    ``cell_errors`` gives."""
    try:
        return inspect.unwrap(getattr(functions, name))(*args, **kwargs)
    except MemoryError:
        raise
    except Exception as error:  # noqa: BLE001 - shown as the function itself shows it
        caught = error

        def fail(*_: Any) -> Any:
            raise caught

        return functions.cell_errors(fail)()


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, memory_mb: int):
        import multiprocessing

        context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, memory_mb), daemon=True,
                                       name="xlbridge-serve-worker")
        self.process.start()
        child.close()
        self.ready = False
        self.stopped = False

    def run(self, job: tuple, limit: float, body: bytes | None = None) -> tuple:
        """The job's answer (``body``: the workbook of a ``"book"`` job), ``("timeout",)`` after ``limit``
        seconds or ``("died",)``."""
        try:
            if not self.ready:  # its start-up is not part of the call's time
                if not self.conn.poll(WORKER_START_SECONDS):
                    return ("died",)
                self.conn.recv()
                self.ready = True
            self.conn.send(job)
            if body is not None:
                self.conn.send_bytes(body)  # as it is: no copy made to pickle it
            if not self.conn.poll(limit):
                return ("timeout",)
            return self.conn.recv()
        except (EOFError, OSError):
            return ("died",)

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        with contextlib.suppress(Exception):
            self.process.kill()
            self.process.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()


class Pool:
    """``limits.workers`` worker processes, each call in one of them: the event loop
    only waits.  A call over its time limit, out of memory or whose worker died is
    answered so and its worker replaced."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False
        self._threads = ThreadPoolExecutor(limits.workers, thread_name_prefix="xlbridge-serve")
        # scripts wait in a lane of their own, at most all workers but one: a function call finds the last one
        self._script_threads = ThreadPoolExecutor(max(1, limits.workers - 1), thread_name_prefix="xlbridge-script")
        for _ in range(limits.workers):
            self._idle.put(self._new())
        atexit.register(self.close)

    def _new(self) -> _Worker:
        worker = _Worker(self.limits.memory_mb)
        with self._lock:
            self._all = [w for w in self._all if not w.stopped] + [worker]
        return worker

    def _call(self, job: tuple, limit: float, body: bytes | None = None) -> tuple:
        worker = self._idle.get()
        answer: tuple = ("died",)
        try:
            answer = worker.run(job, limit, body)
        finally:
            if answer[0] in ("timeout", "died", "memory") or self._closed:
                worker.stop()
                if not self._closed:
                    worker = self._new()
            self._idle.put(worker)
        return answer

    async def call(self, job: tuple, limit: float, body: bytes | None = None) -> tuple:
        """The answer of ``job`` (a function call, or a script: ``job[0] != "function"``), from a thread."""
        if self._closed:
            return ("died",)
        threads = self._threads if job[0] == "function" else self._script_threads
        return await asyncio.get_running_loop().run_in_executor(threads, self._call, job, limit, body)

    def close(self) -> None:
        """Stop every worker (a call still waiting for one is answered "died")."""
        self._closed = True
        with self._lock:
            workers, self._all = self._all, []
        for worker in workers:
            worker.stop()
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._script_threads.shutdown(wait=False, cancel_futures=True)


_POOL: Pool | None = None
_POOL_LOCK = threading.Lock()


def close() -> None:
    """Stop the workers of this process's pool (the server shuts down)."""
    if _POOL is not None:
        _POOL.close()


def pool() -> Pool:
    """The server process's pool (started at the first use)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None or _POOL._closed:
            _POOL = Pool(Limits.from_environment())
        return _POOL


def _function_answer(label: str, answer: tuple, limits: Limits) -> Any:
    if answer[0] == "ok":
        return answer[1]
    if answer[0] in CELL_TEXTS:
        return CELL_TEXTS[answer[0]].format(function=label, seconds=limits.time_limit, mb=limits.memory_mb)
    raise RuntimeError(f"{label}: {answer[1]}")  # a fault of the server: 500


def _served_function(name: str, func: Any) -> Any:
    label = func.__xlfunc__["name"].upper()

    @functools.wraps(func)  # keeps __xlfunc__, the help and the signature xlwings reads
    async def served(*args: Any, **kwargs: Any) -> Any:
        workers = pool()
        answer = await workers.call(("function", name, args, kwargs), workers.limits.time_limit)
        return _function_answer(label, answer, workers.limits)

    return served


def _served_script(name: str, decorated: Any) -> Any:
    import xlwings as xw

    label = decorated.__xlscript__.get("name") or name

    @functools.wraps(decorated)  # keeps __xlscript__ and the signature xlwings reads
    async def served(current_user: Any, *args: Any, **kwargs: Any) -> Any:
        roles = decorated.__xlscript__.get("required_roles")
        if current_user and roles:
            from xlwings.pro.udfs_officejs import check_user_roles

            await check_user_roles(current_user, roles)
        book = next(a for a in (*args, *kwargs.values()) if isinstance(a, xw.Book))
        workers = pool()
        limits = workers.limits
        handoff = HANDOFF.get()  # the guard kept the workbook as it came: xlwings Server saw a stand-in
        if handoff is not None:
            answer = await workers.call(("book", name, None, None), limits.script_time_limit, handoff.body)
        else:
            answer = await workers.call(("script", name, book.api, None), limits.script_time_limit)
        if answer[0] == "ok":
            book.json()["actions"].extend(answer[1])
        elif answer[0] in ("json", "refused"):
            handoff.answer = ((200, answer[1], b"application/json") if answer[0] == "json"
                              else (400, answer[1].encode(), b"text/plain; charset=utf-8"))
        elif answer[0] == "error":
            raise RuntimeError(f"{label}: {answer[1]}")
        else:
            text = SCRIPT_TEXTS[answer[0]]
            book.app.alert(text.format(script=label, seconds=limits.script_time_limit, mb=limits.memory_mb),
                           title="xlbridge")
        return book

    return served


def served_functions() -> dict[str, Any]:
    """xlbridge's worksheet functions as the server runs them (the shim's contents)."""
    from xlbridge.excel import functions

    return {n: _served_function(n, f) for n, f in inspect.getmembers(functions) if hasattr(f, "__xlfunc__")}


def served_scripts() -> dict[str, Any]:
    """xlbridge's scripts as the server runs them (the shim's contents)."""
    from xlbridge.excel import scripts

    return {n: _served_script(n, s) for n, s in inspect.getmembers(scripts) if hasattr(s, "__xlscript__")}


def _run(scripts: Any, name: str, book: Any) -> Any:
    """The script ``name`` run on ``book`` (awaited when it is a coroutine); returns ``book``."""
    result = inspect.unwrap(getattr(scripts, name))(book)
    if inspect.isawaitable(result):
        asyncio.run(result)
    return book
