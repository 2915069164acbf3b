"""God Num plays as data and plain words (issue 11, C-8): ``last_play`` per viewer, the
one-tap actions, the big screen's order, and words without ids, zone names or face ids."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import load_deck
from companion.engine import Match
from companion.errors import CompanionError
from companion.games.godnum import RULES, GodNumState
from companion.registry import new_match
from companion.simulate import play_random

NAMES = ["Ana", "Ben", "Cai", "Dee"]
ORDER = ["metal-water", "water-wood", "wood-fire", "fire-earth"]
DECK = load_deck("godnum")


def started(players: int = 2, target: int = 40, first: int = 1,
            **options: Any) -> Match[GodNumState]:
    opts = {"target_min": target, "target_max": target,
            "legions": ", ".join(ORDER[:players]), **options}
    m: Match[GodNumState] = new_match("godnum", NAMES[:players], opts, rng=random.Random(6))
    m.apply({"type": "target", "value": target})
    m.apply({"type": "starting_player", "value": first})
    return m


def last(m: Match[GodNumState], seat: int | None) -> dict[str, Any]:
    lp = RULES.last_play(m.state, seat)
    assert lp is not None
    json.dumps(lp)
    return lp


def test_last_play_of_the_start_is_five_face_down_cards_each() -> None:
    m: Match[GodNumState] = new_match("godnum", NAMES[:2], {"legions": ", ".join(ORDER[:2])})
    assert RULES.last_play(m.state, None) is None
    m.apply({"type": "target", "value": 45})
    assert last(m, None)["text"] == "The target divine number is 45."
    m.apply({"type": "starting_player", "value": 2})
    lp = last(m, None)
    assert lp["physical"] == ["Everyone: shuffle your legion deck and draw 5."]
    assert [(x["from"], x["to"], x["card"], x["count"]) for x in lp["movements"]] == [
        ("deck:1", "hand:1", None, 5), ("deck:2", "hand:2", None, 5)]
    assert lp["movements"][0]["from_words"] == "Ana's deck"


def test_last_play_of_a_number_card_per_viewer_with_undo_words() -> None:
    """GN-7: Ana plays Metal 6; she draws 1 back (GN-5)."""
    m = started()
    m.apply({"type": "play", "seat": 1, "card": "mw-metal-6"})
    serial = m.state.pile[-1]
    public, owner, other, referee = last(m, None), last(m, 1), last(m, 2), last(m, 0)
    assert public["text"] == ("Ana plays Metal 6: the divine number is 6 of 40, Metal 6 is "
                              "current. Ana draws 1. Ben's turn.")
    assert public["physical"] == ["Ana: put your Metal 6 on the pot, then draw 1."]
    assert (public["kind"], public["outcome"], public["rule"], public["seat"]) == \
        ("play", "number", "GN-7", 1)
    assert public["cards"] == [{"face": "mw-metal-6", "name": "Metal 6", "element": "metal",
                                "color": "metal", "number": 6}]
    played, drawn = public["movements"]
    assert (played["from_words"], played["to_words"], played["name"]) == \
        ("Ana's hand", "the pot", "Metal 6")
    assert (drawn["card"], drawn["face"], drawn["count"]) == (None, None, 1)
    assert played["card"] is None and other["movements"][0]["card"] is None
    assert owner["movements"][0]["card"] == serial == referee["movements"][0]["card"]
    assert owner["cards"][0]["serial"] == serial and "serial" not in other["cards"][0]
    assert public["undo"] == ["Ana: put 1 card from your hand back on your deck.",
                              "Ana: take your Metal 6 back from the pot into your hand."]


def test_last_play_of_a_win_a_bust_and_a_karma_elimination() -> None:
    m = started(players=3, target=12)
    m.apply({"type": "play", "seat": 1, "card": "mw-metal-2"})
    m.apply({"type": "play", "seat": 2, "card": "ww-chaos"})
    m.apply({"type": "play", "seat": 3, "card": "wf-fire-10"})  # 12: exactly the target
    lp = last(m, None)
    assert lp["outcome"] == "win" and lp["text"].endswith("Cai wins.")
    assert lp["physical"] == ["Cai: put your Fire 10 on the pot."]

    m = started(players=3, target=8)
    m.apply({"type": "play", "seat": 1, "card": "mw-metal-3"})
    m.apply({"type": "play", "seat": 2, "card": "ww-chaos"})
    m.apply({"type": "play", "seat": 3, "card": "wf-fire-9"})  # GN-8 revert
    lp = last(m, None)
    assert lp["outcome"] == "bust" and lp["rule"] == "GN-8"
    assert lp["physical"] == ["Cai: put your Fire 9 out of the game, then put your hand and "
                              "your deck out of the game."]
    assert [(x["from"], x["to"], x["count"]) for x in lp["movements"]] == [
        ("hand:3", "out", 1), ("hand:3", "out", 4), ("deck:3", "out", 31)]

    m = started(karma_limit=1)
    m.apply({"type": "discard", "seat": 1, "cards": ["mw-water-2"]})
    lp = last(m, None)
    assert (lp["outcome"], lp["rule"]) == ("karma", "GN-9")
    assert lp["text"] == ("Ana discards Water 2: karma 1 of 1; discards are out of the game. "
                          "Ana reaches the karma limit and is eliminated. Ben is the last "
                          "legion standing and wins.")


def test_last_play_of_a_reshuffle_names_the_cards_that_go_back() -> None:
    """GN-10: Ana's played cards (not the top one) become her new deck."""
    m = started()
    for seat, face in ((1, "mw-metal-1"), (2, "ww-chaos"), (1, "mw-metal-2"), (2, "ww-chaos")):
        m.apply({"type": "play", "seat": seat, "card": face})
    lg = m.state.legion(1)
    hand = frozenset(sorted(lg.unseen)[:5])
    legions = list(m.state.legions)
    legions[0] = replace(lg, unseen=hand, deck_count=0, hand_count=5)
    state = replace(m.state, legions=tuple(legions), out=m.state.out | (lg.unseen - hand))
    after = RULES.apply(state, {"type": "play", "seat": 1, "card": "mw-skip"}
                        if any(state.cards[c].id == "mw-skip" for c in hand)
                        else {"type": "play", "seat": 1,
                              "card": next(c for c in sorted(hand)
                                           if RULES.check_card(state, state.cards[c])[0])})
    lp = RULES.last_play(after, None)
    assert lp is not None
    back = [x["name"] for x in lp["movements"] if x["from"] == "pot"]
    assert sorted(back) == ["Metal 1", "Metal 2"]
    assert "shuffle your Metal 1 and Metal 2 from the pot (not the top card) into a new " \
           "deck, then draw 1" in lp["physical"][0]
    assert "shuffles their 2 played cards into a new deck and draws 1." in lp["text"]


