"""Shrine of the Elemental Kings (seed 002): one test or more per ruling SK-1..SK-10."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

import pytest

import companion_cli
from companion.cards import load_deck
from companion.engine import Match
from companion.errors import (
    BadSetup,
    CardNotAvailable,
    CompanionError,
    GameOver,
    IllegalPlay,
    MalformedEvent,
    OutOfTurn,
    UnknownCard,
)
from companion.games.shrine import RULES, ShrineState, legal_bids
from companion.registry import new_match

NAMES = ["Ana", "Ben", "Cai", "Dee"]


def table(players: int = 4, **options: Any) -> Match[ShrineState]:
    return new_match("shrine", NAMES[:players] if players <= 4 else
                     [f"P{i}" for i in range(1, players + 1)], options,
                     rng=random.Random(2))


def serial(m: Match[ShrineState], face: str) -> str:
    """The serial of the card printed with face ``face`` (e.g. ``"fire-8"``)."""
    return next(s for s, f in m.setup.cards.items() if f.id == face)


def scan(m: Match[ShrineState], face: str, zone: str = "lot") -> ShrineState:
    return m.apply({"type": "scan", "card": serial(m, face), "zone": zone})


def start(m: Match[ShrineState], faces: Iterable[str]) -> None:
    """Every seat shows one start draw, in seat order."""
    for seat, face in enumerate(faces, start=1):
        scan(m, face, f"seat:{seat}")


def bid(m: Match[ShrineState], seat: int, amount: int) -> ShrineState:
    return m.apply({"type": "bid", "seat": seat, "amount": amount})


def pass_(m: Match[ShrineState], seat: int) -> ShrineState:
    return m.apply({"type": "pass", "seat": seat})


def oinks(m: Match[ShrineState], seat: int) -> dict[str, int]:
    return dict(RULES.referee_view(m.state)["oinks"][str(seat)])


def total_oinks(state: ShrineState) -> list[int]:
    return [sum(row[i] for row in state.oinks) + state.pool[i]
            for i in range(len(state.elements))]


def refused(m: Match[ShrineState], event: dict[str, Any], error: type[CompanionError],
            rule: str | None = None, match: str | None = None) -> CompanionError:
    """``event`` is refused with ``error`` (naming ``rule``) and changes nothing."""
    before, log = m.state, list(m.events)
    with pytest.raises(error, match=match) as info:
        m.apply(event)
    assert m.state is before and m.events == log
    if rule is not None:
        assert info.value.rule == rule
        assert f"({rule})" in str(info.value)
    return info.value


def deck_order() -> list[str]:
    """Every face, the two-player start draws (put at the bottom, SK-2 rev. 2) last."""
    faces = [f"{e}-{n}" for e in ("fire", "water", "earth", "air") for n in range(1, 10)]
    return [f for f in faces if f not in START2] + START2


START2 = ["water-9", "water-7"]


def four_player_game(**options: Any) -> Match[ShrineState]:
    """Ana starts (she draws the 9)."""
    m = table(4, **options)
    start(m, ["water-9", "water-3", "earth-6", "earth-7"])
    return m


def win(m: Match[ShrineState], winner: int, amount: int = 1) -> None:
    """The current auction: ``winner`` bids ``amount`` (or the next legal amount above it,
    SK-4), everyone else passes."""
    while not m.state.finished and m.state.phase == "bidding":
        seat = m.state.turn
        if seat == winner and m.state.high != winner:
            bid(m, seat, next(a for a in legal_bids(m.state, seat) if a >= amount))
        else:
            pass_(m, seat)


# --------------------------------------------------------------------- SK-1


def test_sk1_components_standard_deck_and_oinks() -> None:
    """SK-1: Fire, Water, Earth, Air x 1-9 = 36 cards; 10 Oinks of each element; 2-6 players."""
    deck = load_deck("shrine")
    assert deck.code == "S" and list(deck.decks) == ["standard"]
    assert deck.set_size() == 36
    assert {(f.element, f.number) for f in deck} == {
        (e, n) for e in ("fire", "water", "earth", "air") for n in range(1, 10)
    }
    m = table(3)
    assert len(m.state.deck) == 36
    assert all(row == (10, 10, 10, 10) for row in m.state.oinks)
    with pytest.raises(BadSetup):
        RULES.configure(["A"], {})
    with pytest.raises(BadSetup):
        RULES.configure([f"P{i}" for i in range(7)], {})
    assert table(6).state.oinks[5] == (10, 10, 10, 10)


def test_sk1_start_oinks_option() -> None:
    """SK-1: the seed's 10 Oinks are a default; the host may choose another count."""
    assert table(2, start_oinks=30).state.oinks == ((30,) * 4, (30,) * 4)
    with pytest.raises(BadSetup):
        RULES.configure(["A", "B"], {"start_oinks": 0})


