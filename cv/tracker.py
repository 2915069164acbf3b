"""Tracking cards over frames: when a card is *placed*, *removed*, or seen twice.

A card becomes **placed** once it has been seen ``place_frames`` times in a row of
sightings (misses in between are allowed, within ``window_s``) in the same zone and has
stopped moving (its centre moved less than ``still_px`` between those sightings). That
placement yields exactly one ``placed`` event with a fresh ``scan_id``, however long the
card lies there. If it settles in another zone it is removed from the old one and placed
in the new one. A card seen at two places in one frame (two copies of one code: a
photocopy, another table's print) gives one ``conflict`` event and is not advanced until it
is seen once again.

A placed card that is no longer read is **removed** (C-9: a card leaves a zone when it is
no longer seen there, also when another card now covers its place) when:

* another card, read at rest and placed after it was last read, lies over
  ``cover_share`` of its code's place (the next card laid on the same spot, a pile's new
  top card: the card under it is gone from view);
* with the mat's bare-place check (``cv.cover.BareCheck``, given with each frame): its
  place shows bare mat for ``bare_after_s``; or the card under it in a pile (read at rest)
  shows its face where its code lay (a pile's top card taken off);
* without it (a calibration by hand: no paper to compare with): it is absent for
  ``remove_after_s``.

A hand over cards, however long, hides codes without baring their places or showing a new
code there: no removal, and no second scan when they show again. A card read again after
its place was seen bare (``back_after_bare`` frames in a row), even before its removal was
due, has left and come back: a new placement (a new scan; the referee answers "already
there" for a card it knows lies in that pile, C-9, and refuses one that cannot come from
where it was, C-1).

Defaults are from ``companion bench cv`` (docs/camera.md): a still card on the mat is read
in more than 99 % of 720p frames and never falsely, so three sightings at rest place it
after about 100 ms at 30 fps (99.8 % of cards placed within 250 ms at 720p, 100 % at
1080p); brisk play (``companion bench cv --brisk``: a card at rest 0.4 s, the next laid
0.7 s after a collection) loses no card and sends none twice.

Time comes from the frames (``Frame.t``), so tests and recorded clips are deterministic.
"""

from __future__ import annotations

import itertools
import math
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from cv.cover import card_outline, covered_share
from cv.detect import Sighting

Point = tuple[float, float]
EventKind = Literal["placed", "removed", "conflict"]


@dataclass(frozen=True)
class TrackerConfig:
    place_frames: int = 3
    still_px: float = 6.0
    window_s: float = 0.5
    remove_after_s: float = 1.5  # absence alone (no mat to see the place bare)
    bare_after_s: float = 0.3  # with the mat: the place seen bare this long (C-9)
    cover_share: float = 0.2  # another card over this share of the code's place (C-9)
    back_after_bare: int = 2  # frames in a row of bare place: read again, a new placement
    conflict_px: float = 40.0  # two sightings of one code further apart are two places


@dataclass(frozen=True)
class TrackEvent:
    """Something the table should know: a card placed (send a scan), removed, or doubled."""

    kind: EventKind
    serial: str
    payload: str
    face: str
    zone: str | None
    centre: Point
    seq: int
    t: float
    scan_id: str = ""
    detail: str = ""


@dataclass
class _Seen:
    seq: int
    t: float
    centre: Point
    zone: str | None


@dataclass
class Track:
    """What the tracker knows about one card (by serial)."""

    serial: str
    payload: str
    face: str
    state: Literal["candidate", "placed"] = "candidate"
    zone: str | None = None  # the placed zone
    scan_id: str = ""
    seen: deque[_Seen] = field(default_factory=lambda: deque(maxlen=16))
    last_t: float = 0.0
    last_seq: int = 0
    conflict: bool = False
    corners: tuple[Point, ...] = ()
    code: tuple[Point, ...] = ()  # the code's corners when last read
    bare_since: float | None = None  # first frame time of the place seen bare, unread
    bare_run: int = 0  # frames in a row its place was seen bare, unread
    left: bool = False  # its place was bare ``back_after_bare`` frames in a row since read
    placed_t: float = 0.0  # frame time of the (latest) placement
    resting: bool = False  # at rest in its latest sightings
    card_known: bool = False  # ``corners`` are the card's outline (else its code's)
    look: Any = None  # its code's place as it looked when placed (``cv.cover.signature``)

    @property
    def centre(self) -> Point:
        return self.seen[-1].centre if self.seen else (0.0, 0.0)


def _new_scan_id() -> str:
    return uuid.uuid4().hex


