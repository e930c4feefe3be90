"""The problems of the Heeg season logic: typed, coded, and reported together.

Every problem is a :class:`~xlbridge.rules.problems.Problem` with a stable code
(``heeg.mp.not-a-number``) and the concerns that say where it is:

- ``evening`` -- the evening (a date; ``None`` for a settings problem);
- ``pair`` -- the pair as typed;
- ``field`` -- the input field: ``date``, ``period``, ``line``, ``pair``, ``mp``,
  ``code``, ``max_mp``, ``rounds``, ``combi_mp``, ``combi_top``, ``line_top``, or
  a setting (``periods``, ``promote``, ``lines``, ``rounds``, ``boards_per_round``,
  ``combi_top``, ``absence_span``, ``roster``);
- ``row`` -- the caller's reference of the input row (a DataFrame's index label,
  the workbook's sheet and row);

plus parameters of the message (``value`` -- what was typed; ``count``, ...).
A caller (the workbook) decides on codes and fields, never on message text.

:class:`HeegProblem` keeps the names the engine's problems had before they were
typed (``date``, ``column``, ``value``, ``where``, ``kind``, ``count``) as read-only
views of the same parameters, and prints with its place: ``Evening 2025-09-02,
pair 4, mp: MP '1O3' is not a number``.

Standard library only: this runs in xlwings Lite.
"""

from __future__ import annotations

from typing import Any

from xlbridge.rules.problems import N_, N_plural, Problem, ProblemsError

__all__ = ["HeegProblem", "HeegInputError", "problem", "LINE_TOO_SMALL", "LINE_EMPTY", "COMBI_ABSENT"]

#: A line with too few pairs at the tables to have a top (``count``: how many play).
LINE_TOO_SMALL = "heeg.line.too-small"
#: No line typed and none on the roster.
LINE_EMPTY = "heeg.line.empty"
#: A combi MP typed for a pair marked absent.
COMBI_ABSENT = "heeg.combi-mp.absent"


class HeegProblem(Problem):
    """A problem of the Heeg season input (see the module's text for its concerns)."""

    __slots__ = ()

    @property
    def date(self) -> Any:
        """The evening (``None`` when the problem is not about one)."""
        return self.params.get("evening")

    @property
    def column(self) -> str:
        """The input field (``""`` when none)."""
        return self.params.get("field") or ""

    @property
    def value(self) -> Any:
        """What was typed (``None`` when nothing or not about one value)."""
        return self.params.get("value")

    @property
    def where(self) -> str:
        """``"Settings"`` / ``"Results"`` for a problem that is not about one row."""
        return self.params.get("where") or ""

    @property
    def kind(self) -> str:
        """``"small_line"`` for a line too small to have a top, else ``""`` (the code says the same)."""
        return "small_line" if self.code == LINE_TOO_SMALL else ""

    @property
    def count(self) -> Any:
        return self.params.get("count")

    def location(self) -> str:
        parts = []
        if self.where:
            parts.append(self.where)
        if self.date is not None:
            parts.append(f"Evening {self.date.isoformat()}")
        if self.pair is not None:
            parts.append(f"pair {self.pair}")
        if self.column:
            parts.append(self.column)
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.location()}: {self.message}"


def problem(code: str, template: str, /, **params: Any) -> HeegProblem:
    """``HeegProblem(code, template, **params)``: the one way the engine writes a problem."""
    return HeegProblem(code, template, **params)


def as_heeg(p: Problem, **concerns: Any) -> HeegProblem:
    """A rule's problem (``heeg_pct`` raised it) with the concerns of the row added."""
    return HeegProblem(p.code, p.template, **{**p.params, **concerns})


class HeegInputError(ProblemsError):
    """Every problem of one run, reported together (``.problems``); nothing was
    computed.  The message counts them and lists each with its place, one a line::

        2 problems in the Heeg season input:
        - Evening 2025-09-02, pair 4, mp: MP '1O3' is not a number
        - Evening 2025-09-16, pair 5, mp: MP 130 is above the evening's maximum 100
    """

    what = N_("the Heeg season input")

    def summary(self) -> Problem:
        count = len(self.problems)
        lines = "".join(f"\n- {p}" for p in self.problems)
        return Problem("problems", N_plural("{count} problem in {what}:{lines}", "{count} problems in {what}:{lines}"),
                       count=count, what=self.what, lines=lines)
