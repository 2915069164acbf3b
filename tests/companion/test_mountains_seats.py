"""Mountains & Rivers: who acts, and no oracle (C-7, issue 10, engine side).

Every event carrying ``"seat"`` is from that seat (the web sets it from the seat token). A
seat shows cards only in its own zone, enters a mini-game's result only if it played it, and
every refusal about a card it may not know reads like the refusal for any other card it
cannot use.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_mountains_helpers import at, new, play, put, serial, to_play, turn_of

from companion.engine import Match
from companion.errors import (
    CardNotAvailable,
    CompanionError,
    MalformedEvent,
    OutOfTurn,
)
from companion.games.mountains import RULES, MountainsState
from companion.games.mountains.skills import SKILLS


def refused(m: Match[Any], event: dict[str, Any], err: type[CompanionError],
            rule: str | None) -> CompanionError:
    before, log = m.state, list(m.events)
    with pytest.raises(err) as info:
        m.apply(event)
    assert info.value.rule == rule
    assert m.state is before and m.events == log
    return info.value


def test_c7_every_event_type_declares_its_fields_unknown_ones_are_refused() -> None:
    m = to_play(2)
    assert set(RULES.event_fields) == {"roll", "scan", "corner", "move", "stairs", "attack",
                                       "skill", "result", "opponent", "discard", "take",
                                       "end"}
    assert all("seat" in f for f in RULES.event_fields.values())
    assert [k for k, f in RULES.event_fields.items() if "override" in f] == ["scan"]
    refused(m, {"type": "roll", "seat": 1, "dice": [3], "junk": "x" * 60}, MalformedEvent, None)
    refused(m, {"type": "teleport", "seat": 1}, MalformedEvent, None)
    refused(m, {"type": "end", "seat": 1, "override": True}, MalformedEvent, None)


def test_c7_a_seat_shows_a_card_only_in_its_own_zone() -> None:
    m = new(3)
    for seat in (1, 2, 3):
        m.apply({"type": "roll", "seat": seat, "dice": [7 - seat]})
    huan = serial(m, "huan")
    # Bo cannot pick for Ana, whether he names her zone or not.
    err = refused(m, {"type": "scan", "seat": 2, "card": huan, "zone": "seat:1"}, OutOfTurn,
                  "C-7")
    assert "Bo" in str(err) and "in front of Ana" in str(err)  # C-8: no zone id
    refused(m, {"type": "scan", "seat": 2, "card": huan, "zone": "seat:2"}, OutOfTurn, "MR-3")
    # Malformed spellings of a zone never name a seat (C-7, companion.zones).
    for zone in ("seat:+1", "seat: 1", "seat:01", "seat:1\n"):
        refused(m, {"type": "scan", "seat": 1, "card": huan, "zone": zone}, MalformedEvent,
                "C-7")
    m.apply({"type": "scan", "seat": 1, "card": huan})  # the zone follows the sender
    assert m.state.player(1).character == "huan"


def test_c1_the_referees_override_may_name_the_seat_it_is_for() -> None:
    """The server refuses ``override`` from a seat token (C-1); the referee's form posts the
    seat the card is for, and the override stands."""
    m = to_play(3)
    s = turn_of(put(m.state, 1, tile="C2"), 1, roll=(1, 1))
    s = play(s, {"type": "move", "seat": 1, "to": "C1"})  # a weapon tile: Ana draws
    used = serial(s, "jade-axe")
    m = at(m, replace(s, places={**s.places, used: "discard:weapon"}))
    refused(m, {"type": "scan", "seat": 1, "card": used, "zone": "seat:1"}, CardNotAvailable,
            "C-1")
    m.apply({"type": "scan", "seat": 1, "card": used, "zone": "seat:1", "override": True})
    assert m.state.places[used] == "seat:1" and "referee override" in m.state.ruling


def test_c1_a_face_id_picks_a_copy_the_pile_holds() -> None:
    m = to_play(2)
    s = turn_of(put(m.state, 1, tile="C2"), 1, roll=(1, 1))
    m = at(m, play(s, {"type": "move", "seat": 1, "to": "C1"}))
    m.apply({"type": "scan", "seat": 1, "card": "rain-bow"})
    assert m.state.player(1).weapons == (serial(m.state, "rain-bow"),)


def test_mr9_c7_only_the_players_of_a_mini_game_or_the_referee_enter_its_result() -> None:
    m = to_play(3)
    s = turn_of(put(m.state, 1, tile="B1"), 1, roll=(1,))
    s = play(s, {"type": "move", "seat": 1, "to": "B2"},
             {"type": "scan", "card": serial(s, "mountain-gaze"), "zone": "seat:1"})
    m = at(m, s)
    err = refused(m, {"type": "result", "seat": 3, "winner": 1, "loser": 2}, OutOfTurn, "C-7")
    assert "Cy did not play this mini-game" in str(err)
    m.apply({"type": "opponent", "seat": 1, "target": 2})  # Ana challenges Bo (MR-9)
    m.apply({"type": "result", "seat": 2, "winner": 1, "loser": 2})
    assert m.state.player(1).hp == 12 and m.state.player(2).hp == 9


# -- no oracle: a property over random games ---------------------------------------------------
def _answer(s: MountainsState, event: dict[str, Any], card: str) -> tuple[Any, ...] | None:
    """The refusal (class, code, message with the card written as ``X``), or ``None``."""
    try:
        RULES.apply(s, event)
    except CompanionError as e:
        return type(e), e.code, e.rule, str(e).replace(card, "X")
    return None


def _requests(s: MountainsState, x: int, card: str) -> list[dict[str, Any]]:
    """Every request seat ``x`` can send that names ``card``."""
    others = [y for y in range(1, len(s.players) + 1) if y != x]
    out: list[dict[str, Any]] = [
        {"type": "scan", "seat": x, "card": card, "zone": f"seat:{x}"},
        {"type": "scan", "seat": x, "card": card},
        {"type": "discard", "seat": x, "card": card},
        {"type": "take", "seat": x, "card": card},
    ]
    for y in others:
        out.append({"type": "scan", "seat": x, "card": card, "zone": f"seat:{y}"})
        out.append({"type": "attack", "seat": x, "strikes": [{"card": card, "target": y}]})
    character = s.player(x).character
    for (who, slot), sk in SKILLS.items():
        if who == character and "card" in sk.params:
            for y in range(1, len(s.players) + 1):
                out.append({"type": "skill", "seat": x, "skill": slot, "card": card,
                            "target": y})
    return out


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_c7_no_oracle_refusals_read_the_same_for_every_card_a_seat_cannot_use(
        seed: int, players: int) -> None:
    """For any request a seat can send, a card in a face-down pile (hidden: a blind pick, a
    card not yet drawn) is refused exactly like any other card not available to that seat,
    wherever it is: same class, code, ruling and message with the card as typed."""
    rng = random.Random(seed)
    m = new(players, seed=seed)
    checked = 0
    for step in range(400):
        s = m.state
        if s.finished:
            break
        if step % 9 == 0:
            for x in range(1, players + 1):
                hidden = sorted(c for c, p in s.places.items() if p.startswith("pile:"))
                mine = {c for c, p in s.places.items() if p == f"seat:{x}"}
                others = sorted(c for c in s.places if c not in mine)
                if not hidden:
                    continue
                probe = [*rng.sample(hidden, min(4, len(hidden))),
                         *rng.sample(others, min(4, len(others)))]
                for i in range(len(_requests(s, x, "?"))):
                    answers = set()
                    for card in probe:
                        a = _answer(s, _requests(s, x, card)[i], card)
                        if a is not None:
                            answers.add(a)
                    assert len(answers) <= 1, answers
                    checked += 1
        event = RULES.chance(s, rng) or RULES.random_play(s, rng)
        if event is None:
            break
        m.apply(event)
    assert checked


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_c7_what_a_phone_is_offered_it_may_send_as_itself(seed: int, players: int) -> None:
    """Each seat's actions, posted as that seat (the web sets ``seat`` from the token), are
    accepted: every mini-game result it is offered, and the first choices of the others."""
    rng = random.Random(seed)
    m = new(players, seed=seed)
    checked = 0
    for _ in range(300):
        s = m.state
        if s.finished:
            break
        for x in range(1, players + 1):
            for a in RULES.actions(s, x):
                if "why" in a or any(f["kind"] != "choice" for f in a["fields"]):
                    continue
                assert a["seat"] == x
                if a["type"] == "result":
                    for c in a["fields"][0]["choices"]:
                        RULES.apply(s, {"type": "result", "seat": x, "outcome": c["value"]})
                        checked += 1
                    continue
                # Fields may depend on each other (an attack's target must be in the chosen
                # weapon's range, MR-7): some combination of the offered choices is accepted.
                combos = itertools.islice(itertools.product(
                    *[[(f["name"], c["value"]) for c in f["choices"]] for f in a["fields"]]), 200)
                errors = []
                for combo in combos:
                    try:
                        RULES.apply(s, {"type": a["type"], "seat": x, **dict(combo)})
                    except CompanionError as exc:
                        errors.append(str(exc))
                        continue
                    checked += 1
                    break
                else:
                    raise AssertionError(f"no offered {a['type']} is accepted: {errors[:3]}")
        event = RULES.chance(s, rng) or RULES.random_play(s, rng)
        if event is None:
            break
        m.apply(event)
    assert checked
