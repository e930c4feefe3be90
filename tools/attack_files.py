"""Attack ``xlbridge recalc`` and ``xlbridge serve`` as a careless or hostile world would.

    python -m tools.attack_files                   # issue 25's groups: one table, exit 1 on a failure
    python -m tools.attack_files --group 11 --group 14   # some groups (by number, or the start of their title)
    python -m tools.attack_files --root /tmp/old   # another tree (e.g. an older commit), the same attacks
    python -m tools.attack_files --issue 14        # issue 14's soak run: about 10 minutes (--quick: 1)

Every run is ``python -m xlbridge ...`` in a child process started in ``--root``; the workbooks are
built with this tree's builders.  Issue 25's groups live in :mod:`tools.attacks` (one function a group;
docs/reliability.md has the table).  Issue 14's soak run (the figures in docs/reliability.md):

1. another program saves (Excel's temporary file and rename; an in-place writer
   keeping size and time), or opens the workbook (Excel's ``~$``, LibreOffice's
   ``.~lock``), at a random moment of a run on a 16x Heeg season;
2. a run is killed (SIGKILL) at a random moment;
3. bad cells and bad files: a typo in a typed cell, a stray value in XFD1048576,
   a merged computed cell, a huge merged area, a cut-off sheet, a read-only file;
4. links and limits: a backup that is a symlink, a symlinked workbook, a file
   size limit in the middle of the write;
5. the server: a heavy call beside a light one, a foreign Host, malformed
   bodies, SIGTERM.

Nothing lost means: the other program's save is the file afterwards; a killed run
leaves the old file or the complete new one (typed cells and the Lite parts
intact) and a readable backup; a refused run leaves the file byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from tools.attacks import HERE, Tree, run_groups, table


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------ the workbooks


def season(size: int, folder: Path) -> Path:
    """A Heeg season of ``size`` (1: the bundled demo) as xlbridge ships it: with the
    xlwings Lite parts and the Recalculate season button."""
    from xlbridge.excel.shipped import KINDS, build, save_atomically

    path = folder / f"heeg-{size}x.xlsx"
    if size == 1:
        return build("heeg", path, force=True)
    from bench.seasons import heeg_workbook

    save_atomically(heeg_workbook(size), path, KINDS["heeg"])
    return path


def typed_cells(path: Path) -> dict:
    """What the scorer typed: every evening's MP, inv code and pair number."""
    from openpyxl import load_workbook

    wb = load_workbook(path, read_only=True)
    out = {}
    for ws in wb.worksheets:
        if ws.title.startswith("Evening "):
            for row in ws.iter_rows(min_row=2, values_only=True):
                if row and row[0] is not None:
                    out[(ws.title, row[0])] = (row[11] if len(row) > 11 else None, row[13] if len(row) > 13 else None)
    wb.close()
    return out


def lite_parts(path: Path) -> dict:
    with zipfile.ZipFile(path) as archive:
        return {n: sha(archive.read(n)) for n in archive.namelist()
                if n.startswith(("xl/webextensions/", "xl/drawings/"))}


def complete(path: Path, typed: dict, parts: dict) -> bool:
    """A readable workbook with the scorer's cells and the Lite parts intact."""
    try:
        return typed_cells(path) == typed and lite_parts(path) == parts
    except Exception:  # noqa: BLE001 - a damaged file
        return False


def leftovers(folder: Path, name: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir()
                  if p.name.startswith(f".{name}.") and (p.name.endswith(".tmp") or p.name.endswith("-lock")))


# ------------------------------------------------------------------ 1. other programs during a run


def timed_run(tree: Tree, path: Path) -> float:
    start = time.monotonic()
    code, err = tree.run("recalc", path.name, cwd=path.parent)
    assert code == 0, err
    return time.monotonic() - start


