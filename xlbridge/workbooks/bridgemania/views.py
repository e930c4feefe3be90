"""The views of the BridgeMania season workbook: what follows from the results, never audited.

Each tournament's sorted result (:func:`plan_sorted_result`), the Championship
sheet (summary, final ranking, general ranking, the standings after each
tournament: :func:`plan_championship`) and the Participation sheet (the next
list and every tournament's: :func:`plan_participation`).  Rows are built keyed by
column id and written through the declaration
(:meth:`~xlbridge.workbooks.declare.Table.values`,
:meth:`~xlbridge.workbooks.declare.Table.block`), so the record knows each view's
headers and number formats from there.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xlbridge.language import N_, _
from xlbridge.clubs import bridgemania as bm
from xlbridge.workbooks.book import Grid
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.bridgemania.tournament import TournamentPlaces
from xlbridge.workbooks.declare import COMPUTED
from xlbridge.workbooks.plan import Block, Plan

__all__ = ["plan_sorted_result", "plan_championship", "plan_participation", "result_rows", "display_name", "padded",
           "pts", "KIND_WORDS"]

Reader = Callable[[str], Grid]


#: How far the summary rows reach at most (their cells blanked each time).
SUMMARY_WIDTH = 14


def _last_used_row(grid: Grid, first_row: int, col: int, width: int) -> int:
    """The last row from ``first_row`` with a value in columns col .. col+width-1 (first_row - 1 if none)."""
    last = first_row - 1
    for r in range(first_row, len(grid) + 1):
        line = grid[r - 1]
        if any(v is not None for v in line[col - 1: col - 1 + width]):
            last = r
    return last


def padded(values: Grid, grid: Grid | None, row: int, col: int, width: int) -> Grid:
    """``values`` extended with blank rows over what the previous run left below it."""
    out = [list(line) + [None] * (width - len(line)) for line in values]
    if grid is not None:
        last = _last_used_row(grid, row, col, width)
        out += [[None] * width for _ in range(last - row + 1 - len(out))]
    return out


def display_name(pair: bm.BasePair) -> str:
    """A base pair's name in the standings: its Name, else its players' names
    (``Anna / Bruno``), else nothing."""
    return pair.name or " / ".join(p for p in pair.players if p)


_TIE_HOW = {"played": N_("tournaments played"), "tops": N_("TOPs"), "pots": N_("POTs"), "tied": N_("still tied")}

#: A pair's kind in the general ranking, in the workbook's words.
KIND_WORDS = {"base": N_("base"), "guest": N_("guest"), "split": N_("split")}


def _tie_note(row: bm.FinalRow, final: Sequence[bm.FinalRow]) -> str | None:
    """Which pairs ``row`` is level with on points, and what separated them (C.04)."""
    if row.place is None:
        return None
    peers = [o for o in final if o.pair != row.pair and o.place is not None and o.points == row.points]
    if not peers:
        return None
    parts = []
    for o in peers:
        if o.played != row.played:
            how = "played"
        elif o.tops != row.tops:
            how = "tops"
        elif o.pots != row.pots:
            how = "pots"
        else:
            how = "tied"
        parts.append(f"{o.pair} ({_(_TIE_HOW[how])})")
    return _("{points} points like {pairs}").format(points=row.points, pairs=", ".join(parts))


def result_rows(res: bm.TournamentResult, names: dict[str, str]) -> tuple[Grid, list[str]]:
    """The tournament's sorted result (issue 16, point 4) and each row's pair: the entries
    that played in the engine's ranking order with its rank (equal scores share it; never
    ranked again from rounded %), a guest without PTS; then the base pairs that did not play
    at the tables, in the order of the base pairs, without a rank: a split pair with its
    halved % and PTS, a waiting, ill or unable pair with the PTS the tables give it (C.03)."""
    nights = {n.pair: n for n in res.base}
    status = d.PAIRS.column("status")
    words = dict(zip(status.allowed, status.choices()))  # the workbook's language
    rows: list[dict[str, object]] = []
    pairs: list[str] = []
    for e in res.entries:
        n = nights.get(e.entry)
        kind = None if e.kind == "base" else _(KIND_WORDS.get(e.kind, e.kind))
        rows.append({"rank": e.rank, "pair": e.entry, "name": names.get(e.entry) or None, "pct": e.percent,
                     **pts(e if n is None else n, e.kind), "status": kind})
        pairs.append(e.entry)
    for n in res.base:
        if n.status in ("O", "P"):
            continue
        rows.append({"pair": n.pair, "name": names.get(n.pair) or None, "pct": n.percent, **pts(n),
                     "status": words["split" if n.status == "S" else n.status]})
        pairs.append(n.pair)
    return d.RESULT.values(rows), pairs


def pts(row: Any, kind: str = "base") -> dict[str, object]:
    """The three PTS of an entry or a base pair's night (none for a guest)."""
    return {} if kind == "guest" else {"f1": row.f1, "indy": row.indy, "hybrid": row.hybrid}


