"""Reading one BridgeMania tournament sheet into the engine's typed records, once.

:func:`read_tournament` reads one tournament sheet into a
:class:`~xlbridge.clubs.bridgemania.Tournament`: it checks the sheet's structure
against the declaration (:mod:`~xlbridge.workbooks.bridgemania.declaration`:
title, settings labels, headers, board columns, computed columns, sections), reads
each table by column id (:meth:`~xlbridge.workbooks.declare.Table.row`,
:meth:`~xlbridge.workbooks.declare.Table.read_rows`) and remembers where each pair,
penalty and rectification was typed (:class:`TournamentPlaces`), so that the
engine's problems can be put at their cells.  What the engine checks (scores,
statuses, the TOP, validity) is left to it: nothing is validated twice.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from xlbridge.language import N_plural, _
from xlbridge.workbooks.localised import shown_name
from xlbridge.clubs import bridgemania as bm
from xlbridge.values import as_text, as_whole, is_blank
from xlbridge.workbooks.book import Grid, cell
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.bridgemania.read import formulas, ids, is_tournament_sheet, spaced_ids
from xlbridge.workbooks.bridgemania.read import found as shown, players as player_ids
from xlbridge.workbooks.declare import cell_ref, column_inserted
from xlbridge.workbooks.plan import LocatedProblem, at

__all__ = ["TournamentPlaces", "read_tournament", "structure"]

#: The sorted result's id among the titles in column A (issue 26, point 8).
RESULT = d.RESULT.id
SPLIT_WORDS = {"split", "s", "scoppiata", "scoppiati", "scoppiate"}
YES = {"yes", "y", "si", "sì", "true", "1", "x"}
NO = {"no", "n", "false", "0", "friendly", "amichevole"}


@dataclass
class TournamentPlaces:
    """Where the pairs, sections and computed columns of one tournament sheet are."""

    sheet: str
    main_rows: dict[str, int] = field(default_factory=dict)
    main_order: list[tuple[int, str]] = field(default_factory=list)  # every non-blank pair row
    main_end: int = d.PAIRS.first_row - 1
    computed_col: int = 0
    board_width: int = 0  # the board columns headed 1, 2, 3, ...
    boards: int = 0  # the boards played: the last board column with any score
    penalty_rows: list[tuple[int, str]] = field(default_factory=list)
    rect_rows: dict[int, int] = field(default_factory=dict)
    hand_rows: dict[str, int] = field(default_factory=dict)
    typed_split: set[str] = field(default_factory=set)
    sections: dict[str, int] = field(default_factory=dict)  # section id -> title row
    warnings: list[LocatedProblem] = field(default_factory=list)  # an id typed with a space before or after it
    unplayed: bool = False  # nothing typed but the pairs and settings: not played yet (issue 26, point 4)
    result_room: int = 0  # the rows of the sorted result, below its title and header

    def board_col(self, board: int) -> int:
        return d.FIRST_BOARD_COL + board - 1

    def section_rows(self, section_id: str, last_row: int) -> range:
        """The typed rows of a section: below its header, up to the next section."""
        first = self.sections[section_id]
        following = [s for s in self.sections.values() if s > first]
        return range(first + 2, min(following) if following else last_row + 1)

    def result_rows(self, last_row: int) -> range:
        """The sorted result's rows: below its header, up to the row before the next section's title
        (kept blank)."""
        rows = self.section_rows(RESULT, last_row)
        following = any(s > self.sections[RESULT] for s in self.sections.values())
        return rows[:-1] if following else rows


#: The columns holding ids of a tournament's sections.
TOURNAMENT_IDS = {"penalties": ("pair",), "rectifications": ("row", "ns"), "bridge": ("pair",)}


def _tournament_ids(grid: Grid, ts: TournamentPlaces) -> Iterator[tuple[int, int]]:
    yield d.EXTRA.row, d.EXTRA.col
    yield from ((r, d.PAIRS.col("pair")) for r in range(d.PAIRS.first_row, ts.main_end + 1))
    for section in d.SECTIONS:
        for r in ts.section_rows(section.id, len(grid)):
            yield from ((r, section.table.col(c)) for c in TOURNAMENT_IDS[section.id])


def _tournament_cells(grid: Grid, ts: TournamentPlaces) -> Iterator[tuple[int, int]]:
    """Every typed cell of a tournament sheet: the settings, the pairs with their boards, the sections."""
    yield from ((s.row, s.col) for s in d.TOURNAMENT_SETTINGS)
    boards = [ts.board_col(b) for b in range(1, ts.board_width + 1)]
    for r in range(d.PAIRS.first_row, ts.main_end + 1):
        yield from ((r, c) for c in [d.PAIRS.col(column.id) for column in d.PAIRS.typed()] + boards)
    for section in d.SECTIONS:
        table = section.table  # (its columns; below its title at ts.sections[section.id])
        cols = [table.col(column.id) for column in table.typed()] + (boards if section.id == "bridge" else [])
        for r in ts.section_rows(section.id, len(grid)):
            yield from ((r, c) for c in cols)


def _unplayed(grid: Grid, ts: TournamentPlaces) -> bool:
    """Nothing typed yet but what New tournament fills in (the pairs) and the settings: no board score, no
    status, no player of a split pair, no section row, no extra PTS (issue 26, point 4)."""
    kept = {(s.row, s.col) for s in (d.MOVEMENT, d.TOP, d.COUNTS)}
    pair_col = d.PAIRS.col("pair")
    return all(is_blank(cell(grid, r, c)) for r, c in _tournament_cells(grid, ts)
               if (r, c) not in kept and not (c == pair_col and r <= ts.main_end))


# ------------------------------------------------------------------ a tournament sheet


def read_tournament(tid: str, grid: Grid, ts: TournamentPlaces, date: str, host: str, base_ids: list[str],
                    guest_ids: set[str], problems: list[LocatedProblem]) -> bm.Tournament | None:
    """One tournament sheet as the scorer typed it (``None`` when its structure is broken, or when it is not
    played yet: ``ts.unplayed``)."""
    if not _structure(tid, grid, ts, problems):
        return None
    if _unplayed(grid, ts):
        ts.unplayed = True
        return None
    problems += formulas(tid, grid, _tournament_cells(grid, ts))
    ts.warnings += spaced_ids(tid, grid, _tournament_ids(grid, ts))
    scores, status, splits = _pairs(tid, grid, ts, base_ids, guest_ids, problems)
    room = ts.result_room
    if len(ts.main_order) > room:  # (only when rows were inserted among the pairs and filled)
        title = ts.sections[RESULT]
        problems.append(at(tid, cell_ref(title, 1), "bm.sheet.result-room", N_plural(
            "the sorted result has room for {room} rows and the tournament lists {pairs} pairs: insert {count} row "
            "below row {row}", "the sorted result has room for {room} rows and the tournament lists {pairs} pairs: "
            "insert {count} rows below row {row}"), tournament=tid, field=RESULT, room=room,
            pairs=len(ts.main_order), count=len(ts.main_order) - room, row=title + 1))
    penalties = _penalties(tid, grid, ts, problems)
    rectifications = _rectifications(tid, grid, ts, problems)
    hand_scores = _bridge_scores(tid, grid, ts, problems)
    top_hand = ids(d.EXTRA.value(grid))
    if top_hand and any(not is_blank(v) for row in hand_scores.values() for v in row):
        problems.append(at(tid, d.EXTRA.cell, "bm.extra.both", "type either the bridge scores (the extra PTS is then "
                           "computed) or the pairs in {label!r}, not both", tournament=tid, field=d.EXTRA.id,
                           label=d.EXTRA.text()))
    counts = _championship(tid, grid, problems)
    movement = d.MOVEMENT.value(grid)
    return bm.Tournament(
        id=tid, host=host, scores=scores, date=date, top=d.TOP.value(grid),
        movement="howell" if is_blank(movement) else as_text(movement), status=status, splits=splits,
        penalties=tuple(penalties), rectifications=tuple(rectifications), hand_scores=hand_scores,
        top_hand=tuple(top_hand), championship=counts,
    )


def structure(tid: str, grid: Grid) -> tuple[TournamentPlaces, list[LocatedProblem]]:
    """Where the pairs, boards, sorted result and sections of a tournament sheet are, and the problems
    of its structure (none: the places are found)."""
    ts, problems = TournamentPlaces(tid), []
    _structure(tid, grid, ts, problems)
    return ts, problems


def _structure(tid: str, grid: Grid, ts: TournamentPlaces, problems: list[LocatedProblem]) -> bool:
    """The title, settings labels, headers, board columns, computed columns and
    sections are where the declaration has them; ``False`` (problems added) if not."""
    before = len(problems)
    if not is_tournament_sheet(grid):
        problems.append(at(tid, "A1", "bm.sheet.not-tournament", "not a BridgeMania tournament sheet (A1 should start "
                           "with {title!r}; copy {blank!r} for a new tournament)", tournament=tid,
                           title=_(d.TOURNAMENT_TITLE), blank=shown_name(d.BLANK_TOURNAMENT)))
        return False
    for s in d.TOURNAMENT_SETTINGS:
        found = cell(grid, s.row, s.label_col)
        if as_text(found) != s.text():
            problems.append(at(tid, cell_ref(s.row, s.label_col), "bm.sheet.label", "the label should be "
                               "{expected!r} (found {found})", tournament=tid, field=s.id, expected=s.text(),
                               found=shown(found)))
    problems += d.PAIRS.check_header(grid, tid)
    # the board columns from the header row: 1, 2, 3, ... from board 1's column, right of the pairs
    header, first = d.PAIRS.header_row, d.FIRST_BOARD_COL
    col = first
    while as_whole(cell(grid, header, col)) == col - first + 1:
        col += 1
    ts.board_width = col - first
    if is_blank(cell(grid, header, col)) and as_whole(cell(grid, header, col + 1)) == col - first + 1:
        problems.append(column_inserted(tid, header, col, grid))  # (the boards after it were not counted)
    elif col == first:
        problems.append(at(tid, cell_ref(header, first), "bm.sheet.boards",
                           "the board numbers 1, 2, 3, ... should start here", tournament=tid, field="boards"))
    _results(tid, grid, ts, col, problems)
    _sections(tid, grid, ts, problems)
    if len(problems) > before:
        return False
    ts.main_end = min(ts.sections.values()) - 1
    ts.result_room = len(ts.result_rows(len(grid)))
    return True


def _results(tid: str, grid: Grid, ts: TournamentPlaces, after: int, problems: list[LocatedProblem]) -> None:
    """The computed columns: found by their first header, right of the boards (from column ``after``)."""
    header_row = d.RESULTS.header_row
    width = len(grid[header_row - 1]) if len(grid) >= header_row else 0
    first = d.RESULTS.columns[0].text()
    start = next((c for c in range(after, max(width, after) + 1) if as_text(cell(grid, header_row, c)) == first), None)
    if start is None:
        problems.append(at(tid, cell_ref(header_row, after + 1), "bm.sheet.results-missing", "the computed columns "
                           "({columns}) should start here, right of the boards (a renamed or deleted header?)",
                           tournament=tid, field=d.RESULTS.columns[0].id, columns=", ".join(d.RESULTS.headers())))
        return
    problems += d.results_at(start).check_header(grid, tid)
    ts.computed_col = start


def _sections(tid: str, grid: Grid, ts: TournamentPlaces, problems: list[LocatedProblem]) -> None:
    """The section titles in column A below the pairs, each once, and the sorted result's title."""
    titles = {_(s.title): s.id for s in d.SECTIONS} | {_(d.RESULT_TITLE): RESULT}
    for r in range(d.PAIRS.first_row, len(grid) + 1):
        label = as_text(cell(grid, r, 1))
        if label in titles:
            if titles[label] in ts.sections:
                problems.append(at(tid, cell_ref(r, 1), "bm.sheet.section-twice", "a second {section!r} section "
                                   "(also row {other})", tournament=tid, field=titles[label], section=label,
                                   other=ts.sections[titles[label]]))
            ts.sections[titles[label]] = r
    for section_id, title in [(s.id, s.title) for s in d.SECTIONS] + [(RESULT, d.RESULT_TITLE)]:
        if section_id not in ts.sections:
            problems.append(at(tid, cell_ref(d.PAIRS.first_row, 1), "bm.sheet.section-missing", "the section "
                               "{section!r} is missing: its title should be in column A below the pairs (renamed or "
                               "deleted?)", tournament=tid, field=section_id, section=_(title)))


