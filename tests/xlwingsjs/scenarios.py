"""The clicks the tests make in Excel, and what the headless path of the same file gives.

Each :class:`Scenario` is a shipped workbook or template (``xlbridge.excel.shipped.SHIPPED``),
what the scorer typed before the click (``edit``, applied with openpyxl and saved: both paths
start from that file), the script and its form's arguments.  :func:`expected` is the headless
result, computed once per session and shared by every xlwings-server release:
``xlbridge recalc`` (``recalc_path``, the Corrections clock pinned) or ``xlbridge next``
(``next_sheet_path``), read back by openpyxl.  Two cases have no headless result to equal,
because the headless path writes nothing then: a workbook with a problem (the Excel path shows
it on the Messages sheet and marks its cells: the expected state is the file with exactly
that, written by the same xlbridge code on the openpyxl adapter), and a New evening that
cannot be added (the file unchanged).
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import tempfile
from unittest import mock
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from openpyxl import load_workbook

from tests.xlwingsjs.harness import STAMP, View, state_of, view
from xlbridge.excel.shipped import SHIPPED
from xlbridge.files.headless import import_path, next_sheet_path, recalc_path
from xlbridge.workbooks.nextsheet import add_next
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.plan import BookInputError

ROOT = Path(__file__).resolve().parent.parent.parent
RECALC, NEW_EVENING, NEW_TOURNAMENT, IMPORT = "recalculate_season", "new_evening", "new_tournament", "import_results"


@dataclass(frozen=True)
class Scenario:
    id: str
    rel: str  # the shipped file, from the repository root
    script: str = RECALC
    edit: Callable[[Any], None] | None = None  # what the scorer typed before the click (openpyxl)
    args: tuple[str, ...] = ()  # the script's form: a date as ISO text, as App Mode sends it
    after: str | None = None  # a second click: the scenario whose result this click starts from
    problem: bool = False  # the workbook has a problem: the Excel path writes only Messages and the marks
    files: tuple[tuple[str, bytes], ...] = ()  # Import results: the files placed under xlwings Lite's /data

    @property
    def name(self) -> str:
        return Path(self.rel).name


def _set(sheet: str, cell: str, value: Any) -> Callable[[Any], None]:
    def edit(wb: Any) -> None:
        wb[sheet][cell] = value
    return edit


def _swap(sheet: str, one: str, other: str) -> Callable[[Any], None]:
    def edit(wb: Any) -> None:
        ws = wb[sheet]
        ws[one], ws[other] = ws[other].value, ws[one].value
    return edit


def _heeg_late(wb: Any) -> None:  # one MP of an evening of the first period three points higher
    ws = wb["Avond 2025-09-18"]
    ws["E8"] = (ws["E8"].value or 0) + 3


#: A late correction per demo: one typed score changed (as tests/pyodide/test_shipped_workbooks.py).
LATE = {
    "workbooks/tbf-club.xlsx": _set("Turnuva", "C20", 60.0),
    "workbooks/se-masterpoints.xlsx": _set("Silver par", "C30", 70.0),
    "workbooks/bridgemania-demo.xlsx": _swap("T03", "E9", "E10"),  # two scores of board 1 of T03
    "workbooks/heeg-demo.xlsx": _heeg_late,
}


def _heeg_pairs(wb: Any) -> None:
    """The Heeg template with its pairs typed: eight pairs, four in line A, four in line B."""
    for i in range(8):
        wb["Seizoen"].cell(17 + i, 1, i + 1)
        wb["Seizoen"].cell(17 + i, 3, "A" if i < 4 else "B")


def _heeg_one_evening(wb: Any) -> None:
    """The Heeg template with one evening typed: its pairs, the first evening (3 September 2026)
    added by New evening headless, and every pair's MP total on it."""
    _heeg_pairs(wb)
    found = add_next(OpenpyxlBook(wb), day=dt.date(2026, 9, 3))
    ws = wb[[n for n in wb.sheetnames if n.endswith("2026-09-03")][0]]
    assert found.sheet.endswith("2026-09-03"), found.sheet
    for row in range(2, ws.max_row + 1):
        if isinstance(ws.cell(row, 1).value, int):
            ws.cell(row, 12, 100 + 10 * ws.cell(row, 1).value)  # column L: MP


def _bm_pairs(wb: Any) -> None:
    """The BridgeMania template with three pairs typed on the Season sheet."""
    for r, pid in enumerate(("AA", "BB", "CC"), start=5):
        for c, value in enumerate((pid, f"{pid}1", f"{pid}2"), start=1):
            wb["Stagione"].cell(r, c, value)


def _without_last_evening(wb: Any) -> None:
    """The Heeg demo before its last evening: the Season sheet lists 15 January 2026, no sheet has it."""
    wb.remove(wb["Avond 2026-01-15"])


