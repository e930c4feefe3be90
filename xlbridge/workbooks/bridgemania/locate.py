"""The engine's problems put at the cells the scorer typed, from their codes and concerns.

Each :class:`~xlbridge.clubs.bridgemania.SeasonProblem` names its tournament,
pair, board and field; :func:`locate` maps those through the declaration
(:mod:`~xlbridge.workbooks.bridgemania.declaration`) and the rows the reader
found (:class:`~xlbridge.workbooks.bridgemania.read.SeasonPlaces`,
:class:`~xlbridge.workbooks.bridgemania.tournament.TournamentPlaces`).  Where the cell
already says what the engine's message says, the message is worded for the sheet
(``{pair}: ...``, ``board {board}: ...``, a column named by its header): again by
code, never by the message text.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xlbridge.rules.problems import N_
from xlbridge.clubs.bridgemania import SeasonProblem
from xlbridge.rules.problems import Problem
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.bridgemania.read import SeasonPlaces
from xlbridge.workbooks.bridgemania.tournament import TournamentPlaces
from xlbridge.workbooks.declare import cell_ref
from xlbridge.workbooks.plan import LocatedProblem

__all__ = ["locate", "FRIENDLY"]

#: How to keep a tournament that is not valid: as a friendly.
FRIENDLY = N_("type no in {label} ({cell}) to keep it as a friendly")


def _friendly() -> str:
    """:data:`FRIENDLY` in the language spoken."""
    return Problem("bm.friendly", FRIENDLY, label=d.COUNTS.text(), cell=d.COUNTS.cell).message


def _worded(p: SeasonProblem, template: str, **params: Any) -> Problem:
    """``p`` in the sheet's words: ``template`` may use the engine's message as ``{detail}``."""
    return Problem(p.code, template, **{**p.params, **params, "detail": p.message})


def _as_is(p: SeasonProblem) -> Problem:
    return Problem(p.code, p.template, **p.params)


# ------------------------------------------------------------------ the Season sheet

#: Problems of the calendar: the column of the tournament's row, which of its rows (-1: the last), the words.
CALENDAR = {
    "bm.tournament.twice": ("tournament", -1, N_("tournament {tournament} is listed twice")),
    "bm.host.empty": ("host", 0, "{tournament}: {detail}"),
    "bm.host.not-base-pair": ("host", 0, "{tournament}: {detail}"),
    "bm.host.absent": ("host", 0, "{tournament}: {detail}"),
}
#: Problems of the guest register, of a base pair's players.
GUEST_CODES = {"bm.guest.twice", "bm.guest.is-base-pair"}
PLAYER_CODES = {"bm.base-pair.players", "bm.player.twice"}


def _calendar(p: SeasonProblem, where: SeasonPlaces) -> LocatedProblem:
    column, which, template = CALENDAR[p.code]
    rows = where.calendar_rows.get(p.tournament, [d.CALENDAR.first_row])
    return LocatedProblem(d.SEASON, d.CALENDAR.cell(column, rows[which]), _worded(p, template))


def _season(p: SeasonProblem, where: SeasonPlaces) -> LocatedProblem:
    """A problem of the season as a whole (or of a tournament that has no sheet read)."""
    pair = p.pair
    if p.code in GUEST_CODES and pair in where.guest_rows:
        return LocatedProblem(d.SEASON, d.GUESTS.cell("guest", where.guest_rows[pair][-1]), _worded(p,
                                                                                                    "{pair}: {detail}"))
    if pair in where.base_rows:
        column = "player1" if p.code in PLAYER_CODES else "pair"
        return LocatedProblem(d.SEASON, d.BASE.cell(column, where.base_rows[pair][-1]), _worded(p, "{pair}: {detail}"))
    if p.code == "bm.reference":
        return LocatedProblem(d.SEASON, d.BASE.cell("lot", d.BASE.first_row), _as_is(p))
    return LocatedProblem(d.SEASON, None, _worded(p, "{located}", located=str(p)))


# ------------------------------------------------------------------ a tournament sheet

Locator = Callable[[SeasonProblem, TournamentPlaces], "LocatedProblem | None"]


def _hand_score(p: SeasonProblem, ts: TournamentPlaces) -> LocatedProblem | None:
    row = ts.hand_rows.get(p.pair)
    if row and p.board:
        return LocatedProblem(ts.sheet, cell_ref(row, ts.board_col(p.board)),
                              _worded(p, N_("bridge score {value!r} is not a number")))
    return None


def _hand_pair(p: SeasonProblem, ts: TournamentPlaces) -> LocatedProblem | None:
    if p.pair in ts.hand_rows:
        table = d.BRIDGE_SCORES.at(ts.sections["bridge"])
        return LocatedProblem(ts.sheet, table.cell("pair", ts.hand_rows[p.pair]),
                              _worded(p, N_("bridge scores of {pair}, a pair that is not in the tournament")))
    return None


def _penalty(p: SeasonProblem, ts: TournamentPlaces) -> LocatedProblem | None:
    table = d.PENALTIES.at(ts.sections["penalties"])
    row = next((r for r, guilty in ts.penalty_rows if guilty == p.pair), None)
    return None if row is None else LocatedProblem(ts.sheet, table.cell("pair", row), _worded(p, "{pair}: {detail}"))


def _rect_board(p: SeasonProblem, ts: TournamentPlaces) -> LocatedProblem | None:
    row = ts.rect_rows.get(p.value if isinstance(p.value, int) else -1)
    table = d.RECTIFICATIONS.at(ts.sections["rectifications"])
    return LocatedProblem(ts.sheet, table.cell("board", row), _as_is(p)) if row else None


def _rectification(p: SeasonProblem, ts: TournamentPlaces) -> LocatedProblem | None:
    """At the rectification's row, in the column of its field (the engine's ``ns`` named by its header)."""
    if p.board not in ts.rect_rows:
        return None
    table = d.RECTIFICATIONS.at(ts.sections["rectifications"])
    named = {"ns_name": repr(table.column("ns").text())} if p.code == "bm.rect.ns" else {}
    return LocatedProblem(ts.sheet, table.cell(p.field, ts.rect_rows[p.board]),
                          _worded(p.replace(**named), N_("board {board}: {detail}")))


def _setting(setting: Any, template: str = "{detail}") -> Locator:
    """At a setting's cell; ``template`` may use ``{friendly}``: how to keep the tournament as a friendly."""
    def locate(p: SeasonProblem, ts: TournamentPlaces) -> LocatedProblem:
        return LocatedProblem(ts.sheet, setting.cell, _worded(p, template, friendly=_friendly()))
    return locate


