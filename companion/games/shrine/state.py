"""Shrine of the Elemental Kings: the table's state and the facts every other file reads.

Places of cards (C-1): ``deck``, ``lot``, ``seat:<n>`` (a start draw, SK-2), ``shrine:<n>``
(cards a player won, face up), ``out`` (other printed sets, lots nobody bid on).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.cards import CardFace
from companion.engine import OUT, JSONDict, Play, Setup
from companion.errors import BadSetup
from companion.words import names

DECK = "deck"
LOT = "lot"
STANDARD = "standard"


def shrine_of(seat: int) -> str:
    """The place of the cards a player has won (in front of them, face up)."""
    return f"shrine:{seat}"


@dataclass(frozen=True)
class ShrineState:
    """A Shrine table. Oinks are per seat per element in ``elements`` order."""

    players: tuple[str, ...]
    cards: Mapping[str, CardFace]  # every serial of the table (shared, never changed)
    elements: tuple[str, ...]
    element_names: Mapping[str, str]
    public_oinks: bool
    start_oinks: int
    phase: str  # "start" | "lot" | "bidding" | "payment" | "over"
    deck: frozenset[str]
    out: tuple[str, ...]
    shrines: tuple[tuple[str, ...], ...]
    lot: tuple[str, ...]
    draws: Mapping[int, str]  # SK-2: this round's start draws, seat -> serial
    contenders: tuple[int, ...]
    draw_round: int
    starter: int
    cycle: int
    cycle_first: int
    lot_size: int
    zero_bids: int  # SK-8: zero bids in this auction = extra cards in the next lot
    standing: int
    high: int
    turn: int
    passed: frozenset[int]
    bids: tuple[tuple[int, int], ...]
    oinks: tuple[tuple[int, ...], ...]
    pool: tuple[int, ...]
    tally: Mapping[str, int]  # counters for stats
    last: Mapping[str, Any]  # the latest settlement, for the view
    ruling: str  # the referee's log line (ruling ids included)
    bottom: frozenset[str] = frozenset()  # SK-2 rev. 2: start draws put under the deck
    last_play: Play | None = None  # what the latest event did, as data (issue 11)
    finished: bool = False
    winners: tuple[int, ...] = ()

    @property
    def seats(self) -> range:
        return range(1, len(self.players) + 1)

    def name(self, seat: int) -> str:
        return self.players[seat - 1]


def sort_sets(setup: Setup) -> tuple[list[str], list[str]]:
    """Serials of the one standard deck in play, and those of further printed sets (out)."""
    standard = [s for s, f in setup.cards.items() if f.deck == STANDARD]
    others = [s for s, f in setup.cards.items() if f.deck != STANDARD]
    keys = sorted({setup.sets.get(s, 0) for s in standard})
    first = keys[0] if keys else 0
    in_play = sorted(s for s in standard if setup.sets.get(s, 0) == first)
    out = [s for s in standard if setup.sets.get(s, 0) != first] + others
    return in_play, out


def first_state(setup: Setup) -> ShrineState:
    """The table before the first start draw (SK-1, SK-2); raises ``BadSetup``."""
    elements = tuple(str(e) for e in setup.deck.attrs.get("elements", ()))
    if not elements:
        raise BadSetup("the Shrine deck data names no elements")
    given = setup.deck.attrs.get("element_names", {})
    element_names = {e: str(given.get(e, e.title())) for e in elements}
    in_play, out = sort_sets(setup)
    for serial in in_play:
        face = setup.cards[serial]
        if face.element not in elements or not isinstance(face.number, int):
            raise BadSetup(f"card {serial!r} ({face.id}) has no element and face value")
    if len(in_play) < len(setup.players):
        raise BadSetup(f"the deck holds {len(in_play)} cards; {len(setup.players)} "
                       "players need at least one each to decide who starts")
    n = len(setup.players)
    start_oinks = int(setup.options.get("start_oinks", 10))
    return ShrineState(
        players=tuple(setup.players), cards=setup.cards, elements=elements,
        element_names=element_names,
        public_oinks=setup.options.get("oinks_visibility", "hidden") == "public",
        start_oinks=start_oinks, phase="start", deck=frozenset(in_play),
        out=tuple(sorted(out)), shrines=((),) * n, lot=(), draws={},
        contenders=tuple(range(1, n + 1)), draw_round=1, starter=0, cycle=0, cycle_first=0,
        lot_size=0, zero_bids=0, standing=0, high=0, turn=0, passed=frozenset(), bids=(),
        oinks=((start_oinks,) * len(elements),) * n, pool=(0,) * len(elements), tally={},
        last={},
        ruling="Everyone draws a card from the shuffled deck and shows it in their place: "
               "the highest face value starts (SK-2).",
    )


def place_of(state: ShrineState, serial: str) -> str:
    """Where ``serial`` is now (C-1)."""
    if serial in state.deck:
        return DECK
    if serial in state.lot:
        return LOT
    for s, c in state.draws.items():
        if c == serial:
            return f"seat:{s}"
    for s in state.seats:
        if serial in state.shrines[s - 1]:
            return shrine_of(s)
    return OUT


def all_places(state: ShrineState) -> dict[str, str]:
    where: dict[str, str] = dict.fromkeys(state.deck, DECK)
    where.update(dict.fromkeys(state.out, OUT))
    where.update(dict.fromkeys(state.lot, LOT))
    for s, serial in state.draws.items():
        where[serial] = f"seat:{s}"
    for s in state.seats:
        where.update(dict.fromkeys(state.shrines[s - 1], shrine_of(s)))
    return where


def number(state: ShrineState, serial: str) -> int:
    return int(state.cards[serial].number or 0)


def card_name(state: ShrineState, serial: str) -> str:
    return state.cards[serial].name


def card_json(state: ShrineState, serial: str) -> JSONDict:
    f = state.cards[serial]
    return {"serial": serial, "face": f.id, "name": f.name, "element": f.element,
            "number": f.number}


def lot_elements(state: ShrineState) -> list[str]:
    present = {state.cards[c].element for c in state.lot}
    return [e for e in state.elements if e in present]


def lot_text(state: ShrineState, lot: Iterable[str] | None = None) -> str:
    cards = [card_name(state, c) for c in (state.lot if lot is None else lot)]
    if len(cards) == 1:
        return cards[0]
    return "the set " + " + ".join(cards)


def element_text(state: ShrineState, elements: Iterable[str]) -> str:
    words = [state.element_names[e] for e in elements]
    return " or ".join(words) if words else "no"


def seat_names(state: ShrineState, seats: Iterable[int]) -> str:
    return names(state.name(s) for s in seats)


def clockwise(state: ShrineState, seat: int) -> int:
    return seat % len(state.players) + 1


def next_active(state: ShrineState, seat: int) -> int:
    s = clockwise(state, seat)
    while s in state.passed:
        s = clockwise(state, s)
    return s


def count_up(tally: Mapping[str, int], key: str, by: int = 1) -> dict[str, int]:
    return {**tally, key: tally.get(key, 0) + by}


def above_bottom(state: ShrineState) -> frozenset[str]:
    """Deck cards that lie above the start draws put at the bottom (SK-2 rev. 2)."""
    return state.deck - state.bottom


def next_lot_size(state: ShrineState) -> int:
    """Cards in the next lot if this auction ended now: one plus one for every zero bid
    (SK-8), but no more than the deck still holds (0: this is the last lot, SK-9)."""
    return min(1 + state.zero_bids, len(state.deck))
