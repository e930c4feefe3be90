"""Preparing real Pyodide runtimes for the tests, outside the git tree (needs npm and PyPI once).

Two caches, both under :func:`cache_root` (``$XLBRIDGE_PYODIDE_CACHE``, else
``$XDG_CACHE_HOME/xlbridge/pyodide``, else ``~/.cache/xlbridge/pyodide``):

- ``npm/<version>/node_modules/pyodide`` -- ``npm install pyodide@<version>``: the
  core runtime only (the interpreter, the standard library and
  ``pyodide-lock.json``; none of the distribution's package files, which xlwings
  Lite loads from a CDN);
- ``wheels/<python>-pyodide<version>-<key>/`` -- the pure-Python wheels a
  workbook's ``requirements.txt`` needs, resolved the way micropip would for
  Pyodide (see :func:`prepare_wheels`), with ``requirements-pinned.txt`` (the
  exact versions, like Lite's file of that name) and ``manifest.json``.

Both are written to a temporary folder first and renamed into place, so a
broken or concurrent preparation never leaves a half-filled cache.  Nothing
here is used at test time except the files: a prepared runtime runs offline.

Command line (``.ci/run`` calls it before pytest; the tests call the same
functions when a cache is missing)::

    python -m tests.pyodide.runtime prepare            # everything the tests use
    python -m tests.pyodide.runtime prepare --version 314.0.7 --requirements requirements.txt
    python -m tests.pyodide.runtime where              # the cache folder
"""

from __future__ import annotations

import argparse
import email.parser
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

#: The newest Pyodide 314.x on npm (``npm view pyodide versions --json``, 2026-11-30:
#: 314.0.7 is also npm's ``latest``; 315.0.0 exists only as alphas).  Stable xlwings
#: Lite runs on 314.x; the tests run every workbook on this version as well as on
#: the one the workbook names.  Raise it when a newer 314.0.x is published.
LATEST_PYODIDE = "314.0.7"

#: The Pyodide of the workbooks xlwings Lite saved up to add-in 1.0.0.0-18 (2025; the 0.27
#: line is still on npm).  The harness self-test runs on it as well as on every version
#: the shipped tests use, so the harness keeps working with both runtime generations
#: (0.27: pyodide.asm.js and Python 3.12; 314: pyodide.asm.mjs and Python 3.14).
EARLIER_PYODIDE = "0.27.5"

#: Bump when the resolution below changes what ends up in a wheel cache.
RESOLVER_VERSION = 1

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

NPM_TIMEOUT = 600
PIP_TIMEOUT = 300


class PreparationError(RuntimeError):
    """A runtime or a wheel set cannot be prepared; the message says what and why.

    ``definitive``: PyPI answered and has no such wheel (remembered in the cache, so an
    offline run reports the same; ``prepare --refresh`` asks again), as opposed to a
    registry that could not be reached (asked again next time)."""

    def __init__(self, message: str, *, definitive: bool = False):
        super().__init__(message)
        self.definitive = definitive


# ------------------------------------------------------------------ cache location


def cache_root() -> Path:
    """Where prepared runtimes live (outside the git tree unless told otherwise)."""
    explicit = os.environ.get("XLBRIDGE_PYODIDE_CACHE")
    if explicit:
        return Path(explicit).expanduser().resolve()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser().resolve() / "xlbridge" / "pyodide"


def _fresh_dir(parent: Path, prefix: str) -> Path:
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{prefix}.", suffix=".tmp", dir=parent))


def _move_into_place(temp: Path, target: Path) -> None:
    """Rename a finished temporary folder to ``target``; another process that got
    there first wins (its result is as good as ours)."""
    try:
        os.rename(temp, target)
    except OSError:
        if not target.exists():
            raise
        shutil.rmtree(temp, ignore_errors=True)


# ------------------------------------------------------------------ Pyodide from npm


