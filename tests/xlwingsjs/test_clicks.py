"""Every click of the Excel path, applied by xlwings' own JavaScript, equals the headless path.

For every xlwings-server release in ``runtime.VERSIONS`` and every scenario of
``scenarios.SCENARIOS`` (each shipped workbook and template recalculated, clicked a second
time, corrected late; a workbook with a problem; New evening and New tournament with and
without a date; Import results on each kind, and a file refused): the workbook's own
``main.py`` runs the script on the payload that release's
``getBookData`` builds from the workbook, that release's ``runActions`` applies the actions on
the Excel mock (tests/xlwingsjs/harness.py), and then

- every action applied (otherwise: the failing action, its index, its arguments and the error);
- the final workbook equals the headless path's (``xlbridge recalc`` / ``xlbridge next``) cell
  for cell: values, fills, sheet order, visibility, the active sheet, and where the headless
  path set them, number formats and print areas (otherwise: the first differing cells).
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests.pyodide.harness import HarnessError, PythonError
from tests.xlwingsjs import runtime
from tests.xlwingsjs.harness import Click, Lite, click, differences, excel_js, view
from tests.xlwingsjs.scenarios import BY_ID, SCENARIOS, Scenario, original

pytestmark = pytest.mark.slow  # the inner loop while developing is pytest -m "not slow" (pyproject.toml)

_MAINS: dict[str, Lite] = {}
_CLICKS: dict[tuple[str, str], Click] = {}


def _lite(rel: str) -> Lite:
    if rel not in _MAINS:
        _MAINS[rel] = Lite(Path(rel), original(rel))
    return _MAINS[rel]


def run(version: str, scenario: Scenario, headless) -> Click:
    """The scenario's click on ``version`` (once a session: a second click starts from its result)."""
    key = (version, scenario.id)
    if key not in _CLICKS:
        if scenario.after:
            start = copy.deepcopy(run(version, BY_ID[scenario.after], headless).state)
        else:
            # one book name per release (each release's clicks apart in the summary and the payloads)
            start = dict(headless(scenario.id).initial, name=f"{Path(scenario.rel).stem} ({version}).xlsx")
        _CLICKS[key] = click(excel_js(version), _lite(scenario.rel), scenario.script, start, list(scenario.args),
                             dict(scenario.files))
    return _CLICKS[key]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
@pytest.mark.parametrize("version", runtime.VERSIONS)
def test_click_equals_the_headless_path(scenario, version, headless, clicked):
    problem = None
    try:
        result = run(version, scenario, headless)
    except (runtime.PreparationError, HarnessError, PythonError) as error:
        problem = f"{scenario.id} on xlwings-server {version}: {error}"
    if problem:
        clicked(version=version, scenario=scenario.id, actions="-", result=problem.splitlines()[0][:160])
        pytest.fail(problem, pytrace=False)
    want = headless(scenario.id)
    failure = result.failure()
    diffs = differences(view(result.state), want.after, want.before)
    clicked(version=version, scenario=scenario.id, actions=len(result.actions),
            result="ok" if not failure and not diffs else
            (f"action {result.failed['index'] + 1} ({result.failed['func']}) failed; " if failure else "")
            + (f"{len(diffs)} differences, first: {diffs[0][:100]}" if diffs else ""))
    if failure or diffs:
        pytest.fail(f"{scenario.id} on xlwings-server {version} ({len(result.actions)} actions):\n"
                    + "\n".join(([failure] if failure else []) + (["differs from the headless path:"] + diffs
                                                                     if diffs else [])), pytrace=False)
