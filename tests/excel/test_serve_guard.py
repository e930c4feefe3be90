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
            delay=0.0, events=None):
    """Send one request through ``guard``: (status, text).  After the chunks the client sends nothing more;
    ``events`` (a list) records "asked" when the guard asks for a chunk, "sent" when the client gives
    it one, "answer" when the guard answers."""
    events = [] if events is None else events
    parts = chunks if chunks is not None else [data]
    scope = {"type": "http", "method": method, "path": path,
             "headers": [(b"host", host.encode())] + [(k.encode(), v.encode()) for k, v in headers]}
    queue = list(parts)
    answer: dict = {}

    async def receive():
        events.append("asked")
        if delay:
            await asyncio.sleep(delay)
        if queue:
            chunk = queue.pop(0)
            events.append("sent")
            return {"type": "http.request", "body": chunk, "more_body": bool(queue)}
        await asyncio.sleep(3600)

    async def send(message):
        if message["type"] == "http.response.start":
            events.append("answer")
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


GOOD_BOOK = {"version": "0.37.8", "client": "Office.js", "book": {"name": "B.xlsx", "active_sheet_index": 0},
             "names": [], "sheets": [{"name": "S", "values": [[""]]}]}
SCRIPT = "/xlwings/custom-scripts-call/recalculate_season"


def test_a_scripts_workbook_is_handed_over_unparsed_and_xlwings_server_sees_a_stand_in(app):
    """The event loop never parses a workbook (issue 25: eight 3.3 MB scripts at once kept a request the
    guard answers itself waiting 3.46 s): the served script gets the bytes as they came."""
    from xlbridge.excel.server_guard import HANDOFF, STAND_IN

    handed, kept = [], []

    class Served(App):
        async def __call__(self, scope, receive, send):
            handed.append(bytes(HANDOFF.get().body))
            kept.append(HANDOFF.get())  # as an app's reference cycles keep what they were given
            await super().__call__(scope, receive, send)

    served = Served()
    book = json.dumps(GOOD_BOOK).encode()
    assert request(make(served), SCRIPT, book) == (200, "ok")
    assert served.seen == [STAND_IN] and handed == [book] and HANDOFF.get() is None
    assert kept[0].body == b""  # let go of once answered: the server holds only the bodies it answers
    assert request(make(served), "/xlwings/custom-scripts-call/nope", book) == (404, "xlbridge serve has no script "
                                                                                  "'nope'")


def test_the_worker_refuses_what_is_not_a_workbook():
    from xlbridge.excel.server_guard import NOT_A_BOOK
    from xlbridge.excel.server_pool import book_answer

    for bad in ({**GOOD_BOOK, "book": {}}, {**GOOD_BOOK, "sheets": []}, {**GOOD_BOOK, "sheets": [{"name": "S"}]},
                {**GOOD_BOOK, "book": {"name": "B.xlsx", "active_sheet_index": 3}}, [1]):  # before: 500s
        assert book_answer(None, "recalculate_season", json.dumps(bad).encode()) == ("refused", NOT_A_BOOK)
    assert book_answer(None, "recalculate_season", b"{broken") == ("refused", NOT_A_BOOK)


def test_a_handed_off_answer_takes_the_place_of_the_stand_ins():
    """What the worker answered is sent, with xlwings Server's other headers (CORS, security) kept."""
    from xlbridge.excel.server_guard import HANDOFF

    class Served:  # xlwings Server and the served script: the worker's answer goes into the handoff
        async def __call__(self, scope, receive, send):
            await receive()
            HANDOFF.get().answer = (200, b'{"actions":[1]}', b"application/json")
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"application/json"), (b"content-length", b"14"),
                (b"access-control-allow-origin", b"*")]})
            await send({"type": "http.response.body", "body": b'{"actions":[]}'})

    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": json.dumps(GOOD_BOOK).encode(), "more_body": False}

    scope = {"type": "http", "method": "POST", "path": SCRIPT, "headers": [(b"host", b"localhost")]}
    asyncio.run(make(Served())(scope, receive, send))
    start, body = sent
    assert start["status"] == 200 and dict(start["headers"]) == {
        b"access-control-allow-origin": b"*", b"content-type": b"application/json", b"content-length": b"15"}
    assert body == {"type": "http.response.body", "body": b'{"actions":[1]}'}


def test_a_form_is_checked_here(app):
    guard = make(app)
    form = b"bookData=" + json.dumps(GOOD_BOOK).encode().replace(b" ", b"+")
    kind = [("content-type", "application/x-www-form-urlencoded")]
    assert request(guard, SCRIPT, form, headers=kind)[0] == 200
    assert request(guard, SCRIPT, b"bookData=%5B1%5D", headers=kind)[0] == 400


