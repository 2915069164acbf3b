"""SK-10 influence: the exact best split, cross-checked against a brute-force search."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.shrine.influence import Card, best_split, face_points

ELEMENTS = ("fire", "water", "earth", "air")


def brute_force(cards: list[Card]) -> int:
    """The most points of any split, by trying every group the first card can be in."""

    @cache
    def best(rest: tuple[Card, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], list(rest[1:])
        element, value = first
        top = 1 + best(tuple(others))  # the first card alone
        # Same face value: the first card with 1-3 more cards of its value.
        same = [i for i, c in enumerate(others) if c[1] == value]
        for mask in range(1, 1 << len(same)):
            picked = [same[j] for j in range(len(same)) if mask >> j & 1]
            if len(picked) > 3:
                continue
            left = tuple(c for i, c in enumerate(others) if i not in picked)
            top = max(top, (len(picked) + 1) ** 2 + best(left))
        # Runs of 5-9 consecutive values of the first card's element through its value.
        for lo in range(1, value + 1):
            for hi in range(value, 10):
                if not 5 <= hi - lo + 1 <= 9:
                    continue
                left_list = list(others)
                ok = True
                for v in range(lo, hi + 1):
                    if v == value:
                        continue
                    if (element, v) in left_list:
                        left_list.remove((element, v))
                    else:
                        ok = False
                        break
                if ok:
                    top = max(top, (hi - lo + 1) ** 2 + best(tuple(sorted(left_list))))
        return top

    return best(tuple(sorted(cards)))


def check_split(cards: list[Card]) -> int:
    """The split uses every card exactly once, its groups are legal, and points add up."""
    split = best_split(cards)
    used = Counter(c for g in split.groups for c in g.cards)
    assert used == Counter(cards)
    for g in split.groups:
        n = len(g.cards)
        if g.kind == "single":
            assert n == 1
        elif g.kind == "same":
            assert 2 <= n <= 4 and len({v for _, v in g.cards}) == 1
        else:
            assert g.kind == "run" and 5 <= n <= 9
            assert len({e for e, _ in g.cards}) == 1
            values = sorted(v for _, v in g.cards)
            assert values == list(range(values[0], values[0] + n))
    assert split.points == sum(len(g.cards) ** 2 for g in split.groups)
    return split.points


def test_sk10_group_values_from_the_seed() -> None:
    """SK-10: single 1, pairs 4, threes 9, fours 16, runs of 5..9 score 25..81."""
    assert best_split([("fire", 3)]).points == 1
    assert best_split([("fire", 3), ("air", 3)]).points == 4
    assert best_split([("fire", 3), ("air", 3), ("water", 3)]).points == 9
    assert best_split([(e, 3) for e in ELEMENTS]).points == 16
    for n in range(5, 10):
        split = best_split([("earth", v) for v in range(1, n + 1)])
        assert split.points == n * n
        assert [g.kind for g in split.groups] == ["run"]
    assert best_split([]).points == 0
    assert [face_points(n) for n in range(6)] == [0, 1, 4, 9, 16, 17]


def test_sk10_not_greedy_four_runs_beat_four_of_a_kinds() -> None:
    """SK-10: four runs 1-5 (100) beat five fours of a kind (80); one run only gives 70."""
    cards = [(e, v) for e in ELEMENTS for v in range(1, 6)]
    split = best_split(cards)
    assert split.points == 100
    assert sorted(g.kind for g in split.groups) == ["run"] * 4


def test_sk10_run_keeps_its_end_card_rather_than_completing_four() -> None:
    """SK-10: Fire 1-6 + Water/Earth/Air 6: run of 6 (36) + three 6s (9) = 45, not 25 + 16."""
    cards = [("fire", v) for v in range(1, 7)] + [(e, 6) for e in ("water", "earth", "air")]
    split = best_split(cards)
    assert split.points == 45
    kinds = {g.kind: len(g.cards) for g in split.groups}
    assert kinds == {"run": 6, "same": 3}


def test_sk10_four_short_of_a_run_scores_as_singles_and_pairs() -> None:
    """SK-10: Fire 1-4 and Air 4 is no run: 1 + 1 + 1 + 4 = 7."""
    assert best_split([("fire", 1), ("fire", 2), ("fire", 3), ("fire", 4), ("air", 4)]).points == 7


def test_sk10_whole_deck() -> None:
    """SK-10: all 36 cards: four runs of 9 = 324."""
    assert best_split([(e, v) for e in ELEMENTS for v in range(1, 10)]).points == 324


def test_bad_face_value_is_refused() -> None:
    with pytest.raises(ValueError, match="face value"):
        best_split([("fire", 10)])


hands = st.lists(
    st.tuples(st.sampled_from(ELEMENTS[:3]), st.integers(min_value=1, max_value=9)),
    max_size=13,
    unique=True,
)
dense_hands = st.lists(
    st.tuples(st.sampled_from(ELEMENTS), st.integers(min_value=3, max_value=8)),
    min_size=5,
    max_size=14,
    unique=True,
)
# Duplicates only arise when a referee overrides a card of a second printed set in;
# the search must stay exact for them too.
multisets = st.lists(
    st.tuples(st.sampled_from(ELEMENTS[:2]), st.integers(min_value=2, max_value=8)),
    max_size=11,
)


@settings(max_examples=150, deadline=None)
@given(hands)
def test_sk10_best_split_equals_brute_force(cards: list[Card]) -> None:
    """SK-10: the companion's split is optimal (cross-check with brute force)."""
    assert check_split(cards) == brute_force(cards)


@settings(max_examples=150, deadline=None)
@given(dense_hands)
def test_sk10_best_split_equals_brute_force_dense(cards: list[Card]) -> None:
    """SK-10: optimal on crowded hands where runs and fours of a kind compete."""
    assert check_split(cards) == brute_force(cards)


@settings(max_examples=100, deadline=None)
@given(multisets)
def test_sk10_best_split_equals_brute_force_with_duplicates(cards: list[Card]) -> None:
    """SK-10: optimal even with duplicate cards (a second printed set, by override)."""
    assert check_split(cards) == brute_force(cards)
