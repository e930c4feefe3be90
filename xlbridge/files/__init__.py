"""The headless file layer: an .xlsx on disk as an openpyxl workbook, loaded,
recalculated and saved safely, keeping what openpyxl itself would drop (the
xlwings Lite code, the button and other drawings).  Above the workbook kinds,
below the front doors; never part of the Excel path."""
