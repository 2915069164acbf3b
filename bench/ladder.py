"""``companion bench ladder GAME``: what a skill ladder costs (issue 30 §5): random games per
second through the OpenSpiel game, simulations per second of the information-set search
on one core, and the whole ladder's wall time at the default budgets."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from companion import seatplay
from design import ladder, spiel


def games_per_second(game: str, players: int, seconds: float = 3.0) -> float:
    """Random games through the OpenSpiel state (``design.ladder.play``), one core."""
    g = spiel.load(game, players)
    random_player = ladder.Random()
    done, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        ladder.play(g, [random_player, random_player], 0, 1, done, 1)
        done += 1
    return done / (time.perf_counter() - t0)


def simulations_per_second(game: str, players: int, budget: int = 50, decisions: int = 20
                           ) -> float | None:
    """IS-MCTS simulations per second, one core: ``decisions`` searches of ``budget``
    simulations at the decisions of random games (``None``: the game has none)."""
    g = spiel.load(game, players)
    search = ladder.Search(g, budget)
    rng = random.Random(1)
    timed, spent, index = 0, 0.0, 0
    while timed < decisions and index < 50:
        state = g.new_initial_state()
        while not state.is_terminal() and timed < decisions:
            if state.current_player() < 0:
                event = seatplay.chance(state.table, rng)
                if event is None:
                    break
                state.play(event)
                continue
            if len(state.events()) > 1 and rng.random() < 0.3:
                t0 = time.perf_counter()
                search.act(state.clone(), rng)
                spent += time.perf_counter() - t0
                timed += 1
            state.apply_action(rng.randrange(len(state.events())))
        index += 1
    return timed * budget / spent if timed else None


def bench_ladder(game: str, players: int, budgets: Sequence[int], games: int, workers: int,
                 seed: int = 1) -> dict[str, Any]:
    rate = games_per_second(game, players)
    sims = simulations_per_second(game, players)
    run = ladder.run(game, players, budgets, games, seed, workers)
    data = run.as_json()
    return {"game": game, "players": players, "random_games_per_s": round(rate, 1),
            "search_simulations_per_s": round(sims, 1) if sims else None,
            "ladder_seconds": data["seconds"], "workers": workers,
            "budgets": list(budgets), "games_per_pair": games,
            "decisions_per_game": data["decisions_per_game"],
            "skill_depth": data["skill_depth"], "chain": data["chain"],
            "ratings": data["ratings"]}