def _movement(p: SeasonProblem, ts: TournamentPlaces) -> LocatedProblem:
    return LocatedProblem(ts.sheet, d.MOVEMENT.cell, _as_is(p.replace(advice=_friendly())))


def _no_scores(p: SeasonProblem, ts: TournamentPlaces) -> LocatedProblem:
    return LocatedProblem(ts.sheet, d.PAIRS.cell("pair", d.PAIRS.first_row), _as_is(p))


#: The problems with a place of their own, tried before the pair and board cells.
SPECIFIC: dict[str, Locator] = {
    "bm.hand.not-a-number": _hand_score,
    "bm.hand.unknown-pair": _hand_pair,
    "bm.extra.unknown-pair": _setting(d.EXTRA, "{pair}: {detail}"),
    "bm.penalty.unknown-pair": _penalty,
    "bm.rect.board-range": _rect_board,
    "bm.rect.twice": _rectification,
    "bm.rect.row": _rectification,
    "bm.rect.ns": _rectification,
    "bm.rect.ns-line": _rectification,
    "bm.rect.kind": _rectification,
    "bm.rect.kind-empty": _rectification,
    "bm.top": _setting(d.TOP),
    "bm.top.too-large": _setting(d.TOP),  # (it was said at A1)
    "bm.top.derive": _setting(d.TOP),
    "bm.valid.movement": _movement,
    "bm.valid.tables": _setting(d.COUNTS, N_("{detail} (or {friendly})")),
    "bm.valid.boards": _setting(d.COUNTS, N_("{detail} (or {friendly})")),
    "bm.valid.base-pairs": _setting(d.COUNTS, N_("{detail} (or {friendly})")),
    "bm.scores.none": _no_scores,
}
#: The column of a pair's row that a problem of a pair concerns (others: the pair id).
PAIR_COLUMN = {"status": "status", "players": "players"}


def _pair_or_board(p: SeasonProblem, ts: TournamentPlaces) -> LocatedProblem:
    """A board score at its cell, a board at its header, a pair at its row."""
    pair, board, row = p.pair, p.board, ts.main_rows.get(p.pair)
    if board is not None and row is not None:
        return LocatedProblem(ts.sheet, cell_ref(row, ts.board_col(board)), _as_is(p))
    if board is not None and not pair:
        return LocatedProblem(ts.sheet, cell_ref(d.PAIRS.header_row, ts.board_col(board)),
                              _worded(p, N_("board {board}: {detail}")))
    if pair and row is not None:
        if pair in ts.typed_split and p.code == "bm.status.missing":
            return LocatedProblem(ts.sheet, d.PAIRS.cell("status", row), _worded(
                p, N_("{pair}: typed split, but its two players are not both in temporary pairs of this tournament "
                      "(type them in Players of the temporary pairs)")))
        column = PAIR_COLUMN.get(p.field, "pair")
        return LocatedProblem(ts.sheet, d.PAIRS.cell(column, row), _worded(p, "{pair}: {detail}"))
    if pair:
        return LocatedProblem(ts.sheet, d.PAIRS.cell("pair", d.PAIRS.header_row),
                              _worded(p, N_("{pair}: {detail}; add a row for it")))
    return LocatedProblem(ts.sheet, "A1", _as_is(p))


def locate(p: SeasonProblem, where: SeasonPlaces, sheets: dict[str, TournamentPlaces]) -> LocatedProblem:
    """The sheet and cell of one engine problem, worded for the sheet."""
    if p.code in CALENDAR:
        return _calendar(p, where)
    if not p.tournament or p.tournament not in sheets:
        return _season(p, where)
    ts = sheets[p.tournament]
    specific = SPECIFIC.get(p.code)
    found = specific(p, ts) if specific is not None else None
    return found if found is not None else _pair_or_board(p, ts)
