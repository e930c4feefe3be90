"""USEBIO 1.2 results (the XML EBUScore, Compscore, Scorer and the EBU's feeds write).

``USEBIO/EVENT`` holds the event (EVENT_DESCRIPTION, DATE, PROGRAM_NAME,
BOARD_SCORING_METHOD, MASTER_POINT_SCALE), its pairs (``PARTICIPANTS/PAIR``:
PAIR_NUMBER, DIRECTION, PLACE, TOTAL_SCORE, PERCENTAGE, masterpoints, PLAYER) and
its boards (``BOARD/TRAVELLER_LINE``: NS_PAIR_NUMBER, EW_PAIR_NUMBER, CONTRACT,
PLAYED_BY, TRICKS, SCORE, NS_MATCH_POINTS, EW_MATCH_POINTS).  Programs place them
in two layouts, both read here:

- Compscore3: PARTICIPANTS and BOARD directly under EVENT, MASTER_POINTS_AWARDED
  directly under PAIR;
- the EBU's: EVENT > SESSION > SECTION (``SECTION_ID``) > PARTICIPANTS / BOARD,
  and PAIR > MASTER_POINTS > MASTER_POINTS_AWARDED, MASTER_POINT_TYPE.

The XML is parsed by defusedxml: a DTD may be named (every USEBIO file names
``usebio_v1_2.dtd``) but an entity declaration, which can hide a "billion laughs",
or an external reference is refused; nesting is
bounded (the number of elements by the file's size).  A problem names the element's path (``USEBIO/EVENT/BOARD[3]/SCORE``).
"""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Iterator
from fractions import Fraction
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree

from xlbridge.results.model import Event, Line, Pair, Player, Result, with_ties
from xlbridge.results.pbn import direction
from xlbridge.results.problems import MAX_DEPTH, add, bounded, check, number, preflight, whole
from xlbridge.rules.problems import Problem

__all__ = ["read_usebio"]

#: Elements that repeat: their path always carries the index (``BOARD[1]``).
REPEATED = {"EVENT", "SESSION", "SECTION", "PAIR", "PLAYER", "BOARD", "TRAVELLER_LINE"}
_DATES = ("%d/%m/%Y", "%d-%m-%Y", "%Y-%m-%d", "%d.%m.%Y", "%Y%m%d")


class _Tree:
    """The parsed file with every element's path, and the problems met reading it."""

    def __init__(self, data: bytes, problems: list[Problem]):
        self.problems = problems
        self.paths: dict[int, str] = {}
        self.root = self._parse(data)

    def _parse(self, data: bytes) -> Element | None:
        stack: list[tuple[str, dict[str, int]]] = [("", {})]
        try:
            for event, elem in defusedxml.ElementTree.iterparse(io.BytesIO(data), events=("start", "end"),
                                                               forbid_dtd=False, forbid_entities=True,
                                                               forbid_external=True):
                if event == "end":
                    stack.pop()
                    if len(stack) == 1:
                        return elem
                    continue
                path, seen = stack[-1]
                seen[elem.tag] = index = seen.get(elem.tag, 0) + 1
                name = f"{elem.tag}[{index}]" if elem.tag in REPEATED or index > 1 else str(elem.tag)
                path = f"{path}/{name}" if path else name
                self.paths[id(elem)] = path
                stack.append((path, {}))
                if len(stack) - 1 > MAX_DEPTH:
                    self.problems.append(Problem("results.usebio.too-deep", "{path}: the XML nests elements "
                                                 "more than {depth} deep; no USEBIO file does", path=path,
                                                 depth=MAX_DEPTH))
                    return None
        except defusedxml.DefusedXmlException:
            self.problems.append(Problem("results.usebio.entities", "the XML declares entities or refers to "
                                         "other files; xlbridge does not read such XML (it can hide an attack)"))
        except ParseError as error:
            line, column = error.position
            self.problems.append(Problem("results.usebio.xml", "line {row}, column {column}: the XML is "
                                         "malformed ({reason})", row=line, column=column + 1,
                                         reason=str(error).split(":")[0]))
        return None

    def path(self, elem: Element, child: str = "") -> str:
        return self.paths[id(elem)] + (f"/{child}" if child else "")

    def text(self, elem: Element, *names: str) -> str:
        """The text of the first child (``A/B`` paths too) of ``names`` that ``elem`` has."""
        for name in names:
            found = elem.find(name)
            if found is not None and (found.text or "").strip():
                return found.text.strip()
        return ""

    def number(self, elem: Element, *names: str) -> Fraction | None:
        text = self.text(elem, *names)
        value = number(text) if text else None
        if text and value is None:
            self.bad(elem, names, text, "number")
        return value

    def whole(self, elem: Element, *names: str, low: int = 0, high: int = 10**9) -> int | None:
        text = self.text(elem, *names)
        value = whole(text) if text else None
        if text and (value is None or not low <= value <= high):
            self.bad(elem, names, text, "whole", low, high)
            return None
        return value

    def bad(self, elem: Element, names: tuple[str, ...], text: str, kind: str, low: int = 0, high: int = 0) -> None:
        """A problem with the first child of ``names`` that ``elem`` has: not a ``kind``
        (``number``, ``whole`` from ``low`` to ``high``, ``place``)."""
        name = next(n for n in names if elem.find(n) is not None and (elem.find(n).text or "").strip())
        where = dict(path=self.path(elem, name), value=text)
        if kind == "number":
            problem = Problem("results.usebio.number", "{path}: {value!r} is not a number", **where)
        elif kind == "whole":
            problem = Problem("results.usebio.whole", "{path}: {value!r} is not a whole number from {low} to {high}",
                              low=low, high=high, **where)
        else:
            problem = Problem("results.usebio.place", "{path}: {value!r} is not a place (a whole number, = after "
                              "it for a tie)", **where)
        add(self.problems, problem)


