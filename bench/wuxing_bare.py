"""A bare WuXing referee, the yardstick of ``companion bench engine``.

The same rules as ``companion.games.wuxing`` (WX-1..WX-12 of RULINGS.md and the rules page:
Stars stay in a won pot, WX-9; won cards go under the unseen ones, WX-8), written as plainly
and fast as Python allows, from the rulings and not from the engine: cards, places, seats and
phases are small ints, a state is a handful of lists copied in one go, an event is a tuple
``(code, seat, card)``. It checks what a referee must (whose card the table waits for, and
that the card can be the top of that seat's deck or of the Universe deck, C-1 and WX-8) and
nothing else: no event shapes, no words, no stand-ins, no overrides, no record of plays.

``bench engine`` replays the same recorded random games through both in one process and
prints the engine's rate as a share of this one's; ``tests/bench/test_wuxing_bare.py`` shows
both give the same counts and winners, so the comparison is honest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# Places of a card (C-1). A seat's deck and the card it has shown: base + seat.
UNSEEN, UNIVERSE, POT, VOID, OUT = 0, 1, 2, 3, 4
DECK, SHOWN = 10, 20

# Card types: the five elements in the generating order of WX-1 (Wood -> Fire -> Earth ->
# Metal -> Water -> Wood), then the power cards.
ELEMENTS = ("wood", "fire", "earth", "metal", "water")
DRAGON, STAR = 5, 6

# Phases: what the table waits for.
START, DRAW, FEED, PURGE, REVEAL, DUEL, OVER = range(7)

# Event codes: rock-paper-scissors won by ``seat`` (WX-12); ``card`` shown in ``seat``'s
# zone; ``card`` laid in the Universe zone (WX-4).
RPS, SEAT, UNI = 0, 1, 2

Move = tuple[int, int, int]


def _absorbs(x: int, y: int) -> bool:
    """WX-1: X absorbs Y iff Y generates X."""
    return (x - y) % 5 == 1


def _destroys(x: int, y: int) -> bool:
    """WX-1: X destroys Y iff X overcomes Y (Wood -> Earth -> Water -> Fire -> Metal)."""
    return (y - x) % 5 == 2


def _beats(x: int, y: int) -> bool:
    """WX-11, player against player: a Star beats all but a Star, a Dragon any element, an
    element one it absorbs or destroys."""
    if x >= DRAGON or y >= DRAGON:
        return x > y
    return x != y and (_absorbs(x, y) or _destroys(x, y))


BEATS = tuple(tuple(_beats(x, y) for y in range(7)) for x in range(7))


class Refused(ValueError):
    """An event the table does not wait for, or a card that cannot be where it comes from."""


class Bare:
    """One WuXing table. Seat-indexed lists have a dummy at index 0 (seats are 1-based)."""

    __slots__ = ("a", "adjudications", "awaiting", "b", "decks", "duel", "finished", "first",
                 "first_seat", "n", "nout", "out", "phase", "places", "pot", "recycle", "rps",
                 "shown", "taken", "turn", "types", "ucard", "uleft", "unseen", "void",
                 "winners")

    n: int
    types: list[int]
    recycle: bool
    rps: bool
    places: list[int]
    unseen: list[int]
    decks: list[int]
    out: list[bool]
    nout: int
    uleft: int
    void: int
    pot: list[int]
    ucard: int
    phase: int
    turn: int
    a: int
    b: int
    awaiting: int  # a bit per seat
    first: int
    first_seat: int
    shown: set[int]
    duel: list[int]
    taken: list[tuple[int, int]]
    winners: tuple[int, ...]
    finished: bool
    adjudications: int

    @classmethod
    def deal(cls, types: Sequence[int], places: Sequence[int], players: int, each: int,
             end: str, start: str) -> Bare:
        """The table after the deal (WX-2): ``places`` of every card (``UNSEEN`` for the
        dealt and set-aside player cards), ``each`` cards per seat."""
        if not 2 <= players <= 8 or each < 1:
            raise ValueError(f"WuXing takes 2-8 players with cards each, got {players}, {each}")
        b = object.__new__(cls)
        b.n = players
        b.types = list(types)
        b.recycle = end == "recycle"
        b.rps = start == "rps"
        b.places = list(places)
        b.unseen = [-1] + [each] * players
        b.decks = [-1] + [each] * players
        b.out = [True] + [False] * players
        b.nout = 0
        b.uleft = sum(1 for p in places if p == UNIVERSE)
        b.void = 0
        b.pot = []
        b.ucard = -1
        b.phase = START
        b.turn = b.a = b.b = 1
        b.awaiting = 0
        b.first = b.first_seat = -1
        b.shown = set()
        b.duel = []
        b.taken = []
        b.winners = ()
        b.finished = False
        b.adjudications = 0
        return b

    def copy(self) -> Bare:
        """A copy to play on (what a search makes many of)."""
        c = object.__new__(Bare)
        c.n, c.types, c.recycle, c.rps = self.n, self.types, self.recycle, self.rps
        c.places = self.places[:]
        c.unseen = self.unseen[:]
        c.decks = self.decks[:]
        c.out = self.out[:]
        c.nout, c.uleft, c.void = self.nout, self.uleft, self.void
        c.pot = self.pot[:]
        c.ucard, c.phase, c.turn, c.a, c.b = self.ucard, self.phase, self.turn, self.a, self.b
        c.awaiting, c.first, c.first_seat = self.awaiting, self.first, self.first_seat
        c.shown = set(self.shown) if self.shown else self.shown
        c.duel = self.duel[:]
        c.taken = self.taken[:]
        c.winners, c.finished = self.winners, self.finished
        c.adjudications = self.adjudications
        return c

    # -- events ----------------------------------------------------------------------------

    def apply(self, code: int, seat: int, card: int) -> None:
        """Play one event; raises ``Refused`` (then the table may be half changed: the
        bench feeds legal games only)."""
        phase = self.phase
        if code == SEAT:
            if phase in (REVEAL, FEED, PURGE):
                self._top(seat, card, phase)
            elif phase == DUEL:
                self._take(seat, card)
            elif phase == START and not self.rps:
                self._pull(seat, card)
            else:
                raise Refused(f"no card is awaited in seat {seat} now")
        elif code == UNI:
            if phase != DRAW or self.places[card] != UNIVERSE:
                raise Refused("no Universe card is awaited now, or not this one")
            self._universe(card)
        elif code == RPS:
            if phase != START or not self.rps or not 1 <= seat <= self.n:
                raise Refused("no rock-paper-scissors now")
            self.turn = seat
            self._pair(True)
        else:
            raise Refused(f"no event code {code}")

    def _top(self, seat: int, card: int, phase: int) -> None:
        """A seat's top card (WX-5, WX-6, WX-7): unseen while any is, else a won one (WX-8)."""
        if not self.awaiting >> seat & 1:
            raise Refused(f"seat {seat} owes no card now")
        places = self.places
        if self.unseen[seat]:
            if places[card] != UNSEEN:
                raise Refused(f"card {card} is not the top of seat {seat}'s deck")
            self.unseen[seat] -= 1
        elif places[card] != DECK + seat:
            raise Refused(f"card {card} is not in seat {seat}'s deck")
        self.decks[seat] -= 1
        self.awaiting ^= 1 << seat
        if phase == REVEAL:
            if self.awaiting:
                places[card] = SHOWN + seat
                self.first, self.first_seat = card, seat
                return
            first = self.first
            if self.first_seat == self.a:
                self._challenge(first, card)
            else:
                self._challenge(card, first)
            self._next(True, self._check_out())
            return
        if phase == FEED:  # WX-5
            places[card] = POT
            self.pot.append(card)
        else:  # WX-6
            places[card] = VOID
            self.void += 1
        if not self.awaiting:
            self._next(False, self._check_out())

    def _universe(self, card: int) -> None:
        """WX-4 an element on the pot; WX-5 a Dragon to the Void; WX-6 a Star sweeps."""
        t = self.types[card]
        self.uleft -= 1
        places = self.places
        if t < DRAGON:
            places[card] = POT
            self.pot.append(card)
            self.ucard = card
            self.phase = REVEAL
            self.awaiting = 1 << self.a | 1 << self.b
            return
        if t == DRAGON:
            places[card] = VOID
            self.void += 1
            self.phase = FEED
        else:
            for c in self.pot:
                places[c] = VOID
            self.void += len(self.pot)
            self.pot = [card]
            places[card] = POT
            self.phase = PURGE
        mask = 0
        out = self.out
        for s in range(1, self.n + 1):
            if not out[s]:
                mask |= 1 << s
        self.awaiting = mask

    def _challenge(self, ca: int, cb: int) -> None:
        """WX-7 cases 1-8 in order; won cards to the winner's deck (WX-8); a Star in a pot is
        never won (WX-9)."""
        types, places, pot = self.types, self.places, self.pot
        ka, kb = types[ca], types[cb]
        self.adjudications += 1
        self.ucard, u = -1, self.ucard
        if ka == STAR or kb == STAR:
            if ka == kb:  # 7.1
                places[ca] = places[cb] = POT
                pot += (ca, cb)
                return
            star, other = (ca, cb) if ka == STAR else (cb, ca)  # 7.2
            for c in pot:
                places[c] = VOID
            places[other] = VOID
            self.void += len(pot) + 1
            places[star] = POT
            self.pot = [star]
            return
        if ka == DRAGON or kb == DRAGON:
            if ka == kb:  # 7.3
                places[ca] = places[cb] = POT
                pot += (ca, cb)
                return
            win, dragon, other = (self.a, ca, cb) if ka == DRAGON else (self.b, cb, ca)  # 7.4
            places[dragon] = VOID
            self.void += 1
            self._win(win, other)
            return
        eu = types[u]
        if ka == kb:  # 7.5
            if _destroys(eu, ka):
                places[ca] = places[cb] = VOID
                self.void += 2
            else:
                places[ca] = places[cb] = POT
                pot += (ca, cb)
            return
        if _absorbs(ka, eu) or _absorbs(kb, eu):  # 7.6
            win = self.a if _absorbs(ka, eu) else self.b
            places[ca] = DECK + win
            self.decks[win] += 1
            self._win(win, cb)
            return
        if _destroys(ka, eu) or _destroys(kb, eu):  # 7.7
            win, keep, lost = (self.a, ca, cb) if _destroys(ka, eu) else (self.b, cb, ca)
            for c in pot:
                places[c] = VOID
            self.void += len(pot) + 1
            self.pot = []
            places[lost] = VOID
            places[keep] = DECK + win
            self.decks[win] += 1
            return
        for c, k in ((ca, ka), (cb, kb)):  # 7.8
            if k == eu or _absorbs(eu, k):
                places[c] = POT
                pot.append(c)
            else:
                places[c] = VOID
                self.void += 1

    def _win(self, seat: int, card: int) -> None:
        """``card`` and the pot but its Stars to ``seat``'s deck (WX-8, WX-9)."""
        places, types = self.places, self.types
        deck = DECK + seat
        places[card] = deck
        stars = []
        won = 1
        for c in self.pot:
            if types[c] == STAR:
                stars.append(c)
            else:
                places[c] = deck
                won += 1
        self.decks[seat] += won
        self.pot = stars

    def _check_out(self) -> list[int]:
        """WX-3: seats with an empty deck are out; the ones out now."""
        decks = self.decks
        if 0 not in decks:
            return []
        out = self.out
        gone = [s for s in range(1, self.n + 1) if decks[s] == 0 and not out[s]]
        for s in gone:
            out[s] = True
        self.nout += len(gone)
        return gone

    def _next(self, new: bool, gone: list[int]) -> None:
        """The next challenge (WX-3), the end (WX-10) or the sudden death (WX-11)."""
        if new:
            self.turn = self.b
        still = self.n - self.nout
        if still == 0:  # WX-11 (a)
            self._sudden_death(gone)
            return
        if still == 1:
            self._finish([s for s in range(1, self.n + 1) if not self.out[s]])
            return
        if self.uleft == 0:
            if self.recycle and self.void > 0:
                self._turn_void()
            else:  # WX-10 (a)
                decks = self.decks
                best = max(decks)
                tied = [s for s in range(1, self.n + 1) if decks[s] == best]
                if len(tied) == 1:
                    self._finish(tied)
                else:
                    self._sudden_death(tied)  # WX-11 (b)
                return
        self._pair(new)

    def _pair(self, new: bool) -> None:
        """WX-3: the first challenger (or the next seat still in) against the next."""
        a = self.turn
        if self.out[a]:
            a = self._after(a)
        self.turn = self.a = a
        self.b = self._after(a)
        self.phase = DRAW
        self.awaiting = 0

    def _after(self, seat: int) -> int:
        n, out = self.n, self.out
        s = seat
        for _ in range(n):
            s = s % n + 1
            if not out[s]:
                return s
        return seat

    def _turn_void(self) -> None:
        """WX-10 (b): the Void turned over is the new Universe deck."""
        places = self.places
        for c, p in enumerate(places):
            if p == VOID:
                places[c] = UNIVERSE
        self.uleft += self.void
        self.void = 0

    def _sudden_death(self, tied: list[int]) -> None:
        """WX-11: the tied take in turn order from the seat whose turn comes next."""
        n, turn = self.n, self.turn
        self.duel = sorted(tied, key=lambda s: (s - turn) % n)
        self.taken = []
        self.phase = DUEL
        self._call()

    def _call(self) -> None:
        if self.uleft == 0:
            if self.void == 0:
                self._finish(self.duel)
                return
            self._turn_void()
        self.awaiting = 1 << self.duel[len(self.taken)]

    def _take(self, seat: int, card: int) -> None:
        """WX-11: a tied player's Universe card; a full round is compared."""
        if not self.awaiting >> seat & 1 or self.places[card] != UNIVERSE:
            raise Refused(f"seat {seat} does not take card {card} now")
        self.uleft -= 1
        self.places[card] = SHOWN + seat
        taken = self.taken
        taken.append((seat, card))
        if len(taken) < len(self.duel):
            self._call()
            return
        types, places = self.types, self.places
        beaten = [s for s, c in taken if any(BEATS[types[o]][types[c]] for _, o in taken)]
        if len(beaten) == len(taken):  # a cycle (or all equal): nobody drops out
            beaten = []
        for _, c in taken:
            places[c] = VOID
        self.void += len(taken)
        self.adjudications += 1
        self.taken = []
        self.duel = [s for s in self.duel if s not in beaten]
        if len(self.duel) == 1:
            self._finish(self.duel)
        else:
            self._call()

    def _pull(self, seat: int, card: int) -> None:
        """WX-12: cards pulled before dealing; the first Dragon's seat starts."""
        if not 1 <= seat <= self.n or self.places[card] != UNSEEN or card in self.shown:
            raise Refused(f"card {card} cannot be pulled now")
        if self.types[card] != DRAGON:
            self.shown.add(card)
            return
        self.shown = set()
        self.turn = seat
        self._pair(True)

    def _finish(self, winners: list[int]) -> None:
        self.phase = OVER
        self.finished = True
        self.winners = tuple(sorted(winners))
        self.awaiting = 0


