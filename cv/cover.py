"""Whether a placed card that is no longer read has gone or is only covered.

A hand reaching over the table, a lamp's glare: each hides a code without the card
leaving. The tracker therefore counts a placed card as removed by its place only once the
place has been seen **bare** for a while (0.3 s): the printed mat's paper showing where
the code lay. A hand (skin is far darker than white paper), another card's face (its
code, its coloured band and text) or a deep shadow is not bare, so the clock does not run.
A card over its place that came after it (``card_outline``, ``covered_share``) hides it
for good (C-9). When a pile's top card is taken off, the card under it shows there
instead: ``shows_other_card`` tells that face (as bright as card stock, unlike a hand) from
the code that lay there (its look when placed, ``signature``).

The paper's brightness is measured each time at points of the mat around the spot (a ring
of 16 points 90 mm away, the brightest of them): the light over a table is uneven and
changes, and an arm covers at most a sector of the ring. Without the mat there is nothing
to compare with, and the tracker falls back on time alone (``Tracker``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from companion import tablemat

Point = tuple[float, float]
Image = np.ndarray[Any, Any]

RING_MM = 90.0  # far enough that a card lying beside the spot leaves most of the ring
RING_POINTS = 16
PAPER_BAND = (0.80, 1.25)  # a pixel within these fractions of the paper level is paper
BARE_FRACTION = 0.85  # this much of the spot must be paper (zone outlines, text: the rest)
# Where the printed code lies on a card's face: x, y, side in mm from the card's top-left
# corner (``printables.faces.face_layout(63, 88).qr``; a test checks the two agree).
CODE_BOX_MM = (11.0, 3.0, 41.0)


def _mat_ring(centre_mm: Point) -> list[Point]:
    cx, cy = centre_mm
    pts = []
    for i in range(RING_POINTS):
        a = 2 * math.pi * i / RING_POINTS
        x, y = cx + RING_MM * math.cos(a), cy + RING_MM * math.sin(a)
        if tablemat.on_mat(x, y):
            pts.append((x, y))
    return pts


def paper_level(gray: Image, to_image: Image, centre_mm: Point) -> float | None:
    """The mat's paper brightness near ``centre_mm`` (the 90th percentile of a ring of
    points around it, each the mean of a 3x3 pixel patch), or ``None`` if no ring point
    lies in the frame."""
    ring = _mat_ring(centre_mm)
    if not ring:
        return None
    pts = cv2.perspectiveTransform(np.array([ring], dtype=np.float64), to_image)[0]
    h, w = gray.shape[:2]
    levels = []
    for x, y in pts:
        xi, yi = int(x + 0.5), int(y + 0.5)
        if 1 <= xi < w - 1 and 1 <= yi < h - 1:
            levels.append(float(gray[yi - 1:yi + 2, xi - 1:xi + 2].mean()))
    if not levels:
        return None
    return float(np.percentile(levels, 90))


def looks_bare(gray: Image, corners: Sequence[Point], paper: float) -> bool:
    """Whether the code's place (``corners`` in image pixels, shrunk to its middle) shows
    the mat's paper: at least 85 % of its pixels within 0.8-1.25 of ``paper``."""
    if paper <= 8:  # a black frame: nothing can be told
        return False
    patch = _inner_patch(gray, corners)
    if patch is None:
        return False
    step = max(1, min(patch.shape[:2]) // 24)  # about 24 x 24 samples are plenty
    sample = patch[::step, ::step].astype(np.float32)
    lo, hi = PAPER_BAND[0] * paper, PAPER_BAND[1] * paper
    share = float(np.count_nonzero((sample >= lo) & (sample <= hi))) / sample.size
    return share >= BARE_FRACTION


SIG_SIDE = 21  # a code's look is kept at one sample per module
CARD_LEVEL = 0.68  # a card's face (white stock, artwork) is at least this bright; skin is not
SAME_CODE = 0.5  # correlation above which the place still shows the code that lay there


def signature(gray: Image, corners: Sequence[Point]) -> Image | None:
    """The code's place seen square, one sample per module (21 x 21, zero mean, unit
    norm): what it looked like while the code lay there, to compare with later."""
    if len(corners) != 4:
        return None
    side = 2 * SIG_SIDE
    dst = np.array([(0, 0), (side, 0), (side, side), (0, side)], dtype=np.float32)
    m = cv2.getPerspectiveTransform(np.array(corners, dtype=np.float32), dst)
    square = cv2.warpPerspective(gray, m, (side, side), flags=cv2.INTER_LINEAR)
    small = cv2.resize(square, (SIG_SIDE, SIG_SIDE), interpolation=cv2.INTER_AREA)
    v = small.astype(np.float32)
    v -= float(v.mean())
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 1e-3 else None


class BareCheck:
    """``check(corners)`` for one frame (BGR or grey) and mat pose (image px -> mat mm):
    is the place bare mat? The frame is made grey only if a place is asked about.
    ``signature`` and ``shows_other_card`` tell a card's face from the code that lay
    there and from a hand."""

    def __init__(self, frame: Image, to_mat: Image) -> None:
        self.frame = frame
        self.to_mat = to_mat
        self.to_image = np.linalg.inv(to_mat)
        self._gray: Image | None = None

    @property
    def gray(self) -> Image:
        if self._gray is None:
            f = self.frame
            self._gray = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) if f.ndim == 3 else f
        return self._gray

    def __call__(self, corners: Sequence[Point]) -> bool:
        if len(corners) < 3:
            return False
        pts = np.array(corners, dtype=np.float64)
        c = pts.mean(axis=0)
        x, y = cv2.perspectiveTransform(np.array([[c]], dtype=np.float64), self.to_mat)[0, 0]
        paper = paper_level(self.gray, self.to_image, (float(x), float(y)))
        return paper is not None and looks_bare(self.gray, corners, paper)

    def signature(self, corners: Sequence[Point]) -> Image | None:
        return signature(self.gray, corners)

    def shows_other_card(self, corners: Sequence[Point], before: Image | None) -> bool:
        """Whether the place of a code that is not read now shows something as bright as a
        card's face (at least ``CARD_LEVEL`` of the paper around it: not a hand, not a
        shadow) that is not that code (its look correlates less than ``SAME_CODE`` with
        ``before``, taken when it was placed): the card under a pile's top card, once
        the top card has gone (C-9)."""
        if before is None or len(corners) != 4:
            return False
        now = self.signature(corners)
        if now is None:
            return False
        pts = np.array(corners, dtype=np.float64)
        c = pts.mean(axis=0)
        x, y = cv2.perspectiveTransform(np.array([[c]], dtype=np.float64), self.to_mat)[0, 0]
        paper = paper_level(self.gray, self.to_image, (float(x), float(y)))
        if paper is None or paper <= 8:
            return False
        patch = _inner_patch(self.gray, corners)
        if patch is None or float(patch.mean()) < CARD_LEVEL * paper:
            return False
        return float(np.sum(now * before)) < SAME_CODE


