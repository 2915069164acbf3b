"""Phone photos made from the project's own printed cards, and ``companion bench photo``.

A photo is one card (its face as ``printables`` prints it, ``bench.scenes.PrintedFaces``) on a
table or held in a hand, seen by a phone's main camera (focal length 0.8 x width, about 64
degrees across): the card 20-60 % of the frame's width, turned any way in the picture,
tilted up to 45 degrees away from the camera, blurred up to 1.5 px, in dim to normal light
with sensor noise, saved as JPEG quality 85, at 1600x1200 (what "Scan my card" uploads)
and 4032x3024 (a 12 MP photo sent as it is). A held card has a thumb over one edge.

The bench prints the share of cards read, the wrong cards (any serial but the card's), and
the server's milliseconds per photo (``cv.photo.read_photo``: bytes in, cards out, header
check and JPEG decode included), median and p90, on one thread.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from bench import scenes
from companion import tablemat
from companion.cards import load_deck
from companion.runs import PrintRun, RunBook, new_run
from cv.photo import read_photo

Image = np.ndarray[Any, Any]
SIZES = ((1600, 1200), (4032, 3024))
SKIN = ((120, 150, 200), (95, 125, 180), (70, 95, 150), (150, 175, 220))
TABLES = ((60, 90, 130), (40, 60, 90), (70, 70, 70), (50, 80, 50), (170, 180, 190),
          (30, 30, 35), (110, 140, 170))


@dataclass(frozen=True)
class PhotoShot:
    """How one photo was taken (for a missed card's report)."""

    payload: str
    width_frac: float
    tilt: float
    blur: float
    gain: float
    in_hand: bool


def _rot(axis: Sequence[float], angle: float) -> Image:
    r, _ = cv2.Rodrigues(np.asarray(axis, dtype=np.float64) * angle)
    out: Image = r
    return out


def card_to_image(size: tuple[int, int], width_frac: float, angle: float, tilt: float,
                  azimuth: float, rng: random.Random) -> tuple[Image, float]:
    """Card mm (origin at its top-left) -> image px: a pinhole camera, the card turned
    ``angle`` degrees in its plane and tilted ``tilt`` degrees towards ``azimuth``, its
    63 mm side ``width_frac`` of the frame's width, placed at random inside the frame.

    The whole card is in the picture, as a player frames it: where it would not fit at
    ``angle``, other angles are tried, then a slightly smaller card (the width used is
    returned with the homography).
    """
    w, h = size
    f = 0.8 * w
    cw, ch = tablemat.CARD_WIDTH, tablemat.CARD_HEIGHT
    corners = np.array([(0, 0, 0), (cw, 0, 0), (cw, ch, 0), (0, ch, 0)], dtype=np.float64)
    corners -= (cw / 2, ch / 2, 0)
    az = math.radians(azimuth)
    tilted = _rot((math.cos(az), math.sin(az), 0), math.radians(tilt))
    for attempt in range(200):
        r = tilted @ _rot((0, 0, 1), math.radians(angle))
        dist = f * cw / (width_frac * w)
        cam = (r @ corners.T).T
        cam[:, 2] += dist
        u = f * cam[:, 0] / cam[:, 2]
        v = f * cam[:, 1] / cam[:, 2]
        lo_u, hi_u = w * 0.02 - u.min(), w * 0.98 - u.max()
        lo_v, hi_v = h * 0.02 - v.min(), h * 0.98 - v.max()
        if hi_u >= lo_u and hi_v >= lo_v:
            break
        angle = rng.uniform(0, 360)
        if attempt % 20 == 19:
            width_frac *= 0.97
    u += rng.uniform(lo_u, hi_u) if hi_u > lo_u else (lo_u + hi_u) / 2
    v += rng.uniform(lo_v, hi_v) if hi_v > lo_v else (lo_v + hi_v) / 2
    src = np.array([(0, 0), (cw, 0), (cw, ch), (0, ch)], dtype=np.float32)
    return (cv2.getPerspectiveTransform(src, np.stack([u, v], axis=1).astype(np.float32)),
            width_frac)


def _background(size: tuple[int, int], rng: random.Random) -> Image:
    """A table top: a colour, broad blotches and a grain of streaks (made at an eighth of
    the size and scaled up: it is smooth anyway)."""
    w, h = size
    base = np.array(rng.choice(TABLES), dtype=np.float32)
    blotch = np.random.default_rng(rng.randrange(1 << 30)).standard_normal(
        (6, 8)).astype(np.float32)
    sw, sh = max(8, w // 8), max(8, h // 8)
    light = cv2.resize(blotch, (sw, sh), interpolation=cv2.INTER_CUBIC) * 12
    small = np.clip(base[None, None, :] + light[:, :, None], 0, 255).astype(np.uint8)
    img: Image = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    for _ in range(rng.randrange(0, 12)):
        y = rng.randrange(h)
        cv2.line(img, (0, y), (w, y + rng.randrange(-h // 8, h // 8 + 1)),
                 tuple(float(c) * rng.uniform(0.8, 1.1) for c in base), rng.randrange(1, 6))
    return img


def _poly(h: Image, pts_mm: Sequence[tuple[float, float]]) -> Image:
    arr = cv2.perspectiveTransform(np.array([pts_mm], dtype=np.float64), h)[0]
    out: Image = arr.astype(np.int32)
    return out


def _ellipse_mm(cx: float, cy: float, rx: float, ry: float, n: int = 24
                ) -> list[tuple[float, float]]:
    return [(cx + rx * math.cos(2 * math.pi * i / n), cy + ry * math.sin(2 * math.pi * i / n))
            for i in range(n)]


_NOISE: dict[tuple[int, int], Image] = {}


def _noise(h: int, w: int, rng: random.Random) -> Image:
    """A window of a cached unit-variance noise field (fresh noise per 12 MP photo costs
    more than drawing the photo)."""
    key = (h, w)
    if key not in _NOISE:
        _NOISE[key] = np.random.default_rng(99).standard_normal((h + 64, w + 64, 3),
                                                                 dtype=np.float32)
    dy, dx = rng.randrange(64), rng.randrange(64)
    out: Image = _NOISE[key][dy:dy + h, dx:dx + w]
    return out


def make_photo(face: Image, payload: str, size: tuple[int, int], rng: random.Random,
               quality: int = 85) -> tuple[bytes, PhotoShot]:
    """One JPEG photo of the card ``face`` (BGR, any px/mm) and how it was taken."""
    w, h = size
    frac = rng.uniform(0.2, 0.6)
    tilt = rng.uniform(0, 45)
    in_hand = rng.random() < 0.5
    hmat, frac = card_to_image(size, frac, rng.uniform(0, 360), tilt, rng.uniform(0, 360), rng)
    img = _background(size, rng)
    skin = rng.choice(SKIN)
    if in_hand:  # the palm behind the card, the thumb over its lower left edge
        cv2.fillPoly(img, [_poly(hmat, _ellipse_mm(40, 75, 75, 60))], skin)
    k = face.shape[1] / tablemat.CARD_WIDTH
    quad = _poly(hmat, [(0, 0), (tablemat.CARD_WIDTH, 0),
                        (tablemat.CARD_WIDTH, tablemat.CARD_HEIGHT), (0, tablemat.CARD_HEIGHT)])
    x0, y0 = (max(0, int(v) - 2) for v in quad.min(axis=0))
    x1, y1 = min(w, int(quad[:, 0].max()) + 3), min(h, int(quad[:, 1].max()) + 3)
    # Only the card's box is warped and blended: a whole 12 MP frame costs seconds.
    to_roi = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1]]) @ hmat @ np.diag(
        [1 / k, 1 / k, 1.0])
    roi = (x1 - x0, y1 - y0)
    card = cv2.warpPerspective(face, to_roi, roi, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), to_roi, roi,
                               flags=cv2.INTER_LINEAR)
    alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
    box = img[y0:y1, x0:x1]
    img[y0:y1, x0:x1] = (card * alpha + box * (1 - alpha)).astype(np.uint8)
    if in_hand:
        thumb = _poly(hmat, _ellipse_mm(4, 72, 13, 9))
        cv2.fillPoly(img, [thumb], skin)
    blur = rng.uniform(0, 1.5)
    if blur > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    gain = rng.uniform(0.35, 1.0)
    grad = rng.uniform(0, 0.4)
    a = math.radians(rng.uniform(0, 360))
    gy, gx = np.mgrid[0:16, 0:16].astype(np.float32) / 15 - 0.5
    light = cv2.resize(gain * (1 + grad * (gx * math.cos(a) + gy * math.sin(a))), (w, h),
                       interpolation=cv2.INTER_LINEAR)
    # Dim light means a higher ISO: more noise (after the lens blur, as on a sensor).
    photo: Image = cv2.multiply(img, cv2.merge([light, light, light]), dtype=cv2.CV_32F)
    photo = cv2.scaleAdd(_noise(h, w, rng), float(2 + 6 * (1 - gain)), photo)
    # Saturate to 0-255 with OpenCV (numpy's clip of a 12 MP float image costs seconds).
    _, photo = cv2.threshold(photo, 0, 0, cv2.THRESH_TOZERO)
    out = cv2.convertScaleAbs(photo)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("OpenCV could not encode a JPEG")
    return bytes(buf), PhotoShot(payload, frac, tilt, blur, gain, in_hand)