def concurrent(tree: Tree, source: Path, runs: int, rng: random.Random) -> dict:
    from openpyxl import load_workbook

    folder = source.parent / "concurrent"
    folder.mkdir()
    path = folder / "season.xlsx"
    path.write_bytes(source.read_bytes())
    duration = timed_run(tree, path)
    original = source.read_bytes()
    wb = load_workbook(source)
    wb.worksheets[0]["Z1"] = "typed in Excel meanwhile"
    wb.save(folder / "theirs.bin")
    theirs = (folder / "theirs.bin").read_bytes()
    counts = {"runs": 0, "kept": 0, "refused": 0, "lost": 0, "written while open": 0, "by": {}}
    kinds = ["excel save", "in-place save", "opened in Excel", "opened in LibreOffice"]
    for i in range(runs):
        kind = kinds[i % len(kinds)]
        path.write_bytes(original)
        for stale in folder.glob(".season.xlsx*"):
            stale.unlink()
        run = tree.start("recalc", path.name, cwd=folder)
        time.sleep(rng.uniform(0.1, 0.95) * duration)
        if run.poll() is not None:  # finished first: the other program saves after it, nothing to detect
            continue
        if kind == "excel save":
            (folder / "EXCEL1.tmp").write_bytes(theirs)
            os.replace(folder / "EXCEL1.tmp", path)
            expected = theirs
        elif kind == "in-place save":
            info = os.stat(path)
            data = bytearray(path.read_bytes())
            data[10:12] = bytes([data[10] ^ 0x21, data[11] ^ 0x01])
            with open(path, "r+b") as handle:
                handle.write(data)
            os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
            expected = bytes(data)
        else:
            owner = folder / ("~$season.xlsx" if kind == "opened in Excel" else ".~lock.season.xlsx#")
            owner.write_text("someone")
            opened_at = time.time_ns()
            expected = path.read_bytes()
        _, err = run.communicate(timeout=600)
        counts["runs"] += 1
        by = counts["by"].setdefault(kind, {"runs": 0, "refused": 0, "lost": 0})
        by["runs"] += 1
        if kind.startswith("opened"):
            (folder / ("~$season.xlsx" if kind == "opened in Excel" else ".~lock.season.xlsx#")).unlink()
            written = path.read_bytes() != expected and os.stat(path).st_mtime_ns > opened_at  # a version made after
            counts["written while open"] += written
            by["lost"] += written
            counts["kept"] += not written
        else:
            lost = path.read_bytes() != expected
            counts["lost"] += lost
            by["lost"] += lost
            counts["kept"] += not lost
        refused = run.returncode == 2
        counts["refused"] += refused
        by["refused"] += refused
    counts["seconds per run"] = round(duration, 1)
    return counts


# ------------------------------------------------------------------ 2. killed runs


def kills(tree: Tree, source: Path, runs: int, rng: random.Random) -> dict:
    folder = source.parent / "kills"
    folder.mkdir()
    path = folder / "season.xlsx"
    original = source.read_bytes()
    path.write_bytes(original)
    duration = timed_run(tree, path)
    typed, parts = typed_cells(source), lite_parts(source)
    counts = {"runs": runs, "old file": 0, "new file": 0, "damaged or incomplete": 0, "backup damaged": 0,
              "temporary or lock files left": 0, "left after the next run": 0}
    for _ in range(runs):
        path.write_bytes(original)
        run = tree.start("recalc", path.name, cwd=folder)
        time.sleep(rng.uniform(0.05, 1.0) * duration)
        run.send_signal(signal.SIGKILL)
        run.wait()
        if path.read_bytes() == original:
            counts["old file"] += 1
        elif complete(path, typed, parts):
            counts["new file"] += 1
        else:
            counts["damaged or incomplete"] += 1
        backup = folder / "season.backup.xlsx"
        if backup.exists() and not complete(backup, typed, parts):
            counts["backup damaged"] += 1
        counts["temporary or lock files left"] += len(leftovers(folder, path.name))
        # a run that is killed leaves its temporary file; age it, as time would
        for left in leftovers(folder, path.name):
            os.utime(folder / left, (time.time() - 86400, time.time() - 86400))
    code, err = tree.run("recalc", path.name, cwd=folder)
    counts["left after the next run"] = len(leftovers(folder, path.name))
    counts["next run"] = "ok" if code == 0 else err.strip()[-200:]
    counts["seconds per run"] = round(duration, 1)
    return counts


