"""God Num: a tapped card is a stand-in, not a guess (issue 18 §3, C-1, GN-3, GN-10).

A tap on Chaos records one of the seat's four Chaos cards; a later scan of any of the
others is accepted. The property test plays random games twice: a truth table that is
told every card by serial, and a table told the same physical cards as taps, phone photos
or camera scans at random; the second never refuses a card and shows every seat the same.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_godnum_play import started

from companion.engine import Match
from companion.errors import CardNotAvailable
from companion.games.godnum import RULES, GodNumState
from companion.registry import new_match


def _chaos(m: Match[GodNumState], seat: int) -> list[str]:
    return sorted(c for c in m.state.legion(seat).unseen if m.state.cards[c].id.endswith("chaos"))


def test_a_tapped_chaos_then_the_camera_shows_the_copy_it_recorded() -> None:
    """Issue 18: Ana taps Chaos (recorded: her first Chaos by serial); she really played
    another copy. Her next turn the camera sees the copy the tap recorded: accepted."""
    m = started(2)
    face = m.state.cards[_chaos(m, 1)[0]].id
    recorded = _chaos(m, 1)[0]
    m.apply({"type": "play", "seat": 1, "card": face})
    assert m.state.pile[-1] == recorded and recorded in m.state.stand_ins
    other = next(c for c in sorted(m.state.legion(2).unseen)
                 if RULES.check_card(m.state, m.state.cards[c])[0]
                 and m.state.cards[c].kind == "function")
    m.apply({"type": "play", "seat": 2, "card": other})
    m.apply({"type": "scan", "card": recorded, "zone": "pot", "seat": 1})  # phone photo
    assert m.state.pile[-1] == recorded and recorded not in m.state.stand_ins
    assert m.state.pile.count(recorded) == 1
    first = m.state.pile[-3]
    assert m.state.cards[first].id == face and first in m.state.stand_ins
    assert m.replay() == m.state
    before = m.state
    m.undo()
    m.apply({"type": "scan", "card": recorded, "zone": "pot", "seat": 1})
    assert m.state == before


def test_a_tapped_discard_gives_way_to_the_copy_shown_later() -> None:
    """The same for a discard (GN-9: out of the game): the tapped copy is a stand-in."""
    m = started(2)
    recorded = _chaos(m, 1)[0]
    m.apply({"type": "discard", "seat": 1, "cards": [m.state.cards[recorded].id]})
    assert recorded in m.state.out
    m.apply({"type": "pass", "seat": 2} if m.state.legion(2).hand_count == 0 else
            {"type": "discard", "seat": 2, "cards": [sorted(m.state.legion(2).unseen)[0]]})
    m.apply({"type": "play", "seat": 1, "card": recorded})
    assert recorded in m.state.pile and recorded not in m.state.out


def test_a_card_played_by_serial_is_still_refused_a_second_time() -> None:
    """C-1 stays: a Chaos the camera saw played is on the pot; shown again it is refused
    while no tap's guess stands in for it."""
    m = started(2)
    chaos = _chaos(m, 1)[0]
    m.apply({"type": "play", "seat": 1, "card": chaos})
    m.apply({"type": "discard", "seat": 2, "cards": [sorted(m.state.legion(2).unseen)[0]]})
    state = m.state
    try:
        m.apply({"type": "play", "seat": 1, "card": chaos})
    except CardNotAvailable as exc:
        assert "already played" in str(exc)
    else:
        raise AssertionError("a card seen on the pot was accepted from a hand")
    assert m.state is state


def _sent(event: dict[str, Any], faces: dict[str, str], rng: random.Random) -> dict[str, Any]:
    """The same physical play as a tap (face id), a phone photo or a camera scan."""
    way = rng.choice(("tap", "photo", "camera"))
    if event["type"] == "play":
        if way == "tap":
            return {**event, "card": faces[event["card"]]}
        if way == "camera":
            return {"type": "scan", "card": event["card"], "zone": "pot"}
        return dict(event)
    if event["type"] == "discard" and way == "tap":
        # Some cards tapped, some by serial, in any order (issue 27 point 4, C-10 rev. 3).
        return {**event, "cards": [faces[c] if rng.random() < 0.7 else c
                                   for c in event["cards"]]}
    return dict(event)


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6),
       bust=st.sampled_from(["revert", "stand"]))