def test_burden_tells_the_next_player_what_to_do() -> None:
    m = started()
    m.apply({"type": "play", "seat": 1, "card": "mw-burden"})
    lp = last(m, None)
    assert lp["physical"] == ["Ana: put your Burden on the pot, then draw 1.",
                              "Ben: discard one card of your choice: lay it face up in the "
                              "Void."]
    acts = RULES.actions(m.state, 2)
    assert [a["type"] for a in acts] == ["discard"]
    assert acts[0]["fields"][0]["count"] == 1 and acts[0]["rule"] == "GN-3"
    assert RULES.view(m.state, None)["prompt"] == (
        "Ben: discard one card of your choice: lay it face up in the Void (Burden).")


def test_views_put_the_big_figures_first_and_keep_ids_apart() -> None:
    m = started()
    m.apply({"type": "play", "seat": 1, "card": "mw-metal-6"})
    v = RULES.view(m.state, None)
    assert list(v)[:4] == ["divine_number", "target", "attribute", "current"]
    assert (v["divine_number"], v["target"], v["current"]) == (6, 40, "Metal 6")
    assert "GN-" not in v["ruling"] and v["rule"] == "GN-7"
    ref = RULES.referee_view(m.state)
    assert "(GN-7)" in ref["ruling_ids"] and ref["pile"][0]["card"] == m.state.pile[0]


def accepted_faces(state: GodNumState) -> set[str]:
    """The face ids that ``apply`` accepts as the current player's play now."""
    ok = set()
    for face in DECK.faces:
        try:
            RULES.apply(state, {"type": "play", "seat": state.turn, "card": face.id})
        except CompanionError:
            continue
        ok.add(face.id)
    return ok


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_faces_offered_are_exactly_the_faces_apply_accepts(seed: int, players: int) -> None:
    """Issue 11, C-1: the referee's tiles and the phone's enabled chips are exactly the
    faces a play accepts now (the engine picks a copy the seat may hold)."""
    out = play_random("godnum", players, random.Random(seed))
    m = Match(RULES, out.match.setup)
    for i, event in enumerate(out.match.events):
        m.apply(event)
        if i % 4 or m.state.finished or m.state.turn is None:
            continue
        offered_ref: set[str] = set()
        offered_phone: set[str] = set()
        for a in RULES.actions(m.state, None):
            if a["type"] == "play":
                offered_ref = {f["face"] for f in a["fields"][0]["faces"]}
        for a in RULES.actions(m.state, m.state.turn):
            if a["type"] == "play":
                offered_phone = {c["value"] for c in a["fields"][0]["choices"]
                                 if "disabled" not in c}
        assert offered_ref == offered_phone == accepted_faces(m.state), i


