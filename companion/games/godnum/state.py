"""God Num's table as immutable data: the legions, the pot, the divine number (GN-1..GN-11).

The companion never sees a hand (cards are drawn face down): for each seat it keeps the
deck and hand *counts* and the serials of its legion not seen yet (in its deck or hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.cards import CardFace
from companion.engine import Play, Said, evolve

HAND_SIZE = 5  # GN-4, GN-5
LEGION_SIZE = 36  # GN-2: 20 number cards and four sets of the four function cards


@dataclass(frozen=True)
class Verdict:
    """Whether a card may be played on the current attribute and number (GN-6), and which
    case of the ruling decided it: ``function``, ``attributeless``, ``overcomes``,
    ``generates``, ``same`` or ``other`` (``neither``: not a God Num card)."""

    ok: bool
    case: str
    face: CardFace
    current: str | None
    last: int


@dataclass(frozen=True)
class PrintedLegion:
    """One printed legion deck at the table (GN-2): its deck id, which printed set, serials."""

    deck: str
    printed: int
    serials: frozenset[str]


@dataclass(frozen=True)
class Legion:
    """One seat's legion: the printed deck it is bound to (``None``: not chosen yet, GN-2
    rev. 2) and what it has left."""

    deck: str | None  # deck id, e.g. "legion-metal-water"
    unseen: frozenset[str]  # serials in this seat's deck or hand, not yet seen
    deck_count: int
    hand_count: int
    karma: int = 0
    eliminated: bool = False
    printed: int | None = None  # which printed set of ``deck`` (Setup.sets)

    @property
    def bound(self) -> bool:
        return self.deck is not None


@dataclass(frozen=True)
class GodNumState:
    players: tuple[str, ...]
    options: Mapping[str, Any]
    cards: Mapping[str, CardFace]  # every serial of the table
    owner: Mapping[str, int]  # serial -> bound seat (cards of no bound seat are absent)
    legions: tuple[Legion, ...]
    free: tuple[PrintedLegion, ...] = ()  # printed legions no seat is bound to yet (GN-2)
    target: int | None = None
    turn: int | None = None
    direction: int = 1
    divine_number: int = 0
    attribute: str | None = None  # None: attributeless (GN-4, GN-3 Chaos)
    last_number: int | None = None
    pile: tuple[str, ...] = ()  # played cards, oldest first (the pot)
    out: frozenset[str] = frozenset()  # discards, busts, eliminated hands, unused legions
    discarding: bool = False
    burdened: bool = False  # GN-3 Burden: the player whose turn it is must discard one first
    last_play: Play | None = None  # what the latest event did, as data (issue 11)
    finished: bool = False
    winners: tuple[int, ...] = ()
    plays: int = 0
    discards: int = 0
    reshuffles: int = 0
    busts: int = 0
    turns: int = 0
    # Cards played or discarded by a face id (one tap): the serial records *a* copy of
    # that face from the seat's legion, a stand-in until a scan says which (C-1, issue 18).
    stand_ins: frozenset[str] = frozenset()
    # Seats bound to a printed legion by a tap or by the lobby, not by a serial: with a
    # legion printed twice (six players) which printed copy they hold is a guess (GN-2).
    guessed: frozenset[int] = frozenset()
    # The latest play in words with its ruling ids, made from ``last_play`` only when read
    # (words.py; set with the play by ``adjudicate.played``, so this module needs no words).
    said: Said | str = field(default="Waiting for the companion to draw the target divine "
                             "number (GN-4).", compare=False, repr=False)

    @property
    def ruling(self) -> str:
        """The latest play in words with its ruling ids, for the referee and the log."""
        return str(self.said)

    def legion(self, seat: int) -> Legion:
        return self.legions[seat - 1]

    def name(self, seat: int) -> str:
        return self.players[seat - 1]

    @property
    def live(self) -> tuple[int, ...]:
        return tuple(i for i, lg in enumerate(self.legions, 1) if not lg.eliminated)


def set_legion(state: GodNumState, seat: int, lg: Legion) -> GodNumState:
    legions = list(state.legions)
    legions[seat - 1] = lg
    return evolve(state, legions=tuple(legions))


def next_seat(state: GodNumState, seat: int) -> int:
    """The next live seat after ``seat`` in the current direction (GN-3 Reverse)."""
    n = len(state.players)
    s = seat
    for _ in range(n):
        s = (s - 1 + state.direction) % n + 1
        if not state.legion(s).eliminated:
            return s
    return seat
