"""Shrine: a bid ending in 0 at the end of the deck says what will really happen (SK-8,
SK-9; issue 18 §6). The last auction has no next lot; a short deck gives a smaller one."""

from __future__ import annotations

from test_shrine import bid, deck_order, pass_, scan, start, table, win

from companion.engine import Match
from companion.games.shrine import RULES, ShrineState


def _to_last_cards(left: int) -> tuple[Match[ShrineState], list[str]]:
    """A two-player table whose deck holds ``left`` cards, the next lot not drawn yet."""
    m = table(2, start_oinks=99)
    start(m, ["water-9", "water-7"])
    faces = deck_order()
    for face in faces[:-left]:
        scan(m, face)
        win(m, m.state.turn)
    assert len(m.state.deck) == left
    return m, faces[-left:]


def test_a_zero_bid_in_the_last_auction_says_no_lot_follows() -> None:
    m, rest = _to_last_cards(1)
    scan(m, rest[0])  # the last card of the deck is the lot
    first = m.state.turn
    bid(m, first, 10)
    said = RULES.last_play(m.state, None)
    assert said is not None
    assert "one more card joins the next lot" not in said["text"]
    assert ("the deck is empty: this is the last lot, and the game ends once it is "
            "settled") in said["text"]
    assert "joins the next lot" not in m.state.ruling and "last lot" in m.state.ruling
    assert RULES.view(m.state, None)["next_lot_size"] == 0
    pass_(m, 3 - first)
    assert m.state.finished


def test_a_zero_bid_asking_more_cards_than_are_left_says_the_next_lot_is_the_rest() -> None:
    m, rest = _to_last_cards(2)
    scan(m, rest[0])
    first = m.state.turn
    bid(m, first, 10)  # the next lot would be 2 cards; the deck holds 1
    said = RULES.last_play(m.state, 3 - first)
    assert said is not None and "one more card joins the next lot" not in said["text"]
    assert "only 1 card is left: the next lot is the last card of the deck" in said["text"]
    assert RULES.view(m.state, None)["next_lot_size"] == 1
    pass_(m, 3 - first)
    assert m.state.lot_size == 1


def test_a_zero_bid_with_cards_to_spare_adds_one_card() -> None:
    m, rest = _to_last_cards(3)
    scan(m, rest[0])
    bid(m, m.state.turn, 10)
    said = RULES.last_play(m.state, None)
    assert said is not None and "one more card joins the next lot" in said["text"]
    assert RULES.view(m.state, None)["next_lot_size"] == 2
