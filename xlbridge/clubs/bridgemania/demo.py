"""A deterministic synthetic BridgeMania season (plain data, no Excel).

``demo_season()`` always returns the same :class:`~xlbridge.clubs.bridgemania.Season`:
11 base pairs, a guest register, 14 tournaments (2019-09 .. 2020-06) whose
participants follow the section B participation list, with guests, ties, a
split-pair night, penalties, a partially reversible and an irreversible
rectification, and waiting / ill / unable pairs.  Board scores are produced by
simulating each board's traveller (bridge scores -> matchpoints 0-2-4-...-TOP), so
every board adds up as a real one does; ``hand_scores`` carry the bridge scores
for the extra PTS.  All names are invented.

>>> season = demo_season()
>>> len(season.tournaments), len(season.base_pairs)
(14, 11)
"""

from __future__ import annotations

import random
from typing import Any

from xlbridge.clubs.bridgemania import (
    BasePair, Guest, Penalty, Rectification, Season, Tournament, first_participation_list, next_participation_list,
)

__all__ = ["demo_season", "simulate_tournament", "BASE_PAIRS", "GUESTS"]

#: The base pairs: their id is the two players' initials ("BE": Barbara & Elio).
BASE_PAIRS = tuple(BasePair(a[0] + b[0], (a, b), f"{a} & {b}") for a, b in (
    ("Barbara", "Elio"), ("Dino", "Giulia"), ("Gaetano", "Marta"), ("Anna", "Franco"), ("Lucia", "Sergio"),
    ("Paola", "Renato"), ("Carla", "Tommaso"), ("Marco", "Valeria"), ("Nadia", "Oreste"), ("Rita", "Umberto"),
    ("Silvia", "Zeno")))
GUESTS = tuple(Guest(f"OSP{i}", names)
               for i, names in enumerate(("Ivo & Ines", "Ugo & Ada", "Leo & Lia", "Pia & Teo"), start=1))
RESULTS = (-1100, -800, -650, -500, -300, -200, -150, -100, -50, 50, 90, 110, 140, 170, 420, 450, 620, 650, 980,
           1430, 2210)
WEIGHTS = (1, 2, 3, 4, 6, 6, 8, 10, 10, 10, 10, 10, 10, 10, 10, 10, 6, 6, 2, 1, 1)


