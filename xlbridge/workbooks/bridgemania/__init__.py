"""The BridgeMania championship workbook: its layout, its recalculation and its builder.

One kind of :mod:`xlbridge.workbooks.recalc` (:class:`BridgeManiaSeason`, registered in
:data:`xlbridge.workbooks.kinds.KINDS`): the scorer types the season (base pairs,
guest register, the calendar) and one sheet per tournament (the board scores as
typed, statuses, penalties, rectifications, split pairs, bridge scores for the
extra PTS); :meth:`BridgeManiaSeason.plan` reads them into a
:class:`~xlbridge.clubs.bridgemania.Season`, calls the engine
(:func:`xlbridge.clubs.bridgemania.recalculate`) and returns the computed cells:
the computed columns of each tournament sheet and of the calendar, the
Championship sheet and the participation lists.  Every problem of the engine
(:class:`~xlbridge.clubs.bridgemania.SeasonError`) is mapped to the sheet and
cell the scorer typed.  The layout is documented in ``docs/clubs/bridgemania.md``
("The workbook").

No openpyxl at import time: the recalculation also runs in xlwings Lite; only
the builder (:func:`bridgemania_workbook`, ``xlbridge new bridgemania PATH``)
needs it.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xlbridge.rules.base import RuleError
from xlbridge.clubs import bridgemania as bm
from xlbridge.workbooks.book import BookAdapter, Grid
from xlbridge.workbooks.plan import Block, BookInputError, Plan, Problem, cell_name

# ------------------------------------------------------------------ layout

SEASON = "Season"
CHAMPIONSHIP = "Championship"
PARTICIPATION = "Participation"
BLANK_TOURNAMENT = "Blank tournament"  # the sheet to copy for a new tournament; never read
HOW_TO = "How to"

SEASON_TITLE = "BridgeMania championship — season"
TOURNAMENT_TITLE = "BridgeMania tournament"
CHAMPIONSHIP_TITLE = "BridgeMania championship — standings (computed: do not type here)"
PARTICIPATION_TITLE = "BridgeMania participation lists (section B)"

# Season sheet: three typed tables side by side, computed columns right of the calendar.
S_HEADER = 4
S_FIRST = 5
BASE_HEADERS = {1: "Pair", 2: "Player 1", 3: "Player 2", 4: "Name", 5: "Lot"}
GUEST_HEADERS = {7: "Guest", 8: "Name"}
CALENDAR_HEADERS = {10: "Tournament", 11: "Date", 12: "Host"}
CALENDAR_COMPUTED_COL = 14
CALENDAR_COMPUTED = ["Pairs", "Tables", "Boards", "TOP", "Penalty", "Base pairs", "Counts", "Winner"]

# Tournament sheet.
SETTINGS = {3: "Movement", 4: "TOP", 5: "Championship", 6: "Extra PTS to"}
T_HEADER = 8
T_FIRST = 9
FIRST_BOARD_COL = 4
MAIN_HEADERS = {1: "Pair", 2: "Status", 3: "Players"}
COMPUTED = ["List", "Penalty", "Absolute", "Score %", "Rank", "TOPs", "POTs", "Extra",
            "F1 PTS", "IndyCar PTS", "Hybrid PTS"]
PENALTIES = "Penalties"
RECTIFICATIONS = "Rectifications"
BRIDGE_SCORES = "Bridge scores"
SECTIONS = (PENALTIES, RECTIFICATIONS, BRIDGE_SCORES)
SECTION_HEADERS = {
    PENALTIES: ["Pair", "Board", "Note"],
    RECTIFICATIONS: ["Board", "Kind", "Annulled row (NS, EW)", "NS pairs of the board"],
    BRIDGE_SCORES: ["Pair", None, None],
}

# Championship sheet (all computed): three blocks side by side.
C_HEADER = 5
C_FIRST = 6
FINAL_COL = 1
FINAL_HEADERS = ["Place", "Pair", "Name", "Played", "Eligible", "F1 PTS", "IndyCar PTS", "Hybrid PTS",
                 "Rank F1", "Rank IndyCar", "Rank Hybrid", "Points", "TOPs", "POTs", "Tie-break"]
GENERAL_COL = 17
GENERAL_HEADERS = ["Rank", "Pair", "Kind", "Played", "Mean %"]
AFTER_COL = 23
AFTER_HEADERS = ["After", "Pair", "Played", "F1 PTS", "IndyCar PTS", "Hybrid PTS", "Rank F1", "Rank IndyCar",
                 "Rank Hybrid"]

# Participation sheet.
NEXT_SETTINGS = {3: "Next host", 4: "Base pairs that can play (host included)",
                 5: "Unable to play (ids, comma-separated)"}
P_HEADER = 7
P_FIRST = 8
NEXT_HEADERS = ["Position", "Next list", "Status"]
LISTS_COL = 5

# Colours (fills written by the plan use the same ones as the builder).
COMPUTED_COLOUR = "#DDEBF7"
INELIGIBLE_COLOUR = "#D9D9D9"
INPUT_COLOUR = "#FFF2CC"
TYPED_HEADER_COLOUR = "#1F4E78"
COMPUTED_HEADER_COLOUR = "#375623"

PCT = "0.00"
PTS = "0.000"
FORMATS = {"Score %": PCT, "Mean %": PCT, "F1 PTS": PTS, "IndyCar PTS": PTS, "Hybrid PTS": PTS, "Tables": "0.0"}

SPLIT_WORDS = {"split", "s", "scoppiata", "scoppiati", "scoppiate"}
YES = {"yes", "y", "si", "sì", "true", "1", "x"}
NO = {"no", "n", "false", "0", "friendly", "amichevole"}


# ------------------------------------------------------------------ reading helpers


def _at(grid: Grid, row: int, col: int) -> Any:
    if row <= len(grid) and col <= len(grid[row - 1]):
        return grid[row - 1][col - 1]
    return None


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _text(value: Any) -> str:
    """An id or name as text: Excel sends whole numbers as floats (12.0 -> "12")."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        return str(int(value))
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()[:10]
    return str(value).strip()


def _date(value: Any) -> str:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()[:10]
    text = _text(value)
    if len(text) >= 10 and text[4:5] == "-" and text[7:8] == "-":
        return text[:10]  # ISO text, also "2019-09-20T00:00:00.000Z" from Office.js
    return text


def _whole(value: Any) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return int(value) if math.isfinite(value) and value == int(value) else None
    try:
        number = float(str(value).strip())
    except ValueError:
        return None
    return int(number) if math.isfinite(number) and number == int(number) else None


def _ids(value: Any) -> list[str]:
    """``"AF, LS"`` / ``"AF - LS"`` / ``"AF/LS"`` -> ``["AF", "LS"]``."""
    text = _text(value)
    for sep in (";", "/", "&", "+", " - "):
        text = text.replace(sep, ",")
    return [part.strip() for part in text.split(",") if part.strip()]


def _players(value: Any) -> list[str]:
    text = _text(value)
    for sep in (";", "/", "&", "+"):
        text = text.replace(sep, ",")
    return [part.strip() for part in text.split(",") if part.strip()]


