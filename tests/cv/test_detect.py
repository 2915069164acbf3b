"""Decoding: both backends on still images, the card filter, scenes made from the printed
faces (tilted, blurred, noised, unevenly lit, partly covered) and the real photos."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench import scenes
from bench.camera import _photos_dir, bench_photos
from companion import codec
from companion.runs import PrintRun, RunBook
from cv.detect import DECODERS, CardReader, make_decoder


def _on_white(face: np.ndarray, scale: float = 0.3) -> np.ndarray:
    small = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    page = np.full((small.shape[0] + 80, small.shape[1] + 80, 3), 235, np.uint8)
    page[40:40 + small.shape[0], 40:40 + small.shape[1]] = small
    return page


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_an_empty_frame_has_no_cards(name: str) -> None:
    reader = CardReader(make_decoder(name))
    for frame in (np.zeros((720, 1280, 3), np.uint8), np.full((10, 10), 255, np.uint8),
                  np.zeros((0, 0, 3), np.uint8)):
        assert reader.read(frame) == []
    assert not reader.stats.ignored


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_a_printed_card_reads_with_its_serial_face_and_corners(name: str, run: PrintRun,
                                                               renderer: scenes.SceneRenderer
                                                               ) -> None:
    card = run.cards[5]
    image = _on_white(renderer.face(card.payload))
    (s,) = CardReader(make_decoder(name), runbook=RunBook([run])).read(image)
    assert (s.payload, s.serial, s.face) == (card.payload, card.serial, card.face.id)
    xs = [p[0] for p in s.corners]
    # The code is 41 mm of the 63 mm card, centred: about 0.65 of the card's width.
    assert 0.5 < (max(xs) - min(xs)) / (0.3 * renderer.face(card.payload).shape[1]) < 0.8


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_codes_that_are_not_cards_of_this_table_are_ignored_and_counted(
        name: str, run: PrintRun, other_run: PrintRun) -> None:
    good = run.cards[0].payload
    body = good.rsplit(":", 1)[0]
    wrong_check = body + ":" + ("0" if good[-1] != "0" else "1")
    texts = ["HELLO WORLD", wrong_check, other_run.cards[0].payload,
             codec.encode("G", "1", run.run_id, "000")]
    faces = [scenes.synthetic_face(t) for t in texts]
    image = np.full((900, 4 * 560, 3), 235, np.uint8)
    for i, f in enumerate(faces):
        small = cv2.resize(f, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)
        image[20:20 + small.shape[0], 20 + 560 * i:20 + 560 * i + small.shape[1]] = small
    reader = CardReader(make_decoder(name), runbook=RunBook([run]))
    assert reader.read(image) == []
    assert reader.stats.ignored["not a card"] == 1
    assert reader.stats.ignored["malformed"] == 1
    assert reader.stats.ignored["other print run"] == 2  # another run; a never-printed game
    # Without a run book, a well-formed card of any run counts (the referee decides).
    assert len(CardReader(make_decoder(name)).read(image)) == 2


def _scene(run: PrintRun, renderer: scenes.SceneRenderer, size: tuple[int, int], seed: int,
           k: int = 6, blur: float = 0.5, **look: float) -> tuple[list[scenes.PlacedCard],
                                                                 np.ndarray, np.ndarray]:
    rng = random.Random(seed)
    cards = scenes.random_cards(run, k, "wuxing", 8, rng)
    h = scenes.random_camera(size, rng)
    lk = scenes.Look(blur=blur, noise=4.0, **look)
    return cards, h, renderer.render(cards, h, size, lk, rng)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_tilted_blurred_noisy_unevenly_lit_scenes_read_every_card(
        size: tuple[int, int], run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    reader = CardReader(runbook=RunBook([run]))
    for seed in range(3):
        cards, _, image = _scene(run, renderer, size, seed, blur=0.5, gain=0.65,
                                 gradient=0.5, gradient_angle=40.0 * seed)
        got = {s.payload for s in reader.read(image)}
        assert got == {c.payload for c in cards}, (size, seed)


def test_a_card_with_its_lower_half_under_a_hand_still_reads(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    """Over 20 scenes of 4 cards, each with its lower half under a hand: at most one card
    of 80 is missed (the known miss, scene 11 on today's mat: a steeply seen card whose
    code's quiet zone the hand's edge cuts; 1 of 160 over 40 scenes), and nothing else is
    read."""
    missed = 0
    for seed in range(4, 24):
        cards, h, image = _scene(run, renderer, (1280, 720), seed, k=4, blur=0.3)
        for c in cards:  # cover the lower half of every card (the code is in the top half)
            m = scenes.card_matrix(c, 1.0)
            lower = np.array([[(-3, 46), (66, 46), (66, 91), (-3, 91)]], dtype=np.float64)
            quad = scenes.project(h, cv2.perspectiveTransform(lower, m)[0])
            cv2.fillPoly(image, [quad.astype(np.int32)], (120, 150, 200))
        got = {s.payload for s in CardReader().read(image)}
        want = {c.payload for c in cards}
        assert got <= want, seed
        missed += len(want - got)
    assert missed <= 1


def test_rereading_located_codes_recovers_soft_cards(run: PrintRun,
                                                    renderer: scenes.SceneRenderer) -> None:
    """Whole-frame zxing-cpp misses some soft 720p codes; the warp-and-sharpen re-read
    recovers some, and never invents one."""
    reader = CardReader()
    plain = recovered = 0
    for seed in range(6):
        cards, _, image = _scene(run, renderer, (1280, 720), 100 + seed, k=8, blur=1.0)
        want = {c.payload for c in cards}
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        plain += len({c.text for c in reader.decoder.decode(gray)} & want)
        got = {s.payload for s in reader.read(image)}
        assert got <= want
        recovered += len(got)
    assert reader.stats.code_hits > 0
    assert recovered > plain


def test_the_card_finder_finds_cards_on_a_dark_cloth(run: PrintRun) -> None:
    from cv.detect import find_cards

    r = scenes.SceneRenderer("wuxing", 8, face=scenes.synthetic_face, cloth=True)
    rng = random.Random(4)
    cards = scenes.random_cards(run, 6, "wuxing", 8, rng)
    h = scenes.camera_homography((1280, 720), 20, 30, 0)
    image = r.render(cards, h, (1280, 720), scenes.Look(blur=0.3), rng)
    quads = find_cards(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    for c in cards:  # the white top of each card, around its code, is found
        code_mm = cv2.perspectiveTransform(np.array([[(31.5, 32.0)]]), scenes.card_matrix(c, 1))
        centre = tuple(scenes.project(h, code_mm[0])[0])
        assert any(q.contains(centre) for q in quads)
    # pyzbar with the finder reads them too (it warps every card it finds).
    got = {s.payload for s in CardReader(make_decoder("pyzbar"), use_finder=True).read(image)}
    assert len(got & {c.payload for c in cards}) >= 5


PHOTOS = _photos_dir(None)


@pytest.mark.skipif(PHOTOS is None, reason="qr-photos data set not next to the repository")
@pytest.mark.parametrize(("name", "at_least"), [("zxing", 152), ("pyzbar", 140)])
def test_real_photos_decode(name: str, at_least: int) -> None:
    assert PHOTOS is not None
    result = bench_photos(name, Path(PHOTOS))
    assert result["ascii_images"] == 165
    assert result["ascii_correct"] >= at_least


def test_the_fast_unsharp_mask_matches_opencvs_gaussian_one() -> None:
    """`unsharp` gives the image of GaussianBlur + addWeighted within two grey levels for
    a re-read code's sigma (a separable filter with a cached kernel) and exactly for a
    zone's."""
    from cv.detect import unsharp

    img = np.random.default_rng(3).integers(0, 256, (150, 170), dtype=np.uint8)
    for sigma in (4.8, 2.0):
        ref = cv2.addWeighted(img, 2.5, cv2.GaussianBlur(img, (0, 0), sigma), -1.5, 0)
        diff = int(np.abs(unsharp(img, sigma).astype(int) - ref.astype(int)).max())
        assert diff <= (2 if sigma > 3 else 0)


