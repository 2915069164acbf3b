"""``companion bench engine``: adjudications per second of every game on one core."""

from __future__ import annotations

import random
import time
from typing import Any

from companion.engine import Match
from companion.simulate import play_random


def bench_engine(game: str, players: int, games: int, seed: int) -> dict[str, Any]:
    """Adjudications per second on the full path (validation, event append, state update).

    Reported against wall-clock time and against this process's CPU time (the engine is
    single-threaded, so the latter is the one-core figure on a busy machine).

    Random games are recorded first; then their logs are re-applied through ``Match.apply``
    (with the version check) and only that is timed, so move generation is not counted.
    """
    rng = random.Random(seed)
    logs = [play_random(game, players, rng) for _ in range(games)]
    adjudications = 0
    applied = 0
    elapsed = 0.0
    cpu = 0.0
    for out in logs:
        m = Match(out.match.rules, out.match.setup)
        t0, c0 = time.perf_counter(), time.process_time()
        for e in out.events:
            m.apply(e, version=m.version)
        elapsed += time.perf_counter() - t0
        cpu += time.process_time() - c0
        applied += len(out.events)
        adjudications += int(m.rules.stats(m.state)["adjudications"])
    return {
        "game": game,
        "players": players,
        "games": games,
        "events": applied,
        "adjudications": adjudications,
        "seconds": round(elapsed, 4),
        "cpu_seconds": round(cpu, 4),
        "events_per_second": round(applied / elapsed) if elapsed else None,
        "adjudications_per_second": round(adjudications / elapsed) if elapsed else None,
        # CPU time of this process: the one-core figure when other work shares the machine.
        "adjudications_per_cpu_second": round(adjudications / cpu) if cpu else None,
    }
