"""Can the camera see the table well enough? Told in plain words before play starts (C-8).

The mat's markers give the scale: the narrowest card anywhere in the mat's zones (the far
side of a tilted view is the smallest), and so the size of a code's module in pixels. A
printed card's code is 41 mm wide with 21 modules (``printables.faces``), so a card of
``w`` px has modules of ``w * 41 / 21 / 63`` px: about 2 px for a 64 px card, the least
``companion bench cv --table 8`` reads reliably (docs/camera.md). The paper's brightness
at the markers' white margins tells whether the light is enough.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion import tablemat

Image = np.ndarray[Any, Any]

CODE_MM, CODE_MODULES = 41.0, 21
MIN_MODULE_PX = 2.0  # below this, cards are missed (bench cv --table 8)
# A 4K MJPEG frame decoded at half size (``cv.sources.decode_grey``) is read at that size,
# but the decode averages each 2 x 2 pixels: cards of 90-100 px (45-50 px in the frame
# read) were all read (bench cv --table 8 --views stills). In camera pixels:
MIN_MODULE_PX_HALVED = 3.0
MIN_PAPER = 60.0  # grey level of white paper below which the light is too dim
GLARE_SHARE = 0.02  # share of the mat burnt white (255) that counts as a lamp's glare


@dataclass(frozen=True)
class Sight:
    """What the camera sees of the table: the narrowest card and its code's module in
    pixels, the paper's grey level (0-255, ``None`` if no margin was in view), and the
    problems in plain words (empty when all is well)."""

    card_px: float
    module_px: float
    paper: float | None
    problems: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"card_px": round(self.card_px), "module_px": round(self.module_px, 2),
                "paper": None if self.paper is None else round(self.paper),
                "problems": list(self.problems)}


def card_width_px(to_mat: Image, game: str, players: int) -> float:
    """The narrowest card (63 mm) in pixels at the centre of any of the layout's zones,
    measured across and along the mat (``to_mat``: image px -> mat mm)."""
    to_image = np.linalg.inv(to_mat)
    half = tablemat.CARD_WIDTH / 2
    widths = []
    for z in tablemat.zones(game, players):
        cx, cy = z.centre
        ends = np.array([[(cx - half, cy), (cx + half, cy), (cx, cy - half), (cx, cy + half)]],
                        dtype=np.float64)
        p = cv2.perspectiveTransform(ends, to_image)[0]
        widths.append(min(float(np.hypot(*(p[1] - p[0]))), float(np.hypot(*(p[3] - p[2])))))
    return min(widths)


def _margin_points() -> list[tuple[float, float]]:
    """Points 5 mm into the white margin around each marker (mat mm)."""
    out = []
    for m in tablemat.MARKERS:
        d = m.size / 2 + 5.0
        out += [(m.cx - d, m.cy), (m.cx + d, m.cy), (m.cx, m.cy - d), (m.cx, m.cy + d)]
    return out


def paper_grey(gray: Image, to_mat: Image) -> float | None:
    """The paper's grey level at the markers' margins (the 75th percentile of 16 small
    patches: a hand or a shadow over some of them does not count), ``None`` if none of
    them is in the frame."""
    to_image = np.linalg.inv(to_mat)
    pts = cv2.perspectiveTransform(np.array([_margin_points()], dtype=np.float64), to_image)[0]
    h, w = gray.shape[:2]
    levels = [float(gray[int(y) - 1:int(y) + 2, int(x) - 1:int(x) + 2].mean())
              for x, y in pts if 1 <= x < w - 1 and 1 <= y < h - 1]
    return float(np.percentile(levels, 75)) if levels else None


def glare_share(gray: Image, to_mat: Image) -> float:
    """The share of the mat's area that is burnt white (grey 255), on a coarse grid."""
    to_image = np.linalg.inv(to_mat)
    xs, ys = np.meshgrid(np.linspace(20, tablemat.MAT_WIDTH - 20, 40),
                         np.linspace(20, tablemat.MAT_HEIGHT - 20, 24))
    grid = np.stack([xs.ravel(), ys.ravel()], axis=1)[None].astype(np.float64)
    pts = cv2.perspectiveTransform(grid, to_image)[0]
    h, w = gray.shape[:2]
    inside = [(int(x), int(y)) for x, y in pts if 0 <= x < w and 0 <= y < h]
    if not inside:
        return 0.0
    return sum(1 for x, y in inside if gray[y, x] >= 254) / len(inside)


def judge(gray: Image, to_mat: Image, game: str, players: int, scale: float = 1.0
          ) -> Sight:
    """How well the camera sees the table in this frame (greyscale) through the mat's
    pose; raises ``BadSetup`` for a layout the game does not have. ``scale``: image
    pixels per camera pixel (``cv.sources.Frame.scale``, 0.5 for a 4K frame decoded at
    half size): widths are then said in the camera's pixels."""
    card = card_width_px(to_mat, game, players) / scale
    module = card * CODE_MM / CODE_MODULES / tablemat.CARD_WIDTH
    paper = paper_grey(gray, to_mat)
    problems: list[str] = []
    if module < (MIN_MODULE_PX if scale >= 1 else MIN_MODULE_PX_HALVED):
        height = round(gray.shape[0] / scale)
        more = ("use 1080p or more" if height < 1080 else
                "use 4K" if height < 2160 else "zoom in")
        problems.append(f"cards are {card:.0f} px wide: move the camera closer or {more}")
    if paper is not None and paper < MIN_PAPER:
        problems.append("the table is too dark for the camera: add light or turn up the "
                        "camera's exposure")
    # Glare is burnt white where the paper elsewhere is not: a paper burnt white all over
    # (an exposure set high) still shows dark modules and reads.
    if paper is not None and paper < 240 and glare_share(gray, to_mat) >= GLARE_SHARE:
        problems.append("a lamp shines back from the table into the camera: move the lamp "
                        "or tilt the camera a little")
    return Sight(card, module, paper, tuple(problems))


def describe(problems: Sequence[str]) -> str:
    """One line for the preview and the console."""
    return "; ".join(problems) if problems else "the camera sees the table well"
