"""The sixteen Mountains & Rivers skills (MR-8): one test each, costs, refusals."""

from __future__ import annotations

import pytest
from test_mountains_helpers import at, play, put, serial, to_play, turn_of

from companion.engine import evolve as replace
from companion.errors import CardNotAvailable, IllegalPlay
from companion.games.mountains import RULES, move_steps
from companion.games.mountains.skills import cost
from companion.games.mountains.state import MountainsState


def table(first: str, *, tile: str = "E5") -> MountainsState:
    """Three players in play, seat 1 is ``first``; seat 1 stands on ``tile`` (neutral E5)."""
    others = [c for c in ("xi-bian", "qing-luan", "huan", "ling-yu") if c != first]
    m = to_play(3, chars=(first, *others[:2]))
    s = put(m.state, 1, tile=tile)
    return put(put(s, 2, tile="E3"), 3, tile="E9")


def skill(s: MountainsState, slot: str, **params: object) -> MountainsState:
    return RULES.apply(s, {"type": "skill", "seat": 1, "skill": slot, **params})


# -- costs (MR-8) -------------------------------------------------------------------------
def test_mr8_costs_and_own_colour_discount() -> None:
    s = table("huan")
    assert [cost(s, 1, x) for x in ("basic", "1", "2", "3")] == [0, 1, 2, 3]
    s = put(s, 1, tile="G8")  # a Fire tile
    assert [cost(s, 1, x) for x in ("basic", "1", "2", "3")] == [0, 0, 1, 2]
    s = put(s, 1, tile="A1")  # Earth: no discount for Huan
    assert cost(s, 1, "3") == 3


def test_mr8_unaffordable_skill_refused_state_and_log_unchanged() -> None:
    m = to_play(3, chars=("huan", "xi-bian", "ling-yu"))
    m = at(m, put(m.state, 1, hp=3, weapons=("ember-whip",)))
    before, log = m.state, list(m.events)
    with pytest.raises(IllegalPlay, match="costs 3 HP and you have 3") as e:
        m.apply({"type": "skill", "seat": 1, "skill": "3"})
    assert e.value.rule == "MR-8" and m.state is before and m.events == log


def test_mr8_spent_action_refused() -> None:
    m = to_play(3, chars=("huan", "xi-bian", "ling-yu"))
    s = put(m.state, 1, tile="E5")
    s = put(s, 2, tile="E6")
    s = play(s, {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "D5"})
    m = at(m, s)
    before, log = m.state, list(m.events)
    with pytest.raises(IllegalPlay, match="movement is already spent") as e:
        m.apply({"type": "skill", "seat": 1, "skill": "basic", "target": 2})
    assert e.value.rule == "MR-8" and m.state is before and m.events == log


def test_mr8_one_skill_per_turn_and_only_in_own_turn() -> None:
    s = table("xi-bian")
    s = skill(s, "1")
    with pytest.raises(IllegalPlay, match="already used a skill"):
        skill(s, "basic")


# -- Xi Bian (Earth) ----------------------------------------------------------------------
def test_xi_bian_basic_spends_attack_gains_1_hp() -> None:
    s = put(table("xi-bian"), 1, weapons=("jade-axe",))
    s = skill(s, "basic")
    assert s.player(1).hp == 11 and s.attacked
    with pytest.raises(IllegalPlay, match="already used their attack"):
        RULES.apply(s, {"type": "attack", "seat": 1, "card": serial(s, "jade-axe"),
                        "target": 2})


def test_xi_bian_skill1_attackers_lose_1_hp_per_attack_until_her_next_turn() -> None:
    s = skill(table("xi-bian"), "1")
    assert s.player(1).hp == 9
    s = turn_of(put(s, 2, tile="E4", weapons=("wind-bow", "feather-darts")), 2)
    s = play(s, {"type": "attack", "seat": 2, "strikes": [
        {"card": serial(s, "wind-bow"), "target": 1},
        {"card": serial(s, "feather-darts"), "target": 1}]})
    assert s.player(1).hp == 9 - 3 - 2  # Qing Luan's Air weapons: +1 each
    assert s.player(2).hp == 9  # one attack: 1 HP
    s = turn_of(s, 1)
    assert 1 not in s.thorns  # ends at Xi Bian's next turn