def _pairs(tid: str, grid: Grid, ts: TournamentPlaces, base_ids: list[str], guest_ids: set[str],
           problems: list[LocatedProblem]) -> tuple[dict[str, list[Any]], dict[str, Any], dict[str, tuple[str, ...]]]:
    """The pair rows: each pair's board scores, each base pair's typed status, the split pairs' players."""
    rows = range(d.PAIRS.first_row, ts.main_end + 1)
    # the boards used are those with any score typed
    for r in rows:
        last = next((b for b in range(ts.board_width, 0, -1) if not is_blank(cell(grid, r, ts.board_col(b)))), 0)
        ts.boards = max(ts.boards, last)
    scores: dict[str, list[Any]] = {}
    status: dict[str, Any] = {}
    splits: dict[str, tuple[str, ...]] = {}
    for r in rows:
        typed = d.PAIRS.row(grid, r) or {}
        pid, word, players = typed.get("pair"), typed.get("status"), typed.get("players")
        board_values = [cell(grid, r, ts.board_col(b)) for b in range(1, ts.boards + 1)]
        has_scores = any(not is_blank(v) for v in board_values)
        if is_blank(pid) and is_blank(word) and is_blank(players) and not has_scores:
            continue
        if is_blank(pid):
            problems.append(at(tid, d.PAIRS.cell("pair", r), "bm.pair.id-empty", "a row without its pair id",
                               tournament=tid, field="pair", row=r))
            continue
        pair = as_text(pid)
        if pair in ts.main_rows:
            problems.append(at(tid, d.PAIRS.cell("pair", r), "bm.pair.twice", "pair {pair} appears twice (also row "
                               "{other})", tournament=tid, pair=pair, field="pair", row=r, other=ts.main_rows[pair]))
            continue
        ts.main_rows[pair] = r
        ts.main_order.append((r, pair))
        conflict = _status(tid, ts, r, pair, word, has_scores, pair in base_ids, status, problems)
        if pair not in base_ids and pair not in guest_ids:
            if not is_blank(players):
                splits[pair] = tuple(player_ids(players))
            elif not has_scores:
                problems.append(at(tid, d.PAIRS.cell("pair", r), "bm.pair.unknown-row", "unknown pair {pair!r}: not a "
                                   "base pair, a registered guest or a split pair (type its two players in Players)",
                                   tournament=tid, pair=pair, field="pair", row=r))
                continue
        if conflict and any(is_blank(v) for v in board_values):  # a stray score on the row of a pair that did not
            status[pair] = conflict  # play: the row read as its status says, so that its empty boards and the
        elif has_scores:  # board's count give no follow-on messages (a whole row: it played, the boards check it)
            scores[pair] = board_values
    return scores, status, splits


