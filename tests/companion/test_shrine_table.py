"""Shrine of the Elemental Kings at the table: revision 2 (SK-2, SK-6), who acts and hidden
Oinks (C-7, SK-7), the play as data in plain words (C-8), one-tap actions."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Match, evolve
from companion.errors import CardNotAvailable, CompanionError, MalformedEvent, OutOfTurn
from companion.games.shrine import RULES, ShrineState, legal_bids
from companion.registry import new_match
from companion.simulate import play_random

NAMES = ["Ana", "Ben", "Cai", "Dee"]


def table(players: int = 3, **options: Any) -> Match[ShrineState]:
    return new_match("shrine", NAMES[:players], options, rng=random.Random(7))


def serial(m: Match[ShrineState], face: str) -> str:
    return next(s for s, f in m.setup.cards.items() if f.id == face)


def scan(m: Match[ShrineState], face: str, zone: str = "lot") -> ShrineState:
    return m.apply({"type": "scan", "card": serial(m, face), "zone": zone})


def start(m: Match[ShrineState], faces: list[str]) -> None:
    for seat, face in enumerate(faces, start=1):
        scan(m, face, f"seat:{seat}")


def refused(m: Match[ShrineState], event: dict[str, Any],
            error: type[CompanionError]) -> CompanionError:
    before, log = m.state, list(m.events)
    with pytest.raises(error) as info:
        m.apply(event)
    assert m.state is before and m.events == log
    return info.value


def oinks(m: Match[ShrineState], seat: int) -> dict[str, int]:
    return dict(RULES.referee_view(m.state)["oinks"][str(seat)])


# --------------------------------------------------------------------- SK-6 rev. 2


def test_sk6_rev2_a_44_bid_among_two_divides_as_a_whole_whatever_the_mix() -> None:
    """SK-6 rev. 2: 44 Oinks paid in a mix (23 Fire + 21 Air) among 2 sharers: 22 each,
    nothing pools. Per element (the old reading) 1 Fire and 1 Air stayed in the pool."""
    m = table(3, start_oinks=30)
    start(m, ["water-9", "water-3", "water-2"])  # Ana starts
    scan(m, "earth-1")
    m.apply({"type": "bid", "seat": 1, "amount": 10})  # a zero bid: the next lot is a set
    m.apply({"type": "pass", "seat": 2})
    m.apply({"type": "pass", "seat": 3})
    assert m.state.lot_size == 2 and m.state.pool == (0, 0, 0, 0)
    scan(m, "fire-5")
    scan(m, "air-6")
    # Ben opens the cycle; Cai bids 44; Ana and Ben pass.
    m.apply({"type": "pass", "seat": 2})
    m.apply({"type": "bid", "seat": 3, "amount": 44})
    m.apply({"type": "pass", "seat": 1})
    assert m.state.phase == "payment"
    m.apply({"type": "pay", "seat": 3, "oinks": {"fire": 23, "air": 21}})
    assert m.state.pool == (0, 0, 0, 0)
    got = {s: sum(oinks(m, s).values()) for s in (1, 2)}
    # Ana had paid 10 Earth and got nothing back from herself: 110; +22 now.
    assert got == {1: 120 - 10 + 22, 2: 120 + 5 + 22}
    # Handed out one at a time from the element with the most left (Fire first on a tie),
    # in turn from Cai's left: Fire, Fire, Fire, Air, Fire, Air... so Ana's 22 are Fire and
    # Ben's are 1 Fire and 21 Air.
    assert (oinks(m, 1)["fire"], oinks(m, 1)["air"]) == (30 + 22, 30)
    assert (oinks(m, 2)["fire"], oinks(m, 2)["air"]) == (30 + 1, 30 + 21)
    lp = RULES.last_play(m.state, 0)  # the referee; with hidden Oinks (SK-7) only they
    assert lp is not None and lp["rule"] == "SK-6" and lp["outcome"] == "win"
    assert lp["physical"][0].startswith("Cai: pay 44 Oinks (23 Fire, 21 Air); Ana takes 22")
    assert "stay in the pool" not in lp["text"]
    public = RULES.last_play(m.state, None)
    assert public is not None and public["physical"][:2] == [
        "Cai pays 44 Oinks into the pool, out of sight.", "Ana and Ben each take 22 Oinks "
        "from the pool."]


def test_sk6_rev2_a_remainder_of_the_whole_amount_stays_in_the_pool() -> None:
    """SK-6 rev. 2: 7 Oinks among 3: 2 each, 1 stays in the pool, and the sentence says so."""
    m = table(4)
    start(m, ["water-9", "water-3", "water-2", "water-1"])
    scan(m, "fire-5")
    m.apply({"type": "bid", "seat": 1, "amount": 7})
    for s in (2, 3, 4):
        m.apply({"type": "pass", "seat": s})
    assert sum(m.state.pool) == 1
    lp = RULES.last_play(m.state, 2)
    assert lp is not None
    assert lp["text"] == ("Ana wins Fire 5 for 7 Oinks. Ben, Cai and Dee share the 7 Oinks, "
                          "2 each. 1 Oink stays in the pool.")
    # SK-7 hidden (the default): Ben's phone gives the elements of his own share only.
    assert lp["physical"] == ["Ana pays 7 Oinks into the pool, out of sight.",
                              "Ben: take 2 Fire Oinks from the pool.",
                              "Cai and Dee each take 2 Oinks from the pool.",
                              "1 Oink stays in the pool.",
                              "Ana: put Fire 5 face up in front of you."]
    referee = RULES.last_play(m.state, 0)
    assert referee is not None and referee["physical"] == [
        "Ana: pay 7 Fire Oinks; Ben takes 2 Fire Oinks, Cai takes 2 Fire Oinks, Dee takes 2 "
        "Fire Oinks.", "Leave 1 Fire Oink in the pool.",
        "Ana: put Fire 5 face up in front of you."]


# --------------------------------------------------------------------- SK-2 rev. 2


def test_sk2_rev2_a_start_draw_at_the_bottom_is_refused_as_a_lot_card() -> None:
    """SK-2 rev. 2: the start draws go to the bottom of the deck; one scanned as a lot card
    while other cards lie above it is refused (the referee can override)."""
    m = table(3)
    start(m, ["fire-9", "fire-3", "fire-2"])
    exc = refused(m, {"type": "scan", "card": serial(m, "fire-3"), "zone": "lot"},
                  CardNotAvailable)
    assert exc.rule == "SK-2" and "bottom of the deck" in str(exc)
    faces = {f["face"] for f in RULES.actions(m.state, 1)[0]["fields"][0]["faces"]}
    assert faces.isdisjoint({"fire-9", "fire-3", "fire-2"}) and len(faces) == 33
    m.apply({"type": "scan", "card": serial(m, "fire-3"), "zone": "lot", "override": True})
    assert m.state.lot == (serial(m, "fire-3"),)


def test_sk2_rev2_once_only_the_bottom_cards_are_left_any_may_come_next() -> None:
    m = table(2, start_oinks=99)
    start(m, ["fire-9", "fire-3"])
    rest = sorted(m.state.deck - m.state.bottom)
    for s in rest:
        m.apply({"type": "scan", "card": s, "zone": "lot"})
        while m.state.phase == "bidding":
            m.apply({"type": "pass", "seat": m.state.turn})
    assert m.state.deck == m.state.bottom
    scan(m, "fire-3")  # the second of the two bottom cards first: allowed
    assert m.state.lot == (serial(m, "fire-3"),)


# --------------------------------------------------------------------- C-7


def test_c7_event_fields_are_declared_and_junk_fields_refused() -> None:
    m = table(3)
    exc = refused(m, {"type": "scan", "card": serial(m, "fire-9"), "zone": "seat:1",
                      "junk": "x" * 50}, MalformedEvent)
    assert "'junk'" in str(exc)
    assert set(RULES.event_fields) == {"scan", "bid", "pass", "pay"}
    assert "override" in RULES.event_fields["scan"]
    assert "override" not in RULES.event_fields["bid"]


def test_c7_a_seat_draws_the_lot_only_when_it_opens_the_cycle() -> None:
    """C-7: the lot is a shared zone; a phone shows a card there only when the rules wait
    for that seat (the cycle's first player), and the answer is the same for any card."""
    m = table(3)
    start(m, ["fire-9", "fire-3", "fire-2"])
    answers = set()
    for face in ("air-1", "fire-9", "water-5"):
        exc = refused(m, {"type": "scan", "card": serial(m, face), "zone": "lot", "seat": 2},
                      OutOfTurn)
        answers.add(str(exc))
    assert len(answers) == 1
    refused(m, {"type": "scan", "card": serial(m, "air-1"), "zone": "seat:1", "seat": 2},
            OutOfTurn)
    m.apply({"type": "scan", "card": serial(m, "air-1"), "zone": "lot", "seat": 1})
    assert m.state.phase == "bidding"


def _requests(state: ShrineState, seat: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"type": "pass", "seat": seat}, {"type": "pay", "seat": seat}]
    for amount in (1, 5, 9, 11, 19, 20, 25, 31, 40, 60):
        out.append({"type": "bid", "seat": seat, "amount": amount})
    for e in state.elements:
        out.append({"type": "pay", "seat": seat, "oinks": {e: 5}})
    return out