def _last_used_row(grid: Grid, first_row: int, col: int, width: int) -> int:
    """The last row from ``first_row`` with a value in columns col .. col+width-1 (first_row - 1 if none)."""
    last = first_row - 1
    for r in range(first_row, len(grid) + 1):
        line = grid[r - 1]
        if any(v is not None for v in line[col - 1: col - 1 + width]):
            last = r
    return last


def _padded(values: Grid, grid: Grid | None, row: int, col: int, width: int) -> Grid:
    """``values`` extended with blank rows over what the previous run left below it."""
    out = [list(line) + [None] * (width - len(line)) for line in values]
    if grid is not None:
        last = _last_used_row(grid, row, col, width)
        out += [[None] * width for _ in range(last - row + 1 - len(out))]
    return out


# ------------------------------------------------------------------ what was read, for locating problems


@dataclass
class _SeasonSheet:
    base_rows: dict[str, list[int]] = field(default_factory=dict)
    guest_rows: dict[str, list[int]] = field(default_factory=dict)
    calendar_rows: dict[str, list[int]] = field(default_factory=dict)
    calendar: list[tuple[int, str]] = field(default_factory=list)  # (row, tournament id), in order
    last_calendar_row: int = S_FIRST - 1


@dataclass
class _TournamentSheet:
    sheet: str
    main_rows: dict[str, int] = field(default_factory=dict)
    main_order: list[tuple[int, str]] = field(default_factory=list)  # every non-blank main row
    main_end: int = T_FIRST - 1
    computed_col: int = 0
    boards: int = 0
    penalty_rows: list[tuple[int, str]] = field(default_factory=list)
    rect_rows: dict[int, int] = field(default_factory=dict)
    hand_rows: dict[str, int] = field(default_factory=dict)
    typed_split: set[str] = field(default_factory=set)

    def board_col(self, board: int) -> int:
        return FIRST_BOARD_COL + board - 1


# ------------------------------------------------------------------ the kind


class BridgeManiaSeason:
    """The BridgeMania season workbook (``xlbridge new bridgemania``)."""

    name = "bridgemania"

    # -------------------------------------------------------------- recognising

    def recognises(self, book: BookAdapter) -> bool:
        names = book.sheet_names()
        if SEASON in names:
            title = _at(book.read(SEASON), 1, 1)
            return isinstance(title, str) and title.startswith("BridgeMania championship")
        # the season sheet renamed or deleted: still ours if a tournament sheet is there
        return any(_is_tournament_sheet(book.read(n)) for n in names if n not in (CHAMPIONSHIP, PARTICIPATION))

    # -------------------------------------------------------------- planning

    def plan(self, book: BookAdapter) -> Plan:
        names = book.sheet_names()
        if SEASON not in names:
            raise BookInputError([Problem(SEASON, None, f"the season sheet is missing: a sheet named {SEASON!r} "
                                          f"with {SEASON_TITLE!r} in A1 (sheets: {', '.join(names)})")])
        grids: dict[str, Grid] = {}

        def grid(sheet: str) -> Grid:
            if sheet not in grids:
                grids[sheet] = book.read(sheet)
            return grids[sheet]

        problems: list[Problem] = []
        season_grid = grid(SEASON)
        where = _SeasonSheet()
        header_problems = _check_headers(SEASON, season_grid, S_HEADER, {**BASE_HEADERS, **GUEST_HEADERS,
                                                                          **CALENDAR_HEADERS})
        if header_problems:
            raise BookInputError(header_problems)
        base_pairs, guests, reference, calendar = _read_season(season_grid, where, problems)

        base_ids = [b.id for b in base_pairs]
        guest_ids = {g.id for g in guests}
        listed = {tid for _, tid in where.calendar}
        tournaments: list[bm.Tournament] = []
        sheets: dict[str, _TournamentSheet] = {}
        for (row, tid), (date, host) in zip(where.calendar, calendar):
            if tid not in names:
                problems.append(Problem(SEASON, cell_name(row, 10),
                                        f"no sheet named {tid!r}: every tournament of the list needs its own sheet "
                                        f"(copy {BLANK_TOURNAMENT!r} and rename it)"))
                continue
            if tid in sheets:
                continue  # listed twice: the engine reports it
            ts = _TournamentSheet(tid)
            t = _read_tournament(tid, grid(tid), ts, date, host, base_ids, guest_ids, problems)
            if t is not None:
                sheets[tid] = ts
                tournaments.append(t)
        for name in names:
            if name in listed or name in (SEASON, CHAMPIONSHIP, PARTICIPATION, BLANK_TOURNAMENT, HOW_TO):
                continue
            if _is_tournament_sheet(grid(name)):
                problems.append(Problem(name, "A1", f"a tournament sheet that is not in the tournament list of "
                                        f"{SEASON} (add {name!r} to column J there, or delete the sheet)"))
        if not base_pairs and not problems:
            problems.append(Problem(SEASON, cell_name(S_FIRST, 1), "no base pairs typed: one row per base pair "
                                    "(pair id, player 1, player 2)"))

        season = bm.Season(base_pairs=tuple(base_pairs), tournaments=tuple(tournaments), guests=tuple(guests),
                           reference=tuple(reference), name=_text(_at(season_grid, 2, 2)))
        standings = None
        try:
            standings = bm.recalculate(season)
        except bm.SeasonError as error:
            problems += [_locate(p, where, sheets) for p in error.problems]
        except RuleError as error:  # pragma: no cover - the engine collects; kept as a safety net
            problems.append(Problem(SEASON, None, str(error)))

        next_list = None
        part_grid = grid(PARTICIPATION) if PARTICIPATION in names else None
        if standings is not None:
            next_list = _next_list(part_grid, standings, reference or base_ids, problems)
        if problems:
            raise BookInputError(problems)
        assert standings is not None
        return _layout(book, grid, names, season, standings, where, sheets, next_list)


def _is_tournament_sheet(grid: Grid) -> bool:
    title = _at(grid, 1, 1)
    return isinstance(title, str) and title.startswith(TOURNAMENT_TITLE)


def _check_headers(sheet: str, grid: Grid, row: int, expected: dict[int, Any]) -> list[Problem]:
    out = []
    for col, text in expected.items():
        got = _at(grid, row, col)
        if text is not None and _text(got) != text:
            shown = "empty" if _blank(got) else repr(got)
            out.append(Problem(sheet, cell_name(row, col), f"the header should be {text!r}, found {shown} "
                               "(a renamed or moved column: put the header back)"))
    return out


