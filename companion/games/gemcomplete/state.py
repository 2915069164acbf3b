"""Gem Complete: the table's state (GC-2) and the facts every other file reads.

Places (C-1): ``unknown:<n>`` (a seat's deck, hand, or an unidentified Locus card or
discard: not yet seen), ``locus:<n>``, ``discard:<n>``, ``out``. Movements in a play also
name ``deck:<n>`` and ``hand:<n>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.cards import CardFace
from companion.engine import Play, evolve
from companion.errors import CardNotAvailable

OPENING_HAND = 5  # GC-3
DECLARE = 6  # GC-4
CHOOSE = 2  # GC-4
EFFECTS = ("crush", "discard", "draw", "return")
STEP_NAMES = {
    "declaration": "Complete Declaration Step",
    "reveal": "Complete Declaration: revealing",
    "choose": "Complete Declaration: the opponent chooses",
    "recovery": "Recovery Step",
    "main": "Main Phase",
}


@dataclass(frozen=True)
class LocusCard:
    """One face-down Locus card: its serial once known (to its owner and the referee), and
    whether both players see it now (revealed at a Complete Declaration, GC-4)."""

    serial: str | None = None
    public: bool = False


@dataclass(frozen=True)
class PrintedDeck:
    """One printed 40-card deck of the table's print runs (GC-1): deck id, print run and
    its serials."""

    deck_id: str
    printed: int
    serials: frozenset[str]


@dataclass(frozen=True)
class Side:
    """One player's zones (GC-2); ``deck_id`` is empty until the seat is bound to a printed
    deck (GN-2 rev. 2: by the first card it shows, or fixed in the lobby)."""

    deck_id: str
    unseen: frozenset[str]  # own serials not yet seen (deck, hand, unknown Locus/discards)
    deck_count: int
    hand_count: int = 0
    locus: tuple[LocusCard, ...] = ()
    discard: tuple[str, ...] = ()  # face up, identified, oldest first
    discard_unknown: int = 0  # put on the discard pile without a scan
    owed: int = 0  # of those, put there by the last effect: the table waits for them (C-6)


@dataclass(frozen=True)
class GemState:
    players: tuple[str, ...]
    cards: Mapping[str, CardFace]
    owner: Mapping[str, int]
    sides: tuple[Side, ...]
    turn: int | None = None
    step: str = "declaration"
    set_this_turn: bool = False
    declaration: tuple[int, ...] = ()  # selected Locus positions (1-based), in Locus order
    revealed: tuple[str, ...] = ()
    out: frozenset[str] = frozenset()
    turn_number: int = 0
    ruling: str = "Waiting for the companion to draw the starting player (GC-3)."
    finished: bool = False
    winners: tuple[int, ...] = ()
    adjudicated: int = 0
    declarations: int = 0
    gem_completes: int = 0
    deck_outs: int = 0
    crushed: int = 0
    # GC-3 rev. 2: the effects the card just played proposes (from the deck data), in order,
    # each {"type", "target": seat, "count", "from"?, "to"?, "kind"?}; and that card.
    pending: tuple[Mapping[str, Any], ...] = ()
    pending_card: str | None = None
    last_play: Play | None = None
    free: tuple[PrintedDeck, ...] = ()  # printed decks no seat is bound to yet (GN-2)
    # Serials recorded by a tap, not a scan: a copy of the same face may take their place
    # when the camera later shows it (C-1, issue 18 §3; standins.py).
    stand_ins: frozenset[str] = frozenset()
    # C-10 rev. 3: serials a tap recorded for a seat not bound yet. Every face is printed in
    # both decks, so a tap never binds: the copy is that face's, from any free deck, and
    # becomes a copy of the seat's own deck once a card only one deck prints binds it.
    loose: frozenset[str] = frozenset()

    def side(self, seat: int) -> Side:
        return self.sides[seat - 1]

    def name(self, seat: int) -> str:
        return self.players[seat - 1]


def other(seat: int) -> int:
    return 3 - seat


def is_gem(face: CardFace) -> bool:
    return face.kind == "gem"


def with_side(state: GemState, seat: int, side: Side) -> GemState:
    sides = list(state.sides)
    sides[seat - 1] = side
    return evolve(state, sides=tuple(sides))


def owing(state: GemState) -> list[int]:
    """The seats whose cards an effect just put face up on their discard pile without a
    scan: the table waits until each is shown at its owner's seat (C-6)."""
    if state.finished:
        return []
    return [s for s in (1, 2) if state.side(s).owed]


def may_hold(state: GemState, seat: int) -> frozenset[str]:
    """The cards ``seat`` may show as its own unseen cards: its deck's not seen yet, or,
    before it is bound, those of every printed deck no seat holds (GN-2 rev. 2, C-1)."""
    side = state.side(seat)
    if side.deck_id:
        return side.unseen
    return frozenset().union(*(p.serials for p in state.free)) - recorded_loose(state)


def recorded_loose(state: GemState) -> frozenset[str]:
    """The tapped copies of unbound seats that lie somewhere now (C-10 rev. 3)."""
    if not state.loose:
        return frozenset()
    places = {ls.serial for sd in state.sides for ls in sd.locus} | {
        c for sd in state.sides for c in sd.discard}
    return state.loose & places


