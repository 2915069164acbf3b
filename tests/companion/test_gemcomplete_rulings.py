"""Gem Complete rulings the audit found unmet (issue 18 §6): Sift draws as many as it
discarded, GN-2 rev. 2's binding of the two decks, C-6 scans of crushed cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import Match
from companion.errors import BadSetup, OutOfTurn
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


# --------------------------------------------------------------------- GN-2 rev. 2


def unbound(first: int = 1, **options: Any) -> Match[GemState]:
    m: Match[GemState] = new_match("gemcomplete", ["Ana", "Ben"], options,
                                   rng=random.Random(5))
    m.apply({"type": "first_player", "value": first})
    return m


def copy_of(m: Match[GemState], face: str) -> str:
    return next(s for s, f in sorted(m.state.cards.items()) if f.id == face)


def test_gn2_rev2_seat_1_may_play_deck_b_bound_by_the_first_card_shown() -> None:
    """GN-2 rev. 2: "the same binding holds for the two Gem Complete decks": players pick
    any deck from the box. Ana (seat 1) picked Deck B; her first card binds her to it and
    leaves Deck A to Ben. (Seat 1 was forced onto Deck A: her Ruby was refused.)"""
    m = unbound(1)
    names = [s["deck_name"] for s in RULES.view(m.state, 1)["seats"]]
    assert names == ["deck not chosen yet", "deck not chosen yet"]
    to_main(m, 1)
    tiles = next(a for a in RULES.actions(m.state, 1) if a["type"] == "set")["fields"][0]
    assert {t["group"] for t in tiles["faces"]} == {"Deck A", "Deck B"}
    m.apply({"type": "set", "seat": 1, "card": "b-ruby"})  # a private scan of her Ruby
    assert m.state.side(1).deck_id == "deck-b" and m.state.side(2).deck_id == "deck-a"
    assert [s["deck_name"] for s in RULES.view(m.state, 2)["seats"]] == ["Deck B", "Deck A"]
    assert m.state.side(1).locus[0].serial == copy_of(m, "b-ruby")
    tiles = next(a for a in RULES.actions(m.state, 1) if a["type"] == "play")["fields"][0]
    assert all(t["face"].startswith("b-") and "group" not in t for t in tiles["faces"])
    # From now on a Deck A card is not Ana's (C-1, C-7: the one refusal), and is Ben's.
    before = m.state
    with pytest.raises(OutOfTurn) as info:
        m.apply({"type": "play", "seat": 1, "card": "a-ore-cart"})
    assert info.value.rule == "C-7" and m.state is before
    m.apply({"type": "next", "seat": 1})
    to_main(m, 2)
    m.apply({"type": "play", "seat": 2, "card": "a-ore-cart"})
    assert m.state.side(2).discard == (copy_of(m, "a-ore-cart"),)


def test_gn2_rev2_the_lobby_may_fix_a_seats_deck() -> None:
    m = unbound(1, decks="b")
    assert m.state.side(1).deck_id == "deck-b" and m.state.side(2).deck_id == "deck-a"
    m = unbound(2, decks="-, Deck B")
    assert m.state.side(2).deck_id == "deck-b" and m.state.side(1).deck_id == "deck-a"
    with pytest.raises(BadSetup, match="no deck 'c'"):
        unbound(1, decks="c")
    with pytest.raises(BadSetup, match="no free printed set"):
        unbound(1, decks="a, a")


def test_gn2_rev2_a_first_card_shown_by_an_effect_binds_too() -> None:
    """Ben's first card seen is one crushed from his deck and scanned: he plays Deck A."""
    m = unbound(1)
    to_main(m, 1)
    m.apply({"type": "crush", "seat": 1, "target": 2, "count": 1})
    assert not m.state.side(2).deck_id
    m.apply({"type": "next", "seat": 1})
    to_main(m, 2)
    m.apply({"type": "play", "seat": 2, "card": "a-sift"})
    assert m.state.side(2).deck_id == "deck-a" and m.state.side(1).deck_id == "deck-b"
