"""A tapped card is a stand-in, not a guess (issue 18 §3, C-1, C-2, WX-8).

A tap on a face ("wood") records *a* Wood of that seat; a later scan of any copy that could
be that card is accepted. The property test plays random full games twice: a truth table
fed by a perfect camera (every card by serial, exactly as it lies), and the table under
test fed the same physical cards as taps, phone photos or camera scans at random. The
second must never refuse a card and must tell every player exactly what the first tells.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_wuxing import _refused, started
from test_wuxing_props import CAP, check_invariants

from companion.engine import Match
from companion.errors import CardNotAvailable
from companion.games.wuxing import RULES, standins
from companion.registry import new_match


def test_a_tap_for_the_top_card_is_an_unseen_copy_not_a_won_one() -> None:
    """Issue 18: after Ana wins a pot (WX-8: the won cards go to the bottom of her deck), a
    tap on "wood" for her top card records a Wood nobody has seen, not the won Wood."""
    t = started()
    _u, won_wood, _b = t.challenge("water", "wood", "metal")
    assert t.s.places[won_wood] == "deck:1"
    t.universe("fire")  # Bo v Ana
    t.scan("earth", "seat:2", seat=2)
    t.scan("wood", "seat:1", seat=1)
    assert t.s.places[won_wood] == "deck:1"  # still at the bottom of Ana's deck
    assert t.s.unseen[0] == 20


def test_a_copy_recorded_for_a_tap_is_accepted_when_its_real_holder_shows_it() -> None:
    """Issue 18: Ana taps "wood"; the companion records one Wood's serial. Bo's camera
    later shows that very serial from his unseen cards: the two copies trade places, the
    scan is accepted, and the tapped Wood stays where the play put it."""
    t = started()
    t.universe("water")
    t.scan("wood", "seat:1", seat=1)
    tapped = t.s.revealed[0][1]
    assert t.s.stand_ins[tapped] == ("unseen",)
    assert RULES.referee_view(t.s)["stand_ins"] == [tapped]
    assert "stand_ins" not in RULES.view(t.s, 1) and tapped not in str(RULES.view(t.s, 2))
    t.scan(t.find("metal", "unknown"), "seat:2")
    assert t.s.places[tapped] == "deck:1"  # Ana won it (WX-7.6)
    t.universe("earth")  # Bo v Ana
    t.scan(tapped, "seat:2", seat=2)  # Bo really holds that Wood: a phone photo
    assert t.s.places[tapped] == "table:2" and tapped not in t.s.stand_ins
    ana = [c for c, p in t.s.places.items() if p == "deck:1"]
    assert sorted(t.m.setup.cards[c].id for c in ana) == ["metal", "universe-water", "wood"]
    stand_in = next(c for c in ana if t.m.setup.cards[c].id == "wood")
    assert t.s.stand_ins[stand_in] == ("unseen",)
    assert t.m.replay() == t.s
    before = t.s
    t.scan(t.find("fire", "unknown"), "seat:1")
    t.m.undo()
    assert t.s == before


def test_a_tapped_copy_in_the_void_is_accepted_from_its_holders_deck() -> None:
    """The Void holds a tapped Wood under some serial; that serial shown later from a deck
    with unseen cards is a card nobody had seen: accepted (camera and phone alike)."""
    t = started()
    t.universe("earth")
    t.scan("water", "seat:1", seat=1)  # Earth destroys Water: to the Void (WX-7.8)
    tapped = t.s.revealed[0][1]
    t.scan(t.find("fire", "unknown"), "seat:2")
    assert t.s.places[tapped] == "void"
    t.universe("wood")
    t.scan(tapped, "seat:2")  # the camera sees Bo's Water: the serial the tap took
    assert t.s.places[tapped] == "table:2"
    assert Counter(t.m.setup.cards[c].id for c, p in t.s.places.items() if p == "void") \
        == Counter({"water": 1})


def test_a_card_seen_by_serial_is_still_refused_where_it_cannot_be() -> None:
    """C-1 stays: a card the camera saw go to the Void (no tap involved) is refused from a
    deck; a seat's phone gets the one refusal that names nothing."""
    t = started()
    t.universe("earth")
    water = t.reveal(1, "water")
    t.reveal(2, "fire")
    assert t.s.places[water] == "void"
    t.universe("wood")
    _refused(t, {"type": "scan", "card": water, "zone": "seat:2"}, CardNotAvailable,
             "is in the Void")
    _refused(t, {"type": "scan", "card": water, "zone": "seat:2", "seat": 2},
             CardNotAvailable, "is not a card Bo can show now")


