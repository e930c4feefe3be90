"""Feed junk to every scheme and count what escapes (issue 14; the figure in docs/reliability.md).

    python -m tools.fuzz_awards [--calls N] [--seed S]

Each call is ``award(scheme, place, field, **options)`` or ``awards(scheme, ranks,
**options)`` with arguments drawn from junk: blanks, texts, decimal commas, negative
numbers, 1e308, 10^25, 10^400, fields of 10^7 and 10^8, infinities and NaN, and the
scheme's own options with junk or valid values.  A call may answer or raise
:class:`~xlbridge.rules.problems.RuleError` (a readable message naming the scheme);
anything else -- another exception, a non-finite or negative award, a call over a
second -- is counted as a failure and printed.  The test suite runs the same idea
with hypothesis (tests/rules/test_registry.py); this runs many more calls.
"""

from __future__ import annotations

import argparse
import math
import random
import signal
import sys
import time

from xlbridge.rules import award, awards, get_scheme, schemes
from xlbridge.rules.problems import RuleError

NUMBERS = [1e308, -1e308, 10**25, 10**7, 10**8, 10**400, math.inf, -math.inf, math.nan, 1e9, 1e9 + 1,
           100_000, 100_001, 0, -1, -3, 0.5, 1.5, 2, 3, 7, 12, 26, 52, 99]
TEXTS = ["", " ", "1", "2,5", "1/3", "abc", "-3", "1e9", "1e308", "inf", "nan", "=1+1", "#REF!", "１２"]


#: A call stopped after this many seconds is a failure (and the run goes on).
LIMIT_SECONDS = 5


class TooSlow(Exception):
    pass


def _too_slow(*_: object) -> None:
    raise TooSlow


def junk(rng: random.Random):
    pick = rng.random()
    if pick < 0.45:
        return rng.choice(NUMBERS)
    if pick < 0.7:
        return rng.randint(1, 70)
    if pick < 0.9:
        return rng.choice(TEXTS)
    return rng.choice([None, True, False, [], [1, 2]])


def one_call(rng: random.Random, scheme_id: str):
    scheme = get_scheme(scheme_id)
    options = {}
    for name, opt in scheme.options.items():
        if rng.random() < 0.5:
            options[name] = rng.choice(opt.choices) if opt.choices and rng.random() < 0.5 else junk(rng)
    if rng.random() < 0.5:
        place, field = (junk(rng), junk(rng)) if rng.random() < 0.5 else (rng.randint(1, 40), rng.randint(1, 60))
        return (lambda: [award(scheme_id, place, field, **options)]), ("award", scheme_id, place, field, options)
    size = rng.randint(1, 70)
    ranks = (list(range(1, size + 1)) if rng.random() < 0.4 else
             [rng.choice([None, *range(1, size + 1)]) for _ in range(size)] if rng.random() < 0.6 else
             [junk(rng) for _ in range(rng.randint(0, 8))])
    return (lambda: awards(scheme_id, ranks, **options)), ("awards", scheme_id, ranks, options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    signal.signal(signal.SIGALRM, _too_slow)
    ids = [s.id for s in schemes()]
    answered = refused = 0
    failures: list[str] = []
    slowest = 0.0
    start = time.perf_counter()
    for n in range(args.calls):
        scheme_id = ids[n % len(ids)]
        call, args_ = one_call(rng, scheme_id)
        began = time.perf_counter()
        signal.alarm(LIMIT_SECONDS)
        try:
            result = call()
        except TooSlow:
            failures.append(f"{scheme_id}: stopped after {LIMIT_SECONDS} s: {args_!r}"[:300])
            continue
        except RuleError as error:
            refused += 1
            if not str(error).strip():
                failures.append(f"{scheme_id}: an empty message")
        except Exception as error:  # noqa: BLE001 - what the fuzzing is for
            failures.append(f"{scheme_id}: {type(error).__name__}: {error}")
        else:
            answered += 1
            if any(not math.isfinite(a.points) or a.points < 0 for a in result):
                failures.append(f"{scheme_id}: a non-finite or negative award")
        finally:
            signal.alarm(0)
        took = time.perf_counter() - began
        slowest = max(slowest, took)
        if took > 1.0:
            failures.append(f"{scheme_id}: a call took {took:.1f} s: {args_!r}"[:300])
    total = time.perf_counter() - start
    print(f"{args.calls} calls over {len(ids)} schemes (seed {args.seed}) in {total:.1f} s: {answered} answered, "
          f"{refused} refused with a RuleError, {len(failures)} failures; slowest call {slowest * 1000:.0f} ms")
    for line in failures[:20]:
        print("  " + line, flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
