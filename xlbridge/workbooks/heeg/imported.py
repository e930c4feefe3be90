"""A scoring program's results onto a Heeg evening sheet (issue 27): ``xlbridge import``.

Each pair of the file is a pair of the roster (the Season sheet's pairs table), found by its
players' names: the roster's Names, or what the scorer typed in its *In the file* column where
the program writes the names otherwise (case, accents and the order of the two do not matter;
a pair the file gives without names by its number, the roster's pair number).  That column is
the mapping the scorer sees and corrects: a pair not found is a problem naming it as the file
does, so that the scorer types those names beside the right pair once, for every evening after.

A line plays its own movement, so each section of the file holds the pairs of one line of the
evening sheet (a section with pairs of two lines, or two sections of one line, is refused: a
combi table stays the scorer's C).  Each board's lines give every pair its MP on the club's
scale (two for each result beaten, one for each tie; the line's top, ``line_top`` of the
section's pairs, raising a board played at fewer tables as
:func:`~xlbridge.results.matchpoints.matchpoints` does), exactly from the trick scores or the
file's matchpoints rescaled.  Where the file says in which round each board was played, the
MP go into R1..Rn by round; otherwise the evening's total goes into MP.  The sit-outs and
absences stay the scorer's inv codes: a pair that played fewer rounds than the evening has is a
warning to type its ``s``, and the recalculation that follows in the same run says which listed
pairs have neither a result nor a code.

The evening is the sheet of the file's date (or ``--sheet``; a file without a date: the last
evening), and no MP may be typed yet on a row the file fills: nothing is replaced.

Standard library only.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from xlbridge.clubs.heeg.rules import MP_CODES, line_top, normalise_code
from xlbridge.clubs.heeg.settings import HeegSettings
from xlbridge.language import N_, current
from xlbridge.results.matchpoints import board_points
from xlbridge.results.model import Result, name_key
from xlbridge.rules.problems import Problem, RuleError
from xlbridge.values import as_text, is_blank
from xlbridge.workbooks.book import BookAdapter, cell
from xlbridge.workbooks.declare import cell_ref
from xlbridge.workbooks.heeg.declaration import SEASON, SETTINGS, evening_sheet, evening_table, pairs_table
from xlbridge.workbooks.heeg.evening import EveningSheet, read_evening
from xlbridge.workbooks.heeg.read import SeasonSheet, read_season
from xlbridge.workbooks.localised import Localised, language_of, localised, shown_name
from xlbridge.workbooks.plan import BookInputError, LocatedProblem, at

__all__ = ["Imported", "import_evening"]

WORKBOOK = "workbook"
BY_ROUND = N_("{pairs} pairs of {file} typed into {sheet} (MP per round; lines: {lines}); recalculated.")
TOTALS = N_("{pairs} pairs of {file} typed into {sheet} (the evening's MP: the file has no rounds; lines: {lines}); "
            "recalculated.")
WAITING = N_("{pairs} pairs of {file} typed into {sheet} (lines: {lines}); line {waiting} has no MP yet: import its "
             "file (or type its MP), and the season is recalculated then.")


@dataclass(frozen=True)
class Imported:
    """What was imported: the evening's sheet, how many pairs, their lines, by round or as totals; ``waiting``:
    the evening's other lines that have no MP yet (a club that scores its lines as two events imports each
    line's file): the season is not recalculated until they have."""

    sheet: str
    pairs: int
    lines: tuple[str, ...]
    by_round: bool
    warnings: tuple[LocatedProblem, ...] = ()
    waiting: tuple[str, ...] = ()

    def message(self, file: object) -> str:
        """The line the import prints (in the language spoken)."""
        template = WAITING if self.waiting else BY_ROUND if self.by_round else TOTALS
        return Problem("heeg.import.done", template, pairs=self.pairs, file=file, sheet=shown_name(self.sheet),
                       lines=", ".join(self.lines), waiting=", ".join(self.waiting)).message


def _refuse(sheet: str, ref: str | None, code: str, template: str, /, **params: Any) -> BookInputError:
    return BookInputError([at(sheet, ref, code, template, **params)])