# --------------------------------------------------------------------- SK-2


def test_sk2_highest_start_draw_starts_and_cards_go_back() -> None:
    """SK-2: the highest face value starts; drawn cards go back to the deck."""
    m = table(3)
    scan(m, "water-4", "seat:1")
    scan(m, "air-7", "seat:2")
    assert m.state.phase == "start" and "Cai" in RULES.view(m.state, None)["prompt"]
    scan(m, "fire-2", "seat:3")
    assert m.state.starter == 2 and m.state.phase == "lot"
    assert len(m.state.deck) == 36
    assert m.state.cycle_first == 2
    assert "Ben drew the highest (7) and starts" in m.state.ruling


def test_sk2_ties_redraw_among_the_tied_only() -> None:
    """SK-2: tied players (and only they) draw again until one is highest."""
    m = table(4)
    start(m, ["fire-8", "water-8", "earth-2", "air-8"])
    assert m.state.phase == "start" and m.state.contenders == (1, 2, 4)
    assert len(m.state.deck) == 36  # the drawn cards are back
    refused(m, {"type": "scan", "card": serial(m, "earth-9"), "zone": "seat:3"},
            IllegalPlay, "SK-2", "not drawing now")
    scan(m, "fire-5", "seat:1")
    refused(m, {"type": "scan", "card": serial(m, "fire-6"), "zone": "seat:1"},
            IllegalPlay, "SK-2", "already drew")
    scan(m, "water-6", "seat:2")
    scan(m, "air-6", "seat:4")
    assert m.state.contenders == (2, 4) and m.state.draw_round == 3
    scan(m, "air-9", "seat:4")
    scan(m, "water-1", "seat:2")
    assert m.state.starter == 4 and m.state.cycle_first == 4
    assert RULES.stats(m.state)["start_rounds"] == 3


def test_sk2_start_draw_needs_a_seat_zone() -> None:
    m = table(2)
    refused(m, {"type": "scan", "card": serial(m, "fire-1"), "zone": "lot"},
            IllegalPlay, "SK-2")
    # A phone shows only its own seat's draw.
    refused(m, {"type": "scan", "card": serial(m, "fire-1"), "zone": "seat:2", "seat": 1},
            OutOfTurn, "SK-2")
    # The zone can be left out when the event names the seat (a form entered by hand).
    m.apply({"type": "scan", "card": serial(m, "fire-1"), "seat": 2})
    assert m.state.draws == {2: serial(m, "fire-1")}


# --------------------------------------------------------------------- SK-3


def test_sk3_bidding_goes_clockwise_from_the_cycle_first_and_skips_passed() -> None:
    """SK-3: bidding clockwise from the cycle's first player; passed players are skipped."""
    m = four_player_game()
    assert m.state.cycle_first == 1 and m.state.phase == "lot"
    scan(m, "fire-3")
    assert m.state.phase == "bidding" and m.state.turn == 1
    bid(m, 1, 1)
    pass_(m, 2)
    assert m.state.turn == 3
    bid(m, 3, 2)
    assert m.state.turn == 4
    bid(m, 4, 3)
    assert m.state.turn == 1  # Ben passed: not asked again
    bid(m, 1, 4)
    assert m.state.turn == 3
    pass_(m, 3)
    pass_(m, 4)
    # One bidder remains: Ana wins and the next cycle starts with Ben.
    assert m.state.shrines[0] == (serial(m, "fire-3"),)
    assert m.state.phase == "lot" and m.state.cycle == 2 and m.state.cycle_first == 2


