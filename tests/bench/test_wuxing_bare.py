"""The bare WuXing referee of ``bench engine`` plays the same games as the engine: the
speed comparison is between two referees of the same rules (WX-1..WX-12), not between the
engine and something that does less of the game."""

from __future__ import annotations

import random

import pytest

from bench.wuxing_bare import SEAT, Refused, events_of, table_of
from companion.simulate import play_random


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
@pytest.mark.parametrize("end,start", [("count", "rps"), ("recycle", "dragon")])
def test_bare_referee_agrees_with_the_engine_event_by_event(players: int, end: str,
                                                            start: str) -> None:
    """After every event of random legal games the bare table has the engine's deck
    counts, pot, Void and Universe counts; at the end the same winners."""
    rng = random.Random(f"{players}:{end}:{start}")
    for _ in range(4):
        out = play_random("wuxing", players, rng, {"end": end, "start": start})
        assert out.finished
        m = out.match
        bare, index = table_of(m.initial)
        state = m.initial
        for event, move in zip(out.events, events_of(out.events, index), strict=True):
            state = m.rules.apply(state, event)
            bare.apply(*move)
            assert bare.decks[1:] == list(state.decks), event
            assert sorted(bare.pot) == sorted(index[c] for c in state.pot), event
            assert (bare.void, bare.uleft) == (state.void, state.universe_left), event
            assert bare.finished == state.finished
        assert bare.winners == state.winners
        assert bare.adjudications == state.adjudications


def test_bare_referee_refuses_a_card_that_is_not_on_top() -> None:
    """The bare referee is a referee: a won card shown while cards nobody has seen are left
    in the deck (WX-8) is refused, and so is a card from a seat the table does not wait for."""
    for seed in range(20):
        out = play_random("wuxing", 2, random.Random(seed), {"end": "count", "start": "rps"})
        m = out.match
        bare, index = table_of(m.initial)
        state = m.initial
        for event, move in zip(out.events, events_of(out.events, index), strict=True):
            code, seat, card = move
            won = [index[c] for c, p in state.places.items() if p == f"deck:{seat}"]
            if code == SEAT and state.phase == "reveal" and won and state.unseen[seat - 1]:
                with pytest.raises(Refused):
                    bare.copy().apply(SEAT, seat, won[0])
                if len(state.awaiting) == 1:
                    with pytest.raises(Refused):
                        bare.copy().apply(SEAT, 3 - seat, card)
                bare.copy().apply(*move)  # the card itself is fine
                return
            state = m.rules.apply(state, event)
            bare.apply(*move)
    raise AssertionError("no game had won cards under unseen ones")
