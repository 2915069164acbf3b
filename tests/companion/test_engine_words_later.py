"""The engine's fast paths keep what people see (C-8, C-3): words made only when read are the
words the state gives, once; ``evolve`` and the event-field check refuse as before.
"""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError, dataclass

import pytest

from companion.engine import Movement, Play, Said, check_event_fields, evolve
from companion.errors import MalformedEvent
from companion.simulate import play_random


def test_said_makes_its_sentence_once_and_lets_the_parts_go() -> None:
    calls: list[str] = []

    def sentence(name: str) -> str:
        calls.append(name)
        return f"{name} wins."

    inner = Said([(sentence, "Bo")])
    said = Said(["Ana plays Wood.", inner, (sentence, "Cy")])
    assert str(said) == "Ana plays Wood. Bo wins. Cy wins."
    assert str(said) == "Ana plays Wood. Bo wins. Cy wins."
    assert str(inner) == "Bo wins."
    assert calls == ["Bo", "Cy"] and len(said) == 0


@pytest.mark.parametrize("game", ["wuxing", "godnum"])
def test_rulings_read_later_are_each_states_ruling(game: str) -> None:
    """WuXing keeps its words in ``said``, God Num makes them from ``last_play``: either way
    ``Match.rulings[i]`` is the ruling of the state after event ``i``, also after undo."""
    out = play_random(game, 3, random.Random(11))
    m = out.match
    states = []
    state = m.initial
    for e in m.events:
        state = m.rules.apply(state, e)
        states.append(state.ruling)
    assert m.rulings == states and all(states)
    m.undo(2)
    assert m.rulings == states[:-2]


def test_play_and_movement_stay_frozen_values() -> None:
    m = Movement("deck:1", "pot", "K2F9-01A")
    assert m == Movement("deck:1", "pot", "K2F9-01A", 1) and m.count == 1
    p = Play("challenge", "win", "WX-7.6", 2, (m,))
    assert p.facts == {} and p == Play("challenge", "win", "WX-7.6", 2, (m,), {})
    with pytest.raises(FrozenInstanceError):
        m.target = "void"  # type: ignore[misc]


@dataclass(frozen=True)
class _Pot:
    cards: int
    owner: str = "Ana"


def test_evolve_changes_only_what_it_is_told_and_refuses_unknown_fields() -> None:
    pot = _Pot(3)
    bigger = evolve(pot, cards=5)
    assert bigger == _Pot(5) and pot == _Pot(3)
    with pytest.raises(TypeError, match="colour"):
        evolve(pot, colour="red")


def test_event_field_check_fast_path_still_refuses() -> None:
    allowed = {"scan": frozenset({"card", "zone", "seat"})}
    check_event_fields({"type": "scan", "card": "K2F9-01A", "zone": "seat:1"}, allowed)
    with pytest.raises(MalformedEvent, match="'color'"):
        check_event_fields({"type": "scan", "color": "red"}, allowed)
    with pytest.raises(MalformedEvent, match="longer than"):
        check_event_fields({"type": "scan", "card": "x" * 201}, allowed)
    with pytest.raises(MalformedEvent, match="nested too deeply"):
        check_event_fields({"type": "scan", "card": [[[[["x"]]]]]}, allowed)
