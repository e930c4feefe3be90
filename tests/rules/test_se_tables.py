"""Svenska Mästarpoäng 2009: the tables re-derived from the seed text, and their errata."""

from __future__ import annotations

import csv
from importlib import resources

import pytest

from tools import se_parse
from xlbridge.rules.se_fsb import tables as t
from xlbridge.rules.base import load_table


def _data(name: str) -> str:
    return resources.files("xlbridge.rules").joinpath("data", f"{name}.csv").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def seed(source_text):
    return source_text("000")


# --------------------------------------------------------------------------- re-derivation


@pytest.mark.parametrize("name", [*se_parse.TABLES, "se_groups"])
def test_every_table_csv_is_rederived_from_the_seed_text(seed, name):
    assert se_parse.render_all(seed)[name] == _data(name)


@pytest.mark.parametrize("name", [*se_parse.TABLES, "se_groups", "se_errata"])
def test_every_table_csv_starts_with_provenance(name):
    first = _data(name).splitlines()[0]
    assert first.startswith("# Source: Svenska Mästarpoäng") and "Rev 1.1" in first


def test_rows_are_where_the_document_prints_them():
    # row labels, as printed in the seed text (pages 6-15)
    assert sorted(t.printed("A1")) == list(range(4, 33))
    assert sorted(t.printed("A2")) == list(range(32, 101, 2))
    assert sorted(t.printed("B1")) == [*range(4, 25), 26, 28, 30, 32]
    assert sorted(t.printed("B2")) == list(range(4, 13))
    assert sorted(t.printed("C")) == [8, 9, 10, 12, 13, *range(16, 61)]
    assert sorted(t.printed("D")) == [*range(12, 53), *range(54, 91, 2), 100]
    assert sorted(t.printed("E1")) == [*range(8, 33), 34, 36, 38, 40, 60]
    assert sorted(t.printed("F")) == [16, 17, 18, 20, 24, 25, 28, *range(32, 65, 4)]


def test_some_printed_rows_verbatim():
    # typed from the document, page 6, 7, 11 (row 43 is the A-final example of page 4)
    assert [p for p, _ in t.printed("A1")[32]] == [64, 43, 29, 20, 14, 10, 7, 5, 4, 4, 4]
    assert [p for p, _ in t.printed("A2")[60]] == [120, 80, 60, 50, 40, 34, 27, 23, 18, 15, 12, 10, 8, 7, 6, 5, 4, 4, 4, 4]
    assert t.printed("D")[43] == tuple((p, "sp") for p in (43, 29, 21, 18, 14, 12, 10, 9, 7, 5, 4)) + ((10, "bp"), (8, "bp"), (8, "bp"), (8, "bp"))
    assert t.printed("D")[12] == ((12, "sp"), (8, "sp"), (6, "sp"), (16, "bp"))


def test_the_red_split_agrees_with_the_quarter_rule_except_the_listed_row():
    """Silver to the best quarter (at most 16), bronze after that to one third."""
    odd = []
    for table in t.SILVER:
        for field, cells in t.printed(table).items():
            silver = sum(1 for _, u in cells if u == "sp")
            if silver != t.quarter(field) or len(cells) > t.third(field):
                odd.append((table, field))
    assert odd == [("D", 13)]  # in the errata as structural (E1 60 has 15 = 60/4 silver places)


def test_group_coefficients_principle(seed):
    """Coefficients add up to the number of groups and are symmetric around 1."""
    by_groups: dict[int, list[float]] = {}
    for r in load_table("se_groups"):
        by_groups.setdefault(int(r["groups"]), []).append(float(r["coefficient"]))
    assert sorted(by_groups) == [2, 3, 4, 5]
    for groups, values in by_groups.items():
        assert len(values) == groups
        assert sum(values) == pytest.approx(groups)
        assert [round(a + b, 9) for a, b in zip(values, reversed(values))] == [2.0] * groups


def test_b2_bonus_principle_has_no_deviation():
    for field, cells in t.printed("B2").items():
        assert cells == t.principle("B2", field)


# --------------------------------------------------------------------------- the principles


