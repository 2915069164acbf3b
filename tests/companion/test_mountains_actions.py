"""Mountains & Rivers ``actions``: the web draws its buttons and forms from them, so they must
offer exactly the legal choices (MR-5, MR-7, MR-8, MR-9), and a form left at its first
choices must be a legal play."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest
from test_mountains_helpers import at, play, put, serial, to_play, turn_of

from companion.engine import Match
from companion.errors import CompanionError, IllegalPlay, MalformedEvent
from companion.games.mountains import RULES, MountainsState
from companion.simulate import play_random


def action(s: MountainsState, seat: int, kind: str, slot: str | None = None) -> dict[str, Any]:
    for a in RULES.actions(s, seat):
        if a["type"] == kind and (slot is None or a["fields"][0]["choices"][0]["value"] == slot):
            return a
    raise AssertionError(f"no {kind} {slot or ''} action for seat {seat}")


def field(a: dict[str, Any], name: str) -> list[Any]:
    """The values a field offers (choices with a ``why`` are not offered)."""
    f = next(f for f in a["fields"] if f["name"] == name)
    return [c["value"] for c in f["choices"] if "why" not in c]


def names(a: dict[str, Any]) -> list[str]:
    return [f["name"] for f in a["fields"]]


def first_choices(a: dict[str, Any]) -> dict[str, Any]:
    """The body the web posts when nobody changes the form: the first choice of each field."""
    body: dict[str, Any] = {"type": a["type"], "seat": a["seat"]}
    for f in a["fields"]:
        body[f["name"]] = f["choices"][0]["value"]
    return body


def applies(s: MountainsState, body: dict[str, Any]) -> bool:
    try:
        RULES.apply(s, body)
    except CompanionError:
        return False
    return True


# -- MR-7 attack --------------------------------------------------------------------------
def attack_table() -> MountainsState:
    """Qing Luan (seat 1) on E5 with a Wind Bow (range 4) and a Feather Darts (range 5);
    Bo (seat 2) on A9, 8 tiles away; Cy (seat 3) on E8, 3 tiles away."""
    m = to_play(3, chars=("qing-luan", "huan", "ling-yu"))
    s = put(m.state, 1, tile="E5", weapons=("wind-bow", "feather-darts"))
    return turn_of(put(put(s, 2, tile="A9"), 3, tile="E8"), 1)


def test_mr7_attack_action_offers_only_usable_weapons_and_targets_in_range() -> None:
    s = attack_table()
    bow, darts = serial(s, "wind-bow"), serial(s, "feather-darts")
    a = action(s, 1, "attack")
    assert "why" not in a
    assert field(a, "card") == [bow, darts]
    assert field(a, "target") == [3]  # Bo is 8 tiles away: out of every weapon's range
    # A weapon drawn this turn is not offered (MR-7).
    s2 = put(put(s, 2, tile="E9"), 1, weapons=("rain-bow",))
    s2 = replace(s2, fresh=frozenset({serial(s2, "rain-bow")}))
    a2 = action(s2, 1, "attack")
    assert serial(s2, "rain-bow") not in field(a2, "card")
    assert field(a2, "target") == [2, 3]  # Bo on E9 is 4 away: the Wind Bow reaches him


def test_mr7_attack_action_says_why_when_no_opponent_is_in_range() -> None:
    s = put(put(attack_table(), 3, tile="I1"), 2, tile="A9")
    a = action(s, 1, "attack")
    # Plain words (C-8); the ruling id apart.
    assert "no opponent" in a["why"] and "MR-" not in a["why"] and a["rule"] == "MR-7"
    assert not applies(s, first_choices(a))


def test_mr7_attack_form_left_at_its_first_choices_is_one_legal_strike() -> None:
    """The second weapon is optional: its first choice is "none", so a one-weapon attack
    posted from the form is not refused as "the same weapon twice"."""
    s = attack_table()
    a = action(s, 1, "attack")
    body = first_choices(a)
    assert body["card2"] is None and body["target2"] is None
    after = RULES.apply(s, body)
    assert after.player(3).hp == 10 - 3  # Wind Bow 2 +1 (Air weapon, Air character)
    assert after.player(1).weapons == (serial(s, "feather-darts"),)


def test_mr7_second_weapon_defaults_to_the_same_target() -> None:
    s = attack_table()
    bow, darts = serial(s, "wind-bow"), serial(s, "feather-darts")
    after = RULES.apply(s, {"type": "attack", "seat": 1, "card": bow, "target": 3,
                            "card2": darts, "target2": None})
    assert after.player(3).hp == 10 - 3 - 2


def test_mr7_attack_with_one_usable_weapon_has_no_second_weapon_field() -> None:
    m = to_play(3, chars=("qing-luan", "huan", "ling-yu"))
    s = put(m.state, 1, tile="E5", weapons=("wind-bow",))
    s = turn_of(put(put(s, 2, tile="A9"), 3, tile="E8"), 1)
    assert names(action(s, 1, "attack")) == ["card", "target"]


# -- MR-8 skills --------------------------------------------------------------------------
def test_mr8_huan_basic_offers_only_players_within_5_tiles() -> None:
    m = to_play(3, chars=("huan", "xi-bian", "ling-yu"))
    s = put(put(put(m.state, 1, tile="E5", weapons=("ember-whip",)), 2, tile="A9"), 3,
            tile="E8")
    s = turn_of(s, 1)
    a = action(s, 1, "skill", "basic")
    assert field(a, "target") == [3]
    s = put(s, 3, tile="I9")  # 8 tiles away too: nobody to hit
    assert "within 5 tiles" in action(s, 1, "skill", "basic")["why"]


def test_mr8_huan_skill1_offers_only_weapons_usable_this_turn() -> None:
    m = to_play(3, chars=("huan", "xi-bian", "ling-yu"))
    s = turn_of(put(m.state, 1, tile="E5", weapons=("phoenix-blade", "rain-bow")), 1)
    s = replace(s, fresh=frozenset({serial(s, "rain-bow")}))
    assert field(action(s, 1, "skill", "1"), "card") == [serial(s, "phoenix-blade")]


def test_mr8_take_and_discard_skills_offer_only_armed_players() -> None:
    for first, slot in (("ling-yu", "3"), ("xi-bian", "2")):
        others = [c for c in ("huan", "qing-luan") if c != first]
        m = to_play(3, chars=(first, *others))
        s = put(m.state, 3, weapons=("rain-bow",))
        s = turn_of(put(s, 1, hp=9), 1)
        a = action(s, 1, "skill", slot)
        assert field(a, "target") == [3]
        assert field(a, "card") == [serial(s, "rain-bow")]
        assert applies(s, first_choices(a))


# -- MR-9 challenge result ----------------------------------------------------------------
def test_mr9_result_action_is_one_tap_per_possible_outcome() -> None:
    m = to_play(3, chars=("qing-luan", "huan", "ling-yu"))
    s = turn_of(put(m.state, 1, tile="B1"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "B2"},  # B2 is a challenge tile
             {"type": "scan", "card": serial(s, "three-hands"), "zone": "seat:1"})
    results = [a for a in RULES.actions(s, None) if a["type"] == "result"]
    assert len(results) == 1  # the referee sees it once, not once per seat
    a = results[0]
    assert names(a) == ["outcome"]
    assert field(a, "outcome") == [[1, 2], [2, 1], [1, 3], [3, 1]]
    # MR-9: Ana chooses whom she challenges; until then no other phone enters a result.
    assert [a["type"] for a in RULES.actions(s, 1)] == ["opponent", "result"]
    assert RULES.actions(s, 2) == [] and RULES.actions(s, 3) == []
    chose = RULES.apply(s, {"type": "opponent", "seat": 1, "target": 3})
    assert RULES.actions(chose, 2) == []
    mine = RULES.actions(chose, 3)
    assert [a["type"] for a in mine] == ["result"] and field(mine[0], "outcome") == [[1, 3],
                                                                                     [3, 1]]
    after = RULES.apply(s, first_choices(a))
    assert after.player(1).hp == 11 and after.player(2).hp == 9
    # The two-field form still works.
    after2 = RULES.apply(s, {"type": "result", "winner": 3, "loser": 1})
    assert after2.player(3).hp == 11 and after2.player(1).hp == 9


# -- every offered choice is a legal play -------------------------------------------------
def _combos(a: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    fields = [f for f in a["fields"] if f["kind"] == "choice"]
    # An unavailable action (with a ``why``) is tried with every choice it shows.
    values = [[c["value"] for c in f["choices"] if "why" not in c or "why" in a]
              for f in fields]
    combos = list(itertools.product(*values))
    if len(combos) > 60:
        combos = [*rng.sample(combos, 60), tuple(v[0] for v in values)]
    out = []
    for combo in combos:
        body = {"type": a["type"], "seat": a["seat"]}
        body.update({f["name"]: v for f, v in zip(fields, combo, strict=True)})
        out.append(body)
    return out


def test_every_offered_choice_is_part_of_a_legal_play_in_random_games() -> None:
    """MR-4..MR-9: each choice an action offers is accepted in at least one combination with
    the other fields' choices; an action with a ``why`` is refused; moves and ends apply."""
    rng = random.Random(3)
    for seed, players in ((5, 3), (8, 4), (13, 2)):
        out = play_random("mountains", players, random.Random(seed))
        m = Match(out.match.rules, out.match.setup)
        for i, e in enumerate(out.events):
            s = m.state
            if i % 3 == 0 and s.phase == "play":
                for a in RULES.actions(s, None):
                    if any(f["kind"] != "choice" for f in a["fields"]):
                        continue  # scans and dice: typed in, not chosen
                    bodies = _combos(a, rng)
                    ok = [b for b in bodies if applies(s, b)]
                    if "why" in a:
                        assert not ok, f"{a['type']} offered as unavailable but accepted: {a}"
                        continue
                    assert ok, f"no offered combination of {a} is legal"
                    for f in a["fields"]:
                        offered = {repr(c["value"]) for c in f["choices"] if "why" not in c}
                        used = {repr(b[f["name"]]) for b in ok}
                        if len(bodies) == len(list(itertools.product(
                                *[[c for c in g["choices"] if "why" not in c]
                                  for g in a["fields"]]))):
                            assert offered <= used, f"dead choice in {f['name']} of {a}"
            m.apply(e)