def _read_season(grid: Grid, where: _SeasonSheet, problems: list[Problem]):
    base_pairs: list[bm.BasePair] = []
    lots: list[tuple[int, Any, str]] = []
    guests: list[bm.Guest] = []
    calendar: list[tuple[str, str]] = []
    for r in range(S_FIRST, len(grid) + 1):
        pid, p1, p2, name, lot = (_at(grid, r, c) for c in range(1, 6))
        if not all(_blank(v) for v in (pid, p1, p2, name, lot)):
            if _blank(pid):
                problems.append(Problem(SEASON, cell_name(r, 1), "a base pair row without its pair id"))
            else:
                for col, player in ((2, p1), (3, p2)):
                    if _blank(player):
                        problems.append(Problem(SEASON, cell_name(r, col),
                                                f"base pair {_text(pid)}: player {col - 1} is empty"))
                pair = bm.BasePair(_text(pid), (_text(p1), _text(p2)), _text(name))
                base_pairs.append(pair)
                where.base_rows.setdefault(pair.id, []).append(r)
                lots.append((r, lot, pair.id))
        gid, gname = _at(grid, r, 7), _at(grid, r, 8)
        if not (_blank(gid) and _blank(gname)):
            if _blank(gid):
                problems.append(Problem(SEASON, cell_name(r, 7), "a guest row without its pair id"))
            else:
                guests.append(bm.Guest(_text(gid), _text(gname)))
                where.guest_rows.setdefault(_text(gid), []).append(r)
        tid, date, host = _at(grid, r, 10), _at(grid, r, 11), _at(grid, r, 12)
        if not (_blank(tid) and _blank(date) and _blank(host)):
            if _blank(tid):
                problems.append(Problem(SEASON, cell_name(r, 10), "a tournament row without its sheet name"))
            else:
                where.calendar.append((r, _text(tid)))
                where.calendar_rows.setdefault(_text(tid), []).append(r)
                where.last_calendar_row = r
                calendar.append((_date(date), _text(host)))
    # the reference list (section B): the lot numbers 1..n, or all blank (= the order of the rows)
    reference: list[str] = []
    typed = [(r, lot, pid) for r, lot, pid in lots if not _blank(lot)]
    if typed:
        n = len(lots)
        seen: dict[int, int] = {}
        for r, lot, pid in lots:
            number = _whole(lot)
            if _blank(lot):
                problems.append(Problem(SEASON, cell_name(r, 5), f"base pair {pid}: the lot number is empty "
                                        f"(type 1..{n} for every pair, or leave the whole column blank)"))
            elif number is None or not 1 <= number <= n:
                problems.append(Problem(SEASON, cell_name(r, 5), f"lot {lot!r} is not a whole number from 1 to {n}"))
            elif number in seen:
                problems.append(Problem(SEASON, cell_name(r, 5), f"lot {number} is also in row {seen[number]}"))
            else:
                seen[number] = r
        if len(seen) == n:
            reference = [pid for _, lot, pid in sorted(lots, key=lambda x: _whole(x[1]) or 0)]
    return base_pairs, guests, reference, calendar


def _read_tournament(tid: str, grid: Grid, ts: _TournamentSheet, date: str, host: str, base_ids: list[str],
                     guest_ids: set[str], problems: list[Problem]) -> bm.Tournament | None:
    before = len(problems)
    if not _is_tournament_sheet(grid):
        problems.append(Problem(tid, "A1", f"not a BridgeMania tournament sheet (A1 should start with "
                                f"{TOURNAMENT_TITLE!r}; copy {BLANK_TOURNAMENT!r} for a new tournament)"))
        return None
    for row, label in SETTINGS.items():
        if _text(_at(grid, row, 1)) != label:
            found = _at(grid, row, 1)
            problems.append(Problem(tid, cell_name(row, 1), f"the label should be {label!r} "
                                    f"(found {'empty' if _blank(found) else repr(found)})"))
    problems += _check_headers(tid, grid, T_HEADER, MAIN_HEADERS)
    # board columns: 1, 2, 3, ... from D
    col = FIRST_BOARD_COL
    while _whole(_at(grid, T_HEADER, col)) == col - FIRST_BOARD_COL + 1:
        col += 1
    width = col - FIRST_BOARD_COL
    if width == 0:
        problems.append(Problem(tid, cell_name(T_HEADER, FIRST_BOARD_COL),
                                "the board numbers 1, 2, 3, ... should start here"))
    # the computed columns: found by their first header, right of the boards
    start = None
    for c in range(col, max(len(grid[T_HEADER - 1]) if len(grid) >= T_HEADER else 0, col) + 1):
        if _text(_at(grid, T_HEADER, c)) == COMPUTED[0]:
            start = c
            break
    if start is None:
        problems.append(Problem(tid, cell_name(T_HEADER, col + 1), f"the computed columns ({', '.join(COMPUTED)}) "
                                "should start here, right of the boards (a renamed or deleted header?)"))
    else:
        problems += _check_headers(tid, grid, T_HEADER, {start + i: h for i, h in enumerate(COMPUTED)})
        ts.computed_col = start
    # the sections below the pairs
    found: dict[str, int] = {}
    for r in range(T_FIRST, len(grid) + 1):
        label = _text(_at(grid, r, 1))
        if label in SECTIONS:
            if label in found:
                problems.append(Problem(tid, cell_name(r, 1), f"a second {label!r} section (also row {found[label]})"))
            found[label] = r
    for label in SECTIONS:
        if label not in found:
            problems.append(Problem(tid, cell_name(T_FIRST, 1), f"the section {label!r} is missing: its title "
                                    "should be in column A below the pairs (renamed or deleted?)"))
    if len(problems) > before:
        return None
    starts = sorted(found.values())
    ts.main_end = starts[0] - 1

    def section(label: str) -> range:
        first = found[label]
        following = [s for s in starts if s > first]
        return range(first + 2, (following[0] if following else len(grid) + 1))

    # pairs: the boards used are those with any score typed
    rows = range(T_FIRST, ts.main_end + 1)
    nboards = 0
    for r in rows:
        for b in range(width, 0, -1):
            if not _blank(_at(grid, r, FIRST_BOARD_COL + b - 1)):
                nboards = max(nboards, b)
                break
    ts.boards = nboards
    scores: dict[str, list[Any]] = {}
    status: dict[str, Any] = {}
    splits: dict[str, tuple[str, ...]] = {}
    for r in rows:
        pid, word, players = _at(grid, r, 1), _at(grid, r, 2), _at(grid, r, 3)
        board_values = [_at(grid, r, FIRST_BOARD_COL + i) for i in range(nboards)]
        has_scores = any(not _blank(v) for v in board_values)
        if _blank(pid) and _blank(word) and _blank(players) and not has_scores:
            continue
        if _blank(pid):
            problems.append(Problem(tid, cell_name(r, 1), "a row without its pair id"))
            continue
        pair = _text(pid)
        if pair in ts.main_rows:
            problems.append(Problem(tid, cell_name(r, 1), f"pair {pair} appears twice (also row {ts.main_rows[pair]})"))
            continue
        ts.main_rows[pair] = r
        ts.main_order.append((r, pair))
        typed_status = _text(word)
        if pair in base_ids:
            if typed_status.lower() in SPLIT_WORDS:
                ts.typed_split.add(pair)
                if has_scores:
                    problems.append(Problem(tid, cell_name(r, 2), f"{pair}: typed split, but it has board scores "
                                            "(a split pair's players play in temporary pairs)"))
            elif not _blank(word):
                if has_scores and bm.STATUS_WORDS.get(typed_status.lower()):
                    # reported once here; the scores stay in for the board checks (they are
                    # on the traveller), so the boards do not report a follow-on each
                    problems.append(Problem(tid, cell_name(r, 2), f"{pair}: the status says {typed_status!r} but "
                                            "board scores are typed: clear the scores or the status"))
                else:
                    status[pair] = typed_status
        elif not _blank(word) and typed_status.upper() not in ("O", "P"):
            problems.append(Problem(tid, cell_name(r, 2), f"{pair}: a status (waiting, ill, unable, split) is only "
                                    "for base pairs; leave it blank for guests and temporary pairs"))
        if pair not in base_ids and pair not in guest_ids:
            if not _blank(players):
                splits[pair] = tuple(_players(players))
            elif not has_scores:
                problems.append(Problem(tid, cell_name(r, 1), f"unknown pair {pair!r}: not a base pair, a registered "
                                        "guest or a split pair (type its two players in Players)"))
                continue
        if has_scores:
            scores[pair] = board_values
    # penalties: one row per guilty pair and error
    penalties = []
    for r in section(PENALTIES):
        pid, board, note = _at(grid, r, 1), _at(grid, r, 2), _at(grid, r, 3)
        if _blank(pid) and _blank(board) and _blank(note):
            continue
        if _blank(pid):
            problems.append(Problem(tid, cell_name(r, 1), "a penalty without the guilty pair"))
            continue
        ts.penalty_rows.append((r, _text(pid)))
        penalties.append(bm.Penalty((_text(pid),), _text(note)))
    rectifications = []
    for r in section(RECTIFICATIONS):
        values = [_at(grid, r, c) for c in range(1, 5)]
        if all(_blank(v) for v in values):
            continue
        board = _whole(values[0])
        if _blank(values[0]):
            problems.append(Problem(tid, cell_name(r, 1), "rectification: the board is empty (type the board number)"))
            continue
        if board is None:
            problems.append(Problem(tid, cell_name(r, 1), f"rectification: board {values[0]!r} is not a board number"))
            continue
        ts.rect_rows.setdefault(board, r)
        rectifications.append(bm.Rectification(board, _text(values[1]).lower(), tuple(_ids(values[2])),
                                               tuple(_ids(values[3]))))
    hand_scores: dict[str, list[Any]] = {}
    for r in section(BRIDGE_SCORES):
        pid = _at(grid, r, 1)
        values = [_at(grid, r, FIRST_BOARD_COL + i) for i in range(nboards)]
        if _blank(pid) and all(_blank(v) for v in values):
            continue
        if _blank(pid):
            problems.append(Problem(tid, cell_name(r, 1), "bridge scores without the pair id"))
            continue
        pair = _text(pid)
        if pair in ts.hand_rows:
            problems.append(Problem(tid, cell_name(r, 1),
                                    f"bridge scores of {pair} twice (also row {ts.hand_rows[pair]})"))
            continue
        ts.hand_rows[pair] = r
        hand_scores[pair] = values
    top_hand = _ids(_at(grid, 6, 2))
    if top_hand and any(not _blank(v) for row in hand_scores.values() for v in row):
        problems.append(Problem(tid, "B6", "type either the bridge scores (the extra PTS is then computed) or the "
                                "pairs in 'Extra PTS to', not both"))
    championship = _at(grid, 5, 2)
    counts = True
    if isinstance(championship, bool):
        counts = championship
    elif not _blank(championship):
        word = _text(championship).lower()
        if word in NO:
            counts = False
        elif word not in YES:
            problems.append(Problem(tid, "B5", f"Championship {championship!r} should be yes or no "
                                    "(no = a friendly, not counted)"))
    movement = _at(grid, 3, 2)
    return bm.Tournament(
        id=tid, host=host, scores=scores, date=date, top=_at(grid, 4, 2),
        movement="howell" if _blank(movement) else _text(movement), status=status, splits=splits,
        penalties=tuple(penalties), rectifications=tuple(rectifications), hand_scores=hand_scores,
        top_hand=tuple(top_hand), championship=counts,
    )


