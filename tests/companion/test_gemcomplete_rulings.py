"""Gem Complete rulings the audit found unmet (issue 18 §6): Sift draws as many as it
discarded, GN-2 rev. 2's binding of the two decks, C-6 scans of crushed cards."""

from __future__ import annotations

import random
from typing import Any

from companion.engine import Match
from companion.games.gemcomplete import RULES, GemState
from companion.registry import new_match


def table(first: int = 1) -> Match[GemState]:
    m: Match[GemState] = new_match("gemcomplete", ["Ana", "Ben"], rng=random.Random(5))
    m.apply({"type": "first_player", "value": first})
    return m


def to_main(m: Match[GemState], seat: int) -> None:
    m.apply({"type": "next", "seat": seat})
    m.apply({"type": "next", "seat": seat})


def tap(action: dict[str, Any]) -> dict[str, Any]:
    """The event a confirming tap on a proposed action sends (every field's default)."""
    return {"type": action["type"], "seat": action["seat"],
            **{f["name"]: f["default"] for f in action["fields"]}}


# --------------------------------------------------------------------- Sift


def test_sift_proposes_drawing_as_many_as_were_discarded() -> None:
    """Sift: "Discard up to 2 cards from your hand, then draw as many cards." Discarding 1
    proposes "draw 1" (it proposed "draw 2")."""
    m = table(1)
    to_main(m, 1)
    m.apply({"type": "play", "seat": 1, "card": "a-sift"})
    first = RULES.actions(m.state, 1)[0]
    assert first["type"] == "discard" and first["confirm"] == "Ana discards 2 cards from hand."
    assert RULES.view(m.state, 1)["pending"][1] == "Ana draws as many cards as they discarded."
    hand = m.state.side(1).hand_count
    m.apply({**tap(first), "count": 1})  # she keeps the other card
    second = RULES.actions(m.state, 1)[0]
    assert second["type"] == "draw" and second["confirm"] == "Ana draws 1 card."
    m.apply(tap(second))
    assert m.state.side(1).hand_count == hand and m.state.pending == ()


def test_sift_discarding_two_still_draws_two() -> None:
    m = table(1)
    to_main(m, 1)
    m.apply({"type": "play", "seat": 1, "card": "a-sift"})
    m.apply(tap(RULES.actions(m.state, 1)[0]))
    second = RULES.actions(m.state, 1)[0]
    assert second["confirm"] == "Ana draws 2 cards."
