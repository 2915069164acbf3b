"""Shrine of the Elemental Kings: influence points (SK-10), found exactly.

A player's cards are split into groups, each card in at most one group:

- a single card: 1 point;
- 2, 3 or 4 cards of one face value: 4, 9 or 16 points;
- a run of 5-9 consecutive face values of one element: 25, 36, 49, 64 or 81 points.

Every group of ``n`` cards is worth ``n * n`` points. ``best_split`` returns a split with
the most points. It is exact, not greedy; the search is kept small by one lemma:

    *No optimal split has a run that could be extended by a card of its element lying in a
    face-value group.* Extending a run of length L (5 <= L <= 8) gains (L+1)^2 - L^2 =
    2L + 1 >= 11 points; the card leaves a face-value group of s <= 4 cards, which loses
    s^2 - (s-1)^2 = 2s - 1 <= 7 points. The split improves by at least 4.

So for each element only run choices where no run can be extended by a left-over card of
the same element are candidates (with one card of each face, that is "no run" or "the
whole streak of 5+"), and the cards left over are grouped by face value, as many groups
of four as possible first (sum of squares favours the largest groups). Every combination
of candidate run choices across elements is evaluated. The tests cross-check this against
a brute-force search over all splits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

Card = tuple[str, int]  # (element, face value)

RUN_MIN = 5
RUN_MAX = 9
SAME_MAX = 4
LOWEST = 1
HIGHEST = 9


@dataclass(frozen=True)
class Group:
    """One scoring group: ``kind`` is ``"single"``, ``"same"`` (one face value) or ``"run"``."""

    kind: str
    cards: tuple[Card, ...]

    @property
    def points(self) -> int:
        return len(self.cards) ** 2


@dataclass(frozen=True)
class Split:
    """A split of a hand into groups and its influence points."""

    points: int
    groups: tuple[Group, ...]


def face_points(count: int) -> int:
    """Best points for ``count`` cards of one face value kept out of runs."""
    fours, rest = divmod(count, SAME_MAX)
    return fours * SAME_MAX * SAME_MAX + rest * rest


def best_split(cards: Iterable[Card]) -> Split:
    """A split of ``cards`` with the most influence points (SK-10).

    Cards are ``(element, face value)`` pairs with face values 1-9; duplicates are allowed.
    Raises ``ValueError`` on a face value outside 1-9.
    """
    hand = tuple(sorted(cards))
    for element, number in hand:
        if not isinstance(number, int) or not LOWEST <= number <= HIGHEST:
            raise ValueError(f"card {(element, number)!r} has no face value 1-9")
    return _best_split(hand)


@lru_cache(maxsize=4096)
def _best_split(hand: tuple[Card, ...]) -> Split:
    counts = Counter(hand)
    elements = sorted({e for e, _ in hand})
    options = [_run_choices(e, counts) for e in elements]
    best: tuple[int, int] | None = None
    best_runs: tuple[tuple[str, int, int], ...] = ()
    for combo in product(*options):
        runs = tuple(
            (e, a, b) for e, choice in zip(elements, combo, strict=True) for a, b in choice
        )
        left = _leftover(counts, runs)
        per_face: Counter[int] = Counter()
        for (_, v), n in left.items():
            per_face[v] += n
        points = sum((b - a + 1) ** 2 for _, a, b in runs)
        points += sum(face_points(n) for n in per_face.values())
        # Ties between equal splits: prefer fewer, longer runs first, then the first found,
        # so the same hand always shows the same groups.
        key = (points, -len(runs))
        if best is None or key > best:
            best = key
            best_runs = runs
    runs = best_runs
    groups = [
        Group("run", tuple((e, v) for v in range(a, b + 1))) for e, a, b in runs
    ]
    left = _leftover(counts, runs)
    by_face: dict[int, list[Card]] = {}
    for (e, v), n in sorted(left.items()):
        by_face.setdefault(v, []).extend([(e, v)] * n)
    for v in sorted(by_face, reverse=True):
        pile = by_face[v]
        for i in range(0, len(pile), SAME_MAX):
            chunk = tuple(pile[i : i + SAME_MAX])
            groups.append(Group("single" if len(chunk) == 1 else "same", chunk))
    total = sum(g.points for g in groups)
    return Split(total, tuple(groups))


def _leftover(counts: Counter[Card], runs: Iterable[tuple[str, int, int]]) -> Counter[Card]:
    left = Counter(counts)
    for e, a, b in runs:
        for v in range(a, b + 1):
            left[(e, v)] -= 1
    return Counter({c: n for c, n in left.items() if n > 0})


def _run_choices(element: str, counts: Counter[Card]) -> list[tuple[tuple[int, int], ...]]:
    """Candidate run sets of one element: feasible, and no run extendable by a left-over card.

    The empty choice is always first.
    """
    have = [0] * (HIGHEST + 2)
    for v in range(LOWEST, HIGHEST + 1):
        have[v] = counts.get((element, v), 0)
    intervals = [
        (a, a + n - 1)
        for n in range(RUN_MAX, RUN_MIN - 1, -1)
        for a in range(LOWEST, HIGHEST - n + 2)
        if all(have[v] > 0 for v in range(a, a + n))
    ]
    out: list[tuple[tuple[int, int], ...]] = []
    for chosen in _interval_sets(intervals, 0, have[:], ()):
        left = have[:]
        for a, b in chosen:
            for v in range(a, b + 1):
                left[v] -= 1
        if not any(
            (a > LOWEST and left[a - 1] > 0) or (b < HIGHEST and left[b + 1] > 0)
            for a, b in chosen
        ):
            out.append(chosen)
    return out


def _interval_sets(
    intervals: list[tuple[int, int]],
    start: int,
    have: list[int],
    chosen: tuple[tuple[int, int], ...],
) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every multiset of ``intervals`` (from index ``start`` on) that ``have`` can cover."""
    yield chosen
    for i in range(start, len(intervals)):
        a, b = intervals[i]
        if all(have[v] > 0 for v in range(a, b + 1)):
            for v in range(a, b + 1):
                have[v] -= 1
            yield from _interval_sets(intervals, i, have, (*chosen, (a, b)))
            for v in range(a, b + 1):
                have[v] += 1
