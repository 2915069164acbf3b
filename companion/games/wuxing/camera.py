"""WuXing by camera (C-6 rev. 3, C-9; issue 26): a card seen in the Void, or on the pot in a
Dragon round, without being shown in its owner's place first.

The words tell every player to show their top card in their place, then move it (``view``,
``rulings``). A player who forgets is caught here: in a Star round (the Void) or a Dragon
round (the pot, zone ``universe``), a player card that can be the top card of a seat that
still owes a card there is that seat's card, as if shown in its seat zone and then moved:
the first such seat in the order the table waits for them. Which seat's unseen card it was
does not change the game (C-2: the companion tracks how many unseen cards each deck holds,
not which). A phone (C-7) gives only its own card. Anything else is refused and changes
nothing; a card already in that pile is the server's "already there" (C-9). The event is
recorded as sent; replay takes the same seat (the choice depends only on the state).
"""

from __future__ import annotations

from typing import NoReturn, Protocol

from companion.engine import UNKNOWN, VOID, Event, Said, require
from companion.errors import CardNotAvailable, GameOver, IllegalPlay, MalformedEvent, OutOfTurn
from companion.games.wuxing import view
from companion.games.wuxing.state import FEED, PURGE, WuXingState, successor


class _Rules(Protocol):
    """The parts of ``WuXingRules`` this module calls (a protocol, so that ``rules``, which
    calls this module, is not imported back: no import circles)."""

    @staticmethod
    def _sender(state: WuXingState, event: Event) -> int | None: ...

    def _card(self, state: WuXingState, raw: str, seat: int | None) -> str: ...

    def _scan(self, state: WuXingState, event: Event) -> WuXingState: ...

    def _refuse_seat(self, state: WuXingState, seat: int, raw: str) -> NoReturn: ...

    @staticmethod
    def _where(state: WuXingState, serial: str) -> str: ...


def straight(rules: _Rules, state: WuXingState, event: Event, zone: str) -> WuXingState:
    """The next state for a scan in ``zone`` (``void`` or ``universe``, the pot pile, in a
    Dragon round); raises ``MalformedEvent``, ``GameOver``, ``OutOfTurn``, ``IllegalPlay``,
    ``CardNotAvailable`` or what a scan at the seat raises, and changes nothing."""
    t = state.table
    by = rules._sender(state, event) if "seat" in event else None
    raw = event.get("card")
    if type(raw) is not str:
        raw = require(event, "card", str)
    pile = "the Void" if zone == VOID else "the pot"
    if event.get("override", False) is not False:
        raise MalformedEvent(f"card {raw[:40]!r} seen in {pile}: an override is given for a "
                             "card shown in a player's place, never for one seen in a pile",
                             rule="C-9")
    if state.finished:
        raise GameOver(f"the game is over; card {raw[:40]!r} is not needed", rule="WX-10")
    if state.phase != (PURGE if zone == VOID else FEED):
        raise OutOfTurn(f"card {raw[:40]!r} seen in {pile}, but nothing goes there now: "
                        f"{view.prompt(state)}", rule="C-6")
    if by is not None:  # a phone gives only its own card (C-7), as in its own zone
        if by not in state.awaiting:
            rules._refuse_seat(state, by, raw)
        return noted(rules._scan(state, {**event, "zone": f"seat:{by}"}), pile)
    if raw in t.by_face:
        raise IllegalPlay(f"{raw!r} names a card, not one printed copy: show the card in its "
                          "owner's place, or enter it on their phone", rule="C-6")
    serial = raw if raw in t.faces else rules._card(state, raw, None)
    place = state.places[serial]
    seat = next((s for s in state.awaiting if (
        place == UNKNOWN and state.unseen[s - 1] > 0 and t.faces[serial].deck == "player")
        or (place == t.deck_place[s] and state.unseen[s - 1] == 0)), None)
    if seat is None:
        raise CardNotAvailable(
            f"card {serial!r} ({t.label[serial]}) seen in {pile} is not the top card of "
            f"anyone who still owes a card there ({t.names_of(state.awaiting)}): "
            f"{rules._where(state, serial)}", rule="C-6")
    after = noted(rules._scan(state, {**event, "zone": f"seat:{seat}", "card": serial}), pile)
    if place != UNKNOWN or after.phase != state.phase:
        return after
    # Nobody had seen it: it may have been another owing seat's. Remembered for this round
    # only, so that this seat can still show its own card (``regive``).
    d = after.__dict__.copy()
    now = _round(state)
    d["guesses"] = (*(g for g in state.guesses if g[0] == now), (now, seat))
    return successor(d)


def _round(state: WuXingState) -> int:
    """The Dragon or Star round running (each one counted when it starts)."""
    return state.dragons + state.stars


def regive(state: WuXingState, seat: int) -> WuXingState:
    """``state`` with the guess of ``seat`` moved to another seat, when ``seat`` was given a
    card nobody had seen, put straight into the pot or the Void, and now shows a card of
    its own while another seat with unseen cards still owes one: that card was theirs. Only
    the counts change (C-2: an unseen card is not known to be in any one deck). Unchanged
    otherwise (the seat's card is then one too many, refused as ever)."""
    now = _round(state)
    if state.phase not in (FEED, PURGE) or (now, seat) not in state.guesses:
        return state
    other = next((s for s in state.awaiting if state.unseen[s - 1] > 0), None)
    if other is None:
        return state
    unseen, decks = list(state.unseen), list(state.decks)
    unseen[seat - 1] += 1
    decks[seat - 1] += 1
    unseen[other - 1] -= 1
    decks[other - 1] -= 1
    d = state.__dict__.copy()
    d["unseen"], d["decks"] = tuple(unseen), tuple(decks)
    d["awaiting"] = (*(s for s in state.awaiting if s != other), seat)
    d["guesses"] = (*(g for g in state.guesses if g != (now, seat)), (now, other))
    return successor(d)


def regiven(after: WuXingState, seat: int, other: int) -> WuXingState:
    """``after`` (``seat``'s own card, once ``regive`` moved its guess to ``other``) with
    the ruling saying so first."""
    t = after.table
    d = after.__dict__.copy()
    d["said"] = Said([f"The card put in without being shown was not {t.name(seat)}'s: it "
                      f"counts as {t.name(other)}'s (C-6).", after.said])
    return successor(d)


def noted(after: WuXingState, pile: str) -> WuXingState:
    """``after`` (a card put straight into ``pile``, taken as its seat's) with the ruling
    saying so (C-6 rev. 3)."""
    p = after.last_play
    m = p.movements[0] if p and p.movements else None
    if p is None or p.seat is None or m is None or m.serial is None:
        return after
    t = after.table
    note = (f"{t.name(p.seat)}'s {t.label[m.serial]} was seen in {pile} without being shown "
            "first; it counts as their card (C-6).")
    d = after.__dict__.copy()
    d["said"] = Said([after.said, note])
    return successor(d)
