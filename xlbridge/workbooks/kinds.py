"""The kinds of workbook xlbridge recalculates, each recognised by its own sheets: one registry.

The registry :data:`MODULES` is explicit: the recalculation's name of each kind -> its
package, in the order ``xlbridge new`` lists them.  A kind is tried in this order, but a
package that says ``TRIED_LAST`` is tried after the others (event sheets: a season workbook
is recognised by its own sheets first).  Each package declares everything of its kind:
``RECALCULATION``, the class that recognises and recalculates its workbooks (a
:class:`~xlbridge.workbooks.plan.Kind`), and ``WORKBOOKS``, what ``xlbridge new`` writes
(:class:`WorkbookKind`, one or several: the events package offers two).  The front doors
(``cli.py``, :mod:`xlbridge.excel.shipped`, :mod:`xlbridge.excel.bundle`,
:mod:`~xlbridge.workbooks.nextsheet`) ask this registry; adding a kind touches
:data:`MODULES` and the kind's own package only.

Each package is imported when first asked for (:func:`kinds`), and a kind whose
package is not installed is not tried: the code an xlwings Lite workbook carries
holds only its own kind (:func:`xlbridge.excel.bundle.kind_files`), so that Excel
starts fast.  Standard library only: a builder is named by its dotted path and
imported only when a workbook is built (openpyxl is not part of the Excel path).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from xlbridge.workbooks.messages import ACTION

#: The recalculation's name of each kind -> its package (``RECALCULATION``, ``WORKBOOKS``).
MODULES: dict[str, str] = {
    "event awards": "xlbridge.workbooks.events",
    "bridgemania": "xlbridge.workbooks.bridgemania",
    "heeg": "xlbridge.workbooks.heeg",
}


@dataclass(frozen=True)
class Button:
    """The "Recalculate season" button on a workbook's main sheet: a shape named
    ``name`` from ``cell``, as wide as its label (:func:`xlbridge.excel.button.width`), linked
    to ``cell`` (xlwings Lite runs the script when that cell is selected: it hides behind the
    shape).  A second button's cell lies right of the first's widest label in every language."""

    sheet: str
    cell: str
    name: str = "xlbridge_button"
    label: str = ACTION
    action: str = ACTION  # the script's name in the pane (English in every workbook)

    @property
    def target(self) -> str:
        """The ``button=`` argument of ``@script``: ``[name]Sheet!Cell``."""
        return f"[{self.name}]{self.sheet}!{self.cell}"


@dataclass(frozen=True)
class WorkbookKind:
    """What ``xlbridge new KIND`` builds: the builder (``module:function``, called with
    ``blank``), the "Recalculate season" button on the main sheet, and the workbook's
    title and rule document for the text xlwings Lite shows the scorer (``main.py``'s
    docstring; both English catalogue entries, written in the kind's ``language``);
    ``never_read``: the sheets the recalculation never reads, which Excel then sends
    without their values (the script's ``exclude``; the kind's declaration names them).
    ``guides``: the scorer's guide by language (``""``: any other), which ``xlbridge new``
    names; ``shipped``: (blank, path relative to the repository root) of each workbook the
    repository ships; ``lite_excluded``: the package's files its Lite bundle never holds
    (as :data:`xlbridge.excel.bundle.EXCLUDED`; the builder's module is left out always)."""

    build: str
    button: Button
    title: str
    rules: str
    never_read: tuple[str, ...] = ()
    language: str = "en"  # the club's or federation's language: what ``xlbridge new`` builds by default
    next_button: Button | None = None  # New evening / New tournament, beside the first button
    recognised_as: str = ""  # the recalculation's name of the kind (:data:`MODULES`; the registry fills it)
    guides: dict[str, str] = field(default_factory=dict, hash=False)
    shipped: tuple[tuple[bool, str], ...] = ()
    lite_excluded: tuple[str, ...] = ()

    def builder(self) -> Any:
        """The function that builds this kind's workbook (imported now)."""
        module, function = self.build.split(":")
        return getattr(importlib.import_module(module), function)

    def builder_file(self) -> str:
        """The builder's module, as a path in the package (``workbooks/heeg/build.py``)."""
        return self.build.split(":")[0].removeprefix("xlbridge.").replace(".", "/") + ".py"

    def in_language(self, language: str) -> WorkbookKind:
        """This kind as built in ``language``: the button on the main sheet under its
        name there, with its label in that language; the sheets never read by their names."""
        from xlbridge.language import _, sheet_name, speaking
        from xlbridge.workbooks.localised import Localised

        with speaking(language):
            label = _(self.button.label)
            following = self.next_button and replace(self.next_button, label=_(self.next_button.label),
                                                      sheet=sheet_name(self.next_button.sheet, language))
        return replace(self, button=replace(self.button, sheet=sheet_name(self.button.sheet, language), label=label),
                       next_button=following,
                       never_read=tuple(Localised.local_name(n, language) for n in self.never_read),
                       language=language)


def _installed() -> list[tuple[str, Any]]:
    return [(name, importlib.import_module(module)) for name, module in MODULES.items()
            if importlib.util.find_spec(module) is not None]


@cache
def kinds() -> tuple[Any, ...]:
    """One instance of every installed kind, in the order they are tried."""
    tried = sorted(_installed(), key=lambda found: getattr(found[1], "TRIED_LAST", False))
    return tuple(package.RECALCULATION() for _name, package in tried)


def workbooks() -> dict[str, WorkbookKind]:
    """What ``xlbridge new`` writes: every installed package's workbooks by name, in the registry's order."""
    return {name: replace(kind, recognised_as=recognised)
            for recognised, package in _installed() for name, kind in package.WORKBOOKS.items()}


def package(kind: str) -> str:
    """The package of the kind the recalculation calls ``kind``."""
    return MODULES[kind]


def next_planner(kind: str) -> Any:
    """The New-sheet rule of the kind the recalculation calls ``kind``: its package's ``plan_next``
    (``None``: the kind has no next sheet)."""
    return getattr(importlib.import_module(MODULES[kind]), "plan_next", None)


def _importer_name(kind: str) -> tuple[str, str] | None:
    named = getattr(importlib.import_module(MODULES[kind]), "IMPORTER", None)
    return tuple(named.split(":")) if named is not None else None  # type: ignore[return-value]


def importer_module(kind: str) -> str | None:
    """The module of the import of the kind the recalculation calls ``kind`` (its package's
    ``IMPORTER``, ``"module:function"``), without importing it; ``None``: the kind has none.
    The Lite bundle carries it for the Import results script (:mod:`xlbridge.excel.bundle`)."""
    named = _importer_name(kind)
    return named[0] if named is not None else None


def importer(kind: str) -> Any:
    """The import of a scoring program's results of the kind the recalculation calls ``kind``: the
    function its package names in ``IMPORTER`` (imported now, when results are imported), or ``None``
    (the kind has none)."""
    named = _importer_name(kind)
    return getattr(importlib.import_module(named[0]), named[1]) if named is not None else None
