"""The BridgeMania season workbook, headless: the shipped demo holds the engine's
standings, a recalculation writes only computed cells and only what depends on a
change, and every kind of bad input is reported with its sheet and cell."""

from __future__ import annotations

import dataclasses

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.utils import get_column_letter

from xlbridge.cli import main
from xlbridge.clubs.bridgemania import BasePair, Guest, Season, Tournament, recalculate
from xlbridge.clubs.bridgemania.demo import demo_season
from tests.emulate import snapshot
from xlbridge.workbooks.record import RECORD
from xlbridge.files.headless import backup_path, recalc_path
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from tests.bm_layout import (AFTER_COL, AFTER_HEADERS, C_FIRST, COMPUTED, FINAL_HEADERS, GENERAL_COL, GENERAL_HEADERS,
                             LISTS_COL, P_FIRST, SECTIONS, T_FIRST, T_HEADER)
from xlbridge.workbooks.bridgemania import season_workbook
from xlbridge.workbooks.bridgemania.declaration import FIRST_BOARD_COL as B1
from xlbridge.workbooks.bridgemania.declaration import RESULT, RESULT_TITLE
from xlbridge.workbooks.bridgemania.declaration import BLANK_TOURNAMENT, CALENDAR, GUESTS, SEASON
from xlbridge.workbooks.recalc import BookInputError
from xlbridge.workbooks.recalc import recalculate as recalc_book


def summary_numbers(ws) -> list[int]:
    """The Championship's rows 2 and 3: each number before its words (valid tournaments, needed)."""
    assert [ws["B2"].value, ws["B3"].value] == ["Valid tournaments", "Needed to be eligible (half + 1)"] or \
        ws["B2"].value.startswith("Tornei")
    return [ws["A2"].value, ws["A3"].value]


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory, built_once):
    return built_once("bridgemania", tmp_path_factory.mktemp("bm") / "demo.xlsx", language="en")


@pytest.fixture(scope="module")
def engine():
    return recalculate(demo_season())


@pytest.fixture
def demo(demo_file, tmp_path):
    """A fresh copy of the demo workbook (path)."""
    path = tmp_path / "season.xlsx"
    path.write_bytes(demo_file.read_bytes())
    return path


# ------------------------------------------------------------------ reading the sheets back, by header


def pair_rows(ws) -> dict[str, dict[str, object]]:
    """A tournament sheet's pairs: pair id -> {header: value} (typed and computed columns)."""
    headers = {c.column: c.value for c in ws[T_HEADER] if c.value is not None}
    out = {}
    for row in range(T_FIRST, ws.max_row + 1):
        pair = ws.cell(row, 1).value
        if pair in SECTIONS or pair == RESULT_TITLE:  # (the sorted result: its own rows below the pairs)
            break
        if pair is not None:
            out[pair] = {h: ws.cell(row, c).value for c, h in headers.items()}
            out[pair]["row"] = row
    return out


def block(ws, col, headers, first=C_FIRST):
    rows = []
    for row in range(first, ws.max_row + 1):
        line = [ws.cell(row, col + i).value for i in range(len(headers))]
        if all(v is None for v in line):
            break
        rows.append(dict(zip(headers, line)))
    return rows


