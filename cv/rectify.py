"""Rectifying parts of a frame for a second read: the card finder, located codes warped
square and sharpened, the mat's zones seen top-down (``Region``), and the geometry helpers
these share. Pure functions of a greyscale image; nothing here decodes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import cv2
import numpy as np

Point = tuple[float, float]
Image = np.ndarray[Any, Any]


def _clockwise(pts: Sequence[Point]) -> list[Point]:
    """Four points ordered clockwise (in image coordinates) from the top-left-most."""
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    ordered = sorted(pts, key=lambda p: float(np.arctan2(p[1] - cy, p[0] - cx)))
    start = min(range(len(ordered)), key=lambda i: ordered[i][0] + ordered[i][1])
    return ordered[start:] + ordered[:start]


# --- the card finder -----------------------------------------------------------------

CARD_ASPECT = 88.0 / 63.0
WARP_W, WARP_H = 252, 352  # 4 px per mm of a 63 x 88 mm card: a 32 mm QR gets 6 px modules


@dataclass(frozen=True)
class CardQuad:
    """A card-shaped bright region: its corners in image pixels, clockwise."""

    corners: tuple[Point, ...]

    @property
    def centre(self) -> Point:
        return (sum(p[0] for p in self.corners) / 4, sum(p[1] for p in self.corners) / 4)

    def contains(self, pt: Point) -> bool:
        poly = np.array(self.corners, dtype=np.float32)
        return bool(cv2.pointPolygonTest(poly, (float(pt[0]), float(pt[1])), False) >= 0)


def find_cards(gray: Image, min_width: float = 30.0, max_width: float = 600.0) -> list[CardQuad]:
    """White card-shaped regions of a greyscale frame (cards on a darker table).

    Half resolution, adaptive mean threshold above the local mean, closing, external
    contours filtered by size, solidity and aspect (cv-baseline section 3: 559/560 cards
    found at 0.4 ms per 720p frame).
    """
    small = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                       interpolation=cv2.INTER_AREA)
    block = max(31, (int(small.shape[0] * 0.35) // 2) * 2 + 1)
    mask = cv2.adaptiveThreshold(small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY,
                                 block, -12)
    # Opening removes thin bright lines (the mat's zone outlines) that would otherwise
    # enclose the cards; closing fills the code's dark modules.
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    lo = (min_width / 2) ** 2 * CARD_ASPECT * 0.5
    hi = (max_width / 2) ** 2 * CARD_ASPECT * 1.5
    for c in contours:
        area = cv2.contourArea(c)
        if not lo <= area <= hi:
            continue
        hull = cv2.convexHull(c)
        hull_area = cv2.contourArea(hull)
        if hull_area <= 0 or area / hull_area < 0.85:
            continue
        approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            pts = approx.reshape(4, 2).astype(np.float64)
        else:
            pts = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
        sides = [float(np.hypot(*(pts[i] - pts[(i + 1) % 4]))) for i in range(4)]
        short, long_ = min(sides), max(sides)
        if short <= 0 or long_ / short > 2.4:
            continue
        quads.append(CardQuad(tuple(_clockwise([(2 * x, 2 * y) for x, y in pts]))))
    return quads


def warp_card(gray: Image, quad: CardQuad) -> tuple[Image, Image]:
    """The card warped upright to ``WARP_W x WARP_H`` and the homography back to the frame."""
    pts = list(quad.corners)
    # Start at a corner followed by a short side, so the card comes out portrait.
    d01 = np.hypot(pts[1][0] - pts[0][0], pts[1][1] - pts[0][1])
    d12 = np.hypot(pts[2][0] - pts[1][0], pts[2][1] - pts[1][1])
    if d01 > d12:
        pts = pts[1:] + pts[:1]
    src = np.array(pts, dtype=np.float32)
    dst = np.array([(0, 0), (WARP_W, 0), (WARP_W, WARP_H), (0, WARP_H)], dtype=np.float32)
    h = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(gray, h, (WARP_W, WARP_H), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    return warped, np.linalg.inv(h)


CODE_MODULES = 21  # version 1
WARP_PX = 6  # pixels per module in a re-read code
WARP_QUIET = 2  # modules of margin kept around it


_KERNELS: dict[float, Image] = {}


def unsharp(image: Image, sigma: float, amount: float = 1.5) -> Image:
    """``image`` sharpened by an unsharp mask: ``(1 + amount) * image - amount * blur``.

    For the wide blur of a re-read code (sigma 4.8 px) the Gaussian is a separable filter
    with a cached kernel (``cv2.sepFilter2D``): the image of ``cv2.GaussianBlur`` within
    two grey levels after sharpening, at a fifth of its time (0.1 instead of 0.5 ms on one
    core). Narrow blurs (zone patches, sigma 2) keep ``cv2.GaussianBlur``: there the faster
    filter saved 0.2 ms but its grey-level differences lost one borderline zone read in
    2000 cards of the bench (seed 2), and the sharpened zone read is rare.
    """
    if sigma < 3.0:
        soft = cv2.GaussianBlur(image, (0, 0), sigma)
        return cv2.addWeighted(image, 1 + amount, soft, -amount, 0)
    kernel = _KERNELS.get(sigma)
    if kernel is None:
        kernel = cv2.getGaussianKernel(2 * round(3 * sigma) + 1, sigma)
        _KERNELS[sigma] = kernel
    soft = cv2.sepFilter2D(image, -1, kernel, kernel)
    return cv2.addWeighted(image, 1 + amount, soft, -amount, 0)


def warp_code(gray: Image, corners: Sequence[Point], px: int = WARP_PX,
              quiet: int = WARP_QUIET) -> tuple[Image, Image]:
    """A located but unread code warped square at ``px`` pixels per module, sharpened,
    and the homography back to the frame.

    Sharpening (unsharp mask) undoes some of the camera's blur; on 720p scenes with blur
    sigma 1 px it recovered 31 of 73 codes zxing-cpp had located but not read, against 27
    without it (bench/camera.py, docs/camera.md).
    """
    n = CODE_MODULES
    side = (n + 2 * quiet) * px
    a, b = quiet * px, (quiet + n) * px
    dst = np.array([(a, a), (b, a), (b, b), (a, b)], dtype=np.float32)
    h = cv2.getPerspectiveTransform(np.array(corners, dtype=np.float32), dst)
    warped = cv2.warpPerspective(gray, h, (side, side), flags=cv2.INTER_CUBIC,
                                 borderMode=cv2.BORDER_REPLICATE)
    return unsharp(warped, px * 0.8), np.linalg.inv(h)


def _map(h: Image, pts: Sequence[Point]) -> tuple[Point, ...]:
    arr = cv2.perspectiveTransform(np.array([pts], dtype=np.float64), h)[0]
    return tuple((float(x), float(y)) for x, y in arr)


@dataclass(frozen=True)
class Region:
    """A part of the table to search again, rectified: image -> patch homography, patch
    size, the region's outline in the image, and the grey spread below which it is empty."""

    to_patch: Image
    size: tuple[int, int]
    outline: tuple[Point, ...]
    min_std: float = 12.0
    multi: bool = False  # holds several cards (a Locus row, the lot): always searched
    # Patch pixels read beyond the outline on each side (20 mm at the mat zones' 3 px/mm):
    # a card lying near the edge of its zone has its code's quiet zone, or a row of its
    # modules, outside the outline; cut there it was not read (docs/camera.md).
    margin: int = 60

    @cached_property
    def to_image(self) -> Image:
        """Patch -> image homography."""
        return np.linalg.inv(self.to_patch)

    @cached_property
    def thumb_size(self) -> tuple[int, int]:
        """A 1/6-scale thumbnail, to see cheaply whether the region is empty paper."""
        return (max(4, self.size[0] // 6), max(4, self.size[1] // 6))

    @cached_property
    def to_thumb(self) -> Image:
        return np.diag([1 / 6, 1 / 6, 1.0]) @ self.to_patch

    @cached_property
    def _poly(self) -> Image:
        return np.array(self.outline, dtype=np.float32)

    @cached_property
    def _box(self) -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in self.outline], [p[1] for p in self.outline]
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, pt: Point) -> bool:
        x0, y0, x1, y1 = self._box
        if not (x0 <= pt[0] <= x1 and y0 <= pt[1] <= y1):  # most codes: another zone
            return False
        return bool(cv2.pointPolygonTest(self._poly, (float(pt[0]), float(pt[1])), False) >= 0)