def _import_scenarios() -> list[Scenario]:
    """Import results on each kind: a file of the scoring program under /data (PBN or USEBIO), the form's fields."""
    from tests.results import bmfile, heegfile
    from tests.results.pbn_writer import write_pbn
    from tests.results.usebio_writer import write_usebio

    magic = (ROOT / "tests/results/data/magic-contest-session.pbn").read_bytes()
    heeg = "workbooks/heeg-demo.xlsx"
    evening = heegfile.evening(heegfile.roster(ROOT / heeg))
    return [
        Scenario("templates/tbf-club: Import results (PBN)", "templates/tbf-club.xlsx", IMPORT,
                 files=(("/data/magic.pbn", magic),)),
        Scenario("templates/se-masterpoints: Import results (PBN, a sheet named)", "templates/se-masterpoints.xlsx",
                 IMPORT, args=("", "Brons par", ""), files=(("/data/magic.pbn", magic),)),
        Scenario("workbooks/heeg-demo: Import results (PBN by round)", heeg, IMPORT, heegfile.clear_last_evening,
                 files=(("/data/avond.pbn", write_pbn(evening)),)),
        Scenario("workbooks/bridgemania-demo: Import results (USEBIO)", "workbooks/bridgemania-demo.xlsx", IMPORT,
                 bmfile.next_tournament, files=(("/data/serata.xml", write_usebio(bmfile.night())),)),
        # a file the sheet cannot take (Ruter's IMPs): nothing imported, the Messages sheet says why
        Scenario("templates/tbf-club: Import results, a file refused", "templates/tbf-club.xlsx", IMPORT,
                 files=(("/data/ruter.pbn", (ROOT / "tests/results/data/ruter-club-evening.pbn").read_bytes()),),
                 problem=True),
    ]


def _scenarios() -> list[Scenario]:
    found = []
    for _kind, _blank, rel in SHIPPED:
        stem = Path(rel).stem
        first = Scenario(f"{Path(rel).parent.name}/{stem}: recalculate", rel)
        found += [first, Scenario(f"{Path(rel).parent.name}/{stem}: second click", rel, after=first.id)]
        if rel in LATE:
            found.append(Scenario(f"{Path(rel).parent.name}/{stem}: late correction", rel, edit=LATE[rel]))
    heeg, heeg_t = "workbooks/heeg-demo.xlsx", "templates/heeg-season.xlsx"
    bm, bm_t = "workbooks/bridgemania-demo.xlsx", "templates/bridgemania-season.xlsx"
    found += [
        # an inv code that is none: nothing recalculated, the cell marked, the Messages sheet says it
        Scenario("workbooks/heeg-demo: a problem", heeg, edit=_set("Avond 2025-09-18", "N8", "x"), problem=True),
        Scenario("workbooks/heeg-demo: New evening", heeg, NEW_EVENING, _without_last_evening),
        Scenario("workbooks/heeg-demo: New evening 2026-01-15", heeg, NEW_EVENING, _without_last_evening, ("2026-01-15",)),
        Scenario("workbooks/heeg-demo: New evening, the period full", heeg, NEW_EVENING, problem=True),
        Scenario("templates/heeg-season: New evening", heeg_t, NEW_EVENING, _heeg_one_evening),
        Scenario("templates/heeg-season: New evening 2026-09-17", heeg_t, NEW_EVENING, _heeg_one_evening, ("2026-09-17",)),
        Scenario("workbooks/bridgemania-demo: New tournament", bm, NEW_TOURNAMENT),
        Scenario("workbooks/bridgemania-demo: New tournament 2026-09-18", bm, NEW_TOURNAMENT, args=("2026-09-18",)),
        Scenario("templates/bridgemania-season: New tournament", bm_t, NEW_TOURNAMENT, _bm_pairs),
        Scenario("templates/bridgemania-season: New tournament 2026-09-18", bm_t, NEW_TOURNAMENT, _bm_pairs,
                 ("2026-09-18",)),
        *_import_scenarios(),
    ]
    return found


SCENARIOS = _scenarios()
BY_ID = {s.id: s for s in SCENARIOS}


@functools.cache
def original(rel: str) -> bytes:
    return (ROOT / rel).read_bytes()


@functools.cache
def source(scenario_id: str) -> bytes:
    """The file the click starts from: the shipped file, or it with the scorer's typing saved."""
    scenario = BY_ID[scenario_id]
    if scenario.edit is None:
        return original(scenario.rel)
    wb = load_workbook(io.BytesIO(original(scenario.rel)))
    scenario.edit(wb)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@functools.cache
def initial_state(scenario_id: str) -> dict[str, Any]:
    """The Excel mock's state of the file the click starts from (a second click starts from the
    Excel path's first result instead)."""
    return state_of(load_workbook(io.BytesIO(source(scenario_id))), BY_ID[scenario_id].name)


