"""Results a club can print (issue 16, points 4-6): the Corrections sheet every kind
shares, and the print setup of the sheets a recalculation adds."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from xlbridge.files.headless import recalc_path
from xlbridge.workbooks.write import CORRECTIONS_SPEC

WHEN = "2026-11-30 12:00"


def _late_heeg_correction(path):
    """Six more MP in R1 of the first pair of the first evening of the Heeg demo."""
    wb = load_workbook(path)
    ws = next(ws for ws in wb.worksheets if ws.title.startswith("Evening "))
    ws["D2"] = ws["D2"].value + 6
    wb.save(path)
    return ws.title


@pytest.mark.slow
def test_corrections_sheet_is_readable_and_next_to_the_season(tmp_path, built_once):
    path = built_once("heeg", tmp_path / "heeg.xlsx", language="en")
    evening = _late_heeg_correction(path)
    report = recalc_path(path, when=WHEN)
    assert report.changes
    wb = load_workbook(path)
    assert wb.sheetnames[:2] == ["Season", "Corrections"]  # not after 18 evening tabs
    ws = wb["Corrections"]
    header = [c.value for c in ws[1]]
    english = [c.label for c in CORRECTIONS_SPEC.tables[0].columns]
    assert header == english == ["When", "Sheet", "Cell", "Pair", "Column", "Old value", "New value", "Cause"]
    assert all(c.font.bold and c.fill.start_color.rgb == "FF1F4E78" for c in ws[1])  # the house header
    assert ws.freeze_panes == "A2"
    assert ws.column_dimensions["B"].width >= len(evening)  # the sheet name is not cut off
    assert ws.page_setup.orientation == "landscape" and ws.print_title_rows == "$1:$1"
    rows = list(ws.iter_rows(min_row=2))
    # the built file holds the record of its own recalculation: the scorer's change goes first
    # ("your change"), then every computed cell it changed
    assert [(c.sheet, c.cell) for c in report.typed] == [(evening, "D2")]
    assert [r[1].value for r in rows[:1]] == [evening] and rows[0][2].value == "D2"
    assert len(rows) == len(report.typed) + len(report.changes)
    pct = [r for r in rows if r[4].value == "%"]
    assert pct, "a changed % is listed"
    for r in pct:  # 95.83333 shows as 95.83: the number format of the % column
        assert isinstance(r[5].value, float) and r[5].number_format == "0.00" and r[6].number_format == "0.00"


def test_a_corrections_sheet_gets_its_rows_under_its_own_header(tmp_path, built_once):
    """By the header's words: a column of other words stays empty, a deleted Cause is not added again."""
    path = built_once("tbf-club", tmp_path / "club.xlsx", language="en")
    wb = load_workbook(path)
    wb.create_sheet("Corrections").append(["When", "Sheet", "Cell", "Event", "Pair", "Column", "Old value", "New value"])
    wb["Tournament"]["C28"] = 70.0
    wb.save(path)
    recalc_path(path, when=WHEN)
    rows = [[c.value for c in r] for r in load_workbook(path)["Corrections"].iter_rows()]
    assert rows[0] == ["When", "Sheet", "Cell", "Event", "Pair", "Column", "Old value", "New value"]
    assert [WHEN, "Tournament", "D28", None, 20, "Place", 20, 1] in rows


@pytest.mark.slow
def test_a_sheet_the_recalculation_adds_prints_like_the_template(tmp_path, built_once):
    """An evening sheet and the Year sheet a recalculation (re)creates print as the template's:
    one page wide, the header row on every page (an evening: its result, portrait; the Year:
    landscape)."""
    path = built_once("heeg", tmp_path / "heeg.xlsx", language="en")
    wb = load_workbook(path)
    evening = next(ws.title for ws in wb.worksheets if ws.title.startswith("Evening "))
    del wb[evening]
    del wb["Year"]
    wb.save(path)
    recalc_path(path, when=WHEN)
    wb = load_workbook(path)
    template = load_workbook(built_once("heeg", tmp_path / "template.xlsx", blank=False, language="en"))
    for name, repeat, orientation in ((evening, "$1:$1", "portrait"), ("Year", "$1:$3", "landscape")):
        ws = wb[name]
        assert ws.page_setup.orientation == orientation == template[name].page_setup.orientation, name
        assert ws.sheet_properties.pageSetUpPr.fitToPage and ws.page_setup.fitToWidth == 1, name
        assert ws.page_setup.fitToHeight == 0, name
        assert ws.print_title_rows == repeat, name


