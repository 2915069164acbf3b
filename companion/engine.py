"""The event-sourced engine core (C-2, C-3, C-4).

A game is a ``Rules`` object: ``start(setup)`` builds the first state, ``apply(state, event)``
validates one event and returns the next state (or raises a ``CompanionError`` and changes
nothing), ``view``/``referee_view`` say what each seat may see. States are immutable.

``Match`` holds a table's append-only event log: state = replay(events); ``undo`` drops
the last event(s) and replays; ``version`` is the log length, so stale corrections are
refused. Randomness the companion produces is an event too (``Rules.chance``), so replay
is exact.

Events are plain JSON objects (``dict``) with a ``"type"``; an event made by a seat carries
``"seat"`` (1-based). Scans of cards are ``{"type": "scan", "card": SERIAL, "zone": ZONE}``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from companion import naming
from companion.cards import CardFace, DeckData, load_deck
from companion.errors import (
    BadSetup,
    CompanionError,
    MalformedEvent,
    NothingToUndo,
    StaleVersion,
)
from companion.names import player_names
from companion.naming import card_list as card_list  # the games import them from here
from companion.naming import card_ref as card_ref

Event = Mapping[str, Any]
JSONDict = dict[str, Any]

# Places a card can be (C-1). Games add their own ("universe", "lot", "pile:weapon"...).
UNKNOWN = "unknown"  # dealt or shuffled away, not yet seen
VOID = "void"
POT = "pot"
OUT = "out"  # out of the game


def deck_of(seat: int) -> str:
    return f"deck:{seat}"


def hand_of(seat: int) -> str:
    return f"hand:{seat}"


def discard_of(seat: int) -> str:
    return f"discard:{seat}"


def locus_of(seat: int) -> str:
    return f"locus:{seat}"


@dataclass(frozen=True, init=False)
class Movement:
    """One card, or ``count`` cards the companion cannot name, going from place to place.

    Places are those of ``Rules.places`` (``deck:2``, ``void``, ``pot``...). ``serial`` is
    ``None`` for cards nobody has seen (a draw from a face-down deck).
    """

    source: str
    target: str
    serial: str | None = None
    count: int = 1

    # Set in the instance dict: the generated frozen ``__init__`` (``object.__setattr__``
    # per field) cost twice as much (``bench engine``). Still frozen: assignment raises.
    def __init__(self, source: str, target: str, serial: str | None = None,
                 count: int = 1) -> None:
        d = self.__dict__
        d["source"] = source
        d["target"] = target
        d["serial"] = serial
        d["count"] = count


@dataclass(frozen=True, init=False)
class Play:
    """What one applied event did, as data; the words are made from it in the view (C-8).

    ``outcome`` is a short word a page can style by (``win``, ``draw``, ``void``, ``pot``,
    ``bust``, ``bid``, ``pass``, ``move``...); ``rule`` the ruling id that decided it;
    ``seat`` who acted (``None``: the companion or the referee); ``facts`` the game's own
    figures for the words (JSON-ready: ``{"winner": 2, "case": 4}``).
    """

    kind: str
    outcome: str
    rule: str | None = None
    seat: int | None = None
    movements: tuple[Movement, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)

    # As ``Movement``: one or two of these per event, built without ``object.__setattr__``.
    def __init__(self, kind: str, outcome: str, rule: str | None = None,
                 seat: int | None = None, movements: tuple[Movement, ...] = (),
                 facts: Mapping[str, Any] | None = None) -> None:
        d = self.__dict__
        d["kind"] = kind
        d["outcome"] = outcome
        d["rule"] = rule
        d["seat"] = seat
        d["movements"] = movements
        d["facts"] = {} if facts is None else facts


class Said(list[Any]):
    """A ruling's sentences, made only when read (C-8 words kept off the adjudication path).

    Its items are texts, other ``Said``s, or ``(function, *args)`` tuples whose call returns
    a text; the args must not change later (frozen data). ``str()`` joins them with spaces,
    once. A list: a game collects the parts in it and hands it over as is.
    """

    __slots__ = ("_text",)
    _text: str

    def __str__(self) -> str:
        if hasattr(self, "_text"):
            return self._text
        text = self._text = " ".join(
            p if type(p) is str else p[0](*p[1:]) if type(p) is tuple else str(p)
            for p in self)
        self.clear()  # the parts may hold plays and tables: let them go
        return text

    def __repr__(self) -> str:
        return f"Said({str(self)!r})"


# Limits on any event's values (issue: only known fields are stored): a text, a list, depth.
MAX_TEXT = 200
MAX_LIST = 64
MAX_DEPTH = 4


# Each type's fields with "type" itself, made once per field set (frozensets keep their hash).
_WITH_TYPE: dict[frozenset[str], frozenset[str]] = {}


def check_event_fields(event: Event, allowed: Mapping[str, frozenset[str]]) -> None:
    """Refuse an event whose type is unknown to ``allowed``, that carries a field its type
    does not have, or whose values are too long or too deep; raises ``MalformedEvent``
    naming the field. ``allowed`` maps each event type to its fields besides ``type``.
    """
    kind = event.get("type") if type(event) is dict or isinstance(event, Mapping) else None
    fields = allowed.get(kind) if type(kind) is str else None
    if fields is None:
        kind = event_type(event)
        raise MalformedEvent(f"there is no event type {kind[:MAX_TEXT]!r}; the types are "
                             f"{', '.join(sorted(allowed))}")
    # The common case (known fields, flat ints, short texts) first: it runs on every event.
    known = _WITH_TYPE.get(fields)
    if known is None:
        known = fields | {"type"}
        if len(_WITH_TYPE) < 1024:  # bounded: callers may pass field sets made from input
            _WITH_TYPE[fields] = known
    if event.keys() <= known:
        for value in event.values():
            t = type(value)
            if t is str:
                if len(value) > MAX_TEXT:
                    break
            elif t is not int and t is not bool and value is not None:
                break
        else:
            return
    for key, value in event.items():
        if key not in fields and key != "type":
            raise MalformedEvent(f"a {kind!r} event has no field {str(key)[:MAX_TEXT]!r}; "
                                 f"its fields are {', '.join(sorted(fields)) or 'none'}")
        t = type(value)
        if t is int or t is bool or value is None:
            continue
        if t is str:
            if len(value) > MAX_TEXT:
                raise MalformedEvent(f"event field {key!r} is longer than {MAX_TEXT} "
                                     "characters")
            continue
        _check_value(key, value, 0)


def _check_value(key: str, value: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise MalformedEvent(f"event field {key!r} is nested too deeply")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise MalformedEvent(f"event field {key!r} is longer than {MAX_TEXT} characters")
    if isinstance(value, list):
        if len(value) > MAX_LIST:
            raise MalformedEvent(f"event field {key!r} has more than {MAX_LIST} items")
        for v in value:
            _check_value(key, v, depth + 1)
    elif isinstance(value, dict):
        if len(value) > MAX_LIST:
            raise MalformedEvent(f"event field {key!r} has more than {MAX_LIST} entries")
        for k, v in value.items():
            _check_value(f"{key}.{k}", v, depth + 1)


class GameState(Protocol):
    """What every game's state offers the core and the web."""

    @property
    def ruling(self) -> str: ...  # the explanation of the latest event, in words

    @property
    def finished(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]: ...


