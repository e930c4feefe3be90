"""A scoring program's results onto an event sheet (issue 27): ``xlbridge import BOOK RESULTS``.

One ranking of the file (a section, or one direction of a two-winner Mitchell) becomes the
sheet's typed rows: the pair's number (else its id), its players' names and its score -- the
file's percentage where every pair of the ranking has one, else its total -- with the number
of boards in *Boards* when that cell is empty.  The sheet then places the pairs by their
scores and awards them by its scheme, as if the scorer had typed them (the recalculation
follows in the same run).  Ties are the file's: the places the file gives must be the places
the scores give (equal scores tie); a file that breaks a tie of equal scores, or places a pair
otherwise than its score does, is refused with the first pair that differs, so the sheet never
awards other places than the file's.  Nothing already typed is replaced: the sheet's result
rows must be empty.  Every refusal is a located problem; nothing is written then.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from xlbridge.language import N_, _
from xlbridge.results.model import Pair, Result, ranking_of
from xlbridge.rules import get_scheme
from xlbridge.rules.problems import Problem, RuleError
from xlbridge.values import is_blank
from xlbridge.workbooks.book import BookAdapter, cell
from xlbridge.workbooks.events.declaration import BOARDS, NAMES, READER, ROOM, SCHEME, SCORE, UNIT
from xlbridge.workbooks.events.kind import FIRST_ROW, MITCHELL, TABLE, is_event_sheet, ranks_by_score
from xlbridge.workbooks.plan import BookInputError, LocatedProblem, at

__all__ = ["Imported", "rankings", "import_ranking"]

#: What a workbook problem of the import is located at when it has no cell.
WORKBOOK = "workbook"


#: What the import says it did.
DONE = N_("{pairs} pairs of {file} typed into {sheet} ({score}) and recalculated.")
DONE_RANKING = N_("{pairs} pairs of {file}, ranking {ranking}, typed into {sheet} ({score}) and recalculated.")
SCORE_WORDS = {True: N_("the file's percentages"), False: N_("the file's total scores")}
BOARDS_TYPED = N_(" Boards: {boards}.")


@dataclass(frozen=True)
class Imported:
    """What was imported: into which sheet, which ranking, how many pairs, which score."""

    sheet: str
    ranking: str  # "" for the file's only ranking
    pairs: int
    percentages: bool  # the file's percentages (else its totals)
    boards: int | None  # written into Boards (None: left as it was)
    warnings: tuple[LocatedProblem, ...] = ()  # the ties the file broke and the sheet keeps

    def message(self, file: object) -> str:
        """The line the import prints (in the language spoken)."""
        params = dict(pairs=self.pairs, file=file, sheet=self.sheet, ranking=self.ranking,
                      score=_(SCORE_WORDS[self.percentages]))
        text = Problem("import.done", DONE_RANKING if self.ranking else DONE, **params).message
        if self.boards is not None:
            text += Problem("import.boards", BOARDS_TYPED, boards=self.boards).message
        return text


def rankings(result: Result) -> dict[str, tuple[Pair, ...]]:
    """The file's rankings by name: one per section (``""`` when the file names none), and per
    direction where both directions of a section have a winner (``"A NS"``, ``"A EW"``); the pairs
    without a place and without a score are left out."""
    found: dict[str, list[Pair]] = {}
    for p, ranking in _ranked(result):
        found.setdefault(" ".join(part for part in ranking if part), []).append(p)
    return {name: tuple(members) for name, members in found.items()}


def _ranked(result: Result) -> list[tuple[Pair, tuple[str, str]]]:
    """Each ranked pair of the file (a place or a score) with its ranking, (section, direction or "")."""
    pairs = [p for p in result.pairs if p.place is not None or p.percentage is not None or p.total is not None]
    return list(zip(pairs, ranking_of(pairs)))


def _directions(result: Result) -> set[str]:
    """The names of the file's rankings that are one direction of a two-winner Mitchell (see :func:`rankings`)."""
    return {" ".join(part for part in ranking if part) for _pair, ranking in _ranked(result) if ranking[1]}


def _directions_apart(scheme: object) -> bool:
    """Whether the sheet's scheme awards each direction of a Mitchell as an event of its own (an unknown scheme:
    the recalculation says so)."""
    try:
        return get_scheme(str(scheme)).directions_apart
    except (RuleError, KeyError, ValueError):
        return True


def _sheet(book: BookAdapter, sheet: str | None) -> str:
    events = [name for name in book.sheet_names() if is_event_sheet(book.read(name))]
    if sheet is not None:
        if sheet not in events:
            raise BookInputError([at(WORKBOOK, None, "import.sheet.unknown", "no event sheet is named {sheet!r} "
                                     "(the event sheets: {sheets})", sheet=sheet, sheets=", ".join(events) or "-")])
        return sheet
    if not events:
        raise BookInputError([at(WORKBOOK, None, "import.sheet.none", "this workbook has no event sheet to import "
                                 "into: results import into the event sheets of the TBF club and Swedish "
                                 "masterpoint workbooks")])
    if len(events) > 1:
        raise BookInputError([at(WORKBOOK, None, "import.sheet.choose", "the workbook has {count} event sheets "
                                 "({sheets}): name one with --sheet", count=len(events), sheets=", ".join(events))])
    return events[0]


