"""Mountains & Rivers: the play as data, plain words and one tap (issue 11, C-7, C-8).

``Rules.last_play`` per viewer (movements, physical steps, undo), the board drawn from one
source (``marks``, shared with the printed board), tappable faces that ``apply`` accepts,
and words free of ruling ids, zone names and face ids over random games.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_mountains_helpers import new, play, put, serial, to_play, turn_of

from companion.errors import CompanionError
from companion.games.mountains import RULES, MountainsState
from companion.games.mountains.marks import MARKS
from companion.games.mountains.state import FACE_DOWN


def lp(s: MountainsState, seat: int | None = None) -> dict[str, Any]:
    out = RULES.last_play(s, seat)
    assert out is not None
    return out


# -- the seed's examples as data --------------------------------------------------------------
def test_no_play_yet_is_none() -> None:
    assert RULES.last_play(new(2).state, None) is None


def test_seed_blind_pick_is_shown_in_front_of_the_picker() -> None:
    m = new(2)
    m.apply({"type": "roll", "seat": 1, "dice": [6]})
    m.apply({"type": "roll", "seat": 2, "dice": [2]})
    m.apply({"type": "scan", "seat": 1, "card": "huan"})
    out = lp(m.state)
    assert out["outcome"] == "pick" and out["rule"] == "MR-3" and out["seat"] == 1
    assert [(x["face"], x["from"], x["to"], x["from_words"], x["to_words"])
            for x in out["movements"]] == [
        ("huan", "pile:character", "seat:1", "the character deck", "in front of Ana")]
    assert out["physical"] == ["Ana: keep Huan face up in front of you."]
    assert out["undo"] == ["Ana: put Huan back in the character deck."]
    assert out["cards"][0]["name"] == "Huan" and "serial" not in out["cards"][0]


def test_seed_weapon_point_draw_then_the_used_weapon_goes_to_its_discard_pile() -> None:
    """Seed: "A weapon card can be drawn from the arsenal, but cannot be used in the first
    round"; "After a weapon has been used, it gets discarded to a different pile" (MR-6,
    MR-7)."""
    m = to_play(3)
    s = turn_of(put(put(m.state, 1, tile="C2", weapons=("ember-whip",)), 2, tile="C3"), 1,
                roll=(1, 1))
    s = play(s, {"type": "move", "seat": 1, "to": "C1"})
    out = lp(s)
    assert out["movements"] == [] and out["physical"] == [
        "Ana: draw a weapon card from the weapon pile and show it in your place.",
        "Ana: move your pawn to C1."]
    assert out["undo"] == ["Ana: move your pawn back to C2."]
    s = play(s, {"type": "scan", "seat": 1, "card": serial(s, "rain-bow"), "zone": "seat:1"})
    out = lp(s)
    assert out["outcome"] == "weapon" and out["physical"] == [
        "Ana: keep the Rain Bow face up in front of you."]
    whip = serial(s, "ember-whip")
    s = play(s, {"type": "attack", "seat": 1, "card": whip, "target": 2})
    for viewer, shown in ((None, None), (2, None), (1, whip), (0, whip)):
        out = lp(s, viewer)
        assert out["movements"][0]["card"] == shown
        assert out["movements"][0]["to_words"] == "the weapon discard pile"
    assert out["physical"] == ["Put Ana's Ember Whip on the weapon discard pile.",
                               "Bo: set your HP to 9."]
    assert out["undo"] == ["Take the Ember Whip off the weapon discard pile and give it back "
                           "to Ana.", "Bo: set your HP back to 10."]
    assert out["text"] == ("Ana attacks: Ember Whip hits Bo for 1; Bo loses 1 HP; used "
                           "weapons go to the weapon discard pile.")


def test_seed_challenge_card_is_read_aloud_and_discarded_to_its_own_pile() -> None:
    """Seed: "Whenever a Game or Chance Card is drawn, it activates immediately, then gets
    discarded into a separate pile" (MR-9)."""
    m = to_play(3)
    s = turn_of(put(m.state, 1, tile="B1"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "B2"},
             {"type": "scan", "seat": 1, "card": "mountain-gaze"})
    out = lp(s)
    assert out["outcome"] == "challenge" and out["rule"] == "MR-9"
    assert out["physical"] == [
        "Read Mountain Gaze aloud, then put it on the challenge discard pile."]


def test_seed_discards_are_shuffled_into_a_new_pile_as_a_count() -> None:
    """Seed: "discarded to a different pile to be shuffled and used again later once no
    Weapon Cards are left" (MR-7): the new pile is face down, a count without names."""
    m = to_play(2)
    s = m.state
    places = {c: ("discard:weapon" if p == "pile:weapon" else p) for c, p in s.places.items()}
    s = turn_of(put(replace(s, places=places), 1, tile="C2"), 1, roll=(1, 1))
    s = play(s, {"type": "move", "seat": 1, "to": "C1"})
    out = lp(s, 1)
    assert out["movements"] == [{"card": None, "face": None, "name": None,
                                 "from": "discard:weapon", "to": "pile:weapon", "count": 16,
                                 "from_words": "the weapon discard pile",
                                 "to_words": "the weapon pile"}]
    assert out["physical"][0] == "Shuffle the weapon discard pile into a new weapon pile."
    assert out["undo"][0] == ("Put the 16 cards of the weapon pile back on the weapon "
                              "discard pile.")


def test_stairs_choice_and_skill_words() -> None:
    m = to_play(2)
    s = turn_of(put(m.state, 1, tile="C1"), 1, roll=(2,))
    s = play(s, {"type": "move", "seat": 1, "to": "C3"})
    acts = [a for a in RULES.actions(s, 1) if a["type"] == "stairs"]
    assert [c["value"] for c in acts[0]["fields"][0]["choices"]] == [True, False]
    s = play(s, {"type": "stairs", "seat": 1, "take": True})
    out = lp(s)
    assert out["outcome"] == "stairs" and out["physical"] == ["Ana: move your pawn to E7."]


