"""Bigger seasons for the benchmarks, made with the clubs' own demo generators.

Size 1 is the demo season itself; size ``k`` has about ``k`` times its scored
results (``k`` = 4: twice the evenings and twice the pairs; 16: four times each
where the generator allows it).

- Heeg: :func:`xlbridge.clubs.heeg.demo.demo_season` with more periods of six
  evenings and more lines of 14-15 pairs (size 4: 6 periods, 4 lines; 16: 12
  periods, 8 lines).
- BridgeMania: the demo season at size 1; bigger seasons are generated the way
  :func:`xlbridge.clubs.bridgemania.demo.demo_season` does (participation lists
  of section B, :func:`~xlbridge.clubs.bridgemania.demo.simulate_tournament`
  boards, guests), with more base pairs and more tournaments.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import math
import random
from pathlib import Path

#: size -> (periods, evenings per period, lines) of the Heeg demo generator
#: (size 1: 3 x 6 = 18 evenings, lines A and B, 29 pairs; 4: 36 evenings, 59 pairs; 16: 72 evenings, 119 pairs)
HEEG_SIZES = {1: (3, 6, 2), 4: (6, 6, 4), 16: (12, 6, 8)}


@functools.cache
def heeg_season(size: int):
    from xlbridge.clubs.heeg.demo import demo_season

    periods, evenings, lines = HEEG_SIZES[size]
    return demo_season(2025, periods, evenings, lines=lines)


def bm_season(size: int):
    """Size 1: the demo season; size k: sqrt(k) x the base pairs and sqrt(k) x the tournaments."""
    from xlbridge.clubs import bridgemania as bm
    from xlbridge.clubs.bridgemania.demo import BASE_PAIRS, GUESTS, demo_season, simulate_tournament

    if size == 1:
        return demo_season()
    factor = int(round(math.sqrt(size)))
    rng = random.Random(2019 + size)
    base = list(BASE_PAIRS) + [
        bm.BasePair(f"X{i:02d}", (f"Player {i}a", f"Player {i}b"), f"Player {i}a & Player {i}b")
        for i in range(1, 11 * factor - len(BASE_PAIRS) + 1)
    ]
    guests = list(GUESTS) + [bm.Guest(f"OSP{i}", f"Guest pair {i}") for i in range(5, 4 * factor + 1)]
    ids = [b.id for b in base]
    reference = list(ids)
    rng.shuffle(reference)
    day = dt.date(2019, 9, 20)
    played = {p: 0 for p in ids}
    previous = None
    tournaments = []
    for number in range(1, 14 * factor + 1):
        host = reference[(number - 1) % len(reference)]
        capacity = rng.randint(max(2, 6 * factor), 11 * factor)
        others = [p for p in ids if p != host]
        unable = rng.sample(others, rng.choice([0, 1, 1, 2]) * factor)
        if previous is None:
            plist = bm.first_participation_list(reference, host, capacity, unable)
        else:
            plist = bm.next_participation_list(previous, host, capacity, played, unable)
        playing = [p for p, s in plist if s in ("O", "P")]
        status = {p: ("waiting" if s == "A" else "ill" if number % 2 else "unable") for p, s in plist if s in ("A", "I")}
        entries = playing + [g.id for g in guests[: rng.randint(0, 3 * factor)]]
        boards = rng.choice([14, 16, 18, 20, 21, 24])
        sim = simulate_tournament(entries, boards, random.Random(size * 100_000 + number))
        top = 2 * (len(entries) // 2 - 1)
        tournaments.append(bm.Tournament(
            id=f"T{number:02d}", date=day.isoformat(), host=host, scores=sim["scores"], top=top,
            status=status, hand_scores=sim["hand_scores"],
        ))
        for p in playing:
            played[p] += 1
        previous = plist
        day += dt.timedelta(days=14)
    return bm.Season(base_pairs=tuple(base), tournaments=tuple(tournaments), guests=tuple(guests),
                     reference=tuple(reference), name=f"BridgeMania benchmark season, size {size}")


@contextlib.contextmanager
def _demo_replaced(module, name: str, value):
    original = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, original)


def _shipped(kind: str):
    """The workbook of ``kind`` as the shipped build makes it, in English (the earlier runs measured the English
    workbook): built, then recalculated once."""
    from xlbridge.excel.shipped import KINDS, built

    return built(KINDS[kind].in_language("en"), False)


def bm_workbook(size: int):
    """The BridgeMania workbook of the shipped build, filled with a season of ``size``."""
    from xlbridge.clubs.bridgemania import demo as bridgemania_demo

    season = bm_season(size)
    with _demo_replaced(bridgemania_demo, "demo_season", lambda: season):
        return _shipped("bridgemania")


def heeg_workbook(size: int):
    """The Heeg workbook of the shipped build, filled with a season of ``size``."""
    from xlbridge.clubs.heeg import demo as heeg_demo

    season = heeg_season(size)
    with _demo_replaced(heeg_demo, "demo_season", lambda *a, **k: season):
        return _shipped("heeg")


WORKBOOKS = {"heeg": heeg_workbook, "bridgemania": bm_workbook}


def results_count(kind: str, size: int) -> int:
    """Scored results in the season: pair-evenings (Heeg), entry-boards (BridgeMania)."""
    if kind == "heeg":
        return len(heeg_season(size)[1])
    season = bm_season(size)
    return sum(len(v) for t in season.tournaments for v in t.scores.values())


def build_files(folder: Path, kinds, sizes) -> dict[tuple[str, int], Path]:
    """Each kind's season workbook of each size, saved in ``folder``."""
    import sys

    files = {}
    for kind in kinds:
        for size in sizes:
            print(f"[bench]   building the {kind} workbook, size {size}", file=sys.stderr, flush=True)
            path = folder / f"{kind}-{size}.xlsx"
            WORKBOOKS[kind](size).save(path)
            files[(kind, size)] = path
    return files


def typed_over(source: Path, target: Path) -> None:
    """``source`` with its first recorded computed number typed over (+1000)."""
    from openpyxl import load_workbook

    from xlbridge.workbooks.openpyxl_book import OpenpyxlBook
    from xlbridge.workbooks.record import read_record
    from xlbridge.workbooks.localised import language_of, localised

    wb = load_workbook(source)
    book = localised(OpenpyxlBook(wb), language_of(OpenpyxlBook(wb)))
    record, _ = read_record(book)
    local = getattr(book, "local", lambda name: name)  # (an English book is its own view)
    sheet, (row, col) = next((local(s), key) for s in record.sheets for key, v in record.computed(s).items()
                             if type(v) in (int, float) and v)
    wb[sheet].cell(row, col).value += 1000
    wb.save(target)