def _evening(book: BookAdapter, settings: HeegSettings, result: Result, sheet: str | None,
             warnings: list[LocatedProblem]) -> tuple[str, dt.date]:
    """The evening sheet to type into and its date (see the module docstring)."""
    names = set(book.sheet_names())
    evenings = sorted(d for p in settings.periods for d in p.evenings if evening_sheet(d) in names)
    listed = ", ".join(shown_name(evening_sheet(d)) for d in evenings[-3:]) or "-"
    day = result.event.date
    if sheet is not None:
        canonical = Localised.canonical_name(sheet, current())
        found = next((d for d in evenings if canonical in (evening_sheet(d), sheet)), None)
        if found is None:
            raise _refuse(WORKBOOK, None, "heeg.import.sheet-unknown", "{sheet!r} is not an evening sheet of the "
                          "season (the last ones: {evenings})", sheet=sheet, evenings=listed)
        if day is not None and day != found:
            warnings.append(at(evening_sheet(found), None, "heeg.import.other-date", "the file is of {day} and "
                               "the sheet of {sheet_day}: imported as asked (--sheet)", day=day.isoformat(),
                               sheet_day=found.isoformat()))
        return evening_sheet(found), found
    if day is None:
        if not evenings:
            raise _refuse(WORKBOOK, None, "heeg.import.no-evening", "no evening to import into: add it first with "
                          "New evening (xlbridge next), then import")
        return evening_sheet(evenings[-1]), evenings[-1]
    if day not in evenings:
        raise _refuse(WORKBOOK, None, "heeg.import.no-sheet-of-date", "the file is of {day} and the season has no "
                      "evening sheet of that date (the last ones: {evenings}): add it with New evening (xlbridge "
                      "next --date {day}), or name the sheet with --sheet", day=day.isoformat(), evenings=listed)
    return evening_sheet(day), day


def _roster(book: BookAdapter, season: SeasonSheet) -> tuple[dict[frozenset[str], set[Any]], str]:
    """The roster's pairs by their players: what the scorer typed in In the file, else their Names (a key
    two pairs share: both); and the cell of the In the file header (where a problem about a pair points)."""
    grid = book.read(SEASON)
    table = pairs_table([p.label for p in season.settings.periods], season.pairs_header)
    known: dict[frozenset[str], set[Any]] = {}
    for column in ("file_names", "names"):
        mine: dict[frozenset[str], set[Any]] = {}
        for pair, row in season.pair_rows.items():
            key = name_key([as_text(cell(grid, row, table.col(column)))])
            if key and key not in known:
                mine.setdefault(key, set()).add(pair)
        known.update(mine)
    return known, table.cell("file_names", season.pairs_header)


#: A pair of the file as its lines name it: (section, direction or "" in a Howell, id).
Key = tuple[str, str, str]


def _ours(result: Result, known: dict[frozenset[str], set[Any]], roster: set[Any], where: str) -> dict[Key, Any]:
    """The file's pairs -> the roster's pairs; a problem for each pair the roster does not know."""
    found: dict[Key, Any] = {}
    problems: list[LocatedProblem] = []
    for p in result.pairs:
        found_by = known.get(name_key(p.names), set()) if p.names else {p.number} & roster
        ours = next(iter(found_by)) if len(found_by) == 1 else None
        shown = " - ".join(p.names) or p.id
        if len(found_by) > 1:
            problems.append(at(SEASON, where, "heeg.import.names-twice", "the file's pair {pair} ({names}) has the "
                               "names of pairs {ours}: type it in 'In the file' beside the one it is", pair=p.id,
                               names=shown, ours=", ".join(str(x) for x in sorted(found_by, key=str))))
        elif ours is None:
            problems.append(at(SEASON, where, "heeg.import.unknown-pair", "the file's pair {pair} ({names}) is not on "
                               "the roster by its names: type them as the file writes them in 'In the file' beside "
                               "its pair", pair=p.id, names=shown))
        elif ours in found.values():
            problems.append(at(SEASON, where, "heeg.import.pair-twice", "the file's pair {pair} ({names}) and another "
                               "of its pairs are both pair {ours}", pair=p.id, names=shown, ours=ours))
        else:
            found[(p.section, p.direction, p.id)] = ours
    if problems:
        raise BookInputError(problems)
    return found


def _pair_of(ours: dict[Key, Any], section: str, side: str, pair: str, board: int) -> Any:
    """The roster's pair of a line's North-South or East-West pair."""
    found = ours.get((section, side, pair), ours.get((section, "", pair)))
    if found is None:
        raise _refuse(WORKBOOK, None, "heeg.import.line-pair", "board {board}: pair {pair} of a line is not among "
                      "the file's pairs of its section", board=board, pair=pair)
    return found


def _rows(evening: EveningSheet) -> dict[Any, tuple[int, str, dict[str, Any]]]:
    """The pairs listed on the evening sheet: key -> (row, line, the row's values by field)."""
    return {values["pair"]: (row, as_text(values["line"]), values) for row, values in evening.raw
            if values["pair"] is not None}


