"""Gem Complete (seed 004): the ``Rules`` object, set-up and the events (GC-1..GC-5).

Two players, each with their own 40-card deck (GC-1, own backs): a seat plays the printed
deck of the first card it shows, or the one the option ``decks`` fixes (GN-2 rev. 2;
``state.bind``); the other seat then plays the other deck. The companion
tracks per seat (GC-2): deck count, hand count, the Locus (an ordered row of face-down
cards; a card's identity is known once revealed, or privately to its owner when scanned as
it is set), and the face-up discard pile. Cards drawn are unknown until shown.

Events (JSON objects; ``seat`` is the sender, set by the web from the seat's token, C-7;
"target" is the seat whose cards an effect moves; a card is a serial, a QR payload or a
face id such as ``a-ore-cart``, for which the engine picks a copy the zone can hold, C-1):

- ``{"type": "first_player", "value": seat}``: chance (C-4); both players draw 5 (GC-3).
- ``{"type": "next", "seat": s}``: the current player moves on one step: Complete
  Declaration Step -> Recovery Step -> Draw Step (draw 1, GC-5) and Main Phase -> End Phase
  (the opponent's turn starts at their Complete Declaration Step).
- ``{"type": "declare", "seat": s, "positions": [6 Locus positions, 1-based]}`` (GC-4).
- ``{"type": "reveal", "seat": s, "cards": [CARD, ...]}`` or
  ``{"type": "scan", "card": CARD, "zone": "locus:<s>", "seat"?: s}``: the next selected
  Locus cards revealed, in Locus order (GC-4). Six Gems win; otherwise the opponent chooses.
- ``{"type": "choose", "seat": opponent, "cards": [CARD, CARD]}``: 2 of the 6 revealed
  cards go to the declarer's discard pile; the other 4 go back face down, hidden from the
  opponent again (GC-4 rev. 2).
- ``{"type": "set", "seat": s, "card"?: CARD}``: Main Phase, at most once a turn: a card
  from hand face down at the end of the Locus; ``card`` is the owner's private scan (GC-2).
- ``{"type": "play", "seat": s, "card"?: CARD}`` or ``{"type": "scan", "card": CARD,
  "zone": "seat:<s>", "seat"?: s}``: a non-Gem card from hand goes to the discard pile; the
  effects its deck data lists are proposed, one confirming tap each (GC-3 rev. 2).
- ``{"type": "crush", "seat": s, "target": t, "count": n, "cards"?: [CARD...]}``: the top
  ``n`` cards of ``t``'s deck go to ``t``'s discard pile (scanned cards optional).
  The cards an effect puts there unseen are then shown: ``{"type": "scan", "card": CARD,
  "zone": "seat:<t>" | "discard:<t>"}`` (C-6 rev. 3: shown in the owner's place first; a
  card seen straight on the owner's discard pile while that seat owes one counts the same).
  Nothing else is taken from ``discard:<t>``: a card already on the pile is the server's
  "already there" (C-9).
- ``{"type": "discard", "seat": s, "target": t, "count": n, "from": "hand"|"deck",
  "cards"?: [...]}``: ``t`` discards ``n`` cards from hand or from the top of the deck.
- ``{"type": "draw", "seat": s, "target": t, "count": n}``: ``t`` draws ``n`` by an effect.
- ``{"type": "return", "seat": s, "target": t, "cards": [CARD...], "to": "hand"|"deck"}``:
  cards from ``t``'s discard pile to hand or shuffled into the deck.

Effects come only from the current player, in the Recovery Step or the Main Phase (GC-3
rev. 2); cards are played only in the Main Phase, and the Recovery Step takes only what a
card on the table says happens then, entered by hand (GC-3 rev. 3). Every deck count
that reaches 0 ends the game at once: that player loses (GC-5).
A seat names only its own cards or cards both players see; any other card gets one and the
same refusal (C-7). The decisions are in ``adjudicate.py``, the views and words in
``view.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import ClassVar

from companion.cards import DeckData, load_deck
from companion.engine import (
    Event,
    JSONDict,
    Option,
    Play,
    Rules,
    Setup,
    card_list,
    card_ref,
    event_type,
    evolve,
    require,
)
from companion.errors import BadSetup, GameOver, IllegalPlay, MalformedEvent, UnknownCard
from companion.games.gemcomplete import adjudicate as rule
from companion.games.gemcomplete import standins
from companion.games.gemcomplete import view as words
from companion.games.gemcomplete.state import (
    CHOOSE,
    DECLARE,
    GemState,
    PrintedDeck,
    Side,
    all_places,
    bind,
    is_gem,
    may_hold,
    other,
    owing,
)
from companion.words import quoted
from companion.zones import parse_zone

_EFFECT_FIELDS = {"seat", "target", "count", "cards"}


class GemCompleteRules(Rules[GemState]):
    id = "gemcomplete"
    title = "Gem Complete"
    min_players = 2
    max_players = 2
    zones = ("seat:<n>", "locus:<n>", "discard:<n>")
    options = (
        Option("decks", "", "GN-2",
               "leave empty: each player plays the deck of the first card they show; or fix "
               "the deck per seat, e.g. 'b, a'"),
    )
    event_fields: ClassVar[Mapping[str, frozenset[str]]] = {
        "first_player": frozenset({"value"}),
        "next": frozenset({"seat"}),
        "declare": frozenset({"seat", "positions"}),
        "reveal": frozenset({"seat", "cards"}),
        "scan": frozenset({"seat", "card", "zone"}),
        "choose": frozenset({"seat", "cards"}),
        "set": frozenset({"seat", "card"}),
        "play": frozenset({"seat", "card"}),
        "crush": frozenset(_EFFECT_FIELDS),
        "discard": frozenset({*_EFFECT_FIELDS, "from"}),
        "draw": frozenset({"seat", "target", "count"}),
        "return": frozenset({"seat", "target", "cards", "to"}),
    }

    @property
    def deck(self) -> DeckData:
        return load_deck(self.id)

    def start(self, setup: Setup) -> GemState:
        """Both seats unbound (GN-2 rev. 2: each plays the deck of the first card it shows),
        unless the option ``decks`` fixes a seat's deck; raises ``BadSetup``."""
        order = list(self.deck.decks)
        runs: dict[tuple[str, int], set[str]] = {}
        for s, f in setup.cards.items():
            runs.setdefault((f.deck, setup.sets.get(s, 1)), set()).add(s)
        free = [PrintedDeck(d, p, frozenset(serials)) for (d, p), serials in
                sorted(runs.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1]))]
        if len(free) < 2:
            raise BadSetup("Gem Complete needs two printed decks; the print runs hold "
                           f"{len(free)}", rule="GC-1")
        full = len(free[0].serials)  # GC-1: both decks hold 40 cards
        state = GemState(tuple(setup.players), dict(setup.cards), {},
                         tuple(Side("", frozenset(), full) for _ in setup.seats),
                         free=tuple(free))
        for seat, want in enumerate(self._fixed(setup), 1):
            if want is None or state.side(seat).deck_id == want:
                continue  # not fixed, or already the one deck left for it
            chosen = next((p for p in state.free if p.deck_id == want), None)
            if chosen is None or state.side(seat).deck_id:
                raise BadSetup(f"seat {seat} ({setup.name(seat)!r}) is fixed to "
                               f"{self.deck.decks[want].name}, and the print runs hold no free "
                               "printed set of it", rule="GN-2")
            state = bind(state, seat, next(iter(chosen.serials)))
        return state

    def _fixed(self, setup: Setup) -> list[str | None]:
        """The option ``decks`` per seat: a deck id, or ``None`` (the first card shown
        binds, GN-2 rev. 2); raises ``BadSetup`` naming what it cannot read."""
        text = str(setup.options.get("decks", "") or "")
        items = [x.strip().casefold() for x in text.split(",")] if text.strip() else []
        if len(items) > 2:
            raise BadSetup(f"option 'decks' names {len(items)} decks for 2 players: {text!r}",
                           rule="GN-2")
        out: list[str | None] = []
        for item in items:
            if item in ("", "-", "any"):
                out.append(None)
                continue
            found = [d for d, info in self.deck.decks.items()
                     if item in {d, d.removeprefix("deck-"), info.name.casefold()}]
            if not found:
                raise BadSetup(f"there is no deck {item!r}; the decks are "
                               f"{', '.join(d.removeprefix('deck-') for d in self.deck.decks)}",
                               rule="GN-2")
            out.append(found[0])
        return out + [None] * (2 - len(out))

    # ----------------------------------------------------------------- apply

    def chance(self, state: GemState, rng: random.Random) -> Event | None:
        if state.turn is None and not state.finished:
            return {"type": "first_player", "value": rng.randint(1, 2)}
        return None

    def apply(self, state: GemState, event: Event) -> GemState:
        kind = event_type(event)
        if state.finished:
            raise GameOver("the game is over; nothing more is played", rule="GC-5")
        if kind == "first_player":
            return rule.first_player(state, require(event, "value", int))
        if kind not in self.event_fields:
            raise MalformedEvent(f"Gem Complete has no event type {kind!r}")
        if state.turn is None:
            raise IllegalPlay("the starting player is not drawn yet: nothing is played before",
                              rule="GC-3")
        waiting = owing(state)
        if waiting and not (kind == "scan" and self._shows(event, waiting)):
            # C-6: the cards just put face up are shown first; nothing else is accepted.
            raise IllegalPlay(f"first the cards just turned face up: {words.prompt(state)[0]}",
                              rule="C-6")
        new = self._scan(state, event) if kind == "scan" else self._act(state, kind, event)
        return evolve(new, adjudicated=new.adjudicated + 1)

    def _sender(self, event: Event, key: str = "seat") -> int:
        seat = require(event, key, int)
        if seat not in (1, 2):
            raise MalformedEvent(f"there is no seat {seat!r} at this table")
        return int(seat)

    def _shows(self, event: Event, waiting: list[int]) -> bool:
        """Whether ``event`` (a scan) shows a card in the seat zone of a seat the table waits
        for (C-6); a malformed zone is left to ``_scan`` to refuse."""
        try:
            z = parse_zone(require(event, "zone", str), 2)
        except MalformedEvent:
            return True
        return z.kind in ("seat", "discard") and z.seat in waiting

    def _scan(self, state: GemState, event: Event) -> GemState:
        z = parse_zone(require(event, "zone", str), 2)
        typed = require(event, "card", str)
        by = self._sender(event) if "seat" in event else None
        if z.kind not in ("seat", "locus", "discard") or z.seat is None:
            raise MalformedEvent(f"zone {str(z)!r} is not one of {list(self.zones)}")
        if by is not None and by != z.seat:
            # C-7: a seat shows cards only in its own zones; checked before the card.
            raise rule.not_yours(state, by, typed)
        seat = z.seat
        if z.kind in ("seat", "discard") and seat in owing(state):
            # A card an effect put face up, shown at its owner's seat (C-6), or seen straight
            # on its owner's discard pile (C-6 rev. 3: as if shown, then put there).
            state, card, tap = self._card(state, typed, seat, by)
            return _noted(rule.show(state, seat, card, by), [card], [tap])
        if z.kind == "discard":
            # C-9: a card already on the pile is the server's "already there"; nothing else
            # goes onto a discard pile unseen. The answer never depends on the card (C-7).
            raise IllegalPlay(f"card {typed[:40]!r} seen on {state.name(seat)}'s discard pile, "
                              f"but nothing goes there unseen now: {words.prompt(state)[0]}",
                              rule="C-6")
        # Who acts and when first (GC-3), then which card: the answer to a seat that may not
        # act never depends on the card named.
        if z.kind == "seat":
            rule.check_current(state, seat, "play a card", ("main",))
            state, card, tap = self._card(state, typed, seat, by)
            return _noted(rule.play_card(state, seat, card), [card], [tap])
        if state.step == "reveal":
            rule.check_current(state, seat, "reveal Locus cards", ("reveal",))
            return self._reveal(state, seat, [typed], by)
        rule.check_current(state, seat, "set a card", ("main",))
        state, card, tap = self._card(state, typed, seat, by)
        return _noted(rule.set_card(state, seat, card), [card], [tap])

    def _act(self, state: GemState, kind: str, event: Event) -> GemState:
        seat = self._sender(event)
        if kind == "next":
            return rule.next_step(state, seat)
        if kind == "declare":
            return rule.declare(state, seat, require(event, "positions", list))
        if kind == "reveal":
            if seat == state.turn and state.step == "reveal":
                return self._reveal(state, seat, self._typed(event), seat)
            return rule.reveal(state, seat, [], seat)
        if kind == "choose":
            return rule.choose(state, seat, [self._pick(state, t, state.revealed)
                                             for t in self._typed(event)])
        if kind in ("set", "play"):
            if seat != state.turn:
                rule.check_current(state, seat, f"{kind} a card", ("main",))
            text = event.get("card")
            card = None
            tap = False
            if text is not None and not (isinstance(text, str) and not text.strip()):
                if not isinstance(text, str):
                    raise MalformedEvent(f"event field 'card' must be a serial, got {text!r}")
                state, card, tap = self._card(state, text, seat, seat)
            done = (rule.set_card(state, seat, card) if kind == "set"
                    else rule.play_card(state, seat, card))
            return _noted(done, [card] if card else [], [tap] if card else [])
        return self._effect(state, seat, kind, event)

    def _effect(self, state: GemState, seat: int, kind: str, event: Event) -> GemState:
        # Who acts and when is checked before anything about the cards named (C-7).
        if state.step in ("reveal", "choose"):
            raise IllegalPlay(f"a {kind} effect waits: finish the Complete Declaration first",
                              rule="GC-4")
        rule.check_current(state, seat, f"enter a {kind} effect", ("recovery", "main"))
        target = self._sender(event, "target")
        if kind == "return":
            to = event.get("to", "hand")
            if to not in ("hand", "deck"):
                raise MalformedEvent(f"'to' must be 'hand' or 'deck', got {to!r}")
            state, cards, taps = self._from_pile(state, target, self._typed(event), seat)
            done = rule.effect(state, seat, kind, target, 0, cards, "deck", str(to))
            return _noted(done, cards, taps)
        count = require(event, "count", int)
        if not 1 <= count <= 40:
            raise MalformedEvent(f"count {count!r} must be 1-40")
        source = event.get("from", "deck") if kind == "discard" else "deck"
        if source not in ("hand", "deck"):
            raise MalformedEvent(f"'from' must be 'hand' or 'deck', got {source!r}")
        typed = self._typed(event, required=False) if kind != "draw" else []
        refs = [str(r) for r in (card_ref(state.cards, t) for t in typed) if r in state.cards]
        if len(typed) > count or len(set(refs)) != len(refs):
            # A face may be named twice (two copies, C-10 rev. 3); a serial only once.
            raise MalformedEvent(f"{quoted(typed)}: at most {count} different cards")
        # C-10 rev. 3: the serials first; each face then stands for a copy not named
        # otherwise in the same event.
        chosen: dict[int, tuple[str, bool]] = {}
        named = self._named(state, typed)
        for i in sorted(range(len(typed)), key=lambda i: self._tap(state, typed[i])):
            avoid = named | {c for c, _ in chosen.values()}
            state, card, tap = self._card(state, typed[i], target, seat, avoid)
            chosen[i] = (card, tap)
        picked = [chosen[i][0] for i in range(len(typed))]
        tapped: list[bool | None] = [chosen[i][1] for i in range(len(typed))]
        if len(set(picked)) != len(picked):
            raise MalformedEvent(f"{quoted(typed)}: at most {count} different cards")
        done = rule.effect(state, seat, kind, target, count, picked, str(source), "")
        return _noted(done, picked, tapped)

    # ----------------------------------------------------------------- naming cards

    def _typed(self, event: Event, required: bool = True) -> list[str]:
        if not required and "cards" not in event:
            return []
        cards = card_list({}, require(event, "cards", (list, str)), "cards")
        if not all(isinstance(c, str) for c in cards):
            raise MalformedEvent(f"'cards' must be a list of serials, got {cards!r}")
        return [str(c) for c in cards]

    def _pick(self, state: GemState, typed: str, prefer: Iterable[str],
              actor: int | None = None) -> str:
        """The serial ``typed`` names (a serial, a QR payload, a face id: then the first
        copy among ``prefer``, C-1); raises ``UnknownCard`` for a card never printed."""
        ref = card_ref(state.cards, typed)
        if ref in state.cards:
            return str(ref)
        face = str(ref).strip().lower()
        copies = [s for s, f in state.cards.items() if f.id == face]
        if not copies:
            raise UnknownCard(f"card {typed!r} was never printed for this table", rule="C-1")
        for s in prefer:
            if s in copies:
                return s
        if actor is not None and state.owner.get(copies[0]) != actor:
            raise rule.not_yours(state, actor, typed)
        return sorted(copies)[0]

    def _tap(self, state: GemState, typed: str) -> bool:
        """Whether ``typed`` names a face (a tap), not one printed card (C-1)."""
        return card_ref(state.cards, typed) not in state.cards

    def _named(self, state: GemState, typed: list[str]) -> set[str]:
        """The serials ``typed`` names one by one (not by face): a tap in the same list
        picks another copy."""
        return {str(r) for r in (card_ref(state.cards, t) for t in typed) if r in state.cards}

    def _card(self, state: GemState, typed: str, seat: int, actor: int | None,
              avoid: set[str] | frozenset[str] = frozenset()) -> tuple[GemState, str, bool]:
        """A card of ``seat``'s unseen cards (a face id picks an unseen copy, a tap, not one
        of ``avoid``), and the state in which a scanned stand-in has traded places with an
        unseen copy (standins.py)."""
        card = self._pick(state, typed, sorted(may_hold(state, seat) - avoid), actor)
        if self._tap(state, typed):
            return standins.loose(state, seat, card), card, True
        state = standins.unloose(state, card)
        return standins.to_unseen(state, seat, card, actor, frozenset(avoid)), card, False

    def _reveal(self, state: GemState, seat: int, typed: list[str],
                actor: int | None) -> GemState:
        """The next selected Locus cards revealed (a face id: the card known to lie there,
        else an unseen copy); a scan of a copy where a stand-in lies trades places."""
        cards: list[str] = []
        taps: list[bool | None] = []
        for offset, t in enumerate(typed):
            at = len(state.revealed) + offset
            slot = None
            if at < len(state.declaration):
                slot = state.side(seat).locus[state.declaration[at] - 1].serial
            card = self._pick(state, t, [*([slot] if slot else []),
                                         *sorted(may_hold(state, seat))], actor)
            tap = self._tap(state, t)
            if not tap and slot is not None:
                state = standins.to_place(state, seat, card, slot, actor)
            elif not tap:
                state = standins.to_unseen(standins.unloose(state, card), seat, card, actor)
            elif slot is None:
                state = standins.loose(state, seat, card)  # binds nothing (C-10 rev. 3)
            cards.append(card)
            taps.append(None if tap and slot is not None else tap)
        return _noted(rule.reveal(state, seat, cards, actor), cards, taps)

    def _from_pile(self, state: GemState, seat: int, typed: list[str],
                   actor: int) -> tuple[GemState, list[str], list[bool | None]]:
        """Cards named from ``seat``'s discard pile: a scan of a copy where a stand-in lies
        in the pile trades places; a tap on a face with several copies in the pile leaves
        the others as stand-ins (which copy stayed is not known)."""
        cards: list[str] = []
        taps: list[bool | None] = []
        named = self._named(state, typed)
        for t in typed:
            side = state.side(seat)
            # A tap takes the copy nearest the top of the pile, each copy once.
            avoid = named | set(cards)
            pile = [c for c in reversed(side.discard) if c not in avoid]
            card = self._pick(state, t, [*pile, *sorted(may_hold(state, seat) - avoid)],
                              actor)
            tap = self._tap(state, t)
            if tap and card in side.discard:
                face = state.cards[card].id
                rest = [c for c in side.discard if c != card and state.cards[c].id == face]
                state = standins.mark(state, rest)
            elif tap:
                state = standins.loose(state, seat, card)  # binds nothing (C-10 rev. 3)
            elif not tap and card not in side.discard:
                # The stand-in nearest the top of the pile gives way to the card shown.
                there = [c for c in reversed(side.discard) if c in state.stand_ins
                         and c not in avoid and state.cards[c].id == state.cards[card].id]
                if there:
                    state = standins.to_place(state, seat, card, there[0], actor)
                else:
                    state = standins.to_unseen(state, seat, card, actor)
            cards.append(card)
            taps.append(None if tap and card in side.discard else tap)
        return state, cards, taps

    # ----------------------------------------------------------------- views (view.py)

    def _viewer(self, seat: int | None, referee: bool) -> None:
        """Raises ``MalformedEvent`` for a viewer that is not at this table (``0``, the
        referee, only where ``referee`` allows it)."""
        if seat is None or (isinstance(seat, int) and not isinstance(seat, bool)
                            and (seat in (1, 2) or (referee and seat == 0))):
            return
        raise MalformedEvent(f"there is no seat {seat!r} at this table")

    def view(self, state: GemState, seat: int | None) -> JSONDict:
        self._viewer(seat, referee=False)
        return words.view(self.id, self.deck, state, seat)

    def referee_view(self, state: GemState) -> JSONDict:
        v = words.view(self.id, self.deck, state, 0)
        v["places"] = all_places(state)
        return v

    def actions(self, state: GemState, seat: int | None) -> list[JSONDict]:
        return words.actions(state, seat)

    def last_play(self, state: GemState, seat: int | None) -> JSONDict | None:
        self._viewer(seat, referee=True)
        return words.last_play(state, seat)

    def retell(self, state: GemState, play: Play | None, seat: int | None) -> str | None:
        """GC-4 rev. 2: a revealed card turned face down again is told as a card (C-7)."""
        self._viewer(seat, referee=True)
        return words.text(state, play, seat) if play is not None else None

    def places(self, state: GemState) -> Mapping[str, str]:
        return all_places(state)

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

    def stand_ins(self, state: GemState) -> Mapping[str, int | None]:
        """C-7 rev. 3: the copies recorded for taps (``standins.py``), each its deck's seat."""
        return {c: state.owner.get(c) for c in state.stand_ins}

    # ----------------------------------------------------------------- random play

    def random_play(self, state: GemState, rng: random.Random) -> Event | None:
        """A random legal event. Hands are unknown, so one is sampled from the unseen cards."""
        if state.finished or state.turn is None:
            return None
        waiting = owing(state)
        if waiting:  # C-6: the owner shows a card just put face up on the discard pile
            seat = waiting[0]
            return {"type": "scan", "seat": seat, "zone": f"seat:{seat}",
                    "card": rng.choice(sorted(may_hold(state, seat)))}
        cur = state.turn
        side = state.side(cur)
        if state.step == "choose":
            return {"type": "choose", "seat": other(cur),
                    "cards": rng.sample(list(state.revealed), CHOOSE)}
        if state.step == "reveal":
            pos = state.declaration[len(state.revealed)]
            known = side.locus[pos - 1].serial
            if known is None:
                known = rng.choice(sorted(may_hold(state, cur)))
            return {"type": "reveal", "seat": cur, "cards": [known]}
        if state.step == "declaration":
            gems = [i for i, ls in enumerate(side.locus, 1)
                    if ls.serial is not None and is_gem(state.cards[ls.serial])]
            if len(gems) >= DECLARE and rng.random() < 0.8:
                return {"type": "declare", "seat": cur, "positions": gems[:DECLARE]}
            if len(side.locus) >= DECLARE and rng.random() < 0.1:
                return {"type": "declare", "seat": cur,
                        "positions": rng.sample(range(1, len(side.locus) + 1), DECLARE)}
            return {"type": "next", "seat": cur}
        proposed = rule.proposal(state)
        if proposed is not None and rng.random() < 0.8:
            return proposed
        if state.step == "recovery":
            return {"type": "next", "seat": cur}
        # An unbound seat holds cards of one printed deck it has not shown yet (GN-2).
        pool = sorted(side.unseen if side.deck_id else rng.choice(state.free).serials)
        hand = rng.sample(pool, min(side.hand_count, len(pool)))
        if not state.set_this_turn and hand:
            in_hand = [c for c in hand if is_gem(state.cards[c])]
            pick = rng.choice(in_hand) if in_hand and rng.random() < 0.8 else rng.choice(hand)
            return {"type": "set", "seat": cur, "card": pick}
        others = [c for c in hand if not is_gem(state.cards[c])]
        r = rng.random()
        if others and r < 0.3:
            return {"type": "play", "seat": cur, "card": rng.choice(others)}
        if r < 0.45:
            return {"type": "crush", "seat": cur, "target": other(cur),
                    "count": rng.randint(1, 3)}
        return {"type": "next", "seat": cur}


RULES = GemCompleteRules()


def _noted(state: GemState, cards: list[str], taps: list[bool | None]) -> GemState:
    """The cards a play named: by a tap (``True``), stand-ins; by serial (``False``), where
    they were seen; ``None``: a tap on a card already known there keeps what it was."""
    marks = dict(zip(cards, taps, strict=True))
    state = standins.seen(state, [c for c, t in marks.items() if t is False])
    return standins.mark(state, [c for c, t in marks.items() if t])
