"""The WuXing table as data: places, phases, the frozen state and its one-event work copy.

Places (C-1): ``unknown`` (dealt or set aside, not seen since: the companion knows only how
many of them each seat holds), ``deck:<n>`` (known to be in seat n's deck), ``universe``,
``pot``, ``table:<n>`` (shown by seat n, not adjudicated yet), ``void``, ``out`` (printed
sets the table does not play with).

Stand-ins (C-1, issue 18): a card entered by its face ("wood", one tap) is recorded under one
copy's serial, but only as *a* Wood: ``stand_ins`` maps such a serial to the pools of copies
it may trade places with (``standins``), until a scan of a serial settles which is which.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.cards import CardFace
from companion.engine import POT, UNKNOWN, VOID, Movement, Play, Said
from companion.errors import BadSetup
from companion.words import names as listing

UNIVERSE = "universe"
ELEMENT, DRAGON, STAR = "element", "dragon", "star"

# Phases: what the table waits for.
START = "start"  # who starts (WX-12)
DRAW = "universe"  # the Universe card (WX-4)
FEED = "dragon"  # contributions to the pot after a Universe Dragon (WX-5)
PURGE = "star"  # contributions to the Void after a Universe Star (WX-6)
REVEAL = "reveal"  # the two challengers' cards (WX-7)
DUEL = "tiebreak"  # sudden death from the Universe deck (WX-11)
OVER = "over"


_set = object.__setattr__


def table_of(seat: int) -> str:
    """Place of a card seat ``seat`` has shown that is not adjudicated yet."""
    return f"table:{seat}"


@dataclass(frozen=True, eq=False)
class Table:
    """What never changes during a match: names, faces, element relations, options."""

    names: tuple[str, ...]
    faces: Mapping[str, CardFace]
    kind: Mapping[str, str]  # serial -> element | dragon | star
    element: Mapping[str, str]  # serial -> element ("" for power cards)
    label: Mapping[str, str]  # serial -> what players call it: "Wood", "Infinite Dragon"
    player_cards: tuple[str, ...]  # player-deck cards in play (WX-2)
    absorbs: frozenset[tuple[str, str]]  # (x, y): x absorbs y (WX-1)
    destroys: frozenset[tuple[str, str]]  # (x, y): x destroys y (WX-1)
    end: str
    start: str
    code: str
    title: str
    zone_seats: Mapping[str, int]  # "seat:2" -> 2
    by_face: Mapping[str, tuple[str, ...]]  # face id -> its serials at the table, sorted
    deck_place: tuple[str, ...]  # [seat] -> "deck:<seat>" (index 0 unused)
    table_place: tuple[str, ...]  # [seat] -> "table:<seat>"

    @property
    def seats(self) -> range:
        return range(1, len(self.names) + 1)

    def name(self, seat: int) -> str:
        return self.names[seat - 1]

    def names_of(self, seats: tuple[int, ...] | list[int]) -> str:
        """The players' names as a sentence lists them: "Ana, Bo and Cy"."""
        return listing(self.names[s - 1] for s in seats)