def test_xi_bian_skill2_player_discards_weapon_of_her_choice() -> None:
    s = put(table("xi-bian"), 2, weapons=("wind-bow", "rain-bow"))
    # C-7: the one refusal for any card Bo does not hold, wherever it is (no oracle).
    with pytest.raises(CardNotAvailable, match="not a weapon Bo holds"):
        skill(s, "2", target=2, card=serial(s, "jade-axe"))
    s = skill(s, "2", target=2, card=serial(s, "rain-bow"))
    assert s.places[serial(s, "rain-bow")] == "discard:weapon"
    assert s.player(2).weapons == (serial(s, "wind-bow"),) and s.player(1).hp == 8


def test_xi_bian_skill3_gains_1_hp_per_2_hp_others_lose() -> None:
    s = skill(table("xi-bian"), "3")
    assert s.player(1).hp == 7
    s = turn_of(put(s, 2, weapons=("wind-bow",), tile="E8"), 2)
    s = play(s, {"type": "attack", "seat": 2, "card": serial(s, "wind-bow"), "target": 3})
    assert s.player(3).hp == 7 and s.player(1).hp == 8  # 3 lost: +1 (1 carried over)
    s = put(s, 1, tile="E6")
    s = play(s, {"type": "roll", "seat": 2, "dice": [1]}, {"type": "move", "seat": 2,
                                                          "to": "F8"})
    assert s.player(1).hp == 8
    s = turn_of(put(s, 3, tile="H1"), 3, roll=(1,))
    s = play(s, {"type": "move", "seat": 3, "to": "H2"})  # hazard: 1 more lost, 4 in all
    assert s.player(1).hp == 9
    s = turn_of(s, 1)
    assert not s.siphon


# -- Qing Luan (Air) ----------------------------------------------------------------------
def test_qing_luan_basic_spends_attack_adds_1_or_2_to_movement() -> None:
    s = play(table("qing-luan"), {"type": "roll", "seat": 1, "dice": [3]})
    with pytest.raises(IllegalPlay, match="add 1 or 2"):
        skill(s, "basic", add=3)
    s = skill(s, "basic", add=2)
    assert move_steps(s) == (5,) and s.attacked


def test_mr8_rev2_qing_luan_skill1_is_chosen_before_the_roll_of_two_dice() -> None:
    s = table("qing-luan")
    with pytest.raises(IllegalPlay, match="before your movement roll"):
        skill(play(s, {"type": "roll", "seat": 1, "dice": [2]}), "1")
    s = skill(s, "1")
    assert s.player(1).hp == 9 and not s.pending
    with pytest.raises(IllegalPlay, match="2 dice"):
        RULES.apply(s, {"type": "roll", "seat": 1, "dice": [2]})
    s = play(s, {"type": "roll", "seat": 1, "dice": [2, 5]})
    assert move_steps(s) == (2, 5)  # either number, not their sum


def test_qing_luan_skill2_swap_places() -> None:
    s = skill(table("qing-luan"), "2", target=3)
    assert s.player(1).tile == "E9" and s.player(3).tile == "E5" and s.player(1).hp == 8
    with pytest.raises(IllegalPlay, match="another player"):
        skill(turn_of(s, 1), "2", target=1)


def test_qing_luan_skill3_move_any_player_anywhere_no_activation() -> None:
    s = skill(table("qing-luan"), "3", target=2, tile="C1")
    assert s.player(2).tile == "C1" and not s.pending and s.player(1).hp == 7
    with pytest.raises(IllegalPlay, match="no tile 'Z1'"):
        skill(turn_of(s, 1), "3", target=2, tile="Z1")


# -- Huan (Fire) --------------------------------------------------------------------------
def test_huan_basic_spends_movement_1_damage_within_5_tiles() -> None:
    s = put(table("huan"), 1, weapons=("ember-whip",))
    with pytest.raises(IllegalPlay, match="reach is 5"):
        skill(put(s, 3, tile="I9"), "basic", target=3)
    s = skill(s, "basic", target=2)
    assert s.player(2).hp == 9 and s.moved and s.attacked
    s = play(s, {"type": "end", "seat": 1})  # movement is spent: the turn may end
    assert s.turn == 3


