"""A small USEBIO 1.2 writer (test equipment): a Result written in the EBU specimen's layout,
EVENT > SESSION > SECTION (SECTION_ID) > PARTICIPANTS / BOARD, as EBUScore exports a club evening
(a pair's place, ``3=`` when tied, total score, percentage and boards where the Result has them).

USEBIO says nothing of rounds: what the file can say of a Heeg evening is each board's lines.
"""

from __future__ import annotations

from fractions import Fraction
from xml.etree.ElementTree import Element, SubElement, tostring

from xlbridge.results import Result


def _text(parent: Element, tag: str, value: object) -> None:
    if value is None or value == "":
        return
    if isinstance(value, Fraction):
        value = str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"
    SubElement(parent, tag).text = str(value)


def write_usebio(result: Result, program: str = "EBUScore Pairs") -> bytes:
    root = Element("USEBIO", Version="1.2")
    event = SubElement(root, "EVENT", EVENT_TYPE="MP_PAIRS")
    _text(event, "EVENT_DESCRIPTION", result.event.name)
    _text(event, "PROGRAM_NAME", program)
    _text(event, "DATE", result.event.date.strftime("%d/%m/%Y") if result.event.date else "")
    _text(event, "BOARD_SCORING_METHOD", "MATCH_POINTS")
    session = SubElement(event, "SESSION", SESSION_ID="1")
    for name in result.sections:
        section = SubElement(session, "SECTION", SECTION_ID=name)
        participants = SubElement(section, "PARTICIPANTS")
        for p in (p for p in result.pairs if p.section == name):
            pair = SubElement(participants, "PAIR")
            _text(pair, "PAIR_NUMBER", p.id)
            _text(pair, "DIRECTION", p.direction)
            _text(pair, "PLACE", f"{p.place}{'=' if p.tied else ''}" if p.place is not None else None)
            _text(pair, "TOTAL_SCORE", p.total)
            _text(pair, "PERCENTAGE", p.percentage)
            _text(pair, "BOARDS_PLAYED", p.boards)
            for player in p.players:
                person = SubElement(pair, "PLAYER")
                _text(person, "PLAYER_NAME", player.name)
                _text(person, "NATIONAL_ID_NUMBER", player.number)
        for board, lines in result.boards().items():
            mine = [line for line in lines if line.section == name]
            if not mine:
                continue
            elem = SubElement(section, "BOARD")
            _text(elem, "BOARD_NUMBER", board)
            for line in mine:
                traveller = SubElement(elem, "TRAVELLER_LINE")
                _text(traveller, "NS_PAIR_NUMBER", line.ns)
                _text(traveller, "EW_PAIR_NUMBER", line.ew)
                _text(traveller, "SCORE", line.score)
                _text(traveller, "NS_MATCH_POINTS", line.mp_ns)
                _text(traveller, "EW_MATCH_POINTS", line.mp_ew)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd">\n' + tostring(root)
