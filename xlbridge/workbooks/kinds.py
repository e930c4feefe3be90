"""The kinds of workbook xlbridge recalculates, each recognised by its own sheets.

The registry :data:`KINDS` is explicit; a kind is tried in this order (event
sheets last: a season workbook is recognised by its own sheets first).
"""

from __future__ import annotations

from typing import Any

from xlbridge.workbooks.events import EventSheets
from xlbridge.workbooks.bridgemania import BridgeManiaSeason
from xlbridge.workbooks.heeg import HeegSeason

KINDS: list[Any] = [BridgeManiaSeason(), HeegSeason(), EventSheets()]