def test_mr9_mr7_malformed_outcome_and_second_target_refused_state_unchanged() -> None:
    m = to_play(3, chars=("qing-luan", "huan", "ling-yu"))
    s = turn_of(put(m.state, 1, tile="B1"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "B2"},
             {"type": "scan", "card": serial(s, "three-hands"), "zone": "seat:1"})
    m = at(m, s)
    for bad, err in (([1], MalformedEvent), ([1, "2"], MalformedEvent), ([2, 3], IllegalPlay),
                     ([1, 1], IllegalPlay), ([True, 2], MalformedEvent), ("1-2", MalformedEvent)):
        before, log = m.state, list(m.events)
        with pytest.raises(err):
            m.apply({"type": "result", "outcome": bad})
        assert m.state is before and m.events == log
    m = at(m, attack_table())
    before = m.state
    with pytest.raises(MalformedEvent):
        m.apply({"type": "attack", "seat": 1, "card": serial(before, "wind-bow"), "target": 3,
                 "card2": serial(before, "feather-darts"), "target2": "Cy"})
    assert m.state is before


def test_offered_moves_attacks_skills_and_end_are_exactly_the_legal_ones() -> None:
    """Brute force against the rules in random games (MR-4, MR-5, MR-7, MR-8): the move
    choices are every tile a move may go to; the attack's weapons and targets are those of
    some legal strike; a skill is offered without a reason iff some choice of its
    parameters is legal; "end" is offered iff ending is legal."""
    for seed in range(3):
        out = play_random("mountains", 2 + seed, random.Random(seed))
        m = Match(out.match.rules, out.match.setup)
        for i, e in enumerate(out.events):
            s = m.state
            if s.phase == "play" and not s.pending and i % 3 == 0:
                _check_exact(s, s.turn)
            m.apply(e)


