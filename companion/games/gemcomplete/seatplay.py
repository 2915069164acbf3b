"""Gem Complete at a simulated table (``companion.seatplay``): each seat takes one of the
printed decks (GC-1; the companion learns which from the first card it shows, GN-2 rev. 2),
keeps a hand (GC-3: five, then one a turn), and sets cards face down in its Locus, scanned
privately (GC-2): the opponent sees them only while revealed at a Complete Declaration
(GC-4), and remembers them after (``seen``), as it remembers the cards it saw its opponent
take back from the discard pile into hand (``known``).

- Chance: which printed deck each seat takes (a ``deck`` table event), the starting player
  (GC-3), each card drawn into a hand (``deal``), and each card an effect takes from the top
  of a deck to the discard pile (crush, discard from the deck), shown at once (C-6).
- Moves, in this order. Declaration Step: ``next``, then declarations: every six of the
  Locus positions while there are at most 28 such sets (eight cards), else three: the
  first six, the last six, and the first six Gems the seat knows there (a documented
  bound). Reveal: the next declared card (forced). Choose: every two of the six revealed
  cards (15). Recovery Step: ``next``. Main Phase: the effect the played card proposes
  while one is pending (forced, with the deck data's values, GC-3 rev. 2), else ``next``,
  then setting each card of the hand (once a turn), then playing each non-Gem card. A card
  an effect takes from a hand is chosen by the hand's owner among the cards it holds (one
  ``scan`` at a time).
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb
from typing import Any

from companion.engine import Event, Rules, Setup, evolve
from companion.errors import IllegalPlay, MalformedEvent
from companion.games.gemcomplete.adjudicate import proposal
from companion.games.gemcomplete.state import (
    CHOOSE,
    DECLARE,
    GemState,
    LocusCard,
    PrintedDeck,
    is_gem,
    other,
    owing,
    with_side,
)
from companion.seatplay import Seats, Table, from_hand, uniform

DECK = "deck"  # a table event: {"type": "deck", "seat": s, "deck": id, "printed": n}
ALL_DECLARATIONS = 28  # every six positions listed up to this many sets


def _key(p: PrintedDeck) -> tuple[str, int]:
    return (p.deck_id, p.printed)


def holdable(table: Table, seat: int) -> frozenset[str]:
    """Every card seat ``seat`` may hold in hand or deck (or owes to show): its bound
    deck's unseen cards, or before it is bound, the printed deck it took (the secret)."""
    state: GemState = table.state
    side = state.side(seat)
    if side.deck_id:
        return side.unseen
    key = table.secret[0][seat - 1]
    chosen = next((p for p in state.free if _key(p) == key), None)
    return chosen.serials if chosen is not None else frozenset()


def _shows(table: Table, seat: int) -> tuple[str, ...]:
    """Where the cards seat ``seat`` still owes to show come from, in order: "hand", "deck"."""
    queue: tuple[str, ...] = table.secret[1][seat - 1]
    return queue


