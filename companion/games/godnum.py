"""God Num (seed 001): legions race the divine number to an exact target (GN-1..GN-11).

Every seat plays its own printed legion deck (GN-2): seat ``n`` is bound at table creation,
by seat order, to the ``n``-th legion of the deck file (Metal-Water, Water-Wood, Wood-Fire,
Fire-Earth, Earth-Metal; with six players seat 6 gets the second printed Metal-Water set).
Cards drawn into a hand are unknown to the companion until they are played or discarded:
it tracks each seat's deck and hand *counts* and the set of the seat's serials not yet
seen ("unknown:<seat>": in that seat's deck or hand).

Events (JSON objects; ``seat`` is 1-based):

- ``{"type": "target", "value": int}``: chance (C-4, GN-4), the target divine number, drawn
  uniformly from the ``target_min``-``target_max`` option range.
- ``{"type": "starting_player", "value": seat}``: chance (C-4, GN-4); then every seat draws 5.
- ``{"type": "play", "seat": s, "card": SERIAL | FACE_ID, "override"?: bool}``: seat ``s``
  plays one card from hand (GN-5, GN-6, GN-7, GN-8, GN-3); a face id stands for an unseen
  copy of that face in the seat's legion. ``override`` is the referee forcing a card that
  C-1 refuses (another legion's, or one the companion thinks is elsewhere).
- ``{"type": "scan", "card": SERIAL, "zone": "seat:<n>" | "pot" | "void", "override"?}``:
  a camera scan. ``seat:<n>`` or ``pot``: the current player (seat ``n``) plays the card;
  ``void``: the current player discards it and may go on discarding (``end_turn`` closes).
- ``{"type": "discard", "seat": s, "cards": [SERIAL | FACE_ID, ...], "more"?: bool}``: seat ``s``
  discards one or more cards (GN-5, GN-9: one karma point each, out of the game). Unless
  ``more`` is true the turn ends: draw back up to 5, next player.
- ``{"type": "end_turn", "seat": s}``: after discards with ``more``: draw back up, next player.
- ``{"type": "pass", "seat": s}``: only with an empty hand and nothing to draw (GN-10).

View keys (``view(state, seat)``): ``game``, ``phase`` ("setup" | "play" | "over"),
``target``, ``divine_number``, ``attribute`` (None: attributeless), ``last_number``,
``turn``, ``direction`` (1 clockwise, -1 reversed), ``karma_limit``, ``bust``, ``seats``
(per seat: ``seat``, ``name``, ``legion``, ``legion_name``, ``attributes``, ``deck``,
``hand``, ``karma``, ``eliminated``, ``played``), ``pile`` (the last 5 played cards),
``discarding``, ``prompt``, ``ruling``, ``finished``, ``winners``; a seat's own view adds
``you`` and ``legal`` (every face of its legion with ``ok`` and ``why``: GN-6 for the phone).
``referee_view`` adds ``places`` and ``unseen`` (serials per seat).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.cards import CardFace, DeckData, load_deck
from companion.engine import (
    OUT,
    POT,
    UNKNOWN,
    VOID,
    Event,
    JSONDict,
    Option,
    Rules,
    Setup,
    card_list,
    card_ref,
    event_type,
    evolve,
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

HAND_SIZE = 5  # GN-4, GN-5



T = TypeVar("T")



@dataclass(frozen=True)
class Legion:
    """One seat's legion: its printed deck and what it has left."""

    deck: str  # deck id, e.g. "legion-metal-water"
    unseen: frozenset[str]  # serials in this seat's deck or hand, not yet seen
    deck_count: int
    hand_count: int
    karma: int = 0
    eliminated: bool = False


@dataclass(frozen=True)
class GodNumState:
    players: tuple[str, ...]
    options: Mapping[str, Any]
    cards: Mapping[str, CardFace]  # every serial of the table
    owner: Mapping[str, int]  # serial -> bound seat (unbound serials are absent: out)
    legions: tuple[Legion, ...]
    target: int | None = None
    turn: int | None = None
    direction: int = 1
    divine_number: int = 0
    attribute: str | None = None  # None: attributeless (GN-4, GN-3 Chaos)
    last_number: int | None = None
    pile: tuple[str, ...] = ()  # played cards, oldest first (the pot)
    out: frozenset[str] = frozenset()  # discards, busts, eliminated hands, unbound sets
    discarding: bool = False
    ruling: str = "Waiting for the companion to draw the target divine number (GN-4)."
    finished: bool = False
    winners: tuple[int, ...] = ()
    plays: int = 0
    discards: int = 0
    reshuffles: int = 0
    busts: int = 0
    turns: int = 0

    def legion(self, seat: int) -> Legion:
        return self.legions[seat - 1]

    def name(self, seat: int) -> str:
        return self.players[seat - 1]

    @property
    def live(self) -> tuple[int, ...]:
        return tuple(i for i, lg in enumerate(self.legions, 1) if not lg.eliminated)


