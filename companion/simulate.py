"""Random legal playouts through the real engine: simulations and property tests.

One generic harness for every game (after OpenSpiel's random-playout test): the rules
supply chance events (``Rules.chance``) and random legal plays (``Rules.random_play``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.engine import Event, Match
from companion.progress import Progress, Silent
from companion.registry import new_match

DEFAULT_MAX_EVENTS = 20_000


@dataclass
class Playout:
    """One finished (or abandoned) random game."""

    match: Match[Any]
    finished: bool

    @property
    def events(self) -> list[Event]:
        return self.match.events


def play_random(
    game: str,
    players: int,
    rng: random.Random,
    options: Mapping[str, Any] | None = None,
    max_events: int = DEFAULT_MAX_EVENTS,
) -> Playout:
    """Play one random legal game; stops after ``max_events`` if it has not ended."""
    names = [f"P{i}" for i in range(1, players + 1)]
    match = new_match(game, names, options, rng=rng)
    rules = match.rules
    for _ in range(max_events):
        if match.state.finished:
            break
        event = rules.chance(match.state, rng) or rules.random_play(match.state, rng)
        if event is None:
            break
        match.apply(event)
    return Playout(match, match.state.finished)


def simulate(
    game: str,
    players: int,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_events: int = DEFAULT_MAX_EVENTS,
    policy: str = "random",
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play ``games`` games from ``seed`` between ``policy`` players (``random``, or
    ``greedy``: ``companion.playtest``) and summarise them as JSON-ready data.

    Same seed, same figures (except ``games_per_second``, measured).
    """
    progress = progress or Silent()
    if policy != "random":
        return _simulate_policy(game, players, games, seed, options, max_events, policy,
                                progress)
    rng = random.Random(seed)
    wins = {str(s): 0.0 for s in range(1, players + 1)}
    unfinished = 0
    events = 0
    totals: dict[str, float] = {}
    t0 = time.perf_counter()
    for _ in range(games):
        out = play_random(game, players, rng, options, max_events)
        events += len(out.events)
        state = out.match.state
        if not out.finished:
            unfinished += 1
        elif state.winners:
            share = 1.0 / len(state.winners)
            for w in state.winners:
                wins[str(w)] += share
        for k, v in out.match.rules.stats(state).items():
            totals[k] = totals.get(k, 0.0) + v
        progress.advance()
    elapsed = time.perf_counter() - t0
    return {
        "game": game,
        "players": players,
        "games": games,
        "seed": seed,
        "wins_per_seat": {k: round(v, 4) for k, v in wins.items()},
        "unfinished": unfinished,
        "mean_events_per_game": round(events / games, 3) if games else 0.0,
        "mean_per_game": {k: round(v / games, 3) for k, v in sorted(totals.items())},
        "games_per_second": round(games / elapsed, 1) if elapsed > 0 else None,
    }



def _simulate_policy(game: str, players: int, games: int, seed: int,
                     options: Mapping[str, Any] | None, max_events: int, policy: str,
                     progress: Progress) -> dict[str, Any]:
    from companion.playtest import POLICIES, Playtest, play_range

    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {list(POLICIES)}, got {policy!r}")
    t0 = time.perf_counter()
    pt = Playtest.of(game, players, options)
    played = []
    for start in range(0, games, 50):  # in steps, so the bar moves
        played += play_range(pt, seed, start, min(games, start + 50), policy, max_events)
        progress.advance(min(games, start + 50) - start)
    elapsed = time.perf_counter() - t0
    wins = {str(s): 0.0 for s in range(1, players + 1)}
    for g in played:
        for w in g.winners if g.finished else ():
            wins[str(w)] += 1.0 / len(g.winners)
    rounds = [g.rounds for g in played if g.rounds is not None]
    return {
        "game": game, "players": players, "games": games, "seed": seed, "policy": policy,
        "wins_per_seat": {k: round(v, 4) for k, v in wins.items()},
        "unfinished": sum(1 for g in played if not g.finished),
        "mean_events_per_game": round(sum(g.events for g in played) / games, 3),
        "mean_per_game": {"rounds": round(sum(rounds) / len(rounds), 3) if rounds else 0.0},
        "games_per_second": round(games / elapsed, 1) if elapsed > 0 else None,
    }
