"""WuXing seat integrity and hidden information (issue 10, C-7): a seat shows cards only in
its own zone, in the Universe zone only as the first challenger waiting for the Universe
card, and a refusal never tells a seat where a card it may not know is."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_wuxing import RULES, started

from companion.engine import Match
from companion.errors import CardNotAvailable, CompanionError, MalformedEvent, OutOfTurn
from companion.registry import new_match


def _unchanged(t: Any, event: dict[str, Any], error: type[Exception], match: str) -> None:
    state, events = t.m.state, list(t.m.events)
    with pytest.raises(error, match=match):
        t.m.apply(event)
    assert t.m.state is state and t.m.events == events


def test_c7_only_the_first_challenger_lays_the_universe_card() -> None:
    """The attack of issue 10: Cy, outside Ana v Bo, lays the Universe card with a scan.
    Refused (and Bo too: the first challenger lays it, WX-4); Ana may; the referee and the
    camera, who send no seat, may."""
    t = started(3)
    water = t.find("universe-water", "universe")
    for seat in (3, 2):
        _unchanged(t, {"type": "scan", "card": water, "zone": "universe", "seat": seat},
                   OutOfTurn, "cannot lay card")
    t.m.apply({"type": "scan", "card": water, "zone": "universe", "seat": 1})
    assert t.s.universe_card == water
    t2 = started(3)
    t2.m.apply({"type": "scan", "card": water, "zone": "universe"})  # the camera
    assert t2.s.universe_card == water


def test_c7_the_universe_zone_takes_no_seat_card_outside_the_draw() -> None:
    """Once the Universe card is down, nobody's scan in the Universe zone is taken, not
    even the first challenger's."""
    t = started(3)
    t.universe("water")
    fire = t.find("universe-fire", "universe")
    for seat in (1, 2, 3):
        _unchanged(t, {"type": "scan", "card": fire, "zone": "universe", "seat": seat},
                   OutOfTurn, "cannot lay card")


def test_c7_a_seat_shows_cards_only_in_its_own_zone() -> None:
    t = started(3)
    t.universe("water")
    wood = t.find("wood", "unknown")
    _unchanged(t, {"type": "scan", "card": wood, "zone": "seat:2", "seat": 1}, OutOfTurn,
               "Ana cannot show a card for Bo")
    _unchanged(t, {"type": "scan", "card": wood, "zone": "seat:3", "seat": 3}, OutOfTurn,
               "Cy is not in this challenge")
    t.m.apply({"type": "scan", "card": wood, "zone": "seat:1", "seat": 1})
    assert t.s.places[wood] == "table:1"


def test_c7_event_fields_and_override_belong_to_the_referee() -> None:
    """Every event type declares its fields; ``override`` with a seat is refused."""
    assert RULES.event_fields == {"scan": {"card", "zone", "seat", "override"},
                                  "rps": {"winner", "seat"}}
    t = started(3)
    t.universe("water")
    _unchanged(t, {"type": "scan", "card": "wood", "zone": "seat:1", "junk": "x" * 50},
               MalformedEvent, "no field 'junk'")
    void_card = t.find("universe-fire", "universe")
    _unchanged(t, {"type": "scan", "card": void_card, "zone": "seat:1", "seat": 1,
                   "override": True}, OutOfTurn, "only the referee can override")
    for zone in ("seat:+1", "seat: 1", "seat:01", "seat:1\n"):
        _unchanged(t, {"type": "scan", "card": "wood", "zone": zone, "seat": 1},
                   MalformedEvent, "zone")


def test_c7_no_oracle_where_a_card_is() -> None:
    """A card in Ana's deck (won), in the Void, in the pot, in the Universe deck: Bo's
    refusal reads the same for each, naming the card as Bo typed it; the referee still
    hears where it is (C-1)."""
    t = started(3)
    _u, won, _b = t.challenge("water", "wood", "metal")  # Ana won 3 cards; Bo v Cy next
    t.universe("fire")
    voided = next(c for c, p in sorted(t.s.places.items()) if p == "void") if t.s.void else None
    in_pot = t.s.pot[0]
    in_universe = t.find("universe-earth", "universe")
    messages = set()
    for card in [c for c in (won, voided, in_pot, in_universe) if c]:
        with pytest.raises(CardNotAvailable) as exc:
            t.m.apply({"type": "scan", "card": card, "zone": "seat:2", "seat": 2})
        messages.add((exc.value.code, str(exc.value).replace(repr(card), "<card>")))
    assert messages == {("card_not_available", "<card> is not a card Bo can show now (C-1)")}
    with pytest.raises(CardNotAvailable, match="is in Ana's deck"):
        t.m.apply({"type": "scan", "card": won, "zone": "seat:2"})  # the referee


def _refusal(state: Any, event: dict[str, Any]) -> tuple[str, str, str] | None:
    try:
        RULES.apply(state, event)
    except CompanionError as exc:
        card = event["card"]
        return type(exc).__name__, exc.code, str(exc).replace(repr(card[:40]), "<card>")
    return None


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
@settings(max_examples=12, deadline=None)
def test_c7_a_refusal_is_the_same_whichever_card_is_hidden(seed: int, players: int) -> None:
    """C-7 over random games: at random moments, for every seat and every zone it may name
    (its own and the Universe zone), every printed card and face it may not show now is
    refused with one and the same class, code and message (the card named as typed): the
    refusal tells nothing about where card A or card B really is."""
    rng = random.Random(seed)
    m: Match[Any] = new_match("wuxing", [f"P{i}" for i in range(1, players + 1)], None, rng=rng)
    serials = sorted(m.setup.cards)
    face_ids = sorted({f.id for f in m.setup.cards.values()})
    probes = 0
    while not m.state.finished and probes < 4:
        s = m.state
        if s.phase != "start" and rng.random() < 0.08:
            probes += 1
            for seat in range(1, players + 1):
                for zone in (f"seat:{seat}", "universe"):
                    seen = set()
                    for card in [*rng.sample(serials, 25), *face_ids]:
                        r = _refusal(s, {"type": "scan", "card": card, "zone": zone,
                                         "seat": seat})
                        if r is not None:
                            seen.add(r)
                    assert len(seen) <= 1, (seat, zone, seen)
            assert m.state is s
        event = RULES.random_play(s, rng)
        assert event is not None
        m.apply(event)
