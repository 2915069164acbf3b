"""Mountains & Rivers property tests over random legal games (C-1, C-3, MR-7, MR-10)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Match
from companion.games.mountains import RULES, MountainsState
from companion.simulate import play_random

GAMES = settings(max_examples=12, deadline=None)


def check_invariants(s: MountainsState) -> None:
    # HP is never below 0; a living player has HP above 0 once an event is settled (MR-10).
    for p in s.players:
        assert p.hp >= 0
        if s.phase == "play" and p.alive:
            assert p.hp > 0 and p.tile in s.board.tiles
        if not p.alive:
            assert not p.weapons and p.tile is None
    # Every card is in exactly one place; the 16 weapons are in the pile, the discards or
    # in front of a living player, and each seat's weapon row agrees with the places (C-1).
    places = RULES.places(s)
    weapons = [c for c, f in s.faces.items() if f.deck == "weapon"]
    assert len(weapons) == 16
    where = Counter(places[c].split(":")[0] for c in weapons)
    assert sum(where.values()) == 16 and set(where) <= {"pile", "discard", "seat"}
    for p in s.players:
        assert sorted(p.weapons) == sorted(
            c for c in weapons if places[c] == f"seat:{p.seat}")
    assert sum(1 for c, pl in places.items() if s.faces[c].deck == "challenge"
               and pl.startswith(("pile", "discard"))) == 10
    assert sum(1 for c, pl in places.items() if s.faces[c].deck == "chance"
               and pl.startswith(("pile", "discard"))) == 12


@GAMES
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4),
       dice=st.sampled_from(["physical", "companion"]))
def test_random_games_terminate_conserve_cards_and_replay(seed: int, players: int,
                                                          dice: str) -> None:
    out = play_random("mountains", players, random.Random(seed), {"dice": dice})
    assert out.finished, "a random game must end (MR-10)"
    s = out.match.state
    # The last player standing wins; if the last ones fall together they share the win.
    assert s.winners and (s.winners == s.living if s.living else True)
    assert len(s.living) <= 1
    check_invariants(s)
    assert out.match.replay() == s
    # Re-applying the log step by step keeps every invariant.
    m = Match(out.match.rules, out.match.setup)
    for e in out.events:
        m.apply(e)
        check_invariants(m.state)


@GAMES
@given(seed=st.integers(0, 10_000), cut=st.integers(1, 400))
def test_undo_restores_the_previous_state(seed: int, cut: int) -> None:
    out = play_random("mountains", 3, random.Random(seed))
    m = out.match
    cut = min(cut, len(m.events) - 1)
    m.undo(len(m.events) - cut)
    before = m.state
    e = RULES.random_play(before, random.Random(seed)) or RULES.chance(before,
                                                                       random.Random(seed))
    if e is None:
        return
    m.apply(e)
    m.undo()
    assert m.state == before and len(m.events) == cut


def test_no_living_player_ever_below_zero_in_many_games() -> None:
    rng = random.Random(11)
    for _ in range(10):
        out = play_random("mountains", 4, rng)
        assert out.finished
        assert all(p.hp >= 0 for p in out.match.state.players)


def test_views_and_actions_are_json_and_offered_moves_are_legal() -> None:
    import json

    from companion.errors import CompanionError

    out = play_random("mountains", 3, random.Random(5))
    m = Match(out.match.rules, out.match.setup)
    for e in out.events:
        s = m.state
        public = RULES.view(s, None)
        json.dumps(public)
        json.dumps(RULES.referee_view(s))
        for seat in (1, 2, 3):
            mine = RULES.view(s, seat)
            assert {**mine, "you": None} == public  # nothing in this game is hidden
        acts = RULES.actions(s, None)
        json.dumps(acts)
        for a in acts:
            if a["type"] == "move":
                for c in a["fields"][0]["choices"]:
                    RULES.apply(s, {"type": "move", "seat": a["seat"], "to": c["value"]})
            if a["type"] == "end":
                RULES.apply(s, {"type": "end", "seat": a["seat"]})
            if a["type"] == "skill" and "why" in a:
                slot = a["fields"][0]["choices"][0]["value"]
                try:
                    RULES.apply(s, {"type": "skill", "seat": a["seat"], "skill": slot})
                except CompanionError:
                    pass
                else:
                    raise AssertionError(f"skill {slot} was offered as unavailable: {a}")
        m.apply(e)