def simulate_tournament(entries: list[str], boards: int, rng: random.Random) -> dict[str, Any]:
    """Board-by-board matchpoints of a Howell-like movement.

    Each board: the entries (minus one sit-out when their number is odd, in turn)
    are drawn into rows (NS, EW); each row gets a bridge score; NS matchpoints are
    2 per NS score beaten + 1 per tie, EW = TOP - NS.  Returns ``scores``,
    ``hand_scores`` and ``rows`` (board index -> list of (NS, EW)).
    """
    scores: dict[str, list[Any]] = {e: [] for e in entries}
    hands: dict[str, list[Any]] = {e: [] for e in entries}
    rows_of: dict[int, list[tuple[str, str]]] = {}
    n = len(entries)
    for b in range(boards):
        playing = list(entries)
        if n % 2:
            out = entries[(b // 2) % n]
            playing.remove(out)
            scores[out].append("R")
            hands[out].append("R")
        rng.shuffle(playing)
        rows = [(playing[i], playing[i + 1]) for i in range(0, len(playing), 2)]
        rows_of[b] = rows
        top = 2 * (len(rows) - 1)
        raw = rng.choices(RESULTS, weights=WEIGHTS, k=len(rows))
        for (ns, ew), r in zip(rows, raw):
            mp = sum(2 if r > o else 1 if r == o else 0 for o in raw) - 1  # minus the tie with itself
            scores[ns].append(mp)
            scores[ew].append(top - mp)
            hands[ns].append(r)
            hands[ew].append(-r)
    return {"scores": scores, "hand_scores": hands, "rows": rows_of}


def _has_tie(scores: dict[str, list[Any]], top: int) -> bool:
    totals = [sum(top / 2 if v == "R" else v for v in row) for row in scores.values()]
    return len(set(totals)) < len(totals)


def demo_season() -> Season:
    rng = random.Random(2019)
    ids = [b.id for b in BASE_PAIRS]
    reference = list(ids)
    rng.shuffle(reference)  # "mediante sorteggio viene stilata una lista di riferimento"
    dates = ["2019-09-20", "2019-10-04", "2019-10-18", "2019-11-08", "2019-11-22", "2019-12-13", "2020-01-17",
             "2020-01-31", "2020-02-14", "2020-02-28", "2020-03-13", "2020-05-22", "2020-06-12", "2020-07-03"]
    played = {p: 0 for p in ids}
    previous = None
    tournaments = []
    for number, date in enumerate(dates, start=1):
        host = reference[(number - 1) % len(reference)] if number > 1 else reference[3]
        capacity = rng.choice([6, 7, 8, 8, 9, 10, 11])
        others = [p for p in ids if p != host]
        unable = rng.sample(others, rng.choice([0, 1, 1, 2]))
        if previous is None:
            plist = first_participation_list(reference, host, capacity, unable)
        else:
            plist = next_participation_list(previous, host, capacity, played, unable)
        playing = [p for p, s in plist if s in ("O", "P")]
        status = {}
        for p, s in plist:
            if s == "A":
                status[p] = "waiting"
            elif s == "I":
                status[p] = "ill" if (number + ids.index(p)) % 2 else "unable"
        guests = [g.id for g in GUESTS[: rng.choice([0, 1, 1, 2, 3])]]
        splits: dict[str, tuple[str, str]] = {}
        entries = playing + guests
        if number == 7:  # the split-pair night: four base pairs draw new partners
            split_pairs = [p for p in playing if p != host][:4]
            players = [pl for b in BASE_PAIRS if b.id in split_pairs for pl in b.players]
            while True:  # nobody with the usual partner
                rng.shuffle(players)
                temps = [(players[i], players[i + 1]) for i in range(0, 8, 2)]
                partner = {pl: b.id for b in BASE_PAIRS for pl in b.players}
                if all(partner[a] != partner[b] for a, b in temps):
                    break
            splits = {f"S{i + 1}": t for i, t in enumerate(temps)}
            entries = [p for p in playing if p not in split_pairs] + list(splits) + guests
        boards = rng.choice([14, 16, 18, 20, 21, 24])
        attempt = 0
        while True:
            sim = simulate_tournament(entries, boards, random.Random(number * 1000 + attempt))
            rows = len(entries) // 2
            top = 2 * (rows - 1)
            if number not in (2, 6) or _has_tie(sim["scores"], top):  # ties guaranteed on nights 2 and 6
                break
            attempt += 1
        penalties: list[Penalty] = []
        rectifications: list[Rectification] = []
        if number == 3:
            ns, ew = sim["rows"][4][1]
            penalties.append(Penalty((ns, ew), "board 5: cards swapped at the table"))
        if number == 5:
            ns, ew = sim["rows"][2][0]
            penalties.append(Penalty((ns, ew), "board 3 misboarded"))
            rectifications.append(Rectification(3, "partial", (ns, ew), tuple(r[0] for r in sim["rows"][2])))
        if number == 9:
            rectifications.append(Rectification(boards, "irreversible"))
        tournaments.append(Tournament(
            id=f"T{number:02d}", date=date, host=host, scores=sim["scores"], top=top,
            movement="howell" if number != 11 else "mitchell scrambled",
            status=status, splits=splits, penalties=tuple(penalties), rectifications=tuple(rectifications),
            hand_scores=sim["hand_scores"],
        ))
        for p in playing:
            played[p] += 1
        previous = plist
    return Season(base_pairs=BASE_PAIRS, tournaments=tuple(tournaments), guests=GUESTS,
                  reference=tuple(reference), name="24^ Campionato BridgeMania 2019-2020 (demo)")
