"""Gem Complete at the table: revision 2 (GC-3, GC-4), no oracle for hidden cards (C-7),
the play as data in plain words (C-8) and a played card's effect in one tap."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Match, evolve
from companion.errors import CompanionError, IllegalPlay, MalformedEvent
from companion.games.gemcomplete import RULES, GemState, LocusCard
from companion.games.gemcomplete.state import is_public
from companion.registry import new_match
from companion.simulate import play_random


def table(first: int = 1) -> Match[GemState]:
    # The lobby fixes Ana to Deck A and Ben to Deck B (GN-2 rev. 2; unfixed seats are bound
    # by their first card: test_gemcomplete_rulings.py).
    m: Match[GemState] = new_match("gemcomplete", ["Ana", "Ben"], {"decks": "a, b"},
                                   rng=random.Random(5))
    m.apply({"type": "first_player", "value": first})
    return m


def ser(m: Match[GemState], seat: int, name: str) -> str:
    for s in sorted(m.state.side(seat).unseen):
        if m.state.cards[s].id.endswith("-" + name):
            return s
    raise LookupError(name)


def answer(state: GemState, event: dict[str, Any]) -> tuple[str, str, str]:
    try:
        RULES.apply(state, event)
    except CompanionError as exc:
        return type(exc).__name__, exc.code, str(exc)
    return "accepted", "", ""


def to_main(m: Match[GemState], seat: int) -> None:
    m.apply({"type": "next", "seat": seat})
    m.apply({"type": "next", "seat": seat})


# --------------------------------------------------------------------- GC-3 rev. 2


def test_gc3_rev2_no_effects_at_the_declaration_step() -> None:
    """GC-3 rev. 2: effects are refused at the Declaration Step (accepted before rev. 2)."""
    m = table(1)
    assert m.state.step == "declaration"
    for event in ({"type": "crush", "seat": 1, "target": 2, "count": 1},
                  {"type": "draw", "seat": 1, "target": 1, "count": 1},
                  {"type": "discard", "seat": 1, "target": 1, "count": 1, "from": "hand"}):
        before = m.state
        with pytest.raises(IllegalPlay) as info:
            m.apply(event)
        assert info.value.rule == "GC-3" and m.state is before
    assert {a["type"] for a in RULES.actions(m.state, 1)} == {"next"}


def test_gc3_rev2_ore_cart_proposes_its_draw_and_one_tap_applies_it() -> None:
    """GC-3 rev. 2: a played card proposes its own effect from the deck data: Ore Cart is a
    tap on its tile and one confirming tap (it took 6 taps through generic forms)."""
    m = table(1)
    to_main(m, 1)
    hand = m.state.side(1).hand_count
    play = next(a for a in RULES.actions(m.state, 1) if a["type"] == "play")
    tiles = {t["face"] for t in play["fields"][0]["faces"]}
    assert "a-ore-cart" in tiles and not any(t["gem"] for t in play["fields"][0]["faces"])
    m.apply({"type": "play", "seat": 1, "card": "a-ore-cart"})  # tap 1: the tile
    first = RULES.actions(m.state, 1)[0]
    assert first["type"] == "draw" and first["confirm"] == "Ana draws 1 card."
    tap = {"type": first["type"], "seat": first["seat"],
           **{f["name"]: f["default"] for f in first["fields"]}}
    m.apply(tap)  # tap 2: confirm
    assert m.state.side(1).hand_count == hand - 1 + 1 and m.state.pending == ()
    assert RULES.actions(m.state, 1)[0]["type"] != "draw" or "confirm" not in \
        RULES.actions(m.state, 1)[0]


def test_gc3_rev2_a_card_with_two_effects_proposes_them_in_order() -> None:
    m = table(1)
    to_main(m, 1)
    m.apply({"type": "play", "seat": 1, "card": "a-cave-in"})
    first = RULES.actions(m.state, 1)[0]
    assert first["confirm"] == (
        "Crush 2: Ana shows the top 2 cards of their deck in their place, one by one, then "
        "puts each on their discard pile.")
    m.apply({"type": "crush", "seat": 1, **{f["name"]: f["default"] for f in first["fields"]}})
    assert [a["type"] for a in RULES.actions(m.state, 1)] == ["scan"]  # C-6: show them
    for card in sorted(m.state.side(1).unseen)[:2]:
        m.apply({"type": "scan", "seat": 1, "card": card, "zone": "seat:1"})
    second = RULES.actions(m.state, 1)[0]
    assert second["confirm"] == (
        "Crush 2: Ben shows the top 2 cards of their deck in their place, one by one, then "
        "puts each on their discard pile.")
    assert RULES.view(m.state, 2)["pending"] == [second["confirm"]]
    m.apply({"type": "next", "seat": 1})  # ending the turn drops what is left
    assert m.state.pending == ()


# --------------------------------------------------------------------- GC-4 rev. 2


def _failed_declaration() -> tuple[Match[GemState], list[str]]:
    m = table(1)
    faces = ["ruby", "sapphire", "avalanche", "topaz", "amethyst", "diamond"]
    serials = []
    for f in faces:
        s = ser(m, 1, f)
        serials.append(s)
        to_main(m, 1)
        m.apply({"type": "set", "seat": 1, "card": s})
        m.apply({"type": "next", "seat": 1})
        to_main(m, 2)
        m.apply({"type": "next", "seat": 2})
    m.apply({"type": "declare", "seat": 1, "positions": [1, 2, 3, 4, 5, 6]})
    m.apply({"type": "reveal", "seat": 1, "cards": serials})
    m.apply({"type": "choose", "seat": 2, "cards": [serials[0], serials[2]]})
    return m, serials


def test_gc4_rev2_the_four_turned_face_down_are_hidden_from_the_opponent_again() -> None:
    m, serials = _failed_declaration()
    kept = [serials[1], serials[3], serials[4], serials[5]]
    for viewer in (2, None):
        text = json.dumps(RULES.view(m.state, viewer))
        assert not any(s in text for s in kept)
        assert "Sapphire" not in text and "Topaz" not in text
    assert [r["name"] for r in RULES.view(m.state, 1)["seats"][0]["locus"]] == \
        ["Sapphire", "Topaz", "Amethyst", "Diamond"]
    lp = RULES.last_play(m.state, 2)
    assert lp is not None and lp["text"] == ("Ben sends Ruby and Avalanche to Ana's discard "
                                             "pile; the other four go back face down.")
    assert lp["physical"][1] == "Ana: turn the other four face down again, in their order."
    # Naming one of the four now reads like naming any other card Ben may not know (C-7).
    m.apply({"type": "next", "seat": 1})  # Recovery Step -> Draw Step, Main Phase
    m.apply({"type": "next", "seat": 1})  # End Phase
    to_main(m, 2)
    probe = answer(m.state, {"type": "return", "seat": 2, "target": 1, "cards": [serials[1]]})
    other = ser(m, 1, "emerald")
    again = answer(m.state, {"type": "return", "seat": 2, "target": 1, "cards": [other]})
    assert probe == (again[0], again[1], again[2].replace(other, serials[1]))


# --------------------------------------------------------------------- C-7 no oracle


def test_c7_probing_all_forty_serials_with_return_names_no_locus_card() -> None:
    """The attack found: Ben tries ``return`` with each of Ana's 40 serials; the privately
    scanned Locus card used to answer differently. Every answer now reads the same."""
    m = table(1)
    ruby = ser(m, 1, "ruby")
    to_main(m, 1)
    m.apply({"type": "set", "seat": 1, "card": ruby})
    m.apply({"type": "next", "seat": 1})
    to_main(m, 2)
    ana = sorted(s for s, o in m.state.owner.items() if o == 1)
    assert len(ana) == 40
    shapes = set()
    for s in ana:
        kind, code, words = answer(m.state, {"type": "return", "seat": 2, "target": 1,
                                             "cards": [s]})
        shapes.add((kind, code, words.replace(s, "<card>")))
    assert len(shapes) == 1, shapes
    assert "Ruby" not in next(iter(shapes))[2]


def _swap_hidden(state: GemState, owner: int, a: str, b: str) -> GemState:
    """``state`` with the private Locus card ``a`` of ``owner`` swapped for the unseen ``b``."""
    side = state.side(owner)
    locus = tuple(LocusCard(b) if ls.serial == a else ls for ls in side.locus)
    side = evolve(side, locus=locus, unseen=(side.unseen - {b}) | {a})
    sides = list(state.sides)
    sides[owner - 1] = side
    return evolve(state, sides=tuple(sides))


def _probes(asker: int, card: str) -> list[dict[str, Any]]:
    owner = 3 - asker
    return [
        {"type": "return", "seat": asker, "target": owner, "cards": [card], "to": "hand"},
        {"type": "return", "seat": asker, "target": asker, "cards": [card], "to": "deck"},
        {"type": "crush", "seat": asker, "target": owner, "count": 1, "cards": [card]},
        {"type": "discard", "seat": asker, "target": owner, "count": 1, "from": "hand",
         "cards": [card]},
        {"type": "discard", "seat": asker, "target": asker, "count": 1, "from": "deck",
         "cards": [card]},
        {"type": "play", "seat": asker, "card": card},
        {"type": "set", "seat": asker, "card": card},
        {"type": "reveal", "seat": asker, "cards": [card]},
        {"type": "choose", "seat": asker, "cards": [card, card]},
        {"type": "scan", "seat": asker, "card": card, "zone": f"seat:{asker}"},
        {"type": "scan", "seat": asker, "card": card, "zone": f"locus:{asker}"},
        {"type": "scan", "seat": asker, "card": card, "zone": f"locus:{owner}"},
    ]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.floats(0.1, 1), pick=st.integers(0, 10_000))
def test_c7_no_request_tells_a_hidden_locus_card_from_a_card_in_the_deck(
        seed: int, cut: float, pick: int) -> None:
    """C-7 over random games: for any request the other seat can send naming card A, the
    answer (class, code, words) is the same whether A lies privately in the Locus or B
    does (and A is in the deck or hand)."""
    out = play_random("gemcomplete", 2, random.Random(seed))
    events = out.match.events
    # Up to the last event: after it the game is over and every request is refused alike.
    m = Match(RULES, out.match.setup, events[:max(1, min(int(cut * len(events)),
                                                          len(events) - 1))])
    state = m.state
    for owner in (1, 2):
        hidden = [ls.serial for ls in state.side(owner).locus
                  if ls.serial is not None and not ls.public]
        unseen = sorted(state.side(owner).unseen)
        if not hidden or not unseen:
            continue
        a, b = hidden[pick % len(hidden)], unseen[pick % len(unseen)]
        twin = _swap_hidden(state, owner, a, b)
        for card in (a, b):
            for event in _probes(3 - owner, card):
                assert answer(state, event) == answer(twin, event), event
        for viewer in (3 - owner, None):
            assert RULES.view(state, viewer) == RULES.view(twin, viewer)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_c7_hidden_cards_never_in_another_seats_last_play(seed: int) -> None:
    """Over random games: a card the viewer may not know (a private Locus card, a card drawn
    or crushed unseen) never appears in that viewer's last_play, by serial or by face."""
    out = play_random("gemcomplete", 2, random.Random(seed))
    m = Match(RULES, out.match.setup)
    for event in out.match.events:
        m.apply(event)
        s = m.state
        for viewer in (1, 2, None):
            secret = {c for c, o in s.owner.items() if o != viewer and not is_public(s, c)}
            lp = RULES.last_play(s, viewer)
            assert lp is not None
            text = json.dumps(lp)
            assert not any(c in text for c in secret)
            for mv in lp["movements"]:
                if mv["card"] is None:
                    assert mv["face"] is None and mv["name"] is None
                else:
                    assert mv["card"] not in secret


