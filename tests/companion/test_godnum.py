"""God Num rules engine: one test (at least) per ruling GN-1..GN-11, the GN-6 worked example,
refusals that change nothing, and random-game properties (C-1, C-3)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import companion_cli
from companion import codec
from companion.cards import load_deck
from companion.engine import OUT, POT, Match
from companion.errors import (
    BadSetup,
    CardNotAvailable,
    CompanionError,
    GameOver,
    IllegalPlay,
    OutOfTurn,
)
from companion.games.godnum import RULES, GodNumState
from companion.registry import build_setup, demo_run, new_match
from companion.runs import new_run
from companion.simulate import play_random

NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay"]
# The lobby may fix the legions (GN-2 rev. 2); these scenarios fix them in deck-file order.
SEAT_ORDER = ["metal-water", "water-wood", "wood-fire", "fire-earth", "earth-metal",
              "metal-water"]


def table(players: int = 4, target: int = 60, first: int = 1,
          **options: Any) -> Match[GodNumState]:
    options.setdefault("legions", ", ".join(SEAT_ORDER[:players]))
    if not 30 <= target <= 60:
        options = {"target_min": target, "target_max": target, **options}
    m: Match[GodNumState] = new_match("godnum", NAMES[:players], options or None,
                                      rng=random.Random(3))
    m.apply({"type": "target", "value": target})
    m.apply({"type": "starting_player", "value": first})
    return m


def card(m: Match[GodNumState], seat: int, face_suffix: str) -> str:
    """A not-yet-seen serial of ``seat``'s legion whose face id ends with ``face_suffix``."""
    for s in sorted(m.state.legion(seat).unseen):
        if m.state.cards[s].id.endswith("-" + face_suffix):
            return s
    raise LookupError(face_suffix)


def play(m: Match[GodNumState], seat: int, face_suffix: str) -> GodNumState:
    return m.apply({"type": "play", "seat": seat, "card": card(m, seat, face_suffix)})


def refused(m: Match[GodNumState], event: dict[str, Any], error: type[Exception],
            rule: str | None) -> CompanionError:
    before, n = m.state, len(m.events)
    with pytest.raises(error) as info:
        m.apply(event)
    assert m.state is before and len(m.events) == n
    exc = info.value
    assert isinstance(exc, CompanionError)
    if rule is not None:
        assert exc.rule == rule, str(exc)
    return exc


# ----------------------------------------------------------------- GN-1 rooms


def test_gn1_karma_limit_option_default_and_range() -> None:
    assert table().state.options["karma_limit"] == 5
    assert table(karma_limit=20).state.options["karma_limit"] == 20
    for bad in (0, 21):
        with pytest.raises(BadSetup, match="karma_limit"):
            new_match("godnum", NAMES[:3], {"karma_limit": bad})


def test_gn1_two_to_six_players() -> None:
    for n in (1, 7):
        with pytest.raises(BadSetup, match="2-6 players"):
            RULES.configure(["P"] * n if n == 1 else [f"P{i}" for i in range(n)], None)
    assert len(table(6).state.legions) == 6


# ----------------------------------------------------------------- GN-2 legions


def test_gn2_rev2_print_holds_every_legion_and_lobby_may_fix_them_in_order() -> None:
    """GN-2 rev. 2: a God Num print holds all five legions (six players: one printed
    twice); the lobby may fix each seat's legion instead of binding by the first card."""
    order = list(load_deck("godnum").decks)
    assert order[0] == "legion-metal-water" and len(order) == 5
    assert RULES.sets_needed(3) == dict.fromkeys(order, 1)
    assert RULES.sets_needed(6) == {order[0]: 2, **{d: 1 for d in order[1:]}}
    m = table(6)
    assert [lg.deck for lg in m.state.legions] == [*order, order[0]]
    assert all(len(lg.unseen) == 36 for lg in m.state.legions)
    assert m.state.legion(1).unseen.isdisjoint(m.state.legion(6).unseen)
    view = RULES.view(m.state, None)
    assert view["seats"][2]["legion_name"] == "Wood-Fire Legion"


def test_gn2_card_of_another_seats_legion_refused_c1_without_naming_its_owner() -> None:
    """C-1, C-7: another seat's card reads like any card Ana does not hold."""
    m = table(3)
    foreign = sorted(m.state.legion(2).unseen)[0]
    exc = refused(m, {"type": "play", "seat": 1, "card": foreign}, CardNotAvailable, "C-1")
    assert repr(foreign) in str(exc) and "Ben" not in str(exc)


