"""Hostile photos (issue 19 §2), for ``companion bench photo --hostile`` and the tests.

Each is a body anyone holding a seat token may send to ``POST .../photos`` (8 MB at most)
or ``.../camera/frames`` (1 MB): valid images that are costly to decode, and images whose
structure the server refuses before decoding. ``hostile_photos()`` names them all;
``REFUSED`` says which must be refused (400 ``bad_photo``) rather than read.
"""

from __future__ import annotations

import io
import re
import struct
from collections.abc import Callable

import cv2
import numpy as np
from PIL import Image as PILImage

_SOS = re.compile(rb"\xff\xda")


def _flat(side: int, progressive: bool, colour: bool = True) -> bytes:
    img = PILImage.new("RGB" if colour else "L", (side, side),
                       (120, 130, 140) if colour else 128)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=30, progressive=progressive)
    return buf.getvalue()


def repeated_last_scan(side: int = 4896, size: int = 153_000) -> bytes:
    """The red team's photo: a progressive JPEG whose last (tiny) scan is repeated until
    the file is ``size`` bytes; libjpeg decodes every copy over the whole image."""
    data = _flat(side, progressive=True)
    last = data[[m.start() for m in _SOS.finditer(data)][-1]:-2]
    copies = max(1, (size - len(data)) // len(last))
    return data[:-2] + last * copies + b"\xff\xd9"


def many_scans(side: int = 3000, scans: int = 40) -> bytes:
    """A progressive JPEG with ``scans`` different scans (each a copy of the last with
    another spectral end), within the pixel limit."""
    data = _flat(side, progressive=True)
    start = [m.start() for m in _SOS.finditer(data)][-1]
    last = bytearray(data[start:-2])
    (length,) = struct.unpack(">H", last[2:4])
    extra = b""
    for k in range(scans):
        copy = bytearray(last)
        copy[2 + length - 2] = 1 + k % 63  # Se: another band each time
        copy[2 + length - 1] = (k // 63) & 0x0F  # Al
        extra += bytes(copy)
    return data[:-2] + extra + b"\xff\xd9"


def _patched(data: bytes, marker: bytes, offset: int, value: int) -> bytes:
    i = data.index(marker)
    out = bytearray(data)
    out[i + offset] = value
    return bytes(out)


def arithmetic(side: int = 1600) -> bytes:
    """A baseline JPEG relabelled arithmetic-coded (SOF9): another decoder to attack."""
    return _patched(_flat(side, False), b"\xff\xc0", 1, 0xC9)


def twelve_bit(side: int = 1600) -> bytes:
    return _patched(_flat(side, False), b"\xff\xc0", 4, 12)


def many_segments(side: int = 1600, count: int = 5000) -> bytes:
    data = _flat(side, False)
    return data[:2] + b"\xff\xfe\x00\x03x" * count + data[2:]


def noise(side: int, limit: int, progressive: bool = False) -> bytes:
    """A JPEG of colour noise as close under ``limit`` bytes as quality allows: the most
    entropy-coded data a body may hold (progressive: in libjpeg's 10 scans)."""
    rgb = np.random.default_rng(1).integers(0, 256, (side, side, 3), dtype=np.uint8)
    for q in (95, 85, 70, 50, 30, 15, 5):
        ok, buf = cv2.imencode(".jpg", rgb, [
            cv2.IMWRITE_JPEG_QUALITY, q, cv2.IMWRITE_JPEG_PROGRESSIVE, int(progressive),
            cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444])
        if ok and len(buf) <= limit:
            return bytes(buf)
    raise RuntimeError("no quality makes the noise small enough")


def png_zeros(side: int = 4896, depth16: bool = True) -> bytes:
    """A 24 MP PNG of 16-bit zeros: about 140 KB that decode to 144 MB of samples."""
    img = np.zeros((side, side, 3), np.uint16 if depth16 else np.uint8)
    ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    assert ok
    return bytes(buf)


def big_baseline(side: int = 4896) -> bytes:
    return _flat(side, False)


def progressive_12mp() -> bytes:
    """The largest progressive JPEG read: 12 MP (4032x3024), libjpeg's 10 scans."""
    img = PILImage.new("RGB", (4032, 3024), (90, 100, 110))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=95, progressive=True, subsampling=0)
    return buf.getvalue()


PHOTOS: dict[str, Callable[[], bytes]] = {
    "repeated last scan 4896x4896 (153 KB)": repeated_last_scan,
    "repeated last scan 3000x3000": lambda: repeated_last_scan(3000),
    "40 different scans 3000x3000": many_scans,
    "arithmetic-coded": arithmetic,
    "12-bit samples": twelve_bit,
    "5,000 segments": many_segments,
    "noise 4896x4896 under 8 MB": lambda: noise(4896, 8 * 1024 * 1024),
    "progressive noise 12 MP under 8 MB": lambda: noise(3500, 8 * 1024 * 1024, True),
    "baseline 4896x4896": big_baseline,
    "progressive 12 MP, 4:4:4": progressive_12mp,
    "PNG 4896x4896 16-bit zeros": png_zeros,
}
REFUSED = {"repeated last scan 4896x4896 (153 KB)", "repeated last scan 3000x3000",
           "40 different scans 3000x3000", "arithmetic-coded", "12-bit samples",
           "5,000 segments"}
FRAMES: dict[str, Callable[[], bytes]] = {
    "frame: repeated last scan 1920x1920": lambda: repeated_last_scan(1920, 900_000),
    "frame: noise 1920x1920 under 1 MB": lambda: noise(1920, 1024 * 1024),
}


def hostile_photos() -> dict[str, bytes]:
    """Every hostile photo by name (built on call: a few seconds)."""
    return {name: make() for name, make in PHOTOS.items()}
