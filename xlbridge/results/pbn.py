"""PBN 2.1 result tables: TotalScoreTable, ScoreTable and OptimumResultTable.

PBN (tistis.nl ``pbn_v21.txt``) is a file of games separated by empty lines;
each game is tag pairs ``[Name "value"]``, and a table is a tag whose value names
its columns (``"Rank\\2R;PairId\\2R;Names\\51L"``: a column name, ``\\`` and a
minimum width with its alignment, a leading ``+``/``-`` for a sort order) followed
by its elements, strings in quotes.  This module reads exactly those tables and
the tags they need (Event, Site, Date, Board, Scoring, Section), with

- §4.8 inheritance: a tag ``"#"`` takes the value of the nearest previous game,
  ``"##text"`` sets ``text`` for every later game (``[ScoreTable "#"]`` repeats the
  previous ScoreTable's columns);
- §5.2's special elements: ``?`` unknown, ``-`` irrelevant, ``^`` an artificial score;
- §2.4 and §3.8: ``%`` escape lines (the program's name is taken from the
  ``Generator`` line Ruter and Magic Contest write, or BridgeComposer's
  ``Creator``), ``{...}`` and ``;`` commentary;
- the encodings found in practice: UTF-8 with or without a BOM, else ISO-8859-1
  (the standard's own character set, §2.2); CRLF, LF or CR line ends.

Deals, auctions and play are skipped (their tags are read and ignored).
Standard library only.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from xlbridge.results.model import Event, Line, Optimum, Pair, Player, Result, with_ties
from xlbridge.results.problems import add, bounded, check, number, preflight, whole
from xlbridge.rules.problems import Problem

__all__ = ["read_pbn", "decode", "direction"]

TABLES = ("TotalScoreTable", "ScoreTable", "OptimumResultTable")
_TOKEN = re.compile(r'\s+|(?P<open>\{)|(?P<rest>;)|(?P<string>"(?:[^"\\]|\\.)*")|(?P<quote>")'
                    r'|(?P<bracket>[\[\]])|(?P<word>[^\s\[\]{;"]+)')  # a stray } is a word
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_COLUMN = re.compile(r"([+-]?)([^\\]+?)(?:\\(\d{1,3})([LR]?))?")
_PROGRAM = (re.compile(r"<META\s+name=Generator\s+content=\"([^\"]*)\"", re.I), re.compile(r"^%\s*Creator:\s*(.+)"))
_DATE = re.compile(r"(\d{4}|\?{4})\.(\d\d|\?\?)\.(\d\d|\?\?)")
_BLANK = ("", "-", "?")


def decode(data: bytes) -> str:
    """The text of a PBN file: UTF-8 (a BOM dropped), else ISO-8859-1; every line end as ``\\n``."""
    if data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8", errors="replace")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("iso-8859-1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


@dataclass
class _Tag:
    name: str
    value: str
    line: int
    data: list[tuple[str, int]] = field(default_factory=list)  # section elements (text, line)


@dataclass
class _Scan:
    """The file cut into games of tags, with the problems met and the program named in escape lines."""

    games: list[list[_Tag]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    program: str = ""


def _scan(text: str) -> _Scan:
    scan, tokens = _Scan(), []
    brace = 0  # the line of an open {comment}, 0 when none

    def close_game() -> None:
        scan.games.extend([_tags(tokens, scan.problems)] if tokens else [])
        tokens.clear()

    for row, line in enumerate(text.split("\n"), start=1):
        if not brace and line.startswith("%"):
            scan.program = scan.program or next((m[1].strip() for p in _PROGRAM if (m := p.search(line))), "")
            continue
        if not brace and not line.strip():
            close_game()
            continue
        pos = 0
        while pos < len(line):
            if brace:
                end = line.find("}", pos)
                pos, brace = (len(line), brace) if end < 0 else (end + 1, 0)
                continue
            match = _TOKEN.match(line, pos)
            pos = match.end()
            kind = match.lastgroup
            if kind == "open":
                brace = row
            elif kind == "rest":
                break
            elif kind == "quote":
                scan.problems.append(Problem("results.pbn.string", "line {row}: a string is not closed (its "
                                             "closing quote is missing)", row=row))
                break
            elif kind == "string":
                tokens.append(("string", re.sub(r'\\([\\"])', r"\1", match[kind][1:-1]), row))
            elif kind:
                tokens.append((kind, match[kind], row))
    if brace:
        scan.problems.append(Problem("results.pbn.comment", "line {row}: a comment opened with {{ is never "
                                     "closed", row=brace))
    close_game()
    return scan


def _tags(tokens: list[tuple[str, str, int]], problems: list[Problem]) -> list[_Tag]:
    """The tag pairs of one game's tokens, each with the section elements that follow it."""
    tags: list[_Tag] = []
    stray = 0  # the last line with a token outside any tag (one problem a line)
    i = 0
    while i < len(tokens):
        kind, text, row = tokens[i]
        if text == "[" and kind == "bracket":
            parts = tokens[i + 1:i + 4]
            if (len(parts) == 3 and parts[0][0] == "word" and _NAME.fullmatch(parts[0][1])
                    and parts[1][0] == "string" and parts[2][1] == "]"):
                tags.append(_Tag(parts[0][1], parts[1][1], row))
                i += 4
                continue
            add(problems, Problem("results.pbn.tag", "line {row}: a tag must read [Name \"value\"]", row=row))
            while i < len(tokens) and tokens[i][1] != "]":
                i += 1
        elif tags and kind in ("word", "string"):
            tags[-1].data.append((text, row))
        elif kind in ("word", "string", "bracket") and row != stray:
            stray = row
            add(problems, Problem("results.pbn.stray", "line {row}: {text!r} is outside any tag or table",
                                    row=row, text=text))
        i += 1
    return tags


