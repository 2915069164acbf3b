"""A skill ladder (issue 30 §3): random, greedy and information-set search players at a few
budgets meet head to head, and ``design.ratings`` ranks them.

Players, each deciding from its own seat only (what ``companion.seatplay`` lets it see):

- ``random``: any of the seat's legal events, equally likely;
- ``greedy``: ``companion.playtest``'s one-step look-ahead: each legal event played on a
  few tables the seat cannot tell from the real one (``seatplay.resample``), the one its
  game's ``policy.value`` (or ``policy.judge``) rates best on average;
- ``search N``: OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``,
  ``design.spiel`` says why not the C++ bot) with ``N`` simulations per decision, each from
  a freshly resampled table, leaves valued by one random playout to the end.

The schedule: every pair of players meets in ``games`` games. At ``players`` seats the two
sit alternately (a, b, a, ... in game 0; b, a, b, ... in game 1), so over two games each
sits in every seat as often. A game's result is ``a``'s share of the win (its seats'
share; 0.5 if nobody won): a game with several seats counts as one head-to-head result.

Game ``k`` of pair ``(i, j)`` is seeded by ``(seed, i, j, k)`` alone: the same seed gives
the same ladder with any number of processes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from itertools import combinations
from multiprocessing import get_context
from typing import Any, Protocol

import numpy as np
from open_spiel.python.algorithms import ismcts

from companion import playstats, playtest, seatplay
from companion.errors import BadSetup
from design import DEFAULT_BUDGETS, ratings, spiel

BUDGETS = DEFAULT_BUDGETS  # simulations a decision (God Num's own: ``ladder_budgets``)
GAMES = 16  # games per pair
UCT_C = 1.0  # returns span 1 (a win minus a fair share): c about 1 explores enough


class Player(Protocol):
    name: str

    def act(self, state: spiel.CompanionState, rng: random.Random) -> int:
        """The action (an index into the seat's legal events) the player takes."""
        ...


class Random:
    name = "random"

    def act(self, state: spiel.CompanionState, rng: random.Random) -> int:
        return rng.randrange(len(state.events()))


class Greedy:
    """``companion.playtest``'s greedy player: the move its game's policy rates best,
    averaged over tables the seat cannot tell from the real one (its own seat only)."""

    name = "greedy"

    def __init__(self, game: spiel.CompanionGame) -> None:
        self.pt = game.pt

    def act(self, state: spiel.CompanionState, rng: random.Random) -> int:
        options = state.events()
        if len(options) == 1:
            return 0
        chosen = playtest.greedy_move(self.pt, state.table, state.current_player() + 1,
                                  options, rng)
        return next(i for i, e in enumerate(options) if e is chosen)


class Rollout:
    """A leaf's value for OpenSpiel's search: one random playout of the table to its end
    (straight on the table, not through OpenSpiel states: the cheap copies search needs).
    The prior: every legal action alike."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: spiel.CompanionState) -> np.ndarray[Any, Any]:
        table, rng = state.table, self.rng
        steps = state.steps
        while not table.finished and steps < spiel.MAX_STEPS:
            # Chance first, as companion.playtest plays: most steps of a playout are draws,
            # and asking whose turn it is costs as much as drawing.
            event = seatplay.chance(table, rng)
            if event is None:
                seat = seatplay.to_move(table)
                if seat is None:
                    break
                options = seatplay.moves(table, seat)
                event = options[rng.randrange(len(options))]
            table = seatplay.apply(table, event)
            steps += 1
        if not table.finished:
            return np.zeros(table.players)
        return np.array(seatplay.returns(table))

    def prior(self, state: spiel.CompanionState) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


class Search:
    """OpenSpiel's information-set MCTS with ``budget`` simulations per decision."""

    def __init__(self, game: spiel.CompanionGame, budget: int) -> None:
        if budget < 1:
            raise BadSetup(f"a search budget is 1 simulation or more, got {budget}")
        self.name = f"search {budget}"
        self.game = game
        self.budget = budget

    def act(self, state: spiel.CompanionState, rng: random.Random) -> int:
        if len(state.events()) == 1:
            return 0
        bot = ismcts.ISMCTSBot(
            self.game, Rollout(rng), UCT_C, self.budget,
            random_state=np.random.RandomState(rng.getrandbits(32)),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        # The world samples come from the ladder's seeded generator, not OpenSpiel's
        # unseeded sampler: the same seed, the same ladder.
        bot.set_resampler(lambda s, player: s.resampled(player, rng))
        return int(bot.step(state))


def lineup(names: Sequence[str], budgets: Iterable[int]) -> list[str]:
    """The ladder's players: random, greedy, then search at each budget (ascending)."""
    return list(names) + [f"search {b}" for b in sorted(set(budgets))]


def make_player(game: spiel.CompanionGame, name: str) -> Player:
    if name == "random":
        return Random()
    if name == "greedy":
        return Greedy(game)
    kind, _, budget = name.partition(" ")
    if kind == "search" and budget.isdigit():
        return Search(game, int(budget))
    raise BadSetup(f"there is no ladder player {name!r}")


@dataclass(frozen=True)
class Played:
    """One ladder game: who sat where, the returns, whether it ended, its decisions."""

    a: int
    b: int
    index: int
    seats: tuple[int, ...]  # the player index in each seat
    returns: tuple[float, ...]
    finished: bool
    decisions: int
    steps: int

    def score(self) -> float:
        """Player ``a``'s share of the win (0.5 when nobody won)."""
        shares = [r + 1.0 / len(self.returns) for r in self.returns]
        if not self.finished or sum(shares) <= 0:
            return 0.5
        return sum(s for s, p in zip(shares, self.seats, strict=True) if p == self.a)


def play(game: spiel.CompanionGame, players: Sequence[Player], a: int, b: int, index: int,
         seed: int) -> Played:
    """Game ``index`` between ``players[a]`` and ``players[b]`` (seated alternately)."""
    n = game.num_players()
    seats = tuple((a, b)[(s + index) % 2] for s in range(n))
    rng = random.Random(f"ladder:{game.game}:{seed}:{a}:{b}:{index}")
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        player = state.current_player()
        if player < 0:  # chance: sampled straight from the table, as the engine would
            event = seatplay.chance(state.table, rng)
            if event is None:
                raise BadSetup("the table has neither a seat to move nor chance")
            state.play(event)
            continue
        action = players[seats[player]].act(state, rng)
        state.apply_action(action)
        decisions += 1
    return Played(a, b, index, seats, tuple(state.returns()), state.table.finished,
                  decisions, state.steps)


def schedule(players: int, games: int) -> list[tuple[int, int, int]]:
    """Every pair of ``players`` meeting ``games`` times: ``(a, b, index)``."""
    return [(a, b, k) for a, b in combinations(range(players), 2) for k in range(games)]


def _chunk(game: str, seats: int, options: Mapping[str, Any], names: Sequence[str],
           seed: int, games: Sequence[tuple[int, int, int]]) -> list[Played]:
    g = spiel.load(game, seats, options)
    players = [make_player(g, n) for n in names]
    return [play(g, players, a, b, k, seed) for a, b, k in games]


@dataclass(frozen=True)
class Run:
    """A whole ladder: its games, its ratings, its wall time."""

    game: str
    seats: int
    names: tuple[str, ...]
    games: tuple[Played, ...]
    fitted: ratings.Ladder
    seconds: float
    decisions: int  # in the games: 0 means nobody ever chose anything

    def as_json(self) -> dict[str, Any]:
        pair = ratings.scores(self.results(), len(self.names))
        return {
            "game": self.game, "players": self.seats, "ladder_players": list(self.names),
            "games": len(self.games), "games_per_pair": len(self.games) // max(1, len(pair)),
            "unfinished": sum(1 for g in self.games if not g.finished),
            "decisions_per_game": round(self.decisions / max(1, len(self.games)), 1),
            "seconds": round(self.seconds, 1),
            **self.fitted.as_json(),
            "head_to_head": [self._pair(a, b, s) for (a, b), s in pair.items()],
        }

    def _pair(self, a: int, b: int, score: float) -> dict[str, Any]:
        """One pair's score of ``a`` with its 95 % Wilson interval (a shared or unfinished
        game counts its share)."""
        n = sum(1 for g in self.games if {g.a, g.b} == {a, b})
        low, high = playstats.wilson(score * n, n, playtest.Z95)
        return {"a": self.names[a], "b": self.names[b], "games": n,
                "score_a": round(score, 3), "low": round(low, 3), "high": round(high, 3)}

    def results(self) -> list[ratings.Result]:
        return [ratings.Result(g.a, g.b, g.score()) for g in self.games]


def run(game: str, seats: int = 2, budgets: Sequence[int] = BUDGETS, games: int = GAMES,
        seed: int = 1, workers: int = 1, progress: Callable[[int], None] | None = None,
        options: Mapping[str, Any] | None = None) -> Run:
    """The ladder of ``game`` at ``seats`` seats (with the ruling ``options``): random,
    greedy and search at ``budgets``, ``games`` games per pair, on ``workers`` processes.
    Raises ``BadSetup``."""
    options = dict(options or {})
    if not 2 <= games <= 10_000:
        raise BadSetup(f"--ladder-games must be 2-10,000, got {games}")
    if not budgets or any(b < 1 or b > 100_000 for b in budgets):
        raise BadSetup(f"--ladder-budgets must be 1-100,000 simulations, got {list(budgets)}")
    names = lineup(("random", "greedy"), budgets)
    spiel.load(game, seats, options)  # a bad game, count or option is refused here
    todo = schedule(len(names), games)
    t0 = time.perf_counter()
    done: list[Played] = []
    if workers <= 1:
        for item in todo:
            done += _chunk(game, seats, options, names, seed, [item])
            if progress:
                progress(1)
    else:
        # One game per task, the costly pairs (the last ones: search against search) first
        # so that no core waits at the end; results are put back in schedule order.
        order = sorted(range(len(todo)), key=lambda i: -i)
        with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
            futures = {i: pool.submit(_chunk, game, seats, options, names, seed, [todo[i]])
                       for i in order}
            got: dict[int, Played] = {}
            for i in order:
                got[i] = futures[i].result()[0]
                if progress:
                    progress(1)
        done = [got[i] for i in range(len(todo))]
    seconds = time.perf_counter() - t0
    fitted = ratings.ladder(names, [ratings.Result(g.a, g.b, g.score()) for g in done],
                            seed=seed)
    if not any(g.decisions for g in done):
        # Nobody chose anything (WuXing): the players are one player, whatever the dice
        # said; no difference is claimed.
        fitted = replace(fitted, better=frozenset(), chain=(0,))
    return Run(game, seats, tuple(names), tuple(done), fitted, seconds,
               sum(g.decisions for g in done))
