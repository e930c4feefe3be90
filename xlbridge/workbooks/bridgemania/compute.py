"""The BridgeMania season kind: read the workbook, recalculate, plan the computed cells.

:class:`BridgeManiaSeason` (registered in :data:`xlbridge.workbooks.kinds.MODULES`)
reads the sheets into a :class:`~xlbridge.clubs.bridgemania.Season`
(:mod:`~xlbridge.workbooks.bridgemania.read`), calls the engine
(:func:`xlbridge.clubs.bridgemania.recalculate`) and returns the computed cells:
the computed columns of each tournament sheet and of the calendar, the
Championship sheet and the participation lists.  Every problem -- the reader's and
the engine's, put at its cell by :mod:`~xlbridge.workbooks.bridgemania.locate` --
is reported together; nothing is written while any remains.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xlbridge.language import N_, _
from xlbridge.clubs import bridgemania as bm
from xlbridge.rules.problems import RuleError
from xlbridge.values import as_text, is_blank
from xlbridge.workbooks.book import BookAdapter, Grid, cell, column_letter
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.bridgemania.chart import chart_problems, plan_chart
from xlbridge.workbooks.bridgemania.locate import locate
from xlbridge.workbooks.bridgemania.read import SeasonPlaces, formulas, ids, is_tournament_sheet, read_season, spaced_ids
from xlbridge.workbooks.bridgemania.tournament import TournamentPlaces, read_tournament
from xlbridge.workbooks.declare import COMPUTED
from xlbridge.workbooks.plan import Block, BookInputError, Plan, LocatedProblem, at
from xlbridge.workbooks.typed_checks import one_per_cell

__all__ = ["BridgeManiaSeason"]

Reader = Callable[[str], Grid]


class BridgeManiaSeason:
    """The BridgeMania season workbook (``xlbridge new bridgemania``)."""

    name = "bridgemania"
    never_read = d.NEVER_READ  # (the record of the last recalculation leaves them out)

    def recognises(self, book: BookAdapter) -> bool:
        names = book.sheet_names()
        if d.SEASON in names:
            title = cell(book.read(d.SEASON), 1, 1)
            return isinstance(title, str) and title.startswith(_(d.SEASON_TITLE_START))
        # the season sheet renamed or deleted: still ours if a tournament sheet is there
        return any(is_tournament_sheet(book.read(n)) for n in names if n not in (d.CHAMPIONSHIP, d.PARTICIPATION))

    def plan(self, book: BookAdapter) -> Plan:
        names = book.sheet_names()
        if d.SEASON not in names:
            raise BookInputError([at(d.SEASON, None, "bm.book.season-missing", "the season sheet is missing: a sheet "
                                     "named {sheet!r} with {title!r} in A1 (sheets: {sheets})", sheet=d.SEASON,
                                     title=_(d.SEASON_TITLE), sheets=", ".join(names))])
        grids: dict[str, Grid] = {}

        def grid(sheet: str) -> Grid:
            if sheet not in grids:
                grids[sheet] = book.read(sheet)
            return grids[sheet]

        problems: list[LocatedProblem] = []
        where = SeasonPlaces()
        header_problems = [p for t in (d.BASE, d.GUESTS, d.CALENDAR) for p in t.check_header(grid(d.SEASON), d.SEASON)]
        if header_problems:
            raise BookInputError(header_problems)
        base_pairs, guests, reference, calendar = read_season(grid(d.SEASON), where, problems)
        sheets: dict[str, TournamentPlaces] = {}
        tournaments = _tournaments(names, grid, where, calendar, base_pairs, guests, sheets, problems)
        # nothing typed at all (the blank template): an empty season, "nothing is filled in yet"
        # (messages.done_text); a tournament or a guest without base pairs is a problem
        if not base_pairs and not problems and (calendar or guests):
            problems.append(at(d.SEASON, d.BASE.cell("pair", d.BASE.first_row), "bm.season.no-base-pairs",
                               "no base pairs typed: one row per base pair (pair id, player 1, player 2)",
                               field="pair"))
        season = bm.Season(base_pairs=tuple(base_pairs), tournaments=tuple(tournaments), guests=tuple(guests),
                           reference=tuple(reference), name=as_text(d.SEASON_SHEET.setting("name").value(
                               grid(d.SEASON))))
        standings = None
        try:
            standings = bm.recalculate(season)
        except bm.SeasonError as error:
            problems += [locate(p, where, sheets) for p in error.problems]
        except RuleError as error:  # pragma: no cover - the engine collects; kept as a safety net
            problems.append(LocatedProblem(d.SEASON, None, error.problem))
        next_list = None
        if standings is not None and d.PARTICIPATION in names:
            next_list = _next_list(grid(d.PARTICIPATION), standings, reference or [b.id for b in base_pairs],
                                   problems)
        chart = grid(d.CHART) if d.CHART in names else None
        problems += chart_problems(chart, [b.id for b in base_pairs])
        if problems:  # a formula or an error value in a typed cell: once, at that cell (issue 14, point 7)
            raise BookInputError(one_per_cell(problems, lambda sheet: grid(sheet) if sheet in names else []))
        assert standings is not None
        plan = _plan(grid, names, season, standings, where, sheets, next_list)
        plan_chart(plan, chart, season, standings, {b.id: display_name(b) for b in season.base_pairs})
        plan.warnings += spaced_ids(d.CHART, chart or [], [(d.CHART_PAIR.row, d.CHART_PAIR.col)])
        if d.PARTICIPATION in names:
            plan.warnings += spaced_ids(d.PARTICIPATION, grid(d.PARTICIPATION),
                                        [(s.row, s.col) for s in (d.NEXT_HOST, d.UNABLE)])
        return plan


def _tournaments(names: list[str], grid: Reader, where: SeasonPlaces, calendar: list[tuple[str, str]],
                 base_pairs: list[bm.BasePair], guests: list[bm.Guest], sheets: dict[str, TournamentPlaces],
                 problems: list[LocatedProblem]) -> list[bm.Tournament]:
    """Every tournament of the calendar read from its sheet; a listed sheet that is
    missing and a tournament sheet that is not listed are problems."""
    base_ids = [b.id for b in base_pairs]
    guest_ids = {g.id for g in guests}
    listed = {tid for _, tid in where.calendar}
    tournaments: list[bm.Tournament] = []
    for (row, tid), (date, host) in zip(where.calendar, calendar):
        if tid not in names:
            problems.append(at(d.SEASON, d.CALENDAR.cell("tournament", row), "bm.book.sheet-missing", "no sheet named "
                               "{tournament!r}: every tournament of the list needs its own sheet (copy {blank!r} and "
                               "rename it)", tournament=tid, field="tournament", row=row, blank=d.BLANK_TOURNAMENT))
            continue
        if tid in sheets:
            continue  # listed twice: the engine reports it
        ts = TournamentPlaces(tid)
        t = read_tournament(tid, grid(tid), ts, date, host, base_ids, guest_ids, problems)
        if t is not None:
            sheets[tid] = ts
            tournaments.append(t)
    column = column_letter(d.CALENDAR.col("tournament"))
    for name in names:
        if name in listed or name in (d.SEASON, d.CHAMPIONSHIP, d.PARTICIPATION, d.BLANK_TOURNAMENT, d.HOW_TO,
                                      d.CHART):
            continue
        if is_tournament_sheet(grid(name)):
            problems.append(at(name, "A1", "bm.book.sheet-not-listed", "a tournament sheet that is not in the "
                               "tournament list of {season} (add {tournament!r} to column {column} there, or delete "
                               "the sheet)", tournament=name, season=d.SEASON, column=column))
    return tournaments


def _next_list(grid: Grid, standings: bm.Standings, reference: Sequence[str],
               problems: list[LocatedProblem]) -> list[tuple[str, str]] | None:
    """The next tournament's participation list, when the next host is typed."""
    found = formulas(d.PARTICIPATION, grid, ((s.row, s.col) for s in (d.NEXT_HOST, d.CAPACITY, d.UNABLE)))
    if found:
        problems += found
        return None
    host, capacity, unable = (s.value(grid) for s in (d.NEXT_HOST, d.CAPACITY, d.UNABLE))
    if is_blank(host):
        return None
    if is_blank(capacity):
        problems.append(at(d.PARTICIPATION, d.CAPACITY.cell, "bm.next.capacity-empty", "the number of base pairs "
                           "that can play is empty; type how many base pairs can play in the next tournament (the "
                           "host included)", field=d.CAPACITY.id))
        return None
    try:
        if not standings.tournaments:
            return bm.first_participation_list(list(reference), as_text(host), capacity, ids(unable))
        return bm.upcoming_participation_list(standings, as_text(host), capacity, ids(unable))
    except RuleError as error:
        setting = {"capacity": d.CAPACITY, "unable": d.UNABLE}.get(error.problem.field, d.NEXT_HOST)
        problems.append(LocatedProblem(d.PARTICIPATION, setting.cell, error.problem))
        return None


