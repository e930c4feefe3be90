"""Issue 16, point 1: every typed cell looks typed (the one input fill, from the
declaration), every computed cell looks computed (never that fill), and Excel
checks what it can as the scorer types (drop-downs, whole numbers, ranges).

The declarations are walked, then every shipped workbook and template, sheet by
sheet, through the declaration of that sheet.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.excel.shipped import SHIPPED, build
from xlbridge.language import _, sheet_name, speaking
from xlbridge.workbooks.bridgemania import declaration as bm
from xlbridge.workbooks.declare import INPUT, SheetSpec, Table, rule_of, text_of
from xlbridge.workbooks.events import declaration as ev
from xlbridge.workbooks.events.kind import is_event_sheet
from xlbridge.workbooks.heeg import declaration as heeg
from xlbridge.workbooks.heeg.read import read_season
from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
from xlbridge.workbooks.localised import Localised, language_of

ROOT = Path(__file__).resolve().parents[2]
YELLOW = "FF" + INPUT.lstrip("#").upper()
RED = "FF" + heeg.RED.lstrip("#").upper()


def _all_specs() -> list[SheetSpec]:
    return [
        heeg.season_spec(["1", "2", "3"], 6, 20), heeg.evening_spec(6, ["1", "2", "3"]), heeg.period_spec("1"),
        heeg.year_spec(["1", "2"]), ev.event_sheet("T", "t", ("Pair", "Players", "Score %", "MP", "Colour")),
        bm.SEASON_SHEET, bm.tournament_sheet(28), bm.CHAMPIONSHIP_SHEET, bm.PARTICIPATION_SHEET,
    ]


@pytest.mark.parametrize("spec", _all_specs(), ids=lambda s: s.name or s.id)
def test_every_declared_typed_column_is_yellow_and_no_computed_one(spec: SheetSpec) -> None:
    layout = spec.layout(5)
    yellow = {(r, c) for (row, col, nrows, ncols), colour in layout.fills if colour == INPUT
              for r in range(row, row + nrows) for c in range(col, col + ncols)}
    for s in spec.settings:
        assert (s.row, s.col) in yellow, s.id
    for t in spec.tables:
        for column in t.columns:
            cell = (t.first_row, t.col(column.id))
            assert (cell in yellow) == column.typed, (spec.id, t.id, column.id)


def _fill(ws, row: int, col: int) -> str | None:
    fill = ws.cell(row=row, column=col).fill
    return fill.fgColor.rgb if fill is not None and fill.fill_type == "solid" else None


def _check_table(ws, table: Table, rows: int, owned: dict[str, str] | None = None) -> list[str]:
    """Every typed cell of ``rows`` rows yellow (or a colour of ``owned``: the red
    signal xlbridge sets in a typed column), every computed one not."""
    bad = []
    for column in table.columns:
        col = table.col(column.id)
        for row in range(table.first_row, table.first_row + rows):
            colour = _fill(ws, row, col)
            if column.typed and colour != YELLOW and colour != (owned or {}).get(column.id):
                bad.append(f"{ws.title}!{ws.cell(row=row, column=col).coordinate} typed {column.id}: {colour}")
            if not column.typed and colour == YELLOW:
                bad.append(f"{ws.title}!{ws.cell(row=row, column=col).coordinate} computed {column.id}: yellow")
    return bad


def _used_rows(ws, table: Table) -> int:
    last = max((r for r in range(table.first_row, ws.max_row + 1)
                if ws.cell(row=r, column=table.first_col).value is not None), default=table.first_row - 1)
    return last - table.first_row + 1


def _heeg(wb) -> list[str]:
    problems: list = []
    season = read_season([list(r) for r in wb[heeg.SEASON].iter_rows(values_only=True)], problems)
    assert season is not None, problems
    settings = season.settings
    labels = [p.label for p in settings.periods]
    bad = []
    spec = heeg.season_spec(labels, max([6, *(len(p.evenings) for p in settings.periods)]), len(settings.roster))
    for s in spec.settings:
        if _fill(wb[heeg.SEASON], s.row, s.col) != YELLOW:
            bad.append(f"Season!{s.cell}")
    for table in spec.tables:
        bad += _check_table(wb[heeg.SEASON], table, table.room)
    evenings = [n for n in wb.sheetnames if n.startswith(heeg.EVENING_PREFIX)]
    for name in evenings:
        table = heeg.evening_table(settings.rounds, labels)
        bad += _check_table(wb[name], table, _used_rows(wb[name], table) + heeg.SPARE_ROWS, {"code": RED})
    for name in [heeg.YEAR, *(heeg.period_sheet(label) for label in labels)]:
        table = (heeg.year_spec(labels) if name == heeg.YEAR else heeg.period_spec(name.split()[-1])).tables[0]
        bad += _check_table(wb[name], table, 30)
    return bad


def _events(wb) -> list[str]:
    bad = []
    for ws in wb:
        grid = [list(r) for r in ws.iter_rows(max_row=10, values_only=True)]
        if not is_event_sheet(grid):
            continue
        for s in ev.SETTINGS:
            if _fill(ws, s.row, s.col) != YELLOW:
                bad.append(f"{ws.title}!{s.cell}")
        table = ev.READER.table("results")
        bad += _check_table(ws, table, max(ev.ROOM, _used_rows(ws, table)))
    return bad


def _bridgemania(wb) -> list[str]:
    bad = []
    season = wb[bm.SEASON]
    for t in bm.SEASON_SHEET.tables:
        bad += _check_table(season, t, t.room)
    for name in wb.sheetnames:
        ws = wb[name]
        if ws.cell(row=1, column=1).value and str(ws.cell(row=1, column=1).value).startswith(_(bm.TOURNAMENT_TITLE)):
            nboards = sum(1 for c in range(bm.FIRST_BOARD_COL, ws.max_column + 1)
                          if isinstance(ws.cell(row=bm.PAIRS.header_row, column=c).value, int))
            spec = bm.tournament_sheet(nboards, name)
            for s in spec.settings:
                if _fill(ws, s.row, s.col) != YELLOW:
                    bad.append(f"{name}!{s.cell}")
            for t in spec.tables:
                bad += _check_table(ws, t, bm.PAIRS.room)
    for s in bm.PARTICIPATION_SHEET.settings:
        if _fill(wb[bm.PARTICIPATION], s.row, s.col) != YELLOW:
            bad.append(f"Participation!{s.cell}")
    for t in bm.CHAMPIONSHIP_SHEET.tables:
        bad += _check_table(wb[bm.CHAMPIONSHIP], t, t.room)
    return bad


CHECKS = {"heeg": _heeg, "tbf-club": _events, "se-masterpoints": _events, "bridgemania": _bridgemania}


class _English:
    """A workbook in its language seen through the English sheet names the declarations use."""

    def __init__(self, wb, language: str):
        self.wb, self.language = wb, language

    def __getitem__(self, name: str):
        return self.wb[Localised.local_name(name, self.language)]

    def __iter__(self):
        return iter(self.wb)

    @property
    def sheetnames(self) -> list[str]:
        return [Localised.canonical_name(n, self.language) for n in self.wb.sheetnames]


#: The language each kind is shipped in (the club's).
SHIPPED_IN = {"heeg": "nl", "bridgemania": "it", "tbf-club": "tr", "se-masterpoints": "sv"}


@pytest.mark.slow
@pytest.mark.parametrize("kind,path", [(k, p) for k, _, p in SHIPPED], ids=[p for _, _, p in SHIPPED])
def test_every_typed_cell_of_a_shipped_workbook_is_yellow_and_no_computed_one(kind: str, path: str) -> None:
    wb = load_workbook(ROOT / path)
    language = language_of(OpenpyxlBook(wb))
    assert language == SHIPPED_IN[kind]  # shipped in the club's language
    with speaking(language):
        assert CHECKS[kind](_English(wb, language)) == []


def _validations(ws) -> dict[str, object]:
    return {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}


def _built(tmp_path: Path, kind: str, language: str, blank: bool = False):
    """The shipped workbook of ``kind`` in ``language`` (the club's: the file shipped; English: built)."""
    if language == SHIPPED_IN[kind]:
        rel = next(p for k, b, p in SHIPPED if k == kind and b == blank)
        return load_workbook(ROOT / rel)
    return load_workbook(build(kind, tmp_path / f"{kind}.xlsx", blank=blank, language=language))


def _in(language: str, english: str, label_id: str | None = None) -> str:
    """``english`` (a sheet name, or the declared word ``label_id``) in ``language``."""
    return text_of(label_id, english, language) if label_id else sheet_name(english, language)


@pytest.mark.slow
@pytest.mark.parametrize("language", ["nl", "en"])
def test_heeg_inv_codes_are_a_drop_down_that_says_how_to_type_equals(tmp_path: Path, language: str) -> None:
    wb = _built(tmp_path, "heeg", language)
    name = next(n for n in wb.sheetnames if n.startswith(_in(language, heeg.EVENING_PREFIX)))
    table = heeg.evening_table(6, ["1", "2", "3"])
    inv = ws_col = table.col("code")
    found = [dv for ref, dv in _validations(wb[name]).items()
             if ref.startswith(f"{wb[name].cell(row=2, column=ws_col).column_letter}2:")]
    assert len(found) == 1 and inv == 14
    dv = found[0]
    assert dv.type == "list" and dv.formula1 == '"1,2,0,a,s,s1,="'  # the seed's codes, in every language
    assert "'=" in dv.prompt and dv.showErrorMessage and dv.errorStyle == "stop"
    assert dv.error == _in(language, "{label}: type one of {choices}, or leave it empty", "rule.list").format(
        label="inv", choices="1, 2, 0, a, s, s1, =")
    rounds = [dv for ref, dv in _validations(wb[name]).items() if ref.startswith("D2:")]
    assert rounds and rounds[0].type == "decimal" and rounds[0].operator == "greaterThanOrEqual"
    season = _validations(wb[_in(language, heeg.SEASON)])
    assert season["B6"].type == "whole" and season["B6"].formula1 == "2"
    assert season["B6"].error == _in(language, "{label}: type a whole number{range}", "rule.whole").format(
        label=_in(language, "Rounds per evening", "rounds"), range=_in(language, " from {low}", "rule.from").format(low=2))
    words = [_in(language, w, "absence_span") for w in ("period", "season")]
    assert season["B9"].formula1 == f'"{",".join(words)}"'
    if language == "en":
        assert season["B6"].error == "Rounds per evening: type a whole number from 2"
        assert season["B9"].formula1 == '"period,season"'
    else:  # the scorer's words, not the code's
        assert words != ["period", "season"] and season["B6"].error != "Rounds per evening: type a whole number from 2"


@pytest.mark.slow
@pytest.mark.parametrize("language", ["it", "en"])
def test_bridgemania_status_is_a_drop_down_and_the_lot_a_whole_number(tmp_path: Path, language: str) -> None:
    wb = _built(tmp_path, "bridgemania", language, blank=True)
    blank = _validations(wb[_in(language, bm.BLANK_TOURNAMENT)])
    status = blank[f"B{bm.PAIRS.first_row}:B{bm.PAIRS.first_row + bm.PAIRS.room - 1}"]
    words = [_in(language, w, "status") for w in ("waiting", "ill", "unable", "split")]
    assert status.type == "list" and status.formula1 == f'"{",".join(words)}"'
    if language == "en":
        assert status.formula1 == '"waiting,ill,unable,split"'
    else:  # the Italian words of the rules (lista di attesa, malattia, ...), not the code's
        assert not set(words) & {"waiting", "ill", "unable", "split"}
    assert status.errorStyle == "warning"  # the reader also knows A / M / I and the Italian words: Excel only warns
    lot = _validations(wb[_in(language, bm.SEASON)])[f"E{bm.BASE.first_row}:E{bm.BASE.first_row + bm.BASE.room - 1}"]
    assert lot.type == "whole" and lot.formula1 == "1"


@pytest.mark.parametrize("language", ["sv", "en"])
def test_a_percentage_score_is_checked_from_0_to_100_and_a_team_score_from_0(tmp_path: Path, language: str) -> None:
    wb = _built(tmp_path, "se-masterpoints", language, blank=True)
    with speaking(language):
        pairs_sheet, teams_sheet = _("Bronze pairs"), _("Team barometer")
    pairs = _validations(wb[pairs_sheet])["C9:C48"]
    assert (pairs.type, pairs.operator, pairs.formula1, pairs.formula2) == ("decimal", "between", "0", "100")
    teams = _validations(wb[teams_sheet])["C9:C48"]
    assert (teams.operator, teams.formula1) == ("greaterThanOrEqual", "0")


def test_rules_follow_the_declaration() -> None:
    assert rule_of(heeg.evening_table(6, ()).column("names")) is None  # text: the recalculation checks it
    rule = rule_of(heeg.SETTINGS[-1])
    assert rule is not None and rule.values == ("period", "season")
