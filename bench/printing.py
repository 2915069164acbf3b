"""``companion bench print``: time and size of printing every game on both papers."""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from companion.registry import GAMES
from printables.jobs import build
from printables.options import PrintOptions


def bench_print(backs: str = "long-edge", repeat: int = 3,
                pods: tuple[str, ...] = ()) -> Iterator[str]:
    """One JSON line per game and paper, then the totals; nothing is registered.

    Each job is built ``repeat`` times in memory (cards and the game's extras, backs as
    given); the lines give the median and the fastest time, and the PDF size. Each
    service in ``pods`` then exports all five games once into a temporary folder
    (``companion print all --pod ...``, not registered) and gives its time and size.
    """
    rng = random.Random(7)
    total_med = total_min = total_cpu = 0.0
    total_b = total_p = total_c = 0
    for paper in ("a4", "letter"):
        for game in GAMES:
            times: list[float] = []
            cpus: list[float] = []
            for _ in range(max(1, repeat)):
                t0, c0 = time.perf_counter(), time.process_time()
                pdf, manifest, runs = build(game, PrintOptions(paper=paper, backs=backs), rng)
                times.append(time.perf_counter() - t0)
                cpus.append(time.process_time() - c0)
            cards = sum(len(r.cards) for r, _ in runs)
            total_med += statistics.median(times)
            total_min += min(times)
            total_cpu += statistics.median(cpus)
            total_b += len(pdf)
            total_p += int(manifest["pages"])
            total_c += cards
            yield json.dumps({"game": game, "paper": paper, "backs": backs, "cards": cards,
                              "pages": manifest["pages"],
                              "median_s": round(statistics.median(times), 3),
                              "min_s": round(min(times), 3), "kib": round(len(pdf) / 1024, 1)})
    yield json.dumps({"total": "all five games, a4 + letter", "backs": backs, "cards": total_c,
                      "pages": total_p, "median_s": round(total_med, 3),
                      # CPU seconds: what the jobs cost without other people's load
                      "cpu_median_s": round(total_cpu, 3),
                      "min_s": round(total_min, 3), "mib": round(total_b / 2**20, 2)})
    for service in pods:
        yield bench_pod(service)


def bench_pod(service: str) -> str:
    """The print-on-demand export of all five games: seconds, files and MiB."""
    from printables.pod import export

    with tempfile.TemporaryDirectory(prefix="bench-pod-") as tmp:
        t0, c0 = time.perf_counter(), time.process_time()
        result = export("all", Path(tmp) / "pod", service, PrintOptions(), None,
                        random.Random(7))
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
        size = sum(p.stat().st_size for p in result.files)
    return json.dumps({"pod": service, "games": len(result.runs),
                       "cards": sum(len(r.cards) for r in result.runs),
                       "files": len(result.files), "s": round(took, 2),
                       # CPU seconds of this process (all threads): on a shared, loaded
                       # machine the wall time also counts other people's work.
                       "cpu_s": round(cpu, 2),
                       "mib": round(size / 2**20, 1)})