class Tracker:
    """Turns per-frame sightings into placements; ``update`` returns the frame's events."""

    def __init__(self, config: TrackerConfig | None = None,
                 zone_of: Callable[[Point], str | None] | None = None,
                 new_id: Callable[[], str] = _new_scan_id) -> None:
        self.config = config or TrackerConfig()
        self.zone_of = zone_of or (lambda pt: None)
        # With zones, a card resting between zones is not placed; without, any rest is.
        self.require_zone = zone_of is not None
        self.tracks: dict[str, Track] = {}
        self._new_id = new_id
        self.counts: dict[str, int] = {"placed": 0, "removed": 0, "conflict": 0}

    def _settled(self, track: Track) -> tuple[bool, str | None]:
        """Whether the latest sightings agree on one zone and rest, and that zone."""
        cfg = self.config
        recent = [s for s in track.seen if track.last_t - s.t <= cfg.window_s]
        if len(recent) < cfg.place_frames:
            return False, None
        run = recent[-cfg.place_frames:]
        zone = run[-1].zone
        for a, b in itertools.pairwise(run):
            if b.zone != zone or a.zone != zone:
                return False, None
            if math.dist(a.centre, b.centre) > cfg.still_px:
                return False, None
        return True, zone

    def update(self, seq: int, t: float, sightings: Sequence[Sighting],
               bare: Callable[[tuple[Point, ...]], bool] | None = None) -> list[TrackEvent]:
        """Feed one frame's sightings (``t`` in seconds); returns what happened.

        ``bare`` (``cv.cover.BareCheck``) tells from the frame whether a code's place
        shows bare mat; without it a placed card is removed on absence alone.
        """
        cfg = self.config
        events: list[TrackEvent] = []
        by_serial: dict[str, list[Sighting]] = {}
        for s in sightings:
            by_serial.setdefault(s.serial, []).append(s)
        for serial, group in by_serial.items():
            track = self.tracks.get(serial)
            if track is None:
                track = self.tracks[serial] = Track(serial, group[0].payload, group[0].face)
            far = [g for g in group[1:] if math.dist(g.centre, group[0].centre) > cfg.conflict_px]
            if far:
                if not track.conflict:
                    track.conflict = True
                    self.counts["conflict"] += 1
                    events.append(TrackEvent(
                        "conflict", serial, group[0].payload, track.face, track.zone,
                        group[0].centre, seq, t,
                        detail=f"card {serial} is seen in {len(far) + 1} places at once"))
                track.last_t, track.last_seq = t, seq  # present, but where is unknown
                continue
            track.conflict = False
            s = group[0]
            zone = self.zone_of(s.centre)
            if track.state == "placed" and track.left:
                # Its place was seen bare since it was last read: it left and came back
                # (C-9), a new placement however soon, even before the removal was due.
                events.append(self._event("removed", track, seq, t, "gone and back"))
                track.state, track.zone, track.scan_id = "candidate", None, ""
                track.seen.clear()
            track.bare_run, track.left = 0, False
            track.seen.append(_Seen(seq, t, s.centre, zone))
            track.last_t, track.last_seq = t, seq
            track.corners = s.card.corners if s.card is not None else s.corners
            track.card_known = s.card is not None
            track.code, track.bare_since = s.corners, None
            still, settled = self._settled(track)
            track.resting = still
            if not still or (settled is None and self.require_zone):
                continue
            if track.state == "placed" and settled == track.zone:
                continue
            if track.state == "placed":
                events.append(self._event("removed", track, seq, t, "moved to " + str(settled)))
            track.state, track.zone, track.scan_id = "placed", settled, self._new_id()
            track.placed_t = t
            sig = getattr(bare, "signature", None)
            track.look = sig(track.code) if sig is not None else None
            self.counts["placed"] += 1
            events.append(self._event("placed", track, seq, t))
        seen_now = [tr for tr in self.tracks.values() if tr.last_t == t]
        for serial in list(self.tracks):
            track = self.tracks[serial]
            if track.last_t == t:
                continue
            if track.state == "placed":
                over = self._covered_by(track, seen_now)
                if over is not None:  # C-9: another card now lies where it lay
                    events.append(self._event("removed", track, seq, t,
                                              f"covered by {over.serial}"))
                    del self.tracks[serial]
                    continue
                shows = getattr(bare, "shows_other_card", None)
                if (shows is not None and self._covered_by(track, seen_now, after=False)
                        is not None and shows(track.code, track.look)):
                    # C-9: it left the top of a pile; the card under it shows there now.
                    events.append(self._event("removed", track, seq, t, "gone"))
                    del self.tracks[serial]
                    continue
            if track.state == "placed" and bare is not None:
                # Covered, not gone, until the place itself is seen bare for long enough.
                if not bare(track.code):
                    track.bare_since, track.bare_run = None, 0
                    continue
                if track.bare_since is None:
                    track.bare_since = t
                track.bare_run += 1
                # Bare in frames in a row, not now and then (a hand under a lamp's glare
                # can look like paper in a single frame).
                track.left = track.left or track.bare_run >= cfg.back_after_bare
                if t - track.bare_since >= cfg.bare_after_s:
                    events.append(self._event("removed", track, seq, t, "gone"))
                    del self.tracks[serial]
                continue
            if t - track.last_t >= cfg.remove_after_s:
                if track.state == "placed":
                    events.append(self._event("removed", track, seq, t, "gone"))
                del self.tracks[serial]
        return events

    def _covered_by(self, track: Track, seen_now: Sequence[Track],
                    after: bool = True) -> Track | None:
        """A card read in this frame, at rest (and, with ``after``, placed after ``track``
        was last seen) whose outline lies over ``cover_share`` or more of ``track``'s code
        place (C-9: the new top card of a pile, the next card laid on the same spot). A
        card that was already there while ``track`` was still read (one under it in a
        pile) does not count with ``after``, so a hand over the top card of a pile does
        not remove it."""
        if len(track.code) < 3:
            return None
        for other in seen_now:
            if (other.serial == track.serial or other.state != "placed" or not other.resting
                    or (after and other.placed_t <= track.last_t) or other.conflict):
                continue
            outline = other.corners if other.card_known else card_outline(other.code)
            if covered_share(track.code, outline) >= self.config.cover_share:
                return other
        return None

    def _event(self, kind: EventKind, track: Track, seq: int, t: float,
               detail: str = "") -> TrackEvent:
        if kind == "removed":
            self.counts["removed"] += 1
        return TrackEvent(kind, track.serial, track.payload, track.face, track.zone,
                          track.centre, seq, t, track.scan_id if kind == "placed" else "",
                          detail)
