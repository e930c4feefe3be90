"""The release table of docs/install.md: which action funcs each xlwings-server release handles.

For each release of ``runtime.RELEASES`` (prepared in the cache: its JavaScript from PyPI):
its ``Requires-Dist: xlwings``, and which of the action funcs the installed xlwings's Python
side can emit (``xlwings/pro/_xlremote.py``) its JavaScript handles -- the keys of the real
callbacks map, read from the loaded module (runner.mjs's ``handlers``)::

    python -m tests.xlwingsjs.releases            # the Markdown tables
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from tests.xlwingsjs import runtime

#: The calls of _xlremote.py that queue an action, and which argument names its func:
#: append_json_action(func=...), and the helpers that pass a func on to it.
_QUEUEING = {"append_json_action", "_append", "_set_format", "_queue", "append"}
_FUNC = re.compile(r"[a-z]+(?:[A-Z][a-z0-9]*)+")


def emitted_funcs(source: str | None = None) -> tuple[str, list[str]]:
    """(xlwings's version, every action func its Office.js engine can emit), from
    ``xlwings/pro/_xlremote.py``: every literal ``func=`` (of ``append_json_action``) and the
    camelCase literals given to the helpers that pass one on (``_append``, ``_set_format``, ``_queue``,
    ``_pending_actions.append``)."""
    import importlib.metadata
    import importlib.util

    if source is None:  # found, not imported: importing xlwings.pro asks for a licence key
        package = Path(importlib.util.find_spec("xlwings").origin).parent
        source = (package / "pro" / "_xlremote.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name not in _QUEUEING:
            continue
        found.update(k.value.value for k in node.keywords if k.arg == "func" and isinstance(k.value, ast.Constant))
        for value in node.args:
            for item in value.elts if isinstance(value, ast.Tuple) else [value]:
                if isinstance(item, ast.Constant) and isinstance(item.value, str) and _FUNC.fullmatch(item.value):
                    found.add(item.value)
    return importlib.metadata.version("xlwings"), sorted(found)


def handled(version: str) -> list[str]:
    """The action funcs the JavaScript of xlwings-server ``version`` has a callback for."""
    from tests.xlwingsjs.harness import excel_js

    return excel_js(version).handlers()


def table(releases: tuple[str, ...] = runtime.RELEASES) -> str:
    """The Markdown: per release its xlwings requirement and what it handles of what xlwings emits;
    per action func the releases that handle it; the funcs every release from 1.12.0 handles."""
    xlwings_version, emitted = emitted_funcs()
    handles = {v: set(handled(v)) & set(emitted) for v in releases}
    lines = [f"| xlwings-server | Requires-Dist | handles, of the {len(emitted)} action funcs xlwings "
             f"{xlwings_version} can emit | added since the release before |", "|---|---|---|---|"]
    before: set[str] = set()
    for v in releases:
        added = sorted(handles[v] - before) if before else []
        lost = sorted(before - handles[v])
        change = ", ".join(f"`{f}`" for f in added) + ("; no longer: " + ", ".join(lost) if lost else "")
        lines.append(f"| {v} | `{runtime.prepared(v).requires_xlwings}` | {len(handles[v])} | "
                     f"{change or ('-' if before else 'the first of the table')} |")
        before = handles[v]
    lines += ["", "| action func | handled by |", "|---|---|"]
    for func in emitted:
        by = [v for v in releases if func in handles[v]]
        lines.append(f"| `{func}` | {_span(by, releases)} |")
    common = sorted(set.intersection(*(handles[v] for v in releases if _key(v) >= _key("1.12.0"))))
    lines += ["", f"Handled by every release from 1.12.0 to {releases[-1]} ({len(common)}): "
              + ", ".join(f"`{f}`" for f in common)]
    return "\n".join(lines)


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def _span(by: list[str], releases: tuple[str, ...]) -> str:
    """The releases of ``by`` as one range when they are every release from the first on."""
    if not by:
        return "none"
    first = releases.index(by[0])
    if by == list(releases[first:]):
        return "all" if first == 0 else f"{by[0]} and later"
    return ", ".join(by)


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent.parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from tests.xlwingsjs.harness import close_all

    try:
        print(table())
    finally:
        close_all()