# ------------------------------------------------------------------ 3. bad cells and bad files


def bad_cells(tree: Tree, demo: Path, count: int, rng: random.Random) -> dict:
    from openpyxl import load_workbook

    from xlbridge.files.package import rewrite

    folder = demo.parent / "bad"
    folder.mkdir()
    wb = load_workbook(demo)
    evenings = [ws.title for ws in wb.worksheets if ws.title.startswith("Evening ")]
    sheets = wb.sheetnames

    def typo(wb):  # in a round's MP (R1..R6; the MP total is computed from them)
        ws = wb[rng.choice(evenings)]
        ws.cell(row=rng.randint(2, 8), column=rng.randint(4, 9), value=rng.choice(["1O3", -5, "??", "12,5,3"]))

    def far(wb):
        wb[rng.choice(sheets)]["XFD1048576"] = "stray"

    def merged(wb):
        ws = wb[rng.choice(evenings)]
        row = rng.randint(2, 8)
        ws.merge_cells(start_row=row, start_column=15, end_row=row, end_column=16)  # over computed % cells

    def big_merge(path):
        with zipfile.ZipFile(path) as archive:
            sheet = archive.read("xl/worksheets/sheet1.xml")
        rewrite(path, {"xl/worksheets/sheet1.xml": sheet.replace(
            b"</sheetData>", b'</sheetData><mergeCells count="1"><mergeCell ref="A5000:XFD1048576"/></mergeCells>', 1)})

    def cut(path):
        with zipfile.ZipFile(path) as archive:
            sheet = archive.read("xl/worksheets/sheet1.xml")
        rewrite(path, {"xl/worksheets/sheet1.xml": sheet[: rng.randint(200, len(sheet) - 10)]})

    def read_only(path):
        os.chmod(path, 0o444)

    attacks = [("typo in a typed cell", typo, None), ("value in XFD1048576", far, None),
               ("merged computed cells", merged, None), ("huge merged area", None, big_merge),
               ("sheet XML cut off", None, cut), ("read-only file", None, read_only)]
    counts = {"runs": 0, "untouched": 0, "exit 2 with a message": 0, "recalculated (a sheet never read)": 0,
              "damaged or lost": 0, "tracebacks": 0, f"stopped after {BAD_SECONDS} s": 0, "slowest seconds": 0.0,
              "by": {}}
    for i in range(count):
        name, edit, file_edit = attacks[i % len(attacks)]
        path = folder / f"bad{i}.xlsx"
        if edit is not None:
            wb = load_workbook(demo)
            edit(wb)
            wb.save(path)
        else:
            path.write_bytes(demo.read_bytes())
            file_edit(path)
        before = path.read_bytes()
        start = time.monotonic()
        code, err = tree.run("recalc", path.name, cwd=folder, preexec=_limit_memory, timeout=BAD_SECONDS)
        seconds = time.monotonic() - start
        untouched = path.read_bytes() == before and not (folder / f"bad{i}.backup.xlsx").exists()
        # a value far out on a sheet the recalculation never reads (How to, Messages) is harmless: a normal run,
        # the file recalculated and its previous version kept as the backup
        normal = code == 0 and (folder / f"bad{i}.backup.xlsx").read_bytes() == before if code == 0 else False
        counts["runs"] += 1
        counts["untouched"] += untouched
        counts["recalculated (a sheet never read)"] += normal
        counts["damaged or lost"] += not (untouched or normal)
        counts["exit 2 with a message"] += code == 2 and err.startswith("xlbridge: error: ")
        counts["tracebacks"] += "Traceback" in err
        counts[f"stopped after {BAD_SECONDS} s"] += code == -1
        counts["slowest seconds"] = round(max(counts["slowest seconds"], seconds), 1)
        by = counts["by"].setdefault(name, {"runs": 0, "untouched": 0, "message": 0})
        by["runs"] += 1
        by["untouched"] += untouched
        by["message"] += code == 2 and err.startswith("xlbridge: error: ")
        os.chmod(path, 0o644)
    return counts


