"""The camera's heartbeat (issue 26 §5) against a tiny real HTTP server: its body, once a
second, dropped (not queued) while the referee is down, Retry-After honoured, the last
card's answer in words, and a post that hangs never holds up the frame loop. Time is
driven by the test's own clock, never measured."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from bench import scenes
from companion.runs import PrintRun, RunBook
from cv.detect import CardReader
from cv.health import Heartbeat
from cv.sender import HttpSink, Outbox
from cv.sources import Frame, ImageFolderSource
from cv.tracker import Tracker
from cv.watch import Watcher
from cv.zones import MatLocator

TOKEN = "cam-token-1"


class Referee:
    """Answers ``/camera`` with 204 (or what ``camera`` says) and ``/scans`` like the C-9
    referee: the first card played, a pile card "already there", a third refused."""

    def __init__(self) -> None:
        self.beats: list[dict[str, Any]] = []
        self.auth: list[str] = []
        self.camera: list[tuple[int, dict[str, str]]] = []  # answers to use first
        self.hold: threading.Event | None = None  # keep /camera requests waiting
        self.arrived = threading.Event()
        self.scans: dict[str, dict[str, Any]] = {}  # payload -> (status, body) by order
        self.answers: list[tuple[int, dict[str, Any]]] = []
        ref = self

        class H(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                ref.auth.append(self.headers.get("Authorization", ""))
                if self.path == "/api/tables/t1/camera":
                    ref.beats.append(body)
                    ref.arrived.set()
                    if ref.hold is not None:
                        ref.hold.wait(60)
                    code, headers = ref.camera.pop(0) if ref.camera else (204, {})
                    self.send_response(code)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                code, data = ref.answers.pop(0)
                raw = json.dumps(data).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        if self.hold is not None:
            self.hold.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def referee() -> Iterator[Referee]:
    r = Referee()
    yield r
    r.close()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _frames(run: PrintRun, renderer: scenes.SceneRenderer, n_cards: int = 3
            ) -> tuple[list[np.ndarray], list[scenes.PlacedCard]]:
    rng = random.Random(21)
    cards = scenes.random_cards(run, n_cards, "wuxing", 8, rng)
    size = (1280, 720)
    h = scenes.camera_homography(size, 20, 40, 2)
    look = scenes.Look(blur=0.4, noise=3.0, gradient=0.2)
    return [renderer.render(cards, h, size, scenes.jitter(look, rng), rng)
            for _ in range(8)], cards


def test_the_heartbeat_says_fps_mat_cards_problems_and_the_last_answer_in_words(
        run: PrintRun, renderer: scenes.SceneRenderer, referee: Referee,
        tmp_path: Path) -> None:
    frames, cards = _frames(run, renderer)
    clock = Clock()
    sink = HttpSink(referee.url, "t1", TOKEN)
    outbox = Outbox(tmp_path, sink)
    w = Watcher(CardReader(runbook=RunBook([run])), Tracker(), locator=MatLocator(),
                game="wuxing", players=8, outbox=outbox, clock=clock)
    beat = Heartbeat(sink, w.health, clock=clock)
    assert beat.tick(clock.now) == "sent"  # before any frame: the camera gives no picture
    assert referee.beats[0] == {"fps": 0.0, "mat": False, "cards": 0,
                                "problems": ["no picture from the camera"], "last": None}
    for i, image in enumerate(frames, 1):
        clock.now += 1 / 20  # the loop keeps up 20 frames a second
        w.process(Frame(i, i / 30, image))
    clock.now = 101.0  # a second after the first heartbeat
    assert beat.tick(clock.now) == "sent"
    body = referee.beats[-1]
    assert set(body) == {"fps", "mat", "cards", "problems", "last"}
    assert body["fps"] == pytest.approx(20.0)
    assert body["mat"] is True and body["cards"] == len(cards)
    assert body["problems"] == [] and body["last"] is None
    assert referee.auth[-1] == f"Bearer {TOKEN}"
    # Three scans answered: played, already there (C-9), refused.
    referee.answers += [
        (200, {"card": "x", "version": 4, "ruling": "Fire joins the Universe"}),
        (200, {"card": "y", "name": "Water", "zone": "universe", "version": 4,
               "already_there": True, "ruling": "C-9"}),
        (409, {"error": "That card is in the Void; it cannot be played", "code": "void"})]
    words = []
    for answer in ("played", "already there", "refused"):
        assert outbox.flush_once() is not None
        clock.now += 1.0
        assert beat.tick(clock.now) == "sent"
        last = referee.beats[-1]["last"]
        assert last is not None and last["answer"] == answer
        assert {last["card"], last["zone"]} <= ({c.payload.split(":")[3] + "-" +
                                                 c.payload.split(":")[4] for c in cards}
                                                | {c.zone for c in cards})
        words.append(last["words"])
    assert words == ["Fire joins the Universe", "Water was already there",
                     "That card is in the Void; it cannot be played"]
    # The camera stops delivering frames: two seconds on, it says so.
    clock.now += 2.5
    assert beat.tick(clock.now) == "sent"
    assert referee.beats[-1]["fps"] == 0.0
    assert referee.beats[-1]["problems"] == ["no picture from the camera"]


def _beats(referee: Referee, clock: Clock, beat: Heartbeat, seconds: float) -> list[str]:
    """Tick every 0.1 s of the test's clock for ``seconds``."""
    out: list[str] = []
    for _ in range(round(seconds * 10)):
        out.append(beat.tick(clock.now))
        clock.now = round(clock.now + 0.1, 6)
    return out


