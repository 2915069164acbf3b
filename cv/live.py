"""A phone propped above the table as its camera: frames (or codes) in, scans out.

The phone's page uploads JPEG frames, about 5 a second; where the browser decodes QR codes
itself (``BarcodeDetector``) it sends the codes and their corners instead, and a frame now
and then so the mat's markers are found. Both go through the tracker ``companion watch``
uses (``cv.watch.Watcher``, ``cv.tracker.Tracker``), which sends each card once, when it
lies still in a zone. At 5 frames a second, two sightings at rest (0.2 s apart) place a
card (``PHONE_TRACKING``), instead of three at 30 frames a second: a card is then accepted
about 0.2-0.4 s after it lands (``companion bench phones``, docs/camera.md).

Without the printed mat, the page may name one zone (``fixed_zone``): every card the phone
sees then goes there (a phone over one player's spot).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.runs import RunBook
from cv.detect import CardReader, Sighting, make_decoder
from cv.photo import BadPhoto, decode_grey, read_header
from cv.sender import Scan
from cv.sources import Frame
from cv.tracker import Tracker, TrackerConfig, TrackEvent
from cv.watch import Watcher
from cv.zones import MatLocator, MatZones, ZoneMap

Point = tuple[float, float]

PHONE_TRACKING = TrackerConfig(place_frames=2, still_px=6.0, window_s=0.6, remove_after_s=1.5)
MAX_FRAME_SIDE = 1920
MAX_CODES = 32


class BadFrame(CompanionError):
    """A live frame or code list the camera page should never send (size, fields, time)."""

    code = "bad_frame"


class FixedZone(ZoneMap):
    """Every point is in one zone: a phone above one spot, without the mat."""

    def __init__(self, zone: str) -> None:
        self.zone = zone

    def zone_of(self, pt: Point) -> str | None:
        return self.zone

    def describe(self) -> dict[str, Any]:
        return {"kind": "FixedZone", "zone": self.zone}


@dataclass
class Sent:
    """What became of one placed card's scan: accepted or refused, in plain words."""

    serial: str
    zone: str | None
    status: int
    message: str
    at: float = field(default_factory=time.time)


ScanPlayer = Callable[[Scan], tuple[int, str]]


