"""How a greedy God Num player chooses (``companion.playtest``): among the cards it could
hold, the play that wins at once (GN-11), else the one that leaves it the least karma
(GN-9: discards cost karma) and the fewest cards in hand.

A simulated hand is unknown to the companion (it never sees hands), so a greedy player is
offered as many candidate cards as a hand holds (GN-4: five), drawn from what its deck and
hand may hold: it chooses among five, as a real player does.
"""

from __future__ import annotations

from companion.games.godnum.state import HAND_SIZE, GodNumState

DECISIONS = frozenset({"play", "discard", "pass", "end_turn"})
CHOICES = HAND_SIZE
ROUNDS = ("turns", "turns")


def value(state: GodNumState, seat: int) -> float:
    if seat in state.winners:
        return 1e6
    lg = state.legion(seat)
    if lg.eliminated:
        return -1e6
    return -10.0 * lg.karma - lg.hand_count


def starter(state: GodNumState) -> int | None:
    return state.turn