def _ranking(result: Result, ranking: str | None) -> tuple[str, tuple[Pair, ...]]:
    found = rankings(result)
    names = ", ".join(repr(name) for name in found)
    if ranking is not None:
        if ranking not in found:
            raise BookInputError([at(WORKBOOK, None, "import.ranking.unknown", "the file has no ranking {ranking!r} "
                                     "(its rankings: {rankings})", ranking=ranking, rankings=names or "-")])
        return ranking, found[ranking]
    if not found:
        raise BookInputError([at(WORKBOOK, None, "import.ranking.none", "the file ranks no pair: it has no places "
                                 "and no scores")])
    if len(found) > 1:
        raise BookInputError([at(WORKBOOK, None, "import.ranking.choose", "the file has {count} rankings "
                                 "({rankings}): choose one with --section", count=len(found), rankings=names)])
    return next(iter(found.items()))


def _scores(pairs: Sequence[Pair]) -> tuple[list[Fraction], bool]:
    """The scores to type: the percentages where every pair has one, else the totals (from 0: IMPs or
    Butler points below 0 are no score an event sheet ranks)."""
    if all(p.percentage is not None for p in pairs):
        return [p.percentage for p in pairs], True  # type: ignore[misc]
    missing = next((p for p in pairs if p.total is None), None)
    if missing is not None:
        raise BookInputError([at(WORKBOOK, None, "import.score.none", "pair {pair} has neither a percentage nor "
                                 "a total score in the file", pair=missing.id)])
    negative = next((p for p in pairs if p.total is not None and p.total < 0), None)
    if negative is not None:
        raise BookInputError([at(WORKBOOK, None, "import.score.negative", "pair {pair}'s total score {score} is "
                                 "below 0 (IMPs or Butler points, without percentages): an event sheet ranks scores "
                                 "from 0 up", pair=negative.id, score=float(negative.total))])
    return [p.total for p in pairs], False  # type: ignore[misc]


def _same_places(pairs: Sequence[Pair], scores: list[Fraction]) -> list[LocatedProblem]:
    """The file's places against those the scores give (equal scores tie): where the file broke a tie of
    equal scores, a warning for each pair it placed otherwise (the sheet ties them, sharing their awards as the
    rules share them); any other difference is a problem naming the first pair that differs."""
    ranks = ranks_by_score([float(s) for s in scores])
    warnings = []
    for p, score, rank in zip(pairs, scores, ranks):
        if p.place is None or p.place == rank:
            continue
        level = sum(other == score for other in scores)
        if rank <= p.place < rank + level:  # within the places its equal scores share
            warnings.append(at(WORKBOOK, None, "import.place.tie-broken", "the file puts pair {pair} at place "
                               "{place} after a tie-break; the sheet ties it at place {rank} with the pairs of the "
                               "same score {score} and shares their awards", pair=p.id, place=p.place,
                               score=float(score), rank=rank))
            continue
        raise BookInputError([at(WORKBOOK, None, "import.place.differs", "the file puts pair {pair} at place "
                                 "{place}, but its score {score} gives place {rank}: the event sheet places the "
                                 "pairs by their scores, so it would award other places than the file's",
                                 pair=p.id, place=p.place, score=float(score), rank=rank)])
    return warnings


def _boards(result: Result, pairs: Sequence[Pair]) -> int | None:
    """The boards of the event: the most any pair of the ranking played, else the boards the travellers name."""
    played = [p.boards for p in pairs if p.boards is not None]
    if played:
        return max(played)
    return len(result.boards()) or None


def import_ranking(book: BookAdapter, result: Result, *, sheet: str | None = None,
                   ranking: str | None = None) -> Imported:
    """Type one ranking of ``result`` into an event sheet of ``book`` (see the module docstring);
    raises :class:`BookInputError` and writes nothing on a problem."""
    name = _sheet(book, sheet)
    chosen, pairs = _ranking(result, ranking)
    grid = book.read(name)
    scheme = READER.setting(SCHEME).value(grid)
    if chosen in _directions(result) and not _directions_apart(scheme):
        raise BookInputError([at(name, READER.setting(SCHEME).cell, "import.mitchell", MITCHELL, scheme=scheme)])
    scores, percentages = _scores(pairs)
    warnings = _same_places(pairs, scores)
    typed = [r for r in range(FIRST_ROW, len(grid) + 1)
             if any(not is_blank(cell(grid, r, TABLE.col(c))) for c in (UNIT, NAMES, SCORE))]
    if typed:
        raise BookInputError([at(name, TABLE.cell(UNIT, typed[0]), "import.sheet.not-empty", "{sheet} already "
                                 "holds results (from row {row}): nothing is replaced; clear them, or import into "
                                 "a copy of the sheet", sheet=name, row=typed[0])])
    boards = _boards(result, pairs)
    setting = READER.setting(BOARDS)
    typed_boards = setting.value(grid)
    if boards is not None and not is_blank(typed_boards) and typed_boards != boards:
        raise BookInputError([at(name, setting.cell, "import.boards.differs", "Boards is {typed} but the pairs of "
                                 "the file played {boards} boards: correct Boards or import the file of this event",
                                 typed=typed_boards, boards=boards)])
    order = sorted(range(len(pairs)), key=lambda i: (-scores[i], i))  # typed best first, as a scorer copies a result
    rows = [[pairs[i].number if pairs[i].number is not None else pairs[i].id, " - ".join(pairs[i].names) or None,
             float(scores[i])] for i in order]
    book.write(name, FIRST_ROW, TABLE.col(UNIT), rows)
    if len(rows) > ROOM:  # more rows than the sheet laid out for typing: they look as the others (yellow, 0.00)
        book.lay_out(name, READER.layout(len(rows), widths=False))
    written = None
    if boards is not None and is_blank(typed_boards):
        book.write(name, setting.row, setting.col, [[boards]])
        written = boards
    return Imported(name, chosen, len(rows), percentages, written, tuple(warnings))
