"""Gem Complete by camera (C-6 rev. 3, C-9; issue 26): each discard pile is a zone of the
mat (``discard:<n>``). A card an effect puts on a pile is shown in its owner's place first;
seen straight on the owner's pile while the pile still owes it, it counts as shown. Nothing
else is taken from a discard pile zone, whatever the card (C-7)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_gemcomplete import refused as refused_by

from companion.engine import Match
from companion.errors import CompanionError, IllegalPlay
from companion.games.gemcomplete import RULES, GemState
from companion.registry import new_match


def table() -> Match[GemState]:
    m: Match[GemState] = new_match("gemcomplete", ["Ana", "Ben"], {"decks": "a, b"},
                                   rng=random.Random(5))
    m.apply({"type": "first_player", "value": 1})
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "next", "seat": 1})  # Ana's Main Phase
    return m


def refused(m: Match[GemState], event: dict[str, Any]) -> str:
    return str(refused_by(m, event, CompanionError, None))


def test_discard_piles_are_zones_of_the_mat() -> None:
    assert "discard:<n>" in RULES.zones


def test_a_crushed_card_seen_straight_on_the_pile_counts_as_shown() -> None:
    m = table()
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 2})
    assert RULES.view(m.state, None)["prompt"].startswith(
        "Ana: show the 2 cards for your discard pile in your place")
    first, second = sorted(m.state.side(1).unseen)[:2]
    m.apply({"type": "scan", "card": first, "zone": "discard:1"})  # the camera, unshown
    m.apply({"type": "scan", "card": second, "zone": "seat:1", "seat": 1})  # shown first
    assert not m.state.side(1).owed
    assert {first, second} <= set(m.state.side(1).discard)
    assert Match(RULES, m.setup, m.events).state == m.state  # replay is exact


def test_nothing_else_is_taken_from_a_discard_pile() -> None:
    m = table()
    card = sorted(m.state.side(1).unseen)[0]
    text = refused(m, {"type": "scan", "card": card, "zone": "discard:1"})
    assert "nothing goes there unseen now" in text
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 1})
    # Ben cannot show Ana's card on Ana's pile (C-7), and Ben's pile owes nothing.
    refused(m, {"type": "scan", "card": card, "zone": "discard:1", "seat": 2})
    ben = sorted(m.state.side(2).unseen)[0]
    with pytest.raises(IllegalPlay):
        RULES.apply(m.state, {"type": "scan", "card": ben, "zone": "discard:2"})


def test_the_answer_on_a_pile_never_depends_on_the_card() -> None:
    m = table()
    answers = set()
    for card in [*sorted(m.state.side(1).unseen)[:5], *sorted(m.state.side(2).unseen)[:5]]:
        with pytest.raises(CompanionError) as exc:
            RULES.apply(m.state, {"type": "scan", "card": card, "zone": "discard:1",
                                  "seat": 1})
        answers.add(str(exc.value).replace(repr(card), "<card>"))
    assert len(answers) == 1, answers