def assert_holds_engine(wb, standings):
    """Every computed cell of the workbook against the engine's Standings."""
    calendar = {wb["Season"].cell(r, 10).value: r for r in range(5, 5 + len(standings.tournaments))}
    for t in standings.tournaments:
        row = calendar[t.id]
        assert [wb["Season"].cell(row, c).value for c in range(14, 22)] == [
            t.pairs, t.tables, t.boards, t.top, t.penalty_unit, t.base_pairs_playing,
            "yes" if t.championship else "no (friendly)", ", ".join(e.entry for e in t.entries if e.rank == 1)]
        rows = pair_rows(wb[t.id])
        nights = {n.pair: n for n in t.base}
        listed = dict(t.participation)
        for e in t.entries:
            got = rows[e.entry]
            assert (got["Penalty"], got["Absolute"], got["Score %"], got["Rank"], got["TOPs"], got["POTs"],
                    got["Extra"]) == (e.penalty, e.absolute, e.percent, e.rank, e.tops, e.pots, e.extra), (t.id, e)
            pts = (got["F1 PTS"], got["IndyCar PTS"], got["Hybrid PTS"])
            if e.kind == "guest":
                assert pts == (None, None, None)
            elif e.kind == "base":
                n = nights[e.entry]
                assert pts == (n.f1, n.indy, n.hybrid) == (e.f1, e.indy, e.hybrid)
            else:
                assert pts == (e.f1, e.indy, e.hybrid)
            assert got["List"] == listed.get(e.entry)
        for n in t.base:
            got = rows[n.pair]
            assert got["List"] == listed[n.pair]
            assert (got["F1 PTS"], got["IndyCar PTS"], got["Hybrid PTS"]) == (n.f1, n.indy, n.hybrid)
            if n.status == "S":
                assert (got["Score %"], got["TOPs"], got["POTs"], got["Extra"]) == (n.percent, n.tops, n.pots, n.extra)
            elif not n.played:
                assert got["Score %"] is None and got["Rank"] is None
    ws = wb["Championship"]
    assert summary_numbers(ws) == [standings.valid, standings.threshold]
    final = block(ws, 1, FINAL_HEADERS)
    last = {r.pair: r for r in standings.after[-1][1]}
    assert [r["Pair"] for r in final] == [f.pair for f in standings.final]
    for got, f in zip(final, standings.final):
        assert (got["Place"], got["Played"], got["Eligible"], got["Rank F1"], got["Rank IndyCar"], got["Rank Hybrid"],
                got["Points"], got["TOPs"], got["POTs"]) == (
            f.place, f.played, "yes" if f.eligible else "no", f.rank_f1, f.rank_indy, f.rank_hybrid, f.points,
            f.tops, f.pots)
        assert (got["F1 PTS"], got["IndyCar PTS"], got["Hybrid PTS"]) == (
            last[f.pair].f1, last[f.pair].indy, last[f.pair].hybrid)
    general = block(ws, GENERAL_COL, GENERAL_HEADERS)
    assert [(g["Rank"], g["Pair"], g["Kind"], g["Played"], g["Mean %"]) for g in general] == [
        (g.rank, g.pair, g.kind, g.played, g.mean) for g in standings.general]
    after = block(ws, AFTER_COL, AFTER_HEADERS)
    assert [tuple(a.values()) for a in after] == [
        (tid, r.pair, r.played, r.f1, r.indy, r.hybrid, r.rank_f1, r.rank_indy, r.rank_hybrid)
        for tid, rows in standings.after for r in rows]
    ws = wb["Participation"]
    for i, t in enumerate(standings.tournaments):
        col = LISTS_COL + 2 * i
        assert ws.cell(P_FIRST - 1, col).value == t.id
        assert [(ws.cell(r, col).value, ws.cell(r, col + 1).value)
                for r in range(P_FIRST, P_FIRST + len(t.participation))] == list(t.participation)


# ------------------------------------------------------------------ the demo


@pytest.mark.slow
def test_the_demo_workbook_holds_the_engine_standings(demo_file, engine):
    assert_holds_engine(load_workbook(demo_file), engine)


@pytest.mark.slow
def test_the_demo_shows_every_feature(demo_file, engine):
    wb = load_workbook(demo_file)
    assert len(engine.tournaments) >= 12
    assert {"T01", "T14", "Blank tournament", "Championship", "Participation", "How to"} <= set(wb.sheetnames)
    statuses = {row["Status"] for t in engine.tournaments for row in pair_rows(wb[t.id]).values()}
    assert {"waiting", "ill", "unable", "split"} <= statuses
    assert any(len({e.rank for e in t.entries}) < len(t.entries) for t in engine.tournaments)  # ties
    assert any(e.kind == "guest" for t in engine.tournaments for e in t.entries)
    assert pair_rows(wb["T07"])["S1"]["Players"] == "Barbara / Sergio"
    t05 = [[c.value for c in row] for row in wb["T05"].iter_rows()]
    assert ["RU", 3, "board 3 misboarded"] in [line[:3] for line in t05]  # a penalty
    assert [3, "partial", "RU, AF", "RU, OSP1, CT, PR"] in [line[:4] for line in t05]  # a rectification
    assert pair_rows(wb["T05"])["RU"]["Penalty"] == -2
    # the next participation list (typed next host and number)
    ws = wb["Participation"]
    host = ws["B3"].value
    assert (ws["B8"].value, ws["C8"].value) == (host, "O")
    assert sum(ws.cell(r, 3).value in ("O", "P") for r in range(8, 19)) == ws["B4"].value