def plan_sorted_result(plan: Plan, res: bm.TournamentResult, ts: TournamentPlaces, names: dict[str, str]) -> None:
    """The sorted result with its header, on its own rows below the pairs, under its title (which is
    the sheet's structure, as a section's: the reader finds the result by it); a derived view: not
    audited, as the Heeg evening's result."""
    table = d.RESULT
    rows, pairs = result_rows(res, names)
    room = max(len(rows), ts.result_room)
    values: Grid = [table.headers()] + rows + [[None] * table.width() for _ in range(room - len(rows))]
    plan.blocks.append(table.block(ts.sheet, values, row=ts.sections[d.RESULT.id] + 1, what=ts.sheet,
                                   rows=["header"] + pairs + [""] * (room - len(rows)), audit=False))


def plan_championship(plan: Plan, grid: Reader, names: list[str], season: bm.Season, standings: bm.Standings) -> None:
    """The Championship sheet, all computed: summary, final ranking, general ranking, standings after each."""
    sheet = d.CHAMPIONSHIP_SHEET
    old = grid(d.CHAMPIONSHIP) if d.CHAMPIONSHIP in names else None
    if old is None:
        plan.new_sheets.append(d.CHAMPIONSHIP)
        plan.layouts.append((d.CHAMPIONSHIP, d.layout(sheet, filled=(d.FINAL.id,))))
    plan.blocks.append(Block(d.CHAMPIONSHIP, 1, 1, [[_(d.CHAMPIONSHIP_TITLE)]], what=d.CHAMPIONSHIP))
    valid, needed = (_(words) for words in d.SUMMARY)
    # each number first, its words after it (spilling over empty cells: never cut by the number, whatever the
    # language; issue 26, point 6), one row each; what an earlier layout left right of them blanked
    blank = [None] * (SUMMARY_WIDTH - 2)
    plan.blocks.append(Block(d.CHAMPIONSHIP, d.SUMMARY_ROW, 1, [[standings.valid, valid, *blank],
                                                                [standings.threshold, needed, *blank]],
                             what=d.CHAMPIONSHIP, rows=["valid", "needed"]))
    width = max(t.first_col + t.width() - 1 for t in sheet.tables)
    headers: Grid = [[None] * width]
    for t in sheet.tables:  # each caption a cell of its own (the builder merges it over its table)
        plan.blocks.append(Block(d.CHAMPIONSHIP, t.header_row - 1, t.first_col, [[_(d.CHAMPIONSHIP_CAPTIONS[t.id])]],
                                 what=d.CHAMPIONSHIP))
        headers[0][t.first_col - 1: t.first_col - 1 + t.width()] = t.headers()
    plan.blocks.append(Block(d.CHAMPIONSHIP, d.FINAL.header_row, 1, headers, what=d.CHAMPIONSHIP))
    names_of = {b.id: display_name(b) for b in season.base_pairs}
    names_of.update({g.id: g.name for g in season.guests})
    last = {r.pair: r for r in standings.after[-1][1]} if standings.after else {}
    final = []
    for i, row in enumerate(standings.final):
        totals = last.get(row.pair)
        final.append({"place": row.place, "pair": row.pair, "name": names_of.get(row.pair) or None,
                      "played": row.played, "eligible": _("yes") if row.eligible else _("no"),
                      **(pts(totals) if totals else {}), "rank_f1": row.rank_f1, "rank_indy": row.rank_indy,
                      "rank_hybrid": row.rank_hybrid, "points": row.points, "tops": row.tops, "pots": row.pots,
                      "tie_break": _tie_note(row, standings.final)})
        colour = COMPUTED if row.eligible else d.INELIGIBLE
        plan.fills += [(d.CHAMPIONSHIP, d.FINAL.first_row + i, d.FINAL.first_col + c, colour)
                       for c in range(d.FINAL.width())]
    general = [{"rank": g.rank, "pair": g.pair, "kind": _(KIND_WORDS.get(g.kind, g.kind)), "played": g.played,
                "mean": g.mean} for g in standings.general]
    after = [{"after": tid, "pair": r.pair, "played": r.played, **pts(r), "rank_f1": r.rank_f1,
              "rank_indy": r.rank_indy, "rank_hybrid": r.rank_hybrid} for tid, table in standings.after for r in table]
    for t, values, what, units in (
        (d.FINAL, final, "Final ranking", [r.pair for r in standings.final]),
        (d.GENERAL, general, "General ranking", [g.pair for g in standings.general]),
        (d.AFTER, after, "Standings after each tournament",
         [f"{tid} {r.pair}" for tid, table in standings.after for r in table]),
    ):
        plan.blocks.append(t.block(d.CHAMPIONSHIP, padded(t.values(values), old, t.first_row, t.first_col,
                                                           t.width()), what=what, rows=units))


