"""Preparing xlwings' own JavaScript for the tests, outside the git tree (needs PyPI once).

xlwings Lite applies a script's actions with the JavaScript of the xlwings add-in; the
same code ships in the ``xlwings-server`` wheels on PyPI (``xlwings_server/static/js``,
PolyForm Noncommercial 1.0.0: downloaded here, never committed).  For each release,
``pip download --no-deps xlwings-server==V`` and the wheel's ``static/js/**`` extracted to
``<cache>/V/js/`` (with a ``package.json`` that makes Node load the files as ES modules),
and ``<cache>/V/release.json``: the release's ``Requires-Dist`` lines.  The cache is
``$XLBRIDGE_XLWINGSJS_CACHE``, else ``$XDG_CACHE_HOME/xlbridge/xlwingsjs``, else
``~/.cache/xlbridge/xlwingsjs``.  A release is written to a temporary folder first and
renamed into place, so a broken or concurrent preparation never leaves half of one.

Command line (``.ci/run`` calls it before pytest; the tests report what is missing)::

    python -m tests.xlwingsjs.runtime prepare              # VERSIONS, what the tests run
    python -m tests.xlwingsjs.runtime prepare --releases   # also every release of the table
    python -m tests.xlwingsjs.runtime where
"""

from __future__ import annotations

import argparse
import email.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

#: The releases whose JavaScript the tests run every workbook through: 1.12.0 pairs with
#: ``xlwings>=0.36.17``, the level the xlwings Lite add-in 1.0.0.103 documents for its newest
#: features (its hosted JavaScript may be that old); 1.13.0 is the oldest that pairs with the
#: workbooks' ``xlwings>=0.37,<0.38``; 1.20.0 is the newest on PyPI (2026-12).
VERSIONS = ("1.12.0", "1.13.0", "1.20.0")

#: The releases of the table in docs/install.md (``python -m tests.xlwingsjs.releases``):
#: every xlwings-server release on PyPI from 1.11.1 to 1.20.0.
RELEASES = ("1.11.1", "1.12.0", "1.12.1", "1.13.0", "1.14.0", "1.15.0", "1.16.0", "1.17.0", "1.18.0",
            "1.19.0", "1.20.0")

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
JS_PREFIX = "xlwings_server/static/js/"
PIP_TIMEOUT = 300


class PreparationError(RuntimeError):
    """A release cannot be prepared; the message says what and why."""


def cache_root() -> Path:
    """Where the prepared releases live (outside the git tree unless told otherwise)."""
    explicit = os.environ.get("XLBRIDGE_XLWINGSJS_CACHE")
    if explicit:
        return Path(explicit).expanduser().resolve()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser().resolve() / "xlbridge" / "xlwingsjs"


@dataclass(frozen=True)
class Release:
    """One xlwings-server release's JavaScript, prepared in the cache."""

    version: str
    js_dir: Path  # the wheel's static/js
    requires: tuple[str, ...]  # its Requires-Dist lines

    @property
    def requires_xlwings(self) -> str:
        """Its ``Requires-Dist: xlwings`` (e.g. ``xlwings==0.37.8``), or "" when it names none."""
        return next((r for r in self.requires if re.match(r"xlwings\b(?![-_.\w])", r)), "")


def release_dir(version: str) -> Path:
    return cache_root() / version


