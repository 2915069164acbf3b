"""One phone photo -> this table's cards in it ("Scan my card", issue 13).

A photo arrives as bytes from anyone holding a token, so nothing is trusted: the header is
read by hand first (only JPEG and PNG, at most ``MAX_PIXELS`` and ``MAX_SIDE``: a
20000x20000 PNG of zeros is a few kilobytes and would decode to 400 MB), and a JPEG's
structure is walked (frame kind, scans, markers: a progressive JPEG with one scan repeated
cost 26.5 s of CPU, issue 19 §2), then OpenCV decodes it; anything it cannot decode is a
``BadPhoto``, never a crash.

Fast on a 12 MP photo: a JPEG is decoded already shrunk (libjpeg's DCT scaling: a quarter
a side in half the time, 15 instead of 31 ms CPU) to 1,000-1,600 pixels on its long side
(``work_factor``), where the codes are located and read with the decoder and card filter of
``cv.detect.CardReader``. Only codes located there but not read, and card-shaped regions
without a code, are read again from the full-resolution photo, decoded only then.
"""

from __future__ import annotations

import re
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.runs import RunBook
from cv.detect import CardReader, Code, Sighting, find_cards, make_decoder, warp_code

Image = np.ndarray[Any, Any]
Point = tuple[float, float]

MAX_BYTES = 8 * 1024 * 1024
# A 12 MP phone photo is 4032 x 3024 (12.2 MP); 24 MP lets a 20 MP camera's full-size
# photo through. Beyond, the decoded greyscale image alone would pass 24 MB.
MAX_PIXELS = 24_000_000
MAX_SIDE = 8192
WORK_SIDE = 1600  # long side (about) at which codes are located
MIN_SIDE = 16
MAX_RETRIES = 12  # codes located but not read, read again at full size (a noise photo has many)


class Stopped(Exception):
    """The caller's ``stop()`` said to stop reading a photo (its sender hung up)."""


class BadPhoto(CompanionError):
    """Bytes that are not a JPEG or PNG photo this server will read (size, format, damage)."""

    code = "bad_photo"


@dataclass(frozen=True)
class Header:
    """What a photo's header says: format and size in pixels."""

    kind: str  # "jpeg" or "png"
    width: int
    height: int
    progressive: bool = False  # a progressive JPEG: decoded whole, once (see read_photo)


