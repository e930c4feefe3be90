"""One declaration per workbook kind: sheets, settings, tables and their columns.

A workbook kind declares once what its sheets hold -- for every sheet its name,
title, settings cells and tables; for every column an id, a label, whether the
scorer types it or xlbridge computes it, its value type, number format, width
and allowed values -- and everything else follows from that declaration:

- the builder writes headers, formats, typed-cell fills, widths, frozen panes and
  print setup from it (:meth:`SheetSpec.layout`, applied through the adapter's
  ``lay_out``; the same look for a sheet a recalculation adds);
- the reader checks the headers (:meth:`Table.check_header`: the one check, one
  problem code, of every kind), reads a table's rows keyed by column id
  (:meth:`Table.row`, :meth:`Table.read_rows`) and settings by id
  (:meth:`SheetSpec.setting`);
- the plan writes rows keyed by column id as a block in declared column order,
  with the declared headers and number formats (:meth:`Table.values`,
  :meth:`Table.block`): the audit trail and the record take them from there;
- a typed problem (:class:`~xlbridge.rules.problems.Problem`) is put at its cell
  by mapping its concerns (``field`` = a column or setting id) through the
  declaration (:meth:`Table.cell`, :meth:`Setting.cell`).

Labels are looked up by id (:meth:`Column.text`, :meth:`Setting.text`) in the
language spoken (:mod:`xlbridge.language`: the label id is the context of the
catalogue entry, the English label its message id), so the words on a sheet
change with the workbook's language without touching any logic.

>>> t = Table("pairs", header_row=8, columns=(Column("pair", "Pair"), Column("score", "Score %", kind="number"),
...           Column("place", "Place", typed=False)))
>>> t.col("score"), t.cell("place", 12), t.headers()
(2, 'C12', ['Pair', 'Score %', 'Place'])
>>> [c.id for c in t.typed()], t.first_row
(['pair', 'score'], 9)

Standard library only: the recalculation runs in xlwings Lite.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
import math
from typing import Any

from xlbridge.language import N_, _, label
from xlbridge.rules.problems import Problem
from xlbridge.values import as_text, is_blank
from xlbridge.workbooks.book import Area, Grid, Layout, Rule, cell, cell_ref
from xlbridge.workbooks.fontwidths import BOLD_11, REGULAR_11
from xlbridge.workbooks.plan import Block, LocatedProblem, at

#: The house colours (``#RRGGBB``): typed cells are light yellow, headers dark blue
#: with white bold text, computed headers dark green.
INPUT = "#FFF2CC"
HEADER = "#1F4E78"
HEADER_TEXT = "#FFFFFF"
COMPUTED_HEADER = "#375623"
COMPUTED = "#DDEBF7"

def text_of(label_id: str, default: str, language: str | None = None, arg: str = "") -> str:
    """The label ``label_id`` (English ``default``) in ``language`` (default: the
    language spoken now, :func:`xlbridge.language.speaking`); ``{arg}`` in it
    stands for ``arg`` (``"Line {arg}"``: ``Line A``)."""
    text = label(label_id, default, language)
    return text.replace("{arg}", arg) if arg else text


def choices(label_id: str, allowed: Sequence[str]) -> list[str]:
    """The allowed values in the language spoken: the words a scorer types (context: the label id)."""
    return [text_of(label_id, a) for a in allowed]


def choice(label_id: str, allowed: Sequence[str], typed: Any) -> str | None:
    """The allowed value ``typed`` stands for -- as written in the code or in the language
    spoken -- (``None``: none of them)."""
    text = as_text(typed).lower()
    for value, word in zip(allowed, choices(label_id, allowed)):
        if text in (value.lower(), word.lower()):
            return value
    return None


def text_pixels(text: str, bold: bool = False) -> float:
    """``text`` on one line in Calibri 11, bold or regular, in pixels at 96 dpi (Carlito's advance widths,
    which are Calibri's); a character not measured counts as wide as ``W``."""
    table = BOLD_11 if bold else REGULAR_11
    return sum(table.get(ch, table["W"]) for ch in text)


def _column_width(pixels: float) -> float:
    """The column width (Excel's unit: characters of Calibri 11, to a quarter) that shows ``pixels`` of text:
    Excel shows a width w as 7 w + 5 pixels, whole pixels (one more here: the part cut off); a cell keeps about
    3 pixels clear on each side."""
    return math.ceil((pixels + 6 - 5 + 1) / 7 * 4) / 4 if pixels else 0.0


def text_column_width(text: str, bold: bool = False) -> float:
    """The column width (Excel's unit) that shows ``text`` on one line in Calibri 11, bold or regular."""
    return _column_width(text_pixels(text, bold))


def word_width(header: str) -> float:
    """The column width (Excel's unit: characters of Calibri 11) that shows the widest word of ``header``
    whole in the bold header font: a header wraps between its words, never inside one."""
    return _column_width(max((text_pixels(word, bold=True) for word in header.split()), default=0.0))


#: The number format of a column whose text stands right of a right-aligned number: numbers as
#: General, text one bracket's width in from the left (``_(``), so that a code or a word never runs
#: into the number before it ("144" and code "a" read "144a"; marks 0 and "zou degraderen" read
#: "0zou"; issue 26, point 7).  A number format, since xlwings Lite can set no alignment.
TEXT_APART = "General;-General;General;_(@"


@dataclass(frozen=True)
class Column:
    """One column of a table.

    ``id`` is what code and problems call it (an engine field name where there is
    one: ``mp``, ``code``, ``pair``); ``label`` the English header; ``typed``
    whether the scorer types it (else xlbridge computes it); ``kind`` the value
    type (``text``, ``number``, ``whole``, ``pct``, ``code``, ``date``);
    ``allowed`` the values a drop-down offers; ``label_id`` the key of the
    header's words (default ``id``); a typed column's cells get the typed-cell yellow; ``low``/``high``
    the least/greatest number Excel accepts as it is typed and ``help`` what the
    scorer reads when the cell is selected (:func:`rule_of`); ``strict=False``: Excel
    only warns about a value not in ``allowed`` (the reader knows other words too);
    ``arg`` what ``{arg}`` in the label stands for (a column per period:
    ``Column("line_A", "Line {arg}", arg="A", label_id="line_n")``); ``wrap``: its
    cells hold sentences xlbridge writes (a signal, a move, a tie-break) and wrap
    within the width, their rows as tall as their lines (issue 26, point 6).
    """

    id: str
    label: str
    typed: bool = True
    kind: str = "text"
    number_format: str = "General"
    width: float = 10.0
    allowed: tuple[str, ...] = ()
    label_id: str = ""
    low: float | None = None
    high: float | None = None
    help: str = ""
    strict: bool = True
    arg: str = ""
    wrap: bool = False

    def text(self) -> str:
        return text_of(self.label_id or self.id, self.label, arg=self.arg)

    def choices(self) -> list[str]:
        return choices(self.label_id or self.id, self.allowed)

    def choice(self, typed: Any) -> str | None:
        return choice(self.label_id or self.id, self.allowed, typed)


@dataclass(frozen=True)
class Table:
    """A header row and one row per pair/team/player below it, from column
    ``first_col``; ``room`` rows below the header are laid out for data."""

    id: str
    header_row: int
    columns: tuple[Column, ...]
    first_col: int = 1
    room: int = 0

    @property
    def first_row(self) -> int:
        return self.header_row + 1

    def col(self, column_id: str) -> int:
        """The sheet column (1-based) of ``column_id``; ``KeyError`` for an unknown id."""
        for offset, column in enumerate(self.columns):
            if column.id == column_id:
                return self.first_col + offset
        raise KeyError(f"table {self.id} has no column {column_id!r}")

    def has(self, column_id: str) -> bool:
        return any(c.id == column_id for c in self.columns)

    def column(self, column_id: str) -> Column:
        return self.columns[self.col(column_id) - self.first_col]

    def cell(self, column_id: str, row: int) -> str:
        return cell_ref(row, self.col(column_id))

    def headers(self) -> list[str]:
        return [c.text() for c in self.columns]

    def typed(self) -> list[Column]:
        return [c for c in self.columns if c.typed]

    def computed(self) -> list[Column]:
        return [c for c in self.columns if not c.typed]

    def width(self) -> int:
        return len(self.columns)

    def check_header(self, grid: Grid, sheet: str, only: Sequence[str] | None = None) -> list[LocatedProblem]:
        """The one header check of every kind: a ``sheet.header`` problem at every
        header cell that does not hold its label, case-insensitive (``only``: check
        these column ids only); a column inserted into the table, or left of it, is one
        problem at it (:func:`inserted_column`), not one at every header it moved."""
        out = self.header_problems(grid, sheet, only)
        if out:
            found = inserted_column(grid, self.header_row, lambda trial: not self.header_problems(trial, sheet, only))
            if found is not None:
                return [column_inserted(sheet, self.header_row, found, grid)]
        return out

    def header_problems(self, grid: Grid, sheet: str, only: Sequence[str] | None = None) -> list[LocatedProblem]:
        """:meth:`check_header` without looking for an inserted column (what a trial of
        :func:`inserted_column` asks: one scan of the columns, not one inside each trial)."""
        out = []
        for column in self.columns:
            if only is not None and column.id not in only:
                continue
            col = self.col(column.id)
            found = cell(grid, self.header_row, col)
            expected = column.text()
            if as_text(found).lower() != expected.lower():
                out.append(at(sheet, cell_ref(self.header_row, col), "sheet.header", "expected the header {expected!r}; "
                              "{found}", field=column.id, expected=expected, found=shown(found)))
        return out

    def rows(self, grid: Grid) -> range:
        """The sheet rows below the header up to the last row of the grid."""
        return range(self.first_row, max(len(grid), self.header_row) + 1)

    def row(self, grid: Grid, r: int) -> dict[str, Any] | None:
        """The generic reader: sheet row ``r`` keyed by column id (``None``: every cell blank)."""
        values = {c.id: cell(grid, r, self.first_col + i) for i, c in enumerate(self.columns)}
        return None if all(is_blank(v) for v in values.values()) else values

    def read_rows(self, grid: Grid, rows: Iterable[int] | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
        """(sheet row, values keyed by column id) of every row of ``rows`` (default: every row
        below the header) that is not blank."""
        for r in self.rows(grid) if rows is None else rows:
            values = self.row(grid, r)
            if values is not None:
                yield r, values

    def values(self, rows: Iterable[Mapping[str, Any]]) -> list[list[Any]]:
        """The generic writer: rows keyed by column id as a block in declared column order
        (an id a row leaves out: an empty cell)."""
        return [[row.get(c.id) for c in self.columns] for row in rows]

    def formats(self) -> list[str]:
        """The number format of every column, in order."""
        return [c.number_format for c in self.columns]

    def block(self, sheet: str, lines: Iterable[Mapping[str, Any]] | Grid, *, row: int | None = None,
              **params: Any) -> Block:
        """A plan's block of ``lines`` (keyed by column id, or already in column order) from the
        first row below the header (or ``row``), carrying the declared headers and number formats
        (what the audit trail and the record show); ``params``: :class:`Block`'s others."""
        values = [line if isinstance(line, list) else [line.get(c.id) for c in self.columns] for line in lines]
        return Block(sheet, self.first_row if row is None else row, self.first_col, values,
                     **{"columns": self.headers(), "formats": self.formats(), **params})


@dataclass(frozen=True)
class Setting:
    """One setting the scorer types: its label in column ``label_col``, its value
    in ``col`` of ``row``; ``note`` a hint printed right of it.  ``routine``: input of
    every week that corrects no result (BridgeMania's next host): a change of it is not
    listed on Corrections as the scorer's change (issue 26, point 5)."""

    id: str
    row: int
    label: str
    kind: str = "text"
    default: Any = None
    col: int = 2
    label_col: int = 1
    note: str = ""
    number_format: str = "General"
    allowed: tuple[str, ...] = ()
    label_id: str = ""
    low: float | None = None
    high: float | None = None
    help: str = ""
    strict: bool = True
    routine: bool = False

    @property
    def cell(self) -> str:
        return cell_ref(self.row, self.col)

    def text(self) -> str:
        return text_of(self.label_id or self.id, self.label)

    def value(self, grid: Grid) -> Any:
        return cell(grid, self.row, self.col)

    def choices(self) -> list[str]:
        return choices(self.label_id or self.id, self.allowed)

    def choice(self, typed: Any) -> str | None:
        return choice(self.label_id or self.id, self.allowed, typed)


@dataclass(frozen=True)
class Print:
    """How a sheet prints: orientation, one page wide (as many pages down as
    needed), the header rows repeated on every page (default: row 1 down to the
    first table's header row)."""

    orientation: str = "landscape"
    fit_width: bool = True
    repeat_rows: tuple[int, int] | None = None
    area: str = ""  # the id of the one table printed (with its header rows), e.g. an evening's result
    area_row: int = 1  # the first row printed of that table's columns (a caption above its header)
    page_header: str = ""  # above every page: "&A" is the sheet's name (an evening's date)
    one_page: bool = False  # also one page down (a chart sheet: its table and chart on one page)


@dataclass(frozen=True)
class Chart:
    """A line chart on a sheet, reading one of its computed tables: ``categories``
    (a column id) along the bottom, one line per column id of ``series`` (named by
    its header cell), over the table's ``room`` rows, the values axis in
    ``number_format``; the sheet's title above it (the recalculation writes it)
    names what it shows.  The builder
    draws it (openpyxl, :func:`xlbridge.workbooks.style.draw_chart`) with its top-left
    corner at ``anchor``, ``width`` x ``height`` cm; a recalculation only fills the
    table, and the chart follows in Excel and LibreOffice alike.  Empty cells are
    gaps the line spans, never zeros."""

    table: str
    categories: str
    series: tuple[str, ...]
    anchor: str
    number_format: str = "0"
    width: float = 20.0
    height: float = 11.0


@dataclass(frozen=True)
class SheetSpec:
    """One sheet of a kind: its name, the title in A1, its settings and tables,
    frozen panes (the first cell that scrolls) and print setup."""

    id: str
    name: str
    title: str = ""
    settings: tuple[Setting, ...] = ()
    tables: tuple[Table, ...] = ()
    freeze: tuple[int, int] | None = None
    print: Print = field(default_factory=Print)
    widths: tuple[float, ...] = ()  # column widths from A when the tables do not give them
    chart: Chart | None = None  # a chart the builder draws, reading a table of this sheet

    def routine(self) -> tuple[tuple[str, int, int], ...]:
        """(sheet, row, column) of each routine setting (:attr:`Setting.routine`)."""
        return tuple((self.name, s.row, s.col) for s in self.settings if s.routine)

    def setting(self, setting_id: str) -> Setting:
        for s in self.settings:
            if s.id == setting_id:
                return s
        raise KeyError(f"sheet {self.id} has no setting {setting_id!r}")

    def table(self, table_id: str) -> Table:
        for t in self.tables:
            if t.id == table_id:
                return t
        raise KeyError(f"sheet {self.id} has no table {table_id!r}")

    def check_labels(self, grid: Grid) -> list[Problem]:
        """A problem at every settings label that is not there."""
        out = []
        for s in self.settings:
            found = cell(grid, s.row, s.label_col)
            if as_text(found).lower() != s.text().lower():
                out.append(Problem("sheet.label", "expected the label {expected!r}; {found}", sheet=self.name,
                                   field=s.id, expected=s.text(), found=shown(found),
                                   at=cell_ref(s.row, s.label_col)))
        return out

    def column_widths(self) -> tuple[float, ...]:
        """The width of every column from A: the tables' columns where they sit (wide enough for each
        word of their header), ``widths`` elsewhere; a setting's label column as wide as its label (in
        bold) and its value column as wide as its longest choice, so that neither is cut by the cell
        beside it (issue 26, point 6).  Where two tables share a column, the wider need wins."""
        widths = list(self.widths)
        needed: dict[int, float] = {}  # a column two tables share (a result below the pairs): the wider need
        for t in self.tables:
            for offset, c in enumerate(t.columns):
                col = t.first_col + offset
                needed[col] = max(needed.get(col, 0.0), c.width, word_width(c.text()))
        for col, width in sorted(needed.items()):
            widths += [0.0] * (col - len(widths))
            widths[col - 1] = widths[col - 1] or width
        for s in self.settings:
            widths += [0.0] * (max(s.label_col, s.col) - len(widths))
            widths[s.label_col - 1] = max(widths[s.label_col - 1] or 8.43, text_column_width(s.text(), bold=True))
            if s.allowed:
                widths[s.col - 1] = max([widths[s.col - 1] or 8.43] + [text_column_width(c) for c in s.choices()])
        return tuple(w or 8.43 for w in widths)

    def layout(self, rows: int = 0, *, title: bool | None = None,
               widths: bool = True) -> Layout:
        """The look of this sheet with room for ``rows`` data rows in each table:
        header rows, number formats, typed-cell fills, frozen panes, widths, print setup."""
        number_formats: list[tuple[Area, str]] = []
        fills: list[tuple[Area, str]] = []
        rules: list[tuple[Area, Rule]] = []
        for s in self.settings:
            fills.append(((s.row, s.col, 1, 1), INPUT))
            if s.number_format != "General":
                number_formats.append(((s.row, s.col, 1, 1), s.number_format))
            rule = rule_of(s)
            if rule is not None:
                rules.append(((s.row, s.col, 1, 1), rule))
        header_row = header_cols = 0
        more_headers: list[Area] = []
        print_area: Area | None = None
        for t in self.tables:
            room = max(rows, t.room)
            if not header_row:
                header_row, header_cols = t.header_row, t.first_col + t.width() - 1
            else:
                more_headers.append((t.header_row, t.first_col, 1, t.width()))
            if t.id == self.print.area:
                top = self.print.area_row
                print_area = (top, t.first_col, t.header_row + room - top + 1, t.width())
            for offset, c in enumerate(t.columns):
                col = t.first_col + offset
                if room and c.number_format != "General":
                    number_formats.append(((t.first_row, col, room, 1), c.number_format))
                if room and c.typed:
                    fills.append(((t.first_row, col, room, 1), INPUT))
                rule = rule_of(c) if room and c.typed else None
                if rule is not None:
                    rules.append(((t.first_row, col, room, 1), rule))
        wrap = tuple(t.first_col + i for t in self.tables for i, c in enumerate(t.columns) if c.wrap)
        repeat = self.print.repeat_rows or ((1, header_row) if header_row else None)
        return Layout(title=bool(self.title) if title is None else title, header_row=header_row,
                      header_cols=header_cols, widths=self.column_widths() if widths else (),
                      number_formats=tuple(merge_areas(number_formats)), fills=tuple(merge_areas(fills)), freeze=self.freeze,
                      rules=tuple(merge_areas(rules)),
                      orientation=self.print.orientation, fit_width=self.print.fit_width, repeat_rows=repeat,
                      more_headers=tuple(more_headers), print_area=print_area, page_header=self.print.page_header,
                      one_page=self.print.one_page, wrap_columns=wrap)


#: The words of the input rules (label ids ``rule.*``): what Excel says when a
#: typed value breaks a rule, and the hint when the cell is selected.
RULE_WORDS = {
    "rule.list": "{label}: type one of {choices}, or leave it empty",
    "rule.whole": "{label}: type a whole number{range}",
    "rule.decimal": "{label}: type a number{range}",
    "rule.from": " from {low}",
    "rule.up-to": " up to {high}",
    "rule.between": " from {low} to {high}",
}


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def rule_of(item: Column | Setting) -> Rule | None:
    """The input rule Excel checks for a typed column or setting: a drop-down of
    its ``allowed`` values, or a whole number / number within ``low``..``high``
    (``kind`` ``whole``; ``number``/``pct`` with a bound); ``None`` when Excel
    cannot check it (text, dates: the recalculation checks them).

    >>> rule_of(Column("lot", "Lot", kind="whole", low=1)).error
    'Lot: type a whole number from 1'
    >>> rule_of(Column("status", "Status", allowed=("ill", "split"))).values
    ('ill', 'split')
    """
    label = item.text()
    words = {k: text_of(k, v) for k, v in RULE_WORDS.items()}
    if item.allowed:
        words_typed = item.choices()  # the words of the workbook's language
        error = words["rule.list"].format(label=label, choices=", ".join(words_typed))
        return Rule("list", tuple(words_typed), title=label[:32], prompt=(_(item.help) if item.help else error)[:255], error=error[:255],
                    strict=item.strict)
    kind = "whole" if item.kind == "whole" else "decimal" if item.kind in ("number", "pct") else ""
    low = item.low if item.low is not None or kind != "whole" else 0
    if not kind or (kind == "decimal" and low is None and item.high is None):
        return None
    if low is not None and item.high is not None:
        bounds = words["rule.between"].format(low=_number(low), high=_number(item.high))
    elif low is not None:
        bounds = words["rule.from"].format(low=_number(low))
    else:
        bounds = words["rule.up-to"].format(high=_number(item.high))  # type: ignore[arg-type]
    error = words[f"rule.{kind}"].format(label=label, range=bounds)
    return Rule(kind, low=low, high=item.high, title=label[:32], prompt=(_(item.help) if item.help else error)[:255], error=error[:255])


def merge_areas(areas: list[tuple[Area, Any]]) -> list[tuple[Area, Any]]:
    """Adjacent single columns with the same value as one area (fewer operations in Excel)."""
    out: list[tuple[Area, Any]] = []
    for (row, col, nrows, ncols), value in areas:
        if out:
            (r0, c0, n0, m0), v0 = out[-1]
            if v0 == value and r0 == row and n0 == nrows and c0 + m0 == col:
                out[-1] = ((r0, c0, n0, m0 + ncols), v0)
                continue
        out.append(((row, col, nrows, ncols), value))
    return out


#: What a checked cell holds (:func:`shown`), in the language spoken when the problem is found.
EMPTY_CELL = N_("the cell is empty")
FOUND = N_("found {found!r}")


def shown(value: Any) -> str:
    """What a checked cell holds, for a message: ``found 'Rondes'`` or ``the cell is empty`` (in the
    language spoken: a part of a message, as its template is)."""
    return _(EMPTY_CELL) if is_blank(value) else _(FOUND).format(found=value)


def check_headers(tables: Sequence[Table], grid: Grid, sheet: str) -> list[LocatedProblem]:
    """:meth:`Table.check_header` of the tables of one sheet: a column inserted left of them all is
    one problem, not one per table it moved."""
    out = [p for table in tables for p in table.check_header(grid, sheet)]
    inserted = [p for p in out if p.code == "sheet.column-inserted"]
    return inserted[:1] or out


def inserted_column(grid: Grid, header_row: int, passes: Any) -> int | None:
    """The sheet column whose removal from the header rows makes them pass
    ``passes(grid)``: a column the scorer inserted into a laid-out table (``None``: no one column).  Where
    several would (a check of some headers only), the first without a header: an inserted column has none."""
    top = [list(line) for line in grid[:header_row]]
    if len(top) < header_row:
        return None
    found = [col for col in range(1, len(top[-1]) + 1) if passes([line[:col - 1] + line[col:] for line in top])]
    return next((col for col in found if is_blank(top[-1][col - 1])), found[0] if found else None)


def column_inserted(sheet: str, header_row: int, col: int, grid: Grid) -> LocatedProblem:
    """The problem of a column inserted at ``col`` (:func:`inserted_column`)."""
    return at(sheet, cell_ref(header_row, col), "sheet.column-inserted", "a column was inserted here, which moved a "
              "table xlbridge reads and writes by the place of its columns ({found}): delete the column",
              found=shown(cell(grid, header_row, col)))


__all__ = ["Column", "Table", "Setting", "SheetSpec", "Print", "Chart", "merge_areas", "rule_of", "RULE_WORDS", "text_of", "cell_ref", "shown",
           "check_headers", "inserted_column", "column_inserted",
           "INPUT", "HEADER", "HEADER_TEXT", "COMPUTED_HEADER", "COMPUTED"]
