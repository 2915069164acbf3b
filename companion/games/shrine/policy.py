"""How a greedy Shrine player chooses (``companion.playtest``): a bid only if the lot is
worth its Oinks to it (the influence the lot's cards would add to its shrine, SK-10,
against the Oinks bid), the lowest such bid; a payment that keeps the most influence.
"""

from __future__ import annotations

from typing import Any

from companion.engine import evolve
from companion.games.shrine.adjudicate import influence
from companion.games.shrine.state import ShrineState

DECISIONS = frozenset({"bid", "pass", "pay"})
# Tables imagined per decision (``playtest.greedy_move``): ``value`` reads the shrines (public)
# and the seat's own Oinks, and a share of the pool is a public amount (SK-6), so every
# table the seat cannot tell apart rates a move the same: one is enough.
SAMPLES = 1
ROUNDS = ("auctions", "auctions")
INFLUENCE = 100.0  # one influence point against Oinks: points decide, Oinks break ties


def value(state: ShrineState, seat: int) -> float:
    if state.finished:
        return 1e6 if seat in state.winners else -1e6
    return INFLUENCE * influence(state, seat).points + sum(state.oinks[seat - 1])


def bid_value(state: ShrineState, seat: int, amount: int) -> float:
    """The table's value to ``seat`` if it wins the lot for ``amount`` Oinks."""
    shrines = list(state.shrines)
    shrines[seat - 1] = (*shrines[seat - 1], *state.lot)
    won = evolve(state, shrines=tuple(shrines))
    return INFLUENCE * influence(won, seat).points + sum(state.oinks[seat - 1]) - amount


def judge(before: ShrineState, event: dict[str, Any], after: ShrineState, seat: int) -> float:
    """A bid is judged by the lot it may win, not by the table right after it."""
    if event.get("type") == "bid" and isinstance(event.get("amount"), int):
        return bid_value(before, seat, int(event["amount"]))
    return value(after, seat)


def starter(state: ShrineState) -> int | None:
    return state.starter or None
