"""A simulated physical table (issue 30 §1): what the companion knows (the engine state)
plus what only the cards know (each seat's kept hand and anything else hidden), so that a
simulated player decides from its own seat, as a player at a real table does.

The pieces, for any registered game (one ``Seats`` model per game in
``companion/games/<game>/seatplay.py``):

- ``deal(pt, rng)``: a new table (``pt``: anything with ``game``, ``rules`` and ``setup``,
  such as ``companion.playtest.Playtest``).
- ``chance_outcomes(table)``: when the next step is chance, its outcomes with their
  probabilities (summing to 1): a card drawn into a hand, a card shown from the top of a
  deck, a die, rock-paper-scissors, the starting seat... else ``None``. Cards are drawn
  lazily, one at a time, uniformly over what the seat's deck may still hold: the same, in
  law, as a deck shuffled once, and it keeps a search's chance nodes small. ``chance``
  samples it.
- ``to_move(table)``: the seat whose decision is next (``None``: chance is next, or the
  game is over). Where seats act at once, the model serializes them in a fixed order and
  the later seat does not see the earlier one's hidden choice.
- ``moves(table, seat)``: every legal event of that seat now, made from the cards it holds
  and what it sees, in a fixed order. A forced single move is still a move.
- ``apply(table, event)``: the engine rules on it (``Rules.apply``) and the hands follow.
  Draws are table events the engine never sees (it counts a hand, it does not see it):
  ``{"type": "deal", "seat": s, "card": SERIAL}`` puts one card into seat ``s``'s hand;
  a model may add its own table events (God Num's ``legion``: which printed legion a seat
  took from the box).
- ``observation(table, seat)``: everything that seat may see, as one canonical JSON text:
  its ``Rules.view`` and its own hand (and private extras), nothing else.
- ``resample(table, seat, rng)``: a table with the same observation for ``seat`` whose
  hidden parts (the other hands, the unseen decks, other seats' secrets) are drawn again,
  consistently: the honest look-ahead of ``companion.playtest``'s greedy player, and the
  determinization of an information-set search.
- ``returns(table)``: for a finished game, per seat: winners share 1, everybody then loses
  ``1/n``, so the returns sum to 0 (a win in a two-seat game: +0.5 / -0.5; a shared win
  of two in four seats: +0.25 each, -0.25 each for the others). An unfinished game: zeros.

A game outside the registry (a test's stand-in) gets ``Open``: no hidden cards, every step
chance (``Rules.chance``, else ``Rules.random_play``).
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.engine import Event, Rules, Setup, evolve
from companion.errors import IllegalPlay, MalformedEvent

DEAL = "deal"  # a table event: one card from a seat's deck into its hand
GAMES = ("wuxing", "godnum", "shrine", "mountains", "gemcomplete")


class Game(Protocol):
    """What ``deal`` needs of a playtest: the game's id, rules and one table's set-up."""

    @property
    def game(self) -> str: ...

    @property
    def rules(self) -> Rules[Any]: ...

    @property
    def setup(self) -> Setup: ...


@dataclass(frozen=True, eq=False)
class Table:
    """A physical table: the engine ``state`` (what the companion knows), each seat's kept
    ``hands`` (``hands[seat - 1]``: the serials it holds, dealt once and kept between
    turns) and the model's ``secret`` (whatever else only the cards know, per game: God
    Num's and Gem Complete's printed deck each seat took, what a seat remembers...).
    ``seats`` is the game's model (``Seats``), ``rules`` and ``setup`` the table's."""

    rules: Rules[Any] = field(repr=False)
    seats: Seats = field(repr=False)
    setup: Setup = field(repr=False)
    state: Any
    hands: tuple[frozenset[str], ...]
    secret: tuple[Any, ...] = ()

    @property
    def players(self) -> int:
        return len(self.setup.players)

    @property
    def finished(self) -> bool:
        return bool(self.state.finished)

    def hand(self, seat: int) -> frozenset[str]:
        return self.hands[seat - 1]

    def evolve(self, **changes: Any) -> Table:
        """A copy with ``changes`` (``engine.evolve``: one dict copy; this runs per event)."""
        return evolve(self, **changes)


class Seats:
    """One game's physical side. The defaults fit a game without hands and without
    chance; each game's model says what its chance, seats to move and moves are."""


    def start(self, rules: Rules[Any], setup: Setup, rng: random.Random) -> Table:
        """A new table (the deal's random choices, if any, come from ``rng``)."""
        state = rules.start(setup)
        return Table(rules, self, setup, state, (frozenset(),) * len(setup.players))

    def chance_outcomes(self, table: Table) -> list[tuple[Event, float]] | None:
        return None

    def chance(self, table: Table, rng: random.Random) -> Event | None:
        """One sample of ``chance_outcomes`` (a model may do it without listing them all;
        it must pick the same outcome for the same ``rng``)."""
        outcomes = self.chance_outcomes(table)
        return None if outcomes is None else pick(outcomes, rng)

    def to_move(self, table: Table) -> int | None:
        return None

    def moves(self, table: Table, seat: int) -> list[Event]:
        return []

    def check(self, table: Table, event: Event) -> None:
        """Refuse (``IllegalPlay``) a card ``event`` takes from a hand that does not hold
        it: the engine counts hands and cannot tell a hand from a deck. Default: none."""

    def table_event(self, table: Table, event: Event) -> Table | None:
        """A table event (a draw) applied, or ``None`` if ``event`` is the engine's."""
        if event.get("type") != DEAL:
            return None
        seat, card = event.get("seat"), event.get("card")
        if not isinstance(seat, int) or not 1 <= seat <= table.players:
            raise MalformedEvent(f"a deal names a seat at the table, got {seat!r}")
        if not isinstance(card, str) or card not in self.pool(table, seat) \
                or self.owed(table, seat) < 1:
            raise IllegalPlay(f"seat {seat} cannot draw {card!r} now")
        hands = list(table.hands)
        hands[seat - 1] = hands[seat - 1] | {card}
        return table.evolve(hands=tuple(hands))

    def due_draw(self, table: Table) -> list[tuple[Event, float]] | None:
        """The first seat (in seat order) owed a card: one card from its deck, each card it
        may still give equally likely; ``None`` if no hand is owed a card."""
        for seat in range(1, table.players + 1):
            if self.owed(table, seat) > 0:
                pool = self.pool(table, seat)
                if not pool:
                    raise IllegalPlay(f"seat {seat} is owed a card and its deck is empty")
                return uniform([{"type": DEAL, "seat": seat, "card": c} for c in pool])
        return None

    def pool(self, table: Table, seat: int) -> Sequence[str]:
        """The cards seat ``seat``'s deck may still give, sorted (for draws)."""
        return ()

    def owed(self, table: Table, seat: int) -> int:
        """Cards the engine counts in seat ``seat``'s hand that the table has not drawn."""
        return 0

    def kept(self, before: Table, event: Event, state: Any) -> Table:
        """The table after the engine applied ``event`` (now at ``state``): the hands lose
        what left them. Default: hands unchanged."""
        return before.evolve(state=state)

    def private(self, table: Table, seat: int) -> Any:
        """What only ``seat`` sees besides its hand (JSON-ready)."""
        return None

    def resample(self, table: Table, seat: int, rng: random.Random) -> Table:
        return table