@dataclass
class _Table:
    """One table of one game: its columns (lower-case name -> index) and its rows of (text, line)."""

    name: str
    columns: dict[str, int]
    rows: list[list[tuple[str, int]]]
    tags: dict[str, str]  # the game's tags, inherited values resolved
    line: int

    def get(self, row: list[tuple[str, int]], *names: str) -> str:
        """The cell of the first of ``names`` the table has (``""`` when it has none)."""
        for name in names:
            if name.lower() in self.columns:
                return row[self.columns[name.lower()]][0]
        return ""


def _columns(tag: _Tag, problems: list[Problem]) -> dict[str, int] | None:
    columns: dict[str, int] = {}
    for i, token in enumerate(tag.value.split(";")):
        match = _COLUMN.fullmatch(token.strip())
        if not match:
            problems.append(Problem("results.pbn.column", "line {row}: {table} column {column!r} is not a column "
                                    "name (a name, then optionally \\ and a width, L or R)", row=tag.line,
                                    table=tag.name, column=token))
            return None
        name = match[2].strip().lower()
        if name in columns:
            problems.append(Problem("results.pbn.column-twice", "line {row}: {table} names the column {column} "
                                    "twice", row=tag.line, table=tag.name, column=match[2].strip()))
            return None
        columns[name] = i
    return columns


EVENT_TAGS = ("Event", "Site", "Date", "EventDate", "Scoring", "Application")


def _tables(scan: _Scan, first: dict[str, tuple[str, int]]) -> Iterator[_Table]:
    """Every result table of the file, with §4.8 inheritance applied to all tags; ``first``
    gets the first value (and its line) of each of :data:`EVENT_TAGS`."""
    last: dict[str, str] = {}  # the nearest previous game's value of each tag
    fixed: dict[str, str] = {}  # "##" values: for every later game
    for game in scan.games:
        tags: dict[str, str] = dict(fixed)
        for tag in game:
            if tag.value == "#":
                tag.value = last.get(tag.name, "")
            elif tag.value.startswith("##"):
                tag.value = fixed[tag.name] = tag.value[2:]
            tags[tag.name] = last[tag.name] = tag.value
            if tag.name in EVENT_TAGS and tag.value not in _BLANK:
                first.setdefault(tag.name, (tag.value, tag.line))
        for tag in game:
            if tag.name not in TABLES:
                continue
            if not tag.value:
                scan.problems.append(Problem("results.pbn.inherit", "line {row}: [{table} \"#\"] repeats the "
                                             "previous {table}'s columns, but there is none", row=tag.line,
                                             table=tag.name))
                continue
            columns = _columns(tag, scan.problems)
            if columns is None:
                continue
            width = len(columns)
            cells = tag.data
            if len(cells) % width:
                start = cells[len(cells) - len(cells) % width][1]
                scan.problems.append(Problem("results.pbn.row", "line {row}: a {table} row has {count} values; its "
                                             "header names {columns} columns", row=start, table=tag.name,
                                             count=len(cells) % width, columns=width))
                cells = cells[:len(cells) - len(cells) % width]
            yield _Table(tag.name, columns, [cells[i:i + width] for i in range(0, len(cells), width)], tags,
                         tag.line)