@pytest.mark.slow
def test_layout_headers_frozen_formats(demo_file):
    wb = load_workbook(demo_file)
    ws = wb["T03"]
    headers = [c.value for c in ws[T_HEADER]]
    first = headers.index(COMPUTED[0]) + 1
    # Pair | Status | Players | gap | boards from E | gap | per-pair columns; the sorted result below the pairs
    assert headers[:6] == ["Pair", "Status", "Players", None, 1, 2] and B1 == 5 and headers[first - 2] is None
    assert headers[first - 1:] == COMPUTED
    title = next(r for r in range(T_FIRST, ws.max_row + 1) if ws.cell(r, 1).value == RESULT_TITLE)
    assert [c.value for c in ws[title + 1]][:8] == RESULT.headers() == [
        "Rank", "Pair", "Name", "Status", "Score %", "F1 PTS", "IndyCar PTS", "Hybrid PTS"]
    assert ws.freeze_panes == "D9"  # Pair, Status, Players stay in view while the boards are typed
    assert ws.cell(T_FIRST, first + COMPUTED.index("Score %")).number_format == "0.00"
    assert ws.cell(T_FIRST, first + COMPUTED.index("F1 PTS")).number_format == "General"
    assert ws.cell(title + 2, 5).number_format == "0.00" and ws.cell(title + 2, 6).number_format == "General"
    typed, computed = ws.cell(T_FIRST, B1).fill.start_color.rgb, ws.cell(T_FIRST, first).fill.start_color.rgb
    assert typed == "FFFFF2CC" and computed == "FFDDEBF7" and ws.cell(title + 2, 5).fill.start_color.rgb == computed
    assert ws.cell(title + 1, 5).fill.start_color.rgb == ws.cell(T_HEADER, first).fill.start_color.rgb
    # what prints: the title, header and result, portrait, one page wide, the tournament above
    penalties = next(r for r in range(T_FIRST, ws.max_row + 1) if ws.cell(r, 1).value == "Penalties")
    assert ws.print_area == f"'T03'!$A${title}:$H${penalties - 2}"  # as many rows as laid out for pairs
    assert ws.page_setup.orientation == "portrait" and ws.page_setup.fitToWidth == 1
    assert ws.print_title_rows == f"${title}:${title + 1}" and ws.oddHeader.center.text == "&A"
    assert ws.cell(T_HEADER, 1).fill.start_color.rgb != ws.cell(T_HEADER, first).fill.start_color.rgb
    assert ws.column_dimensions["C"].width == 20  # Players, and the result's Name below them (the wider need)
    champ = wb["Championship"]
    assert champ.freeze_panes == "A6" and champ["F6"].number_format == "General"
    assert wb["Season"].freeze_panes == "A5"


def test_blank_template(tmp_path):
    assert main(["new", "bridgemania", str(tmp_path / "t.xlsx"), "--blank", "--lang", "en"]) == 0
    wb = load_workbook(tmp_path / "t.xlsx")
    # last, hidden, the record of the recalculation it was built with (workbooks/record.py)
    assert wb.sheetnames == ["Season", "Messages", "Blank tournament", "Championship", "Chart", "Participation", "How to", RECORD]
    assert [wb["Season"].cell(4, c).value for c in (1, 2, 3, 4, 5, 7, 8, 10, 11, 12)] == [
        "Pair", "Player 1", "Player 2", "Name", "Lot", "Guest", "Name", "Tournament", "Date", "Host"]
    assert wb["Season"]["A5"].value is None


@pytest.mark.slow
def test_a_blank_season_recalculated_says_nothing_is_filled_in(tmp_path):
    """Nothing typed at all: no problem, nothing computed, "nothing is filled in yet" (as Heeg; issue 16,
    point 11); the file is a season still."""
    from tests.alerts import is_done_message
    from xlbridge.workbooks.messages import done_text

    path = tmp_path / "t.xlsx"
    assert main(["new", "bridgemania", str(path), "--blank", "--lang", "en"]) == 0
    report = recalc_path(path)
    assert (report.kind, report.results, report.changes, report.warnings) == ("bridgemania", 0, [], [])
    assert is_done_message(done_text(report), empty=True)
    assert done_text(report).startswith("Nothing is filled in yet: type the results in the yellow cells")
    wb = load_workbook(path)
    assert wb.sheetnames == ["Season", "Messages", "Blank tournament", "Championship", "Chart", "Participation", "How to", "xlbridge"]
    assert wb["xlbridge"].sheet_state == "hidden"  # the record of this recalculation


