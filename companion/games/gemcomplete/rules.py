"""Gem Complete (seed 004): two win conditions and the smallest game around them (GC-1..GC-5).

Two players, each with their own 40-card deck (GC-1): seat 1 plays ``deck-a``, seat 2
plays ``deck-b`` (own backs; the binding is made at table creation, GN-2). The companion
tracks per seat (GC-2): deck count, hand count, the Locus (an ordered row of face-down
cards; a card's identity is known once revealed, or privately to its owner when scanned as
it is set), and the face-up discard pile. Cards drawn are unknown until shown.

Events (JSON objects; ``seat`` is 1-based; "target" is the seat whose cards an effect moves):

- ``{"type": "first_player", "value": seat}``: chance (C-4); both players draw 5 (GC-3).
- ``{"type": "next", "seat": s}``: the current player moves on one step: Complete
  Declaration Step -> Recovery Step -> Draw Step (draw 1, GC-5) and Main Phase -> End Phase
  (the opponent's turn starts at their Complete Declaration Step).
- ``{"type": "declare", "seat": s, "positions": [6 Locus positions, 1-based]}`` (GC-4).
- ``{"type": "reveal", "seat": s, "cards": [SERIAL, ...]}`` or
  ``{"type": "scan", "card": SERIAL, "zone": "locus:<s>"}``: the next selected Locus cards
  revealed, in Locus order (GC-4). Six Gems win; otherwise the opponent chooses.
- ``{"type": "choose", "seat": opponent, "cards": [SERIAL, SERIAL]}``: 2 of the 6 revealed
  cards go to the declarer's discard pile; the other 4 go back face down (GC-4).
- ``{"type": "set", "seat": s, "card"?: SERIAL}``: Main Phase, at most once a turn: a card
  from hand face down at the end of the Locus; ``card`` is the owner's private scan (GC-2).
- ``{"type": "play", "seat": s, "card"?: SERIAL}`` or ``{"type": "scan", "card": SERIAL,
  "zone": "seat:<s>"}``: a non-Gem card from hand is played and goes to the discard pile; its
  effects are then entered by hand with the events below (GC-3).
- ``{"type": "crush", "seat": s, "target": t, "count": n, "cards"?: [SERIAL...]}``: the top
  ``n`` cards of ``t``'s deck go to ``t``'s discard pile (scanned serials optional).
- ``{"type": "discard", "seat": s, "target": t, "count": n, "from": "hand"|"deck",
  "cards"?: [...]}``: ``t`` discards ``n`` cards from hand or from the top of the deck.
- ``{"type": "draw", "seat": s, "target": t, "count": n}``: ``t`` draws ``n`` by an effect.
- ``{"type": "return", "seat": s, "target": t, "cards": [SERIAL...], "to": "hand"|"deck"}``:
  cards from ``t``'s discard pile to hand or shuffled into the deck.

Every deck count that reaches 0, by a draw, a crush or a discard, ends the game at once:
that player loses (GC-5).

View keys: ``game``, ``phase`` ("setup" | "play" | "over"), ``turn``, ``turn_number``,
``step`` ("declaration" | "reveal" | "choose" | "recovery" | "main"), ``set_this_turn``,
``declaration`` (``positions``, ``revealed`` cards, ``declarer``) or None, ``seats`` (per seat:
``seat``, ``name``, ``deck_name``, ``deck``, ``hand``, ``locus`` (per position:
``position``, ``known``, ``public``, and ``card``/``face``/``name``/``gem`` when this viewer
may see it), ``discard`` (known cards, oldest first), ``discard_unknown``), ``prompt``,
``ruling``, ``finished``, ``winners``; a seat's view adds ``you``; ``referee_view`` shows
every known card and adds ``places``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.cards import CardFace, DeckData, load_deck
from companion.engine import (
    OUT,
    UNKNOWN,
    Event,
    JSONDict,
    Rules,
    Setup,
    card_list,
    card_ref,
    discard_of,
    event_type,
    evolve,
    locus_of,
    require,
    seat_zone,
)
from companion.errors import (
    BadSetup,
    CardNotAvailable,
    GameOver,
    IllegalPlay,
    MalformedEvent,
    OutOfTurn,
    UnknownCard,
)

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



T = TypeVar("T")



@dataclass(frozen=True)
class LocusCard:
    """One face-down Locus card: its serial once known, and whether everyone saw it."""

    serial: str | None = None
    public: bool = False  # revealed at a Complete Declaration (both players saw it)


@dataclass(frozen=True)
class Side:
    """One player's zones (GC-2)."""

    deck_id: str
    unseen: frozenset[str]  # own serials not yet seen (deck, hand, unknown Locus/discards)
    deck_count: int
    hand_count: int = 0
    locus: tuple[LocusCard, ...] = ()
    discard: tuple[str, ...] = ()  # face up, identified, oldest first
    discard_unknown: int = 0  # put on the discard pile without a scan


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

    def side(self, seat: int) -> Side:
        return self.sides[seat - 1]

    def name(self, seat: int) -> str:
        return self.players[seat - 1]