def test_sk3_everyone_passing_without_a_bid_sets_the_lot_aside() -> None:
    """SK-3: no bid at all: the lot is out of the game; the next player starts the cycle."""
    m = four_player_game()
    scan(m, "air-5")
    for seat in (1, 2, 3, 4):
        pass_(m, seat)
    assert RULES.places(m.state)[serial(m, "air-5")] == "out"
    assert all(s == () for s in m.state.shrines)
    assert m.state.cycle_first == 2 and m.state.phase == "lot"
    assert "set aside" in m.state.ruling
    assert total_oinks(m.state) == [40, 40, 40, 40]


def test_sk3_last_player_left_without_a_bid_may_still_bid() -> None:
    """SK-3: three pass before any bid; the fourth still chooses (bid wins, pass sets aside)."""
    m = four_player_game()
    scan(m, "air-5")
    for seat in (1, 2, 3):
        pass_(m, seat)
    assert m.state.turn == 4 and m.state.phase == "bidding"
    bid(m, 4, 1)
    assert m.state.shrines[3] == (serial(m, "air-5"),)


def test_sk3_only_lot_cards_from_the_deck_and_only_when_drawing() -> None:
    """SK-3 / C-1: a lot card must come from the deck; no scans while bidding."""
    m = four_player_game()
    scan(m, "fire-3")
    bid(m, 1, 1)
    refused(m, {"type": "scan", "card": serial(m, "fire-4"), "zone": "lot"},
            IllegalPlay, "SK-3")
    for seat in (2, 3, 4):
        pass_(m, seat)
    refused(m, {"type": "scan", "card": serial(m, "fire-3"), "zone": "lot"},
            CardNotAvailable, "C-1", "in Ana's shrine")
    refused(m, {"type": "scan", "card": serial(m, "fire-4"), "zone": "seat:1"},
            IllegalPlay, "SK-3")


# --------------------------------------------------------------------- SK-4


def test_sk4_bad_bids_are_refused_with_the_reason_and_change_nothing() -> None:
    """SK-4: below or at the standing bid, over the Oinks held, forbidden unit digit,
    after passing, out of turn: each refused with its ruling id, state and log unchanged."""
    m = four_player_game()
    scan(m, "water-6")  # Ana wins a 6
    win(m, 1)
    scan(m, "fire-1")  # cycle 2, Ben first
    bid(m, 2, 3)
    refused(m, {"type": "bid", "seat": 3, "amount": 3}, IllegalPlay, "SK-4",
            "more than the standing bid of 3")
    refused(m, {"type": "bid", "seat": 3, "amount": 2}, IllegalPlay, "SK-4")
    refused(m, {"type": "bid", "seat": 3, "amount": 11}, IllegalPlay, "SK-4",
            "cannot bid 11: that is more Fire Oinks than Cai holds")
    # SK-7 (hidden Oinks): the refusal never says how many Cai holds.
    assert "10" not in str(refused(m, {"type": "bid", "seat": 3, "amount": 11}, IllegalPlay))
    refused(m, {"type": "bid", "seat": 3, "amount": 0}, IllegalPlay, "SK-4")
    refused(m, {"type": "bid", "seat": 4, "amount": 5}, OutOfTurn, "SK-3", "Cai's turn")
    pass_(m, 3)
    refused(m, {"type": "bid", "seat": 3, "amount": 5}, IllegalPlay, "SK-3",
            "passed and is out of this auction")
    refused(m, {"type": "pass", "seat": 3}, IllegalPlay, "SK-3")
    pass_(m, 4)
    # Ana holds Water 6: 6 is a forbidden unit digit for her, 10 is fine later.
    refused(m, {"type": "bid", "seat": 1, "amount": 6}, IllegalPlay, "SK-4",
            "holds Water 6: a bid ending in 6")
    refused(m, {"type": "bid", "seat": 1, "amount": "7"}, MalformedEvent)
    refused(m, {"type": "bid", "seat": 1, "amount": True}, MalformedEvent)
    refused(m, {"type": "bid", "seat": 9, "amount": 7}, MalformedEvent)
    refused(m, {"type": "bid", "seat": 1}, MalformedEvent)
    view = RULES.view(m.state, 1)
    assert view["forbidden_units"] == [6] and view["max_bid"] == 10
    [bid_action] = [a for a in RULES.actions(m.state, 1) if a["type"] == "bid"]
    assert bid_action["fields"][0]["min"] == 4 and bid_action["fields"][0]["max"] == 10
    assert bid_action["fields"][0]["forbidden_units"] == [6]
    bid(m, 1, 7)
    assert m.state.high == 1 and m.state.standing == 7


