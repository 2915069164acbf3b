"""No channel is an oracle, in any game (C-7; issue 18 §1 and §2).

Two worlds: a random game, and the same game with two printed cards swapped in every
event (the same physical play with the copies exchanged). While a seat's view is the same
in both worlds, the difference is hidden from that seat, and so must be everything else
the seat can read: its actions, the latest play, every earlier play as told now, and the
answer to any card it names, by serial, face id or printed name, in any field of any
event that takes a card.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Match, Rules, Setup, apply_named
from companion.errors import CompanionError
from companion.naming import QUOTED_SERIAL
from companion.registry import GAMES, find_rules
from companion.simulate import play_random

Probe = Callable[[int, int, str], dict[str, Any]]

# Every event that takes a card, per game: (prober seat, another seat, card) -> event.
PROBES: dict[str, list[Probe]] = {
    "wuxing": [
        lambda p, o, c: {"type": "scan", "card": c, "zone": f"seat:{p}", "seat": p},
        lambda p, o, c: {"type": "scan", "card": c, "zone": "universe", "seat": p},
    ],
    "godnum": [
        lambda p, o, c: {"type": "play", "card": c, "seat": p},
        lambda p, o, c: {"type": "scan", "card": c, "zone": f"seat:{p}", "seat": p},
        lambda p, o, c: {"type": "scan", "card": c, "zone": "void", "seat": p},
        lambda p, o, c: {"type": "scan", "card": c, "zone": "pot", "seat": p},
        lambda p, o, c: {"type": "discard", "cards": [c], "seat": p},
    ],
    "shrine": [
        lambda p, o, c: {"type": "scan", "card": c, "zone": f"seat:{p}", "seat": p},
        lambda p, o, c: {"type": "scan", "card": c, "zone": "lot", "seat": p},
    ],
    "mountains": [
        lambda p, o, c: {"type": "scan", "card": c, "zone": f"seat:{p}", "seat": p},
        lambda p, o, c: {"type": "attack", "strikes": [{"card": c, "target": o}], "seat": p},
        lambda p, o, c: {"type": "attack", "card": c, "target": o, "card2": c,
                         "target2": o, "seat": p},
        lambda p, o, c: {"type": "skill", "skill": 1, "card": c, "seat": p},
        lambda p, o, c: {"type": "discard", "card": c, "seat": p},
        lambda p, o, c: {"type": "take", "card": c, "seat": p},
    ],
    "gemcomplete": [
        lambda p, o, c: {"type": "crush", "target": o, "count": 1, "cards": [c], "seat": p},
        lambda p, o, c: {"type": "discard", "target": o, "count": 1, "from": "hand",
                         "cards": [c], "seat": p},
        lambda p, o, c: {"type": "return", "target": o, "cards": [c], "to": "hand",
                         "seat": p},
        lambda p, o, c: {"type": "return", "target": p, "cards": [c], "to": "deck",
                         "seat": p},
        lambda p, o, c: {"type": "play", "card": c, "seat": p},
        lambda p, o, c: {"type": "set", "card": c, "seat": p},
        lambda p, o, c: {"type": "reveal", "cards": [c], "seat": p},
        lambda p, o, c: {"type": "choose", "cards": [c], "seat": p},
        lambda p, o, c: {"type": "scan", "card": c, "zone": f"seat:{p}", "seat": p},
        lambda p, o, c: {"type": "scan", "card": c, "zone": f"locus:{p}", "seat": p},
    ],
}


# Places whose cards nobody at the table sees (a card once anywhere else lay face up, its
# serial readable by all: a swap of it is no longer hidden).
HIDDEN = ("unknown", "deck", "universe", "pile", "locus", "hand")


def hidden(place: str) -> bool:
    return place.split(":")[0] in HIDDEN


def shown(rules: Rules[Any], m: Match[Any], a: str, b: str) -> bool:
    """Whether the latest event showed ``a`` or ``b`` face up to the table (a reveal that
    went straight on into a deck, WX-8), not privately (a Gem Complete Locus card)."""
    sent = json.dumps(m.events[-1])
    public = rules.last_play(m.state, None) or {}
    return (a in sent or b in sent) and bool(public.get("cards"))


def test_every_game_has_probes() -> None:
    assert set(PROBES) == set(GAMES)


def swapped(value: Any, a: str, b: str) -> Any:
    """``value`` with serials ``a`` and ``b`` exchanged wherever they occur."""
    if value == a:
        return b
    if value == b:
        return a
    if isinstance(value, list):
        return [swapped(v, a, b) for v in value]
    if isinstance(value, dict):
        return {k: swapped(v, a, b) for k, v in value.items()}
    return value


def answer(rules: Rules[Any], setup: Setup, state: Any, event: Mapping[str, Any],
           seat: int) -> Any:
    """What ``seat`` reads after sending ``event``: the refusal, or what it sees after."""
    try:
        after, _ = apply_named(rules, setup, state, dict(event))
    except CompanionError as exc:
        return ("refused", type(exc).__name__, exc.code, str(exc))
    return ("played", json.dumps(rules.view(after, seat), sort_keys=True),
            json.dumps(rules.last_play(after, seat), sort_keys=True))


def channels(rules: Rules[Any], m: Match[Any], plays: list[Any], seat: int) -> Any:
    """Everything ``seat`` reads besides its view: its actions, the latest play (with its
    undo lines), every play as told now (history), and the big screen it also sees."""
    state = m.state
    told = [rules.retell(state, p, s) for p in plays for s in (seat, None)]
    return json.dumps([rules.actions(state, seat), rules.last_play(state, seat), told,
                       rules.view(state, None), rules.last_play(state, None)],
                      sort_keys=True, default=str)


def references(m: Match[Any], a: str, b: str, rng: random.Random) -> list[str]:
    """Card references to probe with: both swapped serials and another, the faces and
    printed names of both (as typed, any case) and a few other faces and names."""
    cards = m.setup.cards
    ids = sorted({f.id for f in cards.values()})
    names = sorted({f.name for f in cards.values()})
    mine = [cards[a].id, cards[b].id, cards[a].name, cards[b].name.upper()]
    return [a, b, rng.choice(sorted(cards)), *dict.fromkeys(mine),
            *rng.sample(ids, min(len(ids), 4)), *rng.sample(names, min(len(names), 3))]


def two_worlds(game: str, players: int, seed: int) -> Iterator[tuple[Any, ...]]:
    """Each step of a random game in both worlds: (rules, world A, world B, plays A,
    plays B, the swapped serials, rng)."""
    rng = random.Random(seed)
    rules = find_rules(game)
    out = play_random(game, players, rng)
    events = out.match.events
    setup = out.match.setup
    start = rules.places(rules.start(setup))
    used = [s for s in sorted(setup.cards) if any(s in json.dumps(e) for e in events)]
    a = rng.choice(used)
    same = [s for s in sorted(setup.cards) if s != a and start[s] == start[a]
            and setup.cards[s].deck == setup.cards[a].deck]
    b = rng.choice(same)
    ma, mb = Match(rules, setup), Match(rules, setup)
    plays_a: list[Any] = []
    plays_b: list[Any] = []
    for e in events:
        try:
            mb.apply(swapped(e, a, b))
        except CompanionError:
            return  # world B cannot follow: the worlds part here
        ma.apply(e)
        plays_a.append(ma.state.last_play)
        plays_b.append(mb.state.last_play)
        yield rules, ma, mb, plays_a, plays_b, (a, b), rng


CASES = [(g, n) for g in GAMES for n in sorted({find_rules(g).min_players, 3}
                                               & set(range(find_rules(g).min_players,
                                                           find_rules(g).max_players + 1)))]


@pytest.mark.parametrize(("game", "players"), CASES)
@given(seed=st.integers(0, 2**31))
@settings(max_examples=4, deadline=None)
def test_a_hidden_difference_stays_hidden_on_every_channel(game: str, players: int,
                                                           seed: int) -> None:
    rules = find_rules(game)
    knows: set[int] = set()
    compared = 0
    for rules, ma, mb, plays_a, plays_b, (a, b), rng in two_worlds(game, players, seed):
        if not all(hidden(rules.places(m.state)[s]) for m in (ma, mb) for s in (a, b)) or (
                shown(rules, ma, a, b) or shown(rules, mb, a, b)):
            break  # one of the two lay face up: from here on everyone can tell
        for seat in range(1, players + 1):
            if seat in knows:
                continue
            if rules.view(ma.state, seat) != rules.view(mb.state, seat):
                knows.add(seat)  # the seat can tell the worlds apart from here on
                continue
            assert channels(rules, ma, plays_a, seat) == channels(rules, mb, plays_b, seat), (
                game, seat, len(plays_a))
            if rng.random() < 0.3:
                other = seat % players + 1
                for ref in references(ma, a, b, rng):
                    for probe in PROBES[game]:
                        event = probe(seat, other, ref)
                        in_a = answer(rules, ma.setup, ma.state, event, seat)
                        in_b = answer(rules, mb.setup, mb.state, event, seat)
                        assert in_a == in_b, (game, seat, event, in_a, in_b)
                        compared += 1
    print("COMPARED", game, players, compared)


def test_a_printed_name_plays_like_its_face_and_a_refusal_quotes_it() -> None:
    """Issue 20 §2: "Fire", "FIRE" and "Universe Fire" answer as the faces ``fire`` and
    ``universe-fire`` do, in every zone and from every sender; the log keeps the face id
    (replay is exact) and a refusal quotes the name as typed, never a copy's serial."""
    rules = find_rules("wuxing")
    for seed in range(6):
        m = play_random("wuxing", 3, random.Random(seed), max_events=3 + seed * 4).match
        for typed, face in (("Fire", "fire"), ("FIRE", "fire"), ("Universe Fire",
                                                                   "universe-fire")):
            for zone, seat in (("seat:2", 2), ("seat:2", 1), ("universe", 1), ("seat:3", 3)):
                sent = {"type": "scan", "zone": zone, "seat": seat}
                by_face = answer(rules, m.setup, m.state, {**sent, "card": face}, seat)
                by_name = answer(rules, m.setup, m.state, {**sent, "card": typed}, seat)
                assert by_name == tuple(x.replace(repr(face), repr(typed)) for x in by_face)
                assert not QUOTED_SERIAL.search(str(by_name[-1]))
    gem = Match(find_rules("gemcomplete"), play_random("gemcomplete", 2, random.Random(4),
                                                       max_events=0).match.setup)
    gem.settle(random.Random(1))
    while not any(a["type"] == "set" for a in gem.rules.actions(gem.state, gem.state.turn)):
        gem.apply({"type": "next", "seat": gem.state.turn})
    seat = gem.state.turn
    # Before the seat's deck is bound (GN-2 rev. 2) its tiles name both decks' faces: a name
    # printed in both is read deck by deck, the first its rules accept (Deck A's here).
    offer = next(a for a in gem.rules.actions(gem.state, seat) if a["type"] == "set")
    face = offer["fields"][0]["faces"][0]
    gem.apply({"type": "set", "card": face["name"].lower(), "seat": seat})
    assert gem.events[-1]["card"] == face["face"]
    assert Match(gem.rules, gem.setup, gem.events).state == gem.state
