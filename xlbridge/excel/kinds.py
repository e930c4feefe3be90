"""The kinds of workbook xlbridge recalculates, each recognised by its own sheets.

The registry :data:`KINDS` is explicit; a kind is tried in this order (event
sheets last: a season workbook is recognised by its own sheets first).
"""

from __future__ import annotations

from typing import Any

from xlbridge.excel.event_book import EventSheets
from xlbridge.excel.bm_book import BridgeManiaSeason
from xlbridge.excel.heeg_book import HeegSeason

KINDS: list[Any] = [BridgeManiaSeason(), HeegSeason(), EventSheets()]
