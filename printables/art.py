"""Colours and symbols drawn with reportlab paths (no image files).

Symbols are keyed by element (wood, fire, earth, metal, water, air), by gem (ruby,
sapphire, ...) or by card kind (dragon, star, weapon, ...), so a new game's deck data picks
them up by naming its elements; anything unknown gets a badge with its initial.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from companion.cards import CardFace
from companion.games.mountains.marks import mark_of
from printables import fonts
from printables.geometry import MM

RGB = tuple[float, float, float]


def hex_rgb(code: str) -> RGB:
    code = code.lstrip("#")
    return (int(code[0:2], 16) / 255, int(code[2:4], 16) / 255, int(code[4:6], 16) / 255)


# Dark enough for white text on them and to read as distinct hues across a table.
COLOURS: dict[str, RGB] = {
    "wood": hex_rgb("2e7d32"),
    "fire": hex_rgb("c62828"),
    "earth": hex_rgb("a0661c"),
    "metal": hex_rgb("546e7a"),
    "gold": hex_rgb("546e7a"),
    "water": hex_rgb("1565c0"),
    "air": hex_rgb("00838f"),
    "ruby": hex_rgb("b71c1c"),
    "sapphire": hex_rgb("0d47a1"),
    "emerald": hex_rgb("1b5e20"),
    "topaz": hex_rgb("e65100"),
    "amethyst": hex_rgb("6a1b9a"),
    "diamond": hex_rgb("37474f"),
    "dragon": hex_rgb("4a148c"),
    "star": hex_rgb("212121"),
    # Mountains & Rivers' challenge and chance cards: their tile's colour (marks.py).
    "challenge": hex_rgb(mark_of("challenge").colour),
    "chance": hex_rgb(mark_of("chance").colour),
    "function": hex_rgb("424242"),
}
# What a badge shows for kinds without a drawn symbol (else the name's initial).
# The challenge and chance cards show their tile's mark (one set of symbols: marks.py).
KIND_MARKS: dict[str, str] = {k: mark_of(k).mark for k in ("challenge", "chance")}
NEUTRAL: RGB = hex_rgb("37474f")
# Card backs: one colour per deck of a game, in deck-file order.
BACK_COLOURS: tuple[RGB, ...] = tuple(
    hex_rgb(h) for h in ("1f3a5f", "7a1f2b", "2f5d3a", "6b4a1b", "4a2f6b", "2f4f4f", "5d2f4f")
)


DRAWN_THEMES = frozenset({"wood", "fire", "earth", "metal", "gold", "water", "air", "star",
                          "dragon", "ruby", "sapphire", "emerald", "topaz", "amethyst",
                          "diamond", "gem", "weapon"})


def badge_text(initial: str) -> str:
    """What a badge shows for ``initial``: a mark of one or two characters as given (see
    ``faces.badge_marks``), else the first letter of a name."""
    return initial if 0 < len(initial) <= 2 else initial[:1].upper()


def face_theme(face: CardFace) -> str:
    """The key a face's colour and symbol come from: element, gem name, or kind."""
    if face.attrs.get("symbol"):
        return str(face.attrs["symbol"])
    if face.element:
        return face.element
    if face.attrs.get("gem") is True:
        for word in face.name.lower().split():
            if word in COLOURS:
                return word
    return face.kind


def colour(theme: str, attrs: Mapping[str, Any] | None = None) -> RGB:
    if attrs and isinstance(attrs.get("colour"), str):
        return hex_rgb(str(attrs["colour"]))
    return COLOURS.get(theme, NEUTRAL)


def lighten(rgb: RGB, amount: float) -> RGB:
    r, g, b = rgb
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount)