class Open(Seats):
    """A game without a seat model (a test's stand-in game): nothing hidden, every step
    chance: ``Rules.chance``, else ``Rules.random_play``."""

    def chance(self, table: Table, rng: random.Random) -> Event | None:
        if table.finished:
            return None
        return (table.rules.chance(table.state, rng)
                or table.rules.random_play(table.state, rng))

    def chance_outcomes(self, table: Table) -> list[tuple[Event, float]] | None:
        raise ValueError(f"{table.setup.game!r} has no seat model: its chance cannot be "
                         "listed")


def from_hand(table: Table, seat: object, cards: Sequence[object]) -> None:
    """Raise ``IllegalPlay`` unless seat ``seat`` holds every one of ``cards``."""
    if not isinstance(seat, int) or not 1 <= seat <= table.players:
        return  # the engine refuses a seat that is not at the table
    missing = [c for c in cards if c not in table.hand(seat)]
    if missing:
        raise IllegalPlay(f"seat {seat} does not hold {missing[0]!r}: a player plays only "
                          "the cards in its hand")


def pick(outcomes: Sequence[tuple[Event, float]], rng: random.Random) -> Event:
    """One outcome drawn by its probability (equal ones with one ``randrange``)."""
    if not outcomes:
        raise ValueError("no outcome to draw from")
    first = outcomes[0][1]
    if all(p == first for _, p in outcomes):
        return outcomes[rng.randrange(len(outcomes))][0]
    x = rng.random()
    for event, p in outcomes:
        x -= p
        if x < 0:
            return event
    return outcomes[-1][0]


