"""QR codes as vector paths: version 1, error correction M, one filled path per code.

The ``qrcode`` package computes the module matrix; we draw it ourselves so the geometry is
exact (the symbol is exactly ``size`` mm, every module ``size / 21`` mm) and the PDF stays
small (one path of merged row runs per code, no images). One fill for the whole symbol
also means no hairline seams between modules when a reader anti-aliases.
"""

from __future__ import annotations

from functools import lru_cache

import qrcode
from qrcode.constants import ERROR_CORRECT_M
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
    qr = qrcode.QRCode(version=None, error_correction=ERROR_CORRECT_M, border=0)
    qr.add_data(payload)
    qr.make(fit=True)
    if qr.version != VERSION:
        raise PrintError(
            f"payload {payload!r} needs QR version {qr.version}; cards must stay at version "
            f"{VERSION} (at most 20 alphanumeric characters) so the camera can read them"
        )
    rows = qr.get_matrix()
    assert len(rows) == MODULES, "qrcode returned a matrix of the wrong size"
    return tuple(tuple(bool(v) for v in row) for row in rows)


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
