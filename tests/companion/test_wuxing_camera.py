"""WuXing by camera (C-6 rev. 3, C-9; issue 26): the Void is a zone on the mat, and a card
put straight into the Void in a Universe Star round (or onto the pot in a Universe Dragon
round) without being shown first still counts as the card of a seat that owes one there.

The words tell players to show the card in their place first (``test_camera_words``); these
tests are the net under a player who forgets.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_gemcomplete import refused as refused_by

from companion.engine import VOID, Match
from companion.errors import CompanionError, IllegalPlay, OutOfTurn
from companion.games.wuxing.state import FEED, PURGE, UNIVERSE
from companion.registry import find_rules
from companion.simulate import play_random

RULES = find_rules("wuxing")


def _straight(match: Match[Any]) -> tuple[Match[Any], int]:
    """``match`` played again with every card of a Dragon or Star round sent as the camera
    sees it when nobody shows it first: in the pot (Dragon) or the Void (Star)."""
    again = Match(match.rules, match.setup)
    moved = 0
    for event in match.events:
        phase = again.state.phase
        if event.get("type") == "scan" and phase in (FEED, PURGE):
            event = {**event, "zone": VOID if phase == PURGE else UNIVERSE}
            moved += 1
        again.apply(event)
    return again, moved


@pytest.mark.parametrize("players", [2, 4, 8])
def test_cards_put_straight_into_the_void_or_pot_play_the_same_game(players: int) -> None:
    moved = 0
    for seed in range(6):
        direct = play_random("wuxing", players, random.Random(seed)).match
        again, n = _straight(direct)
        moved += n
        s, d = again.state, direct.state
        # Whose unseen card is whose is not known to the companion (C-2): the counts are.
        assert (s.places, s.decks, s.unseen, s.void, s.pot) == (d.places, d.decks, d.unseen,
                                                                d.void, d.pot)
        assert s.winners == d.winners and s.finished
        assert again.replay() == s
        assert Match(RULES, again.setup, again.events).state == s
    assert moved > 0  # the games had Dragon or Star rounds


def _at(phase: str, players: int = 3) -> Match[Any]:
    """A random game stopped at the first moment it waits in ``phase``."""
    for seed in range(200):
        rng = random.Random(seed)
        out = play_random("wuxing", players, rng)
        m = Match(RULES, out.match.setup)
        for event in out.match.events:
            if m.state.phase == phase:
                return m
            m.apply(event)
    raise AssertionError(f"no random game reached {phase!r}")


def _refused(m: Match[Any], event: dict[str, Any], error: type[Exception]) -> str:
    return str(refused_by(m, event, error, None))


def test_a_star_round_card_seen_in_the_void_is_the_owing_seats_and_says_so() -> None:
    m = _at(PURGE)
    owing = m.state.awaiting
    card = next(c for c, p in sorted(m.state.places.items())
                if p == "unknown" and m.setup.cards[c].deck == "player")
    m.apply({"type": "scan", "card": card, "zone": VOID})
    assert m.state.places[card] == VOID
    assert m.state.awaiting == owing[1:]
    view = RULES.view(m.state, None)
    assert "without being shown first; it counts as their card." in view["ruling"]
    assert "(C-6)" not in view["ruling"] and "(C-6)" in m.rulings[-1]


def test_what_cannot_have_come_from_an_owing_deck_is_refused_in_the_void() -> None:
    m = _at(PURGE)
    places = m.state.places
    in_void = next((c for c, p in places.items() if p == VOID), None)
    if in_void is not None:  # already there: the server answers it (C-9); never a play
        _refused(m, {"type": "scan", "card": in_void, "zone": VOID}, CompanionError)
    universe = next(c for c, p in places.items() if p == UNIVERSE)
    text = _refused(m, {"type": "scan", "card": universe, "zone": VOID}, CompanionError)
    assert "not the top card of anyone who still owes a card there" in text
    unseen = next(c for c, p in places.items()
                  if p == "unknown" and m.setup.cards[c].deck == "player")
    _refused(m, {"type": "scan", "card": unseen, "zone": VOID, "override": True},
             CompanionError)
    _refused(m, {"type": "scan", "card": "wood", "zone": VOID}, IllegalPlay)


def test_the_void_takes_no_card_outside_a_star_round() -> None:
    m = _at(FEED)
    unseen = next(c for c, p in m.state.places.items()
                  if p == "unknown" and m.setup.cards[c].deck == "player")
    text = _refused(m, {"type": "scan", "card": unseen, "zone": VOID}, OutOfTurn)
    assert "nothing goes there now" in text
    m.apply({"type": "scan", "card": unseen, "zone": UNIVERSE})  # a Dragon round: the pot
    assert m.state.places[unseen] == "pot"


def test_a_phone_gives_only_its_own_card_in_the_void() -> None:
    m = _at(PURGE)
    owing = m.state.awaiting
    unseen = next(c for c, p in m.state.places.items()
                  if p == "unknown" and m.setup.cards[c].deck == "player")
    idle = next((s for s in range(1, len(m.setup.players) + 1) if s not in owing), None)
    if idle is not None:
        _refused(m, {"type": "scan", "card": unseen, "zone": VOID, "seat": idle},
                 CompanionError)
    seat = owing[-1]
    m.apply({"type": "scan", "card": unseen, "zone": VOID, "seat": seat})
    assert seat not in m.state.awaiting and m.state.places[unseen] == VOID


def _first_straight(match: Match[Any]) -> tuple[Match[Any], int]:
    """``match`` played again with only the first card of each Dragon or Star round put
    straight into the pot or the Void (whoever put it); the others shown in their place."""
    again = Match(match.rules, match.setup)
    rounds = set()
    for event in match.events:
        s = again.state
        key = s.dragons + s.stars
        if event.get("type") == "scan" and s.phase in (FEED, PURGE) and key not in rounds:
            rounds.add(key)
            event = {**event, "zone": VOID if s.phase == PURGE else UNIVERSE}
        again.apply(event)
    return again, len(rounds)


@pytest.mark.parametrize("players", [3, 5, 8])
def test_a_player_who_shows_after_a_card_was_taken_as_theirs_is_not_refused(
        players: int) -> None:
    """C-6 rev. 3: a card put straight into the pile is taken as the first owing seat's; if
    that seat then shows its own card, the straight card was another owing seat's (only
    the counts move, C-2) and the game goes on as the table played it."""
    regiven = straight = 0
    for seed in range(5):
        direct = play_random("wuxing", players, random.Random(seed)).match
        again, rounds = _first_straight(direct)
        straight += rounds
        regiven += sum("was not" in r and "counts as" in r for r in again.rulings)
        s, d = again.state, direct.state
        assert (s.places, s.decks, s.unseen, s.void, s.pot, s.out) == (
            d.places, d.decks, d.unseen, d.void, d.pot, d.out)
        assert s.winners == d.winners
        assert again.replay() == s
    assert straight > 0 and regiven > 0  # the case happened


def test_a_card_shown_twice_by_the_same_seat_is_still_one_too_many() -> None:
    m = _at(PURGE)
    owing = m.state.awaiting
    unseen = [c for c, p in sorted(m.state.places.items())
              if p == "unknown" and m.setup.cards[c].deck == "player"]
    seat = owing[0]
    m.apply({"type": "scan", "card": unseen[0], "zone": f"seat:{seat}"})
    _refused(m, {"type": "scan", "card": unseen[1], "zone": f"seat:{seat}"}, OutOfTurn)
