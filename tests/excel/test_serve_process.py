"""``xlbridge serve`` as a real process (issue 14, point 8): heavy calls do not block
the others and stop at the time limit, foreign Host names and malformed calls get
4xx, a taken port is a clear message, and SIGTERM stops the server cleanly
(exit code 0, no error message)."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

# found, not imported: importing xlwings_server sets XLWINGS_ON_SERVER=true in this process for every later test
if any(importlib.util.find_spec(name) is None for name in ("xlwings_server", "uvicorn")):  # pragma: no cover
    pytest.skip("the server extra is not installed", allow_module_level=True)

pytestmark = pytest.mark.slow  # the inner loop while developing is pytest -m "not slow" (pyproject.toml)

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call_body(func_name: str, *args) -> bytes:
    return json.dumps({"func_name": func_name, "args": [None if a is None else [[a]] for a in args],
                       "caller_address": "Sheet1!B2", "formula_name": func_name.upper(), "version": "0.37.8",
                       "runtime": "1.4", "culture_info_name": "en-US", "date_format": "dd/mm/yyyy",
                       "client": "Office.js"}).encode()


def post(port: int, path: str, data: bytes, host: str | None = None) -> tuple[int, str]:
    headers = {"Content-Type": "application/json"}
    if host:
        headers["Host"] = host
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XLWINGS_", "XLBRIDGE_"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


class Served:
    def __init__(self, tmp: Path, *options: str, direct: bool = False):
        self.port = free_port()
        self.log = (tmp / f"serve-{self.port}.log").open("w+b")
        if direct:  # the server process itself, as a service manager would start it
            from xlbridge.excel import server

            env = server.server_environment(server.prepare_project(tmp / f"project-{self.port}"), noncommercial=True,
                                            base=environment(), limits=server.Limits())
            argv = server.command("127.0.0.1", self.port)
        else:
            env = environment()
            argv = [sys.executable, "-m", "xlbridge", "serve", "--port", str(self.port), "--noncommercial",
                    "--project-dir", str(tmp / f"project-{self.port}"), *options]
        self.process = subprocess.Popen(argv, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True, cwd=ROOT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if post(self.port, "/xlwings/custom-functions-call", call_body("award", "tr.club", 1.0, 26.0))[0] == 200:
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.3)
        raise AssertionError(f"no server on port {self.port}:\n{self.output()[-3000:]}")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self, signum=signal.SIGTERM) -> int:
        self.process.send_signal(signum)
        try:
            return self.process.wait(timeout=30)
        finally:
            self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # workers left in the session, if any
        except (ProcessLookupError, PermissionError):
            pass
        self.log.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("serve"), "--time-limit", "0.5", "--workers", "2")
    yield server
    server.close()


#: The heaviest call within the engine's bounds (since issue 14 a field beyond 100,000 units is a quick
#: message, no longer a long call): the awards of the largest field, about a second or more.
LARGEST = json.dumps({**json.loads(call_body("awards", "se.silver.team-barometer")),
                      "args": [[["se.silver.team-barometer"]], [[float(i)] for i in range(1, 100_001)]]}).encode()


def test_a_heavy_call_does_not_block_the_others_and_stops_at_the_time_limit(served):
    """Light calls are answered while the heavy one runs (the order of events, not seconds: before, the
    light call came 12 s behind the heavy one); the heavy one is stopped at its time limit."""
    slow: dict = {}
    thread = threading.Thread(target=lambda: slow.update(answer=post(served.port, "/xlwings/custom-functions-call",
                                                                     LARGEST)))
    thread.start()
    answered_meanwhile = 0
    while thread.is_alive():
        light = call_body("award", "tr.club", 1.0, 26.0, "boards=24")
        assert post(served.port, "/xlwings/custom-functions-call", light) == (200, '{"result":[[0.62]]}')
        answered_meanwhile += thread.is_alive()
    thread.join()
    assert answered_meanwhile >= 1
    status, text = slow["answer"]
    assert status == 200
    assert json.loads(text)["result"] == [["#xlbridge: AWARDS took longer than 0.5 seconds and was stopped (the server's "
                                           "time limit); check its arguments"]]
    # the worker was replaced: the next calls are answered
    assert post(served.port, "/xlwings/custom-functions-call", call_body("award", "tr.club", 1.0, 26.0))[0] == 200


SCRIPT = "/xlwings/custom-scripts-call/recalculate_season"


def test_seasons_recalculated_at_once_leave_a_worker_to_function_calls(tmp_path, monkeypatch, built_once):
    """Issue 25: eight Recalculate season calls of a large season at once took every worker, and a light
    call waited 5.5 to 10.7 s behind them.  Scripts take at most all workers but one: a light call sent
    while three seasons are being recalculated is answered before the first of them."""
    from openpyxl import load_workbook

    from tests.emulate import payload

    monkeypatch.setenv("XLWINGS_LICENSE_KEY", "noncommercial")  # emulate's payload asks xlwings for its version
    season = load_workbook(built_once.heeg_16x(tmp_path / "heeg.xlsx"))
    book = json.dumps(payload(season)).encode()  # 3.6 MB, more than a second to recalculate
    server = Served(tmp_path, "--workers", "2")
    try:
        events: list = []
        lock = threading.Lock()

        def season():
            status, text = post(server.port, SCRIPT, book)
            with lock:
                events.append(("season", status, len(json.loads(text)["actions"]) if status == 200 else text))

        seasons = [threading.Thread(target=season) for _ in range(3)]
        for thread in seasons:
            thread.start()
        time.sleep(0.5)  # the seasons are in
        light = post(server.port, "/xlwings/custom-functions-call", call_body("award", "tr.club", 1.0, 26.0))
        with lock:
            events.append(("light", *light))
        for thread in seasons:
            thread.join(300)
    finally:
        server.close()
    assert events[0] == ("light", 200, '{"result":[[0.62]]}'), events
    assert [e[:2] for e in events[1:]] == [("season", 200)] * 3 and all(e[2] > 100 for e in events[1:]), events


def test_a_scripts_workbook_is_parsed_in_the_worker_and_its_answer_sent_as_the_worker_made_it(tmp_path, monkeypatch,
                                                                                             built_once):
    """The server process hands the workbook's bytes to a worker (the event loop never parses it): the answer
    is the script's actions, the same as the script gives in this process; what is not a workbook is 400."""
    from openpyxl import load_workbook

    from tests.emulate import payload

    monkeypatch.setenv("XLWINGS_LICENSE_KEY", "noncommercial")
    data = payload(load_workbook(built_once("tbf-club", tmp_path / "club.xlsx", language="en")))
    data["sheets"][0]["values"][8][2] = 40.0  # Tournament, C9: pair 1's score, from first place to last
    server = Served(tmp_path, "--workers", "2")
    try:
        status, text = post(server.port, SCRIPT, json.dumps(data).encode())
        refused = post(server.port, SCRIPT, json.dumps({**data, "sheets": []}).encode())
        deep = post(server.port, SCRIPT, b"[" * 100_000 + b"]" * 100_000)
        log = server.output()
    finally:
        server.close()
    assert status == 200
    written = [a for a in json.loads(text)["actions"] if a["func"] == "setValues"]
    assert written, text[:500]
    assert refused == (400, "the request body is not a workbook sent by xlwings (JSON with version, client, book and "
                            "its sheets)")
    assert deep == (400, "the request body nests JSON more than 64 levels deep; a workbook or a function call nests "
                         "a few")
    assert "Traceback" not in log


