"""Mountains & Rivers rulings the audit found unmet (issue 18 §6): Ling Yu's basic skill
after her attack (MR-8 rev. 2), and a challenge's result only between the drawer and the
opponent the drawer chose (MR-9, C-7)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_mountains_helpers import at, new, play, put, serial, to_play, turn_of

from companion.engine import Match
from companion.errors import CompanionError, IllegalPlay, OutOfTurn
from companion.games.mountains import RULES, MountainsState


def refused(m: Match[Any], event: dict[str, Any], error: type[CompanionError],
            rule: str) -> CompanionError:
    before, log = m.state, list(m.events)
    with pytest.raises(error) as info:
        m.apply(event)
    assert info.value.rule == rule and m.state is before and m.events == log
    return info.value


# -- MR-8 rev. 2: Ling Yu's basic skill after her attack -----------------------------------
def test_mr8_rev2_ling_yu_basic_after_her_attack_is_refused() -> None:
    """The doubled range can no longer apply once she attacked (as Huan's skill 1)."""
    m = to_play(3, chars=("ling-yu", "huan", "xi-bian"))
    s = put(put(m.state, 1, tile="E5", weapons=("tide-trident", "ember-whip")), 2, tile="E4")
    s = play(s, {"type": "attack", "seat": 1, "card": serial(s, "ember-whip"), "target": 2})
    assert s.attacked and not s.moved
    m = at(m, s)
    err = refused(m, {"type": "skill", "seat": 1, "skill": "basic",
                      "card": serial(s, "tide-trident")}, IllegalPlay, "MR-8")
    assert "already attacked" in str(err)
    assert not any(a["type"] == "skill" and a.get("skill") == "basic" and "why" not in a
                   for a in RULES.actions(m.state, 1))
    m.apply({"type": "roll", "seat": 1, "dice": [2]})  # her movement is still hers
    assert m.state.roll


def test_mr8_ling_yu_basic_before_her_attack_still_doubles_the_range() -> None:
    m = to_play(3, chars=("ling-yu", "huan", "xi-bian"))
    s = put(m.state, 1, tile="E5", weapons=("tide-trident",))
    s = play(s, {"type": "skill", "seat": 1, "skill": "basic",
                 "card": serial(s, "tide-trident")})
    assert s.double_range == serial(s, "tide-trident")


# -- MR-9: the result is between the drawer and the opponent they chose ----------------------
def _challenge(players: int = 3) -> Match[Any]:
    """Ana has drawn the challenge 'Mountain Gaze' (B2 is a challenge tile)."""
    m = to_play(players)
    s = turn_of(put(m.state, 1, tile="B1"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "B2"},
             {"type": "scan", "card": serial(s, "mountain-gaze"), "zone": "seat:1"})
    return at(m, s)


def test_mr9_a_player_the_drawer_did_not_choose_cannot_enter_a_result() -> None:
    m = _challenge()
    m.apply({"type": "opponent", "seat": 1, "target": 2})  # Ana challenges Bo
    # Cy names herself Ana's opponent and claims the win: refused, whoever sends it.
    err = refused(m, {"type": "result", "seat": 3, "winner": 3, "loser": 1}, IllegalPlay,
                  "MR-9")
    assert "Ana challenged Bo" in str(err)
    refused(m, {"type": "result", "winner": 3, "loser": 1}, IllegalPlay, "MR-9")
    refused(m, {"type": "result", "seat": 1, "winner": 1, "loser": 3}, IllegalPlay, "MR-9")
    m.apply({"type": "result", "seat": 2, "winner": 2, "loser": 1})
    assert m.state.player(2).hp > m.state.player(3).hp


def test_mr9_before_the_drawer_chooses_only_the_drawer_or_the_referee_enters_it() -> None:
    m = _challenge()
    err = refused(m, {"type": "result", "seat": 3, "winner": 3, "loser": 1}, OutOfTurn, "C-7")
    assert "Ana has not chosen an opponent yet" in str(err)
    refused(m, {"type": "opponent", "seat": 3, "target": 3}, OutOfTurn, "C-7")
    refused(m, {"type": "opponent", "seat": 1, "target": 1}, IllegalPlay, "MR-9")
    m.apply({"type": "result", "seat": 1, "winner": 1, "loser": 3})  # her entry is her choice
    assert not any(p.kind == "result" for p in m.state.pending)


def test_mr9_with_one_opponent_left_the_choice_is_made_at_the_draw() -> None:
    m = _challenge(players=2)
    pend = next(p for p in m.state.pending if p.kind == "result")
    assert pend.other == 2
    assert [a["type"] for a in RULES.actions(m.state, 2)] == ["result"]


def test_mr9_the_choice_cannot_be_changed_and_shows_in_the_words() -> None:
    m = _challenge()
    m.apply({"type": "opponent", "seat": 1, "target": 3})
    assert "against Cy" in " ".join(str(x) for x in RULES.view(m.state, 2)["pending"])
    refused(m, {"type": "opponent", "seat": 1, "target": 2}, IllegalPlay, "MR-9")
    assert RULES.view(m.state, None)["pending"][0]["opponent"] == 3
    state: MountainsState = m.state
    assert next(p for p in state.pending if p.kind == "result").other == 3


def _third_players_refused(seed: int, players: int) -> int:
    """Plays a random game; whenever a challenge is being played, checks that a result
    naming a player the drawer did not choose (or, before the choice, sent by anyone but
    the drawer) is refused, and that the drawer and the chosen opponent are offered the
    result. Returns how many such refusals were checked."""
    rng = random.Random(seed)
    m = new(players, seed=seed)
    checked = 0
    for _ in range(400):
        s = m.state
        if s.finished:
            break
        pend = next((p for p in s.pending if p.kind == "result"), None)
        if pend is not None:
            for x in s.living:
                if x in (pend.seat, pend.other):
                    assert "result" in [a["type"] for a in RULES.actions(s, x)]
                    continue
                assert RULES.actions(s, x) == []
                for event in ({"type": "result", "seat": x, "winner": x, "loser": pend.seat},
                              {"type": "result", "seat": x, "winner": pend.seat, "loser": x}):
                    with pytest.raises(CompanionError):
                        RULES.apply(s, event)
                    checked += 1
        event = RULES.chance(s, rng) or RULES.random_play(s, rng)
        if event is None:
            break
        m.apply(event)
    return checked


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 4))
def test_mr9_over_random_games_no_third_player_enters_a_challenge_result(
        seed: int, players: int) -> None:
    _third_players_refused(seed, players)


def test_mr9_the_random_games_do_play_challenges() -> None:
    assert sum(_third_players_refused(seed, 3) for seed in range(4)) > 0
