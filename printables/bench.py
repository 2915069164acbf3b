"""``companion bench print``: time and size of printing every game on both papers."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator

from companion.registry import GAMES
from printables.jobs import PrintOptions, build


def bench_print(backs: str = "long-edge") -> Iterator[str]:
    """One JSON line per game and paper, then the totals; nothing is written or registered."""
    total_s = 0.0
    total_b = 0
    total_p = 0
    rng = random.Random(7)
    for paper in ("a4", "letter"):
        for game in GAMES:
            t0 = time.perf_counter()
            pdf, manifest, runs = build(game, PrintOptions(paper=paper, backs=backs), rng)
            dt = time.perf_counter() - t0
            total_s += dt
            total_b += len(pdf)
            total_p += int(manifest["pages"])
            yield json.dumps({"game": game, "paper": paper, "backs": backs,
                              "cards": sum(len(r.cards) for r, _ in runs),
                              "pages": manifest["pages"], "seconds": round(dt, 3),
                              "kib": round(len(pdf) / 1024, 1)})
    yield json.dumps({"total": "all five games, a4 + letter", "backs": backs,
                      "pages": total_p, "seconds": round(total_s, 3),
                      "mib": round(total_b / 2**20, 2)})