class GemCompleteSeats(Seats):
    def check(self, table: Table, event: Event) -> None:
        kind = event.get("type")
        state: GemState = table.state
        if kind in ("play", "set") and isinstance(event.get("card"), str):
            from_hand(table, event.get("seat"), [event["card"]])
        elif kind == "scan" and state.turn is not None:
            waiting = owing(state)
            zone = str(event.get("zone", ""))
            if waiting and _shows(table, waiting[0])[0] == "hand":
                from_hand(table, waiting[0], [event.get("card")])
            elif not waiting and state.step == "main" and zone.startswith(("seat:", "locus:")):
                from_hand(table, state.turn, [event.get("card")])  # a play, or a card set

    def start(self, rules: Rules[Any], setup: Setup, rng: random.Random) -> Table:
        state = rules.start(setup)
        return Table(rules, self, setup, state, (frozenset(),) * 2,
                     ((None, None), ((), ()), (frozenset(), frozenset()),
                      (frozenset(), frozenset())))

    def _choosing(self, table: Table) -> int | None:
        state: GemState = table.state
        for seat in (1, 2):
            if not state.side(seat).deck_id and table.secret[0][seat - 1] is None:
                return seat
        return None

    def _left(self, table: Table) -> list[PrintedDeck]:
        taken = set(table.secret[0])
        return [p for p in table.state.free if _key(p) not in taken]

    def chance_outcomes(self, table: Table) -> list[tuple[Event, float]] | None:
        state: GemState = table.state
        seat = self._choosing(table)
        if seat is not None:
            return uniform([{"type": DECK, "seat": seat, "deck": p.deck_id,
                             "printed": p.printed} for p in self._left(table)])
        if state.turn is None:
            return uniform([{"type": "first_player", "value": s} for s in (1, 2)])
        due = self.due_draw(table)
        if due is not None:
            return due
        waiting = owing(state)
        if waiting and _shows(table, waiting[0])[0] == "deck":
            t = waiting[0]
            return uniform([{"type": "scan", "seat": t, "zone": f"seat:{t}", "card": c}
                            for c in self.pool(table, t)])
        return None

    def to_move(self, table: Table) -> int | None:
        state: GemState = table.state
        if state.turn is None or self.chance_outcomes(table) is not None:
            return None
        waiting = owing(state)
        if waiting:
            return waiting[0]  # it shows a card from its hand
        return other(state.turn) if state.step == "choose" else int(state.turn)

    def pool(self, table: Table, seat: int) -> list[str]:
        return sorted(holdable(table, seat) - table.hand(seat))

    def owed(self, table: Table, seat: int) -> int:
        from_hand = sum(1 for s in _shows(table, seat) if s == "hand")
        return int(table.state.side(seat).hand_count) + from_hand - len(table.hand(seat))

    def table_event(self, table: Table, event: Event) -> Table | None:
        if event.get("type") != DECK:
            return super().table_event(table, event)
        seat = self._choosing(table)
        key = (event.get("deck"), event.get("printed"))
        if seat is None or event.get("seat") != seat:
            raise MalformedEvent(f"seat {event.get('seat')!r} does not take a deck now")
        if not any(_key(p) == key for p in self._left(table)):
            raise IllegalPlay(f"printed deck {key!r} is not in the box")
        decks = list(table.secret[0])
        decks[seat - 1] = key
        return table.evolve(secret=(tuple(decks), *table.secret[1:]))

    def kept(self, before: Table, event: Event, state: Any) -> Table:
        old: GemState = before.state
        new: GemState = state
        after = before.evolve(state=new)
        hands = []
        queues = []
        seen = list(before.secret[2])
        known = list(before.secret[3])
        for seat in (1, 2):
            queue = list(_shows(before, seat))
            grew = new.side(seat).owed - old.side(seat).owed
            hand = before.hand(seat)
            if grew > 0:
                source = "hand" if event.get("from") == "hand" else "deck"
                queue += [source] * grew
            elif grew < 0:
                del queue[:-grew]
            hand = hand & holdable(after, seat)
            if event.get("type") == "return" and event.get("to") == "hand" \
                    and event.get("target") == seat:
                # From the discard pile, face up: the opponent saw them go into this hand.
                back = {c for c in event.get("cards", ()) if isinstance(c, str)}
                hand |= back
                known[other(seat) - 1] = known[other(seat) - 1] | back
            hands.append(hand)
            queues.append(tuple(queue))
            shown = {ls.serial for ls in new.side(seat).locus if ls.public and ls.serial}
            seen[other(seat) - 1] = seen[other(seat) - 1] | shown
        known = [k & hands[other(s) - 1] for s, k in enumerate(known, 1)]
        return after.evolve(hands=tuple(hands),
                            secret=(before.secret[0], tuple(queues), tuple(seen), tuple(known)))

    def moves(self, table: Table, seat: int) -> list[Event]:
        if self.to_move(table) != seat:
            return []
        state: GemState = table.state
        hand = sorted(table.hand(seat))
        if owing(state):
            return [{"type": "scan", "seat": seat, "zone": f"seat:{seat}", "card": c}
                    for c in hand]
        side = state.side(seat)
        if state.step == "choose":
            return [{"type": "choose", "seat": seat, "cards": list(cs)}
                    for cs in combinations(state.revealed, CHOOSE)]
        if state.step == "reveal":
            pos = state.declaration[len(state.revealed)]
            return [{"type": "reveal", "seat": seat, "cards": [side.locus[pos - 1].serial]}]
        out: list[Event] = []
        if state.step == "declaration":
            out.append({"type": "next", "seat": seat})
            out += [{"type": "declare", "seat": seat, "positions": list(p)}
                    for p in _declarations(state, seat)]
            return out
        if state.step == "recovery":
            return [{"type": "next", "seat": seat}]
        proposed = proposal(state)
        if proposed is not None:
            return [proposed]
        out.append({"type": "next", "seat": seat})
        if not state.set_this_turn:
            out += [{"type": "set", "seat": seat, "card": c} for c in hand]
        out += [{"type": "play", "seat": seat, "card": c} for c in hand
                if not is_gem(state.cards[c])]
        return out

    def private(self, table: Table, seat: int) -> Any:
        key = table.secret[0][seat - 1]
        return {"deck": list(key) if key is not None else None,
                "seen": sorted(table.secret[2][seat - 1]),
                "known": sorted(table.secret[3][seat - 1]),
                "shows": list(_shows(table, seat))}

    def resample(self, table: Table, seat: int, rng: random.Random) -> Table:
        state: GemState = table.state
        opp = other(seat)
        decks = list(table.secret[0])
        if not state.side(opp).deck_id and decks[opp - 1] is not None:
            box = [_key(p) for p in state.free if _key(p) != decks[seat - 1]]
            decks[opp - 1] = rng.choice(box)
        drawn = table.evolve(secret=(tuple(decks), *table.secret[1:]))
        side = state.side(opp)
        seen = table.secret[2][seat - 1]
        hidden = [i for i, ls in enumerate(side.locus)
                  if ls.serial is not None and not ls.public and ls.serial not in seen]
        if hidden:  # the opponent's face-down Locus cards this seat never saw
            pool = sorted(side.unseen - table.secret[3][seat - 1]
                          | {str(side.locus[i].serial) for i in hidden})
            picked = rng.sample(pool, len(hidden))
            locus = list(side.locus)
            for i, card in zip(hidden, picked, strict=True):
                locus[i] = LocusCard(card)
            was = {str(side.locus[i].serial) for i in hidden}
            side = evolve(side, locus=tuple(locus), unseen=(side.unseen | was) - set(picked))
            drawn = drawn.evolve(state=with_side(state, opp, side))
        hands = list(table.hands)
        known = table.secret[3][seat - 1]  # taken back from the pile in plain sight
        rest = sorted(holdable(drawn, opp) - known)
        hands[opp - 1] = known | frozenset(rng.sample(rest, len(table.hand(opp)) - len(known)))
        return drawn.evolve(hands=tuple(hands))


def _declarations(state: GemState, seat: int) -> list[tuple[int, ...]]:
    locus = state.side(seat).locus
    n = len(locus)
    if n < DECLARE:
        return []
    positions = range(1, n + 1)
    if comb(n, DECLARE) <= ALL_DECLARATIONS:
        return list(combinations(positions, DECLARE))
    out = [tuple(positions[:DECLARE]), tuple(positions[-DECLARE:])]
    gems = [i for i, ls in enumerate(locus, 1)
            if ls.serial is not None and is_gem(state.cards[ls.serial])]
    if len(gems) >= DECLARE and tuple(gems[:DECLARE]) not in out:
        out.append(tuple(gems[:DECLARE]))
    return out


SEATS = GemCompleteSeats()