def test_gn2_unplayed_legions_leave_the_game_once_every_seat_is_bound() -> None:
    run = new_run(load_deck("godnum"), rng=random.Random(1))  # all five legions, one set each
    fixed = Match(RULES, build_setup("godnum", NAMES[:2], {"legions": "metal-water, water-wood"},
                                     [run]))
    places = RULES.places(fixed.state)
    assert len(places) == 5 * 36
    assert sorted(set(places.values())) == [OUT, "unknown:1", "unknown:2"]
    assert sum(1 for p in places.values() if p == OUT) == 3 * 36
    wood_fire = next(c.serial for c in run.cards if c.face.deck == "legion-wood-fire")
    fixed.apply({"type": "target", "value": 40})
    fixed.apply({"type": "starting_player", "value": 1})
    refused(fixed, {"type": "play", "seat": 1, "card": wood_fire}, CardNotAvailable, "C-1")
    # Bound by the first card (the default): every legion may be anyone's until then.
    m = Match(RULES, build_setup("godnum", NAMES[:2], None, [run]))
    assert set(RULES.places(m.state).values()) == {"unknown"}
    m.apply({"type": "target", "value": 40})
    m.apply({"type": "starting_player", "value": 1})
    m.apply({"type": "play", "seat": 1, "card": wood_fire})
    m.apply({"type": "play", "seat": 2, "card": "fe-chaos"})
    places = RULES.places(m.state)
    assert sum(1 for p in places.values() if p == OUT) == 3 * 36


# ----------------------------------------------------------------- GN-3 function cards


def test_gn3_chaos_makes_attributeless_and_keeps_number() -> None:
    m = table(3)
    play(m, 1, "water-4")
    play(m, 2, "chaos")
    assert m.state.attribute is None and m.state.divine_number == 4
    # Attributeless: any number card, even one that Water would forbid.
    play(m, 3, "wood-1")
    assert m.state.divine_number == 5


def test_gn3_reverse_reverses_turn_order() -> None:
    m = table(4)
    play(m, 1, "reverse")
    assert m.state.direction == -1 and m.state.turn == 4


def test_gn3_skip_next_player_loses_turn() -> None:
    m = table(4)
    play(m, 1, "skip")
    assert m.state.turn == 3
    assert "Ben loses their turn" in m.state.ruling


def test_gn3_rev2_burden_next_player_discards_one_at_once_then_plays_as_usual() -> None:
    """GN-3 rev. 2 (Burden replaces Cleanse): the next player must at once discard one card
    of their choice (one karma point, GN-9), draws back up to 5, then takes the turn."""
    m = table(3)
    play(m, 1, "burden")
    assert m.state.turn == 2 and m.state.burdened
    assert m.state.divine_number == 0  # function cards do not change the number
    assert "Ben must discard one card at once" in m.state.ruling
    refused(m, {"type": "play", "seat": 2, "card": card(m, 2, "water-3")}, IllegalPlay, "GN-3")
    two = sorted(m.state.legion(2).unseen)[:2]
    refused(m, {"type": "discard", "seat": 2, "cards": two}, IllegalPlay, "GN-3")
    refused(m, {"type": "discard", "seat": 3, "cards": [card(m, 3, "wood-1")]}, OutOfTurn,
            "GN-5")
    m.apply({"type": "discard", "seat": 2, "cards": [card(m, 2, "skip")]})
    lg = m.state.legion(2)
    assert (lg.karma, lg.hand_count, m.state.turn, m.state.burdened) == (1, 5, 2, False)
    play(m, 2, "water-3")  # then Ben's turn as usual
    assert m.state.turn == 3 and m.state.divine_number == 3
    assert not any(f.attrs.get("function") == "cleanse" for f in load_deck("godnum").faces)


def test_gn3_rev2_burden_can_reach_the_karma_limit() -> None:
    m = table(2, karma_limit=1)
    play(m, 1, "burden")
    m.apply({"type": "scan", "card": card(m, 2, "wood-4"), "zone": "void"})
    assert m.state.legion(2).eliminated and m.state.winners == (1,)


# ----------------------------------------------------------------- GN-4 start


