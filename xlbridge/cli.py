"""The ``xlbridge`` command: the headless front door.

    xlbridge demo [--dir DIR]                       recalculate the bundled Heeg club season workbook
    xlbridge demo tbf                               award the bundled TBF club tournament
    xlbridge schemes                                list every scheme
    xlbridge award tr.club --place 1 --field 26 --option boards=24
    xlbridge awards tr.club --ranks 1,2,2,4,5,6 --option boards=24
    xlbridge new tbf-club PATH [--blank] [--force] [--lang en]  write a workbook (in the club's language)
    xlbridge recalc PATH [--lang nl]                Recalculate season without Excel (the workbook in place,
                                                    in its own language)
    xlbridge next PATH [--date D] [--name T15] [--next-period]
                                                    New evening (Heeg) / New tournament (BridgeMania): the next
                                                    sheet, entered on the Season sheet (in place, with a backup)
    xlbridge serve [--host H] [--port P] [--allow-host NAME] [--time-limit S] [--workers N]
                                                    xlwings Server with xlbridge's functions (extra: server)

Errors print one line on stderr (``xlbridge: error: ...``) and exit with code 2;
a workbook with several problems prints one such line per problem.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from xlbridge.files.problems import FileProblem, from_os_error
from xlbridge.language import LANGUAGES, N_, N_plural, _, current, speaking, user_language
from xlbridge.rules import award, awards, schemes
from xlbridge.workbooks.plan import BookInputError as _BookInputError

EXIT_USAGE = 2


class CliError(Exception):
    """A problem to report on one line and exit 2: a template (a message of argparse: its own text) and its
    parameters, said in the language spoken where it is shown."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template)
        self.template, self.params = template, params

    def __str__(self) -> str:
        return _(self.template).format(**self.params) if self.params else _(self.template)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, no usage block
        raise CliError(message)


def _options(pairs: Sequence[str] | None) -> dict[str, str]:
    result: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise CliError(N_("--option {pair!r} must look like name=value"), pair=pair)
        result[name.strip().lower()] = value.strip()
    return result


def _print_awards(rows: list[tuple[Any, ...]], header: tuple[str, ...]) -> None:
    table = [tuple(str(c) for c in header)] + [tuple(str(c) for c in row) for row in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    numeric = [all(_is_number(r[i]) for r in table[1:]) for i in range(len(header))]
    for row in table:
        print("  ".join(cell.rjust(w) if numeric[i] else cell.ljust(w)
                        for i, (cell, w) in enumerate(zip(row, widths))).rstrip())


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return text == "-"
    return True


def cmd_schemes(args: argparse.Namespace) -> None:
    infos = schemes()
    if args.json:
        print(json.dumps([
            {"id": s.id, "title": s.title, "units": list(s.units), "source": s.source, "section": s.section,
             "options": [{"name": o.name, "default": o.default, "help": o.help} for o in s.options]}
            for s in infos
        ], ensure_ascii=False, indent=2))
        return
    width = max(len(s.id) for s in infos)
    for s in infos:
        print(f"{s.id.ljust(width)}  {'/'.join(s.units):<12}  {s.title}  [{s.source}, {s.section}]")


def cmd_award(args: argparse.Namespace) -> None:
    field = [part.strip() for part in args.field.split(",")] if "," in args.field else args.field
    result = award(args.scheme, args.place, field, **_options(args.option))
    if args.json:
        print(json.dumps({"scheme": args.scheme, "place": args.place, "points": result.points, "unit": result.unit,
                          **_also(result)}))
    else:
        print(result)


def cmd_awards(args: argparse.Namespace) -> None:
    ranks = [part.strip() for part in args.ranks.split(",")]
    results = awards(args.scheme, ranks, **_options(args.option))
    if args.json:
        print(json.dumps([{"rank": r, "points": a.points, "unit": a.unit, **_also(a)} for r, a in zip(ranks, results)]))
        return
    _print_awards([(r or "-", str(a).split()[0], a.unit_text) for r, a in zip(ranks, results)], ("rank", "points", "unit"))


def _also(result) -> dict:
    """An award's further currency parts (a Swedish tie across currencies: 3 sp + 7 bp), for --json."""
    return {"also": [{"points": p, "unit": u} for p, u in result.also]} if result.also else {}


def cmd_demo(args: argparse.Namespace) -> None:
    if args.which == "tbf":
        if args.lang is not None or args.dir is not None:  # (it writes no workbook and prints the engine's table)
            raise CliError(N_("--lang and --dir are for the Heeg demo; xlbridge demo tbf prints the TBF awards only"))
        _demo_tbf()
    else:
        _demo_heeg(args.dir, args.lang)


def _demo_tbf() -> None:
    from xlbridge.examples import TBF_CLUB, ranks_from_scores, tbf_club_results

    entries = tbf_club_results()
    ranks = ranks_from_scores([e.score for e in entries])
    results = awards(TBF_CLUB["scheme"], ranks, boards=TBF_CLUB["boards"])
    print(f"Bundled example: TBF club pairs tournament, {len(entries)} pairs, {TBF_CLUB['boards']} boards "
          f"(scheme {TBF_CLUB['scheme']}, TBF Masterpoint v2.0)")
    _print_awards(
        [(r, e.pair, e.players, f"{e.score:.2f}", str(a).split()[0], a.unit) for e, r, a in zip(entries, ranks, results)],
        ("place", "pair", "players", "score %", "MP", "colour"),
    )


def _demo_heeg(folder: str | None, language: str | None = None) -> None:
    """Write the bundled Heeg demo season (the same workbook as workbooks/heeg-demo.xlsx,
    built from the package; in Dutch, or ``language``), recalculate it as ``xlbridge
    recalc`` does and print the year standings in its language."""
    import tempfile
    from pathlib import Path

    from xlbridge.files.headless import recalc_path
    from xlbridge.excel.shipped import build

    target_dir = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="xlbridge-demo-"))
    target_dir.mkdir(parents=True, exist_ok=True)
    path = build("heeg", target_dir / "heeg-demo.xlsx", force=True, language=language)
    report = recalc_path(path)
    with speaking(report.language):
        _show_heeg(path, report)


