"""Helpers to call xlbridge's worksheet functions the way Office.js does."""

from __future__ import annotations

import asyncio
import os

import pytest

assert os.environ.get("XLWINGS_ON_SERVER") == "true", "run through tests/test_officejs_process.py"

import xlwings as xw  # noqa: E402
from xlwings import server  # noqa: E402

from xlbridge.excel import functions  # noqa: E402


def body(func_name: str, *args):
    """The request body Office.js sends: every argument a 2-D list, omitted optionals null."""
    return {
        "func_name": func_name,
        "args": [None if a is None else a if isinstance(a, list) else [[a]] for a in args],
        "caller_address": "Sheet1!B2",
        "formula_name": func_name.upper(),
        "version": xw.__version__,
        "runtime": "1.4",
        "culture_info_name": "en-US",
        "date_format": "dd/mm/yyyy",
        "client": "Office.js",
    }


@pytest.fixture
def call():
    def run(func_name: str, *args, module=functions):
        return asyncio.run(server.custom_functions_call(body(func_name, *args), module))

    return run
