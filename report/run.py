"""Simulated games on every core, and recorded games from a data dir, as
``companion.playtest.Game`` lists.

Each game is seeded by ``(seed, index)`` alone and the chunks come back in order, so the
same seed gives the same games, and the same report, with any number of processes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import lru_cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from companion.engine import Match
from companion.playtest import MAX_EVENTS, POLICY_OF, Game, Playtest, actor, play_range
from companion.progress import Progress, Silent
from companion.sides import sides

CHUNK = 250  # games per task: small enough to balance two cores, large to cost little


@lru_cache(maxsize=8)
def _playtest(game: str, players: int, options: str) -> Playtest:
    return Playtest.of(game, players, json.loads(options))


def _chunk(game: str, players: int, options: str, seed: int, start: int, stop: int,
           policy: str, max_events: int) -> list[Game]:
    return play_range(_playtest(game, players, options), seed, start, stop, policy, max_events)


def workers_here() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def simulate(game: str, players: int, options: Mapping[str, Any], seed: int, games: int,
             policy: str, workers: int | None = None, max_events: int = MAX_EVENTS,
             playtest: Playtest | None = None, progress: Progress | None = None
             ) -> list[Game]:
    """``games`` games of ``game`` (``policy``: random, greedy or rotate), on ``workers``
    processes (default: every core). A ``playtest`` given here (a game not in the
    registry) is played in this process."""
    bar = progress or Silent()
    bounds = [(a, min(games, a + CHUNK)) for a in range(0, games, CHUNK)]
    if playtest is not None:
        out = []
        for a, b in bounds:
            out += play_range(playtest, seed, a, b, policy, max_events)
            bar.advance(b - a)
        return out
    opts = json.dumps(dict(options), sort_keys=True)
    _playtest(game, players, opts)  # a bad option is refused here, before any process
    n = workers or workers_here()
    if n <= 1 or games <= CHUNK:
        out = []
        for a, b in bounds:
            out += _chunk(game, players, opts, seed, a, b, policy, max_events)
            bar.advance(b - a)
        return out
    # fork: the workers start with the engines imported (spawn would import them again).
    with ProcessPoolExecutor(n, mp_context=get_context("fork")) as pool:
        parts = {pool.submit(_chunk, game, players, opts, seed, a, b, policy, max_events):
                 b - a for a, b in bounds}
        for done in as_completed(parts):
            bar.advance(parts[done])
        return [g for part in parts for g in part.result()]


def recorded(data_dir: str | os.PathLike[str], game: str) -> dict[int, list[Game]]:
    """The real games of ``game`` recorded in ``data_dir`` (phones and camera), by number
    of players: each table's live events replayed through its engine."""
    from web.archive import open_data_dir  # the store's reader; only for --from-data

    src = open_data_dir(Path(data_dir))
    out: dict[int, list[Game]] = {}
    policy = POLICY_OF.get(game)
    try:
        for table, _ in src.every_table():
            if table.game != game:
                continue
            live = [r for r in table.records if r.kind == "event" and not r.voided]
            match = Match(table.rules, table.match.setup)
            starter = None
            played: dict[int, set[str]] = {}
            for r in live:
                state = match.apply(r.body)
                if starter is None and policy is not None:
                    starter = policy.starter(state)
                seat = actor(r.body)
                for key in ("card", "cards"):
                    value = r.body.get(key)
                    for serial in value if isinstance(value, list) else [value]:
                        face = table.match.setup.cards.get(serial) if isinstance(serial, str) \
                            else None
                        if seat is not None and face is not None:
                            played.setdefault(seat, set()).add(face.id)
            state = match.state
            people = [r.time for r in live if r.who != "companion"]
            minutes = (live[-1].time - people[0]) / 60 if state.finished and people else None
            stats = table.rules.stats(state)
            rounds = stats.get(policy.ROUNDS[0]) if policy else None
            out.setdefault(len(table.players), []).append(Game(
                bool(state.finished), tuple(state.winners), len(live),
                float(rounds) if rounds is not None else None, starter,
                tuple((s, tuple(sorted(f))) for s, f in sorted(played.items())),
                minutes=round(minutes, 1) if minutes is not None else None,
                source="recorded", sides=sides(game, table.match.setup, state),
                stats=tuple(sorted((k, float(v)) for k, v in stats.items()))))
    finally:
        src.close()
    return out
