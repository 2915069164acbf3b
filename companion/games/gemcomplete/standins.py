"""Gem Complete: a tapped card is a stand-in, not a guess (issue 18 §3, C-1, C-7).

A face entered by hand (``a-ruby``, one tap on a phone) says *a* Ruby of that seat went
there, not which printed Ruby. The engine still records one copy's serial, so that every
count and adjudication works on serials as before, and notes that serial in
``state.stand_ins``. A later scan of a serial the records put elsewhere is accepted when
the two can trade places:

- the scanned card is one the seat could hold (unseen) or a stand-in itself, and
- a copy of the same face stands in where the scan says the card comes from (or, for a
  card coming from the seat's unseen cards, a same-face copy is still unseen).

Trading places swaps the two serials everywhere the state names them: no count moves and
no ruling given changes, since rulings are made on faces (GC-3, GC-4). A card seen by its
serial (not a stand-in) never trades places: showing it anywhere else is refused (C-1).
Only the owner's own scans (or the camera's) trade places; any other seat naming the card
gets the one refusal that names nothing (C-7), so nothing hidden is learnt.
"""

from __future__ import annotations

from companion.engine import evolve
from companion.games.gemcomplete.state import (
    GemState,
    LocusCard,
    Side,
    recorded_loose,
    rename,
)


def mark(state: GemState, serials: list[str]) -> GemState:
    """``serials`` were recorded by a tap: stand-ins while they lie in a known place."""
    return _tidy(evolve(state, stand_ins=state.stand_ins | frozenset(serials)))


def loose(state: GemState, seat: int, serial: str) -> GemState:
    """A tap for ``seat`` not bound yet recorded ``serial``: a copy of that face from a free
    deck, which binds nothing (C-10 rev. 3)."""
    if state.side(seat).deck_id:
        return state
    return evolve(state, loose=state.loose | {serial}, stand_ins=state.stand_ins | {serial})


def unloose(state: GemState, serial: str) -> GemState:
    """Before ``serial`` is shown by its serial: if a tap of an unbound seat recorded it, the
    tap is recorded as another free copy of the same face (C-10 rev. 3), so the card shown
    is where it is shown. Unchanged if no such copy is left (the caller refuses)."""
    if serial not in recorded_loose(state):
        return state
    name = state.cards[serial].name
    free = frozenset().union(*(p.serials for p in state.free)) - recorded_loose(state)
    copies = sorted(c for c in free if c != serial and state.cards[c].name == name)
    return rename(state, serial, copies[0], keep=True) if copies else state


def seen(state: GemState, serials: list[str]) -> GemState:
    """``serials`` were named by serial: they are where the records say."""
    return evolve(state, stand_ins=state.stand_ins - frozenset(serials))


def _tidy(state: GemState) -> GemState:
    """Unseen cards are interchangeable anyway: only known places hold stand-ins; a tapped
    copy of a deck a seat is bound to is that seat's stand-in, no longer loose (C-10)."""
    unseen = frozenset().union(*(sd.unseen for sd in state.sides))
    return evolve(state, stand_ins=state.stand_ins - unseen,
                  loose=frozenset(c for c in state.loose if c not in state.owner))


def _swappable(state: GemState, seat: int, serial: str) -> bool:
    """``serial`` is ``seat``'s, and either unseen or a stand-in (never seen by serial)."""
    return state.owner.get(serial) == seat and (
        serial in state.side(seat).unseen or serial in state.stand_ins)


def to_unseen(state: GemState, seat: int, serial: str, actor: int | None,
              avoid: frozenset[str] = frozenset()) -> GemState:
    """Before ``serial`` is shown as one of ``seat``'s unseen cards (hand, deck, an
    unidentified discard): if the records have it elsewhere as a stand-in, it trades places
    with an unseen copy of the same face, never one of ``avoid`` (named by serial in the
    same event, C-10 rev. 3). Unchanged otherwise (the caller refuses)."""
    if actor not in (None, seat) or not state.side(seat).deck_id:
        return state
    side = state.side(seat)
    if serial in side.unseen or serial not in state.stand_ins \
            or state.owner.get(serial) != seat:
        return state
    face = state.cards[serial].id
    copies = sorted(c for c in side.unseen if state.cards[c].id == face and c not in avoid)
    return swap(state, serial, copies[0]) if copies else state


def to_place(state: GemState, seat: int, serial: str, there: str,
             actor: int | None) -> GemState:
    """Before ``serial`` is shown where the stand-in ``there`` is recorded: the two trade
    places when both are ``seat``'s, of one face, and neither was seen by serial elsewhere.
    Unchanged otherwise (the caller refuses)."""
    if actor not in (None, seat) or serial == there or there not in state.stand_ins:
        return state
    if state.cards[serial].id != state.cards[there].id or not _swappable(state, seat, serial):
        return state
    return swap(state, serial, there)


def swap(state: GemState, a: str, b: str) -> GemState:
    """``a`` and ``b`` (same face, same seat) trade places and stand-in marks."""
    def sw(x: str | None) -> str | None:
        return b if x == a else a if x == b else x

    def sws(xs: frozenset[str]) -> frozenset[str]:
        return frozenset(str(sw(x)) for x in xs)

    sides = tuple(
        Side(sd.deck_id, sws(sd.unseen), sd.deck_count, sd.hand_count,
             tuple(LocusCard(sw(ls.serial), ls.public) for ls in sd.locus),
             tuple(str(sw(x)) for x in sd.discard), sd.discard_unknown, sd.owed)
        for sd in state.sides)
    new = evolve(state, sides=sides, revealed=tuple(str(sw(x)) for x in state.revealed),
                 out=sws(state.out), stand_ins=sws(state.stand_ins),
                 pending_card=sw(state.pending_card))
    return _tidy(new)
