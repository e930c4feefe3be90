"""Typed records in, one result out: parse_row makes an Entry (checking each raw
value once, the problems coded and on the record), season() computes from the
records, and every problem says what it concerns."""

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the shared hand-made season (heeg_season_fixture.py beside this file)
from heeg_season_fixture import P1, season_frame, settings  # noqa: E402

from xlbridge.clubs.frames import plain_records  # noqa: E402
from xlbridge.clubs.heeg import (  # noqa: E402
    Entry,
    HeegInputError,
    HeegProblem,
    HeegSettings,
    Pair,
    Period,
    SeasonResult,
    compute,
    parse_row,
    period_table,
    season,
    year_table,
)
from xlbridge.rules.problems import CONCERNS, ProblemsError  # noqa: E402


def test_parse_row_types_every_value():
    s = settings()
    entry = parse_row({"date": "2025-09-02T00:00:00.000Z", "pair": 4.0, "line": " A ", "mp": "45,5", "code": "S1",
                       "combi_mp": "10", "names": "Ann - Bo"}, s, ref=("Evening 2025-09-02", 5))
    assert entry == Entry(date=P1[0], pair=4, typed_pair=4.0, names="Ann - Bo", line="A", period="1", mp=45.5,
                          code="s1", combi_mp=10.0, max_mp=None, rounds=6, combi_top=10.0, line_top=None,
                          in_doubt=False, ref=("Evening 2025-09-02", 5), problems=())


def test_parse_row_collects_the_problems_in_the_order_of_the_checks():
    entry = parse_row({"date": P1[0], "pair": 4, "line": "C", "mp": "1O3", "code": "x", "max_mp": 0, "rounds": "six",
                       "combi_mp": -1, "line_top": "t"}, settings(), ref=17)
    assert [p.code for p in entry.problems] == ["heeg.line.unknown", "heeg.code.unknown", "heeg.mp.not-a-number",
                                                "heeg.max-mp.invalid", "heeg.rounds.invalid", "heeg.combi-mp.invalid",
                                                "heeg.line-top.invalid"]
    assert {p.field for p in entry.problems} == {"line", "code", "mp", "max_mp", "rounds", "combi_mp", "line_top"}
    assert all(p.evening == P1[0] and p.pair == 4 and p.row == 17 for p in entry.problems)
    assert [p.message for p in entry.problems][:3] == ["line 'C' is not one of A, B",
                                                        "inv code 'x' is not one of 1, 2, 0, a, s, s1, = or blank",
                                                        "MP '1O3' is not a number"]


def test_the_roster_fills_a_blank_line_and_the_entry_knows_its_period():
    s = HeegSettings(periods=settings().periods, roster=(Pair(7, "Pair 7", {"1": "B", "2": "A"}),))
    entry = parse_row({"date": P1[1], "pair": "7", "line": None, "mp": 50, "code": ""}, s)
    assert (entry.pair, entry.line, entry.period, entry.problems) == (7, "B", "1", ())
    assert entry.roster_line(s) == "B"
    stranger = parse_row({"date": P1[1], "pair": 8, "line": None, "mp": 50, "code": ""}, s)
    assert [p.code for p in stranger.problems] == ["heeg.pair.not-on-roster", "heeg.line.empty"]


def test_season_gives_the_values_and_the_standings_of_compute():
    s = settings()
    rows = plain_records(season_frame())
    result = season([parse_row(row, s, ref=i) for i, row in enumerate(rows)], s)
    assert isinstance(result, SeasonResult) and result.problems == []
    values = compute(rows, s)
    assert len(result.values) == len(values)
    for a, b in zip(result.values, values):
        assert a.keys() == b.keys()
        assert all(a[k] == b[k] or (a[k] != a[k] and b[k] != b[k]) for k in a)
    merged = [{**row, **v} for row, v in zip(rows, values)]

    def same(x, y):
        return x.keys() == y.keys() and all(x[k] == y[k] or (isinstance(x[k], float) and math.isnan(x[k])
                                                             and math.isnan(y[k])) for k in x)

    assert all(same(x, y) for x, y in zip(result.periods, period_table(merged, s), strict=True))
    assert all(same(x, y) for x, y in zip(result.year, year_table(merged, s), strict=True))
    assert result.played_days == set(P1) | {d for d in s.evenings}