class _Cells:
    """Typed cells of one table row; a cell that is not what its column needs is a problem."""

    def __init__(self, table: _Table, row: list[tuple[str, int]], problems: list[Problem]):
        self.table, self.row, self.problems = table, row, problems
        self.line = row[0][1]

    def text(self, *names: str) -> str:
        value = self.table.get(self.row, *names).strip()
        return "" if value in _BLANK else value

    def number(self, *names: str) -> Fraction | None:
        value = self.text(*names).lstrip("^")
        if not value:
            return None
        found = number(value)
        if found is None:
            self.bad(names, value, "number")
        return found

    def whole(self, *names: str, low: int = 0, high: int = 10**9) -> int | None:
        value = self.text(*names)
        if not value:
            return None
        found = whole(value)
        if found is None or not low <= found <= high:
            self.bad(names, value, "whole", low, high)
            return None
        return found

    def bad(self, names: tuple[str, ...], value: str, kind: str, low: int = 0, high: int = 0) -> None:
        """A problem with the cell of the first of ``names`` the table has: not a ``kind``
        (``number``, ``whole`` from ``low`` to ``high``, trick ``score``)."""
        column = next((n for n in names if n.lower() in self.table.columns), names[0])
        where = dict(row=self.line, column=column, value=value)
        if kind == "number":
            problem = Problem("results.pbn.number", "line {row}: {column} {value!r} is not a number", **where)
        elif kind == "whole":
            problem = Problem("results.pbn.whole", "line {row}: {column} {value!r} is not a whole number from {low} "
                              "to {high}", low=low, high=high, **where)
        else:
            problem = Problem("results.pbn.score", "line {row}: {column} {value!r} is not a trick score (a whole "
                              "number, or an assigned score such as A+)", **where)
        add(self.problems, problem)


def direction(text: str) -> str:
    """``NS``, ``EW`` or ``""`` for a direction as programs write it (``N-S``, ``NS``, ``N``, ``E-W``, ...)."""
    text = text.upper().replace("-", "").replace("/", "")
    return {"NS": "NS", "N": "NS", "EW": "EW", "E": "EW"}.get(text, "")


def _players(names: str, members: tuple[str, ...] = ()) -> tuple[Player, ...]:
    """The players of a ``<names>`` element: split at ``;`` (PBN §5.9) or at `` - ``
    (how Ruter and Magic Contest join two names); a partnership's name stays whole."""
    parts = [p.strip() for p in (names.split(";") if ";" in names else names.split(" - "))]
    parts = [p for p in parts if p]
    return tuple(Player(name, members[i] if i < len(members) else "") for i, name in enumerate(parts))


def _pair(table: _Table, row: list[tuple[str, int]], problems: list[Problem]) -> Pair | None:
    cells = _Cells(table, row, problems)
    pair_id = cells.text("PairId")
    if not pair_id:
        add(problems, Problem("results.pbn.pair-id", "line {row}: a TotalScoreTable row without a PairId",
                                row=cells.line))
        return None
    members = tuple(m for m in (cells.text("MemberID1"), cells.text("MemberID2")))
    matchpoints = cells.number("TotalMP", "TotalScoreMP", "MP")
    total = cells.number("TotalScore", "TotalScoreMP", "TotalMP", "TotalIMP", "TotalScoreIMP", "MP")
    return Pair(id=pair_id, number=whole(pair_id), players=_players(cells.text("Names"), members),
                direction=direction(cells.text("Direction")),
                section=cells.text("Section") or table.tags.get("Section", ""),
                place=cells.whole("Rank", low=1), tied=bool(cells.text("RankTie")), total=total,
                matchpoints=matchpoints, percentage=cells.number("TotalPercentage", "Percentage"),
                boards=cells.whole("NrBoards"), masterpoints=cells.number("MasterPoints"),
                masterpoint_type=cells.text("MasterPointType"))


def _score(cells: _Cells) -> tuple[int | None, str]:
    """(North-South's trick score, the artificial score's text) of a ScoreTable row."""
    marks = []
    for column, sign in (("Score_NS", 1), ("Score_EW", -1)):
        text = cells.text(column)
        if not text:
            continue
        if text.upper() == "PASS":
            return 0, ""
        value = whole(text) if not text.startswith("^") else None
        if value is not None:
            return sign * value, ""
        if re.fullmatch(r"[+-]?[\d.,]+", text):  # a number, but not a trick score
            cells.bad((column,), text, "score")
            continue
        marks.append(text)
    return None, "/".join(dict.fromkeys(marks))


def _line(table: _Table, row: list[tuple[str, int]], board: int, problems: list[Problem]) -> Line:
    cells = _Cells(table, row, problems)
    score, artificial = _score(cells)
    contract = cells.text("Contract")
    return Line(board=board, ns=cells.text("PairId_NS"), ew=cells.text("PairId_EW"),
                section=cells.text("Section") or table.tags.get("Section", ""),
                table=cells.whole("Table"), round=cells.whole("Round"),
                contract="Pass" if contract.upper() == "PASS" else contract, declarer=cells.text("Declarer"),
                tricks=cells.whole("Result", high=13), score=score, artificial=artificial,
                mp_ns=cells.number("MP_NS"), mp_ew=cells.number("MP_EW"),
                percentage_ns=cells.number("Percentage_NS"), percentage_ew=cells.number("Percentage_EW"),
                imp_ns=cells.number("IMP_NS"), imp_ew=cells.number("IMP_EW"),
                count=cells.whole("Multiplicity", low=1) or 1)


