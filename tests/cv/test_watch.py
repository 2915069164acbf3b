"""The whole camera loop on short clips made from the printed faces: one scan per placed
card with its zone, refusals on the preview, the preview page, and the commands."""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import companion_cli
from bench import scenes
from companion.errors import CardNotAvailable
from companion.runs import PrintRun
from cv.detect import CardReader
from cv.sender import CallSink, Outbox, Scan
from cv.sources import Frame
from cv.tracker import Tracker
from cv.watch import PreviewServer, Watcher
from cv.zones import MatLocator


def clip(run: PrintRun, renderer: scenes.SceneRenderer, n_cards: int = 3, seed: int = 3,
         size: tuple[int, int] = (1280, 720)) -> tuple[list[np.ndarray], list[scenes.PlacedCard]]:
    """5 frames of an empty mat, 25 with the cards lying there, 60 after they are taken."""
    rng = random.Random(seed)
    cards = scenes.random_cards(run, n_cards, "wuxing", 8, rng)
    h = scenes.camera_homography(size, 25, 60, 3)
    look = scenes.Look(blur=0.5, noise=4.0, gradient=0.3)
    frames = [renderer.render([], h, size, scenes.jitter(look, rng), rng) for _ in range(5)]
    frames += [renderer.render(cards, h, size, scenes.jitter(look, rng), rng) for _ in range(25)]
    empty = renderer.render([], h, size, look, rng)
    frames += [empty] * 60
    return frames, cards


def test_each_placed_card_gives_exactly_one_scan_in_its_zone_and_refusals_show(
        run: PrintRun, renderer: scenes.SceneRenderer, tmp_path: Path) -> None:
    frames, cards = clip(run, renderer)
    refused = cards[0].payload
    applied: list[Scan] = []

    def engine(scan: Scan) -> dict[str, Any]:
        if scan.payload == refused:
            raise CardNotAvailable(f"{scan.serial!r} is in the Void (C-1)")
        applied.append(scan)
        return {"version": len(applied), "ruling": f"{scan.serial} joins {scan.zone}"}

    outbox = Outbox(tmp_path, CallSink(engine))
    w = Watcher(CardReader(), Tracker(), locator=MatLocator(), game="wuxing", players=8,
                outbox=outbox)
    kinds = []
    for i, image in enumerate(frames, 1):
        kinds += [(e.kind, e.payload, e.seq) for e in w.process(Frame(i, i / 30, image))]
        while outbox.flush_once() is not None:
            pass
    placed = [k for k in kinds if k[0] == "placed"]
    assert sorted(p for _, p, _ in placed) == sorted(c.payload for c in cards)
    assert all(seq <= 5 + 8 for _, _, seq in placed)  # within 8 frames (250 ms at 30 fps)
    assert {(s.payload, s.zone) for s in applied} == {(c.payload, c.zone) for c in cards[1:]}
    assert len({s.scan_id for s in applied}) == len(applied)
    assert sum(1 for k in kinds if k[0] == "removed") == len(cards)
    status = w.status()
    assert status["tracking"]["placed"] == len(cards)
    # The last word was the referee's: one refusal, shown with its reason.
    assert outbox.status["refused"] == 1
    assert status["sending"]["sent"] == len(cards) - 1
    assert status["zones"]["kind"] == "mat"
    jpeg = w.preview_jpeg()
    assert cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR) is not None


def test_a_refusal_is_on_the_preview_banner(run: PrintRun, renderer: scenes.SceneRenderer,
                                            tmp_path: Path) -> None:
    frames, cards = clip(run, renderer, n_cards=1, seed=5)
    outbox = Outbox(tmp_path, CallSink(lambda s: (_ for _ in ()).throw(
        CardNotAvailable("already on the table (C-1)"))))
    w = Watcher(CardReader(), Tracker(), locator=MatLocator(), game="wuxing", players=8,
                outbox=outbox)
    for i, image in enumerate(frames[:15], 1):
        w.process(Frame(i, i / 30, image))
    outbox.flush_once()
    notice = w.status()["notice"]
    assert notice["refused"] and "already on the table (C-1)" in notice["text"]
    assert cards[0].payload.split(":")[3] in notice["text"]  # names the card's serial
    # The banner is red on the preview.
    img = cv2.imdecode(np.frombuffer(w.preview_jpeg(width=1280), np.uint8), cv2.IMREAD_COLOR)
    b, g, r = img[5, 640]
    assert r > 100 and g < 60 and b < 60