# Huffman-coded frames only: baseline, extended, progressive. Lossless, hierarchical and
# arithmetic-coded JPEGs are no phone's photo, and each is another decoder to attack.
_SOF_READ = {0xC0: "baseline", 0xC1: "baseline", 0xC2: "progressive"}
_SOF_OTHER = {0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
# The cost of decoding a progressive JPEG grows with its scans (each goes over every block
# of its components, and libjpeg keeps all coefficients: 2 bytes a pixel and component):
# a 153 KB progressive JPEG of 4896x4896 whose last scan was repeated 280 times cost 7 s of
# CPU (issue 19 §2). libjpeg's own progressions use 6 (grey) or 10 (colour) scans.
MAX_SCANS = 16
MAX_PROGRESSIVE_PIXELS = 12_600_000  # a 12 MP photo saved progressive still passes
MAX_SEGMENTS = 512  # markers of any kind; a phone's photo has a few dozen
# A marker in entropy-coded data: 0xFF followed by neither a stuffed 0x00, a restart
# marker nor another fill byte (found by the regex engine, not a Python loop).
_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")


def read_header(data: bytes) -> Header:
    """The format and size a photo's header declares, read without decoding it.

    Raises ``BadPhoto`` for anything but a JPEG or PNG whose header states a size of at
    least ``MIN_SIDE`` and at most ``MAX_SIDE`` pixels a side and ``MAX_PIXELS`` in all.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise BadPhoto(f"a photo is bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) > MAX_BYTES:
        raise BadPhoto(f"the photo is {len(data)} bytes; at most {MAX_BYTES} are read")
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise BadPhoto("the PNG is cut short before its size")
        w, h = struct.unpack(">II", data[16:24])
        return _checked(Header("png", w, h))
    if data.startswith(b"\xff\xd8"):
        return _checked(_jpeg_header(data))
    head = data[:8]
    raise BadPhoto(f"the upload is not a JPEG or PNG photo (it starts {head!r})")


def _jpeg_header(data: bytes) -> Header:
    """Walk the JPEG's segments and scans (without decoding) and check what its decoding
    would cost: one frame of a kind read here, at most ``MAX_SCANS`` scans, no scan twice,
    at most ``MAX_SEGMENTS`` markers; ``BadPhoto`` names what is wrong."""
    i, n = 2, len(data)
    frame: Header | None = None
    kind = ""
    components = 0
    scans: set[bytes] = set()
    segments = 0
    while i + 4 <= n:
        if data[i] != 0xFF:
            raise BadPhoto(f"the JPEG is damaged (no marker at byte {i})")
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        segments += 1
        if segments > MAX_SEGMENTS:
            raise BadPhoto(f"the JPEG has more than {MAX_SEGMENTS} segments; a photo has a "
                           "few dozen")
        if marker == 0xD9:  # end of image: whatever follows (a phone's extra images) is not read
            break
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if length < 2:
            raise BadPhoto(f"the JPEG is damaged (a segment of length {length})")
        end = i + 2 + length
        if marker in _SOF_OTHER:
            raise BadPhoto("this JPEG is lossless, hierarchical or arithmetic-coded; send the "
                           "photo as the camera saved it")
        if marker in _SOF_READ:
            if frame is not None:
                raise BadPhoto("the JPEG has two frame headers")
            if end > n or length < 8:
                break
            precision, h, w, components = struct.unpack(">BHHB", data[i + 4:i + 10])
            if precision != 8 or components not in (1, 3):
                raise BadPhoto(f"the JPEG has {components} colour components of {precision} "
                               "bits; a photo has 1 or 3 of 8 bits")
            kind = _SOF_READ[marker]
            frame = _checked(Header("jpeg", w, h, kind == "progressive"))
            if kind == "progressive" and w * h > MAX_PROGRESSIVE_PIXELS:
                raise BadPhoto(f"the progressive JPEG is {w}x{h} pixels; at most "
                               f"{MAX_PROGRESSIVE_PIXELS // 1_000_000} megapixels are read "
                               "(send the photo as the camera saved it)")
        elif marker == 0xDA:  # start of scan: its header, then entropy-coded data
            if frame is None:
                break
            params = data[i + 4:end]
            if params in scans:
                raise BadPhoto("the JPEG repeats one of its scans")
            scans.add(params)
            most = MAX_SCANS if kind == "progressive" else components
            if len(scans) > most:
                raise BadPhoto(f"the JPEG has more than {most} scans; at most {most} are read "
                               f"from a {kind} JPEG")
            m = _MARKER.search(data, end)
            if m is None:  # cut short in its last scan: libjpeg fills the rest with grey
                return frame
            end = m.start()
        i = end
    if frame is None:
        raise BadPhoto("the JPEG is cut short before its size")
    if not scans:
        raise BadPhoto("the JPEG has no image data")
    return frame


def _checked(header: Header) -> Header:
    w, h = header.width, header.height
    if min(w, h) < MIN_SIDE:
        raise BadPhoto(f"the photo is {w}x{h} pixels; a card needs at least "
                       f"{MIN_SIDE} pixels a side")
    if max(w, h) > MAX_SIDE or w * h > MAX_PIXELS:
        raise BadPhoto(f"the photo says it is {w}x{h} pixels; at most {MAX_SIDE} a side and "
                       f"{MAX_PIXELS // 1_000_000} megapixels are read")
    return header


_REDUCED = {1: cv2.IMREAD_GRAYSCALE, 2: cv2.IMREAD_REDUCED_GRAYSCALE_2,
            4: cv2.IMREAD_REDUCED_GRAYSCALE_4, 8: cv2.IMREAD_REDUCED_GRAYSCALE_8}


def decode_grey(data: bytes, header: Header, factor: int = 1) -> Image:
    """The photo in greyscale, shrunk by ``factor`` (1, 2, 4 or 8) while decoding.

    Raises ``BadPhoto`` when OpenCV cannot decode it (a PNG cut short, a damaged stream).
    A JPEG cut short decodes with its missing part grey (libjpeg's own recovery).
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    try:
        img = cv2.imdecode(buf, _REDUCED[factor])
    except cv2.error:
        img = None
    if img is None or img.size == 0:
        raise BadPhoto(f"the {header.kind.upper()} photo ({header.width}x{header.height}) "
                       "is damaged or cut short and cannot be read")
    out: Image = img
    return out


def work_factor(header: Header, work_side: int = WORK_SIDE) -> int:
    """By how much to shrink while decoding so the long side is about ``work_side``."""
    long_side = max(header.width, header.height)
    factor = 1
    while factor < 8 and long_side / (factor * 2) >= work_side * 0.6:
        factor *= 2
    return factor


@dataclass(frozen=True)
class PhotoCards:
    """What one photo showed: this table's cards (in reading order) and how it went."""

    cards: tuple[Sighting, ...]
    header: Header
    factor: int  # the shrink at which codes were located
    full_pass: bool  # whether the full-resolution photo had to be decoded
    ignored: dict[str, int]  # codes that were no card of this table, by reason
    ms: float

    @property
    def serials(self) -> list[str]:
        return [c.serial for c in self.cards]


def _scaled(code: Code, k: float) -> Code:
    return Code(code.text, tuple((x * k, y * k) for x, y in code.corners))


def read_photo(data: bytes, runbook: RunBook | None = None, *, reader: CardReader | None = None,
               work_side: int = WORK_SIDE, stop: Callable[[], bool] | None = None
               ) -> PhotoCards:
    """This table's cards in a photo (``runbook``: only its print runs count).

    Raises ``BadPhoto`` for bytes that are not a readable JPEG or PNG within the limits.
    Finds nothing (rather than raising) in a photo without a card. ``stop()`` is asked
    between the steps (decode, read, decode again, read again): when it says yes (the
    client hung up) ``Stopped`` is raised and nothing more is spent on the photo.
    """
    t0 = time.perf_counter()
    header = read_header(data)
    factor = work_factor(header, work_side)
    full: Image | None = None
    if factor > 1 and (header.kind == "png" or header.progressive):
        # OpenCV decodes a PNG whole even when asked for it shrunk, and libjpeg reads every
        # scan of a progressive JPEG at full size whatever the shrink: decode once, here.
        full = decode_grey(data, header, 1)
        small = cv2.resize(full, (header.width // factor, header.height // factor),
                           interpolation=cv2.INTER_AREA)
    else:
        small = decode_grey(data, header, factor)
    _go_on(stop)
    reader = reader or CardReader(make_decoder(), runbook=runbook, use_finder=False)
    # The whole (shrunk) photo: codes read, plus those located but not read.
    codes, misses = reader.decoder.decode_with_misses(small)
    full_pass = False
    cards = _accepted(reader, codes)
    if not cards:
        # Read again at full resolution where something was located: the codes located but
        # not read, and bright card-shaped regions (a card on a darker table or a hand).
        _go_on(stop)
        if full is None:
            full = small if factor == 1 else decode_grey(data, header, 1)
        full_pass = factor > 1
        _go_on(stop)
        found: list[Code] = []
        for corners in misses[:MAX_RETRIES]:
            big = [(x * factor, y * factor) for x, y in corners]
            warped, back = warp_code(full, big)
            found += [_mapped(c, back) for c in reader.decoder.decode(warped)]
        if not _accepted(reader, found):
            _go_on(stop)
            found += _read_card_regions(reader, small, full, factor)
        codes = [_scaled(c, 1 / factor) for c in found]
        cards = _accepted(reader, codes)
    scaled = tuple(Sighting(s.payload, s.serial, s.face, s.game_code,
                            tuple((x * factor, y * factor) for x, y in s.corners))
                   for s in cards)
    return PhotoCards(scaled, header, factor, full_pass, dict(reader.stats.ignored),
                      (time.perf_counter() - t0) * 1000)


def _go_on(stop: Callable[[], bool] | None) -> None:
    if stop is not None and stop():
        raise Stopped("the photo's sender hung up; it was not read further")


def _mapped(code: Code, h: Image) -> Code:
    pts = cv2.perspectiveTransform(np.array([code.corners], dtype=np.float64), h)[0]
    return Code(code.text, tuple((float(x), float(y)) for x, y in pts))


def _read_card_regions(reader: CardReader, small: Image, full: Image, factor: int
                       ) -> list[Code]:
    """Codes in the card-shaped bright regions of the photo, each read from the
    full-resolution photo (its bounding box, shrunk to at most 1,000 px)."""
    long_side = max(small.shape[:2])
    out: list[Code] = []
    quads = find_cards(small, min_width=0.1 * long_side, max_width=0.8 * long_side)
    for quad in quads[:6]:
        xs = [p[0] * factor for p in quad.corners]
        ys = [p[1] * factor for p in quad.corners]
        x0, y0 = max(0, int(min(xs))), max(0, int(min(ys)))
        x1 = min(full.shape[1], int(max(xs)) + 1)
        y1 = min(full.shape[0], int(max(ys)) + 1)
        if x1 - x0 < MIN_SIDE or y1 - y0 < MIN_SIDE:
            continue
        patch = full[y0:y1, x0:x1]
        k = min(1.0, 1000 / max(patch.shape[:2]))
        if k < 1.0:
            patch = cv2.resize(patch, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        for c in reader.decoder.decode(patch):
            out.append(Code(c.text, tuple((x / k + x0, y / k + y0) for x, y in c.corners)))
    return out


def _accepted(reader: CardReader, codes: list[Code]) -> list[Sighting]:
    """This table's cards among ``codes``, once each, in reading order (rows, then left to
    right), so several cards in one photo are played as a player reads them."""
    seen: dict[str, Sighting] = {}
    for c in codes:
        ident = reader.accept(c.text)
        if ident is None or ident[0] in seen:
            continue
        serial, face, game_code = ident
        seen[serial] = Sighting(c.text, serial, face, game_code, c.corners)
    cards = list(seen.values())
    if not cards:
        return []
    row = max(40.0, min(_side(s.corners) for s in cards))
    return sorted(cards, key=lambda s: (round(s.centre[1] / row), s.centre[0]))


def _side(corners: tuple[Point, ...]) -> float:
    return float(np.hypot(corners[1][0] - corners[0][0], corners[1][1] - corners[0][1]))


def no_card_hint(photo: PhotoCards) -> str:
    """What the player should do when a photo showed no card of this table (C-8)."""
    if photo.ignored.get("other print run") or photo.ignored.get("other game"):
        return ("That card is not from this table's printed cards. Scan a card from this "
                "table's deck.")
    if photo.ignored:
        return "That code is not a card. Point the camera at the card's square code."
    return ("No card found. Hold the phone closer so the card fills a third of the picture, "
            "turn on more light, and hold still.")
