"""God Num seat integrity and hidden information (C-7, issue 10), through the engine.

A seat (the ``seat`` field, set by the web from the token) acts only for itself: it shows
cards only in its own zone, in the pot or the Void only on its own turn, and only cards it
may hold. Every refusal about a card it does not hold reads the same wherever that card
really is, so probing serials teaches nothing about other hands.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Match
from companion.errors import (
    CardNotAvailable,
    CompanionError,
    MalformedEvent,
    OutOfTurn,
)
from companion.games.godnum import RULES, GodNumState
from companion.registry import new_match
from companion.simulate import play_random

NAMES = ["Ana", "Ben", "Cai", "Dee"]


def table(players: int = 3, legions: str = "metal-water, water-wood, wood-fire"
          ) -> Match[GodNumState]:
    m: Match[GodNumState] = new_match("godnum", NAMES[:players], {"legions": legions},
                                      rng=random.Random(4))
    m.apply({"type": "target", "value": 50})
    m.apply({"type": "starting_player", "value": 1})
    return m


def own(m: Match[GodNumState], seat: int, suffix: str) -> str:
    return next(s for s in sorted(m.state.legion(seat).unseen)
                if m.state.cards[s].id.endswith("-" + suffix))


def refusal(m: Match[GodNumState], event: dict[str, Any]) -> CompanionError:
    before, n = m.state, len(m.events)
    with pytest.raises(CompanionError) as info:
        m.apply(event)
    assert m.state is before and len(m.events) == n  # nothing changed
    return info.value


def test_c7_another_seat_cannot_send_my_cards_to_the_void() -> None:
    """The attack: Ben sends Ana's cards to the Void until she reaches the karma limit."""
    m = table()
    mine = own(m, 1, "metal-3")
    exc = refusal(m, {"type": "scan", "card": mine, "zone": "void", "seat": 2})
    assert isinstance(exc, OutOfTurn) and "Ana's turn" in str(exc)
    assert m.state.legion(1).karma == 0
    m.apply({"type": "play", "seat": 1, "card": own(m, 1, "chaos")})  # now Ben's turn
    exc = refusal(m, {"type": "scan", "card": mine, "zone": "void", "seat": 2})
    assert isinstance(exc, CardNotAvailable)
    assert str(exc) == f"Ben does not hold {mine!r}: show a card from your own hand (C-1)"
    assert m.state.legion(1).karma == 0


def test_c7_another_seat_cannot_play_for_me_into_the_pot_or_my_zone() -> None:
    m = table()
    mine = own(m, 1, "metal-3")
    for zone in ("pot", "seat:1"):
        exc = refusal(m, {"type": "scan", "card": mine, "zone": zone, "seat": 2})
        assert isinstance(exc, OutOfTurn), zone
    exc = refusal(m, {"type": "scan", "card": mine, "zone": "seat:1", "seat": 2})
    assert exc.rule == "C-7" and "another player's zone" in str(exc)
    # The camera (no sender) still plays the card of the player whose turn it is.
    m.apply({"type": "scan", "card": mine, "zone": "pot"})
    assert m.state.divine_number == 3 and m.state.turn == 2


def test_c7_scan_and_action_are_authorised_alike() -> None:
    """The same request as a scan from a phone and as an action: the same refusal."""
    m = table()
    theirs = own(m, 3, "wood-2")
    m.apply({"type": "play", "seat": 1, "card": own(m, 1, "skip")})  # Ben skipped: Cai
    as_scan = refusal(m, {"type": "scan", "card": theirs, "zone": "pot", "seat": 2})
    as_action = refusal(m, {"type": "play", "card": theirs, "seat": 2})
    assert (type(as_scan), as_scan.code, str(as_scan)) == \
        (type(as_action), as_action.code, str(as_action))
    foreign = own(m, 1, "metal-9")
    as_scan = refusal(m, {"type": "scan", "card": foreign, "zone": "seat:3", "seat": 3})
    as_action = refusal(m, {"type": "play", "card": foreign, "seat": 3})
    assert (type(as_scan), as_scan.code, str(as_scan)) == \
        (type(as_action), as_action.code, str(as_action))
    assert isinstance(as_scan, CardNotAvailable)


def test_c7_one_spelling_of_a_seat_zone() -> None:
    m = table()
    mine = own(m, 1, "metal-3")
    for zone in ("seat:01", "seat: 1", "seat:+1", "seat:1\n", "seat:1 ", "seat:4", "Pot"):
        exc = refusal(m, {"type": "scan", "card": mine, "zone": zone})
        assert isinstance(exc, MalformedEvent), zone