def _id(elem: Element, name: str) -> str:
    return (elem.get(name) or elem.findtext(name) or "").strip()


def _places(tree: _Tree, event: Element) -> Iterator[tuple[str, str, Element]]:
    """(session, section, element) of every element holding PARTICIPANTS or BOARD: the
    EBU's sessions and sections, sections directly under EVENT, and EVENT itself."""
    sessions = event.findall("SESSION")
    for number_, session in enumerate(sessions, start=1):
        label = _id(session, "SESSION_ID") or (str(number_) if len(sessions) > 1 else "")
        for section in session.findall("SECTION") or [session]:
            yield label, _id(section, "SECTION_ID") if section is not session else "", section
    for section in event.findall("SECTION"):
        yield "", _id(section, "SECTION_ID"), section
    yield "", "", event


def _pair(tree: _Tree, elem: Element, session: str, section: str, matchpointed: bool, colour: str) -> Pair | None:
    pair_id = tree.text(elem, "PAIR_NUMBER")
    if not pair_id:
        add(tree.problems, Problem("results.usebio.missing", "{path}: {element} is missing",
                                     path=tree.path(elem), element="PAIR_NUMBER"))
        return None
    place = tree.text(elem, "PLACE")
    digits = re.match(r"\d+", pair_id)
    players = tuple(Player(tree.text(p, "PLAYER_NAME"), tree.text(p, "NATIONAL_ID_NUMBER"))
                    for p in elem.findall("PLAYER"))
    total = tree.number(elem, "TOTAL_SCORE")
    if place.rstrip("=") and whole(place.rstrip("=")) is None:
        tree.bad(elem, ("PLACE",), place, "place")
    return Pair(id=pair_id, number=int(digits[0]) if digits else None, players=players,
                direction=direction(tree.text(elem, "DIRECTION")), section=section, session=session,
                place=whole(place.rstrip("=")), tied=place.endswith("="), total=total,
                matchpoints=total if matchpointed else None, percentage=tree.number(elem, "PERCENTAGE"),
                boards=tree.whole(elem, "BOARDS_PLAYED"),
                masterpoints=tree.number(elem, "MASTER_POINTS_AWARDED", "MASTER_POINTS/MASTER_POINTS_AWARDED"),
                masterpoint_type=tree.text(elem, "MASTER_POINT_TYPE", "MASTER_POINTS/MASTER_POINT_TYPE") or colour)