def _load(version: str) -> Release | None:
    folder = release_dir(version)
    try:
        meta = json.loads((folder / "release.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    js = folder / "js"
    if meta.get("version") != version or not (js / "custom-scripts" / "index.js").is_file():
        return None
    return Release(version, js, tuple(meta["requires"]))


def prepare(version: str, *, refresh: bool = False) -> Release:
    """The JavaScript of xlwings-server ``version``, downloaded from PyPI once."""
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise PreparationError(f"not an xlwings-server release: {version!r}")
    target = release_dir(version)
    if refresh and target.exists():
        shutil.rmtree(target)
    found = _load(version)
    if found is not None:
        return found
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=f".{version}.", suffix=".tmp", dir=target.parent))
    try:
        wheel = _download(version, temp / "wheel")
        requires = _extract(wheel, temp / "js")
        (temp / "js" / "package.json").write_text('{"type": "module", "private": true}\n', encoding="utf-8")
        (temp / "release.json").write_text(json.dumps({"version": version, "wheel": wheel.name,
                                                       "requires": requires}, indent=2) + "\n", encoding="utf-8")
        shutil.rmtree(temp / "wheel")
        if target.exists():  # an incomplete earlier attempt
            shutil.rmtree(target)
        try:
            os.rename(temp, target)
        except OSError:
            if _load(version) is None:  # not another process that got there first
                raise
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    found = _load(version)
    if found is None:
        raise PreparationError(f"xlwings-server {version}: {target} is incomplete after preparing it")
    return found


def _download(version: str, dest: Path) -> Path:
    dest.mkdir(parents=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
           "--quiet", "--retries", "2", "--timeout", "20", "-d", str(dest), f"xlwings-server=={version}"]
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT)
    except (OSError, subprocess.SubprocessError) as error:
        raise PreparationError(f"`pip download xlwings-server=={version}`: {type(error).__name__}: {error}") from None
    wheels = sorted(dest.glob("xlwings_server-*.whl"))
    if result.returncode != 0 or len(wheels) != 1:
        tail = "\n".join((result.stderr + result.stdout).strip().splitlines()[-4:])
        raise PreparationError(f"`pip download xlwings-server=={version}` failed (exit {result.returncode}): {tail}")
    return wheels[0]


def _extract(wheel: Path, dest: Path) -> list[str]:
    """Unpack the wheel's ``static/js/**`` into ``dest``; its Requires-Dist lines."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.startswith(JS_PREFIX) and not n.endswith("/")]
        if not any(n.endswith("custom-scripts/index.js") for n in names):
            raise PreparationError(f"{wheel.name} has no {JS_PREFIX}custom-scripts/index.js")
        for name in names:
            out = dest / name[len(JS_PREFIX):]
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(archive.read(name))
        metadata = [n for n in archive.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
        message = email.parser.Parser().parsestr(archive.read(metadata[0]).decode("utf-8"))
    return message.get_all("Requires-Dist") or []


_FAILED: dict[str, PreparationError] = {}


def prepared(version: str) -> Release:
    """``prepare(version)`` once per process; a failure is remembered and raised again for
    every test that needs the release (reported, not retried)."""
    if version in _FAILED:
        raise _FAILED[version]
    try:
        return prepare(version)
    except PreparationError as error:
        _FAILED[version] = error
        raise


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.xlwingsjs.runtime", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare", help="download xlwings-server wheels and extract their JavaScript")
    prep.add_argument("--version", action="append", help="a release (default: VERSIONS, what the tests run)")
    prep.add_argument("--releases", action="store_true", help="also every release of the table (RELEASES)")
    prep.add_argument("--refresh", action="store_true", help="download again what is cached")
    prep.add_argument("--keep-going", action="store_true", help="exit 0 even when a release fails (the tests say why)")
    sub.add_parser("where", help="print the cache folder")
    args = parser.parse_args(argv)
    if args.command == "where":
        print(cache_root())
        return 0
    versions = list(dict.fromkeys((args.version or list(VERSIONS)) + (list(RELEASES) if args.releases else [])))
    print(f"xlwings JavaScript cache: {cache_root()}")
    failed = 0
    for version in versions:
        try:
            release = prepare(version, refresh=args.refresh)
        except PreparationError as error:
            failed += 1
            print(f"FAILED  xlwings-server {version}: {error}", file=sys.stderr, flush=True)
            continue
        print(f"ok      xlwings-server {version} ({release.requires_xlwings or 'no xlwings requirement'}): "
              f"{release.js_dir}", flush=True)
    return 1 if failed and not args.keep_going else 0


if __name__ == "__main__":
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    sys.exit(_main())
