"""The words check (issue 18 §7, C-8): random games of every game, read by every viewer
(the referee reads ruling ids, zones and serials, but the same plain words otherwise).

Everything a seat or the big screen reads (the ruling, the prompt, the latest play with its
physical steps and undo lines, every earlier play as told now, action labels, hints, reasons
and refusals) is free of raw serials, zone ids and ruling ids, of doubled words and
brackets, and its numbers agree with their nouns ("1 step", "3 Oinks", never "1 steps").
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from companion.engine import Match
from companion.errors import CompanionError
from companion.registry import GAMES, find_rules
from companion.simulate import play_random
from companion.words import faults, plain

# View keys whose texts are words for players (the others are data: ids, colours, zones).
WORDS = {"label", "text", "why", "prompt", "ruling", "undo", "from_words", "to_words",
         "physical", "disabled", "effect", "effects", "hint", "confirm", "reason",
         "last_adjudication", "pending", "legion_name", "deck_name", "character_name"}


def texts(value: Any, key: str | None = None) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from texts(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from texts(v, key)
    elif isinstance(value, str) and key in WORDS:
        yield value


def test_the_check_finds_what_the_issue_found() -> None:
    for bad in ["exactly 1 steps", "in in front of Ana", "the top 1 card of Ben's deck go",
                "1 Oinks", "bid at least 1 Water Oinks", "a bid ending in 8 (8)",
                "Take Fire 8 back from the lot and put it back: the deck.",
                "refused ((WX-7))", "(Water 3 '2JIC-00B' to 'lot')", "Ana's seat:1"]:
        assert faults(bad), bad
    # Issue 27 point 13: each kind the check must find from now on.
    for bad in ["the lot's cards are shown in the the lot zone",
                "card 'Amethyst' (Amethyst) belongs to Bo's deck",
                "[Tremor]: Bo's deck holds only 2 cards", "['Tremor', 'Ruby'] refused",
                "'next' waits: Ana draws 1 card",
                "Ana attacks: Ember Whip hits Ben for 1 (Ben loses 2 HP (+1 sharpened))"]:
        assert faults(bad), bad
    for good in ["exactly 1 step", "1 Oink", "3 Water Oinks", "Ana wins 3 cards.",
                 "Take Fire 8 back from the lot and put it back on the deck.",
                 "Ana's card (Ruby) is set; Bo's cards' backs are shown (2 left)",
                 "Ana attacks: Ember Whip hits Ben for 1; Ben loses 2 HP, 1 more for the "
                 "sharpen tile"]:
        assert not faults(good), faults(good)


CASES = [(g, n) for g in GAMES for n in sorted({find_rules(g).min_players,
                                                find_rules(g).max_players})]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_word_a_player_reads_is_plain(game: str, players: int) -> None:
    found: dict[str, tuple[int, str]] = {}
    for seed in range(2):
        rng = random.Random(seed)
        out = play_random(game, players, rng)
        rules = out.match.rules
        m = Match(rules, out.match.setup)
        faces = {f.id: f.name for f in m.setup.cards.values()}
        serials = {s: f.name for s, f in m.setup.cards.items()}
        for event in out.match.events:
            m.apply(event)
            viewers = [None, *range(1, players + 1)]
            said: list[str] = []
            for seat in viewers:
                said += texts(rules.view(m.state, seat))
                said += texts(rules.actions(m.state, seat))
                said += texts(rules.last_play(m.state, seat))
                told = rules.retell(m.state, m.plays[-1], seat)
                said += [told] if told else []
            nxt = rules.random_play(m.state, rng)
            for seat in range(1, players + 1):  # the next play, sent by every seat
                if nxt is None:
                    break
                try:
                    rules.apply(m.state, {**nxt, "seat": seat})
                except CompanionError as exc:  # as the web words it for the seat
                    said.append(plain(exc.plain, m.setup.players, faces, serials))
            # The referee reads ruling ids, zones and serials (C-8), but plain words too.
            referee = [*texts(rules.referee_view(m.state)), *texts(rules.actions(m.state, None)),
                       *texts(rules.last_play(m.state, 0)), m.rulings[-1]]
            for text, ids in [*((t, False) for t in said), *((t, True) for t in referee)]:
                for fault in faults(text):
                    if ids and fault.startswith(("a ruling id", "a zone id", "a raw serial")):
                        continue
                    found.setdefault(fault.split(":")[0] + text[:30], (m.version, fault))
    assert not found, sorted(found.values())[:12]
