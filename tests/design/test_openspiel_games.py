"""Each game as an OpenSpiel game (issue 30 §3): OpenSpiel's own checks pass for all five,
and its information-set search plays from the seat's view only."""

from __future__ import annotations

import random

import pyspiel
import pytest

from companion import seatplay
from companion.errors import BadSetup
from design import ladder, spiel

GAMES = ("wuxing", "godnum", "shrine", "mountains", "gemcomplete")


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_simulation_test_passes(game: str) -> None:
    """OpenSpiel's C++ random-simulation test: legal actions sorted and named uniquely,
    clones equal, chance outcomes summing to 1, observations at every step, zero-sum
    returns within the game's bounds, a game no longer than its maximum."""
    g = spiel.load(game, 2)
    assert g.get_type().short_name == f"companion_{game}"
    assert g.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert g.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(g, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(("game", "players"), [("godnum", 4), ("shrine", 3),
                                               ("mountains", 3), ("wuxing", 5)])
def test_random_simulation_test_passes_with_more_seats(game: str, players: int) -> None:
    spiel.register()
    g = pyspiel.load_game(f"companion_{game}(players={players})")
    assert g.num_players() == players
    pyspiel.random_sim_test(g, num_sims=1, serialize=False, verbose=False)


def test_a_player_count_the_game_refuses_is_refused() -> None:
    with pytest.raises(BadSetup, match="Gem Complete"):
        spiel.load("gemcomplete", 3)
    with pytest.raises(BadSetup, match="no game"):
        spiel.register(["chess"])
    with pytest.raises(BadSetup, match="nonsense"):
        spiel.load("godnum", 2, {"nonsense": 1})


def test_ruling_options_reach_the_openspiel_game() -> None:
    g = spiel.load("godnum", 3, {"bust": "stand"})
    assert g.pt.setup.options["bust"] == "stand"
    assert g.get_parameters()["options"] == '{"bust":"stand"}'


def _decision(game: str, seed: int) -> spiel.CompanionState:
    """A state of ``game`` at a seat's decision with several options, after random play."""
    g = spiel.load(game, 2)
    rng = random.Random(seed)
    state = g.new_initial_state()
    while True:
        assert not state.is_terminal()
        if state.current_player() < 0:
            event = seatplay.chance(state.table, rng)
            assert event is not None
            state.play(event)
        elif len(state.events()) > 1 and rng.random() < 0.5:
            return state
        else:
            state.apply_action(rng.randrange(len(state.events())))


@pytest.mark.parametrize("game", ["godnum", "shrine", "gemcomplete"])
def test_a_resampled_state_is_the_same_information_state(game: str) -> None:
    """What IS-MCTS checks at every simulation: the seat cannot tell the resampled table
    from the real one, and has the same actions there."""
    state = _decision(game, 3)
    player = state.current_player()
    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(7, 0.0,
                                                                                    1.0))
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.legal_actions() == state.legal_actions()
    assert ([other.action_to_string(player, a) for a in other.legal_actions()]
            == [state.action_to_string(player, a) for a in state.legal_actions()])


def test_the_search_player_decides_from_its_seat_only() -> None:
    """Two God Num tables that differ only in what the seat cannot see (the other hand,
    the unseen decks) give the search player the same decision."""
    state = _decision("godnum", 5)
    player = state.current_player()
    hidden = state.resampled(player, random.Random(11))
    assert str(hidden) != str(state)  # the hidden cards differ...
    assert hidden.information_state_string(player) == state.information_state_string(player)
    search = ladder.Search(state.get_game(), 30)
    assert search.act(state, random.Random(2)) == search.act(hidden, random.Random(2))


def test_the_cpp_search_cannot_resample_a_python_game() -> None:
    """Why the ladder uses OpenSpiel's Python IS-MCTS: the C++ bot asks the state to
    resample itself, and a Python game's state does not pass that on (open_spiel 2.0)."""
    state = _decision("godnum", 5)
    bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 1.0, 10)
    with pytest.raises(pyspiel.SpielError, match="ResampleFromInfostate"):
        bot.get_policy(state)
