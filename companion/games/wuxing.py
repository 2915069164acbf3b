"""WuXing (seed 000; WX-1..WX-12, C-1, C-2, C-6): the companion referees every challenge.

Two players challenge the Universe card each turn; the footer of each card says whether it
wins the pot, joins it or goes to the Void. The camera (or a phone, or the referee by hand)
reports every card that leaves a deck; the companion adjudicates and explains.

Events (JSON objects):

``{"type": "rps", "winner": SEAT}``
    Start option ``rps`` (WX-12): the winner of rock-paper-scissors starts.
``{"type": "scan", "card": SERIAL_OR_PAYLOAD, "zone": ZONE, "seat"?: SEAT, "override"?: true}``
    A card shown in a zone: ``"universe"`` (the Universe card laid on the pot, WX-4) or
    ``"seat:<n>"`` (seat n's card: a reveal in a challenge WX-7, a contribution asked by a
    Universe Dragon WX-5 or Star WX-6, a sudden-death reveal WX-11, or, with start option
    ``dragon``, a card pulled from the player deck before dealing WX-12). ``card`` is the
    serial ``RUN-COPY``, the full QR payload, or a face id entered by hand (``"wood"``,
    ``"universe-water"``: it stands for a copy the zone can hold, known copies of the
    seat's deck first). ``seat``, when present, must be the seat of the zone.
    ``override`` (referee only) forces a scan that C-1 refuses; it is logged in the ruling
    and the companion takes it that the card was where the scan says.

View keys (``view``): ``game``, ``phase``, ``players`` (seat, name, cards, out), ``decks``
(seat -> cards in deck), ``pot`` (face ids, bottom to top), ``pot_size``,
``universe_card`` (face id or null), ``universe_left``, ``void`` (count), ``challenge``
(the two seats, or []), ``revealed`` (seat -> face id shown this challenge), ``awaiting``
(seats whose card is awaited), ``turn``, ``out`` (seats out), ``winner`` (one seat or
null), ``winners``, ``finished``, ``prompt``, ``ruling``, ``last_adjudication``,
``adjudications``, ``challenges``, ``options``; in the tie-breaker ``duel`` (seats
still in the sudden death) and ``duel_table`` (seat -> face ids revealed in this duel,
draws included); with a seat also ``you`` and
``your_known_cards`` (faces the companion knows are in your deck). ``referee_view`` adds
``places`` (serial -> place), ``unseen`` (seat -> cards not yet seen), ``set_aside`` and
``known`` (seat -> serials known in that deck), ``pot_cards`` (serials). ``stats``:
``adjudications`` (challenges and sudden-death duels decided), ``challenges``, ``dragons``
and ``stars`` (Universe power cards drawn), ``recycles``, ``tiebreaks``.

Places (C-1): ``unknown`` (dealt or set aside, not seen since: the companion knows only
how many of them each seat holds), ``deck:<n>`` (known to be in seat n's deck), ``universe``,
``pot``, ``table:<n>`` (revealed by seat n, not yet adjudicated), ``void``, ``out`` (printed
sets the table does not play with).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, NoReturn

from companion import codec
from companion.cards import CardFace
from companion.engine import (
    OUT,
    POT,
    UNKNOWN,
    VOID,
    Event,
    JSONDict,
    Option,
    Rules,
    Setup,
    deck_of,
    event_type,
    require,
    seat_zone,
)
from companion.errors import (
    BadSetup,
    CardNotAvailable,
    CompanionError,
    ForeignPayload,
    GameOver,
    IllegalPlay,
    MalformedEvent,
    OutOfTurn,
    UnknownCard,
)

UNIVERSE = "universe"
ELEMENT, DRAGON, STAR = "element", "dragon", "star"

# Phases: what the table waits for.
START = "start"  # who starts (WX-12)
DRAW = "universe"  # the Universe card (WX-4)
FEED = "dragon"  # contributions to the pot after a Universe Dragon (WX-5)
PURGE = "star"  # contributions to the Void after a Universe Star (WX-6)
REVEAL = "reveal"  # the two challengers' cards (WX-7)
DUEL = "tiebreak"  # sudden death (WX-11)
OVER = "over"


def table_of(seat: int) -> str:
    """Place of a card seat ``seat`` has revealed that is not adjudicated yet."""
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
        return _listing([self.names[s - 1] for s in seats])


@dataclass(frozen=True)
class WuXingState:
    """A WuXing table. Per-seat tuples are indexed by ``seat - 1``.

    ``decks[i]`` = ``unseen[i]`` + cards known in ``deck:<seat>`` (C-2: counts, never order).
    Cards in ``unknown`` = sum(``unseen``) + ``set_aside``.
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
    challenge: tuple[int, ...]  # the two seats of the running challenge or duel, or ()
    revealed: tuple[tuple[int, str], ...]  # (seat, serial) shown this challenge / duel round
    awaiting: tuple[int, ...]  # seats whose card the table waits for
    out: frozenset[int]
    shown: frozenset[str]  # WX-12 dragon start: cards pulled so far
    duel: tuple[int, ...]  # WX-11: seats still in the sudden death, in play order
    duel_cards: tuple[tuple[int, str], ...]  # WX-11: every card on the table in this duel
    adjudications: int
    challenges: int
    dragons: int
    stars: int
    recycles: int
    last_adjudication: str
    ruling: str
    finished: bool
    winners: tuple[int, ...]


