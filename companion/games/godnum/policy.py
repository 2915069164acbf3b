"""How a greedy God Num player chooses (``companion.playtest``): among the moves of its
own kept hand (``seatplay``: the cards it holds, GN-4: five), the play that wins at once
(GN-11), else the one that leaves it the least karma (GN-9: discards cost karma) and the
fewest cards in hand.

The engine never sees a hand, so the table after a move is the same whatever the other
hands hold: one imagined table (``SAMPLES``) rates a move as well as many.
"""

from __future__ import annotations

from companion.games.godnum.state import GodNumState

DECISIONS = frozenset({"play", "discard", "pass", "end_turn"})
SAMPLES = 1  # tables imagined per decision (``playtest.greedy_move``)
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