def _date(text: str, row: int, problems: list[Problem]) -> dt.date | None:
    """The date of ``YYYY.MM.DD``; ``None`` when unknown (``?`` digits, §3.4.3) or not given."""
    text = text.strip()
    match = _DATE.fullmatch(text)
    if match and "?" not in text:
        try:
            return dt.date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            pass
    elif match or text in _BLANK:
        return None
    problems.append(Problem("results.pbn.date", "line {row}: Date {value!r} is not a date (YYYY.MM.DD)",
                            row=row, value=text))
    return None


def _derived_pairs(lines: list[Line], names: dict[tuple[str, str, str], str]) -> list[Pair]:
    """The pairs of a file without a TotalScoreTable: every pair its travellers name.  A
    number seen North-South and East-West under other names is two pairs (a Mitchell),
    under the same names (or none) one pair that changed direction (a Howell)."""
    seen: dict[tuple[str, str, str], None] = {}
    for line in lines:
        seen.update({(line.section, "NS", line.ns): None} if line.ns else {})
        seen.update({(line.section, "EW", line.ew): None} if line.ew else {})
    pairs: dict[tuple[str, str, str], Pair] = {}
    for section, side, pair_id in seen:
        other = (section, "EW" if side == "NS" else "NS", pair_id)
        mine = names.get((section, side, pair_id), "")
        howell = other in seen and (not mine or names.get(other, "") in ("", mine))
        key = (section, "" if howell else side, pair_id)
        pairs.setdefault(key, Pair(id=pair_id, number=whole(pair_id), players=_players(mine or names.get(other, "")),
                                   direction=key[1], section=section))
    return list(pairs.values())


def read_pbn(data: bytes) -> Result:
    """The results of a PBN file; :class:`~xlbridge.results.problems.ResultsFileError` lists every problem."""
    preflight(data)
    scan = _scan(decode(data))
    if not any(scan.games):
        check([Problem("results.file.unknown-format", "the file is neither PBN (no [Tag \"value\"] in it) nor "
                       "USEBIO (XML)")])
    problems = scan.problems
    pairs: dict[tuple[str, str], Pair] = {}
    lines: list[Line] = []
    optimum: list[Optimum] = []
    names: dict[tuple[str, str, str], str] = {}
    first: dict[str, tuple[str, int]] = {}  # the first value of each event tag, with its line
    tables = 0
    for table in _tables(scan, first):
        tables += 1
        board = None
        if table.name != "TotalScoreTable":
            board = whole(table.tags.get("Board", ""))
            if board is None or board < 1:
                problems.append(Problem("results.pbn.board", "line {row}: a {table} needs its game's Board "
                                        "number; the Board tag is {value!r}", row=table.line, table=table.name,
                                        value=table.tags.get("Board", "")))
                continue
        for row in table.rows:
            if table.name == "TotalScoreTable":
                pair = _pair(table, row, problems)
                if pair is None:
                    continue
                key = (pair.section, pair.id)
                if key in pairs and pairs[key] != pair:
                    add(problems, Problem("results.pbn.pair-twice", "line {row}: pair {pair} is ranked twice",
                                            row=row[0][1], pair=pair.id))
                pairs[key] = pair
            elif table.name == "ScoreTable":
                line = _line(table, row, board, problems)
                lines.append(line)
                cells = _Cells(table, row, problems)
                for side, pair_id, column in (("NS", line.ns, "Names_NS"), ("EW", line.ew, "Names_EW")):
                    names.setdefault((line.section, side, pair_id), cells.text(column))
            else:
                cells = _Cells(table, row, problems)
                tricks = cells.whole("Result", high=13)
                if tricks is not None:
                    optimum.append(Optimum(board, cells.text("Declarer"), cells.text("Denomination"), tricks))
    if not tables and not problems:
        problems.append(Problem("results.pbn.no-results", "the file has no ScoreTable or TotalScoreTable: it "
                                "holds deals, not results"))
    bounded(problems, len({line.board for line in lines}), len(lines), len(pairs))
    date_text, date_line = first.get("Date", first.get("EventDate", ("", 0)))
    date = _date(date_text, date_line, problems)
    check(problems)
    event = Event(format="PBN", name=first.get("Event", ("",))[0], date=date, site=first.get("Site", ("",))[0],
                  program=scan.program or first.get("Application", ("",))[0], scoring=first.get("Scoring", ("",))[0])
    return Result(event, with_ties(list(pairs.values()) or _derived_pairs(lines, names)), tuple(lines), tuple(optimum))