# ------------------------------------------------------------------ the computed cells


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


def display_name(pair: bm.BasePair) -> str:
    """A base pair's name in the standings: its Name, else its players' names
    (``Anna / Bruno``), else nothing."""
    return pair.name or " / ".join(p for p in pair.players if p)


def _winner(result: bm.TournamentResult) -> str:
    return ", ".join(e.entry for e in result.entries if e.rank == 1)


#: What separated two pairs level on points (C.04), in the workbook's words.
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


def _plan(grid: Reader, names: list[str], season: bm.Season, standings: bm.Standings, where: SeasonPlaces,
          sheets: dict[str, TournamentPlaces], next_list: list[tuple[str, str]] | None) -> Plan:
    plan = Plan(warnings=where.warnings + [w for ts in sheets.values() for w in ts.warnings])
    _calendar(plan, grid(d.SEASON), standings, where)
    results = {r.id: r for r in standings.tournaments}
    names_of = {b.id: display_name(b) for b in season.base_pairs}
    names_of.update({g.id: g.name for g in season.guests})
    for t in season.tournaments:
        if t.id in sheets:
            _tournament(plan, results[t.id], sheets[t.id])
            temporary = {pair: " / ".join(players) for pair, players in t.splits.items()}
            _sorted_result(plan, results[t.id], sheets[t.id], {**names_of, **temporary})
    _championship(plan, grid, names, season, standings)
    _participation(plan, grid, names, standings, next_list)
    for block in plan.blocks:  # standings follow from the audited results: not on Corrections (as at Heeg)
        block.audit = block.audit and block.sheet not in (d.CHAMPIONSHIP, d.PARTICIPATION)
    return plan


