"""``companion bench report``: how fast a playtest report plays its games.

The same games (same seed) on one core and on every core; the figures must agree (the
report's games depend on the seed alone), and the speed-up shows what the cores give.
"""

from __future__ import annotations

import time
from typing import Any

from companion.playtest import figures
from report.run import simulate, workers_here


def bench_report(game: str, players: int, games: int, policy: str) -> dict[str, Any]:
    out: dict[str, Any] = {"game": game, "players": players, "games": games,
                           "policy": policy}
    seen = []
    for label, workers in (("one_core", 1), ("every_core", workers_here())):
        t0 = time.perf_counter()
        played = simulate(game, players, {}, 7, games, policy, workers)
        dt = time.perf_counter() - t0
        out[label] = {"workers": workers, "seconds": round(dt, 2),
                      "games_per_second": round(games / dt, 1)}
        seen.append(figures(played, players)["seats"])
    out["same_games"] = seen[0] == seen[1]
    return out
