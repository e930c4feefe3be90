"""``python -m bench [--quick] [--only engine,season,excel,peers,excel-path,headless]`` -- run the benchmarks, print one table.

Run from the repository root.  ``--quick`` is a smoke run (fewer rankings,
fewer repeats, small seasons only, the Excel path of two kinds); the figures in docs/performance.md come from
a full run.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from bench.common import Table

SECTIONS = ("engine", "season", "excel", "peers", "excel-path", "headless")


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("TQDM_DISABLE", "1")  # the formulas package's progress bars
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: fewer rankings and repeats, 1x seasons only, the Excel path of heeg and tbf-club")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated subset of {', '.join(SECTIONS)}")
    parser.add_argument("--rankings", type=int, default=None, help="number of rankings for the engine benchmark")
    args = parser.parse_args(argv)
    wanted = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    table = Table()
    started = time.perf_counter()
    for section in wanted:
        print(f"[bench] {section} ...", file=sys.stderr, flush=True)
        if section == "engine":
            from bench import bench_engine

            bench_engine.run(table, quick=args.quick, count=args.rankings)
        elif section == "season":
            from bench import bench_season

            bench_season.run(table, quick=args.quick)
        elif section == "excel":
            from bench import bench_excel

            bench_excel.run(table, quick=args.quick)
        elif section == "peers":
            from bench import bench_peers

            bench_peers.run(table, quick=args.quick)
        elif section == "excel-path":
            from bench import baseline, bench_excel_path

            bench_excel_path.run(table, quick=args.quick)
            baseline.run(table, quick=args.quick)  # the baseline commit's Excel path beside today's
        elif section == "headless":
            from bench import bench_headless

            bench_headless.run(table, quick=args.quick)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"xlbridge bench{' --quick' if args.quick else ''}: Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, load {load:.1f}, {time.perf_counter() - started:.0f} s")
    print(table.render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
