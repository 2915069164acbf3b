"""``companion bench print``: time and size of printing every game on both papers."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Iterator

from companion.registry import GAMES
from printables.jobs import build
from printables.options import PrintOptions


def bench_print(backs: str = "long-edge", repeat: int = 3) -> Iterator[str]:
    """One JSON line per game and paper, then the totals; nothing is written or registered.

    Each job is built ``repeat`` times in memory (cards and the game's extras, backs as
    given); the lines give the median and the fastest time, and the PDF size.
    """
    rng = random.Random(7)
    total_med = total_min = 0.0
    total_b = total_p = total_c = 0
    for paper in ("a4", "letter"):
        for game in GAMES:
            times = []
            for _ in range(max(1, repeat)):
                t0 = time.perf_counter()
                pdf, manifest, runs = build(game, PrintOptions(paper=paper, backs=backs), rng)
                times.append(time.perf_counter() - t0)
            cards = sum(len(r.cards) for r, _ in runs)
            total_med += statistics.median(times)
            total_min += min(times)
            total_b += len(pdf)
            total_p += int(manifest["pages"])
            total_c += cards
            yield json.dumps({"game": game, "paper": paper, "backs": backs, "cards": cards,
                              "pages": manifest["pages"],
                              "median_s": round(statistics.median(times), 3),
                              "min_s": round(min(times), 3), "kib": round(len(pdf) / 1024, 1)})
    yield json.dumps({"total": "all five games, a4 + letter", "backs": backs, "cards": total_c,
                      "pages": total_p, "median_s": round(total_med, 3),
                      "min_s": round(total_min, 3), "mib": round(total_b / 2**20, 2)})
