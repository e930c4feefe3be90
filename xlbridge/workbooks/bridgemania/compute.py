"""The BridgeMania season kind: read the workbook, recalculate, plan the computed cells.

:class:`BridgeManiaSeason` (registered in :data:`xlbridge.workbooks.kinds.MODULES`)
reads the sheets into a :class:`~xlbridge.clubs.bridgemania.Season`
(:mod:`~xlbridge.workbooks.bridgemania.read`), calls the engine
(:func:`xlbridge.clubs.bridgemania.recalculate`) and returns the computed cells:
the computed columns of each tournament sheet and of the calendar, and the views
(:mod:`~xlbridge.workbooks.bridgemania.views`: the sorted results, the
Championship sheet and the participation lists).  Every problem -- the reader's and
the engine's, put at its cell by :mod:`~xlbridge.workbooks.bridgemania.locate` --
is reported together; nothing is written while any remains.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xlbridge.language import _
from xlbridge.clubs import bridgemania as bm
from xlbridge.rules.problems import RuleError
from xlbridge.values import as_text, is_blank
from xlbridge.workbooks.book import BookAdapter, Grid, cell, column_letter
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.bridgemania.chart import chart_problems, plan_chart
from xlbridge.workbooks.declare import check_headers
from xlbridge.workbooks.localised import shown_name
from xlbridge.workbooks.bridgemania.locate import locate
from xlbridge.workbooks.bridgemania.read import SeasonPlaces, formulas, ids, is_tournament_sheet, read_season, spaced_ids
from xlbridge.workbooks.bridgemania.tournament import TournamentPlaces, read_tournament
from xlbridge.workbooks.bridgemania.views import (display_name, padded, plan_championship, plan_participation,
                                                  plan_sorted_result, pts)
from xlbridge.workbooks.plan import BookInputError, Plan, LocatedProblem, at
from xlbridge.workbooks.typed_checks import one_per_cell

__all__ = ["BridgeManiaSeason"]

Reader = Callable[[str], Grid]


class BridgeManiaSeason:
    """The BridgeMania season workbook (``xlbridge new bridgemania``)."""

    name = "bridgemania"
    never_read = d.NEVER_READ  # (the record of the last recalculation leaves them out)
    routine = d.ROUTINE  # (never listed on Corrections as the scorer's change)

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
                                     "named {sheet!r} with {title!r} in A1 (sheets: {sheets})", sheet=shown_name(d.SEASON),
                                     title=_(d.SEASON_TITLE), sheets=", ".join(map(shown_name, names)))])
        grids: dict[str, Grid] = {}

        def grid(sheet: str) -> Grid:
            if sheet not in grids:
                grids[sheet] = book.read(sheet)
            return grids[sheet]

        problems: list[LocatedProblem] = []
        where = SeasonPlaces()
        header_problems = check_headers((d.BASE, d.GUESTS, d.CALENDAR), grid(d.SEASON), d.SEASON)
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
                               "rename it)", tournament=tid, field="tournament", row=row, blank=shown_name(d.BLANK_TOURNAMENT)))
            continue
        if tid in sheets:
            continue  # listed twice: the engine reports it
        ts = TournamentPlaces(tid)
        t = read_tournament(tid, grid(tid), ts, date, host, base_ids, guest_ids, problems)
        if ts.unplayed:
            where.unplayed.add(tid)
        elif t is not None:
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
                               "the sheet)", tournament=name, season=shown_name(d.SEASON), column=column))
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


def _winner(result: bm.TournamentResult) -> str:
    return ", ".join(e.entry for e in result.entries if e.rank == 1)


#: What separated two pairs level on points (C.04), in the workbook's words.
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
            plan_sorted_result(plan, results[t.id], sheets[t.id], {**names_of, **temporary})
    plan_championship(plan, grid, names, season, standings)
    plan_participation(plan, grid, names, standings, next_list)
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
        if tid in where.unplayed:
            lines.append({"counts": _(d.NOT_PLAYED)})
            continue
        lines.append({} if res is None else {
            "pairs": res.pairs, "tables": res.tables, "boards": res.boards, "top": res.top,
            "penalty": res.penalty_unit, "base_pairs": res.base_pairs_playing,
            "counts": _("yes") if res.championship else _("no (friendly)"), "winner": _winner(res)})
    values = padded(table.values(lines), grid, table.first_row, table.first_col, table.width())
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
                    **pts(e if n is None else n, e.kind)}
        lines.append(line)
    if lines:
        plan.blocks.append(table.block(ts.sheet, lines, what=ts.sheet, rows=units))