# -- the board from one source ------------------------------------------------------------------
def test_board_view_draws_from_the_marks_the_printed_board_uses() -> None:
    m = to_play(3, chars=("xi-bian", "qing-luan", "huan"))
    s = turn_of(m.state, 1, roll=(2,))
    b = RULES.view(s, 2)["board"]
    assert b["size"] == 9 and len(b["tiles"]) == 81
    for tile in b["tiles"]:
        mark = MARKS[tile["kind"]]
        assert (tile["mark"], tile["mark_colour"], tile["word"]) == (
            mark.mark, mark.colour, mark.word)
    kinds = {t["kind"]: t["mark"] for t in b["tiles"]}
    assert kinds["challenge"] != kinds["chance"]  # issue 11, point 3
    assert {"from": "C3", "to": "E7"} in b["stairs"] and len(b["arrows"]) == 4
    assert [x["kind"] for x in b["legend"]] == list(s.board.kinds)
    assert [(p["name"], p["initials"]) for p in b["pawns"]] == [
        ("Ana", "XB"), ("Bo", "QL"), ("Cy", "H")]
    move = next(a for a in RULES.actions(s, 1) if a["type"] == "move")
    field = move["fields"][0]
    assert field["on_board"] and [c["value"] for c in field["choices"]] == b["reachable"]
    assert b["reachable"] == ["A3", "B2", "C1"]


def test_skills_confirm_their_cost_and_effect_and_say_why_not_in_words() -> None:
    m = to_play(3, chars=("ling-yu", "huan", "xi-bian"))
    s = turn_of(m.state, 1)
    skills = {a["fields"][0]["choices"][0]["value"]: a for a in RULES.actions(s, 1)
              if a["type"] == "skill"}
    assert skills["2"]["confirm"].startswith("It costs 2 HP: ")
    assert skills["basic"]["disabled"] == "you have no weapon you can use this turn"
    assert skills["basic"]["rule"] == "MR-7" and "confirm" not in skills["basic"]


# -- properties over random games ----------------------------------------------------------------
_IDS = re.compile(r"\b(?:MR|C)-\d+\b|\bseat:|\bpile:|\bdiscard:|card\(s\)|\bv\d+\b")


def _words(s: MountainsState, viewer: int | None) -> list[str]:
    """Everything a player reads: the view's sentences, the actions, the last play."""
    v = RULES.view(s, viewer)
    out = [v["ruling"], v["prompt"], *(p["text"] for p in v["pending"])]
    for p in v["players"]:
        out += p["effects"]
    for a in RULES.actions(s, viewer):
        out += [a["label"], a.get("why", ""), a.get("confirm", "")]
        for f in a["fields"]:
            out.append(f["label"])
            out += [str(c.get("label", "")) + str(c.get("why", "")) for c in
                    f.get("choices", [])]
    play_ = RULES.last_play(s, viewer)
    if play_:
        out += [play_["text"], *play_["physical"], *play_["undo"]]
        out += [m["from_words"] + m["to_words"] for m in play_["movements"]]
    return out


def _games(seed: int, players: int) -> list[MountainsState]:
    rng = random.Random(seed)
    m = new(players, seed=seed)
    states = []
    for _ in range(300):
        event = RULES.chance(m.state, rng) or RULES.random_play(m.state, rng)
        if event is None:
            break
        m.apply(event)
        states.append(m.state)
    return states


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_c8_words_are_free_of_ids_zone_names_and_face_ids(seed: int, players: int) -> None:
    states = _games(seed, players)
    face_ids = {f.id for f in states[0].faces.values() if "-" in f.id}
    for s in states[::3]:
        for viewer in (None, *range(1, players + 1)):
            for text in _words(s, viewer):
                assert not _IDS.search(text), text
                assert not any(fid in text for fid in face_ids), text


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_c7_last_play_never_names_a_hidden_card(seed: int, players: int) -> None:
    """A card in a face-down pile never appears in anyone's last play but the referee's
    counts; serials reach only the referee and the card's owner."""
    for s in _games(seed, players):
        hidden = {c for c, p in s.places.items() if p in FACE_DOWN}
        hidden_faces = {s.face(c).id for c in hidden} - {
            s.face(c).id for c, p in s.places.items() if p not in FACE_DOWN}
        for viewer in (None, 0, *range(1, players + 1)):
            out = RULES.last_play(s, viewer)
            if out is None:
                continue
            dump = json.dumps(out)
            assert not any(c in dump for c in hidden), dump
            assert not any(f'"{f}"' in dump for f in hidden_faces), dump
            for mv in out["movements"]:
                owners = {mv["from"], mv["to"]}
                if mv["card"] is not None:
                    assert viewer == 0 or f"seat:{viewer}" in owners


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_faces_offered_are_exactly_the_faces_apply_accepts_now(seed: int,
                                                                players: int) -> None:
    states = _games(seed, players)
    all_faces = sorted({f.id for f in states[0].faces.values()})
    checked = 0
    for s in states:
        for a in RULES.actions(s, None):
            for f in a["fields"]:
                if f["kind"] != "card":
                    continue
                offered = {x["face"] for x in f["faces"]}
                for face in all_faces:
                    event = {"type": "scan", "seat": a["seat"], "card": face,
                             "zone": f["zone"]}
                    try:
                        RULES.apply(s, event)
                        accepted = True
                    except CompanionError:
                        accepted = False
                    assert accepted == (face in offered), (face, offered)
                checked += 1
    assert checked
