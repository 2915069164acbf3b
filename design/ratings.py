"""Ratings of a skill ladder: a Bradley-Terry fit of head-to-head results on the Elo scale,
bootstrap intervals, and the game's skill depth.

A result is one game between two kinds of player (``a`` and ``b``) with ``a``'s score in
[0, 1] (its share of the win; 0.5 for a game nobody won). The fit (Hunter's MM algorithm)
adds one drawn game to every pair that met, so a player that won every game gets a large
but finite rating. Ratings are Elo points (400 log10 of the strength ratio) anchored at the
first player (random = 0).

Intervals: a parametric bootstrap. Each pair's games are drawn again from the fitted model
(every pair keeps its number of games), the ratings refitted; the 2.5 and 97.5
percentiles are the 95 % interval. (Resampling the games themselves gives a pair that went
20-0 the same 20-0 in every resample: an interval of a few points around a rating the
data barely bound.) Player ``b`` is *significantly better* than ``a`` when the
``0.05 / (2 pairs)`` quantile of ``elo[b] - elo[a]`` over the same resamples is above 0:
both directions of every pair tested with the family-wise error held at 5 % (Bonferroni),
so that among equal players a ladder claims a difference in at most 5 % of reports (the
bootstrap takes ``20 * pairs`` resamples or more for that tail). The **skill depth**
is the number of players in the longest chain each significantly better than the one
before: 1 when nothing can be told apart, the number of players when every step shows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

ITERATIONS = 500
TOLERANCE = 1e-10
BOOTSTRAP = 400  # resamples at least (more for many pairs: see ``ladder``)
ALPHA = 0.05  # family-wise, over every pair of players


@dataclass(frozen=True)
class Result:
    """One game between player ``a`` and player ``b`` (indices); ``score``: ``a``'s share."""

    a: int
    b: int
    score: float


def _check(results: Sequence[Result], players: int) -> None:
    if players < 1:
        raise ValueError(f"a ladder needs one player or more, got {players}")
    for r in results:
        if not (0 <= r.a < players and 0 <= r.b < players) or r.a == r.b:
            raise ValueError(f"a result must name two players of 0-{players - 1}: {r!r}")
        if not 0.0 <= r.score <= 1.0 or math.isnan(r.score):
            raise ValueError(f"a score is a share of the win, 0-1: {r!r}")


def _tally(results: Sequence[Result], players: int) -> tuple[np.ndarray, np.ndarray]:
    wins = np.zeros((players, players))
    games = np.zeros((players, players))
    for r in results:
        wins[r.a, r.b] += r.score
        wins[r.b, r.a] += 1.0 - r.score
        games[r.a, r.b] += 1.0
        games[r.b, r.a] += 1.0
    return wins, games


def _fit_many(wins: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Elo ratings for each of a stack of tallies (``wins[k, i, j]``: i's score against j
    in tally ``k``), all fitted at once by Hunter's MM iteration."""
    met = games > 0
    wins = wins + 0.5 * met  # one drawn game per pair that met
    games = games + 1.0 * met
    total = wins.sum(axis=2)
    strength = np.ones(total.shape)
    for _ in range(ITERATIONS):
        pair = strength[:, :, None] + strength[:, None, :]
        denom = (games / pair).sum(axis=2)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), strength)
        # The scale is free, the ratios are not: keep the geometric mean at 1.
        new /= np.exp(np.log(new).mean(axis=1, keepdims=True))
        change = np.abs(np.log(new / strength)).max()
        strength = new
        if change < TOLERANCE:
            break
    elo: np.ndarray = 400.0 * np.log10(strength / strength[:, :1])
    return elo


def fit(results: Sequence[Result], players: int) -> list[float]:
    """Bradley-Terry ratings in Elo points, ``players[0]`` = 0; a player that met nobody
    rates 0. Raises ``ValueError`` for a result naming an unknown player or a bad score."""
    _check(results, players)
    wins, games = _tally(results, players)
    return [float(x) for x in _fit_many(wins[None], games[None])[0]]