def _status(tid: str, ts: TournamentPlaces, r: int, pair: str, word: Any, has_scores: bool, base: bool,
            status: dict[str, Any], problems: list[LocatedProblem]) -> str:
    """A base pair's typed status (split, or why it did not play); none for the others.  The status when it says
    the pair did not play while board scores are typed (``bm.status.with-scores``; else "")."""
    typed = d.PAIRS.column("status").choice(word) or as_text(word)  # a word of the workbook's language: its id
    place = d.PAIRS.cell("status", r)
    where = {"tournament": tid, "pair": pair, "field": "status", "row": r}
    if base:
        if typed.lower() in SPLIT_WORDS:
            ts.typed_split.add(pair)
            if has_scores:
                problems.append(at(tid, place, "bm.status.split-with-scores", "{pair}: typed split, but it has board "
                                   "scores (a split pair's players play in temporary pairs)", **where))
        elif not is_blank(word):
            if has_scores and bm.STATUS_WORDS.get(typed.lower()):
                # reported once here; the scores stay in for the board checks (they are
                # on the traveller), so the boards do not report a follow-on each
                problems.append(at(tid, place, "bm.status.with-scores", "{pair}: the status says {value!r} but board "
                                   "scores are typed: clear the scores or the status", value=as_text(word), **where))
                return typed
            status[pair] = typed
    elif not is_blank(word) and typed.upper() not in ("O", "P"):
        problems.append(at(tid, place, "bm.status.not-base-pair", "{pair}: a status (waiting, ill, unable, split) is "
                           "only for base pairs; leave it blank for guests and temporary pairs", **where))
    return ""