def _show_heeg(path: Any, report: Any) -> None:
    import math

    from openpyxl import load_workbook

    from xlbridge.workbooks.heeg import YEAR
    from xlbridge.workbooks.heeg.declaration import RED
    from xlbridge.workbooks.localised import shown_name

    print(_("Bundled example: Bridge club Heeg season workbook (synthetic), written to {path}").format(path=path))
    print(_recalculated(path, report))
    ws = load_workbook(path)[shown_name(YEAR)]
    rows = [[c.value for c in row] for row in ws.iter_rows(min_row=1)]
    print(rows[0][0])
    header = [h for h in rows[2] if h is not None]
    star = header.index("*")
    red = RED.lstrip("#").upper()
    for row in ws.iter_rows(min_row=4):  # the red fill of the * cell, as the scorer sees it (else white)
        fill = row[star].fill
        if fill is not None and fill.fill_type == "solid" and str(fill.fgColor.rgb).upper().endswith(red):
            rows[row[0].row - 1][star] = ((rows[row[0].row - 1][star] or "") + " " + _("red")).strip()

    def shown(value: object) -> str:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "-"
        if isinstance(value, float):
            return f"{value:.2f}"
        return str(value)

    table = [tuple(shown(v) for v in row[: len(header)]) for row in rows[3:] if row and row[0] is not None]
    _print_awards(table, tuple(header))
    print(_("* = not the whole year in the A-line; red = more than 5 substitutes/absences in the year (a red * cell);"))
    print(_("champion = rank among the pairs who can be club champion. Open the workbook in Excel, or change an MP and "
            "run: xlbridge recalc PATH"))


def cmd_new(args: argparse.Namespace) -> None:
    from xlbridge.excel.shipped import build
    from xlbridge.workbooks.kinds import workbooks

    try:
        path = build(args.kind, args.path, blank=args.blank, force=args.force, language=args.lang)
    except OSError as error:  # a folder it may not write in, a full disk: the file is left as it was
        raise from_os_error(args.path, error) from None
    kind = workbooks()[args.kind]
    with speaking(args.lang or kind.language):
        print(_("wrote {path}").format(path=path))
        print(next_steps(kind.guides, path))


def cmd_recalc(args: argparse.Namespace) -> None:
    from xlbridge.files.headless import recalc_path

    report = recalc_path(args.path, backup=not args.no_backup, language=args.lang, finish=_code_put_back,
                         finish_needed=_code_lost)
    with speaking(report.language):
        for warning in report.warnings:
            _warning(warning)
        print(_recalculated(args.path, report))


