"""God Num, rulings revision 3 (issue 28; issue 27 point 4): C-10, a discard that names
cards both by serial and by face resolves the serials first."""

from __future__ import annotations

from collections import Counter

from test_godnum_play import started

from companion.engine import Match
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