def _lines(name: str, result: Result, ours: dict[Key, Any],
           rows: dict[Any, tuple[int, str, dict[str, Any]]]) -> dict[str, str]:
    """Each section of the file -> the one line of the evening sheet its pairs play in."""
    lines: dict[str, set[str]] = {}
    for (section, _direction, pair_id), pair in ours.items():
        if pair not in rows:
            raise _refuse(name, None, "heeg.import.not-listed", "pair {pair} (the file's {file_pair}) is not on "
                          "{sheet}: give it a line in this period on the Season sheet, or add its row",
                          pair=pair, file_pair=pair_id, sheet=shown_name(name))
        lines.setdefault(section, set()).add(rows[pair][1])
    out: dict[str, str] = {}
    for section, found in lines.items():
        if len(found) > 1:
            raise _refuse(name, None, "heeg.import.section-lines", "the file's section {section} holds pairs of the "
                          "lines {lines}; each line plays its own section (a combi table stays typed in C)",
                          section=section or "-", lines=", ".join(sorted(found)))
        line = found.pop()
        if line in out.values():
            raise _refuse(name, None, "heeg.import.line-split", "line {line} is more than one section of the file; "
                          "each line plays its own section", line=line)
        out[section] = line
    return out


def _points(result: Result, ours: dict[Key, Any]
            ) -> tuple[dict[Any, dict[int | None, Fraction]], dict[tuple[Any, int | None], int]]:
    """Each roster pair's MP by round (``None``: the file has no rounds) on its line's top (``line_top`` of
    its section's pairs), and how many boards it played in each."""
    points: dict[Any, dict[int | None, Fraction]] = {}
    counts: dict[tuple[Any, int | None], int] = {}
    boards_of: dict[Any, set[int]] = {}
    by_round = all(line.round is not None for line in result.lines)
    sizes = {s: sum(1 for key in ours if key[0] == s) for s in result.sections}
    for board, lines in result.boards().items():
        for section in dict.fromkeys(line.section for line in lines):
            mine = [line for line in lines if line.section == section]
            try:
                top = line_top(sizes.get(section, 0))
            except RuleError as error:
                raise _refuse(WORKBOOK, None, "heeg.import.small-section", "the file's section {section} has "
                              "{count} pairs: a line needs at least 4 to have a top", section=section or "-",
                              count=sizes.get(section, 0)) from error
            sides = [(line, side, pair) for line in mine for side, pair in (("NS", line.ns), ("EW", line.ew))]
            for (_pair, mp), (line, side, pair) in zip(board_points(board, mine, top), sides):
                ours_pair = _pair_of(ours, section, side, pair, board)
                if board in boards_of.setdefault(ours_pair, set()):
                    raise _refuse(WORKBOOK, None, "heeg.import.line-twice", "board {board}: pair {pair} plays it "
                                  "twice", board=board, pair=pair)
                boards_of[ours_pair].add(board)
                by = points.setdefault(ours_pair, {})
                rnd = line.round if by_round else None
                by[rnd] = by.get(rnd, Fraction(0)) + mp
                counts[(ours_pair, rnd)] = counts.get((ours_pair, rnd), 0) + 1
    return points, counts


