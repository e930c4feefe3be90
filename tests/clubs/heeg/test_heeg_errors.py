"""Bad input: every problem of a run is collected in one HeegInputError whose
message names the evening, the pair, the column and the value."""

import datetime as dt
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the shared hand-made season (heeg_season_fixture.py beside this file)
from heeg_season_fixture import P1, P2, season_frame, settings  # noqa: E402
from xlbridge.rules.base import RuleError  # noqa: E402
from xlbridge.clubs.heeg import HeegInputError, HeegSettings, Pair, Period, recalculate  # noqa: E402


def _set(frame, day, pair, **values):
    mask = (frame["date"] == day) & (frame["pair"] == pair)
    assert mask.sum() == 1
    for column, value in values.items():
        if column in ("mp", "code") and frame[column].dtype != object:
            frame[column] = frame[column].astype(object)
        frame.loc[mask, column] = value
    return frame


def _problems(frame, s=None):
    with pytest.raises(HeegInputError) as caught:
        recalculate(frame, s or settings())
    return caught.value


def test_all_problems_of_a_run_are_reported_together():
    frame = season_frame()
    frame["mp"] = frame["mp"].astype(object)
    frame["code"] = frame["code"].astype(object)
    _set(frame, P1[0], 4, mp="1O3")  # text
    _set(frame, P1[1], 7, mp=-5)  # negative
    _set(frame, P1[2], 5, mp=130)  # above max 100
    _set(frame, P1[3], 6, code="x")  # unknown code
    _set(frame, P2[0], 7, line="C")  # unknown line
    _set(frame, P2[1], 3, mp=None)  # played, MP missing
    duplicate = frame[(frame["date"] == P1[0]) & (frame["pair"] == 8)]
    outside = duplicate.assign(date=dt.date(2025, 12, 25), period="2")
    frame = pd.concat([frame, duplicate, outside], ignore_index=True)

    error = _problems(frame)
    assert isinstance(error, RuleError) and isinstance(error, ValueError)
    found = {(p.date, p.pair, p.column) for p in error.problems}
    assert found == {
        (P1[0], 4, "mp"),
        (P1[1], 7, "mp"),
        (P1[2], 5, "mp"),
        (P1[3], 6, "code"),
        (P2[0], 7, "line"),
        (P1[0], 8, "pair"),
        (dt.date(2025, 12, 25), 8, "date"),
        (P2[1], 3, "mp"),
    }, error
    text = str(error)
    assert text.startswith("8 problems in the Heeg season input:")
    assert "Evening 2025-09-02, pair 4, mp: MP '1O3' is not a number" in text
    assert "Evening 2025-09-09, pair 7, mp: MP -5 is negative" in text
    assert "Evening 2025-09-16, pair 5, mp: MP 130 is above the evening's maximum 100" in text
    assert "Evening 2025-09-23, pair 6, code: inv code 'x' is not one of 1, 2, 0, a, s, s1, = or blank" in text
    assert "Evening 2025-09-30, pair 7, line: line 'C' is not one of A, B" in text
    assert "Evening 2025-09-02, pair 8, pair: pair 8 appears twice on this evening" in text
    assert "Evening 2025-12-25, pair 8, date: evening 2025-12-25 is in no period of the season" in text
    assert "Evening 2025-10-07, pair 3, mp: MP is empty; type the MP or an inv code" in text
    # the index label of the offending input row travels with the problem
    rows = {p.column: p.row for p in error.problems if p.pair == 4}
    assert rows == {"mp": frame.index[(frame["date"] == P1[0]) & (frame["pair"] == 4)][0]}


def test_missing_mp_alone():
    frame = season_frame()
    _set(frame, P2[1], 3, mp=None)
    error = _problems(frame)
    assert [(p.date, p.pair, p.column) for p in error.problems] == [(P2[1], 3, "mp")]
    assert "Evening 2025-10-07, pair 3, mp: MP is empty; type the MP or an inv code" in str(error)


def test_sit_out_correction_may_not_exceed_the_maximum_and_combi_over_max():
    frame = season_frame()
    frame["combi_mp"] = None
    _set(frame, P1[0], 4, combi_mp=41)  # combi table max is 4 boards x top 10 = 40
    error = _problems(frame)
    assert "Evening 2025-09-02, pair 4, combi_mp: combi MP 41 is above the combi table's maximum 40" in str(error)


