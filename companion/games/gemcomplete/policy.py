"""How a greedy Gem Complete player chooses (``companion.playtest``): the step that wins
at once, else the one that leaves it the most Gems set in its Locus (GC-4) against the
size of its opponent's Locus (which Gems lie there is hidden from it: it does not peek),
then the most cards in hand; draws and reveals are chance.
"""

from __future__ import annotations

from companion.games.gemcomplete.state import GemState, is_gem

DECISIONS = frozenset({"choose", "crush", "declare", "discard", "next", "play", "return",
                       "set"})
SAMPLES = 2  # tables imagined per decision (``playtest._greedy``)
ROUNDS = ("turns", "turns")


def _gems(state: GemState, seat: int) -> int:
    return sum(1 for c in state.side(seat).locus
               if c.serial is not None and is_gem(state.cards[c.serial]))


def value(state: GemState, seat: int) -> float:
    if state.finished:
        return 1e6 if seat in state.winners else -1e6
    return (10.0 * _gems(state, seat) - 3.0 * len(state.side(3 - seat).locus)
            + state.side(seat).hand_count)


def starter(state: GemState) -> int | None:
    return state.turn