@dataclass(frozen=True)
class WuXingState:
    """A WuXing table. Per-seat tuples are indexed by ``seat - 1``.

    ``decks[i]`` = ``unseen[i]`` + cards known in ``deck:<seat>`` (C-2: counts, never order).
    Cards in ``unknown`` = sum(``unseen``) + ``set_aside``. ``last_play`` is what the latest
    event did, as data (issue 11); ``ruling`` the referee's sentence for it, ids included,
    and ``last_adjudication`` that of the latest adjudication: both are made from ``said``
    and ``adjudged`` only when read (C-8 words off the adjudication path).
    """

    table: Table = field(compare=False, repr=False)
    phase: str
    places: Mapping[str, str]
    unseen: tuple[int, ...]
    decks: tuple[int, ...]
    set_aside: int
    universe_left: int
    void: int
    pot: tuple[str, ...]  # bottom to top
    universe_card: str | None
    turn: int  # the seat whose challenge is next or running (first challenger)
    challenge: tuple[int, ...]  # the two seats of the running challenge, or ()
    revealed: tuple[tuple[int, str], ...]  # (seat, serial) shown this challenge / duel round
    awaiting: tuple[int, ...]  # seats whose card the table waits for
    out: frozenset[int]
    shown: frozenset[str]  # WX-12 dragon start: cards pulled so far
    duel: tuple[int, ...]  # WX-11: seats still in the sudden death, in taking order
    duel_cards: tuple[tuple[int, str], ...]  # WX-11: the cards of this round on the table
    adjudications: int
    challenges: int
    dragons: int
    stars: int
    recycles: int
    adjudged: Said | str = field(compare=False, repr=False)
    said: Said | str = field(compare=False, repr=False)
    finished: bool
    winners: tuple[int, ...]
    last_play: Play | None = None
    tiebreaks: int = 0
    # serial -> pools it may trade places with (``standins``); never mutated, replaced
    stand_ins: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    taps: int = 0  # stand-in groups made so far: names the next pool (replay is exact)
    pinned: frozenset[str] = frozenset()  # stand-ins scanned since: they stay where they are
    # (Dragon/Star round, seat): a card nobody had seen, put straight into the pot or the
    # Void, taken as that owing seat's (``camera``); the seat may still show its own.
    guesses: tuple[tuple[int, int], ...] = ()

    def __copy__(self) -> WuXingState:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> WuXingState:
        """The state itself: it never changes, so a copy is the reference (a search copies
        states by the thousand; OpenSpiel's ``clone()`` deep-copies what its state holds)."""
        return self

    @property
    def ruling(self) -> str:
        """The referee's sentences for the latest event, ruling ids included."""
        return str(self.said)

    @property
    def last_adjudication(self) -> str:
        """The sentence of the latest adjudication ("" before the first)."""
        return str(self.adjudged)


def successor(d: dict[str, Any]) -> WuXingState:
    """The state whose fields are ``d``: a copy of a valid state's ``__dict__`` with the
    event's changes, ``said`` and ``last_play`` set. For the plain events (a Universe card,
    a first card shown) that need no ``Work`` copy: one dict copy instead of two."""
    new = object.__new__(WuXingState)
    _set(new, "__dict__", d)
    return new


class Work:
    """A mutable copy of a state for one ``apply``; ``freeze`` builds the next state.

    It carries every field of the state under the same name (``t`` is ``table``), so both
    ways are one dict copy: this runs on every event (``companion bench engine``).
    ``plays`` collects what the event did (the reveal, then its adjudication, a recycle);
    ``notes`` the referee's sentences (texts or ``Said`` parts, made when read).
    """

    t: Table
    phase: str
    places: dict[str, str]
    unseen: list[int]
    decks: list[int]
    set_aside: int
    universe_left: int
    void: int
    pot: tuple[str, ...]
    universe_card: str | None
    turn: int
    challenge: tuple[int, ...]
    revealed: tuple[tuple[int, str], ...]
    awaiting: tuple[int, ...]
    out: frozenset[int]
    shown: frozenset[str]
    duel: tuple[int, ...]
    duel_cards: tuple[tuple[int, str], ...]
    adjudications: int
    challenges: int
    dragons: int
    stars: int
    recycles: int
    tiebreaks: int
    stand_ins: Mapping[str, tuple[str, ...]]
    taps: int
    pinned: frozenset[str]
    guesses: tuple[tuple[int, int], ...]
    adjudged: Said | str
    finished: bool
    winners: tuple[int, ...]
    notes: Said
    plays: list[Play]

    def __init__(self, s: WuXingState) -> None:
        d = s.__dict__.copy()
        d["t"] = s.table
        d["places"] = dict(s.places)
        d["unseen"] = list(s.unseen)
        d["decks"] = list(s.decks)
        d["notes"] = Said()
        d["plays"] = []
        _set(self, "__dict__", d)

    def freeze(self, play: Play | None) -> WuXingState:
        # Built without the generated ``__init__``: every field is set here from a valid
        # state, and this is the hottest line of the engine (``bench engine``).
        # The work's own dict becomes the state's: the work is done with after this.
        d = self.__dict__
        said = d.pop("notes")
        del d["t"], d["plays"]
        d["unseen"] = tuple(d["unseen"])
        d["decks"] = tuple(d["decks"])
        d["said"] = said
        d["last_play"] = play
        new = object.__new__(WuXingState)
        _set(new, "__dict__", d)
        return new

    # Card movements keep every count in step with ``places`` (C-1, C-2).

    def take_from_deck(self, seat: int, serial: str, dest: str) -> None:
        """Seat ``seat`` showed ``serial`` from its deck (already validated)."""
        if self.places[serial] == UNKNOWN:
            self.unseen[seat - 1] -= 1
        self.decks[seat - 1] -= 1
        self.places[serial] = dest
        if dest == VOID:
            self.void += 1

    def move(self, movements: tuple[Movement, ...]) -> None:
        """Carry out an adjudication's movements (``carry``)."""
        self.pot, self.void, self.universe_left = carry(
            self.places, self.decks, self.pot, self.void, self.universe_left, movements)

    def active(self) -> list[int]:
        if not self.out:
            return list(range(1, len(self.decks) + 1))
        return [s for s in range(1, len(self.decks) + 1) if s not in self.out]

    def next_active(self, seat: int) -> int:
        n = len(self.t.names)
        s = seat
        for _ in range(n):
            s = s % n + 1
            if s not in self.out:
                return s
        return seat

    def check_out(self) -> list[int]:
        """Seats whose deck is empty are out (WX-3); returns the seats newly out."""
        if 0 not in self.decks:
            return []
        gone = [s for s, n in enumerate(self.decks, 1) if n == 0 and s not in self.out]
        if gone:
            self.out = self.out | frozenset(gone)
            many = len(gone) > 1
            self.notes.append(f"{self.t.names_of(gone)} {'have' if many else 'has'} no cards "
                              f"left and {'are' if many else 'is'} out of the game (WX-3).")
        return gone