def test_gn4_target_and_starting_player_are_chance_events() -> None:
    m: Match[GodNumState] = new_match("godnum", NAMES[:3], {"target_min": 40, "target_max": 45})
    with pytest.raises(IllegalPlay, match="not drawn"):
        m.apply({"type": "play", "seat": 1, "card": "mw-metal-1"})
    made = m.settle(random.Random(9))
    assert [e["type"] for e in made] == ["target", "starting_player"]
    assert 40 <= (m.state.target or 0) <= 45
    assert m.state.turn == made[1]["value"]
    assert all(lg.hand_count == 5 and lg.deck_count == 31 for lg in m.state.legions)
    assert m.state.divine_number == 0 and m.state.attribute is None
    refused(m, {"type": "target", "value": 41}, IllegalPlay, "GN-4")


def test_gn4_target_outside_range_refused() -> None:
    m: Match[GodNumState] = new_match("godnum", NAMES[:2])
    refused(m, {"type": "target", "value": 61}, CompanionError, "GN-4")
    with pytest.raises(BadSetup, match="GN-4"):
        new_match("godnum", NAMES[:2], {"target_min": 50, "target_max": 40})


# ----------------------------------------------------------------- GN-5 turn


def test_gn5_play_one_then_draw_back_to_five() -> None:
    m = table(2)
    play(m, 1, "metal-2")
    lg = m.state.legion(1)
    assert (lg.hand_count, lg.deck_count) == (5, 30)
    assert m.state.turn == 2


def test_gn5_discard_several_then_draw_back_up() -> None:
    m = table(2)
    three = sorted(m.state.legion(1).unseen)[:3]
    m.apply({"type": "discard", "seat": 1, "cards": three})
    lg = m.state.legion(1)
    assert (lg.hand_count, lg.deck_count, lg.karma) == (5, 28, 3)
    assert m.state.turn == 2


def test_gn5_out_of_turn_refused() -> None:
    m = table(3)
    exc = refused(m, {"type": "play", "seat": 2, "card": card(m, 2, "water-1")}, OutOfTurn,
                  "GN-5")
    assert "Ana's turn" in str(exc)


def test_gn5_camera_void_discards_then_end_turn_and_no_play_after_discarding() -> None:
    m = table(2)
    c1, c2 = sorted(m.state.legion(1).unseen)[:2]
    m.apply({"type": "scan", "card": c1, "zone": "void"})
    assert m.state.turn == 1 and m.state.discarding
    refused(m, {"type": "play", "seat": 1, "card": c2}, IllegalPlay, "GN-5")
    m.apply({"type": "scan", "card": c2, "zone": "void"})
    m.apply({"type": "end_turn", "seat": 1})
    assert m.state.turn == 2 and m.state.legion(1).karma == 2
    assert m.state.legion(1).hand_count == 5


# ----------------------------------------------------------------- GN-6 legality


def fire5() -> Match[GodNumState]:
    """Dee (Fire-Earth legion) opens with Fire 5: current Fire 5."""
    m = table(4, first=4)
    play(m, 4, "fire-5")
    assert (m.state.attribute, m.state.last_number, m.state.turn) == ("fire", 5, 1)
    return m


def test_gn6_worked_example_current_fire_5() -> None:
    """GN-6: current Fire 5: any Water; no Wood; Fire 6-10; Earth or Metal 5."""
    state = fire5().state
    allowed = set()
    for face in load_deck("godnum").faces:
        if face.kind == "number" and RULES.check_card(state, face)[0]:
            allowed.add((face.element, face.number))
    expected = ({("water", n) for n in range(1, 11)} | {("fire", n) for n in range(6, 11)}
                | {("earth", 5), ("metal", 5)})
    assert allowed == expected