class _Work:
    """A mutable copy of a state for one ``apply``; ``freeze`` builds the next state."""

    __slots__ = (
        "adjudications", "awaiting", "challenge", "challenges", "decks", "dragons", "duel",
        "duel_cards", "finished", "last_adjudication", "notes", "out", "phase", "places",
        "pot", "recycles", "revealed", "set_aside", "shown", "stars", "t", "turn",
        "universe_card", "universe_left", "unseen", "void", "winners",
    )

    def __init__(self, s: WuXingState) -> None:
        self.t = s.table
        self.phase = s.phase
        self.places = dict(s.places)
        self.unseen = list(s.unseen)
        self.decks = list(s.decks)
        self.set_aside = s.set_aside
        self.universe_left = s.universe_left
        self.void = s.void
        self.pot = s.pot
        self.universe_card = s.universe_card
        self.turn = s.turn
        self.challenge = s.challenge
        self.revealed = s.revealed
        self.awaiting = s.awaiting
        self.out = s.out
        self.shown = s.shown
        self.duel = s.duel
        self.duel_cards = s.duel_cards
        self.adjudications = s.adjudications
        self.challenges = s.challenges
        self.dragons = s.dragons
        self.stars = s.stars
        self.recycles = s.recycles
        self.last_adjudication = s.last_adjudication
        self.finished = s.finished
        self.winners = s.winners
        self.notes: list[str] = []

    def freeze(self) -> WuXingState:
        # Built without the generated ``__init__``: every field is set here from a valid
        # state, and this is the hottest line of the engine (``bench engine``).
        new = object.__new__(WuXingState)
        new.__dict__.update(
            table=self.t, phase=self.phase, places=self.places, unseen=tuple(self.unseen),
            decks=tuple(self.decks), set_aside=self.set_aside,
            universe_left=self.universe_left, void=self.void, pot=self.pot,
            universe_card=self.universe_card, turn=self.turn, challenge=self.challenge,
            revealed=self.revealed, awaiting=self.awaiting, out=self.out, shown=self.shown,
            duel=self.duel, duel_cards=self.duel_cards, adjudications=self.adjudications,
            challenges=self.challenges, dragons=self.dragons, stars=self.stars,
            recycles=self.recycles, last_adjudication=self.last_adjudication,
            ruling=" ".join(self.notes), finished=self.finished, winners=self.winners,
        )
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

    def to_deck(self, seat: int, serials: list[str]) -> None:
        """Cards won (WX-8) or returned: known to be in ``seat``'s deck from now on."""
        places = self.places
        where = self.t.deck_place[seat]
        for c in serials:
            places[c] = where
        self.decks[seat - 1] += len(serials)

    def to_void(self, serials: list[str]) -> None:
        places = self.places
        for c in serials:
            places[c] = VOID
        self.void += len(serials)

    def to_pot(self, serials: list[str]) -> None:
        places = self.places
        for c in serials:
            places[c] = POT
        self.pot = self.pot + tuple(serials)

    def active(self) -> list[int]:
        return [s for s in self.t.seats if s not in self.out]

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
        gone = [s for s in self.t.seats if s not in self.out and self.decks[s - 1] == 0]
        if gone:
            self.out = self.out | frozenset(gone)
            names = self.t.names_of(gone)
            verb = "have" if len(gone) > 1 else "has"
            self.notes.append(f"{names} {verb} no cards left and {'are' if len(gone) > 1 else 'is'}"
                              " out of the game (WX-3).")
        return gone