def test_huan_skill1_adds_2_damage_to_a_weapon_this_turn() -> None:
    s = put(table("huan"), 1, weapons=("phoenix-blade", "jade-axe"))
    s = skill(s, "1", card=serial(s, "phoenix-blade"))
    s = play(s, {"type": "attack", "seat": 1, "card": serial(s, "phoenix-blade"), "target": 2})
    assert s.player(2).hp == 10 - (4 + 1 + 2)
    s = turn_of(s, 1)
    assert s.boosted == ""


def test_huan_skill2_draws_a_weapon_not_usable_this_turn() -> None:
    s = skill(table("huan"), "2")
    assert s.pending[0].kind == "draw"
    s = play(s, {"type": "scan", "card": serial(s, "jade-axe"), "zone": "seat:1"})
    with pytest.raises(IllegalPlay, match="drawn this turn") as e:
        RULES.apply(s, {"type": "attack", "seat": 1, "card": serial(s, "jade-axe"),
                        "target": 2})
    assert e.value.rule == "MR-7"


def test_huan_skill3_all_other_players_take_1_damage() -> None:
    s = skill(put(table("huan"), 1, weapons=("ember-whip",)), "3")
    assert [p.hp for p in s.players] == [7, 9, 9]


def test_huan_skill3_is_an_attack_on_xi_bian_skill1() -> None:
    m = to_play(2, chars=("huan", "xi-bian"))
    s = turn_of(put(m.state, 1, weapons=("ember-whip",)), 2)
    s = play(s, {"type": "skill", "seat": 2, "skill": "1"})
    s = turn_of(s, 1)
    s = play(s, {"type": "skill", "seat": 1, "skill": "3"})
    # Xi Bian stands on the Earth corner A1: her skill 1 was free there (MR-8).
    assert s.player(2).hp == 10 - 1 and s.player(1).hp == 10 - 3 - 1


# -- Ling Yu (Water) ----------------------------------------------------------------------
def test_ling_yu_basic_spends_movement_doubles_weapon_range() -> None:
    s = put(table("ling-yu"), 1, weapons=("tide-trident",))
    trident = serial(s, "tide-trident")
    with pytest.raises(IllegalPlay, match="reaches 1"):
        RULES.apply(s, {"type": "attack", "seat": 1, "card": trident, "target": 2})
    s = skill(s, "basic", card=trident)
    assert s.moved and s.double_range == trident
    s = play(s, {"type": "attack", "seat": 1, "card": trident, "target": 2})
    assert s.player(2).hp == 10 - 5


@pytest.mark.parametrize(("die", "deck"), [(1, None), (2, "challenge"), (3, "challenge"),
                                           (4, "chance"), (5, "chance"), (6, "weapon")])
def test_ling_yu_skill1_rolls_a_die_for_a_card(die: int, deck: str | None) -> None:
    s = skill(table("ling-yu"), "1")
    s = play(s, {"type": "roll", "seat": 1, "dice": [die]})
    assert [p.deck for p in s.pending] == ([deck] if deck else [])


def test_ling_yu_skill2_another_player_skips_movement_next_turn() -> None:
    s = skill(table("ling-yu"), "2", target=2)
    s = play(s, {"type": "roll", "seat": 1, "dice": [1]},
             {"type": "move", "seat": 1, "to": "D5"}, {"type": "end", "seat": 1})
    s = turn_of(s, 2)
    assert s.moved and s.movement_skipped
    with pytest.raises(IllegalPlay, match="skipped this turn \\(by Ana's skill 2\\)"):
        RULES.apply(s, {"type": "move", "seat": 2, "to": "E4"})
    s = play(s, {"type": "end", "seat": 2})


def test_ling_yu_skill3_takes_a_weapon() -> None:
    s = put(table("ling-yu"), 3, weapons=("flame-spear",))
    s = skill(s, "3", target=3, card=serial(s, "flame-spear"))
    assert s.player(1).weapons == (serial(s, "flame-spear"),) and not s.player(3).weapons
    s = play(s, {"type": "attack", "seat": 1, "card": serial(s, "flame-spear"), "target": 2})
    assert s.player(2).hp == 7


def test_skill_cost_can_not_reach_zero_but_own_colour_makes_it_free() -> None:
    s = put(table("ling-yu"), 1, hp=2)
    with pytest.raises(IllegalPlay, match="costs 2 HP and you have 2"):
        skill(s, "2", target=2)
    s = skill(put(s, 1, tile="A9"), "2", target=2)  # a Water tile: skill 2 costs 1
    assert s.player(1).hp == 1
    s = put(turn_of(s, 1), 1, hp=1)
    s = skill(s, "1")  # on Water, skill 1 is free even at 1 HP
    assert s.player(1).hp == 1