@pytest.mark.parametrize("typed", ["tournament", "guest"])
@pytest.mark.slow
def test_tournaments_or_guests_without_base_pairs_are_a_problem(tmp_path, typed):
    """Something typed but no base pair: the located problem, at the first base pair's cell."""
    path = tmp_path / "t.xlsx"
    assert main(["new", "bridgemania", str(path), "--blank", "--lang", "en"]) == 0
    wb = load_workbook(path)
    season = wb[SEASON]
    if typed == "tournament":
        wb.copy_worksheet(wb[BLANK_TOURNAMENT]).title = "T1"
        row = CALENDAR.first_row
        season.cell(row, CALENDAR.col("tournament")).value = "T1"
        season.cell(row, CALENDAR.col("date")).value = "2026-10-07"
    else:
        season.cell(GUESTS.first_row, GUESTS.col("guest")).value = "G1"
        season.cell(GUESTS.first_row, GUESTS.col("name")).value = "Barbara / Sergio"
    wb.save(path)
    with pytest.raises(BookInputError) as caught:
        recalc_path(path)
    assert "Season, A5: no base pairs typed: one row per base pair (pair id, player 1, player 2)" in [
        str(p) for p in caught.value.problems]


# ------------------------------------------------------------------ recalculation


@pytest.mark.slow
def test_recalculating_twice_changes_nothing(demo):
    before = snapshot(load_workbook(demo))
    assert RECORD in before  # built with the record of its own recalculation
    for when in ("2026-11-30 10:00", "2026-11-30 10:01"):
        report = recalc_path(demo, when=when)
        assert report.changes == [] and report.typed == []
        wb = load_workbook(demo)
        assert snapshot(wb) == before and "Corrections" not in wb.sheetnames  # the record included


@pytest.mark.slow
def test_cleared_computed_cells_are_refilled_exactly(demo):
    before = snapshot(load_workbook(demo))
    wb = load_workbook(demo)
    for t in ("T01", "T07"):
        ws = wb[t]
        first = [c.value for c in ws[T_HEADER]].index(COMPUTED[0]) + 1
        for row in range(T_FIRST, T_FIRST + 20):
            for col in range(first, first + len(COMPUTED)):
                ws.cell(row, col).value = None
    for row in range(6, 200):
        for col in range(1, 32):
            wb["Championship"].cell(row, col).value = None
    wb.save(demo)
    report = recalc_path(demo)
    assert report.changes == [] and report.typed == []  # filling empty cells is not a correction
    assert snapshot(load_workbook(demo)) == before  # the record included: the same cells, the same record


def late_correction(ws):
    """Board 1: +2 to one pair and -2 to another, so that the board still adds up."""
    top = ws["B4"].value
    rows = [r for r in range(T_FIRST, T_FIRST + 30) if isinstance(ws.cell(r, B1).value, (int, float))]
    up = next(r for r in rows if ws.cell(r, B1).value <= top - 2)
    down = next(r for r in rows if r != up and ws.cell(r, B1).value >= 2)
    ws.cell(up, B1).value += 2
    ws.cell(down, B1).value -= 2
    return ws.cell(up, 1).value, ws.cell(down, 1).value


@pytest.mark.slow
def test_a_late_correction_changes_exactly_what_depends_on_it(demo):
    before = snapshot(load_workbook(demo))
    wb = load_workbook(demo)
    up, down = late_correction(wb["T14"])
    wb.save(demo)
    report = recalc_path(demo, when="2026-11-30 10:00")
    wb = load_workbook(demo)
    after = snapshot(wb)
    # the engine on the corrected season
    season = demo_season()
    tournaments = list(season.tournaments)
    t14 = tournaments[-1]
    scores = {e: list(row) for e, row in t14.scores.items()}
    scores[up][0] += 2
    scores[down][0] -= 2
    tournaments[-1] = dataclasses.replace(t14, scores=scores)
    expected = recalculate(dataclasses.replace(season, tournaments=tuple(tournaments)))
    assert_holds_engine(wb, expected)
    # nothing else moved: earlier tournaments and the participation lists are as they were
    changed_sheets = {name for name in before if after.get(name) != before[name]}
    assert changed_sheets <= {"T14", "Championship", "Season", RECORD}
    assert RECORD in changed_sheets  # the record now holds the corrected scores (program data: not compared by cell)
    changed_sheets.discard(RECORD)
    assert "Corrections" in wb.sheetnames
    changed = []
    for name in changed_sheets:
        old, new = before[name], after[name]
        for r in range(max(len(old), len(new))):
            a = old[r] if r < len(old) else []
            b = new[r] if r < len(new) else []
            for c in range(max(len(a), len(b))):
                x = a[c] if c < len(a) else (None, None)
                y = b[c] if c < len(b) else (None, None)
                if x != y:
                    changed.append((name, r + 1, c + 1))
    title = next(r for r in range(T_FIRST, wb["T14"].max_row + 1) if wb["T14"].cell(r, 1).value == RESULT_TITLE)
    typed = [(name, r, c) for name, r, c in changed if name == "T14" and c == B1 and r < title]
    assert len(typed) == 2  # the two corrected scores
    # the built demo holds its record: the two are the scorer's changes, listed first on Corrections
    assert sorted((c.sheet, c.cell) for c in report.typed) == sorted(
        (name, f"{get_column_letter(c)}{r}") for name, r, c in typed)
    listed = [(row[1].value, row[2].value) for row in wb["Corrections"].iter_rows(min_row=2)]
    assert listed[:2] == [(c.sheet, c.cell) for c in report.typed]
    assert [c.column for c in report.typed] == ["1", "1"]  # the board's number heads its column (an int cell)
    # every other changed cell is a computed one, and each is listed on the Corrections sheet, but for
    # the standings and the sorted result (they follow from the results, as a Heeg period's do)
    result = [(name, r, c) for name, r, c in changed if name == "T14" and r > title]
    assert result  # the result re-sorted
    assert len(report.changes) == len([c for c in changed if c[0] != "Championship"]) - 2 - len(result)
    assert any(c[0] == "Championship" for c in changed)
    assert not any(c.sheet == "Championship" for c in report.changes)
    first = [c.value for c in wb["T14"][T_HEADER]].index(COMPUTED[0]) + 1
    assert all(c >= first for name, r, c in changed if name == "T14" and c != B1 and (name, r, c) not in result)
    assert all(c >= 14 for name, r, c in changed if name == "Season")


