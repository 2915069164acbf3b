"""Zones: the mat's markers give zones wherever the camera stands; manual calibration."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from bench import scenes
from companion.runs import PrintRun
from cv.detect import CardReader
from cv.zones import Calibrator, ManualZones, MatLocator, MatZones


@pytest.mark.parametrize(("tilt", "azimuth", "size"), [
    (0, 0, (1280, 720)), (35, 70, (1280, 720)), (30, 200, (1920, 1080)), (20, 300, (1280, 720))])
def test_cards_land_in_their_zones_however_the_camera_stands(
        tilt: float, azimuth: float, size: tuple[int, int], run: PrintRun,
        renderer: scenes.SceneRenderer) -> None:
    rng = random.Random(int(tilt + azimuth))
    cards = scenes.random_cards(run, 8, "wuxing", 8, rng)
    h = scenes.camera_homography(size, tilt, azimuth, 5)
    image = renderer.render(cards, h, size, scenes.Look(blur=0.4), rng)
    pose = MatLocator().locate(image)
    assert pose is not None and pose.markers == (0, 1, 2, 3)
    assert pose.error_mm < 1.5
    zones = MatZones(pose, "wuxing", 8)
    got = {s.payload: zones.zone_of(s.centre) for s in CardReader().read(image)}
    want = {c.payload: c.zone for c in cards}
    assert len(got) >= 7  # a far card of a steep view may need a second frame to read
    assert got.items() <= want.items()
    # The pose maps the mat's centre to where the camera model put it, within 2 mm.
    centre_px = scenes.project(h, np.array([[400.0, 225.0]]))[0]
    x, y = pose.mat_point((float(centre_px[0]), float(centre_px[1])))
    assert abs(x - 400) < 2 and abs(y - 225) < 2
    # Relocating from the last pose (small regions only) agrees.
    again = MatLocator().locate(image, pose)
    assert again is not None and again.markers == (0, 1, 2, 3)


def test_no_mat_in_view_gives_no_pose() -> None:
    assert MatLocator().locate(np.full((720, 1280, 3), 200, np.uint8)) is None


def test_manual_zones_pick_the_nearest_calibrated_place(tmp_path: Path) -> None:
    cal = Calibrator(["seat:1", "seat:2", "universe"])
    assert cal.prompt() == "place a card in seat:1 (1 of 3)"
    for pt in [(100.0, 600.0), (1100.0, 600.0), (600.0, 350.0)]:
        cal.record(pt)
    assert cal.done and cal.prompt() == "calibration complete"
    zones = cal.result()
    assert zones.zone_of((130, 590)) == "seat:1"
    assert zones.zone_of((620, 330)) == "universe"
    assert zones.zone_of((1250, 50)) is None  # far from every calibrated place
    zones.save(tmp_path / "cal.json")
    again = ManualZones.load(tmp_path / "cal.json")
    assert again.centres == zones.centres


def test_an_incomplete_or_broken_calibration_is_refused(tmp_path: Path) -> None:
    cal = Calibrator(["seat:1", "seat:2"])
    cal.record((1.0, 2.0))
    with pytest.raises(ValueError, match="seat:2"):
        cal.result()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="not a zone calibration"):
        ManualZones.load(bad)