def test_sk4_unit_zero_is_never_forbidden_and_cap_counts_the_set() -> None:
    """SK-4: unit 0 is always allowed; a set's cap is the Oinks of all its elements."""
    m = four_player_game()
    scan(m, "fire-1")
    bid(m, 1, 10)  # a zero bid: next lot is a set of two
    for seat in (2, 3, 4):
        pass_(m, seat)
    scan(m, "water-2")
    scan(m, "earth-3")
    assert RULES.view(m.state, 2)["max_bid"] == 20
    bid(m, 2, 20)
    for seat in (3, 4, 1):
        pass_(m, seat)
    # Bidding everything leaves one possible mix (SK-5). With hidden Oinks (SK-7) the
    # table still waits for Ben's one tap: paying at once would tell everyone he bid all
    # he holds (with public Oinks it is paid at once: test_shrine_hidden.py).
    assert m.state.phase == "payment"
    assert RULES.view(m.state, 2)["payment_proposal"] == {"water": 10, "earth": 10}
    m.apply({"type": "pay", "seat": 2})
    assert m.state.phase == "lot"
    assert oinks(m, 2)["water"] == 0 and oinks(m, 2)["earth"] == 0


def test_sk4_no_legal_bid_means_only_pass_is_offered() -> None:
    m = four_player_game()
    scan(m, "fire-1")
    bid(m, 1, 10)
    actions = RULES.actions(m.state, 2)
    assert [a["type"] for a in actions] == ["pass"]
    assert RULES.actions(m.state, 3) == []  # not Cai's turn


# --------------------------------------------------------------------- SK-5


def _set_won_by_ben(bid_amount: int = 12) -> Match[ShrineState]:
    m = four_player_game()
    scan(m, "fire-1")
    bid(m, 1, 10)  # SK-8: next lot is a set of two
    for seat in (2, 3, 4):
        pass_(m, seat)
    scan(m, "water-2")
    scan(m, "air-3")
    bid(m, 2, bid_amount)
    for seat in (3, 4, 1):
        pass_(m, seat)
    return m


