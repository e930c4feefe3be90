"""A kind is one object reached from one registry (issue 24, point 1): a toy kind declared under tests/
and added to :data:`xlbridge.workbooks.kinds.MODULES` only works through ``xlbridge new``, ``xlbridge recalc``
and the Lite bundle's file list, without a line of cli.py, nextsheet.py, shipped.py or bundle.py."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from xlbridge.cli import main
from xlbridge.excel import bundle
from tests import lite_files
from xlbridge.workbooks import kinds


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(kinds.MODULES, "toy", "tests.workbooks.toy_kind")
    kinds.kinds.cache_clear()
    yield
    kinds.kinds.cache_clear()


def test_a_toy_kind_is_new_recalculated_and_bundled_from_the_registry_alone(toy, tmp_path, capsys):
    path = tmp_path / "toy.xlsx"
    assert main(["new", "toy", str(path)]) == 0
    out = capsys.readouterr().out
    assert out == (f"wrote {path}\nnext: open {path} in Excel, type in the yellow cells (step by step: docs/toy.md) "
                   f"and click Recalculate season; without Excel, save it and run: xlbridge recalc {path}\n")
    assert [[c.value for c in row] for row in load_workbook(path)["Toy"].iter_rows(max_col=2)] == [
        ["Score", "Double"], [1, 2], [2.5, 5], [4, 8]]
    assert "main.py" in lite_files.extract(path)  # its xlwings Lite code, with the button of its declaration

    workbook = load_workbook(path)
    workbook["Toy"]["A3"] = 10
    workbook.save(path)
    assert main(["recalc", str(path), "--no-backup"]) == 0
    assert capsys.readouterr().out.startswith(f"recalculated {path} (toy): ")
    assert load_workbook(path)["Toy"]["B3"].value == 20

    results = tmp_path / "evening.pbn"  # a kind that names no IMPORTER: one line, nothing written
    results.write_bytes(b'[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 420\n')
    before = path.read_bytes()
    assert main(["import", str(path), str(results), "--no-backup"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == ("xlbridge: error: workbook: this kind of workbook has no "
                                                      "import of results")
    assert path.read_bytes() == before

    files = bundle.source_files("toy", "en")
    assert {"xlbridge/excel/scripts.py", "xlbridge/workbooks/kinds.py"} <= set(files)
    assert not [name for name in files if name.startswith(("xlbridge/workbooks/heeg/", "xlbridge/workbooks/events/",
                                                           "xlbridge/workbooks/bridgemania/"))]


def test_every_kind_is_offered_by_the_registry(toy):
    assert list(kinds.workbooks()) == ["tbf-club", "se-masterpoints", "bridgemania", "heeg", "toy"]
    assert [kind.name for kind in kinds.kinds()] == ["bridgemania", "heeg", "toy", "event awards"]
