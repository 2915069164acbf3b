"""The one-tap action data of issue 20, point 3 and point 2: a roll of real dice says how
many dice (the page draws one tile per outcome) and every outcome it offers is legal; a
Shrine pass asks for no confirmation and a bid says its amount; Gem Complete's step button
comes before the card effects entered by hand."""

from __future__ import annotations

import itertools
import random

from companion.engine import Match
from companion.games.gemcomplete import GemState
from companion.games.mountains import RULES as MOUNTAINS
from companion.games.mountains import MountainsState
from companion.games.shrine import RULES as SHRINE
from companion.registry import new_match


def test_every_die_tile_is_a_legal_roll() -> None:
    """MR-5, MR-11: each outcome the page draws from ``dice`` (1-6, or each pair) applies."""
    seen: set[int] = set()
    for seed in range(4):
        m: Match[MountainsState] = new_match("mountains", ["Ana", "Ben"], rng=random.Random(seed))
        rng = random.Random(seed)
        for _ in range(300):
            if m.state.finished:
                break
            for a in MOUNTAINS.actions(m.state, None):
                if a["type"] != "roll":
                    continue
                n = a["dice"]
                assert n == len(a["fields"]) and all(f["kind"] == "int" for f in a["fields"])
                seen.add(n)
                for dice in itertools.combinations_with_replacement(range(1, 7), n):
                    body = {"type": "roll", "seat": a["seat"],
                            **{f["name"]: d for f, d in zip(a["fields"], dice, strict=True)}}
                    MOUNTAINS.apply(m.state, body)  # raises if the page's tile were illegal
            ev = MOUNTAINS.random_play(m.state, rng)
            assert ev is not None
            m.apply(ev)
    assert 1 in seen


def test_a_shrine_pass_is_one_tap_and_a_bid_says_its_amount() -> None:
    """SK-3, SK-4: no confirm on a pass (the referee's undo covers a mistake)."""
    m = new_match("shrine", ["Ana", "Ben", "Chen"], rng=random.Random(2))
    rng = random.Random(2)
    while m.state.phase != "bidding":
        ev = SHRINE.random_play(m.state, rng)
        assert ev is not None
        m.apply(ev)
    acts = {a["type"]: a for a in SHRINE.actions(m.state, m.state.turn)}
    assert "confirm" not in acts["pass"] and acts["pass"]["fields"] == []
    assert acts["bid"]["fields"][0]["say"] == "bid {n} Oinks"


def test_gem_complete_step_button_first_effects_by_hand_last() -> None:
    """GC-3: the step's own move leads; the four effects typed by hand follow, marked."""
    m: Match[GemState] = new_match("gemcomplete", ["Ana", "Ben"], rng=random.Random(5))
    m.apply({"type": "first_player", "value": 1})
    from companion.games.gemcomplete import RULES as GEM

    while not any(a["type"] == "play" for a in GEM.actions(m.state, 1)):
        m.apply({"type": "next", "seat": 1})  # the draw step, then the main step
    acts = GEM.actions(m.state, 1)
    kinds = [a["type"] for a in acts if not a.get("proposed")]
    assert kinds[0] == "next"
    hand = [a["type"] for a in acts if a.get("by_hand")]
    assert hand == ["crush", "discard", "draw", "return"] == kinds[-4:]


def test_every_one_tap_strike_is_a_legal_attack() -> None:
    """MR-7: each weapon-and-target button the page draws from ``strikes`` applies, and
    together they name every opponent some usable weapon reaches."""
    seen = 0
    for seed in range(6):
        m: Match[MountainsState] = new_match("mountains", ["Ana", "Ben", "Chen"],
                                             rng=random.Random(seed))
        rng = random.Random(seed)
        for _ in range(400):
            if m.state.finished:
                break
            for a in MOUNTAINS.actions(m.state, None):
                if a["type"] != "attack" or a.get("why"):
                    continue
                weapons = a["fields"][0]["choices"]
                targets = {c["value"] for c in a["fields"][1]["choices"]}
                offered = {st["target"] for w in weapons for st in w["strikes"]}
                assert offered == targets
                for w in weapons:
                    for st in w["strikes"]:
                        MOUNTAINS.apply(m.state, {"type": "attack", "seat": a["seat"],
                                                  "card": w["value"], "target": st["target"]})
                        seen += 1
                # Two weapons at one player both reaching them: the page's "both" button.
                for i, w in enumerate(weapons):
                    for w2 in weapons[i + 1:]:
                        for y in ({st["target"] for st in w["strikes"]}
                                  & {st["target"] for st in w2["strikes"]}):
                            MOUNTAINS.apply(m.state, {
                                "type": "attack", "seat": a["seat"], "card": w["value"],
                                "target": y, "card2": w2["value"], "target2": y})
            ev = MOUNTAINS.random_play(m.state, rng)
            assert ev is not None
            m.apply(ev)
    assert seen > 0