def photo_runs(seed: int) -> list[PrintRun]:
    """The print runs the bench photographs: two games, so faces differ in layout."""
    return [new_run(load_deck("wuxing"), sets=2, rng=random.Random(seed)),
            new_run(load_deck("godnum"), rng=random.Random(seed + 1))]


def bench_size(size: tuple[int, int], photos: int, seed: int) -> dict[str, Any]:
    """Read % and wrong cards over ``photos`` photos at ``size``; ms per photo."""
    rng = random.Random(seed * 7919 + size[0])
    runs = photo_runs(seed)
    faces = scenes.default_face_renderer(runs)
    book = RunBook(runs)
    cards = [c for run in runs for c in run.cards]
    read = wrong = full = 0
    ms: list[float] = []
    cpu: list[float] = []
    missed: list[PhotoShot] = []
    for _ in range(photos):
        card = rng.choice(cards)
        data, shot = make_photo(faces(card.payload), card.payload, size, rng)
        t0, c0 = time.perf_counter(), time.thread_time()
        got = read_photo(data, book)
        ms.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        full += got.full_pass
        if card.serial in got.serials:
            read += 1
        else:
            missed.append(shot)
        wrong += sum(1 for s in got.serials if s != card.serial)
    return {"size": f"{size[0]}x{size[1]}", "photos": photos, "read": read / photos,
            "wrong": wrong, "full_pass": full, "ms_median": statistics.median(ms),
            "ms_p90": float(np.percentile(ms, 90)), "cpu_ms_median": statistics.median(cpu),
            "cpu_ms_p90": float(np.percentile(cpu, 90)), "missed": missed}