#: A bad file that keeps a run busy longer is counted as such and the run stopped (before issue 14 a huge
#: merged area kept openpyxl busy for minutes, up to the memory limit below).
BAD_SECONDS = 60


def _limit_memory() -> None:  # a child must not take the machine down (before: a 17-billion-cell grid)
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


# ------------------------------------------------------------------ 4. links and limits


def links_and_limits(tree: Tree, demo: Path, runs: int, rng: random.Random) -> dict:
    folder = demo.parent / "links"
    folder.mkdir()
    counts = {"backup link target overwritten": 0, "symlinked workbook: target updated": 0, "mode kept": 0,
              "size-limit runs": 0, "size-limit: workbook and backup intact": 0}
    # a backup that is a link to a file the scorer can write
    path = folder / "season.xlsx"
    path.write_bytes(demo.read_bytes())
    victim = folder / "precious.txt"
    victim.write_bytes(b"precious")
    (folder / "season.backup.xlsx").symlink_to(victim)
    tree.run("recalc", path.name, cwd=folder)
    counts["backup link target overwritten"] = int(victim.read_bytes() != b"precious")
    (folder / "season.backup.xlsx").unlink()
    # a workbook reached through a link
    target = folder / "real" / "season.xlsx"
    target.parent.mkdir()
    target.write_bytes(demo.read_bytes())
    os.chmod(target, 0o664)
    before = target.read_bytes()
    link = folder / "link.xlsx"
    link.symlink_to(target)
    tree.run("recalc", link.name, cwd=folder)
    counts["symlinked workbook: target updated"] = int(link.is_symlink() and target.read_bytes() != before)
    counts["mode kept"] = int(oct(os.stat(target).st_mode & 0o777) == "0o664")
    # a file-size limit in the middle of the write, with a good backup in place
    for _ in range(runs):
        path.unlink(missing_ok=True)
        (folder / "season.backup.xlsx").unlink(missing_ok=True)
        path.write_bytes(demo.read_bytes())
        tree.run("recalc", path.name, cwd=folder)
        good_backup, good = (folder / "season.backup.xlsx").read_bytes(), path.read_bytes()
        limit = int(len(good) * rng.uniform(0.05, 0.95))

        def fsize(limit=limit):
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        tree.run("recalc", path.name, cwd=folder, preexec=fsize)
        counts["size-limit runs"] += 1
        counts["size-limit: workbook and backup intact"] += (path.read_bytes() == good and
                                                            (folder / "season.backup.xlsx").read_bytes() == good_backup)
    return counts


# ------------------------------------------------------------------ 5. the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(port: int, data: bytes, host: str | None = None) -> tuple[int, str, float]:
    headers = {"Content-Type": "application/json", **({"Host": host} if host else {})}
    request = urllib.request.Request(f"http://127.0.0.1:{port}/xlwings/custom-functions-call", data=data,
                                     headers=headers)
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read().decode(), time.monotonic() - start
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), time.monotonic() - start
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        return 0, str(error), time.monotonic() - start


def call(func: str, *args) -> bytes:
    return json.dumps({"func_name": func, "args": [[[a]] for a in args], "caller_address": "Sheet1!B2",
                       "version": "0.37.8", "client": "Office.js", "runtime": "1.4", "date_format": "dd/mm/yyyy",
                       "culture_info_name": "en-US"}).encode()


