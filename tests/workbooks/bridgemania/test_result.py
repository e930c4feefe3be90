"""Each tournament's sorted result right of the pairs (issue 16, point 4): the entries in the
engine's ranking order with its ranks (ties shared), then the base pairs that did not play at the
tables; the same numbers as each pair's computed columns; what the sheet prints."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from xlbridge.clubs.bridgemania import recalculate
from xlbridge.clubs.bridgemania.demo import demo_season
from xlbridge.excel.shipped import build
from xlbridge.files.headless import recalc_path
from xlbridge.workbooks.bridgemania import COMPUTED, SECTIONS, T_FIRST, T_HEADER
from xlbridge.workbooks.bridgemania.declaration import FIRST_BOARD_COL, RESULT, RESULT_CAPTION, RESULT_CAPTION_ROW

COLUMNS = ["rank", "pair", "name", "pct", "f1", "indy", "hybrid", "status"]


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory):
    return build("bridgemania", tmp_path_factory.mktemp("bm") / "demo.xlsx", language="en")


@pytest.fixture(scope="module")
def engine():
    return recalculate(demo_season())


def result_of(ws) -> list[dict[str, object]]:
    """The sorted result as it stands on a tournament sheet (E9 down to the first blank row)."""
    out = []
    for row in range(T_FIRST, ws.max_row + 1):
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
        if pair in SECTIONS:
            break
        if pair is not None:
            out[pair] = dict(zip(COMPUTED, (ws.cell(row, first + i).value for i in range(len(COMPUTED)))))
            out[pair]["status"] = ws.cell(row, 2).value
    return out


@pytest.mark.slow
def test_the_result_sits_right_of_the_pairs_and_left_of_the_boards(demo_file):
    ws = load_workbook(demo_file)["T01"]
    assert ws.cell(RESULT_CAPTION_ROW, RESULT.first_col).value == RESULT_CAPTION
    assert [ws.cell(T_HEADER, c).value for c in range(1, FIRST_BOARD_COL + 1)] == [
        "Pair", "Status", "Players", None, *RESULT.headers(), None, 1]
    # on screen without scrolling: everything up to the result is narrower than a laptop's window (about 155
    # characters since the settings' labels and choices and the rectifications' NS pairs show whole: 1,150 px)
    widths = [ws.column_dimensions[chr(64 + c)].width for c in range(1, RESULT.first_col + RESULT.width())]
    assert sum(7 * w + 5 for w in widths) < 1250


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
    columns = {c.cell.rstrip("0123456789") for c in report.changes if c.sheet == "T01"}
    assert columns and not columns & set("EFGHIJKL")


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
def test_the_result_speaks_the_workbooks_language(tmp_path):
    from xlbridge.language import _, speaking

    ws = load_workbook(build("bridgemania", tmp_path / "it.xlsx", language="it"))["T07"]
    with speaking("it"):
        assert ws.cell(RESULT_CAPTION_ROW, RESULT.first_col).value == _(RESULT_CAPTION) != RESULT_CAPTION
        assert [ws.cell(T_HEADER, RESULT.first_col + i).value for i in range(RESULT.width())] == RESULT.headers()
    words = {r["status"] for r in result_of(ws)}
    assert {"ospite", "scoppiata", "lista di attesa", "malattia", "impossibilitata"} <= words
    assert not words & {"guest", "split", "waiting", "ill", "unable"}


@pytest.mark.parametrize("in_d", [None, 1], ids=["nowhere", "in D, the layout before the sorted result"])
def test_board_numbers_not_in_n_are_one_problem_at_n8(demo_file, tmp_path, in_d):
    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.recalc import BookInputError
    from xlbridge.workbooks.recalc import recalculate as recalc_book

    wb = load_workbook(demo_file)
    wb["T04"].cell(T_HEADER, FIRST_BOARD_COL).value = "uno"
    wb["T04"].cell(T_HEADER, 4).value = in_d  # (xlbridge 0.1.0 was never released: no sheet has that layout)
    with pytest.raises(BookInputError) as caught:
        recalc_book(OpenpyxlBook(wb))
    assert [str(p) for p in caught.value.problems] == [
        "T04, N8: the board numbers 1, 2, 3, ... should start here"]