def test_gn6_legal_cards_lists_reasons_for_the_current_player() -> None:
    m = fire5()
    serials = [card(m, 1, "water-1"), card(m, 1, "metal-5"), card(m, 1, "metal-6"),
               card(m, 1, "skip")]
    rows = RULES.legal_cards(m.state, 1, serials)
    assert [ok for _, ok, _ in rows] == [True, True, False, True]
    assert "needs exactly 5" in rows[2][2] and "GN-6" in rows[2][2]
    faces = RULES.legal_cards(m.state, 1, ["mw-water-9", "wf-wood-3"])
    assert faces[0][1] and not faces[1][1]
    # Not Ben's turn: every card is refused with the reason.
    assert all(not ok and "turn" in why for _, ok, why in RULES.legal_cards(m.state, 2, serials))
    legal = RULES.view(m.state, 1)["legal"]
    assert {r["value"]: r["ok"] for r in legal}["mw-metal-6"] is False
    hints = RULES.actions(m.state, None)[0]["fields"][0]["hints"]
    assert {h["value"] for h in hints if h["ok"]} >= {"mw-metal-5", "mw-water-1", "mw-chaos"}
    chips = RULES.actions(m.state, 1)[0]["fields"][0]["choices"]
    assert {c["value"] for c in chips if "disabled" not in c} >= {"mw-metal-5", "mw-chaos"}


def test_gn6_illegal_card_refused_with_reason_and_nothing_changes() -> None:
    m = fire5()
    bad = card(m, 1, "metal-6")
    exc = refused(m, {"type": "play", "seat": 1, "card": bad}, IllegalPlay, "GN-6")
    assert repr(bad) in str(exc) and "Fire 5" in str(exc)
    # The refusal opens with the card's name and cites its ruling once.
    assert str(exc).startswith("Metal 6 cannot be played on Fire 5")
    assert str(exc).count("GN-6") == 1
    m.apply({"type": "play", "seat": 1, "card": card(m, 1, "metal-5")})
    assert m.state.divine_number == 10
    # Current Metal 5. Ben (Water-Wood): Metal generates Water and Metal overcomes Wood, so
    # both need exactly 5.
    refused(m, {"type": "play", "seat": 2, "card": card(m, 2, "water-7")}, IllegalPlay, "GN-6")
    refused(m, {"type": "play", "seat": 2, "card": card(m, 2, "wood-7")}, IllegalPlay, "GN-6")


def test_gn6_generating_attribute_never_playable() -> None:
    m = table(2, first=2)
    play(m, 2, "water-1")  # Ben: Water-Wood legion
    # Metal generates Water: never, not even Metal 1 on Water 1.
    exc = refused(m, {"type": "play", "seat": 1, "card": card(m, 1, "metal-1")}, IllegalPlay,
                  "GN-6")
    assert "Metal generates Water" in str(exc)
    play(m, 1, "water-3")  # same attribute, higher
    assert m.state.divine_number == 4


# ----------------------------------------------------------------- GN-7, GN-8, GN-11


def test_gn7_exact_target_wins() -> None:
    m = table(2, target=12)
    play(m, 1, "metal-2")
    play(m, 2, "wood-2")  # Metal overcomes Wood... Wood on Metal: exactly 2
    play(m, 1, "metal-8")
    assert m.state.finished and m.state.winners == (1,)
    assert "wins" in m.state.ruling
    refused(m, {"type": "play", "seat": 2, "card": card(m, 2, "wood-9")}, GameOver, "GN-11")


def test_gn8_revert_and_stand() -> None:
    for mode in ("revert", "stand"):
        m = table(3, target=8, bust=mode)
        play(m, 1, "metal-3")
        play(m, 2, "chaos")
        play(m, 3, "fire-9")  # attributeless: anything; 3 + 9 = 12 > 8
        assert m.state.legion(3).eliminated and m.state.busts == 1
        places = RULES.places(m.state)
        bust = m.events[-1]["card"]
        if mode == "revert":
            assert m.state.divine_number == 3 and places[bust] == OUT
        else:
            assert m.state.divine_number == 12 and places[bust] == POT
        assert all(places[s] == OUT for s in m.state.owner if m.state.owner[s] == 3
                   and places[s] != POT)
        assert m.state.turn == 1


def test_gn11_last_player_standing_wins() -> None:
    m = table(2, target=50, karma_limit=2)
    play(m, 1, "metal-1")
    m.apply({"type": "discard", "seat": 2, "cards": sorted(m.state.legion(2).unseen)[:2]})
    assert m.state.finished and m.state.winners == (1,)
    assert "last legion standing" in m.state.ruling


# ----------------------------------------------------------------- GN-9 karma


