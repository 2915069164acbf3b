"""A poster drawn over as few sheets as fit, with overlap and alignment marks (the
Mountains & Rivers board, the table mat), and the note every non-card page carries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from printables import fonts
from printables.document import GREY, Document, Pen, page_note
from printables.geometry import MM, Line, tile_poster

__all__ = ["FOOTER", "GREY", "POSTER_PAPERS", "page_note", "poster_pages"]

POSTER_PAPERS = ("a4", "letter", "a3")
FOOTER = 11.0  # mm strip at the bottom of a poster sheet for its notes (three 6 pt lines)


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
        label = (f"{title}: sheet {tile.index + 1} of {n} "
                 f"(row {tile.row + 1}, column {tile.col + 1})")
        if n == 1:
            label = f"{title}: one sheet"
        y = pen.page_h - 5.6
        pen.text(5.5, y - 3.0, label, size=6, font=fonts.BOLD, colour=GREY)
        if n > 1:
            pen.text(5.5, y - 6.0, f"Sheets overlap by {overlap_words(xs, ys)}: cut this sheet "
                     "on its grey line, lay it over its neighbour crosses on crosses, tape.",
                     size=6, colour=GREY)
        page_note(pen, f"{kind} {tile.index + 1}/{n}")
        pages.append({"page": doc.pages, "kind": kind, "sheet": tile.index + 1, "sheets": n,
                      "row": tile.row + 1, "col": tile.col + 1,
                      "overlap_mm": {"across": [round(b - a, 2) for a, b in xs],
                                     "down": [round(b - a, 2) for a, b in ys]},
                      "page_size_mm": [tiling.page_w, tiling.page_h],
                      "window_mm": [round(v, 3) for v in (win.x, win.y, win.w, win.h)],
                      "origin_mm": [round(ox, 3), round(oy, 3)]})
    return pages


def overlap_words(xs: list[tuple[float, float]], ys: list[tuple[float, float]]) -> str:
    """The real overlaps of a tiling in words: "25 mm", or "25 mm across, 40 mm down"."""
    across = {round(b - a) for a, b in xs}
    down = {round(b - a) for a, b in ys}
    if across and down and across != down:
        return (f"{'-'.join(str(v) for v in sorted(across))} mm across, "
                f"{'-'.join(str(v) for v in sorted(down))} mm down")
    both = sorted(across | down)
    return f"{'-'.join(str(v) for v in both)} mm"


def _seams(starts: list[float], win: float) -> list[tuple[float, float]]:
    """The overlap bands between consecutive windows (poster mm)."""
    s = sorted(starts)
    return [(s[i + 1], s[i] + win) for i in range(len(s) - 1)]


def _cross(pen: Pen, x: float, y: float) -> None:
    pen.circle(x, y, 2.5, stroke=(0, 0, 0), width=0.2)
    pen.line(Line(x - 4, y, x + 4, y), width=0.2)
    pen.line(Line(x, y - 4, x, y + 4), width=0.2)
