"""Gem Complete rules engine: one test (at least) per ruling GC-1..GC-5, refusals that change
nothing, hidden Locus scans, and random-game properties (C-1, C-3)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import companion_cli
from companion.cards import load_deck
from companion.engine import Match
from companion.errors import (
    BadSetup,
    CardNotAvailable,
    CompanionError,
    GameOver,
    IllegalPlay,
    OutOfTurn,
)
from companion.games.gemcomplete import RULES, GemState
from companion.games.gemcomplete.state import may_hold, owing
from companion.registry import new_match
from companion.simulate import play_random

GEMS = ["ruby", "sapphire", "emerald", "topaz", "amethyst", "diamond"]


def table(first: int = 1) -> Match[GemState]:
    # The lobby fixes Ana to Deck A and Ben to Deck B (GN-2 rev. 2; unfixed seats are bound
    # by their first card: test_gemcomplete_rulings.py).
    m: Match[GemState] = new_match("gemcomplete", ["Ana", "Ben"], {"decks": "a, b"},
                                   rng=random.Random(5))
    m.apply({"type": "first_player", "value": first})
    return m


def ser(m: Match[GemState], seat: int, name: str) -> str:
    """A not-yet-seen serial of ``seat`` whose face id ends with ``name``."""
    for s in sorted(m.state.side(seat).unseen):
        if m.state.cards[s].id.endswith("-" + name):
            return s
    raise LookupError(name)


def show_owed(m: Match[GemState]) -> None:
    """C-6: the camera shows each card an effect just put face up (a copy the seat may
    hold), until the table no longer waits."""
    while owing(m.state):
        s = owing(m.state)[0]
        m.apply({"type": "scan", "card": sorted(may_hold(m.state, s))[0], "zone": f"seat:{s}"})


def refused(m: Match[GemState], event: dict[str, Any], error: type[Exception],
            rule: str | None) -> CompanionError:
    before, n = m.state, len(m.events)
    with pytest.raises(error) as info:
        m.apply(event)
    assert m.state is before and len(m.events) == n
    exc = info.value
    assert isinstance(exc, CompanionError)
    if rule is not None:
        assert exc.rule == rule, str(exc)
    return exc


def turn(m: Match[GemState], seat: int, set_card: str | None = None,
         unscanned: bool = False) -> None:
    """One plain turn: skip the declaration, draw, maybe set a card, end."""
    m.apply({"type": "next", "seat": seat})
    m.apply({"type": "next", "seat": seat})
    if set_card is not None:
        m.apply({"type": "set", "seat": seat, "card": set_card})
    elif unscanned:
        m.apply({"type": "set", "seat": seat})
    m.apply({"type": "next", "seat": seat})


def build_locus(faces: list[str]) -> tuple[Match[GemState], list[str]]:
    """Ana sets one card per turn (privately scanned); returns the match at her next turn."""
    m = table(1)
    serials = []
    for f in faces:
        s = ser(m, 1, f)
        serials.append(s)
        turn(m, 1, s)
        turn(m, 2)
    assert m.state.turn == 1 and m.state.step == "declaration"
    return m, serials


# ----------------------------------------------------------------- GC-1 components


def test_gc1_two_forty_card_decks_with_twelve_gems_and_crush_cards() -> None:
    deck = load_deck("gemcomplete")
    assert list(deck.decks) == ["deck-a", "deck-b"]
    for d in deck.decks:
        faces = deck.faces_of(d)
        assert deck.set_size(d) == 40
        gems = Counter(f.name for f in faces for _ in range(f.count) if f.kind == "gem")
        assert gems == {g.capitalize(): 2 for g in GEMS}
        others = [f for f in faces if f.kind != "gem"]
        assert sum(f.count for f in others) == 28
        assert all(f.text for f in others)
        crush = [f for f in others if "Crush" in f.text]
        assert len(crush) >= 3


def test_gc1_seats_bound_to_their_own_deck_c1() -> None:
    m = table(1)
    assert {m.state.cards[s].deck for s in m.state.side(1).unseen} == {"deck-a"}
    assert {m.state.cards[s].deck for s in m.state.side(2).unseen} == {"deck-b"}
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "next", "seat": 1})
    # C-7: Ana names only her own cards; Ben's get the one refusal that says nothing more.
    exc = refused(m, {"type": "set", "seat": 1, "card": ser(m, 2, "ruby")}, OutOfTurn, "C-7")
    assert "not one of Ana's cards" in str(exc) and "Ben" not in str(exc)


def test_gc1_exactly_two_players() -> None:
    for names in (["A"], ["A", "B", "C"]):
        with pytest.raises(BadSetup, match="2-2 players"):
            new_match("gemcomplete", names)


# ----------------------------------------------------------------- GC-2 zones


def test_gc2_private_locus_scan_visible_only_to_owner_and_referee() -> None:
    m = table(1)
    ruby = ser(m, 1, "ruby")
    turn(m, 1, ruby)
    assert m.state.side(1).hand_count == 5 and m.state.side(1).deck_count == 34
    own = RULES.view(m.state, 1)["seats"][0]["locus"][0]
    assert own["card"] == ruby and own["name"] == "Ruby"
    for viewer in (2, None):
        row = RULES.view(m.state, viewer)["seats"][0]["locus"][0]
        assert row == {"position": 1, "known": False, "public": False}
        assert ruby not in json.dumps(RULES.view(m.state, viewer))
    assert RULES.referee_view(m.state)["seats"][0]["locus"][0]["card"] == ruby
    assert RULES.referee_view(m.state)["places"][ruby] == "locus:1"
    # An unscanned set card stays unknown to everyone.
    m.apply({"type": "next", "seat": 2})
    m.apply({"type": "next", "seat": 2})
    m.apply({"type": "set", "seat": 2})
    assert RULES.referee_view(m.state)["seats"][1]["locus"][0] == {
        "position": 1, "known": False, "public": False}


def test_gc2_counts_and_discard_pile_face_up() -> None:
    m = table(1)
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "next", "seat": 1})
    rock = ser(m, 1, "rockslide")
    m.apply({"type": "play", "seat": 1, "card": rock})
    assert "Crush 2" in m.state.ruling
    m.apply({"type": "crush", "seat": 1, "target": 2, "count": 2})
    v = RULES.view(m.state, 2)
    assert v["seats"][0]["discard"][0]["card"] == rock
    assert (v["seats"][1]["deck"], v["seats"][1]["discard_unknown"]) == (33, 2)
    assert (v["seats"][0]["hand"], v["seats"][0]["deck"]) == (5, 34)


# ----------------------------------------------------------------- GC-3 turn


def test_gc3_opening_hand_steps_draw_and_one_set_per_turn() -> None:
    m = table(2)
    assert all(sd.hand_count == 5 and sd.deck_count == 35 for sd in m.state.sides)
    assert m.state.step == "declaration"
    refused(m, {"type": "next", "seat": 1}, OutOfTurn, "GC-3")
    refused(m, {"type": "set", "seat": 2}, IllegalPlay, "GC-3")  # not in the Main Phase
    m.apply({"type": "next", "seat": 2})
    assert m.state.step == "recovery"
    m.apply({"type": "next", "seat": 2})
    assert m.state.step == "main"
    assert (m.state.side(2).hand_count, m.state.side(2).deck_count) == (6, 34)
    m.apply({"type": "set", "seat": 2})
    exc = refused(m, {"type": "set", "seat": 2}, IllegalPlay, "GC-3")
    assert "already set" in str(exc)
    m.apply({"type": "next", "seat": 2})
    assert (m.state.turn, m.state.step, m.state.set_this_turn) == (1, "declaration", False)
    assert [a["type"] for a in RULES.actions(m.state, 1)] == ["next"]
    assert RULES.actions(m.state, 2) == []


def test_gc3_gems_are_set_not_played() -> None:
    m = table(1)
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "next", "seat": 1})
    refused(m, {"type": "play", "seat": 1, "card": ser(m, 1, "diamond")}, IllegalPlay, "GC-3")


# ----------------------------------------------------------------- GC-4 declaration


def test_gc4_six_gems_revealed_in_order_win() -> None:
    m, serials = build_locus(GEMS)
    m.apply({"type": "declare", "seat": 1, "positions": [6, 5, 4, 3, 2, 1]})
    assert m.state.declaration == (1, 2, 3, 4, 5, 6)
    # The order is the Locus order: position 2's card cannot come first.
    refused(m, {"type": "reveal", "seat": 1, "cards": [serials[1]]}, CardNotAvailable, "GC-4")
    for s in serials[:5]:
        m.apply({"type": "scan", "card": s, "zone": "locus:1"})
    assert not m.state.finished
    m.apply({"type": "reveal", "seat": 1, "cards": serials[5:]})
    assert m.state.finished and m.state.winners == (1,)
    assert "Gem Complete" in m.state.ruling
    view = RULES.view(m.state, 2)
    assert view["phase"] == "over" and view["step"] == "over"  # not a step of a turn
    refused(m, {"type": "next", "seat": 2}, GameOver, "GC-5")


def test_gc4_failed_declaration_opponent_chooses_two_rest_back_in_order() -> None:
    faces = ["ruby", "sapphire", "avalanche", "topaz", "amethyst", "diamond"]
    m, serials = build_locus(faces)
    turn(m, 1, ser(m, 1, "emerald"))  # a seventh card, not declared
    turn(m, 2)
    m.apply({"type": "declare", "seat": 1, "positions": [1, 2, 3, 4, 5, 6]})
    m.apply({"type": "reveal", "seat": 1, "cards": serials})
    assert m.state.step == "choose" and not m.state.finished
    # The declarer does not choose; cards not among the six are refused.
    refused(m, {"type": "choose", "seat": 1, "cards": serials[:2]}, OutOfTurn, "GC-4")
    seventh = m.state.side(1).locus[6].serial
    assert seventh is not None
    exc = refused(m, {"type": "choose", "seat": 2, "cards": [serials[0], seventh]}, IllegalPlay,
                  "GC-4")
    assert repr(seventh) in str(exc)
    refused(m, {"type": "choose", "seat": 2, "cards": [serials[0]]}, IllegalPlay, "GC-4")
    assert [a["type"] for a in RULES.actions(m.state, 2)] == ["choose"]
    m.apply({"type": "choose", "seat": 2, "cards": [serials[0], serials[4]]})
    side = m.state.side(1)
    assert [ls.serial for ls in side.locus] == [serials[1], serials[2], serials[3],
                                                 serials[5], seventh]
    assert side.discard == (serials[0], serials[4])
    assert (m.state.turn, m.state.step) == (1, "recovery")
    # GC-4 rev. 2: the four turned face down are hidden from Ben again (faces and serials);
    # Ana and the referee still know them.
    rows = RULES.view(m.state, 2)["seats"][0]["locus"]
    assert [r.get("name") for r in rows] == [None] * 5
    assert [r["known"] for r in rows] == [False] * 5
    assert not any(s in json.dumps(RULES.view(m.state, 2)) for s in (serials[1], serials[5]))
    mine = RULES.view(m.state, 1)["seats"][0]["locus"]
    assert [r.get("name") for r in mine] == ["Sapphire", "Avalanche", "Topaz", "Diamond",
                                             "Emerald"]
    assert RULES.referee_view(m.state)["seats"][0]["locus"][0]["name"] == "Sapphire"


def test_gc4_fewer_than_six_locus_cards_refused() -> None:
    m, _ = build_locus(GEMS[:5])
    assert len(m.state.side(1).locus) == 5
    exc = refused(m, {"type": "declare", "seat": 1, "positions": [1, 2, 3, 4, 5]}, IllegalPlay,
                  "GC-4")
    assert "5 cards in the Locus" in str(exc)  # C-8: never "card(s)"
    assert [a["type"] for a in RULES.actions(m.state, 1)] == ["next"]


def test_gc4_bad_positions_refused() -> None:
    m, _ = build_locus(GEMS)
    for bad in ([1, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 7], [1, 2, 3, 4, 5]):
        refused(m, {"type": "declare", "seat": 1, "positions": bad}, IllegalPlay, "GC-4")
    refused(m, {"type": "declare", "seat": 2, "positions": [1, 2, 3, 4, 5, 6]}, OutOfTurn,
            "GC-3")


def test_gc4_unscanned_locus_cards_identified_at_reveal() -> None:
    m = table(1)
    for _ in range(6):
        turn(m, 1, unscanned=True)
        turn(m, 2)
    m.apply({"type": "declare", "seat": 1, "positions": [1, 2, 3, 4, 5, 6]})
    foreign = ser(m, 2, "ruby")
    refused(m, {"type": "reveal", "seat": 1, "cards": [foreign]}, OutOfTurn, "C-7")
    gems = [ser(m, 1, g) for g in GEMS]
    m.apply({"type": "reveal", "seat": 1, "cards": gems})
    assert m.state.winners == (1,)


# ----------------------------------------------------------------- GC-5 deck out


def test_gc5_crush_mid_effect_empties_deck_and_loses() -> None:
    m = table(1)
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "next", "seat": 1})
    assert m.state.side(2).deck_count == 35
    m.apply({"type": "crush", "seat": 1, "target": 2, "count": 34})
    assert not m.state.finished and m.state.side(2).deck_count == 1
    show_owed(m)
    m.apply({"type": "crush", "seat": 1, "target": 2, "count": 3})
    assert m.state.finished and m.state.winners == (1,)
    assert m.state.side(2).deck_count == 0 and m.state.side(2).discard_unknown == 1
    assert owing(m.state) == []  # the game is over: nothing more to show
    assert "Deck Out" in m.state.ruling


def test_gc5_draw_and_discard_from_deck_to_zero_lose() -> None:
    m = table(1)
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "discard", "seat": 1, "target": 1, "from": "deck", "count": 33})
    assert m.state.side(1).deck_count == 1 and not m.state.finished
    show_owed(m)
    m.apply({"type": "draw", "seat": 1, "target": 1, "count": 1})
    assert m.state.finished and m.state.winners == (2,)

    m = table(2)
    m.apply({"type": "next", "seat": 2})
    m.apply({"type": "discard", "seat": 2, "target": 2, "from": "deck", "count": 35})
    assert m.state.winners == (1,) and "GC-5" in m.state.ruling


def test_gc5_draw_step_takes_the_last_card() -> None:
    m = table(1)
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 34})
    show_owed(m)
    m.apply({"type": "next", "seat": 1})  # Draw Step: 1 -> 0
    assert m.state.winners == (2,)


def test_effects_return_and_hand_discard() -> None:
    m = table(1)
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "next", "seat": 1})
    ruby = ser(m, 1, "ruby")
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 2, "cards": [ruby]})
    assert m.state.side(1).discard == (ruby,) and m.state.side(1).owed == 1
    show_owed(m)  # C-6: the unscanned one is shown
    assert m.state.side(1).discard[0] == ruby and m.state.side(1).discard_unknown == 0
    m.apply({"type": "return", "seat": 1, "target": 1, "cards": [ruby], "to": "hand"})
    assert m.state.side(1).hand_count == 7 and ruby in m.state.side(1).unseen
    m.apply({"type": "discard", "seat": 1, "target": 1, "from": "hand", "count": 2})
    assert m.state.side(1).hand_count == 5 and m.state.side(1).owed == 2
    show_owed(m)
    assert len(m.state.side(1).discard) == 3 and m.state.side(1).discard_unknown == 0
    refused(m, {"type": "return", "seat": 1, "target": 1, "cards": [ser(m, 2, "topaz")]},
            OutOfTurn, "C-7")


# ----------------------------------------------------------------- properties


def check_conservation(m: Match[GemState]) -> None:
    s = m.state
    places = RULES.places(s)
    assert set(places) == set(m.setup.cards)
    located = len(s.out) + sum(len(p.serials) for p in s.free)
    for sd in s.sides:
        known_locus = [ls.serial for ls in sd.locus if ls.serial is not None]
        if not sd.deck_id:  # not bound yet (GN-2 rev. 2): no card of it identified
            assert not known_locus and not sd.discard and not sd.unseen
            assert sd.deck_count + sd.hand_count + len(sd.locus) + sd.discard_unknown == 40
            continue
        located += len(sd.unseen) + len(known_locus) + len(sd.discard)
        unknown_locus = len(sd.locus) - len(known_locus)
        assert len(sd.unseen) == (sd.deck_count + sd.hand_count + unknown_locus
                                  + sd.discard_unknown)
        assert sd.deck_count >= 0 and sd.hand_count >= 0
    assert located == len(m.setup.cards)  # every card in exactly one place


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_random_games_conserve_cards_replay_and_terminate(seed: int) -> None:
    out = play_random("gemcomplete", 2, random.Random(seed))
    assert out.finished and len(out.match.state.winners) == 1
    step = Match(RULES, out.match.setup)
    check_conservation(step)
    for event in out.match.events:  # after every event, not only at the end
        step.apply(event)
        check_conservation(step)
    assert out.match.replay() == out.match.state
    for seat in (1, 2):
        json.dumps(RULES.view(out.match.state, seat))


def test_cli_simulate_gemcomplete(capsys: pytest.CaptureFixture[str]) -> None:
    code = companion_cli.main(["simulate", "gemcomplete", "--games", "20", "--seed", "1"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["unfinished"] == 0 and sum(summary["wins_per_seat"].values()) == 20
    assert summary["mean_per_game"]["declarations"] > 0


def test_cards_typed_as_text_lists_and_lower_case() -> None:
    """Forms post card lists as text: commas or spaces, serials in any case (GC-4)."""
    m, serials = build_locus(GEMS)
    m.apply({"type": "declare", "seat": 1, "positions": [1, 2, 3, 4, 5, 6]})
    m.apply({"type": "reveal", "seat": 1, "cards": ", ".join(s.lower() for s in serials[:3])})
    assert len(m.state.revealed) == 3
    m.apply({"type": "reveal", "seat": 1, "cards": " ".join(serials[3:])})
    assert m.state.winners == (1,)


# ----------------------------------------------------------------- review additions


def test_gc2_refusals_never_name_a_private_locus_card_to_the_opponent() -> None:
    """GC-2: a privately scanned Locus card is never shown to the opponent, not even in the
    words of a refusal when the opponent names its serial in an effect (C-1 still refuses)."""
    m = table(1)
    ruby = ser(m, 1, "ruby")
    turn(m, 1, ruby)
    m.apply({"type": "next", "seat": 2})
    m.apply({"type": "next", "seat": 2})  # Ben's Main Phase
    for event in ({"type": "crush", "seat": 2, "target": 1, "count": 1, "cards": [ruby]},
                  {"type": "discard", "seat": 2, "target": 1, "count": 1, "from": "hand",
                   "cards": [ruby]},
                  {"type": "return", "seat": 2, "target": 1, "cards": [ruby]},
                  {"type": "set", "seat": 2, "card": ruby},
                  {"type": "play", "seat": 2, "card": ruby}):
        exc = refused(m, event, OutOfTurn, "C-7")
        assert "Ruby" not in str(exc) and "Locus" not in str(exc), str(exc)
    # The owner is told plainly where her card is.
    m.apply({"type": "next", "seat": 2})
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "next", "seat": 1})
    exc = refused(m, {"type": "play", "seat": 1, "card": ruby}, CardNotAvailable, "C-1")
    assert "Ruby" in str(exc) and "Ana's Locus" in str(exc)


def test_gc3_effects_are_entered_by_the_current_player_only() -> None:
    """GC-3 (companion decision 6): card effects are entered by the player whose turn it
    is (or the referee on their behalf); the other seat cannot move cards on its own."""
    m = table(1)
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "next", "seat": 1})
    for kind in ("crush", "draw"):
        refused(m, {"type": kind, "seat": 2, "target": 1, "count": 1}, OutOfTurn, "GC-3")
    refused(m, {"type": "discard", "seat": 2, "target": 2, "count": 1, "from": "hand"},
            OutOfTurn, "GC-3")
    m.apply({"type": "crush", "seat": 1, "target": 2, "count": 1})
    assert m.state.side(2).deck_count == 34


def test_gc5_more_cards_scanned_than_the_deck_held_refused() -> None:
    """GC-5/C-1: a crush of 3 on a deck of 2 moves 2 cards; a third scanned card cannot
    have come from that deck, so the event is refused and nothing changes."""
    m = table(1)
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "next", "seat": 1})
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 32})
    show_owed(m)
    assert m.state.side(1).deck_count == 2
    three = sorted(m.state.side(1).unseen)[:3]
    refused(m, {"type": "crush", "seat": 1, "target": 1, "count": 3, "cards": three},
            CardNotAvailable, "C-1")
    # C-7: Ana shows only her own cards; Ben's are refused whatever they are.
    refused(m, {"type": "crush", "seat": 1, "target": 2, "count": 1,
                "cards": sorted(m.state.side(2).unseen)[:1]}, OutOfTurn, "C-7")
    m.apply({"type": "crush", "seat": 1, "target": 1, "count": 3, "cards": three[:2]})
    assert m.state.finished and m.state.winners == (2,)
    assert m.state.side(1).discard[-2:] == tuple(three[:2])


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_gc2_private_locus_cards_never_in_the_opponents_or_public_view(seed: int) -> None:
    """GC-2 over random games: after every event, a Locus card known only privately to its
    owner appears neither in the opponent's view nor in the public view (not its serial,
    not its face), while the owner's view and the referee's show it."""
    out = play_random("gemcomplete", 2, random.Random(seed))
    m = Match(RULES, out.match.setup)
    checked = 0
    for event in out.match.events:
        m.apply(event)
        s = m.state
        for owner in (1, 2):
            rows = {seat: RULES.view(s, seat)["seats"][owner - 1]["locus"] for seat in (1, 2)}
            public_rows = RULES.view(s, None)["seats"][owner - 1]["locus"]
            for i, ls in enumerate(s.side(owner).locus):
                if ls.serial is None or ls.public:
                    continue
                checked += 1
                for row in (rows[3 - owner][i], public_rows[i]):
                    assert row == {"position": i + 1, "known": False, "public": False}
                assert rows[owner][i]["card"] == ls.serial
            private = {ls.serial for ls in s.side(owner).locus
                       if ls.serial is not None and not ls.public}
            for viewer in (3 - owner, None):
                text = json.dumps(RULES.view(s, viewer))
                assert not any(p in text for p in private)
    assert checked > 0