def _plain(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def _check_boards(name: str, settings: HeegSettings, rounds: int, boards: dict[tuple[Any, int | None], int]) -> None:
    """The file's rounds and boards against the evening's: a round beyond R{n}, more boards in a round than
    the Season sheet's boards per round, more boards in an evening than its rounds hold."""
    per_round = settings.boards_per_round
    setting = next(s for s in SETTINGS if s.id == "boards_per_round")
    for (pair, rnd), count in boards.items():
        if rnd is not None and not 1 <= rnd <= rounds:
            raise _refuse(name, None, "heeg.import.round", "the file has round {round} and the sheet's rounds are "
                          "R1 to R{rounds}", round=rnd, rounds=rounds)
        if rnd is not None and count > per_round:
            raise _refuse(SEASON, cell_ref(setting.row, setting.col), "heeg.import.boards-round", "pair {pair} "
                          "played {count} boards in round {round} of the file; the Season sheet has {per_round} "
                          "boards per round", pair=pair, count=count, round=rnd, per_round=per_round)
        if rnd is None and count > per_round * rounds:
            raise _refuse(SEASON, cell_ref(setting.row, setting.col), "heeg.import.boards", "pair {pair} played "
                          "{count} boards in the file; {rounds} rounds of {per_round} boards (the Season sheet) "
                          "hold {limit}", pair=pair, count=count, rounds=rounds, per_round=per_round,
                          limit=per_round * rounds)


def import_evening(book: BookAdapter, result: Result, *, sheet: str | None = None,
                   ranking: str | None = None) -> Imported:
    """Type the MP of ``result`` into an evening sheet of ``book`` (see the module docstring); raises
    :class:`BookInputError` and writes nothing on a problem.  ``ranking`` (``--section``): only the file's
    section of that name (a club that scores its lines apart imports each)."""
    book = localised(book, language_of(book))
    problems: list[LocatedProblem] = []
    season = read_season(book.read(SEASON), problems)
    if problems or season is None:
        raise BookInputError(problems or [at(SEASON, None, "heeg.import.season", "the Season sheet cannot be read")])
    settings = season.settings
    warnings: list[LocatedProblem] = []
    result = _section(result, ranking)
    name, day = _evening(book, settings, result, sheet, warnings)
    evening = read_evening(name, day, book.read(name), problems)
    if problems or evening is None:
        raise BookInputError(problems)
    known, where = _roster(book, season)
    ours = _ours(result, known, {p.pair for p in settings.roster}, where)
    rows = _rows(evening)
    lines = _lines(name, result, ours, rows)
    points, boards = _points(result, ours)
    _check_boards(name, settings, evening.rounds, boards)
    table = evening_table(evening.rounds, ())
    most = {line: max((boards.get((p, None), 0) for p in points if rows[p][1] == line), default=0)
            for line in lines.values()}  # (the boards of a line's pairs that did not sit out)
    writes = []
    for pair in sorted(points, key=lambda p: rows[p][0]):
        by = points[pair]
        row, line, values = rows[pair]
        typed = [f"r{i}" for i in range(1, evening.rounds + 1)] + ["mp"]
        if any(not is_blank(values.get(c)) for c in typed):
            raise _refuse(name, cell_ref(row, table.col("pair")), "heeg.import.not-empty", "pair {pair} already has "
                          "MP typed on {sheet} (row {row}): nothing is replaced; clear its MP to import it",
                          pair=pair, sheet=shown_name(name), row=row)
        sat_out = len(by) < evening.rounds if None not in by else boards[(pair, None)] < most[line]
        if sat_out and as_text(values.get("code")) not in ("s", "s1"):
            warnings.append(at(name, cell_ref(row, table.col("code")), "heeg.import.sat-out", "pair {pair} played "
                               "fewer boards than the others of line {line}: type s in inv if it sat out a round",
                               pair=pair, line=line))
        if None in by:
            writes.append((row, table.col("mp"), [_plain(by[None])]))
        else:
            writes.append((row, table.col("r1"), [_plain(by[r]) if r in by else None
                                                  for r in range(1, evening.rounds + 1)]))
    for row, col, values in writes:
        book.write(name, row, col, [values])
    imported = tuple(dict.fromkeys(lines.values()))
    return Imported(name, len(points), imported, all(None not in by for by in points.values()), tuple(warnings),
                    _waiting(rows, imported, evening.rounds))


def _waiting(rows: dict[Any, tuple[int, str, dict[str, Any]]], imported: tuple[str, ...], rounds: int
             ) -> tuple[str, ...]:
    """The evening's lines other than ``imported`` that have no MP or rounds typed yet, though a pair of theirs
    needs them (its inv code is none of 0, a, 2, =): their file is still to come (one file per line, or
    ``--section``)."""
    results = ["mp"] + [f"r{i}" for i in range(1, rounds + 1)]
    typed: dict[str, bool] = {}
    needed: set[str] = set()
    for _row, line, values in rows.values():
        if line not in imported:
            typed[line] = typed.get(line, False) or any(not is_blank(values.get(c)) for c in results)
            if _code(values.get("code")) in MP_CODES:
                needed.add(line)
    return tuple(sorted(line for line in needed if not typed[line]))


def _code(value: Any) -> str | None:
    try:
        return normalise_code(value)
    except RuleError:  # (not a code: the recalculation says so)
        return None


def _section(result: Result, ranking: str | None) -> Result:
    """``result`` with only the section ``ranking`` (all of it when ``None``)."""
    if ranking is None:
        return result
    if ranking not in result.sections:
        raise _refuse(WORKBOOK, None, "heeg.import.section", "the file has no section {section!r} (its sections: "
                      "{sections})", section=ranking, sections=", ".join(repr(s) for s in result.sections))
    return replace(result, pairs=tuple(p for p in result.pairs if p.section == ranking),
                   lines=tuple(line for line in result.lines if line.section == ranking))