@pytest.mark.parametrize("path, data, kind", [
    (CALL, b"[" * 100_000 + b"]" * 100_000, "application/json"),
    (SCRIPT, b"[" * 100_000 + b"]" * 100_000, "application/json"),
    (SCRIPT, b"bookData=" + b"%5B" * 100_000 + b"%5D" * 100_000, "application/x-www-form-urlencoded"),
    (SCRIPT, b'--b\r\nContent-Disposition: form-data; name="bookData"\r\n\r\n' + b"[" * 100_000 + b"]" * 100_000
     + b"\r\n--b--\r\n", "multipart/form-data; boundary=b"),
    ("/socket.io/", b"{" * 65 + b"}" * 65, "text/plain"),
], ids=["function", "script", "form", "multipart", "any route"])
def test_json_nested_too_deep_is_400_before_anything_parses_it(app, path, data, kind):
    """Before: 100,000 nested arrays were a RecursionError, a 500, on four routes."""
    assert request(make(app), path, data, headers=[("content-type", kind)]) == (
        400, "the request body nests JSON more than 64 levels deep; a workbook or a function call nests a few")
    assert app.seen == []


def test_the_depth_is_counted_outside_strings():
    from xlbridge.excel.server_guard import _SCAN_CHUNK, nests_deeper

    assert not nests_deeper(b"[" * 64 + b"]" * 64) and nests_deeper(b"[" * 65 + b"]" * 65)
    assert not nests_deeper(b'["' + b"[" * 1000 + b'"]')  # a cell's text
    assert not nests_deeper(b'["\\\\", "\\"[[[[[[[[", {"a": [' + b"[" * 60 + b"]" * 60 + b"]}]")  # escapes
    assert nests_deeper(b'["\\\\", ' + b"[" * 64 + b"]" * 64 + b"]")  # an escaped backslash ends the string
    # an escaped quote across the edge of a piece: still inside the string
    edge = b'["' + b"a" * (_SCAN_CHUNK - 3) + b'\\"' + b"[" * 100 + b'"]'
    assert not nests_deeper(edge)
    assert not nests_deeper((b'[{"v": [[1, "]]"]]}]' * 50_000))  # a megabyte and more, depth 4


def test_bodies_wait_for_their_turn_and_a_request_that_never_gets_one_is_503():
    """The server holds at most ``bodies_mb`` of bodies, each counted twice (body and answer): a request
    beyond waits until another is done -- its body not yet read -- and gets 503 if that takes too long."""
    order = []
    release = asyncio.Event()

    class Slow(App):
        async def __call__(self, scope, receive, send):
            order.append(("app", scope["path"]))
            if scope["path"] == "/first":
                await release.wait()
            await super().__call__(scope, receive, send)

    guard = Guard(Slow(), Limits(max_body_mb=1, bodies_mb=2, body_seconds=5), set(), set())
    size = str(1 << 20)

    async def one(path, answers):
        scope = {"type": "http", "method": "POST", "path": path,
                 "headers": [(b"host", b"localhost"), (b"content-length", size.encode())]}

        async def receive():
            order.append(("read", path))
            return {"type": "http.request", "body": b"x" * (1 << 20), "more_body": False}

        async def send(message):
            if message["type"] == "http.response.start":
                answers.append((path, message["status"]))
        await guard(scope, receive, send)

    async def both():
        answers: list = []
        first = asyncio.create_task(one("/first", answers))
        await asyncio.sleep(0.05)
        second = asyncio.create_task(one("/second", answers))
        await asyncio.sleep(0.2)
        assert ("read", "/second") not in order  # waiting: its body is not read while the first holds 2 MB
        release.set()
        await asyncio.gather(first, second)
        return answers

    assert asyncio.run(both()) == [("/first", 200), ("/second", 200)]
    assert order.index(("app", "/first")) < order.index(("read", "/second"))
    busy = Guard(App(), Limits(max_body_mb=1, bodies_mb=2, body_seconds=0.1), set(), set())
    busy.bodies.held = 2 << 20  # another request holds it all
    assert request(busy, "/x", b"x", headers=[("content-length", "1")]) == (
        503, "this server holds as many request bodies as it may at once (2 MB); nothing was done: try again in a "
             "moment")


def test_a_body_over_the_limit_is_413(app):
    guard = make(app, max_body_mb=1)
    big = b"x" * ((1 << 20) + 1)
    assert request(guard, data=big, headers=[("content-length", str(len(big)))]) == (
        413, "the request body is larger than 1 MB, the limit of this server")
    assert request(guard, chunks=[b"x" * (1 << 19)] * 3)[0] == 413  # no length given: counted as it comes
    assert app.seen == []


def test_a_body_that_does_not_arrive_in_time_is_408(app):
    """The answer comes while the client still owes the rest of the body (the order of events, not seconds:
    a chunk every 0.2 s, the second one due after the limit, is never waited for)."""
    guard = make(app, body_seconds=0.3)
    events: list = []
    assert request(guard, chunks=[b'{"func', b'_name"'], delay=0.2, events=events) == (
        408, "the request body did not arrive within 0.3 seconds")
    assert events[-2:] == ["asked", "answer"] and events.count("sent") < 2, events


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


@pytest.mark.slow
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
        # the client sends nothing after half a header: the answer comes all the same (the socket's time-out
        # only keeps a broken guard from hanging the test; the answer says it was the header time limit)
        with socket.create_connection(("127.0.0.1", port), timeout=120) as slow:
            slow.sendall(b"POST /xlwings/custom-functions-call HTTP/1.1\r\nHost: local")
            answer = slow.recv(4096)
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