def plan_participation(plan: Plan, grid: Reader, names: list[str], standings: bm.Standings,
                   next_list: list[tuple[str, str]] | None) -> None:
    """The next participation list, and the list of every tournament (two columns each)."""
    sheet, table = d.PARTICIPATION_SHEET, d.NEXT
    if d.PARTICIPATION not in names:
        plan.new_sheets.append(d.PARTICIPATION)
        plan.layouts.append((d.PARTICIPATION, d.layout(sheet)))
        plan.blocks.append(Block(d.PARTICIPATION, 1, 1, [[_(d.PARTICIPATION_TITLE)]], what=d.PARTICIPATION))
        plan.blocks.append(Block(d.PARTICIPATION, sheet.settings[0].row, 1, [[s.text()] for s in sheet.settings],
                                 what=d.PARTICIPATION))
        plan.blocks.append(Block(d.PARTICIPATION, table.header_row, 1, [table.headers()], what=d.PARTICIPATION))
        pgrid = None
    else:
        pgrid = grid(d.PARTICIPATION)
    upcoming = [{"position": i + 1, "pair": p, "status": s} for i, (p, s) in enumerate(next_list or [])]
    plan.blocks.append(table.block(d.PARTICIPATION, padded(table.values(upcoming), pgrid, table.first_row,
                                                            table.first_col, table.width()),
                                   what="Next participation list", rows=[p["pair"] for p in upcoming]))
    lists: Grid = [[] for _ in range(1 + max((len(t.participation) for t in standings.tournaments), default=0))]
    for t in standings.tournaments:
        lists[0] += [t.id, _(d.LIST_HEADER).format(tournament=t.id)]
        for i in range(1, len(lists)):
            pair, mark = t.participation[i - 1] if i - 1 < len(t.participation) else (None, None)
            lists[i] += [pair, mark]
    width = len(lists[0])
    if pgrid is not None:  # as wide as what the previous run left
        for line in pgrid[table.header_row - 1:]:
            used = [c for c, v in enumerate(line, start=1) if c >= d.LISTS_COL and v is not None]
            width = max(width, (max(used) - d.LISTS_COL + 1) if used else 0)
    if width:
        lists = padded(lists, pgrid, table.header_row, d.LISTS_COL, width)
        plan.blocks.append(Block(d.PARTICIPATION, table.header_row, d.LISTS_COL, lists, what="Participation lists",
                                 rows=["header"] + [f"position {i}" for i in range(1, len(lists))],
                                 columns=lists[0]))
