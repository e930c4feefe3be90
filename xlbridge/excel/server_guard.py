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
  client's mistake is a 4xx with a message, never a 500.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

HOST_REFUSED = "this server does not answer to the host name {host!r}; if it should, start it with --allow-host {host}"
BODY_TOO_LARGE = "the request body is larger than {mb} MB, the limit of this server"
BODY_TOO_SLOW = "the request body did not arrive within {seconds:g} seconds"
HEADERS_TOO_SLOW = "the request headers did not arrive within {seconds:g} seconds"
NOT_A_CALL = ("the request body is not a worksheet function call (JSON with func_name, args, version, client and "
              "runtime)")
NOT_A_BOOK = "the request body is not a workbook sent by xlwings (JSON with version, client, book and its sheets)"
NO_FUNCTION = "xlbridge serve has no worksheet function {name!r}"
NO_SCRIPT = "xlbridge serve has no script {name!r}"


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
        body, refusal = await self._body(receive, limit)
        if body is None:
            return await respond(send, *refusal) if refusal else None
        refusal = self._check(scope, body)
        if refusal:
            return await respond(send, *refusal)
        sent = False

        async def replay() -> dict:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)

    async def _body(self, receive: Any, limit: int) -> tuple[bytes | None, tuple[int, str] | None]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.body_seconds
        chunks, size = [], 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                return None, (408, BODY_TOO_SLOW.format(seconds=self.limits.body_seconds))
            if message["type"] == "http.disconnect":
                return None, None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return None, (413, BODY_TOO_LARGE.format(mb=self.limits.max_body_mb))
            chunks.append(chunk)
            if not message.get("more_body"):
                return b"".join(chunks), None

    def _check(self, scope: dict, body: bytes) -> tuple[int, str] | None:
        path = scope["path"]
        kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
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
            try:
                if kind == "application/x-www-form-urlencoded":
                    data = json.loads(parse_qs(body.decode("utf-8")).get("bookData", [""])[0])
                elif kind.startswith("multipart/"):
                    return None  # xlwings Server reads the form itself
                else:
                    data = json.loads(body)
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


__all__ = ["Guard", "guarded_protocol", "host_name", "is_book", "is_function_call", "respond"]