# --------------------------------------------------------------------- the play as data


def test_last_play_of_a_crush_says_what_to_do_and_how_to_undo_it() -> None:
    m = table(1)
    to_main(m, 1)
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 3})
    lp = RULES.last_play(m.state, None)
    assert lp is not None and lp["rule"] == "GC-5" and lp["outcome"] == "crush"
    assert lp["physical"] == ["Ana: show the top 3 cards of your deck in your place, one by "
                              "one, then put each face up on your discard pile."]
    assert lp["undo"] == ["Put 3 cards from the top of Ana's discard pile back on top of "
                          "Ana's deck."]
    assert lp["movements"] == [{"card": None, "face": None, "name": None, "from": "deck:1",
                                "to": "discard:1", "count": 3,
                                "from_words": "Ana's deck", "to_words": "Ana's discard pile"}]


def test_last_play_of_a_private_set_shows_the_card_to_its_owner_only() -> None:
    m = table(1)
    ruby = ser(m, 1, "ruby")
    to_main(m, 1)
    m.apply({"type": "set", "seat": 1, "card": ruby})
    mine, theirs, screen = (RULES.last_play(m.state, v) for v in (1, 2, None))
    assert mine is not None and theirs is not None and screen is not None
    assert mine["text"] == "Ana sets Ruby face down at position 1 of the Locus."
    assert theirs["text"] == screen["text"] == ("Ana sets a card face down at position 1 of "
                                                "the Locus.")
    assert mine["cards"][0]["serial"] == ruby and theirs["cards"] == []
    assert ruby not in json.dumps(theirs) and "Ruby" not in json.dumps(screen)


