"""How a greedy Gem Complete player chooses (``companion.playtest``): the step that wins
at once, else the one that leaves it the most Gems set in its Locus (GC-4) against the
size of its opponent's Locus (which Gems lie there is hidden from it: ``seatplay``
imagines them), then the most cards in hand and the longer deck (GC-5: an empty deck
loses); draws and reveals are chance.

A declaration is judged by the cards the declarer set at the declared positions (it set
them itself, so it knows them): six Gems win once revealed; anything else fails and gives
two cards away (GC-4).
"""

from __future__ import annotations

from companion.games.gemcomplete.state import DECLARE, GemState, is_gem

DECISIONS = frozenset({"choose", "crush", "declare", "discard", "next", "play", "return",
                       "scan", "set"})
# Tables imagined per decision (``playtest.greedy_move``): ``value`` reads the seat's own Locus,
# counts and the size of the other Locus, the same on every table the seat cannot tell
# apart, so one imagined table rates a move as well as many.
SAMPLES = 1
ROUNDS = ("turns", "turns")
SHORT_DECK = 3  # cards left in a deck below which its player fears the Deck Out (GC-5)


def _gems(state: GemState, seat: int) -> int:
    return sum(1 for c in state.side(seat).locus
               if c.serial is not None and is_gem(state.cards[c.serial]))


def _declared(state: GemState, seat: int) -> float:
    """A declaration under way by ``seat``: all Gems wins; else it costs two cards."""
    if state.step != "reveal" or state.turn != seat:
        return 0.0
    locus = state.side(seat).locus
    cards = [locus[p - 1].serial for p in state.declaration]
    gems = sum(1 for c in cards if c is not None and is_gem(state.cards[c]))
    return 1e5 if gems == DECLARE else -20.0


def value(state: GemState, seat: int) -> float:
    if state.finished:
        return 1e6 if seat in state.winners else -1e6
    me, them = state.side(seat), state.side(3 - seat)
    return (10.0 * _gems(state, seat) - 3.0 * len(them.locus) + me.hand_count
            + 0.5 * (me.deck_count - them.deck_count)
            - 20.0 * (me.deck_count <= SHORT_DECK) + 20.0 * (them.deck_count <= SHORT_DECK)
            + _declared(state, seat))


def starter(state: GemState) -> int | None:
    return state.turn
