"""Which zone a card lies in: from the mat's ArUco markers, or from a manual calibration.

With the printed mat (``companion.tablemat``), the four markers give the homography from
image pixels to mat millimetres wherever the camera stands; at least two markers must be
seen (eight point pairs). Without the mat, the referee calibrates by placing a card at
each zone in turn (``Calibrator``); a card then belongs to the nearest calibrated zone
centre if it is close enough (``ManualZones``).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion import tablemat
from cv.detect import Region

Point = tuple[float, float]
Image = np.ndarray[Any, Any]


class ZoneMap(ABC):
    """Image point -> zone name."""

    @abstractmethod
    def zone_of(self, pt: Point) -> str | None:
        """The zone containing image point ``pt``, or ``None``."""

    def outlines(self) -> list[tuple[str, list[Point]]]:
        """Zone outlines in image pixels, for the preview."""
        return []

    def describe(self) -> dict[str, Any]:
        return {"kind": type(self).__name__}


@dataclass(frozen=True)
class MatPose:
    """Where the mat is in the image: homography image px -> mat mm, and markers seen."""

    to_mat: Image
    markers: tuple[int, ...]
    error_mm: float  # RMS reprojection error of the marker corners

    def mat_point(self, pt: Point) -> Point:
        arr = np.array([[pt]], dtype=np.float64)
        x, y = cv2.perspectiveTransform(arr, self.to_mat)[0, 0]
        return (float(x), float(y))

    def image_points(self, pts: Sequence[Point]) -> list[Point]:
        back = np.linalg.inv(self.to_mat)
        arr = np.array([pts], dtype=np.float64)
        return [(float(x), float(y)) for x, y in cv2.perspectiveTransform(arr, back)[0]]


class MatLocator:
    """Finds the printed mat's markers in a frame (``DICT_4X4_50``, ids 0-3)."""

    def __init__(self) -> None:
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        params = cv2.aruco.DetectorParameters()
        self._detector = cv2.aruco.ArucoDetector(dictionary, params)
        self._mm = {m.id: m.corners() for m in tablemat.MARKERS}

    def _detect(self, gray: Image, scale: float, dx: int = 0, dy: int = 0
                ) -> list[tuple[int, Image]]:
        img = gray if scale == 1.0 else cv2.resize(gray, None, fx=scale, fy=scale,
                                                   interpolation=cv2.INTER_AREA)
        corners, ids, _ = self._detector.detectMarkers(img)
        if ids is None:
            return []
        return [(int(i), c.reshape(4, 2) / scale + (dx, dy))
                for c, i in zip(corners, ids.ravel(), strict=True)]

    def locate(self, frame: Image, hint: MatPose | None = None) -> MatPose | None:
        """The mat's pose, or ``None`` if fewer than two of its markers are visible.

        With ``hint`` (the last pose) only the four small regions where the markers were
        are searched (about 1 ms); if that fails, the whole frame at half resolution
        (10-15 ms at 720p, which is why ``Watcher`` does it only now and then).
        """
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        found: list[tuple[int, Image]] = []
        if hint is not None:
            hgt, wid = gray.shape[:2]
            for m in tablemat.MARKERS:
                pts = np.array(hint.image_points(m.corners()))
                lo, hi = pts.min(axis=0), pts.max(axis=0)
                pad = (hi - lo) * 0.6
                x0, y0 = (int(v) for v in np.maximum(lo - pad, 0))
                x1, y1 = int(min(wid, hi[0] + pad[0])), int(min(hgt, hi[1] + pad[1]))
                if x1 - x0 < 16 or y1 - y0 < 16:
                    continue
                found += [f for f in self._detect(gray[y0:y1, x0:x1], 1.0, x0, y0)
                          if f[0] == m.id]
        pose = self._pose(found)
        if pose is None:
            scale = 0.5 if gray.shape[1] >= 1000 else 1.0
            pose = self._pose(self._detect(gray, scale))
            if scale != 1.0 and (pose is None or len(pose.markers) < 4):
                # A far marker of a steeply tilted mat can be too small at half size.
                full = self._pose(self._detect(gray, 1.0))
                if full is not None and (pose is None or len(full.markers) > len(pose.markers)):
                    pose = full
        return pose

    def _pose(self, found: list[tuple[int, Image]]) -> MatPose | None:
        img: list[Point] = []
        mat: list[Point] = []
        seen: list[int] = []
        for i, c in found:
            if i not in self._mm or i in seen:
                continue
            seen.append(i)
            img.extend((float(x), float(y)) for x, y in c)
            mat.extend(self._mm[i])
        if len(seen) < 2:
            return None
        src = np.array(img, dtype=np.float64)
        dst = np.array(mat, dtype=np.float64)
        h, _ = cv2.findHomography(src, dst, 0)
        if h is None:
            return None
        proj = cv2.perspectiveTransform(src.reshape(1, -1, 2), h)[0]
        err = float(np.sqrt(np.mean(np.sum((proj - dst) ** 2, axis=1))))
        if err > 5.0:  # markers disagree: a misdetection or a crumpled mat
            return None
        return MatPose(h, tuple(sorted(seen)), err)


REGION_PX_PER_MM = 3.0  # a 41 mm code gets about 6 px per module when rectified
REGION_INSET_MM = 4.0  # leave out the printed outline of a zone