def main(args: argparse.Namespace) -> int:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    cv2.setNumThreads(1)
    print(f"Photos: one printed card on a table or in a hand, 20-60 % of the width, tilt "
          f"0-45 deg, blur 0-1.5 px, gain 0.35-1.0, JPEG 85; {args.photos} per size "
          f"(seed {args.seed}); one thread.")
    print(f"{'size':9} {'photos':>6} {'read':>7} {'wrong':>5} {'full':>4} {'ms med':>7} "
          f"{'ms p90':>7} {'cpu med':>7} {'cpu p90':>7}")
    sizes = [s for s in SIZES if args.size in ("both", f"{s[0]}x{s[1]}")]
    for size in sizes:
        n = args.photos if size[0] <= 2000 else max(1, args.photos // 2)
        r = bench_size(size, n, args.seed)
        print(f"{r['size']:9} {r['photos']:>6} {100 * r['read']:>6.2f}% {r['wrong']:>5} "
              f"{r['full_pass']:>4} {r['ms_median']:>7.1f} {r['ms_p90']:>7.1f} "
              f"{r['cpu_ms_median']:>7.1f} {r['cpu_ms_p90']:>7.1f}")
        for m in r["missed"]:
            print(f"  not read: {m.payload} width {100 * m.width_frac:.0f}%, tilt "
                  f"{m.tilt:.0f} deg, blur {m.blur:.2f} px, gain {m.gain:.2f}"
                  f"{', in a hand' if m.in_hand else ''}")
    print("full: photos whose full-resolution image had to be decoded (12 MP only).")
    return 0