def test_principles_reproduce_rows_the_document_prints():
    # A1: winner 2 per pair, 2/3 of the place above rounded up, one third of the field, at least 4
    assert [p for p, _ in t.principle("A", 25)] == [50, 34, 23, 16, 11, 8, 6, 4, 4]
    # A2: "trean = ettan vid halva parantalet ... fyran = (trean + femman)/2"
    assert [p for p, _ in t.principle("A", 60)] == [120, 80, 60, 50, 40, 34, 27, 23, 18, 15, 12, 10, 8, 7, 6, 5, 4, 4, 4, 4]
    # C over 32 players follows the same rule (row 48 of page 10)
    assert [p for p, _ in t.principle("C", 48)] == [72, 48, 36, 30, 24, 20, 16, 14, 11, 10, 8, 7, 6, 5, 4, 4]
    # D: silver n, 2/3 ..., bronze = A1 x 2 (row 22 of page 11)
    assert t.principle("D", 22) == tuple((p, "sp") for p in (22, 15, 10, 7, 5, 4)) + ((10, "bp"), (8, "bp"))
    # E1: 1.5 per team, bronze = B1 x 2 (row 16 of page 13)
    assert t.principle("E1", 16) == ((24, "sp"), (16, "sp"), (11, "sp"), (8, "sp"), (20, "bp"), (14, "bp"))


def test_odd_a2_sizes_are_the_mean_of_the_neighbours_rounded_up():
    # "Udda parantal är inte angivna. Man tar medeltalet av vad närmast högre och närmast lägre antal ger."
    low, high = t.row("A", 60), t.row("A", 62)
    expected = [t.ceil(((low[i][0] if i < len(low) else 4) + high[i][0]) / 2) for i in range(t.third(61))]
    assert [p for p, _ in t.row("A", 61)] == expected
    assert t.row("A", 61)[0] == (122, "bp")


# --------------------------------------------------------------------------- errata


def _errata_rows():
    text = _data("se_errata")
    return list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))


def test_every_deviation_is_listed_and_every_listed_cell_deviates():
    listed = {(r["table"], int(r["field"]), int(r["place"])): r for r in _errata_rows()}
    found = {(tb, f, p): (got, want) for tb, f, p, got, want in se_parse.deviations()}
    missing = sorted(set(found) - set(listed))
    stale = sorted(set(listed) - set(found))
    assert not missing, f"deviations not in se_errata.csv: {missing[:10]}"
    assert not stale, f"se_errata.csv lists cells that no longer deviate: {stale[:10]}"
    for key, (got, want) in found.items():
        assert (listed[key]["printed"], listed[key]["principle"]) == (got, want), key


def test_every_erratum_has_a_decision_and_a_reason():
    for r in _errata_rows():
        assert r["reason"].strip(), r
        if r["decision"] == "printed":
            assert r["used"] == r["printed"], r
        elif r["decision"] == "principle":
            assert r["used"] == r["principle"], r
        else:
            assert r["decision"] == "corrected" and r["used"] not in (r["printed"], r["principle"]), r


def test_known_misprints_are_corrected():
    assert t.row("A", 80)[5] == (47, "bp")  # printed 43 between 54 and 40
    assert t.row("A", 72)[3] == (60, "bp")  # printed 63: (72 + 48) / 2 = 60
    assert t.row("D", 82)[2] == (41, "sp")  # printed 46: the winner of 41 pairs
    assert t.row("C", 34)[1] == (34, "bp")  # printed 32: 2/3 of 51
    assert len(t.row("A", 76)) == 26  # one third of 76, a figure was dropped


@pytest.mark.parametrize("family", list(t.FAMILIES))
def test_corrected_tables_keep_their_order(family):
    """Down a row awards never rise (per unit); across field sizes a place never loses."""
    fields = sorted(t.printed_family(family))
    for field in fields:
        cells = t.row(family, field)
        for unit in {u for _, u in cells}:
            values = [p for p, u in cells if u == unit]
            assert values == sorted(values, reverse=True), (family, field, unit)
    for small, large in zip(fields, fields[1:]):
        if family == "E1" and large == 60:
            continue
        a, b = t.row(family, small), t.row(family, large)
        for place in range(min(len(a), len(b))):
            if a[place][1] == b[place][1] == ("sp" if family in t.SILVER else a[place][1]):
                assert a[place][0] <= b[place][0], (family, small, large, place + 1)


@pytest.mark.parametrize("family", ["A", "B1", "C"])
def test_bronze_rows_reach_one_third_with_at_least_4(family):
    for field in range(4 if family != "C" else 8, 121):
        cells = t.row(family, field)
        assert len(cells) == t.third(field), (family, field)
        assert min(p for p, _ in cells) >= 4
