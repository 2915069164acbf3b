"""C-7 rev. 3: a stand-in's serial is for its owner and the referee only (``companion.veil``,
``Rules.stand_ins``).

The property test plays random games of every game with stand-ins, each card a tap (its
face id) or a scan at random, and checks at every step that what a seat other than the
owner, or the big screen, reads once veiled names no stand-in of another seat, while the
face stays; that actions veiled into stand-in names turn back into exactly the actions
the engine listed; and (so the test can fail) that the raw views do name them in Gem
Complete.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Match
from companion.errors import CompanionError
from companion.registry import new_match
from companion.veil import (
    aliases,
    hidden_ever,
    hidden_from,
    unveil,
    veil,
    veil_actions,
)


def test_hidden_from_keeps_a_stand_in_for_its_owner_and_the_referee() -> None:
    stand_ins: dict[str, int | None] = {"A-1": 1, "B-1": 2, "U-1": None}
    assert hidden_from(stand_ins, 0) == frozenset()  # the referee reads them all
    assert hidden_from(stand_ins, 1) == {"B-1", "U-1"}
    assert hidden_from(stand_ins, 2) == {"A-1", "U-1"}
    assert hidden_from(stand_ins, None) == {"A-1", "B-1", "U-1"}
    assert hidden_from({}, None) == frozenset()
    # Over a game: a serial that was another seat's, or no seat's, at any moment.
    ever = {"A-1": {1}, "W-1": {1, None}}
    assert hidden_ever(ever, 1) == {"W-1"} and hidden_ever(ever, 2) == {"A-1", "W-1"}
    assert hidden_ever(ever, 0) == frozenset()


def test_veil_nulls_the_serial_keeps_the_face_and_names_the_card_in_words() -> None:
    value = {"discard": [{"card": "RZ-001", "face": "a-ruby", "name": "Ruby"},
                         {"card": "RZ-0012", "face": "a-topaz", "name": "Topaz"}],
             "cards": ["RZ-001", "RZ-002"], "by_serial": {"RZ-001": "locus:1", "x": 1},
             "text": "RZ-001 went to the pile; RZ-0012 did not", "n": 3, "ok": True,
             "t": ("RZ-001",)}
    got = veil(value, {"RZ-001"}, {"RZ-001": "Ruby"})
    assert got == {"discard": [{"card": None, "face": "a-ruby", "name": "Ruby"},
                               {"card": "RZ-0012", "face": "a-topaz", "name": "Topaz"}],
                   "cards": [None, "RZ-002"], "by_serial": {"x": 1},
                   "text": "Ruby went to the pile; RZ-0012 did not", "n": 3, "ok": True,
                   "t": [None]}
    assert value["cards"] == ["RZ-001", "RZ-002"]  # never changed in place
    assert veil(value, frozenset()) is value  # nothing hidden: nothing copied


def test_stand_in_names_go_out_and_come_back_as_the_same_serials() -> None:
    faces = {"R0": "a-ruby", "R1": "a-ruby", "E0": "a-emerald"}
    acts = [{"type": "choose", "fields": [{"name": "cards", "kind": "choices",
                                           "choices": [{"value": "R1"}, {"value": "E0"},
                                                       {"value": "R0"}, {"value": "B9"}],
                                           "default": ["R0"]}]}]
    hidden = {"R0", "R1", "E0"}
    out = veil_actions(acts, hidden, faces)
    field = out[0]["fields"][0]
    assert [c["value"] for c in field["choices"]] == ["a-ruby~1", "a-emerald~1", "a-ruby~2",
                                                      "B9"]
    assert field["default"] == ["a-ruby~2"]
    table = aliases(acts, hidden, faces)
    assert unveil({"type": "choose", "cards": ["a-ruby~2", "B9"], "seat": 2}, table) == \
        {"type": "choose", "cards": ["R0", "B9"], "seat": 2}
    assert unveil({"card": "a-ruby~1"}, table) == {"card": "R1"}
    assert unveil({"card": "a-ruby~3"}, table) == {"card": "a-ruby~3"}  # no such name


def _tapped(event: dict[str, Any], faces: dict[str, str], rng: random.Random
            ) -> dict[str, Any]:
    """The same play with each card a tap (its face id) or its serial, at random."""
    out = dict(event)
    for key in ("card", "cards"):
        v = out.get(key)
        if isinstance(v, str) and v in faces and rng.random() < 0.6:
            out[key] = faces[v]
        elif isinstance(v, list):
            out[key] = [faces[c] if isinstance(c, str) and c in faces and rng.random() < 0.6
                        else c for c in v]
    return out


def _play(game: str, players: int, seed: int, steps: int = 250) -> tuple[int, int]:
    """Random plays with taps; at every step every viewer's veiled reading is checked.
    Returns (states with a stand-in, raw readings that named another seat's stand-in)."""
    rng = random.Random(seed)
    m: Match[Any] = new_match(game, [f"P{i}" for i in range(1, players + 1)], {}, rng=rng)
    rules = m.rules
    faces = {s: f.id for s, f in m.setup.cards.items()}
    names = {s: f.name for s, f in m.setup.cards.items()}
    with_stand_ins = raw_leaks = 0
    for _ in range(steps):
        if m.state.finished:
            break
        event = rules.chance(m.state, rng) or rules.random_play(m.state, rng)
        assert event is not None
        try:
            m.apply(_tapped(dict(event), faces, rng))
        except CompanionError:
            m.apply(event)
        state = m.state
        stand_ins = rules.stand_ins(state)
        with_stand_ins += bool(stand_ins)
        assert set(stand_ins) <= set(faces)
        for seat in (None, *range(1, players + 1)):
            hidden = hidden_from(stand_ins, seat)
            reading = {"view": rules.view(state, seat), "last_play": rules.last_play(state, seat)}
            acts = rules.actions(state, seat)
            raw = json.dumps([reading, acts])
            raw_leaks += any(s in raw for s in hidden)
            veiled = veil(reading, hidden, names)
            shown = json.dumps([veiled, veil_actions(acts, hidden, faces, names)])
            assert not any(s in shown for s in hidden), (game, seat, hidden)
            # The face stays where the serial went (the pages draw the card by it).
            assert json.dumps(veiled).count('"face"') == json.dumps(reading).count('"face"')
            # Stand-in names turn back into the serials the engine listed.
            table = aliases(acts, hidden, faces)
            assert set(table.values()) == {s for s in hidden if s in json.dumps(acts)}
            listed = {json.dumps(c["value"]) for a in acts for f in a.get("fields", [])
                      for c in f.get("choices", [])}
            for a in veil_actions(acts, hidden, faces, names):
                for f in a.get("fields", []):
                    for c in f.get("choices", []):
                        assert json.dumps(unveil({"v": c["value"]}, table)["v"]) in listed
    return with_stand_ins, raw_leaks


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=6, deadline=None)
def test_no_other_seat_ever_reads_a_stand_in_in_gem_complete(seed: int) -> None:
    with_stand_ins, _ = _play("gemcomplete", 2, seed)
    assert with_stand_ins > 0