def test_the_deck_out_is_said_in_the_last_play() -> None:
    m = table(1)
    to_main(m, 1)
    m.apply({"type": "crush", "seat": 1, "target": 2, "count": 40})
    lp = RULES.last_play(m.state, 2)
    assert lp is not None and lp["outcome"] == "deck_out" and lp["rule"] == "GC-5"
    assert lp["text"].endswith("Ben's deck is empty: Ana wins.")


def test_event_fields_refuse_unknown_fields() -> None:
    m = table(1)
    before = m.state
    with pytest.raises(MalformedEvent, match="'junk'"):
        m.apply({"type": "next", "seat": 1, "junk": 1})
    assert m.state is before and "override" not in RULES.event_fields["scan"]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.floats(0, 1))
def test_faces_offered_are_accepted_by_apply(seed: int, cut: float) -> None:
    """A card tile (C-1: a face id picks a copy the zone can hold) is offered exactly when
    ``apply`` accepts that face now, for the seat the action is for."""
    out = play_random("gemcomplete", 2, random.Random(seed))
    events = out.match.events
    m = Match(RULES, out.match.setup, events[:int(cut * len(events))])
    every = sorted({f.id for f in m.state.cards.values()})
    for action in RULES.actions(m.state, None):
        for f in action["fields"]:
            if f["kind"] != "card" or action["type"] == "return":
                continue
            offered = {t["face"] for t in f["faces"]}
            for face in every:
                key = "cards" if f.get("multiple") else "card"
                event = {"type": action["type"], "seat": action["seat"],
                         key: [face] if key == "cards" else face}
                if action["type"] == "scan":  # a C-6 show: the page sends the field's zone
                    event["zone"] = f["zone"]
                accepted = answer(m.state, event)[0] == "accepted"
                assert accepted == (face in offered), (event, answer(m.state, event))