def _exclude(state: GodNumState, seat: int, serials: list[str]) -> GodNumState:
    """``state`` with ``serials`` taken out of ``seat``'s unseen cards (for face look-ups)."""
    lg = state.legion(seat)
    legions = list(state.legions)
    legions[seat - 1] = evolve(lg, unseen=lg.unseen - set(serials))
    return evolve(state, legions=tuple(legions))




def _cap(word: str) -> str:
    return word[:1].upper() + word[1:]


class GodNumRules(Rules[GodNumState]):
    id = "godnum"
    title = "God Num"
    min_players = 2
    max_players = 6
    options = (
        Option("karma_limit", 5, "GN-1", "discarded cards (karma points) that eliminate a player",
               minimum=1, maximum=20),
        Option("target_min", 30, "GN-4", "smallest target divine number", minimum=1, maximum=200),
        Option("target_max", 60, "GN-4", "largest target divine number", minimum=1, maximum=200),
        Option("bust", "revert", "GN-8",
               "a card that exceeds the target: 'revert' (does not count) or 'stand' (counts)",
               choices=("revert", "stand")),
    )
    zones = ("seat:<n>", POT, VOID)

    # ----------------------------------------------------------------- deck and setup

    @property
    def deck(self) -> DeckData:
        return load_deck(self.id)

    def legion_order(self) -> list[str]:
        """Legion deck ids in file order (GN-2 default legions)."""
        return list(self.deck.decks)

    def seat_legion(self, seat: int) -> tuple[str, int]:
        """The legion deck of ``seat`` and which printed set of it (1-based) it takes."""
        order = self.legion_order()
        return order[(seat - 1) % len(order)], (seat - 1) // len(order) + 1

    def sets_needed(self, players: int) -> dict[str, int]:
        """One printed legion per seat in file order; six players print the first twice."""
        need: dict[str, int] = {}
        for seat in range(1, players + 1):
            deck, copy = self.seat_legion(seat)
            need[deck] = max(need.get(deck, 0), copy)
        return need

    def start(self, setup: Setup) -> GodNumState:
        opts = dict(setup.options)
        if opts["target_min"] > opts["target_max"]:
            raise BadSetup(
                f"target range {opts['target_min']!r}-{opts['target_max']!r} is empty", rule="GN-4"
            )
        by_deck: dict[str, dict[int, list[str]]] = {}
        for serial, face in sorted(setup.cards.items()):
            by_deck.setdefault(face.deck, {}).setdefault(setup.sets.get(serial, 1), []).append(
                serial
            )
        owner: dict[str, int] = {}
        legions = []
        for seat in setup.seats:
            deck, copy = self.seat_legion(seat)
            sets = sorted(by_deck.get(deck, {}))
            if len(sets) < copy:
                raise BadSetup(
                    f"seat {seat} ({setup.name(seat)!r}) needs printed set {copy} of "
                    f"{deck!r}; the print runs hold {len(sets)}", rule="GN-2"
                )
            serials = by_deck[deck][sets[copy - 1]]
            for s in serials:
                owner[s] = seat
            legions.append(Legion(deck, frozenset(serials), len(serials), 0))
        out = frozenset(s for s in setup.cards if s not in owner)
        return GodNumState(tuple(setup.players), opts, dict(setup.cards), owner,
                           tuple(legions), out=out)

    # ----------------------------------------------------------------- GN-6

    def check_card(self, state: GodNumState, face: CardFace) -> tuple[bool, str]:
        """Whether ``face`` may be played now (GN-6, GN-3) and why, in words."""
        if face.kind == "function":
            return True, f"{face.name}: function cards are always playable (GN-3)"
        attr, n = face.element, face.number
        if attr is None or n is None:
            return False, f"{face.name!r} is neither a number nor a function card"
        current = state.attribute
        if current is None:
            return True, f"{face.name}: the divine number is attributeless, any card (GN-6)"
        gen: Mapping[str, str] = self.deck.attrs["generates"]
        ovc: Mapping[str, str] = self.deck.attrs["overcomes"]
        last = state.last_number if state.last_number is not None else 0
        now = f"{_cap(current)} {last}"
        if ovc[attr] == current:
            return True, f"{face.name}: {_cap(attr)} overcomes {_cap(current)}, any number (GN-6)"
        if gen[attr] == current:
            return False, (f"{face.name} cannot be played on {now}: {_cap(attr)} generates "
                           f"{_cap(current)} (GN-6)")
        if attr == current:
            if n > last:
                return True, f"{face.name}: same attribute, higher than {last} (GN-6)"
            return False, (f"{face.name} cannot be played on {now}: same attribute needs a "
                           f"number above {last} (GN-6)")
        if n == last:
            return True, f"{face.name}: {_cap(attr)} on {_cap(current)} with the same number (GN-6)"
        return False, (f"{face.name} cannot be played on {now}: {_cap(attr)} on {_cap(current)} "
                       f"needs exactly {last} (GN-6)")

    def legal_cards(
        self, state: GodNumState, seat: int, cards: Sequence[str]
    ) -> list[tuple[str, bool, str]]:
        """For each serial or face id: can ``seat`` play it now, and why (not) (GN-6, C-1).

        Never raises on a bad card: it is listed with ``ok`` false and the reason.
        """
        out: list[tuple[str, bool, str]] = []
        if state.finished:
            return [(card, False, "the game is over (GN-11)") for card in cards]
        for card in cards:
            try:
                self._check_play(state, seat, card, override=False, by_face=True)
            except (IllegalPlay, CardNotAvailable, UnknownCard, MalformedEvent) as exc:
                out.append((card, False, str(exc)))
                continue
            face = self._face(state, card)
            out.append((card, True, self.check_card(state, face)[1]))
        return out

    def _face(self, state: GodNumState, card: str) -> CardFace:
        if card in state.cards:
            return state.cards[card]
        try:
            return self.deck.face(card)
        except UnknownCard:
            raise UnknownCard(f"card {card!r} was never printed for this table") from None

    # ----------------------------------------------------------------- apply

    def chance(self, state: GodNumState, rng: random.Random) -> Event | None:
        if state.finished:
            return None
        if state.target is None:
            lo, hi = state.options["target_min"], state.options["target_max"]
            return {"type": "target", "value": rng.randint(lo, hi)}
        if state.turn is None:
            return {"type": "starting_player", "value": rng.randint(1, len(state.players))}
        return None

    def apply(self, state: GodNumState, event: Event) -> GodNumState:
        kind = event_type(event)
        if state.finished:
            raise GameOver(f"the game is over; {kind!r} refused", rule="GN-11")
        if kind == "target":
            return self._target(state, event)
        if kind == "starting_player":
            return self._starting_player(state, event)
        if kind not in {"play", "scan", "discard", "end_turn", "pass"}:
            raise MalformedEvent(f"God Num has no event type {kind!r}")
        if state.turn is None:
            raise IllegalPlay(f"{kind!r} refused: the target and starting player are not drawn "
                              "yet", rule="GN-4")
        if kind == "scan":
            zone = require(event, "zone", str)
            card = card_ref(state.cards, require(event, "card", str))
            override = bool(event.get("override", False))
            seat = seat_zone(zone, len(state.players))
            if zone in (POT, VOID):
                seat = state.turn
            if seat is None:
                raise MalformedEvent(f"zone {zone!r} is not one of {list(self.zones)}")
            if zone == VOID:
                return self._discard(state, seat, [card], more=True, override=override)
            return self._play(state, seat, card, override)
        seat = self._seat(state, event)
        if kind == "play":
            card = card_ref(state.cards, require(event, "card", str))
            return self._play(state, seat, card, bool(event.get("override", False)))
        if kind == "discard":
            cards = card_list(state.cards, require(event, "cards", (list, str)), "cards")
            more = event.get("more", False)
            if not isinstance(more, bool):
                raise MalformedEvent(f"event field 'more' must be true or false, got {more!r}")
            return self._discard(state, seat, cards, more, bool(event.get("override", False)))
        if kind == "end_turn":
            self._turn_check(state, seat, "end the turn")
            if not state.discarding:
                raise IllegalPlay(f"{state.name(seat)} has not discarded this turn: play one card "
                                  "or discard one or more first", rule="GN-5")
            return self._finish_turn(state, seat, f"{state.name(seat)} ends the turn.", skip=0)
        # pass
        self._turn_check(state, seat, "pass")
        lg = state.legion(seat)
        if lg.hand_count > 0 or state.discarding:
            raise IllegalPlay(f"{state.name(seat)} holds {lg.hand_count} card(s): play one or "
                              "discard; passing is only for an empty hand", rule="GN-5")
        return self._finish_turn(state, seat, f"{state.name(seat)} has no cards and passes.",
                                 skip=0)

    def _target(self, state: GodNumState, event: Event) -> GodNumState:
        value = require(event, "value", int)
        if state.target is not None:
            raise IllegalPlay(f"the target is already {state.target}; {value!r} refused",
                              rule="GN-4")
        lo, hi = state.options["target_min"], state.options["target_max"]
        if not lo <= value <= hi:
            raise MalformedEvent(f"target {value!r} is outside the range {lo}-{hi}", rule="GN-4")
        return evolve(state, target=value,
                       ruling=f"The target divine number is {value} (GN-4).")

    def _starting_player(self, state: GodNumState, event: Event) -> GodNumState:
        value = require(event, "value", int)
        if state.target is None:
            raise IllegalPlay("the target divine number is drawn first", rule="GN-4")
        if state.turn is not None:
            raise IllegalPlay(f"{state.name(state.turn)} already starts; {value!r} refused",
                              rule="GN-4")
        if not 1 <= value <= len(state.players):
            raise MalformedEvent(f"starting player {value!r}: there is no such seat", rule="GN-4")
        legions = tuple(evolve(lg, deck_count=lg.deck_count - HAND_SIZE, hand_count=HAND_SIZE)
                        for lg in state.legions)
        return evolve(state, turn=value, legions=legions,
                       ruling=f"{state.name(value)} starts. Everyone shuffles their legion deck "
                              f"and draws {HAND_SIZE} cards; the divine number is 0, "
                              "attributeless (GN-4).")

    def _seat(self, state: GodNumState, event: Event) -> int:
        seat = require(event, "seat", int)
        if not 1 <= seat <= len(state.players):
            raise MalformedEvent(f"there is no seat {seat!r} at this table")
        return int(seat)

    def _turn_check(self, state: GodNumState, seat: int, what: str) -> None:
        if state.legion(seat).eliminated:
            raise OutOfTurn(f"{state.name(seat)} (seat {seat}) is eliminated and cannot {what}",
                            rule="GN-11")
        if seat != state.turn:
            now = state.name(state.turn) if state.turn else "nobody"
            raise OutOfTurn(f"seat {seat} ({state.name(seat)}) cannot {what}: it is "
                            f"{now}'s turn", rule="GN-5")

    def resolve(self, state: GodNumState, seat: int, card: str) -> str:
        """The serial meant by ``card``: a serial as is, or a face id of ``seat``'s legion.

        A face id (entered on a phone without scanning) stands for a not-yet-seen copy of
        that face in the seat's legion; number cards exist once per legion, so it is exact.
        Raises ``CardNotAvailable`` when no such copy is left (C-1).
        """
        if card in state.cards or not 1 <= seat <= len(state.players):
            return card
        lg = state.legion(seat)
        face = self._face(state, card)
        if face.deck != lg.deck:
            raise CardNotAvailable(f"{face.name} ({card!r}) is not in {state.name(seat)}'s "
                                   f"{self.deck.decks[lg.deck].name}", rule="C-1")
        for serial in sorted(lg.unseen):
            if state.cards[serial].id == face.id:
                return serial
        mine = [s for s, f in state.cards.items()
                if f.id == face.id and state.owner.get(s) == seat]
        where = ("already played: it is on the pot" if any(s in state.pile for s in mine)
                 else "out of the game")
        raise CardNotAvailable(f"no {face.name} ({card!r}) of {state.name(seat)}'s legion is left "
                               f"in hand or deck ({where})", rule="C-1")

    def _check_card_available(self, state: GodNumState, seat: int, card: str,
                              override: bool) -> CardFace:
        """The face of ``card`` if ``seat`` may hold it (C-1, GN-2); raises otherwise."""
        if card not in state.cards:
            raise UnknownCard(f"card {card!r} was never printed for this table", rule="C-1")
        face = state.cards[card]
        if override:
            return face
        owner = state.owner.get(card)
        if owner is None:
            raise CardNotAvailable(f"card {card!r} ({face.name}) belongs to a legion set nobody "
                                   "plays at this table", rule="C-1")
        if owner != seat:
            raise CardNotAvailable(
                f"card {card!r} ({face.name}) belongs to {state.name(owner)}'s "
                f"{self.deck.decks[face.deck].name}, not to {state.name(seat)}'s", rule="C-1")
        if card not in state.legion(seat).unseen:
            where = "the pot (already played)" if card in state.pile else "out of the game"
            raise CardNotAvailable(f"card {card!r} ({face.name}) is in {where}, not in "
                                   f"{state.name(seat)}'s hand", rule="C-1")
        return face

    def _check_play(self, state: GodNumState, seat: int, card: str, override: bool,
                    by_face: bool = False) -> CardFace:
        """Everything that refuses a play, in order; returns the card's face."""
        self._turn_check(state, seat, f"play {card!r}")
        if state.discarding:
            raise IllegalPlay(f"{state.name(seat)} already discarded this turn; playing "
                              f"{card!r} too is not allowed (play one card or discard)",
                              rule="GN-5")
        lg = state.legion(seat)
        if by_face and card not in state.cards:
            # A face id stands for an unseen copy (resolve raises C-1 when none is left), so
            # the phone never offers a card that ``play`` would then refuse.
            face = state.cards[self.resolve(state, seat, card)]
        else:
            face = self._check_card_available(state, seat, card, override)
        if lg.hand_count < 1:
            raise IllegalPlay(f"{state.name(seat)} has no card in hand to play", rule="GN-5")
        ok, why = self.check_card(state, face)
        if not ok:
            # ``why`` already names the card and ends with the ruling id the error adds.
            raise IllegalPlay(f"{why.removesuffix(' (GN-6)')} ({card!r}); take it back",
                              rule="GN-6")
        return face

    def _play(self, state: GodNumState, seat: int, card: str, override: bool) -> GodNumState:
        self._turn_check(state, seat, f"play {card!r}")
        card = self.resolve(state, seat, card)
        face = self._check_play(state, seat, card, override)
        name = state.name(seat)
        state = self._take(state, seat, card)
        state = evolve(state, plays=state.plays + 1)
        lg = state.legion(seat)
        if face.kind == "function":
            fn = face.attrs.get("function")
            skip = 0
            if fn == "chaos":
                state = evolve(state, attribute=None)
                msg = (f"{name} plays Chaos: the divine number {state.divine_number} is now "
                       "attributeless (GN-3).")
            elif fn == "reverse":
                state = evolve(state, direction=-state.direction)
                msg = f"{name} plays Reverse: turn order reverses (GN-3)."
            elif fn == "skip":
                skip = 1
                nxt = self._next_seat(state, seat)
                msg = f"{name} plays Skip: {state.name(nxt)} loses their turn (GN-3)."
            elif fn == "cleanse":
                k = max(0, lg.karma - 1)
                state = self._set_legion(state, seat, evolve(lg, karma=k))
                msg = f"{name} plays Cleanse: karma {lg.karma} -> {k} (GN-3)."
            else:
                raise MalformedEvent(f"card {card!r}: unknown function {fn!r} in deck data")
            return self._finish_turn(evolve(state, pile=(*state.pile, card)), seat, msg, skip)
        number = face.number or 0
        target = state.target or 0
        total = state.divine_number + number
        if total == target:
            return evolve(state, pile=(*state.pile, card), divine_number=total,
                           attribute=face.element, last_number=number, finished=True,
                           winners=(seat,),
                           ruling=f"{name} plays {face.name}: the divine number is exactly "
                                  f"{total}, the target. {name} wins (GN-7, GN-11).")
        if total > target:
            if state.options["bust"] == "stand":
                state = evolve(state, pile=(*state.pile, card), divine_number=total,
                                attribute=face.element, last_number=face.number)
                msg = (f"{name} plays {face.name}: {total} exceeds the target "
                       f"{state.target}; it stands and {name} is eliminated (GN-8).")
            else:
                state = evolve(state, out=state.out | {card})
                msg = (f"{name} plays {face.name}: {total} would exceed the target "
                       f"{state.target}; the card does not count, the divine number stays "
                       f"{state.divine_number}, and {name} is eliminated (GN-8).")
            state = evolve(state, busts=state.busts + 1)
            return self._eliminate(state, seat, msg)
        state = evolve(state, pile=(*state.pile, card), divine_number=total,
                        attribute=face.element, last_number=face.number)
        msg = (f"{name} plays {face.name}: the divine number is {total} of {state.target}, "
               f"{_cap(face.element or '')} {face.number} is current (GN-7).")
        return self._finish_turn(state, seat, msg, skip=0)

    def _take(self, state: GodNumState, seat: int, card: str) -> GodNumState:
        """``card`` leaves ``seat``'s hand (with an override: from wherever it was)."""
        lg = state.legion(seat)
        if card in lg.unseen:
            return self._set_legion(state, seat, evolve(lg, unseen=lg.unseen - {card},
                                                         hand_count=lg.hand_count - 1))
        # Override (C-1): the referee says the card is in this hand after all.
        state = self._set_legion(state, seat, evolve(lg, hand_count=max(0, lg.hand_count - 1)))
        owner = state.owner.get(card)
        if owner is not None and card in state.legion(owner).unseen:
            other = state.legion(owner)
            if other.deck_count > 0:
                other = evolve(other, deck_count=other.deck_count - 1)
            else:
                other = evolve(other, hand_count=max(0, other.hand_count - 1))
            state = self._set_legion(state, owner, evolve(other, unseen=other.unseen - {card}))
        return evolve(state, pile=tuple(c for c in state.pile if c != card),
                       out=state.out - {card})

    def _discard(self, state: GodNumState, seat: int, cards: list[Any], more: bool,
                 override: bool) -> GodNumState:
        self._turn_check(state, seat, "discard")
        if not cards:
            raise IllegalPlay("discard at least one card (or play one)", rule="GN-5")
        for c in cards:
            if not isinstance(c, str):
                raise MalformedEvent(f"discarded cards must be serials, got {c!r}")
        resolved: list[str] = []
        for c in cards:
            if c in state.cards:
                resolved.append(c)
                continue
            # Face ids: each stands for a different not-yet-seen copy.
            seen = _exclude(state, seat, resolved)
            resolved.append(self.resolve(seen, seat, c))
        if len(set(resolved)) != len(resolved):
            raise MalformedEvent(f"a card is listed twice in {cards!r}")
        cards = resolved
        lg = state.legion(seat)
        if len(cards) > lg.hand_count:
            raise IllegalPlay(f"{state.name(seat)} holds {lg.hand_count} card(s), cannot "
                              f"discard {len(cards)}", rule="GN-5")
        faces = [self._check_card_available(state, seat, c, override) for c in cards]
        for c in cards:
            state = self._take(state, seat, c)
        lg = state.legion(seat)
        karma = lg.karma + len(cards)
        state = self._set_legion(state, seat, evolve(lg, karma=karma))
        state = evolve(state, out=state.out | set(cards), discards=state.discards + len(cards),
                        discarding=True)
        limit = state.options["karma_limit"]
        names = ", ".join(f.name for f in faces)
        msg = (f"{state.name(seat)} discards {names}: karma {karma} of {limit}; discards are "
               "out of the game (GN-9).")
        if karma >= limit:
            return self._eliminate(state, seat, msg[:-1] + f" {state.name(seat)} reaches the "
                                   "karma limit and is eliminated (GN-9).")
        if more:
            return evolve(state, ruling=msg + " Discard more or end the turn.")
        return self._finish_turn(state, seat, msg, skip=0)

    def _set_legion(self, state: GodNumState, seat: int, lg: Legion) -> GodNumState:
        legions = list(state.legions)
        legions[seat - 1] = lg
        return evolve(state, legions=tuple(legions))

    def _next_seat(self, state: GodNumState, seat: int) -> int:
        n = len(state.players)
        s = seat
        for _ in range(n):
            s = (s - 1 + state.direction) % n + 1
            if not state.legion(s).eliminated:
                return s
        return seat

    def _draw_up(self, state: GodNumState, seat: int) -> tuple[GodNumState, str]:
        """GN-5 draw back up to 5, reshuffling own played cards when the deck is empty (GN-10)."""
        lg = state.legion(seat)
        note = ""
        need = HAND_SIZE - lg.hand_count
        if need <= 0:
            return state, note
        pile = state.pile
        reshuffled = 0
        if lg.deck_count < need:
            # GN-10: own played cards (not discards) make a new deck. The top card of the pot
            # stays: it shows the current attribute and number (Companion decision).
            top = pile[-1:] if pile else ()
            mine = [c for c in pile[:-1] if state.owner.get(c) == seat]
            draw_first = lg.deck_count
            if mine:
                pile = tuple(c for c in pile[:-1] if c not in set(mine)) + top
                reshuffled = len(mine)
                lg = evolve(lg, unseen=lg.unseen | set(mine), deck_count=lg.deck_count + len(mine))
                note = (f" {state.name(seat)} draws {draw_first}, then shuffles their "
                        f"{len(mine)} played card(s) into a new deck (GN-10).")
            elif lg.deck_count == 0:
                note = (f" {state.name(seat)}'s deck is empty and nothing was played: "
                        "no draw (GN-10).")
        take = min(need, lg.deck_count)
        lg = evolve(lg, deck_count=lg.deck_count - take, hand_count=lg.hand_count + take)
        state = evolve(state, pile=pile, reshuffles=state.reshuffles + (1 if reshuffled else 0))
        return self._set_legion(state, seat, lg), note

    def _finish_turn(self, state: GodNumState, seat: int, msg: str, skip: int) -> GodNumState:
        state, note = self._draw_up(state, seat)
        nxt = self._next_seat(state, seat)
        for _ in range(skip):
            nxt = self._next_seat(state, nxt)
        return evolve(state, turn=nxt, discarding=False, turns=state.turns + 1,
                       ruling=f"{msg}{note} {state.name(nxt)}'s turn.")

    def _eliminate(self, state: GodNumState, seat: int, msg: str) -> GodNumState:
        lg = state.legion(seat)
        # GN-8: the eliminated player's hand (and the rest of the legion deck) leave the game.
        state = self._set_legion(state, seat, evolve(lg, unseen=frozenset(), deck_count=0,
                                                      hand_count=0, eliminated=True))
        state = evolve(state, out=state.out | lg.unseen, discarding=False)
        live = state.live
        if len(live) == 1:
            return evolve(state, finished=True, winners=live, turns=state.turns + 1,
                           ruling=f"{msg} {state.name(live[0])} is the last legion standing and "
                                  "wins (GN-11).")
        nxt = self._next_seat(state, seat)
        return evolve(state, turn=nxt, turns=state.turns + 1,
                       ruling=f"{msg} {state.name(nxt)}'s turn.")

    # ----------------------------------------------------------------- views

    def _seat_rows(self, state: GodNumState) -> list[JSONDict]:
        rows = []
        for seat, lg in enumerate(state.legions, 1):
            info = self.deck.decks[lg.deck]
            rows.append({
                "seat": seat, "name": state.name(seat), "legion": lg.deck,
                "legion_name": info.name, "attributes": list(info.attrs.get("attributes", [])),
                "deck": lg.deck_count, "hand": lg.hand_count, "karma": lg.karma,
                "eliminated": lg.eliminated,
                "played": sum(1 for c in state.pile if state.owner.get(c) == seat),
            })
        return rows

    def _prompt(self, state: GodNumState) -> str:
        if state.finished:
            names = " and ".join(state.name(w) for w in state.winners)
            return f"Game over: {names} wins."
        if state.target is None:
            return "The companion draws the target divine number (GN-4)."
        if state.turn is None:
            return "The companion draws the starting player (GN-4)."
        who = state.name(state.turn)
        if state.discarding:
            return f"{who}: discard more cards or end your turn (GN-5)."
        if state.legion(state.turn).hand_count == 0:
            return f"{who} has no cards: pass (GN-10)."
        return f"{who}: play one card or discard one or more (GN-5)."

    def view(self, state: GodNumState, seat: int | None) -> JSONDict:
        phase = "over" if state.finished else ("setup" if state.turn is None else "play")
        v: JSONDict = {
            "game": self.id, "phase": phase, "target": state.target,
            "divine_number": state.divine_number, "attribute": state.attribute,
            "last_number": state.last_number, "turn": state.turn,
            "direction": state.direction, "karma_limit": state.options["karma_limit"],
            "bust": state.options["bust"], "seats": self._seat_rows(state),
            "pile": [{"card": c, "face": state.cards[c].id, "name": state.cards[c].name,
                      "seat": state.owner.get(c)} for c in state.pile[-5:]],
            "discarding": state.discarding, "prompt": self._prompt(state),
            "ruling": state.ruling, "finished": state.finished, "winners": list(state.winners),
        }
        if seat is not None:
            v["you"] = seat
            v["legal"] = self.legal_faces(state, seat)
        return v

    def legal_faces(self, state: GodNumState, seat: int) -> list[JSONDict]:
        """Every face of ``seat``'s legion with whether it may be played now and why (GN-6)."""
        if not 1 <= seat <= len(state.players):
            return []
        faces = self.deck.faces_of(state.legion(seat).deck)
        return [{"value": f.id, "label": f.name, "ok": ok, "why": why}
                for (_, ok, why), f in zip(self.legal_cards(state, seat, [f.id for f in faces]),
                                           faces, strict=True)]

    def referee_view(self, state: GodNumState) -> JSONDict:
        v = self.view(state, None)
        v["places"] = dict(self.places(state))
        v["unseen"] = {str(i): sorted(lg.unseen) for i, lg in enumerate(state.legions, 1)}
        v["options"] = dict(state.options)
        return v

    def actions(self, state: GodNumState, seat: int | None) -> list[JSONDict]:
        if state.finished or state.turn is None:
            return []
        cur = state.turn
        if seat is not None and seat != cur:
            return []
        lg = state.legion(cur)
        zone = f"seat:{cur}"
        acts: list[JSONDict] = []
        if lg.hand_count == 0 and not state.discarding:
            return [{"type": "pass", "label": "Pass (no cards)", "seat": cur, "fields": [],
                     "rule": "GN-10"}]
        if not state.discarding:
            acts.append({"type": "play", "label": "Play a card", "seat": cur, "rule": "GN-6",
                         "fields": [{"name": "card", "label": "Card played", "kind": "card",
                                     "zone": zone, "hints": self.legal_faces(state, cur)}]})
        if lg.hand_count > 0:
            acts.append({"type": "discard", "label": "Discard cards (karma)", "seat": cur,
                         "rule": "GN-9",
                         "fields": [{"name": "cards", "label": "Cards discarded", "kind": "card",
                                     "zone": VOID, "multiple": True, "min": 1,
                                     "max": lg.hand_count}]})
        if state.discarding:
            acts.append({"type": "end_turn", "label": "End turn", "seat": cur, "fields": [],
                         "rule": "GN-5"})
        return acts

    def places(self, state: GodNumState) -> Mapping[str, str]:
        where: dict[str, str] = {}
        for s in state.out:
            where[s] = OUT
        for s in state.pile:
            where[s] = POT
        for seat, lg in enumerate(state.legions, 1):
            for s in lg.unseen:
                where[s] = f"{UNKNOWN}:{seat}"
        return where

    def stats(self, state: GodNumState) -> dict[str, float]:
        return {
            "adjudications": float(state.plays),  # every play judged under GN-6/GN-7/GN-8
            "plays": float(state.plays),
            "discards": float(state.discards),
            "busts": float(state.busts),
            "reshuffles": float(state.reshuffles),
            "turns": float(state.turns),
            "eliminated": float(sum(1 for lg in state.legions if lg.eliminated)),
            "exact_wins": float(1 if state.finished and state.divine_number == state.target
                                else 0),
        }

    # ----------------------------------------------------------------- random play

    def random_play(self, state: GodNumState, rng: random.Random) -> Event | None:
        """A random legal event; the companion cannot see hands, so a hand is sampled."""
        if state.finished or state.turn is None:
            return None
        seat = state.turn
        lg = state.legion(seat)
        if state.discarding:
            return {"type": "end_turn", "seat": seat}
        if lg.hand_count == 0:
            return {"type": "pass", "seat": seat}
        hand = rng.sample(sorted(lg.unseen), min(lg.hand_count, len(lg.unseen)))
        legal = [c for c in hand if self.check_card(state, state.cards[c])[0]]
        safe = [c for c in legal if (state.cards[c].number or 0) + state.divine_number
                <= (state.target or 0)]
        if safe and rng.random() < 0.9:
            return {"type": "play", "seat": seat, "card": rng.choice(safe)}
        if legal and rng.random() < 0.2:
            return {"type": "play", "seat": seat, "card": rng.choice(legal)}
        k = rng.randint(1, min(2, len(hand)))
        return {"type": "discard", "seat": seat, "cards": rng.sample(hand, k)}


RULES = GodNumRules()