def _answer(state: ShrineState, event: dict[str, Any]) -> tuple[str, str, str]:
    try:
        RULES.apply(state, event)
    except CompanionError as exc:
        return type(exc).__name__, exc.code, str(exc)
    return "accepted", "", ""


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.floats(0, 1), shift=st.integers(1, 9))
def test_c7_sk7_hidden_oinks_never_change_another_seats_answers(seed: int, cut: float,
                                                                 shift: int) -> None:
    """SK-7 (hidden) and C-7 over random games: for any request a seat can send, the answer
    (class, code, words) is the same whatever another player holds."""
    out = play_random("shrine", 3, random.Random(seed))
    m = Match(RULES, out.match.setup, out.match.events[:int(cut * len(out.match.events))])
    state = m.state
    for asker in state.seats:
        for other in state.seats:
            if other == asker:
                continue
            oinks = list(state.oinks)
            row = oinks[other - 1]
            oinks[other - 1] = tuple(row[(i + shift) % len(row)] + shift
                                     for i in range(len(row)))
            twin = evolve(state, oinks=tuple(oinks))
            for event in _requests(state, asker):
                assert _answer(state, event) == _answer(twin, event), event
            if not state.finished:  # at the end every holding is shown (SK-10 ties)
                assert RULES.view(state, asker)["oinks"] == RULES.view(twin, asker)["oinks"]
            assert RULES.last_play(state, asker) == RULES.last_play(twin, asker)


