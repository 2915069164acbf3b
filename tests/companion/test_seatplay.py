"""Players see only their seat (issue 30 §1): the simulated table of ``companion.seatplay``
deals hands once and keeps them, lists every legal move of a seat from what it holds, and
lets a player's look-ahead imagine only tables it cannot tell from the real one."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import seatplay
from companion.playtest import Playtest, casual_move, greedy_move, play
from companion.seatplay import Table

# (game, players) for every game at its smallest and a larger table.
TABLES = [("wuxing", 2), ("wuxing", 4), ("godnum", 2), ("godnum", 4), ("shrine", 2),
          ("shrine", 4), ("gemcomplete", 2), ("mountains", 2), ("mountains", 4)]
# Tables where a seat's decision has nothing hidden to imagine: WuXing (no decisions),
# two-seat Shrine (the other seat's Oinks are the table's totals less one's own, SK-6) and
# Mountains & Rivers (every card is face up once drawn).
OPEN = {("wuxing", 2), ("wuxing", 4), ("shrine", 2), ("mountains", 2), ("mountains", 4)}
# Events whose cards come from the sender's hand (Mountains: its weapons; a decided
# ``scan``: a card an effect took from the hand, chosen by its owner, Gem Complete).
HAND_PLAYS = {"play", "set", "discard", "scan", "attack"}


def _pt(game: str, players: int) -> Playtest:
    return Playtest.of(game, players)


def walk(pt: Playtest, seed: int, limit: int = 3000
         ) -> Iterator[tuple[Table, dict[str, object]]]:
    """Each table of one random game with the event played on it (uniform moves); a
    seat's decision carries ``"decided": seat`` beside the event (``_play`` drops it)."""
    rng = random.Random(seed)
    table = seatplay.deal(pt, rng)
    for _ in range(limit):
        if table.finished:
            return
        event = seatplay.chance(table, rng)
        if event is None:
            seat = seatplay.to_move(table)
            assert seat is not None, "neither chance nor a seat is next, yet not finished"
            options = seatplay.moves(table, seat)
            assert options, f"seat {seat} is to move and has no move"
            event = {**options[rng.randrange(len(options))], "decided": seat}
        yield table, dict(event)
        table = seatplay.apply(table, _play(event))


def _play(event: object) -> dict[str, object]:
    assert isinstance(event, dict)
    return {k: v for k, v in event.items() if k != "decided"}


def _cards(event: object) -> set[str]:
    assert isinstance(event, dict)
    out = {event["card"]} if isinstance(event.get("card"), str) else set()
    out |= {str(s["card"]) for s in event.get("strikes", [])}  # Mountains' weapons
    return out | {c for c in event.get("cards", []) if isinstance(c, str)}


def holds(table: Table, seat: int) -> frozenset[str]:
    """What ``seat`` holds: its hand (Mountains: its weapons, face up in front of it)."""
    if table.setup.game == "mountains":
        return frozenset(table.state.player(seat).weapons)
    return table.hand(seat)


