"""``xlbridge recalc`` never loses another program's work (issue 14, points 1-4).

Each test is an attack that succeeded before (the file or the backup was lost or
damaged, a link was followed, a mode or a lock file changed) and is refused or
handled now.  Another program's save "during the run" is made deterministic: it
happens inside the recalculation (``headless.recalculate_and_list`` is wrapped), between
the read and the replace, where a real save would land on a large season.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xlbridge.excel.shipped import build
from xlbridge.files import headless
from xlbridge.files.headless import FileProblem, backup_path, lock_path, recalc_path

ROOT = Path(__file__).resolve().parents[2]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def leftovers(folder: Path, keep: set[str]) -> list[str]:
    """Files in ``folder`` other than ``keep``: temporary or lock files left behind."""
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


@pytest.fixture
def club(tmp_path, built_once) -> Path:
    """A TBF club workbook with a late correction (the recalculation changes cells)."""
    path = built_once("tbf-club", tmp_path / "club.xlsx", language="en")
    wb = load_workbook(path)
    wb["Tournament"]["C20"] = 66.0
    wb.save(path)
    return path


def during_the_run(monkeypatch, action) -> None:
    """Run ``action()`` in the middle of the next recalculation."""
    real = headless.recalculate_and_list

    def recalculate(book, **kwargs):
        report = real(book, **kwargs)
        action()
        return report

    monkeypatch.setattr(headless, "recalculate_and_list", recalculate)


def excel_like_save(path: Path, value: float) -> None:
    """What Excel does: write a temporary file, then rename it over the workbook."""
    wb = load_workbook(path)
    wb["Tournament"]["H1"] = value  # the other program's work
    temp = path.with_name("EXCEL1234.tmp")
    wb.save(temp)
    os.replace(temp, path)


def in_place_save(path: Path) -> bytes:
    """A writer that rewrites the same file in place (same inode), with the same size
    and the same modification time: only the content tells (here the time stamp
    of the first zip entry, which leaves the workbook readable)."""
    info = os.stat(path)
    data = bytearray(path.read_bytes())
    data[10:12] = bytes([data[10] ^ 0x21, data[11] ^ 0x01])  # local header: last modification time
    with open(path, "r+b") as handle:
        handle.write(data)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    return bytes(data)


# ------------------------------------------------------------------ 1. lost update


@pytest.mark.parametrize("save", ["excel", "in place"])
def test_a_save_by_another_program_during_the_run_is_never_overwritten(club, monkeypatch, save):
    old_backup = backup_path(club)
    old_backup.write_bytes(b"the last good backup")
    theirs: list[bytes] = []
    if save == "excel":
        during_the_run(monkeypatch, lambda: excel_like_save(club, 4242.0))
    else:
        during_the_run(monkeypatch, lambda: theirs.append(in_place_save(club)))
    with pytest.raises(FileProblem, match="changed while it was being recalculated"):
        recalc_path(club)
    if save == "excel":
        assert load_workbook(club)["Tournament"]["H1"].value == 4242.0
    else:
        assert club.read_bytes() == theirs[0]
    assert old_backup.read_bytes() == b"the last good backup"  # the backup did not lose it either
    assert leftovers(club.parent, {club.name, old_backup.name}) == []
    monkeypatch.undo()
    recalc_path(club)  # a rerun works, and keeps their work
    again = load_workbook(club)["Tournament"]
    assert again["D20"].value == 1
    if save == "excel":
        assert again["H1"].value == 4242.0
    assert backup_path(club).read_bytes() != b"the last good backup"


@pytest.mark.parametrize("owner", ["~$club.xlsx", ".~lock.club.xlsx#"])
def test_opened_in_excel_or_libreoffice_during_the_run_nothing_is_written(club, monkeypatch, owner):
    before = digest(club)
    during_the_run(monkeypatch, lambda: (club.parent / owner).write_bytes(b"someone"))
    with pytest.raises(FileProblem, match="was opened in Excel or LibreOffice during the recalculation"):
        recalc_path(club)
    assert digest(club) == before and not backup_path(club).exists()


def test_libreoffice_lock_file_refuses_at_the_start(club):
    before = digest(club)
    (club.parent / ".~lock.club.xlsx#").write_text("LibreOffice user,host,...")
    with pytest.raises(FileProblem, match=r"is open in LibreOffice \(its \.~lock\.club\.xlsx# lock file exists\)"):
        recalc_path(club)
    assert digest(club) == before


HOLD = textwrap.dedent("""
    import fcntl, os, sys, time
    fd = os.open(sys.argv[1], os.O_RDWR)
    if sys.argv[2] == "flock":
        fcntl.flock(fd, fcntl.LOCK_EX)
    else:
        fcntl.lockf(fd, fcntl.LOCK_EX)
    print("held", flush=True)
    time.sleep(60)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="advisory locks of Unix")