def _locate(p: bm.Problem, where: _SeasonSheet, sheets: dict[str, _TournamentSheet]) -> Problem:
    """The sheet and cell of one engine problem."""
    msg, pair, board = p.message, p.pair, p.board
    if msg.startswith("tournament id appears twice"):
        rows = where.calendar_rows.get(p.tournament, [S_FIRST])
        return Problem(SEASON, cell_name(rows[-1], 10), f"tournament {p.tournament} is listed twice")
    if msg.startswith(("the host is not", "the host did not", "the host is empty")):
        rows = where.calendar_rows.get(p.tournament, [S_FIRST])
        return Problem(SEASON, cell_name(rows[0], 12), f"{p.tournament}: {msg}")
    if not p.tournament or p.tournament not in sheets:
        if pair in where.guest_rows and ("guest" in msg):
            rows = where.guest_rows[pair]
            return Problem(SEASON, cell_name(rows[-1], 7), f"{pair}: {msg}")
        if pair in where.base_rows:
            rows = where.base_rows[pair]
            col = 2 if ("player" in msg) else 1
            return Problem(SEASON, cell_name(rows[-1], col), f"{pair}: {msg}")
        if msg.startswith("the reference list"):
            return Problem(SEASON, cell_name(S_FIRST, 5), msg)
        return Problem(SEASON, None, str(p))
    ts = sheets[p.tournament]
    sheet = ts.sheet
    row = ts.main_rows.get(pair)
    friendly = "type no in Championship (B5) to keep it as a friendly"
    if msg.startswith("hand score "):
        hrow = ts.hand_rows.get(pair)
        if hrow and board:
            return Problem(sheet, cell_name(hrow, ts.board_col(board)), f"bridge score {p.value!r} is not a number")
    if msg.startswith("hand scores for"):
        if pair in ts.hand_rows:
            return Problem(sheet, cell_name(ts.hand_rows[pair], 1), f"bridge scores of {pair}, a pair that is not "
                           "in the tournament")
    if msg.startswith("the extra PTS"):
        return Problem(sheet, "B6", f"{pair}: {msg}")
    if msg.startswith("penalty for"):
        for r, guilty in ts.penalty_rows:
            if guilty == pair:
                return Problem(sheet, cell_name(r, 1), f"{pair}: {msg}")
    if msg.startswith("rectification of board"):
        r = ts.rect_rows.get(p.value if isinstance(p.value, int) else -1)
        if r:
            return Problem(sheet, cell_name(r, 1), msg)
    if msg.startswith(("rectification", "two rectifications")) and board in ts.rect_rows:
        col = 3 if "annulled row" in msg else 4 if ("ns must" in msg or "NS line" in msg) else 2 if "kind" in msg else 1
        # the engine's field ns is the column 'NS pairs of the board' here
        msg = msg.replace("rectification: ns must list", f"rectification: {SECTION_HEADERS[RECTIFICATIONS][3]!r} must list")
        return Problem(sheet, cell_name(ts.rect_rows[board], col), f"board {board}: {msg}")
    if "TOP" in msg and not pair and board is None:
        return Problem(sheet, "B4", msg)
    if msg.startswith("not valid: movement"):
        return Problem(sheet, "B3", msg.replace("mark it championship=False to keep it as a friendly", friendly))
    if msg.startswith("not valid"):
        return Problem(sheet, "B5", f"{msg} (or {friendly})")
    if msg == "no scores typed":
        return Problem(sheet, cell_name(T_FIRST, 1), "no scores typed")
    if board is not None and row is not None:
        return Problem(sheet, cell_name(row, ts.board_col(board)), msg)
    if board is not None and not pair:
        return Problem(sheet, cell_name(T_HEADER, ts.board_col(board)), f"board {board}: {msg}")
    if pair and row is not None:
        if pair in ts.typed_split and msg.startswith("did not play"):
            return Problem(sheet, cell_name(row, 2), f"{pair}: typed split, but its two players are not both in "
                           "temporary pairs of this tournament (type them in Players of the temporary pairs)")
        if msg.startswith(("played but", "did not play", "status ", "is split but")):
            col = 2
        elif msg.startswith(("a split pair", "player ", "a temporary")):
            col = 3
        else:
            col = 1
        return Problem(sheet, cell_name(row, col), f"{pair}: {msg}")
    if pair:
        return Problem(sheet, cell_name(T_HEADER, 1), f"{pair}: {msg}; add a row for it")
    return Problem(sheet, "A1", msg)


