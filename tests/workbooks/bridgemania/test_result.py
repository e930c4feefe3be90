"""Each tournament's sorted result (issue 16, point 4) on rows of its own below the pairs (issue 26,
point 8): the entries in the engine's ranking order with its ranks (ties shared), then the base
pairs that did not play at the tables; the same numbers as each pair's computed columns; what the
sheet prints."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from xlbridge.clubs.bridgemania import recalculate
from xlbridge.clubs.bridgemania.demo import demo_season
from xlbridge.files.headless import recalc_path
from tests.bm_layout import COMPUTED, SECTIONS, T_FIRST, T_HEADER
from xlbridge.workbooks.bridgemania.declaration import FIRST_BOARD_COL, RESULT, RESULT_TITLE

COLUMNS = ["rank", "pair", "name", "status", "pct", "f1", "indy", "hybrid"]


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory, built_once):
    return built_once("bridgemania", tmp_path_factory.mktemp("bm") / "demo.xlsx", language="en")


@pytest.fixture(scope="module")
def engine():
    return recalculate(demo_season())


def title_row(ws, title: str = RESULT_TITLE) -> int:
    """The row of the sorted result's title (column A)."""
    return next(r for r in range(T_FIRST, ws.max_row + 1) if ws.cell(r, 1).value == title)


def result_of(ws, title: str = RESULT_TITLE) -> list[dict[str, object]]:
    """The sorted result as it stands on a tournament sheet (below its title and header, down to the
    first blank row)."""
    out = []
    for row in range(title_row(ws, title) + 2, ws.max_row + 1):
        line = [ws.cell(row, RESULT.first_col + i).value for i in range(RESULT.width())]
        if line[1] is None:
            break
        out.append(dict(zip(COLUMNS, line)))
    return out


def per_pair(ws) -> dict[str, dict[str, object]]:
    """Each pair's own computed columns (right of the boards), by pair."""
    headers = [c.value for c in ws[T_HEADER]]
    first = headers.index(COMPUTED[0]) + 1
    out = {}
    for row in range(T_FIRST, ws.max_row + 1):
        pair = ws.cell(row, 1).value
        if pair in SECTIONS or pair == RESULT_TITLE:
            break
        if pair is not None:
            out[pair] = dict(zip(COMPUTED, (ws.cell(row, first + i).value for i in range(len(COMPUTED)))))
            out[pair]["status"] = ws.cell(row, 2).value
    return out


@pytest.mark.slow
def test_the_result_has_rows_of_its_own_between_the_pairs_and_the_sections(demo_file):
    """No row holds both a typed pair and a line of the sorted result: two orders never share a row."""
    ws = load_workbook(demo_file)["T07"]
    assert [ws.cell(T_HEADER, c).value for c in range(1, FIRST_BOARD_COL + 1)] == ["Pair", "Status", "Players", None, 1]
    title = title_row(ws)
    pairs = [r for r in range(T_FIRST, title) if ws.cell(r, 1).value is not None]
    assert len(pairs) == 16 and max(pairs) < title - 1  # a blank row between
    assert [ws.cell(title + 1, c).value for c in range(1, RESULT.width() + 1)] == RESULT.headers() == [
        "Rank", "Pair", "Name", "Status", "Score %", "F1 PTS", "IndyCar PTS", "Hybrid PTS"]
    lines = result_of(ws)
    assert len(lines) == 16
    # room for as many rows as the pairs have (16 typed and 2 spare), a blank row, then the penalties
    penalties = next(r for r in range(title, ws.max_row + 1) if ws.cell(r, 1).value == "Penalties")
    assert penalties == title + 2 + 18 + 1
    # what prints: the result with its title and header
    assert ws.print_area == f"'T07'!$A${title}:$H${title + 1 + 18}"
    assert ws.print_title_rows == f"${title}:${title + 1}"


def test_every_tournament_of_the_demo_sorted_as_the_engine_ranks_it(demo_file, engine):
    wb = load_workbook(demo_file)
    for t in engine.tournaments:
        ws = wb[t.id]
        result, pairs = result_of(ws), per_pair(ws)
        # every pair of the sheet once, the entries that played first, in the engine's order
        assert sorted(r["pair"] for r in result) == sorted(pairs)
        played = result[:len(t.entries)]
        # (pairs level share a rank; among them the rows keep the order the pairs were typed in)
        assert [(r["rank"], r["pct"]) for r in played] == [(e.rank, e.percent) for e in t.entries]
        assert sorted((r["rank"], r["pair"]) for r in played) == sorted((e.rank, e.entry) for e in t.entries)
        order = [ws.cell(row, 1).value for row in range(T_FIRST, T_FIRST + len(pairs))]
        for a, b in zip(played, played[1:]):
            if a["rank"] == b["rank"]:
                assert order.index(a["pair"]) < order.index(b["pair"])
        assert [r["pct"] for r in played] == sorted((r["pct"] for r in played), reverse=True)
        assert all(r["rank"] is None for r in result[len(t.entries):])
        # the same numbers as each pair's own columns
        for r in result:
            own = pairs[r["pair"]]
            assert (r["rank"], r["pct"], r["f1"], r["indy"], r["hybrid"]) == (
                own["Rank"], own["Score %"], own["F1 PTS"], own["IndyCar PTS"], own["Hybrid PTS"]), (t.id, r)


