"""Mountains & Rivers: setup, movement, tiles, weapons, cards, defeat, dice (MR-1..MR-11)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from test_mountains_helpers import at, new, play, put, serial, to_play, turn_of

import companion_cli
from companion.errors import (
    CardNotAvailable,
    CompanionError,
    GameOver,
    IllegalPlay,
    OutOfTurn,
)
from companion.games.mountains import RULES, move_steps, order_needs, reachable_moves
from companion.games.mountains.board import load_board, reachable
from companion.games.mountains.state import MountainsState


def refused(m: Any, event: dict[str, Any], err: type[CompanionError], rule: str | None,
            match: str | None = None) -> CompanionError:
    """Apply a bad event: it raises, names the rule, and changes neither state nor log."""
    before, log = m.state, list(m.events)
    with pytest.raises(err, match=match) as info:
        m.apply(event)
    assert info.value.rule == rule
    assert m.state is before and m.events == log
    return info.value


# -- MR-1 board, MR-2 characters and corners, MR-3 setup ----------------------------------
def test_mr1_board_in_view() -> None:
    m = to_play(2)
    v = RULES.view(m.state, None)
    assert v["board"]["size"] == 9 and len(v["board"]["tiles"]) == 81
    assert {"from": "E4", "to": "E5"} in v["board"]["arrows"]


def test_mr3_pick_order_dice_ties_reroll() -> None:
    m = new(3)
    assert order_needs(m.state) == [1, 2, 3]
    m.apply({"type": "roll", "seat": 1, "dice": [5]})
    m.apply({"type": "roll", "seat": 2, "die": 5})
    m.apply({"type": "roll", "seat": 3, "dice": [2]})
    assert order_needs(m.state) == [1, 2]  # the tie re-rolls, the lowest is settled
    refused(m, {"type": "roll", "seat": 3, "dice": [6]}, OutOfTurn, "MR-3")
    m.apply({"type": "roll", "seat": 1, "dice": [3]})
    m.apply({"type": "roll", "seat": 2, "dice": [4]})
    assert m.state.phase == "pick" and m.state.pick_order == (2, 1, 3)
    assert "Bo" in m.state.ruling and "Pick order" in m.state.ruling


def test_mr3_blind_picks_by_scan_first_picker_moves_first_counter_clockwise() -> None:
    m = new(4)
    for seat, d in ((1, 2), (2, 6), (3, 4), (4, 3)):
        m.apply({"type": "roll", "seat": seat, "dice": [d]})
    assert m.state.pick_order == (2, 3, 4, 1)
    refused(m, {"type": "scan", "card": serial(m, "huan"), "zone": "seat:1"}, OutOfTurn, "MR-3")
    refused(m, {"type": "scan", "card": serial(m, "rain-bow"), "zone": "seat:2"},
            CardNotAvailable, "C-1")
    m.apply({"type": "scan", "card": serial(m, "huan"), "zone": "seat:2"})
    refused(m, {"type": "scan", "card": serial(m, "huan"), "zone": "seat:3"},
            CardNotAvailable, "C-1", "in front of Bo")
    refused(m, {"type": "scan", "card": serial(m, "huan"), "zone": "seat:3", "override": True},
            CardNotAvailable, "C-1", "already picked")
    m.apply({"type": "scan", "card": serial(m, "xi-bian"), "zone": "seat:3"})
    m.apply({"type": "scan", "card": serial(m, "ling-yu"), "zone": "seat:4"})
    # MR-3: the last card goes to the lowest roller without a scan.
    assert m.state.player(1).character == "qing-luan"
    assert m.state.places[serial(m, "qing-luan")] == "seat:1"
    assert m.state.phase == "corner"
    refused(m, {"type": "corner", "seat": 1, "corner": "A1"}, OutOfTurn, "MR-2")
    m.apply({"type": "corner", "seat": 2, "corner": "I1"})
    s = m.state
    assert s.turn == 2
    order = [s.turn]
    for _ in range(4):
        s = play(s, {"type": "roll", "seat": s.turn, "dice": [1]})
        s = play(s, {"type": "move", "seat": s.turn, "to": sorted(reachable_moves(s))[0]})
        while s.pending:  # a tile may ask for a card: draw any
            e = RULES.random_play(s, random.Random(0))
            assert e is not None
            s = RULES.apply(s, e)
        s = play(s, {"type": "end", "seat": s.turn})
        order.append(s.turn)
    assert order == [2, 1, 4, 3, 2]  # seats are numbered clockwise: counter-clockwise is down


def test_mr2_start_corner_endpoint_and_10_hp() -> None:
    m = to_play(3, corner="I9")
    s = m.state
    assert s.start == "I9" and s.end == "A1"
    assert all(p.tile == "I9" and p.hp == 10 for p in s.players)
    assert [p.character for p in s.players] == ["xi-bian", "qing-luan", "huan"]
    m2 = new(2)
    m2.apply({"type": "roll", "seat": 1, "dice": [6]})
    m2.apply({"type": "roll", "seat": 2, "dice": [1]})
    m2.apply({"type": "scan", "card": serial(m2, "huan"), "zone": "seat:1"})
    m2.apply({"type": "scan", "card": serial(m2, "ling-yu"), "zone": "seat:2"})
    refused(m2, {"type": "corner", "seat": 1, "corner": "E5"}, IllegalPlay, "MR-2", "'E5'")


# -- MR-4 turn ----------------------------------------------------------------------------
def test_mr4_movement_mandatory_each_action_once_any_order() -> None:
    m = to_play(2)
    s = put(m.state, 1, tile="C3", weapons=("jade-axe", "stone-sling"))
    s = put(s, 2, tile="C4")
    m = at(m, s)
    refused(m, {"type": "end", "seat": 1}, IllegalPlay, "MR-4", "must move")
    m.apply({"type": "attack", "seat": 1, "card": serial(s, "jade-axe"), "target": 2})
    refused(m, {"type": "attack", "seat": 1, "card": serial(s, "stone-sling"), "target": 2},
            IllegalPlay, "MR-4", "already used their attack")
    m.apply({"type": "skill", "seat": 1, "skill": "1"})
    refused(m, {"type": "skill", "seat": 1, "skill": "3"}, IllegalPlay, "MR-4")
    m.apply({"type": "roll", "seat": 1, "dice": [1, 1]})  # two players: final showdown
    m.apply({"type": "move", "seat": 1, "to": "C5"})  # through Bo's tile: tokens never block
    refused(m, {"type": "roll", "seat": 1, "dice": [2, 2]}, IllegalPlay, "MR-4")
    m.apply({"type": "end", "seat": 1})
    assert m.state.turn == 2


def test_out_of_turn_refused() -> None:
    m = to_play(3)
    refused(m, {"type": "roll", "seat": 2, "dice": [3]}, OutOfTurn, "MR-4")
    refused(m, {"type": "end", "seat": 3}, OutOfTurn, "MR-4")
    refused(m, {"type": "skill", "seat": 2, "skill": "basic", "add": 1}, OutOfTurn, "MR-4")
    refused(m, {"type": "attack", "seat": 3, "card": "X", "target": 1}, OutOfTurn, "MR-4")


# -- MR-5 movement ------------------------------------------------------------------------
def test_mr5_reachable_is_exact_and_never_revisits() -> None:
    b = load_board()
    assert reachable(b, "A1", 1) == {"A2", "B1"}
    assert reachable(b, "A1", 2) == {"A3", "B2", "C1"}  # not A1 again
    assert "A1" not in reachable(b, "A1", 4)
    assert reachable(b, "A1", 3) == {"A4", "B3", "C2", "D1", "A2", "B1"}


def test_mr5_one_way_arrows() -> None:
    b = load_board()
    assert reachable(b, "E5", 1) == {"E6", "D5"}  # E4 and F5 only lead in
    assert "E5" not in reachable(b, "E6", 1) and "E5" in reachable(b, "E4", 1)
    # Passing through the centre must follow the arrows: E4 -> E5 -> E6 is fine...
    assert "E6" in reachable(b, "E4", 2)
    # ... but from D5 the only ways are around it (D5 -> E5 is against E5 -> D5).
    assert "F5" not in reachable(b, "D5", 2)


def test_mr5_rev2_stairs_are_a_choice_of_the_mover_and_move_refused_with_reason() -> None:
    m = to_play(2)
    s = turn_of(put(m.state, 1, tile="C1"), 1, roll=(2,))
    moves = reachable_moves(s)
    assert "C3" in moves and moves["E1"] == "E1" and "A1" not in moves  # MR-5 rev. 3
    m = at(m, s)
    err = refused(m, {"type": "move", "seat": 1, "to": "C2"}, IllegalPlay, "MR-5")
    assert "exactly 2 steps" in str(err) and "C3" in str(err)
    m.apply({"type": "move", "seat": 1, "to": "C3"})
    landed = m.state
    # MR-5 rev. 2: landing on the entrance, Ana may take the stairs; nothing else until then.
    assert m.state.player(1).tile == "C3" and "may take the stairs to E7" in m.state.ruling
    refused(m, {"type": "end", "seat": 1}, IllegalPlay, "MR-9")
    refused(m, {"type": "stairs", "seat": 2, "take": True}, OutOfTurn, "MR-5")
    m.apply({"type": "stairs", "seat": 1, "take": True})
    assert m.state.player(1).tile == "E7" and not m.state.pending
    m = at(m, landed)
    m.apply({"type": "stairs", "seat": 1, "take": False})
    assert m.state.player(1).tile == "C3" and "stays on C3" in m.state.ruling


def test_mr5_prompt_says_step_for_a_roll_of_one() -> None:
    m = to_play(3)
    one = turn_of(put(m.state, 1, tile="C1"), 1, roll=(1,))
    assert RULES.view(one, None)["prompt"].endswith(
        "move exactly 1 step, never onto or through the start tile A1.")  # MR-5 rev. 3
    three = turn_of(put(m.state, 1, tile="C1"), 1, roll=(3,))
    assert RULES.view(three, None)["prompt"].endswith(
        "move exactly 3 steps, never onto or through the start tile A1.")


def test_mr5_final_showdown_two_dice_sum_or_either() -> None:
    m = to_play(2)
    assert m.state.showdown
    refused(m, {"type": "roll", "seat": 1, "dice": [3]}, IllegalPlay, "MR-11")
    m.apply({"type": "roll", "seat": 1, "dice": [1, 3]})
    assert move_steps(m.state) == (1, 3, 4)
    assert "B1" in reachable_moves(m.state) and "E1" in reachable_moves(m.state)
    m3 = to_play(3)
    m3.apply({"type": "roll", "seat": 1, "dice": [3]})
    assert move_steps(m3.state) == (3,)


# -- MR-6 tiles ---------------------------------------------------------------------------
def test_mr6_weapon_tile_draws_a_scanned_weapon_not_usable_this_turn() -> None:
    m = to_play(2)
    s = turn_of(put(m.state, 1, tile="C2"), 1, roll=(1,))
    s = put(s, 2, tile="C2")
    s = play(s, {"type": "move", "seat": 1, "to": "C1"})
    assert s.pending[0].kind == "draw" and s.pending[0].deck == "weapon"
    bow = serial(s, "wind-bow")
    m = at(m, s)
    refused(m, {"type": "end", "seat": 1}, IllegalPlay, "MR-9")
    refused(m, {"type": "scan", "card": serial(s, "rockfall"), "zone": "seat:1"},
            CardNotAvailable, "C-1")
    scan = [a for a in RULES.actions(m.state, 1) if a["type"] == "scan"]
    field = scan[0]["fields"][0]
    assert {k: field[k] for k in ("name", "label", "kind", "zone")} == {
        "name": "card", "label": "Weapon card", "kind": "card", "zone": "seat:1"}
    # One tap (issue 11): the weapon faces still in the pile, each once.
    assert len(field["faces"]) == 16 and "rain-bow" in {f["face"] for f in field["faces"]}
    assert RULES.actions(m.state, 2) == []
    m.apply({"type": "scan", "card": bow, "zone": "seat:1"})
    assert m.state.places[bow] == "seat:1" and m.state.player(1).weapons == (bow,)
    refused(m, {"type": "attack", "seat": 1, "card": bow, "target": 2}, IllegalPlay, "MR-7",
            "drawn this turn")
    m.apply({"type": "end", "seat": 1})
    m.apply({"type": "roll", "seat": 2, "dice": [1, 1]})
    m.apply({"type": "move", "seat": 2, "to": "B2"})
    m.apply({"type": "scan", "card": serial(s, "mountain-gaze"), "zone": "seat:2"})
    m.apply({"type": "result", "winner": 2, "loser": 1})
    m.apply({"type": "end", "seat": 2})
    m.apply({"type": "attack", "seat": 1, "card": bow, "target": 2})  # a later turn: usable
    assert m.state.player(2).hp == 12 - 2


def test_mr6_blessing_hazard_and_second_move_activates_nothing() -> None:
    m = to_play(2, chars=("qing-luan", "huan"))
    s = turn_of(put(m.state, 1, tile="D1"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "D2"})
    assert s.player(1).hp == 11 and "blessing" in s.ruling
    # Qing Luan's skill 3 puts a token on a weapon tile: nothing is drawn (MR-6).
    s = play(s, {"type": "skill", "seat": 1, "skill": "3", "target": 1, "tile": "C1"})
    assert s.player(1).tile == "C1" and not s.pending
    s = turn_of(put(s, 2, tile="E2"), 2, roll=(1,))
    s = play(s, {"type": "move", "seat": 2, "to": "E3"})
    assert s.player(2).hp == 9 and "hazard" in s.ruling


def test_mr6_no_weapon_left_draws_nothing() -> None:
    m = to_play(2)
    s = m.state
    places = dict(s.places)
    for c, f in s.faces.items():
        if f.deck == "weapon":
            places[c] = "seat:2"
    s = replace(s, places=places)
    s = turn_of(put(s, 1, tile="C2"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "C1"})
    assert not s.pending and "draws nothing" in s.ruling


def test_c1_scan_of_a_discarded_weapon_refused_unless_overridden() -> None:
    m = to_play(2)
    s = turn_of(put(m.state, 1, tile="C2"), 1, roll=(1, 1))
    used = serial(s, "jade-axe")
    places = dict(s.places)
    places[used] = "discard:weapon"
    s = play(replace(s, places=places), {"type": "move", "seat": 1, "to": "C1"})
    m = at(m, s)
    refused(m, {"type": "scan", "card": used, "zone": "seat:1"}, CardNotAvailable, "C-1",
            "on the weapon discard pile")  # where it is, in words (C-8)
    m.apply({"type": "scan", "card": used, "zone": "seat:1", "override": True})
    assert m.state.places[used] == "seat:1" and "override" in m.state.ruling


# -- MR-7 weapons -------------------------------------------------------------------------
def test_mr7_range_is_grid_distance_and_out_of_range_refused() -> None:
    m = to_play(3)
    s = put(m.state, 1, tile="C3", weapons=("mountain-hammer",))
    s = put(put(s, 2, tile="E7"), 3, tile="C4")  # E7 is the stairs exit of C3: still 6 away
    m = at(m, s)
    ham = serial(s, "mountain-hammer")
    err = refused(m, {"type": "attack", "seat": 1, "card": ham, "target": 2}, IllegalPlay,
                  "MR-7")
    assert "6 tiles away" in str(err)
    refused(m, {"type": "attack", "seat": 1, "card": serial(s, "wind-bow"), "target": 3},
            CardNotAvailable, "C-1")
    refused(m, {"type": "attack", "seat": 1, "card": ham, "target": 1}, IllegalPlay, "MR-7")
    m.apply({"type": "attack", "seat": 1, "card": ham, "target": 3})
    # Xi Bian is Earth: an Earth weapon deals +1.
    assert m.state.player(3).hp == 10 - 5
    assert m.state.places[ham] == "discard:weapon" and m.state.player(1).weapons == ()


def test_mr7_two_weapons_split_between_two_targets() -> None:
    m = to_play(3, chars=("qing-luan", "huan", "ling-yu"))
    s = put(m.state, 1, tile="E5", weapons=("wind-bow", "feather-darts", "jade-axe"))
    s = put(put(s, 2, tile="E9"), 3, tile="E3")
    s = play(s, {"type": "attack", "seat": 1, "strikes": [
        {"card": serial(s, "wind-bow"), "target": 2},
        {"card": serial(s, "feather-darts"), "target": 3}]})
    assert s.player(2).hp == 10 - 3 and s.player(3).hp == 10 - 2  # air weapons +1 for Qing Luan
    with pytest.raises(IllegalPlay, match="one or two"):
        RULES.apply(turn_of(put(m.state, 1, weapons=("wind-bow", "rain-bow", "jade-axe")), 1),
                    {"type": "attack", "seat": 1, "strikes": [
                        {"card": serial(s, n), "target": 2}
                        for n in ("wind-bow", "rain-bow", "jade-axe")]})


def test_mr7_used_weapons_reshuffled_when_the_pile_is_empty() -> None:
    m = to_play(2, chars=("huan", "ling-yu"))
    s = m.state
    places = dict(s.places)
    weapons = sorted(c for c, f in s.faces.items() if f.deck == "weapon")
    for c in weapons[:15]:
        places[c] = "discard:weapon"
    places[weapons[15]] = "seat:2"
    s = replace(s, places=places)
    s = turn_of(put(s, 1, tile="C2"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "C1"})
    assert "shuffle the weapon discards" in s.ruling
    assert len(s.in_place("pile:weapon")) == 15 and not s.in_place("discard:weapon")
    s = play(s, {"type": "scan", "card": weapons[0], "zone": "seat:1"})
    assert s.places[weapons[0]] == "seat:1"


# -- MR-9 challenge and chance cards ------------------------------------------------------
def test_mr9_challenge_card_winner_reward_loser_penalty() -> None:
    m = to_play(3)
    s = turn_of(put(m.state, 1, tile="B1"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "B2"},
             {"type": "scan", "card": serial(s, "high-roller"), "seat": 1})  # entered by hand
    assert s.places[serial(s, "high-roller")] == "discard:challenge"
    assert s.pending[0].kind == "result"
    m = at(m, s)
    refused(m, {"type": "result", "winner": 2, "loser": 3}, IllegalPlay, "MR-9")
    refused(m, {"type": "result", "winner": 1, "loser": 1}, IllegalPlay, "MR-9")
    m.apply({"type": "result", "winner": 3, "loser": 1})
    assert m.state.player(3).hp == 11 and m.state.player(1).hp == 7


def test_mr9_challenge_steal_and_discard_choices() -> None:
    m = to_play(2)
    s = put(turn_of(put(m.state, 1, tile="B1"), 1, roll=(1,)), 2, weapons=("rain-bow", "jade-axe"))
    s = play(s, {"type": "move", "seat": 1, "to": "B2"},
             {"type": "scan", "card": serial(s, "snatch-the-pearl"), "zone": "seat:1"},
             {"type": "result", "winner": 1, "loser": 2})
    assert [p.kind for p in s.pending] == ["take"]
    with pytest.raises(CardNotAvailable):
        RULES.apply(s, {"type": "take", "seat": 1, "card": serial(s, "wind-bow")})
    s = play(s, {"type": "take", "seat": 1, "card": serial(s, "rain-bow")})
    assert s.player(1).weapons == (serial(s, "rain-bow"),) and s.player(2).hp == 9
    # Wheel of Heaven: the loser discards a weapon of their own choice.
    s = turn_of(put(s, 2, tile="B1"), 2, roll=(1,))
    s = play(s, {"type": "move", "seat": 2, "to": "B2"},
             {"type": "scan", "card": serial(s, "wheel-of-heaven"), "zone": "seat:2"},
             {"type": "result", "winner": 1, "loser": 2},
             {"type": "discard", "seat": 2, "card": serial(s, "jade-axe")})
    assert s.places[serial(s, "jade-axe")] == "discard:weapon" and s.player(1).hp == 12


def test_mr9_chance_cards_apply_at_once_and_reshuffle() -> None:
    m = to_play(3)
    s = turn_of(put(m.state, 1, tile="E2"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "E1"})  # hazard? no: E1 is a chance tile
    s = play(s, {"type": "scan", "card": serial(s, "poison-mist"), "zone": "seat:1"})
    assert [p.hp for p in s.players] == [10, 9, 9]
    assert s.places[serial(s, "poison-mist")] == "discard:chance"
    # Homesick: back to the start corner, nothing activates.
    places = dict(s.places)
    for c, f in s.faces.items():
        if f.deck == "chance" and f.id != "homesick":
            places[c] = "discard:chance"
    s = turn_of(replace(put(s, 2, tile="A2"), places=places), 2, roll=(1,))
    s = play(s, {"type": "move", "seat": 2, "to": "A3"},
             {"type": "scan", "card": serial(s, "homesick"), "zone": "seat:2"})
    assert s.player(2).tile == "A1" and not s.pending
    # The pile is now empty: the next draw reshuffles the 12 discards (MR-9).
    s = turn_of(put(s, 3, tile="A2"), 3, roll=(1,))
    s = play(s, {"type": "move", "seat": 3, "to": "A3"})
    assert len(s.in_place("pile:chance")) == 12 and "shuffle the chance discards" in s.ruling


def test_mr9_tailwind_and_heavy_legs_apply_next_turn() -> None:
    m = to_play(2)
    s = turn_of(put(m.state, 1, tile="A2"), 1, roll=(1, 1))
    s = play(s, {"type": "move", "seat": 1, "to": "A3"},
             {"type": "scan", "card": serial(s, "tailwind"), "zone": "seat:1"},
             {"type": "end", "seat": 1})
    s = play(s, {"type": "roll", "seat": 2, "dice": [1, 1]},
             {"type": "move", "seat": 2, "to": "B1"}, {"type": "end", "seat": 2})
    s = play(s, {"type": "roll", "seat": 1, "dice": [2, 1]})
    assert move_steps(s) == (3, 4, 5)
    s = replace(s, moved=False)
    s = play(s, {"type": "move", "seat": 1, "to": sorted(reachable_moves(s))[0]})


# -- MR-10 defeat, victory ----------------------------------------------------------------
def test_mr10_defeat_weapons_discarded_last_standing_wins() -> None:
    m = to_play(3)
    s = put(m.state, 1, tile="C3", weapons=("mountain-hammer",))
    s = put(put(s, 2, tile="C4", hp=3, weapons=("rain-bow",)), 3, tile="I9")
    s = play(s, {"type": "attack", "seat": 1, "card": serial(s, "mountain-hammer"),
                 "target": 2})
    assert not s.player(2).alive and s.player(2).hp == 0 and s.player(2).tile is None
    assert s.places[serial(s, "rain-bow")] == "discard:weapon"
    assert "out at 0 HP" in s.ruling and not s.finished and s.showdown
    s = put(s, 1, weapons=("jade-axe",))
    s = turn_of(put(s, 3, tile="C5", hp=1), 1)
    s = play(s, {"type": "attack", "seat": 1, "card": serial(s, "jade-axe"), "target": 3})
    assert s.finished and s.winners == (1,) and s.phase == "over"
    with pytest.raises(GameOver):
        RULES.apply(s, {"type": "end", "seat": 1})
    assert RULES.random_play(s, random.Random(1)) is None
    assert "Ana wins" in RULES.view(s, None)["prompt"]


def test_mr10_hazard_can_defeat_the_mover_and_the_turn_passes() -> None:
    m = to_play(3)
    s = turn_of(put(m.state, 1, tile="E2", hp=1), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "E3"})
    assert not s.player(1).alive and s.turn == 3 and not s.finished


# -- MR-11 dice ---------------------------------------------------------------------------
def test_mr11_companion_dice_are_chance_events_physical_are_entered() -> None:
    m = new(2, dice="companion")
    rng = random.Random(3)
    made = m.settle(rng)
    assert made and all(e["type"] == "roll" and e["by"] == "companion" for e in made)
    assert m.state.phase == "pick"
    assert RULES.chance(m.state, rng) is None  # picks are scans, not chance
    p = new(2)
    assert RULES.chance(p.state, rng) is None
    refused(p, {"type": "roll", "seat": 1, "dice": [7]}, IllegalPlay, "MR-11")
    refused(p, {"type": "roll", "seat": 1, "dice": [1, 2]}, IllegalPlay, "MR-11")
    c = to_play(3, dice="companion")
    e = RULES.chance(c.state, rng)
    assert e is not None and e["seat"] == 1 and len(e["dice"]) == 1
    assert not [a for a in RULES.actions(c.state, 1) if a["type"] == "roll"]
    ph = to_play(3)
    assert [a for a in RULES.actions(ph.state, 1) if a["type"] == "roll"]


# -- views, actions, places ---------------------------------------------------------------
def test_view_and_actions_describe_the_table() -> None:
    m = to_play(3)
    s = put(m.state, 1, weapons=("wind-bow",))
    s = play(s, {"type": "roll", "seat": 1, "dice": [2]})
    v = RULES.view(s, 2)
    for key in ("board", "players", "piles", "turn", "actions_left", "reachable", "prompt",
                "ruling", "pending", "move_options"):
        assert key in v
    assert v["players"][0]["weapons"][0]["name"] == "Wind Bow"
    assert {r["tile"] for r in v["reachable"]} == {"A3", "B2", "C1"}
    assert v["piles"]["pile:weapon"] == 15
    json.dumps(RULES.referee_view(s))
    acts = RULES.actions(s, 1)
    types = {a["type"] for a in acts}
    assert {"move", "attack", "skill"} <= types and "end" not in types
    skill_why = {a["fields"][0]["choices"][0]["value"]: a.get("why") for a in acts
                 if a["type"] == "skill"}
    assert skill_why == {"basic": None, "1": None, "3": None,
                         "2": "no other player has a weapon"}  # plain words (C-8)
    low = put(s, 1, hp=2)
    skill_why = {a["fields"][0]["choices"][0]["value"]: (a["cost"], a.get("why"))
                 for a in RULES.actions(low, 1) if a["type"] == "skill"}
    assert skill_why["1"] == (0, None)  # A1 is an Earth tile: skill 1 is free for Xi Bian
    assert skill_why["2"][0] == 1 and "costs 1 HP and you have 2" not in str(skill_why["2"])
    assert skill_why["3"][0] == 2 and "costs 2 HP and you have 2" in str(skill_why["3"][1])
    assert RULES.actions(s, 2) == []


def test_places_cover_every_card() -> None:
    m = to_play(4)
    places = RULES.places(m.state)
    assert len(places) == 42
    assert sum(1 for p in places.values() if p == "pile:weapon") == 16
    assert sum(1 for p in places.values() if p.startswith("seat:")) == 4


def test_cli_simulate_mountains(capsys: pytest.CaptureFixture[str]) -> None:
    code = companion_cli.main(["simulate", "mountains", "--players", "3", "--games", "10",
                               "--seed", "1"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "mountains" and out["unfinished"] == 0
    assert out["mean_per_game"]["adjudications"] > 0


def test_state_is_json_free_of_board_in_equality() -> None:
    m = to_play(2)
    s2 = m.replay()
    assert isinstance(s2, MountainsState) and s2 == m.state


def test_mr7_reward_weapon_drawn_in_a_turn_ended_by_defeat_is_usable_next_turn() -> None:
    """The drawer loses Dragon's Eye and falls (MR-10); the winner's reward weapon belongs
    to that turn even though it is scanned after the next turn began, so the winner (the
    next player) may use it (MR-7: not usable only in the turn it was drawn)."""
    m = to_play(3, chars=("qing-luan", "huan", "ling-yu"))
    s = turn_of(put(put(m.state, 1, tile="B1", hp=2), 3, tile="B3"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "B2"},  # a challenge tile
             {"type": "scan", "card": serial(s, "dragons-eye"), "zone": "seat:1"},
             {"type": "result", "winner": 3, "loser": 1})
    assert not s.player(1).alive and s.turn == 3  # counter-clockwise: 1 -> 3
    assert s.pending[0].kind == "draw" and s.pending[0].seat == 3
    s = play(s, {"type": "scan", "card": serial(s, "mist-needles"), "zone": "seat:3"})
    s = put(s, 2, tile="B4")
    s = play(s, {"type": "attack", "seat": 3, "card": serial(s, "mist-needles"), "target": 2})
    assert s.player(2).hp == 10 - 2  # Water weapon, Water character
    # A weapon drawn in the current turn still waits (MR-7).
    s = play(s, {"type": "roll", "seat": 3, "dice": [1, 1]}, {"type": "move", "seat": 3,
                                                          "to": "B2"})
    assert s.pending[0].kind == "draw" and s.pending[0].deck == "challenge"


def test_mr2_c1_override_cannot_give_a_second_copy_of_a_picked_character() -> None:
    """With two print runs on the table, the second run's cards stay out (one set plays);
    the referee's override may bring a card from out of play, but never a character that
    another player already is: each character belongs to one player (MR-2, C-1)."""
    from companion.engine import Match
    from companion.registry import build_setup, demo_run

    rng = random.Random(4)
    setup = build_setup("mountains", ["Ana", "Bo"], {},
                        [demo_run("mountains", 2, rng), demo_run("mountains", 2, rng)])
    m = Match(RULES, setup)
    m.apply({"type": "roll", "seat": 1, "dice": [6]})
    m.apply({"type": "roll", "seat": 2, "dice": [1]})
    huans = sorted(c for c, f in setup.cards.items() if f.id == "huan")
    first = next(c for c in huans if m.state.places[c] == "pile:character")
    spare = next(c for c in huans if c != first)
    assert m.state.places[spare] == "out"
    m.apply({"type": "scan", "card": first, "zone": "seat:1"})
    refused(m, {"type": "scan", "card": spare, "zone": "seat:2", "override": True},
            CardNotAvailable, "C-1", "Ana is already Huan")


def test_mr9_mr10_winner_takes_a_weapon_from_a_loser_the_penalty_defeats() -> None:
    """Snatch the Pearl: the winner takes a weapon of the loser's and the loser loses 1 HP,
    together (decision 23). A loser at 1 HP falls, but the reward still stands: the winner
    chooses among the weapons the loser had (MR-9); the rest stay discarded (MR-10)."""
    m = to_play(3)
    s = put(turn_of(put(m.state, 1, tile="B1"), 1, roll=(1,)), 3, hp=1,
            weapons=("rain-bow", "jade-axe"))
    s = play(s, {"type": "move", "seat": 1, "to": "B2"},
             {"type": "scan", "card": serial(s, "snatch-the-pearl"), "zone": "seat:1"},
             {"type": "result", "winner": 1, "loser": 3})
    assert not s.player(3).alive and not s.finished
    assert [p.kind for p in s.pending] == ["take"]
    take = [a for a in RULES.actions(s, 1) if a["type"] == "take"]
    assert [c["value"] for c in take[0]["fields"][0]["choices"]] == [
        serial(s, "rain-bow"), serial(s, "jade-axe")]
    m = at(m, s)
    refused(m, {"type": "take", "seat": 1, "card": serial(s, "wind-bow")}, CardNotAvailable,
            "C-1")
    refused(m, {"type": "end", "seat": 1}, IllegalPlay, "MR-9")
    m.apply({"type": "take", "seat": 1, "card": serial(s, "jade-axe")})
    s = m.state
    assert s.player(1).weapons == (serial(s, "jade-axe"),)
    assert s.places[serial(s, "rain-bow")] == "discard:weapon"
    assert "Jade Axe" in s.ruling
    m.apply({"type": "end", "seat": 1})
    assert m.state.turn == 2