@pytest.mark.slow
def test_one_score_changed_alone_does_not_add_up(demo):
    wb = load_workbook(demo)
    ws = wb["T14"]
    ws["E9"] = ws["E9"].value + 2 if ws["E9"].value <= ws["B4"].value - 2 else ws["E9"].value - 2
    wb.save(demo)
    before = demo.read_bytes()
    with pytest.raises(BookInputError) as caught:
        recalc_path(demo)
    (problem,) = caught.value.problems
    assert str(problem).startswith("T14, E8: board 1: the scores add up to ")  # board 1's header
    assert demo.read_bytes() == before and not backup_path(demo).exists()


# ------------------------------------------------------------------ hand-made seasons

Q1 = [6, 0, 4, 2, 2, 4, 0, 6]
Q2 = [0, 6, 2, 4, 4, 2, 6, 0]
Q3 = [6, 0, 6, 0, 0, 6, 0, 6]
BOARDS = [Q1] * 7 + [Q2] * 6 + [Q3]  # 14 boards, 4 rows, TOP 6


def small_season(names=None, guest=("G1", "Guest pair")):
    """Base pairs A..I: A..G and a guest play, H waits, I is unable (never eligible)."""
    base = tuple(BasePair(x, (x.lower() + "1", x.lower() + "2"), (names or {}).get(x, f"Pair {x}"))
                 for x in "ABCDEFGHI")
    slots = ["A", "B", "C", "D", "E", "F", "G", guest[0]]

    def tournament(tid, host):
        return Tournament(id=tid, host=host, date="2020-01-10", top=6,
                          scores={name: [b[i] for b in BOARDS] for i, name in enumerate(slots)},
                          status={"H": "waiting", "I": "unable"})

    return Season(base_pairs=base, tournaments=(tournament("T1", "A"), tournament("T2", "B")),
                  guests=(Guest(*guest),))


def test_a_hand_made_season_and_ineligible_pairs(tmp_path):
    path = tmp_path / "small.xlsx"
    typed = season_workbook(small_season())
    recalc_book(OpenpyxlBook(typed))
    typed.save(path)
    wb = load_workbook(path)
    assert_holds_engine(wb, recalculate(small_season()))
    final = block(wb["Championship"], 1, FINAL_HEADERS)
    assert {r["Pair"]: r["Eligible"] for r in final}["I"] == "no"
    row = C_FIRST + [r["Pair"] for r in final].index("I")
    assert wb["Championship"].cell(row, 1).value is None  # no place
    assert wb["Championship"].cell(row, 2).fill.start_color.rgb == "FFD9D9D9"  # marked grey
    assert wb["Championship"].cell(C_FIRST, 2).fill.start_color.rgb == "FFDDEBF7"