@pytest.mark.slow
def test_each_heeg_evening_has_its_result_per_line(tmp_path, built_once):
    """The club's nightly result right of the evening's columns: per line, sorted by %,
    equal % share a rank; it is the sheet's print area (portrait, one page, the evening's
    name above it)."""
    from xlbridge.clubs.heeg.rules import MP_CODES
    from xlbridge.workbooks.heeg import evening_table
    from xlbridge.workbooks.heeg.declaration import result_table

    path = built_once("heeg", tmp_path / "heeg.xlsx", language="en")
    wb = load_workbook(path)
    ws = next(ws for ws in wb.worksheets if ws.title.startswith("Evening "))
    labels = ["1", "2", "3"]
    table, result = evening_table(6, labels), result_table(6, labels)
    # make a tie: pair of row 3 gets the % of row 2's pair (same MP), then recalculate
    ws.cell(3, table.col("mp")).value = None
    for i in range(1, 7):
        ws.cell(3, table.col(f"r{i}")).value = ws.cell(2, table.col(f"r{i}")).value
    ws.cell(3, table.col("code")).value = ws.cell(2, table.col("code")).value
    ws.cell(3, table.col("combi_mp")).value = ws.cell(2, table.col("combi_mp")).value
    line_of_3 = ws.cell(3, table.col("line")).value
    wb.save(path)
    recalc_path(path, when=WHEN)
    ws = load_workbook(path)[ws.title]
    assert [ws.cell(1, result.col(c.id)).value for c in result.columns] == ["Line", "Rank", "Pair", "Names", "Evening %"]
    # what the evening's own columns say: the pairs at the tables, their line and %
    played = {}
    for row in range(2, ws.max_row + 1):
        pair, pct = ws.cell(row, table.col("pair")).value, ws.cell(row, table.col("pct")).value
        code = ws.cell(row, table.col("code")).value
        if pair is not None and pct is not None and ("" if code is None else str(code)) in MP_CODES:
            played[pair] = (ws.cell(row, table.col("line")).value, pct, ws.cell(row, table.col("names")).value)
    rows = []
    for row in range(2, 2 + len(played) + 3):
        rows.append([ws.cell(row, result.col(c.id)).value for c in result.columns])
    assert rows[len(played):] == [[None] * 5] * 3
    rows = rows[:len(played)]
    assert {r[2]: (r[0], r[4], r[3]) for r in rows} == played
    lines = [r[0] for r in rows]
    assert lines == sorted(lines)  # line A first, then B
    for line in set(lines):
        part = [r for r in rows if r[0] == line]
        pcts = [r[4] for r in part]
        assert pcts == sorted(pcts, reverse=True)
        assert [r[1] for r in part] == [1 + sum(p > r[4] for p in pcts) for r in part]  # 1, 2, 2, 4
    tied = [r for r in rows if r[0] == line_of_3 and r[2] in (ws.cell(2, 1).value, ws.cell(3, 1).value)]
    assert len(tied) == 2 and tied[0][1] == tied[1][1]
    assert ws.cell(2, result.col("pct")).number_format == "0.00"
    assert ws.print_area == f"'{ws.title}'!$X$1:$AB${ws.max_row}" or ws.print_area.startswith(f"'{ws.title}'!$X$1:$AB$")
    assert ws.page_setup.orientation == "portrait" and ws.oddHeader.center.text == "&A"


def test_event_sheets_show_their_awards_in_place_order(tmp_path, built_once):
    """TBF and Swedish event sheets: right of the typed order, the same results by place
    (ties in the typed order), under the sheet's own headers."""
    from xlbridge.workbooks.events.kind import RANKED, TABLE

    path = built_once("tbf-club", tmp_path / "club.xlsx", language="en")
    wb = load_workbook(path)
    wb["Tournament"]["C28"] = 70.0  # pair 20, typed last, wins
    wb.save(path)
    recalc_path(path, when=WHEN)
    ws = load_workbook(path)["Tournament"]
    width = TABLE.width()
    typed = [[c.value for c in row] for row in ws.iter_rows(min_row=9, max_row=28, max_col=width)]
    ranked = [[c.value for c in row] for row in ws.iter_rows(min_row=9, max_row=30, min_col=RANKED.first_col,
                                                            max_col=RANKED.first_col + width - 1)]
    assert [c.value for c in ws[8]][RANKED.first_col - 1:RANKED.first_col - 1 + width] == [
        "Place", "Pair", "Players", "Score %", "MP", "Colour"]
    expected = sorted(([r[3], r[0], r[1], r[2], r[4], r[5]] for r in typed), key=lambda r: r[0])
    assert ranked[:20] == expected and ranked[20:] == [[None] * width] * 2
    assert ranked[0][:2] == [1, 20] and [r[0] for r in ranked[:20]] == sorted(r[3] for r in typed)
    assert ws.cell(9, RANKED.first_col + 4).number_format == "0.00"
    assert ws.cell(8, RANKED.first_col).font.bold


