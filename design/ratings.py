"""Ratings of a skill ladder: a Bradley-Terry fit of head-to-head results on the Elo scale,
bootstrap intervals, and the game's skill depth.

A result is one game between two kinds of player (``a`` and ``b``) with ``a``'s score in
[0, 1] (its share of the win; 0.5 for a game nobody won). The fit (Hunter's MM algorithm)
adds one drawn game to every pair that met, so a player that won every game gets a large
but finite rating. Ratings are Elo points (400 log10 of the strength ratio) anchored at the
first player (random = 0).

Intervals: the games of each pair are resampled with replacement (a stratified bootstrap:
every pair keeps its number of games), the ratings refitted; the 2.5 and 97.5 percentiles
are the 95 % interval. Player ``b`` is *significantly better* than ``a`` when the
``0.05 / pairs`` quantile of ``elo[b] - elo[a]`` over the same resamples is above 0: a
one-sided test per pair with the family-wise error over all pairs held at 5 % (Bonferroni),
so that among equal players a ladder claims a difference in at most 5 % of reports (the
bootstrap takes ``20 * pairs`` resamples or more for that tail). The **skill depth**
is the number of players in the longest chain each significantly better than the one
before: 1 when nothing can be told apart, the number of players when every step shows.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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


def fit(results: Sequence[Result], players: int) -> list[float]:
    """Bradley-Terry ratings in Elo points, ``players[0]`` = 0; a player that met nobody
    rates 0. Raises ``ValueError`` for a result naming an unknown player or a bad score."""
    _check(results, players)
    wins = [[0.0] * players for _ in range(players)]
    games = [[0.0] * players for _ in range(players)]
    for r in results:
        wins[r.a][r.b] += r.score
        wins[r.b][r.a] += 1.0 - r.score
        games[r.a][r.b] += 1.0
        games[r.b][r.a] += 1.0
    for i in range(players):
        for j in range(players):
            if i != j and games[i][j]:  # one drawn game per pair that met
                wins[i][j] += 0.5
                games[i][j] += 1.0
    strength = [1.0] * players
    total = [sum(row) for row in wins]
    for _ in range(ITERATIONS):
        new = []
        for i in range(players):
            denom = sum(games[i][j] / (strength[i] + strength[j])
                        for j in range(players) if j != i and games[i][j])
            new.append(total[i] / denom if denom else strength[i])
        # Normalize by the geometric mean: the scale is free, the ratios are not.
        mean = math.exp(sum(math.log(s) for s in new) / players)
        new = [s / mean for s in new]
        change = max(abs(math.log(n / o)) for n, o in zip(new, strength, strict=True))
        strength = new
        if change < TOLERANCE:
            break
    anchor = strength[0]
    return [400.0 * math.log10(s / anchor) for s in strength]


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


def _percentile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    k = (len(s) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def longest_chain(order: Sequence[int], better: frozenset[tuple[int, int]]) -> tuple[int, ...]:
    """The longest chain ``x1 < x2 < ...`` with each ``(x[k+1], x[k])`` in ``better``;
    ``order``: the players weakest first (the relation only points up that order)."""
    best: dict[int, tuple[int, ...]] = {}
    for k, i in enumerate(order):
        prev = [best[j] for j in order[:k] if (i, j) in better]
        best[i] = (*max(prev, key=len, default=()), i)
    return max(best.values(), key=len, default=())


def ladder(names: Sequence[str], results: Sequence[Result], seed: int = 1,
           bootstrap: int = BOOTSTRAP) -> Ladder:
    """Ratings of ``names`` (``names[0]`` the anchor) from ``results``, with bootstrap
    intervals from ``bootstrap`` resamples seeded by ``seed``."""
    players = len(names)
    _check(results, players)
    if bootstrap < 10:
        raise ValueError(f"bootstrap needs 10 resamples or more, got {bootstrap}")
    elo = fit(results, players)
    by_pair: dict[tuple[int, int], list[Result]] = {}
    for r in results:
        by_pair.setdefault((min(r.a, r.b), max(r.a, r.b)), []).append(r)
    rng = random.Random(seed)
    pairs = max(1, players * (players - 1) // 2)
    tail = ALPHA / pairs
    samples: list[list[float]] = []
    for _ in range(max(bootstrap, math.ceil(20 / tail))):
        drawn = [rs[rng.randrange(len(rs))] for _, rs in sorted(by_pair.items())
                 for _ in range(len(rs))]
        samples.append(fit(drawn, players))
    low = tuple(_percentile([s[i] for s in samples], 0.025) for i in range(players))
    high = tuple(_percentile([s[i] for s in samples], 0.975) for i in range(players))
    better = frozenset((b, a) for a in range(players) for b in range(players) if a != b
                       and _percentile([s[b] - s[a] for s in samples], tail) > 0)
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