def _check_exact(s: MountainsState, x: int) -> None:
    acts = RULES.actions(s, x)
    legal_moves = {t for t in s.board.tiles if applies(s, {"type": "move", "seat": x, "to": t})}
    offered = {c["value"] for a in acts if a["type"] == "move"
               for c in a["fields"][0]["choices"]}
    assert legal_moves == offered
    seats = range(1, len(s.players) + 1)
    pairs = {(w, t) for w in s.player(x).weapons for t in seats
             if applies(s, {"type": "attack", "seat": x, "card": w, "target": t})}
    attack = [a for a in acts if a["type"] == "attack" and "why" not in a]
    assert {w for w, _ in pairs} == {v for a in attack for v in field(a, "card")}
    assert {t for _, t in pairs} == {v for a in attack for v in field(a, "target")}
    for a in acts:
        if a["type"] != "skill":
            continue
        item = a["fields"][0]["choices"][0]
        space = {"target": list(seats), "card": sorted(s.places),
                 "tile": sorted(s.board.tiles), "add": [1, 2]}
        keys = sorted({"target" if p in ("other", "any") else p for p in item["params"]})
        legal = any(applies(s, {"type": "skill", "seat": x, "skill": item["value"],
                                **dict(zip(keys, combo, strict=True))})
                    for combo in itertools.product(*[space[k] for k in keys]))
        assert legal == ("why" not in a), (item, a.get("why"))
    assert applies(s, {"type": "end", "seat": x}) == any(a["type"] == "end" for a in acts)