def test_gn9_discards_are_karma_out_of_game_and_limit_eliminates() -> None:
    m = table(3, karma_limit=3)
    first = sorted(m.state.legion(1).unseen)[:2]
    m.apply({"type": "discard", "seat": 1, "cards": first})
    assert all(RULES.places(m.state)[c] == OUT for c in first)
    play(m, 2, "water-1")
    play(m, 3, "wood-1")  # Water generates Wood -> exactly 1
    more = [c for c in sorted(m.state.legion(1).unseen)][:1]
    m.apply({"type": "discard", "seat": 1, "cards": more})
    assert m.state.legion(1).eliminated and not m.state.finished
    assert m.state.turn == 2
    assert all(RULES.places(m.state)[c] == OUT for c in m.state.owner if m.state.owner[c] == 1)
    refused(m, {"type": "play", "seat": 1, "card": more[0]}, OutOfTurn, "GN-11")


def test_gn9_discarding_more_than_the_hand_refused() -> None:
    m = table(2)
    six = sorted(m.state.legion(1).unseen)[:6]
    refused(m, {"type": "discard", "seat": 1, "cards": six}, IllegalPlay, "GN-5")


# ----------------------------------------------------------------- GN-10 empty deck


def test_gn10_empty_deck_reshuffles_own_played_cards_not_discards() -> None:
    m = table(2, target=60)
    play(m, 1, "metal-1")
    play(m, 2, "chaos")
    play(m, 1, "metal-2")
    play(m, 2, "chaos")
    state = m.state
    lg = state.legion(1)
    # Pretend Ana's deck ran out: keep five unseen cards (her hand), the rest are gone.
    hand = frozenset(sorted(lg.unseen)[:5])
    gone = lg.unseen - hand
    state = replace(state, out=state.out | gone)
    legions = list(state.legions)
    legions[0] = replace(lg, unseen=hand, deck_count=0, hand_count=5)
    state = replace(state, legions=tuple(legions))
    played = [c for c in state.pile if state.owner[c] == 1]
    assert len(played) == 2
    chaos = next(c for c in hand if state.cards[c].kind == "function"
                 or state.cards[c].number is not None)
    after = RULES.apply(state, {"type": "play", "seat": 1, "card": chaos})
    lg1 = after.legion(1)
    assert lg1.hand_count == 5
    assert set(played) <= lg1.unseen  # her played cards are her new deck
    assert lg1.deck_count == len(played) - 1
    assert "shuffles" in after.ruling and "GN-10" in after.ruling


def test_gn10_nothing_to_reshuffle_draws_nothing_and_empty_hand_passes() -> None:
    m = table(2)
    state = m.state
    lg = state.legion(1)
    keep = sorted(lg.unseen)[:1]
    legions = list(state.legions)
    legions[0] = replace(lg, unseen=frozenset(keep), deck_count=0, hand_count=1)
    state = replace(state, legions=tuple(legions), out=state.out | (lg.unseen - set(keep)))
    face = state.cards[keep[0]]
    if not RULES.check_card(state, face)[0]:  # pragma: no cover - attributeless start
        raise AssertionError
    state = RULES.apply(state, {"type": "play", "seat": 1, "card": keep[0]})
    if state.finished:  # pragma: no cover
        return
    assert state.legion(1).hand_count == 0 and "no draw" in state.ruling
    state = RULES.apply(state, {"type": "discard", "seat": 2,
                                "cards": sorted(state.legion(2).unseen)[:1]})
    assert RULES.actions(state, 1) == [{"type": "pass", "label": "Pass (no cards)", "seat": 1,
                                        "fields": [], "rule": "GN-10"}]
    state = RULES.apply(state, {"type": "pass", "seat": 1})
    assert state.turn == 2


# ----------------------------------------------------------------- C-1 override, views


def test_c1_replayed_card_refused_and_referee_override_logged() -> None:
    m = table(2)
    c = card(m, 1, "metal-4")
    m.apply({"type": "play", "seat": 1, "card": c})
    play(m, 2, "chaos")
    exc = refused(m, {"type": "play", "seat": 1, "card": c}, CardNotAvailable, "C-1")
    assert "already played" in str(exc)
    m.apply({"type": "play", "seat": 1, "card": c, "override": True})
    assert m.events[-1]["override"] is True and m.state.pile[-1] == c
    assert m.state.divine_number == 8


