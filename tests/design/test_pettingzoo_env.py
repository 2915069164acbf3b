"""A PettingZoo AEC environment per game (issue 30 §3): PettingZoo's own API test passes,
the action mask is the seat's legal events, a seeded reset replays the same game."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from companion.errors import BadSetup
from design import petting


def _quiet_api_test(env: petting.TableEnv) -> None:
    # A dict observation with an action mask is PettingZoo's own pattern for card games
    # (its classic games are exempted from these two notes by name, ours cannot be).
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(env, num_cycles=100)


@pytest.mark.parametrize(("game", "players"), [("godnum", 3), ("shrine", 2),
                                               ("mountains", 2), ("gemcomplete", 2)])
def test_pettingzoo_api_test_passes(game: str, players: int) -> None:
    _quiet_api_test(petting.env(game, players))


def test_the_mask_is_the_seats_legal_events_and_the_observation_its_view() -> None:
    env = petting.env("shrine", 2)
    env.reset(seed=3)
    agent = env.agent_selection
    obs, _, _, _, info = env.last()
    moves = info["moves"]
    assert obs["action_mask"].sum() == len(moves) > 0
    assert obs["action_mask"][: len(moves)].all()
    view = json.loads(petting.decode(obs["observation"]))
    assert set(view) == {"view", "hand", "private"}
    assert agent in env.agents


def _play(seed: int) -> list[float]:
    """A God Num game where each seat takes its last legal event; each seat's reward."""
    env = petting.env("godnum", 2)
    env.reset(seed=seed)
    paid = {}
    for agent in env.agent_iter():
        obs, reward, done, cut, _ = env.last()
        if done or cut:
            paid[agent] = reward
        env.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[-1]))
    return [paid[a] for a in env.possible_agents]


def test_a_seeded_reset_replays_the_same_game_and_pays_the_winner() -> None:
    first = _play(5)
    assert first == _play(5)
    assert sorted(first) == [-0.5, 0.5]


def test_wuxing_has_no_environment() -> None:
    with pytest.raises(BadSetup, match="no decision"):
        petting.env("wuxing", 2)