def held(table: Table, seat: int) -> frozenset[str]:
    """The cards the engine allows ``seat`` to hold (hand or deck) now."""
    if table.setup.game == "godnum":
        from companion.games.godnum.seatplay import holdable
        return holdable(table, seat)
    if table.setup.game == "gemcomplete":
        from companion.games.gemcomplete.seatplay import holdable as gem_holdable
        return gem_holdable(table, seat)
    return frozenset()


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_seat_cannot_tell_a_resampled_table_and_decides_the_same(game: str,
                                                                   players: int) -> None:
    pt = _pt(game, players)
    decided = differed = remembered = 0
    for seed in range(3):
        for table, _ in walk(pt, seed):
            seat = seatplay.to_move(table)
            if seat is None:
                continue
            other = seatplay.resample(table, seat, random.Random(decided))
            assert seatplay.observation(other, seat) == seatplay.observation(table, seat)
            options = seatplay.moves(table, seat)
            assert seatplay.moves(other, seat) == options  # so the random player's pick too
            greedy = greedy_move(pt, table, seat, options, random.Random(7))
            assert greedy_move(pt, other, seat, seatplay.moves(other, seat),
                           random.Random(7)) == greedy
            casual = casual_move(pt, table, seat, options, random.Random(7))
            assert casual in options  # a move of its own cards
            assert casual_move(pt, other, seat, seatplay.moves(other, seat),
                           random.Random(7)) == casual
            if game == "gemcomplete":  # what it saw taken back into the other hand stays
                known = table.secret[3][seat - 1]
                assert known <= other.hand(3 - seat)
                remembered += bool(known)
            differed += any(seatplay.observation(other, s) != seatplay.observation(table, s)
                            for s in range(1, players + 1) if s != seat)
            decided += 1
    if game == "gemcomplete":
        assert remembered  # the check above saw a card taken back into a hand
    if (game, players) not in OPEN:
        assert decided > 10 and differed > decided // 2  # what the others see was redrawn


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_player_plays_only_cards_it_holds_and_keeps_its_hand(game: str,
                                                               players: int) -> None:
    pt = _pt(game, players)
    for seed in range(4):
        for table, event in walk(pt, 100 + seed):
            after = seatplay.apply(table, _play(event))
            seat = event.get("seat")
            if "decided" in event and event["type"] in HAND_PLAYS:
                assert isinstance(seat, int)
                assert _cards(event) <= holds(table, seat), f"{event} not from {holds(table, seat)}"
            for s in range(1, players + 1):
                gone = table.hand(s) - after.hand(s)
                # A card leaves a hand only when its seat plays or discards it, or the seat
                # is out of the game.
                out = after.state.legion(s).eliminated if game == "godnum" else False
                assert out or gone <= (_cards(event) if seat == s else set()), (event, gone)
                assert after.hand(s) <= held(after, s)  # the engine agrees it may be held


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_chance_outcomes_sum_to_one_and_each_applies(game: str, players: int) -> None:
    pt = _pt(game, players)
    seen = 0
    for table, _ in walk(pt, 7):
        outcomes = seatplay.chance_outcomes(table)
        if outcomes is None:
            assert seatplay.to_move(table) is not None
            continue
        assert seatplay.to_move(table) is None
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        assert all(p > 0 for _, p in outcomes)
        if seen % 5 == 0:
            for event, _ in outcomes:
                seatplay.apply(table, event)  # raises if the engine refuses one
        seen += 1
    assert seen > 5


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_every_card_is_in_exactly_one_place(game: str, players: int) -> None:
    pt = _pt(game, players)
    for table, _ in walk(pt, 11):
        places = table.rules.places(table.state)
        assert set(places) <= set(table.setup.cards)
        hands = [table.hand(s) for s in range(1, players + 1)]
        assert sum(len(h) for h in hands) == len(frozenset().union(*hands))  # disjoint
        for s, hand in enumerate(hands, 1):
            assert hand <= held(table, s)
            assert table.seats.owed(table, s) >= 0  # never more cards than the engine counts
            if game == "gemcomplete":  # a held card is among the seat's unseen ones (GC-2)
                assert all(places.get(c, "unknown") in ("unknown", f"unknown:{s}")
                           for c in hand)
            if game == "godnum":
                lg = table.state.legion(s)
                assert len(hand) <= lg.hand_count
                if lg.bound or table.secret[s - 1] is not None:  # its legion is taken
                    assert lg.hand_count + lg.deck_count == len(held(table, s))
                assert all(places.get(c, "unknown") in ("unknown", f"unknown:{s}")
                           for c in hand)


@settings(max_examples=8, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6))
def test_random_games_finish_and_replay_from_the_seed(table: tuple[str, int],
                                                      seed: int) -> None:
    pt = _pt(*table)
    one = play(pt, seed, 0, greedy=(1,))
    assert one.finished
    assert repr(play(pt, seed, 0, greedy=(1,))) == repr(one)


def test_returns_share_the_win_and_sum_to_zero() -> None:
    pt = _pt("godnum", 3)
    rng = random.Random(1)
    table = seatplay.deal(pt, rng)
    assert seatplay.returns(table) == (0.0, 0.0, 0.0)
    while not table.finished:
        event = seatplay.chance(table, rng)
        if event is None:
            seat = seatplay.to_move(table)
            assert seat is not None
            event = seatplay.moves(table, seat)[0]
        table = seatplay.apply(table, event)
    r = seatplay.returns(table)
    assert math.isclose(sum(r), 0.0, abs_tol=1e-12)
    assert max(r) == pytest.approx(2 / 3) and min(r) == pytest.approx(-1 / 3)


def test_greedy_games_are_the_same_on_one_or_two_processes() -> None:
    """The greedy player imagines its tables from the game's own seed: a report's
    "decisions matter" games do not depend on how many processes played them."""
    from report.run import CHUNK, simulate

    one = simulate("godnum", 3, {}, 3, CHUNK + 10, "rotate", workers=1)
    two = simulate("godnum", 3, {}, 3, CHUNK + 10, "rotate", workers=2)
    assert one == two
    assert {g.greedy for g in one} == {(1,), (2,), (3,)}


@pytest.mark.parametrize("game", ["godnum", "gemcomplete"])
def test_a_card_from_the_deck_not_the_hand_is_refused(game: str) -> None:
    """The engine cannot tell a hand from a deck (it counts them): the table can."""
    from companion.errors import IllegalPlay

    pt = _pt(game, 2)
    for table, _ in walk(pt, 3):
        seat = seatplay.to_move(table)
        if seat is None:
            continue
        plays = [e for e in seatplay.moves(table, seat) if e["type"] in ("play", "set")]
        deck = sorted(held(table, seat) - table.hand(seat))
        if plays and deck:
            wrong = {**plays[0], "card": deck[0]}
            try:
                table.rules.apply(table.state, wrong)
            except Exception:
                continue  # the engine refuses it itself (not playable now)
            with pytest.raises(IllegalPlay):
                seatplay.apply(table, wrong)
            return
    pytest.fail("no table offered a card of the deck to try")