def test_sk5_set_payment_proposal_and_explicit_mix() -> None:
    """SK-5: a set is paid in any mix of its elements; the companion proposes one."""
    m = _set_won_by_ben()
    view = RULES.view(m.state, 2)
    assert view["phase"] == "payment" and view["payment_proposal"] == {"water": 6, "air": 6}
    assert "pay 12 Oinks in any mix of Water or Air" in view["prompt"]
    # SK-7: the proposal follows Ben's hidden holdings: only his phone and the referee see it.
    assert RULES.view(m.state, 1)["payment_proposal"] is None
    assert RULES.view(m.state, None)["payment_proposal"] is None
    assert RULES.referee_view(m.state)["payment_proposal"] == {"water": 6, "air": 6}
    assert "proposed" not in m.state.ruling
    refused(m, {"type": "pay", "seat": 1}, OutOfTurn, "SK-5")
    refused(m, {"type": "pay", "seat": 2, "oinks": {"water": 2, "air": 2}}, IllegalPlay,
            "SK-5", "adds up to 4")
    refused(m, {"type": "pay", "seat": 2, "oinks": {"fire": 2, "air": 10}}, IllegalPlay,
            "SK-5", "pay in those elements")
    refused(m, {"type": "pay", "seat": 2, "oinks": {"water": 1, "air": 11}}, IllegalPlay,
            "SK-5", "cannot pay 11")
    refused(m, {"type": "pay", "seat": 2, "oinks": {"water": -1, "air": 13}}, MalformedEvent)
    refused(m, {"type": "bid", "seat": 2, "amount": 13}, IllegalPlay, "SK-3")
    m.apply({"type": "pay", "seat": 2, "water": 9, "air": 3})
    # Ben also got 3 of Ana's 10 Fire in cycle 1 (SK-6).
    assert oinks(m, 2) == {"fire": 13, "water": 1, "earth": 10, "air": 7}
    assert m.state.shrines[1] == (serial(m, "water-2"), serial(m, "air-3"))
    assert total_oinks(m.state) == [40, 40, 40, 40]


def test_sk5_accepting_the_proposal() -> None:
    """SK-5: a pay event without a mix pays the companion's proposal."""
    m = _set_won_by_ben(13)
    m.apply({"type": "pay", "seat": 2})
    assert oinks(m, 2)["water"] + oinks(m, 2)["air"] == 7
    assert {oinks(m, 2)["water"], oinks(m, 2)["air"]} == {3, 4}


def test_sk5_single_element_lot_is_paid_at_once() -> None:
    """SK-5: one element, no choice: the winning bid is paid without a pay event."""
    m = four_player_game()
    scan(m, "earth-4")
    bid(m, 1, 5)
    for seat in (2, 3, 4):
        pass_(m, seat)
    assert m.state.phase == "lot" and oinks(m, 1)["earth"] == 5


# --------------------------------------------------------------------- SK-6


def _seed_example(c_holds_two_eights: bool) -> Match[ShrineState]:
    """Ben and Cai hold an 8 (Cai maybe two); Dee wins Fire 2 with a bid of 28."""
    m = four_player_game(start_oinks=30)
    scan(m, "water-8")  # cycle 1, Ana first: Ben wins it for 1
    pass_(m, 1)
    bid(m, 2, 1)
    pass_(m, 3)
    pass_(m, 4)
    assert m.state.pool == (0, 1, 0, 0)  # 1 Water among 3: 0 each, 1 stays in the pool
    scan(m, "earth-8")  # cycle 2, Ben first: Cai wins it for 1
    pass_(m, 2)
    bid(m, 3, 1)
    pass_(m, 4)
    pass_(m, 1)
    if c_holds_two_eights:
        scan(m, "air-8")  # cycle 3, Cai first: Cai wins it for 1
        win(m, 3)
        # A bid ending in 1: nobody holds a 1, so Ana, Ben, Dee share 1 Air with the pool's
        # Water and Earth: 3 Oinks, 1 each (SK-6 rev. 2).
    assert RULES.view(m.state, None)["lot_size"] == 1
    scan(m, "fire-2")
    while m.state.turn != 4:
        pass_(m, m.state.turn)
    bid(m, 4, 28)
    while m.state.phase == "bidding":
        pass_(m, m.state.turn)
    return m