# --------------------------------------------------------------------- the play as data


def test_last_play_of_the_start_draws_says_who_starts_and_where_the_cards_go() -> None:
    m = table(3)
    assert RULES.last_play(m.state, None) is None
    scan(m, "fire-7", "seat:1")
    lp = RULES.last_play(m.state, None)
    assert lp is not None and lp["text"] == "Ana drew Fire 7. Waiting for Ben and Cai."
    scan(m, "water-7", "seat:2")
    scan(m, "air-2", "seat:3")
    lp = RULES.last_play(m.state, None)
    assert lp is not None and lp["outcome"] == "tie" and lp["rule"] == "SK-2"
    assert lp["text"] == "Cai drew Air 2. Ana and Ben tie at 7 and draw again."
    assert lp["physical"] == ["Put Fire 7, Water 7 and Air 2 at the bottom of the deck."]
    moves = [(mv["name"], mv["from_words"], mv["to_words"]) for mv in lp["movements"]]
    assert moves[0] == ("Air 2", "the deck", "in front of Cai")
    assert ("Fire 7", "in front of Ana", "the bottom of the deck") in moves
    assert lp["undo"][0] == ("Take Air 2 back from the bottom of the deck and put it back "
                             "in front of Cai.")
    scan(m, "earth-9", "seat:1")
    scan(m, "earth-8", "seat:2")
    lp = RULES.last_play(m.state, 3)
    assert lp is not None and lp["text"] == "Ben drew Earth 8. Ana drew the highest (9) and starts."


def test_last_play_of_the_seed_example_bid_28_names_the_sharers() -> None:
    """Seed 002's example: a bid of 28, unit value 8: the holders of 8s share."""
    m = table(4, start_oinks=30)
    start(m, ["water-9", "water-3", "water-2", "water-1"])
    scan(m, "fire-8")
    m.apply({"type": "bid", "seat": 1, "amount": 1})
    for s in (2, 3, 4):
        m.apply({"type": "pass", "seat": s})  # Ana holds an 8
    scan(m, "earth-8")  # Ben first
    m.apply({"type": "bid", "seat": 2, "amount": 1})
    for s in (3, 4, 1):
        m.apply({"type": "pass", "seat": s})  # Ben holds an 8
    scan(m, "fire-2")  # Cai first
    m.apply({"type": "bid", "seat": 3, "amount": 28})
    for s in (4, 1, 2):
        m.apply({"type": "pass", "seat": s})
    lp = RULES.last_play(m.state, 0)
    assert lp is not None
    assert lp["text"].startswith("Cai wins Fire 2 for 28 Oinks. The bid ends in 8: Ana and "
                                 "Ben hold the most 8s and share the ")
    assert lp["physical"][0].startswith("Cai: pay 28 Fire Oinks; Ana takes ")
    assert lp["physical"][0].endswith(", the pool's 2 Oinks included.")
    lp = RULES.last_play(m.state, None)
    assert lp is not None and lp["physical"][0] == ("Cai pays 28 Oinks into the pool, out "
                                                    "of sight.")
    assert lp["cards"] == [{"face": "fire-2", "name": "Fire 2", "element": "fire",
                            "number": 2}]
    assert lp["movements"][0]["to_words"] == "Cai's shrine"