def _relations(attrs: Mapping[str, Any]) -> tuple[frozenset[tuple[str, str]],
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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _listing(names: list[str]) -> str:
    """"Ana", "Ana and Bo", "Ana, Bo and Cy"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _a(label: str) -> str:
    """A card as a sentence names it: "Wood", "an Infinite Dragon", "a Destructive Star"."""
    if label == "Infinite Dragon":
        return "an Infinite Dragon"
    if label == "Destructive Star":
        return "a Destructive Star"
    return label


def _stars_stay(n: int) -> str:
    """The sentence for Stars left in a won pot (WX-7.4, WX-7.6; companion decision 1)."""
    if n == 0:
        return ""
    return " The Star stays in the pot." if n == 1 else f" The {n} Stars stay in the pot."


def _with_stars(n: int) -> str:
    """How a pot of ``n`` cards with Stars in it is named when it goes to the Void (seed
    Game Notes: the only ways a Star leaves play)."""
    if n == 0:
        return ""
    return ", a Destructive Star among them" if n == 1 else f", {n} Destructive Stars among them"


class WuXingRules(Rules[WuXingState]):
    """The WuXing referee (seed 000, WX-1..WX-12)."""

    id: ClassVar[str] = "wuxing"
    title: ClassVar[str] = "WuXing"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    zones: ClassVar[tuple[str, ...]] = ("universe", "seat:<n>")
    options: ClassVar[tuple[Option, ...]] = (
        Option("end", "count", "WX-10",
               "when the Universe deck runs out: 'count' (most cards wins, tie-breaker "
               "WX-11) or 'recycle' (the Void becomes the new Universe deck)",
               choices=("count", "recycle")),
        Option("start", "rps", "WX-12",
               "who starts: 'rps' (rock-paper-scissors, winner entered on a phone) or "
               "'dragon' (first to pull an Infinite Dragon from the player deck before dealing)",
               choices=("rps", "dragon")),
    )

    # -- set-up -------------------------------------------------------------------------

    def sets_needed(self, players: int) -> dict[str, int]:
        """WX-2: one player deck for 2-4 players, two for 5-8 (deck file); one Universe deck."""
        from companion.cards import load_deck

        deck = load_deck(self.id)
        by_players = deck.decks["player"].attrs.get("sets_by_players", {})
        need = by_players.get(str(players), 1 if players <= 4 else 2)
        return {"player": int(need), "universe": 1}

    def start(self, setup: Setup) -> WuXingState:
        """Deal (WX-2): the player deck(s) evenly, the remainder set aside unseen."""
        n = len(setup.players)
        if not self.min_players <= n <= self.max_players:
            raise BadSetup(f"WuXing takes 2-8 players, got {n}")
        absorbs, destroys = _relations(setup.deck.attrs)
        need = self.sets_needed(n)
        in_play: dict[str, set[int]] = {}
        for deck_id, count in need.items():
            keys = sorted({setup.sets.get(s, 1) for s, f in setup.cards.items()
                           if f.deck == deck_id})
            if len(keys) < count:
                raise BadSetup(f"{n} players need {count} printed set(s) of the {deck_id} "
                               f"deck; the table has {len(keys)}", rule="WX-2")
            in_play[deck_id] = set(keys[:count])
        places: dict[str, str] = {}
        kind: dict[str, str] = {}
        element: dict[str, str] = {}
        label: dict[str, str] = {}
        player_cards: list[str] = []
        universe = 0
        for serial in sorted(setup.cards):
            face = setup.cards[serial]
            if face.deck not in in_play:
                raise BadSetup(f"card {serial!r} belongs to no WuXing deck ({face.deck!r})")
            k = face.kind if face.kind in (DRAGON, STAR) else ELEMENT
            kind[serial] = k
            element[serial] = (face.element or "") if k == ELEMENT else ""
            if k == ELEMENT and not element[serial]:
                raise BadSetup(f"element card face {face.id!r} has no element", rule="WX-1")
            label[serial] = (element[serial].capitalize() if k == ELEMENT
                             else "Infinite Dragon" if k == DRAGON else "Destructive Star")
            if setup.sets.get(serial, 1) not in in_play[face.deck]:
                places[serial] = OUT
            elif face.deck == "universe":
                places[serial] = UNIVERSE
                universe += 1
            else:
                places[serial] = UNKNOWN
                player_cards.append(serial)
        by_face: dict[str, tuple[str, ...]] = {}
        for serial in sorted(setup.cards):
            by_face.setdefault(setup.cards[serial].id, ())
            by_face[setup.cards[serial].id] += (serial,)
        each, aside = divmod(len(player_cards), n)
        if each == 0:
            raise BadSetup(f"{len(player_cards)} player cards cannot be dealt to {n} players",
                           rule="WX-2")
        table = Table(
            names=tuple(setup.players), faces=dict(setup.cards), kind=kind, element=element,
            label=label, player_cards=tuple(player_cards), absorbs=absorbs,
            destroys=destroys, end=str(setup.options.get("end", "count")),
            start=str(setup.options.get("start", "rps")), code=setup.deck.code,
            title=setup.deck.title, zone_seats={f"seat:{s}": s for s in range(1, n + 1)},
            by_face=by_face, deck_place=tuple(deck_of(s) for s in range(n + 1)),
            table_place=tuple(table_of(s) for s in range(n + 1)),
        )
        deal = (f"Shuffle the player deck and deal it: {each} cards each"
                + (f", {aside} set aside unseen (WX-2)." if aside else " (WX-2)."))
        if table.start == "rps":
            first = "Play rock-paper-scissors; enter the winner, who starts (WX-12)."
        else:
            first = ("Before dealing, pull cards from the player deck and show them: the first "
                     "to show an Infinite Dragon starts (WX-12).")
        return WuXingState(
            table=table, phase=START, places=places, unseen=(each,) * n, decks=(each,) * n,
            set_aside=aside, universe_left=universe, void=0, pot=(), universe_card=None,
            turn=1, challenge=(), revealed=(), awaiting=(), out=frozenset(),
            shown=frozenset(), duel=(), duel_cards=(), adjudications=0, challenges=0,
            dragons=0, stars=0, recycles=0, last_adjudication="",
            ruling=f"{first} {deal}" if table.start == "rps" else f"{first} Then: {deal}",
            finished=False, winners=(),
        )

    # -- events -------------------------------------------------------------------------

    def apply(self, state: WuXingState, event: Event) -> WuXingState:
        """The next state; raises ``MalformedEvent``, ``MalformedPayload``,
        ``ForeignPayload``, ``UnknownCard``, ``CardNotAvailable``, ``OutOfTurn``,
        ``IllegalPlay`` or ``GameOver`` and changes nothing."""
        try:
            kind = event["type"]
        except (TypeError, KeyError, IndexError):
            kind = None
        if type(kind) is not str:
            kind = event_type(event)
        if kind == "scan":
            return self._scan(state, event)
        if kind == "rps":
            return self._rps(state, event)
        raise MalformedEvent(f"WuXing has no event type {kind!r}; it has 'scan' and 'rps'")

    def _rps(self, state: WuXingState, event: Event) -> WuXingState:
        winner = require(event, "winner", int)
        t = state.table
        if state.finished:
            raise GameOver("the game is over", rule="WX-10")
        if not 1 <= winner <= len(t.names):
            raise MalformedEvent(f"rock-paper-scissors winner {winner!r}: there is no such "
                                 f"seat at this table (1-{len(t.names)})")
        if state.phase != START or t.start != "rps":
            raise IllegalPlay(f"rock-paper-scissors winner {winner!r} is not expected now: "
                              f"{self._prompt(state)}", rule="WX-12")
        w = _Work(state)
        w.turn = winner
        w.notes.append(f"{t.name(winner)} won rock-paper-scissors and starts (WX-12).")
        self._setup_challenge(w, new=True)
        return w.freeze()

    def _card(self, state: WuXingState, event: Event, seat: int | None) -> str:
        """The serial an event's ``card`` names: a serial, a payload, or a face id entered by
        hand (it stands for a copy that can be where the zone says, see ``_by_face``).

        Raises ``MalformedEvent``, ``MalformedPayload``, ``ForeignPayload`` (another game's
        card), ``UnknownCard`` (never printed here, a forged payload) or
        ``CardNotAvailable`` (no copy of that face can be there).
        """
        raw = event.get("card")
        if type(raw) is not str:
            raw = require(event, "card", str)
        t = state.table
        if raw in t.faces:
            return raw
        if raw in t.by_face:
            return self._by_face(state, raw, seat)
        if raw.startswith(codec.PREFIX + ":"):
            p = codec.decode(raw)
            if p.game_code != t.code:
                raise ForeignPayload(f"{raw!r} is a card of another game (game code "
                                     f"{p.game_code!r}), not {t.title}")
            face = t.faces.get(p.serial)
            if face is None:
                raise UnknownCard(f"{raw!r}: serial {p.serial!r} was never printed for "
                                  "this table")
            if face.code != p.face_code:
                raise UnknownCard(f"{raw!r}: serial {p.serial!r} was printed as "
                                  f"{face.name!r}; this code does not match it")
            return p.serial
        try:
            codec.parse_serial(raw)
        except CompanionError:
            raise MalformedEvent(f"card {raw!r} is neither a serial like 'K2F9-01A' nor a "
                                 "card payload") from None
        raise UnknownCard(f"card {raw!r} was never printed for this {t.title} table")

    def _zone(self, state: WuXingState, event: Event) -> int | None:
        """The seat of the scan's zone, or ``None`` for the Universe zone."""
        zone = event.get("zone")
        if type(zone) is not str:
            zone = require(event, "zone", str)
        n = len(state.table.names)
        seat = state.table.zone_seats.get(zone)
        if seat is None and zone != UNIVERSE:
            seat = seat_zone(zone, n)
            if seat is None:
                raise MalformedEvent(f"zone {zone!r}: WuXing zones are 'universe' and "
                                     f"'seat:1'..'seat:{n}'")
        if "seat" in event:
            by = require(event, "seat", int)
            if not 1 <= by <= n:
                raise MalformedEvent(f"event seat {by!r}: there is no such seat (1-{n})")
            if seat is not None and by != seat:
                raise OutOfTurn(f"seat {by} cannot show a card for seat {seat} "
                                f"({state.table.name(seat)})")
        return seat

    def _scan(self, state: WuXingState, event: Event) -> WuXingState:
        seat = self._zone(state, event)
        if state.finished:
            card = require(event, "card", str)
            raise GameOver(f"the game is over; card {card!r} is not needed", rule="WX-10")
        serial = self._card(state, event, seat)
        override = event.get("override", False)
        if not isinstance(override, bool):
            raise MalformedEvent(f"event field 'override' must be true or false, got "
                                 f"{override!r}")
        phase = state.phase
        if phase == START:
            return self._pull(state, serial, seat)
        if phase == DRAW:
            return self._draw(state, serial, seat, override)
        if seat is None:
            raise OutOfTurn(f"card {serial!r} shown in the Universe zone, but the table waits "
                            f"for: {self._prompt(state)}", rule="WX-4")
        if seat not in state.awaiting:
            self._refuse_seat(state, seat, serial)
        place = state.places[serial]
        held = place == state.table.deck_place[seat] or (
            place == UNKNOWN and state.unseen[seat - 1] > 0)
        if not held and not override:
            self._check_from_deck(state, seat, serial)
        w = _Work(state)
        if not held:
            self._relocate(w, serial, place, seat)
        w.take_from_deck(seat, serial, w.t.table_place[seat])
        if phase == REVEAL:
            return self._reveal(w, seat, serial)
        if phase == DUEL:
            return self._duel_reveal(w, seat, serial)
        return self._contribute(w, seat, serial)

    def _refuse_seat(self, state: WuXingState, seat: int, serial: str) -> NoReturn:
        """Raises ``OutOfTurn`` for a seat whose card is not awaited now."""
        t = state.table
        who = t.name(seat)
        if seat in state.out:
            raise OutOfTurn(f"{who} (seat {seat}) is out of the game; card {serial!r} is not "
                            "in play", rule="WX-3")
        if any(s == seat for s, _ in state.revealed) or (
                state.phase in (FEED, PURGE) and seat not in state.awaiting):
            raise OutOfTurn(f"{who} (seat {seat}) has already shown a card; card {serial!r} "
                            "is one too many", rule="WX-7" if state.phase == REVEAL else "C-6")
        if state.phase in (REVEAL, DUEL):
            a, b = state.challenge
            raise OutOfTurn(f"{who} (seat {seat}) is not in this challenge ({t.name(a)} v "
                            f"{t.name(b)}); card {serial!r} refused",
                            rule="WX-11" if state.phase == DUEL else "WX-3")
        raise OutOfTurn(f"card {serial!r} from {who} is not expected: {self._prompt(state)}")

    def _by_face(self, state: WuXingState, face_id: str, seat: int | None) -> str:
        """A face id entered by hand (C-6): a copy of it the zone can hold. For a seat: a copy
        known in its deck, else a not-yet-seen copy; for the Universe zone: a copy in the
        Universe deck; before dealing (WX-12): a copy not pulled yet. C-2: any copy is as
        good as another, the choice is deterministic so replay is exact."""
        t = state.table
        places = state.places
        copies = t.by_face[face_id]
        label = t.faces[copies[0]].name
        if state.phase == START:
            for c in copies:
                if places[c] == UNKNOWN and c not in state.shown:
                    return c
            raise CardNotAvailable(f"no {label} is left to pull from the player deck",
                                   rule="C-1")
        if seat is None:
            for c in copies:
                if places[c] == UNIVERSE:
                    return c
            raise CardNotAvailable(f"no {label} ({face_id!r}) is left in the Universe deck",
                                   rule="C-1")
        mine = deck_of(seat)
        for c in copies:
            if places[c] == mine:
                return c
        if state.unseen[seat - 1] > 0:
            for c in copies:
                if places[c] == UNKNOWN:
                    return c
        raise CardNotAvailable(f"{t.name(seat)} cannot have a {label} ({face_id!r}): no copy "
                               "of it can be in their deck", rule="C-1")

    # -- C-1 -------------------------------------------------------------------------------

    def _where(self, state: WuXingState, serial: str) -> str:
        """Where the companion knows ``serial`` is, in words."""
        t = state.table
        place = state.places[serial]
        what = f"card {serial!r} ({t.faces[serial].name})"
        if place == VOID:
            return f"{what} is in the Void"
        if place == POT:
            return f"{what} is in the pot"
        if place == UNIVERSE:
            return f"{what} is in the Universe deck"
        if place == OUT:
            return f"{what} is not in play at this table (an extra printed set)"
        if place == UNKNOWN:
            return f"{what} has not been seen since the deal"
        if place.startswith("deck:"):
            return f"{what} is in {t.name(int(place[5:]))}'s deck"
        if place.startswith("table:"):
            return f"{what} is already on the table, shown by {t.name(int(place[6:]))}"
        return f"{what} is at {place!r}"

    def _check_from_deck(self, state: WuXingState, seat: int, serial: str) -> None:
        """C-1: ``serial`` can come from ``seat``'s deck; raises ``CardNotAvailable``."""
        place = state.places[serial]
        if place == deck_of(seat) or (place == UNKNOWN and state.unseen[seat - 1] > 0):
            return
        who = state.table.name(seat)
        if place == UNKNOWN:
            raise CardNotAvailable(
                f"{who} cannot have card {serial!r} ({state.table.faces[serial].name}): every "
                f"card in {who}'s deck is known and it is not one of them", rule="C-1")
        raise CardNotAvailable(f"{who} cannot show it: {self._where(state, serial)}",
                               rule="C-1")

    def _relocate(self, w: _Work, serial: str, place: str, seat: int | None) -> None:
        """Referee override of C-1: ``serial`` was really in ``seat``'s deck (or, for
        ``None``, in the Universe deck). It leaves the place the companion had for it (whose
        count drops) and the ruling says so. Raises ``IllegalPlay`` for a card already shown
        in this challenge."""
        t = w.t
        if place.startswith("table:") or serial == w.universe_card:
            raise IllegalPlay(f"card {serial!r} is already shown in this challenge; undo that "
                              "scan instead of forcing it", rule="C-1")
        if place == POT:
            w.pot = tuple(c for c in w.pot if c != serial)
        elif place == VOID:
            w.void -= 1
        elif place == UNIVERSE:
            w.universe_left -= 1
        elif place.startswith("deck:"):
            w.decks[int(place[5:]) - 1] -= 1
        elif place == UNKNOWN:
            # Unseen, yet this seat has no unseen card: it was one set aside (or another
            # seat's; the nearest seat clockwise with unseen cards gives one up).
            if w.set_aside > 0:
                w.set_aside -= 1
            else:
                n = len(t.names)
                s = seat or 1
                for _ in range(n):
                    s = s % n + 1
                    if w.unseen[s - 1] > 0:
                        w.unseen[s - 1] -= 1
                        w.decks[s - 1] -= 1
                        break
        where = {POT: "the pot", VOID: "the Void", UNIVERSE: "the Universe deck",
                 UNKNOWN: "the unseen cards", OUT: "out of play"}.get(
                     place, f"{t.name(int(place[5:]))}'s deck" if place.startswith("deck:")
                     else place)
        if seat is None:
            w.places[serial] = UNIVERSE
            w.universe_left += 1
            w.notes.append(f"Referee override: {serial} ({t.label[serial]}) was recorded in "
                           f"{where}; taken as drawn from the Universe deck (C-1).")
        else:
            w.places[serial] = deck_of(seat)
            w.decks[seat - 1] += 1
            w.notes.append(f"Referee override: {serial} ({t.label[serial]}) was recorded in "
                           f"{where}; taken as shown from {t.name(seat)}'s deck (C-1).")

    # -- WX-12 -----------------------------------------------------------------------------

    def _pull(self, state: WuXingState, serial: str, seat: int | None) -> WuXingState:
        t = state.table
        if t.start != "dragon":
            raise IllegalPlay(f"card {serial!r} is not expected now: {self._prompt(state)}",
                              rule="WX-12")
        if seat is None:
            raise IllegalPlay(f"card {serial!r}: before dealing, cards are pulled from the "
                              "player deck and shown at a seat, not in the Universe zone",
                              rule="WX-12")
        if state.places[serial] != UNKNOWN or t.faces[serial].deck != "player":
            raise CardNotAvailable(f"{t.name(seat)} cannot pull it from the player deck: "
                                   f"{self._where(state, serial)}", rule="C-1")
        if serial in state.shown:
            raise CardNotAvailable(f"card {serial!r} ({t.label[serial]}) was already pulled "
                                   "before dealing", rule="C-1")
        w = _Work(state)
        if t.kind[serial] != DRAGON:
            w.shown = state.shown | {serial}
            w.notes.append(f"{t.name(seat)} pulled {_a(t.label[serial])}: no Dragon yet; keep "
                           "pulling (WX-12).")
            return w.freeze()
        w.shown = frozenset()
        w.turn = seat
        aside = f", {state.set_aside} set aside unseen" if state.set_aside else ""
        w.notes.append(f"{t.name(seat)} pulled the first Infinite Dragon and starts (WX-12). "
                       "Put the pulled cards back, shuffle the player deck and deal it: "
                       f"{state.decks[0]} cards each{aside} (WX-2).")
        self._setup_challenge(w, new=True)
        return w.freeze()

    # -- WX-4, WX-5, WX-6 ------------------------------------------------------------------

    def _draw(self, state: WuXingState, serial: str, seat: int | None,
              override: bool) -> WuXingState:
        t = state.table
        if seat is not None:
            a, b = state.challenge
            if seat in state.challenge:
                raise OutOfTurn(f"{t.name(seat)} showed card {serial!r} before the Universe "
                                f"card: {t.name(a)}, lay the top Universe card on the pot "
                                "first", rule="WX-4")
            self._refuse_seat(state, seat, serial)
        if state.places[serial] != UNIVERSE and not override:
            raise CardNotAvailable(f"{self._where(state, serial)}, so it cannot be the "
                                   "Universe card: that comes from the Universe deck",
                                   rule="WX-4")
        w = _Work(state)
        if state.places[serial] != UNIVERSE:
            self._relocate(w, serial, state.places[serial], None)
        w.universe_left -= 1
        k = t.kind[serial]
        if k == DRAGON:
            # WX-5: everyone still in feeds the pot; the Dragon goes to the Void.
            w.places[serial] = VOID
            w.void += 1
            w.dragons += 1
            w.phase = FEED
            w.awaiting = tuple(w.active())
            names = ", ".join(t.name(s) for s in w.awaiting)
            w.notes.append(f"Universe Dragon: it goes to the Void, and everyone still in "
                           f"({names}) puts their top card face up into the pot (WX-5).")
            return w.freeze()
        if k == STAR:
            # WX-6: the pot goes to the Void, the Star stays; everyone still in feeds the Void.
            swept = list(w.pot)
            w.to_void(swept)
            w.pot = (serial,)
            w.places[serial] = POT
            w.stars += 1
            w.phase = PURGE
            w.awaiting = tuple(w.active())
            names = ", ".join(t.name(s) for s in w.awaiting)
            in_pot = sum(1 for c in swept if t.kind[c] == STAR)
            gone = (f"the pot ({_plural(len(swept), 'card')}{_with_stars(in_pot)}) goes to the "
                    "Void") if swept else "the pot was empty"
            w.notes.append(f"Universe Star: {gone}, the Star stays as the sole pot card, and "
                           f"everyone still in ({names}) puts their top card into the Void "
                           "(WX-6).")
            return w.freeze()
        w.places[serial] = POT
        w.pot = (*state.pot, serial)
        w.universe_card = serial
        w.phase = REVEAL
        w.awaiting = w.challenge
        a, b = w.challenge
        w.notes.append(f"The Universe card is {t.label[serial]}: {t.name(a)} and {t.name(b)}, "
                       "reveal your top cards (WX-4).")
        return w.freeze()

    def _contribute(self, w: _Work, seat: int, serial: str) -> WuXingState:
        t = w.t
        to_pot = w.phase == FEED
        if to_pot:
            w.places[serial] = POT
            w.pot = (*w.pot, serial)
        else:
            w.places[serial] = VOID
            w.void += 1
        w.awaiting = tuple(s for s in w.awaiting if s != seat)
        where = "into the pot (WX-5)" if to_pot else "into the Void (WX-6)"
        w.notes.append(f"{t.name(seat)} put {_a(t.label[serial])} {where}.")
        if w.awaiting:
            w.notes.append(f"Waiting for {t.names_of(w.awaiting)}.")
            return w.freeze()
        gone = w.check_out()
        self._next(w, new=False, gone=gone)
        return w.freeze()

    # -- WX-7 ------------------------------------------------------------------------------

    def _reveal(self, w: _Work, seat: int, serial: str) -> WuXingState:
        w.revealed = (*w.revealed, (seat, serial))
        w.awaiting = tuple(s for s in w.awaiting if s != seat)
        if w.awaiting:
            t = w.t
            w.notes.append(f"{t.name(seat)} reveals {_a(t.label[serial])}; waiting for "
                           f"{t.name(w.awaiting[0])}.")
            return w.freeze()
        self._resolve(w)
        gone = w.check_out()
        self._next(w, new=True, gone=gone)
        return w.freeze()

    def _resolve(self, w: _Work) -> None:
        """Adjudicate a challenge by WX-7, cases 1-8 in order; WX-8 and WX-9 for the cards."""
        t = w.t
        a, b = w.challenge
        shown = dict(w.revealed)
        ca, cb = shown[a], shown[b]
        u = w.universe_card
        if u is None:  # cannot happen: a reveal phase always has its Universe card (WX-4)
            raise IllegalPlay("there is no Universe card to challenge", rule="WX-4")
        ka, kb = t.kind[ca], t.kind[cb]
        na, nb = t.name(a), t.name(b)
        pot = list(w.pot)
        if ka == STAR and kb == STAR:
            w.to_pot([ca, cb])
            text = (f"{na} and {nb} both played a Destructive Star: a draw, both Stars join "
                    "the pot and nothing goes to the Void (WX-7.1).")
        elif ka == STAR or kb == STAR:
            star_seat, star, other = (a, ca, cb) if ka == STAR else (b, cb, ca)
            swept = [*pot, other]
            w.to_void(swept)
            w.pot = (star,)
            w.places[star] = POT
            # Name what goes: the Universe card, any Star already in the pot (seed Game
            # Notes: a Star leaves play only this way, by WX-6 or by WX-7.7), the rest.
            in_pot = sum(1 for c in pot if t.kind[c] == STAR)
            rest = len(pot) - 1 - in_pot
            items = [f"the Universe {t.label[u]}"]
            if in_pot:
                items.append(("a Destructive Star" if in_pot == 1
                              else f"{in_pot} Destructive Stars") + " from the pot")
            if rest:
                items.append(f"{rest} more pot card{'s' if rest > 1 else ''}")
            items.append(f"{t.name(b if star_seat == a else a)}'s {t.label[other]}")
            text = (f"{t.name(star_seat)}'s Destructive Star destroys everything: "
                    f"{_plural(len(swept), 'card')} go to the Void ({_listing(items)}); the "
                    "Star stays as the sole pot card (WX-7.2).")
        elif ka == DRAGON and kb == DRAGON:
            w.to_pot([ca, cb])
            text = (f"{na} and {nb} both played an Infinite Dragon: a draw, both Dragons join "
                    "the pot (WX-7.3).")
        elif ka == DRAGON or kb == DRAGON:
            win, dragon, other = (a, ca, cb) if ka == DRAGON else (b, cb, ca)
            stars = [c for c in pot if t.kind[c] == STAR]
            won = [c for c in pot if t.kind[c] != STAR] + [other]
            w.to_void([dragon])
            w.to_deck(win, won)
            w.pot = tuple(stars)
            keep = _stars_stay(len(stars))
            text = (f"{t.name(win)}'s Infinite Dragon absorbs the Universe {t.label[u]}: "
                    f"{t.name(win)} wins {_plural(len(won), 'card')}; shuffle them into your "
                    f"deck. The Dragon goes to the Void (WX-7.4, WX-8).{keep}")
        else:
            text = self._resolve_elements(w, a, b, ca, cb, u, pot)
        w.revealed = ()
        w.universe_card = None
        w.adjudications += 1
        w.last_adjudication = text
        w.notes.insert(0, text)

    def _resolve_elements(self, w: _Work, a: int, b: int, ca: str, cb: str, u: str,
                          pot: list[str]) -> str:
        """WX-7 cases 5-8: two element cards against the Universe element."""
        t = w.t
        ea, eb, eu = t.element[ca], t.element[cb], t.element[u]
        la, lb, lu = t.label[ca], t.label[cb], t.label[u]
        na, nb = t.name(a), t.name(b)
        absorbs, destroys = t.absorbs, t.destroys
        if ea == eb:
            if (eu, ea) in destroys:
                w.to_void([ca, cb])
                return (f"{na} and {nb} both played {la}: a draw, and {lu} destroys {la}, so "
                        "both cards go to the Void (WX-7.5).")
            w.to_pot([ca, cb])
            return f"{na} and {nb} both played {la}: a draw, both cards join the pot (WX-7.5)."
        aa, ab = (ea, eu) in absorbs, (eb, eu) in absorbs
        if aa or ab:
            win, mine, _other = (a, la, lb) if aa else (b, lb, la)
            stars = [c for c in pot if t.kind[c] == STAR]
            won = [c for c in pot if t.kind[c] != STAR] + [ca, cb]
            w.to_deck(win, won)
            w.pot = tuple(stars)
            beats = (" (absorb beats destroy)"
                     if (t.element[cb if aa else ca], eu) in destroys else "")
            keep = _stars_stay(len(stars))
            return (f"{mine} absorbs {lu}{beats}: {t.name(win)} wins "
                    f"{_plural(len(won), 'card')}; shuffle them into your deck (WX-7.6, "
                    f"WX-8).{keep}")
        da, db = (ea, eu) in destroys, (eb, eu) in destroys
        if da or db:
            win, keep_card, mine, loser, lost, lost_label = (
                (a, ca, la, b, cb, lb) if da else (b, cb, lb, a, ca, la))
            swept = [*pot, lost]
            w.pot = ()
            w.to_void(swept)
            w.to_deck(win, [keep_card])
            in_pot = sum(1 for c in pot if t.kind[c] == STAR)
            return (f"{mine} destroys {lu}: the pot ({_plural(len(pot), 'card')}"
                    f"{_with_stars(in_pot)}) and "
                    f"{t.name(loser)}'s {lost_label} go to the Void; {t.name(win)}, put your "
                    f"{mine} at the bottom of your deck (WX-7.7).")
        parts = []
        joins: list[str] = []
        for seat, card, e, lab in ((a, ca, ea, la), (b, cb, eb, lb)):
            if e == eu:
                joins.append(card)
                parts.append(f"{t.name(seat)}'s {lab} matches {lu} and joins the pot")
            elif (eu, e) in absorbs:
                joins.append(card)
                parts.append(f"{lu} absorbs {t.name(seat)}'s {lab}: it joins the pot")
            else:
                w.to_void([card])
                parts.append(f"{lu} destroys {t.name(seat)}'s {lab}: it goes to the Void")
        w.to_pot(joins)
        return "; ".join(parts) + " (WX-7.8)."

    # -- moving on: WX-3, WX-10, WX-11 -------------------------------------------------------

    def _next(self, w: _Work, *, new: bool, gone: list[int]) -> None:
        """After a challenge (``new``) or a Dragon/Star round: the next Universe card, or the
        end (WX-10), or the tie-breaker (WX-11)."""
        t = w.t
        active = w.active()
        if len(active) <= 1:
            winners = tuple(active) if active else tuple(gone)
            self._finish(w, winners, "holds every card still in the players' hands"
                         if len(winners) == 1 else "ran out of cards at the same moment")
            return
        if new:
            w.turn = w.challenge[1]
        if w.universe_left == 0:
            if t.end == "recycle" and w.void > 0:
                for serial, place in w.places.items():
                    if place == VOID:
                        w.places[serial] = UNIVERSE
                w.universe_left, w.void = w.void, 0
                w.recycles += 1
                w.notes.append(f"The Universe deck is empty: turn the Void over and shuffle "
                               f"it; its {w.universe_left} cards are the new Universe deck "
                               "(WX-10).")
            else:
                self._count(w)
                return
        self._setup_challenge(w, new=new)

    def _setup_challenge(self, w: _Work, *, new: bool) -> None:
        t = w.t
        a = w.turn if w.turn not in w.out else w.next_active(w.turn)
        b = w.next_active(a)
        w.turn = a
        w.challenge = (a, b)
        w.phase = DRAW
        w.awaiting = ()
        w.revealed = ()
        if new:
            w.challenges += 1
        w.notes.append(f"Next: {t.name(a)} v {t.name(b)}; {t.name(a)}, lay the top Universe "
                       "card on the pot.")

    def _count(self, w: _Work) -> None:
        """WX-10 (a): most cards in deck wins; a tie goes to sudden death (WX-11)."""
        t = w.t
        best = max(w.decks)
        tied = tuple(s for s in t.seats if w.decks[s - 1] == best)
        counts = ", ".join(f"{t.name(s)} {w.decks[s - 1]}" for s in t.seats if s not in w.out)
        why = ("the Void is empty too" if t.end == "recycle" else "count the cards")
        w.notes.append(f"The Universe deck is empty ({why}): {counts} (WX-10).")
        if len(tied) == 1:
            self._finish(w, tied, f"the most cards: {best}")
            return
        w.duel = tied
        w.duel_cards = ()
        self._duel_pair(w)
        names = t.names_of(tied)
        w.notes.append(f"{names} are tied with {_plural(best, 'card')}: sudden death "
                       "(WX-11).")

    def _duel_pair(self, w: _Work) -> None:
        a, b = w.duel[0], w.duel[1]
        w.phase = DUEL
        w.challenge = (a, b)
        w.awaiting = (a, b)
        w.revealed = ()
        w.universe_card = None

    def _duel_reveal(self, w: _Work, seat: int, serial: str) -> WuXingState:
        t = w.t
        w.revealed = (*w.revealed, (seat, serial))
        w.duel_cards = (*w.duel_cards, (seat, serial))
        w.awaiting = tuple(s for s in w.awaiting if s != seat)
        if w.awaiting:
            w.notes.append(f"{t.name(seat)} reveals {_a(t.label[serial])}; waiting for "
                           f"{t.name(w.awaiting[0])} (WX-11).")
            return w.freeze()
        a, b = w.challenge
        shown = dict(w.revealed)
        ca, cb = shown[a], shown[b]
        winner = self._duel_winner(t, a, ca, b, cb)
        if winner is None:
            text = (f"{t.name(a)}'s {t.label[ca]} against {t.name(b)}'s {t.label[cb]}: "
                    "neither beats the other")
            stuck = [s for s in (a, b) if w.decks[s - 1] == 0]
            if stuck:
                w.notes.append(f"{text}, and {t.name(stuck[0])} has no card left to reveal: "
                               "the sudden death cannot be decided (WX-11).")
                self._return_duel_cards(w)
                self._finish(w, w.duel, "the sudden death cannot be decided", "WX-11")
                return w.freeze()
            w.notes.append(f"{text}: reveal again (WX-11).")
            w.awaiting = (a, b)
            w.revealed = ()
            return w.freeze()
        loser = b if winner == a else a
        lw, ll = (ca, cb) if winner == a else (cb, ca)
        w.adjudications += 1
        text = (f"{t.name(winner)}'s {t.label[lw]} beats {t.name(loser)}'s {t.label[ll]}: "
                f"{t.name(winner)} wins the sudden death (WX-11).")
        w.last_adjudication = text
        w.notes.append(text)
        self._return_duel_cards(w)
        w.duel = tuple(s for s in w.duel if s != loser)
        if len(w.duel) == 1:
            self._finish(w, w.duel, "won the sudden death", "WX-11")
        else:
            self._duel_pair(w)
            w.notes.append(f"Next in the sudden death: {t.name(w.duel[0])} v "
                           f"{t.name(w.duel[1])}.")
        return w.freeze()

    @staticmethod
    def _duel_winner(t: Table, a: int, ca: str, b: int, cb: str) -> int | None:
        """WX-11: Star beats all, Dragon beats any element, otherwise absorb or destroy."""
        ka, kb = t.kind[ca], t.kind[cb]
        if ka == kb and ka != ELEMENT:
            return None
        for k in (STAR, DRAGON):
            if ka == k:
                return a
            if kb == k:
                return b
        ea, eb = t.element[ca], t.element[cb]
        if ea == eb:
            return None
        if (ea, eb) in t.absorbs or (ea, eb) in t.destroys:
            return a
        return b

    @staticmethod
    def _return_duel_cards(w: _Work) -> None:
        """Sudden-death cards go back to their owners' decks: only the win counts."""
        for seat, card in w.duel_cards:
            w.to_deck(seat, [card])
        w.duel_cards = ()
        w.revealed = ()

    def _finish(self, w: _Work, winners: tuple[int, ...], why: str,
                rule: str = "WX-10") -> None:
        t = w.t
        w.phase = OVER
        w.finished = True
        w.winners = tuple(sorted(winners))
        w.challenge = ()
        w.awaiting = ()
        names = t.names_of(w.winners)
        verb = "wins" if len(w.winners) == 1 else "share the win"
        w.notes.append(f"Game over: {names} {verb} ({why}, {rule}).")

    # -- what the table sees -----------------------------------------------------------------

    def _prompt(self, state: WuXingState) -> str:
        t = state.table
        ph = state.phase
        if ph == START:
            if t.start == "rps":
                return ("Play rock-paper-scissors and enter the winner: the winner starts "
                        "(WX-12).")
            return ("Pull cards from the player deck one at a time and show them: the first to "
                    "show an Infinite Dragon starts (WX-12).")
        names = t.names_of(state.awaiting) if state.awaiting else ""
        if ph == DRAW:
            a, b = state.challenge
            return (f"{t.name(a)} v {t.name(b)}: {t.name(a)}, lay the top Universe card face up "
                    "on the pot and show it (WX-4).")
        if ph == FEED:
            return f"Universe Dragon: {names}, put your top card face up into the pot (WX-5)."
        if ph == PURGE:
            return f"Universe Star: {names}, put your top card into the Void (WX-6)."
        if ph == REVEAL:
            u = state.universe_card
            lu = t.label[u] if u else "?"
            return f"{names}: reveal your top card against the Universe {lu} (WX-7)."
        if ph == DUEL:
            return f"Sudden death: {names}, reveal your top card (WX-11)."
        names = t.names_of(state.winners) if state.winners else ""
        return f"Game over: {names} {'wins' if len(state.winners) == 1 else 'share the win'}."

    def view(self, state: WuXingState, seat: int | None) -> JSONDict:
        t = state.table
        faces = t.faces
        out: JSONDict = {
            "game": self.id,
            "phase": state.phase,
            "players": [
                {"seat": s, "name": t.name(s), "cards": state.decks[s - 1],
                 "out": s in state.out}
                for s in t.seats
            ],
            "decks": {str(s): state.decks[s - 1] for s in t.seats},
            "pot": [faces[c].id for c in state.pot],
            "pot_size": len(state.pot),
            "universe_card": faces[state.universe_card].id if state.universe_card else None,
            "universe_left": state.universe_left,
            "void": state.void,
            "challenge": list(state.challenge),
            "revealed": {str(s): faces[c].id for s, c in state.revealed},
            "awaiting": list(state.awaiting),
            "turn": state.turn,
            "out": sorted(state.out),
            "winner": state.winners[0] if len(state.winners) == 1 else None,
            "winners": list(state.winners),
            "finished": state.finished,
            "prompt": self._prompt(state),
            "ruling": state.ruling,
            "last_adjudication": state.last_adjudication,
            "adjudications": state.adjudications,
            "challenges": state.challenges,
            "options": {"end": t.end, "start": t.start},
        }
        if state.phase == DUEL:
            out["duel"] = list(state.duel)
            table: dict[str, list[str]] = {}
            for s, c in state.duel_cards:
                table.setdefault(str(s), []).append(faces[c].id)
            out["duel_table"] = table
        if seat is not None and seat in t.seats:
            mine = deck_of(seat)
            out["you"] = seat
            out["your_known_cards"] = sorted(faces[c].id for c, p in state.places.items()
                                             if p == mine)
        return out

    def referee_view(self, state: WuXingState) -> JSONDict:
        t = state.table
        out = self.view(state, None)
        out["places"] = dict(state.places)
        out["unseen"] = {str(s): state.unseen[s - 1] for s in t.seats}
        out["set_aside"] = state.set_aside
        known: dict[str, list[str]] = {str(s): [] for s in t.seats}
        for c, p in sorted(state.places.items()):
            if p.startswith("deck:"):
                known[p[5:]].append(c)
        out["known"] = known
        out["pot_cards"] = list(state.pot)
        return out

    def actions(self, state: WuXingState, seat: int | None) -> list[JSONDict]:
        t = state.table
        if state.finished:
            return []
        if state.phase == START and t.start == "rps":
            return [{
                "type": "rps", "label": "Rock-paper-scissors winner", "seat": seat,
                "rule": "WX-12",
                "fields": [{"name": "winner", "label": "Who won?", "kind": "choice",
                            "choices": [{"value": s, "label": t.name(s)} for s in t.seats]}],
            }]
        if state.phase == START:
            seats = list(t.seats) if seat is None else [seat]
            return [self._scan_action(t, s, "Show a card pulled from the player deck",
                                      "WX-12") for s in seats]
        if state.phase == DRAW:
            a = state.challenge[0]
            if seat is not None and seat != a:
                return []
            return [{
                "type": "scan", "label": "Universe card", "seat": seat, "rule": "WX-4",
                "fields": [{"name": "card", "label": "Universe card", "kind": "card",
                            "zone": UNIVERSE}],
            }]
        label, rule = {
            FEED: ("Your top card into the pot", "WX-5"),
            PURGE: ("Your top card into the Void", "WX-6"),
            REVEAL: ("Reveal your top card", "WX-7"),
            DUEL: ("Sudden death: reveal your top card", "WX-11"),
        }[state.phase]
        return [self._scan_action(t, s, label, rule) for s in state.awaiting
                if seat is None or s == seat]

    @staticmethod
    def _scan_action(t: Table, seat: int, label: str, rule: str) -> JSONDict:
        return {
            "type": "scan", "label": f"{t.name(seat)}: {label}", "seat": seat, "rule": rule,
            "fields": [{"name": "card", "label": label, "kind": "card",
                        "zone": f"seat:{seat}"}],
        }

    def places(self, state: WuXingState) -> Mapping[str, str]:
        return state.places

    def stats(self, state: WuXingState) -> dict[str, float]:
        return {
            "adjudications": float(state.adjudications),
            "challenges": float(state.challenges),
            "dragons": float(state.dragons),
            "stars": float(state.stars),
            "recycles": float(state.recycles),
            "tiebreaks": 1.0 if state.duel else 0.0,
        }

    # -- simulation --------------------------------------------------------------------------

    def random_play(self, state: WuXingState, rng: random.Random) -> Event | None:
        """A random legal event, as a camera would report it: the card a seat shows is drawn
        from what its deck can hold, weighted by the counts (unseen vs known)."""
        if state.finished:
            return None
        t = state.table
        if state.phase == START:
            if t.start == "rps":
                return {"type": "rps", "winner": rng.randint(1, len(t.names))}
            pool = [c for c in t.player_cards
                    if state.places[c] == UNKNOWN and c not in state.shown]
            seat = len(state.shown) % len(t.names) + 1
            return {"type": "scan", "card": rng.choice(pool), "zone": f"seat:{seat}"}
        if state.phase == DRAW:
            pool = [c for c, p in state.places.items() if p == UNIVERSE]
            return {"type": "scan", "card": rng.choice(pool), "zone": UNIVERSE}
        seat = state.awaiting[rng.randrange(len(state.awaiting))]
        return {"type": "scan", "card": self._random_top(state, seat, rng),
                "zone": f"seat:{seat}"}

    @staticmethod
    def _random_top(state: WuXingState, seat: int, rng: random.Random) -> str:
        unseen = state.unseen[seat - 1]
        if rng.randrange(state.decks[seat - 1]) < unseen:
            pool = [c for c, p in state.places.items() if p == UNKNOWN]
        else:
            mine = deck_of(seat)
            pool = [c for c, p in state.places.items() if p == mine]
        return rng.choice(pool)


RULES = WuXingRules()