def test_sk6_seed_example_bid_28_holders_of_8s_share() -> None:
    """SK-6, seed 002 example: a bid of 28 has unit value 8; the players holding 8s share."""
    m = _seed_example(c_holds_two_eights=False)
    assert m.state.shrines[3] == (serial(m, "fire-2"),)
    assert oinks(m, 4)["fire"] == 2
    assert oinks(m, 2)["fire"] == 44 and oinks(m, 3)["fire"] == 44
    assert oinks(m, 1)["fire"] == 30  # Ana holds no 8: nothing
    # SK-6 rev. 2: 28 Fire + the pool's Water and Earth = 30, divided as a whole: 15 each,
    # handed out Fire first (most left), then Water to Ben and Earth to Cai; nothing pools.
    assert m.state.pool == (0, 0, 0, 0)
    assert oinks(m, 2)["water"] == 30 and oinks(m, 3)["earth"] == 30
    assert total_oinks(m.state) == [120, 120, 120, 120]
    last = RULES.view(m.state, None)["last_settlement"]
    assert last["bid"] == 28 and last["sharers"] == [2, 3]
    assert "Ben and Cai hold the most 8s" in m.state.ruling


def test_sk6_seed_example_more_8s_take_it_all() -> None:
    """SK-6, seed 002: a player with more cards of the unit value takes the entire amount."""
    m = _seed_example(c_holds_two_eights=True)
    assert oinks(m, 3)["fire"] == 58
    assert oinks(m, 2)["fire"] == 30 and oinks(m, 1)["fire"] == 30
    assert m.state.pool == (0, 0, 0, 0)  # the pool was shared out in cycle 3 (SK-6 rev. 2)
    assert oinks(m, 3)["water"] == 30 and oinks(m, 3)["earth"] == 29
    assert total_oinks(m.state) == [120, 120, 120, 120]
    assert "Cai holds the most 8s (2 cards): they take it all" in m.state.ruling


def test_sk6_no_holder_all_other_players_share_and_remainder_pools() -> None:
    """SK-6: nobody holds the unit value: all others share; the remainder stays pooled."""
    m = four_player_game()
    scan(m, "fire-5")
    bid(m, 1, 7)
    for seat in (2, 3, 4):
        pass_(m, seat)
    assert [oinks(m, s)["fire"] for s in (1, 2, 3, 4)] == [3, 12, 12, 12]
    assert m.state.pool == (1, 0, 0, 0)
    # Next auction: the pooled Fire Oink joins the next distribution.
    scan(m, "water-5")
    pass_(m, 2)
    pass_(m, 3)
    bid(m, 4, 2)
    pass_(m, 1)
    # SK-6 rev. 2: Ana, Ben, Cai share 2 Water and the pooled Fire as one amount of 3:
    # one each, Water first (most left) from Dee's left; nothing stays in the pool.
    assert m.state.pool == (0, 0, 0, 0)
    assert (oinks(m, 1)["water"], oinks(m, 2)["fire"], oinks(m, 3)["water"]) == (11, 13, 11)


def test_sk6_two_players_winner_pays_the_other() -> None:
    """SK-6: with two players the other player is the only recipient."""
    m = table(2)
    start(m, ["water-9", "water-7"])
    scan(m, "air-4")
    bid(m, 1, 9)
    pass_(m, 2)
    assert oinks(m, 1)["air"] == 1 and oinks(m, 2)["air"] == 19
    assert m.state.pool == (0, 0, 0, 0)


# --------------------------------------------------------------------- SK-7


def test_sk7_hidden_oinks_own_phone_and_referee_only() -> None:
    """SK-7 hidden (default): a seat sees its own Oinks; the referee sees everyone's."""
    m = four_player_game()
    assert set(RULES.view(m.state, 2)["oinks"]) == {"2"}
    assert RULES.view(m.state, None)["oinks"] == {}
    assert set(RULES.referee_view(m.state)["oinks"]) == {"1", "2", "3", "4"}
    # No other seat's holdings appear anywhere in a phone's view.
    text = json.dumps(RULES.view(m.state, 2))
    assert '"oinks_total": {"2": 40}' in text


def test_sk7_public_oinks() -> None:
    """SK-7 public: everyone sees everyone's Oinks."""
    m = four_player_game(oinks_visibility="public")
    assert set(RULES.view(m.state, 2)["oinks"]) == {"1", "2", "3", "4"}
    assert set(RULES.view(m.state, None)["oinks"]) == {"1", "2", "3", "4"}
    with pytest.raises(BadSetup):
        RULES.configure(NAMES, {"oinks_visibility": "secret"})