def _other(seat: int) -> int:
    return 3 - seat


def _is_gem(face: CardFace) -> bool:
    return face.kind == "gem"


class GemCompleteRules(Rules[GemState]):
    id = "gemcomplete"
    title = "Gem Complete"
    min_players = 2
    max_players = 2
    zones = ("seat:<n>", "locus:<n>")

    @property
    def deck(self) -> DeckData:
        return load_deck(self.id)

    def start(self, setup: Setup) -> GemState:
        order = list(self.deck.decks)  # seat 1: deck-a, seat 2: deck-b (GN-2 binding)
        owner: dict[str, int] = {}
        sides = []
        for seat in setup.seats:
            deck_id = order[seat - 1]
            sets = sorted({setup.sets.get(s, 1) for s, f in setup.cards.items()
                           if f.deck == deck_id})
            if not sets:
                raise BadSetup(f"seat {seat} ({setup.name(seat)!r}) needs a printed {deck_id!r}; "
                               "the print runs hold none", rule="GC-1")
            serials = [s for s, f in setup.cards.items()
                       if f.deck == deck_id and setup.sets.get(s, 1) == sets[0]]
            for s in serials:
                owner[s] = seat
            sides.append(Side(deck_id, frozenset(serials), len(serials)))
        out = frozenset(s for s in setup.cards if s not in owner)
        return GemState(tuple(setup.players), dict(setup.cards), owner, tuple(sides), out=out)

    # ----------------------------------------------------------------- apply

    def chance(self, state: GemState, rng: random.Random) -> Event | None:
        if state.turn is None and not state.finished:
            return {"type": "first_player", "value": rng.randint(1, 2)}
        return None

    def apply(self, state: GemState, event: Event) -> GemState:
        kind = event_type(event)
        if state.finished:
            raise GameOver(f"the game is over; {kind!r} refused", rule="GC-5")
        if kind == "first_player":
            return self._first(state, event)
        known = {"next", "declare", "reveal", "scan", "choose", "set", "play", *EFFECTS}
        if kind not in known:
            raise MalformedEvent(f"Gem Complete has no event type {kind!r}")
        if state.turn is None:
            raise IllegalPlay(f"{kind!r} refused: the starting player is not drawn yet",
                              rule="GC-3")
        if kind == "scan":
            zone = require(event, "zone", str)
            card = card_ref(state.cards, require(event, "card", str))
            seat = seat_zone(zone, 2)
            if seat is not None:
                new = self._play(state, seat, card)
            elif zone in (locus_of(1), locus_of(2)):
                seat = int(zone.split(":")[1])
                if state.step == "reveal":
                    new = self._reveal(state, seat, [card])
                else:
                    new = self._set(state, seat, card)
            else:
                raise MalformedEvent(f"zone {zone!r} is not one of {list(self.zones)}")
            return evolve(new, adjudicated=new.adjudicated + 1)
        seat = require(event, "seat", int)
        if seat not in (1, 2):
            raise MalformedEvent(f"there is no seat {seat!r} at this table")
        if kind == "next":
            new = self._next(state, seat)
        elif kind == "declare":
            new = self._declare(state, seat, require(event, "positions", list))
        elif kind == "reveal":
            new = self._reveal(state, seat, self._cards(state, event))
        elif kind == "choose":
            new = self._choose(state, seat, self._cards(state, event))
        elif kind == "set":
            new = self._set(state, seat, self._opt_card(state, event))
        elif kind == "play":
            new = self._play(state, seat, self._opt_card(state, event))
        else:
            new = self._effect(state, seat, kind, event)
        return evolve(new, adjudicated=new.adjudicated + 1)

    def _cards(self, state: GemState, event: Event) -> list[Any]:
        return card_list(state.cards, require(event, "cards", (list, str)), "cards")

    def _opt_card(self, state: GemState, event: Event) -> str | None:
        card = event.get("card")
        if card is None or (isinstance(card, str) and not card.strip()):
            return None
        if not isinstance(card, str):
            raise MalformedEvent(f"event field 'card' must be a serial, got {card!r}")
        return str(card_ref(state.cards, card))

    def _first(self, state: GemState, event: Event) -> GemState:
        value = require(event, "value", int)
        if state.turn is not None:
            raise IllegalPlay(f"{state.name(state.turn)} already started; {value!r} refused",
                              rule="GC-3")
        if value not in (1, 2):
            raise MalformedEvent(f"starting player {value!r}: there is no such seat")
        sides = tuple(evolve(sd, deck_count=sd.deck_count - OPENING_HAND, hand_count=OPENING_HAND)
                      for sd in state.sides)
        return evolve(state, sides=sides, turn=value, step="declaration", turn_number=1,
                       ruling=f"{state.name(value)} starts. Both players shuffle and draw "
                              f"{OPENING_HAND} cards (GC-3). {state.name(value)}: "
                              "Complete Declaration Step.")

    def _set_side(self, state: GemState, seat: int, side: Side) -> GemState:
        sides = list(state.sides)
        sides[seat - 1] = side
        return evolve(state, sides=tuple(sides))

    def _current(self, state: GemState, seat: int, what: str, steps: tuple[str, ...]) -> None:
        if seat != state.turn:
            raise OutOfTurn(f"seat {seat} ({state.name(seat)}) cannot {what}: it is "
                            f"{state.name(state.turn or 1)}'s turn", rule="GC-3")
        if state.step not in steps:
            allowed = " or ".join(STEP_NAMES[s] for s in steps)
            raise IllegalPlay(f"{state.name(seat)} cannot {what} in the "
                              f"{STEP_NAMES[state.step]}; only in the {allowed}", rule="GC-3")

    def _own_card(self, state: GemState, seat: int, card: str,
                  actor: int | None = None) -> CardFace:
        """The face of a card of ``seat``'s hand/deck, named by ``actor`` (default: ``seat``).

        Raises (C-1). A refusal names the card's face and place only when ``actor`` may see
        them (GC-2): a card privately scanned into a Locus is never described to the
        opponent, even when the opponent types its serial into an effect.
        """
        if card not in state.cards:
            raise UnknownCard(f"card {card!r} was never printed for this table", rule="C-1")
        face = state.cards[card]
        actor = seat if actor is None else actor
        owner = state.owner.get(card)
        shown = owner == actor or self._public(state, card)
        label = f"card {card!r} ({face.name})" if shown else f"card {card!r}"
        if owner != seat:
            whose = f"{state.name(owner)}'s deck" if owner else "a deck nobody plays here"
            raise CardNotAvailable(f"{label} belongs to {whose}, not to "
                                   f"{state.name(seat)}'s", rule="C-1")
        if card not in state.side(seat).unseen:
            if not shown:
                raise CardNotAvailable(f"{label} is not in {state.name(seat)}'s hand or deck",
                                       rule="C-1")
            where = self._where(state, card)
            raise CardNotAvailable(f"{label} is already {where}", rule="C-1")
        return face

    def _public(self, state: GemState, card: str) -> bool:
        """Whether both players have seen ``card`` where it is now (a discard pile, a card
        revealed at a Complete Declaration, or out of the game)."""
        for side in state.sides:
            if card in side.discard:
                return True
            if any(ls.serial == card and ls.public for ls in side.locus):
                return True
        return card in state.out

    def _where(self, state: GemState, card: str) -> str:
        place = self.places(state).get(card, OUT)
        if place.startswith("locus:"):
            return f"in {state.name(int(place[6:]))}'s Locus"
        if place.startswith("discard:"):
            return f"in {state.name(int(place[8:]))}'s discard pile"
        return "out of the game"

    # ----------------------------------------------------------------- GC-3 steps

    def _next(self, state: GemState, seat: int) -> GemState:
        self._current(state, seat, "move on", ("declaration", "recovery", "main"))
        name = state.name(seat)
        if state.step == "declaration":
            return evolve(state, step="recovery",
                           ruling=f"{name} makes no Complete Declaration. Recovery Step: enter "
                                  "card effects, if any (GC-3).")
        if state.step == "recovery":
            new = self._draw(state, seat, 1, f"Draw Step: {name} draws 1 card")
            if new.finished:
                return new
            return evolve(new, step="main", ruling=new.ruling + " Main Phase: set at most one "
                           "card in the Locus and play cards (GC-3).")
        opp = _other(seat)
        return evolve(state, turn=opp, step="declaration", set_this_turn=False,
                       turn_number=state.turn_number + 1,
                       ruling=f"{name} ends the turn (End Phase). {state.name(opp)}: Complete "
                              "Declaration Step (GC-3).")

    def _set(self, state: GemState, seat: int, card: str | None) -> GemState:
        self._current(state, seat, "set a card", ("main",))
        if state.set_this_turn:
            raise IllegalPlay(f"{state.name(seat)} already set a card in the Locus this turn",
                              rule="GC-3")
        side = state.side(seat)
        if side.hand_count < 1:
            raise IllegalPlay(f"{state.name(seat)} has no card in hand to set", rule="GC-3")
        unseen = side.unseen
        if card is not None:
            self._own_card(state, seat, card)
            unseen = unseen - {card}
        side = evolve(side, unseen=unseen, hand_count=side.hand_count - 1,
                       locus=(*side.locus, LocusCard(card)))
        state = self._set_side(state, seat, side)
        return evolve(state, set_this_turn=True,
                       ruling=f"{state.name(seat)} sets a card face down at position "
                              f"{len(side.locus)} of the Locus (GC-3).")

    def _play(self, state: GemState, seat: int, card: str | None) -> GemState:
        self._current(state, seat, "play a card", ("recovery", "main"))
        side = state.side(seat)
        if side.hand_count < 1:
            raise IllegalPlay(f"{state.name(seat)} has no card in hand to play", rule="GC-3")
        if card is None:
            side = evolve(side, hand_count=side.hand_count - 1,
                           discard_unknown=side.discard_unknown + 1)
            return evolve(self._set_side(state, seat, side),
                           ruling=f"{state.name(seat)} plays a card; enter its effects (GC-3).")
        face = self._own_card(state, seat, card)
        if _is_gem(face):
            raise IllegalPlay(f"{card!r} is a Gem ({face.name}): Gems are set in the Locus, "
                              "not played", rule="GC-3")
        side = evolve(side, unseen=side.unseen - {card}, hand_count=side.hand_count - 1,
                       discard=(*side.discard, card))
        return evolve(self._set_side(state, seat, side),
                       ruling=f"{state.name(seat)} plays {face.name}: \"{face.text}\" Enter its "
                              "effects (GC-3).")

    # ----------------------------------------------------------------- GC-4

    def _declare(self, state: GemState, seat: int, positions: list[Any]) -> GemState:
        self._current(state, seat, "make a Complete Declaration", ("declaration",))
        locus = state.side(seat).locus
        if len(locus) < DECLARE:
            raise IllegalPlay(f"{state.name(seat)} has {len(locus)} card(s) in the Locus; a "
                              f"Complete Declaration needs {DECLARE}", rule="GC-4")
        if (len(positions) != DECLARE or len(set(positions)) != DECLARE
                or not all(isinstance(p, int) and not isinstance(p, bool)
                           and 1 <= p <= len(locus) for p in positions)):
            raise IllegalPlay(f"positions {positions!r}: choose {DECLARE} different Locus "
                              f"positions from 1 to {len(locus)}", rule="GC-4")
        chosen = tuple(sorted(positions))
        return evolve(state, step="reveal", declaration=chosen, revealed=(),
                       declarations=state.declarations + 1,
                       ruling=f"{state.name(seat)} declares Gem Complete with Locus positions "
                              f"{', '.join(map(str, chosen))}: reveal them in order (GC-4).")

    def _reveal(self, state: GemState, seat: int, cards: list[Any]) -> GemState:
        self._current(state, seat, "reveal Locus cards", ("reveal",))
        if not cards:
            raise MalformedEvent("reveal at least one card")
        for i, card in enumerate(cards):
            if not isinstance(card, str):
                raise MalformedEvent(f"revealed cards must be serials, got {card!r}")
            state = self._reveal_one(state, seat, card)
            if (state.finished or state.step != "reveal") and i != len(cards) - 1:
                raise IllegalPlay(f"only {DECLARE} Locus cards are revealed; {cards!r} "
                                  "lists more", rule="GC-4")
        return state

    def _reveal_one(self, state: GemState, seat: int, card: str) -> GemState:
        side = state.side(seat)
        pos = state.declaration[len(state.revealed)]
        slot = side.locus[pos - 1]
        if slot.serial is not None:
            if card != slot.serial:
                raise CardNotAvailable(
                    f"Locus position {pos} of {state.name(seat)} holds {slot.serial!r}, not "
                    f"{card!r}: reveal the cards in their Locus order", rule="GC-4")
            unseen = side.unseen
        else:
            self._own_card(state, seat, card)
            unseen = side.unseen - {card}
        locus = list(side.locus)
        locus[pos - 1] = LocusCard(card, public=True)
        side = evolve(side, unseen=unseen, locus=tuple(locus))
        state = self._set_side(state, seat, side)
        revealed = (*state.revealed, card)
        state = evolve(state, revealed=revealed)
        names = ", ".join(state.cards[c].name for c in revealed)
        if len(revealed) < DECLARE:
            return evolve(state, ruling=f"Revealed {names}; {DECLARE - len(revealed)} to go "
                                         "(GC-4).")
        if all(_is_gem(state.cards[c]) for c in revealed):
            return evolve(state, finished=True, winners=(seat,),
                           gem_completes=state.gem_completes + 1,
                           ruling=f"{state.name(seat)} reveals {names}: six Gems. Gem Complete: "
                                  f"{state.name(seat)} wins (GC-4).")
        opp = _other(seat)
        return evolve(state, step="choose",
                       ruling=f"{state.name(seat)} reveals {names}: not all Gems, the "
                              f"declaration fails. {state.name(opp)} chooses {CHOOSE} of them "
                              "for the discard pile (GC-4).")

    def _choose(self, state: GemState, seat: int, cards: list[Any]) -> GemState:
        declarer = state.turn or 1
        if state.step != "choose":
            raise IllegalPlay(f"nobody is choosing revealed cards now ({STEP_NAMES[state.step]})",
                              rule="GC-4")
        if seat == declarer:
            raise OutOfTurn(f"{state.name(seat)} declared; the opponent "
                            f"{state.name(_other(seat))} chooses the {CHOOSE} cards", rule="GC-4")
        if len(cards) != CHOOSE or len(set(map(str, cards))) != CHOOSE:
            raise IllegalPlay(f"choose exactly {CHOOSE} different cards, got {cards!r}",
                              rule="GC-4")
        for c in cards:
            if c not in state.revealed:
                raise IllegalPlay(f"{c!r} is not among the {DECLARE} revealed cards "
                                  f"{list(state.revealed)}", rule="GC-4")
        side = state.side(declarer)
        keep = tuple(ls for ls in side.locus if ls.serial not in cards)
        side = evolve(side, locus=keep, discard=(*side.discard, *cards))
        state = self._set_side(state, declarer, side)
        names = " and ".join(state.cards[c].name for c in cards)
        return evolve(state, step="recovery", declaration=(), revealed=(),
                       ruling=f"{state.name(seat)} sends {names} to {state.name(declarer)}'s "
                              "discard pile; the other four go back face down in their order. "
                              f"{state.name(declarer)}: Recovery Step (GC-4).")

    # ----------------------------------------------------------------- effects, GC-5

    def _effect(self, state: GemState, seat: int, kind: str, event: Event) -> GemState:
        if state.step in ("reveal", "choose"):
            raise IllegalPlay(f"{kind!r} refused: finish the Complete Declaration first",
                              rule="GC-4")
        if seat != state.turn:
            # Companion decision 6: the effects of the cards played this turn are entered by
            # the player whose turn it is (the referee enters them with that seat).
            raise OutOfTurn(f"seat {seat} ({state.name(seat)}) cannot enter a {kind!r} effect: "
                            f"it is {state.name(state.turn or 1)}'s turn", rule="GC-3")
        target = require(event, "target", int)
        if target not in (1, 2):
            raise MalformedEvent(f"there is no seat {target!r} to target")
        if kind == "return":
            to = event.get("to", "hand")
            if to not in ("hand", "deck"):
                raise MalformedEvent(f"'to' must be 'hand' or 'deck', got {to!r}")
            return self._return(state, target, self._cards(state, event), str(to), seat)
        count = require(event, "count", int)
        if not 1 <= count <= 40:
            raise MalformedEvent(f"count {count!r} must be 1-40")
        if kind == "draw":
            return self._draw(state, target, count, f"{state.name(target)} draws {count}")
        cards = card_list(state.cards, event.get("cards", []), "cards")
        if not all(isinstance(c, str) for c in cards):
            raise MalformedEvent(f"'cards' must be a list of serials, got {cards!r}")
        if len(cards) > count or len(set(cards)) != len(cards):
            raise MalformedEvent(f"{cards!r}: at most {count} different cards")
        source = event.get("from", "deck") if kind == "discard" else "deck"
        if source not in ("hand", "deck"):
            raise MalformedEvent(f"'from' must be 'hand' or 'deck', got {source!r}")
        for c in cards:
            self._own_card(state, target, c, seat)
        side = state.side(target)
        if source == "deck" and len(cards) > side.deck_count:
            raise CardNotAvailable(f"{cards!r}: {state.name(target)}'s deck holds only "
                                   f"{side.deck_count} card(s), so only that many can be shown "
                                   f"from it", rule="C-1")
        if source == "hand":
            side = state.side(target)
            if count > side.hand_count:
                raise IllegalPlay(f"{state.name(target)} holds {side.hand_count} card(s), "
                                  f"cannot discard {count}", rule="GC-2")
            side = evolve(side, hand_count=side.hand_count - count,
                           unseen=side.unseen - set(cards), discard=(*side.discard, *cards),
                           discard_unknown=side.discard_unknown + count - len(cards))
            return evolve(self._set_side(state, target, side),
                           ruling=f"{state.name(target)} discards {count} card(s) from hand.")
        verb = "crush" if kind == "crush" else "discard"
        return self._mill(state, target, count, cards, verb)

    def _mill(self, state: GemState, seat: int, count: int, cards: list[str],
              verb: str) -> GemState:
        """Top ``count`` cards of ``seat``'s deck to its discard pile, one at a time (GC-5)."""
        side = state.side(seat)
        moved = min(count, side.deck_count)
        known = cards[:moved]
        side = evolve(side, deck_count=side.deck_count - moved, unseen=side.unseen - set(known),
                       discard=(*side.discard, *known),
                       discard_unknown=side.discard_unknown + moved - len(known))
        state = self._set_side(state, seat, side)
        state = evolve(state, crushed=state.crushed + (moved if verb == "crush" else 0))
        what = (f"{verb.capitalize()} {count}: {moved} card(s) from the top of "
                f"{state.name(seat)}'s deck to the discard pile")
        return self._deck_out(state, seat, what)

    def _draw(self, state: GemState, seat: int, count: int, what: str) -> GemState:
        side = state.side(seat)
        moved = min(count, side.deck_count)
        side = evolve(side, deck_count=side.deck_count - moved, hand_count=side.hand_count + moved)
        return self._deck_out(self._set_side(state, seat, side), seat, what)

    def _deck_out(self, state: GemState, seat: int, what: str) -> GemState:
        side = state.side(seat)
        if side.deck_count == 0:
            opp = _other(seat)
            return evolve(state, finished=True, winners=(opp,), deck_outs=state.deck_outs + 1,
                           ruling=f"{what}. {state.name(seat)}'s deck is empty: Deck Out, "
                                  f"{state.name(opp)} wins (GC-5).")
        return evolve(state, ruling=f"{what}; {side.deck_count} left in the deck.")

    def _return(self, state: GemState, seat: int, cards: list[Any], to: str,
                actor: int) -> GemState:
        if not cards or len(set(map(str, cards))) != len(cards):
            raise MalformedEvent(f"list the discard pile cards to return, each once: {cards!r}")
        side = state.side(seat)
        unknown_used = 0
        for c in cards:
            if not isinstance(c, str):
                raise MalformedEvent(f"returned cards must be serials, got {c!r}")
            if c in side.discard:
                continue
            # An unidentified discard shown now (C-6): it must be one of this seat's unseen.
            self._own_card(state, seat, c, actor)
            unknown_used += 1
        if unknown_used > side.discard_unknown:
            raise CardNotAvailable(f"{cards!r}: only {side.discard_unknown} unidentified card(s) "
                                   f"lie in {state.name(seat)}'s discard pile", rule="C-1")
        discard = tuple(c for c in side.discard if c not in cards)
        side = evolve(side, discard=discard, discard_unknown=side.discard_unknown - unknown_used)
        names = ", ".join(state.cards[c].name for c in cards)
        if to == "hand":
            side = evolve(side, hand_count=side.hand_count + len(cards),
                           unseen=side.unseen | set(cards))
            msg = f"{state.name(seat)} takes {names} from the discard pile into hand."
        else:
            side = evolve(side, deck_count=side.deck_count + len(cards),
                           unseen=side.unseen | set(cards))
            msg = (f"{state.name(seat)} shuffles {names} from the discard pile into the deck "
                   f"({side.deck_count} cards).")
        return evolve(self._set_side(state, seat, side), ruling=msg)

    # ----------------------------------------------------------------- views

    def _locus_rows(self, state: GemState, seat: int, viewer: int | None,
                    referee: bool) -> list[JSONDict]:
        rows = []
        for i, ls in enumerate(state.side(seat).locus, 1):
            row: JSONDict = {"position": i, "known": ls.serial is not None, "public": ls.public}
            visible = ls.serial is not None and (referee or ls.public or viewer == seat)
            if visible and ls.serial is not None:
                face = state.cards[ls.serial]
                row.update(card=ls.serial, face=face.id, name=face.name, gem=_is_gem(face))
            if not referee and viewer != seat:
                row["known"] = ls.public
            rows.append(row)
        return rows

    def _view(self, state: GemState, viewer: int | None, referee: bool) -> JSONDict:
        phase = "over" if state.finished else ("setup" if state.turn is None else "play")
        seats = []
        for seat, side in enumerate(state.sides, 1):
            seats.append({
                "seat": seat, "name": state.name(seat),
                "deck_name": self.deck.decks[side.deck_id].name,
                "deck": side.deck_count, "hand": side.hand_count,
                "locus": self._locus_rows(state, seat, viewer, referee),
                "discard": [{"card": c, "face": state.cards[c].id, "name": state.cards[c].name}
                            for c in side.discard],
                "discard_unknown": side.discard_unknown,
            })
        decl = None
        if state.declaration:
            decl = {"declarer": state.turn, "positions": list(state.declaration),
                    "revealed": [{"card": c, "name": state.cards[c].name,
                                  "gem": _is_gem(state.cards[c])} for c in state.revealed]}
        v: JSONDict = {
            "game": self.id, "phase": phase, "turn": state.turn,
            "turn_number": state.turn_number,
            "step": "over" if state.finished else state.step,
            "set_this_turn": state.set_this_turn, "declaration": decl, "seats": seats,
            "prompt": self._prompt(state), "ruling": state.ruling,
            "finished": state.finished, "winners": list(state.winners),
        }
        if viewer is not None:
            v["you"] = viewer
        return v

    def _prompt(self, state: GemState) -> str:
        if state.finished:
            return f"Game over: {state.name(state.winners[0])} wins."
        if state.turn is None:
            return "The companion draws the starting player (GC-3)."
        who = state.name(state.turn)
        if state.step == "declaration":
            return f"{who}: Complete Declaration Step: declare, or move on (GC-4)."
        if state.step == "reveal":
            pos = state.declaration[len(state.revealed)]
            return f"{who}: reveal Locus position {pos} (GC-4)."
        if state.step == "choose":
            return (f"{state.name(_other(state.turn))}: choose {CHOOSE} revealed cards for "
                    f"{who}'s discard pile (GC-4).")
        if state.step == "recovery":
            return f"{who}: Recovery Step: enter card effects, then draw (GC-3)."
        return f"{who}: Main Phase: set a card, play cards, then end the turn (GC-3)."

    def view(self, state: GemState, seat: int | None) -> JSONDict:
        return self._view(state, seat, referee=False)

    def referee_view(self, state: GemState) -> JSONDict:
        v = self._view(state, None, referee=True)
        v["places"] = dict(self.places(state))
        return v

    def actions(self, state: GemState, seat: int | None) -> list[JSONDict]:
        if state.finished or state.turn is None:
            return []
        cur = state.turn
        opp = _other(cur)
        acts: list[JSONDict] = []
        if state.step == "choose":
            if seat in (None, opp):
                choices = [{"value": c, "label": f"{state.cards[c].name} ({c})"}
                           for c in state.revealed]
                acts.append({"type": "choose", "label": f"Choose {CHOOSE} for the discard pile",
                             "seat": opp, "rule": "GC-4",
                             "fields": [{"name": "cards", "label": "Revealed cards",
                                         "kind": "choices", "count": CHOOSE,
                                         "choices": choices}]})
            return acts
        if seat not in (None, cur):
            return []
        side = state.side(cur)
        if state.step == "reveal":
            pos = state.declaration[len(state.revealed)]
            return [{"type": "reveal", "label": f"Reveal Locus position {pos}", "seat": cur,
                     "rule": "GC-4", "fields": [{"name": "cards", "label": "Revealed card",
                                                 "kind": "card", "zone": locus_of(cur),
                                                 "multiple": True}]}]
        card_field = {"name": "card", "label": "Card (scan, optional)", "kind": "card",
                      "zone": f"seat:{cur}", "optional": True}
        if state.step == "declaration":
            if len(side.locus) >= DECLARE:
                acts.append({"type": "declare", "label": "Complete Declaration", "seat": cur,
                             "rule": "GC-4",
                             "fields": [{"name": "positions", "label": "Locus positions",
                                         "kind": "choices", "count": DECLARE,
                                         "choices": [{"value": i, "label": str(i)} for i in
                                                     range(1, len(side.locus) + 1)]}]})
            acts.append({"type": "next", "label": "No declaration: Recovery Step", "seat": cur,
                         "fields": [], "rule": "GC-3"})
            return acts
        if state.step == "main" and not state.set_this_turn and side.hand_count:
            acts.append({"type": "set", "label": "Set a card in the Locus", "seat": cur,
                         "rule": "GC-3", "fields": [dict(card_field, zone=locus_of(cur),
                                                         label="Card (private scan, optional)")]})
        if side.hand_count:
            acts.append({"type": "play", "label": "Play a card", "seat": cur, "rule": "GC-3",
                         "fields": [card_field]})
        target = {"name": "target", "label": "Whose cards", "kind": "choice",
                  "choices": [{"value": s, "label": state.name(s)} for s in (1, 2)]}
        count = {"name": "count", "label": "How many", "kind": "int", "min": 1, "max": 40}
        acts.append({"type": "crush", "label": "Crush N (effect)", "seat": cur, "rule": "GC-5",
                     "fields": [target, count]})
        acts.append({"type": "discard", "label": "Discard N (effect)", "seat": cur,
                     "rule": "GC-5",
                     "fields": [target, count, {"name": "from", "label": "From", "kind": "choice",
                                                "choices": [{"value": "deck", "label": "deck"},
                                                            {"value": "hand", "label": "hand"}]}]})
        acts.append({"type": "draw", "label": "Draw N (effect)", "seat": cur, "rule": "GC-5",
                     "fields": [target, count]})
        acts.append({"type": "return", "label": "Discard pile to hand/deck (effect)",
                     "seat": cur, "rule": "GC-2",
                     "fields": [target, {"name": "cards", "label": "Cards", "kind": "card",
                                         "zone": f"seat:{cur}", "multiple": True},
                                {"name": "to", "label": "To", "kind": "choice",
                                 "choices": [{"value": "hand", "label": "hand"},
                                             {"value": "deck", "label": "deck"}]}]})
        label = "Draw Step: draw 1" if state.step == "recovery" else "End turn"
        acts.append({"type": "next", "label": label, "seat": cur, "fields": [], "rule": "GC-3"})
        return acts

    def places(self, state: GemState) -> Mapping[str, str]:
        where: dict[str, str] = {s: OUT for s in state.out}
        for seat, side in enumerate(state.sides, 1):
            for s in side.unseen:
                where[s] = f"{UNKNOWN}:{seat}"
            for ls in side.locus:
                if ls.serial is not None:
                    where[ls.serial] = locus_of(seat)
            for s in side.discard:
                where[s] = discard_of(seat)
        return where

    def stats(self, state: GemState) -> dict[str, float]:
        return {
            # Every accepted player event is checked against GC-2..GC-5 and ruled on.
            "adjudications": float(state.adjudicated),
            "declarations": float(state.declarations),
            "gem_completes": float(state.gem_completes),
            "deck_outs": float(state.deck_outs),
            "crushed": float(state.crushed),
            "turns": float(state.turn_number),
        }

    # ----------------------------------------------------------------- random play

    def random_play(self, state: GemState, rng: random.Random) -> Event | None:
        """A random legal event. Hands are unknown, so one is sampled from the unseen cards."""
        if state.finished or state.turn is None:
            return None
        cur = state.turn
        side = state.side(cur)
        if state.step == "choose":
            return {"type": "choose", "seat": _other(cur),
                    "cards": rng.sample(list(state.revealed), CHOOSE)}
        if state.step == "reveal":
            pos = state.declaration[len(state.revealed)]
            known = side.locus[pos - 1].serial
            if known is None:
                candidates = sorted(side.unseen)
                known = rng.choice(candidates)
            return {"type": "reveal", "seat": cur, "cards": [known]}
        if state.step == "declaration":
            gems = [i for i, ls in enumerate(side.locus, 1)
                    if ls.serial is not None and _is_gem(state.cards[ls.serial])]
            if len(gems) >= DECLARE and rng.random() < 0.8:
                return {"type": "declare", "seat": cur, "positions": gems[:DECLARE]}
            if len(side.locus) >= DECLARE and rng.random() < 0.1:
                return {"type": "declare", "seat": cur,
                        "positions": rng.sample(range(1, len(side.locus) + 1), DECLARE)}
            return {"type": "next", "seat": cur}
        if state.step == "recovery":
            return {"type": "next", "seat": cur}
        pool = sorted(side.unseen)
        hand = rng.sample(pool, min(side.hand_count, len(pool)))
        if not state.set_this_turn and hand:
            in_hand = [c for c in hand if _is_gem(state.cards[c])]
            pick = rng.choice(in_hand) if in_hand and rng.random() < 0.8 else rng.choice(hand)
            return {"type": "set", "seat": cur, "card": pick}
        others = [c for c in hand if not _is_gem(state.cards[c])]
        r = rng.random()
        if others and r < 0.3:
            return {"type": "play", "seat": cur, "card": rng.choice(others)}
        if r < 0.45:
            return {"type": "crush", "seat": cur, "target": _other(cur),
                    "count": rng.randint(1, 3)}
        return {"type": "next", "seat": cur}


RULES = GemCompleteRules()