# "deck:<n>" -> the index of seat n's count, for every seat a WuXing table can have (2-8
# players, ``rules.start`` refuses more): a lookup instead of parsing the place per card.
_DECK_INDEX = {f"deck:{n}": n - 1 for n in range(1, 9)}


def carry(places: dict[str, str], decks: list[int], pot: tuple[str, ...], void: int,
          left: int, movements: tuple[Movement, ...]) -> tuple[tuple[str, ...], int, int]:
    """Carry out an adjudication's movements (every serial named, none from a deck's unseen
    part) on ``places`` and ``decks`` in place: each count follows its card (C-1, C-2).
    Returns the new pot, Void count and Universe deck count. Raises ``TypeError`` for an
    unnamed card (a bug of the adjudication, never input)."""
    pot_l = list(pot)
    for m in movements:
        serial = m.serial
        if serial is None:  # adjudications move face-up cards only; a bug, not input
            raise TypeError(f"an adjudication moved an unnamed card: {m!r}")
        src = places[serial]
        if src == POT:
            pot_l.remove(serial)
        elif src == VOID:
            void -= 1
        elif src == UNIVERSE:
            left -= 1
        else:  # a deck's count follows its card; a table place has no count
            i = _DECK_INDEX.get(src)
            if i is not None:
                decks[i] -= 1
        dest = m.target
        if dest == POT:
            pot_l.append(serial)
        elif dest == VOID:
            void += 1
        elif dest == UNIVERSE:
            left += 1
        else:
            i = _DECK_INDEX.get(dest)
            if i is not None:
                decks[i] += 1
        places[serial] = dest
    return tuple(pot_l), void, left


def relations(attrs: Mapping[str, Any]) -> tuple[frozenset[tuple[str, str]],
                                                 frozenset[tuple[str, str]]]:
    """WX-1 from the deck file (C-5): X absorbs Y iff Y generates X; X destroys Y iff X
    overcomes Y. Raises ``BadSetup`` if the file's cycles are missing."""
    generates = attrs.get("generates")
    overcomes = attrs.get("overcomes")
    if not isinstance(generates, dict) or not isinstance(overcomes, dict):
        raise BadSetup("the WuXing deck file must give the 'generates' and 'overcomes' cycles",
                       rule="WX-1")
    absorbs = frozenset((str(x), str(y)) for y, x in generates.items())
    destroys = frozenset((str(x), str(y)) for x, y in overcomes.items())
    return absorbs, destroys
