"""Reading the BridgeMania workbook into the engine's typed records, once: the Season sheet.

:func:`read_season` reads the Season sheet (base pairs, guest register, the
tournament calendar) by column id (:meth:`~xlbridge.workbooks.declare.Table.row`)
and remembers where each was typed (:class:`SeasonPlaces`), so that the engine's
problems can be put at their cells; a tournament sheet is read by
:mod:`~xlbridge.workbooks.bridgemania.tournament`, with the small readers here.  What the engine checks (scores, statuses, the TOP,
validity) is left to it: nothing is validated twice.

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from xlbridge.language import _
from xlbridge.clubs import bridgemania as bm
from xlbridge.values import as_date, as_text, as_whole, is_blank
from xlbridge.workbooks.book import Grid, cell
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.declare import cell_ref
from xlbridge.workbooks.plan import LocatedProblem, at
from xlbridge.workbooks.typed_checks import cell_problem, spaced

__all__ = ["SeasonPlaces", "read_season", "is_tournament_sheet", "ids", "players", "found", "formulas",
           "spaced_ids"]



# ------------------------------------------------------------------ where things were typed


@dataclass
class SeasonPlaces:
    """The rows of the Season sheet's tables, by id."""

    base_rows: dict[str, list[int]] = field(default_factory=dict)
    guest_rows: dict[str, list[int]] = field(default_factory=dict)
    calendar_rows: dict[str, list[int]] = field(default_factory=dict)
    calendar: list[tuple[int, str]] = field(default_factory=list)  # (row, tournament id), in order
    last_calendar_row: int = d.CALENDAR.first_row - 1
    unplayed: set[str] = field(default_factory=set)  # listed tournaments whose sheet is not played yet
    warnings: list[LocatedProblem] = field(default_factory=list)  # an id typed with a space before or after it


# ------------------------------------------------------------------ small readers


def ids(value: Any) -> list[str]:
    """``"AF, LS"`` / ``"AF - LS"`` / ``"AF/LS"`` -> ``["AF", "LS"]``."""
    text = as_text(value)
    for sep in (";", "/", "&", "+", " - "):
        text = text.replace(sep, ",")
    return [part.strip() for part in text.split(",") if part.strip()]


def players(value: Any) -> list[str]:
    text = as_text(value)
    for sep in (";", "/", "&", "+"):
        text = text.replace(sep, ",")
    return [part.strip() for part in text.split(",") if part.strip()]


def _date(value: Any) -> str:
    date = as_date(value)
    return date.isoformat() if date is not None else as_text(value)


def found(value: Any) -> str:
    return "empty" if is_blank(value) else repr(value)


def is_tournament_sheet(grid: Grid) -> bool:
    title = cell(grid, 1, 1)
    return isinstance(title, str) and title.startswith(_(d.TOURNAMENT_TITLE))


def formulas(sheet: str, grid: Grid, cells: Iterable[tuple[int, int]]) -> list[LocatedProblem]:
    """A problem at every typed cell of ``cells`` that holds a formula or an error value (:mod:`..typed`):
    the same located problem as in every kind (issue 25: a Name built by a formula became the pair's name)."""
    return [p for r, c in cells if (p := cell_problem(sheet, cell_ref(r, c), cell(grid, r, c))) is not None]


def spaced_ids(sheet: str, grid: Grid, cells: Iterable[tuple[int, int]]) -> list[LocatedProblem]:
    """A warning at every id of ``cells`` typed with a space before or after it (compared without)."""
    return [w for r, c in cells if (w := spaced(sheet, cell_ref(r, c), cell(grid, r, c))) is not None]


#: The columns holding ids of the Season sheet's tables.
SEASON_IDS = ((d.BASE, "pair"), (d.GUESTS, "guest"), (d.CALENDAR, "tournament"), (d.CALENDAR, "host"))



def _season_ids(grid: Grid) -> Iterator[tuple[int, int]]:
    for table, column in SEASON_IDS:
        yield from ((r, table.col(column)) for r in range(table.first_row, len(grid) + 1))


def _season_cells(grid: Grid) -> Iterator[tuple[int, int]]:
    """Every typed cell of the Season sheet: its name and the typed columns of its three tables."""
    name = d.SEASON_SHEET.setting("name")
    yield name.row, name.col
    for table in (d.BASE, d.GUESTS, d.CALENDAR):
        for column in table.typed():
            yield from ((r, table.col(column.id)) for r in range(table.first_row, len(grid) + 1))


# ------------------------------------------------------------------ the Season sheet


