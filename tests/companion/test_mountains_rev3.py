"""Mountains & Rivers, rulings revision 3 (issue 28): each test cites the ruling it checks."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from test_mountains_helpers import at, play, put, serial, to_play, turn_of

from companion.errors import IllegalPlay
from companion.games.mountains import RULES, MountainsState, load_board, reachable
from companion.games.mountains.marks import MARKS
from companion.games.mountains.state import reachable_moves
from companion.simulate import play_random
from companion.words import faults


def three() -> MountainsState:
    """Ana (Huan), Bo, Cy in play from the start corner A1; Ana's turn on C1."""
    s = to_play(3, chars=("huan", "xi-bian", "ling-yu")).state
    s = put(put(put(s, 1, tile="C1"), 2, tile="E3"), 3, tile="C4")
    return turn_of(s, 1)


# -- MR-1 rev. 3: blunt and armoury tiles ---------------------------------------------------
def test_mr1_rev3_the_board_has_a_blunt_and_an_armoury_tile_in_every_quadrant() -> None:
    board = load_board()
    kinds = Counter(t.kind for t in board)
    for kind in ("blunt", "armoury"):
        assert {t.colour for t in board if t.kind == kind} == {"earth", "air", "fire", "water"}
        assert kind in board.kinds
    # The board keeps its count of each other kind (only plain tiles became new ones).
    assert {k: kinds[k] for k in ("blessing", "hazard", "sharpen", "weapon", "challenge",
                                  "chance", "stairs")} == {
        "blessing": 4, "hazard": 4, "sharpen": 4, "weapon": 8, "challenge": 8, "chance": 8,
        "stairs": 4}
    assert kinds["plain"] == 41 - 8
    marks = [m.mark for m in MARKS.values() if m.mark]
    assert len(marks) == len(set(marks)), "one mark per kind, on paper and screen"


def test_mr1_rev3_blunt_takes_1_damage_from_this_turns_attack_never_below_0() -> None:
    s = put(three(), 1, weapons=("feather-darts", "mist-needles"))
    s = play(s, {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "C2"})
    assert s.blunted and "blunt tile" in s.ruling
    s = play(s, {"type": "end", "seat": 1}, {"type": "roll", "seat": 3, "dice": [1]})
    # Lost at the end of the turn, like sharpen.
    assert not s.blunted
    s = put(three(), 1, weapons=("feather-darts", "mist-needles"))
    s = play(s, {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "C2"})
    s = play(s, {"type": "attack", "seat": 1, "strikes": [
        {"card": serial(s, "feather-darts"), "target": 2},
        {"card": serial(s, "mist-needles"), "target": 3}]})
    # Attack 1 on Bo, minus 1: nothing (never below 0); the second target takes it all.
    assert s.player(2).hp == 10 and s.player(3).hp == 9 and not s.blunted
    assert "Bo loses 0 HP, 1 less for the blunt tile" in s.ruling
    assert not faults(s.ruling.replace(" (MR-7)", ""))


def test_mr1_rev3_blunt_after_the_attack_does_nothing() -> None:
    s = put(three(), 1, weapons=("feather-darts",))
    s = play(s, {"type": "attack", "seat": 1, "card": serial(s, "feather-darts"), "target": 2},
             {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "C2"})
    assert not s.blunted and "already made" in s.ruling


def test_mr1_rev3_armoury_gives_a_weapon_as_a_weapon_tile_does() -> None:
    s = put(three(), 1, tile="A3")
    s = play(s, {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "A4"})
    assert "armoury tile" in s.ruling and "draws a weapon card" in s.ruling
    assert [(p.kind, p.seat, p.deck) for p in s.pending] == [("draw", 1, "weapon")]
    card = serial(s, "jade-axe")
    s = play(s, {"type": "scan", "seat": 1, "card": card, "zone": "seat:1"})
    assert card in s.player(1).weapons and card in s.fresh


def test_mr1_rev3_the_sharpened_attack_reads_without_brackets_in_brackets() -> None:
    """Issue 27 point 13: "hits Ben for 1 (Ben loses 2 HP (+1 sharpened))" is gone."""
    s = put(three(), 1, tile="D4", weapons=("feather-darts",))
    s = play(s, {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "D3"},
             {"type": "attack", "seat": 1, "card": serial(s, "feather-darts"), "target": 2})
    assert s.player(2).hp == 8
    assert "Feather Darts hits Bo for 1; Bo loses 2 HP, 1 more for the sharpen tile" in s.ruling
    assert not faults(s.ruling.replace(" (MR-7)", ""))


# -- MR-5 rev. 3: the start tile is never entered or passed ---------------------------------
def _walks_avoiding(board: Any, start: str, steps: int, avoid: str) -> set[str]:
    """Brute force: ends of walks of exactly ``steps`` steps, no tile twice, never on
    ``avoid``."""
    out: set[str] = set()

    def go(pos: str, left: int, seen: frozenset[str]) -> None:
        if left == 0:
            out.add(pos)
            return
        for n in board.steps(pos):
            if n not in seen and n != avoid:
                go(n, left - 1, seen | {n})

    go(start, steps, frozenset({start}))
    return out


def test_mr5_rev3_a_move_never_ends_on_or_passes_through_the_start_tile() -> None:
    board = load_board()
    for here in ("A2", "B1", "B2", "C3"):
        for steps in range(1, 6):
            got = reachable(board, here, steps, frozenset({"A1"}))
            assert got == _walks_avoiding(board, here, steps, "A1"), (here, steps)
            assert "A1" not in got
    # From B1 in 2 steps, A2 is still reached around the start tile (B1-B2-A2).
    assert "A2" in reachable(board, "B1", 2, frozenset({"A1"}))
    m = to_play(3)
    s = turn_of(put(m.state, 1, tile="A2"), 1, roll=(1,))
    assert "A1" not in reachable_moves(s) and set(reachable_moves(s)) == {"A3", "B2"}
    m = at(m, s)
    before, log = m.state, list(m.events)
    with pytest.raises(IllegalPlay, match="start tile A1") as err:
        m.apply({"type": "move", "seat": 1, "to": "A1"})
    assert err.value.rule == "MR-5" and m.state is before and m.events == log


def test_mr5_rev3_the_first_move_leaves_the_start_tile() -> None:
    m = to_play(3)
    s = turn_of(m.state, 1, roll=(1,))
    assert s.player(1).tile == "A1" and set(reachable_moves(s)) == {"A2", "B1"}


# -- MR-12 rev. 3: two players are the final showdown from turn 1 ----------------------------
def test_mr12_rev3_a_two_player_game_rolls_two_dice_from_the_first_turn() -> None:
    m = to_play(2)
    assert m.state.showdown and m.state.turn_no == 1
    view = RULES.view(m.state, 1)
    assert "two dice" in view["prompt"].lower() or "2 dice" in view["prompt"].lower()


def test_mr1_rev3_the_simulations_count_the_new_tiles() -> None:
    """``companion simulate`` reports how often the sharpen, blunt and armoury tiles act."""
    seen = {"sharpen_tiles": 0.0, "blunt_tiles": 0.0, "armoury_tiles": 0.0}
    for seed in range(12):
        out = play_random("mountains", 3, random.Random(seed))
        stats = out.match.rules.stats(out.match.state)
        for key in seen:
            seen[key] += stats[key]
    assert all(n > 0 for n in seen.values()), seen
