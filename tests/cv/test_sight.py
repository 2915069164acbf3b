"""The camera tells the user, in words and before play starts, when it cannot see well
enough (C-8 plain words): cards too small for their codes, too little light, a lamp's
glare. Scenes from the printed mat and faces."""

from __future__ import annotations

import random
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

import companion_cli
from bench import scenes
from companion.runs import PrintRun
from cv import sight
from cv.detect import CardReader
from cv.sources import Frame
from cv.tracker import Tracker
from cv.watch import Watcher
from cv.zones import MatLocator


def _frame(renderer: scenes.SceneRenderer, run: PrintRun, size: tuple[int, int],
           card_px: float, look: scenes.Look, seed: int = 1) -> tuple[np.ndarray, float]:
    """A frame of two cards on the 8-seat mat, straight down, a card ``card_px`` wide at
    the centre; and the narrowest card's real width in px."""
    rng = random.Random(seed)
    cards = scenes.random_cards(run, 2, "wuxing", 8, rng)
    h = scenes.random_camera(size, random.Random(seed), 0.0, card_px=(card_px, card_px))
    image = renderer.render(cards, h, size, look, rng)
    return image, card_px


def _judge(image: np.ndarray) -> sight.Sight:
    pose = MatLocator().locate(image)
    assert pose is not None
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return sight.judge(gray, pose.to_mat, "wuxing", 8)


def test_cards_too_small_for_their_codes_are_named_with_their_width_and_a_remedy(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    image, _ = _frame(renderer, run, (1280, 720), 48.0, scenes.Look(noise=3.0))
    seen = _judge(image)
    assert seen.module_px < 2.0
    (problem,) = seen.problems
    width = int(re.match(r"cards are (\d+) px wide: move the camera closer or use 1080p or "
                         r"more$", problem).group(1))  # type: ignore[union-attr]
    assert 42 <= width <= 50  # the narrowest zone of a flat view: about the centre's width


def test_at_1080p_the_remedy_is_4k_and_a_close_camera_has_no_problem(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    far, _ = _frame(renderer, run, (1920, 1080), 50.0, scenes.Look(noise=3.0))
    assert _judge(far).problems[0].endswith("move the camera closer or use 4K")
    near, _ = _frame(renderer, run, (1920, 1080), 80.0, scenes.Look(noise=3.0))
    seen = _judge(near)
    assert seen.problems == ()
    assert 2.3 < seen.module_px < 2.8  # 80 px x 41/21/63
    assert seen.paper is not None and seen.paper > 200


def test_a_dark_table_and_a_lamps_glare_are_said_in_words(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    dark, _ = _frame(renderer, run, (1920, 1080), 80.0, scenes.Look(gain=0.2, noise=3.0))
    assert _judge(dark).problems == ("the table is too dark for the camera: add light or "
                                     "turn up the camera's exposure",)
    dim, _ = _frame(renderer, run, (1920, 1080), 80.0, scenes.Look(gain=0.4, noise=7.0))
    assert _judge(dim).problems == ()  # 40 % exposure is still read (bench cv --table 8)
    glare, _ = _frame(renderer, run, (1920, 1080), 80.0,
                      scenes.Look(gain=0.8, noise=3.0, glare=(0.5, 0.5, 0.08, 250.0)))
    assert any("lamp" in p for p in _judge(glare).problems)


def test_the_watcher_says_it_once_before_any_card_is_placed_and_shows_it(
        run: PrintRun, renderer: scenes.SceneRenderer) -> None:
    image, _ = _frame(renderer, run, (1280, 720), 48.0, scenes.Look(noise=3.0))
    said: list[str] = []
    w = Watcher(CardReader(), Tracker(), locator=MatLocator(), game="wuxing", players=8,
                locate_every=1)
    w.on_advice = said.append
    placed_at = []
    for i in range(1, 5):
        events = w.process(Frame(i, i / 30, image))
        if i == 1:
            assert len(said) == 1  # on the first frame, before any card can be placed
        placed_at += [e.seq for e in events if e.kind == "placed"]
    assert said[0].startswith("cards are ") and len(said) == 1  # said once, not per frame
    assert min(placed_at, default=99) >= 3
    assert w.status()["sight"]["problems"] == said
    shown = cv2.imdecode(np.frombuffer(w.preview_jpeg(), np.uint8), cv2.IMREAD_COLOR)
    band = shown[-12:, :, :].reshape(-1, 3).mean(axis=0)
    assert band[2] > 100 and band[0] < 60  # a red band at the bottom of the preview
    w.sight = None
    plain = cv2.imdecode(np.frombuffer(w.preview_jpeg(), np.uint8), cv2.IMREAD_COLOR)
    assert plain[-12:, :, 2].mean() < 100


def test_companion_watch_prints_the_advice(run: PrintRun, renderer: scenes.SceneRenderer,
                                           tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    image, _ = _frame(renderer, run, (1280, 720), 48.0, scenes.Look(noise=3.0))
    folder = tmp_path / "far"
    folder.mkdir()
    cv2.imwrite(str(folder / "000.png"), image)
    code = companion_cli.main(["watch", "--images", str(folder), "--hold", "3", "--game",
                               "wuxing", "--players", "8", "--preview-port", "0"])
    assert code == 0
    err = capsys.readouterr().err
    assert re.search(r"camera: cards are \d+ px wide: move the camera closer or use 1080p or "
                     r"more", err)
