"""Brisk play filmed (issue 26 §3, C-9): each card at rest only 0.4 s, the next laid 0.7 s
after the last was collected, on the 8-seat mat seen whole at 1080p (cards 70-80 px), run
through the real reader, tracker and bare-place check. Nothing is lost, nothing is sent
twice, no card stays "placed" after it left; the tracker before C-9 lost the card that
came back. Filmed at 10 frames a second to keep the rendering short (the tracker counts
in seconds, from the frames' own times)."""

from __future__ import annotations

import random

import pytest

from bench import scenes, sequences
from bench.camera import BEFORE_C9
from companion.runs import PrintRun, RunBook
from cv import cover
from cv.detect import CardReader
from cv.tracker import Tracker
from cv.zones import MatLocator

SIZE = (1920, 1080)
FPS = 10.0


@pytest.fixture(scope="module")
def outcomes(run: PrintRun, renderer: scenes.SceneRenderer
             ) -> dict[str, tuple[sequences.Brisk, sequences.Replay, sequences.Replay]]:
    rng = random.Random(31)
    h = scenes.random_camera(SIZE, rng, 20, card_px=(70, 80))
    look = scenes.random_look(rng, 0.5)
    payloads = [c.payload for c in rng.sample(list(run.cards), 6)]
    out = {}
    for film in sequences.brisk_moments(renderer, payloads, h, SIZE, look, rng, fps=FPS):
        now, before = sequences.replay_many(film.shots(), CardReader(runbook=RunBook([run])),
                                            [Tracker(), Tracker(BEFORE_C9)])
        out[film.name] = (film, now, before)
    return out


@pytest.mark.parametrize("moment", ["laid and collected", "pushed onto the pot",
                                    "back to the pot", "top card off the pot and back"])
def test_brisk_play_loses_nothing_and_sends_nothing_twice(
        outcomes: dict[str, tuple[sequences.Brisk, sequences.Replay, sequences.Replay]],
        moment: str) -> None:
    film, now, _ = outcomes[moment]
    assert [(p, z) for p, z, _ in now.scans] == film.expected
    assert now.lost_and_doubled(film.expected) == (0, 0)
    assert now.ghosts == set()
    assert now.false_reads == 0


def test_the_same_card_back_in_the_zone_it_left_is_sent_again(
        outcomes: dict[str, tuple[sequences.Brisk, sequences.Replay, sequences.Replay]]
        ) -> None:
    film, now, before = outcomes["laid and collected"]
    first = film.expected[0]
    assert film.expected.count(first) == 2  # the first card comes back last
    assert [(p, z) for p, z, _ in now.scans].count(first) == 2
    # Before C-9 it was swallowed: its place showed bare mat for less than 1.5 s.
    assert [(p, z) for p, z, _ in before.scans].count(first) == 1
    assert before.lost_and_doubled(film.expected) == (1, 0)


def test_a_pile_card_covered_then_gathered_and_back_is_sent_again(
        outcomes: dict[str, tuple[sequences.Brisk, sequences.Replay, sequences.Replay]]
        ) -> None:
    film, now, before = outcomes["back to the pot"]
    under = film.expected[0][0]
    reasons = [d for p, _, d in now.removals if p == under]
    assert reasons[0].startswith("covered by")  # gone from view under the next card
    assert before.lost_and_doubled(film.expected) == (1, 0) and before.ghosts


def test_the_top_card_taken_off_the_pot_and_back_is_sent_again(
        outcomes: dict[str, tuple[sequences.Brisk, sequences.Replay, sequences.Replay]]
        ) -> None:
    """No bare mat shows where it lay (the card under it does, its code in full view all
    along): it is gone when that card's face shows there instead of its code (C-9)."""
    film, now, before = outcomes["top card off the pot and back"]
    top = film.expected[1][0]
    assert [d for p, _, d in now.removals if p == top][:1] == ["gone"]
    assert before.lost_and_doubled(film.expected) == (1, 0)


def test_a_place_shows_another_card_not_its_code_nor_a_hand(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    rng = random.Random(32)
    h = scenes.random_camera(SIZE, rng, 20, card_px=(70, 80))
    look = scenes.random_look(rng, 0.3)
    x, y = (scenes.PlacedCard(pc.payload, 400, 225 + dy, 0, "universe")
            for pc, dy in zip(rng.sample(list(run.cards), 2), (0, -43), strict=True))

    def frame(cards: list[scenes.PlacedCard], hands: tuple[tuple[float, float, float], ...]
              = ()) -> cover.BareCheck:
        lk = scenes.jitter(look, rng)
        lk.hands = hands
        image = renderer.render(cards, h, SIZE, lk, rng)
        pose = MatLocator().locate(image)
        assert pose is not None
        return cover.BareCheck(image, pose.to_mat)

    code = tuple((float(a), float(b)) for a, b in scenes.project(h, scenes.code_corners_mm(x)))
    look_then = frame([x]).signature(code)
    centre = scenes.code_corners_mm(x).mean(axis=0)
    assert not frame([x]).shows_other_card(code, look_then)  # still there
    # y lies over it, its code just clear of x's place: only its face shows there
    assert frame([y]).shows_other_card(code, look_then)
    assert not frame([x], ((float(centre[0]), float(centre[1]), 50.0),)).shows_other_card(
        code, look_then)  # a hand over it
    assert not frame([y], ((float(centre[0]), float(centre[1]), 50.0),)).shows_other_card(
        code, look_then)