@dataclass(frozen=True)
class Expected:
    before: View  # the file the click starts from
    after: View  # what the Excel path must leave
    result: bytes  # the headless result (a second click starts from it)
    initial: dict[str, Any] | None = None  # the Excel mock's state to start from (None: a second click)


def chains() -> list[list[str]]:
    """The scenarios in the order of SCENARIOS, each with the second clicks that start from it."""
    found: dict[str, list[str]] = {}
    for scenario in SCENARIOS:
        root = scenario.id
        while BY_ID[root].after:
            root = BY_ID[root].after
        found.setdefault(root, []).append(scenario.id)
    return list(found.values())


def work_out(ids: list[str]) -> dict[str, Expected]:
    """Everything the tests need of a chain of scenarios but the clicks (openpyxl's reading and
    writing are most of the folder's time: conftest.py runs this in worker processes)."""
    return {i: replace(expected(i), initial=None if BY_ID[i].after else initial_state(i)) for i in ids}


@functools.cache
def expected(scenario_id: str) -> Expected:
    """The headless path of the scenario's file, read back by openpyxl (see the module docstring)."""
    scenario = BY_ID[scenario_id]
    start = expected(scenario.after).result if scenario.after else source(scenario_id)
    with tempfile.TemporaryDirectory(prefix="xlbridge-xlwingsjs-") as temp:
        path = Path(temp) / scenario.name
        path.write_bytes(start)
        try:
            if scenario.script == RECALC:
                recalc_path(path, backup=False, when=STAMP)
            elif scenario.script == IMPORT:
                file, sheet, section = list(scenario.args) or ["", "", ""]
                placed = f"/data/{file}" if file else scenario.files[0][0]
                with mock.patch("xlbridge.workbooks.recalc.now_stamp", lambda: STAMP):  # (the clock, as pinned)
                    imported = import_path(path, dict(scenario.files)[placed], sheet=sheet or None,
                                           ranking=section or None, backup=False)
            else:
                next_sheet_path(path, day=dt.date.fromisoformat(scenario.args[0]) if scenario.args else None,
                                backup=False)
            problems = None
        except BookInputError as error:
            problems = error
        result = path.read_bytes()
    if (problems is not None) != scenario.problem:
        raise AssertionError(f"{scenario.id}: the headless path {'found' if problems else 'found no'} problems: "
                             f"{[str(p) for p in problems.problems] if problems else ''}")
    if problems is not None and result != start:
        raise AssertionError(f"{scenario.id}: the headless path wrote the file although it found problems")
    wb = load_workbook(io.BytesIO(result))
    if problems is not None and scenario.script == RECALC:
        shown_as_in_excel(wb)
    elif scenario.script == IMPORT:  # the Messages sheet says what the command line prints
        said_as_in_excel(wb, problems.problems if problems is not None else imported, Path(placed).name)
    before = expected(scenario.after).after if scenario.after else view(initial_state(scenario_id))
    return Expected(before, view(state_of(wb, scenario.name)), result)


def said_as_in_excel(wb: Any, outcome: Any, name: str) -> None:
    """What Import results writes on the Messages sheet, by the same xlbridge code on the openpyxl
    adapter (xlbridge.excel.scripts.import_results_file): the import's problems with their marks,
    or (``outcome``: what import_path returned) its done message and warnings."""
    from xlbridge.language import speaking
    from xlbridge.workbooks.messages import clear_marks, report_problems
    from xlbridge.workbooks.localised import language_of, localised

    book = OpenpyxlBook(wb)
    language = language_of(book)
    with speaking(language):
        local = localised(book, language)
        clear_marks(local)
        if isinstance(outcome, list):
            report_problems(local, outcome, clear_old=False)
        else:
            imported, report = outcome
            report_problems(local, [], done=imported.message(name), clear_old=False,
                            warnings=[*imported.warnings, *report.warnings])


def shown_as_in_excel(wb: Any) -> None:
    """What the Excel path writes for a workbook with problems, done by the same xlbridge code on
    the openpyxl adapter (xlbridge.excel.scripts: clear the old marks, recalculate, and on its
    problems report_problems: the Messages sheet and the marks)."""
    from xlbridge.language import speaking
    from xlbridge.workbooks.messages import clear_marks, report_problems
    from xlbridge.workbooks.recalc import recalculate
    from xlbridge.workbooks.localised import language_of, localised

    book = OpenpyxlBook(wb)
    language = language_of(book)
    with speaking(language):
        local = localised(book, language)
        clear_marks(local)
        try:
            recalculate(local, language=language, when=STAMP)
        except BookInputError as error:
            report_problems(local, error.problems, clear_old=False)
        else:
            raise AssertionError("the workbook has no problem on the openpyxl adapter")
