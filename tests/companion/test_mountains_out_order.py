"""Mountains & Rivers: the order players went out is part of the state and the public view
(issue 20 §5, MR-10), so the end ranks the others by it, the latest out first."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Match
from companion.games.mountains import RULES, MountainsState
from companion.simulate import play_random
from web.records import standings


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
@settings(max_examples=8, deadline=None)
def test_out_order_lists_the_seats_in_the_order_they_went_out(seed: int,
                                                               players: int) -> None:
    """Replayed event by event, every seat that goes out (MR-10) is appended to
    ``out_order`` at that event (several in one event in seat order), never removed; the
    public view of every viewer carries it; replay is exact."""
    played = play_random("mountains", players, random.Random(seed))
    m: Match[MountainsState] = played.match
    replay: Match[MountainsState] = Match(m.rules, m.setup)
    seen: list[int] = []
    for event in m.events:
        before = {p.seat for p in replay.state.players if p.alive}
        replay.apply(event)
        now = {p.seat for p in replay.state.players if p.alive}
        seen.extend(sorted(before - now))
        assert list(replay.state.out_order) == seen
        for who in (None, *range(1, players + 1)):
            assert RULES.view(replay.state, who)["out_order"] == seen
    assert replay.state == m.state
    if m.state.finished:
        assert set(seen) | set(m.state.winners) == set(range(1, players + 1))


def test_standings_rank_the_latest_out_second() -> None:
    """Issue 20 §5: the winner first, then the last one out, then the one before."""
    view = {"players": [{"name": n, "alive": n == "Cy", "hp": 3 if n == "Cy" else 0}
                        for n in ("Ana", "Bo", "Cy", "Di")],
            "out_order": [2, 4, 1]}
    rows = standings("mountains", view, [3], ["Ana", "Bo", "Cy", "Di"])
    assert [r["name"] for r in rows] == ["Cy", "Ana", "Di", "Bo"]
    assert [r["figure"] for r in rows] == ["3 HP", "out", "out", "out"]
    assert rows[0]["won"] and not any(r["won"] for r in rows[1:])
