"""A scoring program's results onto a BridgeMania tournament sheet (issue 27): ``xlbridge import``.

The file's pairs are the Season sheet's base pairs and registered guests, recognised by their
players' names (the two players of a base pair, a guest's name; case, accents and the order of
the two do not matter).  Each board's lines become the board scores of the Regolamento's scale
("secondo la scala 0 - 2 - 4 -... fino al TOP", Sezione C 01: two for each result beaten, one
for each tie), computed exactly from the lines' trick scores, or, where a line has no score, from the
file's matchpoints rescaled from its top to ``2 (rows - 1)``
(:func:`~xlbridge.results.matchpoints.board_points`); a pair that did not play a board
the others played sits it out (``R``).  The board numbers are the file's; TOP is set when it
is empty.  The sheet is the tournament the scorer added with New tournament (the last of the
calendar, or ``--sheet``), and no board score may be typed on it yet: nothing is replaced.  A
pair the file has and the season does not know is a problem naming its players, so the scorer
can type them on the Season sheet as the file writes them; the base pairs that did not play
keep the status the scorer types (waiting, ill, unable): the recalculation that follows in the
same run says which are missing.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from xlbridge.language import N_
from xlbridge.results.matchpoints import board_points, board_top
from xlbridge.results.model import Result, name_key
from xlbridge.rules.problems import Problem
from xlbridge.values import as_text, is_blank
from xlbridge.workbooks.book import BookAdapter, Grid, cell
from xlbridge.workbooks.bridgemania import declaration as d
from xlbridge.workbooks.bridgemania.read import SeasonPlaces, read_season
from xlbridge.workbooks.bridgemania.tournament import TournamentPlaces, structure
from xlbridge.workbooks.declare import cell_ref
from xlbridge.workbooks.localised import language_of, localised, shown_name
from xlbridge.workbooks.plan import BookInputError, LocatedProblem, at

__all__ = ["Imported", "import_tournament"]

WORKBOOK = "workbook"
DONE = N_("{pairs} pairs of {file} typed into {sheet}: {boards} boards, TOP {top}; recalculated.")


@dataclass(frozen=True)
class Imported:
    """What was imported: the tournament's sheet, its pairs, boards and TOP."""

    sheet: str
    pairs: int
    boards: int
    top: int
    warnings: tuple[LocatedProblem, ...] = ()

    def message(self, file: object) -> str:
        """The line the import prints (in the language spoken)."""
        return Problem("bm.import.done", DONE, pairs=self.pairs, file=file, sheet=shown_name(self.sheet),
                       boards=self.boards, top=self.top).message


def _season(book: BookAdapter) -> tuple[dict[frozenset[str], str], list[str], dict[str, str]]:
    """The pairs the season knows by their players (base pairs, then guests), the calendar's
    tournaments in order and their dates as typed (ISO for a date)."""
    problems: list[LocatedProblem] = []
    where = SeasonPlaces()
    base, guests, _reference, calendar = read_season(book.read(d.SEASON), where, problems)
    if problems:
        raise BookInputError(problems)
    known: dict[frozenset[str], str] = {}
    for g in guests:
        known.setdefault(name_key([g.name]), g.id)
    for b in base:
        known[name_key(b.players)] = b.id
        if b.name:
            known.setdefault(name_key([b.name]), b.id)
    tournaments = [tid for _row, tid in where.calendar]
    return known, tournaments, {tid: day for tid, (day, _host) in zip(tournaments, calendar)}


def _sheet(book: BookAdapter, calendar: list[str], dates: dict[str, str], result: Result, sheet: str | None,
           warnings: list[LocatedProblem], refused: list[LocatedProblem]) -> str:
    """The tournament to type into: ``--sheet``, the calendar's tournament of the file's date, else the last one;
    a file of another date than the tournament's is refused (last week's file into this week's tournament),
    or, with ``--sheet``, imported as asked with a warning."""
    names = book.sheet_names()
    day = result.event.date.isoformat() if result.event.date is not None else None
    if sheet is not None:
        if sheet not in calendar or sheet not in names:
            raise BookInputError([at(WORKBOOK, None, "bm.import.sheet-unknown", "{sheet!r} is not a tournament of "
                                     "the calendar with its sheet (the tournaments: {tournaments})", sheet=sheet,
                                     tournaments=", ".join(t for t in calendar if t in names) or "-")])
        if day is not None and dates.get(sheet) and dates[sheet] != day:
            warnings.append(at(sheet, None, "bm.import.other-date", "the file is of {day} and {sheet} of {sheet_day}: "
                               "imported as asked (--sheet)", day=day, sheet=shown_name(sheet), sheet_day=dates[sheet]))
        return sheet
    if not calendar or calendar[-1] not in names:
        raise BookInputError([at(WORKBOOK, None, "bm.import.no-tournament", "no tournament to import into: add it "
                                 "first with New tournament (xlbridge next), then import")])
    chosen = next((t for t in reversed(calendar) if t in names and dates.get(t) == day), calendar[-1])
    if day is not None and dates.get(chosen) and dates[chosen] != day:
        refused.append(at(WORKBOOK, None, "bm.import.date", "the file is of {day} and {sheet}, the last tournament, "
                          "of {sheet_day}: correct its date on the Season sheet if the file is its night, or name the "
                          "tournament with --sheet", day=day, sheet=shown_name(chosen), sheet_day=dates[chosen]))
    return chosen