def test_ties_share_the_rank_and_the_next_place_is_skipped(demo_file, engine):
    wb = load_workbook(demo_file)
    tied = 0
    for t in engine.tournaments:
        ranks = [r["rank"] for r in result_of(wb[t.id]) if r["rank"] is not None]
        for i, (a, b) in enumerate(zip(ranks, ranks[1:])):
            if a == b:
                tied += 1
                rows = result_of(wb[t.id])
                assert rows[i]["pct"] == rows[i + 1]["pct"]  # equal scores, one rank
            else:
                assert b == i + 2  # competition ranking: 1, 2, 2, 4
    assert tied >= 2  # the demo's nights 2 and 6 have ties
    rows = result_of(wb["T02"])
    assert [r["rank"] for r in rows if r["rank"] is not None] == [e.rank for e in engine.tournaments[1].entries]


def test_pairs_that_did_not_play_follow_without_a_rank(demo_file, engine):
    """T07: split base pairs (halved %), a waiting, an ill and an unable pair; a guest and temporary pairs."""
    rows = {r["pair"]: r for r in result_of(load_workbook(demo_file)["T07"])}
    t07 = next(t for t in engine.tournaments if t.id == "T07")
    nights = {n.pair: n for n in t07.base}
    waiting = next(p for p, n in nights.items() if n.status == "waiting")
    ill = next(p for p, n in nights.items() if n.status == "ill")
    unable = next(p for p, n in nights.items() if n.status == "unable")
    split = next(p for p, n in nights.items() if n.status == "S")
    for pair, word in ((waiting, "waiting"), (ill, "ill"), (unable, "unable"), (split, "split")):
        assert rows[pair]["rank"] is None and rows[pair]["status"] == word
        assert (rows[pair]["f1"], rows[pair]["indy"], rows[pair]["hybrid"]) == (
            nights[pair].f1, nights[pair].indy, nights[pair].hybrid)
    assert rows[waiting]["pct"] is None and rows[unable]["f1"] == 0  # C.03: unable = 0 PTS
    assert rows[waiting]["f1"] == 8.417 and rows[ill]["f1"] == 8.417  # waiting, ill: the tables' average
    assert rows[split]["pct"] == nights[split].percent
    guest = next(e for e in t07.entries if e.kind == "guest")
    assert rows[guest.entry]["status"] == "guest" and rows[guest.entry]["f1"] is None  # ranked, no PTS
    temporary = next(e for e in t07.entries if e.kind == "split")
    assert rows[temporary.entry]["name"] == " / ".join(demo_season().tournaments[6].splits[temporary.entry])
    # names: the Name typed, else the players' names
    assert rows["DG"]["name"] == "Dino & Giulia"


@pytest.mark.slow
def test_a_name_left_empty_shows_the_players(demo_file, tmp_path):
    path = tmp_path / "names.xlsx"
    path.write_bytes(demo_file.read_bytes())
    wb = load_workbook(path)
    row = next(r for r in range(5, 20) if wb["Season"].cell(r, 1).value == "DG")
    players = (wb["Season"].cell(row, 2).value, wb["Season"].cell(row, 3).value)
    wb["Season"].cell(row, 4).value = None
    wb.save(path)
    recalc_path(path, backup=False)
    rows = {r["pair"]: r for r in result_of(load_workbook(path)["T01"])}
    assert rows["DG"]["name"] == " / ".join(players)