_JARGON = re.compile(r"\b(?:GC|C)-\d|seat:\d|locus:\d|deck:\d|\b[ab]-[a-z]+\b|\(s\)|\bv\d+\b")


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_player_words_are_free_of_ids_zones_and_face_ids(seed: int) -> None:
    out = play_random("gemcomplete", 2, random.Random(seed))
    m = Match(RULES, out.match.setup)
    for event in out.match.events:
        m.apply(event)
        for viewer in (None, 1, 2):
            lp = RULES.last_play(m.state, viewer)
            assert lp is not None
            v = RULES.view(m.state, viewer)
            said = [lp["text"], *lp["physical"], *lp["undo"], v["ruling"], v["prompt"],
                    *v["pending"], *(mv["from_words"] for mv in lp["movements"]),
                    *(mv["to_words"] for mv in lp["movements"])]
            for line in said:
                assert not _JARGON.search(line), line


def test_views_refuse_a_viewer_not_at_the_table() -> None:
    """Only the referee view shows everything: ``view(state, 0)`` is not a back door."""
    m = table(1)
    for bad in (0, 3, -1, True):
        with pytest.raises(MalformedEvent):
            RULES.view(m.state, bad)
    with pytest.raises(MalformedEvent):
        RULES.last_play(m.state, 3)
    assert RULES.last_play(m.state, 0) is not None
