"""WuXing revision 2 (issue 12): WX-8 words, WX-9 cited, WX-10b turned over, WX-11 the
sudden death from the Universe deck, both triggers. Each test fails on the revision-1
engine."""

from __future__ import annotations

import pytest
from test_wuxing import RULES, Table, _play, _play_out_universe, _round, started

from companion.engine import evolve
from companion.errors import CardNotAvailable, OutOfTurn

ELEMENTS = ("wood", "fire", "earth", "metal", "water")


def take(t: Table, seat: int, face: str) -> str:
    """Seat ``seat`` shows a Universe-deck card of ``face`` ("fire": a Fire card of either
    deck turned over from the Void; "dragon", "star") in its own zone (WX-11)."""
    for serial, f in sorted(t.m.setup.cards.items()):
        matches = f.element == face if face in ELEMENTS else f.kind == face
        if matches and t.s.places[serial] == "universe":
            t.scan(serial, f"seat:{seat}")
            return serial
    raise LookupError(f"no {face} left in the Universe deck")


def tied_on_count(players: int = 2) -> Table:
    """WX-10 count with every player level when the Universe deck runs out."""
    t = started(players, end="count")
    if players == 2:
        _play_out_universe(t, extra_for_ana=False)
        return t
    for u, face in (("dragon", "metal"), ("star", "earth"), ("dragon", "water"),
                    ("star", "fire")):
        _round(t, u, face)
    for e in [e for _ in range(4) for e in ELEMENTS]:
        _play(t, e, t.s.challenge[0])  # the first challenger always wins: all stay level
    return t


# -- WX-8, WX-9, WX-10b ---------------------------------------------------------------------------

def test_wx8_won_cards_are_shuffled_together_and_put_at_the_bottom() -> None:
    """WX-8 rev. 2: the seed's "go to the bottom of your player deck & must be shuffled":
    the won cards are shuffled together and go under the deck, in the ruling and in what
    the players are told to do with the cards."""
    t = started()
    t.challenge("water", "wood", "metal")
    assert ("Ana wins 3 cards; shuffle them together and put them at the bottom of your deck "
            "(WX-7.6, WX-8)") in t.s.ruling
    assert "shuffle them into your deck" not in t.s.ruling
    play = RULES.last_play(t.s, None)
    assert play is not None
    assert ("Ana: take the 3 cards, shuffle them together and put them at the bottom of your "
            "deck.") in play["physical"]


def test_wx9_a_star_in_a_won_pot_is_never_won() -> None:
    """WX-9 rev. 2 (agrees with WX-7.4, WX-7.6): the Star stays as the sole pot card and the
    ruling says why, citing WX-9."""
    t = started()
    star = t.universe("star")
    t.contribute_all()
    t.challenge("water", "wood", "metal")
    assert t.s.pot == (star,)
    assert "The Star is never won: it stays in the pot (WX-9)." in t.s.ruling


def test_wx10b_the_void_is_turned_over_not_shuffled() -> None:
    """WX-10b rev. 2: "The Void can be turned over": the companion never says shuffle."""
    t = started(end="recycle")
    _play_out_universe(t, extra_for_ana=False)
    assert t.s.recycles == 1
    assert "turn the Void over, without shuffling it" in t.s.ruling
    assert "shuffle it" not in t.s.ruling.replace("without shuffling it", "")
    play = RULES.last_play(t.s, None)
    assert play is not None
    assert ("Turn the Void over without shuffling it: it is the new Universe deck, face "
            "down.") in play["physical"]


# -- WX-11 (b): a tie on count --------------------------------------------------------------------

def test_wx11_count_tie_sudden_death_takes_universe_cards_in_turn_order() -> None:
    """WX-11 rev. 2 (b): the tied players take the top Universe card in turn order, the
    Universe deck being empty the Void is turned over first (WX-10b); the cards are shown
    in the seat zones; a draw sends both to the Void and they take again; the first whose
    card absorbs or destroys the other's wins. The players' decks are not touched."""
    t = tied_on_count()
    s = t.s
    assert s.phase == "tiebreak" and s.duel == (1, 2) and s.awaiting == (1,)
    assert s.recycles == 1 and s.void == 0 and s.universe_left == 11
    assert ("Ana and Bo are tied with 28 cards: sudden death from the Universe deck (WX-11)."
            in s.ruling)
    decks = s.decks
    own = next(c for c, p in sorted(s.places.items()) if p == "deck:1")
    with pytest.raises(CardNotAvailable, match="Universe deck"):
        t.scan(own, "seat:1")  # a card of Ana's own deck is not a Universe card
    with pytest.raises(OutOfTurn):
        take(t, 2, "fire")  # Ana takes first: her turn would come next (WX-3)
    m1 = take(t, 1, "metal")
    assert t.s.awaiting == (2,) and t.s.places[m1] == "table:1"
    assert t.view()["duel_table"] == {"1": ["metal"]}
    m2 = take(t, 2, "metal")
    assert "take again" in t.s.ruling and not t.s.finished
    assert t.s.places[m1] == t.s.places[m2] == "void"
    assert t.s.awaiting == (1,)
    take(t, 1, "fire")
    take(t, 2, "earth")  # Earth absorbs Fire (WX-1)
    assert t.s.winners == (2,)
    assert "Bo wins the sudden death" in t.s.ruling
    assert "Game over: Bo wins (won the sudden death, WX-11)." in t.s.ruling
    assert t.s.decks == decks