@pytest.mark.slow
def test_a_late_correction_re_sorts_the_result_without_a_correction_of_its_own(demo_file, tmp_path):
    path = tmp_path / "late.xlsx"
    path.write_bytes(demo_file.read_bytes())
    wb = load_workbook(path)
    ws = wb["T01"]
    before = result_of(ws)
    last, first = before[len([r for r in before if r["rank"]]) - 1]["pair"], before[0]["pair"]
    rows = {ws.cell(r, 1).value: r for r in range(T_FIRST, T_FIRST + 20)}
    # the last pair gains and the winner loses the same on every board where that keeps the scale
    top = ws["B4"].value or max(v for r in rows.values() for v in (ws.cell(r, FIRST_BOARD_COL).value,)
                                if isinstance(v, (int, float)))
    moved = 0
    for b in range(FIRST_BOARD_COL, FIRST_BOARD_COL + 40):
        up, down = ws.cell(rows[last], b), ws.cell(rows[first], b)
        if isinstance(up.value, (int, float)) and isinstance(down.value, (int, float)) and up.value + 2 <= top \
                and down.value >= 2:
            up.value, down.value = up.value + 2, down.value - 2
            moved += 1
    assert moved >= 4
    wb.save(path)
    report = recalc_path(path, backup=False)
    after = result_of(load_workbook(path)["T01"])
    assert after[0]["pair"] != first and [r["pct"] for r in after if r["rank"]] == sorted(
        (r["pct"] for r in after if r["rank"]), reverse=True)
    # the per-pair columns' changes are listed on Corrections; the result, a view of them, is not
    rows = {int(c.cell.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) for c in report.changes if c.sheet == "T01"}
    assert rows and max(rows) < title_row(load_workbook(path)["T01"])


def test_the_rows_rest_on_the_regolamento(quotes):
    """Guests ranked without PTS; waiting and ill pairs averaged PTS, unable 0 (docs/clubs/bridgemania.md)."""
    quotes("004")(
        "Le “coppie ospiti” partecipano alla classifica del singolo torneo, ma non partecipano alla classifica del "
        "campionato.",
        "pertanto i punteggi ottenuti dalle Coppie Ospiti non saranno assegnati.",
        "le Coppie Base che per ragione propria sono Impossibilitate a partecipare ad un torneo, per quel torneo "
        "prendono (0) zero PTS.",
        "le Coppie Base che sono in Lista di Attesa e quindi non partecipano per propria scelta ad un torneo, per quel "
        "torneo prendono i punteggi mediati come da tabelle.",
        "le Coppie Base che sono impossibilitate a partecipare per malattia prendono per quel torneo i punteggi "
        "mediati come da tabelle",
    )


@pytest.mark.slow
def test_the_result_speaks_the_workbooks_language(tmp_path, built_once):
    from xlbridge.language import _, speaking

    ws = load_workbook(built_once("bridgemania", tmp_path / "it.xlsx", language="it"))["T07"]
    with speaking("it"):
        title = _(RESULT_TITLE)
        assert title != RESULT_TITLE
        assert [ws.cell(title_row(ws, title) + 1, RESULT.first_col + i).value for i in range(RESULT.width())] == (
            RESULT.headers())
    words = {r["status"] for r in result_of(ws, title)}
    assert {"ospite", "scoppiata", "lista di attesa", "malattia", "impossibilitata"} <= words
    assert not words & {"guest", "split", "waiting", "ill", "unable"}


def test_board_numbers_not_in_e_are_one_problem_at_e8(demo_file):
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.recalc import BookInputError
    from xlbridge.workbooks.recalc import recalculate as recalc_book

    wb = load_workbook(demo_file)
    wb["T04"].cell(T_HEADER, FIRST_BOARD_COL).value = "uno"
    with pytest.raises(BookInputError) as caught:
        recalc_book(OpenpyxlBook(wb))
    assert [str(p) for p in caught.value.problems] == [
        "T04, E8: the board numbers 1, 2, 3, ... should start here"]


def test_a_deleted_result_title_is_a_missing_section(demo_file):
    """Without its title the result's rows would be read as pairs: the sheet's structure is broken."""
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.recalc import BookInputError
    from xlbridge.workbooks.recalc import recalculate as recalc_book

    wb = load_workbook(demo_file)
    wb["T04"].cell(title_row(wb["T04"]), 1).value = None
    with pytest.raises(BookInputError) as caught:
        recalc_book(OpenpyxlBook(wb))
    assert [str(p) for p in caught.value.problems] == [
        "T04, A9: the section 'Result, sorted by score (computed)' is missing: its title should be in column A below "
        "the pairs (renamed or deleted?)"]


def test_more_pairs_than_the_result_has_room_for_is_one_problem_at_its_title(demo_file):
    """Rows inserted among the pairs and filled: the result would run into the penalties; nothing is written."""
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.recalc import BookInputError
    from xlbridge.workbooks.recalc import recalculate as recalc_book

    wb = load_workbook(demo_file)
    ws = wb["T07"]
    title = title_row(ws)
    ws.insert_rows(title - 1, 4)  # four rows among the pairs, each a guest who played no board yet
    for i in range(4):
        ws.cell(title - 1 + i, 1).value = f"X{i}"
    with pytest.raises(BookInputError) as caught:
        recalc_book(OpenpyxlBook(wb))
    messages = [str(p) for p in caught.value.problems]
    assert (f"T07, A{title + 4}: the sorted result has room for 18 rows and the tournament lists 20 pairs: insert 2 "
            f"rows below row {title + 5}") in messages
