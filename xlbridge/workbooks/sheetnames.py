"""The sheet names xlbridge owns, and Excel's rules for a sheet name (issue 25, points 6 to 10).

xlbridge writes sheets by their names: Corrections, Messages, the record of the last
recalculation (``xlbridge``) and each kind's own (Season, Year, Chart, ...).  Excel tells sheet
names apart without case (``corrections`` and ``Corrections`` cannot both be there), so before a
recalculation or a New tournament reads anything, :func:`misnamed` makes each of these a located
problem, never a sheet overwritten or a crash:

- a sheet with one of these names (in the workbook's language) in another case (``CORRECTIONS``,
  ``XLBridge``);
- a sheet ``xlbridge`` that is not the record (a scorer's own sheet, with no record in it);
- a chart sheet (or any sheet that is not a worksheet) with one of these names.

A name for a new sheet (``xlbridge next --name``) follows Excel's rules (:func:`name_problem`: at
most 31 characters, none of ``: \\ / ? * [ ]``, no apostrophe first or last, not
``History``) and is none of xlbridge's names in any language, in any case (docs/reliability.md,
"Sheet names").

Standard library only: it runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Sequence

from xlbridge.language import N_, catalogue, installed, sheet_name
from xlbridge.rules.problems import Problem
from xlbridge.workbooks.book import BookAdapter, Grid
from xlbridge.workbooks.plan import LocatedProblem, at
from xlbridge.workbooks.record import TITLE
from xlbridge.workbooks.localised import SHEET_NAMES
from xlbridge.workbooks.write import RECORD_SHEET

__all__ = ["MAX_LENGTH", "FORBIDDEN", "owned", "name_problem", "misnamed", "renamed_copies", "other_sheets",
           "is_record"]

#: Excel's longest sheet name and the characters it refuses in one.
MAX_LENGTH = 31
FORBIDDEN = ":\\/?*[]"
#: A name Excel keeps for itself (its change history).
_EXCEL_OWN = "history"


def owned(language: str | None = None) -> dict[str, str]:
    """xlbridge's sheet names (each kind's, Corrections, Messages, the record) by their case-folded
    form: in ``language``, or in every language installed (``None``: all of them headless; in xlwings Lite a
    workbook carries its own language's catalogue only)."""
    languages = installed() if language is None else (language,)
    names = {RECORD_SHEET.casefold(): RECORD_SHEET}
    for lang in languages:
        names.update({sheet_name(n, lang).casefold(): sheet_name(n, lang) for n in SHEET_NAMES})
    return names


def name_problem(name: str, taken: Sequence[str] = ()) -> Problem | None:
    """Why ``name`` (not empty: an empty ``--name`` is the next number) cannot be a new sheet's name
    (``None``: it can); ``taken``: the workbook's sheets."""
    if len(name) > MAX_LENGTH:
        return Problem("sheet.name.too-long", N_("the sheet name {name!r} has {length} characters; Excel allows "
                                                 "at most {limit}: give a shorter name"),
                       name=name[:MAX_LENGTH] + "...", length=len(name), limit=MAX_LENGTH)
    bad = "".join(dict.fromkeys(ch for ch in name if ch in FORBIDDEN))
    if bad:
        return Problem("sheet.name.character", N_("the sheet name {name!r} has {characters}, which Excel does not "
                                                  "allow in a sheet name (none of : \\ / ? * [ ]): give another "
                                                  "name"), name=name, characters=" ".join(bad))
    if name.startswith("'") or name.endswith("'"):
        return Problem("sheet.name.apostrophe", N_("the sheet name {name!r} starts or ends with an apostrophe, "
                                                   "which Excel does not allow: give another name"), name=name)
    folded = name.casefold()
    if folded == _EXCEL_OWN or folded in owned():
        return Problem("sheet.name.reserved", N_("{name!r} is the name of a sheet xlbridge or Excel keeps for "
                                                 "itself (in some language, in any case): give another name"),
                       name=name)
    same = next((t for t in taken if t.casefold() == folded), None)
    if same is not None:
        return Problem("sheet.name.taken", N_("the sheet {sheet!r} is already there (Excel does not tell "
                                              "{name!r} from it): give another name"), sheet=same, name=name)
    return None


def renamed_copies(book: BookAdapter, added: dict[str, object], language: str) -> list[LocatedProblem]:
    """A warning at each sheet of the scorer's whose title (A1) is that of one of xlbridge's sheets the
    recalculation adds again (``added``: their names as the scorer sees them, and the A1 each gets; a title
    only when it begins with the sheet's name), up to its dash (``Period 1 — standings ...``: the rest tells
    how far the season is): that sheet renamed ("Period 1" -> "Period one"), which xlbridge cannot follow; the
    sheet it adds is the one kept up to date."""
    def head(title: object) -> object:
        return title.split(" \u2014 ")[0] if isinstance(title, str) else title

    own = owned(language)
    titles = {head(title): name for name, title in added.items()  # (a title that names its sheet: not the
              if isinstance(title, str) and title.startswith(name)}  # header 'Pair' of every evening sheet)
    out = []
    for name in book.sheet_names() if titles else ():
        if name.casefold() in own:
            continue
        grid = book.read(name)
        meant = titles.get(head(grid[0][0] if grid and grid[0] else None))
        if meant is not None:
            out.append(at(name, "A1", "sheet.name.renamed", N_(
                "the sheet {sheet!r} is xlbridge's sheet {name!r} renamed (its title says so): xlbridge added "
                "{name!r} again and keeps that one up to date; {sheet!r} is not updated any more: delete it"),
                sheet=name, name=meant))
    return out


def other_sheets(book: BookAdapter) -> list[str]:
    """The workbook's sheets that are not worksheets (chart sheets): never read nor written."""
    others = getattr(book, "other_sheets", None)
    return list(others()) if others is not None else []


def is_record(grid: Grid) -> bool:
    """Whether a sheet ``xlbridge`` is the record (record.py), perhaps damaged: empty, or its A1 the
    record's title (in any language), or a cell of column A one of the record's (``~`` and JSON)."""
    if not grid:
        return True
    titles = {catalogue(lang).gettext(TITLE) for lang in installed()}  # (Lite: its own language only)
    column = [line[0] if line else None for line in grid]
    return column[0] in titles or any(isinstance(v, str) and v.startswith("~") for v in column[1:])


def misnamed(book: BookAdapter, language: str) -> list[LocatedProblem]:
    """The sheets that have a name xlbridge owns in ``language`` in another case, a sheet ``xlbridge``
    that is not the record, and the chart sheets with a name xlbridge owns (``book``: its sheets by the
    names the scorer sees)."""
    own = owned(language)
    problems = []
    for name in book.sheet_names():
        meant = own.get(name.casefold())
        if meant is not None and meant != name:
            problems.append(at(name, None, "sheet.name.case", N_(
                "the sheet {sheet!r} has the name of xlbridge's sheet {name!r} in another case, which Excel does "
                "not tell apart: rename it (its own name, or another if it is your own sheet)"), sheet=name,
                name=meant))
        elif name == RECORD_SHEET and not is_record(book.read(name)):
            problems.append(at(name, None, "sheet.name.not-the-record", N_(
                "the sheet {sheet!r} is not xlbridge's record of the last recalculation, but xlbridge keeps its "
                "record in a sheet of that name: rename your sheet (nothing in it was changed)"), sheet=name))
    for name in other_sheets(book):
        meant = own.get(name.casefold())
        if meant is not None:
            problems.append(at(name, None, "sheet.name.chart-sheet", N_(
                "the sheet {sheet!r} is a chart sheet with the name of xlbridge's sheet {name!r}: rename it (xlbridge "
                "leaves chart sheets as they are)"), sheet=name, name=meant))
    return problems