def _recalculated(path: object, report: Any) -> str:
    """The line ``xlbridge recalc`` (and ``xlbridge demo``) ends with, in the language spoken."""
    from xlbridge.language import ngettext
    from xlbridge.workbooks.messages import done_text

    if report.results == 0 and not report.changes:
        return _("recalculated {path} ({kind}): {done}").format(
            path=path, kind=report.kind, done=done_text(report, f"xlbridge recalc {path}"))
    changed = ngettext(", {count} earlier value changed (listed on the Corrections sheet)",
                       ", {count} earlier values changed (listed on the Corrections sheet)",
                       len(report.changes)).format(count=len(report.changes)) if report.changes else ""
    warned = ngettext(", {count} warning above", ", {count} warnings above", len(report.warnings)).format(
        count=len(report.warnings)) if report.warnings else ""
    return _("recalculated {path} ({kind}): {count} computed cells up to date{changed}").format(
        path=path, kind=report.kind, count=report.cells_written, changed=changed) + warned


def _code_put_back(temp, workbook, report) -> None:
    """A recalculated workbook that lost its xlwings Lite code gets it back (excel/shipped.py), with a warning."""
    from xlbridge.excel.shipped import put_back_code

    warning = put_back_code(temp, workbook.sheetnames, report.kind, report.language)
    if warning is not None:
        report.warnings.append(warning)


def _code_lost(names: set[str]) -> bool:
    """Whether :func:`_code_put_back` would change a file whose parts are ``names``."""
    from xlbridge.excel.lite import WEBEXTENSION

    return WEBEXTENSION not in names


def cmd_next(args: argparse.Namespace) -> None:
    from xlbridge.files.headless import next_sheet_path
    from xlbridge.workbooks.nextsheet import added_text

    day = None
    if args.date is not None:
        from xlbridge.values import as_date

        day = as_date(args.date)
        if day is None:
            raise CliError(N_("--date {date!r} is not a date; type it as YYYY-MM-DD, e.g. 2026-12-07"),
                           date=args.date)
    put_back: list = []

    def finish(temp, workbook, found) -> None:  # (a workbook another program saved: its Lite code, as recalc)
        from xlbridge.excel.shipped import put_back_code

        put_back.append(put_back_code(temp, workbook.sheetnames, found.kind, found.language))

    found = next_sheet_path(args.path, day=day, name=args.name, next_period=args.next_period,
                            backup=not args.no_backup, language=args.lang, finish=finish)
    with speaking(found.language):
        for problem in found.pending:  # the season's, found by the recalculation after the sheet was added
            _error(problem)
        warnings = found.report.warnings if found.report is not None else []
        for warning in [*warnings, *(w for w in put_back if w is not None)]:
            _warning(warning)
        print(f"{args.path}: {added_text(found)}")


def cmd_import(args: argparse.Namespace) -> None:
    from xlbridge.files.headless import import_path
    from xlbridge.results.problems import MAX_BYTES

    try:
        with open(args.results, "rb") as f:
            data = f.read(MAX_BYTES + 1)  # (a larger file is refused by its size, unread beyond)
    except OSError as error:
        raise from_os_error(args.results, error) from None
    imported, report = import_path(args.path, data, sheet=args.sheet, ranking=args.section,
                                   backup=not args.no_backup, language=args.lang,
                                   finish=lambda temp, workbook, done: _code_put_back(temp, workbook, done[1]),
                                   source=os.path.basename(args.results))
    with speaking(report.language):
        for warning in (*imported.warnings, *report.warnings):
            _warning(warning)
        print(f"{args.path}: {imported.message(args.results)}")


NOTHING_IMPORTED = N_plural("nothing was written: fix the problem, then import again ({how})",
                            "nothing was written: fix the {count} problems, then import again ({how})")


def nothing_imported(count: int, how: str) -> str:
    from xlbridge.rules.problems import Problem

    return Problem("cli.import.nothing", NOTHING_IMPORTED, count=count, how=how).message


#: What ``xlbridge new`` says next (a template, like every message: a language can change the words).
NEXT_STEPS = N_("next: open {path} in Excel, type in the yellow cells (step by step: {guide}) and click {action}; "
                "without Excel, save it and run: xlbridge recalc {path}")


def next_steps(guides: dict[str, str], path: object) -> str:
    """What to do after ``xlbridge new``: type, then Recalculate season (in Excel or here); ``guides``:
    the kind's guide by language, where it has one (:attr:`xlbridge.workbooks.kinds.WorkbookKind.guides`)."""
    from xlbridge.language import current
    from xlbridge.rules.problems import Problem
    from xlbridge.workbooks.messages import ACTION

    guide = guides.get(current()) or guides.get("", _("the How to sheet"))
    return Problem("cli.new.next", NEXT_STEPS, path=path, guide=guide, action=_(ACTION)).message


