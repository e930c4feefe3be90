"""Classic xlwings (desktop Excel on Windows with ``pip install xlbridge`` and the
xlwings add-in): the entry for a "Recalculate season" button.

In the workbook's VBA (or the xlwings add-in's ``RunPython``)::

    Sub RecalculateSeason()
        RunPython "import xlbridge.excel.classic; xlbridge.excel.classic.main()"
    End Sub

:func:`main` runs the very same recalculation as the "Recalculate season" script
of xlwings Lite and xlwings Server (:mod:`xlbridge.excel.scripts`) on the workbook
that called it.  The worksheet functions come from the UDF module
``xlbridge.excel.functions`` (xlwings add-in settings, "UDF Modules").
"""

from __future__ import annotations

from typing import Any

#: what to type in the xlwings add-in's "UDF Modules" box
UDF_MODULE = "xlbridge.excel.functions"
#: the RunPython call of the button
RUN_PYTHON = "import xlbridge.excel.classic; xlbridge.excel.classic.main()"


def main(book: Any = None) -> None:
    """Recalculate the calling workbook (``xw.Book.caller()``), or ``book``."""
    import xlwings as xw

    from xlbridge.excel.scripts import recalculate

    recalculate(book if book is not None else xw.Book.caller())


if __name__ == "__main__":  # pragma: no cover - RunPython/"python -m" from Excel
    main()
