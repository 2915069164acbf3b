"""WuXing at a simulated table (``companion.seatplay``): nobody holds a hand and nobody
chooses. Every card shown is the top card of a deck (WX-3, WX-5, WX-7), every Universe card
the top of the Universe deck (WX-4, WX-11), and the start is rock-paper-scissors or the
first Dragon pulled (WX-12): the whole game is chance, so ``to_move`` is always ``None``.

A seat's top card is drawn lazily: while it has cards nobody has seen (``unseen``), one of
the cards the companion has not seen since the deal, each equally likely (which of them
lie in which deck, or set aside, nobody knows, WX-2); once only won cards are left, one of
those (they were shuffled when won, WX-8). Where two seats show at once (a challenge), the
first seat the table waits for shows first (``awaiting`` order): nobody sees a card before
it is shown, so the order hides nothing.
"""

from __future__ import annotations

import random

from companion.engine import UNKNOWN, Event, deck_of
from companion.games.wuxing.state import DRAW, DUEL, START, UNIVERSE, WuXingState
from companion.seatplay import Seats, Table, uniform


def _step(state: WuXingState) -> tuple[list[str] | None, str]:
    """The next card's pool (in the engine's place order) and its zone; or ``None`` for
    the rock-paper-scissors start."""
    t = state.table
    places = state.places
    if state.phase == START:
        if t.start == "rps":
            return None, ""
        pool = [c for c in t.player_cards if places[c] == UNKNOWN and c not in state.shown]
        return pool, f"seat:{len(state.shown) % len(t.names) + 1}"
    if state.phase == DRAW or state.phase == DUEL:
        pool = [c for c, p in places.items() if p == UNIVERSE]
        zone = UNIVERSE if state.phase == DRAW else f"seat:{state.awaiting[0]}"
        return pool, zone
    seat = state.awaiting[0]
    want = UNKNOWN if state.unseen[seat - 1] else deck_of(seat)
    return [c for c, p in places.items() if p == want], f"seat:{seat}"


class WuXingSeats(Seats):
    """Every step is chance; nothing is hidden that a decision could use."""

    def chance_outcomes(self, table: Table) -> list[tuple[Event, float]] | None:
        state = table.state
        pool, zone = _step(state)
        if pool is None:
            return uniform([{"type": "rps", "winner": w}
                            for w in range(1, len(state.table.names) + 1)])
        return uniform([{"type": "scan", "card": c, "zone": zone} for c in pool])

    def chance(self, table: Table, rng: random.Random) -> Event | None:
        # ``chance_outcomes`` without the list of events: this runs on every WuXing event
        # of a report (10,000 games), and draws the same outcome from the same ``rng``.
        state = table.state
        if state.finished:
            return None
        pool, zone = _step(state)
        if pool is None:
            return {"type": "rps", "winner": rng.randrange(len(state.table.names)) + 1}
        return {"type": "scan", "card": pool[rng.randrange(len(pool))], "zone": zone}


SEATS = WuXingSeats()