def draw_symbol(c: Canvas, theme: str, cx: float, cy: float, size: float,
                fill: RGB, page_h: float, initial: str = "?", knockout: RGB = (1, 1, 1)
                ) -> None:
    """Draw the symbol of ``theme`` centred at page mm ``(cx, cy)``, ``size`` mm across.

    Themes without a drawn symbol get a disc in ``fill`` with a mark (``KIND_MARKS``, else
    ``initial``) in ``knockout``.
    """
    c.saveState()
    c.translate(cx * MM, (page_h - cy) * MM)
    s = size * MM / 2  # half size in points; symbol drawn in [-s, s]
    c.setFillColorRGB(*fill)
    c.setStrokeColorRGB(*fill)
    p = c.beginPath()
    if theme == "wood":  # a fir tree: three stacked triangles and a trunk
        for i, (w, y0) in enumerate(((1.0, -0.45), (0.8, -0.05), (0.55, 0.35))):
            h = 0.55 - 0.05 * i
            p.moveTo(-w * s, y0 * s)
            p.lineTo(w * s, y0 * s)
            p.lineTo(0, (y0 + h) * s)
            p.close()
        p.rect(-0.15 * s, -s, 0.3 * s, 0.55 * s)
    elif theme == "fire":  # a flame
        p.moveTo(0, -s)
        p.curveTo(0.9 * s, -s, 0.9 * s, 0.1 * s, 0.15 * s, s)
        p.curveTo(0.3 * s, 0.3 * s, -0.1 * s, 0.25 * s, -0.25 * s, 0.1 * s)
        p.curveTo(-0.25 * s, 0.45 * s, -0.5 * s, 0.55 * s, -0.55 * s, 0.6 * s)
        p.curveTo(-1.0 * s, 0.0, -0.8 * s, -s, 0, -s)
        p.close()
    elif theme == "earth":  # mountains on a ground line
        p.moveTo(-s, -0.6 * s)
        p.lineTo(-0.35 * s, 0.6 * s)
        p.lineTo(0.05 * s, -0.1 * s)
        p.lineTo(0.4 * s, 0.35 * s)
        p.lineTo(s, -0.6 * s)
        p.close()
        p.rect(-s, -s, 2 * s, 0.25 * s)
    elif theme in ("metal", "gold"):  # a round coin with a square hole
        p.circle(0, 0, s)
        p.rect(-0.32 * s, -0.32 * s, 0.64 * s, 0.64 * s)
        c.drawPath(p, stroke=0, fill=1, fillMode=0)  # even-odd: the hole stays open
        c.restoreState()
        return
    elif theme == "water":  # three waves
        c.setLineWidth(0.22 * s)
        c.setLineCap(1)
        for y in (-0.55, 0.0, 0.55):
            q = c.beginPath()
            q.moveTo(-0.9 * s, y * s)
            q.curveTo(-0.45 * s, (y + 0.4) * s, -0.45 * s, (y - 0.4) * s, 0, y * s)
            q.curveTo(0.45 * s, (y + 0.4) * s, 0.45 * s, (y - 0.4) * s, 0.9 * s, y * s)
            c.drawPath(q, stroke=1, fill=0)
        c.restoreState()
        return
    elif theme == "air":  # three gusts
        c.setLineWidth(0.2 * s)
        c.setLineCap(1)
        for y, w in ((0.5, 0.9), (0.0, 0.6), (-0.5, 0.8)):
            q = c.beginPath()
            q.moveTo(-0.9 * s, y * s)
            q.lineTo(w * s - 0.25 * s, y * s)
            q.curveTo((w + 0.1) * s, y * s, (w + 0.1) * s, (y + 0.35) * s,
                      (w - 0.15) * s, (y + 0.3) * s)
            c.drawPath(q, stroke=1, fill=0)
        c.restoreState()
        return
    elif theme == "star":  # a five-pointed star
        for i in range(10):
            r = s if i % 2 == 0 else 0.42 * s
            a = math.pi / 2 + i * math.pi / 5
            (p.moveTo if i == 0 else p.lineTo)(r * math.cos(a), r * math.sin(a))
        p.close()
    elif theme == "dragon":  # the infinity sign, drawn as a thick stroke
        c.setLineWidth(0.24 * s)
        q = c.beginPath()
        q.moveTo(0, 0)
        q.curveTo(0.35 * s, 0.55 * s, 0.95 * s, 0.55 * s, 0.95 * s, 0)
        q.curveTo(0.95 * s, -0.55 * s, 0.35 * s, -0.55 * s, 0, 0)
        q.curveTo(-0.35 * s, 0.55 * s, -0.95 * s, 0.55 * s, -0.95 * s, 0)
        q.curveTo(-0.95 * s, -0.55 * s, -0.35 * s, -0.55 * s, 0, 0)
        c.drawPath(q, stroke=1, fill=0)
        c.restoreState()
        return
    elif theme in ("ruby", "sapphire", "emerald", "topaz", "amethyst", "diamond") or \
            theme == "gem":  # a cut gem
        p.moveTo(-s, 0.35 * s)
        p.lineTo(-0.55 * s, 0.85 * s)
        p.lineTo(0.55 * s, 0.85 * s)
        p.lineTo(s, 0.35 * s)
        p.lineTo(0, -s)
        p.close()
    elif theme == "weapon":  # a sword
        p.moveTo(0, s)
        p.lineTo(0.18 * s, 0.7 * s)
        p.lineTo(0.18 * s, -0.35 * s)
        p.lineTo(-0.18 * s, -0.35 * s)
        p.lineTo(-0.18 * s, 0.7 * s)
        p.close()
        p.rect(-0.6 * s, -0.5 * s, 1.2 * s, 0.18 * s)
        p.rect(-0.12 * s, -s, 0.24 * s, 0.5 * s)
    else:  # a badge with the initial
        p.circle(0, 0, s)
        c.drawPath(p, stroke=0, fill=1)
        c.setFillColorRGB(*knockout)
        mark = KIND_MARKS.get(theme, badge_text(initial))
        # Never under 7 pt: a player reads these letters (issue 29 §11).
        c.setFont(fonts.BOLD, max(7.0, (1.1 if len(mark) < 2 else 0.8) * s))
        c.drawCentredString(0, -0.38 * s if len(mark) < 2 else -0.28 * s, mark)
        c.restoreState()
        return
    c.drawPath(p, stroke=0, fill=1, fillMode=1)  # non-zero: overlapping parts stay filled
    c.restoreState()