def _calendar(plan: Plan, grid: Grid, standings: bm.Standings, where: SeasonPlaces) -> None:
    """The calendar's computed columns, one row per listed tournament."""
    results = {r.id: r for r in standings.tournaments}
    table = d.CALENDAR_RESULTS
    listed = dict(where.calendar)
    lines: list[dict[str, object]] = []
    rows: list[str] = []
    for r in range(table.first_row, where.last_calendar_row + 1):
        tid = listed.get(r)
        res = results.get(tid) if tid else None
        rows.append(tid or "")
        lines.append({} if res is None else {
            "pairs": res.pairs, "tables": res.tables, "boards": res.boards, "top": res.top,
            "penalty": res.penalty_unit, "base_pairs": res.base_pairs_playing,
            "counts": _("yes") if res.championship else _("no (friendly)"), "winner": _winner(res)})
    values = _padded(table.values(lines), grid, table.first_row, table.first_col, table.width())
    beyond = table.first_row + table.room  # the first row the builder did not lay out
    if where.last_calendar_row >= beyond:
        plan.layouts.append((d.SEASON, d.rows_look((d.CALENDAR, table), beyond, where.last_calendar_row - beyond + 1)))
    if values:
        plan.blocks.append(table.block(d.SEASON, values, what=d.SEASON, rows=rows))