def test_season_reports_or_raises_every_problem_with_its_concerns():
    s = settings()
    rows = plain_records(season_frame())
    rows[0]["mp"] = "1O3"
    rows[3]["pair"] = rows[2]["pair"]
    entries = [parse_row(row, s, ref=f"r{i}") for i, row in enumerate(rows)]
    result = season(entries, s, raise_problems=False)
    assert result.values == [] and len(result.problems) == 2
    with pytest.raises(HeegInputError) as caught:
        season(entries, s)
    error = caught.value
    assert isinstance(error, ProblemsError) and error.codes() == ["heeg.mp.not-a-number", "heeg.pair.twice"]
    for p in error.problems:
        assert isinstance(p, HeegProblem) and p.code.startswith("heeg.")
        assert set(p.concerns()) <= set(CONCERNS)
    twice = error.problems[1]
    assert twice.concerns() == {"evening": P1[0], "pair": 3, "field": "pair", "row": "r3"}
    assert twice.message == "pair 3 appears twice on this evening (rows r2 and r3)"
    assert str(twice) == "Evening 2025-09-02, pair 3, pair: " + twice.message


def test_settings_problems_come_alone_and_are_coded():
    s = HeegSettings(periods=(Period("1", (P1[0],)), Period("1", (P1[0],), promote=-1)), lines=("A", "A"),
                     rounds=1, boards_per_round=0, combi_top=0, absence_span="year",
                     roster=(Pair(1, "", {"1": "C"}), Pair(1, "", {})))
    with pytest.raises(HeegInputError) as caught:
        compute([{"date": P1[0], "pair": 1, "mp": "x", "code": ""}], s)
    assert caught.value.codes() == [
        "heeg.settings.period-twice", "heeg.settings.promote", "heeg.settings.evening-twice", "heeg.settings.lines",
        "heeg.settings.rounds", "heeg.settings.boards", "heeg.settings.combi-top", "heeg.settings.absence-span",
        "heeg.settings.roster-twice", "heeg.settings.roster-line"]
    assert all(p.where == "Settings" and p.evening is None for p in caught.value.problems)


def test_a_line_too_small_is_known_by_its_code():
    rows = [{"date": P1[0], "line": "B", "pair": p, "mp": 20, "code": "a" if p == 4 else ""} for p in range(1, 5)]
    with pytest.raises(HeegInputError) as caught:
        compute(rows, settings())
    assert {(p.code, p.field, p.value, p.count, p.kind) for p in caught.value.problems} == {
        ("heeg.line.too-small", "line", "B", 3, "small_line")}
    assert [p.row for p in caught.value.problems] == [0, 1, 2]


def test_worksheet_rules_raise_coded_problems():
    from xlbridge.clubs.heeg import heeg_c, heeg_pct, line_top
    from xlbridge.rules.problems import RuleError

    cases = [(lambda: heeg_pct(100, 288, "x"), "heeg.code.unknown", "code"),
             (lambda: heeg_pct("1O3", 288, ""), "heeg.mp.not-a-number", "mp"),
             (lambda: heeg_pct(241, 288, "s"), "heeg.mp.above-sit-out-max", "mp"),
             (lambda: heeg_pct(None, None, "a", egs=120), "heeg.egs.range", "egs"),
             (lambda: heeg_c(20, 12, 0), "heeg.combi-top.invalid", "combi_top"),
             (lambda: line_top(3), "heeg.line.pairs", "pairs")]
    for call, code, field in cases:
        with pytest.raises(RuleError) as caught:
            call()
        assert (caught.value.code, caught.value.problem.field) == (code, field)