def _physical_game(seed: int, players: int, options: dict[str, Any]) -> tuple[int, int]:
    """Plays one game as described in the module docstring; returns (events, taps)."""
    rng = random.Random(seed)
    truth = new_match("wuxing", [f"P{i}" for i in range(1, players + 1)], options, rng=rng)
    test: Match[Any] = Match(truth.rules, truth.setup)
    faces = {c: f.id for c, f in truth.setup.cards.items()}
    unseen: list[list[str]] = []  # per seat: the cards nobody has seen, top first
    known: list[list[str]] = [[] for _ in range(players)]  # won cards under them
    universe: list[str] = []
    taps = 0
    for _ in range(CAP):
        s = truth.state
        if s.finished:
            break
        if s.phase == "start":
            event = RULES.random_play(s, rng)
            assert event is not None
            zone = str(event.get("zone", ""))
            card = str(event.get("card", ""))
            seat = int(zone[5:]) if zone.startswith("seat:") else None
        else:
            if not unseen:  # the deal (WX-2): who got which card only the table knows
                pool = sorted(c for c, p in s.places.items() if p == "unknown")
                rng.shuffle(pool)
                for n in s.unseen:
                    unseen.append(pool[:n])
                    pool = pool[n:]
            for c in sorted(c for c, p in s.places.items() if p == "universe"):
                if c not in universe:
                    universe.append(c)
            universe[:] = [c for c in universe if s.places[c] == "universe"]
            if s.phase in ("universe", "tiebreak"):
                card = universe[0]
                seat = None if s.phase == "universe" else s.awaiting[0]
                zone = "universe" if seat is None else f"seat:{seat}"
            else:
                seat = s.awaiting[rng.randrange(len(s.awaiting))]
                pile = unseen[seat - 1] or known[seat - 1]
                card = pile.pop(0)
                zone = f"seat:{seat}"
            event = {"type": "scan", "card": card, "zone": zone}
        sent: dict[str, Any] = dict(event)
        if event["type"] == "scan":
            sender = seat if seat is not None else (
                s.challenge[0] if s.phase == "universe" else None)
            way = rng.choice(("camera", "photo", "tap"))
            if way != "camera" and sender is not None:
                sent["seat"] = sender
            if way == "tap":
                sent["card"] = faces[card]
                taps += 1
        truth.apply(event)
        test.apply(sent)  # never refused: that is the property
        a, b = truth.state, test.state
        for who in (None, *range(1, players + 1)):
            assert RULES.view(b, who) == RULES.view(a, who), (sent, b.ruling, a.ruling)
        assert Counter((p, faces[c]) for c, p in b.places.items()) == \
            Counter((p, faces[c]) for c, p in a.places.items())
        check_invariants(test)
        sure = [c for c in b.places if c in b.pinned or not standins.pools(b, c)]
        assert all(b.places[c] == a.places[c] for c in sure), sent
        for i in range(players):  # won cards go under the unseen ones, shuffled (WX-8)
            mine = f"deck:{i + 1}"
            known[i] = [c for c in known[i] if a.places[c] == mine]
            new = sorted(c for c, p in a.places.items() if p == mine and c not in known[i])
            rng.shuffle(new)
            known[i].extend(new)
    assert test.replay() == test.state
    return len(truth.events), taps


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8),
       end=st.sampled_from(["count", "recycle"]), start=st.sampled_from(["rps", "dragon"]))
@settings(max_examples=25, deadline=None)
def test_taps_photos_and_camera_scans_of_the_same_cards_are_never_refused(
        seed: int, players: int, end: str, start: str) -> None:
    """Issue 18 §3: random full games that mix taps, phone photos and camera scans for the
    same physical cards never produce a refusal the referee would have to override, every
    player sees what a perfect camera would have shown them, and every card the companion
    is sure of is where it really is."""
    events, taps = _physical_game(seed, players, {"end": end, "start": start})
    assert events > 0 and taps > 0
