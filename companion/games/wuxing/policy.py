"""What a simulated WuXing player can choose (``companion.playtest``): nothing.

Every card a player shows is the top card of their own deck (WX-3, WX-5): the game has no
decision a player makes (``seatplay``: every step is chance), so the greedy player plays
exactly as the random one, and a playtest report says so. ``value`` still scores a table
for a seat: the cards it owns.
"""

from __future__ import annotations

from typing import Any

from companion.games.wuxing.state import WuXingState

DECISIONS: frozenset[str] = frozenset()  # rps is chance; a shown card is the deck's top card
SAMPLES = 1
ROUNDS = ("challenges", "challenges")
# The Universe deck is nobody's: its cards are ranked apart in a report (issue 30 §2).
SHARED_DECKS = ("universe",)


def value(state: WuXingState, seat: int) -> float:
    if seat in state.winners:
        return 1e6
    return float(state.decks[seat - 1])


def starter(state: Any) -> int | None:
    """The first challenger (WX-12), once the start is decided."""
    return int(state.turn) if state.phase != "start" and state.turn else None
