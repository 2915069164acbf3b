"""Both phone ways in a real headless Chromium (issue 13): the live camera page fed by
Chromium's fake camera playing a y4m clip of the printed mat with a printed card, and
"Scan my card" on a seat page through the file chooser with a generated photo."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from webtools import bearer

from bench import scenes
from bench.phones import SIZE, new_table, universe_card
from bench.photos import make_photo
from web import services

# As tests/web/conftest.py launches Chromium (a test module cannot import a conftest by
# name when tests/cv is collected too), plus the fake camera.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync",
                 "--disable-quic"]


def write_y4m(path: Path, frames: list[np.ndarray[Any, Any]], fps: int = 5) -> None:
    """Frames (BGR) as a YUV4MPEG2 clip, 4:2:0, the format Chromium's fake camera plays."""
    h, w = frames[0].shape[:2]
    with path.open("wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for img in frames:
            f.write(b"FRAME\n")
            f.write(cv2.cvtColor(img, cv2.COLOR_BGR2YUV_I420).tobytes())


@pytest.fixture
def camera_browser(request: pytest.FixtureRequest, tmp_path: Path,
                   live_server: tuple[str, Any]) -> Iterator[tuple[Any, dict[str, Any]]]:
    """A Chromium whose camera plays the printed mat with the Universe card lying in its
    zone, and the table (at the Universe card) it films."""
    exe = shutil.which("chromium")
    if exe is None:
        pytest.fail("Debian's chromium is not installed (./scripts/test installs it)")
    base, app = live_server
    client = app.test_client()
    t, run = new_table(client, Path(app.config["DATA_DIR"]), 11)
    rng = random.Random(4)
    renderer = scenes.SceneRenderer("wuxing", 3, face=scenes.default_face_renderer([run]))
    card = universe_card(run, rng)
    h = scenes.camera_homography(SIZE, 10, 30, 2)
    look = scenes.Look(blur=0.3, jpeg=90)
    clip = tmp_path / "table.y4m"
    write_y4m(clip, [renderer.render([card], h, SIZE, scenes.jitter(look, rng), rng)
                     for _ in range(3)])
    t["serial"] = next(c.serial for c in run.cards if c.payload == card.payload)
    t["base"] = base
    try:
        pw = request.getfixturevalue("playwright")
        own = None
    except pytest.FixtureLookupError:
        from playwright.sync_api import sync_playwright

        own = sync_playwright().start()
        pw = own
    b = pw.chromium.launch(executable_path=exe, args=[
        *CHROMIUM_ARGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={clip}"])
    yield b, t
    b.close()
    if own is not None:
        own.stop()


@pytest.mark.browser
def test_the_live_camera_page_sends_a_still_card_once(
        camera_browser: tuple[Any, dict[str, Any]], live_server: tuple[str, Any]) -> None:
    from playwright.sync_api import expect

    browser, t = camera_browser
    _, app = live_server
    page = browser.new_context(viewport={"width": 800, "height": 900}).new_page()
    page.goto(f"{t['base']}/t/{t['table']}/camera?token={t['camera_token']}")
    root = page.locator("#camera")
    expect(root).to_have_attribute("data-mode", "frames", timeout=20_000)
    expect(root).to_have_attribute("data-mat", "1", timeout=30_000)
    accepted = page.locator("#sent li.accepted")
    expect(accepted).to_have_count(1, timeout=30_000)
    expect(accepted).to_contain_text(f"card {t['serial']} in universe")
    assert services(app).tables.get(t["table"]).version == 2
    # The card lies there: more frames, no second scan; the overlay shows it placed.
    seq = int(root.get_attribute("data-frames") or 0)
    for _ in range(300):  # a hang guard, not a time limit (the page's CSP forbids eval)
        if int(root.get_attribute("data-frames") or 0) > seq + 3:
            break
        page.wait_for_timeout(200)
    assert int(root.get_attribute("data-frames") or 0) > seq + 3
    expect(root).to_have_attribute("data-cards", "1")
    assert services(app).tables.get(t["table"]).version == 2
    expect(page.locator("#cam-status")).to_have_text("1 card in view")


@pytest.mark.browser
def test_scan_my_card_plays_the_photographed_card(browser: Any, live_server: tuple[str, Any],
                                                  tmp_path: Path) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    client = app.test_client()
    t, run = new_table(client, Path(app.config["DATA_DIR"]), 12)
    universe = next(c for c in run.cards if c.deck == "universe" and c.face.kind == "element")
    r = client.post(f"/api/tables/{t['table']}/scans",
                    json={"payload": universe.payload, "zone": "universe"},
                    headers=bearer(t["camera_token"]))
    assert r.status_code == 200, r.json
    mine = next(c for c in run.cards if c.deck == "player" and c.face.kind == "element")
    faces = scenes.default_face_renderer([run])
    # A 12 MP photo, as the phone's camera takes it: the page shrinks it before sending.
    data, _ = make_photo(faces(mine.payload), mine.payload, (4032, 3024), random.Random(8))
    photo = tmp_path / "IMG_0001.jpg"
    photo.write_bytes(data)

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    requests: list[int] = []
    page.on("request", lambda req: requests.append(len(req.post_data_buffer or b""))
            if "/photos" in req.url else None)
    page.goto(t["seats"][0]["join_url"].replace("http://table.local:8000", base))
    button = page.locator(".scan-my-card .scan-button")
    expect(button).to_be_visible(timeout=20_000)
    expect(page.locator(".scan-my-card .scan-why")).to_contain_text(
        "Show your top card in your place")
    with page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files(str(photo))
    box = page.locator(".scan-my-card")
    expect(box).to_have_attribute("data-answer", "ok", timeout=30_000)
    expect(page.locator(".scan-my-card .scan-result")).to_contain_text(mine.face.name)
    table = services(app).tables.get(t["table"])
    assert table.version == 3
    assert table.records[-1].body == {"type": "scan", "card": mine.serial, "zone": "seat:1",
                                      "seat": 1}
    assert requests and requests[0] < len(data)  # shrunk in the browser before the upload
    # Ben reveals next: Ana's table no longer waits for her card, so her button hides.
    expect(button).to_be_hidden(timeout=20_000)
