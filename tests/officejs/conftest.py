"""Helpers to call xlbridge's worksheet functions the way Office.js does."""

from __future__ import annotations

import asyncio
import os

import pytest

assert os.environ.get("XLWINGS_ON_SERVER") == "true", "run through tests/test_officejs_process.py"

from xlwings import server  # noqa: E402

from xlbridge.excel import functions  # noqa: E402
from tests.emulate import function_body  # noqa: E402


def body(func_name: str, *args):
    """The request body Office.js sends (see tests.emulate.function_body)."""
    return function_body(func_name, *args)


@pytest.fixture
def call():
    def run(func_name: str, *args, module=functions):
        return asyncio.run(server.custom_functions_call(body(func_name, *args), module))

    return run
