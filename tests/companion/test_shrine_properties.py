"""Shrine property tests over random legal games: conservation, replay, undo, termination."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Match
from companion.errors import IllegalPlay
from companion.games.shrine import RULES, ShrineState, capacity, forbidden_units
from companion.registry import new_match
from companion.simulate import play_random

MAX_EVENTS = 3000


def check_conservation(m: Match[ShrineState]) -> None:
    """Every card is in exactly one place; Oinks held + pool == what everyone started with."""
    s = m.state
    held = len(s.deck) + len(s.lot) + len(s.draws) + len(s.out) + sum(map(len, s.shrines))
    assert held == len(m.setup.cards)
    places = RULES.places(s)
    assert set(places) == set(m.setup.cards)
    for i in range(len(s.elements)):
        assert sum(row[i] for row in s.oinks) + s.pool[i] == s.start_oinks * len(s.players)
    assert all(n >= 0 for row in s.oinks for n in row)
    assert all(n >= 0 for n in s.pool)


def check_views(s: ShrineState) -> None:
    """SK-7: hidden Oinks never reach another seat's phone before the end."""
    for seat in s.seats:
        shown = set(RULES.view(s, seat)["oinks"])
        if s.public_oinks or s.finished:
            assert shown == {str(x) for x in s.seats}
        else:
            assert shown == {str(seat)}


def refuse_a_bad_bid(m: Match[ShrineState], rng: random.Random) -> None:
    """An illegal bid by the seat on turn is refused and changes nothing (SK-4)."""
    s = m.state
    seat = s.turn
    bad = [s.standing, capacity(s, seat) + 1 + rng.randrange(5)]
    bad += [a for a in range(s.standing + 1, capacity(s, seat) + 1)
            if a % 10 in forbidden_units(s, seat)][:2]
    amount = rng.choice(bad)
    before, log = m.state, list(m.events)
    with pytest.raises(IllegalPlay) as info:
        m.apply({"type": "bid", "seat": seat, "amount": amount})
    assert info.value.rule == "SK-4"
    assert m.state is before and m.events == log


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=2, max_value=6),
    visibility=st.sampled_from(["hidden", "public"]),
    start_oinks=st.sampled_from([10, 10, 3, 25]),
)
def test_random_games_conserve_replay_undo_and_end(
    seed: int, players: int, visibility: str, start_oinks: int
) -> None:
    """SK-6 conservation at every step, C-1 cards in one place, C-3 replay and undo, SK-9
    termination, SK-4 refusals leave state and log unchanged."""
    rng = random.Random(seed)
    options = {"oinks_visibility": visibility, "start_oinks": start_oinks}
    m = new_match("shrine", [f"P{i}" for i in range(1, players + 1)], options, rng=rng)
    undo_at = set(rng.sample(range(150), 3))
    for step in range(MAX_EVENTS):
        if m.state.finished:
            break
        event = RULES.random_play(m.state, rng)
        assert event is not None
        if m.state.phase == "bidding" and rng.random() < 0.05:
            refuse_a_bad_bid(m, rng)
        before = m.state
        m.apply(event)
        check_conservation(m)
        if step in undo_at:
            m.undo()
            assert m.state == before
            m.apply(event)
        if step % 25 == 0:
            check_views(m.state)
    assert m.state.finished, "a random game did not end"
    assert m.state.winners and set(m.state.winners) <= set(m.state.seats)
    assert m.replay() == m.state
    check_views(m.state)
    # The game ends only when the deck cannot supply another lot (SK-9).
    assert len(m.state.deck) == 0
    stats = RULES.stats(m.state)
    assert stats["cards_won"] + len(m.state.out) == 36


def test_play_random_harness_finishes_six_player_games() -> None:
    """The generic harness (simulate, bench) ends Shrine games for every player count."""
    rng = random.Random(11)
    for players in range(2, 7):
        out = play_random("shrine", players, rng)
        assert out.finished
        assert out.match.replay() == out.match.state
