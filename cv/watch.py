"""The camera loop: frames -> cards -> zones -> placements -> scans, plus the preview.

``Watcher.process`` takes one frame and returns its tracking events; each placement is
queued in the ``Outbox`` (or printed, without a referee). ``Watcher.preview_jpeg`` and
``Watcher.status`` are what a web page shows: the annotated frame (zones, cards with
their state, the last ruling or refusal) as JPEG bytes and a small JSON-ready dict. The
web app can serve them; ``PreviewServer`` serves them itself for a headless Pi.
``Watcher.health`` is the heartbeat posted once a second to the referee (``cv.health``).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import cv2
import numpy as np

from cv.cover import BareCheck
from cv.detect import CardReader
from cv.health import Heartbeat, LastSent, last_sent
from cv.sender import HttpSink, Outbox, Outcome, Scan
from cv.sight import Sight, describe, judge
from cv.sources import Frame, FrameSource
from cv.tracker import Tracker, TrackEvent
from cv.zones import Calibrator, MatLocator, MatZones, ZoneMap

log = logging.getLogger(__name__)
Image = np.ndarray[Any, Any]
Point = tuple[float, float]

GREEN, YELLOW, RED, GREY, WHITE = (60, 200, 60), (0, 200, 230), (40, 40, 230), (160, 160, 160), (
    255, 255, 255)


@dataclass(frozen=True)
class CardView:
    """A tracked card as the preview shows it (a snapshot, safe to read from any thread)."""

    serial: str
    face: str
    state: str
    zone: str | None
    centre: Point
    conflict: bool
    corners: tuple[Point, ...]


@dataclass
class Notice:
    """The last thing the referee said, for the preview banner."""

    text: str
    refused: bool
    at: float


class Watcher:
    """Glue for one table's camera. Thread-safe for ``status``/``preview_jpeg`` readers."""

    def __init__(self, reader: CardReader, tracker: Tracker, *,
                 zones: ZoneMap | None = None, locator: MatLocator | None = None,
                 game: str | None = None, players: int | None = None,
                 outbox: Outbox | None = None,
                 on_scan: Callable[[Scan], None] | None = None,
                 calibrator: Calibrator | None = None, locate_every: int = 30,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.reader, self.tracker = reader, tracker
        self.zones = zones
        self.locator = locator
        self.game, self.players = game, players
        self.outbox = outbox
        self.on_scan = on_scan
        self.calibrator = calibrator
        self.on_prompt: Callable[[str], None] | None = None  # calibration: what to do next
        # Whether the camera sees well enough, in words; said again whenever it changes.
        self.on_advice: Callable[[str], None] | None = None
        self.sight: Sight | None = None
        self.locate_every = locate_every
        self.tracker.zone_of = self._zone_of
        self.tracker.require_zone = zones is not None or locator is not None
        if calibrator is not None:
            self.tracker.require_zone = False
        self.events: deque[TrackEvent] = deque(maxlen=50)
        self.notice: Notice | None = None
        self.frames = 0
        self.ms: deque[float] = deque(maxlen=120)
        self._lock = threading.Lock()
        self._last: Frame | None = None
        self._cards: list[CardView] = []
        self._last_locate = -10**9
        self.mat_lost = 0
        self.clock = clock  # for the heartbeat's frames per second
        self._frame_clock: deque[float] = deque(maxlen=90)
        self._mat_seen = False  # the last look for the mat found it
        self._in_view = 0  # cards read in the last frame
        self.last_sent: LastSent | None = None
        self.heartbeat: Heartbeat | None = None
        if outbox is not None:
            outbox.on_outcome = self._on_outcome

    def _zone_of(self, pt: Point) -> str | None:
        if self.calibrator is not None:
            # No zones yet: a coarse grid cell stands in, so moving the card to the next
            # zone counts as a new placement (the calibrator records its centre).
            return f"spot:{int(pt[0] // 80)}:{int(pt[1] // 80)}"
        if self.zones is None:
            return None
        return self.zones.zone_of(pt)

    def _on_outcome(self, scan: Scan, outcome: Outcome) -> None:
        where = f" in {scan.zone}" if scan.zone else ""
        if outcome.status == "refused":
            text = f"REFUSED {scan.serial}{where}: {outcome.message}"
        else:
            text = outcome.message or f"{scan.serial}{where} accepted"
        with self._lock:
            self.notice = Notice(text, outcome.status == "refused", time.time())
            self.last_sent = last_sent(scan, outcome)

    def process(self, frame: Frame) -> list[TrackEvent]:
        """Read one frame, update tracking, queue a scan per placement."""
        start = time.perf_counter()
        # Follow the mat every ``locate_every`` frames; while it is not found, every 10th
        # frame (a whole-frame marker search costs 10-15 ms at 720p).
        every = self.locate_every if self.zones is not None else 10
        if self.locator is not None and self.game and self.players and (
                frame.seq - self._last_locate >= every):
            self._last_locate = frame.seq
            hint = self.zones.pose if isinstance(self.zones, MatZones) else None
            pose = self.locator.locate(frame.image, hint)
            self._mat_seen = pose is not None
            if pose is not None:
                self.zones = MatZones(pose, self.game, self.players)
                self._judge_sight(frame.image, pose.to_mat, frame.scale)
            elif hint is not None:
                self.mat_lost += 1  # keep the last pose: a hand over a marker is common
        regions = self.zones.regions() if isinstance(self.zones, MatZones) else ()
        sightings = self.reader.read(frame.image, regions)
        bare = (BareCheck(frame.image, self.zones.pose.to_mat)
                if isinstance(self.zones, MatZones) else None)
        events = self.tracker.update(frame.seq, frame.t, sightings, bare)
        for e in events:
            if e.kind == "conflict":
                log.warning("%s", e.detail)
                with self._lock:
                    self.notice = Notice(e.detail + "; remove one copy", True, time.time())
            if e.kind != "placed":
                continue
            if self.calibrator is not None:
                if self.calibrator.centres and min(
                        np.hypot(e.centre[0] - x, e.centre[1] - y)
                        for x, y in self.calibrator.centres.values()) < 60:
                    continue  # the same place again, not the next zone
                zone = self.calibrator.record(e.centre)
                prompt = self.calibrator.prompt()
                log.info("calibrated %s at (%.0f, %.0f); next: %s", zone, *e.centre, prompt)
                with self._lock:
                    self.notice = Notice(prompt, False, time.time())
                if self.on_prompt is not None:
                    self.on_prompt(prompt)
                continue
            scan = Scan(e.scan_id, e.payload, e.zone, e.serial, time.time())
            if self.outbox is not None:
                self.outbox.put(scan)
            if self.on_scan is not None:
                self.on_scan(scan)
        cards = [CardView(t.serial, t.face, t.state, t.zone, t.centre, t.conflict, t.corners)
                 for t in self.tracker.tracks.values()]
        with self._lock:
            self._cards = cards
            self._in_view = len({s.serial for s in sightings})
            self._frame_clock.append(self.clock())
            self.events.extend(events)
            self.frames += 1
            self._last = frame
            self.ms.append((time.perf_counter() - start) * 1000)
        return events

    def _judge_sight(self, image: Image, to_mat: Image, scale: float = 1.0) -> None:
        """Scale and light from the mat (``cv.sight``); tell the user when it changes."""
        if not (self.game and self.players):
            return
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        # A 4K frame decoded at half size (scale 0.5) is judged in the camera's pixels.
        sight = judge(gray, to_mat, self.game, self.players, scale=scale)
        before = self.sight.problems if self.sight is not None else None
        with self._lock:
            self.sight = sight
        if sight.problems != before and (sight.problems or before):
            text = describe(sight.problems)
            if sight.problems:
                log.warning("camera: %s", text)
            if self.on_advice is not None:
                self.on_advice(text)

    def health(self) -> dict[str, Any]:
        """The heartbeat's body (``cv.health``): frames per second over the last 2 s (0 if
        no frame came for 2 s), whether the mat is in view, cards read in the last frame,
        what is wrong in plain words, and the last card sent with the referee's answer."""
        now = self.clock()
        with self._lock:
            times = [t for t in self._frame_clock if now - t <= 2.0]
            in_view, last = self._in_view, self.last_sent
            sight = self.sight
        fps = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and (
            times[-1] > times[0]) else 0.0
        mat = (isinstance(self.zones, MatZones) and self._mat_seen) or (
            self.locator is None and self.zones is not None)
        problems: list[str] = []
        if not times:
            problems.append("no picture from the camera")
        elif self.locator is not None and not mat:
            problems.append("the camera does not see the mat: all four corner markers must "
                            "be in view")
        if sight is not None:
            problems += sight.problems
        return {"fps": round(fps, 1), "mat": bool(mat), "cards": in_view if times else 0,
                "problems": problems, "last": last.as_dict() if last is not None else None}

    def start_heartbeat(self, sink: HttpSink, every: float = 1.0) -> Heartbeat:
        """Post ``health()`` to the referee every ``every`` seconds from a thread of its
        own (``cv.health.Heartbeat``); ``run`` does this itself when scans go to a
        referee over HTTP."""
        if self.heartbeat is None:
            self.heartbeat = Heartbeat(sink, self.health, every=every).start()
        return self.heartbeat

    def stop_heartbeat(self) -> None:
        if self.heartbeat is not None:
            self.heartbeat.stop()
            self.heartbeat = None

    def run(self, source: FrameSource, stop: threading.Event | None = None,
            max_frames: int | None = None) -> int:
        """Process frames until the source ends, ``stop`` is set, or ``max_frames``; while
        scans go to a referee over HTTP, post the heartbeat once a second."""
        n = 0
        sink = self.outbox.sink if self.outbox is not None else None
        own_beat = self.heartbeat is None and isinstance(sink, HttpSink)
        if own_beat and isinstance(sink, HttpSink):
            self.start_heartbeat(sink)
        source.start()
        try:
            for frame in source.frames():
                self.process(frame)
                n += 1
                if (stop is not None and stop.is_set()) or (max_frames and n >= max_frames):
                    break
                if self.calibrator is not None and self.calibrator.done:
                    break
        finally:
            source.stop()
            if own_beat:
                self.stop_heartbeat()
        return n

    # -- what the preview shows --

    def status(self) -> dict[str, Any]:
        """A small JSON-ready summary: cards and their states, counters, last ruling."""
        with self._lock:
            ms = sorted(self.ms)
            notice = self.notice
            recent = list(self.events)[-10:]
            views = list(self._cards)
            sight = self.sight
        cards = [{"serial": t.serial, "face": t.face, "state": t.state, "zone": t.zone,
                  "centre": [round(t.centre[0]), round(t.centre[1])], "conflict": t.conflict}
                 for t in views]
        out: dict[str, Any] = {
            "frames": self.frames,
            "ms_median": round(ms[len(ms) // 2], 2) if ms else None,
            "cards": cards,
            "zones": self.zones.describe() if self.zones else None,
            "ignored": dict(self.reader.stats.ignored),
            "tracking": dict(self.tracker.counts),
            "events": [{"kind": e.kind, "serial": e.serial, "zone": e.zone, "seq": e.seq,
                        "detail": e.detail} for e in recent],
            "notice": ({"text": notice.text, "refused": notice.refused, "at": notice.at}
                       if notice else None),
        }
        out["sight"] = sight.as_dict() if sight is not None else None
        out["health"] = self.health()
        if self.heartbeat is not None:
            out["heartbeat"] = dict(self.heartbeat.counts)
        if self.outbox is not None:
            out["sending"] = self.outbox.status
        if self.calibrator is not None:
            out["calibration"] = self.calibrator.prompt()
        return out

    def preview_jpeg(self, width: int = 960, quality: int = 70) -> bytes:
        """The last frame annotated with zones, cards and the last ruling, as JPEG."""
        with self._lock:
            frame = self._last
            notice = self.notice
            views = list(self._cards)
            sight = self.sight
        img: Image
        if frame is None:
            img = np.full((360, 640, 3), 40, np.uint8)
            cv2.putText(img, "waiting for the camera...", (20, 180), cv2.FONT_HERSHEY_SIMPLEX,
                        0.9, WHITE, 2)
        else:
            img = annotate(frame.image, self.zones, views, notice)
            if self.locator is not None and self.zones is None:
                cv2.putText(img, "looking for the mat's four corner markers...",
                            (20, img.shape[0] - 20), cv2.FONT_HERSHEY_SIMPLEX, 0.8, RED, 2)
            elif sight is not None and sight.problems:
                _footer(img, sight.problems)
        if img.shape[1] > width:
            img = cv2.resize(img, (width, round(img.shape[0] * width / img.shape[1])),
                             interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return bytes(buf) if ok else b""


def annotate(image: Image, zones: ZoneMap | None, tracks: list[CardView],
             notice: Notice | None) -> Image:
    """A copy of ``image`` with zone outlines, card outlines by state, and a banner."""
    img = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    scale = max(1.0, img.shape[1] / 1280)
    thick = max(1, round(2 * scale))
    if zones is not None:
        for name, pts in zones.outlines():
            poly = np.array(pts, np.int32)
            cv2.polylines(img, [poly], True, GREY, 1)
            x, y = poly[:, 0].min(), poly[:, 1].max()
            cv2.putText(img, name, (int(x) + 4, int(y) - 4), cv2.FONT_HERSHEY_SIMPLEX,
                        0.45 * scale, GREY, 1)
    for t in tracks:
        colour = RED if t.conflict else GREEN if t.state == "placed" else YELLOW
        if t.corners:
            cv2.polylines(img, [np.array(t.corners, np.int32)], True, colour, thick)
        label = f"{t.serial} {t.zone or ''} {t.state}"
        x, y = int(t.centre[0]), int(t.centre[1])
        cv2.putText(img, label, (x - 60, y - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale,
                    (0, 0, 0), thick + 2)
        cv2.putText(img, label, (x - 60, y - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale,
                    colour, thick)
    if notice is not None:
        h = round(36 * scale)
        cv2.rectangle(img, (0, 0), (img.shape[1], h), (0, 0, 150) if notice.refused
                      else (40, 90, 40), -1)
        cv2.putText(img, notice.text[:110], (10, h - round(11 * scale)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, WHITE, max(1, thick - 1))
    return img


def _footer(img: Image, lines: tuple[str, ...]) -> None:
    """The camera's own problems (``cv.sight``) in a red band at the bottom of ``img``."""
    scale = max(1.0, img.shape[1] / 1280)
    step = round(30 * scale)
    top = img.shape[0] - step * len(lines) - round(8 * scale)
    cv2.rectangle(img, (0, top), (img.shape[1], img.shape[0]), (0, 0, 150), -1)
    for i, line in enumerate(lines):
        cv2.putText(img, line[:110], (10, top + step * (i + 1) - round(8 * scale)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, WHITE, max(1, round(scale)))


_PAGE = b"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Table camera</title><style>body{font-family:sans-serif;margin:1em;background:#222;
color:#eee}img{max-width:100%}pre{white-space:pre-wrap}</style></head><body>
<h1>Table camera</h1><img id="f" src="frame.jpg" alt="annotated camera view">
<p id="a" style="color:#f88;font-size:1.3em"></p><p id="n"></p><pre id="s"></pre><script>
async function tick(){try{const r=await fetch('status.json');const s=await r.json();
document.getElementById('a').textContent=s.sight?s.sight.problems.join('. '):'';
document.getElementById('n').textContent=s.notice?s.notice.text:'';
document.getElementById('s').textContent=JSON.stringify(s,null,1);}catch(e){}
document.getElementById('f').src='frame.jpg?'+Date.now();}
setInterval(tick,400);</script></body></html>"""


class PreviewServer:
    """A tiny HTTP server: ``/`` page, ``/frame.jpg``, ``/status.json``."""

    def __init__(self, watcher: Watcher, host: str = "0.0.0.0", port: int = 8765) -> None:
        w = watcher

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                if path in ("/", "/index.html"):
                    self._send(200, "text/html; charset=utf-8", _PAGE)
                elif path == "/frame.jpg":
                    self._send(200, "image/jpeg", w.preview_jpeg())
                elif path == "/status.json":
                    self._send(200, "application/json", json.dumps(w.status()).encode())
                else:
                    self._send(404, "text/plain", b"not found")

            def _send(self, code: int, ctype: str, body: bytes) -> None:
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                # The referee's pages (another origin) may poll the status.
                self.send_header("Access-Control-Allow-Origin", "*")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer((host, port), Handler)
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="preview",
                                        daemon=True)

    def start(self) -> PreviewServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(5)