class MatZones(ZoneMap):
    """Zones of the printed mat for one game and table size, through a ``MatPose``."""

    def __init__(self, pose: MatPose, game: str, players: int) -> None:
        self.pose = pose
        self.game, self.players = game, players
        self._zones = tablemat.zones(game, players)
        self._regions: list[Region] | None = None

    def regions(self) -> list[Region]:
        """Each zone as a top-down patch at 3 px/mm, for ``CardReader.read``: a card the
        whole frame missed (small or far from the camera) is looked for again there."""
        if self._regions is None:
            out = []
            s, inset = REGION_PX_PER_MM, REGION_INSET_MM
            to_img = np.linalg.inv(self.pose.to_mat)
            for z in self._zones:
                x0, y0 = z.x + inset, z.y + inset
                w, h = z.w - 2 * inset, z.h - 2 * inset
                mm_to_patch = np.array([[s, 0, -x0 * s], [0, s, -y0 * s], [0, 0, 1]])
                to_patch = mm_to_patch @ self.pose.to_mat
                rect = ((x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h))
                arr = cv2.perspectiveTransform(np.array([rect], dtype=np.float64), to_img)[0]
                outline = tuple((float(x), float(y)) for x, y in arr)
                multi = z.w * z.h > 5 * tablemat.CARD_WIDTH * tablemat.CARD_HEIGHT
                out.append(Region(to_patch, (round(w * s), round(h * s)), outline,
                                  multi=multi))
            self._regions = out
        return self._regions

    def zone_of(self, pt: Point) -> str | None:
        x, y = self.pose.mat_point(pt)
        for z in self._zones:
            if z.contains(x, y):
                return z.name
        return None

    def outlines(self) -> list[tuple[str, list[Point]]]:
        return [(z.name, self.pose.image_points(z.corners())) for z in self._zones]

    def describe(self) -> dict[str, Any]:
        return {"kind": "mat", "game": self.game, "players": self.players,
                "markers": list(self.pose.markers), "error_mm": round(self.pose.error_mm, 2)}


class ManualZones(ZoneMap):
    """Zones calibrated by hand: zone name -> the image point where a card lay.

    A card belongs to the nearest centre if it is nearer than half the distance between
    that centre and its own nearest neighbour (so zones never overlap), and never more
    than ``max_px`` away.
    """

    def __init__(self, centres: dict[str, Point], max_px: float = 200.0) -> None:
        if not centres:
            raise ValueError("a calibration needs at least one zone")
        self.centres = dict(centres)
        self.max_px = max_px
        self._reach: dict[str, float] = {}
        for name, (x, y) in self.centres.items():
            others = [math.dist((x, y), p) for n, p in self.centres.items() if n != name]
            self._reach[name] = min([max_px, *[d / 2 for d in others]])

    def zone_of(self, pt: Point) -> str | None:
        best = min(self.centres, key=lambda n: math.dist(pt, self.centres[n]))
        return best if math.dist(pt, self.centres[best]) < self._reach[best] else None

    def outlines(self) -> list[tuple[str, list[Point]]]:
        out = []
        for name, (x, y) in self.centres.items():
            r = self._reach[name]
            out.append((name, [(x + r * math.cos(a), y + r * math.sin(a))
                               for a in np.linspace(0, 2 * math.pi, 16, endpoint=False)]))
        return out

    def describe(self) -> dict[str, Any]:
        return {"kind": "manual", "zones": sorted(self.centres)}

    def save(self, path: str | os.PathLike[str]) -> None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"zones": {k: list(v) for k, v in self.centres.items()},
                       "max_px": self.max_px}, fh, indent=1)
        os.replace(tmp, target)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ManualZones:
        """Raises ``ValueError`` on a file that is not a calibration."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            centres = {str(k): (float(v[0]), float(v[1])) for k, v in data["zones"].items()}
            return cls(centres, float(data.get("max_px", 200.0)))
        except (OSError, KeyError, TypeError, IndexError, json.JSONDecodeError) as exc:
            raise ValueError(f"{os.fspath(path)!r} is not a zone calibration: {exc}") from None


class Calibrator:
    """Walks the referee through the zones: place a card in each, in turn.

    Feed it each placement's image centre with ``record``; ``prompt`` says what to do next.
    """

    def __init__(self, zones: Sequence[str]) -> None:
        if not zones:
            raise ValueError("nothing to calibrate")
        self.zones = list(zones)
        self.centres: dict[str, Point] = {}

    @property
    def next_zone(self) -> str | None:
        return next((z for z in self.zones if z not in self.centres), None)

    @property
    def done(self) -> bool:
        return self.next_zone is None

    def prompt(self) -> str:
        z = self.next_zone
        if z is None:
            return "calibration complete"
        return f"place a card in {z} ({len(self.centres) + 1} of {len(self.zones)})"

    def record(self, centre: Point) -> str | None:
        """Assign ``centre`` to the next zone; returns that zone (``None`` when done)."""
        z = self.next_zone
        if z is not None:
            self.centres[z] = centre
        return z

    def result(self) -> ManualZones:
        if not self.done:
            raise ValueError(f"calibration incomplete: {self.prompt()}")
        return ManualZones(self.centres)
