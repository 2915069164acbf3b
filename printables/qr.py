"""QR codes as vector paths: version 1, error correction M, one filled path per code.

zxing-cpp's writer computes the module matrix (in C: a tenth of the time of the pure
Python ``qrcode`` package, which was most of a print job's time); we draw it ourselves so
the geometry is exact (the symbol is exactly ``size`` mm, every module ``size / 21`` mm)
and the PDF stays small (one path of merged row runs per code, no images). One fill for
the whole symbol also means no hairline seams between modules when a reader anti-aliases.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import zxingcpp
from reportlab.pdfgen.canvas import Canvas

from printables.geometry import MM, PrintError

VERSION = 1
MODULES = 21  # a version 1 symbol is 21 x 21 modules


@lru_cache(maxsize=4096)
def matrix(payload: str) -> tuple[tuple[bool, ...], ...]:
    """The module matrix of ``payload`` (no quiet zone); raises ``PrintError`` unless v1-M.

    Table Companion payloads are at most 20 QR-alphanumeric characters, which fit version 1
    at level M; anything longer would need a denser code with smaller modules, which the
    camera cannot read from its standard position, so it is refused here.
    """
    code = zxingcpp.create_barcode(payload, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    img = np.asarray(code.to_image(scale=1, add_quiet_zones=False))
    if img.shape != (MODULES, MODULES):
        version = (img.shape[0] - 17) // 4
        raise PrintError(
            f"payload {payload!r} needs QR version {version}; cards must stay at version "
            f"{VERSION} (at most 20 alphanumeric characters) so the camera can read them"
        )
    return tuple(tuple(bool(v < 128) for v in row) for row in img)


def draw(c: Canvas, payload: str, x_mm: float, y_mm: float, size_mm: float,
         page_h_mm: float) -> None:
    """Draw the code with its top-left corner at page mm ``(x, y)`` (top-left origin)."""
    m = matrix(payload)
    module = size_mm / MODULES
    path = c.beginPath()
    for r, row in enumerate(m):
        c0 = None
        for col, dark in enumerate((*row, False)):
            if dark and c0 is None:
                c0 = col
            elif not dark and c0 is not None:
                # PDF y grows upwards: the row's bottom edge is at page_h - (y + (r+1)*module).
                path.rect((x_mm + c0 * module) * MM,
                          (page_h_mm - y_mm - (r + 1) * module) * MM,
                          (col - c0) * module * MM, module * MM)
                c0 = None
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()
