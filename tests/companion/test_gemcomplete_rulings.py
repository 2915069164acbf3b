"""Gem Complete rulings the audit found unmet (issue 18 §6): Sift draws as many as it
discarded, GN-2 rev. 2's binding of the two decks, C-6 scans of crushed cards."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Match
from companion.errors import BadSetup, IllegalPlay, OutOfTurn
from companion.games.gemcomplete import RULES, GemState
from companion.games.gemcomplete.state import owing
from companion.registry import new_match
from companion.simulate import play_random


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
    assert first["type"] == "discard" and first["confirm"] == (
        "Ana discards 2 cards from hand: shows them in their place, one by one, then puts each "
        "on their discard pile.")
    assert RULES.view(m.state, 1)["pending"][1] == "Ana draws as many cards as they discarded."
    hand = m.state.side(1).hand_count
    m.apply({**tap(first), "count": 1})  # she keeps the other card
    m.apply({"type": "scan", "seat": 1, "card": "a-tunnel", "zone": "seat:1"})  # C-6
    second = RULES.actions(m.state, 1)[0]
    assert second["type"] == "draw" and second["confirm"] == "Ana draws 1 card."
    m.apply(tap(second))
    assert m.state.side(1).hand_count == hand and m.state.pending == ()


def test_sift_discarding_two_still_draws_two() -> None:
    m = table(1)
    to_main(m, 1)
    m.apply({"type": "play", "seat": 1, "card": "a-sift"})
    m.apply(tap(RULES.actions(m.state, 1)[0]))
    for face in ("a-tunnel", "a-tremor"):  # C-6: the two discarded cards are shown
        m.apply({"type": "scan", "seat": 1, "card": face, "zone": "seat:1"})
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
    m.apply({"type": "set", "seat": 1, "card": copy_of(m, "b-ruby")})  # a private scan
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
    m.apply({"type": "scan", "seat": 2, "card": copy_of(m, "a-sift"), "zone": "seat:2"})  # C-6
    assert m.state.side(2).deck_id == "deck-a" and m.state.side(1).deck_id == "deck-b"
    assert m.state.side(2).discard == (copy_of(m, "a-sift"),)


# --------------------------------------------------------------------- C-6


def crushed(count: int = 2) -> Match[GemState]:
    """Ana (Deck A) crushes the top ``count`` cards of Ben's deck (Deck B), unscanned."""
    m = unbound(1, decks="a, b")
    to_main(m, 1)
    m.apply({"type": "crush", "seat": 1, "target": 2, "count": count})
    return m


def test_c6_a_crush_waits_for_the_crushed_cards_shown_in_any_order() -> None:
    """C-6: cards moved from a deck to a visible place are shown in their owner's zone.
    Crushed cards stayed "unidentified" forever; now the crush waits for them."""
    m = crushed(2)
    assert m.state.side(2).owed == 2
    view = RULES.view(m.state, None)
    assert view["prompt"] == ("Ben: show the 2 cards for your discard pile in your place, one "
                              "by one in any order, each then face up on the pile: scan or "
                              "tap each.")
    # Nothing else goes on meanwhile, whoever asks (C-6).
    for event in ({"type": "next", "seat": 1}, {"type": "set", "seat": 1},
                  {"type": "crush", "seat": 1, "target": 2, "count": 1}):
        before = m.state
        with pytest.raises(IllegalPlay) as info:
            m.apply(event)
        assert info.value.rule == "C-6" and m.state is before
    # Ana cannot show Ben's cards (C-7); Ben's phone offers his faces as tiles.
    with pytest.raises(OutOfTurn):
        m.apply({"type": "scan", "seat": 1, "card": "b-ruby", "zone": "seat:2"})
    assert RULES.actions(m.state, 1) == []
    act = RULES.actions(m.state, 2)
    assert [a["type"] for a in act] == ["scan"] and act[0]["fields"][0]["zone"] == "seat:2"
    assert "b-avalanche" in {t["face"] for t in act[0]["fields"][0]["faces"]}
    m.apply({"type": "scan", "seat": 2, "card": "b-topaz", "zone": "seat:2"})
    lp = RULES.last_play(m.state, 1)
    assert lp is not None
    assert lp["text"] == "Ben shows Topaz from the discard pile. 1 more card to show."
    m.apply({"type": "scan", "seat": 2, "card": "b-avalanche", "zone": "seat:2"})
    side = m.state.side(2)
    assert [m.state.cards[c].id for c in side.discard] == ["b-topaz", "b-avalanche"]
    assert side.discard_unknown == 0 and side.owed == 0
    assert [c["name"] for c in RULES.view(m.state, 1)["seats"][1]["discard"]] == [
        "Topaz", "Avalanche"]
    m.apply({"type": "next", "seat": 1})  # play goes on
    assert m.state.turn == 2


