"""Piles and hands, filmed with the printed faces on the 8-seat mat seen whole at 1080p
(cards 60-85 px wide) and run through the real reader, tracker and bare-place check:
a hand over two cards for three seconds sends no removal and no second scan, a card
taken away is removed, cards dropped on a pot are each placed once and never misread, and
each one the next card covers is removed (C-9).
Filmed at 10 frames a second to keep the rendering short; the tracker counts in seconds."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bench import scenes, sequences
from companion.runs import PrintRun, RunBook
from cv import cover
from cv.detect import CardReader
from cv.tracker import Tracker
from printables.faces import face_layout

SIZE = (1920, 1080)
FPS = 10.0


def _table(run: PrintRun, seed: int) -> tuple[list[scenes.PlacedCard], np.ndarray,
                                              scenes.Look, random.Random]:
    rng = random.Random(seed)
    cards = scenes.random_cards(run, 8, "wuxing", 8, rng)
    h = scenes.random_camera(SIZE, rng, 20, card_px=(70, 80))
    look = scenes.random_look(rng, 0.5)
    return cards, h, look, rng


@pytest.fixture(scope="module")
def hand_shots(run: PrintRun, renderer: scenes.SceneRenderer) -> list[sequences.Shot]:
    cards, h, look, rng = _table(run, 11)
    return sequences.hand_over(renderer, cards, h, SIZE, look, rng, covered=(0, 1), fps=FPS,
                               over_s=3.0)


def test_a_hand_over_two_cards_for_three_seconds_sends_no_removal_and_no_second_scan(
        run: PrintRun, hand_shots: list[sequences.Shot]) -> None:
    middle = hand_shots[len(hand_shots) // 2]
    covered = middle.on_table - middle.visible
    assert len(covered) >= 2  # the hands (and a forearm) do hide codes for seconds
    out = sequences.replay(hand_shots, CardReader(runbook=RunBook([run])), Tracker())
    assert out.removed == {}
    assert sorted(out.placed.values()) == [1] * 8  # every card once, the covered two too
    assert out.false_reads == 0
    assert out.unread_visible == set()


def test_without_the_bare_place_check_the_same_hand_would_remove_both_cards(
        run: PrintRun, hand_shots: list[sequences.Shot]) -> None:
    """The check is what keeps them: on absence alone both covered cards go after 1.5 s
    (and come back as new scans when the hand leaves)."""
    middle = hand_shots[len(hand_shots) // 2]
    covered = middle.on_table - middle.visible
    shots_no_mat = list(hand_shots)
    reader = CardReader(runbook=RunBook([run]))
    tracker = Tracker()
    removed: set[str] = set()
    for i, shot in enumerate(shots_no_mat, 1):
        for e in tracker.update(i, shot.t, reader.read(shot.image)):
            if e.kind == "removed":
                removed.add(e.payload)
    assert removed == covered


def test_a_card_taken_away_is_removed_once_its_place_shows_bare_mat(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    cards, h, look, rng = _table(run, 12)
    shots = sequences.taken_away(renderer, cards, h, SIZE, look, rng, gone=3, fps=FPS,
                                 after_s=2.2)
    out = sequences.replay(shots, CardReader(runbook=RunBook([run])), Tracker())
    assert out.removed == {cards[3].payload: 1}
    assert sorted(out.placed.values()) == [1] * 8
    assert out.false_reads == 0


def test_cards_dropped_on_the_pot_are_each_placed_once_and_never_misread(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    cards, h, look, rng = _table(run, 13)
    seats = [c for c in cards if c.zone != "universe"][:4]
    pot = [c for c in scenes.pile(run, 7, (400, 225), rng)
           if c.payload not in {s.payload for s in seats}][:5]
    shots = sequences.dropped_on_pile(renderer, pot, h, SIZE, look, rng, others=seats,
                                      fps=FPS, each_s=0.8)
    states = scenes.code_visibility(pot)
    assert "full" in states and set(states) - {"full"}  # some codes end up covered
    out = sequences.replay(shots, CardReader(runbook=RunBook([run])), Tracker())
    assert out.false_reads == 0
    # C-9: a card whose code the next one covers is gone from view (removed once, by the
    # card now over its place); the top card and the seats stay.
    under = {c.payload for c, state in zip(pot, states, strict=True) if state != "full"}
    assert out.removed == dict.fromkeys(under, 1)
    assert all(n == 1 for n in out.placed.values())
    assert {c.payload for c in pot} | {c.payload for c in seats} == set(out.placed)
    assert out.unread_visible == set()


def test_the_code_box_of_the_scenes_is_where_printables_puts_the_code() -> None:
    box = face_layout(63.0, 88.0).qr
    assert (box.x, box.y, box.w) == scenes.CODE_BOX_MM == cover.CODE_BOX_MM


def test_a_card_outline_follows_from_its_code_turned_any_way() -> None:
    """The tracker's guess of a card from its code (C-9: which places a card covers) is
    the card the scenes draw, whichever way it lies."""
    for angle in (0.0, 37.0, 180.0, 290.0):
        card = scenes.PlacedCard("x", 300.0, 200.0, angle)
        code = tuple((float(x), float(y)) for x, y in scenes.code_corners_mm(card))
        outline = np.array(cover.card_outline(code))
        assert np.allclose(outline, scenes.card_corners_mm(card), atol=1e-6)
        assert cover.covered_share(code, tuple(map(tuple, outline))) == pytest.approx(1.0)


def test_paper_is_bare_a_hand_or_a_card_is_not() -> None:
    gray = np.full((200, 200), 230, np.uint8)
    gray[20:80, 20:80] = 140  # skin under the same lamp
    gray[120:180, 120:180] = np.where(np.indices((60, 60)).sum(axis=0) % 6 < 3, 30, 240)
    square = lambda x, y: ((x, y), (x + 60.0, y), (x + 60.0, y + 60.0), (x, y + 60.0))  # noqa: E731
    assert cover.looks_bare(gray, square(120, 20), 230.0)
    assert not cover.looks_bare(gray, square(20, 20), 230.0)
    assert not cover.looks_bare(gray, square(120, 120), 230.0)
    assert not cover.looks_bare(np.zeros((50, 50), np.uint8), square(0, 0), 0.0)