@pytest.mark.parametrize("a,b,winner", [
    ("star", "dragon", 1), ("dragon", "fire", 1), ("metal", "star", 2), ("earth", "fire", 1),
    ("fire", "earth", 2), ("water", "fire", 1)])
def test_wx11_power_cards_and_elements(a: str, b: str, winner: int) -> None:
    """WX-11: Star beats all, Dragon beats any element; Earth absorbs Fire; Water destroys
    Fire (player against player, WX-1)."""
    t = tied_on_count()
    take(t, 1, a)
    take(t, 2, b)
    assert t.s.winners == (winner,)


def test_wx11_equal_power_cards_take_again() -> None:
    """WX-11: two Dragons: both to the Void, take again."""
    t = tied_on_count()
    take(t, 1, "dragon")
    take(t, 2, "dragon")
    assert not t.s.finished and "take again" in t.s.ruling and t.s.awaiting == (1,)


def test_wx11_more_than_two_tied_drop_out_one_by_one_and_a_cycle_knocks_nobody_out() -> None:
    """WX-11: four tied players; a round where every card is beaten by another's (Fire,
    Earth, Metal, Water) knocks nobody out; then the two whose Fire is absorbed by Earth
    drop out; then Water absorbs Metal and wins."""
    t = tied_on_count(4)
    assert t.s.duel == (1, 2, 3, 4)
    for seat, face in zip((1, 2, 3, 4), ("fire", "earth", "metal", "water"), strict=True):
        take(t, seat, face)
    assert t.s.duel == (1, 2, 3, 4) and "nobody drops out" in t.s.ruling
    for seat, face in zip((1, 2, 3, 4), ("fire", "earth", "fire", "earth"), strict=True):
        take(t, seat, face)
    assert t.s.duel == (2, 4) and "Ana and Cy drop out" in t.s.ruling
    assert t.s.awaiting == (2,)
    with pytest.raises(OutOfTurn):
        take(t, 1, "water")  # Ana is out of the sudden death
    take(t, 2, "metal")
    take(t, 4, "water")
    assert t.s.winners == (4,) and "Dan wins the sudden death" in t.s.ruling


# -- WX-11 (a): the last players draw on their last cards -----------------------------------------

def test_wx11_last_cards_drawn_at_once_go_to_sudden_death_not_a_shared_win() -> None:
    """WX-11 rev. 2 (a): a Universe Dragon takes the last card of both players: nobody holds
    any, so they play the sudden death (revision 1: they shared the win)."""
    t = started()
    _round(t, "star", "star")
    _round(t, "star", "dragon")
    for e in [e for _ in range(4) for e in ELEMENTS][:19]:
        _play(t, e, None)  # a draw: both cards join the pot
    assert t.s.decks == (1, 1)
    t.universe("dragon")
    t.contribute_all()
    assert not t.s.finished and t.s.phase == "tiebreak"
    assert t.s.out == frozenset({1, 2})
    assert "ran out of cards at the same moment" in t.s.ruling
    first, second = t.s.duel
    take(t, first, "dragon")
    left = next(e for e in ELEMENTS if any(
        f.element == e and t.s.places[c] == "universe" for c, f in t.m.setup.cards.items()))
    take(t, second, left)  # a Dragon beats any element
    assert t.s.winners == (first,)
    assert t.view()["winner"] == first


def test_wx11_no_card_left_to_take_the_tied_players_share_the_win() -> None:
    """WX-11: "If no card is left to take, the tied players share the win." Built from a
    real sudden death whose Universe deck is down to one card and whose Void is empty (the
    other cards taken off the table, as if lost): Ana takes the last card, nothing is left
    for Bo."""
    t = tied_on_count()
    s = t.s
    keep = next(c for c, p in sorted(s.places.items())
                if p == "universe" and t.m.setup.cards[c].element == "metal")
    places = {c: ("out" if p == "universe" and c != keep else p) for c, p in s.places.items()}
    t.m.state = evolve(s, places=places, universe_left=1)
    assert t.s.void == 0
    t.scan(keep, "seat:1")
    assert t.s.finished and t.s.winners == (1, 2)
    assert "Game over: Ana and Bo share the win (no card is left to take, WX-11)." in t.s.ruling