def test_a_name_typed_as_a_formula_is_a_problem_at_its_cell(tmp_path):
    """Issue 25, point 2: a Name built by a formula became the pair's name, as its text, everywhere."""
    path = tmp_path / "formula.xlsx"
    season_workbook(small_season()).save(path)
    wb = load_workbook(path)
    ref = next(f"D{r}" for r in range(5, 20) if wb["Season"][f"D{r}"].value == "Pair A")
    wb["Season"][ref] = f'=B{ref[1:]}&" & "&C{ref[1:]}'
    with pytest.raises(BookInputError) as caught:
        recalc_book(OpenpyxlBook(wb))
    assert [(p.sheet, p.cell, p.code) for p in caught.value.problems] == [("Season", ref, "cell.formula")]


def test_formula_like_text_is_copied_as_text(tmp_path):
    season = small_season(names={"A": "+Bianchi", "B": "-Rossi-"}, guest=("@casa", "+ospiti"))
    path = tmp_path / "names.xlsx"
    season_workbook(season).save(path)
    recalc_path(path)
    wb = load_workbook(path)
    final = {wb["Championship"].cell(r, 2).value: wb["Championship"].cell(r, 3) for r in range(C_FIRST, C_FIRST + 9)}
    assert final["A"].value == "+Bianchi" and final["A"].data_type == "s"
    assert final["B"].value == "-Rossi-" and final["B"].data_type == "s"
    general = [wb["Championship"].cell(r, GENERAL_COL + 1) for r in range(C_FIRST, C_FIRST + 9)]
    guest = next(c for c in general if c.value == "@casa")
    assert guest.data_type == "s"
    winners = wb["Season"]["U5"]
    assert "@casa" in winners.value and winners.data_type == "s"


# ------------------------------------------------------------------ bad input (issue 7)


def problems_of(path):
    with pytest.raises(BookInputError) as caught:
        recalc_book(OpenpyxlBook(load_workbook(path)))
    return [str(p) for p in caught.value.problems]


def row_of(ws, pair):
    return pair_rows(ws)[pair]["row"]


def edit(path, change):
    wb = load_workbook(path)
    change(wb)
    wb.save(path)
    return path


@pytest.mark.slow
def test_text_and_negative_scores(demo):
    def change(wb):
        wb["T03"]["P9"] = "1O"  # boards 3 and 4 (board 1 in N)
        wb["T03"]["Q9"] = -2
        wb["T10"]["O10"] = None
    edit(demo, change)
    assert problems_of(demo) == [
        "T03, P9: score '1O' is not a number (type R for a sit-out)",
        "T03, Q9: score -2 is negative",
        "T10, O10: the score is empty (type the score, or R for a sit-out)",
    ]


@pytest.mark.slow
def test_score_above_the_top_and_a_board_that_does_not_add_up(demo):
    edit(demo, lambda wb: wb["T06"].__setitem__("E9", 6))
    found = problems_of(demo)
    assert found[0] == "T06, E9: score 6 is above the TOP 4"
    assert found[1].startswith("T06, E8: board 1: the scores add up to")


@pytest.mark.slow
def test_unknown_pair_and_pair_twice(demo):
    def change(wb):
        ws = wb["T05"]
        ws["A20"], ws["E20"] = "ZZ", 4
        ws["A21"] = "PR"
        for col in [2, 3, *range(B1, B1 + 14)]:
            ws.cell(21, col).value = ws.cell(row_of(ws, "PR"), col).value
    edit(demo, change)
    assert problems_of(demo) == [
        "T05, A21: pair PR appears twice (also row 14)",
        "T05, A20: ZZ: unknown pair: not a base pair, a registered guest or a split pair",
        # every problem at once (issue 15, point 6): ZZ's stray score on board 1 makes its sum wrong
        "T05, E8: board 1: the scores add up to 22 on 8 results; a board's two lines must add up to rows x TOP = 24",
    ]


@pytest.mark.slow
def test_statuses(demo):
    def change(wb):
        ws = wb["T01"]
        ws.cell(row_of(ws, "CT"), 2).value = None  # ill: cleared
        ws.cell(row_of(ws, "AF"), 2).value = "sick"
        ws.cell(row_of(ws, "GM"), 2).value = "split"
        ws.cell(row_of(ws, "BE"), 2).value = "waiting"  # but BE played
    edit(demo, change)
    ws = load_workbook(demo)["T01"]
    assert problems_of(demo) == [
        f"T01, B{row_of(ws, 'BE')}: BE: the status says 'waiting' but board scores are typed: clear the scores or "
        "the status",
        f"T01, B{row_of(ws, 'GM')}: GM: typed split, but its two players are not both in temporary pairs of this "
        "tournament (type them in Players of the temporary pairs)",
        f"T01, B{row_of(ws, 'AF')}: AF: status 'sick' is not waiting, ill or unable",
        f"T01, B{row_of(ws, 'CT')}: CT: did not play and has no status (waiting, ill or unable)",
    ]