def server(tree: Tree, folder: Path) -> dict:
    import threading

    port = free_port()
    env = {**tree.env, "XLWINGS_LICENSE_KEY": "noncommercial"}
    process = subprocess.Popen([sys.executable, "-m", "xlbridge", "serve", "--port", str(port), "--noncommercial",
                                "--project-dir", str(folder / "serve")], cwd=tree.root, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    out: dict = {}
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and post(port, call("award", "tr.club", 1.0, 26.0))[0] != 200:
            time.sleep(0.5)
        heavy: dict = {}
        thread = threading.Thread(target=lambda: heavy.update(answer=post(port, call("award", "tr.club", 1.0, 5e6))))
        thread.start()
        time.sleep(0.5)
        status, _, seconds = post(port, call("award", "tr.club", 1.0, 26.0, "boards=24"))
        out["light call beside a heavy one: seconds"] = round(seconds, 2)
        thread.join(300)
        out["heavy call (field 5,000,000): seconds, answer"] = (round(heavy["answer"][2], 1), heavy["answer"][1][:90])
        out["foreign Host: status"] = post(port, call("award", "tr.club", 1.0, 26.0), host="attacker.example")[0]
        out["malformed body: status"] = post(port, b"{not json")[0]
        out["unknown function: status"] = post(port, call("no_such_function", 1.0))[0]
        out["missing args: status"] = post(port, json.dumps({"func_name": "award"}).encode())[0]
        no_runtime = json.loads(call("award", "tr.club", 1.0, 26.0))
        del no_runtime["runtime"]
        out["no runtime: status"] = post(port, json.dumps(no_runtime).encode())[0]
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            code = process.wait()
        err = process.stderr.read()
        out["SIGTERM: exit code"] = code
        out["SIGTERM: error lines"] = sum(1 for line in err.splitlines() if "error" in line.lower())
    return out


# ------------------------------------------------------------------ the report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.attack_files", description=__doc__.split("\n\n")[0])
    p.add_argument("--root", type=Path, default=HERE, help="the xlbridge tree to attack (default: this one)")
    p.add_argument("--group", action="append", metavar="TITLE",
                   help="issue 25: only the group of this number (e.g. 11), or whose title starts so (repeatable)")
    p.add_argument("--issue", type=int, choices=(14, 25), default=25, help="25: the groups' table (default); "
                                                                            "14: the soak run as JSON")
    p.add_argument("--size", type=int, default=16, help="issue 14: the season for the save and kill runs (16x)")
    p.add_argument("--runs", type=int, default=12, help="issue 14: concurrent-save runs and kill runs each (12)")
    p.add_argument("--bad", type=int, default=60, help="issue 14: bad-cell and bad-file runs (60)")
    p.add_argument("--seed", type=int, default=14)
    p.add_argument("--quick", action="store_true", help="issue 14: the 1x season, 4 runs, 12 bad cells")
    p.add_argument("--skip-server", action="store_true", help="issue 14: no server attacks")
    args = p.parse_args(argv)
    tree = Tree(args.root.resolve())
    if args.issue == 25:
        with tempfile.TemporaryDirectory(prefix="xlbridge-attack-") as work:
            results = run_groups(tree, Path(work), args.group)
        print(f"tree: {tree.root}")
        print(table(results))
        return int(any(not case.held for _, cases in results for case in cases))
    return soak(tree, args)


def soak(tree: Tree, args: argparse.Namespace) -> int:
    """Issue 14's attacks, their counts as JSON."""
    if args.quick:
        args.size, args.runs, args.bad = 1, 4, 12
    rng = random.Random(args.seed)
    report: dict = {"tree": str(tree.root), "seed": args.seed}
    with tempfile.TemporaryDirectory(prefix="xlbridge-attack-") as work:
        work_path = Path(work)
        demo = season(1, work_path)
        big = demo if args.size == 1 else season(args.size, work_path)
        report["season"] = f"Heeg {args.size}x, {big.stat().st_size:,} bytes"
        sections = [("1. another program during a run", lambda: concurrent(tree, big, args.runs, rng)),
                    ("2. killed runs", lambda: kills(tree, big, args.runs, rng)),
                    ("3. bad cells and files (1x demo)", lambda: bad_cells(tree, demo, args.bad, rng)),
                    ("4. links and limits", lambda: links_and_limits(tree, demo, max(2, args.runs // 2), rng))]
        if not args.skip_server:
            sections.append(("5. xlbridge serve", lambda: server(tree, work_path)))
        for title, attack in sections:
            try:
                report[title] = attack()
            except Exception as error:  # noqa: BLE001 - the attack broke the tree: say so, go on
                report[title] = {"attack failed": f"{type(error).__name__}: {error}"}
            print(f"done: {title}", file=sys.stderr, flush=True)
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