def test_once_a_second_and_a_429_is_waited_out(referee: Referee) -> None:
    clock = Clock()
    beat = Heartbeat(HttpSink(referee.url, "t1", TOKEN), lambda: {"fps": 1.0}, clock=clock)
    results = _beats(referee, clock, beat, 5.0)
    assert results.count("sent") == 5 and len(referee.beats) == 5  # 0, 1, 2, 3, 4 s
    referee.camera.append((429, {"Retry-After": "3"}))
    results = _beats(referee, clock, beat, 5.0)
    # at 5 s: limited; nothing posted before 8 s; then 8 and 9 s.
    assert results[0] == "limited" and results[1:30].count("waiting") == 29
    assert results.count("sent") == 2 and len(referee.beats) == 5 + 3
    assert beat.counts == {"sent": 7, "dropped": 0, "limited": 1, "refused": 0}


def test_while_the_referee_is_down_heartbeats_are_dropped_not_queued(
        referee: Referee) -> None:
    clock = Clock()
    beat = Heartbeat(HttpSink(referee.url, "t1", TOKEN), lambda: {"fps": 1.0}, clock=clock)
    referee.camera += [(503, {})] * 3
    results = _beats(referee, clock, beat, 3.0)
    assert results.count("dropped") == 3
    results = _beats(referee, clock, beat, 2.0)
    # Back: one a second as before, no burst of the three that were missed.
    assert results.count("sent") == 2 and len(referee.beats) == 5
    # A referee that is not there at all: refused connections are dropped too.
    gone = Heartbeat(HttpSink("http://127.0.0.1:9", "t1", TOKEN), lambda: {}, clock=clock)
    assert [gone.tick(clock.now + k) for k in range(3)] == ["dropped"] * 3


def test_a_heartbeat_that_hangs_never_holds_up_the_frame_loop(
        run: PrintRun, renderer: scenes.SceneRenderer, referee: Referee) -> None:
    frames, cards = _frames(run, renderer, n_cards=2)
    referee.hold = threading.Event()
    w = Watcher(CardReader(runbook=RunBook([run])), Tracker(), locator=MatLocator(),
                game="wuxing", players=8)
    w.start_heartbeat(HttpSink(referee.url, "t1", TOKEN))
    try:
        assert referee.arrived.wait(30)  # the first heartbeat is stuck in the referee
        placed = []
        for i, image in enumerate(frames, 1):
            placed += [e.payload for e in w.process(Frame(i, i / 30, image))
                       if e.kind == "placed"]
        assert sorted(placed) == sorted(c.payload for c in cards)
        assert len(referee.beats) == 1  # nothing piled up behind the stuck one
        assert w.heartbeat is not None and w.heartbeat.counts["sent"] == 0
    finally:
        referee.hold.set()
        w.stop_heartbeat()


def test_watching_for_a_referee_over_http_posts_the_heartbeat_and_stops_with_the_source(
        run: PrintRun, renderer: scenes.SceneRenderer, referee: Referee,
        tmp_path: Path) -> None:
    frames, cards = _frames(run, renderer, n_cards=2)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, image in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:03d}.png"), image)
    referee.answers += [(200, {"version": 1, "ruling": "ok"})] * len(cards)
    outbox = Outbox(tmp_path / "state", HttpSink(referee.url, "t1", TOKEN))
    w = Watcher(CardReader(runbook=RunBook([run])), Tracker(), locator=MatLocator(),
                game="wuxing", players=8, outbox=outbox)
    assert w.run(ImageFolderSource(folder)) == len(frames)
    assert w.heartbeat is None  # stopped with the source
    assert referee.beats and set(referee.beats[0]) == {"fps", "mat", "cards", "problems",
                                                       "last"}
    assert all(a == f"Bearer {TOKEN}" for a in referee.auth)
