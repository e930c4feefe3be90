"""Issue 16, points 8 and 11: one name for the action everywhere, and the command
line says what to do next (after ``new``, after problems, on an empty workbook)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.cli import NEXT_STEPS, main, parser
from xlbridge.excel.bundle import MAIN_TEMPLATE
from xlbridge.excel.shipped import KINDS
from xlbridge.workbooks.bridgemania.build import HOW_TO_LINES
from xlbridge.workbooks.heeg.declaration import HOWTO_LINES
from xlbridge.language import _, sheet_name, speaking
from xlbridge.workbooks.messages import ACTION, DONE_EMPTY
from xlbridge.workbooks.localised import Localised

ROOT = Path(__file__).resolve().parents[1]
#: The action by another name: "Recalculate" alone, recalc_season, "click recalculate" (the verb in prose is fine).
OTHER_NAME = re.compile(r"\bRecalculate\b(?!\s+season)|(?i:recalc_season|click\s+\W*recalculate\b(?!\s+season))")


def _texts() -> dict[str, str]:
    texts = {doc: (ROOT / "docs" / doc).read_text(encoding="utf-8")
             for doc in ("guide-heeg.md", "guide-bridgemania.md", "install.md")}
    texts["Heeg How to"] = "\n".join(HOWTO_LINES)
    texts["BridgeMania How to"] = "\n".join(HOW_TO_LINES)
    for kind in ("tbf-club", "se-masterpoints"):
        ws = KINDS[kind].builder()(False)["How to"]
        texts[f"{kind} How to"] = "\n".join(str(c.value) for c in ws["A"] if c.value)
    cli = parser()
    texts["CLI help"] = cli.format_help() + "".join(
        a.format_help() for action in cli._subparsers._group_actions for a in action.choices.values())
    texts["main.py"] = MAIN_TEMPLATE
    return texts


@pytest.mark.parametrize("where,text", list(_texts().items()))
def test_the_action_has_one_name(where: str, text: str) -> None:
    assert [m.group(0) for m in OTHER_NAME.finditer(text)] == [], where
    assert re.search(r"Recalculate\s+season", text) or where == "main.py", where


#: Each kind's club language: what ``xlbridge new`` builds and ``recalc`` then speaks by default.
CLUB_LANGUAGE = {"heeg": "nl", "tbf-club": "tr", "se-masterpoints": "sv", "bridgemania": "it"}
RECALCULATED = "recalculated {path} ({kind}): {done}"
UP_TO_DATE = "recalculated {path} ({kind}): {count} computed cells up to date{changed}"


@pytest.mark.parametrize("language", ["nl", "en"])
def test_new_says_what_to_do_next(language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "season.xlsx"
    lang = ["--lang", "en"] if language == "en" else []  # Dutch: the club's, the default
    assert main(["new", "heeg", str(path), "--blank", *lang]) == 0
    english = [
        f"wrote {path}",
        f"next: open {path} in Excel, type in the yellow cells (step by step: docs/guide-heeg.md) and click "
        f"Recalculate season; without Excel, save it and run: xlbridge recalc {path}",
    ]
    out = capsys.readouterr().out.splitlines()
    if language == "en":
        assert out == english
        return
    with speaking("nl"):  # the scorer's words, and the scorer's guide in Dutch
        assert out == [_("wrote {path}").format(path=path),
                       _(NEXT_STEPS).format(path=path, guide="docs/guide-heeg.nl.md", action=_(ACTION))]
    assert out[0] != english[0] and out[1] != english[1] and (ROOT / "docs" / "guide-heeg.nl.md").exists()


@pytest.mark.slow
@pytest.mark.parametrize("language", ["club", "en"])
@pytest.mark.parametrize("kind", ["heeg", "bridgemania", "tbf-club", "se-masterpoints"])
def test_an_empty_template_says_nothing_is_filled_in(kind: str, language: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "season.xlsx"
    lang = ["--lang", "en"] if language == "en" else []
    assert main(["new", kind, str(path), "--blank", *lang]) == 0
    capsys.readouterr()
    assert main(["recalc", str(path)]) == 0  # in the workbook's language (its sheet names)
    out = capsys.readouterr().out
    name = kind if kind in ("heeg", "bridgemania") else "event awards"
    english = (f"recalculated {path} ({name}): Nothing is filled in yet: type the "
               "results in the yellow cells (see the How to sheet), then Recalculate season again "
               f"(xlbridge recalc {path}).\n")
    if language == "en":
        assert out == english
        return
    with speaking(CLUB_LANGUAGE[kind]):
        done = _(DONE_EMPTY).format(action=_(ACTION), how=f" (xlbridge recalc {path})")
        assert out == _(RECALCULATED).format(path=path, kind=name, done=done) + "\n"
    assert out != english


@pytest.mark.parametrize("language", ["tr", "en"])
def test_a_filled_in_workbook_says_how_many_cells(language: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.xlsx"
    lang = ["--lang", "en"] if language == "en" else []  # Turkish: the TBF's, the default
    assert main(["new", "tbf-club", str(path), *lang]) == 0
    capsys.readouterr()
    assert main(["recalc", str(path)]) == 0
    out = capsys.readouterr().out
    cells = 60 + 21 * 7  # the awards, and the results in place order with their header
    english = f"recalculated {path} (event awards): {cells} computed cells up to date\n"
    if language == "en":
        assert out == english
    else:
        with speaking(language):
            assert out == _(UP_TO_DATE).format(path=path, kind="event awards", count=cells, changed="") + "\n"
        assert out != english
    assert load_workbook(path)[sheet_name("Tournament", language)]["D9"].value == 1


@pytest.mark.slow
def test_a_season_with_its_pairs_but_no_results_says_nothing_is_filled_in(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The first recalculation of a new Heeg season adds the evening sheets with the
    pairs (not results): still nothing filled in.  In the club's language, Dutch."""
    import datetime as dt

    path = tmp_path / "season.xlsx"
    assert main(["new", "heeg", str(path), "--blank"]) == 0
    wb = load_workbook(path)
    ws = wb[sheet_name("Season", "nl")]
    ws["B5"], ws["C12"] = "A, B", dt.datetime(2026, 10, 7)
    for pair in range(1, 9):
        ws.cell(row=16 + pair, column=1, value=pair)
        ws.cell(row=16 + pair, column=3, value="A" if pair <= 4 else "B")
    wb.save(path)
    capsys.readouterr()
    assert main(["recalc", str(path)]) == 0
    with speaking("nl"):
        nothing = _(DONE_EMPTY).split("{")[0]  # "Er is nog niets ingevuld: ..."
        up_to_date = _(UP_TO_DATE).split("{count}")[1].split("{changed}")[0]  # " berekende cellen bijgewerkt"
    assert nothing.strip() and nothing in capsys.readouterr().out
    evening_name = Localised.local_name("Evening 2026-10-07", "nl")
    evening = load_workbook(path)[evening_name]
    assert [evening.cell(row=r, column=1).value for r in range(2, 10)] == list(range(1, 9))
    typed = load_workbook(path)
    for row in range(2, 10):
        typed[evening_name].cell(row=row, column=12, value=20 + row)  # the MP of each pair
    typed.save(path)
    assert main(["recalc", str(path)]) == 0
    assert up_to_date.strip() and up_to_date in capsys.readouterr().out