def _pairs(result: Result, known: dict[frozenset[str], str]) -> dict[str, str]:
    """The file's pair ids -> the season's pair ids; a problem for each pair the season does not know."""
    found, problems = {}, []
    for p in result.pairs:
        ours = known.get(name_key(p.names))
        if ours is None:
            names = " - ".join(p.names) or p.id
            problems.append(at(WORKBOOK, None, "bm.import.unknown-pair", "the file's pair {pair} ({names}) is neither "
                               "a base pair nor a registered guest of the season: type its players on the Season "
                               "sheet as the file writes them, or register it as a guest", pair=p.id, names=names))
        elif ours in found.values():
            problems.append(at(WORKBOOK, None, "bm.import.pair-twice", "the file's pair {pair} and another of its "
                               "pairs are both {ours}", pair=p.id, ours=ours))
        else:
            found[p.id] = ours
    if problems:
        raise BookInputError(problems)
    return found


def _listed(tid: str, grid: Grid, ts: TournamentPlaces) -> dict[str, int]:
    """The pairs listed on the tournament sheet, by id -> row; a problem if a board score is typed already."""
    rows: dict[str, int] = {}
    for r in range(d.PAIRS.first_row, ts.main_end + 1):
        if any(not is_blank(cell(grid, r, ts.board_col(b))) for b in range(1, ts.board_width + 1)):
            raise BookInputError([at(tid, cell_ref(r, ts.board_col(1)), "bm.import.not-empty", "{sheet} already holds "
                                     "board scores (row {row}): nothing is replaced; import into a new tournament",
                                     sheet=shown_name(tid), row=r)])
        pair = (d.PAIRS.row(grid, r) or {}).get("pair")
        if not is_blank(pair):
            rows.setdefault(as_text(pair), r)
    return rows


def _whole(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def import_tournament(book: BookAdapter, result: Result, *, sheet: str | None = None,
                      ranking: str | None = None) -> Imported:
    """Type the board scores of ``result`` into a tournament sheet of ``book`` (see the module docstring);
    raises :class:`BookInputError` and writes nothing on a problem.  ``ranking`` (``--section``) is an event
    sheet's choice: a BridgeMania tournament ranks every pair together, so one given is refused."""
    if ranking is not None:
        raise BookInputError([at(WORKBOOK, None, "bm.import.section", "a BridgeMania tournament ranks all its pairs "
                                 "together: leave out --section {ranking!r}", ranking=ranking)])
    book = localised(book, language_of(book))
    known, calendar, dates = _season(book)
    warnings: list[LocatedProblem] = []
    refused: list[LocatedProblem] = []
    tid = _sheet(book, calendar, dates, result, sheet, warnings, refused)
    grid = book.read(tid)
    ts, problems = structure(tid, grid)  # (not a tournament sheet at all: the reader's problem at A1)
    if problems:
        raise BookInputError(problems)
    rows = _listed(tid, grid, ts)  # (played already: New tournament forgotten, whatever the dates say)
    if refused:
        raise BookInputError(refused)
    ours = _pairs(result, known)
    boards = result.boards()
    if not boards:
        raise BookInputError([at(WORKBOOK, None, "bm.import.no-boards", "the file has no board results")])
    last = max(boards)
    if last > ts.board_width:
        raise BookInputError([at(tid, cell_ref(d.PAIRS.header_row, ts.board_col(ts.board_width)),
                                 "bm.import.too-many-boards", "the file has board {board} and the sheet's board "
                                 "columns end at {width}", board=last, width=ts.board_width)])
    scores: dict[str, dict[int, Fraction]] = {}
    tops = set()
    for board, lines in boards.items():
        tops.add(board_top(len(lines)))
        for pair, mp in board_points(board, lines):
            if pair not in ours:
                raise BookInputError([at(WORKBOOK, None, "bm.import.line-pair", "board {board}: pair {pair} of a "
                                         "line is not among the file's pairs", board=board, pair=pair)])
            if board in scores.setdefault(ours[pair], {}):
                raise BookInputError([at(WORKBOOK, None, "bm.import.line-twice", "board {board}: pair {pair} plays "
                                         "it twice", board=board, pair=pair)])
            scores[ours[pair]][board] = mp
    top = max(tops)
    free = [r for r in range(d.PAIRS.first_row, ts.main_end) if all(
        is_blank(cell(grid, r, c)) for c in range(1, d.PAIRS.width() + 1))]
    new = [pair for pair in scores if pair not in rows]
    if len(new) > len(free):
        raise BookInputError([at(tid, d.PAIRS.cell("pair", ts.main_end), "bm.import.no-room", "{sheet} has room for "
                                 "{room} more pairs and the file has {count} that are not listed there",
                                 sheet=shown_name(tid), room=len(free), count=len(new))])
    rows.update(zip(new, free))
    typed_top = d.TOP.value(grid)
    if not is_blank(typed_top) and typed_top != top:
        raise BookInputError([at(tid, d.TOP.cell, "bm.import.top", "TOP is {typed} but the file's boards were played "
                                 "{rows} times (TOP {top}): correct TOP or leave it empty", typed=typed_top,
                                 rows=top // 2 + 1, top=top)])
    for pair, by_board in scores.items():
        values = [_whole(by_board[b]) if b in by_board else ("R" if b in boards else None)
                  for b in range(1, last + 1)]
        book.write(tid, rows[pair], d.PAIRS.col("pair"), [[pair]])
        book.write(tid, rows[pair], ts.board_col(1), [values])
    if is_blank(typed_top):
        book.write(tid, d.TOP.row, d.TOP.col, [[top]])
    return Imported(tid, len(scores), len(boards), top, tuple(warnings))
