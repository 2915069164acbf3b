"""A PettingZoo AEC environment per game (issue 30 §3), for people who train agents: the
seats take turns as ``seatplay.to_move`` says, chance is played inside ``step`` (seeded by
``reset(seed=...)``), rewards come once, at the end (``seatplay.returns``: a win shared
among the winners, zero-sum).

Each seat observes a dict:

- ``observation``: its ``seatplay.observation`` (canonical JSON, ASCII) as UTF-8 bytes,
  zero-padded to ``OBSERVATION_BYTES`` (``decode`` turns it back into text);
- ``action_mask``: which of the game's actions are legal now (``design.spiel``'s codec:
  action ``a`` is the ``a``-th of the seat's legal events).

``infos[seat]["moves"]`` names the legal events (their JSON) for a reader. WuXing has no
environment: nobody decides anything in it (every card shown is the deck's top card).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from companion import seatplay
from companion.errors import BadSetup
from design import spiel

OBSERVATION_BYTES = 65_536  # the longest seen: about 20 KB (Mountains & Rivers, 4 seats)


def decode(observation: np.ndarray[Any, Any]) -> str:
    """The observation's text back from its padded bytes."""
    return bytes(observation).rstrip(b"\0").decode("utf-8")


class TableEnv(AECEnv):  # type: ignore[misc]
    """One game at ``players`` seats; agents ``seat_1`` ... ``seat_N``."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "companion_table_v0",
                "is_parallelizable": False}

    def __init__(self, game: str, players: int = 2, render_mode: str | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        if game == "wuxing":
            raise BadSetup("WuXing has no decision a player makes (every card shown is the "
                           "deck's top card): there is nothing to train")
        if render_mode not in (None, "ansi"):
            raise BadSetup(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.game = spiel.load(game, players, options)
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(1, players + 1)]
        n = self.game.num_distinct_actions()
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0, 255, (OBSERVATION_BYTES,), np.uint8),
            "action_mask": spaces.Box(0, 1, (n,), np.int8)}) for a in self.possible_agents}
        self._rng = random.Random(0)
        self._state = self.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent) + 1

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seat(agent)
        text = seatplay.observation(self._state.table, seat).encode("utf-8")
        if len(text) > OBSERVATION_BYTES:
            raise BadSetup(f"an observation of {len(text)} bytes: more than "
                           f"{OBSERVATION_BYTES}")
        obs = np.zeros(OBSERVATION_BYTES, np.uint8)
        obs[: len(text)] = np.frombuffer(text, np.uint8)
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if self._state.current_player() == seat - 1:
            mask[: len(self._state.events())] = 1
        return {"observation": obs, "action_mask": mask}

    def _advance(self) -> None:
        """Chance until a seat decides or the game ends; then whose turn it is."""
        state = self._state
        while not state.is_terminal() and state.current_player() < 0:
            event = seatplay.chance(state.table, self._rng)
            if event is None:
                raise BadSetup("the table has neither a seat to move nor chance")
            state.play(event)
        if state.is_terminal():
            returns = state.returns()
            for agent in self.agents:
                self.rewards[agent] = returns[self._seat(agent) - 1]
                self.terminations[agent] = not state.called_off
                self.truncations[agent] = state.called_off
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
            self.infos[self.agent_selection] = {
                "moves": [spiel.event_text(e) for e in state.events()]}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(seed)
        self._state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._advance()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        options = self._state.events()
        if action is None or not 0 <= int(action) < len(options):
            raise BadSetup(f"{agent} may take an action of 0-{len(options) - 1} now, "
                           f"got {action!r}")
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        self._state.apply_action(int(action))
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str:
        if self._state.is_terminal():
            return f"over: {self._state.returns()}"
        seat = self._state.current_player() + 1
        return f"seat {seat} to move: {len(self._state.events())} legal events"

    def close(self) -> None:
        pass


def env(game: str, players: int = 2, render_mode: str | None = None,
        options: Mapping[str, Any] | None = None) -> TableEnv:
    """PettingZoo's usual entry point: ``env("godnum", 3)`` (``options``: the rulings')."""
    return TableEnv(game, players, render_mode, options)
