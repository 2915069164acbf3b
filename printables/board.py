"""The printed Mountains & Rivers board (MR-1), drawn from the board data.

Tiles, stairs and one-way arrows come from ``companion/data/boards/mountains.json``
(``companion.games.mountains.load_board``); each tile kind's mark, colour and legend word
from ``companion.games.mountains.marks``, the same module the web view draws its board
with, so the paper and the screen show one set of symbols (issue 11, point 7). The board is
tiled over sheets with overlap and alignment marks (``printables.poster.poster_pages``), or
printed on one A3 sheet.
"""

from __future__ import annotations

import math
from typing import Any

from companion.games.mountains import Board, load_board
from companion.games.mountains.marks import ARROW_COLOUR, element_colour, mark_of, rgb
from printables.art import lighten
from printables.document import Document, Pen
from printables.geometry import Line, Rect
from printables.poster import poster_pages

TILE_MM = 30.0
STAIRS_CLEAR = 9.5  # mm from the entrance's centre: outside its 8 mm disc
STAIRS_SHORT = 5.0  # mm the arrow stops short of the exit's centre (its id stays clear)
DISC_R = 8.0


def board_pages(doc: Document, paper: str) -> list[dict[str, Any]]:
    """The board's pages: one A3 sheet, or tiled on A4/Letter."""

    board = load_board()
    legend_h = 52.0
    size = board.size * TILE_MM
    w, h = size + 10, size + 10 + legend_h

    def draw(pen: Pen) -> None:
        draw_board(pen, board, 5.0, 5.0)

    return poster_pages(doc, paper, w, h, draw, "board", f"Mountains & Rivers board "
                        f"({board.name})")


def draw_board(pen: Pen, board: Board, x0: float, y0: float) -> None:
    """Draw ``board`` with its legend below, its north-west corner at page mm (x0, y0)."""
    t = TILE_MM

    def box(row: int, col: int) -> Rect:
        return Rect(x0 + (col - 1) * t, y0 + (row - 1) * t, t, t)

    for tile in board:
        ink = rgb(element_colour(tile.colour))
        pen.rect(box(tile.row, tile.col), fill=lighten(ink, 0.78), stroke=(0.15, 0.15, 0.15),
                 width=0.4)
    # Stairs, under the tiles' marks and words: a dashed arrow in the entrance's colour
    # from the rim of its disc to the exit, so the stairs crossing the middle can be told
    # apart and no mark or word is struck through.
    for tile in board:
        if tile.exit:
            ink = rgb(element_colour(tile.colour))
            x1, y1, x2, y2 = stairs_segment(tile, board.tile(tile.exit), x0, y0)
            arrow(pen, x1, y1, x2, y2, ink, 0.7, dash=(3.0, 1.5), head=4.5)
    exits = {tile.exit: tile.id for tile in board if tile.exit}
    for tile in board:
        r = box(tile.row, tile.col)
        pen.text(r.x + 1.5, r.y + 4.0, tile.id, size=7, colour=(0.2, 0.2, 0.2))
        mark = mark_of(tile.kind)
        cx, cy = r.centre
        _mark(pen, cx, cy + 1, tile.kind, DISC_R, 14 if len(mark.mark) < 2 else 12)
        label = mark.word if tile.kind != "plain" else ""
        if tile.exit:
            label = f"stairs to {tile.exit}"
        if tile.id in board.corners:
            pen.text(cx, r.bottom - 2.0, "start / end", size=6, font="Helvetica-Bold",
                     colour=(0.1, 0.1, 0.1), align="centre")
        elif label:
            pen.text(cx, r.bottom - 2.0, label, size=6, colour=(0.15, 0.15, 0.15),
                     align="centre")
        if tile.id in exits:
            pen.text(r.right - 1.5, r.y + 4.0, f"from {exits[tile.id]}", size=6,
                     font="Helvetica-Bold", colour=(0.2, 0.2, 0.2), align="right")
    # One-way passages: a short arrow across the shared edge.
    for a, b in sorted(board.arrows):
        ta, tb = board.tile(a), board.tile(b)
        ax, ay = x0 + (ta.col - 0.5) * t, y0 + (ta.row - 0.5) * t
        bx, by = x0 + (tb.col - 0.5) * t, y0 + (tb.row - 0.5) * t
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = (bx - ax) / t, (by - ay) / t
        arrow(pen, mx - dx * 6, my - dy * 6, mx + dx * 6, my + dy * 6, rgb(ARROW_COLOUR), 1.4)
    _legend(pen, board, x0, y0 + board.size * t + 8)


def _mark(pen: Pen, cx: float, cy: float, kind: str, radius: float, size: float) -> None:
    """A kind's mark centred at (cx, cy): white in a disc of its colour, or its colour."""
    m = mark_of(kind)
    ink = rgb(m.colour)
    if m.disc:
        pen.circle(cx, cy, radius, fill=ink)
        pen.text(cx, cy + size * 0.125, m.mark, size=size, font="Helvetica-Bold",
                 colour=(1, 1, 1), align="centre")
    elif m.mark:
        pen.text(cx, cy + size * 0.18, m.mark, size=size + 2, font="Helvetica-Bold",
                 colour=ink, align="centre")


def _legend(pen: Pen, board: Board, x0: float, y: float) -> None:
    pen.text(x0, y, f"The Classic of Mountains & Rivers: {board.name}", size=11,
             font="Helvetica-Bold")
    quads = ", ".join(f"{k.capitalize()} {v}" for k, v in board.quadrants.items())
    pen.text(x0, y + 6, f"Quadrants: {quads}. On your own colour, skills cost 1 HP less.",
             size=7.5)
    y += 12
    for kind, text in board.kinds.items():
        m = mark_of(kind)
        _mark(pen, x0 + 3.0, y - 1.2, kind, 2.6, 5 if len(m.mark) < 2 else 4)
        pen.text(x0 + 8.0, y, f"{m.word}: {text}", size=7.5)
        y += 4.6
    pen.text(x0, y + 1, "Red arrows: one-way passages. Dashed arrows: stairs, in the "
             "entrance's colour, from the entrance (S) to the exit (marked 'from ...').",
             size=7.5)


def stairs_segment(entrance: Any, exit_: Any, x0: float, y0: float
                   ) -> tuple[float, float, float, float]:
    """The stairs arrow from ``entrance`` to ``exit_`` (page mm): it starts outside the
    entrance's disc, so the S stays legible, and ends a little before the exit's centre."""
    t = TILE_MM
    ax, ay = x0 + (entrance.col - 0.5) * t, y0 + (entrance.row - 0.5) * t + 1
    bx, by = x0 + (exit_.col - 0.5) * t, y0 + (exit_.row - 0.5) * t
    d = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / d, (by - ay) / d
    return (ax + ux * STAIRS_CLEAR, ay + uy * STAIRS_CLEAR,
            bx - ux * STAIRS_SHORT, by - uy * STAIRS_SHORT)


def arrow(pen: Pen, x1: float, y1: float, x2: float, y2: float, ink: tuple[float, ...],
          width: float, dash: tuple[float, float] | None = None, head: float = 3.5) -> None:
    """A straight arrow from (x1, y1) to (x2, y2), page mm."""
    colour = (ink[0], ink[1], ink[2])
    pen.line(Line(x1, y1, x2, y2), colour=colour, width=width, dash=dash)
    ang = math.atan2(y2 - y1, x2 - x1)
    for da in (2.6, -2.6):
        pen.line(Line(x2, y2, x2 + head * math.cos(ang + da), y2 + head * math.sin(ang + da)),
                 colour=colour, width=width)
