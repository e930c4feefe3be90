"""``xlbridge serve`` as a real process on a free loopback port: started,
queried over HTTP, stopped — all within a bounded time."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

START_SECONDS = 90
STOP_SECONDS = 20


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read()


@pytest.mark.slow
def test_xlbridge_serve_on_loopback(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("XLWINGS_ON_SERVER", "XLWINGS_PROJECT_DIR")}
    env.pop("XLWINGS_LICENSE_KEY", None)  # the licence is chosen on the command line
    log = (tmp_path / "serve.log").open("w+b")
    proc = subprocess.Popen(
        [sys.executable, "-m", "xlbridge", "serve", "--port", str(port), "--noncommercial",
         "--project-dir", str(tmp_path / "project")],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/xlwings/custom-functions-meta"
    try:
        deadline = time.monotonic() + START_SECONDS
        status, raw = None, b""
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                status, raw = get(url)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.5)
        log.seek(0)
        assert status == 200, f"no answer from {url}; exit {proc.poll()}\n" + log.read().decode(errors="replace")[-3000:]
        names = {f["id"] for f in json.loads(raw)["functions"]}
        assert {"AWARD", "AWARD_UNIT", "TBF_MASTERY"} <= names
        assert (tmp_path / "project" / "custom_functions" / "__init__.py").exists()

        proc.send_signal(signal.SIGTERM)  # stops the server process it started too
        assert proc.wait(timeout=STOP_SECONDS) is not None
        deadline = time.monotonic() + STOP_SECONDS
        while time.monotonic() < deadline:
            try:
                get(url)
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                break
            time.sleep(0.3)
        else:
            raise AssertionError("the server still answers after xlbridge serve was stopped")
    finally:
        if proc.poll() is None:
            proc.kill()
        try:  # anything left in the session this test started
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, AttributeError):
            pass
        log.close()


def test_serve_refuses_without_a_licence_choice(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")}
    result = subprocess.run([sys.executable, "-m", "xlbridge", "serve", "--port", str(free_port())],
                            env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "XLWINGS_LICENSE_KEY" in result.stderr and "--noncommercial" in result.stderr
