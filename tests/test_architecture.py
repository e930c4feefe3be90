"""The structure holds: floors, no import running up, no circle, small modules, and no
code deciding anything from the text of a message.

Floors, bottom up (docs/architecture.md):

1. ``xlbridge/rules/``, ``xlbridge/values.py`` and the package's face
   ``xlbridge/__init__.py`` (award, awards, schemes: the engine's public calls);
2. ``xlbridge/clubs/`` and ``xlbridge/examples/`` -- season logic, example data --
   and ``xlbridge/results/`` -- the scoring programs' results files read;
3. ``xlbridge/workbooks/`` -- the workbook kinds -- and ``xlbridge/files/`` -- the
   .xlsx on disk (the builders of the kinds write with it, the headless
   recalculation reads and saves with it);
4. ``xlbridge/excel/`` -- the Excel door;
5. ``xlbridge/cli.py``, ``xlbridge/__main__.py`` -- the command line.

Every import is counted, also one inside a function: a module may import from its
own floor or below.  Within the package, the module-level imports form no circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "xlbridge"
MAX_LINES = 600


def floor(module: str) -> int:
    if module == "xlbridge":
        return 1
    return {"rules": 1, "values": 1, "language": 1, "clubs": 2, "examples": 2, "results": 2, "workbooks": 3, "files": 3, "excel": 4, "cli": 5,
            "__main__": 5}[module.split(".")[1]]


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path) -> list[tuple[str, bool]]:
    """(imported xlbridge module, at module level?) for every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] != "xlbridge":
                continue
            while name not in MODULES and "." in name:
                name = name.rsplit(".", 1)[0]
            if name in MODULES:
                found.append((name, id(node) in top))
    return found


def test_no_import_runs_up_a_floor():
    upward = []
    for name, path in MODULES.items():
        for target, _ in imports(path):
            if floor(target) > floor(name):
                upward.append(f"{name} (floor {floor(name)}) imports {target} (floor {floor(target)})")
    assert not upward, "\n".join(sorted(set(upward)))


def test_no_import_circle_within_the_package():
    graph = {name: {t for t, top in imports(path) if top and t != name and not name.startswith(t + ".")
                    and not t == name.rsplit(".", 1)[0]}
             for name, path in MODULES.items()}
    # Tarjan's strongly connected components
    index, low, stack, on, circles, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    assert not circles, circles


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_over_600_lines(name):
    lines = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{name}: {lines} lines (split it by job)"


MESSAGE_NAMES = ("msg", "message", "text_of_error")


def _is_message(node: ast.AST) -> bool:
    """An expression that is a message: a name or attribute called msg/message, or
    ``str(<an exception or problem>)``."""
    if isinstance(node, ast.Name):
        return node.id in MESSAGE_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in MESSAGE_NAMES
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and node.args:
        arg = node.args[0]
        return isinstance(arg, ast.Name) and arg.id in ("error", "err", "exc", "e", "problem", "p")
    return False


@pytest.mark.slow
def test_no_code_decides_from_message_text():
    """Cells, colours and behaviour are decided on problem codes and concern fields:
    no ``"..." in msg``, ``msg.startswith(...)``, ``message == "..."`` anywhere."""
    found = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(_is_message(s) for s in sides) and any(
                        isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides):
                    found.append(f"{name}:{node.lineno}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("startswith", "endswith", "find", "index", "count") and \
                    _is_message(node.func.value):
                found.append(f"{name}:{node.lineno}")
    assert not found, "message text decides something at: " + ", ".join(found)
