"""Plurals through gettext's ngettext (issue 26, point 10): "verbeter de 1 probleem/problemen",
"1 eerdere waarden gewijzigd", "waarschuwing(en)", "3 paar/paren", "13 problema/i" are gone."""

from __future__ import annotations

import re

import pytest

from tools import catalogues
from xlbridge.language import LANGUAGES, speaking
from xlbridge.rules.problems import Problem, ProblemsError
from xlbridge.workbooks.messages import DONE_CHANGED, DONE_WARNINGS, nothing_written
from xlbridge.workbooks.nextsheet import nothing_added

#: a word with its plural ending in brackets or after a slash: what a plural form replaces
HEDGED = re.compile(r"\w\((s|en|e|i|ar|er|lar|ler)\)|\b(probleem/problemen|paar/paren|problema/i|avvertenza/e|"
                    r"coppia/e|varning\(ar\))")


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_message_hedges_its_plural(language):
    hedged = []
    for message in catalogues.read(language):
        for text in (message.id if isinstance(message.id, tuple) else (message.id,)) + \
                (message.string if isinstance(message.string, tuple) else (message.string,)):
            if text and HEDGED.search(text):
                hedged.append(text)
    assert hedged == []


def test_dutch_says_one_problem_and_three_problems():
    with speaking("nl"):
        assert nothing_written(1) == "er is niets geschreven: verbeter het probleem in zijn cel, daarna opnieuw " \
                                     "Seizoen herberekenen"
        assert nothing_written(3).startswith("er is niets geschreven: verbeter de 3 problemen in hun cellen")
        assert Problem("recalc.done", DONE_CHANGED, cells=448, count=1).message == \
            "448 cellen herberekend; 1 eerdere waarde gewijzigd (zie Correcties)."
        assert Problem("recalc.done", DONE_CHANGED, cells=448, count=2).message == \
            "448 cellen herberekend; 2 eerdere waarden gewijzigd (zie Correcties)."
        assert Problem("recalc.warnings", DONE_WARNINGS, count=1).message == " 1 waarschuwing: zie het blad Meldingen."


def test_italian_has_a_form_for_one_and_for_many():
    with speaking("it"):
        assert nothing_added(1).startswith("non è stato aggiunto nulla: correggere il problema nella sua cella")
        assert nothing_added(13).startswith("non è stato aggiunto nulla: correggere i 13 problemi nelle loro celle")
        assert Problem("recalc.warnings", DONE_WARNINGS, count=2).message == " 2 avvertenze: vedi il foglio Messaggi."


def test_a_summary_counts_in_the_right_form():
    assert str(ProblemsError([Problem("x", "one")])).startswith("1 problem in ")
    assert str(ProblemsError([Problem("x", "one"), Problem("y", "two")])).startswith("2 problems in ")
    with speaking("nl"):
        assert str(ProblemsError([Problem("x", "one")])).endswith(": 1 probleem: one")
