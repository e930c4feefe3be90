"""The maps a newcomer reads cannot drift from the package (issue 24, point 6).

- Every module of ``xlbridge/`` is named in ``docs/architecture.md``'s floor map: by its path
  (``files/atomic.py``), or in the block of its folder -- a line holding the folder (``heeg/``) and,
  on that line or the more indented lines below it, the module's name (``read.py`` or ``read``).
  A package's ``__init__.py`` is named by its folder.
- Every top-level folder of the package is named in the README's "What is where" (``xlbridge/files/``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "xlbridge"


def floor_map() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return text.split("```", 2)[1].splitlines()


def blocks(lines: list[str], folder: str) -> list[str]:
    """The text of each block that ``folder/`` opens: its line and the lines indented deeper below."""
    found = []
    for i, line in enumerate(lines):
        match = re.search(rf"(?<![\w/]){re.escape(folder)}/", line)
        if not match:
            continue
        block = [line]
        for below in lines[i + 1:]:
            words = re.search(r"\S", re.sub(r"^ floor \d", "        ", below))
            if words is None or below.lstrip().startswith("─") or words.start() <= match.start():
                break
            block.append(below)
        found.append("\n".join(block))
    return found


def named(module: Path, lines: list[str]) -> bool:
    rel = module.relative_to(PACKAGE).as_posix()
    text = "\n".join(lines)
    if re.search(rf"(?<![\w/]){re.escape(rel)}\b", text):
        return True
    if module.parent == PACKAGE:
        return re.search(rf"(?<![\w/]){re.escape(module.name)}\b", text) is not None
    return any(re.search(rf"(?<![\w/.]){re.escape(module.stem)}(\.py)?\b", block)
               for block in blocks(lines, module.parent.name))


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if "__pycache__" not in p.parts and (p.name != "__init__.py" or p.parent == PACKAGE))


def test_every_module_is_on_the_floor_map():
    lines = floor_map()
    missing = [p.relative_to(PACKAGE).as_posix() for p in modules() if not named(p, lines)]
    assert missing == [], f"docs/architecture.md does not name: {missing}"


def test_every_package_folder_is_in_what_is_where():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## What is where", 1)[1].split("\n## ", 1)[0]
    folders = sorted(p.name for p in PACKAGE.iterdir()
                     if p.is_dir() and (p / "__init__.py").exists())
    missing = [f for f in folders if f"`xlbridge/{f}/`" not in section]
    assert missing == [], f"README's What is where does not name: {missing}"


def test_the_check_can_fail():
    lines = ["  floor 3   workbooks/        kinds", "             heeg/     declaration, read",
             "  ──────", "             other/    plan.py"]
    assert named(PACKAGE / "workbooks" / "heeg" / "read.py", lines)
    assert not named(PACKAGE / "workbooks" / "heeg" / "plan.py", lines)
    assert not named(PACKAGE / "clubs" / "heeg" / "frames.py", lines)


def test_the_classic_xlwings_setup_names_what_the_package_has():
    """docs/install.md's classic xlwings steps: the button's RunPython line and the UDF module are the package's
    (``xlbridge.excel.classic``), and the RunPython line calls a function that is there."""
    import ast

    from xlbridge.excel import classic

    install = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    assert f'RunPython "{classic.RUN_PYTHON}"' in install and f'RunPython "{classic.RUN_PYTHON}"' in classic.__doc__
    assert f"**UDF Modules** = `{classic.UDF_MODULE}`" in install
    import_line, call = ast.parse(classic.RUN_PYTHON).body
    assert [alias.name for alias in import_line.names] == [classic.__name__]
    assert ast.unparse(call.value.func) == f"{classic.__name__}.{classic.main.__name__}"
