"""The whole table of an 8-player game (issue 14): small codes at 1080p (cards 60-85 px,
about 2 px per module) with and without the mat's zones, in dim light; a 4K frame read at
half size with full-resolution re-reads, its codes placed in full-resolution pixels.
Scenes from the printed faces on the 8-seat WuXing mat."""

from __future__ import annotations

import random

import numpy as np

from bench import scenes
from companion.runs import PrintRun, RunBook
from cv.detect import CardReader
from cv.zones import MatLocator, MatZones


def _scene(run: PrintRun, size: tuple[int, int], card_px: tuple[float, float], light: str,
           seed: int) -> tuple[list[scenes.PlacedCard], np.ndarray, scenes.Look,
                               random.Random]:
    rng = random.Random(seed)
    cards = scenes.random_cards(run, 8, "wuxing", 8, rng)
    h = scenes.random_camera(size, rng, 30.0, card_px=card_px)
    return cards, h, scenes.random_look(rng, 0.7, light), rng


def _code_width_px(h: np.ndarray, card: scenes.PlacedCard) -> float:
    c = scenes.project(h, scenes.code_corners_mm(card))
    return float(np.mean([np.hypot(*(c[i] - c[(i + 1) % 4])) for i in range(4)]))


def test_small_codes_in_dim_light_are_all_read_within_five_frames_with_the_mat(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    size = (1920, 1080)
    cards, h, look, rng = _scene(run, size, (60.0, 70.0), "dim", 31)
    assert min(_code_width_px(h, c) for c in cards) < 46  # about 2 px per module
    reader = CardReader(runbook=RunBook([run]))
    zones = None
    seen: set[str] = set()
    for _ in range(5):
        image = renderer.render(cards, h, size, scenes.jitter(look, rng), rng)
        if zones is None:
            pose = MatLocator().locate(image)
            assert pose is not None
            zones = MatZones(pose, "wuxing", 8)
        got = {s.payload for s in reader.read(image, zones.regions())}
        assert got <= {c.payload for c in cards}  # never a false read
        seen |= got
    assert seen == {c.payload for c in cards}


def test_without_the_mat_busy_patches_and_the_last_frame_find_the_small_codes(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    """No zones to search: code-sized busy patches, upsampled, and the codes of the last
    frame looked for where they lay, read every card within five frames; a reader with
    only the whole-frame pass (and its located misses) does not."""
    size = (1920, 1080)
    cards, h, look, rng = _scene(run, size, (58.0, 64.0), "dim", 7)
    frames = [renderer.render(cards, h, size, scenes.jitter(look, rng), rng) for _ in range(5)]
    want = {c.payload for c in cards}
    reader = CardReader(runbook=RunBook([run]))
    plain = CardReader(runbook=RunBook([run]), find_candidates=False)
    seen: set[str] = set()
    plain_first: set[str] = set()
    for i, image in enumerate(frames):
        got = {s.payload for s in reader.read(image)}
        assert got <= want
        seen |= got
        if i == 0:
            plain_first = {s.payload for s in plain.read(image)}
    assert seen == want
    assert reader.stats.candidate_hits + reader.stats.history_hits > 0
    assert len(plain_first) < len(want)  # the whole-frame pass alone misses some


def test_a_4k_frame_is_read_at_half_size_and_its_codes_lie_in_full_resolution_pixels(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    size = (3840, 2160)
    cards, h, look, rng = _scene(run, size, (110.0, 150.0), "normal", 3)
    image = renderer.render(cards, h, size, look, rng)
    pose = MatLocator().locate(image)
    assert pose is not None
    got = CardReader(runbook=RunBook([run])).read(image, MatZones(pose, "wuxing", 8).regions())
    assert {s.payload for s in got} == {c.payload for c in cards}
    for s in got:
        card = next(c for c in cards if c.payload == s.payload)
        truth = scenes.project(h, scenes.code_corners_mm(card)).mean(axis=0)
        assert np.hypot(*(np.array(s.centre) - truth)) < 4  # pixels of the 4K frame
