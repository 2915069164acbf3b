"""WuXing, rulings revision 3 (issue 28): each test cites the ruling it checks."""

from __future__ import annotations

import pytest
from test_wuxing import started

from companion.errors import CardNotAvailable
from companion.words import faults, plain


def test_wx8_rev3_a_won_card_on_top_names_the_likely_cause_and_one_tap_overrides() -> None:
    """WX-8 rev. 3: won cards lie under every card not yet seen, so a won card shown as
    the top card is refused; the refusal says the won cards were likely shuffled into the
    deck by mistake, and the referee accepts the card with one tap (the same scan,
    overridden: nothing else to enter)."""
    t = started()
    u, _a, _b = t.challenge("water", "wood", "metal")
    t.universe("fire")
    before, log = t.s, list(t.m.events)
    with pytest.raises(CardNotAvailable) as err:
        t.scan(u, "seat:1")
    assert t.s is before and t.m.events == log
    assert err.value.rule == "WX-8" and err.value.code == "card_not_available"
    faces = {f.id: f.name for f in t.m.setup.cards.values()}
    serials = {s: f.name for s, f in t.m.setup.cards.items()}
    said = plain(err.value.plain, ["Ana", "Bo"], faces, serials)
    assert "shuffled into the whole deck by mistake" in said
    assert "if that happened, the referee can accept this card" in said
    assert not faults(said), faults(said)
    t.scan(u, "seat:1", override=True)
    assert t.s.places[u] == "table:1" and "Referee override" in t.s.ruling


def test_wx9_rev3_a_played_dragon_wins_the_dragons_a_draw_left_in_the_pot() -> None:
    """WX-9 rev. 3: the seed's played Dragon "absorbs all the other Element cards from the
    Universe Pot unless it is a draw or there is a Destructive Star"; Dragons left in the
    pot by a Dragon draw (WX-7.3) are won with it too. Five players: two printed decks,
    four Dragons."""
    t = started(5)
    _, d1, d2 = t.challenge("earth", "dragon", "dragon")  # Ana v Bo: a draw, both in the pot
    assert t.s.pot[-2:] == (d1, d2)
    u, d3, cy = t.challenge("metal", "dragon", "water")  # Bo v Cy: Bo's Dragon
    assert t.s.places[d3] == "void"
    assert {t.s.places[c] for c in (d1, d2, u, cy)} == {"deck:2"}
    assert t.s.pot == ()
