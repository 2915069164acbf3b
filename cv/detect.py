"""Frame -> cards: QR decoding behind one interface, a card finder, and the card filter.

Decoding is a pure function from a greyscale image to codes (like pyzbar's ``decode``),
with two backends: zxing-cpp (the default, chosen by ``companion bench cv``) and pyzbar.
``CardReader.read`` runs the whole-frame decoder first. zxing-cpp also reports codes it
located but could not read; each is warped square at 6 px per module, sharpened and read
again (this recovers small, tilted or soft codes). With a decoder that reports no such
misses (pyzbar), or on request, a card finder looks for white card-shaped regions without
a code on a darker table, warps each upright and decodes it again (cv-baseline
section 4). Only payloads that ``companion.codec`` accepts (and, with a ``RunBook``,
that this table printed) count as cards; everything else is ignored and counted, and
each distinct one is logged once.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion import codec
from companion.errors import ForeignPayload, MalformedPayload, UnknownCard
from companion.runs import RunBook
from cv.rectify import (
    CARD_ASPECT,
    CODE_MODULES,
    WARP_H,
    WARP_PX,
    WARP_QUIET,
    WARP_W,
    CardQuad,
    Region,
    _clockwise,
    _map,
    _overlap,
    _width,
    code_candidates,
    find_cards,
    unsharp,
    upsample_patch,
    warp_card,
    warp_code,
)

# The rectifying helpers moved to ``cv.rectify``; they stay importable from here.
__all__ = [
    "CARD_ASPECT", "CODE_MODULES", "DECODERS", "DEFAULT_DECODER", "WARP_H", "WARP_PX",
    "WARP_QUIET", "WARP_W", "CardQuad", "CardReader", "Code", "Decoder", "PyzbarDecoder",
    "ReadStats", "Region", "Sighting", "ZxingDecoder", "code_candidates", "find_cards",
    "make_decoder", "unsharp", "upsample_patch", "warp_card", "warp_code",
]

log = logging.getLogger(__name__)

Point = tuple[float, float]
Image = np.ndarray[Any, Any]


@dataclass(frozen=True)
class Code:
    """One decoded QR code: its text and its corners in image pixels (clockwise)."""

    text: str
    corners: tuple[Point, ...]

    @property
    def centre(self) -> Point:
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / len(xs), sum(ys) / len(ys))


class Decoder(ABC):
    """A QR decoder: greyscale (or BGR) image in, codes out. Never raises on image content."""

    name: str

    @abstractmethod
    def decode(self, image: Image) -> list[Code]:
        """Every QR code found in ``image``."""

    def decode_with_misses(self, image: Image, *, quick: bool = False
                           ) -> tuple[list[Code], list[tuple[Point, ...]]]:
        """Codes, plus the corners of codes that were located but could not be read
        (empty when the backend does not report them). ``quick``: a cheaper first pass
        over a whole frame, where the backend has one (the misses are read again)."""
        return self.decode(image), []


class ZxingDecoder(Decoder):
    """zxing-cpp, QR only, without the rotate/downscale/invert retries.

    The retries changed no recall on table scenes and cost 35-45 % more time
    (cv-baseline section 4).
    """

    name = "zxing"

    def __init__(self) -> None:
        import zxingcpp

        self._zx = zxingcpp
        # Model 2 only: zxing-cpp's ``QRCode`` also matches Micro QR, and a corner of a
        # real card's code read at 150 dpi as a ghost Micro QR "7478" (issue 21 §6).
        self._format = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCodeModel2)
        self._local = zxingcpp.Binarizer.LocalAverage

    def decode(self, image: Image) -> list[Code]:
        return self.decode_with_misses(image, misses=False)[0]

    def decode_with_misses(self, image: Image, misses: bool = True, *, quick: bool = False
                           ) -> tuple[list[Code], list[tuple[Point, ...]]]:
        """``quick``: one global threshold for the whole image instead of zxing-cpp's
        local one: a quarter of the time on a noisy 1080p frame (1.5 instead of 6.7 ms),
        and 89 % of the codes the local threshold reads there; the rest are read again
        where they lay in the last frame, in their zone, or as located misses, on small
        patches with the local threshold (docs/camera.md)."""
        binarizer = self._zx.Binarizer.GlobalHistogram if quick else self._local
        try:
            found = self._zx.read_barcodes(image, formats=self._format, try_rotate=False,
                                           try_downscale=False, try_invert=False,
                                           return_errors=misses, binarizer=binarizer)
        except Exception as exc:  # a decoder must not take the camera loop down
            log.warning("zxing-cpp failed on a %s image: %s", image.shape, exc)
            return [], []
        codes = []
        failed = []
        for b in found:
            p = b.position
            corners = tuple((float(q.x), float(q.y)) for q in
                            (p.top_left, p.top_right, p.bottom_right, p.bottom_left))
            if b.valid and b.text:
                codes.append(Code(b.text, corners))
            else:
                failed.append(corners)
        return codes, failed


class PyzbarDecoder(Decoder):
    """pyzbar over the system's libzbar (an optional system library: ``libzbar0``)."""

    name = "pyzbar"

    def __init__(self) -> None:
        from pyzbar import pyzbar

        self._pz = pyzbar
        self._symbols = [pyzbar.ZBarSymbol.QRCODE]

    def decode(self, image: Image) -> list[Code]:
        if image.ndim == 3:
            image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        try:
            found = self._pz.decode(image, symbols=self._symbols)
        except Exception as exc:
            log.warning("pyzbar failed on a %s image: %s", image.shape, exc)
            return []
        codes = []
        for d in found:
            try:
                text = d.data.decode("utf-8")
            except UnicodeDecodeError:
                text = d.data.decode("latin-1")  # not a card either way; counted as foreign
            pts = [(float(p.x), float(p.y)) for p in d.polygon]
            if len(pts) != 4:
                r = d.rect
                pts = [(r.left, r.top), (r.left + r.width, r.top),
                       (r.left + r.width, r.top + r.height), (r.left, r.top + r.height)]
            codes.append(Code(text, tuple(_clockwise(pts))))
        return codes