# --------------------------------------------------------------------- SK-8


def test_sk8_zero_bids_add_cards_to_the_next_lot_winning_or_not() -> None:
    """SK-8: every bid ending in 0 (winning or not) adds one card to the next lot."""
    m = four_player_game(start_oinks=30)
    scan(m, "fire-1")
    bid(m, 1, 10)
    bid(m, 2, 20)  # both are zero bids
    assert "one more card joins the next lot" in m.state.ruling
    bid(m, 3, 21)
    pass_(m, 4)
    pass_(m, 1)
    pass_(m, 2)
    assert m.state.lot_size == 3
    scan(m, "water-1")
    scan(m, "earth-1")
    assert m.state.phase == "lot"
    scan(m, "air-1")
    assert m.state.phase == "bidding"
    refused(m, {"type": "scan", "card": serial(m, "air-2"), "zone": "lot"}, IllegalPlay)
    # Cards of a set are won together.
    win(m, 2, 5)
    m.apply({"type": "pay", "seat": 2})
    assert len(m.state.shrines[1]) == 3
    assert "puts them in their shrine" in m.state.ruling
    assert m.state.lot_size == 1


def test_sk8_a_set_larger_than_the_deck_takes_what_is_left() -> None:
    """SK-8/SK-9 (companion decision): the last lot takes the cards the deck still has."""
    m = table(2, start_oinks=99)
    start(m, ["water-9", "water-7"])
    faces = deck_order()
    for face in faces[:-2]:
        scan(m, face)
        win(m, m.state.turn)
    assert len(m.state.deck) == 2
    scan(m, faces[-2])
    first = m.state.turn
    bid(m, first, 10)  # a zero bid: the next lot wants 2 cards, the deck has 1
    pass_(m, 3 - first)
    assert m.state.lot_size == 1 and not m.state.finished


# --------------------------------------------------------------------- SK-9, SK-10


def test_sk9_game_ends_when_the_deck_cannot_supply_a_lot() -> None:
    """SK-9: the game ends after the auction of the last card is settled."""
    m = table(2)
    start(m, ["water-9", "water-7"])
    faces = deck_order()
    for face in faces:
        assert not m.state.finished
        scan(m, face)
        for _ in range(2):
            pass_(m, m.state.turn)
    assert m.state.finished and m.state.phase == "over"
    assert m.state.winners == (1, 2)  # nothing won, same Oinks: a shared win
    refused(m, {"type": "pass", "seat": 1}, GameOver, "SK-9")
    assert RULES.actions(m.state, None) == []
    assert RULES.random_play(m.state, random.Random(1)) is None


def test_sk10_influence_groups_live_and_at_the_end() -> None:
    """SK-10: the view shows each player's best split, and highest influence wins."""
    m = table(2, start_oinks=60)
    start(m, ["water-9", "water-7"])
    ana = ["fire-1", "fire-2", "fire-3", "fire-4", "fire-5", "water-5", "earth-5"]
    order = deck_order()
    for face in order:
        scan(m, face)
        if face in ana:
            win(m, 1)
        else:
            while m.state.phase == "bidding":
                pass_(m, m.state.turn)  # nobody bids: set aside
        if face == "earth-5":
            infl = RULES.view(m.state, 2)["influence"]["1"]
            assert infl["points"] == 25 + 4  # run Fire 1-5, Water 5 + Earth 5
            kinds = sorted((g["kind"], g["points"]) for g in infl["groups"])
            assert kinds == [("run", 25), ("same", 4)]
    assert m.state.finished and m.state.winners == (1,)
    assert "Ana wins with 29 influence" in m.state.ruling
    # C-8: players read plain words; the ruling id sits beside them (the referee keeps it).
    assert RULES.view(m.state, None)["prompt"] == "Game over: Ana wins."
    assert RULES.view(m.state, None)["prompt_rule"] == "SK-10"
    assert RULES.referee_view(m.state)["prompt"] == "Game over: Ana wins (SK-10)."
    final = RULES.view(m.state, 2)["final"]
    assert final[0]["influence"] == 29 and final[1]["influence"] == 0


