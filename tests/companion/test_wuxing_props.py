"""WuXing over random legal games: C-1 conservation, C-3 replay and undo, termination
(WX-10 both options), 2-8 players, and the ``companion simulate`` command."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import companion_cli
from bench.engine import bench_engine
from companion.engine import Match
from companion.errors import CardNotAvailable
from companion.games.wuxing import RULES
from companion.registry import new_match
from companion.simulate import play_random

# Recycle games (WX-10 b) could in principle go on for ever; in practice every one measured
# ends well inside this cap (the longest seen: ~700 events with 8 players).
CAP = 5_000


def check_invariants(m: Match[Any]) -> None:
    """C-1/C-2: every printed card is in exactly one place, and every count agrees."""
    s = m.state
    places = s.places
    assert set(places) == set(m.setup.cards)
    c = Counter(places.values())
    seats = range(1, len(s.decks) + 1)
    assert c["unknown"] == sum(s.unseen) + s.set_aside
    for seat in seats:
        assert 0 <= s.unseen[seat - 1] <= s.decks[seat - 1]
        assert s.decks[seat - 1] == s.unseen[seat - 1] + c[f"deck:{seat}"]
        if seat in s.out:
            assert s.decks[seat - 1] == 0
    assert c["void"] == s.void
    assert c["universe"] == s.universe_left
    assert c["pot"] == len(s.pot) == len(set(s.pot))
    assert all(places[x] == "pot" for x in s.pot)
    on_table = {x for x, p in places.items() if p.startswith("table:")}
    assert on_table == {x for _, x in s.revealed} | {x for _, x in s.duel_cards}
    players = 2 if len(s.decks) > 4 else 1
    assert sum(v for k, v in c.items() if k != "out") == 44 * players + 24
    if s.universe_card is not None:
        assert s.pot[-1] == s.universe_card


def _next_in(seat: int, out: frozenset[int], players: int, inclusive: bool = False) -> int:
    s = seat if inclusive else seat % players + 1
    while s in out:
        s = s % players + 1
    return s


def check_views(m: Match[Any]) -> None:
    s = m.state
    public = RULES.view(s, None)
    json.dumps(public)
    for key in ("pot", "void", "decks", "universe_left", "challenge", "out", "winner",
                "winners", "prompt", "ruling", "players"):
        assert key in public
    assert "places" not in public and "your_known_cards" not in public
    mine = RULES.view(s, 1)
    assert sorted(mine["your_known_cards"]) == sorted(
        m.setup.cards[x].id for x, p in s.places.items() if p == "deck:1")
    json.dumps(RULES.referee_view(s))
    for a in RULES.actions(s, None):
        for f in a["fields"]:
            if f["kind"] == "card":
                assert f["zone"] == "universe" or f["zone"].startswith("seat:")


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8),
       end=st.sampled_from(["count", "recycle"]), start=st.sampled_from(["rps", "dragon"]))
@settings(max_examples=30, deadline=None)
def test_random_games_conserve_cards_replay_and_terminate(seed: int, players: int, end: str,
                                                          start: str) -> None:
    """C-1, C-3, WX-3, WX-10: conservation after every event; the game ends; replay of the
    log gives the same state; undo after an apply restores the state before it."""
    rng = random.Random(seed)
    m = new_match("wuxing", [f"P{i}" for i in range(1, players + 1)],
                  {"end": end, "start": start}, rng=rng)
    check_invariants(m)
    undo_at = set(rng.sample(range(60), 3))
    for step in range(CAP):
        if m.state.finished:
            break
        event = RULES.random_play(m.state, rng)
        assert event is not None
        before = m.state
        m.apply(event)
        check_invariants(m)
        after = m.state
        if (after.adjudications > before.adjudications and after.phase == "universe"
                and before.phase == "reveal"):
            # WX-3: the second challenger starts the next challenge, or the next player
            # still in after them; their opponent is the next player still in.
            expected = _next_in(before.challenge[1], after.out, players, inclusive=True)
            assert after.challenge == (expected, _next_in(expected, after.out, players))
        if step in undo_at:
            check_views(m)
            m.undo()
            assert m.state == before
            m.apply(event)
        if m.state.challenge:
            assert not set(m.state.challenge) & m.state.out  # WX-3: players out are skipped
    assert m.state.finished, f"no end after {CAP} events"
    assert RULES.random_play(m.state, rng) is None
    assert m.state.winners and set(m.state.winners) <= set(range(1, players + 1))
    assert m.replay() == m.state
    check_views(m)


@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 8]))
@settings(max_examples=10, deadline=None)
def test_count_games_end_when_the_universe_deck_is_empty(seed: int, players: int) -> None:
    """WX-10 (a): with 'count' a game ends once the Universe deck cannot supply a card
    (unless only one player has cards left first); the winner has the most cards."""
    out = play_random("wuxing", players, random.Random(seed), {"end": "count"})
    s = out.match.state
    assert out.finished
    active = [p for p in range(1, players + 1) if p not in s.out]
    if len(active) > 1:
        # A count tie went to the sudden death, which turned the Void over (WX-11 rev. 2).
        assert s.universe_left == 0 or s.tiebreaks
        best = max(s.decks)
        assert all(s.decks[w - 1] == best for w in s.winners)


def test_recycle_simulation_terminates_within_the_event_cap() -> None:
    """WX-10 (b): 'recycle' simulations end (a last player with cards, or an empty Void)."""
    rng = random.Random(11)
    recycled = 0
    for players in (2, 3, 5, 8):
        for _ in range(5):
            out = play_random("wuxing", players, rng, {"end": "recycle"}, max_events=CAP)
            assert out.finished
            recycled += out.match.state.recycles
    assert recycled > 0  # the Void did become the Universe deck in some of them


def _simulate(capsys: Any) -> dict[str, Any]:
    code = companion_cli.main(["simulate", "wuxing", "--players", "3", "--games", "20",
                               "--seed", "1"])
    assert code == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_cli_simulate_is_reproducible(capsys: Any) -> None:
    """``companion simulate wuxing --players 3 --games 20 --seed 1``: JSON with wins per
    seat, mean challenges per game, games per second; the same seed gives the same figures."""
    first = _simulate(capsys)
    second = _simulate(capsys)
    assert set(first["wins_per_seat"]) == {"1", "2", "3"}
    assert sum(first["wins_per_seat"].values()) == 20 - first["unfinished"]
    assert first["unfinished"] == 0
    assert first["mean_per_game"]["challenges"] >= first["mean_per_game"]["adjudications"] > 10
    assert first["games_per_second"] > 0
    first.pop("games_per_second")
    second.pop("games_per_second")
    assert first == second


def test_bench_engine_counts_adjudications() -> None:
    """``bench engine`` replays recorded games through ``Match.apply``; every challenge
    resolved is one adjudication (the figure itself is printed, not asserted)."""
    result = bench_engine("wuxing", 4, 3, 7)
    assert result["adjudications"] >= 3 * 10
    assert result["events"] > result["adjudications"]


def _legal(state: Any, serial: str, zone: str) -> bool:
    """The C-1 model: where a card shown in ``zone`` may come from right now."""
    place = state.places[serial]
    if zone == "universe" or state.phase == "tiebreak":  # WX-11 rev. 2: Universe cards
        return bool(place == "universe")
    seat = int(zone[5:])
    # WX-8: won cards lie under the unseen ones, so the top card is unseen while any is left
    return bool(place == ("unknown" if state.unseen[seat - 1] else f"deck:{seat}"))


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8))
@settings(max_examples=15, deadline=None)
def test_every_card_is_accepted_exactly_where_it_can_be(seed: int, players: int) -> None:
    """C-1 across random games: at random moments, every printed card is tried in the zone
    the table waits for; it is accepted exactly when it can come from there, and otherwise
    refused with ``CardNotAvailable`` naming the card."""
    rng = random.Random(seed)
    m = new_match("wuxing", [f"P{i}" for i in range(1, players + 1)], None, rng=rng)
    serials = sorted(m.setup.cards)
    while not m.state.finished:
        s = m.state
        if s.phase in ("universe", "reveal", "dragon", "star", "tiebreak") and rng.random() < 0.1:
            zone = "universe" if s.phase == "universe" else f"seat:{s.awaiting[0]}"
            for serial in rng.sample(serials, 12):
                event = {"type": "scan", "card": serial, "zone": zone}
                if _legal(s, serial, zone):
                    RULES.apply(s, event)  # accepted (the state itself is immutable)
                else:
                    try:
                        RULES.apply(s, event)
                    except CardNotAvailable as exc:
                        assert repr(serial) in str(exc)
                    else:
                        raise AssertionError(f"{serial} at {s.places[serial]} accepted in "
                                             f"{zone}")
            assert m.state is s
        m.apply(RULES.random_play(s, rng))
    assert m.replay() == m.state