S = TypeVar("S", bound=GameState)


@dataclass(frozen=True)
class Option:
    """A ruling option the host chooses at table creation (RULINGS.md 'option')."""

    name: str
    default: Any
    rule: str
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        """The value if it is allowed; raises ``BadSetup`` naming the option and value."""
        if self.choices is not None:
            if value not in self.choices:
                raise BadSetup(
                    f"option {self.name!r} must be one of {list(self.choices)}, got {value!r}",
                    rule=self.rule,
                )
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise BadSetup(f"option {self.name!r} must be true or false, got {value!r}")
            return value
        if isinstance(self.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadSetup(f"option {self.name!r} must be a whole number, got {value!r}")
            lo = self.minimum if self.minimum is not None else value
            hi = self.maximum if self.maximum is not None else value
            if not lo <= value <= hi:
                raise BadSetup(
                    f"option {self.name!r} must be {lo}-{hi}, got {value!r}", rule=self.rule
                )
            return value
        if not isinstance(value, type(self.default)):
            raise BadSetup(f"option {self.name!r} has the wrong type: {value!r}")
        return value

    def describe(self) -> JSONDict:
        d: JSONDict = {"name": self.name, "default": self.default, "rule": self.rule,
                       "help": self.help}
        if self.choices is not None:
            d["choices"] = list(self.choices)
        if self.minimum is not None:
            d["min"] = self.minimum
        if self.maximum is not None:
            d["max"] = self.maximum
        return d


@dataclass(frozen=True)
class Setup:
    """How a table was created: players (seat n is ``players[n-1]``), options, cards.

    ``cards`` maps every printed serial of the table's print runs to its face;
    ``sets`` maps it to the printed set of its deck it belongs to (GN-2 binding).
    """

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    cards: Mapping[str, CardFace]
    deck: DeckData
    sets: Mapping[str, int] = field(default_factory=dict)

    @property
    def seats(self) -> range:
        return range(1, len(self.players) + 1)

    def name(self, seat: int) -> str:
        return self.players[seat - 1]


class Rules(ABC, Generic[S]):
    """One game's rules. Subclasses are stateless; every method is pure."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    # Zones a camera or the referee may put a scanned card in ("universe", "seat:<n>"...).
    zones: ClassVar[tuple[str, ...]] = ("seat:<n>",)
    # A face binds the seat that plays it to its deck (God Num's legions, GN-2 rev. 2): a
    # printed name several decks print is then played only when one deck alone can take
    # it (C-10 rev. 3, ``naming.play_named``).
    names_bind: ClassVar[bool] = False

    def configure(self, players: Sequence[str], options: Mapping[str, Any] | None) -> JSONDict:
        """Validated options with defaults filled in; raises ``BadSetup``."""
        if not self.min_players <= len(players) <= self.max_players:
            raise BadSetup(
                f"{self.title} takes {self.min_players}-{self.max_players} players, "
                f"got {len(players)}"
            )
        player_names(players)  # C-7: storable names that no two seats share by look
        raw = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise BadSetup(f"{self.title} has no option {unknown[0]!r}; it has {sorted(known)}")
        return {name: o.check(raw[name]) if name in raw else o.default
                for name, o in known.items()}

    def sets_needed(self, players: int) -> dict[str, int]:
        """Printed sets of each deck a table of ``players`` plays with (default: one each).

        Cards of further printed sets in the table's runs start ``out`` of the game.
        """
        return {d: 1 for d in load_deck(self.id).decks}

    @abstractmethod
    def start(self, setup: Setup) -> S:
        """The state before the first event; raises ``BadSetup``."""

    @abstractmethod
    def apply(self, state: S, event: Event) -> S:
        """Validate ``event`` against ``state`` and return the next state.

        Raises a ``CompanionError`` subclass (never changes ``state``, which is immutable).
        """

    # Every event type this game takes, with the fields each may carry besides "type"
    # (C-7: "seat" is the sender, set from the token by the web). ``Match.apply`` refuses
    # other types and fields before the rules see them. Empty: not declared (no check).
    event_fields: ClassVar[Mapping[str, frozenset[str]]] = {}

    def chance(self, state: S, rng: random.Random) -> Event | None:
        """The next companion-made random event (target, starting player, dice), if due.

        In play the caller passes ``random.SystemRandom()``; tests and simulations a seeded
        ``random.Random`` (C-4). ``None`` when the game waits on people, not on chance.
        """
        return None

    @abstractmethod
    def random_play(self, state: S, rng: random.Random) -> Event | None:
        """A random legal event by the players or the camera (simulations, property tests).

        ``None`` when the game is over.
        """

    def actions(self, state: S, seat: int | None) -> list[JSONDict]:
        """What ``seat`` (``None``: the referee, for any seat) can do now, for forms and buttons.

        Each action is ``{"type", "label", "seat", "fields": [...], "rule"?}``; a field is
        ``{"name", "label", "kind": "int"|"choice"|"choices"|"text"|"card", ...}`` with
        ``min``/``max`` for ``int``, ``choices: [{"value", "label", "why"?}]`` for
        ``choice``/``choices`` (``count`` for ``choices``), ``zone`` for ``card`` (a scan
        entered by hand). Posting ``{"type", "seat", <field>: value...}`` applies it.
        Never lists what the seat may not see.

        Optional keys the pages use for one-tap play (issue 11):

        - a ``card`` field's ``faces``: ``[{"face", "name", "element"?, "number"?,
          "color"?}]``, the faces that can legally go to its zone now (tappable tiles;
          posting a face id as ``card`` makes the engine pick a copy the zone can hold, C-1);
        - a field's ``default`` (a proposed value) and ``suggest`` (for ``int``: the few
          legal values as buttons);
        - a choice's ``hint`` (visible words such as "to 35: you win") and ``disabled``
          (why it cannot be chosen, shown on tap);
        - an action's ``confirm`` (a sentence to confirm first: a skill's cost and effect,
          a pass) and ``disabled`` (why not now).
        """
        return []

    def last_play(self, state: S, seat: int | None) -> JSONDict | None:
        """What the latest event did, for ``seat`` (``None``: the public big screen;
        ``0``: the referee), or ``None`` before the first play. Hidden cards stay hidden.

        ``{"kind", "outcome", "rule", "seat", "text": one sentence in plain words (C-8),
        "physical": [what to do with the physical cards, one sentence each],
        "cards": [{"face", "name", "element"?, "number"?, "serial"? (referee and owner)}],
        "movements": [{"card": serial|None, "face": id|None, "name": str|None,
                        "from": place, "to": place, "count": n,
                        "from_words": "Ana's deck", "to_words": "the Void"}],
        "undo": [what to do physically when this play is undone, one sentence each]}``
        """
        return None

    def retell(self, state: S, play: Play | None, seat: int | None) -> str | None:
        """An earlier ``play`` in words for ``seat`` (``None``: the big screen, ``0``: the
        referee) as ``state``, the table now, lets it know: history and undo lines are told
        when read (issue 18 §2). ``None``: the words of the moment stand."""
        return None

    @abstractmethod
    def view(self, state: S, seat: int | None) -> JSONDict:
        """What ``seat`` may see (``None``: the public table view). JSON-ready."""

    @abstractmethod
    def referee_view(self, state: S) -> JSONDict:
        """Everything the referee may see. JSON-ready."""

    @abstractmethod
    def places(self, state: S) -> Mapping[str, str]:
        """Where every card of the table is (serial -> place), for C-1 and conservation."""

    @abstractmethod
    def stats(self, state: S) -> dict[str, float]:
        """Figures for simulations; must include ``"adjudications"``."""

    def stand_ins(self, state: S) -> Mapping[str, int | None]:
        """The serials recorded for a tap, not a scan (stand-ins: one printed copy stands
        for the face a player tapped), each with the seat that owns it (``None``: no seat).
        C-7 rev. 3: such a serial is for its owner and the referee only; everyone else
        reads the card by its face (``companion.veil``). Default: the game has none."""
        return {}


T = TypeVar("T")
_FIELDS: dict[type, frozenset[str]] = {}
_set = object.__setattr__


def evolve(obj: T, **changes: Any) -> T:
    """A copy of a frozen state dataclass with ``changes``, like ``dataclasses.replace``.

    It skips re-running the generated ``__init__`` (states have no ``__post_init__``):
    that was most of the time an adjudication took (``companion bench engine``). Field
    names are checked as ``replace`` does; raises ``TypeError`` on an unknown one.
    """
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(f.name for f in fields(obj))  # type: ignore[arg-type]
    if not changes.keys() <= names:
        unknown = changes.keys() - names
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(unknown)!r}")
    d = obj.__dict__.copy()
    d.update(changes)
    new = object.__new__(cls)
    _set(new, "__dict__", d)  # one dict, handed over (a frozen class refuses setattr)
    return new


def require(event: Event, key: str, typ: type | tuple[type, ...]) -> Any:
    """``event[key]`` if present and of type ``typ``; raises ``MalformedEvent``."""
    if type(event) is not dict and not isinstance(event, Mapping):
        raise MalformedEvent(f"an event must be a JSON object, got {event!r}")
    if key not in event:
        raise MalformedEvent(f"event {dict(event)!r} lacks {key!r}")
    value = event[key]
    if type(value) is typ:  # the common case: an int is an int, a text a text
        return value
    if isinstance(value, bool) and typ is int:
        raise MalformedEvent(f"event field {key!r} must be int, got {value!r}")
    if not isinstance(value, typ):
        names = typ.__name__ if isinstance(typ, type) else "/".join(t.__name__ for t in typ)
        raise MalformedEvent(f"event field {key!r} must be {names}, got {value!r}")
    return value


def event_type(event: Event) -> str:
    """The event's ``type``; raises ``MalformedEvent``."""
    return str(require(event, "type", str))


