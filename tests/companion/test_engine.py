"""The engine core (C-3, C-4): append-only log, replay, undo, version, refusals.

A tiny game defined here (a shared counter that seats raise in turn, with a companion-made
random target) exercises the core without depending on any real game's rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

import pytest

from companion.cards import load_deck
from companion.engine import Event, Match, Option, Rules, Setup, event_type, require, seat_zone
from companion.errors import (
    BadSetup,
    IllegalPlay,
    MalformedEvent,
    NothingToUndo,
    OutOfTurn,
    StaleVersion,
)


@dataclass(frozen=True)
class Counter:
    players: int
    target: int | None = None
    total: int = 0
    turn: int = 1
    ruling: str = ""
    finished: bool = False
    winners: tuple[int, ...] = ()


class CounterRules(Rules[Counter]):
    id = "counter"
    title = "Counter"
    min_players = 2
    max_players = 3
    options = (Option("step", 3, "T-1", "largest raise", minimum=1, maximum=9),
               Option("mode", "up", "T-2", "direction", choices=("up", "down")))

    def sets_needed(self, players: int) -> dict[str, int]:
        return {}

    def start(self, setup: Setup) -> Counter:
        return Counter(len(setup.players))

    def chance(self, state: Counter, rng: random.Random) -> Event | None:
        return None if state.target is not None else {"type": "target", "value": rng.randint(5, 9)}

    def apply(self, state: Counter, event: Event) -> Counter:
        kind = event_type(event)
        if kind == "target":
            if state.target is not None:
                raise IllegalPlay("the target is already drawn", rule="T-0")
            return replace(state, target=require(event, "value", int), ruling="target drawn")
        if kind != "raise":
            raise MalformedEvent(f"unknown event type {kind!r}")
        seat = require(event, "seat", int)
        by = require(event, "by", int)
        if state.target is None:
            raise IllegalPlay("no target yet")
        if seat != state.turn:
            raise OutOfTurn(f"seat {seat} acted but it is seat {state.turn}'s turn")
        if not 1 <= by <= 3:
            raise IllegalPlay(f"raise {by!r} is not 1-3", rule="T-1")
        total = state.total + by
        done = total >= state.target
        return replace(state, total=total, turn=state.turn % state.players + 1,
                       ruling=f"seat {seat} raises to {total}", finished=done,
                       winners=(seat,) if done else ())

    def random_play(self, state: Counter, rng: random.Random) -> Event | None:
        return None if state.finished else {"type": "raise", "seat": state.turn, "by": 1}

    def view(self, state: Counter, seat: int | None) -> dict[str, Any]:
        return {"total": state.total}

    def referee_view(self, state: Counter) -> dict[str, Any]:
        return {"total": state.total, "target": state.target}

    def places(self, state: Counter) -> dict[str, str]:
        return {}

    def stats(self, state: Counter) -> dict[str, float]:
        return {"adjudications": state.total}


RULES = CounterRules()


def setup(players: int = 2) -> Setup:
    names = tuple(f"P{i}" for i in range(1, players + 1))
    return Setup("counter", names, RULES.configure(names, {}), {}, load_deck("wuxing"))


def started(seed: int = 1) -> Match[Counter]:
    m = Match(RULES, setup())
    m.settle(random.Random(seed))
    return m


def test_companion_randomness_is_an_event_so_replay_is_exact() -> None:
    m = started(seed=4)
    assert m.version == 1 and m.events[0]["type"] == "target"
    assert m.replay() == m.state
    assert Match(RULES, setup(), m.events).state == m.state


def test_version_is_the_log_length_and_stale_actions_are_refused() -> None:
    m = started()
    m.apply({"type": "raise", "seat": 1, "by": 2}, version=1)
    assert m.version == 2
    with pytest.raises(StaleVersion, match="version 2, the action was for 1"):
        m.apply({"type": "raise", "seat": 2, "by": 1}, version=1)
    assert m.version == 2


@pytest.mark.parametrize(
    ("event", "error", "words"),
    [
        ({"type": "raise", "seat": 2, "by": 1}, OutOfTurn, "seat 1's turn"),
        ({"type": "raise", "seat": 1, "by": 7}, IllegalPlay, r"raise 7 is not 1-3 \(T-1\)"),
        ({"type": "raise", "seat": 1}, MalformedEvent, "lacks 'by'"),
        ({"type": "raise", "seat": 1, "by": "2"}, MalformedEvent, "must be int"),
        ({"type": "raise", "seat": True, "by": 1}, MalformedEvent, "must be int"),
        ({"type": "jump"}, MalformedEvent, "'jump'"),
        ({"kind": "raise"}, MalformedEvent, "lacks 'type'"),
    ],
)
def test_refusals_change_nothing(event: Event, error: type, words: str) -> None:
    m = started()
    before_state, before_log = m.state, list(m.events)
    with pytest.raises(error, match=words):
        m.apply(event)
    assert m.state == before_state and m.events == before_log


def test_undo_restores_the_previous_state_by_replay() -> None:
    m = started()
    states = [m.state]
    for seat, by in [(1, 2), (2, 3), (1, 1)]:
        m.apply({"type": "raise", "seat": seat, "by": by})
        states.append(m.state)
    dropped = m.undo()
    assert dropped == [{"type": "raise", "seat": 1, "by": 1}]
    assert m.state == states[-2] and m.version == 3
    m.undo(2)
    assert m.state == states[0] and m.rulings == ["target drawn"]
    with pytest.raises(NothingToUndo):
        m.undo(2)
    with pytest.raises(NothingToUndo):
        m.undo(0)


def test_options_are_validated_with_their_ruling() -> None:
    names = ("Ana", "Ben")
    assert RULES.configure(names, None) == {"step": 3, "mode": "up"}
    assert RULES.configure(names, {"step": 9})["step"] == 9
    with pytest.raises(BadSetup, match=r"'step' must be 1-9, got 10 \(T-1\)"):
        RULES.configure(names, {"step": 10})
    with pytest.raises(BadSetup, match="must be a whole number"):
        RULES.configure(names, {"step": True})
    with pytest.raises(BadSetup, match="one of"):
        RULES.configure(names, {"mode": "sideways"})
    with pytest.raises(BadSetup, match="no option 'speed'"):
        RULES.configure(names, {"speed": 1})
    with pytest.raises(BadSetup, match="2-3 players, got 1"):
        RULES.configure(("Ana",), None)
    with pytest.raises(BadSetup, match="must differ"):
        RULES.configure(("Ana", "ana"), None)
    with pytest.raises(BadSetup, match="1-40 characters"):
        RULES.configure(("Ana", " "), None)


def test_seat_zones() -> None:
    assert seat_zone("seat:2", 3) == 2
    assert seat_zone("universe", 3) is None
    with pytest.raises(MalformedEvent, match="no seat 4"):
        seat_zone("seat:4", 3)
    with pytest.raises(MalformedEvent, match="is not a zone"):
        seat_zone("seat:x", 3)
    # C-7: one spelling only; Python's int() would read each of these as a seat.
    for odd in ("seat:+1", "seat: 2", "seat:01", "seat:1 ", "seat:1\n", " seat:1", "SEAT:1",
                "seat:１", "seat:1_0"):
        with pytest.raises(MalformedEvent, match="C-7"):
            seat_zone(odd, 3)


def test_event_fields_refuse_unknown_types_fields_and_oversized_values() -> None:
    from companion.engine import check_event_fields

    allowed = {"scan": frozenset({"card", "zone", "seat"})}
    check_event_fields({"type": "scan", "card": "K2F9-01A", "zone": "seat:1", "seat": 1},
                       allowed)
    refused = {
        "has no field 'junk'": {"type": "scan", "card": "x", "junk": "y" * 60_000},
        "no event type 'next'": {"type": "next"},
        "longer than 200": {"type": "scan", "card": "x" * 201},
        "nested too deeply": {"type": "scan", "card": [[[[[["x"]]]]]]},
        "more than 64 items": {"type": "scan", "card": list(range(65))},
    }
    for words, event in refused.items():
        with pytest.raises(MalformedEvent, match=words):
            check_event_fields(event, allowed)