def cmd_serve(args: argparse.Namespace) -> None:
    from xlbridge.excel import server

    limits = server.Limits(allowed_hosts=server.allowed_hosts(args.host, args.allow_host or ()),
                           time_limit=args.time_limit, script_time_limit=args.script_time_limit,
                           workers=args.workers if args.workers is not None else server.Limits.workers,
                           memory_mb=args.memory_limit)
    code = server.run(args.host, args.port, project_dir=args.project_dir, noncommercial=args.noncommercial,
                      limits=limits)
    if code:  # a stop by Ctrl+C or SIGTERM is code 0
        raise CliError(N_("the server stopped with exit code {code}"), code=code)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="xlbridge", description="Bridge masterpoint awards and club season recalculation.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str, func, text: str) -> argparse.ArgumentParser:
        s = sub.add_parser(name, help=text)
        s.set_defaults(func=func)
        return s

    s = command("schemes", cmd_schemes, "list every scheme")
    s.add_argument("--json", action="store_true")

    s = command("award", cmd_award, "the award for one final place")
    s.add_argument("scheme")
    s.add_argument("--place", required=True)
    s.add_argument("--field", required=True, help="number of units, or all places comma-separated")
    s.add_argument("--option", action="append", metavar="NAME=VALUE")
    s.add_argument("--json", action="store_true")

    s = command("awards", cmd_awards, "the awards of a whole ranking")
    s.add_argument("scheme")
    s.add_argument("--ranks", required=True, help="places comma-separated, e.g. 1,2,2,4 (empty = not ranked)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE")
    s.add_argument("--json", action="store_true")

    s = command("demo", cmd_demo, "recalculate the bundled Heeg season workbook (or: demo tbf)")
    s.add_argument("which", nargs="?", choices=["heeg", "tbf"], default="heeg",
                   help="heeg (default): the Heeg club season workbook; tbf: the TBF club tournament awards")
    s.add_argument("--dir", help="the Heeg demo: folder for its workbook (default: a new temporary folder)")
    s.add_argument("--lang", choices=LANGUAGES, help="the Heeg demo: its workbook's language (default: Dutch, the "
                                                     "club's)")

    s = command("recalc", cmd_recalc, "Recalculate season without Excel: an xlbridge workbook, in place")
    s.add_argument("path")
    s.add_argument("--no-backup", action="store_true", help="do not keep the previous version as NAME.backup.xlsx")
    s.add_argument("--lang", choices=LANGUAGES, help="the workbook's language (default: the one its sheets speak)")

    s = command("next", cmd_next, "New evening / New tournament: add the next sheet of a season workbook, in place")
    s.add_argument("path")
    s.add_argument("--date", help="its date, YYYY-MM-DD (default: one week after the last evening or tournament)")
    s.add_argument("--name", help="BridgeMania: the tournament's name (default: the next number, T14 -> T15)")
    s.add_argument("--next-period", action="store_true", help="Heeg: the evening starts the next period")
    s.add_argument("--no-backup", action="store_true", help="do not keep the previous version as NAME.backup.xlsx")
    s.add_argument("--lang", choices=LANGUAGES, help="the workbook's language (default: the one its sheets speak)")

    s = command("import", cmd_import, "type a scoring program's results (PBN or USEBIO) into an event sheet, a "
                                      "BridgeMania tournament or a Heeg evening, then recalculate, in place")
    s.add_argument("path")
    s.add_argument("results", help="the scoring program's file: PBN (.pbn) or USEBIO (.xml)")
    s.add_argument("--sheet", help="the event sheet, tournament or evening to type them into (default: the "
                                   "workbook's only event sheet; BridgeMania: the calendar's last tournament; Heeg: "
                                   "the evening of the file's date)")
    s.add_argument("--section", help="the file's ranking to import, e.g. A or 'A NS' (default: its only one; Heeg: "
                                     "every section, one line each; A imports line A's section only)")
    s.add_argument("--no-backup", action="store_true", help="do not keep the previous version as NAME.backup.xlsx")
    s.add_argument("--lang", choices=LANGUAGES, help="the workbook's language (default: the one its sheets speak)")

    s = command("new", cmd_new, "write a ready workbook (or a blank template with --blank)")
    s.add_argument("kind", help="heeg, bridgemania, tbf-club or se-masterpoints")
    s.add_argument("path")
    s.add_argument("--blank", action="store_true", help="a blank template instead of the worked example")
    s.add_argument("--force", action="store_true", help="overwrite an existing file")
    s.add_argument("--lang", choices=LANGUAGES,
                   help="the language of the workbook (default: the club's: heeg nl, bridgemania it, se-masterpoints sv, "
                        "tbf-club tr)")

    s = command("serve", cmd_serve, "run xlwings Server with xlbridge's worksheet functions and scripts")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--project-dir", help="xlwings Server project directory (keeps its .env); default: a new temporary one")
    s.add_argument("--noncommercial", action="store_true",
                   help="use xlwings under the PolyForm Noncommercial licence (else set XLWINGS_LICENSE_KEY)")
    s.add_argument("--allow-host", action="append", metavar="NAME",
                   help="a Host name to answer to besides localhost and --host (repeatable; * = any, behind a proxy "
                        "that checks it)")
    s.add_argument("--time-limit", type=float, default=10.0, metavar="SECONDS",
                   help="stop a worksheet function call after this long (default 10)")
    s.add_argument("--script-time-limit", type=float, default=120.0, metavar="SECONDS",
                   help="stop a script (Recalculate season) after this long (default 120)")
    s.add_argument("--workers", type=int, help="worker processes running the calls (default: up to 4, one per CPU)")
    s.add_argument("--memory-limit", type=int, default=2048, metavar="MB",
                   help="memory of one worker process, where the system can limit it (default 2048; 0 = none)")
    return p