def test_xi_bian_at_0_hp_is_not_revived_by_her_skill3() -> None:
    s = skill(put(table("xi-bian"), 1, tile="A1"), "3")  # on Earth: costs 2
    assert s.player(1).hp == 8
    s = turn_of(put(put(s, 1, hp=1, tile="E6"), 2, tile="E7"), 3)
    s = put(s, 3, tile="E8", weapons=("ember-whip", "fire-arrows"))
    s = replace(turn_of(s, 3), siphon=((1, 1),))  # 1 HP lost so far: the next 1 would give +1
    s = RULES.apply(s, {"type": "attack", "seat": 3, "strikes": [
        {"card": serial(s, "fire-arrows"), "target": 1},
        {"card": serial(s, "ember-whip"), "target": 2}]})
    # Xi Bian drops to 0 first, then Qing Luan loses HP: no gain can save her.
    assert not s.player(1).alive and s.player(1).hp == 0


def test_mr11_skill_die_is_a_companion_chance_event() -> None:
    import random

    m = to_play(3, chars=("ling-yu", "huan", "xi-bian"), dice="companion")
    rng = random.Random(4)
    movement = m.settle(rng)  # the movement roll at the start of the turn
    assert len(movement) == 1 and m.state.roll
    m.apply({"type": "skill", "seat": 1, "skill": "1"})
    e = RULES.chance(m.state, rng)
    assert e is not None and e["seat"] == 1 and len(e["dice"]) == 1 and e["by"] == "companion"
    m.apply(e)
    assert not [p for p in m.state.pending if p.kind == "roll"]
    assert "skill 1" in m.state.ruling