@pytest.mark.parametrize("kind", ["flock", "posix"])
def test_an_advisory_lock_held_by_another_program_is_honoured(club, kind):
    before = digest(club)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(club), kind], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(FileProblem, match="is locked by another program"):
            recalc_path(club)
    finally:
        holder.kill()
        holder.wait()
    assert digest(club) == before
    recalc_path(club)  # released: it works


# ------------------------------------------------------------------ 2. macros


def macro_workbook(tmp_path: Path, vba_at: str = "xl/vbaProject.bin", signed: bool = False) -> tuple[Path, bytes]:
    """A TBF club workbook saved macro-enabled, with xlwings' own quickstart VBA project, and a score corrected
    since its last recalculation (a run that changes nothing writes nothing: the macros would not be at stake)."""
    import xlwings

    from xlbridge.files.package import add_default, add_override, add_relationship, rewrite

    quickstart = Path(xlwings.__file__).parent / "quickstart.xlsm"
    if not quickstart.exists():  # pragma: no cover
        pytest.skip("xlwings ships no quickstart.xlsm here")
    vba = zipfile.ZipFile(quickstart).read("xl/vbaProject.bin")
    path = build("tbf-club", tmp_path / "club.xlsx", language="en")
    wb = load_workbook(path)
    wb["Tournament"]["C28"] = 70.0  # pair 20 (last) scored 70 %: first now
    wb.save(path)
    with zipfile.ZipFile(path) as archive:
        rels, types = archive.read("xl/_rels/workbook.xml.rels"), archive.read("[Content_Types].xml")
    rels, _ = add_relationship(rels, "http://schemas.microsoft.com/office/2006/relationships/vbaProject",
                               "/" + vba_at if not vba_at.startswith("xl/vbaProject") else "vbaProject.bin")
    types, _ = add_default(types, "bin", "application/vnd.ms-office.vbaProject")
    types = types.replace(b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
                          b"application/vnd.ms-excel.sheet.macroEnabled.main+xml")
    parts = {"xl/_rels/workbook.xml.rels": rels, vba_at: vba}
    if signed:
        types = add_override(types, "xl/vbaProjectSignature.bin", "application/vnd.ms-office.vbaProjectSignature")
        parts["xl/vbaProjectSignature.bin"] = b"a signature" * 20
        parts["xl/_rels/vbaProject.bin.rels"], _ = add_relationship(
            None, "http://schemas.microsoft.com/office/2006/relationships/vbaProjectSignature", "vbaProjectSignature.bin")
    parts["[Content_Types].xml"] = types
    rewrite(path, parts)
    xlsm = path.with_suffix(".xlsm")
    os.replace(path, xlsm)
    return xlsm, vba


@pytest.mark.parametrize("signed", [False, True])
def test_an_xlsm_keeps_its_vba_project_and_content_type(tmp_path, signed):
    path, vba = macro_workbook(tmp_path, signed=signed)
    with zipfile.ZipFile(path) as archive:
        before = {n: archive.read(n) for n in archive.namelist() if "vbaProject" in n}
    for _ in range(2):  # (the second run changes nothing and writes nothing)
        recalc_path(path)
    for version in (path, backup_path(path)):
        with zipfile.ZipFile(version) as archive:
            assert {n: archive.read(n) for n in archive.namelist() if "vbaProject" in n} == before
            types = archive.read("[Content_Types].xml").decode()
        assert 'PartName="/xl/workbook.xml" ContentType="application/vnd.ms-excel.sheet.macroEnabled.main+xml"' in types
        if signed:
            assert "vbaProjectSignature" in types
    assert backup_path(path).name == "club.backup.xlsm"
    assert load_workbook(path, keep_vba=True)["Tournament"]["D28"].value == 1


def test_an_xlsm_whose_macros_cannot_be_kept_is_refused_untouched(tmp_path):
    path, _ = macro_workbook(tmp_path, vba_at="xl/macros/project.bin")  # not where openpyxl keeps it
    before = digest(path)
    with pytest.raises(FileProblem, match=r"its macros \(xl/macros/project\.bin.*nothing was written"):
        recalc_path(path)
    assert digest(path) == before and not backup_path(path).exists()
    assert leftovers(tmp_path, {path.name}) == []


# ------------------------------------------------------------------ 3. links and permissions


def test_a_backup_that_is_a_link_is_replaced_never_followed(club, tmp_path):
    victim = tmp_path / "elsewhere" / "precious.txt"
    victim.parent.mkdir()
    victim.write_text("not a workbook: must stay")
    backup_path(club).symlink_to(victim)
    recalc_path(club)
    assert victim.read_text() == "not a workbook: must stay"
    assert not backup_path(club).is_symlink() and backup_path(club).is_file()
    load_workbook(backup_path(club))


