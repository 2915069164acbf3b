"""Gem Complete, rulings revision 3 (issue 28; issue 27 points 5 and 13): each test cites
the ruling it checks."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import Match
from companion.errors import CompanionError, IllegalPlay
from companion.games.gemcomplete import RULES, GemState
from companion.words import faults, plain
from tests.companion.test_gemcomplete_rulings import table as game
from tests.companion.test_gemcomplete_rulings import to_main


def copies(m: Match[GemState], face: str) -> list[str]:
    return sorted(s for s, f in m.state.cards.items() if f.id == face)


def said(m: Match[GemState], exc: CompanionError) -> str:
    """A refusal as the web words it for a player (C-8)."""
    return plain(exc.plain, m.setup.players, {f.id: f.name for f in m.setup.cards.values()},
                 {s: f.name for s, f in m.setup.cards.items()})


def refused(m: Match[GemState], event: dict[str, Any]) -> CompanionError:
    before, log = m.state, list(m.events)
    with pytest.raises(CompanionError) as info:
        m.apply(event)
    assert m.state is before and m.events == log
    return info.value


# -- C-10 rev. 3: a face both decks print never binds ----------------------------------------
def test_c10_rev3_a_tapped_ruby_does_not_bind_and_her_deck_b_cards_are_hers() -> None:
    """Issue 27 point 5: Ana holds Deck B and taps "Ruby" (the first Ruby tile, Deck A's)
    for her first card: it bound her to Deck A and her real cards were refused."""
    m = game(1)
    to_main(m, 1)
    m.apply({"type": "set", "seat": 1, "card": "a-ruby"})  # a tap: a Ruby, of no deck yet
    assert m.state.side(1).deck_id == "" and m.state.side(2).deck_id == ""
    assert RULES.view(m.state, 1)["seats"][0]["deck_name"] == "deck not chosen yet"
    ore = copies(m, "b-ore-cart")[0]
    m.apply({"type": "play", "seat": 1, "card": ore})  # her Ore Cart, scanned: Deck B
    assert m.state.side(1).deck_id == "deck-b" and m.state.side(2).deck_id == "deck-a"
    ruby = m.state.side(1).locus[0].serial
    assert ruby is not None and m.state.cards[ruby].id == "b-ruby"  # recorded as her Ruby
    assert ruby in m.state.stand_ins and not m.state.loose
    # Every Deck A Ruby is Ben's again: the copy the tap first named too.
    assert all(m.state.owner[c] == 2 and c in m.state.side(2).unseen
               for c in copies(m, "a-ruby"))
    # Her own cards are hers: the other Ruby (scanned later) and the rest of Deck B.
    m.apply({"type": "next", "seat": 1})
    to_main(m, 2)
    m.apply({"type": "set", "seat": 2, "card": copies(m, "a-ruby")[0]})
    assert m.state.side(2).locus[0].serial == copies(m, "a-ruby")[0]


def test_c10_rev3_a_scan_of_the_copy_a_tap_recorded_is_that_players_real_card() -> None:
    """The tap recorded some free copy; the player who really holds that copy shows it by
    its serial: accepted, and the tap is recorded as another copy of the same face."""
    m = game(1)
    to_main(m, 1)
    m.apply({"type": "set", "seat": 1, "card": "a-tremor"})
    taken = m.state.side(1).locus[0].serial
    assert taken in m.state.loose
    m.apply({"type": "play", "seat": 1, "card": taken})  # her real card is that very copy
    assert m.state.side(1).deck_id == "deck-a"
    moved = m.state.side(1).locus[0].serial
    assert moved != taken and moved is not None and m.state.cards[moved].id == "a-tremor"
    assert m.state.side(1).discard == (taken,)


# -- GC-3 rev. 3: cards are played in the Main Phase only ------------------------------------
def test_gc3_rev3_no_card_is_played_in_the_recovery_step() -> None:
    m = game(1)
    m.apply({"type": "next", "seat": 1})  # Recovery Step
    assert m.state.step == "recovery"
    assert "play" not in {a["type"] for a in RULES.actions(m.state, 1)}
    err = refused(m, {"type": "play", "seat": 1, "card": "a-tremor"})
    assert isinstance(err, IllegalPlay) and err.rule == "GC-3" and "Main Phase" in str(err)
    err = refused(m, {"type": "scan", "seat": 1, "card": "a-tremor", "zone": "seat:1"})
    assert err.rule == "GC-3"
    assert "card on the table" in RULES.view(m.state, 1)["prompt"]
    # Effects a card on the table says happen now are still entered by hand.
    m.apply({"type": "draw", "seat": 1, "target": 1, "count": 1})
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "play", "seat": 1, "card": "a-tremor"})  # Main Phase
    assert m.state.side(1).discard and m.state.step == "main"


def test_gc3_rev3_restore_never_proposes_shuffling_itself_back() -> None:
    m = game(1)
    to_main(m, 1)
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 2})
    for face in ("a-tunnel", "a-tremor"):  # C-6: shown as they go face up
        m.apply({"type": "scan", "seat": 1, "card": face, "zone": "seat:1"})
    restore = copies(m, "a-restore")[0]
    m.apply({"type": "play", "seat": 1, "card": restore})
    proposed = RULES.actions(m.state, 1)[0]
    cards = next(f for f in proposed["fields"] if f["name"] == "cards")["default"]
    assert restore not in cards and len(cards) == 2
    assert {m.state.cards[c].id for c in cards} == {"a-tunnel", "a-tremor"}


# -- issue 27 point 13: the refusals' words ------------------------------------------------
def test_refusals_name_cards_in_words_not_in_a_programs_lists_or_names() -> None:
    m = game(1)
    to_main(m, 1)
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 1})
    # 'next' waits: the crushed card is shown first.
    err = refused(m, {"type": "next", "seat": 1})
    assert "'next'" not in str(err) and not faults(said(m, err)), said(m, err)
    amethyst = copies(m, "a-amethyst")[0]
    m.apply({"type": "scan", "seat": 1, "card": amethyst, "zone": "seat:1"})
    # card 'Amethyst' (Amethyst): the card is named once.
    err = refused(m, {"type": "play", "seat": 1, "card": amethyst})
    assert said(m, err).count("Amethyst") == 1 and not faults(said(m, err)), said(m, err)
    # [Tremor]: a list of cards reads as words.
    tremor = copies(m, "a-tremor")
    err = refused(m, {"type": "return", "seat": 1, "target": 1, "cards": tremor, "to": "hand"})
    assert "[" not in said(m, err) and not faults(said(m, err)), said(m, err)
    assert "Tremor and Tremor" in said(m, err)


def test_c10_rev3_a_list_by_serial_and_by_face_resolves_the_serials_first() -> None:
    """C-10 rev. 3: "Tunnel" tapped and a Tunnel scanned in one list are two Tunnels, in
    either order; the same face twice is two copies; a serial twice is refused."""
    m = game(1)
    to_main(m, 1)
    tunnels = copies(m, "a-tunnel")
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 2,
             "cards": ["a-tunnel", tunnels[0]]})
    side = m.state.side(1)
    assert side.deck_id == "deck-a" and sorted(side.discard) == tunnels
    assert not m.state.loose and m.state.stand_ins == {tunnels[1]}
    m = game(1)
    to_main(m, 1)
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 2,
             "cards": ["a-ruby", "a-ruby"]})
    assert [m.state.cards[c].id for c in m.state.side(1).discard] == ["a-ruby", "a-ruby"]
    assert len(set(m.state.side(1).discard)) == 2
    err = refused(m, {"type": "crush", "seat": 1, "target": 1, "count": 2,
                      "cards": [copies(m, "a-tremor")[0]] * 2})
    assert not faults(said(m, err)), said(m, err)
