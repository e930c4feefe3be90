"""xlwings Server with xlbridge (``xlbridge serve``) through FastAPI's TestClient:
the endpoints Excel calls, answered by the real xlwings-server app."""

from __future__ import annotations

import datetime as dt

import atexit
import inspect
import os
import shutil
import tempfile

import pytest

from xlbridge.excel import server

# xlwings Server reads its settings once, when first imported: set them first.
PROJECT = tempfile.mkdtemp(prefix="xlbridge-test-serve-")
atexit.register(shutil.rmtree, PROJECT, True)  # (removed when this process ends)
os.environ.update(server.server_environment(server.prepare_project(PROJECT)))

from fastapi.testclient import TestClient  # noqa: E402
from openpyxl import load_workbook  # noqa: E402

from xlbridge.excel import functions, scripts  # noqa: E402
from xlbridge.workbooks import recalc
from tests.emulate import apply_actions, payload, run_script  # noqa: E402

from .conftest import body  # noqa: E402


def xlbridge_functions():
    """Every worksheet function of functions.py (the same lookup xlwings uses)."""
    found = {name: obj for name, obj in inspect.getmembers(functions) if hasattr(obj, "__xlfunc__")}
    assert found, "no @xw.func in xlbridge.excel.functions"
    return found


def normal(text: str) -> str:
    return " ".join(text.split())


STAMP = dt.datetime(2026, 11, 30, 12, 0)


def stamped(actions: list) -> list:
    """The actions with the Corrections sheet's When (a date and time: Excel's day number of
    this run's minute or of :data:`STAMP`) as ``<when>``."""
    days = [(moment - dt.datetime(1899, 12, 30)) / dt.timedelta(days=1) for moment in (dt.datetime.now(), STAMP)]
    return [dict(a, values=[["<when>" if type(v) is float and any(abs(v - d) < 1 for d in days) else v for v in line]
                            for line in a["values"]]) if a["func"] == "setValues" else a for a in actions]


@pytest.fixture(scope="module")
def client():
    with TestClient(server.app(), base_url="http://localhost") as c:  # the Host allow-list: localhost names
        yield c


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch):
    monkeypatch.setattr(recalc, "now_stamp", lambda: STAMP)


def test_meta_lists_every_xlbridge_function_with_its_help(client):
    response = client.get("/xlwings/custom-functions-meta")
    assert response.status_code == 200
    served = {f["id"]: f for f in response.json()["functions"]}
    expected = xlbridge_functions()
    assert set(served) == {obj.__xlfunc__["name"].upper() for obj in expected.values()}
    for obj in expected.values():
        meta = served[obj.__xlfunc__["name"].upper()]
        assert normal(meta["description"]) == normal(obj.__doc__), meta["id"]
        params = [p for p in inspect.signature(obj).parameters]
        assert [p["name"] for p in meta["parameters"]] == params, meta["id"]
        for p in meta["parameters"]:
            assert p.get("description"), f"{meta['id']}({p['name']}) has no help text"


def test_code_associates_every_function(client):
    response = client.get("/xlwings/custom-functions-code")
    assert response.status_code == 200
    for obj in xlbridge_functions().values():
        name = obj.__xlfunc__["name"]
        assert f'CustomFunctions.associate("{name.upper()}", {name});' in response.text


@pytest.mark.slow
def test_award_is_computed(client):
    response = client.post("/xlwings/custom-functions-call", json=body("award", "tr.club", 1, 26, "boards=24"))
    assert response.status_code == 200
    assert response.json() == {"result": [[0.62]]}


def test_bad_argument_is_a_readable_cell_value(client):
    response = client.post("/xlwings/custom-functions-call", json=body("award", "tr.club", 1, 2.5))
    assert response.status_code == 200
    (value,), = response.json()["result"]
    assert value.startswith("#xlbridge: ")


def test_scripts_meta_lists_recalculate_season(client):
    names = [m["function_name"] for m in client.get("/xlwings/custom-scripts-meta").json()]
    assert "recalculate_season" in names


def test_recalculate_season_returns_the_actions(client, tmp_path, built_once):
    path = built_once("tbf-club", tmp_path / "club.xlsx", language="en")
    wb = load_workbook(path)
    wb["Tournament"]["C20"] = 60.0  # a late correction
    for row in range(9, 29):
        wb["Tournament"].cell(row=row, column=5).value = None
    wb.save(path)
    response = client.post("/xlwings/custom-scripts-call/recalculate_season", json=payload(load_workbook(path)))
    assert response.status_code == 200, response.text
    actions = response.json()["actions"]
    # the script ran in a worker process of xlbridge serve, on its own clock: the
    # Corrections sheet's "When" column is the minute of the run, not the fixed one
    assert stamped(actions) == stamped(run_script(scripts, "recalculate_season", load_workbook(path)))
    excel = load_workbook(path)
    alerts = apply_actions(excel, actions)
    assert alerts and alerts[0].startswith("Recalculated")
    assert all(excel["Tournament"].cell(row=r, column=5).value is not None for r in range(9, 29))


def test_manifest_is_served(client):
    response = client.get("/manifest")
    assert response.status_code == 200
    assert "<OfficeApp" in response.text
    assert 'DefaultValue="XLBRIDGE"' in response.text  # the functions' namespace: =XLBRIDGE.AWARD(...)


def test_classic_main_runs_the_same_recalculation(tmp_path, built_once):
    """The classic-xlwings button entry (xlbridge.excel.classic.main) on a book
    gives the same actions as the "Recalculate season" script."""
    import xlwings as xw

    from xlbridge.excel import classic

    path = built_once("tbf-club", tmp_path / "club.xlsx", language="en")
    wb = load_workbook(path)
    wb["Tournament"]["C20"] = 60.0
    wb.save(path)
    book = xw.Book(json=payload(load_workbook(path)))
    classic.main(book)
    assert book.json()["actions"] == run_script(scripts, "recalculate_season", load_workbook(path))
    assert classic.UDF_MODULE == functions.__name__
