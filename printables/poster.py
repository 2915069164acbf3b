"""A poster drawn over as few sheets as fit, with overlap and alignment marks (the
Mountains & Rivers board, the table mat), and the note every non-card page carries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from printables.document import NOTE, Document, Pen
from printables.geometry import MM, Line, tile_poster

POSTER_PAPERS = ("a4", "letter", "a3")
FOOTER = 8.0  # mm strip at the bottom of a poster sheet for its note
GREY = (0.35, 0.35, 0.35)


def page_note(pen: Pen, label: str) -> None:
    """The 100 % note and a 50 mm bar along the bottom of a non-card page."""
    y = pen.page_h - 5.6
    pen.text(5.5, y, NOTE, size=5.2, font="Helvetica-Bold", colour=GREY)
    x1 = pen.page_w - 5.5
    pen.line(Line(x1 - 50, y - 1.0, x1, y - 1.0), width=0.35)
    for x in (x1 - 50, x1):
        pen.line(Line(x, y - 1.7, x, y - 0.3), width=0.25)
    pen.text(x1 - 25, y - 1.7, f"this bar = 50 mm | {label}", size=4.4, colour=GREY,
             align="centre")


PosterDraw = Callable[[Pen], None]


def poster_pages(doc: Document, paper: str, w: float, h: float, draw: PosterDraw, kind: str,
                 title: str, overlap: float = 10.0) -> list[dict[str, Any]]:
    """Draw a ``w`` x ``h`` mm poster over as few sheets as fit, with overlap and marks.

    Neighbouring sheets repeat ``overlap`` mm of the poster; crosses in the middle of each
    overlap line up when the sheets are laid over each other (trim one sheet along the
    dashed line, lay it on its neighbour so the crosses meet, tape).
    """
    tiling = tile_poster(w, h, paper, overlap=overlap, papers=POSTER_PAPERS, footer=FOOTER)
    pages = []
    xs = _seams([t.window.x for t in tiling.tiles if t.row == 0], tiling.tiles[0].window.w)
    ys = _seams([t.window.y for t in tiling.tiles if t.col == 0], tiling.tiles[0].window.h)
    for tile in tiling.tiles:
        pen = doc.page(tiling.page_w, tiling.page_h)
        win, (ox, oy) = tile.window, tile.origin
        c = pen.c
        c.saveState()
        clip = c.beginPath()
        clip.rect(ox * MM, (pen.page_h - oy - win.h) * MM, win.w * MM, win.h * MM)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate((ox - win.x) * MM, (pen.page_h - oy + win.y) * MM)
        poster = Pen(c, w, 0.0)  # poster mm, top-left origin, under the translation
        draw(poster)
        for sx0, sx1 in xs:  # vertical seams
            mid = (sx0 + sx1) / 2
            for fy in (0.2, 0.5, 0.8):
                _cross(poster, mid, h * fy)
            poster.line(Line(mid, 0, mid, h), colour=(0.5, 0.5, 0.5), width=0.15)
        for sy0, sy1 in ys:  # horizontal seams
            mid = (sy0 + sy1) / 2
            for fx in (0.2, 0.5, 0.8):
                _cross(poster, w * fx, mid)
            poster.line(Line(0, mid, w, mid), colour=(0.5, 0.5, 0.5), width=0.15)
        c.restoreState()
        n = len(tiling.tiles)
        label = (f"{title}: sheet {tile.index + 1} of {n} (row {tile.row + 1}, column "
                 f"{tile.col + 1}); overlap {tiling.overlap:g} mm: cut one sheet on the grey "
                 "line, align the crosses, tape")
        if n == 1:
            label = f"{title}: one sheet"
        pen.text(5.5, pen.page_h - 5.6 - 3.2, label, size=5.2, colour=GREY)
        page_note(pen, f"{kind} {tile.index + 1}/{n}")
        pages.append({"page": doc.pages, "kind": kind, "sheet": tile.index + 1, "sheets": n,
                      "row": tile.row + 1, "col": tile.col + 1,
                      "page_size_mm": [tiling.page_w, tiling.page_h],
                      "window_mm": [round(v, 3) for v in (win.x, win.y, win.w, win.h)],
                      "origin_mm": [round(ox, 3), round(oy, 3)]})
    return pages


def _seams(starts: list[float], win: float) -> list[tuple[float, float]]:
    """The overlap bands between consecutive windows (poster mm)."""
    s = sorted(starts)
    return [(s[i + 1], s[i] + win) for i in range(len(s) - 1)]


def _cross(pen: Pen, x: float, y: float) -> None:
    pen.circle(x, y, 2.5, stroke=(0, 0, 0), width=0.2)
    pen.line(Line(x - 4, y, x + 4, y), width=0.2)
    pen.line(Line(x, y - 4, x, y + 4), width=0.2)