def test_the_final_standings_list_each_players_influence_groups() -> None:
    out = play_random("shrine", 3, random.Random(4))
    final = RULES.view(out.match.state, None)["final"]
    assert [f["influence"] for f in final] == sorted((f["influence"] for f in final),
                                                     reverse=True)
    assert final[0]["winner"] and all("groups" in f for f in final)
    assert sum(g["points"] for g in final[0]["groups"]) == final[0]["influence"]


# --------------------------------------------------------------------- one tap


def test_bids_are_buttons_when_few_and_pass_is_one_tap() -> None:
    m = table(3, start_oinks=5)
    start(m, ["fire-9", "fire-3", "fire-2"])
    scan(m, "air-1")
    bid, pas = RULES.actions(m.state, 1)
    assert bid["fields"][0]["suggest"] == [1, 2, 3, 4, 5] == legal_bids(m.state, 1)
    assert "confirm" not in pas and not pas["fields"]  # one tap; undo covers a mistake
    assert bid["fields"][0]["say"] == "bid {n} Oinks"
    m2 = table(3)
    start(m2, ["fire-9", "fire-3", "fire-2"])
    scan(m2, "air-1")
    field = RULES.actions(m2.state, 1)[0]["fields"][0]
    # More legal bids than buttons: the lowest eight, and the field for another amount.
    assert field["suggest"] == legal_bids(m2.state, 1)[:8]
    assert (field["min"], field["max"]) == (1, 10)
    big = RULES.view(m2.state, None)
    assert list(big)[:5] == ["lot", "standing_bid", "high_bidder", "turn", "next_bidder"]
    assert big["next_bidder"] == "Ana"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.floats(0, 1))
def test_faces_offered_are_exactly_the_faces_apply_accepts(seed: int, cut: float) -> None:
    """A card tile (C-1: a face id picks the copy) is offered iff ``apply`` takes it now."""
    out = play_random("shrine", 2, random.Random(seed))
    events = out.match.events
    m = Match(RULES, out.match.setup, events[:int(cut * len(events))])
    for action in RULES.actions(m.state, None):
        for f in action["fields"]:
            if f["kind"] != "card":
                continue
            offered = {t["face"] for t in f["faces"]}
            for face in {c.id for c in m.setup.cards.values()}:
                event = {"type": action["type"], "card": face, "zone": f["zone"]}
                assert (_answer(m.state, event)[0] == "accepted") == (face in offered), face


_JARGON = re.compile(r"\b(?:SK|C)-\d|seat:\d|shrine:\d|\b[a-z]+-\d\b|\(s\)|\bv\d+\b")


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_player_words_are_free_of_ids_zones_and_face_ids(seed: int) -> None:
    """C-8 over random games: last_play's text, physical and undo lines and the players'
    ruling and prompt never show ruling ids, zone names, face ids or "card(s)"."""
    out = play_random("shrine", 3, random.Random(seed))
    m = Match(RULES, out.match.setup)
    for event in out.match.events:
        m.apply(event)
        for viewer in (None, 1, 2, 3):
            lp = RULES.last_play(m.state, viewer)
            assert lp is not None
            said = [lp["text"], *lp["physical"], *lp["undo"],
                    *(mv["from_words"] for mv in lp["movements"]),
                    *(mv["to_words"] for mv in lp["movements"])]
            v = RULES.view(m.state, viewer)
            said += [v["ruling"], v["prompt"]]
            for line in said:
                assert not _JARGON.search(line), line
        json.dumps(RULES.last_play(m.state, 0))


def test_views_refuse_a_viewer_not_at_the_table() -> None:
    m = table(3)
    for bad in (0, 4):
        with pytest.raises(MalformedEvent):
            RULES.view(m.state, bad)
    with pytest.raises(MalformedEvent):
        RULES.last_play(m.state, 4)
    assert RULES.last_play(m.state, 0) is None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6))
def test_sk6_rev2_every_settlement_divides_the_whole_amount(seed: int, players: int) -> None:
    """SK-6 rev. 2 over random games: at every settlement each sharer gets exactly
    floor(amount / k) Oinks, only amount mod k stays in the pool, and holdings plus pool
    always equal the start."""
    out = play_random("shrine", players, random.Random(seed))
    m = Match(RULES, out.match.setup)
    start_total = sum(m.state.oinks[0]) * players
    settled = 0
    for event in out.match.events:
        before = m.state
        m.apply(event)
        s, lp = m.state, m.state.last_play
        assert sum(map(sum, s.oinks)) + sum(s.pool) == start_total
        if lp is None or lp.outcome != "win":
            continue
        settled += 1
        f = lp.facts
        k = len(f["sharers"])
        assert f["amount"] == f["bid"] + sum(before.pool)
        assert sum(s.pool) == f["amount"] % k
        for seat in f["sharers"]:
            gained = sum(s.oinks[seat - 1]) - sum(before.oinks[seat - 1])
            assert gained == f["amount"] // k
    assert settled > 0