def read_season(grid: Grid, where: SeasonPlaces, problems: list[LocatedProblem]
                ) -> tuple[list[bm.BasePair], list[bm.Guest], list[str], list[tuple[str, str]]]:
    """The base pairs, guests, reference list and calendar ((date, host) per listed tournament)."""
    base_pairs: list[bm.BasePair] = []
    lots: list[tuple[int, Any, str]] = []
    guests: list[bm.Guest] = []
    calendar: list[tuple[str, str]] = []
    problems += formulas(d.SEASON, grid, _season_cells(grid))
    where.warnings += spaced_ids(d.SEASON, grid, _season_ids(grid))
    for r in range(d.BASE.first_row, len(grid) + 1):
        base, guest_row, calendar_row = (t.row(grid, r) for t in (d.BASE, d.GUESTS, d.CALENDAR))
        pair = _base_row(base, r, problems) if base else None
        if pair is not None:
            base_pairs.append(pair)
            where.base_rows.setdefault(pair.id, []).append(r)
            lots.append((r, base["lot"], pair.id))
        guest = _guest_row(guest_row, r, problems) if guest_row else None
        if guest is not None:
            guests.append(guest)
            where.guest_rows.setdefault(guest.id, []).append(r)
        listed = _calendar_row(calendar_row, r, problems) if calendar_row else None
        if listed is not None:
            tid, date, host = listed
            where.calendar.append((r, tid))
            where.calendar_rows.setdefault(tid, []).append(r)
            where.last_calendar_row = r
            calendar.append((date, host))
    _in_date_order(grid, where, problems)
    return base_pairs, guests, _reference(lots, problems), calendar


def _in_date_order(grid: Grid, where: SeasonPlaces, problems: list[LocatedProblem]) -> None:
    """Every typed date is a date, and the list is in date order: the standings after each tournament and the
    Chart follow the list (issue 25: T04 and T05 swapped gave the standings in the wrong order, without a word).
    Each date is compared with the one above it: a mistyped date gives one problem, naming both rows."""
    last: tuple[int, str, Any] | None = None
    for r, tid in where.calendar:
        typed = cell(grid, r, d.CALENDAR.col("date"))
        day = as_date(typed)
        place = d.CALENDAR.cell("date", r)
        if day is None and not is_blank(typed):
            problems.append(at(d.SEASON, place, "bm.season.date", "{tournament}: date {value!r} is not a date (type "
                               "a date, e.g. 2019-09-20)", tournament=tid, field="date", row=r, value=typed))
        elif day is not None and last is not None and day < last[2]:
            problems.append(at(d.SEASON, place, "bm.season.date-order", "{tournament} ({day}) is listed after "
                               "{other} ({other_day}, row {other_row}): list the tournaments in date order, as the "
                               "standings after each tournament follow the list", tournament=tid, field="date",
                               row=r, day=day.isoformat(), other=last[1], other_day=last[2].isoformat(),
                               other_row=last[0]))
        if day is not None:
            last = (r, tid, day)


def _base_row(row: dict[str, Any], r: int, problems: list[LocatedProblem]) -> bm.BasePair | None:
    t = d.BASE
    pid, p1, p2 = row["pair"], row["player1"], row["player2"]
    if is_blank(pid):
        problems.append(at(d.SEASON, t.cell("pair", r), "bm.season.pair-empty", "a base pair row without its pair id",
                           field="pair", row=r))
        return None
    for number, player in ((1, p1), (2, p2)):
        if is_blank(player):
            problems.append(at(d.SEASON, t.cell(f"player{number}", r), "bm.season.player-empty",
                               "base pair {pair}: player {number} is empty", pair=as_text(pid),
                               field=f"player{number}", row=r, number=number))
    return bm.BasePair(as_text(pid), (as_text(p1), as_text(p2)), as_text(row["name"]))


def _guest_row(row: dict[str, Any], r: int, problems: list[LocatedProblem]) -> bm.Guest | None:
    t = d.GUESTS
    gid = row["guest"]
    if is_blank(gid):
        problems.append(at(d.SEASON, t.cell("guest", r), "bm.season.guest-empty", "a guest row without its pair id",
                           field="guest", row=r))
        return None
    return bm.Guest(as_text(gid), as_text(row["name"]))


def _calendar_row(row: dict[str, Any], r: int, problems: list[LocatedProblem]) -> tuple[str, str, str] | None:
    t = d.CALENDAR
    tid = row["tournament"]
    if is_blank(tid):
        problems.append(at(d.SEASON, t.cell("tournament", r), "bm.season.tournament-empty",
                           "a tournament row without its sheet name", field="tournament", row=r))
        return None
    return as_text(tid), _date(row["date"]), as_text(row["host"])


def _reference(lots: list[tuple[int, Any, str]], problems: list[LocatedProblem]) -> list[str]:
    """The reference list (section B): the lot numbers 1..n, or all blank (= the order of the rows)."""
    if all(is_blank(lot) for _, lot, _ in lots):
        return []
    n = len(lots)
    seen: dict[int, int] = {}
    for r, lot, pid in lots:
        number = as_whole(lot)
        place = d.BASE.cell("lot", r)
        if is_blank(lot):
            problems.append(at(d.SEASON, place, "bm.season.lot-empty", "base pair {pair}: the lot number is empty "
                               "(type 1..{count} for every pair, or leave the whole column blank)", pair=pid,
                               field="lot", row=r, count=n))
        elif number is None or not 1 <= number <= n:
            problems.append(at(d.SEASON, place, "bm.season.lot", "lot {value!r} is not a whole number from 1 to "
                               "{count}", pair=pid, field="lot", row=r, value=lot, count=n))
        elif number in seen:
            problems.append(at(d.SEASON, place, "bm.season.lot-twice", "lot {value} is also in row {other}",
                               pair=pid, field="lot", row=r, value=number, other=seen[number]))
        else:
            seen[number] = r
    if len(seen) != n:
        return []
    return [pid for _, lot, pid in sorted(lots, key=lambda x: as_whole(x[1]) or 0)]