DECODERS: dict[str, type[Decoder]] = {"zxing": ZxingDecoder, "pyzbar": PyzbarDecoder}
DEFAULT_DECODER = "zxing"


def make_decoder(name: str = DEFAULT_DECODER) -> Decoder:
    """A decoder by name; raises ``ValueError`` listing the names."""
    if name not in DECODERS:
        raise ValueError(f"no decoder {name!r}; choose one of {', '.join(DECODERS)}")
    return DECODERS[name]()


def _window(found: Sequence[Code], bounds: tuple[int, int, int, int]
            ) -> tuple[int, int, int, int]:
    """The box around codes (patch pixels) with a fifth of their width as margin (about
    four modules of a version 1 code, more than its quiet zone), clipped to ``bounds``
    (x0, y0, x1, y1: the patch with its margin)."""
    xs = [p[0] for c in found for p in c.corners]
    ys = [p[1] for c in found for p in c.corners]
    m = 0.2 * max(max(xs) - min(xs), max(ys) - min(ys))
    x0, y0 = max(bounds[0], int(min(xs) - m)), max(bounds[1], int(min(ys) - m))
    x1, y1 = min(bounds[2], int(max(xs) + m) + 1), min(bounds[3], int(max(ys) + m) + 1)
    return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)


LOCATE_MAX_WIDTH = 2000  # wider frames are first read at half size (CardReader._locate)
DIM_GREY = 150  # white paper darker than this (90th percentile of the frame): dim light


# --- cards ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Sighting:
    """A card seen in one frame: its payload and where (image pixels)."""

    payload: str
    serial: str
    face: str  # face code from the payload; the face id when a RunBook resolved it
    game_code: str
    corners: tuple[Point, ...]  # the QR code's corners, clockwise
    card: CardQuad | None = None  # the card outline, when the finder found it

    @property
    def centre(self) -> Point:
        if self.card is not None:
            return self.card.centre
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / 4, sum(ys) / 4)