@pytest.mark.slow
def test_invalid_tournaments(demo):
    def change(wb):
        wb["T11"]["B3"] = "mitchell"
        ws = wb["T06"]
        for row in range(T_FIRST, T_FIRST + 20):
            for col in range(B1 + 13, B1 + 20):  # keep 13 boards
                ws.cell(row, col).value = None
    edit(demo, change)
    assert problems_of(demo) == [
        "T06, B5: not valid: 13 boards, at least 14 needed (or type no in Championship (B5) to keep it as a friendly)",
        "T11, B3: not valid: movement 'mitchell' has no single ranking (Howell or scrambled Mitchell); type no in "
        "Championship (B5) to keep it as a friendly",
    ]
    # a friendly is scored but not counted
    edit(demo, lambda wb: (wb["T06"].__setitem__("B5", "no"), wb["T11"].__setitem__("B3", "mitchell scrambled")))
    recalc_path(demo)
    wb = load_workbook(demo)
    assert wb["Season"]["T10"].value == "no (friendly)"
    assert summary_numbers(wb["Championship"])[0] == 13


@pytest.mark.slow
def test_missing_and_unlisted_tournament_sheets(demo):
    def change(wb):
        del wb["T05"]
        wb.copy_worksheet(wb["T01"]).title = "T15"
    edit(demo, change)
    assert problems_of(demo) == [
        "Season, J9: no sheet named 'T05': every tournament of the list needs its own sheet (copy 'Blank tournament' "
        "and rename it)",
        "T15, A1: a tournament sheet that is not in the tournament list of Season (add 'T15' to column J there, or "
        "delete the sheet)",
    ]


@pytest.mark.slow
def test_renamed_headers_and_sections(demo):
    def change(wb):
        wb["Season"]["C4"] = "Giocatore 2"
        headers = [c.value for c in wb["T03"][T_HEADER]]
        first = headers.index(COMPUTED[0])  # the per-pair columns (the sorted result's header is rewritten)
        wb["T03"].cell(T_HEADER, headers.index("Score %", first) + 1).value = "Pct"
        ws = wb["T04"]
        row = next(r for r in range(T_FIRST, ws.max_row + 1) if ws.cell(r, 1).value == "Penalties")
        ws.cell(row, 1).value = "Penalità"
    edit(demo, change)
    assert problems_of(demo) == [
        "Season, C4: expected the header 'Player 2'; found 'Giocatore 2'"]
    edit(demo, lambda wb: wb["Season"].__setitem__("C4", "Player 2"))
    assert problems_of(demo) == [
        "T03, AD8: expected the header 'Score %'; found 'Pct'",
        "T04, A9: the section 'Penalties' is missing: its title should be in column A below the pairs (renamed or "
        "deleted?)",
    ]


@pytest.mark.slow
def test_season_sheet_problems(demo):
    def change(wb):
        ws = wb["Season"]
        ws["L5"] = "XX"  # host of T01
        ws["E6"] = 1  # lot twice
        ws["C7"] = None  # a player missing
        ws["G9"] = "OSP1"  # a guest twice
    edit(demo, change)
    assert problems_of(demo) == [
        "Season, C7: base pair GM: player 2 is empty",
        "Season, E6: lot 1 is also in row 5",
        "Season, G9: OSP1: guest id appears twice",
        "Season, L5: T01: the host is not a base pair",
    ]


@pytest.mark.slow
def test_penalties_rectifications_and_the_extra_point(demo):
    def change(wb):
        ws = wb["T05"]
        rows = {ws.cell(r, 1).value: r for r in range(T_FIRST, ws.max_row + 1)}
        ws.cell(rows["Penalties"] + 4, 1).value = "MV"  # unable that night
        ws.cell(rows["Rectifications"] + 2, 3).value = "RU, GM"  # the annulled row: GM sat out board 3
        ws.cell(rows["Rectifications"] + 3, 1).value = "three"
        ws["B6"] = "CT"  # bridge scores are typed too
    edit(demo, change)
    found = problems_of(demo)
    ws = load_workbook(demo)["T05"]
    rows = {ws.cell(r, 1).value: r for r in range(T_FIRST, ws.max_row + 1)}
    assert found == [
        f"T05, A{rows['Rectifications'] + 3}: rectification: board 'three' is not a board number",
        "T05, B6: type either the bridge scores (the extra PTS is then computed) or the pairs in 'Extra PTS to', "
        "not both",
        f"T05, A{rows['Penalties'] + 4}: MV: penalty for a pair that is not in the tournament",
        f"T05, C{rows['Rectifications'] + 2}: board 3: rectification: the annulled row must be two entries that "
        "played the board; got ['RU', 'GM']",
    ]


