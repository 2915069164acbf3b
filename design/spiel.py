"""Each game as an OpenSpiel game (issue 30 §3), over the simulated physical table of
``companion.seatplay``: ``companion_<game>(players=N)``, sequential, with explicit chance
and imperfect information as OpenSpiel models them.

- Chance nodes are the table's ``chance_outcomes``: a card drawn into a hand or shown from
  a deck (one at a time, uniformly over what may still come), a die, the starting seat.
- A decision node belongs to ``to_move``'s seat (OpenSpiel player = seat - 1).
- Actions: the action codec below. Action ``a`` at a decision is the ``a``-th of the
  seat's legal events (``seatplay.moves``, a fixed order made from what the seat holds and
  sees, so the same in every table the seat cannot tell apart: an information set has one
  action list); at a chance node the ``a``-th outcome. ``_action_to_string`` names the
  event. Events are JSON objects with cards, zones and counts: a fixed id per possible
  event would be a table of every combination, and the order of a seat's own options is
  all a search and a learner need.
- ``information_state_string`` and ``observation_string``: ``seatplay.observation``, the
  seat's view of the table now, its own hand and its secrets (canonical JSON). It is the
  table as the seat sees it now, not the whole history of what it saw.
- ``resample_from_infostate``: ``seatplay.resample``, a table the seat cannot tell apart.
- Returns: ``seatplay.returns`` (a win shared among the winners, zero-sum). A game that
  has not ended after ``MAX_STEPS`` steps ends with zero for everyone.

OpenSpiel's C++ ``ISMCTSBot`` cannot search a game written in Python: the Python state's
C++ trampoline does not forward ``ResampleFromInfostate`` (``python_games.h``), so the C++
bot stops with "ResampleFromInfostate() not implemented". The ladder therefore uses
OpenSpiel's own Python ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``, a port of
the C++ one), which calls this module's ``resample_from_infostate``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from companion import seatplay
from companion.engine import Event
from companion.errors import BadSetup
from companion.playtest import Playtest
from companion.registry import GAMES

MAX_STEPS = 20_000  # chance and decisions together; a longer game is called off (zeros)
PREFIX = "companion_"


class _Held:
    """A table inside a state. OpenSpiel clones a Python state by ``deepcopy`` of each
    attribute; a table is immutable, so its copy is itself (else every clone would copy
    the rules and the set-up)."""

    __slots__ = ("options", "seen", "table")

    def __init__(self, table: seatplay.Table) -> None:
        self.table = table
        self.options: list[Event] | None = None  # the next step's options, once listed
        self.seen: dict[int, str] = {}  # each seat's observation, once made

    def observation(self, seat: int) -> str:
        """``seatplay.observation`` made once per seat (a search asks for it again and
        again: it is the key of the search tree's nodes)."""
        text = self.seen.get(seat)
        if text is None:
            text = self.seen[seat] = seatplay.observation(self.table, seat)
        return text

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return self


def event_text(event: Event) -> str:
    """An event as canonical JSON (its action string)."""
    return json.dumps(event, sort_keys=True, separators=(",", ":"), default=str)


@lru_cache(maxsize=32)
def playtest(game: str, players: int, options: str = "{}") -> Playtest:
    """The registered ``game``'s playtest with ``players`` seats and ``options`` (the
    ruling options as a JSON object; raises ``BadSetup`` for a bad one)."""
    try:
        chosen = json.loads(options)
    except json.JSONDecodeError:
        raise BadSetup(f"options must be a JSON object, got {options!r}") from None
    if not isinstance(chosen, dict):
        raise BadSetup(f"options must be a JSON object, got {options!r}")
    return Playtest.of(game, players, chosen)


def bound(game: str, players: int) -> int:
    """The fixed number of distinct actions (and of chance outcomes) of ``game``: 1,024, or
    every card of the table twice over if more. Measured in random games: at most 36
    options at a God Num decision, 69 in Shrine, 29 in Gem Complete, 363 in Mountains &
    Rivers at 4 seats (moves times targets); at most 88 chance outcomes (WuXing at 6
    seats). A table that offers more raises ``BadSetup`` at once."""
    return max(1024, 2 * len(playtest(game, players).setup.cards))  # options add no cards


def _game_type(game: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=PREFIX + game,
        long_name=f"Table Companion {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"players": 2, "options": "{}"},
    )


class CompanionGame(pyspiel.Game):  # type: ignore[misc]
    """One of the five games at ``players`` seats, as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None, *, game: str = "") -> None:
        players = int((params or {}).get("players", 2))
        options = str((params or {}).get("options", "{}"))
        if not 2 <= players <= 8:
            raise BadSetup(f"players must be 2-8, got {players}")
        pt = playtest(game, players, options)  # BadSetup: a count or option it refuses
        n = bound(game, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=n, max_chance_outcomes=n, num_players=players,
            min_utility=-1.0 / players, max_utility=1.0 - 1.0 / players, utility_sum=0.0,
            max_game_length=MAX_STEPS)
        super().__init__(_game_type(game), info, {"players": players, "options": options})
        self.game = game
        self.pt = pt
        self.actions = n

    def new_initial_state(self, seed: int = 0) -> CompanionState:
        """A fresh table (the deal's own choices seeded by ``seed``)."""
        table = seatplay.deal(self.pt, random.Random(f"{self.game}:deal:{seed}"))
        return CompanionState(self, table)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer()


class Observer:
    """A seat's view as a string (OpenSpiel's observer protocol; no tensor)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: CompanionState, player: int) -> None:
        pass

    def string_from(self, state: CompanionState, player: int) -> str:
        return state._held.observation(player + 1)


class CompanionState(pyspiel.State):  # type: ignore[misc]
    """A table as an OpenSpiel state."""

    def __init__(self, game: CompanionGame, table: seatplay.Table, steps: int = 0) -> None:
        super().__init__(game)
        self._held = _Held(table)
        self._steps = steps
        self._cap = game.actions

    @property
    def table(self) -> seatplay.Table:
        return self._held.table

    @property
    def steps(self) -> int:
        """Chance outcomes and decisions applied since the deal."""
        return self._steps

    def play(self, event: Event) -> None:
        """Apply ``event`` (a sampled chance outcome) straight to the table: the ladder's
        fast path, without OpenSpiel's action list (not in ``history()``)."""
        self._held = _Held(seatplay.apply(self._held.table, event))
        self._steps += 1

    @property
    def called_off(self) -> bool:
        """The game ran past ``MAX_STEPS`` without ending."""
        return self._steps >= MAX_STEPS and not self._held.table.finished

    # -- what is next
    def current_player(self) -> int:
        table = self._held.table
        if table.finished or self._steps >= MAX_STEPS:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = seatplay.to_move(table)
        if seat is not None:
            return seat - 1
        return int(pyspiel.PlayerId.CHANCE)

    def is_terminal(self) -> bool:
        return self._held.table.finished or self._steps >= MAX_STEPS

    def events(self) -> list[Event]:
        """The next step's options: the seat's legal events, or chance's outcomes."""
        held = self._held
        if held.options is not None:
            return held.options
        table = held.table
        if self.is_terminal():
            return []
        seat = seatplay.to_move(table)
        if seat is not None:
            found = seatplay.moves(table, seat)
        else:
            found = [e for e, _ in seatplay.chance_outcomes(table) or ()]
        if len(found) > self._cap:
            raise BadSetup(f"{len(found)} options at one step: more than the "
                           f"{self._cap} actions the OpenSpiel game has")
        held.options = found
        return found

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return list(range(len(self.events())))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = seatplay.chance_outcomes(self._held.table) or []
        if len(outcomes) > self._cap:
            raise BadSetup(f"{len(outcomes)} chance outcomes: more than {self._cap}")
        return [(i, p) for i, (_, p) in enumerate(outcomes)]

    def _apply_action(self, action: int) -> None:
        options = self.events()
        if not 0 <= action < len(options):
            raise ValueError(f"action {action} is not one of the {len(options)} options")
        self._held = _Held(seatplay.apply(self._held.table, options[action]))
        self._steps += 1

    def _action_to_string(self, player: int, action: int) -> str:
        options = self.events()
        if 0 <= action < len(options):
            return event_text(options[action])
        return f"action {action}"

    # -- the end
    def returns(self) -> list[float]:
        if self.called_off:
            return [0.0] * self.table.players
        return list(seatplay.returns(self._held.table))

    def rewards(self) -> list[float]:
        return self.returns() if self.is_terminal() else [0.0] * self.table.players

    # -- hidden information
    def resample_from_infostate(self, player: int, sampler: Callable[[], float]
                                ) -> CompanionState:
        """A state ``player`` cannot tell from this one (``seatplay.resample``), its hidden
        parts drawn with a seed taken from ``sampler`` (OpenSpiel's probability sampler)."""
        rng = random.Random(int(sampler() * 2**52))
        return self.resampled(player, rng)

    def resampled(self, player: int, rng: random.Random) -> CompanionState:
        """``resample_from_infostate`` from a ``random.Random`` (the ladder's seeded one)."""
        table = seatplay.resample(self._held.table, player + 1, rng)
        return CompanionState(self.get_game(), table, self._steps)

    def __str__(self) -> str:
        table = self._held.table
        return json.dumps({"state": repr(table.state), "hands": [sorted(h) for h in
                                                                 table.hands],
                           "secret": repr(table.secret), "steps": self._steps},
                          sort_keys=True)


def game_class(game: str) -> type[CompanionGame]:
    """A ``CompanionGame`` subclass bound to ``game`` (OpenSpiel builds it from params)."""

    class Bound(CompanionGame):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(params, game=game)

    Bound.__name__ = Bound.__qualname__ = f"CompanionGame_{game}"
    return Bound


_REGISTERED: set[str] = set()


def register(games: Sequence[str] = tuple(GAMES)) -> None:
    """Register ``companion_<game>`` with OpenSpiel for each of ``games`` (once)."""
    for game in games:
        if game not in GAMES:
            raise BadSetup(f"there is no game {game!r}; the games are {', '.join(GAMES)}")
        if game not in _REGISTERED:
            pyspiel.register_game(_game_type(game), game_class(game))
            _REGISTERED.add(game)


def load(game: str, players: int = 2, options: Mapping[str, Any] | None = None
         ) -> CompanionGame:
    """``companion_<game>(players=N)`` through ``pyspiel.load_game`` (registered first),
    with the ruling ``options`` (``options`` parameter: a JSON object)."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise BadSetup(f"players must be a whole number, got {players!r}")
    register([game])
    text = json.dumps(dict(options or {}), sort_keys=True, separators=(",", ":"))
    loaded: CompanionGame = pyspiel.load_game(f"{PREFIX}{game}",
                                              {"players": players, "options": text})
    return loaded