@dataclass(frozen=True)
class PyodideDist:
    """One Pyodide version's npm package, installed in the cache."""

    version: str
    index_dir: Path  # node_modules/pyodide: indexURL for loadPyodide
    lock: dict

    @property
    def python_full(self) -> str:
        return self.lock["info"]["python"]  # e.g. "3.12.7", "3.14.2"

    @property
    def python(self) -> str:
        """The Python of this Pyodide as pip's ``--python-version`` wants it ("3.12")."""
        return ".".join(self.python_full.split(".")[:2])

    @property
    def emscripten(self) -> str:
        platform = self.lock["info"].get("platform", "")  # "emscripten_3_1_58"
        return platform.removeprefix("emscripten_").replace("_", ".")

    def package(self, name: str) -> dict | None:
        return self.lock["packages"].get(canonical(name))

    def loadable_offline(self, name: str) -> bool:
        """True when the npm package itself carries the package's file (the npm
        package is the core only: today none of the distribution's packages)."""
        entry = self.package(name)
        return bool(entry) and (self.index_dir / entry["file_name"]).is_file()


def npm_dir(version: str) -> Path:
    return cache_root() / "npm" / version


def _dist_from(index_dir: Path, version: str) -> PyodideDist:
    lock = json.loads((index_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    return PyodideDist(version, index_dir, lock)


def _complete(index_dir: Path, version: str) -> bool:
    try:
        meta = json.loads((index_dir / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    needed = ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
    return meta.get("version") == version and all((index_dir / name).is_file() for name in needed)


def prepare_pyodide(version: str, *, refresh: bool = False) -> PyodideDist:
    """``npm install pyodide@<version>`` into the cache, unless it is there already."""
    if not re.fullmatch(r"[0-9A-Za-z.+-]+", version or ""):
        raise PreparationError(f"not a Pyodide version: {version!r}")
    target = npm_dir(version)
    index_dir = target / "node_modules" / "pyodide"
    if refresh and target.exists():
        shutil.rmtree(target)
    if _complete(index_dir, version):
        return _dist_from(index_dir, version)
    npm = shutil.which("npm")
    if npm is None:
        raise PreparationError("npm is not on PATH: it is needed once to install pyodide@" + version)
    temp = _fresh_dir(target.parent, version)
    try:
        (temp / "package.json").write_text('{"private": true, "description": "xlbridge test cache"}\n')
        cmd = [npm, "install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", "--loglevel=error",
               "--prefix", str(temp), f"pyodide@{version}"]
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=NPM_TIMEOUT)
        if result.returncode != 0:
            raise PreparationError(f"`npm install pyodide@{version}` failed (exit {result.returncode}):\n"
                                   + (result.stderr or result.stdout)[-3000:])
        if not _complete(temp / "node_modules" / "pyodide", version):
            raise PreparationError(f"`npm install pyodide@{version}` did not give a complete runtime in {temp}")
        if target.exists():  # an incomplete earlier attempt
            shutil.rmtree(target)
        _move_into_place(temp, target)
    finally:
        if temp.exists():
            shutil.rmtree(temp, ignore_errors=True)
    return _dist_from(index_dir, version)


# ------------------------------------------------------------------ requirements and wheels


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_lines(text: str) -> list[str]:
    """The requirement lines of a requirements.txt: comments and blank lines dropped."""
    lines = []
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if not line:
            continue
        if line.startswith("-"):
            raise PreparationError(f"requirements.txt option lines are not supported by the harness: {raw!r}")
        lines.append(line)
    return lines


def marker_environment(dist: PyodideDist) -> dict[str, str]:
    """The PEP 508 marker values inside this Pyodide (what micropip evaluates)."""
    return {
        "implementation_name": "cpython",
        "implementation_version": dist.python_full,
        "os_name": "posix",
        "platform_machine": "wasm32",
        "platform_python_implementation": "CPython",
        "platform_release": dist.emscripten,
        "platform_system": "Emscripten",
        "platform_version": "#1",
        "python_full_version": dist.python_full,
        "python_version": dist.python,
        "sys_platform": "emscripten",
    }


def _wheel_metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
        if len(names) != 1:
            raise PreparationError(f"{wheel.name}: no single .dist-info/METADATA inside")
        return email.parser.Parser().parsestr(archive.read(names[0]).decode("utf-8"))


@dataclass
class Chosen:
    name: str
    version: str
    source: str  # "pypi" or "pyodide-npm"
    file: str | None  # the wheel's file name (pypi)
    required_by: list[str] = field(default_factory=list)
    specifiers: list[str] = field(default_factory=list)
    extras: set[str] = field(default_factory=set)
    note: str = ""


@dataclass(frozen=True)
class WheelSet:
    """The resolved packages of one requirements.txt for one Pyodide version."""

    directory: Path
    manifest: dict

    @property
    def wheels(self) -> list[Path]:
        """Wheel files to unpack, in install order."""
        return [self.directory / p["file"] for p in self.manifest["packages"] if p["source"] == "pypi"]

    @property
    def pyodide_packages(self) -> list[str]:
        """Packages to load from the npm package itself (``pyodide.loadPackage``)."""
        return [p["name"] for p in self.manifest["packages"] if p["source"] == "pyodide-npm"]

    @property
    def pinned(self) -> str:
        return (self.directory / "requirements-pinned.txt").read_text(encoding="utf-8")


def _key(requirements: str, dist: PyodideDist) -> str:
    # The Pyodide version is part of the key (not only its Python): micropip prefers
    # the versions of the distribution's pyodide-lock.json, and so do we.
    text = "\n".join(line.rstrip() for line in requirements.strip().splitlines())
    blob = json.dumps({"requirements": text, "python": dist.python, "pyodide": dist.version,
                       "resolver": RESOLVER_VERSION}, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def wheels_dir(requirements: str, dist: PyodideDist) -> Path:
    return cache_root() / "wheels" / f"py{dist.python}-pyodide{dist.version}-{_key(requirements, dist)}"


NETWORK_TROUBLE = re.compile(
    r"NewConnectionError|Failed to establish|Temporary failure in name resolution|Name or service not known|"
    r"Network is unreachable|ConnectTimeout|ReadTimeout|ProxyError|SSLError|Max retries exceeded|"
    r"Could not fetch URL|connection broken", re.IGNORECASE)


def _pip_download(spec: str, python: str, dest: Path) -> tuple[Path | None, str, bool]:
    """``pip download`` one pure wheel: (the wheel, "", False) or (None, pip's complaint,
    whether PyPI could not be reached)."""
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--platform", "any",
           "--python-version", python, "--disable-pip-version-check", "--quiet", "--retries", "2", "--timeout", "20",
           "-d", str(dest), spec]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT)
    wheels = sorted(dest.glob("*.whl"))
    if result.returncode == 0 and len(wheels) == 1:
        return wheels[0], "", False
    output = result.stderr + result.stdout
    lines = [line for line in output.splitlines() if line.strip()]
    return (None, "\n".join(lines[-4:]) or f"pip exit {result.returncode}, {len(wheels)} wheels",
            bool(NETWORK_TROUBLE.search(output)))


def prepare_wheels(requirements: str, dist: PyodideDist, *, refresh: bool = False) -> WheelSet:
    """The pure-Python wheels ``requirements`` needs in ``dist``, from PyPI, cached.

    Resolution follows what xlwings Lite's micropip does, as far as it can be done
    offline later: every requirement line (comments stripped) is downloaded with
    ``pip download --no-deps --only-binary=:all: --platform any --python-version
    <dist's Python>``; each wheel's ``Requires-Dist`` is read, its environment
    markers evaluated for Pyodide (``sys_platform == "emscripten"``,
    ``platform_system == "Emscripten"``, the requested extras) and the
    dependencies are fetched the same way, recursively.  A package listed in the
    distribution's ``pyodide-lock.json`` is taken from the npm package when its
    file is there (today: never -- the npm package is the core only); otherwise
    its lock version is preferred from PyPI when it satisfies the constraints (as
    micropip prefers the lock).  A package that is neither a pure wheel on PyPI
    nor in the npm package fails the preparation, naming it and who needs it.
    """
    target = wheels_dir(requirements, dist)
    manifest_path = target / "manifest.json"
    failed_path = target.with_name(target.name + ".failed.json")
    if refresh:
        failed_path.unlink(missing_ok=True)
        if target.exists():
            shutil.rmtree(target)
    if failed_path.is_file():
        failure = json.loads(failed_path.read_text(encoding="utf-8"))
        raise PreparationError(failure["message"] + f"\n(remembered from {failure['when']} in {failed_path}; "
                               "`python -m tests.pyodide.runtime prepare --refresh` asks PyPI again)",
                               definitive=True)
    if manifest_path.is_file():
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if all((target / p["file"]).is_file() for p in manifest["packages"] if p["source"] == "pypi"):
            return WheelSet(target, manifest)

    env = marker_environment(dist)
    temp = _fresh_dir(target.parent, target.name)
    try:
        return _resolve(requirements, dist, env, target, temp)
    except PreparationError as error:
        if error.definitive:
            import datetime as dt

            failed_path.write_text(json.dumps({"message": str(error), "when": dt.datetime.now().isoformat(
                timespec="seconds")}, indent=2) + "\n", encoding="utf-8")
        raise
    finally:
        if temp.exists():
            shutil.rmtree(temp, ignore_errors=True)


def _resolve(requirements: str, dist: PyodideDist, env: dict[str, str], target: Path, temp: Path) -> WheelSet:
    """prepare_wheels' work, in the temporary folder ``temp``, moved to ``target`` when done."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    chosen: dict[str, Chosen] = {}
    skipped: list[dict[str, str]] = []
    queue: list[tuple[Requirement, str]] = []
    for line in requirement_lines(requirements):
        try:
            queue.append((Requirement(line), "requirements.txt"))
        except InvalidRequirement as error:
            raise PreparationError(f"requirements.txt: cannot read {line!r}: {error}") from None
    calls = 0

    def applies(req: Requirement, extras: set[str]) -> bool:
        if req.marker is None:
            return True
        return any(req.marker.evaluate({**env, "extra": extra}) for extra in (extras or {""}))

    def fetch(req: Requirement, specifier: SpecifierSet, parent: str) -> Chosen:
        nonlocal calls
        name = canonical(req.name)
        entry = dist.package(name)
        attempts: list[tuple[str, str]] = []
        if entry and entry.get("file_name", "").endswith("-none-any.whl") \
                and specifier.contains(Version(entry["version"]), prereleases=True):
            attempts.append((f"{name}=={entry['version']}", "the version of pyodide-lock.json, from PyPI"))
        attempts.append((f"{name}{specifier}", ""))
        complaints = []
        unreachable = False
        for spec, note in attempts:
            calls += 1
            wheel, complaint, trouble = _pip_download(spec, dist.python, temp / f".dl{calls}")
            unreachable |= trouble
            if wheel is not None:
                version = _wheel_metadata(wheel)["Version"]
                final = temp / wheel.name
                if final.exists():
                    final.unlink()
                wheel.rename(final)
                return Chosen(name, version, "pypi", final.name, note=note)
            complaints.append(f"  pip download {spec}: {complaint}")
        if unreachable:
            raise PreparationError(
                f"cannot prepare {name}{specifier} (required by {parent}) for Pyodide {dist.version}: "
                "PyPI could not be reached (preparation needs it once; the tests then run offline).\n"
                + "\n".join(complaints))
        why = (f"pyodide-lock.json of Pyodide {dist.version} lists {name} {entry['version']} as "
               f"{entry['file_name']}, which the npm package does not carry (xlwings Lite loads it from "
               "the Pyodide CDN, which a test must not use)") if entry else (
               f"{name} is not part of the Pyodide {dist.version} distribution either")
        raise PreparationError(
            f"cannot prepare {name}{specifier} (required by {parent}) for Pyodide {dist.version} "
            f"(Python {dist.python}) offline: it is not a pure-Python wheel on PyPI, and {why}.\n"
            + "\n".join(complaints), definitive=True)

    def dependencies(chosen_one: Chosen, extras: set[str]) -> list[tuple[Requirement, str]]:
        label = f"{chosen_one.name} {chosen_one.version}"
        if chosen_one.source == "pyodide-npm":
            return [(Requirement(dep), label) for dep in dist.package(chosen_one.name).get("depends", [])]
        metadata = _wheel_metadata(temp / chosen_one.file)
        found = []
        for text in metadata.get_all("Requires-Dist") or []:
            dep = Requirement(text)
            if applies(dep, extras):
                found.append((dep, label + (f"[{','.join(sorted(extras))}]" if extras else "")))
            else:
                skipped.append({"requirement": text, "of": label, "reason": "marker false in Pyodide"})
        return found

    while queue:
        req, parent = queue.pop(0)
        if not applies(req, set()):
            skipped.append({"requirement": str(req), "of": parent, "reason": "marker false in Pyodide"})
            continue
        name = canonical(req.name)
        extras = {canonical(e) for e in req.extras}
        known = chosen.get(name)
        if known is not None:
            known.required_by.append(parent)
            if str(req.specifier):
                known.specifiers.append(str(req.specifier))
            combined = SpecifierSet(",".join(known.specifiers))
            new_extras = extras - known.extras
            if known.source == "pypi" and not combined.contains(Version(known.version), prereleases=True):
                # a later constraint excludes the version taken: take one that fits them all
                replacement = fetch(req, combined, parent)
                (temp / known.file).unlink(missing_ok=True)
                known.version, known.file, known.note = replacement.version, replacement.file, replacement.note
                queue.extend(dependencies(known, known.extras))
            elif known.source == "pyodide-npm" and not combined.contains(Version(known.version), prereleases=True):
                raise PreparationError(
                    f"{name}: Pyodide {dist.version} carries {known.version}, but {parent} needs {combined}")
            if new_extras:
                known.extras |= new_extras
                queue.extend(dependencies(known, new_extras))
            continue
        if dist.loadable_offline(name):
            entry = dist.package(name)
            one = Chosen(name, entry["version"], "pyodide-npm", None, [parent], [str(req.specifier)] if
                         str(req.specifier) else [], extras, note="loaded from the npm package")
            if not req.specifier.contains(Version(one.version), prereleases=True):
                raise PreparationError(
                    f"{name}: Pyodide {dist.version} carries {one.version}, but {parent} needs {req.specifier}")
        else:
            one = fetch(req, req.specifier, parent)
            one.required_by.append(parent)
            one.specifiers = [str(req.specifier)] if str(req.specifier) else []
            one.extras = set(extras)
        chosen[name] = one
        queue.extend(dependencies(one, extras))

    for leftover in temp.glob(".dl*"):
        shutil.rmtree(leftover, ignore_errors=True)
    packages = [{"name": c.name, "version": c.version, "source": c.source, "file": c.file,
                 "sha256": hashlib.sha256((temp / c.file).read_bytes()).hexdigest() if c.file else None,
                 "required_by": c.required_by, "extras": sorted(c.extras), "note": c.note}
                for c in chosen.values()]
    manifest = {"pyodide": dist.version, "python": dist.python, "requirements": requirements,
                "packages": packages, "skipped": skipped, "resolver": RESOLVER_VERSION}
    pinned = "".join(f"{p['name']}=={p['version']}\n" for p in sorted(packages, key=lambda p: p["name"]))
    (temp / "requirements-pinned.txt").write_text(pinned, encoding="utf-8")
    (temp / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    if target.exists():
        shutil.rmtree(target)
    _move_into_place(temp, target)
    return WheelSet(target, json.loads((target / "manifest.json").read_text(encoding="utf-8")))


@dataclass(frozen=True)
class Prepared:
    dist: PyodideDist
    wheels: WheelSet


_FAILED: dict[tuple[str, str], PreparationError] = {}


@lru_cache(maxsize=None)
def _prepare_cached(requirements: str, version: str) -> Prepared:
    dist = prepare_pyodide(version)
    return Prepared(dist, prepare_wheels(requirements, dist))


def prepare(requirements: str, version: str) -> Prepared:
    """Pyodide ``version`` and the wheels of ``requirements`` for it, prepared once
    per process (a failure is remembered too: it is reported, not retried, by every
    test that needs it)."""
    key = (requirements, version)
    if key in _FAILED:
        raise _FAILED[key]
    try:
        return _prepare_cached(requirements, version)
    except PreparationError as error:
        _FAILED[key] = error
        raise
    except (OSError, subprocess.SubprocessError) as error:
        _FAILED[key] = PreparationError(f"preparing Pyodide {version}: {type(error).__name__}: {error}")
        raise _FAILED[key] from error


# ------------------------------------------------------------------ what the tests use


#: The requirements of the harness self-test (tests/pyodide/test_harness.py): what the
#: xlwings Lite documentation advises (a bounded range, no exact pin) ...
HARNESS_REQUIREMENTS = "xlwings>=0.37,<0.38\n"
#: ... environment markers evaluated for Pyodide (pywin32 left out, python-dotenv in) ...
MARKERS_REQUIREMENTS = ("xlwings>=0.37,<0.38\n"
                        "pywin32>=300; sys_platform == 'win32'  # never in Pyodide\n"
                        "python-dotenv>=1,<2; platform_system == 'Emscripten'\n")
#: ... and a package Pyodide builds for itself (served from its CDN): cannot be prepared.
NO_PURE_WHEEL_REQUIREMENTS = "xlwings>=0.37,<0.38\npandas\n"


def extra_versions() -> list[str]:
    return [v.strip() for v in os.environ.get("XLBRIDGE_PYODIDE_EXTRA_VERSIONS", "").split(",") if v.strip()]


@dataclass(frozen=True)
class Shipped:
    """A shipped workbook or template and what its xlwings Lite code asks for."""

    rel: str  # path from the repository root
    kind: str
    blank: bool
    files: dict  # lite_files.extract: main.py, requirements.txt, pyodideVersion, addinVersion ({} if unreadable)
    error: str = ""  # why the files could not be read

    @property
    def named_version(self) -> str | None:
        return self.files.get("pyodideVersion")

    @property
    def versions(self) -> list[str]:
        """The Pyodide version the workbook names, LATEST_PYODIDE, EARLIER_PYODIDE (the
        runtime of a scorer whose add-in is from 2025) and any versions in
        ``$XLBRIDGE_PYODIDE_EXTRA_VERSIONS`` (comma-separated)."""
        return list(dict.fromkeys(v for v in (self.named_version, LATEST_PYODIDE, EARLIER_PYODIDE,
                                              *extra_versions()) if v))


def shipped() -> list[Shipped]:
    """Every shipped workbook and template (``xlbridge.workbooks.SHIPPED``), read now."""
    from tests import lite_files
    from xlbridge.excel.shipped import SHIPPED  # noqa: PLC0415

    found = []
    for kind, blank, rel in SHIPPED:
        try:
            found.append(Shipped(rel, kind, blank, lite_files.extract(ROOT / rel)))
        except Exception as error:  # noqa: BLE001 - a test reports it
            found.append(Shipped(rel, kind, blank, {}, f"{type(error).__name__}: {error}"))
    return found


def _version_order(version: str) -> list:
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.-]", version)]


def versions_in_use() -> list[str]:
    """Every Pyodide version the shipped tests run (the named ones, LATEST_PYODIDE and EARLIER_PYODIDE)."""
    return sorted({v for book in shipped() for v in book.versions} | {LATEST_PYODIDE}, key=_version_order)


def self_test_versions() -> list[str]:
    """The versions of the harness self-test: those in use and EARLIER_PYODIDE."""
    return sorted(set(versions_in_use()) | {EARLIER_PYODIDE}, key=_version_order)


def shipped_targets() -> list[tuple[str, str, str]]:
    """(label, requirements text, Pyodide version) for every shipped workbook and
    template on its named version and on LATEST_PYODIDE, and the harness self-test."""
    targets: dict[tuple[str, str], str] = {}
    for book in shipped():
        for version in book.versions:
            targets.setdefault((book.files.get("requirements.txt", ""), version), book.rel)
    for version in self_test_versions():
        targets.setdefault((HARNESS_REQUIREMENTS, version), "harness self-test")
    targets.setdefault((MARKERS_REQUIREMENTS, LATEST_PYODIDE), "harness self-test (markers)")
    targets.setdefault((NO_PURE_WHEEL_REQUIREMENTS, LATEST_PYODIDE), EXPECTED_TO_FAIL)
    return [(label, req, version) for (req, version), label in targets.items()]


EXPECTED_TO_FAIL = "harness self-test (a package without a pure wheel: must fail)"


def newest_on_npm(line: str = LATEST_PYODIDE.split(".")[0]) -> str | None:
    """The newest release ``<line>.x.y`` of pyodide on npm (no pre-releases), or None."""
    npm = shutil.which("npm")
    if npm is None:
        return None
    try:
        result = subprocess.run([npm, "view", "pyodide", "versions", "--json"], capture_output=True, text=True,
                                timeout=60)
        versions = json.loads(result.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    ours = [v for v in versions if re.fullmatch(rf"{re.escape(line)}\.\d+\.\d+", v)]
    return max(ours, key=_version_order, default=None)


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.pyodide.runtime", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare", help="install Pyodide and download wheels into the cache")
    prep.add_argument("--version", action="append", help="a Pyodide version (default: what the tests use)")
    prep.add_argument("--requirements", type=Path, help="a requirements.txt (default: what the tests use)")
    prep.add_argument("--refresh", action="store_true", help="re-install and re-resolve what is cached")
    prep.add_argument("--keep-going", action="store_true",
                      help="exit 0 even when something cannot be prepared (the tests report it)")
    sub.add_parser("where", help="print the cache folder")
    args = parser.parse_args(argv)
    if args.command == "where":
        print(cache_root())
        return 0
    if args.version or args.requirements:
        text = args.requirements.read_text(encoding="utf-8") if args.requirements else HARNESS_REQUIREMENTS
        targets = [(str(args.requirements or "harness self-test"), text, v)
                   for v in (args.version or [LATEST_PYODIDE])]
    else:
        targets = shipped_targets()
    print(f"Pyodide cache: {cache_root()}")
    newest = newest_on_npm()
    if newest and _version_order(newest) > _version_order(LATEST_PYODIDE):
        print(f"note: npm has pyodide {newest}; tests/pyodide/runtime.py LATEST_PYODIDE is {LATEST_PYODIDE}")
    failed = 0
    for label, text, version in targets:
        try:
            dist = prepare_pyodide(version, refresh=args.refresh)
            wheels = prepare_wheels(text, dist, refresh=args.refresh)
        except PreparationError as error:
            if label == EXPECTED_TO_FAIL and error.definitive:
                print(f"ok      Pyodide {version} for {label}: {str(error).splitlines()[0][:100]} ...")
                continue
            failed += 1
            print(f"FAILED  Pyodide {version} for {label}: {error}", file=sys.stderr, flush=True)
            continue
        pins = ", ".join(wheels.pinned.split())
        print(f"ok      Pyodide {version} (Python {dist.python}) for {label}: {pins}", flush=True)
    if failed:
        print(f"{failed} of {len(targets)} could not be prepared", file=sys.stderr)
    return 1 if failed and not args.keep_going else 0


if __name__ == "__main__":
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    sys.exit(_main())
