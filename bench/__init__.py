"""xlbridge benchmarks (run on demand, not part of the test suite).

``python -m bench`` (from the repository root) runs every benchmark and prints
one table; ``python -m bench --help`` lists the options.  See docs/performance.md.
"""