def test_views_are_json_and_show_prompt_and_ruling() -> None:
    m = table(3)
    for seat in (None, 1, 2):
        v = RULES.view(m.state, seat)
        json.dumps(v)
        assert "Ana" in v["prompt"] and v["ruling"]
    ref = RULES.referee_view(m.state)
    json.dumps(ref)
    assert len(ref["places"]) == 5 * 36  # GN-2 rev. 2: the print holds every legion
    assert RULES.actions(m.state, 2) == []
    assert [a["type"] for a in RULES.actions(m.state, 1)] == ["play", "discard"]


# ----------------------------------------------------------------- properties


def check_conservation(m: Match[GodNumState]) -> None:
    s = m.state
    places = RULES.places(s)
    assert set(places) == set(m.setup.cards)
    groups = [s.out, frozenset(s.pile), *[p.serials for p in s.free],
              *[lg.unseen for lg in s.legions]]
    assert sum(len(g) for g in groups) == len(m.setup.cards)  # each card in exactly one place
    for lg in s.legions:
        if lg.bound:  # GN-2 rev. 2: a seat not bound yet has counts but no serials
            assert len(lg.unseen) == lg.deck_count + lg.hand_count
        else:
            assert lg.deck_count + lg.hand_count == 36 and not lg.eliminated
        assert 0 <= lg.hand_count <= 5


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6),
       bust=st.sampled_from(["revert", "stand"]))
def test_random_games_conserve_cards_replay_and_terminate(seed: int, players: int,
                                                          bust: str) -> None:
    out = play_random("godnum", players, random.Random(seed), {"bust": bust})
    assert out.finished and len(out.match.state.winners) == 1
    step = Match(RULES, out.match.setup)
    check_conservation(step)
    for event in out.match.events:  # after every event, not only at the end
        step.apply(event)
        check_conservation(step)
    assert out.match.replay() == out.match.state