class _Scripted:
    """A decoder whose whole-frame answer is scripted; counts its re-reads."""

    name = "scripted"

    def __init__(self, codes: list, misses: list) -> None:  # type: ignore[type-arg]
        self.codes, self.misses, self.rereads = codes, misses, 0

    def decode_with_misses(self, image: np.ndarray) -> tuple[list, list]:  # type: ignore[type-arg]
        return list(self.codes), list(self.misses)

    def decode(self, image: np.ndarray) -> list:  # type: ignore[type-arg]
        self.rereads += 1
        return []


def _square(x: float, y: float, side: float) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + side, y), (x + side, y + side), (x, y + side))


def test_located_codes_that_are_a_read_code_again_or_far_too_big_are_not_reread(
        run: PrintRun) -> None:
    """Only a located code that may be another card is warped and read again: not one
    overlapping a code already read (the same code located twice), nor one more than 1.5
    times as wide as the widest code read (finder patterns of different codes)."""
    from cv.detect import Code

    read = Code(run.cards[0].payload, _square(100, 100, 40))
    misses = [_square(116, 108, 36),  # the same code, located a second time
              _square(300, 80, 130),  # three finder patterns of different codes
              _square(600, 300, 38)]  # a soft code of its own: re-read
    dec = _Scripted([read], misses)
    reader = CardReader(dec, runbook=RunBook([run]))  # type: ignore[arg-type]
    got = reader.read(np.full((720, 1280), 200, np.uint8))
    assert [s.payload for s in got] == [run.cards[0].payload]
    assert reader.stats.code_retries == 1 and dec.rereads == 1


