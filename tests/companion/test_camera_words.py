"""The camera words check (C-6 rev. 3, issue 26): a player who does exactly what the screen
says never leaves the camera blind.

Random games of every game, read by every seat and the big screen: no prompt, button label,
ruling, latest play (its physical steps and undo lines) or retold play tells a player to move
a card nobody has seen yet (a top card, a card from a hand) into the pot, the Void, a pile
or anywhere off the mat without first showing it in their place, unless the camera
referees it where it goes (``companion.protocol``). The protocol's zones are the engines'.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine import Match
from companion.protocol import PROTOCOLS, blind_moves, markdown
from companion.registry import GAMES, find_rules
from companion.simulate import play_random
from tests.companion.test_words_check import texts

# The words for players in a view, as the words check reads them (one walk, one key list).

# What the issue found and the words before revision 3 said: each must be caught.
OLD = [
    ("wuxing", "Universe Star: Ana and Bo, put your top card into the Void."),
    ("wuxing", "Universe Dragon: Ana, Bo and Cy, put your top card face up into the pot."),
    ("wuxing", "Ana: Your top card into the Void"),
    ("wuxing", "Universe Dragon: it goes to the Void, and everyone still in (Ana, Bo) puts "
               "their top card face up into the pot."),
    ("godnum", "Ana: play one card or discard one or more."),
    ("godnum", "Ben: discard one card of your choice (Burden)."),
    ("gemcomplete", "Ana: put the top 3 cards of your deck face up on your discard pile."),
    ("gemcomplete", "Ana: put 2 cards from your hand face up on your discard pile."),
]
NEW = [
    ("wuxing", "Universe Star: Ana and Bo, show your top card in your place, then put it into "
               "the Void."),
    ("wuxing", "Ana: Show your top card, then into the pot"),
    ("wuxing", "Next: Ana v Bo; Ana, lay the top Universe card on the pot."),
    ("godnum", "Ana: play one card (lay it face up on the pot), or discard one or more (lay "
               "them face up in the Void)."),
    ("shrine", "Draw 2 more lot cards from the deck and lay each face up in the lot."),
    ("gemcomplete", "Ana: put the card face down at the end of your Locus."),
]


@pytest.mark.parametrize(("game", "text"), OLD)
def test_the_check_finds_the_old_words(game: str, text: str) -> None:
    assert blind_moves(text, game), text


@pytest.mark.parametrize(("game", "text"), NEW)
def test_the_check_passes_words_that_show_first(game: str, text: str) -> None:
    assert not blind_moves(text, game), blind_moves(text, game)


def test_every_game_has_a_protocol_whose_zones_are_the_engines() -> None:
    assert set(PROTOCOLS) == set(GAMES)
    for game, p in PROTOCOLS.items():
        assert set(p.zones) == set(find_rules(game).zones), game
    assert "void" in PROTOCOLS["wuxing"].zones  # C-9: the Void is on the mat
    assert "discard:<n>" in PROTOCOLS["gemcomplete"].zones


def test_docs_print_the_protocol_of_every_game() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "camera.md").read_text()
    section = doc.split("## The protocol per game", 1)[1].split("\n## ", 1)[0]
    for game in PROTOCOLS:
        assert markdown(game) in section, game


CASES = [(g, n) for g in GAMES for n in sorted({find_rules(g).min_players,
                                                find_rules(g).max_players})]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_no_word_a_player_reads_leaves_the_camera_blind(game: str, players: int) -> None:
    found: dict[str, str] = {}
    read = 0
    for seed in range(3):
        out = play_random(game, players, random.Random(seed))
        rules = out.match.rules
        m = Match(rules, out.match.setup)
        for event in out.match.events:
            m.apply(event)
            said: list[str] = []
            for seat in [None, *range(1, players + 1)]:
                said += texts(rules.view(m.state, seat))
                said += texts(rules.actions(m.state, seat))
                said += texts(rules.last_play(m.state, seat))
                told = rules.retell(m.state, m.plays[-1], seat)
                said += [told] if told else []
            read += len(said)
            for text in said:
                for fault in blind_moves(text, game):
                    found.setdefault(fault, f"after event {m.version}")
    assert read > 0
    assert not found, sorted(found.items())[:8]