def _next_list(grid: Grid | None, standings: bm.Standings, reference: Sequence[str],
               problems: list[Problem]) -> list[tuple[str, str]] | None:
    if grid is None:
        return None
    host, capacity, unable = (_at(grid, r, 2) for r in NEXT_SETTINGS)
    if _blank(host):
        return None
    if _blank(capacity):
        problems.append(Problem(PARTICIPATION, "B4", "the number of base pairs that can play is empty; type how many "
                                "base pairs can play in the next tournament (the host included)"))
        return None
    try:
        if not standings.tournaments:
            return bm.first_participation_list(list(reference), _text(host), capacity, _ids(unable))
        return bm.upcoming_participation_list(standings, _text(host), capacity, _ids(unable))
    except RuleError as error:
        text = str(error)
        cell = "B4" if "number of base pairs" in text else "B5" if "unable" in text else "B3"
        problems.append(Problem(PARTICIPATION, cell, text))
        return None


# ------------------------------------------------------------------ writing


def _winner(result: bm.TournamentResult) -> str:
    return ", ".join(e.entry for e in result.entries if e.rank == 1)


def _tie_note(row: bm.FinalRow, final: Sequence[bm.FinalRow]) -> str | None:
    if row.place is None:
        return None
    peers = [o for o in final if o.pair != row.pair and o.place is not None and o.points == row.points]
    if not peers:
        return None
    parts = []
    for o in peers:
        if o.played != row.played:
            how = "tournaments played"
        elif o.tops != row.tops:
            how = "TOPs"
        elif o.pots != row.pots:
            how = "POTs"
        else:
            how = "still tied"
        parts.append(f"{o.pair} ({how})")
    return f"{row.points} points like " + ", ".join(parts)


