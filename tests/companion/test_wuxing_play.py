"""WuXing plays as data, plain words and one tap (issue 11, C-7, C-8): ``last_play`` for the
seed's examples, what each viewer may see of it, the faces a card field offers, and the
players' words over random games."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_wuxing import RULES, started

from companion.engine import Match
from companion.errors import CompanionError
from companion.registry import new_match


def _play(t: Any, seat: int | None = None) -> dict[str, Any]:
    p = RULES.last_play(t.s, seat)
    assert p is not None
    return p


def _moves(p: dict[str, Any]) -> list[tuple[str | None, str, str]]:
    return [(m["face"], m["from"], m["to"]) for m in p["movements"]]


def test_last_play_absorbs_example_1_wood_absorbs_water() -> None:
    """Seed Absorbs, Example 1 (WX-7.6, WX-8): the movements, the sentence, what to do with
    the cards and how to undo it."""
    t = started()
    assert RULES.last_play(t.m.initial, None) is None
    u, a, b = t.challenge("water", "wood", "metal")
    p = _play(t)
    assert (p["kind"], p["outcome"], p["rule"], p["seat"]) == ("challenge", "win", "WX-7.6", 2)
    assert _moves(p) == [("metal", "deck:2", "table:2"), ("universe-water", "pot", "deck:1"),
                         ("wood", "table:1", "deck:1"), ("metal", "table:2", "deck:1")]
    assert p["movements"][1]["from_words"] == "the pot"
    assert p["movements"][1]["to_words"] == "Ana's deck"
    assert p["text"] == ("Wood absorbs Water: Ana wins 3 cards; shuffle them together and put "
                         "them at the bottom of your deck.")
    assert p["physical"] == ["Ana: take the 3 cards, shuffle them together and put them at "
                             "the bottom of your deck."]
    assert {c["face"] for c in p["cards"]} == {"universe-water", "wood", "metal"}
    assert p["undo"][-1] == "Take Bo's Metal back out of Ana's deck and put it on top of Bo's deck."
    referee = _play(t, 0)
    assert {m["card"] for m in referee["movements"]} == {u, a, b}
    assert all(m["card"] is None for m in p["movements"])


def test_last_play_destroys_example_1_the_pot_and_the_opponents_card_go_to_the_void() -> None:
    """Seed Destroys, Example 1 (WX-7.7): Earth destroys Water; the pot and Bo's card go to
    the Void, Ana's Earth goes under her deck."""
    t = started()
    t.universe("star")
    t.contribute_all()
    t.challenge("water", "earth", "fire")
    p = _play(t, 1)
    assert p["outcome"] == "void" and p["rule"] == "WX-7.7"
    assert p["physical"] == ["The pot (2 cards) and Bo's Fire go to the Void.",
                             "Ana: put your Earth at the bottom of your deck."]
    assert ("fire", "table:2", "void") in _moves(p)
    assert ("earth", "table:1", "deck:1") in _moves(p)


def test_last_play_dragon_round_contribution_and_the_views_learning_aids() -> None:
    """WX-5: a Universe Dragon; each contribution is a play of its own; the view names who
    still owes a card, shows the counts and the current Universe card as its own tile."""
    t = started(3)
    t.universe("dragon")
    p = _play(t)
    assert (p["kind"], p["outcome"], p["rule"]) == ("universe", "dragon", "WX-5")
    assert _moves(p) == [("universe-dragon", "universe", "void")]
    t.reveal(3, "wood")
    p = _play(t, 2)
    assert p["text"] == "Cy put Wood on the pot."
    assert p["physical"] == ["Cy's Wood goes on the pot."]
    assert p["undo"] == ["Take Cy's Wood back out of the pot and put it on top of Cy's deck."]
    v = RULES.view(t.s, 1)
    assert v["owing"] == ["Ana", "Bo"]
    assert v["counts"]["pot"] == 1 and v["counts"]["decks"] == {"Ana": 14, "Bo": 14, "Cy": 13}
    t.contribute_all()
    t.universe("metal")
    v = RULES.view(t.s, None)
    assert v["universe"] == {"face": "universe-metal", "name": "Universe Metal",
                             "element": "metal"}
    assert v["owing"] == [] and v["rule"] == "WX-4"