class LiveCamera:
    """One phone camera of one table. ``frame``/``codes`` are serialised by a lock."""

    def __init__(self, game: str, players: int, runbook: RunBook | None, play: ScanPlayer,
                 fixed_zone: str | None = None) -> None:
        self.game, self.players = game, players
        self.fixed_zone = fixed_zone
        self.reader = CardReader(make_decoder(), runbook=runbook)
        self.watcher = Watcher(self.reader, Tracker(PHONE_TRACKING),
                               zones=FixedZone(fixed_zone) if fixed_zone else None,
                               locator=None if fixed_zone else MatLocator(),
                               game=game, players=players, on_scan=self._on_scan,
                               locate_every=5)
        self._play = play
        self.sent: list[Sent] = []
        self.lock = threading.Lock()
        self.last_t = -math.inf
        self.last_seen = time.monotonic()
        self.size: tuple[int, int] = (0, 0)

    def _on_scan(self, scan: Scan) -> None:
        status, message = self._play(scan)
        self.sent.append(Sent(scan.serial, scan.zone, status, message))
        del self.sent[:-20]

    def _clock(self, seq: Any, t: Any) -> tuple[int, float]:
        if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 10**9:
            raise BadFrame(f"seq must be a whole number 0-999999999, got {seq!r}")
        if (not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t)
                or not 0 <= t < 1e7):
            raise BadFrame(f"t must be seconds (a number 0-10000000), got {t!r}")
        if t < self.last_t - 1.0:
            # The page was reloaded (its clock restarted): start tracking afresh.
            self.watcher.tracker.tracks.clear()
        self.last_t = float(t)
        self.last_seen = time.monotonic()
        return seq, float(t)

    def frame(self, data: bytes, seq: Any, t: Any) -> list[TrackEvent]:
        """Read one uploaded JPEG/PNG frame; returns its tracking events.

        Raises ``BadFrame`` for a bad ``seq``/``t``, ``BadPhoto`` for bytes that are not a
        readable image of at most ``MAX_FRAME_SIDE`` pixels a side.
        """
        header = read_header(data)
        if max(header.width, header.height) > MAX_FRAME_SIDE:
            raise BadPhoto(f"a live frame is at most {MAX_FRAME_SIDE} pixels a side, got "
                           f"{header.width}x{header.height}")
        seq, tt = self._clock(seq, t)
        grey = decode_grey(data, header)
        self.size = (grey.shape[1], grey.shape[0])
        return self.watcher.process(Frame(seq, tt, grey))

    def codes(self, codes: Any, seq: Any, t: Any, size: Any) -> list[TrackEvent]:
        """Codes the phone decoded itself: ``[{"text", "corners": [[x, y] x 4]}]`` in the
        pixels of a frame of ``size`` ``[width, height]``; returns the tracking events.

        Raises ``BadFrame`` naming the first bad field.
        """
        seq, tt = self._clock(seq, t)
        if (not isinstance(size, list) or len(size) != 2 or not all(
                isinstance(v, int) and not isinstance(v, bool) and 16 <= v <= MAX_FRAME_SIDE
                for v in size)):
            raise BadFrame(f"size must be [width, height] of 16-{MAX_FRAME_SIDE} pixels, "
                           f"got {size!r}")
        if not isinstance(codes, list) or len(codes) > MAX_CODES:
            raise BadFrame(f"codes must be a list of at most {MAX_CODES}, got {codes!r:.80}")
        sightings: list[Sighting] = []
        for c in codes:
            text, corners = _code_fields(c, size)
            ident = self.reader.accept(text)
            if ident is not None:
                sightings.append(Sighting(text, *ident, corners))
        self.size = (size[0], size[1])
        events = self.watcher.tracker.update(seq, tt, sightings)
        for e in events:
            if e.kind == "placed":
                self._on_scan(Scan(e.scan_id, e.payload, e.zone, e.serial, time.time()))
        return events

    def state(self) -> dict[str, Any]:
        """What the page draws over its video: zones and cards (frame pixels), last sends."""
        zones = self.watcher.zones
        return {
            "size": list(self.size),
            "mat": isinstance(zones, MatZones),
            "zones": [{"zone": name, "outline": [[round(x), round(y)] for x, y in pts]}
                      for name, pts in (zones.outlines() if zones else [])],
            "cards": [{"serial": t.serial, "state": t.state, "zone": t.zone,
                       "outline": [[round(x), round(y)] for x, y in t.corners]}
                      for t in self.watcher.tracker.tracks.values()],
            "sent": [{"serial": s.serial, "zone": s.zone, "status": s.status,
                      "message": s.message, "at": s.at} for s in self.sent[-5:]],
        }


def _code_fields(c: Any, size: Sequence[int]) -> tuple[str, tuple[Point, ...]]:
    if not isinstance(c, dict) or set(c) - {"text", "corners"}:
        raise BadFrame(f'a code is {{"text", "corners"}}, got {c!r:.80}')
    text, corners = c.get("text"), c.get("corners")
    if not isinstance(text, str) or not 0 < len(text) <= 200:
        raise BadFrame(f"a code's text is 1-200 characters, got {text!r:.80}")
    if (not isinstance(corners, list) or len(corners) != 4 or not all(
            isinstance(p, list) and len(p) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and -size[0] <= v <= 2 * size[0] for v in p) for p in corners)):
        raise BadFrame(f"a code's corners are four [x, y] points in the frame, got "
                       f"{corners!r:.80}")
    return text, tuple((float(p[0]), float(p[1])) for p in corners)


def encode_frame(image: np.ndarray[Any, Any], quality: int = 80) -> bytes:
    """A frame as the camera page uploads it (canvas ``toBlob('image/jpeg', 0.8)``)."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise BadPhoto("OpenCV could not encode the frame")
    return bytes(buf)