def uniform(events: Sequence[Event]) -> list[tuple[Event, float]]:
    """Equal odds for each of ``events``."""
    p = 1.0 / len(events)
    return [(e, p) for e in events]


_MODELS: dict[str, Seats] = {}


def model(game: str) -> Seats:
    """The seat model of ``game`` (``Open`` for a game outside the registry)."""
    found = _MODELS.get(game)
    if found is None:
        if game in GAMES:  # imported when first played: the engines stay apart
            found = importlib.import_module(f"companion.games.{game}.seatplay").SEATS
        else:
            found = Open()
        _MODELS[game] = found
    return found


# ------------------------------------------------------------------------- the interface


def deal(pt: Game, rng: random.Random) -> Table:
    """A new table of ``pt.game`` with ``pt.setup``; the deal's random choices from ``rng``."""
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, got {rng!r}")
    return model(pt.game).start(pt.rules, pt.setup, rng)


def chance_outcomes(table: Table) -> list[tuple[Event, float]] | None:
    """The next step's outcomes with their probabilities if it is chance, else ``None``."""
    if table.finished:
        return None
    return table.seats.chance_outcomes(table)


def chance(table: Table, rng: random.Random) -> Event | None:
    """A sample of ``chance_outcomes`` (``None``: a seat decides next, or it is over)."""
    if table.finished:
        return None
    return table.seats.chance(table, rng)


def to_move(table: Table) -> int | None:
    """The seat whose decision is next; ``None`` when chance is next or the game is over."""
    if table.finished:
        return None
    return table.seats.to_move(table)


def moves(table: Table, seat: int) -> list[Event]:
    """Every legal event of ``seat`` now, from what it holds and sees, in a fixed order
    (empty when it is not that seat's decision)."""
    _check_seat(table, seat)
    if table.finished:
        return []
    return table.seats.moves(table, seat)


def apply(table: Table, event: Event) -> Table:
    """The table after ``event``: a draw moves a card into a hand; any other event is
    ruled on by the engine (raises its ``CompanionError``) and the hands follow; a card
    the engine lets a seat show that its kept hand does not hold raises ``IllegalPlay``."""
    if not isinstance(event, Mapping):
        raise MalformedEvent(f"an event must be a JSON object, got {event!r}")
    model = table.seats
    done = model.table_event(table, event)
    if done is not None:
        return done
    model.check(table, event)
    return model.kept(table, event, table.rules.apply(table.state, event))


def observation(table: Table, seat: int) -> str:
    """Everything ``seat`` may see, as canonical JSON: its view, its hand, its secrets."""
    _check_seat(table, seat)
    return json.dumps({"view": table.rules.view(table.state, seat),
                       "hand": sorted(table.hand(seat)),
                       "private": table.seats.private(table, seat)},
                      sort_keys=True, separators=(",", ":"), default=str)


def resample(table: Table, seat: int, rng: random.Random) -> Table:
    """A table ``seat`` cannot tell from ``table`` (the same ``observation``), its hidden
    parts drawn again from ``rng``."""
    _check_seat(table, seat)
    return table.seats.resample(table, seat, rng)


def returns(table: Table) -> tuple[float, ...]:
    """Per seat: winners share 1, minus ``1/n`` for everyone (sums to 0); zeros unless
    finished."""
    n = table.players
    if not table.finished or not table.state.winners:
        return (0.0,) * n
    winners = set(table.state.winners)
    share = 1.0 / len(winners)
    return tuple((share if s in winners else 0.0) - 1.0 / n for s in range(1, n + 1))


def _check_seat(table: Table, seat: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= table.players:
        raise MalformedEvent(f"there is no seat {seat!r} at this table (1-{table.players})")