def test_c7_event_fields_declared_for_every_event_type() -> None:
    """Issue 10: unknown fields are refused; ``override`` only where the referee overrides."""
    m = table()
    assert set(RULES.event_fields) == {"target", "starting_player", "play", "scan", "discard",
                                       "end_turn", "pass"}
    for event in ({"type": "end_turn", "seat": 1, "override": True},
                  {"type": "pass", "seat": 1, "junk": "x" * 100},
                  {"type": "play", "seat": 1, "card": own(m, 1, "metal-3"), "more": True},
                  {"type": "target", "value": 40, "seat": 1}):
        exc = refusal(m, event)
        assert isinstance(exc, MalformedEvent), event
    assert all("override" not in RULES.event_fields[k]
               for k in ("target", "starting_player", "end_turn", "pass"))


def test_c7_override_must_be_true_or_false() -> None:
    m = table()
    exc = refusal(m, {"type": "play", "seat": 1, "card": own(m, 1, "metal-3"), "override": 1})
    assert isinstance(exc, MalformedEvent)


def hidden_from(state: GodNumState, seat: int) -> list[str]:
    """Cards ``seat`` does not hold: other seats' unseen cards (hands and decks, hidden) and
    other seats' cards on the pot or out of the game."""
    out = []
    for serial in sorted(state.cards):
        owner = state.owner.get(serial)
        if owner is not None and owner != seat:
            out.append(serial)
    return out


def requests(seat: int, card: str, players: int) -> list[dict[str, Any]]:
    other = seat % players + 1
    return [
        {"type": "play", "seat": seat, "card": card},
        {"type": "discard", "seat": seat, "cards": [card]},
        {"type": "discard", "seat": seat, "cards": [card], "more": True},
        {"type": "scan", "seat": seat, "card": card, "zone": f"seat:{seat}"},
        {"type": "scan", "seat": seat, "card": card, "zone": f"seat:{other}"},
        {"type": "scan", "seat": seat, "card": card, "zone": "pot"},
        {"type": "scan", "seat": seat, "card": card, "zone": "void"},
    ]


def answer(m: Match[GodNumState], event: dict[str, Any], card: str) -> tuple[str, str, str]:
    try:
        m.rules.apply(m.state, event)
    except CompanionError as exc:
        return type(exc).__name__, exc.code, str(exc).replace(card, "<card>")
    raise AssertionError(f"{event!r} was accepted: {card} is not the sender's")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), cut=st.floats(0, 1),
       pick=st.randoms(use_true_random=False))
def test_c7_no_oracle_the_answer_is_the_same_whichever_hidden_card(
        seed: int, players: int, cut: float, pick: random.Random) -> None:
    """C-7, issue 10: for any request a seat can send naming a card it does not hold, the
    refusal (class, code, message) is the same whether the card is A or B, wherever A and
    B really are (another hand or deck, the pot, out of the game)."""
    out = play_random("godnum", players, random.Random(seed))
    events = out.match.events
    m = Match(RULES, out.match.setup, events[: max(2, int(cut * (len(events) - 1)))])
    for seat in range(1, players + 1):
        hidden = hidden_from(m.state, seat)
        if len(hidden) < 2:
            continue
        a, b = pick.sample(hidden, 2)
        for template in requests(seat, "<X>", players):
            ev_a = {k: (a if v == "<X>" else [a] if v == ["<X>"] else v)
                    for k, v in template.items()}
            ev_b = {k: (b if v == "<X>" else [b] if v == ["<X>"] else v)
                    for k, v in template.items()}
            assert answer(m, ev_a, a) == answer(m, ev_b, b), template


def test_c7_actions_and_legal_list_only_the_seats_own_cards() -> None:
    m = table()
    assert RULES.actions(m.state, 2) == [] and RULES.actions(m.state, 3) == []
    legal = RULES.view(m.state, 2)["legal"]
    assert {r["value"][:3] for r in legal} == {"ww-"}
    assert all(not r["ok"] and r["why"] == "it is Ana's turn" for r in legal)
    public = RULES.view(m.state, None)
    assert "legal" not in public and "places" not in public
    assert all("card" not in p for p in public["pile"])


def test_public_helpers_refuse_a_seat_that_is_not_at_the_table() -> None:
    m = table()
    for seat in (0, 4, -1):
        with pytest.raises(MalformedEvent, match="no seat"):
            RULES.legal_cards(m.state, seat, ["mw-metal-1"])
        with pytest.raises(MalformedEvent, match="no seat"):
            RULES.resolve(m.state, seat, "mw-metal-1")
        exc = refusal(m, {"type": "play", "seat": seat, "card": "mw-metal-1"})
        assert isinstance(exc, MalformedEvent)
    assert RULES.actions(m.state, 9) == [] and "legal" not in RULES.view(m.state, 9)
