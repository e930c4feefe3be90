"""Typed problems: what is wrong, what it concerns, and the message built from both.

Every rule and input error of xlbridge is a :class:`Problem`:

- a ``code`` naming the broken rule (``"heeg.mp.not-a-number"``, ``"option.range"``),
  stable across wordings and languages: code decides on codes and fields only,
  never on message text;
- the *concerns* -- the structured fields that say where the problem is:
  :data:`CONCERNS` (``scheme``, ``option``, ``argument``, ``evening``,
  ``tournament``, ``pair``, ``board``, ``round``, ``field``, ``row``); a workbook
  kind maps them to a sheet and a cell through its declaration;
- a message *template* (``"MP {value!r} is not a number"``), formatted with the
  problem's parameters (every keyword given, the concerns included).

The template is written where the problem is raised, so that code and message
are read together; it is translated when the message is built (:func:`set_translator`:
the languages of the workbooks plug in there) and extracted for the catalogues by
the keyword ``Problem:2`` / ``RuleError:2``.

>>> p = Problem("heeg.mp.not-a-number", "MP {value!r} is not a number", pair=7, field="mp", value="1O3")
>>> p.message, p.code, p.pair, p.field
("MP '1O3' is not a number", 'heeg.mp.not-a-number', 7, 'mp')
>>> p.concerns()
{'pair': 7, 'field': 'mp'}
>>> str(RuleError("option.kind", "{scheme} option {option} must be a number; got {value!r}",
...               scheme="tr.club", option="boards", value="many"))
"tr.club option boards must be a number; got 'many'"

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

__all__ = ["CONCERNS", "Problem", "RuleError", "ProblemsError", "set_translator", "translate", "N_", "N_plural",
           "Plural"]

#: The fields that say what a problem concerns (all optional).
CONCERNS: tuple[str, ...] = ("scheme", "option", "argument", "evening", "tournament", "pair", "board", "round",
                             "field", "row")

#: The code of a problem raised with a bare message (``RuleError("...")``); xlbridge
#: itself raises none (tests/rules/test_problems_coded.py checks the sources).
UNCODED = "uncoded"

#: A message with a plural: its English singular and plural; the number ``count`` chooses.
Plural = tuple[str, str]
_translator: Callable[[str], str] = lambda template: template  # noqa: E731
_plural: Callable[[str, str, int], str] = lambda singular, plural, n: singular if n == 1 else plural  # noqa: E731


def set_translator(translator: Callable[[str], str] | None,
                   plural: Callable[[str, str, int], str] | None = None) -> None:
    """Translate every message template with ``translator`` from now on, and a
    :data:`Plural` with ``plural`` (gettext's ``ngettext``; ``None``: the English form
    ``translator`` translates); ``None``: as written, English."""
    global _translator, _plural
    words = translator if translator is not None else (lambda template: template)
    _translator = words
    _plural = plural if plural is not None else (lambda singular, many, n: words(singular if n == 1 else many))


def translator() -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """The translators in force (to put them back after a change: ``set_translator(*before)``)."""
    return _translator, _plural


def translate(template: str | Plural, n: Any = None) -> str:
    """``template`` in the language set by :func:`set_translator`; a :data:`Plural` in
    the form for the number ``n``."""
    if isinstance(template, tuple):
        return _plural(template[0], template[1], int(n) if isinstance(n, (int, float)) else 2)
    return _translator(template)


class _AsTyped(float):
    """A float shown as typed in a message: ``130`` for 130.0, ``2.5``, ``inf``; with the
    language's decimal sign (``sign``).

    >>> "{0!r} {0} {0:g} {1!r}".format(_AsTyped(130.0), _AsTyped(2.5))
    '130 130 130 2.5'
    """

    sign = "."

    def __repr__(self) -> str:
        text = float.__repr__(self)
        return (text[:-2] if text.endswith(".0") else text).replace(".", self.sign)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self) if not spec else float.__format__(self, spec).replace(".", self.sign)


def _as_typed(value: float, sign: str) -> _AsTyped:
    typed = _AsTyped(value)
    typed.sign = sign
    return typed


class _Shown(str):
    """A value shown in a message as the scorer knows it, quoted or not: an empty cell (``None``, what a
    blank cell arrives as) in words, a date as Excel shows it in ISO form, never Python's ``datetime.date(...)``.

    >>> "got {0!r}, {1!r}".format(_Shown("an empty cell"), _Shown("2020-01-31"))
    'got an empty cell, 2020-01-31'
    """

    def __repr__(self) -> str:
        return str(self)


def _shown(value: Any, sign: str) -> Any:
    """A parameter as a message shows it (see :class:`_AsTyped`, :class:`_Shown`)."""
    if value.__class__ is float:
        return _as_typed(value, sign)
    if isinstance(value, Fraction):  # (an exact sum: MP 210, never Fraction(210, 1))
        return _as_typed(float(value), sign)
    if value is None:
        return _Shown(_translator(EMPTY_CELL))
    if isinstance(value, dt.datetime):
        return _Shown(value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" "))
    if isinstance(value, dt.date):
        return _Shown(value.isoformat())
    return value


def N_(message: str) -> str:  # noqa: N802 (the gettext convention)
    """Marks ``message`` for the catalogues (extracted by Babel); translated where it is shown."""
    return message


def N_plural(singular: str, plural: str) -> Plural:  # noqa: N802 (the gettext convention)
    """Marks a message with a plural for the catalogues (extracted by Babel as ``ngettext``
    is); a :class:`Problem` with it chooses the form by its ``count``.

    >>> Problem("x", N_plural("{count} problem", "{count} problems"), count=1).message
    '1 problem'
    """
    return singular, plural


#: The decimal sign of a number in a message, as a catalogue entry: each language's own
#: ("," in nl, it, sv and tr), so that a message shows 62,5 where the scorer types 62,5.
DECIMAL_SIGN = N_(".")
#: What a message says for a cell left empty (a ``None`` parameter).
EMPTY_CELL = N_("an empty cell")


class Problem:
    """One thing wrong, with its code, its concerns and its parameters.

    ``Problem(code, template, **params)``: the keywords named in :data:`CONCERNS`
    say what the problem concerns; all keywords are parameters of the template.
    Problems are immutable and compare by code and parameters.
    """

    __slots__ = ("code", "template", "params")

    def __init__(self, code: str, template: str | Plural, /, **params: Any) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "params", dict(params))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Problem is immutable; use replace()")

    def __getattr__(self, name: str) -> Any:
        if name in CONCERNS:
            return self.params.get(name)
        raise AttributeError(name)

    @property
    def message(self) -> str:
        """The message, built from the (translated) template and the parameters; a
        number is shown as typed (a whole float without ``.0``: Excel sends a typed
        130 as 130.0, the message says ``MP 130``), an empty cell and a date as the scorer
        knows them (:func:`_shown`).

        >>> Problem("x", "(now {value}); got {typed!r}", value=None, typed=None).message
        '(now an empty cell); got an empty cell'
        """
        sign = _translator(DECIMAL_SIGN)
        params = {k: _shown(v, sign) for k, v in self.params.items()}
        return translate(self.template, self.params.get("count")).format(**params)

    def concerns(self) -> dict[str, Any]:
        """The concern fields this problem has (``None`` ones left out)."""
        return {name: self.params[name] for name in CONCERNS if self.params.get(name) is not None}

    def replace(self, **params: Any) -> Problem:
        """A copy (of the same kind) with some parameters changed or added (a caller adding what it knows)."""
        return type(self)(self.code, self.template, **{**self.params, **params})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Problem) and (self.code, self.template, self.params) == (
            other.code, other.template, other.params)

    def __hash__(self) -> int:
        return hash((self.code, self.template, tuple(sorted(self.params.items(), key=lambda kv: kv[0]))))

    def __repr__(self) -> str:
        return f"Problem({self.code!r}, {self.message!r})"

    def __str__(self) -> str:
        return self.message


class RuleError(ValueError):
    """A rule of the document is violated, or an input makes no sense for it.

    ``RuleError(code, template, **params)`` (or ``RuleError(problem)``): the
    :class:`Problem` is ``.problem``; the message names the scheme (or rule) and the
    offending value, so it can be shown as it is in a worksheet cell or on the
    command line.
    """

    def __init__(self, code: str | Problem, template: str = "", /, **params: Any) -> None:
        if isinstance(code, Problem):
            self.problem = code
        elif not template and not params:  # a bare message (kept for callers outside xlbridge)
            self.problem = Problem(UNCODED, code.replace("{", "{{").replace("}", "}}"))
        else:
            self.problem = Problem(code, template, **params)
        super().__init__(self.problem.message)

    @property
    def code(self) -> str:
        return self.problem.code

    def __str__(self) -> str:
        return self.problem.message


class ProblemsError(RuleError):
    """Every problem of one run, reported together (``.problems``); nothing was
    computed or written.  The message counts them and lists the first ones."""

    #: the words for what was checked (``"the Heeg season input"``, ``"the workbook"``)
    what = N_("the input")
    #: how many problems the one-line message lists (the rest are counted)
    shown = 3

    def __init__(self, problems: Iterable[Any]):
        self.problems: list[Any] = list(problems)
        super().__init__(self.summary())

    def summary(self) -> Problem:
        """The one problem that stands for all of them (the exception's message)."""
        count = len(self.problems)
        head = "; ".join(str(p) for p in self.problems[: self.shown])
        more = translate(N_(" (and {count} more)")).format(count=count - self.shown) if count > self.shown else ""
        return Problem("run.problems", N_plural("{count} problem in {what}: {head}{more}",
                                                "{count} problems in {what}: {head}{more}"), count=count,
                       what=translate(self.what), head=head, more=more)

    def codes(self) -> list[str]:
        return [getattr(p, "code", "") for p in self.problems]
