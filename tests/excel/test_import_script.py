"""Which file the Import results script reads from xlwings Lite's Files (``/data``): the only PBN or
USEBIO file there, or the one its form names -- never a path out of that folder, never a guess between
two, and a file over the size limit refused by its size without reading it whole."""

from __future__ import annotations

import pytest

from xlbridge.excel.scripts import _results_file
from xlbridge.workbooks.plan import BookInputError


def codes(error: BookInputError) -> list[str]:
    return [p.code for p in error.problems]


def test_the_only_results_file_is_read_and_other_files_are_left_alone(tmp_path):
    (tmp_path / "notes.txt").write_text("not a results file")
    (tmp_path / "avond.PBN").write_bytes(b"[Event \"x\"]\n")
    assert _results_file(tmp_path, "", 100) == ("avond.PBN", b"[Event \"x\"]\n")


@pytest.mark.parametrize("files, asked, code", [
    ((), "", "import.no-file"),
    (("notes.txt",), "", "import.no-file"),
    (("a.pbn", "b.xml"), "", "import.file-choose"),
    (("a.pbn",), "c.pbn", "import.file-unknown"),
    (("a.pbn",), "../etc/passwd", "import.file-unknown"),
    (("a.pbn",), "/data/a.pbn", "import.file-unknown"),
], ids=["empty", "no-results-file", "two", "unknown", "a-path-up", "a-path"])
def test_a_file_that_cannot_be_told_is_a_problem_naming_what_is_there(tmp_path, files, asked, code):
    for name in files:
        (tmp_path / name).write_bytes(b"x")
    with pytest.raises(BookInputError) as caught:
        _results_file(tmp_path, asked, 100)
    assert codes(caught.value) == [code]
    if code != "import.no-file":
        assert all(name in str(caught.value.problems[0]) for name in files if name.endswith((".pbn", ".xml")))


def test_two_files_are_told_apart_by_the_name_typed_in_the_form(tmp_path):
    (tmp_path / "a.pbn").write_bytes(b"A")
    (tmp_path / "b.xml").write_bytes(b"B")
    assert _results_file(tmp_path, "b.xml", 100) == ("b.xml", b"B")


def test_a_folder_xlwings_lite_has_not_made_yet_is_no_file(tmp_path):
    with pytest.raises(BookInputError) as caught:
        _results_file(tmp_path / "data", "", 100)
    assert codes(caught.value) == ["import.no-file"]


def test_a_large_file_is_read_one_byte_past_the_limit_only(tmp_path):
    (tmp_path / "big.pbn").write_bytes(b"x" * 1000)
    assert _results_file(tmp_path, "", 10) == ("big.pbn", b"x" * 11)
