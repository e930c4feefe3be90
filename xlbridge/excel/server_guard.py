"""The guard in front of xlwings Server (``xlbridge serve``): what a request must
be before xlbridge's functions see it.

- its Host header names this server (the localhost names, ``--host`` and
  ``--allow-host``): a page on another site cannot reach a server on the
  scorer's machine through DNS rebinding (400 otherwise);
- its body is at most ``max_body_mb`` and arrives within ``body_seconds`` (413,
  408); its headers arrive within ``header_seconds`` (:func:`guarded_protocol`,
  408);
- a function call is JSON as Office.js sends it, for a function xlbridge has; a
  script call names a script xlbridge has and sends a workbook (400, 404): a
  client's mistake is a 4xx with a message, never a 500;
- no body nests JSON deeper than :data:`MAX_DEPTH` (400): counted on the bytes
  before anything parses them (a parser recurses; 100,000 levels were a 500);
- the bodies the server process holds at once stay within ``bodies_mb``, each
  counted twice (the body and its answer): a request waits for its turn before
  its body is read (503 after ``body_seconds``);
- a script's workbook is never parsed here: the guard hands its bytes to the
  served script (:class:`Handoff`) -- xlwings Server, with its authentication,
  sees a stand-in book -- and the worker process parses it, runs the script and
  serialises the answer, which the guard sends (:mod:`xlbridge.excel.server_pool`).
  The event loop only moves bytes.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote_to_bytes

HOST_REFUSED = "this server does not answer to the host name {host!r}; if it should, start it with --allow-host {host}"
BODY_TOO_LARGE = "the request body is larger than {mb} MB, the limit of this server"
BODY_TOO_SLOW = "the request body did not arrive within {seconds:g} seconds"
HEADERS_TOO_SLOW = "the request headers did not arrive within {seconds:g} seconds"
NOT_A_CALL = ("the request body is not a worksheet function call (JSON with func_name, args, version, client and "
              "runtime)")
NOT_A_BOOK = "the request body is not a workbook sent by xlwings (JSON with version, client, book and its sheets)"
NO_FUNCTION = "xlbridge serve has no worksheet function {name!r}"
NO_SCRIPT = "xlbridge serve has no script {name!r}"
TOO_DEEP = "the request body nests JSON more than {depth} levels deep; a workbook or a function call nests a few"
BUSY = ("this server holds as many request bodies as it may at once ({mb} MB); nothing was done: try again in a "
        "moment")

#: The deepest JSON a body may nest (a workbook as xlwings sends it: five or six levels).
MAX_DEPTH = 64
#: A body this large is scanned in a thread (numpy lets go of the interpreter meanwhile).
SCAN_IN_THREAD = 1 << 16
_SCAN_CHUNK = 1 << 18


def nests_deeper(body: bytes, limit: int = MAX_DEPTH) -> bool:
    """Does the JSON text ``body`` nest arrays and objects more than ``limit`` deep?  Counted on the bytes,
    outside strings, a quarter megabyte at a time (escaped backslashes and quotes taken out first: a piece
    never ends inside one); nothing as large as the body is made."""
    import numpy as np

    step = np.zeros(256, np.int8)
    step[[ord("["), ord("{")]] = 1
    step[[ord("]"), ord("}")]] = -1
    depth, inside, start = 0, 0, 0
    view = memoryview(body)
    while start < len(body):
        end = min(len(body), start + _SCAN_CHUNK)
        while end < len(body) and body[end - 1] == 0x5C:  # a backslash: its escape ends in this piece
            end += 1
        piece = bytes(view[start:end]).replace(b"\\\\", b"").replace(b'\\"', b"")
        chunk = np.frombuffer(piece, np.uint8)
        quotes = np.cumsum(chunk == ord('"'), dtype=np.int32) + inside
        running = depth + np.cumsum(step[chunk] * (quotes % 2 == 0), dtype=np.int32)
        if len(running) and int(running.max()) > limit:
            return True
        if len(running):
            depth, inside = int(running[-1]), int(quotes[-1]) % 2
        start = end
    return False


@dataclass
class Handoff:
    """A script call's workbook as it came (``body``), for the served script; its ``answer`` (status, body,
    content type), which the guard sends in place of what xlwings Server answers for the stand-in."""

    body: bytes | bytearray
    answer: tuple[int, bytes, bytes] | None = None


#: The script call being answered (set by the guard around xlwings Server, read by the served script).
HANDOFF: contextvars.ContextVar[Handoff | None] = contextvars.ContextVar("xlbridge_handoff", default=None)
#: What xlwings Server is given instead of a script call's workbook: the smallest book it accepts.
STAND_IN = json.dumps({"client": "Office.js", "version": "stand-in", "names": [],
                       "book": {"name": "", "active_sheet_index": 0, "selection": "A1"},
                       "sheets": [{"name": "", "values": [[""]]}]}).encode()


class Bodies:
    """The bytes of request bodies the server process holds at once, at most ``limit``."""

    def __init__(self, limit: int):
        self.limit, self.held = limit, 0
        self._changed: asyncio.Condition | None = None

    async def take(self, size: int, seconds: float) -> bool:
        """Wait (up to ``seconds``) until ``size`` more bytes fit, and take them; False when they never did."""
        if self._changed is None:
            self._changed = asyncio.Condition()
        async with self._changed:
            if self.held + size > self.limit:
                try:
                    await asyncio.wait_for(self._changed.wait_for(lambda: self.held + size <= self.limit), seconds)
                except asyncio.TimeoutError:
                    return False
            self.held += size
            return True

    async def give(self, size: int) -> None:
        assert self._changed is not None
        async with self._changed:
            self.held -= size
            self._changed.notify_all()


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def host_name(header: str | None) -> str:
    """The name in a Host header (``[::1]:8000`` -> ``::1``, ``Localhost:80`` -> ``localhost``)."""
    host = (header or "").strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


#: What xlwings reads of a function call without checking (a KeyError, a 500, otherwise).
CALL_TEXTS = ("version", "client", "runtime")
CALL_OPTIONAL_TEXTS = ("caller_address", "date_format", "culture_info_name", "formula_name")


def is_function_call(data: Any) -> bool:
    """The JSON of a custom function call as Office.js sends it: the texts xlwings
    reads, and every argument null or a 2-D list of values."""
    return (isinstance(data, dict) and isinstance(data.get("func_name"), str) and isinstance(data.get("args"), list)
            and all(isinstance(data.get(key), str) for key in CALL_TEXTS)
            and all(data.get(key) is None or isinstance(data[key], str) for key in CALL_OPTIONAL_TEXTS)
            and all(a is None or (isinstance(a, list) and all(isinstance(r, list) and all(map(_scalar, r))
                                                              for r in a)) for a in data["args"]))


def _grid(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(r, list) and all(map(_scalar, r)) for r in value)


def is_book(data: Any) -> bool:
    """The JSON of a workbook as xlwings' Office.js client sends it to a script: the
    book, its names and at least one sheet, each with its name and a 2-D list of values."""
    if not (isinstance(data, dict) and all(isinstance(data.get(key), str) for key in ("version", "client"))):
        return False
    book, sheets = data.get("book"), data.get("sheets")
    return (isinstance(book, dict) and isinstance(book.get("name"), str)
            and isinstance(data.get("names", []), list) and isinstance(sheets, list) and bool(sheets)
            and type(book.get("active_sheet_index")) is int and 0 <= book["active_sheet_index"] < len(sheets)
            and all(isinstance(s, dict) and isinstance(s.get("name"), str) and _grid(s.get("values")) for s in sheets))


async def respond(send: Any, status: int, text: str, *, close: bool = True) -> None:
    body = text.encode("utf-8")
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware in front of xlwings Server (see the module docstring)."""

    def __init__(self, app: Any, limits: Any, functions: set[str], scripts: set[str], prefix: str = "",
                 on_shutdown: Callable[[], None] | None = None):
        self.app, self.limits, self.on_shutdown = app, limits, on_shutdown
        self.functions, self.scripts = set(functions), set(scripts)
        self.calls = f"{prefix}/xlwings/custom-functions-call"
        self.script_calls = f"{prefix}/xlwings/custom-scripts-call/"
        self.bodies = Bodies(limits.bodies_mb << 20)

    def allows(self, host: str) -> bool:
        return "*" in self.limits.allowed_hosts or host in self.limits.allowed_hosts

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            return await self.app(scope, self._lifespan(receive), send)
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        host = host_name(_header(scope, b"host"))
        if not self.allows(host):
            if scope["type"] == "websocket":
                await receive()
                return await send({"type": "websocket.close", "code": 1008})
            return await respond(send, 400, HOST_REFUSED.format(host=host))
        if scope["type"] == "websocket" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        limit = self.limits.max_body_mb << 20
        length = _header(scope, b"content-length")
        if length is not None and (not length.strip().isdigit() or int(length) > limit):
            return await respond(send, 413, BODY_TOO_LARGE.format(mb=self.limits.max_body_mb))
        held = 2 * (int(length) if length is not None else limit)  # the body, and an answer of its size
        if not await self.bodies.take(held, self.limits.body_seconds):
            return await respond(send, 503, BUSY.format(mb=self.limits.bodies_mb))
        try:
            await self._answer(scope, receive, send, limit, int(length) if length is not None else None)
        finally:
            await self.bodies.give(held)

    async def _answer(self, scope: dict, receive: Any, send: Any, limit: int, length: int | None) -> None:
        body, refusal = await self._body(receive, limit, length)
        if body is None:
            return await respond(send, *refusal) if refusal else None
        refusal = await self._check(scope, body)
        if refusal:
            return await respond(send, *refusal)
        handoff = Handoff(body) if self._handed_off(scope) else None
        given = [STAND_IN if handoff else bytes(body)]  # (a handed-off body is not copied)
        del body

        async def replay() -> dict:
            if given:
                return {"type": "http.request", "body": given.pop(), "more_body": False}
            return await receive()

        token = HANDOFF.set(handoff)
        try:
            await self.app(scope, replay, send if handoff is None else _answering(send, handoff))
        finally:
            HANDOFF.reset(token)
            if handoff is not None:
                # the app may keep what it was given in reference cycles (freed only by the cyclic garbage
                # collector, which large buffers do not set off): the body and its answer are let go of now
                handoff.body, handoff.answer = b"", None

    def _handed_off(self, scope: dict) -> bool:
        """A script call with a JSON body (as Office.js sends it; a form is xlwings Server's to read)."""
        kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        return scope["path"].startswith(self.script_calls) and kind in ("", "application/json")

    async def _body(self, receive: Any, limit: int, length: int | None = None
                    ) -> tuple[bytearray | None, tuple[int, str] | None]:
        """The body, read into one buffer (of its length, where the headers give it: no copies as it grows)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.body_seconds
        body = bytearray(length or 0)
        size = 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                return None, (408, BODY_TOO_SLOW.format(seconds=self.limits.body_seconds))
            if message["type"] == "http.disconnect":
                return None, None
            chunk = message.get("body", b"")
            if size + len(chunk) > limit:
                return None, (413, BODY_TOO_LARGE.format(mb=self.limits.max_body_mb))
            body[size:size + len(chunk)] = chunk
            size += len(chunk)
            if not message.get("more_body"):
                del body[size:]  # (a body shorter than its length)
                return body, None

    async def _check(self, scope: dict, body: bytearray) -> tuple[int, str] | None:
        path = scope["path"]
        kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        form = kind == "application/x-www-form-urlencoded"
        text = unquote_to_bytes(bytes(body).replace(b"+", b" ")) if form else body
        deep = (await asyncio.to_thread(nests_deeper, text) if len(text) > SCAN_IN_THREAD else nests_deeper(text))
        if deep:
            return 400, TOO_DEEP.format(depth=MAX_DEPTH)
        if path == self.calls:
            try:
                data = json.loads(body)
            except (ValueError, UnicodeDecodeError):
                data = None
            if not is_function_call(data):
                return 400, NOT_A_CALL
            if data["func_name"] not in self.functions:
                return 404, NO_FUNCTION.format(name=data["func_name"])
        elif path.startswith(self.script_calls):
            name = path[len(self.script_calls):]
            if name not in self.scripts:
                return 404, NO_SCRIPT.format(name=name)
            if form:  # the worker checks a JSON body (it parses it)
                try:
                    data = json.loads(parse_qs(body.decode("utf-8")).get("bookData", [""])[0])
                except (ValueError, UnicodeDecodeError):
                    data = None
                if not is_book(data):
                    return 400, NOT_A_BOOK
        return None

    def _lifespan(self, receive: Any) -> Any:
        async def observed() -> dict:
            message = await receive()
            if message.get("type") == "lifespan.shutdown" and self.on_shutdown is not None:
                self.on_shutdown()  # a call still running ends now: the server can exit
            return message
        return observed


def _answering(send: Any, handoff: Handoff) -> Any:
    """``send`` for a handed-off script call: xlwings Server's answer for the stand-in book, with the
    worker's answer (``handoff.answer``) in its place when there is one (its other headers kept: CORS,
    security)."""
    replaced = False

    async def answer(message: dict) -> None:
        nonlocal replaced
        if message["type"] == "http.response.start" and handoff.answer is not None and message["status"] == 200:
            status, body, kind = handoff.answer
            headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in (b"content-length",
                                                                                           b"content-type")]
            replaced = True
            await send({**message, "status": status, "headers": headers + [
                (b"content-type", kind), (b"content-length", str(len(body)).encode())]})
        elif message["type"] == "http.response.body" and replaced:
            if not message.get("more_body"):
                await send({"type": "http.response.body", "body": handoff.answer[1]})
        else:
            await send(message)
    return answer


def guarded_protocol(header_seconds: float) -> type:
    """uvicorn's h11 protocol with a time limit for the request headers (uvicorn has
    none: a client sending one header byte at a time would hold a connection)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        _header_timer = None
        _seen = None

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._follow()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()
                self._follow()  # a pipelined request may be in already

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _follow(self) -> None:
            if self.cycle is not None and self.cycle is not self._seen:
                self._seen = self.cycle  # its headers are in
                self._disarm()

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if self.transport.is_closing():
                return
            body = HEADERS_TOO_SLOW.format(seconds=header_seconds).encode()
            self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                                 b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n"
                                 + body)
            self.transport.close()

    return GuardedH11Protocol