@dataclass
class ReadStats:
    """What was ignored, counted over the reader's life."""

    frames: int = 0
    cards: int = 0
    ignored: Counter[str] = field(default_factory=Counter)  # reason -> count
    finder_retries: int = 0
    finder_hits: int = 0
    code_retries: int = 0  # located but unread codes warped and tried again
    code_hits: int = 0
    region_retries: int = 0  # zones without a code, rectified and tried again
    region_hits: int = 0
    region_window_hits: int = 0  # read in the window around the zone's last code
    history_retries: int = 0  # codes read in the last frame, not yet in this one, re-read there
    history_hits: int = 0
    candidate_retries: int = 0  # busy patches of the frame, upsampled and read
    candidate_hits: int = 0


class CardReader:
    """Reads the cards in frames; a code found twice at one place is reported once.

    ``runbook`` (optional) restricts cards to this table's print runs; ``game_code``
    to one game. Nothing here raises on image content.
    """

    def __init__(self, decoder: Decoder | None = None, *, runbook: RunBook | None = None,
                 game_code: str | None = None, use_finder: bool | None = None,
                 find_candidates: bool = True) -> None:
        self.decoder = decoder or make_decoder()
        self.BARREN_AFTER = 3  # failed warps at one spot before it is skipped
        self.BARREN_RETRY = 15  # frames between retries of such a spot
        self.CANDIDATES_PER_FRAME = 3
        self.runbook = runbook
        self.game_code = game_code
        # The card finder needs cards lighter than the table; the printed mat is white, so
        # by default it only runs for decoders that cannot point at unread codes (pyzbar).
        self.use_finder = (not isinstance(self.decoder, ZxingDecoder)
                           if use_finder is None else use_finder)
        # region outline -> window (patch pixels) where it gave a code in the last frame
        self._hints: dict[tuple[Point, ...], tuple[int, int, int, int]] = {}
        self.find_candidates = find_candidates
        # The whole-frame pass with a global threshold: None decides per frame (dim).
        self.quick_first: bool | None = None
        self._history: list[Code] = []  # the cards read in the last frame
        self._fruitless: dict[tuple[Point, ...], int] = {}  # zone -> searches in vain
        self.stats = ReadStats()
        self._logged: set[str] = set()
        self._verdicts: dict[str, tuple[tuple[str, str, str] | None, str, str]] = {}
        # Bright card-shaped regions that gave no code (marker margins, a napkin...):
        # grid cell -> (failures, frame of the last try). Retried only now and then.
        self._barren: dict[tuple[int, int], tuple[int, int]] = {}

    def _ignore(self, reason: str, text: str, why: str) -> None:
        self.stats.ignored[reason] += 1
        key = f"{reason}:{text}"
        if key not in self._logged and len(self._logged) < 10_000:
            self._logged.add(key)
            log.info("ignored a QR code (%s): %s", reason, why)

    def accept(self, text: str) -> tuple[str, str, str] | None:
        """``(serial, face, game_code)`` if ``text`` is one of our cards, else ``None``.

        The same codes are read in every frame, so verdicts are remembered (a refusal is
        still counted each time it is seen).
        """
        known = self._verdicts.get(text)
        if known is not None:
            ident, reason, why = known
            if ident is None:
                self._ignore(reason, text, why)
            return ident
        if len(self._verdicts) >= 4096:
            self._verdicts.clear()
        self._verdicts[text] = verdict = self._judge(text)
        ident, reason, why = verdict
        if ident is None:
            self._ignore(reason, text, why)
        return ident

    def _judge(self, text: str) -> tuple[tuple[str, str, str] | None, str, str]:
        """``(ident, "", "")`` for one of our cards, else ``(None, reason, why)``."""
        try:
            p = codec.decode(text)
        except ForeignPayload as exc:
            return None, "not a card", str(exc)
        except MalformedPayload as exc:
            return None, "malformed", str(exc)
        if self.game_code is not None and p.game_code != self.game_code:
            return None, "other game", f"{text!r} is not a card of this game"
        face = p.face_code
        if self.runbook is not None:
            try:
                face = self.runbook.resolve(text).face.id
            except (UnknownCard, MalformedPayload) as exc:
                return None, "other print run", str(exc)
        return (p.serial, face, p.game_code), "", ""

    def _search_regions(self, gray: Image, regions: Sequence[Region], codes: list[Code]
                        ) -> None:
        """Rectify and read the regions in which no code was read yet; adds to ``codes``.

        Where a region gave a code in the last frame, only a window around that code is
        rectified first (a card at rest has not moved); the whole region only if the
        window gives nothing. The window's pixels are those of the whole patch, so this
        changes the cost, not what can be read.
        """
        hints: dict[tuple[Point, ...], tuple[int, int, int, int]] = {}
        if len(self._fruitless) > 256:  # zones of poses long gone
            self._fruitless.clear()
        centres = [c.centre for c in codes]
        for region in regions:
            if not region.multi and any(region.contains(c) for c in centres):
                continue
            # An empty zone is flat paper: look at it at 1/6 scale first, skip it if flat.
            thumb = cv2.warpPerspective(gray, region.to_thumb, region.thumb_size,
                                        flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            if float(thumb.std()) < region.min_std:
                self._fruitless.pop(region.outline, None)
                continue
            # A zone searched in vain twice running (a hand over it, a card face down) is
            # searched every third frame only until it gives a code or turns flat again:
            # on the bench a hand cost 1-2 ms a frame this way for nothing.
            misses = self._fruitless.get(region.outline, 0)
            if misses >= 2 and self.stats.frames % 3:
                continue
            self.stats.region_retries += 1
            found: list[Code] = []
            window = None if region.multi else self._hints.get(region.outline)
            if window is not None:
                found, _ = self._read_patch(gray, region, window)
                self.stats.region_window_hits += bool(found)
            m = region.margin
            whole = (-m, -m, region.size[0] + m, region.size[1] + m)
            located = False
            if not found:
                found, located = self._read_patch(gray, region, whole)
            if not found and located and not misses:
                # A code located but not read, the first time a zone gives nothing (not a
                # hand over it): bicubic (see _read_patch).
                found, _ = self._read_patch(gray, region, whole, bicubic=True)
            if found:
                self.stats.region_hits += 1
                self._fruitless.pop(region.outline, None)
                if not region.multi:
                    hints[region.outline] = _window(found, whole)
            else:
                self._fruitless[region.outline] = misses + 1
            new = [Code(c.text, _map(region.to_image, c.corners)) for c in found]
            codes.extend(new)
            centres.extend(c.centre for c in new)
        self._hints = hints

    def _read_patch(self, gray: Image, region: Region, window: tuple[int, int, int, int],
                    bicubic: bool = False) -> tuple[list[Code], bool]:
        """Codes in ``window`` (x0, y0, x1, y1 in patch pixels, reaching into the margin
        around the outline) of a region's patch, in patch coordinates; a soft patch is
        sharpened (unsharp mask) and read once more. ``bicubic``: the patch scaled up
        bicubically, the last try at a zone: a code of 2 px per module keeps its module
        edges better, but the warp costs five times as much (1.5 instead of 0.3 ms for a
        zone with its margin), so it is tried only the first time a zone gives nothing,
        and only where the decoder located a code it could not read (a decoder that does
        not report those counts as having located one). Also returns whether it did."""
        x0, y0, x1, y1 = window
        shift = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1.0]])
        patch = cv2.warpPerspective(gray, shift @ region.to_patch, (x1 - x0, y1 - y0),
                                    flags=cv2.INTER_CUBIC if bicubic else cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
        found, missed = self.decoder.decode_with_misses(patch)
        located = bool(missed) or not isinstance(self.decoder, ZxingDecoder)
        if not found:
            found = self.decoder.decode(unsharp(patch, 2.0))
        return ([Code(c.text, tuple((x + x0, y + y0) for x, y in c.corners)) for c in found],
                located)

    def _recall_history(self, gray: Image, codes: list[Code]) -> None:
        """Codes read in the last frame and not in this one yet are looked for at the same
        place, warped square at 6 px per module: a card at rest has not moved, and a code
        read sharp once is read there again even when this frame's noise or light would
        hide it from the whole-frame pass. Adds to ``codes``."""
        texts = {c.text for c in codes}
        for last in self._history:
            if last.text in texts or any(_overlap(last.corners, c.corners) for c in codes):
                continue
            self.stats.history_retries += 1
            warped, back = warp_code(gray, last.corners)
            found = [c for c in self.decoder.decode(warped) if c.text == last.text]
            if found:
                self.stats.history_hits += 1
            codes.extend(Code(c.text, _map(back, c.corners)) for c in found[:1])

    def _search_candidates(self, gray: Image, codes: list[Code]) -> None:
        """Busy patches of the frame the size of a code (``rectify.code_candidates``) that
        no code was read in: cut out, upsampled to about 6 px per module, sharpened and
        read. A patch that gave nothing three times is left alone for 15 frames (card
        text and artwork are busy too). Runs every other frame, at most three patches:
        finding them costs about 2 ms at 1080p, each read about 0.5 ms. Adds to
        ``codes``."""
        frame_no = self.stats.frames
        widths = [_width(c.corners) for c in codes]
        todo = []
        for box in code_candidates(gray, widths):
            x0, y0, x1, y1 = box
            if any(x0 <= c.centre[0] <= x1 and y0 <= c.centre[1] <= y1 for c in codes):
                continue
            cell = (-1 - (x0 + x1) // 32, (y0 + y1) // 32)  # negative: apart from the finder's
            failures, last = self._barren.get(cell, (0, -1))
            if failures >= self.BARREN_AFTER and frame_no - last < self.BARREN_RETRY:
                continue
            todo.append((failures, last, box, cell))
        # A budget per frame, the least tried first: a new code is read within a few
        # frames, and the tracker's history keeps it cheaply after that.
        todo.sort(key=lambda item: (item[0], item[1]))
        for failures, _, box, cell in todo[:self.CANDIDATES_PER_FRAME]:
            x0, y0 = box[0], box[1]
            self.stats.candidate_retries += 1
            patch, scale = upsample_patch(gray, box)
            found = self.decoder.decode(patch)
            if not found:
                found = self.decoder.decode(unsharp(patch, 2.0))
            if found:
                self.stats.candidate_hits += 1
                self._barren.pop(cell, None)
            else:
                self._barren[cell] = (failures + 1, frame_no)
            codes.extend(Code(c.text, tuple((x0 + x / scale, y0 + y / scale)
                                            for x, y in c.corners)) for c in found)

    def _retry_misses(self, gray: Image, misses: Sequence[tuple[Point, ...]],
                      codes: list[Code]) -> None:
        """Warp, sharpen and read again the codes located but not read; adds to ``codes``.

        Skipped: a location overlapping a code already read (the same code located twice),
        and one more than 1.5 times as wide as the widest code read in the frame (finder
        patterns of different codes taken for one code). On 1040 cached 720p and 1080p
        bench frames the 127 re-reads so left out had read no card (docs/camera.md).
        """
        widest = max((_width(c.corners) for c in codes), default=0.0)
        for corners in misses:
            if any(_overlap(corners, c.corners) for c in codes):
                continue
            if widest and _width(corners) > 1.5 * widest:
                continue
            self.stats.code_retries += 1
            warped, back = warp_code(gray, corners)
            found = self.decoder.decode(warped)
            if found:
                self.stats.code_hits += 1
            codes.extend(Code(c.text, _map(back, c.corners)) for c in found)

    def _locate(self, gray: Image, second_chance: bool = True
                ) -> tuple[list[Code], list[tuple[Point, ...]]]:
        """The whole-frame pass: codes read and codes located but not read.

        A frame wider than ``LOCATE_MAX_WIDTH`` (4K, the Pi camera's full sensor) is read
        at half size: its cards are then as large as at 1080p, most codes read there, and
        the rest are located for the full-resolution re-reads (``_retry_misses``, the
        zones), which touch only those pixels. Reading a whole 4K frame took 2-3 times as
        long for no more cards (docs/camera.md).
        """
        quick = self.quick_first
        if not isinstance(self.decoder, ZxingDecoder) or not second_chance:
            # Other backends have no cheaper pass; without the mat's zones to search
            # again, the codes the global threshold misses would stay unread.
            quick = False
        elif quick is None:
            # Dim light: noise then makes zxing-cpp's local threshold slow (6.7 ms a
            # noisy 1080p frame) for few more codes; in good light it is as quick and
            # reads more than the global one (docs/camera.md).
            sample = gray[::32, ::32].ravel()
            quick = float(np.partition(sample, int(0.9 * (sample.size - 1)))[
                int(0.9 * (sample.size - 1))]) < DIM_GREY
        def whole(image: Image) -> tuple[list[Code], list[tuple[Point, ...]]]:
            if quick:
                return self.decoder.decode_with_misses(image, quick=True)
            return self.decoder.decode_with_misses(image)

        if gray.shape[1] <= LOCATE_MAX_WIDTH:
            return whole(gray)
        h, w = gray.shape[:2]
        small = cv2.resize(gray, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        codes, misses = whole(small)

        def up(pts: Sequence[Point]) -> tuple[Point, ...]:
            return tuple((2 * x + 0.5, 2 * y + 0.5) for x, y in pts)

        return [Code(c.text, up(c.corners)) for c in codes], [up(m) for m in misses]

    def read(self, frame: Image, regions: Sequence[Region] = ()) -> list[Sighting]:
        """The cards in one frame (BGR or greyscale).

        ``regions`` (the mat's zones seen through its markers, ``MatZones.regions``) are
        searched again, rectified, where the whole frame gave no code.
        """
        self.stats.frames += 1
        if frame is None or frame.size == 0:
            return []
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        codes, misses = self._locate(gray, second_chance=bool(regions))
        # Zones first: a located code whose zone gave it is not warped again (reading the
        # located codes first cost more on the bench: more re-reads, few hits).
        self._recall_history(gray, codes)
        self._search_regions(gray, regions, codes)
        self._retry_misses(gray, misses, codes)
        if self.find_candidates and not regions and self.stats.frames % 2:
            # With the mat its zones are searched instead (cards elsewhere are not in play).
            self._search_candidates(gray, codes)
        quads = find_cards(gray) if self.use_finder else []
        frame_no = self.stats.frames
        for q in quads:
            if any(q.contains(c.centre) for c in codes):
                continue
            cell = (int(q.centre[0] // 16), int(q.centre[1] // 16))
            failures, last = self._barren.get(cell, (0, -1))
            if failures >= self.BARREN_AFTER and frame_no - last < self.BARREN_RETRY:
                continue
            self.stats.finder_retries += 1
            warped, back = warp_card(gray, q)
            found = self.decoder.decode(warped)
            if found:
                self.stats.finder_hits += 1
                self._barren.pop(cell, None)
            else:
                self._barren[cell] = (failures + 1, frame_no)
            codes.extend(Code(c.text, _map(back, c.corners)) for c in found)
        if len(self._barren) > 512:
            self._barren.clear()
        seen: dict[str, list[Sighting]] = {}
        out: list[Sighting] = []
        for c in codes:
            ident = self.accept(c.text)
            if ident is None:
                continue
            serial, face, game_code = ident
            card = next((q for q in quads if q.contains(c.centre)), None)
            s = Sighting(c.text, serial, face, game_code, c.corners, card)
            if any(np.hypot(p.centre[0] - s.centre[0], p.centre[1] - s.centre[1]) < 20
                   for p in seen.get(c.text, [])):
                continue  # the same code found twice (whole frame and a re-read)
            seen.setdefault(c.text, []).append(s)
            out.append(s)
        self._history = [Code(s.payload, s.corners) for s in out]
        self.stats.cards += len(out)
        return out