def _line(tree: _Tree, elem: Element, board: int, session: str, section: str) -> Line:
    score = tree.text(elem, "SCORE")
    played = whole(score) if score else None
    return Line(board=board, ns=tree.text(elem, "NS_PAIR_NUMBER"), ew=tree.text(elem, "EW_PAIR_NUMBER"),
                section=section, session=session, contract=tree.text(elem, "CONTRACT"),
                declarer=tree.text(elem, "PLAYED_BY"), tricks=tree.whole(elem, "TRICKS", high=13), score=played,
                artificial=score if score and played is None else "",
                mp_ns=tree.number(elem, "NS_MATCH_POINTS"), mp_ew=tree.number(elem, "EW_MATCH_POINTS"),
                imp_ns=tree.number(elem, "NS_BUTLER_POINTS", "NS_CROSS_IMP_POINTS", "NS_IMPS"),
                imp_ew=tree.number(elem, "EW_BUTLER_POINTS", "EW_CROSS_IMP_POINTS", "EW_IMPS"))


def _date(tree: _Tree, event: Element) -> dt.date | None:
    text = tree.text(event, "DATE")
    for form in _DATES:
        try:
            return dt.datetime.strptime(text, form).date()
        except ValueError:
            continue
    if text:
        tree.problems.append(Problem("results.usebio.date", "{path}: DATE {value!r} is not a date (DD/MM/YYYY)",
                                     path=tree.path(event, "DATE"), value=text))
    return None


def _event(tree: _Tree, root: Element) -> Element | None:
    if root.tag != "USEBIO":
        tree.problems.append(Problem("results.usebio.root", "the XML's root element is <{element}>, not <USEBIO>: "
                                     "this is not a USEBIO file", element=str(root.tag)[:40]))
        return None
    version = root.get("Version", "")
    if version and not version.startswith("1."):
        tree.problems.append(Problem("results.usebio.version", "USEBIO: Version {version!r} is not USEBIO 1.x, "
                                     "the version xlbridge reads", version=version[:20]))
    events = root.findall("EVENT")
    if len(events) != 1:
        tree.problems.append(Problem("results.usebio.events", "USEBIO: the file holds {count} EVENT elements; "
                                     "xlbridge reads a file of one event", count=len(events)))
        return None
    kind = _id(events[0], "EVENT_TYPE").upper()
    if "TEAM" in kind or "INDIVIDUAL" in kind:
        tree.problems.append(Problem("results.usebio.event-type", "{path}: EVENT_TYPE {value!r} is not a pairs "
                                     "event; xlbridge reads the results of pairs", path=tree.path(events[0]),
                                     value=kind))
        return None
    return events[0]


def read_usebio(data: bytes) -> Result:
    """The results of a USEBIO file; :class:`~xlbridge.results.problems.ResultsFileError` lists every problem."""
    preflight(data)
    problems: list[Problem] = []
    tree = _Tree(data, problems)
    event = _event(tree, tree.root) if tree.root is not None else None
    check(problems)
    scoring = tree.text(event, "BOARD_SCORING_METHOD", "SCORING_METHOD") or _id(event, "EVENT_TYPE")
    matchpointed = scoring.upper() in ("MP", "MATCH_POINTS", "MP_PAIRS", "MATCHPOINTS")
    colour = tree.text(event, "MASTER_POINT_TYPE")
    pairs: list[Pair] = []
    lines: list[Line] = []
    for session, section, place in _places(tree, event):
        for elem in place.findall("PARTICIPANTS/PAIR"):
            pair = _pair(tree, elem, session, section, matchpointed, colour)
            pairs.extend([pair] if pair else [])
        for board in place.findall("BOARD"):
            number_ = tree.whole(board, "BOARD_NUMBER", low=1)
            if number_ is None:
                if not tree.text(board, "BOARD_NUMBER"):
                    add(problems, Problem("results.usebio.missing", "{path}: {element} is missing",
                                            path=tree.path(board), element="BOARD_NUMBER"))
                continue
            lines.extend(_line(tree, elem, number_, session, section) for elem in board.findall("TRAVELLER_LINE"))
    if not pairs and not problems:
        problems.append(Problem("results.usebio.no-pairs", "{path}: no PARTICIPANTS/PAIR: the file holds no pair's "
                                "result", path=tree.path(event)))
    bounded(problems, len({line.board for line in lines}), len(lines), len(pairs))
    date = _date(tree, event)
    check(problems)
    return Result(Event(format="USEBIO", name=tree.text(event, "EVENT_DESCRIPTION", "TITLE"), date=date,
                        site=tree.text(event, "VENUE") or tree.text(tree.root, "CLUB/CLUB_NAME"),
                        program=tree.text(event, "PROGRAM_NAME"), scoring=scoring,
                        masterpoint_scale=tree.text(event, "MASTER_POINT_SCALE")),
                  with_ties(pairs), tuple(lines))