def test_the_raw_gem_complete_views_do_name_stand_ins_so_the_veil_is_needed() -> None:
    """Without the veil Ben and the big screen read a tapped Gem's serial (issue 27 §1)."""
    assert sum(_play("gemcomplete", 2, seed)[1] for seed in range(3)) > 0


@pytest.mark.parametrize(("game", "players"), [("wuxing", 3), ("godnum", 3), ("godnum", 6)])
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=3, deadline=None)
def test_no_other_seat_ever_reads_a_stand_in_in_wuxing_and_god_num(
        game: str, players: int, seed: int) -> None:
    with_stand_ins, _ = _play(game, players, seed, steps=150)
    assert with_stand_ins > 0


def test_shrine_and_mountains_taps_name_the_one_copy_in_play() -> None:
    """One copy of each face is in play (one printed set): a tapped face's serial is that
    card's own, nothing stands in for anything, nothing is veiled."""
    for game, players in (("shrine", 3), ("mountains", 2)):
        rng = random.Random(2)
        m: Match[Any] = new_match(game, [f"P{i}" for i in range(1, players + 1)], {},
                                  rng=rng)
        in_play = [s for s, p in m.rules.places(m.state).items() if p != "out"]
        per_face = [m.setup.cards[s].id for s in in_play]
        assert len(per_face) == len(set(per_face)), game
        faces = {s: f.id for s, f in m.setup.cards.items()}
        for _ in range(120):
            if m.state.finished:
                break
            event = m.rules.chance(m.state, rng) or m.rules.random_play(m.state, rng)
            assert event is not None
            try:
                m.apply(_tapped(dict(event), faces, rng))
            except CompanionError:
                m.apply(event)
            assert m.rules.stand_ins(m.state) == {}