def test_cli_simulate_godnum(capsys: pytest.CaptureFixture[str]) -> None:
    code = companion_cli.main(["simulate", "godnum", "--players", "4", "--games", "20",
                               "--seed", "1"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["unfinished"] == 0 and summary["games"] == 20
    assert sum(summary["wins_per_seat"].values()) == 20
    assert summary["mean_per_game"]["adjudications"] > 0


def test_face_ids_stand_for_an_unseen_copy_of_the_seats_legion() -> None:
    """A phone without a camera may enter face ids; each resolves to a copy not yet seen."""
    m = table(2)
    m.apply({"type": "play", "seat": 1, "card": "mw-metal-7"})
    assert m.state.cards[m.state.pile[-1]].id == "mw-metal-7"
    m.apply({"type": "discard", "seat": 2, "cards": ["ww-chaos", "ww-chaos"]})
    out = [c for c in m.state.out if m.state.owner.get(c) == 2]
    assert len(out) == 2 and {m.state.cards[c].id for c in out} == {"ww-chaos"}
    refused(m, {"type": "play", "seat": 1, "card": "mw-metal-7"}, CardNotAvailable, "C-1")
    refused(m, {"type": "play", "seat": 1, "card": "ww-water-9"}, CardNotAvailable, "C-1")
    m.apply({"type": "play", "seat": 1, "card": "mw-metal-8"})
    # Metal generates Water: Water on Metal 8 needs exactly 8.
    refused(m, {"type": "play", "seat": 2, "card": "ww-water-10"}, IllegalPlay, "GN-6")
    m.apply({"type": "play", "seat": 2, "card": "ww-water-8"})
    assert m.state.divine_number == 23
    rows = RULES.legal_cards(m.state, 1, ["mw-water-9", "mw-water-1", "mw-metal-9"])
    assert [ok for _, ok, _ in rows] == [True, False, False]
    assert "generates" in rows[2][2]


def test_cards_typed_by_hand_lower_case_payload_text_or_comma_list() -> None:
    """The referee types serials (any case), pastes QR text, or lists cards with commas."""
    m = table(2)
    c = card(m, 1, "metal-3")
    m.apply({"type": "play", "seat": 1, "card": c.lower()})
    assert m.state.pile[-1] == c
    d = card(m, 2, "water-3")  # Metal generates Water: exactly 3
    payload = next(x.payload for x in new_match_runs(m) if x.serial == d)
    m.apply({"type": "play", "seat": 2, "card": payload})
    assert m.state.pile[-1] == d
    a, b = sorted(m.state.legion(1).unseen)[:2]
    m.apply({"type": "discard", "seat": 1, "cards": f"{a}, {b.lower()}"})
    assert {a, b} <= m.state.out
    # A payload whose face code does not match its printed serial is refused.
    e = sorted(m.state.legion(2).unseen)[0]
    forged = next(x.payload for x in new_match_runs(m) if x.serial == e).split(":")
    forged[2] = "2WA" if forged[2] != "2WA" else "2W9"
    text = codec.encode(forged[1], forged[2], forged[3], forged[4])
    refused(m, {"type": "play", "seat": 2, "card": text}, CompanionError, "C-1")


def new_match_runs(m: Match[GodNumState]) -> list[Any]:
    """The printed cards of the match's demo run (rebuilt from the same seed as ``table``)."""
    run = demo_run("godnum", len(m.state.players), random.Random(3))
    assert {c.serial for c in run.cards} == set(m.setup.cards)
    return list(run.cards)


# ----------------------------------------------------------------- review additions


def test_gn6_every_attribute_pair_and_number_follows_the_cycles() -> None:
    """GN-6 over all 5x5 attribute pairs and every previous number, against WX-1's cycles
    written out here (Metal is the seed's "gold")."""
    generates = {"wood": "fire", "fire": "earth", "earth": "metal", "metal": "water",
                 "water": "wood"}
    overcomes = {"wood": "earth", "earth": "water", "water": "fire", "fire": "metal",
                 "metal": "wood"}
    state = table(5).state
    numbers = [f for f in load_deck("godnum").faces if f.kind == "number"]
    assert len({(f.element, f.number) for f in numbers}) == 50
    for current in generates:
        for n in range(1, 11):
            now = replace(state, attribute=current, last_number=n)
            for face in numbers:
                attr, k = face.element, face.number
                assert attr is not None and k is not None
                if overcomes[attr] == current:
                    expected = True
                elif generates[attr] == current:
                    expected = False
                elif attr == current:
                    expected = k > n
                else:
                    expected = k == n
                assert RULES.check_card(now, face)[0] is expected, (current, n, face.id)


def test_gn6_legal_cards_agrees_with_play_for_a_face_already_played() -> None:
    """GN-6/C-1: the phone's list must not offer a card the player cannot hold any more."""
    m = table(3)
    play(m, 1, "metal-3")
    play(m, 2, "chaos")
    play(m, 3, "chaos")  # attributeless again: by GN-6 any card
    rows = dict((c, (ok, why)) for c, ok, why in
                RULES.legal_cards(m.state, 1, ["mw-metal-3", "mw-metal-4"]))
    assert rows["mw-metal-4"][0] is True
    assert rows["mw-metal-3"][0] is False and "pot" in rows["mw-metal-3"][1]
    refused(m, {"type": "play", "seat": 1, "card": "mw-metal-3"}, CardNotAvailable, "C-1")
    legal = {r["value"]: r["ok"] for r in RULES.view(m.state, 1)["legal"]}
    assert legal["mw-metal-3"] is False and legal["mw-metal-4"] is True
    # The four Chaos copies: one played, three left, still offered.
    assert legal["mw-chaos"] is True


def test_gn3_reverse_and_skip_with_three_and_after_an_elimination() -> None:
    """GN-3 turn order: Reverse flips the direction, Skip jumps the next live player in the
    current direction, eliminated seats are passed over (GN-9, GN-11)."""
    m = table(4, karma_limit=1)
    m.apply({"type": "discard", "seat": 1, "cards": [card(m, 1, "chaos")]})
    assert m.state.legion(1).eliminated and m.state.turn == 2
    assert play(m, 2, "skip").turn == 4  # Cai loses the turn
    assert play(m, 4, "reverse").turn == 3  # now counter-clockwise: Dee -> Cai
    assert play(m, 3, "skip").turn == 4  # Ben skipped, Ana is out: back to Dee
    assert play(m, 4, "chaos").turn == 3


def test_gn5_no_discard_action_offered_with_an_empty_hand() -> None:
    """GN-5: after discarding the whole hand the only thing left is to end the turn."""
    m = table(2, karma_limit=10)
    hand = sorted(m.state.legion(1).unseen)[:5]
    m.apply({"type": "discard", "seat": 1, "cards": hand, "more": True})
    assert m.state.legion(1).hand_count == 0 and not m.state.finished
    assert [a["type"] for a in RULES.actions(m.state, 1)] == ["end_turn"]