def card_outline(code: Sequence[Point]) -> tuple[Point, ...]:
    """The whole card's corners (image pixels) from its code's corners, which the readers
    give starting at the code's own top-left corner (zxing-cpp; pyzbar's start at the
    corner nearest the image's top-left, right for an upright card): the code is a square
    near the top of the face (``CODE_BOX_MM``), so the card reaches 1.07 code widths below
    it, 0.27 to each side and 0.07 above. Perspective is followed through the code's own
    homography."""
    if len(code) != 4:
        return tuple(code)
    x, y, side = CODE_BOX_MM
    left, top = -x / side, -y / side
    right = (tablemat.CARD_WIDTH - x) / side
    bottom = (tablemat.CARD_HEIGHT - y) / side
    unit = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], dtype=np.float32)
    h = cv2.getPerspectiveTransform(unit, np.array(code, dtype=np.float32))
    pts = np.array([[(left, top), (right, top), (right, bottom), (left, bottom)]],
                    dtype=np.float64)
    out = cv2.perspectiveTransform(pts, h)[0]
    return tuple((float(px), float(py)) for px, py in out)


def covered_share(place: Sequence[Point], cover: Sequence[Point]) -> float:
    """The share (0-1) of the convex quadrilateral ``place`` that ``cover`` (another
    convex quadrilateral, same pixels) lies over."""
    if len(place) < 3 or len(cover) < 3:
        return 0.0
    a = np.array(place, dtype=np.float32).reshape(-1, 1, 2)
    b = np.array(cover, dtype=np.float32).reshape(-1, 1, 2)
    area = abs(float(cv2.contourArea(a)))
    if area <= 0:
        return 0.0
    # Both must wind the same way for the intersection: make them convex hulls.
    inter, _ = cv2.intersectConvexConvex(cv2.convexHull(a), cv2.convexHull(b))
    return min(1.0, float(inter) / area)


def _inner_patch(gray: Image, corners: Sequence[Point]) -> Image | None:
    pts = np.array(corners, dtype=np.float64)
    centre = pts.mean(axis=0)
    inner = centre + (pts - centre) * 0.8
    h, w = gray.shape[:2]
    x0, y0 = (int(v) for v in np.maximum(inner.min(axis=0), 0))
    x1, y1 = int(min(w, inner[:, 0].max() + 1)), int(min(h, inner[:, 1].max() + 1))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    out: Image = gray[y0:y1, x0:x1]
    return out