def _layout(book: BookAdapter, grid, names: list[str], season: bm.Season, standings: bm.Standings,
            where: _SeasonSheet, sheets: dict[str, _TournamentSheet],
            next_list: list[tuple[str, str]] | None) -> Plan:
    plan = Plan()
    results = {r.id: r for r in standings.tournaments}
    # calendar: computed columns right of the list
    values: Grid = []
    rows: list[str] = []
    for r in range(S_FIRST, where.last_calendar_row + 1):
        tid = next((t for row, t in where.calendar if row == r), None)
        res = results.get(tid) if tid else None
        rows.append(tid or "")
        if res is None:
            values.append([None] * len(CALENDAR_COMPUTED))
            continue
        values.append([res.pairs, res.tables, res.boards, res.top, res.penalty_unit, res.base_pairs_playing,
                       "yes" if res.championship else "no (friendly)", _winner(res)])
    values = _padded(values, grid(SEASON), S_FIRST, CALENDAR_COMPUTED_COL, len(CALENDAR_COMPUTED))
    if values:
        plan.blocks.append(Block(SEASON, S_FIRST, CALENDAR_COMPUTED_COL, values, what="Season",
                                 rows=rows, columns=CALENDAR_COMPUTED))
    # each tournament sheet
    for tid, ts in sheets.items():
        res = results[tid]
        entries = {e.entry: e for e in res.entries}
        nights = {n.pair: n for n in res.base}
        listed = dict(res.participation)
        block: Grid = []
        units: list[str] = []
        order = dict(ts.main_order)
        for r in range(T_FIRST, ts.main_end + 1):
            pair = order.get(r)
            units.append(pair or "")
            e, n = entries.get(pair), nights.get(pair)
            mark = listed.get(pair)
            if e is not None:
                f1, indy, hybrid = (e.f1, e.indy, e.hybrid) if n is None else (n.f1, n.indy, n.hybrid)
                if e.kind == "guest":
                    f1 = indy = hybrid = None
                block.append([mark, e.penalty, e.absolute, e.percent, e.rank, e.tops, e.pots, e.extra,
                              f1, indy, hybrid])
            elif n is not None and n.status == "S":
                block.append([mark, None, None, n.percent, None, n.tops, n.pots, n.extra, n.f1, n.indy, n.hybrid])
            elif n is not None:
                block.append([mark, None, None, None, None, None, None, None, n.f1, n.indy, n.hybrid])
            else:
                block.append([None] * len(COMPUTED))
        if block:
            plan.blocks.append(Block(tid, T_FIRST, ts.computed_col, block, what=tid, rows=units, columns=COMPUTED))
    # the Championship sheet (all computed)
    existing = set(names)
    if CHAMPIONSHIP not in existing:
        plan.new_sheets.append(CHAMPIONSHIP)
    old = grid(CHAMPIONSHIP) if CHAMPIONSHIP in existing else None
    plan.blocks.append(Block(CHAMPIONSHIP, 1, 1, [[CHAMPIONSHIP_TITLE]], what="Championship"))
    plan.blocks.append(Block(CHAMPIONSHIP, 2, 1, [["Valid tournaments", standings.valid,
                                                  "Needed to be eligible (half + 1)", standings.threshold]],
                             what="Championship", rows=["summary"],
                             columns=["", "Valid tournaments", "", "Needed to be eligible"]))
    labels = [[None] * (AFTER_COL + len(AFTER_HEADERS) - 1), [None] * (AFTER_COL + len(AFTER_HEADERS) - 1)]
    for col, label, headers in ((FINAL_COL, "Final ranking — Ricalibratura della storia (C.04)", FINAL_HEADERS),
                                (GENERAL_COL, "General ranking: mean of the tournament scores (C.02)",
                                 GENERAL_HEADERS),
                                (AFTER_COL, "The three standings after each tournament (C.03)", AFTER_HEADERS)):
        labels[0][col - 1] = label
        labels[1][col - 1: col - 1 + len(headers)] = headers
    plan.blocks.append(Block(CHAMPIONSHIP, C_HEADER - 1, 1, labels, what="Championship"))
    names_of = {b.id: b.name for b in season.base_pairs}
    names_of.update({g.id: g.name for g in season.guests})
    last = {r.pair: r for r in standings.after[-1][1]} if standings.after else {}
    final = []
    for i, row in enumerate(standings.final):
        totals = last.get(row.pair)
        final.append([row.place, row.pair, names_of.get(row.pair) or None, row.played,
                      "yes" if row.eligible else "no",
                      totals.f1 if totals else None, totals.indy if totals else None,
                      totals.hybrid if totals else None, row.rank_f1, row.rank_indy, row.rank_hybrid,
                      row.points, row.tops, row.pots, _tie_note(row, standings.final)])
        colour = COMPUTED_COLOUR if row.eligible else INELIGIBLE_COLOUR
        plan.fills += [(CHAMPIONSHIP, C_FIRST + i, FINAL_COL + c, colour) for c in range(len(FINAL_HEADERS))]
    plan.blocks.append(Block(CHAMPIONSHIP, C_FIRST, FINAL_COL, _padded(final, old, C_FIRST, FINAL_COL,
                                                                       len(FINAL_HEADERS)),
                             what="Final ranking", rows=[r.pair for r in standings.final], columns=FINAL_HEADERS))
    general = [[g.rank, g.pair, g.kind, g.played, g.mean] for g in standings.general]
    plan.blocks.append(Block(CHAMPIONSHIP, C_FIRST, GENERAL_COL, _padded(general, old, C_FIRST, GENERAL_COL,
                                                                         len(GENERAL_HEADERS)),
                             what="General ranking", rows=[g.pair for g in standings.general],
                             columns=GENERAL_HEADERS))
    after = [[tid, r.pair, r.played, r.f1, r.indy, r.hybrid, r.rank_f1, r.rank_indy, r.rank_hybrid]
             for tid, table in standings.after for r in table]
    plan.blocks.append(Block(CHAMPIONSHIP, C_FIRST, AFTER_COL, _padded(after, old, C_FIRST, AFTER_COL,
                                                                       len(AFTER_HEADERS)),
                             what="Standings after each tournament",
                             rows=[f"{tid} {r.pair}" for tid, table in standings.after for r in table],
                             columns=AFTER_HEADERS))
    # the participation lists
    if PARTICIPATION not in existing:
        plan.new_sheets.append(PARTICIPATION)
        plan.blocks.append(Block(PARTICIPATION, 1, 1, [[PARTICIPATION_TITLE]], what="Participation"))
        plan.blocks.append(Block(PARTICIPATION, 3, 1, [[label] for label in NEXT_SETTINGS.values()],
                                 what="Participation"))
        plan.blocks.append(Block(PARTICIPATION, P_HEADER, 1, [NEXT_HEADERS], what="Participation"))
        pgrid = None
    else:
        pgrid = grid(PARTICIPATION)
    upcoming = [[i + 1, p, s] for i, (p, s) in enumerate(next_list or [])]
    plan.blocks.append(Block(PARTICIPATION, P_FIRST, 1, _padded(upcoming, pgrid, P_FIRST, 1, 3),
                             what="Next participation list", rows=[p for _, p, _ in upcoming],
                             columns=NEXT_HEADERS))
    lists: Grid = [[] for _ in range(1 + max((len(t.participation) for t in standings.tournaments), default=0))]
    for t in standings.tournaments:
        lists[0] += [t.id, f"{t.id} list"]
        for i in range(1, len(lists)):
            pair, mark = t.participation[i - 1] if i - 1 < len(t.participation) else (None, None)
            lists[i] += [pair, mark]
    width = len(lists[0])
    if pgrid is not None:  # as wide as what the previous run left
        for line in pgrid[P_HEADER - 1:]:
            used = [c for c, v in enumerate(line, start=1) if c >= LISTS_COL and v is not None]
            width = max(width, (max(used) - LISTS_COL + 1) if used else 0)
    if width:
        lists = _padded(lists, pgrid, P_HEADER, LISTS_COL, width)
        plan.blocks.append(Block(PARTICIPATION, P_HEADER, LISTS_COL, lists, what="Participation lists",
                                 rows=["header"] + [f"position {i}" for i in range(1, len(lists))],
                                 columns=lists[0]))
    return plan


# ------------------------------------------------------------------ builder


def bridgemania_workbook(blank: bool = False):
    """The BridgeMania season workbook: the demo season recalculated, or a blank template."""
    if blank:
        return season_workbook(None)
    from xlbridge.clubs.bridgemania.demo import demo_season

    season = demo_season()
    # the next tournament of the demo's rotation of hosts, with 8 base pairs
    return season_workbook(season, next_host=season.reference[len(season.tournaments) % len(season.reference)],
                           capacity=8)


def season_workbook(season: bm.Season | None, next_host: str | None = None, capacity: int | None = None):
    """A workbook holding ``season`` as a scorer would type it, recalculated (``None``: a blank template)."""
    from openpyxl import Workbook

    from xlbridge.files.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.recalc import apply

    wb = Workbook()
    ws = wb.active
    ws.title = SEASON
    _build_season(ws, season)
    if season is not None:
        for t in season.tournaments:
            _build_tournament(wb.create_sheet(t.id), season, t)
    _build_tournament(wb.create_sheet(BLANK_TOURNAMENT), season, None)
    _build_championship(wb.create_sheet(CHAMPIONSHIP), season)
    _build_participation(wb.create_sheet(PARTICIPATION), season)
    wb[PARTICIPATION]["B3"], wb[PARTICIPATION]["B4"] = next_host, capacity
    _build_how_to(wb.create_sheet(HOW_TO))
    if season is not None:
        adapter = OpenpyxlBook(wb)
        plan = BridgeManiaSeason().plan(adapter)
        apply(adapter, plan)
    return wb


def _styles():
    from openpyxl.styles import Alignment, Font, PatternFill

    def fill(colour: str) -> PatternFill:
        rgb = "FF" + colour.lstrip("#")
        return PatternFill("solid", start_color=rgb, end_color=rgb)

    return {
        "typed_header": fill(TYPED_HEADER_COLOUR), "computed_header": fill(COMPUTED_HEADER_COLOUR),
        "input": fill(INPUT_COLOUR), "computed": fill(COMPUTED_COLOUR),
        "header_font": Font(bold=True, color="FFFFFFFF"), "title": Font(bold=True, size=14),
        "bold": Font(bold=True), "center": Alignment(horizontal="center", vertical="center", wrap_text=True),
    }


def _header(ws, row: int, col: int, texts: Sequence[Any], computed: bool = False) -> None:
    st = _styles()
    for i, text in enumerate(texts):
        cell = ws.cell(row=row, column=col + i, value=text)
        cell.fill = st["computed_header" if computed else "typed_header"]
        cell.font, cell.alignment = st["header_font"], st["center"]


def _width(ws, col: int, width: float) -> None:
    from openpyxl.utils import get_column_letter

    ws.column_dimensions[get_column_letter(col)].width = width