def test_the_preview_page_serves_frame_and_status(run: PrintRun,
                                                  renderer: scenes.SceneRenderer) -> None:
    frames, _ = clip(run, renderer, n_cards=2, seed=8)
    w = Watcher(CardReader(), Tracker(), locator=MatLocator(), game="wuxing", players=8)
    for i, image in enumerate(frames[:12], 1):
        w.process(Frame(i, i / 30, image))
    server = PreviewServer(w, host="127.0.0.1", port=0).start()
    try:
        base = f"http://127.0.0.1:{server.port}"
        page = urllib.request.urlopen(base + "/").read().decode()
        status = json.loads(urllib.request.urlopen(base + "/status.json").read())
        jpeg = urllib.request.urlopen(base + "/frame.jpg").read()
    finally:
        server.stop()
    assert "frame.jpg" in page and "status.json" in page
    assert status["frames"] == 12 and len(status["cards"]) == 2
    assert {c["state"] for c in status["cards"]} == {"placed"}
    assert jpeg[:2] == b"\xff\xd8"


def test_scan_command_prints_cards_with_zones_as_json(
        run: PrintRun, renderer: scenes.SceneRenderer, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    frames, cards = clip(run, renderer, n_cards=3, seed=12, size=(1920, 1080))
    img = tmp_path / "table.png"
    cv2.imwrite(str(img), frames[10])
    (tmp_path / "junk.png").write_bytes(b"nope")
    code = companion_cli.main(["scan", str(img), str(tmp_path / "junk.png"), "--json",
                               "--game", "wuxing", "--players", "8"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1  # one image could not be read
    table, junk = out
    assert junk["error"] == "not a readable image"
    assert table["calibrated"] is True
    got = {c["payload"]: c for c in table["cards"]}
    assert set(got) == {c.payload for c in cards}
    for c in cards:
        found = got[c.payload]
        assert found["zone"] == c.zone
        assert found["serial"] == c.payload.split(":")[3] + "-" + c.payload.split(":")[4]
        assert len(found["corners"]) == 4 and len(found["centre"]) == 2
        assert found["face"] == c.payload.split(":")[2]


def test_watch_command_on_a_folder_prints_one_scan_per_card(
        run: PrintRun, renderer: scenes.SceneRenderer, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    frames, cards = clip(run, renderer, n_cards=2, seed=21)
    folder = tmp_path / "clip"
    folder.mkdir()
    for i, image in enumerate(frames[:40]):
        cv2.imwrite(str(folder / f"{i:03d}.jpg"), image)
    code = companion_cli.main(["watch", "--images", str(folder), "--game", "wuxing",
                               "--players", "8", "--preview-port", "0"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert code == 0
    assert sorted((x["payload"], x["zone"]) for x in lines) == sorted(
        (c.payload, c.zone) for c in cards)
    assert all(len(x["scan_id"]) == 32 for x in lines)


def test_watch_command_on_a_corrupted_video_reports_and_exits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.avi"
    bad.write_bytes(b"RIFF" + b"\x00" * 500)
    code = companion_cli.main(["watch", "--video", str(bad), "--preview-port", "0"])
    assert code == 1
    assert "cannot be opened or read" in capsys.readouterr().err
    assert companion_cli.main(["watch", "--video", str(tmp_path / "none.mp4")]) == 2


def test_without_the_mat_the_referee_calibrates_by_placing_a_card_in_each_zone(
        run: PrintRun, renderer: scenes.SceneRenderer, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """One card moved through seat:1, seat:2, universe and the Void (a 2-player WuXing table); the
    calibration then tells zones apart in a photo without relying on the markers."""
    from companion import tablemat

    rng = random.Random(30)
    size = (1280, 720)
    h = scenes.camera_homography(size, 15, 200, 0)
    look = scenes.Look(blur=0.3)
    payload = run.cards[3].payload
    folder = tmp_path / "cal"
    folder.mkdir()
    i = 0
    for name in ("seat:1", "seat:2", "universe", "void"):
        x, y = tablemat.zone_named(name, "wuxing", 2).centre
        for _ in range(8):
            image = renderer.render([scenes.PlacedCard(payload, x, y, 10)], h, size,
                                    scenes.jitter(look, rng), rng)
            cv2.imwrite(str(folder / f"{i:03d}.png"), image)
            i += 1
    cal = tmp_path / "zones.json"
    code = companion_cli.main(["watch", "--images", str(folder), "--calibrate", str(cal),
                               "--game", "wuxing", "--players", "2", "--preview-port", "0"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "place a card in seat:1 (1 of 4)" in out and "place a card in void (4 of 4)" in out
    # A photo of two cards: the calibration names their zones.
    photo = tmp_path / "photo.png"
    two = [scenes.PlacedCard(run.cards[4].payload, *tablemat.zone_named("seat:2", "wuxing",
                                                                        2).centre, 40),
           scenes.PlacedCard(run.cards[5].payload, *tablemat.zone_named("universe", "wuxing",
                                                                        2).centre, -30)]
    cv2.imwrite(str(photo), renderer.render(two, h, size, look, rng))
    assert companion_cli.main(["scan", str(photo), "--json", "--zones", str(cal)]) == 0
    found = {c["payload"]: c["zone"] for c in json.loads(capsys.readouterr().out)["cards"]}
    assert found == {two[0].payload: "seat:2", two[1].payload: "universe"}


def test_watch_command_on_a_video_clip_sends_each_card_once(
        run: PrintRun, renderer: scenes.SceneRenderer, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    frames, cards = clip(run, renderer, n_cards=3, seed=41)
    path = tmp_path / "table.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (1280, 720))
    for image in frames[:45]:
        out.write(image)
    out.release()
    code = companion_cli.main(["watch", "--video", str(path), "--game", "wuxing",
                               "--players", "8", "--preview-port", "0"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert code == 0
    assert sorted((x["payload"], x["zone"]) for x in lines) == sorted(
        (c.payload, c.zone) for c in cards)


def test_without_the_mat_in_view_nothing_is_sent_and_the_preview_says_so(
        run: PrintRun) -> None:
    """Cards on a plain table with no markers: they are seen but not placed (no zones),
    and the expensive marker search runs only every 10th frame."""
    calls = []

    class CountingLocator(MatLocator):
        def locate(self, frame: Any, hint: Any = None) -> Any:
            calls.append(1)
            return super().locate(frame, hint)

    face = scenes.synthetic_face(run.cards[0].payload)
    table = np.full((720, 1280, 3), 90, np.uint8)
    small = cv2.resize(face, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    table[300:300 + small.shape[0], 600:600 + small.shape[1]] = small
    scans: list[Scan] = []
    w = Watcher(CardReader(), Tracker(), locator=CountingLocator(), game="wuxing", players=4,
                on_scan=scans.append)
    for i in range(1, 31):
        w.process(Frame(i, i / 30, table))
    assert scans == [] and len(calls) == 3
    status = w.status()
    assert status["zones"] is None and status["cards"][0]["state"] == "candidate"
    img = cv2.imdecode(np.frombuffer(w.preview_jpeg(width=1280), np.uint8), cv2.IMREAD_COLOR)
    assert img[700, 30:400, 2].max() > 150  # the red hint line at the bottom