FORBIDDEN = [
    re.compile(r"\b(GN|C|WX|SK|MR|GC)-\d"),  # ruling ids
    re.compile(r"\b(seat|hand|deck|unknown|locus):\d"),  # zone names
    re.compile(r"\(s\)"), re.compile(r"\bv\d+\b"), re.compile(r"->"), re.compile(r"\bNone\b"),
    re.compile(r"\b(mw|ww|wf|fe|em)-[a-z]+"),  # face ids
]


def player_texts(m: Match[GodNumState], seat: int | None) -> list[str]:
    v = RULES.view(m.state, seat)
    texts = [v["ruling"], v["prompt"], v["current"], *(r["legion_name"] for r in v["seats"])]
    for row in v.get("legal", []):
        texts += [row["label"], row["why"], row.get("hint", "")]
    for a in RULES.actions(m.state, seat) if seat is not None else []:
        texts.append(a["label"])
        for f in a["fields"]:
            texts.append(f["label"])
            for c in f.get("choices", []):
                texts += [c["label"], c.get("hint", ""), c.get("disabled", ""), c.get("why", "")]
    lp = RULES.last_play(m.state, seat)
    if lp:
        texts += [lp["text"], *lp["physical"], *lp["undo"]]
        texts += [x["from_words"] for x in lp["movements"]]
        texts += [x["to_words"] for x in lp["movements"]]
    return texts


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4),
       bust=st.sampled_from(["revert", "stand"]))
def test_words_are_plain_and_hidden_serials_stay_hidden(seed: int, players: int,
                                                        bust: str) -> None:
    """C-8 over random games: no ruling ids, zone names, face ids or "card(s)" in what
    players read. C-7: a seat's last play names only its own serials, the big screen none,
    and cards drawn face down are a count without a card."""
    out = play_random("godnum", players, random.Random(seed), {"bust": bust})
    m = Match(RULES, out.match.setup)
    for i, event in enumerate(out.match.events):
        m.apply(event)
        for seat in (None, *range(1, players + 1)):
            if i % 3 == 0:
                for text in player_texts(m, seat):
                    for pattern in FORBIDDEN:
                        assert not pattern.search(text), (text, pattern.pattern)
            lp = RULES.last_play(m.state, seat)
            assert lp is not None
            for x in lp["movements"]:
                if x["from"].startswith("deck") and x["to"].startswith("hand"):
                    assert x["card"] is None and x["face"] is None
                if x["card"] is not None:
                    assert seat is not None and m.state.owner.get(x["card"]) == seat
            blob = json.dumps([lp, RULES.view(m.state, seat)])
            for serial in re.findall(r'"([0-9A-Z]{4}-[0-9A-Z]{3})"', blob):
                assert seat is not None and m.state.owner.get(serial) == seat, serial


def test_a_face_id_shown_in_any_zone_picks_a_copy_the_seat_may_hold() -> None:
    """C-1: a tile tapped (a face id) works in the seat's zone, the pot and the Void; the
    four Chaos copies are interchangeable, so two taps discard two different copies."""
    m = started()
    m.apply({"type": "scan", "card": "mw-metal-4", "zone": "seat:1", "seat": 1})
    assert m.state.cards[m.state.pile[-1]].id == "mw-metal-4"
    m.apply({"type": "scan", "card": "ww-water-4", "zone": "pot", "seat": 2})
    m.apply({"type": "scan", "card": "mw-chaos", "zone": "void", "seat": 1})
    m.apply({"type": "scan", "card": "mw-chaos", "zone": "void", "seat": 1})
    chaos = [s for s in m.state.out if m.state.cards[s].id == "mw-chaos"]
    assert len(chaos) == 2 and m.state.legion(1).karma == 2
    m.apply({"type": "end_turn", "seat": 1})
    assert m.state.turn == 2 and last(m, None)["text"] == "Ana ends the turn. Ana draws 2. " \
        "Ben's turn."
