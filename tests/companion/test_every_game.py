"""One random-playout harness over every registered game (after OpenSpiel's
``kuhn_poker_test``): whatever the game, random legal play terminates, replay equals the
live state, undo restores the previous state, every printed card is in exactly one place,
views are JSON, and junk events are refused without changing anything.

A sixth game added to the registry is checked here with no new test code.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Match
from companion.errors import CompanionError
from companion.registry import GAMES, find_rules
from companion.simulate import play_random


def player_counts(game: str) -> list[int]:
    rules = find_rules(game)
    return sorted({rules.min_players, rules.max_players})


CASES = [(g, n) for g in GAMES for n in player_counts(g)]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_games_terminate_and_replay_exactly(game: str, players: int) -> None:
    for seed in range(3):
        out = play_random(game, players, random.Random(seed))
        m = out.match
        assert out.finished, f"{game} with {players} players did not end (seed {seed})"
        assert m.state.winners and set(m.state.winners) <= set(range(1, players + 1))
        assert m.replay() == m.state
        assert Match(m.rules, m.setup, m.events).state == m.state
        assert m.rules.random_play(m.state, random.Random(0)) is None
        assert len(m.rulings) == len(m.events) and all(m.rulings)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_printed_card_is_in_exactly_one_place(game: str, players: int) -> None:
    out = play_random(game, players, random.Random(11))
    m = out.match
    replayed = Match(m.rules, m.setup)
    for event in m.events:
        replayed.apply(event)
        places = m.rules.places(replayed.state)
        # A mapping has one place per serial; it must name every card of the table.
        assert set(places) == set(m.setup.cards)
        assert all(isinstance(p, str) and p for p in places.values())


@pytest.mark.parametrize(("game", "players"), CASES)
def test_views_are_json_for_every_seat_at_every_step(game: str, players: int) -> None:
    out = play_random(game, players, random.Random(5))
    m = out.match
    replayed = Match(m.rules, m.setup)
    for i, event in enumerate(m.events):
        replayed.apply(event)
        if i % 7:
            continue
        for seat in [None, *range(1, players + 1)]:
            json.dumps(m.rules.view(replayed.state, seat))
            json.dumps(m.rules.actions(replayed.state, seat))
        json.dumps(m.rules.referee_view(replayed.state))


@settings(max_examples=50, deadline=None)
@given(game=st.sampled_from(list(GAMES)), seed=st.integers(0, 10_000),
       cut=st.floats(0, 1))
def test_undo_after_apply_restores_the_previous_state(game: str, seed: int,
                                                      cut: float) -> None:
    rules = find_rules(game)
    out = play_random(game, rules.min_players, random.Random(seed))
    events = out.match.events
    k = int(cut * (len(events) - 1))
    m = Match(rules, out.match.setup, events[:k])
    before, rulings = m.state, list(m.rulings)
    m.apply(events[k])
    assert m.undo() == [events[k]]
    assert m.state == before and m.rulings == rulings and m.version == k


JUNK: list[Any] = [
    {},
    {"type": 7},
    {"type": "no-such-event"},
    {"type": "scan"},
    {"type": "scan", "card": "ZZZZ-ZZZ", "zone": "seat:1"},
    {"type": "scan", "card": 12, "zone": "seat:1"},
    {"type": "scan", "card": "ZZZZ-ZZZ", "zone": "seat:99"},
    {"type": "scan", "card": "T1:W:WO:ZZZZ:000:0", "zone": "nowhere"},
]


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("junk", JUNK, ids=lambda j: json.dumps(j))
def test_junk_is_refused_and_changes_nothing(game: str, junk: Any) -> None:
    out = play_random(game, find_rules(game).min_players, random.Random(2), max_events=15)
    m = out.match
    state, events = m.state, list(m.events)
    with pytest.raises(CompanionError):
        m.apply(junk)
    assert m.state == state and m.events == events