def test_refused_codes_are_counted_every_time_they_are_seen(run: PrintRun,
                                                            other_run: PrintRun) -> None:
    """Verdicts on payloads are remembered between frames, but each sighting of a code
    that is not a card of this table is still counted."""
    image = np.full((700, 1200, 3), 235, np.uint8)
    for i, text in enumerate(["HELLO WORLD", other_run.cards[0].payload]):
        small = cv2.resize(scenes.synthetic_face(text), None, fx=0.6, fy=0.6,
                           interpolation=cv2.INTER_AREA)
        image[20:20 + small.shape[0], 20 + 560 * i:20 + 560 * i + small.shape[1]] = small
    reader = CardReader(runbook=RunBook([run]))
    for n in (1, 2, 3):
        assert reader.read(image) == []
        assert reader.stats.ignored == {"not a card": n, "other print run": n}


def test_reading_a_region_where_it_held_a_code_changes_no_result(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    """A code read in the last frame is looked for first where it lay (the reader's
    history), and a zone through its rectified patch first in a window around the code of
    the last frame. Frame after frame, and when the cards are swapped or moved, the reader
    finds everything a fresh reader (no history) finds and nothing that is not there (a
    card at rest read sharp once may be kept where a fresh read of a noisy frame misses
    it), and the history was used."""
    from cv.zones import MatLocator, MatZones

    size = (1280, 720)
    rng = random.Random(5)
    h = scenes.random_camera(size, rng)
    layouts = [scenes.random_cards(run, 8, "wuxing", 8, rng) for _ in range(2)]
    look = scenes.Look(blur=1.0, noise=4.0)
    pose = MatLocator().locate(renderer.render(layouts[0], h, size, look, rng))
    assert pose is not None
    regions = MatZones(pose, "wuxing", 8).regions()
    reader = CardReader(runbook=RunBook([run]))
    for layout in (0, 0, 0, 1, 1, 0):
        image = renderer.render(layouts[layout], h, size, scenes.jitter(look, rng), rng)
        got = {s.payload for s in reader.read(image, regions)}
        fresh = {s.payload for s in CardReader(runbook=RunBook([run])).read(image, regions)}
        assert got >= fresh, layout
        assert got <= {c.payload for c in layouts[layout]}
    assert reader.stats.history_hits + reader.stats.region_window_hits > 0