def _penalties(tid: str, grid: Grid, ts: TournamentPlaces, problems: list[LocatedProblem]) -> list[bm.Penalty]:
    """One penalty per row: the guilty pair, the board (for the reader), a note."""
    table = d.PENALTIES.at(ts.sections["penalties"])
    penalties = []
    for r, row in table.read_rows(grid, ts.section_rows("penalties", len(grid))):
        pid = row["pair"]
        if is_blank(pid):
            problems.append(at(tid, table.cell("pair", r), "bm.penalty.pair-empty", "a penalty without the guilty "
                               "pair", tournament=tid, field="penalty", row=r))
            continue
        ts.penalty_rows.append((r, as_text(pid)))
        penalties.append(bm.Penalty((as_text(pid),), as_text(row["note"])))
    return penalties


def _rectifications(tid: str, grid: Grid, ts: TournamentPlaces,
                    problems: list[LocatedProblem]) -> list[bm.Rectification]:
    """One rectification per row: board, kind, the annulled row and the NS pairs of a partial one."""
    table = d.RECTIFICATIONS.at(ts.sections["rectifications"])
    out = []
    for r, typed in table.read_rows(grid, ts.section_rows("rectifications", len(grid))):
        board = typed["board"]
        number = as_whole(board)
        if is_blank(board):
            problems.append(at(tid, table.cell("board", r), "bm.rect.board-empty", "rectification: the board is empty "
                               "(type the board number)", tournament=tid, field="board", row=r))
            continue
        if number is None:
            problems.append(at(tid, table.cell("board", r), "bm.rect.board-text", "rectification: board {value!r} is "
                               "not a board number", tournament=tid, field="board", row=r, value=board))
            continue
        ts.rect_rows.setdefault(number, r)
        kind = table.column("kind").choice(typed["kind"]) or as_text(typed["kind"]).lower()  # its id, from a word
        out.append(bm.Rectification(number, kind, tuple(ids(typed["row"])), tuple(ids(typed["ns"]))))
    return out