def test_a_backup_place_that_is_a_folder_is_refused(club):
    backup_path(club).mkdir()
    before = digest(club)
    with pytest.raises(FileProblem, match=r"club\.backup\.xlsx is a folder; nothing was changed"):
        recalc_path(club)
    assert digest(club) == before


def test_a_symlinked_workbook_updates_its_target(club, tmp_path):
    link_folder = tmp_path / "desktop"
    link_folder.mkdir()
    link = link_folder / "season.xlsx"
    link.symlink_to(club)
    recalc_path(link)
    assert link.is_symlink() and link.resolve() == club
    assert load_workbook(club)["Tournament"]["D20"].value == 1
    assert backup_path(club).exists() and not backup_path(link).exists()  # beside the real file
    assert leftovers(link_folder, {link.name}) == []


def test_two_links_to_one_file_share_one_lock(club, tmp_path, monkeypatch):
    from xlbridge.files.locks import RunLock

    link = tmp_path / "other-name.xlsx"
    link.symlink_to(club)
    monkeypatch.setattr(headless, "LOCK_WAIT_SECONDS", 0.2)
    with RunLock(lock_path(club), 1):  # a run through the real name holds it
        with pytest.raises(FileProblem, match="is being recalculated by another run"):
            recalc_path(link)


def test_mode_and_owner_are_kept(club):
    os.chmod(club, 0o664)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.chown(club, 65534, 65534)
    recalc_path(club)
    info = os.stat(club)
    assert stat.S_IMODE(info.st_mode) == 0o664
    assert stat.S_IMODE(os.stat(backup_path(club)).st_mode) == 0o664
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        assert (info.st_uid, info.st_gid) == (65534, 65534)


def test_a_read_only_workbook_is_refused(club):
    os.chmod(club, 0o444)
    before = digest(club)
    with pytest.raises(FileProblem, match="is read-only; nothing was changed"):
        recalc_path(club)
    assert digest(club) == before and stat.S_IMODE(os.stat(club).st_mode) == 0o444


def test_a_hard_linked_workbook_is_refused(club, tmp_path):
    os.link(club, tmp_path / "second-name.xlsx")
    before = digest(club)
    with pytest.raises(FileProblem, match="has 2 names"):
        recalc_path(club)
    assert digest(club) == before


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_xlbridge_new_writes_the_usual_mode(tmp_path, umask):
    old = os.umask(umask)
    try:
        path = build("tbf-club", tmp_path / "new.xlsx", language="en")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~umask


def test_no_temporary_or_lock_file_is_left_behind(club, tmp_path):
    recalc_path(club)
    assert leftovers(tmp_path, {club.name, backup_path(club).name}) == []
    with pytest.raises(FileProblem, match="no such file"):
        recalc_path(tmp_path / "clbu.xlsx")  # a mistyped name
    assert leftovers(tmp_path, {club.name, backup_path(club).name}) == []


def test_stale_temporary_files_are_cleared_safely(club, tmp_path):
    from xlbridge.files import atomic

    old = time.time() - atomic.STALE_AFTER_SECONDS - 60
    ours = tmp_path / ".club.xlsx.xlbridge-abcd1234.tmp"  # a killed run's
    fresh = tmp_path / ".club.xlsx.xlbridge-efgh5678.tmp"  # maybe a run elsewhere, still writing
    theirs = tmp_path / ".club.xlsx.abcd1234.tmp"  # another program's (or an old version's)
    target = tmp_path / "keep-me.txt"
    linked = tmp_path / ".club.xlsx.xlbridge-link0000.tmp"  # a link with our name
    for path in (ours, fresh, theirs, target):
        path.write_text("x")
    linked.symlink_to(target)
    for path in (ours, theirs, linked):
        os.utime(path, (old, old), follow_symlinks=False)
    recalc_path(club)
    assert not ours.exists()
    assert fresh.exists() and theirs.exists() and linked.is_symlink() and target.read_text() == "x"


# ------------------------------------------------------------------ 4. the backup is atomic