# -- from the engine's table and events (set-up, not timed) ----------------------------------


def table_of(state: Any) -> tuple[Bare, dict[str, int]]:
    """The bare table of a ``WuXingState`` before its first event, and each serial's card
    number."""
    t = state.table
    serials = sorted(state.places)
    index = {s: i for i, s in enumerate(serials)}
    types = [ELEMENTS.index(t.element[s]) if t.kind[s] == "element"
             else DRAGON if t.kind[s] == "dragon" else STAR for s in serials]
    code = {"unknown": UNSEEN, "universe": UNIVERSE, "out": OUT}
    places = [code[state.places[s]] for s in serials]
    bare = Bare.deal(types, places, len(t.names), state.decks[0], t.end, t.start)
    return bare, index


def events_of(events: Sequence[Mapping[str, Any]], index: Mapping[str, int]) -> list[Move]:
    """The bare events of a recorded game (rps, and scans in a seat or the Universe zone:
    what a random game holds)."""
    out: list[Move] = []
    for e in events:
        if e["type"] == "rps":
            out.append((RPS, int(e["winner"]), -1))
        elif e["zone"] == "universe":
            out.append((UNI, 0, index[e["card"]]))
        else:
            out.append((SEAT, int(e["zone"][5:]), index[e["card"]]))
    return out
