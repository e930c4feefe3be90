"""The release table's facts: what xlwings emits, what each release's JavaScript handles."""

from __future__ import annotations

import importlib.metadata

import pytest

from tests.xlwingsjs import runtime
from tests.xlwingsjs.releases import emitted_funcs, handled

#: The actions the workbooks' scripts emit (issue 23, collected over 30 scenarios with xlwings 0.37.8).
EMITTED_BY_XLBRIDGE = {"setValues", "setRangeColor", "setNumberFormat", "setFontProperty", "addSheet",
                       "setSheetVisibility", "setSheetAutofit", "setPrintArea", "freezePaneAtRange", "activateSheet",
                       "rangeSelect", "alert"}


def test_the_funcs_xlwings_can_emit_are_read_from_its_source():
    source = ('self.append_json_action(func="setValues", values=v)\n'
              'self._append("applyAutoFilterRange", "applyAutoFilterTable", [field])\n'
              'self._pivot._queue("name", value)\n'
              'self.parent._pending_actions.append(("setChartAxis", args))\n'
              'print("notAnAction")\n')
    assert emitted_funcs(source)[1] == ["applyAutoFilterRange", "applyAutoFilterTable", "setChartAxis", "setValues"]
    version, emitted = emitted_funcs()
    assert version == importlib.metadata.version("xlwings")
    assert EMITTED_BY_XLBRIDGE <= set(emitted), EMITTED_BY_XLBRIDGE - set(emitted)


def test_what_the_oldest_and_the_newest_release_handle():
    try:
        old, new = set(handled("1.12.0")), set(handled("1.20.0"))
        requires = {v: runtime.prepared(v).requires_xlwings for v in runtime.VERSIONS}
    except runtime.PreparationError as error:
        pytest.fail(str(error), pytrace=False)
    assert EMITTED_BY_XLBRIDGE - old == {"setSheetVisibility", "setSheetAutofit", "setPrintArea"}
    assert EMITTED_BY_XLBRIDGE <= new
    assert requires == {"1.12.0": "xlwings>=0.36.17", "1.13.0": "xlwings>=0.37.0", "1.20.0": "xlwings>=0.37.8"}