def _tournament(plan: Plan, res: bm.TournamentResult, ts: TournamentPlaces) -> None:
    """The computed columns of one tournament sheet, on the rows of its pairs."""
    entries = {e.entry: e for e in res.entries}
    nights = {n.pair: n for n in res.base}
    listed = dict(res.participation)
    order = dict(ts.main_order)
    table = d.results_at(ts.computed_col)
    lines: list[dict[str, object]] = []
    units: list[str] = []
    for r in range(table.first_row, ts.main_end + 1):
        pair = order.get(r)
        units.append(pair or "")
        e, n = entries.get(pair), nights.get(pair)
        line: dict[str, object] = {}
        if n is not None:
            line = {"list": listed.get(pair), "f1": n.f1, "indy": n.indy, "hybrid": n.hybrid}
            if n.status == "S":
                line.update(pct=n.percent, tops=n.tops, pots=n.pots, extra=n.extra)
        if e is not None:
            line = {"list": listed.get(pair), "penalty": e.penalty, "absolute": e.absolute, "pct": e.percent,
                    "rank": e.rank, "tops": e.tops, "pots": e.pots, "extra": e.extra,
                    **_pts(e if n is None else n, e.kind)}
        lines.append(line)
    if lines:
        plan.blocks.append(table.block(ts.sheet, lines, what=ts.sheet, rows=units))


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
                     **_pts(e if n is None else n, e.kind), "status": kind})
        pairs.append(e.entry)
    for n in res.base:
        if n.status in ("O", "P"):
            continue
        rows.append({"pair": n.pair, "name": names.get(n.pair) or None, "pct": n.percent, **_pts(n),
                     "status": words["split" if n.status == "S" else n.status]})
        pairs.append(n.pair)
    return d.RESULT.values(rows), pairs


def _pts(row: Any, kind: str = "base") -> dict[str, object]:
    """The three PTS of an entry or a base pair's night (none for a guest)."""
    return {} if kind == "guest" else {"f1": row.f1, "indy": row.indy, "hybrid": row.hybrid}


def _sorted_result(plan: Plan, res: bm.TournamentResult, ts: TournamentPlaces, names: dict[str, str]) -> None:
    """The sorted result with its caption and header, on the rows of the pairs (a derived
    view: not audited, as the Heeg evening's result)."""
    table = d.RESULT
    rows, pairs = result_rows(res, names)
    room = max(len(rows), ts.main_end - table.first_row + 1)
    values: Grid = [[_(d.RESULT_CAPTION)] + [None] * (table.width() - 1), table.headers()]
    values += rows + [[None] * table.width() for _ in range(room - len(rows))]
    plan.blocks.append(table.block(ts.sheet, values, row=d.RESULT_CAPTION_ROW, what=ts.sheet,
                                   rows=["caption", "header"] + pairs + [""] * (room - len(rows)), audit=False))


