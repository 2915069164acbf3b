"""Mountains & Rivers, rulings revision 2 (issue 12): each test cites the ruling it checks.

MR-5's stairs choice and Qing Luan's skill 1 before the roll are in ``test_mountains.py`` and
``test_mountains_skills.py`` next to the tests they replaced.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_mountains_helpers import play, put, serial, to_play, turn_of

from companion.cards import load_deck
from companion.errors import IllegalPlay
from companion.games.mountains import RULES, MountainsState, load_board
from companion.games.mountains.marks import MARKS


def three(chars: tuple[str, ...] = ("huan", "xi-bian", "ling-yu")) -> MountainsState:
    """Ana, Bo, Cy in play; Ana's turn on the neutral centre E5, Bo on E3, Cy on E7."""
    s = to_play(3, chars=chars).state
    s = put(put(put(s, 1, tile="E5"), 2, tile="E3"), 3, tile="E7")
    return turn_of(s, 1)


# -- MR-1 rev. 2: sharpen tiles ------------------------------------------------------------
def test_mr1_rev2_the_default_board_has_a_sharpen_tile_in_every_quadrant() -> None:
    board = load_board()
    sharpen = [t for t in board if t.kind == "sharpen"]
    assert {t.colour for t in sharpen} == {"earth", "air", "fire", "water"}
    assert "sharpen" in board.kinds and "damage" in board.kinds["sharpen"]
    assert MARKS["sharpen"].mark not in {m.mark for k, m in MARKS.items() if k != "sharpen"}


def test_mr1_rev2_sharpen_adds_1_damage_to_this_turns_attack_on_one_target_once() -> None:
    s = put(put(three(), 1, tile="D4", weapons=("ember-whip", "fire-arrows")), 3, tile="E6")
    s = play(s, {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "D3"})
    assert s.sharpened and "sharpen" in s.ruling
    s = play(s, {"type": "attack", "seat": 1, "strikes": [
        {"card": serial(s, "ember-whip"), "target": 2},
        {"card": serial(s, "fire-arrows"), "target": 3}]})
    # Huan's Fire weapons: +1 each; the sharpen tile: +1 on the first target only.
    assert s.player(2).hp == 10 - (1 + 1 + 1) and s.player(3).hp == 10 - (2 + 1)
    assert not s.sharpened


def test_mr1_rev2_sharpen_is_lost_at_the_end_of_the_turn_and_nothing_after_the_attack() -> None:
    s = put(three(), 1, tile="D4", weapons=("ember-whip",))
    s = play(s, {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "D3"},
             {"type": "end", "seat": 1})
    assert not s.sharpened
    s = put(three(), 1, tile="D4", weapons=("ember-whip",))
    s = play(s, {"type": "attack", "seat": 1, "card": serial(s, "ember-whip"), "target": 2},
             {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "D3"})
    assert not s.sharpened and "already made" in s.ruling


def test_mr1_rev2_sharpen_counts_for_a_damage_skill() -> None:
    s = put(three(), 1, tile="D4", weapons=("ember-whip",))
    s = play(s, {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "D3"},
             {"type": "skill", "seat": 1, "skill": "3"})
    # Huan's skill 3 goes round from his left (counter-clockwise: Cy first): Cy gets the +1.
    assert s.player(3).hp == 10 - 2 and s.player(2).hp == 10 - 1


# -- MR-8 rev. 2: damage skills are attacks ------------------------------------------------
def test_mr8_rev2_a_damage_skill_needs_a_weapon_and_uses_up_the_attack() -> None:
    s = three()
    with pytest.raises(IllegalPlay, match="need a weapon") as e:
        RULES.apply(s, {"type": "skill", "seat": 1, "skill": "basic", "target": 2})
    assert e.value.rule == "MR-8"
    s = put(s, 1, weapons=("phoenix-blade",))
    s = play(s, {"type": "skill", "seat": 1, "skill": "basic", "target": 2})
    assert s.attacked and s.moved and s.player(2).hp == 9
    with pytest.raises(IllegalPlay, match="already used their attack"):
        RULES.apply(s, {"type": "attack", "seat": 1, "card": serial(s, "phoenix-blade"),
                        "target": 2})
    # The weapon is held, not used up; one drawn this turn counts as held too.
    assert s.player(1).weapons == (serial(s, "phoenix-blade"),)


def test_mr8_rev2_a_weapon_drawn_this_turn_counts_as_held_for_a_damage_skill() -> None:
    s = put(three(), 1, weapons=("jade-axe",))
    s = replace(s, fresh=frozenset({serial(s, "jade-axe")}))
    s = play(s, {"type": "skill", "seat": 1, "skill": "3"})
    assert s.player(2).hp == 9 and s.player(3).hp == 9 and s.attacked


