"""God Num (seed 001): legions race the divine number to an exact target (GN-1..GN-11).

The ``Rules`` object: options, set-up and the event dispatch. The resolution a rules lawyer
reads is in ``adjudicate.py``; legions and who holds which card in ``legions.py``; what
each seat sees, its actions and the words in ``view.py`` and ``words.py``.

Events (JSON objects; ``seat`` is 1-based and is the sender, set by the web from the token):

- ``{"type": "target", "value": int}``: chance (C-4, GN-4), the target divine number.
- ``{"type": "starting_player", "value": seat}``: chance (C-4, GN-4); then every seat draws 5.
- ``{"type": "play", "seat": s, "card": SERIAL | FACE_ID, "override"?: bool}``: seat ``s``
  plays one card from hand (GN-5..GN-8, GN-3). A face id stands for a copy of that face
  that ``s`` may hold (C-1). ``override``: the referee forces a card C-1 refuses.
- ``{"type": "scan", "card": SERIAL, "zone": "seat:<n>" | "pot" | "void", "seat"?: s,
  "override"?}``: a card shown to the camera or sent by a phone. ``seat:<n>`` or ``pot``:
  a play; ``void``: a discard that keeps the turn open (``end_turn`` closes it). With
  ``seat`` (a phone, C-7) only that seat's own zone, or ``pot``/``void`` on its own turn.
- ``{"type": "discard", "seat": s, "cards": [SERIAL | FACE_ID, ...], "more"?: bool}``: one
  karma point each (GN-9); unless ``more``, the turn ends. Under Burden: exactly one (GN-3).
- ``{"type": "end_turn", "seat": s}``: after discards with ``more``.
- ``{"type": "pass", "seat": s}``: only with an empty hand and nothing to draw (GN-10).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from companion.cards import CardFace, DeckData, load_deck
from companion.engine import (
    OUT,
    POT,
    UNKNOWN,
    Event,
    JSONDict,
    Movement,
    Option,
    Play,
    Rules,
    Setup,
    card_list,
    card_ref,
    deck_of,
    event_type,
    evolve,
    hand_of,
    require,
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
from companion.games.godnum import adjudicate, legions, view, words
from companion.games.godnum.state import HAND_SIZE, GodNumState
from companion.zones import parse_zone

# C-7, issue 10: every event type with the fields it may carry besides "type".
EVENT_FIELDS: Mapping[str, frozenset[str]] = {
    "target": frozenset({"value"}),
    "starting_player": frozenset({"value"}),
    "play": frozenset({"seat", "card", "override"}),
    "scan": frozenset({"seat", "card", "zone", "override"}),
    "discard": frozenset({"seat", "cards", "more", "override"}),
    "end_turn": frozenset({"seat"}),
    "pass": frozenset({"seat"}),
}


class GodNumRules(Rules[GodNumState]):
    id = "godnum"
    title = "God Num"
    min_players = 2
    max_players = 6
    names_bind = True  # a seat's first card binds its legion (GN-2 rev. 2, C-10 rev. 3)
    options = (
        Option("karma_limit", 5, "GN-1", "discarded cards (karma points) that eliminate a player",
               minimum=1, maximum=20),
        Option("target_min", 30, "GN-4", "smallest target divine number", minimum=1, maximum=200),
        Option("target_max", 60, "GN-4", "largest target divine number", minimum=1, maximum=200),
        Option("bust", "revert", "GN-8",
               "a card that exceeds the target: 'revert' (does not count) or 'stand' (counts)",
               choices=("revert", "stand")),
        Option("legions", "", "GN-2",
               "leave empty: each player plays the legion of the first card they show; or fix "
               "one legion per seat, e.g. 'metal-water, fire-earth'"),
    )
    zones = ("seat:<n>", POT, "void")
    event_fields = EVENT_FIELDS

    # ----------------------------------------------------------------- deck and set-up

    @property
    def deck(self) -> DeckData:
        return load_deck(self.id)

    def legion_order(self) -> list[str]:
        """Legion deck ids in file order (GN-2 default legions)."""
        return list(self.deck.decks)

    def sets_needed(self, players: int) -> dict[str, int]:
        """GN-2 rev. 2: a print holds all five legions; six players print the first twice."""
        order = self.legion_order()
        need = dict.fromkeys(order, 1)
        for extra in range(players - len(order)):
            need[order[extra % len(order)]] += 1
        return need

    def start(self, setup: Setup) -> GodNumState:
        opts = dict(setup.options)
        if opts["target_min"] > opts["target_max"]:
            raise BadSetup(
                f"target range {opts['target_min']!r}-{opts['target_max']!r} is empty", rule="GN-4"
            )
        fixed = legions.fixed_legions(str(opts.get("legions", "")), self.deck, len(setup.players))
        seats, free, owner = legions.first_hands(setup, self.deck, fixed)
        state = GodNumState(tuple(setup.players), opts, dict(setup.cards), owner, seats,
                            free=free, guessed=frozenset(n for n, lg in enumerate(seats, 1)
                                                         if lg.bound))
        if all(lg.bound for lg in seats):  # every legion fixed: the rest are not played
            state = evolve(state, free=(), out=frozenset().union(*(p.serials for p in free)))
        return state

    # ----------------------------------------------------------------- GN-6

    def check_card(self, state: GodNumState, face: CardFace) -> tuple[bool, str]:
        """Whether ``face`` may be played now (GN-6, GN-3) and why, for the referee."""
        v = adjudicate.verdict(self.deck, state, face)
        return v.ok, words.verdict_words(v, ids=True)

    def legal_cards(
        self, state: GodNumState, seat: int, cards: Sequence[str]
    ) -> list[tuple[str, bool, str]]:
        """For each serial or face id: can ``seat`` play it now, and why (not) (GN-6, C-1).

        Never raises on a bad card: it is listed with ``ok`` false and the reason. Raises
        ``MalformedEvent`` for a seat that is not at the table.
        """
        self._check_seat(state, seat)
        out: list[tuple[str, bool, str]] = []
        for card in cards:
            if state.finished:
                out.append((card, False, "the game is over (GN-11)"))
                continue
            try:
                serial = self._check_play(state, seat, card)
            except (IllegalPlay, CardNotAvailable, UnknownCard, MalformedEvent) as exc:
                out.append((card, False, str(exc)))
                continue
            out.append((card, True, self.check_card(state, state.cards[serial])[1]))
        return out

    def _check_play(self, state: GodNumState, seat: int, card: str) -> str:
        """Everything that refuses a play, in ``apply``'s order; the serial meant."""
        adjudicate.check_turn(state, seat, f"play {card!r}")
        if state.burdened or state.discarding:
            raise IllegalPlay(f"{state.name(seat)} must discard now, not play", rule="GN-5")
        serial = legions.resolve(state, self.deck, seat, card)
        if card in state.cards:
            state = legions.settle(legions.twin(state, seat, serial), seat, serial)
        legions.available(state, seat, serial, card, override=False)
        if state.legion(seat).hand_count < 1:
            raise IllegalPlay(f"{state.name(seat)} has no card in hand to play", rule="GN-5")
        v = adjudicate.verdict(self.deck, state, state.cards[serial])
        if not v.ok:
            raise IllegalPlay(words.verdict_words(v), rule="GN-6")
        return serial

    def resolve(self, state: GodNumState, seat: int, card: str) -> str:
        """The serial ``seat`` means by ``card`` (a serial, or a face id: a copy it may hold);
        raises ``UnknownCard``, ``CardNotAvailable`` (C-1) or ``MalformedEvent`` (no such
        seat)."""
        self._check_seat(state, seat)
        return legions.resolve(state, self.deck, seat, card)

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
        """The next state; raises ``GameOver``, ``OutOfTurn``, ``IllegalPlay``,
        ``CardNotAvailable``, ``UnknownCard`` or ``MalformedEvent`` and changes nothing."""
        kind = event_type(event)
        if state.finished:
            raise GameOver(f"the game is over; {kind[:40]!r} refused", rule="GN-11")
        if kind not in EVENT_FIELDS:
            raise MalformedEvent(f"God Num has no event type {kind[:40]!r}")
        if kind == "target":
            after = self._target(state, event)
        elif kind == "starting_player":
            after = self._starting_player(state, event)
        elif state.turn is None:
            raise IllegalPlay(f"{kind!r} refused: the target and starting player are not drawn "
                              "yet", rule="GN-4")
        else:
            after = self._seat_event(state, kind, event)
        return after

    def _seat_event(self, state: GodNumState, kind: str, event: Event) -> GodNumState:
        override = _flag(event, "override")
        if kind == "scan":
            zone = parse_zone(require(event, "zone", str), len(state.players))
            if str(zone) not in (POT, "void") and zone.kind != "seat":
                raise MalformedEvent(f"zone {str(zone)!r} is not one of {list(self.zones)}")
            typed = require(event, "card", str)
            card = card_ref(state.cards, typed)
            sender = self._seat(state, event) if "seat" in event else None
            if zone.kind == "seat":
                actor = zone.seat or 0
                if sender is not None and sender != actor:
                    # C-7: a seat shows cards only in its own zone.
                    raise OutOfTurn(f"{state.name(sender)} cannot show a card in another "
                                    "player's zone", rule="C-7")
            else:
                # A shared zone takes the card of the seat the rules wait for (C-7): the
                # sender itself, or for the camera, the player whose turn it is.
                actor = sender if sender is not None else (state.turn or 0)
            if str(zone) == "void":
                return adjudicate.discard(self.deck, state, actor, [card], True, override)
            return adjudicate.play(self.deck, state, actor, card, typed, override)
        seat = self._seat(state, event)
        if kind == "play":
            typed = require(event, "card", str)
            return adjudicate.play(self.deck, state, seat, card_ref(state.cards, typed), typed,
                                   override)
        if kind == "discard":
            cards = card_list(state.cards, require(event, "cards", (list, str)), "cards")
            return adjudicate.discard(self.deck, state, seat, cards, _flag(event, "more"),
                                      override)
        if kind == "end_turn":
            return adjudicate.end_turn(state, seat)
        return adjudicate.pass_turn(state, seat)

    def _target(self, state: GodNumState, event: Event) -> GodNumState:
        value = require(event, "value", int)
        if state.target is not None:
            raise IllegalPlay(f"the target is already {state.target}; {value!r} refused",
                              rule="GN-4")
        lo, hi = state.options["target_min"], state.options["target_max"]
        if not lo <= value <= hi:
            raise MalformedEvent(f"target {value!r} is outside the range {lo}-{hi}", rule="GN-4")
        return adjudicate.played(state, Play("target", "target", "GN-4", None, (),
                                             {"target": value}), target=value)

    def _starting_player(self, state: GodNumState, event: Event) -> GodNumState:
        value = require(event, "value", int)
        if state.target is None:
            raise IllegalPlay("the target divine number is drawn first", rule="GN-4")
        if state.turn is not None:
            raise IllegalPlay(f"{state.name(state.turn)} already starts; {value!r} refused",
                              rule="GN-4")
        if not 1 <= value <= len(state.players):
            raise MalformedEvent(f"starting player {value!r}: there is no such seat", rule="GN-4")
        moves = tuple(Movement(deck_of(s), hand_of(s), None, HAND_SIZE)
                      for s in range(1, len(state.players) + 1))
        return adjudicate.played(state, Play("start", "start", "GN-4", None, moves,
                                             {"first": value}),
                                 turn=value, legions=legions.opening_counts(state.legions))

    def _seat(self, state: GodNumState, event: Event) -> int:
        return self._check_seat(state, require(event, "seat", int))

    def _check_seat(self, state: GodNumState, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or \
                not 1 <= seat <= len(state.players):
            raise MalformedEvent(f"there is no seat {seat!r} at this table")
        return seat

    # ----------------------------------------------------------------- views

    def view(self, state: GodNumState, seat: int | None) -> JSONDict:
        return view.seat_view(self.deck, state, seat)

    def referee_view(self, state: GodNumState) -> JSONDict:
        return view.referee_view(self.deck, state, self.places(state))

    def actions(self, state: GodNumState, seat: int | None) -> list[JSONDict]:
        return view.actions(self.deck, state, seat)

    def last_play(self, state: GodNumState, seat: int | None) -> JSONDict | None:
        return view.last_play(self.deck, state, seat)

    def legal_faces(self, state: GodNumState, seat: int) -> list[JSONDict]:
        """Every face ``seat`` may hold, with whether it may be played now and why (GN-6)."""
        return view.legal_faces(self.deck, state, seat)

    def places(self, state: GodNumState) -> Mapping[str, str]:
        where: dict[str, str] = {}
        for s in state.out:
            where[s] = OUT
        for p in state.free:  # in the box or in the hand of a seat not bound yet (GN-2)
            for s in p.serials:
                where[s] = UNKNOWN
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

    def stand_ins(self, state: GodNumState) -> Mapping[str, int | None]:
        """C-7 rev. 3: the copies recorded for taps (``legions.noted``), each its legion's
        seat."""
        return {c: state.owner.get(c) for c in state.stand_ins}

    # ----------------------------------------------------------------- random play

    def random_play(self, state: GodNumState, rng: random.Random) -> Event | None:
        """A random legal event; the companion cannot see hands, so a hand is sampled (an
        unbound seat first picks a free printed legion, GN-2 rev. 2)."""
        if state.finished or state.turn is None:
            return None
        seat = state.turn
        lg = state.legion(seat)
        if state.discarding:
            return {"type": "end_turn", "seat": seat}
        if lg.hand_count == 0:
            return {"type": "pass", "seat": seat}
        pool = sorted(lg.unseen) if lg.bound else sorted(rng.choice(state.free).serials)
        hand = rng.sample(pool, min(lg.hand_count, len(pool)))
        if state.burdened:
            return {"type": "discard", "seat": seat, "cards": [rng.choice(hand)]}
        legal = [c for c in hand if self.check_card(state, state.cards[c])[0]]
        safe = [c for c in legal if (state.cards[c].number or 0) + state.divine_number
                <= (state.target or 0)]
        if safe and rng.random() < 0.9:
            return {"type": "play", "seat": seat, "card": rng.choice(safe)}
        if legal and rng.random() < 0.2:
            return {"type": "play", "seat": seat, "card": rng.choice(legal)}
        k = rng.randint(1, min(2, len(hand)))
        return {"type": "discard", "seat": seat, "cards": rng.sample(hand, k)}


def _flag(event: Event, key: str) -> bool:
    value = event.get(key, False)
    if not isinstance(value, bool):
        raise MalformedEvent(f"event field {key!r} must be true or false, got {value!r}")
    return value


RULES = GodNumRules()
