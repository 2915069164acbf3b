"""God Num at revision 2 of the rulings: GN-2, GN-3, GN-5, GN-8, GN-9 and the card texts.

Each test here fails on the revision-1 engine, data or rules page.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.cards import load_deck
from companion.engine import OUT, Match
from companion.errors import BadSetup, CardNotAvailable, CompanionError
from companion.games.godnum import RULES, GodNumState
from companion.registry import new_match

NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay"]
ROOT = Path(__file__).resolve().parents[2]


def started(players: int = 2, target: int = 50, first: int = 1,
            **options: Any) -> Match[GodNumState]:
    opts = {"target_min": target, "target_max": target, **options}
    m: Match[GodNumState] = new_match("godnum", NAMES[:players], opts, rng=random.Random(8))
    m.apply({"type": "target", "value": target})
    m.apply({"type": "starting_player", "value": first})
    return m


def refused(m: Match[GodNumState], event: dict[str, Any]) -> CompanionError:
    before = m.state
    with pytest.raises(CompanionError) as info:
        m.apply(event)
    assert m.state is before
    return info.value


# ----------------------------------------------------------------- GN-2 rev. 2


def test_gn2_rev2_a_two_player_game_is_not_forced_onto_metal_water_and_water_wood() -> None:
    """GN-2 rev. 2: a seat is bound to the legion of the first card it shows."""
    m = started()
    assert [r["legion_name"] for r in RULES.view(m.state, None)["seats"]] == \
        ["legion not chosen yet", "legion not chosen yet"]
    m.apply({"type": "play", "seat": 1, "card": "fe-fire-5"})
    assert m.state.legion(1).deck == "legion-fire-earth"
    assert "Ana plays with the Fire-Earth Legion." in RULES.view(m.state, None)["ruling"]
    seats = RULES.view(m.state, 2)["seats"]
    assert seats[0]["legion_name"] == "Fire-Earth Legion"
    assert seats[1]["legion_name"] == "legion not chosen yet"
    # Ana's printed legion is hers now: Ben cannot take a card of it.
    exc = refused(m, {"type": "play", "seat": 2, "card": "fe-water-5"})
    assert isinstance(exc, CompanionError)
    fire6 = next(s for s, f in m.state.cards.items() if f.id == "fe-fire-6")
    exc = refused(m, {"type": "play", "seat": 2, "card": fire6})
    assert isinstance(exc, CardNotAvailable) and "Ana" not in str(exc)
    m.apply({"type": "play", "seat": 2, "card": "wf-fire-7"})  # Wood-Fire, a free legion
    assert m.state.legion(2).deck == "legion-wood-fire"
    places = RULES.places(m.state)
    assert sum(1 for p in places.values() if p == OUT) == 3 * 36  # the other legions


def test_gn2_rev2_six_players_two_seats_take_the_two_printed_metal_water_legions() -> None:
    m = started(players=6)
    m.apply({"type": "play", "seat": 1, "card": "mw-metal-2"})
    m.apply({"type": "play", "seat": 2, "card": "mw-metal-3"})  # the second printed set
    a, b = m.state.legion(1), m.state.legion(2)
    assert a.deck == b.deck == "legion-metal-water" and a.printed != b.printed
    assert a.unseen.isdisjoint(b.unseen)
    exc = refused(m, {"type": "play", "seat": 3, "card": "mw-metal-4"})
    assert isinstance(exc, CardNotAvailable)


def test_gn2_rev2_a_discard_binds_too_and_all_cards_must_come_from_one_legion() -> None:
    m = started()
    exc = refused(m, {"type": "discard", "seat": 1, "cards": ["em-earth-1", "wf-wood-1"]})
    assert isinstance(exc, CardNotAvailable)
    m.apply({"type": "discard", "seat": 1, "cards": ["em-earth-1", "em-skip"]})
    assert m.state.legion(1).deck == "legion-earth-metal" and m.state.legion(1).karma == 2


def test_gn2_rev2_the_lobby_may_fix_legions() -> None:
    m = started(players=3, legions="fire-earth, , Earth-Metal Legion")
    assert [lg.deck for lg in m.state.legions] == ["legion-fire-earth", None,
                                                   "legion-earth-metal"]
    for bad in ("gold-wood", "mw, ww, wf, fe"):
        with pytest.raises(BadSetup, match="GN-2"):
            new_match("godnum", NAMES[:3], {"legions": bad})
    with pytest.raises(BadSetup, match="GN-2"):  # one printed Fire-Earth set only
        new_match("godnum", NAMES[:2], {"legions": "fire-earth, fire-earth"})
    option = {o.name: o for o in RULES.options}["legions"]
    assert option.rule == "GN-2" and option.default == ""


# ----------------------------------------------------------------- GN-3 rev. 2 data


def test_gn3_rev2_every_legion_prints_four_burdens_and_no_cleanse() -> None:
    deck = load_deck("godnum")
    burdens = [f for f in deck.faces if f.attrs.get("function") == "burden"]
    assert len(burdens) == 5 and all(f.count == 4 and f.name == "Burden" for f in burdens)
    assert all("discard one card" in f.text and "karma" in f.text for f in burdens)
    assert not any("cleanse" in f.id or "Cleanse" in f.text for f in deck.faces)
    assert all(deck.set_size(d) == 36 for d in deck.decks)


# ----------------------------------------------------------------- GN-5 rev. 2


def test_gn5_rev2_the_ruling_says_how_many_cards_to_draw() -> None:
    m = started(legions="metal-water, water-wood")
    m.apply({"type": "discard", "seat": 1, "cards": ["mw-water-3", "mw-skip"]})
    assert "Ana draws 2." in RULES.view(m.state, None)["ruling"]
    last = RULES.last_play(m.state, None)
    assert last is not None
    assert last["physical"] == ["Ana: put Water 3 and Skip in the Void, out of the game, "
                                "then draw 2."]
    assert last["undo"] == ["Ana: put 2 cards from your hand back on your deck.",
                            "Ana: take your Skip back from the Void into your hand.",
                            "Ana: take your Water 3 back from the Void into your hand."]
    m.apply({"type": "play", "seat": 2, "card": "ww-wood-4"})
    assert RULES.last_play(m.state, 2)["physical"] == [  # type: ignore[index]
        "Ben: put your Wood 4 on the pot, then draw 1."]


def test_gn5_rev2_the_phones_list_marks_wins_and_busts() -> None:
    m = started(target=35, legions="metal-water, water-wood")
    for seat, face in ((1, "mw-metal-10"), (2, "ww-wood-10"), (1, "mw-metal-6"),
                       (2, "ww-chaos")):
        m.apply({"type": "play", "seat": seat, "card": face})
    assert (m.state.divine_number, m.state.attribute) == (26, None)
    chips = {c["value"]: c for c in RULES.actions(m.state, 1)[0]["fields"][0]["choices"]}
    assert chips["mw-metal-9"]["hint"] == "→ 35: you win"
    assert chips["mw-water-10"]["hint"] == "→ 36: past 35, you are out"
    assert chips["mw-water-2"]["hint"] == "→ 28"
    assert "mw-metal-10" not in chips  # already on the pot
    legal = {r["value"]: r for r in RULES.view(m.state, 1)["legal"]}
    assert legal["mw-metal-9"]["hint"] == "→ 35: you win"


def test_gn6_disabled_chips_say_why_in_words() -> None:
    m = started(legions="metal-water, fire-earth", first=2)
    m.apply({"type": "play", "seat": 2, "card": "fe-fire-5"})
    chips = {c["value"]: c for c in RULES.actions(m.state, 1)[0]["fields"][0]["choices"]}
    assert chips["mw-metal-6"]["disabled"] == "needs exactly 5"
    assert "disabled" not in chips["mw-metal-5"] and chips["mw-metal-5"]["hint"] == "→ 10"
    assert "disabled" not in chips["mw-water-9"]  # Water overcomes Fire: any number
    m.apply({"type": "play", "seat": 1, "card": "mw-metal-5"})  # current Metal 5
    chips = {c["value"]: c for c in RULES.actions(m.state, 2)[0]["fields"][0]["choices"]}
    assert chips["fe-earth-7"]["disabled"] == "Earth generates Metal: never on Metal"
    assert "disabled" not in chips["fe-fire-2"] and chips["fe-fire-2"]["hint"] == "→ 12"
    assert chips["fe-earth-5"]["disabled"] == "Earth generates Metal: never on Metal"


# ----------------------------------------------------------------- GN-8, GN-9, texts


def test_gn8_rev2_rules_page_says_revert_is_the_companions_reading() -> None:
    page = (ROOT / "docs" / "rules" / "godnum.md").read_text(encoding="utf-8")
    assert "## Revision 2" in page
    assert "*revert* is the companion's reading, not the seed's literal one" in page
    assert "GN-8" in page


def test_gn9_karma_elimination_sentence_has_its_full_stop() -> None:
    m = started(legions="metal-water, water-wood", karma_limit=2)
    m.apply({"type": "play", "seat": 1, "card": "mw-chaos"})
    m.apply({"type": "discard", "seat": 2, "cards": ["ww-skip", "ww-chaos"]})
    assert "(GN-9). Ben reaches the karma limit and is eliminated (GN-9)." in m.state.ruling
    assert "out of the game. Ben reaches the karma limit and is eliminated." in \
        RULES.view(m.state, None)["ruling"]


def test_gn6_number_1_cards_do_not_say_below_1() -> None:
    """Nothing is below 1: a 1 never goes on its own attribute (GN-6)."""
    deck = load_deck("godnum")
    ones = [f for f in deck.faces if f.number == 1]
    assert len(ones) == 10
    for f in deck.faces:
        assert "below 1," not in f.text, f.id
    for f in ones:
        own = str(f.element).title()
        assert f"and never on {own}, as no number is below 1" in f.text, f.id


def test_gn2_rev2_before_binding_the_chips_span_every_free_legion_by_group() -> None:
    m = started()
    chips = RULES.actions(m.state, 1)[0]["fields"][0]["choices"]
    assert {c["group"] for c in chips} == {info.name for info in load_deck("godnum").decks
                                           .values()}
    assert len(chips) == 5 * 24 and all("disabled" not in c for c in chips)  # attributeless
    m.apply({"type": "play", "seat": 1, "card": "em-metal-4"})
    m.apply({"type": "play", "seat": 2, "card": "mw-chaos"})
    chips = RULES.actions(m.state, 1)[0]["fields"][0]["choices"]
    assert all("group" not in c and c["value"].startswith("em-") for c in chips)
    assert "em-metal-4" not in {c["value"] for c in chips}