def test_mr8_lasting_effects_expire_at_the_right_turn_through_real_turns() -> None:
    """Played with real events over two rounds (turn order 1 -> 3 -> 2, MR-3): Xi Bian's
    skill 3 lasts until her next turn, Ling Yu's skill 2 skips exactly one movement of the
    target, Huan's skill 1 boosts for his turn only (MR-8)."""
    m = to_play(3, chars=("xi-bian", "huan", "ling-yu"))
    s = put(m.state, 1, tile="E1")
    s = put(s, 2, tile="E7", weapons=("phoenix-blade", "ember-whip"))
    s = put(s, 3, tile="E6", weapons=("river-staff", "mist-needles"))
    m = at(m, s)
    staff, needles = serial(s, "river-staff"), serial(s, "mist-needles")
    blade, whip = serial(s, "phoenix-blade"), serial(s, "ember-whip")
    # Round 1. Xi Bian: skill 3 on Earth costs 2.
    for e in ({"type": "skill", "seat": 1, "skill": "3"}, {"type": "roll", "seat": 1, "dice": [1]},
              {"type": "move", "seat": 1, "to": "D1"}, {"type": "end", "seat": 1}):
        m.apply(e)
    assert m.state.player(1).hp == 8 and m.state.turn == 3
    # Ling Yu: Huan skips his next movement; River Staff hits Huan for 3 + 1 (Water).
    m.apply({"type": "skill", "seat": 3, "skill": "2", "target": 2})
    m.apply({"type": "attack", "seat": 3, "card": staff, "target": 2})
    # MR-8 rev. 2: Ling Yu's 2 HP cost counts too: 6 lost, +3.
    assert m.state.player(2).hp == 6 and m.state.player(1).hp == 11
    m.apply({"type": "roll", "seat": 3, "dice": [1]})
    m.apply({"type": "move", "seat": 3, "to": "F6"})  # a challenge tile
    m.apply({"type": "scan", "card": serial(s, "three-hands"), "zone": "seat:3"})
    m.apply({"type": "result", "winner": 3, "loser": 2})  # Huan loses 1 more: 7 lost
    assert m.state.player(1).hp == 11
    m.apply({"type": "end", "seat": 3})
    # Huan: movement skipped; skill 1 on Fire costs 0; the boosted blade hits for 4+1+2.
    s = m.state
    assert s.turn == 2 and s.moved and s.movement_skipped and not s.roll
    m.apply({"type": "skill", "seat": 2, "skill": "1", "card": blade})
    m.apply({"type": "attack", "seat": 2, "card": blade, "target": 3})
    assert m.state.player(3).hp == 10 - 2 + 1 - 7  # paid 2 on Fire, won 1, hit for 7
    assert m.state.player(1).hp == 8 + 7  # 14 HP lost by the others in all: +7
    assert "Ana gains 4 HP from Xi Bian's skill 3 (Cy lost 7)" in m.state.ruling
    m.apply({"type": "end", "seat": 2})
    # Round 2. Xi Bian's turn: her skill 3 is over.
    assert m.state.turn == 1 and not m.state.siphon
    for e in ({"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "C1"}):
        m.apply(e)
    m.apply({"type": "scan", "card": serial(s, "jade-axe"), "zone": "seat:1"})  # weapon tile
    m.apply({"type": "end", "seat": 1})
    m.apply({"type": "attack", "seat": 3, "card": needles, "target": 2})
    assert m.state.player(1).hp == 15  # nothing more for Xi Bian
    m.apply({"type": "roll", "seat": 3, "dice": [1]})
    m.apply({"type": "move", "seat": 3, "to": "F5"})
    m.apply({"type": "end", "seat": 3})
    # Huan moves again (one turn skipped only), and his boost is gone: Ember Whip 1+1.
    s = m.state
    assert s.turn == 2 and not s.moved and not s.movement_skipped and not s.boosted
    hp3 = s.player(3).hp
    m.apply({"type": "attack", "seat": 2, "card": whip, "target": 3})
    assert m.state.player(3).hp == hp3 - 2
    with pytest.raises(IllegalPlay, match="must move"):
        m.apply({"type": "end", "seat": 2})


def test_mr10_xi_bian_skill1_thorns_defeat_the_attacker_and_the_turn_passes() -> None:
    """MR-8/MR-10 with real turns: the attacker at 1 HP strikes Xi Bian with two weapons,
    loses 1 HP for the attack (not 2) and is out: the weapons used and the one kept go to
    the discard pile, the next player goes on; thorns last until Xi Bian's next turn."""
    m = to_play(3, chars=("xi-bian", "huan", "ling-yu"))
    s = put(m.state, 1, tile="E5")
    s = put(s, 2, tile="E3", weapons=("wind-bow",))
    s = put(s, 3, tile="E7", hp=1, weapons=("rain-bow", "mist-needles", "tide-trident"))
    m = at(m, s)
    for e in ({"type": "skill", "seat": 1, "skill": "1"}, {"type": "roll", "seat": 1, "dice": [1]},
              {"type": "move", "seat": 1, "to": "E6"}, {"type": "end", "seat": 1}):
        m.apply(e)
    m.apply({"type": "attack", "seat": 3, "strikes": [
        {"card": serial(s, "rain-bow"), "target": 1},
        {"card": serial(s, "mist-needles"), "target": 1}]})
    st = m.state
    assert st.player(1).hp == 9 - 3 - 2  # Water weapons in Ling Yu's hands: +1 each
    assert st.player(3).hp == 0 and not st.player(3).alive
    assert st.places[serial(s, "tide-trident")] == "discard:weapon"
    assert len(st.in_place("discard:weapon")) == 3 and st.turn == 2
    assert "out at 0 HP" in st.ruling and not st.finished
    m.apply({"type": "attack", "seat": 2, "card": serial(s, "wind-bow"), "target": 1})
    assert m.state.player(2).hp == 9 and m.state.player(1).hp == 4 - 2
    m.apply({"type": "roll", "seat": 2, "dice": [1, 2]})  # two left: final showdown
    m.apply({"type": "move", "seat": 2, "to": "E2"})
    m.apply({"type": "end", "seat": 2})
    assert m.state.turn == 1 and not m.state.thorns


def test_mr8_ruling_names_the_own_colour_discount() -> None:
    s = skill(put(table("huan", tile="G8"), 1, weapons=("ember-whip",)), "3")  # a Fire tile
    assert s.player(1).hp == 8 and "pays 2 HP: one less on a fire tile" in s.ruling
    s = skill(put(table("huan"), 1, weapons=("ember-whip",)), "3")  # the centre: full price
    assert s.player(1).hp == 7 and "pays 3 HP)" in s.ruling