def seat_zone(zone: str, players: int) -> int | None:
    """The seat of a ``seat:<n>`` zone (else ``None``); raises ``MalformedEvent``.

    Strict (C-7): see ``companion.zones.parse_zone``.
    """
    from companion.zones import parse_zone  # zones imports errors only; no cycle at import

    z = parse_zone(zone, players)
    return z.seat if z.kind == "seat" else None


def apply_named(rules: Rules[S], setup: Setup, state: S, event: Event) -> tuple[S, Event]:
    """``rules.apply`` reading printed names in card fields (``companion.naming``): the
    next state and the event as it is logged (a name becomes the face id it was read as).
    A refusal quotes the cards as sent, never a copy the companion picked (C-7)."""
    try:
        try:
            return rules.apply(state, event), event
        except CompanionError:  # a printed name ("Topaz") is read only once refused as is
            if naming.readings(setup.cards, event) is None:
                raise
            return naming.play_named(partial(rules.apply, state), setup.cards, event,
                                     names_bind=rules.names_bind)
    except CompanionError as exc:
        raise naming.as_sent(exc, event) from None


def _ruling_of(state: GameState) -> str:
    return state.ruling


class Match(Generic[S]):
    """A table's append-only event log with its current state.

    ``apply`` validates, appends and updates; ``undo`` drops the last events and re-derives
    the state by replay (C-3). ``rulings[i]`` explains event ``i`` in words.
    """

    def __init__(self, rules: Rules[S], setup: Setup, events: Sequence[Event] = ()) -> None:
        self.rules = rules
        self.setup = setup
        self.events: list[Event] = []
        # ``rulings`` as texts or ``Said``s made texts when read; ``_told`` are texts.
        self._said: list[Any] = []
        self._told = 0
        # ``plays[i]``: what event ``i`` did, as data (``state.last_play``), to be told again
        # to each viewer as the table stands when read (``Rules.retell``).
        self.plays: list[Play | None] = []
        self.initial: S = rules.start(setup)
        # A ``ruling`` property (God Num) is read only when ``rulings`` is: words off the path.
        self._derived = isinstance(getattr(type(self.initial), "ruling", None), property)
        self.state: S = self.initial
        for e in events:
            self.apply(e)

    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def rulings(self) -> list[str]:
        """``rulings[i]`` explains event ``i`` in words (the state's ``ruling`` after it)."""
        said = self._said
        for i in range(self._told, len(said)):
            if type(said[i]) is not str:
                said[i] = str(said[i])
        self._told = len(said)
        return said

    def _ruling(self, state: S) -> Any:
        said = state.__dict__.get("said")  # a lazy ``Said`` (WuXing)
        if said is None:
            return Said([(_ruling_of, state)]) if self._derived else state.ruling
        return said

    def apply(self, event: Event, *, version: int | None = None) -> S:
        """Apply one event; raises ``StaleVersion`` if ``version`` is not the current one."""
        if version is not None and version != len(self.events):
            raise StaleVersion(
                f"the table is at version {len(self.events)}, the action was for {version}"
            )
        rules = self.rules
        fields = rules.event_fields
        if fields:
            check_event_fields(event, fields)
        try:
            state = rules.apply(self.state, event)
        except CompanionError:  # names read and refusals worded on the refused path only
            state, event = apply_named(rules, self.setup, self.state, event)
        self.events.append(dict(event))
        d = state.__dict__
        said = d.get("said")  # as ``_ruling``, inline: this runs on every event
        if said is None:
            said = Said([(_ruling_of, state)]) if self._derived else state.ruling
        self._said.append(said)
        self.plays.append(d.get("last_play"))
        self.state = state
        return state

    def settle(self, rng: random.Random) -> list[Event]:
        """Apply every companion-made random event now due (C-4); returns them."""
        made: list[Event] = []
        while (e := self.rules.chance(self.state, rng)) is not None:
            self.apply(e)
            made.append(e)
        return made

    def undo(self, count: int = 1) -> list[Event]:
        """Drop the last ``count`` events and replay; returns the dropped events."""
        if count < 1 or count > len(self.events):
            raise NothingToUndo(f"cannot undo {count} event(s) of {len(self.events)}")
        dropped = self.events[-count:]
        keep = self.events[:-count]
        state = self.initial
        rulings: list[Any] = []
        plays: list[Play | None] = []
        for e in keep:
            state = self.rules.apply(state, e)
            rulings.append(self._ruling(state))
            plays.append(state.__dict__.get("last_play"))
        self.events, self._said, self._told, self.state = keep, rulings, 0, state
        self.plays = plays
        return dropped

    def replay(self) -> S:
        """The state re-derived from the log alone (equals ``state``)."""
        state = self.rules.start(self.setup)
        for e in self.events:
            state = self.rules.apply(state, e)
        return state