def _championship(plan: Plan, grid: Reader, names: list[str], season: bm.Season, standings: bm.Standings) -> None:
    """The Championship sheet, all computed: summary, final ranking, general ranking, standings after each."""
    sheet = d.CHAMPIONSHIP_SHEET
    old = grid(d.CHAMPIONSHIP) if d.CHAMPIONSHIP in names else None
    if old is None:
        plan.new_sheets.append(d.CHAMPIONSHIP)
        plan.layouts.append((d.CHAMPIONSHIP, d.layout(sheet, filled=(d.FINAL.id,))))
    plan.blocks.append(Block(d.CHAMPIONSHIP, 1, 1, [[_(d.CHAMPIONSHIP_TITLE)]], what=d.CHAMPIONSHIP))
    valid, needed = (_(words) for words in d.SUMMARY)
    plan.blocks.append(Block(d.CHAMPIONSHIP, d.SUMMARY_ROW, 1, [[valid, standings.valid, needed, standings.threshold]],
                             what=d.CHAMPIONSHIP, rows=["summary"],
                             columns=["", "Valid tournaments", "", "Needed to be eligible"]))
    width = max(t.first_col + t.width() - 1 for t in sheet.tables)
    labels: Grid = [[None] * width, [None] * width]
    for t in sheet.tables:
        labels[0][t.first_col - 1] = _(d.CHAMPIONSHIP_CAPTIONS[t.id])
        labels[1][t.first_col - 1: t.first_col - 1 + t.width()] = t.headers()
    plan.blocks.append(Block(d.CHAMPIONSHIP, d.FINAL.header_row - 1, 1, labels, what=d.CHAMPIONSHIP))
    names_of = {b.id: display_name(b) for b in season.base_pairs}
    names_of.update({g.id: g.name for g in season.guests})
    last = {r.pair: r for r in standings.after[-1][1]} if standings.after else {}
    final = []
    for i, row in enumerate(standings.final):
        totals = last.get(row.pair)
        final.append({"place": row.place, "pair": row.pair, "name": names_of.get(row.pair) or None,
                      "played": row.played, "eligible": _("yes") if row.eligible else _("no"),
                      **(_pts(totals) if totals else {}), "rank_f1": row.rank_f1, "rank_indy": row.rank_indy,
                      "rank_hybrid": row.rank_hybrid, "points": row.points, "tops": row.tops, "pots": row.pots,
                      "tie_break": _tie_note(row, standings.final)})
        colour = COMPUTED if row.eligible else d.INELIGIBLE
        plan.fills += [(d.CHAMPIONSHIP, d.FINAL.first_row + i, d.FINAL.first_col + c, colour)
                       for c in range(d.FINAL.width())]
    general = [{"rank": g.rank, "pair": g.pair, "kind": _(KIND_WORDS.get(g.kind, g.kind)), "played": g.played,
                "mean": g.mean} for g in standings.general]
    after = [{"after": tid, "pair": r.pair, "played": r.played, **_pts(r), "rank_f1": r.rank_f1,
              "rank_indy": r.rank_indy, "rank_hybrid": r.rank_hybrid} for tid, table in standings.after for r in table]
    for t, values, what, units in (
        (d.FINAL, final, "Final ranking", [r.pair for r in standings.final]),
        (d.GENERAL, general, "General ranking", [g.pair for g in standings.general]),
        (d.AFTER, after, "Standings after each tournament",
         [f"{tid} {r.pair}" for tid, table in standings.after for r in table]),
    ):
        plan.blocks.append(t.block(d.CHAMPIONSHIP, _padded(t.values(values), old, t.first_row, t.first_col,
                                                           t.width()), what=what, rows=units))


def _participation(plan: Plan, grid: Reader, names: list[str], standings: bm.Standings,
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
    plan.blocks.append(table.block(d.PARTICIPATION, _padded(table.values(upcoming), pgrid, table.first_row,
                                                            table.first_col, table.width()),
                                   what="Next participation list", rows=[p["pair"] for p in upcoming]))
    lists: Grid = [[] for _ in range(1 + max((len(t.participation) for t in standings.tournaments), default=0))]
    for t in standings.tournaments:
        lists[0] += [t.id, _("{tournament} list").format(tournament=t.id)]
        for i in range(1, len(lists)):
            pair, mark = t.participation[i - 1] if i - 1 < len(t.participation) else (None, None)
            lists[i] += [pair, mark]
    width = len(lists[0])
    if pgrid is not None:  # as wide as what the previous run left
        for line in pgrid[table.header_row - 1:]:
            used = [c for c, v in enumerate(line, start=1) if c >= d.LISTS_COL and v is not None]
            width = max(width, (max(used) - d.LISTS_COL + 1) if used else 0)
    if width:
        lists = _padded(lists, pgrid, table.header_row, d.LISTS_COL, width)
        plan.blocks.append(Block(d.PARTICIPATION, table.header_row, d.LISTS_COL, lists, what="Participation lists",
                                 rows=["header"] + [f"position {i}" for i in range(1, len(lists))],
                                 columns=lists[0]))