def test_period_mismatch_roster_and_line_changes_within_a_period():
    frame = season_frame()
    _set(frame, P1[1], 1, period="2")
    roster = tuple(Pair(p, f"Pair {p}", {"1": "A" if p <= 4 else "B", "2": "A" if p in (1, 3, 4, 5) else "B"}) for p in range(1, 8))
    s = HeegSettings(periods=settings().periods, roster=roster)
    error = _problems(frame, s)
    text = str(error)
    assert "Evening 2025-09-09, pair 1, period: period '2' does not match the settings: evening 2025-09-09 is in period 1" in text
    assert "pair 8, pair: pair 8 is not on the roster" in text
    assert sum(p.column == "pair" for p in error.problems) == 8  # pair 8 on each of the 8 evenings

    moved = season_frame()
    _set(moved, P1[2], 4, line="B")
    text = str(_problems(moved))
    assert "pair 4 plays in lines A and B within period 1" in text


def test_roster_fills_a_blank_line_and_flags_a_wrong_one():
    frame = season_frame()
    roster = tuple(Pair(p, f"Pair {p}", {"1": "A" if p <= 4 else "B", "2": "A" if p in (1, 3, 4, 5) else "B"}) for p in range(1, 9))
    s = HeegSettings(periods=settings().periods, roster=roster)
    blank = frame.assign(line="")
    assert recalculate(blank, s)["pct"].equals(recalculate(frame, settings())["pct"])
    _set(frame, P1[0], 5, line="A")
    assert "line 'A' differs from the roster, which puts pair 5 in line B in period 1" in str(_problems(frame, s))


def test_bad_settings_are_problems_too():
    s = HeegSettings(periods=(Period("1", (P1[0],)), Period("2", (P1[0],))), lines=("A", "A"), rounds=1, absence_span="year")
    error = _problems(season_frame(), s)
    text = str(error)
    assert "evening 2025-09-02 is in period 1 and in period 2" in text
    assert "lines must be distinct" in text
    assert "rounds per evening must be a whole number from 2; got 1" in text
    assert "absence_span must be 'period' or 'season'; got 'year'" in text
    assert all(p.where == "Settings" for p in error.problems)


def test_text_numbers_and_excel_codes_are_accepted():
    frame = season_frame()
    frame["mp"] = frame["mp"].astype(object)
    frame["code"] = frame["code"].astype(object)
    _set(frame, P1[0], 4, mp="45")
    _set(frame, P1[2], 1, code=1.0)  # Excel stores a typed 1 as a number
    _set(frame, P1[3], 1, code="A")
    out = recalculate(frame, settings())
    assert out["pct"].equals(recalculate(season_frame(), settings())["pct"])


def test_missing_required_column():
    error = _problems(season_frame().drop(columns=["mp"]))
    assert "the results have no column 'mp'" in str(error)


def test_not_a_dataframe():
    with pytest.raises(RuleError, match="DataFrame"):
        recalculate([{"date": P1[0]}], settings())


def test_a_row_with_a_problem_still_counts_for_its_line_top():
    """A mistyped MP (or code) leaves only that row out of the scoring: the pair is
    present, so the line keeps its top and the other rows no follow-on message."""
    day = P1[0]
    rows = [{"date": day, "line": "A", "pair": p, "mp": 120, "code": ""} for p in range(1, 15)]
    rows[0]["mp"] = 250  # fine with 14 pairs (max 6 x 4 x 12 = 288), not with 13 (240)
    for typo in ({"mp": "1O3"}, {"mp": -5}, {"code": "x"}):
        frame = pd.DataFrame([dict(r) for r in rows]).astype({"mp": object, "code": object})
        frame.loc[frame["pair"] == 7, list(typo)] = list(typo.values())
        error = _problems(frame)
        assert [(p.pair, p.column) for p in error.problems] == [(7, next(iter(typo)))], error
    # an absent pair does not count: 13 at the tables -> top 10, maximum 240
    frame = pd.DataFrame([dict(r) for r in rows]).astype({"mp": object, "code": object})
    frame.loc[frame["pair"] == 7, ["mp", "code"]] = [None, "a"]
    assert [p.message for p in _problems(frame).problems] == ["MP 250 is above the evening's maximum 240"]


def test_rows_in_doubt_count_for_the_line_but_are_not_checked():
    """``in_doubt``: a row whose problem the caller reported already (the workbook)."""
    day = P1[0]
    rows = [{"date": day, "line": "B", "pair": p, "mp": 20, "code": "", "in_doubt": False} for p in range(1, 5)]
    rows[3].update(mp="?", pair=None, in_doubt=True)  # three pairs scored, the fourth in doubt
    out = recalculate(pd.DataFrame(rows), settings())
    assert list(out["own_top"][:3]) == [2, 2, 2] and not out["played"].iloc[3]
    rows[3]["code"] = "a"  # absent: not at a table -> a line of 3 has no top
    error = _problems(pd.DataFrame(rows))
    assert {p.kind for p in error.problems} == {"small_line"} and {p.count for p in error.problems} == {3}
    assert "line B has only 3 pairs playing" in str(error)
