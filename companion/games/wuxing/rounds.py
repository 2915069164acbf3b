"""How a WuXing game moves on (WX-3..WX-6, WX-10, WX-11): the Universe card and its Dragon
and Star rounds, the next challenge, the end, and the sudden death that breaks a tie.

The plays of every challenge (``universe_card``, ``first_card``, ``fed_card`` and the
common ``second_card``) are built straight from the state; the rest work on a ``Work`` copy
of the state for one event and return the ``Play`` of what they did. The adjudications
themselves are in ``adjudicate``.
"""

from __future__ import annotations

from typing import Any

from companion.engine import POT, UNKNOWN, VOID, Movement, Play, Said
from companion.games.wuxing import adjudicate, rulings
from companion.games.wuxing.state import (
    DRAGON,
    DRAW,
    DUEL,
    FEED,
    OVER,
    PURGE,
    REVEAL,
    UNIVERSE,
    Work,
    WuXingState,
    carry,
    successor,
)
from companion.words import count


def _without(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """``seats`` less ``seat`` (one of them: ``rules`` checked it is awaited)."""
    i = seats.index(seat)
    return seats[:i] + seats[i + 1:]


def lay_universe(w: Work, serial: str) -> Play:
    """WX-5 a Universe Dragon, WX-6 a Universe Star: each starts its round (an element
    Universe card is laid by ``universe_card``)."""
    t = w.t
    if t.kind[serial] == DRAGON:
        play = adjudicate.universe_dragon(serial)
        w.move(play.movements)
        w.dragons += 1
        w.phase = FEED
        w.awaiting = tuple(w.active())
        w.notes.append((rulings.universe_dragon, t, w.awaiting))
        return play
    swept = w.pot
    play = adjudicate.universe_star(serial, swept)
    w.move(play.movements)
    w.stars += 1
    w.phase = PURGE
    w.awaiting = tuple(w.active())
    w.notes.append((rulings.universe_star, t, play, swept, w.awaiting))
    return play


def universe_card(s: WuXingState, serial: str, said: Said) -> WuXingState:
    """WX-4: an element Universe card (in the Universe deck) on the pot; the challengers
    reveal next. Every challenge starts here, so it is built straight from ``s``. ``said``
    holds the event's words so far (a referee override's)."""
    t = s.table
    d = s.__dict__.copy()
    d["places"] = places = dict(s.places)
    places[serial] = POT
    d["universe_left"] = s.universe_left - 1
    d["pot"] = (*s.pot, serial)
    d["universe_card"] = serial
    d["phase"] = REVEAL
    d["awaiting"] = s.challenge
    said.append((rulings.universe_card, t, serial, s.challenge))
    d["said"] = said
    d["last_play"] = Play("universe", "universe", "WX-4", s.challenge[0],
                          (Movement(UNIVERSE, POT, serial),))
    return successor(d)


def _off_deck(s: WuXingState, seat: int, serial: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The fields of ``s`` as a dict with ``serial`` taken off ``seat``'s deck (its count,
    and its unseen count when nobody had seen it yet), and the new places to fill in."""
    i = seat - 1
    d = s.__dict__.copy()
    d["places"] = places = dict(s.places)
    if places[serial] == UNKNOWN:
        unseen = list(s.unseen)
        unseen[i] -= 1
        d["unseen"] = tuple(unseen)
    decks = list(s.decks)
    decks[i] -= 1
    d["decks"] = tuple(decks)
    return d, places


def first_card(s: WuXingState, seat: int, serial: str, said: Said) -> WuXingState:
    """WX-7: the first challenger's card, shown from their deck (C-1 checked); the table
    waits for the other's. Built straight from ``s`` like ``universe_card``."""
    t = s.table
    d, places = _off_deck(s, seat, serial)
    places[serial] = t.table_place[seat]
    d["revealed"] = (*s.revealed, (seat, serial))
    d["awaiting"] = awaiting = _without(s.awaiting, seat)
    said.append((rulings.revealed, t, seat, serial, awaiting[0]))
    d["said"] = said
    d["last_play"] = Play("reveal", "reveal", "WX-7", seat,
                          (Movement(t.deck_place[seat], t.table_place[seat], serial),))
    return successor(d)


def fed_card(s: WuXingState, seat: int, serial: str, said: Said) -> WuXingState:
    """WX-5/WX-6: a seat's top card into the pot or the Void while others still owe one
    (the last one moves the game on: ``contribute``). Built straight from ``s``."""
    t = s.table
    d, places = _off_deck(s, seat, serial)
    to_pot = s.phase == FEED
    if to_pot:
        places[serial] = POT
        d["pot"] = (*s.pot, serial)
        d["last_play"] = Play("feed", "pot", "WX-5", seat,
                              (Movement(t.deck_place[seat], POT, serial),))
    else:
        places[serial] = VOID
        d["void"] = s.void + 1
        d["last_play"] = Play("feed", "void", "WX-6", seat,
                              (Movement(t.deck_place[seat], VOID, serial),))
    d["awaiting"] = awaiting = _without(s.awaiting, seat)
    said.append((rulings.contributed, t, seat, serial, to_pot))
    said.append((rulings.waiting, t, awaiting))
    d["said"] = said
    return successor(d)


def contribute(w: Work, seat: int, serial: str) -> Play:
    """WX-5/WX-6: the last owed card (already on its seat's table place) into the pot or
    the Void (``fed_card`` takes the others); then the next round."""
    t = w.t
    to_pot = w.phase == FEED
    # From the seat's table place (no count there) into the pot or the Void.
    if to_pot:
        w.pot = (*w.pot, serial)
        w.places[serial] = POT
        play = Play("feed", "pot", "WX-5", seat, (Movement(t.deck_place[seat], POT, serial),))
    else:
        w.void += 1
        w.places[serial] = VOID
        play = Play("feed", "void", "WX-6", seat,
                    (Movement(t.deck_place[seat], VOID, serial),))
    w.awaiting = _without(w.awaiting, seat)
    w.notes.append((rulings.contributed, t, seat, serial, to_pot))
    gone = w.check_out()
    next_round(w, new=False, gone=gone)
    return play


def reveal(w: Work, seat: int, serial: str) -> Play:
    """WX-7: the second challenger's card, adjudicated with the first (``first_card``)."""
    t = w.t
    w.revealed = (*w.revealed, (seat, serial))
    w.awaiting = _without(w.awaiting, seat)
    shown = Movement(t.deck_place[seat], t.table_place[seat], serial)
    a, b = w.challenge
    u = w.universe_card or ""  # always set: a reveal phase has its Universe card (WX-4)
    (s1, c1), (_, c2) = w.revealed
    ca, cb = (c1, c2) if s1 == a else (c2, c1)
    play = adjudicate.challenge(t, a, ca, b, cb, u, w.pot)
    w.move(play.movements)
    text = Said([(rulings.challenge, t, play)])
    w.revealed = ()
    w.universe_card = None
    w.adjudications += 1
    w.adjudged = text
    w.notes.insert(0, text)
    gone = w.check_out()
    next_round(w, new=True, gone=gone)
    return Play(play.kind, play.outcome, play.rule, seat, (shown, *play.movements),
                play.facts)


def second_card(s: WuXingState, seat: int, serial: str) -> WuXingState | None:
    """WX-7: the second challenger's card, held in their deck (C-1 checked), adjudicated
    with the first straight from ``s`` when the game simply goes on to the next challenge
    (WX-3): nobody runs out, the Universe deck is not empty and nobody is out yet.
    Otherwise ``None``: ``reveal`` on a ``Work`` copy does the rest (the same state)."""
    t = s.table
    if s.out:
        return None
    i = seat - 1
    places = dict(s.places)
    decks = list(s.decks)
    decks[i] -= 1
    unseen = s.unseen
    if places[serial] == UNKNOWN:
        unseen_l = list(unseen)
        unseen_l[i] -= 1
        unseen = tuple(unseen_l)
    places[serial] = t.table_place[seat]
    a, b = s.challenge
    (s1, c1), = s.revealed
    ca, cb = (c1, serial) if s1 == a else (serial, c1)
    play = adjudicate.challenge(t, a, ca, b, cb, s.universe_card or "", s.pot)
    pot, void, left = carry(places, decks, s.pot, s.void, s.universe_left, play.movements)
    if left == 0 or 0 in decks:  # the end, a recycle or someone out: ``reveal``
        return None
    d = s.__dict__.copy()
    d["places"] = places
    d["decks"] = tuple(decks)
    d["unseen"] = unseen
    d["pot"] = pot
    d["void"] = void
    d["universe_left"] = left
    d["universe_card"] = None
    d["revealed"] = ()
    d["awaiting"] = ()
    d["adjudications"] = s.adjudications + 1
    d["adjudged"] = text = Said([(rulings.challenge, t, play)])
    # WX-3 with nobody out: the second challenger starts the next challenge, with the
    # seat after them (``setup_challenge``).
    d["turn"] = b
    nxt = b % len(decks) + 1
    d["challenge"] = (b, nxt)
    d["phase"] = DRAW
    d["challenges"] = s.challenges + 1
    d["said"] = Said([text, (rulings.next_challenge, t, b, nxt)])
    d["last_play"] = Play(play.kind, play.outcome, play.rule, seat,
                          (Movement(t.deck_place[seat], t.table_place[seat], serial),
                           *play.movements), play.facts)
    return successor(d)


def next_round(w: Work, *, new: bool, gone: list[int]) -> None:
    """After a challenge (``new``) or a Dragon/Star round: the next Universe card, the end
    (WX-10), or the tie-breaker (WX-11)."""
    if new:
        w.turn = w.challenge[1]
    still_in = len(w.decks) - len(w.out)
    if not still_in:
        # WX-11 (a): the last players drew on their last cards; nobody holds any.
        w.notes.append(f"{w.t.names_of(gone)} ran out of cards at the same moment: sudden "
                       "death from the Universe deck (WX-11).")
        start_tiebreak(w, tuple(gone))
        return
    if still_in == 1:
        finish(w, tuple(w.active()), "holds every card still in the players' hands", "WX-10")
        return
    if w.universe_left == 0:
        if w.t.end == "recycle" and w.void > 0:
            recycle(w)
        else:
            count_cards(w)
            return
    setup_challenge(w, new=new)


def recycle(w: Work) -> None:
    """WX-10 (b): the Void is turned over, not shuffled: the new face-down Universe deck."""
    cards = [c for c, p in w.places.items() if p == VOID]
    w.move(tuple(Movement(VOID, UNIVERSE, c) for c in cards))
    w.recycles += 1
    w.notes.append(f"The Universe deck is empty: turn the Void over, without shuffling it; "
                   f"its {count(len(cards), 'card')} are the new face-down Universe deck "
                   "(WX-10b).")
    w.plays.append(Play("recycle", "recycle", "WX-10", None,
                        (Movement(VOID, UNIVERSE, None, len(cards)),),
                        {"cards": len(cards)}))


def setup_challenge(w: Work, *, new: bool) -> None:
    """WX-3: the next pair, the first challenger lays the Universe card (WX-4)."""
    t = w.t
    if w.out:
        a = w.turn if w.turn not in w.out else w.next_active(w.turn)
        b = w.next_active(a)
    else:
        a = w.turn
        b = a % len(w.decks) + 1
    w.turn = a
    w.challenge = (a, b)
    w.phase = DRAW
    w.awaiting = ()
    w.revealed = ()
    if new:
        w.challenges += 1
    w.notes.append((rulings.next_challenge, t, a, b))


def count_cards(w: Work) -> None:
    """WX-10 (a): most cards in deck wins; a tie goes to the sudden death (WX-11 b)."""
    t = w.t
    best = max(w.decks)
    tied = tuple(s for s in t.seats if w.decks[s - 1] == best)
    counts = ", ".join(f"{t.name(s)} {w.decks[s - 1]}" for s in t.seats if s not in w.out)
    why = "the Void is empty too" if t.end == "recycle" else "count the cards"
    w.notes.append(f"The Universe deck is empty ({why}): {counts} (WX-10).")
    if len(tied) == 1:
        finish(w, tied, f"the most cards: {best}", "WX-10")
        return
    w.notes.append(f"{t.names_of(tied)} are tied with {count(best, 'card')}: sudden death "
                   "from the Universe deck (WX-11).")
    start_tiebreak(w, tied)


def start_tiebreak(w: Work, tied: tuple[int, ...]) -> None:
    """WX-11: the tied players take Universe cards in turn order, starting with the one
    whose turn would come next (WX-3)."""
    n = len(w.t.names)
    w.duel = tuple(sorted(tied, key=lambda s: (s - w.turn) % n))
    w.duel_cards = ()
    w.revealed = ()
    w.universe_card = None
    w.challenge = ()
    w.phase = DUEL
    w.tiebreaks += 1
    await_taker(w)


def await_taker(w: Work) -> None:
    """WX-11: the next tied player to take a card this round, once a card can be taken:
    an empty Universe deck is refilled by turning the Void over (WX-10b); with no card
    left anywhere the tied players share the win."""
    taken = {s for s, _ in w.duel_cards}
    nxt = next(s for s in w.duel if s not in taken)
    if w.universe_left == 0:
        if w.void == 0:
            finish(w, w.duel, "no card is left to take", "WX-11")
            return
        recycle(w)
    w.awaiting = (nxt,)
    w.notes.append(f"Sudden death: {w.t.name(nxt)}, take the top Universe card and show it "
                   "in your place (WX-11).")


def take(w: Work, seat: int, serial: str) -> Play:
    """WX-11: a tied player shows the Universe card they took (already on their table
    place); when every tied player has one, the round is compared."""
    t = w.t
    w.duel_cards = (*w.duel_cards, (seat, serial))
    w.revealed = w.duel_cards
    shown = Movement(UNIVERSE, t.table_place[seat], serial)
    if len(w.duel_cards) < len(w.duel):
        w.notes.append(f"{t.name(seat)} took {rulings.a(t.label[serial])}.")
        await_taker(w)
        return Play("take", "reveal", "WX-11", seat, (shown,))
    play = adjudicate.tiebreak_round(t, w.duel_cards)
    w.move(play.movements)
    text = rulings.tiebreak_round(t, play)
    w.adjudications += 1
    w.adjudged = text
    w.notes.append(text)
    w.duel_cards = ()
    w.revealed = ()
    left = tuple(s for s in w.duel if s in play.facts["left"])
    w.duel = left
    if len(left) == 1:
        finish(w, left, "won the sudden death", "WX-11")
    else:
        await_taker(w)
    return Play(play.kind, play.outcome, play.rule, seat, (shown, *play.movements),
                play.facts)


def finish(w: Work, winners: tuple[int, ...], why: str, rule: str) -> None:
    t = w.t
    w.phase = OVER
    w.finished = True
    w.winners = tuple(sorted(winners))
    w.challenge = ()
    w.awaiting = ()
    names = t.names_of(w.winners)
    verb = "wins" if len(w.winners) == 1 else "share the win"
    w.notes.append(f"Game over: {names} {verb} ({why}, {rule}).")