def test_c6_the_referee_completes_a_crush_by_hand() -> None:
    m = crushed(1)
    m.apply({"type": "scan", "card": "b-diamond", "zone": "seat:2"})  # no seat: the referee
    assert m.state.side(2).discard == (copy_of(m, "b-diamond"),) and not m.state.side(2).owed


def test_c6_a_card_scanned_with_the_crush_is_not_asked_again() -> None:
    m = unbound(1, decks="a, b")
    to_main(m, 1)
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 2, "cards": ["a-ruby"]})
    assert m.state.side(1).owed == 1
    m.apply({"type": "scan", "seat": 1, "card": "a-ruby", "zone": "seat:1"})  # the other Ruby
    assert [m.state.cards[c].id for c in m.state.side(1).discard] == ["a-ruby", "a-ruby"]


def test_c6_a_discard_from_hand_waits_for_its_cards_too() -> None:
    """Pickpocket: Ben discards a card of his choice; it lies face up: Ben shows it."""
    m = unbound(1, decks="a, b")
    to_main(m, 1)
    m.apply({"type": "play", "seat": 1, "card": "a-pickpocket"})
    m.apply(tap(RULES.actions(m.state, 1)[0]))
    assert m.state.side(2).owed == 1 and m.state.side(2).hand_count == 4
    m.apply({"type": "scan", "seat": 2, "card": "b-sift", "zone": "seat:2"})
    assert m.state.side(2).discard == (copy_of(m, "b-sift"),)


def test_c6_a_crush_that_empties_the_deck_ends_the_game_without_waiting() -> None:
    m = crushed(35)
    assert m.state.finished and m.state.winners == (1,)
    assert RULES.actions(m.state, 2) == []


# --------------------------------------------------------------------- random games


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_random_games_identify_every_card_put_face_up_and_bind_by_the_first_card(
        seed: int) -> None:
    """Over random games (default: no deck fixed): whenever the table is not waiting for
    a C-6 scan, no crushed or discarded card is unidentified (random plays always scan the
    card played); every identified card of a seat is of the one printed deck it is bound
    to, and the two seats play different decks."""
    out = play_random("gemcomplete", 2, random.Random(seed))
    m = Match(RULES, out.match.setup)
    for event in out.match.events:
        m.apply(event)
        s = m.state
        for seat in (1, 2):
            side = s.side(seat)
            if not owing(s) and not s.finished:
                assert side.discard_unknown == 0
            shown = [*side.discard, *(ls.serial for ls in side.locus if ls.serial)]
            if side.deck_id:
                assert {s.cards[c].deck for c in shown} <= {side.deck_id}
            else:
                assert not shown
        if s.side(1).deck_id:
            assert s.side(2).deck_id and s.side(1).deck_id != s.side(2).deck_id


def test_random_games_seat_1_plays_either_deck() -> None:
    decks = set()
    for seed in range(12):
        out = play_random("gemcomplete", 2, random.Random(seed))
        decks.add(out.match.state.side(1).deck_id)
    assert decks == {"deck-a", "deck-b"}
