"""Where the BridgeMania workbook puts things, for the tests that look at its cells: derived from the
declaration (:mod:`xlbridge.workbooks.bridgemania.declaration`), so that they move with it."""

from xlbridge.workbooks.bridgemania.declaration import AFTER, FINAL, GENERAL, LISTS_COL, NEXT, PAIRS, RESULTS
from xlbridge.workbooks.bridgemania.declaration import SECTIONS as _SECTIONS

T_HEADER = PAIRS.header_row
T_FIRST = PAIRS.first_row
COMPUTED = RESULTS.headers()
C_FIRST = FINAL.first_row
FINAL_HEADERS = FINAL.headers()
GENERAL_COL = GENERAL.first_col
GENERAL_HEADERS = GENERAL.headers()
AFTER_COL = AFTER.first_col
AFTER_HEADERS = AFTER.headers()
P_FIRST = NEXT.first_row
SECTIONS = tuple(s.title for s in _SECTIONS)  # the titles of the sections below the pairs

__all__ = ["T_HEADER", "T_FIRST", "COMPUTED", "C_FIRST", "FINAL_HEADERS", "GENERAL_COL", "GENERAL_HEADERS",
           "AFTER_COL", "AFTER_HEADERS", "LISTS_COL", "P_FIRST", "SECTIONS"]
