"""How a greedy Mountains & Rivers player chooses (``companion.playtest``): the move,
attack, skill or stairs that leaves it the most HP and weapons against its opponents'
HP (MR-2, MR-7); dice, drawn cards and challenge outcomes are chance, never chosen.
"""

from __future__ import annotations

from companion.games.mountains.state import MountainsState

DECISIONS = frozenset({"attack", "corner", "discard", "end", "move", "skill", "stairs",
                       "take"})
SAMPLES = 1  # nothing is hidden to imagine (``seatplay``): one table is the table
ROUNDS = ("turns", "turns")


def value(state: MountainsState, seat: int) -> float:
    if seat in state.winners:
        return 1e6
    me = state.players[seat - 1]
    if not me.alive:
        return -1e6
    others = sum(p.hp for p in state.players if p.alive and p.seat != seat)
    return 10.0 * me.hp - 10.0 * others + 5.0 * len(me.weapons)


def starter(state: MountainsState) -> int | None:
    return state.turn if state.phase == "play" and state.turn else None