def _computed_cells(ws, row: int, col: int, nrows: int, headers: Sequence[str]) -> None:
    st = _styles()
    for r in range(row, row + nrows):
        for i, header in enumerate(headers):
            cell = ws.cell(row=r, column=col + i)
            cell.fill = st["computed"]
            cell.number_format = FORMATS.get(header, "General")


def _input_cells(ws, row: int, col: int, nrows: int, ncols: int) -> None:
    st = _styles()
    for r in range(row, row + nrows):
        for c in range(col, col + ncols):
            ws.cell(row=r, column=c).fill = st["input"]


def _build_season(ws, season: bm.Season | None) -> None:
    st = _styles()
    ws["A1"] = SEASON_TITLE
    ws["A1"].font = st["title"]
    ws["A2"] = "Season"
    ws["A2"].font = st["bold"]
    ws["B2"] = season.name if season else None
    ws["B2"].fill = st["input"]
    for col, label in ((1, "Base pairs (Lot = place in the reference list drawn by lot, section B)"),
                       (7, "Guest register"), (10, "Tournaments: one sheet each, named as here"),
                       (CALENDAR_COMPUTED_COL, "Computed by xlbridge")):
        ws.cell(row=3, column=col, value=label).font = st["bold"]
    for headers in (BASE_HEADERS, GUEST_HEADERS, CALENDAR_HEADERS):
        for col, text in headers.items():
            _header(ws, S_HEADER, col, [text])
    _header(ws, S_HEADER, CALENDAR_COMPUTED_COL, CALENDAR_COMPUTED, computed=True)
    for col, width in {1: 8, 2: 12, 3: 12, 4: 20, 5: 6, 6: 2, 7: 8, 8: 20, 9: 2, 10: 12, 11: 12, 12: 8, 13: 2,
                       14: 7, 15: 7, 16: 7, 17: 6, 18: 8, 19: 7, 20: 13, 21: 12}.items():
        _width(ws, col, width)
    ws.freeze_panes = ws.cell(row=S_FIRST, column=1)
    nbase = max(11, len(season.base_pairs) if season else 0)
    nguest = max(10, len(season.guests) if season else 0)
    ncal = max(20, len(season.tournaments) if season else 0)
    _input_cells(ws, S_FIRST, 1, nbase, 5)
    _input_cells(ws, S_FIRST, 7, nguest, 2)
    _input_cells(ws, S_FIRST, 10, ncal, 3)
    _computed_cells(ws, S_FIRST, CALENDAR_COMPUTED_COL, ncal, CALENDAR_COMPUTED)
    for r in range(S_FIRST, S_FIRST + ncal):
        ws.cell(row=r, column=11).number_format = "yyyy-mm-dd"
    if season is None:
        return
    lot = {pid: i for i, pid in enumerate(season.reference, start=1)}
    for r, b in enumerate(season.base_pairs, start=S_FIRST):
        for col, value in enumerate((b.id, b.players[0], b.players[1], b.name, lot.get(b.id)), start=1):
            ws.cell(row=r, column=col, value=value)
    for r, g in enumerate(season.guests, start=S_FIRST):
        ws.cell(row=r, column=7, value=g.id)
        ws.cell(row=r, column=8, value=g.name)
    for r, t in enumerate(season.tournaments, start=S_FIRST):
        ws.cell(row=r, column=10, value=t.id)
        ws.cell(row=r, column=11, value=dt.datetime.fromisoformat(t.date) if t.date else None)
        ws.cell(row=r, column=12, value=t.host)


def _build_tournament(ws, season: bm.Season | None, t: bm.Tournament | None) -> None:
    st = _styles()
    ws["A1"] = f"{TOURNAMENT_TITLE} {t.id}" if t else f"{TOURNAMENT_TITLE} (copy this sheet, rename it as the " \
        "tournament and add it to the list on the Season sheet)"
    ws["A1"].font = st["title"]
    settings = {3: t.movement if t else None, 4: t.top if t else None,
                5: ("yes" if t.championship else "no") if t else None,
                6: ", ".join(t.top_hand) if t and t.top_hand else None}
    for row, label in SETTINGS.items():
        ws.cell(row=row, column=1, value=label).font = st["bold"]
        cell = ws.cell(row=row, column=2, value=settings[row])
        cell.fill = st["input"]
    ws["C3"] = "howell or mitchell scrambled (blank = howell)"
    ws["C4"] = "blank = from the scores: 2 x (rows - 1)"
    ws["C5"] = "yes = counts for the championship (blank = yes); no = a friendly"
    ws["C6"] = "only when no bridge scores are typed below: the pairs with the highest bridge score"
    nboards = len(next(iter(t.scores.values()))) if t else 28
    boards = list(range(1, nboards + 1))
    _header(ws, T_HEADER, 1, list(MAIN_HEADERS.values()) + boards)
    start = FIRST_BOARD_COL + nboards + 1
    _header(ws, T_HEADER, start, COMPUTED, computed=True)
    for col, width in {1: 8, 2: 9, 3: 18}.items():
        _width(ws, col, width)
    for b in boards:  # board scores, and four-digit bridge scores (-1430) further down
        _width(ws, FIRST_BOARD_COL + b - 1, 6.5)
    _width(ws, start - 1, 2)
    for i, header in enumerate(COMPUTED):
        _width(ws, start + i, max(9 if "PTS" in header else 7.5, len(header) + 2))
    ws.freeze_panes = ws.cell(row=T_FIRST, column=FIRST_BOARD_COL)
    # the pairs: every base pair (its scores, or its status), temporary pairs, guests
    rows: list[tuple[str, Any, Any, Sequence[Any]]] = []
    if t is not None and season is not None:
        split_base = {b.id for b in season.base_pairs
                      if any(p in members for members in t.splits.values() for p in b.players)}
        for b in season.base_pairs:
            if b.id in t.scores:
                rows.append((b.id, None, None, t.scores[b.id]))
            elif b.id in split_base:
                rows.append((b.id, "split", None, ()))
            else:
                rows.append((b.id, t.status.get(b.id), None, ()))
        for temp, members in t.splits.items():
            rows.append((temp, None, " / ".join(members), t.scores[temp]))
        for entry, scores in t.scores.items():
            if entry not in {r[0] for r in rows}:
                rows.append((entry, None, None, scores))
    elif season is not None:
        rows = [(b.id, None, None, ()) for b in season.base_pairs]
    nrows = max(len(rows) + 2, 16)
    _input_cells(ws, T_FIRST, 1, nrows, 3 + nboards)
    _computed_cells(ws, T_FIRST, start, nrows, COMPUTED)
    for r, (pair, word, players, scores) in enumerate(rows, start=T_FIRST):
        ws.cell(row=r, column=1, value=pair)
        ws.cell(row=r, column=2, value=word)
        ws.cell(row=r, column=3, value=players)
        for b, value in enumerate(scores):
            ws.cell(row=r, column=FIRST_BOARD_COL + b, value=value)
    # sections
    row = T_FIRST + nrows + 1
    section_rows: dict[str, list[list[Any]]] = {PENALTIES: [], RECTIFICATIONS: [], BRIDGE_SCORES: []}
    if t is not None:
        for penalty in t.penalties:
            for guilty in penalty.pairs:
                section_rows[PENALTIES].append([guilty, _board_of(penalty.note), penalty.note])
        for rect in t.rectifications:
            section_rows[RECTIFICATIONS].append([rect.board, rect.kind, ", ".join(rect.row) or None,
                                                 ", ".join(rect.ns) or None])
        for entry, hands in t.hand_scores.items():
            section_rows[BRIDGE_SCORES].append([entry, None, None, *hands])
    helps = {PENALTIES: "one row per guilty pair and error (D.04): each loses half the average board score",
             RECTIFICATIONS: "D.05: partial (annulled row NS, EW; and every NS pair of the board) or irreversible",
             BRIDGE_SCORES: "optional: each pair's bridge score per board (+1430, -100; R = sit-out) -> the extra PTS"}
    for label in SECTIONS:
        ws.cell(row=row, column=1, value=label).font = st["title"]
        ws.cell(row=row, column=3, value=helps[label])
        headers = SECTION_HEADERS[label] + (boards if label == BRIDGE_SCORES else [])
        _header(ws, row + 1, 1, headers)
        lines = section_rows[label]
        size = max(len(lines) + 1, 3) if label != BRIDGE_SCORES else max(len(lines) + 1, 4)
        _input_cells(ws, row + 2, 1, size, len(headers) if label != RECTIFICATIONS else 3 + max(nboards, 1))
        for r, line in enumerate(lines, start=row + 2):
            for c, value in enumerate(line, start=1):
                ws.cell(row=r, column=c, value=value)
        row += 2 + size + 1