@dataclass(frozen=True)
class Ladder:
    """The fitted ladder: each player's rating with its 95 % interval, which pairs differ
    significantly, and the skill depth with its chain."""

    names: tuple[str, ...]
    elo: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    better: frozenset[tuple[int, int]]  # (b, a): b is significantly better than a
    chain: tuple[int, ...]  # the longest chain, weakest first

    @property
    def depth(self) -> int:
        return len(self.chain)

    def as_json(self) -> dict[str, object]:
        return {
            "ratings": [{"name": n, "elo": round(e, 1), "low": round(lo, 1),
                         "high": round(hi, 1)}
                        for n, e, lo, hi in zip(self.names, self.elo, self.low, self.high,
                                                strict=True)],
            "significantly_better": sorted([self.names[b], self.names[a]]
                                           for b, a in self.better),
            "skill_depth": self.depth,
            "chain": [self.names[i] for i in self.chain],
        }


def longest_chain(order: Sequence[int], better: frozenset[tuple[int, int]]) -> tuple[int, ...]:
    """The longest chain ``x1 < x2 < ...`` with each ``(x[k+1], x[k])`` in ``better``;
    ``order``: the players weakest first (the relation only points up that order)."""
    rank = {p: k for k, p in enumerate(order)}
    best: dict[int, tuple[int, ...]] = {}
    for k, i in enumerate(order):
        prev = [best[j] for j in order[:k] if (i, j) in better]
        # Of equally long chains, the one whose top is rated highest (the closest step).
        best[i] = (*max(prev, key=lambda c: (len(c), rank[c[-1]]), default=()), i)
    return max(best.values(), key=lambda c: (len(c), rank[c[-1]]), default=())


def ladder(names: Sequence[str], results: Sequence[Result], seed: int = 1,
           bootstrap: int = BOOTSTRAP) -> Ladder:
    """Ratings of ``names`` (``names[0]`` the anchor) from ``results``, with bootstrap
    intervals from ``bootstrap`` resamples (or more, see above) seeded by ``seed``."""
    players = len(names)
    _check(results, players)
    if bootstrap < 10:
        raise ValueError(f"bootstrap needs 10 resamples or more, got {bootstrap}")
    elo = fit(results, players)
    pairs = max(1, players * (players - 1) // 2)
    tail = ALPHA / (2 * pairs)  # both directions of every pair
    draws = max(bootstrap, math.ceil(20 / tail))
    rng = np.random.default_rng(seed)
    wins = np.zeros((draws, players, players))
    games = np.zeros((draws, players, players))
    by_pair: dict[tuple[int, int], list[float]] = {}
    for r in results:
        a, b = min(r.a, r.b), max(r.a, r.b)
        by_pair.setdefault((a, b), []).append(r.score if r.a == a else 1.0 - r.score)
    for (a, b), got in sorted(by_pair.items()):
        n = len(got)
        # Parametric: each pair's games drawn again from the fitted model. Resampling the
        # games themselves would give a pair that went 20-0 the same 20-0 every time, and
        # an interval of a few points around a rating the data barely bound.
        p = 1.0 / (1.0 + 10.0 ** ((elo[b] - elo[a]) / 400.0))
        drawn = rng.binomial(n, p, size=draws).astype(float)
        wins[:, a, b] = drawn
        wins[:, b, a] = n - drawn
        games[:, a, b] = games[:, b, a] = n
    samples = _fit_many(wins, games)
    low = tuple(float(x) for x in np.quantile(samples, 0.025, axis=0))
    high = tuple(float(x) for x in np.quantile(samples, 0.975, axis=0))
    better = frozenset((b, a) for a in range(players) for b in range(players) if a != b
                       and float(np.quantile(samples[:, b] - samples[:, a], tail)) > 0)
    order = sorted(range(players), key=lambda i: (elo[i], i))
    return Ladder(tuple(names), tuple(elo), low, high, better, longest_chain(order, better))


def scores(results: Sequence[Result], players: int) -> Mapping[tuple[int, int], float]:
    """Each pair's mean score of its first player (``(a, b)``, a < b)."""
    _check(results, players)
    tally: dict[tuple[int, int], list[float]] = {}
    for r in results:
        key = (min(r.a, r.b), max(r.a, r.b))
        tally.setdefault(key, []).append(r.score if r.a == key[0] else 1.0 - r.score)
    return {k: sum(v) / len(v) for k, v in sorted(tally.items())}