def _bridge_scores(tid: str, grid: Grid, ts: TournamentPlaces, problems: list[LocatedProblem]) -> dict[str, list[Any]]:
    """Each pair's bridge score per board (for the extra PTS), in the board columns."""
    table = d.BRIDGE_SCORES.at(ts.sections["bridge"])
    hand_scores: dict[str, list[Any]] = {}
    for r in ts.section_rows("bridge", len(grid)):
        pid = cell(grid, r, table.col("pair"))
        values = [cell(grid, r, ts.board_col(b)) for b in range(1, ts.boards + 1)]
        if is_blank(pid) and all(is_blank(v) for v in values):
            continue
        if is_blank(pid):
            problems.append(at(tid, table.cell("pair", r), "bm.hand.pair-empty", "bridge scores without the pair id",
                               tournament=tid, field="hand", row=r))
            continue
        pair = as_text(pid)
        if pair in ts.hand_rows:
            problems.append(at(tid, table.cell("pair", r), "bm.hand.twice", "bridge scores of {pair} twice (also row "
                               "{other})", tournament=tid, pair=pair, field="hand", row=r, other=ts.hand_rows[pair]))
            continue
        ts.hand_rows[pair] = r
        hand_scores[pair] = values
    return hand_scores


def _championship(tid: str, grid: Grid, problems: list[LocatedProblem]) -> bool:
    """Championship: blank or yes = counts; no = a friendly."""
    value = d.COUNTS.value(grid)
    if isinstance(value, bool):
        return value
    if is_blank(value):
        return True
    word = as_text(value).lower()
    yes, no = (w.lower() for w in d.COUNTS.choices())  # the words of the workbook's language
    if word in NO or word == no:
        return False
    if word not in YES and word != yes:
        problems.append(at(tid, d.COUNTS.cell, "bm.championship.word", "{label} {value!r} should be yes or no (no = a "
                           "friendly, not counted)", tournament=tid, field=d.COUNTS.id, label=d.COUNTS.text(),
                           value=value))
    return True
