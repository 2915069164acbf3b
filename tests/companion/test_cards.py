"""Deck data files (C-5): one per game, the default compositions of RULINGS.md."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.cards import parse_deck
from companion.errors import UnknownCard, UnknownGame
from companion.registry import GAMES, find_rules


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_has_a_valid_deck_file(game: str) -> None:
    from companion.cards import load_deck

    deck = load_deck(game)
    assert deck.game == game
    assert deck.faces and all(f.count >= 0 and f.name for f in deck.faces)
    assert find_rules(game).title


def test_game_codes_differ() -> None:
    from companion.cards import load_deck

    codes = [load_deck(g).code for g in GAMES]
    assert len(set(codes)) == len(codes)


def test_wuxing_composition_wx2() -> None:
    from companion.cards import load_deck

    deck = load_deck("wuxing")
    assert deck.set_size("player") == 44
    assert deck.set_size("universe") == 24
    player = Counter({f.id: f.count for f in deck.faces_of("player")})
    assert player == {"wood": 8, "fire": 8, "earth": 8, "metal": 8, "water": 8,
                      "dragon": 2, "star": 2}


def test_godnum_legions_gn2() -> None:
    from companion.cards import load_deck

    deck = load_deck("godnum")
    assert len(deck.decks) == 5
    for legion in deck.decks:
        assert deck.set_size(legion) == 36
        numbers = [f for f in deck.faces_of(legion) if f.number is not None]
        assert sum(f.count for f in numbers) == 20


def test_shrine_standard_deck_sk1() -> None:
    from companion.cards import load_deck

    deck = load_deck("shrine")
    assert deck.set_size() == 36
    assert {f.element for f in deck.faces} == {"fire", "water", "earth", "air"}
    assert sorted({f.number for f in deck.faces if f.number is not None}) == list(range(1, 10))


def test_mountains_decks_mr7_mr9() -> None:
    from companion.cards import load_deck

    deck = load_deck("mountains")
    sizes = {d: deck.set_size(d) for d in deck.decks}
    assert sizes["weapon"] == 16
    assert sizes["challenge"] == 10
    assert sizes["chance"] == 12
    assert sizes["character"] == 4


def test_gemcomplete_decks_gc1() -> None:
    from companion.cards import load_deck

    deck = load_deck("gemcomplete")
    for d in deck.decks:
        faces = deck.faces_of(d)
        assert sum(f.count for f in faces) == 40
        gems = sum(f.count for f in faces if f.kind == "gem")
        assert gems == 12


def test_unknown_game_and_face() -> None:
    from companion.cards import load_deck

    with pytest.raises(UnknownGame, match="'chess'"):
        load_deck("chess")
    with pytest.raises(UnknownGame):
        load_deck("../etc")
    with pytest.raises(UnknownCard, match="'joker'"):
        load_deck("wuxing").face("joker")


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda d: d["faces"][0].update(code="wo"), "code"),
        (lambda d: d["faces"][0].update(deck="hand"), "not declared"),
        (lambda d: d["faces"].append(dict(d["faces"][0])), "duplicate"),
        (lambda d: d["faces"][0].update(count="8"), "count"),
        (lambda d: d.update(code="WX"), "capital letter"),
        (lambda d: d.update(faces=[]), "no faces"),
    ],
)
def test_bad_deck_files_are_refused(mutate, words: str) -> None:  # type: ignore[no-untyped-def]
    data = {
        "game": "toy", "title": "Toy", "code": "T",
        "decks": {"main": {"name": "Main"}},
        "faces": [{"id": "wood", "code": "WO", "deck": "main", "count": 8}],
    }
    parse_deck(data)
    mutate(data)
    with pytest.raises(ValueError, match=words):
        parse_deck(data)