def _board_of(note: str) -> int | None:
    words = note.replace(":", " ").split()
    for a, b in zip(words, words[1:]):
        if a.lower() == "board" and b.isdigit():
            return int(b)
    return None


def _build_championship(ws, season: bm.Season | None) -> None:
    st = _styles()
    ws["A1"] = CHAMPIONSHIP_TITLE
    ws["A1"].font = st["title"]
    for col, headers in ((FINAL_COL, FINAL_HEADERS), (GENERAL_COL, GENERAL_HEADERS), (AFTER_COL, AFTER_HEADERS)):
        ws.cell(row=C_HEADER - 1, column=col).font = st["bold"]
        _header(ws, C_HEADER, col, headers, computed=True)
    nbase = max(11, len(season.base_pairs) if season else 0)
    nguest = nbase + max(10, len(season.guests) if season else 0)
    nafter = nbase * max(20, len(season.tournaments) if season else 0)
    _computed_cells(ws, C_FIRST, FINAL_COL, nbase, FINAL_HEADERS)
    _computed_cells(ws, C_FIRST, GENERAL_COL, nguest, GENERAL_HEADERS)
    _computed_cells(ws, C_FIRST, AFTER_COL, nafter, AFTER_HEADERS)
    widths = [6, 7, 18, 7, 8, 9, 9, 9, 7, 9, 8, 7, 6, 6, 30, 2, 6, 7, 7, 7, 8, 2, 7, 7, 7, 9, 9, 9, 7, 9, 8]
    for col, width in enumerate(widths, start=1):
        _width(ws, col, width)
    ws.freeze_panes = ws.cell(row=C_FIRST, column=1)


def _build_participation(ws, season: bm.Season | None) -> None:
    st = _styles()
    ws["A1"] = PARTICIPATION_TITLE
    ws["A1"].font = st["title"]
    for row, label in NEXT_SETTINGS.items():
        ws.cell(row=row, column=1, value=label).font = st["bold"]
        ws.cell(row=row, column=2).fill = st["input"]
    ws["C3"] = "type the next host: the next list is computed (host O, then P up to the number, A, unable I)"
    _header(ws, P_HEADER, 1, NEXT_HEADERS, computed=True)
    nbase = max(11, len(season.base_pairs) if season else 0)
    _computed_cells(ws, P_FIRST, 1, nbase, NEXT_HEADERS)
    _width(ws, 1, 36)
    _width(ws, 2, 10)
    _width(ws, 3, 8)
    ntour = max(20, len(season.tournaments) if season else 0)
    for i in range(2 * ntour):
        _width(ws, LISTS_COL + i, 7 if i % 2 == 0 else 8)
    ws.freeze_panes = ws.cell(row=P_FIRST, column=1)


HOW_TO_LINES = [
    "How to use the BridgeMania season workbook",
    "",
    "Yellow cells are typed by the scorer; blue cells are computed by xlbridge (recalculate: the Recalculate season "
    "button on the Season sheet in Excel, or xlbridge recalc PATH). Never type in blue cells: they are overwritten.",
    "",
    "Season: the base pairs (id, players, name, lot = place in the reference list drawn by lot), the guest "
    "register, and the tournaments in playing order (sheet name, date, host).",
    "A new tournament: copy the 'Blank tournament' sheet, rename it as in the list on Season (e.g. T15).",
    "Tournament sheet: Movement, TOP (blank = from the scores), Championship (no = a friendly), then one row per "
    "pair: every base pair (its board scores, or a status: waiting / ill / unable, or split), each guest, each "
    "temporary pair of a split night (its two players in Players, e.g. Barbara / Sergio).",
    "Board scores as on the traveller (0-2-4-...-TOP); R = sit-out (TOP/2). Every board must add up.",
    "Penalties: one row per guilty pair and error. Rectifications: board, partial or irreversible, and for a "
    "partial one the annulled row (NS, EW) and every NS pair of the board. Bridge scores: optional, for the extra "
    "PTS (the highest bridge score of the night).",
    "Championship: the final Ricalibratura ranking (grey = not eligible), the general ranking, and the three "
    "standings after each tournament. Participation: the O/P/A/I list of every tournament and the next one "
    "(type the next host and the number of base pairs that can play).",
    "",
    "Problems are listed on the Messages sheet and their cells marked in red; nothing is recalculated until "
    "they are fixed. Changed results are listed on the Corrections sheet.",
    "",
    "Worksheet functions (with the xlbridge add-in):",
    '=BM_PCT(D9:Q9, 8)  ->  the tournament score in % of a row of board scores (R = sit-out)',
    '=BM_FINAL(I6:I16, J6:J16, K6:K16)  ->  the final places from the places in the three standings',
    '=AWARD("bm.f1-fast", 3, 10)  ->  PTS of Tab.1 for the 3rd of 10 pairs (bm.indycar-hard, bm.f1-hybrid)',
    "",
    "Rules and decisions: docs/clubs/bridgemania.md.",
]


def _build_how_to(ws) -> None:
    from xlbridge.workbooks.style import write_lines

    st = _styles()
    write_lines(ws, HOW_TO_LINES)
    ws["A1"].font = st["title"]
    _width(ws, 1, 120)


__all__ = ["BridgeManiaSeason", "bridgemania_workbook", "season_workbook", "SEASON", "CHAMPIONSHIP", "PARTICIPATION",
           "BLANK_TOURNAMENT", "COMPUTED", "FINAL_HEADERS", "GENERAL_HEADERS", "AFTER_HEADERS"]
