"""Shrine, rulings revision 3 (issue 28; issue 27 points 6 and 13): SK-3's opener, what
SK-7's hidden Oinks leave an attentive player to deduce, and the refusals' words."""

from __future__ import annotations

import random
import re
from itertools import pairwise

import pytest
from test_shrine import serial, start, table

from companion.errors import CompanionError
from companion.games.shrine import RULES
from companion.registry import new_match
from companion.words import faults, plain


def test_sk3_rev3_the_opener_rotates_clockwise_cycle_after_cycle() -> None:
    """SK-3 rev. 3: the seed says only "At the beginning of a cycle of turns (from player
    back to the same player)"; the next cycle opens with the next player clockwise."""
    for players, seed in ((2, 1), (4, 2), (5, 3)):
        rng = random.Random(seed)
        m = new_match("shrine", [f"P{i}" for i in range(1, players + 1)], rng=rng)
        openers: list[int] = []
        while not m.state.finished:
            event = RULES.random_play(m.state, rng)
            assert event is not None
            m.apply(event)
            s = m.state
            if s.phase == "lot" and (not openers or s.cycle > len(openers)):
                openers.append(s.cycle_first)
        assert len(openers) >= 3
        assert openers[0] == m.state.starter
        for a, b in pairwise(openers):
            assert b == a % players + 1, openers


def test_sk7_rev3_every_players_total_is_what_the_table_announces_and_no_more() -> None:
    """SK-7 rev. 3: the companion shows another player's Oinks on no page; what the table
    announces aloud (bids paid, shares taken) lets an attentive player keep each player's
    total, as at a real table, and the rules page says so. The views carry no holding nor
    total of another seat during play."""
    rng = random.Random(7)
    m = new_match("shrine", ["Ana", "Ben", "Cai", "Dee"], {"oinks_visibility": "hidden"},
                  rng=rng)
    s = m.state
    start_total = s.start_oinks * len(s.elements)
    books = dict.fromkeys(s.seats, start_total)  # Dee at the table, remembering everything
    wins = 0
    while True:
        event = RULES.random_play(m.state, rng)
        if event is None:
            break
        m.apply(event)
        s = m.state
        if s.finished:
            break
        for viewer in (None, 1, 2, 3, 4):
            v = RULES.view(s, viewer)
            seen = {int(x) for x in v["oinks"]} | {int(x) for x in v["oinks_total"]}
            assert seen <= ({viewer} if viewer else set()), (viewer, seen)
        last = RULES.last_play(s, 4)
        if last and last["outcome"] == "win":
            wins += 1
            f = RULES.view(s, 4)["last_settlement"]
            said = re.search(r", (\d+) each\.", last["text"]) or \
                re.search(r"the (\d+) Oinks?", last["text"])  # one sharer takes it all
            assert said is not None, last["text"]
            books[int(f["winner"])] -= int(f["bid"])
            for who in f["sharers"]:
                books[int(who)] += int(said.group(1))
        for x in s.seats:  # the total is deducible...
            assert books[x] == sum(s.oinks[x - 1]), (x, books, s.oinks)
    assert wins >= 3


def test_sk3_a_lot_card_shown_elsewhere_is_refused_in_plain_words() -> None:
    """Issue 27 point 13: "shown in the the lot zone"."""
    m = table(3)
    start(m, ("fire-9", "water-3", "earth-6"))
    faces = {f.id: f.name for f in m.setup.cards.values()}
    serials = {c: f.name for c, f in m.setup.cards.items()}
    for event in ({"type": "scan", "card": serial(m, "air-4"), "zone": "seat:1"},
                  {"type": "scan", "card": serial(m, "air-4"), "zone": "seat:2", "seat": 1}):
        before = m.state
        with pytest.raises(CompanionError) as err:
            m.apply(event)
        assert m.state is before
        said = plain(err.value.plain, m.setup.players, faces, serials)
        assert not faults(said), said
        assert "the the" not in said and "zone" not in said, said