@pytest.mark.slow
def test_more_tournaments_than_the_template_laid_out_are_formatted(tmp_path):
    """A 21st and 22nd tournament typed on the BridgeMania calendar get the look of the
    rows above: the date format, typed cells yellow, computed cells blue with their formats."""
    from xlbridge.clubs.bridgemania import BasePair, Season, Tournament
    from xlbridge.workbooks.bridgemania import declaration as d
    from xlbridge.workbooks.bridgemania.build import season_workbook

    boards = [[6, 0, 4, 2, 2, 4, 0, 6]] * 7 + [[0, 6, 2, 4, 4, 2, 6, 0]] * 7
    base = tuple(BasePair(x, (x.lower() + "1", x.lower() + "2"), f"Pair {x}") for x in "ABCDEFGH")

    def tournament(i):
        return Tournament(id=f"T{i}", host="ABCDEFGH"[i % 8], date=f"2020-{1 + i // 28:02d}-{1 + i % 28:02d}", top=6,
                          scores={p.id: [b[k] for b in boards] for k, p in enumerate(base)})

    path = tmp_path / "long.xlsx"
    season_workbook(Season(base_pairs=base, tournaments=tuple(tournament(i) for i in range(1, 21)))).save(path)
    wb = load_workbook(path)
    season = wb[d.SEASON]
    first = d.CALENDAR.first_row
    for i in (21, 22):
        wb.copy_worksheet(wb["T20"]).title = f"T{i}"
        row = first + i - 1
        season.cell(row, d.CALENDAR.col("tournament")).value = f"T{i}"
        season.cell(row, d.CALENDAR.col("date")).value = season.cell(first + 19, d.CALENDAR.col("date")).value
        season.cell(row, d.CALENDAR.col("host")).value = "A"
    wb.save(path)
    recalc_path(path, when=WHEN)
    season = load_workbook(path)[d.SEASON]
    for row in (first + 19, first + 20, first + 21):  # the template's last row and the two beyond it
        assert season.cell(row, d.CALENDAR.col("date")).number_format == "yyyy-mm-dd", row
        assert season.cell(row, d.CALENDAR.col("host")).fill.start_color.rgb == "FFFFF2CC", row
        assert season.cell(row, d.CALENDAR_RESULTS.col("tables")).number_format == "0.0", row
        assert season.cell(row, d.CALENDAR_RESULTS.col("winner")).fill.start_color.rgb == "FFDDEBF7", row
        assert season.cell(row, d.CALENDAR_RESULTS.col("pairs")).value == 8, row


@pytest.mark.slow
def test_the_evening_result_ranks_on_the_exact_percentage(tmp_path, built_once):
    """Two pairs whose evening % are equal as fractions but not as floats share their rank in
    the evening's result, as in the standings (docs/clubs/heeg.md §6.1).  Line A of the second
    demo evening has top 10; with a combi table top of 12 a combi MP counts 10/12:
    60 MP + 43 C = 60 + 215/6 and 85 MP + 13 C = 85 + 65/6 are both 575/6 MP, 39.930555...%
    (in float arithmetic 39.93055555555556 and 39.93055555555555; computed exact, one float)."""
    from fractions import Fraction

    from xlbridge.workbooks.heeg import evening_table
    from xlbridge.workbooks.heeg.declaration import SETTINGS, result_table

    exact = (Fraction(60) + Fraction(43 * 10, 12)) / 240 * 100
    assert exact == (Fraction(85) + Fraction(13 * 10, 12)) / 240 * 100
    assert (60 + 43 * 10 / 12) / 240 * 100 != (85 + 13 * 10 / 12) / 240 * 100  # float arithmetic parts them

    path = built_once("heeg", tmp_path / "heeg.xlsx", language="en")
    wb = load_workbook(path)
    combi_top = next(s for s in SETTINGS if s.id == "combi_top")
    wb["Season"][combi_top.cell] = 12
    ws = wb["Evening 2025-09-11"]
    labels = ["1", "2", "3"]
    table, result = evening_table(6, labels), result_table(6, labels)
    rows = {}
    for row, (mp, combi) in ((3, (60, 43)), (5, (85, 13))):  # pairs 2 and 4, line A, each with one round blank
        assert ws.cell(row, table.col("line")).value == "A" and ws.cell(row, table.col("combi_mp")).value
        rounds = [i for i in range(1, 7) if ws.cell(row, table.col(f"r{i}")).value is not None]
        assert len(rounds) == 5
        for i in rounds:
            ws.cell(row, table.col(f"r{i}")).value = mp // 5
        ws.cell(row, table.col("combi_mp")).value = combi
        ws.cell(row, table.col("mp")).value = None
        rows[ws.cell(row, table.col("pair")).value] = row
    wb.save(path)
    recalc_path(path, when=WHEN)
    ws = load_workbook(path)["Evening 2025-09-11"]
    pct = {pair: ws.cell(row, table.col("pct")).value for pair, row in rows.items()}
    assert pct[2] == pct[4] == float(exact)  # the evening's own % columns: the float nearest to the exact %
    ranked = {ws.cell(r, result.col("pair")).value: (ws.cell(r, result.col("rank")).value,
                                                     ws.cell(r, result.col("line")).value)
              for r in range(2, ws.max_row + 1) if ws.cell(r, result.col("pair")).value is not None}
    assert ranked[2] == ranked[4], ranked  # one rank for an equal result
    rank = ranked[2][0]
    assert sorted(r for r, line in ranked.values() if line == "A" and r == rank) == [rank, rank]
    assert [r for r, line in ranked.values() if line == "A" and r == rank + 1] == []  # 1, 2, 2, 4: the next is skipped