DASH_NAME = N_("{name} starts with - and reads as an option; name the file as ./{name} (or put -- before it)")


def _parse(argv: list[str]) -> argparse.Namespace:
    """The arguments; a workbook name starting with ``-`` (argparse takes it for an option and then misses
    the path, or calls it unrecognised) is said to be one."""
    try:
        return parser().parse_args(argv)
    except CliError:
        dashed = next((a for a in argv if a.startswith("-") and a.lower().endswith((".xlsx", ".xlsm"))
                       and "=" not in a), None)
        if dashed is None:
            raise
        raise CliError(DASH_NAME, name=dashed) from None


def _error(message: object) -> None:
    """One error line on stderr, its prefix in the language spoken (the workbook's, for its problems)."""
    print(_("xlbridge: error: {message}").format(message=_one_line(message)), file=sys.stderr)


def _warning(message: object) -> None:
    """One warning line on stderr (the recalculation went on)."""
    print(_("xlbridge: warning: {warning}").format(warning=_one_line(message)), file=sys.stderr)


def _one_line(message: object) -> str:
    """A message on one line: a value typed with a line break in its cell (Alt+Enter: 'OSP2' over 'X') is
    shown with ' / ' where the break is (the message was split over two lines, the second without its prefix)."""
    return " / ".join(str(message).splitlines())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; it speaks the user's language (:func:`~xlbridge.language.user_language`), and a
    workbook's once it is read."""
    with speaking(user_language()):
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    args: argparse.Namespace | None = None
    try:
        args = _parse(sys.argv[1:] if argv is None else list(argv))
        args.func(args)
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
    except _BookInputError as error:
        from xlbridge.workbooks.messages import nothing_written
        from xlbridge.workbooks.nextsheet import nothing_added

        with speaking(error.language):  # in the workbook's language
            for problem in error.problems:
                _error(problem)
            path = getattr(args, "path", None)
            if getattr(args, "command", None) == "next":
                print(f"xlbridge: {nothing_added(len(error.problems), f'xlbridge next {path}')}", file=sys.stderr)
            elif getattr(args, "command", None) == "import":
                print(f"xlbridge: {nothing_imported(len(error.problems), f'xlbridge import {path} {args.results}')}",
                      file=sys.stderr)
            else:
                print(f"xlbridge: {nothing_written(len(error.problems), f'xlbridge recalc {path}' if path else '')}",
                      file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:  # never a raw "[Errno 13] ...": the catalogued message
        _error(from_os_error(error.filename or "xlbridge", error))
        return EXIT_USAGE
    except FileProblem as error:
        with speaking(error.language or current()):  # the workbook's, once it was read
            _error(error)
        return EXIT_USAGE
    except (CliError, ValueError) as error:
        _error(error)
        return EXIT_USAGE
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