@settings(max_examples=25, deadline=None)
def test_taps_photos_and_camera_scans_of_the_same_cards_are_never_refused(
        seed: int, players: int, bust: str) -> None:
    """Issue 18 §3: God Num games that mix taps, phone photos and camera scans of the same
    physical cards never refuse one, and every seat sees what the truth table shows."""
    rng = random.Random(seed)
    truth = new_match("godnum", [f"P{i}" for i in range(1, players + 1)], {"bust": bust},
                      rng=rng)
    test: Match[GodNumState] = Match(truth.rules, truth.setup)
    faces = {c: f.id for c, f in truth.setup.cards.items()}
    taps = 0
    for _ in range(3_000):
        s = truth.state
        if s.finished:
            break
        event = RULES.chance(s, rng) or RULES.random_play(s, rng)
        assert event is not None
        sent = _sent(dict(event), faces, rng)
        taps += sent != event and sent.get("type") != "scan"
        truth.apply(event)
        test.apply(sent)  # never refused: that is the property
        a, b = truth.state, test.state
        for who in (None, *range(1, players + 1)):
            assert RULES.view(b, who) == RULES.view(a, who), sent
        assert sorted(faces[c] for c in b.pile) == sorted(faces[c] for c in a.pile)
        for seat in range(1, players + 1):
            assert sorted(faces[c] for c in b.legion(seat).unseen) == \
                sorted(faces[c] for c in a.legion(seat).unseen)
    assert test.replay() == test.state
    assert taps > 0 or truth.state.finished


def test_a_legion_printed_twice_bound_by_a_tap_gives_way_to_a_scan() -> None:
    """GN-2 with six players (one legion printed twice): Ana binds by a tap, so which of
    the two printed copies she holds is a guess. Ben then shows a card of the copy the tap
    picked by its serial: the two printed copies trade places, nobody is refused, and the
    scan settles Ben's copy (Ana keeps the other)."""
    names = ["Ana", "Ben", "Cai", "Dee", "Eve", "Fay"]
    m: Match[GodNumState] = new_match("godnum", names, {"target_min": 200, "target_max": 200},
                                      rng=random.Random(3))
    m.apply({"type": "target", "value": 200})
    m.apply({"type": "starting_player", "value": 1})
    twice = next(d for d in {p.deck for p in m.state.free}
                 if sum(p.deck == d for p in m.state.free) == 2)
    first, second = (p for p in m.state.free if p.deck == twice)
    chaos = next(c for c in sorted(first.serials) if m.state.cards[c].id.endswith("chaos"))
    m.apply({"type": "play", "seat": 1, "card": m.state.cards[chaos].id})
    assert m.state.legion(1).printed == first.printed and 1 in m.state.guessed
    ben = next(c for c in sorted(first.serials) if c != chaos
               and m.state.cards[c].kind == "function")
    m.apply({"type": "play", "seat": 2, "card": ben})  # a phone photo of Ben's card
    assert m.state.owner[ben] == 2 and m.state.legion(2).printed == first.printed
    assert m.state.legion(1).printed == second.printed and 1 in m.state.guessed
    assert m.state.owner[m.state.pile[0]] == 1 and m.state.pile[0] in second.serials
    assert m.replay() == m.state
    state = m.state
    with_ana = next(c for c in sorted(first.serials) if c not in (ben, chaos)
                    and m.state.cards[c].kind == "function")
    assert state.turn == 3 and 2 not in state.guessed
    try:  # Ben's copy is settled by his scan: Cai (not bound yet) cannot show a card of it
        RULES.apply(state, {"type": "discard", "seat": 3, "cards": [with_ana]})
    except CardNotAvailable as exc:
        assert "Cai does not hold" in str(exc)
    else:
        raise AssertionError("a card of Ben's printed legion was accepted from Cai")
