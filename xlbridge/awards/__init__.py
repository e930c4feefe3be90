"""The award engine: one explicit registry of schemes, and the public calls.

Every rule document is one module in this package; each module lists its schemes
in a module-level tuple ``SCHEMES``.  :data:`RULE_SET_MODULES` below is the one
place that says which modules exist -- a test checks that every scheme id is
unique, starts with its module's prefix and is documented.

>>> award("tr.club", 1, 26, boards=24)
Award(points=0.62, unit='green')
>>> print(award("tr.club", 1, 26, boards=24))
0.62 green
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from xlbridge.awards.base import Award, Option, RuleError, RuleSet, convert_ranks

__all__ = [
    "Award",
    "RuleError",
    "SchemeInfo",
    "award",
    "awards",
    "schemes",
    "get_scheme",
    "parse_options",
    "RULE_SET_MODULES",
]

#: The registry: module name -> the scheme-id prefix its schemes must carry.
RULE_SET_MODULES: dict[str, str] = {
    "xlbridge.awards.se_fsb": "se.",
    "xlbridge.awards.tr_tbf": "tr.",
    "xlbridge.awards.it_bridgemania": "bm.",
}


@dataclass(frozen=True)
class SchemeInfo:
    """What ``xlbridge schemes`` lists for one scheme."""

    id: str
    title: str
    units: tuple[str, ...]
    source: str
    section: str
    options: tuple[Option, ...]


@cache
def _registry() -> dict[str, RuleSet]:
    found: dict[str, RuleSet] = {}
    for module_name, prefix in RULE_SET_MODULES.items():
        module = importlib.import_module(module_name)
        for scheme in module.SCHEMES:
            if not scheme.id.startswith(prefix):
                raise RuntimeError(f"{module_name}: scheme {scheme.id} lacks the prefix {prefix}")
            if scheme.id in found:
                raise RuntimeError(f"scheme id {scheme.id} is registered twice")
            found[scheme.id] = scheme
    return found


def get_scheme(scheme: str) -> RuleSet:
    """The scheme object for an id (case-insensitive); a clear error otherwise."""
    registry = _registry()
    key = str(scheme).strip().lower() if scheme is not None else ""
    if key in registry:
        return registry[key]
    close = difflib.get_close_matches(key, list(registry), n=1)
    hint = f"; did you mean {close[0]}?" if close else "; run 'xlbridge schemes' for the list"
    raise RuleError(f"unknown scheme {scheme!r}{hint}")


def schemes() -> list[SchemeInfo]:
    """Every registered scheme, sorted by id."""
    return [
        SchemeInfo(s.id, s.title, tuple(s.units), s.source, s.section, tuple(s.options.values()))
        for _, s in sorted(_registry().items())
    ]


def parse_options(text: str | None) -> dict[str, str]:
    """Option text as typed in a cell: ``"boards=26; movement=mitchell"``.

    Separators ``;`` or newlines (a comma may be a decimal comma); names are
    case-insensitive.

    >>> parse_options("boards=26; Movement = mitchell")
    {'boards': '26', 'movement': 'mitchell'}
    >>> parse_options("")
    {}
    """
    result: dict[str, str] = {}
    if text is None:
        return result
    for part in str(text).replace("\n", ";").split(";"):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise RuleError(f"option {part.strip()!r} must look like name=value")
        result[name.strip().lower()] = value.strip()
    return result


def _options(rule_set: RuleSet, given: Mapping[str, Any]) -> dict[str, Any]:
    known = rule_set.options
    unknown = [name for name in given if name not in known]
    if unknown:
        names = ", ".join(known) or "none"
        raise RuleError(f"{rule_set.id} has no option {unknown[0]!r}; its options: {names}")
    return {name: opt.convert(rule_set.id, given.get(name)) for name, opt in known.items()}


def _field_ranks(rule_set: RuleSet, field: Any, options: Mapping[str, Any]) -> list[float | None]:
    if isinstance(field, (list, tuple)):
        return convert_ranks(rule_set.id, field)
    if isinstance(field, bool) or field is None:
        raise RuleError(f"{rule_set.id}: field must be the number of units or the list of places; got {field!r}")
    try:
        size = float(str(field).strip().replace(",", ".")) if isinstance(field, str) else float(field)
    except ValueError:
        raise RuleError(f"{rule_set.id}: field must be the number of units or the list of places; got {field!r}") from None
    if size != int(size) or size < 1:
        raise RuleError(f"{rule_set.id}: field must be a whole number of units from 1; got {field!r}")
    return rule_set.default_ranks(int(size), options)


def award(scheme: str, place: Any, field: Any, **options: Any) -> Award:
    """The award for one final ``place``.

    ``field`` is the number of competing units (pairs, teams or players) or the
    full list of final places (equal numbers are tied, blanks are not ranked).
    """
    rule_set = get_scheme(scheme)
    opts = _options(rule_set, options)
    ranks = _field_ranks(rule_set, field, opts)
    rule_set.check_ranks(ranks, opts)
    wanted = convert_ranks(rule_set.id, [place])[0]
    if wanted is None:
        raise RuleError(f"{rule_set.id}: place is empty")
    try:
        index = ranks.index(wanted)
    except ValueError:
        raise RuleError(f"{rule_set.id}: place {int(wanted)} is not in a field of {len(ranks)}") from None
    return rule_set.awards(ranks, opts)[index]


def awards(scheme: str, ranks: Iterable[Any], **options: Any) -> list[Award]:
    """The award of every unit of a final ranking, in the order given."""
    rule_set = get_scheme(scheme)
    opts = _options(rule_set, options)
    normal = convert_ranks(rule_set.id, list(ranks))
    if not normal:
        raise RuleError(f"{rule_set.id}: the ranking is empty")
    rule_set.check_ranks(normal, opts)
    return rule_set.awards(normal, opts)
