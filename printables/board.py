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

from reportlab.lib.utils import simpleSplit

from companion.games.mountains import Board, load_board
from companion.games.mountains.marks import ARROW_COLOUR, element_colour, mark_of, rgb
from printables import fonts
from printables.art import draw_symbol, lighten
from printables.document import Document, Pen
from printables.geometry import MM, Line, Rect
from printables.poster import poster_pages

TILE_MM = 30.0
# On Letter a 29 mm tile lets the 9 x 9 board run across one landscape sheet: 2 sheets, not 4.
TILE_BY_PAPER = {"letter": 29.0}
PAD = 2.0  # white around the board (the sheet's own 5 mm margin is outside it)
STAIRS_CLEAR = 9.5  # mm from the entrance's centre: outside its 8 mm disc
STAIRS_SHORT = 5.0  # mm the arrow stops short of the exit's centre (its id stays clear)
DISC_R = 8.0
LEGEND_PT = 7.5
LEGEND_LINE = 4.6  # mm per legend line
ARROWS_TEXT = ("Red arrows: one-way passages. Dashed arrows: stairs, in the entrance's "
               "colour, from the entrance (S) to the exit (marked 'from ...').")


def board_pages(doc: Document, paper: str) -> list[dict[str, Any]]:
    """The board's pages: one A3 sheet, or tiled on A4/Letter."""

    board = load_board()
    t = TILE_BY_PAPER.get(paper, TILE_MM)
    size = board.size * t
    w, h = size + 2 * PAD, size + 2 * PAD + 6.0 + legend_height(board, size)

    def draw(pen: Pen) -> None:
        draw_board(pen, board, PAD, PAD, t)

    return poster_pages(doc, paper, w, h, draw, "board", f"Mountains & Rivers board "
                        f"({board.name})")


def _legend_lines(board: Board, width: float) -> list[str]:
    """The legend's closing lines, wrapped to ``width`` mm."""
    return [str(s) for s in simpleSplit(ARROWS_TEXT, fonts.SANS, LEGEND_PT, width * MM)]


def legend_height(board: Board, width: float) -> float:
    """Height (mm) of the legend under a board ``width`` mm wide: title, quadrants, one
    line per tile kind and the wrapped arrows text, so it grows with the kinds."""
    return 12 + len(board.kinds) * LEGEND_LINE + len(_legend_lines(board, width)) * 3.6 + 3


def draw_board(pen: Pen, board: Board, x0: float, y0: float, t: float = TILE_MM) -> None:
    """Draw ``board`` with its legend below, its north-west corner at page mm (x0, y0)."""

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
            x1, y1, x2, y2 = stairs_segment(tile, board.tile(tile.exit), x0, y0, t)
            arrow(pen, x1, y1, x2, y2, ink, 0.7, dash=(3.0, 1.5), head=4.5)
    exits = {tile.exit: tile.id for tile in board if tile.exit}
    for tile in board:
        r = box(tile.row, tile.col)
        pen.text(r.x + 1.5, r.y + 4.0, tile.id, size=7, colour=(0.2, 0.2, 0.2))
        if tile.colour:
            # The quadrant's element symbol on every tile: MR-8's discount depends on a
            # tile's colour, which a mono printer or a colour-blind player cannot see.
            ink = rgb(element_colour(tile.colour))
            draw_symbol(pen.c, tile.colour, r.x + 3.2, r.bottom - 3.2, 3.6, ink, pen.page_h)
        mark = mark_of(tile.kind)
        cx, cy = r.centre
        _mark(pen, cx, cy + 1, tile.kind, DISC_R, 14 if len(mark.mark) < 2 else 12)
        label = mark.word if tile.kind != "plain" else ""
        if tile.exit:
            label = f"stairs to {tile.exit}"
        if tile.id in board.corners:
            pen.text(cx, r.bottom - 2.0, "start / end", size=6, font=fonts.BOLD,
                     colour=(0.1, 0.1, 0.1), align="centre")
        elif label:
            pen.text(cx, r.bottom - 2.0, label, size=6, colour=(0.15, 0.15, 0.15),
                     align="centre")
        if tile.id in exits:
            pen.text(r.right - 1.5, r.y + 4.0, f"from {exits[tile.id]}", size=6,
                     font=fonts.BOLD, colour=(0.2, 0.2, 0.2), align="right")
    # One-way passages: a short arrow across the shared edge.
    for a, b in sorted(board.arrows):
        ta, tb = board.tile(a), board.tile(b)
        ax, ay = x0 + (ta.col - 0.5) * t, y0 + (ta.row - 0.5) * t
        bx, by = x0 + (tb.col - 0.5) * t, y0 + (tb.row - 0.5) * t
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = (bx - ax) / t, (by - ay) / t
        arrow(pen, mx - dx * 6, my - dy * 6, mx + dx * 6, my + dy * 6, rgb(ARROW_COLOUR), 1.4)
    _legend(pen, board, x0, y0 + board.size * t + 8, board.size * t)


def _mark(pen: Pen, cx: float, cy: float, kind: str, radius: float, size: float) -> None:
    """A kind's mark centred at (cx, cy): white in a disc of its colour, or its colour."""
    m = mark_of(kind)
    ink = rgb(m.colour)
    if m.disc:
        pen.circle(cx, cy, radius, fill=ink)
        pen.text(cx, cy + size * 0.125, m.mark, size=size, font=fonts.BOLD,
                 colour=(1, 1, 1), align="centre")
    elif m.mark:
        pen.text(cx, cy + size * 0.18, m.mark, size=size + 2, font=fonts.BOLD,
                 colour=ink, align="centre")


def _legend(pen: Pen, board: Board, x0: float, y: float, width: float) -> None:
    pen.text(x0, y, f"The Classic of Mountains & Rivers: {board.name}", size=11,
             font=fonts.BOLD)
    # Quadrants with their symbols (the same symbol sits in each tile's corner).
    x = x0
    pen.text(x, y + 6, "Quadrants:", size=LEGEND_PT)
    x += fonts.width("Quadrants: ", fonts.SANS, LEGEND_PT) / MM
    last = list(board.quadrants)[-1]
    for k, v in board.quadrants.items():
        ink = rgb(element_colour(k))
        draw_symbol(pen.c, k, x + 1.6, y + 6 - 1.2, 3.2, ink, pen.page_h)
        words = f"{k.capitalize()} {v}{'. ' if k == last else ', '}"
        pen.text(x + 3.8, y + 6, words, size=LEGEND_PT)
        x += 3.8 + fonts.width(words, fonts.SANS, LEGEND_PT) / MM
    pen.text(x, y + 6, "On your own colour, skills cost 1 HP less.", size=LEGEND_PT)
    y += 12
    for kind, text in board.kinds.items():
        m = mark_of(kind)
        _mark(pen, x0 + 3.0, y - 1.2, kind, 2.6, 5 if len(m.mark) < 2 else 4)
        pen.text(x0 + 8.0, y, f"{m.word}: {text}", size=LEGEND_PT)
        y += LEGEND_LINE
    for line in _legend_lines(board, width):
        pen.text(x0, y + 1, line, size=LEGEND_PT)
        y += 3.6


def stairs_segment(entrance: Any, exit_: Any, x0: float, y0: float, t: float = TILE_MM
                   ) -> tuple[float, float, float, float]:
    """The stairs arrow from ``entrance`` to ``exit_`` (page mm): it starts outside the
    entrance's disc, so the S stays legible, and ends a little before the exit's centre."""
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
