"""God Num by camera (C-6 rev. 3, C-9; issue 26): the pot and the Void are zones of the mat
where the camera referees a card laid straight there. A card laid face up on the pot is the
play of the player whose turn it is; each card laid face up in the Void is one discard (one
karma point), and the turn stays open until the player taps End turn (the camera cannot
know they have finished). Whole random games played this way end as the typed games do."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import Match
from companion.protocol import PROTOCOLS
from companion.registry import find_rules
from companion.simulate import play_random

RULES = find_rules("godnum")


def by_camera(match: Match[Any]) -> tuple[Match[Any], int]:
    """``match`` played again as the camera sees it: every play a card laid on the pot,
    every discard its cards laid one by one in the Void (then End turn)."""
    again = Match(RULES, match.setup)
    seen = 0
    for e in match.events:
        kind = e.get("type")
        if kind == "play":
            again.apply({"type": "scan", "card": e["card"], "zone": "pot"})
            seen += 1
            continue
        if kind != "discard" or e.get("more"):
            again.apply(e)
            continue
        seat, burden = e["seat"], again.state.burdened
        for card in e["cards"]:
            if again.state.finished or again.state.legion(seat).eliminated:
                break  # the karma limit reached with an earlier card (GN-9)
            again.apply({"type": "scan", "card": card, "zone": "void"})
            seen += 1
        if not burden and again.state.discarding and again.state.turn == seat:
            again.apply({"type": "end_turn", "seat": seat})  # the one tap (protocol)
    return again, seen


@pytest.mark.parametrize("players", [2, 4, 6])
def test_whole_games_by_camera_end_as_the_typed_games(players: int) -> None:
    assert {"pot", "void"} <= set(RULES.zones) == set(PROTOCOLS["godnum"].zones)
    for seed in range(4):
        typed = play_random("godnum", players, random.Random(seed)).match
        again, seen = by_camera(typed)
        assert seen > 0
        assert again.state.finished and again.state.winners == typed.state.winners
        assert RULES.places(again.state) == RULES.places(typed.state)
        assert again.replay() == again.state
