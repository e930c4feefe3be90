"""The guard in front of xlwings Server (``xlbridge serve``, issue 14 point 8), on a
stand-in app: what reaches xlbridge's functions, and the 4xx answers to the rest.
The header time limit runs in a real uvicorn on a loopback port."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time

import pytest

from xlbridge.excel.server import Limits, allowed_hosts
from xlbridge.excel.server_guard import Guard, guarded_protocol, host_name

CALL = "/xlwings/custom-functions-call"


def body(func_name="award", args=None, **extra) -> bytes:
    data = {"func_name": func_name, "args": [[["tr.club"]], [[1.0]], [[26.0]], None] if args is None else args,
            "version": "0.37.8", "client": "Office.js", "runtime": "1.4", "caller_address": "Sheet1!B2", **extra}
    return json.dumps(data).encode()


class App:
    """Stands for xlwings Server: answers 200 with the body it received."""

    def __init__(self):
        self.seen: list[bytes] = []
        self.shutdown = False

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
                await send({"type": "lifespan.startup.complete"})
        data = b""
        if scope["method"] == "POST":
            while True:
                message = await receive()
                data += message.get("body", b"")
                if not message.get("more_body"):
                    break
        self.seen.append(data)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def request(guard, path=CALL, data=b"", *, host="localhost:8000", method="POST", chunks=None, headers=(),
            delay=0.0):
    """Send one request through ``guard``: (status, text)."""
    parts = chunks if chunks is not None else [data]
    scope = {"type": "http", "method": method, "path": path,
             "headers": [(b"host", host.encode())] + [(k.encode(), v.encode()) for k, v in headers]}
    queue = list(parts)
    answer: dict = {}

    async def receive():
        if delay:
            await asyncio.sleep(delay)
        if queue:
            chunk = queue.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": bool(queue)}
        await asyncio.sleep(3600)

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["text"] = answer.get("text", "") + message.get("body", b"").decode()

    asyncio.run(guard(scope, receive, send))
    return answer.get("status"), answer.get("text")


@pytest.fixture
def app():
    return App()


def make(app, **limits) -> Guard:
    return Guard(app, Limits(**limits), {"award", "award_unit"}, {"recalculate_season"})


def test_a_good_call_passes_unchanged(app):
    assert request(make(app), data=body()) == (200, "ok")
    assert app.seen == [body()]


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST"])
def test_localhost_names_are_served(app, host):
    assert request(make(app), data=body(), host=host)[0] == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", ""])
def test_other_host_names_are_refused(app, host):
    status, text = request(make(app), data=body(), host=host)
    assert status == 400 and text.startswith("this server does not answer to the host name")
    assert app.seen == []


def test_allow_host_adds_names():
    assert allowed_hosts("0.0.0.0", ["scores.club.example"]) == ("localhost", "127.0.0.1", "::1",
                                                                 "scores.club.example")
    assert allowed_hosts("192.168.1.5") == ("localhost", "127.0.0.1", "::1", "192.168.1.5")
    assert host_name("Scores.Club.Example:443") == "scores.club.example"


def test_any_host_with_a_star(app):
    assert request(make(app, allowed_hosts=("*",)), data=body(), host="anything.example")[0] == 200


@pytest.mark.parametrize("data, status", [
    (b"{not json", 400), (b"[]", 400), (b'{"func_name": "award"}', 400),
    (body(args=[5]), 400), (body(args=[[[{"a": 1}]]]), 400), (body(version=None), 400), (body(runtime=None), 400),
    (body(date_format=7), 400),
    (body(func_name="nope"), 404), (body(func_name="__class__"), 404),
])
def test_malformed_calls_and_unknown_functions_are_4xx(app, data, status):
    code, text = request(make(app), data=data)
    assert code == status, text
    assert text in ("the request body is not a worksheet function call (JSON with func_name, args, version, client "
                    "and runtime)", "xlbridge serve has no worksheet function 'nope'",
                    "xlbridge serve has no worksheet function '__class__'")
    assert app.seen == []


def test_scripts_are_checked_too(app):
    guard = make(app)
    good = {"version": "0.37.8", "client": "Office.js", "book": {"name": "B.xlsx", "active_sheet_index": 0},
            "names": [], "sheets": [{"name": "S", "values": [[""]]}]}
    book = json.dumps(good).encode()
    assert request(guard, "/xlwings/custom-scripts-call/recalculate_season", book)[0] == 200
    for bad in ({**good, "book": {}}, {**good, "sheets": []}, {**good, "sheets": [{"name": "S"}]},
                {**good, "book": {"name": "B.xlsx", "active_sheet_index": 3}}):  # before: 500s
        assert request(guard, "/xlwings/custom-scripts-call/recalculate_season", json.dumps(bad).encode())[0] == 400
    assert request(guard, "/xlwings/custom-scripts-call/nope", book) == (404, "xlbridge serve has no script 'nope'")
    assert request(guard, "/xlwings/custom-scripts-call/recalculate_season", b"[1]")[0] == 400
    form = b"bookData=" + book.replace(b" ", b"+")
    assert request(guard, "/xlwings/custom-scripts-call/recalculate_season", form,
                   headers=[("content-type", "application/x-www-form-urlencoded")])[0] == 200


def test_a_body_over_the_limit_is_413(app):
    guard = make(app, max_body_mb=1)
    big = b"x" * ((1 << 20) + 1)
    assert request(guard, data=big, headers=[("content-length", str(len(big)))]) == (
        413, "the request body is larger than 1 MB, the limit of this server")
    assert request(guard, chunks=[b"x" * (1 << 19)] * 3)[0] == 413  # no length given: counted as it comes
    assert app.seen == []


def test_a_body_that_does_not_arrive_in_time_is_408(app):
    guard = make(app, body_seconds=0.3)
    start = time.monotonic()
    assert request(guard, chunks=[b'{"func', b'_name"'], delay=0.2) == (
        408, "the request body did not arrive within 0.3 seconds")
    assert time.monotonic() - start < 3


def test_get_requests_pass(app):
    assert request(make(app), "/xlwings/custom-functions-meta", method="GET")[0] == 200


def test_the_shutdown_stops_the_workers(app):
    stopped = []
    guard = Guard(app, Limits(), set(), set(), on_shutdown=lambda: stopped.append(True))
    messages = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]

    async def receive():
        return messages.pop(0)

    async def send(message):
        pass

    asyncio.run(guard({"type": "lifespan"}, receive, send))
    assert stopped == [True]


def test_headers_must_arrive_in_time():
    """uvicorn has no header time limit: a client sending one header byte at a time
    would hold a connection for ever.  The guarded protocol answers 408 and closes."""
    import uvicorn

    config = uvicorn.Config(App(), host="127.0.0.1", port=0, log_level="warning", lifespan="off",
                            http=guarded_protocol(0.5))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as slow:
            slow.sendall(b"POST /xlwings/custom-functions-call HTTP/1.1\r\nHost: local")
            start = time.monotonic()
            answer = slow.recv(4096)
            assert time.monotonic() - start < 5
        assert answer.startswith(b"HTTP/1.1 408 ") and answer.endswith(b"the request headers did not arrive within "
                                                                       b"0.5 seconds")
        with socket.create_connection(("127.0.0.1", port), timeout=10) as good:  # a normal request is served
            good.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert good.recv(4096).startswith(b"HTTP/1.1 200 ")
            for _ in range(3):  # keep-alive: each next request has the time again, from the previous answer
                time.sleep(0.3)
                good.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
                assert good.recv(4096).startswith(b"HTTP/1.1 200 ")
    finally:
        server.should_exit = True
        thread.join(10)