def test_a_field_of_1e308_is_stopped_not_a_crash(served):
    status, text = post(served.port, "/xlwings/custom-functions-call", call_body("award", "tr.club", 1.0, "1E+308"))
    assert status == 200
    (value,), = json.loads(text)["result"]
    assert value.startswith("#xlbridge: ")


def test_a_foreign_host_name_is_refused(served):
    status, text = post(served.port, "/xlwings/custom-functions-call", call_body("award", "tr.club", 1.0, 26.0),
                        host="attacker.example")
    assert status == 400 and "does not answer to the host name 'attacker.example'" in text


def test_client_errors_are_4xx_not_500(served):
    assert post(served.port, "/xlwings/custom-functions-call", b"{broken")[0] == 400
    assert post(served.port, "/xlwings/custom-functions-call", call_body("no_such_function", 1.0)) == (
        404, "xlbridge serve has no worksheet function 'no_such_function'")
    assert post(served.port, "/xlwings/custom-scripts-call/no_such_script", b"{}")[0] == 404
    incomplete = json.loads(call_body("award", "tr.club", 1.0, 26.0))
    del incomplete["runtime"]  # before: xlwings' KeyError, a 500
    assert post(served.port, "/xlwings/custom-functions-call", json.dumps(incomplete).encode())[0] == 400


def test_a_taken_port_is_a_clear_message(served):
    done = subprocess.run([sys.executable, "-m", "xlbridge", "serve", "--port", str(served.port), "--noncommercial"],
                          env=environment(), capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        f"xlbridge: error: port {served.port} on 127.0.0.1 is in use by another program; choose another with --port "
        f"(e.g. --port {served.port + 1})")


def test_a_script_over_its_time_limit_tells_the_scorer_and_sigterm_stops_cleanly(tmp_path, monkeypatch, built_once):
    from openpyxl import load_workbook

    from tests.emulate import payload

    monkeypatch.setenv("XLWINGS_LICENSE_KEY", "noncommercial")  # emulate's payload asks xlwings for its version

    server = Served(tmp_path, "--script-time-limit", "0.01", "--workers", "1")
    try:
        book = payload(load_workbook(built_once("heeg", tmp_path / "heeg.xlsx", language="en")))  # a season: ~0.1 s
        status, text = post(server.port, "/xlwings/custom-scripts-call/recalculate_season", json.dumps(book).encode())
        assert status == 200, text
        alerts = [a for a in json.loads(text)["actions"] if a["func"] == "alert"]
        assert alerts[0]["args"][0] == ("Recalculate season took longer than 0.01 seconds and was stopped (the server's "
                                        "time limit); nothing was changed")
    finally:
        code = server.stop(signal.SIGTERM)
    assert code == 0
    log = Path(server.log.name).read_text(errors="replace")
    assert "xlbridge: error" not in log and "Traceback" not in log


def test_the_server_process_itself_stops_cleanly_on_sigterm(tmp_path):
    server = Served(tmp_path, direct=True)
    code = server.stop(signal.SIGTERM)
    log = Path(server.log.name).read_text(errors="replace")
    assert code == 0, log[-3000:]
    assert "Traceback" not in log
