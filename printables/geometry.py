"""Sheet geometry in millimetres: papers, card sizes, the card grid, duplex backs, crop marks.

Everything here is pure and drawn nowhere (Squib's lesson: layout is a function you can
test without a PDF). Coordinates are millimetres from the **top-left corner of the page**,
``x`` to the right and ``y`` downwards, the way a person measures a sheet with a ruler and
the way a rendered image's pixels run. The drawing code converts to PDF points once.

Raises ``PrintError`` (a ``CompanionError``) for every input it cannot lay out.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from companion.errors import CompanionError

MM = 72.0 / 25.4  # PDF points per millimetre

# Paper sizes (portrait width x height). A3 is only offered for the board and the mat.
PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
}
CARD_PAPERS = ("a4", "letter")

# Named card sizes: the project's standard (63 x 88), US poker (2.5 x 3.5 in) and
# bridge (2.25 x 3.5 in).
CARD_SIZES: dict[str, tuple[float, float]] = {
    "standard": (63.0, 88.0),
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
}

# Home printers cannot print the outermost ~4-5 mm of a sheet; nothing essential is drawn
# there (cards, notes, crop marks all stay inside).
PRINTER_MARGIN = 5.0
# Width of the strip beside the grid that carries the "print at 100 %" note and the
# 50 mm check bar, inside the printable area.
NOTE_STRIP = 2.5
# Crop marks start this far outside the outermost card (bleed included).
CROP_GAP = 0.5
CROP_MAX = 8.0
MIN_MARK = 4.0  # a crop mark shorter than this is hard to find and to lay a ruler on
# Printable room kept above and below the grid so every column's cut lines get a mark.
MARK_ROOM = 1.0

BACK_MODES = ("none", "long-edge", "short-edge", "fold")


class PrintError(CompanionError):
    """A print job that cannot be made as asked (paper, card size, offset, output...)."""

    code = "print_error"


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in mm, ``(x, y)`` its top-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def grow(self, d: float) -> Rect:
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def shift(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def inside(self, other: Rect, tol: float = 1e-9) -> bool:
        """Whether this rectangle lies within ``other``."""
        return (self.x >= other.x - tol and self.y >= other.y - tol
                and self.right <= other.right + tol and self.bottom <= other.bottom + tol)

    def intersects(self, other: Rect, tol: float = 1e-6) -> bool:
        """Whether the interiors overlap (touching edges do not count)."""
        return (self.x < other.right - tol and other.x < self.right - tol
                and self.y < other.bottom - tol and other.y < self.bottom - tol)


@dataclass(frozen=True)
class Line:
    """A straight mark from ``(x1, y1)`` to ``(x2, y2)`` in mm."""

    x1: float
    y1: float
    x2: float
    y2: float

    def bounds(self) -> Rect:
        return Rect(min(self.x1, self.x2), min(self.y1, self.y2),
                    abs(self.x2 - self.x1), abs(self.y2 - self.y1))


def paper_size(name: str, allowed: tuple[str, ...] = CARD_PAPERS) -> tuple[float, float]:
    """Width and height of a paper by name; raises ``PrintError`` listing the choices."""
    key = str(name).strip().lower()
    if key not in PAPERS or key not in allowed:
        raise PrintError(f"unknown paper {name!r}; choose one of {', '.join(allowed)}")
    return PAPERS[key]


_WXH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[xX]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$")


def card_size(spec: str) -> tuple[float, float]:
    """A card size from a name (``standard``, ``poker``, ``bridge``) or ``WxH`` in mm.

    Raises ``PrintError`` for anything else or a size below 30 x 40 mm (no room for a
    readable face and its QR code).
    """
    key = str(spec).strip().lower()
    if key in CARD_SIZES:
        return CARD_SIZES[key]
    m = _WXH.match(key)
    if not m:
        raise PrintError(
            f"unknown card size {spec!r}; use {', '.join(CARD_SIZES)} or WIDTHxHEIGHT in mm"
        )
    w, h = float(m.group(1)), float(m.group(2))
    if w < 30 or h < 40:
        raise PrintError(f"card size {spec!r} is too small; at least 30x40 mm")
    return (w, h)


def parse_offset(text: str) -> tuple[float, float]:
    """``"X,Y"`` in mm (either may be negative); raises ``PrintError``."""
    parts = str(text).split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise PrintError(f"back offset {text!r} must be two numbers in mm: X,Y") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise PrintError(f"back offset {text!r} must be finite")
    return (x, y)


@dataclass(frozen=True)
class Sheet:
    """The layout of one sheet of cards: page, card slots, backs, crop marks, note strips.

    ``slots`` are the trim boxes of the cards on the front, row by row from the top-left.
    ``backs`` are where the backs of the same cards go on the back page (as seen on that
    page, upright), already mirrored for the flip and moved by the offset; empty when the
    job has no backs. Bleed surrounds each trim box by ``bleed`` mm.
    """

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    slots: tuple[Rect, ...]
    backs: tuple[Rect, ...]
    back_mode: str
    back_offset: tuple[float, float]
    crop_marks: tuple[Line, ...]
    note: Rect  # left strip: "print at 100 %" text
    check_bar: Rect  # right strip: a 50 mm bar to measure
    # Cards lie on their side (slots are card_h wide, card_w tall) when that fits more of
    # them: Letter with 2-3 mm of bleed holds 6 turned cards, not 4 upright ones.
    turned: bool = False

    @property
    def per_page(self) -> int:
        return len(self.slots)

    @property
    def printable(self) -> Rect:
        return printable_area(self.page_w, self.page_h)

    @property
    def grid(self) -> Rect:
        """The outer box of every card with its bleed."""
        first, last = self.slots[0], self.slots[-1]
        return Rect(first.x, first.y, last.right - first.x, last.bottom - first.y).grow(
            self.bleed)


def printable_area(page_w: float, page_h: float) -> Rect:
    return Rect(PRINTER_MARGIN, PRINTER_MARGIN, page_w - 2 * PRINTER_MARGIN,
                page_h - 2 * PRINTER_MARGIN)


def back_of(front: Rect, page_w: float, page_h: float, mode: str,
            offset: tuple[float, float] = (0.0, 0.0)) -> Rect:
    """Where the back of a card whose front is ``front`` must be drawn on the back page.

    ``long-edge``: the sheet turns over its long (vertical) edge like a book page, so x is
    mirrored. ``short-edge``: it turns over its short edge like a wall calendar, so y is
    mirrored. The offset moves the back by ``X`` mm to the right and ``Y`` mm up, as seen
    looking at the printed back (what the calibration page lets you read off).
    """
    dx, dy = offset
    if mode == "long-edge":
        r = Rect(page_w - front.right, front.y, front.w, front.h)
    elif mode == "short-edge":
        r = Rect(front.x, page_h - front.bottom, front.w, front.h)
    else:
        raise PrintError(f"unknown back mode {mode!r}; choose one of {', '.join(BACK_MODES)}")
    return r.shift(dx, -dy)


def sheet_layout(
    paper: str,
    card: str | tuple[float, float] = "standard",
    *,
    bleed: float = 0.0,
    back_mode: str = "none",
    back_offset: tuple[float, float] = (0.0, 0.0),
    with_marks: bool = True,
) -> Sheet:
    """The card grid of one sheet: as many cards as fit, centred, inside the margins.

    63 x 88 mm cards give 3 x 3 on A4 and on Letter. Cards with bleed are spaced two bleeds
    apart so each card's bleed is its own. Raises ``PrintError`` for an unknown paper,
    card size or back mode, a negative or too large bleed, a card that does not fit, or a
    back offset that pushes a back off the printable area.
    """
    page_w, page_h = paper_size(paper)
    card_w, card_h = card_size(card) if isinstance(card, str) else card
    if back_mode not in BACK_MODES:
        raise PrintError(f"unknown back mode {back_mode!r}; choose one of {', '.join(BACK_MODES)}")
    if not (math.isfinite(bleed) and 0.0 <= bleed <= 5.0):
        raise PrintError(f"bleed {bleed!r} must be between 0 and 5 mm")
    if back_mode == "fold":
        return fold_layout(paper, (card_w, card_h), bleed=bleed, with_marks=with_marks)
    area = printable_area(page_w, page_h)

    def fit(w: float, h: float) -> tuple[int, int]:
        # The note strips sit beside the grid, so it is narrower than the printable area.
        c = math.floor((area.w - 2 * NOTE_STRIP + 1e-9) / (w + 2 * bleed))
        r = math.floor((area.h - (2 * MARK_ROOM if with_marks else 0.0) + 1e-9)
                       / (h + 2 * bleed))
        return max(c, 0), max(r, 0)

    cols, rows = fit(card_w, card_h)
    turned = False
    tcols, trows = fit(card_h, card_w)
    if tcols * trows > cols * rows:
        cols, rows, turned = tcols, trows, True
    slot_w, slot_h = (card_h, card_w) if turned else (card_w, card_h)
    cell_w, cell_h = slot_w + 2 * bleed, slot_h + 2 * bleed
    if cols < 1 or rows < 1:
        raise PrintError(
            f"a {card_w:g}x{card_h:g} mm card with {bleed:g} mm bleed does not fit on "
            f"{paper} inside {PRINTER_MARGIN:g} mm printer margins"
        )
    grid_w, grid_h = cols * cell_w, rows * cell_h
    gx, gy = (page_w - grid_w) / 2, (page_h - grid_h) / 2
    def grid_at(y: float) -> tuple[Rect, ...]:
        return tuple(Rect(gx + c * cell_w + bleed, y + r * cell_h + bleed, slot_w, slot_h)
                     for r in range(rows) for c in range(cols))

    if with_marks and gy - area.y - CROP_GAP < MIN_MARK <= 2 * (gy - area.y) - CROP_GAP:
        # Centred, the marks above and below would be stubs (Letter: 2.2 mm): the grid
        # moves down onto the printable edge so the top marks are long enough to lay a
        # ruler on; the bottom end of each cut is the card's own cut line or edge. With
        # backs (issue 29 §13), only as far as the backs, moved by the offset asked for,
        # stay printable: no offset, the same marks as without backs; a large offset,
        # shorter marks, never a refused offset that the centred grid would take.
        centred = gy
        for step in range(21):
            y = area.bottom - grid_h + (centred - area.bottom + grid_h) * step / 20
            if back_mode == "none" or all(
                    back_of(s, page_w, page_h, back_mode, back_offset).grow(bleed).inside(area)
                    for s in grid_at(y)):
                gy = y
                break
    slots = grid_at(gy)
    backs: tuple[Rect, ...] = ()
    if back_mode != "none":
        backs = tuple(back_of(s, page_w, page_h, back_mode, back_offset) for s in slots)
        for i, b in enumerate(backs):
            if not b.grow(bleed).inside(area):
                raise PrintError(
                    f"back offset {back_offset[0]:g},{back_offset[1]:g} mm pushes the back "
                    f"of card slot {i + 1} off the printable area of {paper} "
                    f"({PRINTER_MARGIN:g} mm margins); the largest usable offset here is "
                    f"about {_max_offset(slots, area, bleed, page_w, page_h, back_mode)}"
                )
    marks = crop_marks(slots, bleed, area) if with_marks else ()
    grid = Rect(gx, gy, grid_w, grid_h)
    middle = slots[(rows // 2) * cols]  # a card of the middle row: strips avoid crop marks
    note = Rect(area.x, middle.y + 3, max(0.0, grid.x - area.x - CROP_GAP), middle.h - 6)
    bar = Rect(grid.right + CROP_GAP, middle.y + 3, max(0.0, area.right - grid.right - CROP_GAP),
               middle.h - 6)
    return Sheet(page_w, page_h, card_w, card_h, bleed, cols, rows, slots, backs, back_mode,
                 back_offset, marks, note, bar, turned)


def fold_layout(paper: str, card: tuple[float, float], *, bleed: float = 0.0,
                with_marks: bool = True) -> Sheet:
    """Fold-and-glue sheets for a printer without duplex: each card's back beside its
    front (front left, back right, the fold on their shared edge), on a landscape page.

    Cut around each pair, fold on the dashed line, glue: front and back can never be out
    of register. 63 x 88 cards: 4 pairs on A4 or Letter. Bleed runs round the pair's
    outside only (the fold needs none). Raises ``PrintError`` if no pair fits.
    """
    pw, ph = paper_size(paper)
    page_w, page_h = ph, pw  # landscape: two pairs across
    card_w, card_h = card
    area = printable_area(page_w, page_h)
    pair_w, pair_h = 2 * card_w + 2 * bleed, card_h + 2 * bleed
    room = 2 * MARK_ROOM if with_marks else 0.0
    cols = math.floor((area.w - 2 * NOTE_STRIP - room + 1e-9) / pair_w)
    rows = math.floor((area.h - room + 1e-9) / pair_h)
    if cols < 1 or rows < 1:
        raise PrintError(f"a {card_w:g}x{card_h:g} mm card folded with its back does not fit "
                         f"on {paper} inside {PRINTER_MARGIN:g} mm printer margins")
    gx, gy = (page_w - cols * pair_w) / 2, (page_h - rows * pair_h) / 2
    slots = tuple(Rect(gx + c * pair_w + bleed, gy + r * pair_h + bleed, card_w, card_h)
                  for r in range(rows) for c in range(cols))
    backs = tuple(s.shift(card_w, 0.0) for s in slots)
    pairs = tuple(Rect(s.x, s.y, 2 * card_w, card_h) for s in slots)
    marks = crop_marks(pairs, bleed, area) if with_marks else ()
    grid = Rect(gx, gy, cols * pair_w, rows * pair_h)
    middle = slots[(rows // 2) * cols]
    note = Rect(area.x, middle.y + 3, max(0.0, grid.x - area.x - CROP_GAP), middle.h - 6)
    bar = Rect(grid.right + CROP_GAP, middle.y + 3, max(0.0, area.right - grid.right - CROP_GAP),
               middle.h - 6)
    return Sheet(page_w, page_h, card_w, card_h, bleed, cols, rows, slots, backs, "fold",
                 (0.0, 0.0), marks, note, bar)


def _max_offset(slots: tuple[Rect, ...], area: Rect, bleed: float, page_w: float,
                page_h: float, mode: str) -> str:
    backs = [back_of(s, page_w, page_h, mode).grow(bleed) for s in slots]
    left = min(b.x for b in backs) - area.x
    right = area.right - max(b.right for b in backs)
    up = min(b.y for b in backs) - area.y
    down = area.bottom - max(b.bottom for b in backs)
    return f"X from {-left:.1f} to {right:.1f}, Y from {-down:.1f} to {up:.1f}"


def crop_marks(slots: tuple[Rect, ...], bleed: float, area: Rect) -> tuple[Line, ...]:
    """Marks on every trim line of ``slots``, in the margins outside them (bleed included),
    inside the printable area ``area``. A partly filled last sheet passes its used slots."""
    xs = sorted({round(v, 6) for s in slots for v in (s.x, s.right)})
    ys = sorted({round(v, 6) for s in slots for v in (s.y, s.bottom)})
    top = min(s.y for s in slots) - bleed - CROP_GAP
    bottom = max(s.bottom for s in slots) + bleed + CROP_GAP
    left = min(s.x for s in slots) - bleed - CROP_GAP
    right = max(s.right for s in slots) + bleed + CROP_GAP
    marks: list[Line] = []
    least = MIN_MARK / 2  # shorter, a mark is a dot no ruler can be laid on: none at all
    for x in xs:
        if top - area.y >= least:
            marks.append(Line(x, top, x, max(area.y, top - CROP_MAX)))
        if area.bottom - bottom >= least:
            marks.append(Line(x, bottom, x, min(area.bottom, bottom + CROP_MAX)))
    for y in ys:
        if left - area.x >= least:
            marks.append(Line(left, y, max(area.x, left - CROP_MAX), y))
        if area.right - right >= least:
            marks.append(Line(right, y, min(area.right, right + CROP_MAX), y))
    return tuple(marks)


@dataclass(frozen=True)
class Tile:
    """One sheet of a poster (board, mat): which part of the big drawing it shows.

    ``window`` is the part of the poster (poster mm) printed on this sheet, placed at
    ``origin`` on the page (page mm). Neighbouring windows overlap by the tiling's
    ``overlap`` so sheets can be trimmed or overlapped and glued.
    """

    index: int
    row: int
    col: int
    window: Rect
    origin: tuple[float, float]
    landscape: bool


@dataclass(frozen=True)
class Tiling:
    page_w: float
    page_h: float
    poster_w: float
    poster_h: float
    overlap: float
    rows: int
    cols: int
    tiles: tuple[Tile, ...]


def tile_poster(poster_w: float, poster_h: float, paper: str, *, overlap: float = 10.0,
                papers: tuple[str, ...] = ("a4", "letter", "a3"),
                footer: float = 8.0) -> Tiling:
    """Split a ``poster_w`` x ``poster_h`` mm drawing over sheets of ``paper``.

    Chooses the orientation that needs fewer sheets. Each sheet shows a window of the
    poster inside the printable area minus a ``footer`` strip for its note; windows of
    neighbouring sheets overlap by ``overlap`` mm. A poster that fits one sheet gets one
    tile with no overlap. Raises ``PrintError`` for an unknown paper or bad sizes.
    """
    pw, ph = paper_size(paper, papers)
    if poster_w <= 0 or poster_h <= 0:
        raise PrintError(f"poster size {poster_w}x{poster_h} mm must be positive")
    if not 0 <= overlap <= 50:
        raise PrintError(f"overlap {overlap!r} must be 0-50 mm")
    best: Tiling | None = None
    for landscape in (False, True):
        page_w, page_h = (ph, pw) if landscape else (pw, ph)
        area = printable_area(page_w, page_h)
        win_w, win_h = area.w, area.h - footer
        cols = _count(poster_w, win_w, overlap)
        rows = _count(poster_h, win_h, overlap)
        tiles: list[Tile] = []
        step_w = (poster_w - win_w) / (cols - 1) if cols > 1 else 0.0
        step_h = (poster_h - win_h) / (rows - 1) if rows > 1 else 0.0
        for r in range(rows):
            for c in range(cols):
                ww, wh = min(win_w, poster_w), min(win_h, poster_h)
                window = Rect(c * step_w, r * step_h, ww, wh)
                origin = (area.x + (win_w - ww) / 2, area.y + (win_h - wh) / 2)
                tiles.append(Tile(len(tiles), r, c, window, origin, landscape))
        t = Tiling(page_w, page_h, poster_w, poster_h, overlap, rows, cols, tuple(tiles))
        if best is None or len(t.tiles) < len(best.tiles):
            best = t
    assert best is not None
    return best


def _count(length: float, window: float, overlap: float) -> int:
    if length <= window + 1e-9:
        return 1
    return max(2, math.ceil((length - overlap) / (window - overlap) - 1e-9))
