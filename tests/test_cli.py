"""The xlbridge command line: output, one-line errors, exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from xlbridge.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_award_prints_points_and_unit(capsys):
    assert run(capsys, "award", "tr.club", "--place", "1", "--field", "26", "--option", "boards=24") == (0, "0.62 green\n", "")


def test_award_json(capsys):
    code, out, _ = run(capsys, "award", "tr.club", "--place", "2", "--field", "12", "--json")
    assert code == 0 and json.loads(out) == {"scheme": "tr.club", "place": "2", "points": 0.28, "unit": "green"}


def test_awards_with_ties(capsys):
    code, out, _ = run(capsys, "awards", "tr.club", "--ranks", "1,2,2,4,5,6,7,8,9,10,11,12", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["points"] for r in rows[:4]] == [0.35, 0.2625, 0.2625, 0.21]


def test_schemes_lists_pinned_ids(capsys):
    code, out, _ = run(capsys, "schemes")
    assert code == 0
    ids = {line.split()[0] for line in out.splitlines()}
    assert {"tr.club", "tr.online", "tr.regional", "tr.festival"} <= ids


@pytest.mark.slow
def test_demo_recalculates_the_bundled_heeg_season(capsys, tmp_path):
    code, out, _ = run(capsys, "demo", "--dir", str(tmp_path), "--lang", "en")
    lines = out.splitlines()
    assert code == 0 and str(tmp_path / "heeg-demo.xlsx") in lines[0]
    # the line xlbridge recalc ends with; before, it said "previous version kept as heeg-demo.backup.xlsx",
    # which nothing had written
    assert lines[1] == f"recalculated {tmp_path / 'heeg-demo.xlsx'} (heeg): 10466 computed cells up to date"
    assert lines[2] == "Year 2025/2026 — club championship (final: all 18 evenings played)"
    assert lines[3].split() == ["Line", "Rank", "Pair", "Names", "Evenings", "jaar", "eind", "1", "eind", "2", "eind",
                                "3", "marks", "*", "champion"]
    first = lines[4].split()
    # the best year, but a red *: not champion, and why in words
    assert first[:3] == ["A", "1", "3"] and " ".join(first[-7:]) == "red no: 6 marks (more than 5)"
    assert not (tmp_path / "heeg-demo.backup.xlsx").exists()  # built up to date: nothing written, no backup
    # red only where the workbook's * cell is red (more than 5 marks); before, every solid fill (white too)
    # read as red: every pair of the table said "red"
    rows = [line.split() for line in lines[4:] if line[:1] in ("A", "B")]
    reds = [row[2] for row in rows if "red" in row]
    assert reds == ["3"], reds


@pytest.mark.slow
def test_demo_speaks_the_clubs_language(capsys, tmp_path):
    code, out, _ = run(capsys, "demo", "--dir", str(tmp_path))
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("Meegeleverd voorbeeld: ")
    assert lines[2] == "Jaar 2025/2026 — clubkampioenschap (eindstand: alle 18 avonden gespeeld)"
    assert lines[3].split() == ["Lijn", "Plaats", "Paar", "Namen", "Avonden", "jaar", "eind", "1", "eind", "2", "eind",
                                "3", "tekens", "*", "kampioen"]
    first = lines[4].split()
    # the best year, but a red *: not champion, and why in the club's words (as in English above)
    assert first[:3] == ["A", "1", "3"] and " ".join(first[-7:]) == "rood nee: 6 tekens (meer dan 5)"


def test_demo_tbf_refuses_the_options_it_would_ignore(capsys):
    """``demo tbf --lang tr`` printed the English table as if the option were heard."""
    code, out, err = run(capsys, "demo", "tbf", "--lang", "tr")
    assert (code, out) == (2, "")
    assert err.splitlines() == ["xlbridge: error: --lang and --dir are for the Heeg demo; xlbridge demo tbf prints the "
                                "TBF awards only"]


def test_demo_awards_the_bundled_tournament(capsys):
    code, out, _ = run(capsys, "demo", "tbf")
    lines = out.splitlines()
    assert code == 0 and "20 pairs, 26 boards" in lines[0]
    # 20 pairs = 10 tables: weight 0.52; 26 boards lies in 24-32 (unchanged); places 4 and 5 tied
    first = lines[2].split()
    assert first[0] == "1" and first[-2:] == ["0.52", "green"]
    tied = [line for line in lines[2:] if line.split()[0] == "4"]
    assert len(tied) == 2 and tied[0].split()[-2] == tied[1].split()[-2]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["award", "tr.club", "--place", "1", "--field", "5"], "tr.club needs at least 3 tables; got 2.5"),
        (["award", "tr.nope", "--place", "1", "--field", "5"], "unknown scheme 'tr.nope'"),
        (["award", "tr.club", "--place", "1", "--field", "26", "--option", "boards"], "must look like name=value"),
        (["award", "tr.club", "--field", "26"], "the following arguments are required: --place"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["awards", "tr.club", "--ranks", "1,2,2,3"], "expected 4"),
    ],
)
def test_errors_are_one_line_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("xlbridge: error: ") and message in err


def test_console_script_end_to_end():
    exe = shutil.which("xlbridge") or shutil.which("xlbridge", path=str(__import__("pathlib").Path(sys.executable).parent))
    command = [exe] if exe else [sys.executable, "-m", "xlbridge"]
    ok = subprocess.run(command + ["award", "tr.club", "--place", "1", "--field", "26", "--option", "boards=24"],
                        capture_output=True, text=True)
    assert (ok.returncode, ok.stdout) == (0, "0.62 green\n")
    bad = subprocess.run(command + ["award", "tr.club", "--place", "1", "--field", "2"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "xlbridge: error: tr.club needs at least 3 tables; got 1\n"
    assert "Traceback" not in bad.stderr


@pytest.mark.parametrize("argv", [["recalc", "-dash.xlsx"], ["recalc", "club.xlsx", "-dash.xlsx"],
                                  ["next", "-Dash.XLSM", "--next-period"]])
def test_a_workbook_named_with_a_leading_dash_is_said_to_read_as_an_option(capsys, argv):
    """Issue 25: ``xlbridge recalc -dash.xlsx`` said "the following arguments are required: path"."""
    name = next(a for a in argv if a.lower().endswith((".xlsx", ".xlsm")) and a.startswith("-"))
    assert run(capsys, *argv) == (2, "", f"xlbridge: error: {name} starts with - and reads as an option; name the "
                                         f"file as ./{name} (or put -- before it)\n")


def test_a_dashed_name_written_as_advised_is_read(capsys, tmp_path, monkeypatch, built_once):
    monkeypatch.chdir(tmp_path)
    built_once("tbf-club", tmp_path / "-dash.xlsx", language="en")
    for argv in (["recalc", "./-dash.xlsx"], ["recalc", "--", "-dash.xlsx"]):
        code, out, err = run(capsys, *argv)
        assert (code, err) == (0, "") and out.startswith(f"recalculated {argv[-1]} (event awards)"), (out, err)


@pytest.mark.slow
def test_the_error_prefix_speaks_the_workbooks_language(capsys, tmp_path):
    """Issue 26, point 9: "xlbridge: error:" was English in front of a Dutch or Italian message."""
    from openpyxl import load_workbook

    for kind, sheet, cell, prefix in (("heeg", "Avond 2025-09-04", "D2", "xlbridge: fout: Avond 2025-09-04, D2: "),
                                      ("bridgemania", "T01", "E9", "xlbridge: errore: T01, E9: ")):
        path = tmp_path / f"{kind}.xlsx"
        assert main(["new", kind, str(path)]) == 0
        wb = load_workbook(path)
        wb[sheet][cell] = "zes"
        wb.save(path)
        capsys.readouterr()
        assert main(["recalc", str(path)]) == 2
        errors = capsys.readouterr().err.splitlines()
        assert errors[0].startswith(prefix), errors


@pytest.mark.parametrize("environment, line", [
    ({"LANG": "nl_NL.UTF-8"}, "xlbridge: fout: {name}: dit bestand bestaat niet"),
    ({"LANGUAGE": "de:it", "LANG": "nl_NL.UTF-8"}, "xlbridge: errore: {name}: il file non esiste"),
    ({"LC_ALL": "sv_SE.UTF-8"}, "xlbridge: fel: {name}: filen finns inte"),
    ({"LANG": "tr_TR.UTF-8"}, "xlbridge: hata: {name}: böyle bir dosya yok"),
    ({"LANG": "de_DE.UTF-8"}, "xlbridge: error: {name}: no such file"),
    ({"LANG": "C.UTF-8"}, "xlbridge: error: {name}: no such file"),
])
def test_before_a_workbook_is_read_the_command_speaks_the_users_language(capsys, tmp_path, monkeypatch, environment,
                                                                         line):
    """A file that is missing, open in Excel, read-only...: no workbook tells the language yet; the message was
    English for every scorer.  It is in the language of the user's locale where xlbridge speaks it (gettext's
    variables, LANGUAGE first), else English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    name = tmp_path / "seizoen.xlsx"
    assert main(["recalc", str(name)]) == 2
    assert capsys.readouterr().err.splitlines() == [line.format(name=name)]


