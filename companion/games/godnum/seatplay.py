"""God Num at a simulated table (``companion.seatplay``): each seat takes a printed legion
from the box and keeps a hand of five (GN-2, GN-4, GN-5); the companion counts hands, the
table holds them.

- The deal: each seat the lobby did not fix takes a printed legion nobody holds, at
  random (a ``legion`` table event, chance): the companion learns it only from the first
  card the seat shows (GN-2 rev. 2), so it is the seat's secret until then. Then the
  target and the starting player (GN-4, equally likely values), then every hand draws.
- Draws are ``deal`` table events, one card at a time, each card of the seat's deck
  equally likely; when a deck runs out, the cards left in it are drawn first, then the
  reshuffled ones (GN-10): ``kept`` puts the old deck's last cards into the hand at once.
- Moves, in this order: every card in hand that may be played now (GN-6), then every
  discard of a non-empty set of the hand, smallest sets first (at most 31 for five cards;
  one card under Burden, GN-3), each ending the turn (the player never discards "more"
  and ends the turn apart: the same choice in one event); ``pass`` with an empty hand
  (GN-10); ``end_turn`` after a discard with ``more`` (only if someone sent one).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from companion.engine import Event, Rules, Setup
from companion.errors import IllegalPlay, MalformedEvent
from companion.games.godnum.rules import GodNumRules
from companion.games.godnum.state import GodNumState, PrintedLegion
from companion.seatplay import Seats, Table, from_hand, uniform

LEGION = "legion"  # a table event: {"type": "legion", "seat": s, "deck": id, "printed": n}


def _printed(state: GodNumState, key: tuple[str, int] | None) -> PrintedLegion | None:
    if key is None:
        return None
    return next((p for p in state.free if (p.deck, p.printed) == key), None)


def holdable(table: Table, seat: int) -> frozenset[str]:
    """Every card seat ``seat`` may hold in hand or deck: its bound legion's unseen cards,
    or before it is bound, the printed legion it took (the secret)."""
    state: GodNumState = table.state
    lg = state.legion(seat)
    if lg.bound:
        return lg.unseen
    chosen = _printed(table.state, table.secret[seat - 1])
    return chosen.serials if chosen is not None else frozenset()


class GodNumSeats(Seats):
    def check(self, table: Table, event: Event) -> None:
        kind = event.get("type")
        if kind == "play":
            from_hand(table, event.get("seat"), [event.get("card")])
        elif kind == "scan":  # shown in a seat's zone, or on the pot or the Void by the sender
            zone = str(event.get("zone", ""))
            seat = int(zone[5:]) if zone.startswith("seat:") and zone[5:].isdigit() \
                else event.get("seat", table.state.turn)
            from_hand(table, seat, [event.get("card")])
        elif kind == "discard" and isinstance(event.get("cards"), list):
            from_hand(table, event.get("seat"), event["cards"])

    def start(self, rules: Rules[Any], setup: Setup, rng: random.Random) -> Table:
        state = rules.start(setup)
        n = len(setup.players)
        return Table(rules, self, setup, state, (frozenset(),) * n, (None,) * n)

    def _choosing(self, table: Table) -> int | None:
        """The first seat that still has to take a printed legion from the box."""
        state = table.state
        for seat in range(1, table.players + 1):
            if not state.legion(seat).bound and table.secret[seat - 1] is None:
                return seat
        return None

    def _left(self, table: Table) -> list[PrintedLegion]:
        taken = set(table.secret)
        return [p for p in table.state.free if (p.deck, p.printed) not in taken]

    def chance_outcomes(self, table: Table) -> list[tuple[Event, float]] | None:
        state: GodNumState = table.state
        seat = self._choosing(table)
        if seat is not None:
            return uniform([{"type": LEGION, "seat": seat, "deck": p.deck,
                             "printed": p.printed} for p in self._left(table)])
        if state.target is None:
            lo, hi = state.options["target_min"], state.options["target_max"]
            return uniform([{"type": "target", "value": v} for v in range(lo, hi + 1)])
        if state.turn is None:
            return uniform([{"type": "starting_player", "value": s}
                            for s in range(1, table.players + 1)])
        return self.due_draw(table)

    def to_move(self, table: Table) -> int | None:
        state: GodNumState = table.state
        if state.turn is None or self.chance_outcomes(table) is not None:
            return None
        return int(state.turn)

    def pool(self, table: Table, seat: int) -> list[str]:
        return sorted(holdable(table, seat) - table.hand(seat))

    def owed(self, table: Table, seat: int) -> int:
        return int(table.state.legion(seat).hand_count) - len(table.hand(seat))

    def table_event(self, table: Table, event: Event) -> Table | None:
        if event.get("type") != LEGION:
            return super().table_event(table, event)
        seat = self._choosing(table)
        key = (event.get("deck"), event.get("printed"))
        if seat is None or event.get("seat") != seat:
            raise MalformedEvent(f"seat {event.get('seat')!r} does not take a legion now")
        if not any((p.deck, p.printed) == key for p in self._left(table)):
            raise IllegalPlay(f"printed legion {key!r} is not in the box")
        secret = list(table.secret)
        secret[seat - 1] = key
        return table.evolve(secret=tuple(secret))

    def kept(self, before: Table, event: Event, state: Any) -> Table:
        old: GodNumState = before.state
        new: GodNumState = state
        after = before.evolve(state=new)
        hands = []
        for seat in range(1, before.players + 1):
            had = before.hand(seat)
            hand = had & holdable(after, seat)
            back = new.legion(seat).unseen - old.legion(seat).unseen
            if back and old.legion(seat).bound:
                # GN-10: the deck ran out; its last cards were drawn before the reshuffle.
                hand |= (old.legion(seat).unseen - had) & new.legion(seat).unseen - back
            hands.append(hand)
        return after.evolve(hands=tuple(hands))

    def moves(self, table: Table, seat: int) -> list[Event]:
        if self.to_move(table) != seat:
            return []
        state: GodNumState = table.state
        hand = sorted(table.hand(seat))
        if state.discarding:
            return [{"type": "end_turn", "seat": seat}]
        if not hand:
            return [{"type": "pass", "seat": seat}]
        if state.burdened:
            return [{"type": "discard", "seat": seat, "cards": [c]} for c in hand]
        rules: GodNumRules = table.rules  # type: ignore[assignment]
        legal = rules.legal_cards(state, seat, hand)
        out: list[Event] = [{"type": "play", "seat": seat, "card": c}
                            for c, ok, _ in legal if ok]
        for k in range(1, len(hand) + 1):
            out += [{"type": "discard", "seat": seat, "cards": list(cs)}
                    for cs in combinations(hand, k)]
        return out

    def private(self, table: Table, seat: int) -> Any:
        key = table.secret[seat - 1]
        return list(key) if key is not None else None

    def resample(self, table: Table, seat: int, rng: random.Random) -> Table:
        state: GodNumState = table.state
        others = [s for s in range(1, table.players + 1) if s != seat]
        secret = list(table.secret)
        hidden = [s for s in others if not state.legion(s).bound and secret[s - 1] is not None]
        if hidden:  # the legions the others took, unseen yet: any left in the box for them
            mine = secret[seat - 1]
            box = [(p.deck, p.printed) for p in state.free if (p.deck, p.printed) != mine]
            for s, key in zip(hidden, rng.sample(box, len(hidden)), strict=True):
                secret[s - 1] = key
        drawn = table.evolve(secret=tuple(secret))
        hands = list(table.hands)
        for s in others:
            hands[s - 1] = frozenset(rng.sample(sorted(holdable(drawn, s)),
                                                len(table.hand(s))))
        return drawn.evolve(hands=tuple(hands))


SEATS = GodNumSeats()