def bind(state: GemState, seat: int, card: str) -> GemState:
    """``seat`` bound to the printed deck of ``card`` (GN-2 rev. 2). When one seat and one
    printed deck are left, that seat plays it; once both are bound, the other printed
    decks leave the game. Unchanged if the seat is bound or ``card`` is of no free deck, or
    if ``card`` was named by a tap before the seat was bound (a face both decks print
    never binds, C-10 rev. 3)."""
    chosen = next((p for p in state.free if card in p.serials), None)
    if state.side(seat).deck_id or chosen is None or card in state.loose:
        return state
    return _bind_deck(state, seat, chosen)


def _bind_deck(state: GemState, seat: int, chosen: PrintedDeck) -> GemState:
    owner = dict(state.owner)
    owner.update(dict.fromkeys(chosen.serials, seat))
    side = evolve(state.side(seat), deck_id=chosen.deck_id, unseen=chosen.serials)
    state = evolve(with_side(state, seat, side), owner=owner,
                   free=tuple(p for p in state.free if p is not chosen))
    state = _settle_loose(state, seat, chosen)
    left = [s for s in (1, 2) if not state.side(s).deck_id]
    if len(left) == 1 and len(state.free) == 1:
        return _bind_deck(state, left[0], state.free[0])
    if not left:
        state = evolve(state, free=(),
                       out=state.out | frozenset().union(*(p.serials for p in state.free)))
    return state


def _settle_loose(state: GemState, seat: int, chosen: PrintedDeck) -> GemState:
    """``seat`` was just bound to ``chosen`` (C-10 rev. 3): each copy a tap recorded for it
    becomes a copy of the same face in ``chosen`` (a stand-in, as any tap of a bound seat);
    a tapped copy of ``chosen`` that another unbound seat holds moves to a free deck.
    Raises ``CardNotAvailable`` if the taps hold more copies of a face than one deck."""
    side = state.side(seat)
    mine = ({ls.serial for ls in side.locus} | set(side.discard)) & state.loose
    kept = mine & chosen.serials
    state = evolve(with_side(state, seat, evolve(side, unseen=side.unseen - kept)),
                   loose=state.loose - kept)
    for old in sorted(recorded_loose(state)):
        if old in mine:
            pool = state.side(seat).unseen
        elif old in chosen.serials:
            pool = frozenset().union(*(p.serials for p in state.free)) - recorded_loose(state)
        else:
            continue
        name = state.cards[old].name
        copies = sorted(c for c in pool if state.cards[c].name == name)
        if not copies:
            raise CardNotAvailable(f"{name}: the cards shown by tap hold more copies of it "
                                   "than one deck prints", rule="C-10")
        state = rename(state, old, copies[0], keep=old not in mine)
    return state


def rename(state: GemState, old: str, new: str, keep: bool) -> GemState:
    """The tapped copy ``old`` is recorded as ``new`` (same name) wherever it lies; ``old``
    goes back among its deck's unseen cards. ``keep``: ``new`` stays a tapped copy of an
    unbound seat, else it is a stand-in of its bound seat (C-10 rev. 3)."""
    def r(x: str | None) -> str | None:
        return new if x == old else x

    sides = []
    for n, sd in enumerate(state.sides, 1):
        unseen = sd.unseen - {new}
        if state.owner.get(old) == n:
            unseen |= {old}
        sides.append(evolve(sd, unseen=unseen,
                            locus=tuple(LocusCard(r(ls.serial), ls.public) for ls in sd.locus),
                            discard=tuple(str(r(c)) for c in sd.discard)))
    loose = state.loose - {old}
    return evolve(state, sides=tuple(sides), revealed=tuple(str(r(c)) for c in state.revealed),
                  pending_card=r(state.pending_card),
                  loose=loose | {new} if keep else loose,
                  stand_ins=(state.stand_ins - {old}) | {new})


def is_public(state: GemState, card: str) -> bool:
    """Whether both players see ``card`` where it is now (a discard pile, a Locus card
    revealed at the Complete Declaration under way, or out of the game)."""
    for side in state.sides:
        if card in side.discard:
            return True
        if any(ls.serial == card and ls.public for ls in side.locus):
            return True
    return card in state.out


def known_to(state: GemState, card: str, viewer: int | None) -> bool:
    """Whether ``viewer`` (``0`` the referee, ``None`` the big screen, ``n`` a seat) may know
    where ``card`` is: its owner and the referee always, anyone once it is public (GC-2)."""
    return viewer == 0 or (viewer is not None and state.owner.get(card) == viewer) \
        or is_public(state, card)


def all_places(state: GemState) -> dict[str, str]:
    where: dict[str, str] = dict.fromkeys(state.out, "out")
    for p in state.free:  # in the box, or in the hand of a seat not bound yet (GN-2)
        where.update(dict.fromkeys(p.serials, "unknown"))
    for seat, side in enumerate(state.sides, 1):
        for s in side.unseen:
            where[s] = f"unknown:{seat}"
        for ls in side.locus:
            if ls.serial is not None:
                where[ls.serial] = f"locus:{seat}"
        for s in side.discard:
            where[s] = f"discard:{seat}"
    return where
