"""God Num, rulings revision 3 (issue 28; issue 27 point 4): C-10, a discard that names
cards both by serial and by face resolves the serials first."""

from __future__ import annotations

from collections import Counter

import pytest
from test_godnum_play import started

from companion.engine import Match
from companion.errors import MalformedEvent
from companion.games.godnum import GodNumState


def _chaos(m: Match[GodNumState], seat: int) -> list[str]:
    return sorted(c for c in m.state.legion(seat).unseen if m.state.cards[c].id.endswith("chaos"))


def _bo_passes_the_turn(m: Match[GodNumState]) -> None:
    m.apply({"type": "discard", "seat": 2, "cards": [sorted(m.state.legion(2).unseen)[0]]})


def _conserved(m: Match[GodNumState]) -> None:
    """Every card is in one place: the pot, out of the game, or a seat's unseen cards."""
    s = m.state
    places = Counter([*s.pile, *s.out, *(c for lg in s.legions for c in lg.unseen)])
    assert all(n == 1 for n in places.values()), [c for c, n in places.items() if n > 1]


def test_c10_rev3_a_tap_before_a_serial_of_the_same_face_is_another_copy() -> None:
    """Issue 27 point 4: "Chaos" tapped, then a Chaos by serial: the tap took that very
    serial and the legal discard was refused as "a card is listed twice"."""
    m = started(2)
    x1, x2 = _chaos(m, 1)[:2]
    face = m.state.cards[x1].id
    m.apply({"type": "discard", "seat": 1, "cards": [face, x1]})
    assert {x1, x2} <= m.state.out and m.state.legion(1).karma == 2
    assert x2 in m.state.stand_ins and x1 not in m.state.stand_ins
    _conserved(m)


def test_c10_rev3_a_serial_of_a_tapped_pot_card_with_a_tap_leaves_the_pot_whole() -> None:
    """Issue 27 point 4: a tapped Chaos is recorded on the pot as her first copy; she later
    discards a Chaos by tap and that very first copy by serial. The pot kept a card short
    and a discarded Chaos stayed in her hand."""
    m = started(2)
    x1 = _chaos(m, 1)[0]
    face = m.state.cards[x1].id
    m.apply({"type": "play", "seat": 1, "card": face})  # a tap: recorded as x1
    assert m.state.pile[-1] == x1
    pot = len(m.state.pile)
    _bo_passes_the_turn(m)
    hand = m.state.legion(1).hand_count
    m.apply({"type": "discard", "seat": 1, "cards": [face, x1]})
    assert len(m.state.pile) == pot and m.state.cards[m.state.pile[pot - 1]].id == face
    assert m.state.pile[pot - 1] != x1 and x1 in m.state.out
    assert m.state.legion(1).hand_count == hand  # two out, two drawn back up to 5
    assert sum(1 for c in m.state.out if m.state.cards[c].id == face) == 2
    assert all(c not in m.state.legion(1).unseen for c in m.state.out)
    _conserved(m)
    assert m.replay() == m.state


def test_c10_rev3_a_typed_name_two_free_legions_print_binds_nothing() -> None:
    """'Earth 1' is printed in the Fire-Earth and the Earth-Metal Legion: typed by a seat
    whose first card is still to come, it cannot say which legion is the seat's, so it is
    refused naming both and nothing changes (C-10 rev. 3); scanned or tapped in its
    legion's group, the same card binds the seat (GN-2 rev. 2)."""
    m = started(3, legions="")
    before = (m.version, m.state)
    with pytest.raises(MalformedEvent) as refused:
        m.apply({"type": "play", "seat": 1, "card": "earth 1"})
    assert refused.value.rule == "C-10"
    assert str(refused.value.plain).startswith(
        "'earth 1' is printed in the Fire-Earth Legion and the Earth-Metal Legion")
    assert (m.version, m.state) == before
    assert not m.state.legion(1).bound
    m.apply({"type": "play", "seat": 1, "card": "fe-earth-1"})  # the tap of its group
    assert m.state.legion(1).deck == "legion-fire-earth"


def test_c10_rev3_a_typed_name_only_one_free_legion_can_take_binds_it() -> None:
    """With the Fire-Earth Legion the first seat's, 'Earth 2' typed by the second seat
    can only be the Earth-Metal Legion's: the name says enough and binds it."""
    m = started(3, legions="fire-earth")
    m.apply({"type": "play", "seat": 1, "card": "fe-earth-1"})
    m.apply({"type": "play", "seat": 2, "card": "Earth 2"})
    assert m.state.legion(2).deck == "legion-earth-metal"
    assert m.events[-1]["card"] == "em-earth-2"  # logged as the face it was read as
