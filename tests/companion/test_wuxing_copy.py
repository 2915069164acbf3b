"""A search copies states by the thousand (issue 30 §5): a WuXing state never changes, so a
copy, deep or not, is the state itself, and play goes on from it as from the original."""

from __future__ import annotations

import copy
import random

from companion.games.wuxing import RULES
from companion.simulate import play_random


def test_a_copy_of_a_wuxing_state_is_the_state_and_plays_the_same() -> None:
    out = play_random("wuxing", 3, random.Random(4), {"end": "recycle", "start": "dragon"})
    state = out.match.initial
    for event in out.events:
        twin = copy.deepcopy(state)
        assert twin is state and copy.copy(state) is state
        after = RULES.apply(twin, event)
        assert after == RULES.apply(state, event) and after is not state
        state = after
    assert state.finished and state.winners == out.match.state.winners
