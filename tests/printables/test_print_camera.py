"""Cards as the camera sees them from its standard position (about 70 cm above an
80 x 45 cm play area): a 63 mm card is ~150 px wide at 1920x1080 and ~100 px at 1280x720.

The page is rendered at three times the camera's scale and area-downsampled (a sensor
integrates light over its pixels), blurred a little and JPEG-compressed, then decoded
whole-frame by zxing-cpp with no card finder: the plainest reader the camera has.
"""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest
import zxingcpp
from pdf_probe import render

from printables.jobs import build
from printables.options import PrintOptions


def _camera_view(img: np.ndarray, blur: float) -> np.ndarray:
    small = cv2.resize(img, (img.shape[1] // 3, img.shape[0] // 3),
                       interpolation=cv2.INTER_AREA)
    if blur:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    ok, enc = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 75])
    assert ok
    return cv2.imdecode(enc, cv2.IMREAD_GRAYSCALE)


@pytest.mark.parametrize("game", ["wuxing", "godnum"])
@pytest.mark.parametrize(("camera", "card_px"), [("1920x1080", 150), ("1280x720", 100)])
@pytest.mark.parametrize("lower_half_covered", [False, True])
def test_every_card_reads_at_the_standard_camera_position(
        game: str, camera: str, card_px: int, lower_half_covered: bool) -> None:
    pdf, m, _ = build(game, PrintOptions(extras=False), random.Random(8))
    mm_px = card_px / 63.0  # camera pixels per mm on the table
    hi_dpi = 3 * mm_px * 25.4
    img = render(pdf, hi_dpi, [1])[1].copy()
    rows = [c for c in m["cards"] if c["page"] == 1]
    s = hi_dpi / 25.4
    module_px = m["qr"]["module_mm"] * mm_px
    assert module_px >= (4.5 if card_px == 150 else 3.0)
    if lower_half_covered:
        # Another card lies over each card's lower half (a pot laid like a solitaire
        # column): white card stock with a darker edge. The code is wholly in the top half.
        for c in rows:
            y0 = round((c["y_mm"] + c["h_mm"] / 2) * s)
            y1 = round((c["y_mm"] + c["h_mm"]) * s)
            x0, x1 = round(c["x_mm"] * s), round((c["x_mm"] + c["w_mm"]) * s)
            img[y0:y1, x0:x1] = 248
            img[y0:y0 + 3, x0:x1] = 110
    frame = _camera_view(img, blur=0.7)
    model2 = zxingcpp.BarcodeFormat.QRCodeModel2
    got = {r.text for r in zxingcpp.read_barcodes(frame, formats=model2)}
    assert got == {c["payload"] for c in rows}, f"{camera}: read {len(got)} of {len(rows)}"