def test_the_reveal_is_one_tap_on_a_phone() -> None:
    """Issue 11: the awaited seat's card field lists the faces it may show; posting one of
    them, as the phone's tile does, is the whole reveal."""
    t = started()
    t.universe("water")
    (action,) = RULES.actions(t.s, 2)
    field = action["fields"][0]
    assert field["zone"] == "seat:2"
    assert {f["face"] for f in field["faces"]} == {"wood", "fire", "earth", "metal", "water",
                                                   "dragon", "star"}
    t.m.apply({"type": "scan", "card": field["faces"][0]["face"], "zone": field["zone"],
               "seat": 2})
    assert t.s.revealed[0][0] == 2
    assert RULES.actions(t.s, 2) == []
    universe = RULES.actions(started().s, 1)[0]["fields"][0]
    assert universe["zone"] == "universe"
    assert {f["face"] for f in universe["faces"]} == {
        f"universe-{x}" for x in ("wood", "fire", "earth", "metal", "water", "dragon", "star")}


# Words players must never see (C-8): ruling ids, zone names, face ids, versions, "(s)".
FORBIDDEN = re.compile(r"\b(?:WX|C)-\d|\b(?:seat|deck|table|locus):\d|universe-\w|\bv\d+\b"
                       r"|\(s\)|\b(?:wood|fire|earth|metal|water|dragon|star)\b")
SERIAL = re.compile(r"\b[0-9A-Z]{4}-[0-9A-Z]{3}\b")


def _words(viewer: int | None, view: dict[str, Any], play: dict[str, Any] | None) -> list[str]:
    out = [view["prompt"], view["ruling"], view["last_adjudication"]]
    if play is not None:
        out += [play["text"], *play["physical"], *play["undo"]]
        out += [m["from_words"] for m in play["movements"]]
        out += [m["to_words"] for m in play["movements"]]
    return out


def _offered(state: Any, seat: int | None) -> dict[str, set[str]]:
    return {f["zone"]: {x["face"] for x in f["faces"]}
            for a in RULES.actions(state, seat) for f in a["fields"] if f["kind"] == "card"}


def _accepted(state: Any, zone: str, seat: int | None) -> set[str]:
    ok = set()
    for face in state.table.by_face:
        event = {"type": "scan", "card": face, "zone": zone}
        if seat is not None:
            event["seat"] = seat
        try:
            RULES.apply(state, event)
        except CompanionError:
            continue
        ok.add(face)
    return ok


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6),
       end=st.sampled_from(["count", "recycle"]), start=st.sampled_from(["rps", "dragon"]))
@settings(max_examples=15, deadline=None)
def test_random_games_words_hidden_cards_and_faces(seed: int, players: int, end: str,
                                                   start: str) -> None:
    """Over random games, after every event: the players' words (views and last play) carry
    no ruling id, zone name, face id or serial (C-8); only the referee's last play names
    serials (C-7); and at random moments each card field offers exactly the faces ``apply``
    accepts in its zone from that seat (C-1, issue 11)."""
    rng = random.Random(seed)
    m: Match[Any] = new_match("wuxing", [f"P{i}" for i in range(1, players + 1)],
                              {"end": end, "start": start}, rng=rng)
    while not m.state.finished:
        event = RULES.random_play(m.state, rng)
        assert event is not None
        m.apply(event)
        s = m.state
        for viewer in (None, *range(1, players + 1)):
            play = RULES.last_play(s, viewer)
            for text in _words(viewer, RULES.view(s, viewer), play):
                assert not FORBIDDEN.search(text), (viewer, text)
                assert not SERIAL.search(text), (viewer, text)
            assert play is not None
            assert not SERIAL.search(json.dumps(play)), viewer
        referee = RULES.last_play(s, 0)
        assert referee is not None
        named = {mv["card"] for mv in referee["movements"]} - {None}
        assert named <= set(s.places)
        if rng.random() < 0.1:
            for seat in (None, *s.awaiting):
                for zone, faces in _offered(s, seat).items():
                    assert faces == _accepted(s, zone, seat), (seat, zone)