def _width(corners: Sequence[Point]) -> float:
    """The mean side of a quadrilateral."""
    n = len(corners)
    return sum(float(np.hypot(corners[i][0] - corners[(i + 1) % n][0],
                              corners[i][1] - corners[(i + 1) % n][1])) for i in range(n)) / n


def _inside(pt: Point, poly: Sequence[Point]) -> bool:
    return bool(cv2.pointPolygonTest(np.array(poly, dtype=np.float32),
                                     (float(pt[0]), float(pt[1])), False) >= 0)


def _overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Whether two code outlines are one code: centres within 10 px, or the centre of
    one inside the other. Called for many pairs each frame, so the far ones (most) are
    told apart with a little arithmetic before any polygon test."""
    na, nb = len(a), len(b)
    ax = sum(p[0] for p in a) / na
    ay = sum(p[1] for p in a) / na
    bx = sum(p[0] for p in b) / nb
    by = sum(p[1] for p in b) / nb
    d2 = (ax - bx) ** 2 + (ay - by) ** 2
    if d2 < 100.0:
        return True
    ra = max((p[0] - ax) ** 2 + (p[1] - ay) ** 2 for p in a) ** 0.5
    rb = max((p[0] - bx) ** 2 + (p[1] - by) ** 2 for p in b) ** 0.5
    if d2 > (ra + rb) ** 2:
        return False
    return _inside((ax, ay), b) or _inside((bx, by), a)


def _near(a: Sequence[Point], b: Sequence[Point]) -> bool:
    ca = (sum(p[0] for p in a) / len(a), sum(p[1] for p in a) / len(a))
    cb = (sum(p[0] for p in b) / len(b), sum(p[1] for p in b) / len(b))
    return bool(np.hypot(ca[0] - cb[0], ca[1] - cb[1]) < 10)


def code_candidates(gray: Image, widths: Sequence[float] = ()) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1, image pixels, with a margin) around busy patches of the
    frame the size of a code: where a code too small for the whole-frame pass may lie.

    Busy means dense edges: the morphological gradient at half size (a 2 px module stays
    1 px wide), averaged over 8 x 8 pixel cells and thresholded at the larger of Otsu's
    level and three times the median cell (noise and paper texture stay below it). A
    patch must be about as wide as the codes already read in the frame (``widths``:
    0.5 to 3 times their median, as text or a title beside a code can join its patch),
    or 20-400 px when none was read.
    """
    h, w = gray.shape[:2]
    if h < 32 or w < 32:
        return []
    half = cv2.resize(gray, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    edges = cv2.morphologyEx(half, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    cells = cv2.resize(edges, (w // 8, h // 8), interpolation=cv2.INTER_AREA)
    otsu, _ = cv2.threshold(cells, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    level = max(float(otsu), 3.0 * float(np.median(cells)), 8.0)
    busy: Image = (cells > level).astype(np.uint8)
    busy = cv2.morphologyEx(busy, cv2.MORPH_CLOSE, np.ones((2, 2), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(busy, connectivity=8)
    if widths:
        med = float(np.median(np.asarray(widths)))
        lo, hi = 0.5 * med, 3.0 * med
    else:
        lo, hi = 20.0, 400.0
    out = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        side_lo, side_hi = 8 * min(bw, bh), 8 * max(bw, bh)
        if side_hi < lo or side_lo > hi or side_hi > 3 * max(8, side_lo) or area < 4:
            continue
        m = max(8, side_hi // 4)  # the quiet zone and the code's edge cells
        out.append((max(0, 8 * x - m), max(0, 8 * y - m),
                    min(w, 8 * (x + bw) + m), min(h, 8 * (y + bh) + m)))
    return out


def upsample_patch(gray: Image, box: tuple[int, int, int, int], target: float = 240.0
                   ) -> tuple[Image, float]:
    """The patch ``box`` of ``gray`` scaled up (bicubic) so its longer side is about
    ``target`` pixels (2-4 times for the patch of a 2 px-per-module code; never down), and
    the scale: patch pixel / scale + box origin = image pixel."""
    x0, y0, x1, y1 = box
    patch = gray[y0:y1, x0:x1]
    scale = float(min(4.0, max(1.0, target / max(1, max(x1 - x0, y1 - y0)))))
    if scale <= 1.0:
        return np.ascontiguousarray(patch), 1.0
    up = cv2.resize(patch, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    return up, scale
