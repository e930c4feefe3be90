"""Every TBF table stored as data is re-read from the booklet's text and compared.

The booklet (docs/sources/001_*.txt) prints its tables as flattened markdown-like
rows; these tests parse that text independently of the CSV files and require the
two to agree cell for cell.
"""

from __future__ import annotations

import re

import pytest

from xlbridge.rules.base import load_table


@pytest.fixture(scope="module")
def booklet(source_text):
    return source_text("001")


def section(text: str, start: str, end: str) -> str:
    begin = text.index(start)
    return text[begin : text.index(end, begin + len(start))]


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_tablo3_weights_match_the_booklet(booklet):
    block = section(booklet, "Tablo 3.", "7. BÖLGESEL")
    printed = {}
    for line in block.splitlines():
        parts = [c for c in cells(line) if c]
        if parts and all(re.fullmatch(r"\d+(\.\d+)?", p) for p in parts):
            for tables, weight in zip(parts[::2], parts[1::2]):
                printed[int(tables)] = float(weight)
    stored = {int(r["tables"]): float(r["weight"]) for r in load_table("tr_tablo3")}
    assert len(printed) == 47  # 3 .. 49
    assert stored == printed


def test_tablo3_weights_rise_with_tables():
    weights = [float(r["weight"]) for r in load_table("tr_tablo3")]
    assert all(b > a for a, b in zip(weights, weights[1:]))


def test_tablo2_rows_match_the_booklet(booklet):
    block = section(booklet, "Tablo 2.", "(*)")
    colours = {"Sarı": "yellow", "Kırmızı": "red", "Yeşil": "green", "Beyaz": "white"}
    rules = {
        "Sabit": "fixed",
        "Katılımcı Sayısına Göre Değişken": "tables",
        "Katılımcı ve Bord Sayısına Göre Değ.": "tables_boards",
    }
    printed = []
    group = None
    for line in block.splitlines()[3:]:
        parts = cells(line)
        if len(parts) >= 2 and not parts[1]:
            group = parts[0]
            continue
        name, rule, mp, colour = parts[:4]
        name = name.rstrip(" *")
        if mp == "5/10/15/20":
            rule_id, number = "festival", None
        else:
            rule_id = rules[rule]
            number = float(mp.split("*")[0].strip().replace(",", "."))
        printed.append((group, name, rule_id, number, colours[colour]))
    stored = [
        (r["group"], r["name"], r["rule"], float(r["mp"]) if r["mp"] else None, r["colour"])
        for r in load_table("tr_tablo2")
    ]
    assert len(printed) == 26
    assert stored == printed


def test_tablo2_kind_follows_the_name():
    for row in load_table("tr_tablo2"):
        if "Takım" in row["name"]:
            assert row["kind"] == "teams", row["name"]
        else:
            assert row["kind"] == "pairs", row["name"]


def test_tablo4_match_awards_match_the_booklet(booklet):
    block = section(booklet, "Tablo 4.", "11. USTALIK")
    printed = []
    for line in block.splitlines():
        parts = cells(line)
        if len(parts) == 3 and parts[0].isdigit():
            printed.append((int(parts[0]), float(parts[1]), float(parts[2])))
    stored = [(int(r["boards"]), float(r["regional"]), float(r["national"])) for r in load_table("tr_tablo4")]
    assert len(printed) == 13
    assert stored == printed


def test_tablo5_titles_match_the_booklet(booklet):
    block = section(booklet, "Tablo 5.", "13. ")
    printed = []
    for line in block.splitlines():
        parts = cells(line)
        if len(parts) == 3 and parts[1].isdigit():
            printed.append((parts[0], float(parts[1]), 0.0 if parts[2] == "-" else float(parts[2])))
    stored = [(r["title"], float(r["min_mastery"]), float(r["min_yellow"])) for r in load_table("tr_tablo5")]
    assert len(printed) == 9
    assert stored == printed


def test_tablo1_scales_match_the_booklet(booklet):
    block = section(booklet, "Tablo 1.", "Turnuvalarda, yarışmaya")
    scales = []
    for line in block.splitlines():
        parts = cells(line)
        if len(parts) == 2 and parts[0].startswith("1."):
            scales.append([])
        if len(parts) == 2 and re.match(r"\d+\.", parts[0]):
            scales[-1].append(parts)
    assert len(scales) == 2
    stored = load_table("tr_tablo1")
    for name, printed in zip("ab", scales):
        rows = [r for r in stored if r["scale"] == name]
        assert len(rows) == len(printed)
        for row, (place, share) in zip(rows, printed):
            assert place.startswith(f"{row['place']}.")
            if row["numerator"]:
                numerator = "2 * " if row["numerator"] == "2" else ""
                assert share == f"{numerator}Birincinin Aldığı MP / (Sıralamadaki Yeri - 1)"
            else:
                assert share == f"%{round(float(row['share']) * 100)}"


def test_festival_bands_match_the_booklet(booklet):
    line = next(l for l in booklet.splitlines() if l.startswith("İkili ve Takım Yarışmaları"))
    printed = re.findall(r"(\d+)(?:-(\d+)| ve üstü) masa (\d+) MP", line)
    stored = [(r["min_tables"], r["max_tables"], r["mp"]) for r in load_table("tr_festival")]
    assert printed == stored


def test_every_tbf_table_has_a_provenance_header():
    from importlib import resources

    for name in ("tr_tablo1", "tr_tablo2", "tr_tablo3", "tr_tablo4", "tr_tablo5", "tr_festival", "tr_mastery"):
        text = resources.files("xlbridge.rules").joinpath("data", f"{name}.csv").read_text(encoding="utf-8")
        assert text.startswith("# Source: Türkiye Briç Federasyonu"), name
        assert "Masterpoint Kitapçığı v2.0" in text.splitlines()[0]
