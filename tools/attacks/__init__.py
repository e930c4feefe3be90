"""The attacks of issue 25, in groups: ``python -m tools.attack_files`` runs every group and prints one table.

A group is a function ``(tree, folder) -> list[Case]`` registered with :func:`group`, in a module of this
package (every module here is imported by :func:`load_groups`).  It attacks the xlbridge tree ``tree`` (a
child process per run, started in that tree: ``--root`` attacks another commit with the same attacks) in
its own empty ``folder`` and says, for each case, whether xlbridge held and what it did (exit code,
memory, the message).  A new group is one more decorated function; nothing else changes.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Case:
    """One attack of a group: did xlbridge hold, and what it did (for the table)."""

    name: str
    held: bool
    detail: str


Group = Callable[["Tree", Path], list[Case]]
#: title ("11. zip bombs and dense parts") -> the group's function, in the order registered
GROUPS: dict[str, Group] = {}


def group(title: str) -> Callable[[Group], Group]:
    def register(func: Group) -> Group:
        assert title not in GROUPS, title
        GROUPS[title] = func
        return func
    return register


def load_groups() -> dict[str, Group]:
    """Every group of every module of this package, ordered by title (the issue's numbers)."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return dict(sorted(GROUPS.items(), key=lambda item: [int(p) if p.isdigit() else p
                                                         for p in item[0].split(".", 1)[0].split()]))


@dataclass(frozen=True)
class Run:
    """A finished child: exit code (-1: stopped at its time limit), output, peak memory (RSS) and seconds."""

    code: int
    out: str
    err: str
    mb: float
    seconds: float

    @property
    def line(self) -> str:
        """What the scorer read: the first error on stderr (else its last line, or stdout's), shortened."""
        text = (self.err.strip() or self.out.strip()).splitlines()
        errors = [line for line in text if line.startswith("xlbridge: error: ")]
        return (errors or text or [""])[0 if errors else -1][:160]


#: A child may take this much address space: an attack that xlbridge does not bound fails (MemoryError)
#: instead of taking the machine down with it (before issue 25 a zip bomb took 4.3 GB).
CHILD_ADDRESS_SPACE = 6 << 30

#: ``python -m xlbridge`` that writes its own peak memory (in KB) to the file named first, as it exits.  Its
#: own: the kernel's VmHWM of this process's memory.  ``wait4``'s (and ``getrusage``'s) maximum is not: it
#: keeps, across ``exec``, the high-water mark of the parent the child was forked from (here, this tool).
PEAK_REPORTED = """
import atexit, runpy, sys
report = sys.argv.pop(1)

def peak():
    try:
        with open("/proc/self/status") as status:
            kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
    except OSError:  # not Linux: the maximum resident set (in bytes on macOS)
        import resource
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // (1024 if sys.platform == "darwin" else 1)
    with open(report, "w") as out:
        out.write(str(kb))

atexit.register(peak)
sys.argv[0] = "xlbridge"
runpy.run_module("xlbridge", run_name="__main__", alter_sys=True)
"""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_ADDRESS_SPACE, CHILD_ADDRESS_SPACE))


class Tree:
    """The xlbridge source tree under attack."""

    def __init__(self, root: Path):
        self.root = root
        self.env = {**os.environ, "PYTHONPATH": str(root)}
        self.env.pop("XLWINGS_ON_SERVER", None)

    def command(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "xlbridge", *args]

    def start(self, *args: str, cwd: Path, preexec=None) -> subprocess.Popen:
        return subprocess.Popen(self.command(*args), cwd=cwd, env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, preexec_fn=preexec)

    def run(self, *args: str, cwd: Path, preexec=None, timeout: float = 600) -> tuple[int, str]:
        """Run to the end: (exit code, stderr); (-1, "stopped after N s") when it takes longer than ``timeout``."""
        process = self.start(*args, cwd=cwd, preexec=preexec)
        try:
            _, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            return -1, f"stopped after {timeout:g} s"
        return process.returncode, err

    def measure(self, *args: str, cwd: Path, prefix: tuple[str, ...] = (), timeout: float = 600) -> Run:
        """``xlbridge ARGS`` (behind ``prefix``, e.g. a command that drops privileges) to its end, with its
        own peak memory (:data:`PEAK_REPORTED`; -1 when it was killed before it could say)."""
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
                tempfile.NamedTemporaryFile("r", suffix=".peak") as peak:
            start = time.monotonic()
            process = subprocess.Popen([*prefix, sys.executable, "-c", PEAK_REPORTED, peak.name, *args], cwd=cwd,
                                       env=self.env, stdout=out, stderr=err, preexec_fn=_limited)
            try:
                code = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                code = -1
            seconds = time.monotonic() - start
            out.seek(0)
            err.seek(0)
            reported = peak.read().strip()
            return Run(code, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                       int(reported) / 1024 if reported else -1.0, seconds)


def run_groups(tree: Tree, folder: Path, titles: list[str] | None = None) -> list[tuple[str, list[Case]]]:
    """Run the groups (those whose number is one of ``titles``, or whose title starts with one; default all),
    each in its own folder: ``1`` is group 1, not 11 to 15."""
    results = []
    for title, attack in load_groups().items():
        if titles and not any(title.split(".", 1)[0] == t if t.isdigit() else title.startswith(t) for t in titles):
            continue
        place = folder / f"group{len(results) + 1}"
        place.mkdir()
        try:
            cases = attack(tree, place)
        except Exception as error:  # noqa: BLE001 - the attack itself broke: a failed case, the others go on
            cases = [Case("the attack itself", False, f"{type(error).__name__}: {error}")]
        results.append((title, cases))
        print(f"done: {title}", file=sys.stderr, flush=True)
    return results


def table(results: list[tuple[str, list[Case]]]) -> str:
    """The groups with their counts, then every case with what xlbridge did (a markdown table)."""
    lines = ["| group | cases | held | failed |", "|---|---|---|---|"]
    for title, cases in results:
        held = sum(c.held for c in cases)
        lines.append(f"| {title} | {len(cases)} | {held} | {len(cases) - held} |")
    total = sum(len(cases) for _, cases in results)
    failed = sum(not c.held for _, cases in results for c in cases)
    lines += [f"| all | {total} | {total - failed} | {failed} |", "", "| group | case | held | what happened |",
              "|---|---|---|---|"]
    for title, cases in results:
        for case in cases:
            detail = case.detail.replace("|", "\\|").replace("\n", " ")
            lines.append(f"| {title.split('.', 1)[0]} | {case.name} | {'yes' if case.held else 'NO'} | {detail} |")
    return "\n".join(lines)


__all__ = ["Case", "GROUPS", "HERE", "Run", "Tree", "group", "load_groups", "run_groups", "table"]