def test_a_file_problem_met_while_writing_is_told_in_the_workbooks_language(capsys, tmp_path, monkeypatch,
                                                                          built_once):
    """Once the workbook is read, its language is known: a full disk while the new version is written is told
    in Dutch for a Dutch season, whatever the user's locale, as the season's own problems are."""
    import errno

    from openpyxl import load_workbook

    from xlbridge.files import kept_parts

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setenv("LANGUAGE", "it")
    monkeypatch.setattr(kept_parts, "save_keeping", full)
    path = built_once("heeg", tmp_path / "seizoen.xlsx", language="nl")
    wb = load_workbook(path)
    wb["Seizoen"]["B3"] = "Bridgeclub Heeg, een ander seizoen"  # a change: the run writes
    wb.save(path)
    before = path.read_bytes()
    assert main(["recalc", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"xlbridge: fout: {path}: de schijf is vol (geen ruimte meer op het apparaat); er is niets gewijzigd: maak "
        "wat ruimte vrij en voer het daarna opnieuw uit"]
    assert path.read_bytes() == before


def test_a_value_with_a_line_break_gives_a_message_of_one_line(capsys, tmp_path, built_once):
    """A pair id typed with Alt+Enter ('OSP2' over 'X'): its message was split over two lines, the second
    without the 'xlbridge: error:' prefix; one line per problem is the promise (docs/errors.md)."""
    from openpyxl import load_workbook

    path = built_once("bridgemania", tmp_path / "bm.xlsx", language="en")
    wb = load_workbook(path)
    wb["T01"]["A21"] = "OSP2\nX"
    wb.save(path)
    assert main(["recalc", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert all(line.startswith("xlbridge: ") for line in lines), lines
    assert any("OSP2 / X" in line for line in lines), lines


def test_bridgemania_messages_name_the_sheets_as_the_scorer_sees_them(capsys, tmp_path, built_once):
    """An Italian season said 'copiare 'Blank tournament'' and 'l'elenco dei tornei di Season': the English
    names of sheets the scorer knows as 'Torneo vuoto' and 'Stagione'."""
    from openpyxl import load_workbook

    path = built_once("bridgemania", tmp_path / "stagione.xlsx", language="it")
    wb = load_workbook(path)
    del wb["T03"]
    wb.copy_worksheet(wb["T04"]).title = "T99"  # a tournament sheet the list does not name
    wb.save(path)
    assert main(["recalc", str(path)]) == 2
    errors = capsys.readouterr().err
    assert "'Torneo vuoto'" in errors and "'Blank tournament'" not in errors, errors
    assert "dei tornei di Stagione" in errors and " di Season" not in errors, errors