@pytest.mark.slow
def test_empty_workbooks(tmp_path, built_once):
    path = tmp_path / "empty.xlsx"
    Workbook().save(path)
    with pytest.raises(BookInputError, match=r"^1 problem in the workbook: workbook: not an xlbridge workbook"):
        recalc_path(path)
    # the season sheet deleted: still recognised by its tournament sheets, and said so
    demo = built_once("bridgemania", tmp_path / "d.xlsx", language="en")
    edit(demo, lambda wb: wb.remove(wb["Season"]))
    assert problems_of(demo)[0].startswith("Season: the season sheet is missing")


@pytest.mark.slow
def test_cli_reports_every_problem_and_writes_nothing(demo, capsys):
    edit(demo, lambda wb: (wb["T03"].__setitem__("P9", "1O"), wb["T03"].__setitem__("Q9", "x")))
    before = demo.read_bytes()
    assert main(["recalc", str(demo)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "xlbridge: error: T03, P9: score '1O' is not a number (type R for a sit-out)",
        "xlbridge: error: T03, Q9: score 'x' is not a number (type R for a sit-out)",
        f"xlbridge: nothing was written: fix the 2 problems at their cells, then Recalculate season again "
        f"(xlbridge recalc {demo})",
    ]
    assert demo.read_bytes() == before


@pytest.mark.slow
def test_a_new_tournament_from_the_blank_sheet(demo, engine):
    """The scorer's way: copy 'Blank tournament', rename it, list it, type the night."""
    wb = load_workbook(demo)
    new = wb.copy_worksheet(wb["Blank tournament"])
    new.title = "T15"
    new["A1"] = "BridgeMania tournament T15"
    source = wb["T06"]  # the same night again, without its bridge scores
    rows = pair_rows(new)
    for pair, got in pair_rows(source).items():
        target = rows[pair]["row"] if pair in rows else max(r["row"] for r in rows.values()) + 1
        new.cell(target, 1).value = pair
        for col in [2, 3, *range(B1, B1 + 20)]:
            new.cell(target, col).value = source.cell(got["row"], col).value
    season = wb["Season"]
    season["J19"], season["K19"], season["L19"] = "T15", "2020-07-10", "PR"
    wb.save(demo)
    recalc_path(demo)
    wb = load_workbook(demo)
    t06 = next(t for t in engine.tournaments if t.id == "T06")
    got = pair_rows(wb["T15"])
    assert [e.entry for e in t06.entries if got[e.entry]["Rank"] != e.rank] == []
    assert all(got[e.entry]["Score %"] == e.percent for e in t06.entries)
    assert got["PR"]["List"] == "O"
    assert [wb["Season"].cell(19, c).value for c in (14, 15, 16, 17)] == [6, 3, 20, 4]
    assert summary_numbers(wb["Championship"])[0] == 15 and wb["Participation"]["AG7"].value == "T15"


@pytest.mark.slow
def test_a_status_typed_for_a_pair_that_played_is_one_message(demo):
    """The scores stay in for the board checks: no board reports a follow-on."""
    def change(wb):
        ws = wb["T01"]
        ws.cell(row_of(ws, "BE"), 2).value = "ill"
    edit(demo, change)
    ws = load_workbook(demo)["T01"]
    assert problems_of(demo) == [
        f"T01, B{row_of(ws, 'BE')}: BE: the status says 'ill' but board scores are typed: clear the scores or "
        "the status",
    ]


def test_a_stray_score_on_the_row_of_a_pair_that_did_not_play_is_one_message(demo):
    """One score typed on the row of CT, ill on T01: the status problem, then 13 'the score is empty' at the
    row's other boards (pointing the scorer at the wrong row) and a board whose results no longer add up. The
    errors catalogue promises the status problem alone; a whole row typed (it played) still checks the boards."""
    wb = load_workbook(demo)
    ws = wb["T01"]
    assert [ws["A15"].value, ws["B15"].value] == ["CT", "ill"]
    ws["E15"] = 4
    with pytest.raises(BookInputError) as caught:
        recalc_book(OpenpyxlBook(wb))
    assert [(p.sheet, p.cell, p.code) for p in caught.value.problems] == [("T01", "B15", "bm.status.with-scores")]
