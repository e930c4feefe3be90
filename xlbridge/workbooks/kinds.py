"""The kinds of workbook xlbridge recalculates, each recognised by its own sheets.

The registry :data:`MODULES` is explicit; a kind is tried in this order (event
sheets last: a season workbook is recognised by its own sheets first).  Each kind
is imported when first asked for (:func:`kinds`), and a kind whose package is not
installed is not tried: the code an xlwings Lite workbook carries holds only its
own kind (:func:`xlbridge.excel.bundle.kind_files`), so that Excel starts fast.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from typing import Any

#: The recalculation's name of each kind -> (its package, the class in it).
MODULES: dict[str, tuple[str, str]] = {
    "bridgemania": ("xlbridge.workbooks.bridgemania", "BridgeManiaSeason"),
    "heeg": ("xlbridge.workbooks.heeg", "HeegSeason"),
    "event awards": ("xlbridge.workbooks.events", "EventSheets"),
}


@cache
def kinds() -> tuple[Any, ...]:
    """One instance of every installed kind, in the order they are tried."""
    return tuple(getattr(importlib.import_module(module), cls)() for module, cls in MODULES.values()
                 if importlib.util.find_spec(module) is not None)
