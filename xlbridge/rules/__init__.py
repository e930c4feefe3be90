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
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from xlbridge.rules.base import Award, Option, Rank, RuleError, RuleSet, concerning, convert_ranks

__all__ = [
    "Award", "RuleError", "SchemeInfo", "award", "awards", "check_options", "MAX_UNITS", "schemes", "get_scheme",
    "parse_options", "clear_cache", "RULE_SET_MODULES",
]

#: The registry: module name -> the scheme-id prefix its schemes must carry.
RULE_SET_MODULES: dict[str, str] = {
    "xlbridge.rules.se_fsb": "se.",
    "xlbridge.rules.tr_tbf": "tr.",
    "xlbridge.rules.bm_bridgemania": "bm.",
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
    if close:
        raise RuleError("scheme.unknown", "unknown scheme {given!r}; did you mean {close}?", argument="scheme",
                        given=scheme, close=close[0])
    raise RuleError("scheme.unknown", "unknown scheme {given!r}; run 'xlbridge schemes' for the list",
                    argument="scheme", given=scheme)


def schemes() -> list[SchemeInfo]:
    """Every registered scheme, sorted by id."""
    return [
        SchemeInfo(s.id, s.title, tuple(s.units), s.source, s.section, tuple(s.options.values()))
        for _, s in sorted(_registry().items())
    ]


def parse_options(text: str | None) -> dict[str, str]:
    """Option text as typed in a cell: ``"boards=26; movement=mitchell"``.

    Separators ``;`` or newlines (a comma may be a decimal comma); names are
    case-insensitive; a name given twice is an error (the last one won without a word).

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
            raise RuleError("option.syntax", "option {option!r} must look like name=value", option=part.strip())
        key = name.strip().lower()
        if key in result and result[key] != value.strip():
            raise RuleError("option.twice", "option {option} is given twice ({first} and {second}): keep one",
                            option=key, first=result[key], second=value.strip())
        result[key] = value.strip()
    return result


def _options(rule_set: RuleSet, given: Mapping[str, Any]) -> dict[str, Any]:
    known = rule_set.options
    unknown = [name for name in given if name not in known]
    if unknown:
        names = ", ".join(known) or "none"
        raise RuleError("option.unknown", "{scheme} has no option {option!r}; its options: {names}",
                        scheme=rule_set.id, option=unknown[0], names=names)
    return {name: opt.convert(rule_set.id, given.get(name)) for name, opt in known.items()}


#: The largest field (units of one ranking) the engine takes: far above any bridge event (the rule
#: documents' tables end at a few hundred units), far below what takes long (a field of 10^7 took
#: 56 s, 10^8 exhausted memory: issue 14).  docs/reliability.md, "Bounds of the numbers in rules".
MAX_UNITS = 100_000


def check_units(rule_set: RuleSet, count: int, argument: str) -> None:
    """A field or a ranking of more than :data:`MAX_UNITS` units is a :class:`RuleError`."""
    if count > MAX_UNITS:
        try:
            shown = f"{count:,}" if count < 10**12 else f"{float(count):g}"
        except OverflowError:
            shown = "more than 1e308"
        raise RuleError("field.too-large", "{scheme}: {argument} of {shown} units is more than the largest, "
                        "{maximum:,} (no bridge event is larger)", scheme=rule_set.id, argument=argument, count=count,
                        shown=shown, maximum=MAX_UNITS)


def _field_size(rule_set: RuleSet, field: Any) -> int:
    """The number of units when ``field`` is given as a number (not a list of places)."""
    if isinstance(field, bool) or field is None:
        raise _field_not_a_number(rule_set, field)
    try:
        size = float(str(field).strip().replace(",", ".")) if isinstance(field, str) else \
            field if isinstance(field, int) else float(field)
    except (TypeError, ValueError, OverflowError):  # (TypeError: a date, a complex number)
        raise _field_not_a_number(rule_set, field) from None
    if isinstance(size, float) and not math.isfinite(size):
        raise RuleError("field.not-finite", "{scheme}: field must be a finite number of units; got {value!r}",
                        scheme=rule_set.id, argument="field", value=field)
    if size != int(size) or size < 1:
        raise RuleError("field.not-whole", "{scheme}: field must be a whole number of units from 1; got {value!r}",
                        scheme=rule_set.id, argument="field", value=field)
    check_units(rule_set, int(size), "field")
    return int(size)


def _field_not_a_number(rule_set: RuleSet, field: Any) -> RuleError:
    return RuleError("field.not-a-number", "{scheme}: field must be the number of units or the list of places; "
                     "got {value!r}", scheme=rule_set.id, argument="field", value=field)


# -- the cache of whole fields ----------------------------------------------------------
# A sheet of =AWARD(scheme, place, 26) cells asks for the same field of 26 units once per
# place.  When the field is a number, its default ranking and its awards depend only on
# the scheme, the number and the converted options, so they are computed once and kept
# (as tuples: a caller cannot change what the next caller gets; Award is frozen).  Errors
# are not kept: a wrong call raises afresh, with the same message, every time.

#: Fields kept at most (least recently used first out), and the largest field kept.
CACHE_SIZE = 1024
CACHE_MAX_UNITS = 1000

OptionsKey = tuple[tuple[str, type, Any], ...]


def _options_key(opts: Mapping[str, Any]) -> OptionsKey | None:
    """The converted options as a cache key, or None when a value cannot be one (not
    hashable).  The key holds each value's type, so 1, 1.0 and True stay apart."""
    key = tuple([(name, value.__class__, value) for name, value in opts.items()])
    try:
        hash(key)
    except TypeError:
        return None
    return key


@lru_cache(maxsize=CACHE_SIZE)
def _default_ranks(scheme_id: str, size: int, key: OptionsKey) -> tuple[Rank, ...]:
    """The checked default ranking of a field of ``size`` units (cached)."""
    rule_set, opts = _registry()[scheme_id], {name: value for name, _, value in key}
    ranks = rule_set.default_ranks(size, opts)
    rule_set.check_ranks(ranks, opts)
    return tuple(ranks)


@lru_cache(maxsize=CACHE_SIZE)
def _default_awards(scheme_id: str, size: int, key: OptionsKey) -> tuple[Award, ...]:
    """Every award of that ranking, in its order (cached)."""
    rule_set, opts = _registry()[scheme_id], {name: value for name, _, value in key}
    return tuple(rule_set.awards(list(_default_ranks(scheme_id, size, key)), opts))


def clear_cache() -> None:
    """Forget the kept fields (benchmarks use it to time a first, uncached call)."""
    _default_ranks.cache_clear()
    _default_awards.cache_clear()


def award(scheme: str, place: Any, field: Any, **options: Any) -> Award:
    """The award for one final ``place``.

    ``field`` is the number of competing units (pairs, teams or players) or the
    full list of final places (equal numbers are tied, blanks are not ranked).

    With a number, the field's awards are computed once and kept, so that a
    column of ``=AWARD(scheme, place, 26)`` cells costs one calculation of the
    field, not one per cell (up to :data:`CACHE_MAX_UNITS` units; the latest
    :data:`CACHE_SIZE` fields are kept).  The result is the same either way.
    """
    rule_set = get_scheme(scheme)
    opts = _options(rule_set, options)
    key = None  # set when the field's awards come from the cache
    ranks: Sequence[Rank]
    if isinstance(field, (list, tuple)):
        check_units(rule_set, len(field), "field")
        try:
            ranks = convert_ranks(rule_set.id, field)
            rule_set.check_ranks(ranks, opts)
        except RuleError as error:  # the ranking is the field given as a list
            raise _as_argument(error, "field") from None
    else:
        size = _field_size(rule_set, field)
        key = _options_key(opts) if size <= CACHE_MAX_UNITS else None
        if key is None:
            ranks = rule_set.default_ranks(size, opts)
            rule_set.check_ranks(ranks, opts)
        else:
            ranks = _default_ranks(rule_set.id, size, key)
    try:
        wanted = convert_ranks(rule_set.id, [place])[0]
    except RuleError:  # (its message names "rank 1" of a list: the place is one value)
        raise RuleError("place.not-a-place", "{scheme}: place must be a whole number from 1; got {value!r}",
                        scheme=rule_set.id, argument="place", value=place) from None
    if wanted is None:
        raise RuleError("place.empty", "{scheme}: place is empty", scheme=rule_set.id, argument="place")
    try:
        index = ranks.index(wanted)
    except ValueError:
        largest = max((r for r in ranks if r is not None), default=0)
        if largest < wanted <= len(ranks):  # a Mitchell's places run per direction: 1 to 13 in a field of 26
            raise RuleError("place.outside-field", "{scheme}: place {place} is not in a field of {size} whose places "
                            "run from 1 to {largest} ({options})", scheme=rule_set.id, argument="place",
                            place=int(wanted), size=len(ranks), largest=int(largest),
                            options=", ".join(f"{name}={value}" for name, value in options.items())) from None
        raise RuleError("place.outside-field", "{scheme}: place {place} is not in a field of {size}",
                        scheme=rule_set.id, argument="place", place=int(wanted), size=len(ranks)) from None
    if key is not None:
        return _default_awards(rule_set.id, size, key)[index]
    return rule_set.awards(ranks, opts)[index]


def _as_argument(error: RuleError, argument: str) -> RuleError:
    """A problem about the ranking (``argument="ranks"``) raised for the ranking given as ``argument``."""
    return concerning(error, argument=argument) if error.problem.argument == "ranks" else error


def check_options(scheme: str, **options: Any) -> None:
    """Raise :class:`RuleError` unless ``scheme`` is known and ``options`` are its options with
    valid values (what :func:`awards` checks before it looks at the ranking)."""
    _options(get_scheme(scheme), options)


def awards(scheme: str, ranks: Iterable[Any], **options: Any) -> list[Award]:
    """The award of every unit of a final ranking, in the order given."""
    rule_set = get_scheme(scheme)
    opts = _options(rule_set, options)
    given = list(ranks)
    check_units(rule_set, len(given), "ranks")
    normal = convert_ranks(rule_set.id, given)
    if not normal:
        raise RuleError("ranks.empty", "{scheme}: the ranking is empty", scheme=rule_set.id, argument="ranks")
    rule_set.check_ranks(normal, opts)
    return rule_set.awards(normal, opts)