def test_sk10_tie_on_influence_most_oinks_wins() -> None:
    """SK-10: equal influence: the player with more Oinks in total wins."""
    m = table(2)
    start(m, ["water-9", "water-7"])
    order = deck_order()
    for i, face in enumerate(order):
        scan(m, face)
        if i == 0:
            win(m, m.state.turn, 1)
        elif i == 1:
            win(m, m.state.turn, 3)
        else:
            while m.state.phase == "bidding":
                pass_(m, m.state.turn)
    # Ana won Fire 1 for 1 and Ben Fire 2 for 3: 1 influence each, Ana has more Oinks.
    assert m.state.finished and m.state.winners == (1,)
    assert "has the most Oinks" in m.state.ruling


# --------------------------------------------------------------------- C-1, views, events


def test_c1_cards_not_in_the_deck_are_refused_and_the_referee_can_override() -> None:
    """C-1: a known card from elsewhere is refused; an explicit override takes it."""
    m = four_player_game()
    scan(m, "fire-3")
    win(m, 1)
    refused(m, {"type": "scan", "card": serial(m, "fire-3"), "zone": "lot"},
            CardNotAvailable, "C-1")
    refused(m, {"type": "scan", "card": "ZZZZ-99", "zone": "lot"}, UnknownCard)
    refused(m, {"type": "scan", "card": serial(m, "fire-3"), "zone": "lot", "override": 1},
            MalformedEvent)
    m.apply({"type": "scan", "card": serial(m, "fire-3"), "zone": "lot", "override": True})
    assert m.state.shrines[0] == () and m.state.lot == (serial(m, "fire-3"),)
    assert "referee override" in m.state.ruling


def test_malformed_and_unknown_events() -> None:
    m = four_player_game()
    refused(m, {"type": "draw"}, MalformedEvent)
    refused(m, {"seat": 1}, MalformedEvent)
    refused(m, {"type": "pay", "seat": 1}, IllegalPlay, "SK-5")


def test_views_are_json_and_carry_prompt_and_ruling() -> None:
    m = four_player_game()
    scan(m, "fire-3")
    for v in (RULES.view(m.state, None), RULES.view(m.state, 3), RULES.referee_view(m.state)):
        json.dumps(v)
        assert v["ruling"] and v["prompt"]
        assert v["lot"][0]["name"] == "Fire 3" and v["turn"] == 1
    assert "Ana: bid at least 1 Fire Oink for" in RULES.view(m.state, None)["prompt"]
    places = RULES.referee_view(m.state)["places"]
    assert places[serial(m, "fire-3")] == "lot"
    assert len(RULES.referee_view(m.state)["deck"]) == 35
    kinds = [a["type"] for a in RULES.actions(m.state, None)]
    assert kinds == ["bid", "pass"]


def test_stats_count_bids_passes_and_auctions() -> None:
    m = four_player_game()
    scan(m, "fire-3")
    bid(m, 1, 1)
    for seat in (2, 3, 4):
        pass_(m, seat)
    stats = RULES.stats(m.state)
    assert stats["bids"] == 1 and stats["passes"] == 3 and stats["auctions"] == 1
    assert stats["adjudications"] == 5


def test_cli_simulate_four_players() -> None:
    """``companion simulate shrine --players 4 --games 20 --seed 1`` finishes every game."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = companion_cli.main(["simulate", "shrine", "--players", "4", "--games", "20",
                                   "--seed", "1"])
    assert code == 0
    summary = json.loads(out.getvalue())
    assert summary["unfinished"] == 0 and summary["games"] == 20
    assert sum(summary["wins_per_seat"].values()) == pytest.approx(20)
    assert summary["mean_per_game"]["cards_won"] + summary["mean_per_game"][
        "lots_set_aside"] > 0
