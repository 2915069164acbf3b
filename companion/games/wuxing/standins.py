"""A tapped card is a stand-in, not a guess (C-1, C-2, issue 18).

A face entered by hand ("wood", one tap on a phone) says *a* Wood left that place, not
which printed Wood. The companion still records it under one copy's serial, so that every
count and every adjudication works on serials as before, and notes the serial as a
stand-in: ``state.stand_ins`` maps it to its *pools*, the groups of same-face copies it
may trade places with. When a scan later shows a serial that the records put somewhere it
cannot come from, and it shares a pool with a copy of the same face that could be there,
the two trade places (and the tuples that name them): the scan is accepted, nobody is
refused for the companion's guess. A scanned stand-in is ``pinned``: it stays where it
was seen, while its place's pools still link the places around it (``settle``).

Pools:

- ``unseen``: every card nobody has seen since the deal (place ``unknown``) is in it
  without being listed, and so is a stand-in tapped from a deck's unseen part. Any two of
  them may trade places: before the tap both were unseen, and the records never told
  unseen copies apart.
- ``g<n>``: a tap from a place holding two or more known copies of the face (a deck's
  won cards, the Universe deck): every copy there joins group n. After the tap one of
  them is the card shown and the others stayed; the records cannot tell which.

Trading places never moves a count: two same-face serials swap places, so every
adjudication already made stays true (they are made on faces, WX-7). Replay is exact: the
choices are deterministic (sorted serials) and the pools are named by ``state.taps``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.engine import UNKNOWN
from companion.games.wuxing.state import DUEL, START, UNIVERSE, Work, WuXingState, successor

UNSEEN = "unseen"

Fits = Callable[[str], bool]


def pools(state: WuXingState, serial: str) -> tuple[str, ...]:
    """The pools ``serial`` may trade places in (``()``: it is where it was seen)."""
    own = state.stand_ins.get(serial, ())
    if state.places[serial] == UNKNOWN:
        return (*own, UNSEEN)
    return own


def fits_deck(state: WuXingState, seat: int) -> Fits:
    """Where the top card of ``seat``'s deck may be recorded: while cards nobody has seen
    are left in it, among those (won cards go to the bottom, WX-8); after that, among the
    cards known in it (C-2: their order is not known)."""
    places = state.places
    if state.unseen[seat - 1] > 0:
        return lambda c: places[c] == UNKNOWN
    mine = state.table.deck_place[seat]
    return lambda c: places[c] == mine


def fits_universe(state: WuXingState) -> Fits:
    """The top Universe card may be any card in the Universe deck (WX-4, WX-10b, WX-11)."""
    places = state.places
    return lambda c: places[c] == UNIVERSE


def tapped(state: WuXingState, face_id: str, fits: Fits) -> tuple[WuXingState, str] | None:
    """The copy a tap of ``face_id`` records where ``fits`` says the card comes from, and
    the state that notes it as a stand-in; ``None`` if no copy of the face can be there."""
    copies = [c for c in state.table.by_face.get(face_id, ()) if fits(c)]
    if not copies:
        return None
    chosen = copies[0]
    stand_ins = dict(state.stand_ins)
    taps = state.taps
    if state.places[chosen] == UNKNOWN:
        if UNSEEN not in stand_ins.get(chosen, ()):
            stand_ins[chosen] = (*stand_ins.get(chosen, ()), UNSEEN)
    elif len(copies) > 1:
        group = f"g{taps}"
        taps += 1
        for c in copies:
            stand_ins[c] = (*stand_ins.get(c, ()), group)
        # Which of them left is a guess again, even for one seen before.
        return _with(state, _pruned(stand_ins), taps, state.pinned - set(copies)), chosen
    else:
        return state, chosen  # the only copy there: no guess was made
    return _with(state, _pruned(stand_ins), taps, state.pinned), chosen


def settle(state: WuXingState, serial: str, fits: Fits) -> WuXingState | None:
    """The state in which the scanned ``serial`` is where ``fits`` wants it, by trading
    places with a same-face copy that can be there, reached through places that share
    pools; ``None`` if none can be reached.

    A pool belongs to the place, not to the copy in it: two trades through a third place
    and back exchange the first two and leave the third as it was, so a chain of places
    sharing pools allows a direct trade between its two ends, even through a place whose
    copy was seen (``pinned``: it never moves)."""
    # Before dealing every card is unseen, and a card pulled by serial is pulled: only a
    # tapped pull may trade places with a copy still in the deck (WX-12).
    def pools_of(c: str) -> tuple[str, ...]:
        if state.phase == START and c in state.shown:
            return state.stand_ins.get(c, ())
        return pools(state, c)

    if serial in state.pinned or not pools_of(serial):
        return None
    copies = [c for c in state.table.by_face[state.table.faces[serial].id] if c != serial]
    reached = {serial}
    frontier = [serial]
    while frontier:
        nxt: list[str] = []
        for at in frontier:
            own = set(pools_of(at))
            for other in copies:
                if other in reached or own.isdisjoint(pools_of(other)):
                    continue
                if fits(other) and other not in state.pinned:
                    return _trade(state, serial, other)
                reached.add(other)
                nxt.append(other)
        frontier = nxt
    return None


def seen(state: WuXingState, serial: str) -> WuXingState:
    """``serial`` was scanned where the records now have it: it stays there (its place's
    pools still link the others, ``settle``)."""
    if serial not in state.stand_ins or serial in state.pinned:
        return state
    d = state.__dict__.copy()
    d["pinned"] = state.pinned | {serial}
    return successor(d)


def forget(w: Work, serial: str) -> None:
    """The referee forces ``serial`` elsewhere (C-1 override): the place it had is gone,
    and with it the pools that place held."""
    if serial in w.stand_ins:
        w.stand_ins = {c: p for c, p in w.stand_ins.items() if c != serial}
        w.pinned = w.pinned - {serial}


def _trade(state: WuXingState, a: str, b: str) -> WuXingState:
    """``a`` and ``b`` (same face) swap places, pools and every tuple that names them."""
    def swap(x: str) -> str:
        return b if x == a else a if x == b else x

    d: dict[str, Any] = state.__dict__.copy()
    places = dict(state.places)
    places[a], places[b] = places[b], places[a]
    d["places"] = places
    stand_ins = dict(state.stand_ins)
    pa, pb = stand_ins.pop(a, None), stand_ins.pop(b, None)
    if pb is not None:
        stand_ins[a] = pb
    if pa is not None:
        stand_ins[b] = pa
    d["stand_ins"] = stand_ins
    d["pot"] = tuple(swap(x) for x in state.pot)
    d["revealed"] = tuple((s, swap(x)) for s, x in state.revealed)
    d["duel_cards"] = tuple((s, swap(x)) for s, x in state.duel_cards)
    d["shown"] = frozenset(swap(x) for x in state.shown)
    if state.universe_card is not None:
        d["universe_card"] = swap(state.universe_card)
    return successor(d)


def _pruned(stand_ins: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """``stand_ins`` without groups left with one member (nothing to trade with) and
    without serials left with no pool."""
    held: dict[str, int] = {}
    for ps in stand_ins.values():
        for p in ps:
            held[p] = held.get(p, 0) + 1
    out: dict[str, tuple[str, ...]] = {}
    for serial, ps in stand_ins.items():
        keep = tuple(p for p in ps if p == UNSEEN or held[p] > 1)
        if keep:
            out[serial] = keep
    return out


def _with(state: WuXingState, stand_ins: dict[str, tuple[str, ...]], taps: int,
          pinned: frozenset[str]) -> WuXingState:
    d = state.__dict__.copy()
    d["stand_ins"] = stand_ins
    d["taps"] = taps
    d["pinned"] = pinned & stand_ins.keys()
    return successor(d)


def fits_for(state: WuXingState, seat: int | None) -> Fits:
    """Where a card shown now in ``seat``'s zone (``None``: the Universe zone) may come
    from: before dealing, a player card not pulled yet (WX-12); the Universe zone and the
    sudden death, the Universe deck (WX-4, WX-11); a seat, the top of its deck."""
    if state.phase == START:
        places, shown, faces = state.places, state.shown, state.table.faces
        return lambda c: (places[c] == UNKNOWN and c not in shown
                          and faces[c].deck == "player")
    if seat is None or state.phase == DUEL:
        return fits_universe(state)
    return fits_deck(state, seat)