FSIZE = textwrap.dedent("""
    import resource, signal, sys
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write beyond the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), int(sys.argv[2])))
    from xlbridge.cli import main
    sys.exit(main(["recalc", sys.argv[1]]))
""")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="RLIMIT_FSIZE is a Unix limit")
def test_a_file_size_limit_mid_write_keeps_the_last_good_backup(club):
    recalc_path(club)  # a good backup
    wb = load_workbook(club)
    wb["Tournament"]["C21"] = 12.0
    wb.save(club)
    backup, current = digest(backup_path(club)), digest(club)
    limit = club.stat().st_size // 2  # the new version cannot be written whole
    done = subprocess.run([sys.executable, "-c", FSIZE, str(club), str(limit)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (f"xlbridge: error: {club}: the new version would be larger than this system allows "
                                   "for one file (file too large); nothing was changed")
    assert digest(backup_path(club)) == backup and digest(club) == current
    load_workbook(backup_path(club))
    assert leftovers(club.parent, {club.name, backup_path(club).name}) == []


def tmpfs(path: Path, size: str) -> bool:
    path.mkdir()
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    return done.returncode == 0


def test_a_full_disk_keeps_the_workbook_and_its_backup(tmp_path):
    disk = tmp_path / "small-disk"
    if not tmpfs(disk, "2m"):
        pytest.skip("needs root on Linux to mount a small tmpfs (the file-size limit test covers the same path)")
    try:
        club = build("tbf-club", disk / "club.xlsx", language="en")
        wb = load_workbook(club)
        wb["Tournament"]["C20"] = 66.0  # a change: the recalculation writes the backup
        wb.save(club)
        recalc_path(club)
        wb = load_workbook(club)
        wb["Tournament"]["C21"] = 12.0
        wb.save(club)
        backup, current = digest(backup_path(club)), digest(club)
        filler = disk / "filler.bin"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:  # fill the disk, then free less than one workbook
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError as error:
            assert error.errno == errno.ENOSPC
        finally:
            os.ftruncate(fd, max(0, os.fstat(fd).st_size - club.stat().st_size // 2))
            os.close(fd)
        with pytest.raises(FileProblem, match=r"the disk is full \(no space left on device\); nothing was changed"):
            recalc_path(club)
        assert digest(backup_path(club)) == backup and digest(club) == current
        assert leftovers(disk, {club.name, backup_path(club).name, filler.name}) == []
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


# ------------------------------------------------------------------ errno texts


def no_write_override() -> tuple[str, ...] | None:
    """How a child is really denied writing in a ``555`` folder: as any user but root, by the mode; as
    root, without the capability to override it (util-linux's setpriv); None where neither works."""
    import shutil

    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return ()
    return ("setpriv", "--bounding-set=-dac_override,-dac_read_search", "--") if shutil.which("setpriv") else None


FOLDER_READ_ONLY = ("xlbridge: error: club.xlsx: its folder does not let you create files (xlbridge writes the new "
                    "version and the backup beside the workbook, then renames them into place); nothing was changed: "
                    "copy the workbook to a folder of your own, or ask for write access to this one")


def test_a_folder_the_user_cannot_write_is_named(club, tmp_path, monkeypatch, capsys):
    """Issue 25: a writable workbook in a read-only folder said 'the system reported "No such file or
    directory"' (the file exists).  Really denied where the system allows (a child), else the check's
    answer for that folder denied."""
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "club.xlsx"
    path.write_bytes(club.read_bytes())
    os.chmod(path, 0o666)
    os.chmod(folder, 0o555)
    prefix = no_write_override()
    try:
        if prefix is not None:
            code = "import sys; from xlbridge.cli import main; sys.exit(main(['recalc', sys.argv[1]]))"
            done = subprocess.run([*prefix, sys.executable, "-c", code, "club.xlsx"], cwd=folder, capture_output=True,
                                  text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
            assert (done.returncode, done.stderr.strip()) == (2, FOLDER_READ_ONLY)
        else:
            real = os.access
            monkeypatch.setattr(headless.os, "access", lambda p, mode: real(p, mode) and Path(p) != folder)
            monkeypatch.chdir(folder)
            from xlbridge.cli import main

            assert main(["recalc", "club.xlsx"]) == 2
            assert capsys.readouterr().err.strip() == FOLDER_READ_ONLY
    finally:
        os.chmod(folder, 0o755)
    assert path.read_bytes() == club.read_bytes() and sorted(p.name for p in folder.iterdir()) == ["club.xlsx"]


def test_a_lock_file_that_cannot_be_made_is_permission_denied_not_no_such_file(club, monkeypatch, capsys):
    """Where the folder's permissions say nothing (a share that answers only when a file is made), the lock
    file is the first file made: its refusal is the catalogued message (before: the raw text the issue saw,
    ``[Errno 13] Permission denied: '.season.xlsx.xlbridge-lock'``, then 'No such file or directory' from the
    fall-back that opens another user's lock file for reading)."""
    from xlbridge.files import locks

    real = os.open

    def open_(path, flags, *mode):
        if str(path).endswith(".xlbridge-lock") and flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, flags, *mode)

    monkeypatch.setattr(locks.os, "open", open_)
    monkeypatch.chdir(club.parent)
    from xlbridge.cli import main

    before = digest(club)
    assert main(["recalc", club.name]) == 2
    assert capsys.readouterr().err.strip() == (
        "xlbridge: error: club.xlsx: permission denied; nothing was changed (xlbridge must be able to read the "
        "workbook and to create and replace files in its folder)")
    assert digest(club) == before