def test_mr8_rev2_a_damage_skill_after_the_attack_is_refused() -> None:
    s = put(three(), 1, weapons=("phoenix-blade", "ember-whip"))
    s = play(s, {"type": "attack", "seat": 1, "card": serial(s, "ember-whip"), "target": 2})
    with pytest.raises(IllegalPlay, match="attack is already used") as e:
        RULES.apply(s, {"type": "skill", "seat": 1, "skill": "3"})
    assert e.value.rule == "MR-8"


def test_mr8_rev2_huan_skill1_after_his_attack_is_refused() -> None:
    s = put(three(), 1, weapons=("phoenix-blade", "ember-whip"))
    s = play(s, {"type": "attack", "seat": 1, "card": serial(s, "ember-whip"), "target": 2})
    with pytest.raises(IllegalPlay, match="already attacked") as e:
        RULES.apply(s, {"type": "skill", "seat": 1, "skill": "1",
                        "card": serial(s, "phoenix-blade")})
    assert e.value.rule == "MR-8"
    assert s.player(1).hp == 10  # nothing was paid


def test_mr8_rev2_xi_bian_skill1_costs_the_attacker_of_a_damage_skill() -> None:
    s = three()
    s = put(turn_of(s, 2), 1, weapons=("ember-whip",))
    s = play(s, {"type": "skill", "seat": 2, "skill": "1"})
    s = play(turn_of(s, 1), {"type": "skill", "seat": 1, "skill": "basic", "target": 2})
    # Bo's skill 1 was free on his Earth tile E3; Huan's damage skill costs Huan 1 HP.
    assert s.player(2).hp == 10 - 1 and s.player(1).hp == 10 - 1
    assert "Ana loses 1 HP to Bo's skill 1" in s.ruling


def test_mr8_rev2_xi_bian_skill3_counts_skill_costs_and_names_each_gain() -> None:
    s = three(chars=("xi-bian", "qing-luan", "ling-yu"))
    s = play(s, {"type": "skill", "seat": 1, "skill": "3"})
    assert s.player(1).hp == 7
    s = turn_of(s, 2)
    s = play(s, {"type": "skill", "seat": 2, "skill": "2", "target": 3})  # Bo pays 2 HP
    assert s.player(1).hp == 8
    assert "Ana gains 1 HP from Xi Bian's skill 3 (Bo lost 2)" in s.ruling


def test_mr8_rev2_ling_yu_basic_doubles_one_named_weapon() -> None:
    s = put(three(chars=("ling-yu", "huan", "xi-bian")), 1,
            weapons=("tide-trident", "mountain-hammer"))
    trident, hammer = serial(s, "tide-trident"), serial(s, "mountain-hammer")
    s = play(s, {"type": "skill", "seat": 1, "skill": "basic", "card": trident})
    assert s.double_range == trident
    with pytest.raises(IllegalPlay, match="reaches 1") as e:
        RULES.apply(s, {"type": "attack", "seat": 1, "card": hammer, "target": 2})
    assert e.value.rule == "MR-7"
    s = play(s, {"type": "attack", "seat": 1, "card": trident, "target": 2})
    assert s.player(2).hp == 10 - 5


def test_mr8_rev2_a_skipped_movement_is_named_with_who_skipped_it() -> None:
    s = put(three(chars=("ling-yu", "huan", "xi-bian")), 1, tile="D1")
    s = play(s, {"type": "roll", "seat": 1, "dice": [1]}, {"type": "move", "seat": 1, "to": "E1"},
             {"type": "scan", "card": serial(s, "heavy-legs"), "zone": "seat:1"},
             {"type": "end", "seat": 1})
    s = turn_of(s, 1)
    assert s.movement_skipped == "the Heavy Legs card"
    with pytest.raises(IllegalPlay, match="skipped this turn \\(by the Heavy Legs card\\)"):
        RULES.apply(s, {"type": "roll", "seat": 1, "dice": [3]})
    with pytest.raises(IllegalPlay, match="skipped this turn \\(by the Heavy Legs card\\)"):
        RULES.apply(s, {"type": "skill", "seat": 1, "skill": "basic"})
    v = RULES.view(s, 1)
    assert v["actions_left"]["movement"] is False
    assert "movement is skipped this turn (by the Heavy Legs card)" in v["prompt"]


def test_mr8_rev2_an_air_tile_is_an_air_tile() -> None:
    s = put(three(chars=("qing-luan", "huan", "xi-bian")), 1, tile="G2")
    s = play(s, {"type": "skill", "seat": 1, "skill": "2", "target": 2})
    assert "one less on an air tile" in s.ruling and "a air" not in s.ruling


# -- MR-9 rev. 2: every card works with two players ----------------------------------------
def test_mr9_rev2_every_challenge_card_says_what_two_players_do() -> None:
    deck = load_deck("mountains")
    for face in deck.faces:
        if face.deck != "challenge":
            continue
        text = face.text.lower()
        if "third" in text or "outside the challenge" in text:
            assert "with two players" in text, face.name
    leaf = next(f for f in deck.faces if f.id == "falling-leaf")
    assert "third player" not in leaf.text and "with two players" in leaf.text
