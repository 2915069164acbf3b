"""Issue 21 §6: the camera reads QR Model 2 (what the cards carry) and nothing else: a
Micro QR symbol, which zxing-cpp's ``QRCode`` format also matches, is never a card."""

from __future__ import annotations

import numpy as np
import zxingcpp

from cv.detect import ZxingDecoder
from printables import qr


def _image(text: str, fmt: zxingcpp.BarcodeFormat) -> np.ndarray:
    code = zxingcpp.create_barcode(text, fmt)
    return np.asarray(code.to_image(scale=8, add_quiet_zones=True))


def test_a_micro_qr_is_no_ghost_card() -> None:
    micro = _image("7478", zxingcpp.BarcodeFormat.MicroQRCode)
    # the broad format would have read it: the test can fail
    assert [r.text for r in zxingcpp.read_barcodes(micro,
                                                   formats=zxingcpp.BarcodeFormat.QRCode)]
    assert ZxingDecoder().decode(micro) == []


def test_a_printed_card_code_still_reads() -> None:
    payload = "T1:W:WO:K2F9:000:O"
    m = np.array(qr.matrix(payload), dtype=bool)
    img = np.where(np.kron(m, np.ones((8, 8), dtype=bool)), 0, 255).astype(np.uint8)
    img = np.pad(img, 32, constant_values=255)
    assert [c.text for c in ZxingDecoder().decode(img)] == [payload]
