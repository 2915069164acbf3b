"""Card faces and backs: a layout of named boxes (pure, in mm) and the code that draws it.

Face, top to bottom (63 x 88 mm):

* the QR code, 41 mm square (21 modules of 1.95 mm), centred in the **top half**, 3 mm
  below the top edge, with at least 2 modules of white on every side inside the card;
* corner index at the top left (big value and symbol) beside the code;
* a band in the element's colour with the symbol, the name and the value in white;
* a line of stats (kind, HP, attack, range) and the card's rule text, shrunk to fit;
* the serial in small print at the bottom, so the referee can type it when a code is hidden.

The QR code sits wholly in the top half so a card whose lower half is covered (cards in
the pot overlapped like a solitaire column, each new card over the lower half of the
last) still reads. Backs carry no identity: no code, no serial, no face name; only the
deck's back title, so decks with different backs are told apart face down.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache

from reportlab.lib.utils import simpleSplit

from companion.cards import CardFace, DeckInfo, load_deck
from companion.games.mountains.marks import deck_mark, rgb
from printables import facetext, fonts, qr
from printables.art import (
    DRAWN_THEMES,
    KIND_MARKS,
    RGB,
    badge_text,
    colour,
    draw_symbol,
    face_theme,
    lighten,
)
from printables.document import Pen
from printables.facetext import set_text
from printables.geometry import MM, PrintError, Rect

CODE_MARGIN = 3.0  # the code's top edge below the trim: 1.5 modules of white above it
# Everything a player reads stays this far inside the trim (issue 29 §11): a machine cut
# that strays 1.5 mm still leaves the words well clear of the edge.
SAFE = 3.2
# Letters overshoot the box they are set in (a "j" reaches left of its start, a "T" or a
# "Y" right to its end): words start and end this far further in than ``SAFE``.
OVERSHOOT = 0.2
INDEX_W = 8.0  # corner index column beside the code
BACK_BORDER = 3.0  # white border of a back: hides up to 3 mm of duplex misregistration
MIN_TEXT_PT = MIN_PT = 7.0  # nothing a player reads is smaller (issue 29 §11)
FOOT_PT = 7.0
NARROW_MIN_PT = 6.0  # bridge cards only, for texts no 7 pt layout holds (``face_plan``)
FOOT_H = 3.4  # the deck pill's height
BAND_H = 9.5
COMPACT_BAND_H = 5.5  # a long text's card: a thinner band leaves the text its room
BORDER_GREY = (0.55, 0.55, 0.55)


@dataclass(frozen=True)
class FaceLayout:
    """Named boxes of a face in card mm (top-left origin of the trim box).

    ``compact``: the layout of a card whose text does not fit the usual one at 7 pt (a
    Mountains & Rivers character's four skills): a thinner band, no stats line, and the
    deck pill and serial turned up the two columns under the corner indexes (``side``,
    ``side2``), so the text runs down to the safe line.
    """

    card_w: float
    card_h: float
    qr: Rect
    index: Rect
    index2: Rect  # the second corner index (top right): a hand fanned either way shows one
    band: Rect
    stats: Rect
    text: Rect
    serial: Rect
    compact: bool = False
    side: Rect | None = None  # compact: the deck pill's column (left), bottom to top
    side2: Rect | None = None  # compact: the serial's column (right)
    serial_row: Rect | None = None  # a foot too narrow for pill and serial: the serial's row

    @property
    def module(self) -> float:
        """QR module size in mm."""
        return self.qr.w / qr.MODULES


def face_layout(card_w: float, card_h: float, compact: bool = False) -> FaceLayout:
    """The face boxes for a card size; the QR code is as large as the top half allows.

    ``compact`` (see ``FaceLayout``) is only offered where the corner columns exist; a
    narrow card keeps its foot. Raises ``PrintError`` if the card is too small for a code
    of at least 1 mm modules.
    """
    tall = card_h / 2 - CODE_MARGIN
    size = min(tall, card_w - 2 * (CODE_MARGIN + INDEX_W))
    with_index = True
    if size < tall:
        # A narrow card (bridge): the corner index would cost module size, so it goes (the
        # value and symbol are in the band) and only 2 modules + 1.5 mm stay white beside.
        size = min(tall, (card_w - 2 * 1.5) / (1 + 4 / qr.MODULES))
        with_index = False
    if size / qr.MODULES < 1.0:
        raise PrintError(f"a {card_w:g}x{card_h:g} mm card leaves no room for a readable QR code")
    module = size / qr.MODULES
    qr_box = Rect((card_w - size) / 2, CODE_MARGIN, size, size)
    # Inside the safe line, and 2 modules clear of the code (its quiet zone).
    lead = SAFE + OVERSHOOT
    index = Rect(lead, SAFE, qr_box.x - lead - 2 * module if with_index else 0.0, size * 0.6)
    index2 = Rect(card_w - index.right, SAFE, index.w, index.h)
    # Two modules of white under the code before the coloured band: the quiet zone there
    # is what a camera needs most when the card's lower half lies under another card.
    band_y = max(qr_box.bottom + 2 * module, card_h / 2 + 1.0)
    inner = card_w - 2 * lead
    # The deck pill and the serial: a descender of the deck's name ends on the safe line.
    serial = Rect(lead, card_h - SAFE - 0.1 - FOOT_H, inner, FOOT_H)
    if compact:
        band = Rect(0.0, band_y, card_w, COMPACT_BAND_H)
        stats = Rect(lead, band.bottom, inner, 0.0)
        if not with_index:  # a narrow card has no corner columns: the foot stays
            text = Rect(lead, band.bottom + 0.8, inner, serial.y - band.bottom - 1.4)
            return FaceLayout(card_w, card_h, qr_box, index, index2, band, stats, text,
                              serial, True)
        text = Rect(lead, band.bottom + 0.8, inner, card_h - SAFE - band.bottom - 0.8)
        # The columns under the corner indexes (value, symbol: about 12 mm) down to the band.
        top = SAFE + 13.0
        side = Rect(index.x, top, index.w, band.y - 1.0 - top)
        side2 = Rect(index2.x, top, index2.w, side.h)
        serial = Rect(lead, card_h - SAFE, inner, 0.0)
        return FaceLayout(card_w, card_h, qr_box, index, index2, band, stats, text, serial,
                          True, side, side2)
    band = Rect(0.0, band_y, card_w, BAND_H)
    stats = Rect(lead, band.bottom + 0.8, inner, 3.2)
    text = Rect(lead, stats.bottom + 0.6, inner, serial.y - stats.bottom - 1.2)
    return FaceLayout(card_w, card_h, qr_box, index, index2, band, stats, text, serial)


def badge_marks(faces: Iterable[CardFace]) -> dict[str, str]:
    """Face id -> the letters on its badge, for faces shown by a lettered disc (themes
    without a drawn symbol or a kind mark): the name's first letter, or its first two
    (``Pe`` and ``Pi``) when another face of the game with a different name starts with
    the same letter, so that a fanned hand tells Pebble Shower from Pickpocket by the
    corner."""
    named = {f.id: f.name for f in faces
             if face_theme(f) not in DRAWN_THEMES and face_theme(f) not in KIND_MARKS}
    firsts: dict[str, set[str]] = {}
    for name in named.values():
        firsts.setdefault(name[:1].upper(), set()).add(name)
    out = {}
    for fid, name in named.items():
        one = name[:1].upper()
        letters = [ch for ch in name[1:] if ch.isalnum()]
        if len(firsts[one]) > 1 and letters:
            out[fid] = one + letters[0].lower()
        else:
            out[fid] = one
    return out


@lru_cache(maxsize=32)
def _game_badges(game: str) -> dict[str, str]:
    try:
        return badge_marks(load_deck(game).faces)
    except Exception:  # a face of no known game (tests, a new deck file): first letters
        return {}


def badge_mark(face: CardFace) -> str:
    """The badge letters of ``face`` within its game (``badge_marks``)."""
    return _game_badges(face.game).get(face.id, face.name)


def face_value(face: CardFace) -> str:
    """The big value of a face: its number, else attack / HP, else nothing."""
    if face.number is not None:
        return str(face.number)
    for key in ("attack", "hp", "value"):
        v = face.attrs.get(key)
        if isinstance(v, int) and not isinstance(v, bool):
            return str(v)
    return ""


def face_stats(face: CardFace) -> str:
    """The small line under the band: kind, element and numeric attributes."""
    bits = [face.kind.replace("-", " ").capitalize()]
    if face.element:
        bits.append(face.element.capitalize())
    for key in ("hp", "attack", "range"):
        v = face.attrs.get(key)
        if isinstance(v, int) and not isinstance(v, bool):
            bits.append(f"{'HP' if key == 'hp' else key.capitalize()} {v}")
    return "  ·  ".join(bits)




def foot_width(face: CardFace, tag: str, serial: str) -> float:
    """The width (mm) of the foot: mark, deck pill and, if given, the serial."""
    mark = deck_mark(face.deck)
    w = fonts.width(tag, fonts.BOLD, FOOT_PT) / MM + 2.4
    if mark is not None:
        w += max(FOOT_H, fonts.width(mark.mark, fonts.BOLD, FOOT_PT) / MM + 1.2) + 0.8
    if serial:
        w += 1.5 + fonts.width(serial, fonts.SERIAL, FOOT_PT) / MM
    return w


def face_plan(face: CardFace, card_w: float, card_h: float, tag: str = "", serial: str = "",
              side_tag: str = "") -> tuple[FaceLayout, facetext.SetText, bool]:
    """The layout of ``face``, its text as set, and whether the stats line is printed.

    In order: the usual layout with the stats line; the text taking the stats line's room
    (kind, element and HP are on the card already: band, symbol, index); the compact
    layout (``FaceLayout``). Everything at 7 pt or more, with one exception: a narrow
    card (bridge) has no corner columns to take its foot, and a Mountains & Rivers
    character's four skills only fit it at ``NARROW_MIN_PT``; a text that does not fit
    even then is refused (``PrintError``).
    """
    lay = face_layout(card_w, card_h)
    if foot_width(face, tag, serial) > lay.serial.w:
        # The deck's name is long ("Weapon cards (the arsenal)"): the serial takes the
        # line above the pill, on the right.
        row = lay.serial.shift(0.0, -FOOT_H - 0.4)
        lay = replace(lay, serial_row=row,
                      text=Rect(lay.text.x, lay.text.y, lay.text.w, lay.text.h - FOOT_H - 0.4))
    # Lines set solid only on a compact card: a usual one gives way to the compact layout.
    loose = facetext.TIGHT[:1]
    body = set_text(face.text, lay.text, tight=loose)
    if body is not None and fonts.width(face_stats(face), fonts.ITALIC, MIN_PT) \
            <= lay.stats.w * MM:
        return lay, body, True
    roomy = Rect(lay.text.x, lay.stats.y, lay.text.w, lay.text.bottom - lay.stats.y)
    body = set_text(face.text, roomy, tight=loose)
    if body is not None:
        return replace(lay, text=roomy), body, False
    small = face_layout(card_w, card_h, compact=True)
    if small.side is not None and foot_width(face, side_tag or tag, "") > small.side.h:
        raise PrintError(f"the deck name {side_tag or tag!r} is too long for the side of a "
                         f"{card_w:g}x{card_h:g} mm card")
    body = set_text(face.text, small.text)
    if body is None and small.side is None:
        body = facetext.fit(face.text, small.text, floor=NARROW_MIN_PT)
    return small, body or facetext.fit(face.text, small.text), False


def draw_face(pen: Pen, trim: Rect, face: CardFace, deck: DeckInfo | None, payload: str,
              serial: str, bleed: float, *, tint: RGB | None = None, copy: int = 1) -> None:
    """Draw one face with its trim box at ``trim`` (page mm).

    ``tint`` is the deck's colour (its backs'): the deck's name is printed on a pill of it
    at the foot, so decks that share faces (God Num's legions, Gem Complete's Deck A and
    B) differ at a glance; ``copy`` > 1 (a deck printed twice, GN-2) adds "copy 2".
    """
    tag = deck_tag(face, deck, copy)
    lay, body, with_stats = face_plan(face, trim.w, trim.h, tag, serial, deck_tag(face, deck))
    theme = face_theme(face)
    ink = colour(theme, face.attrs)
    ox, oy = trim.x, trim.y

    def at(r: Rect) -> Rect:
        return r.shift(ox, oy)

    if bleed > 0:
        # The band runs into the bleed; the rest of the face is white.
        band = at(lay.band)
        pen.rect(Rect(band.x - bleed, band.y, band.w + 2 * bleed, band.h), fill=ink)
    else:
        pen.rect(at(lay.band), fill=ink)
    qr.draw(pen.c, payload, ox + lay.qr.x, oy + lay.qr.y, lay.qr.w, pen.page_h)
    # Corner indexes, value above symbol, in both top corners (narrow cards have none).
    for r in (lay.index, lay.index2):
        if r.w >= 3.5:
            _draw_index(pen, at(r), face, theme, ink)
    _draw_band(pen, at(lay.band), face, theme, ink, lay.compact)
    stats = at(lay.stats)
    box = at(lay.text)
    if with_stats:
        pen.text(stats.x + stats.w / 2, stats.bottom - 0.7, face_stats(face), size=MIN_PT,
                 font=fonts.ITALIC, colour=ink, align="centre")
    y = box.y + body.ascent_mm
    for line in body.lines:
        for run in line:
            pen.text(box.x + run.x / MM, y, run.text, size=body.size, font=run.font,
                     colour=(0.0, 0.0, 0.0))
        y += body.line_mm
    if lay.side is not None and lay.side2 is not None:
        # Turned up the columns under the corner indexes, read from the bottom up.
        # The pill takes the deck's name; "copy 2" follows the serial on the other side.
        with _turned(pen, at(lay.side)) as (side_pen, r):
            _deck_pill(side_pen, r.x, r.y + (r.h - FOOT_H) / 2, face, deck_tag(face, deck),
                       tint)
        words = f"{serial} \u00b7 copy {copy}" if copy > 1 else serial
        with _turned(pen, at(lay.side2)) as (side_pen, r):
            side_pen.text(r.right, r.y + r.h / 2 + FOOT_PT * 0.36 / MM, words, size=FOOT_PT,
                          font=fonts.SERIAL, colour=(0.3, 0.3, 0.3), align="right")
    else:
        foot = at(lay.serial)
        _deck_pill(pen, foot.x, foot.y, face, tag, tint)
        if lay.serial_row is not None:
            foot = at(lay.serial_row)
        pen.text(foot.right, foot.y + foot.h / 2 + FOOT_PT * 0.36 / MM, serial, size=FOOT_PT,
                 font=fonts.SERIAL, colour=(0.3, 0.3, 0.3), align="right")
    if bleed == 0:
        # The cut line; with bleed the crop marks show where to cut instead.
        pen.rect(trim, stroke=BORDER_GREY, width=0.15)


def _draw_band(pen: Pen, band: Rect, face: CardFace, theme: str, ink: RGB,
               compact: bool) -> None:
    """Symbol, name and value in white; the value is large (read across the table) and
    ends on the safe line, the symbol starts on it."""
    sym = band.h - 1.5 if compact else 6.5
    draw_symbol(pen.c, theme, band.x + SAFE + sym / 2, band.y + band.h / 2, sym, (1, 1, 1),
                pen.page_h, badge_mark(face), knockout=ink)
    value = face_value(face)
    vsize = (11.0 if compact else 18.0) if len(value) <= 2 else (10.0 if compact else 13.0)
    vw = fonts.width(value, fonts.BOLD, vsize) / MM if value else 0.0
    side = max(SAFE + sym + 1.0, SAFE + vw + 1.0)  # the name is centred between them
    name_w = band.w - 2 * side
    nsize = 10.0 if compact else 13.0
    while fonts.width(face.name, fonts.BOLD, nsize) > name_w * MM and nsize > MIN_PT:
        nsize -= 0.5
    pen.text(band.x + band.w / 2, band.y + band.h / 2 + nsize * 0.35 / MM, face.name,
             size=nsize, font=fonts.BOLD, colour=(1, 1, 1), align="centre")
    if value:
        pen.text(band.right - SAFE - OVERSHOOT, band.y + band.h / 2 + vsize * 0.36 / MM, value,
                 size=vsize, font=fonts.BOLD, colour=(1, 1, 1), align="right")


@contextmanager
def _turned(pen: Pen, col: Rect) -> Iterator[tuple[Pen, Rect]]:
    """A pen turned 90 degrees counter-clockwise over the column ``col`` (page mm), and
    the column in its mm: x runs up the page, y across from the column's left edge."""
    c = pen.c
    c.saveState()
    c.translate(col.x * MM, (pen.page_h - col.bottom) * MM)
    c.rotate(90)
    try:
        # In the turned frame, y (mm, downwards) runs from the column's left edge inward.
        yield Pen(c, col.h, 0.0), Rect(0.0, 0.0, col.h, col.w)
    finally:
        c.restoreState()


def deck_tag(face: CardFace, deck: DeckInfo | None, copy: int = 1) -> str:
    """The words on a front's deck pill: the deck's name, and "copy N" past the first."""
    name = deck.name if deck else face.game
    return f"{name} \u00b7 copy {copy}" if copy > 1 else name


def _deck_pill(pen: Pen, x: float, y: float, face: CardFace, tag: str,
               tint: RGB | None) -> None:
    """The deck pill from ``(x, y)`` (its top-left, mm), after the tile mark of a
    Mountains deck."""
    mark = deck_mark(face.deck)
    d = FOOT_H
    if mark is not None:
        mw = max(d, fonts.width(mark.mark, fonts.BOLD, FOOT_PT) / MM + 1.2)
        pen.rect(Rect(x, y, mw, d), fill=rgb(mark.colour), radius=d / 2)
        pen.text(x + mw / 2, y + d / 2 + FOOT_PT * 0.36 / MM, mark.mark, size=FOOT_PT,
                 font=fonts.BOLD, colour=(1, 1, 1), align="centre")
        x += mw + 0.8
    w = fonts.width(tag, fonts.BOLD, FOOT_PT) / MM + 2.4
    pen.rect(Rect(x, y, w, d), fill=tint or NEUTRAL_TAG, radius=d / 2)
    pen.text(x + 1.2, y + d / 2 + FOOT_PT * 0.36 / MM, tag, size=FOOT_PT, font=fonts.BOLD,
             colour=(1, 1, 1))


NEUTRAL_TAG: RGB = (0.35, 0.35, 0.35)


BACK_STYLES = ("full", "ink-saver")


def draw_back(pen: Pen, trim: Rect, back: str, deck_name: str, tint: RGB,
              style: str = "full", deck_id: str = "", bleed: float = 0.0) -> None:
    """Draw a card back at ``trim``: white border, coloured panel, the deck's back title.

    ``ink-saver``: the same back as outlines and coloured words on white paper (about a
    twentieth of the ink); decks still differ by colour and title. ``bleed`` > 0 (a
    print-on-demand card, cut by machine one card at a time): the colour runs to the bleed
    edge with no white frame, so a 1.5 mm cutting error leaves no lopsided border that
    tells one card from another face down (issue 29 §10); words stay in the safe area.
    """
    panel = trim.grow(-BACK_BORDER)
    if style == "ink-saver":
        _ink_saver_back(pen, panel, back, deck_name, tint)
    else:
        ground = trim.grow(bleed) if bleed > 0 else panel
        _full_back(pen, panel, back, deck_name, tint, trim, ground)
    mark = deck_mark(deck_id)
    if mark is not None:  # the tile's mark, as on the board: "?" tile, "?" deck
        cx, cy = panel.centre
        pen.circle(cx, cy - 20, 6.0, fill=rgb(mark.colour), stroke=(1, 1, 1), width=0.6)
        size = 13.0 if len(mark.mark) < 2 else 10.0
        pen.text(cx, cy - 20 + size * 0.36 / MM, mark.mark, size=size, font=fonts.BOLD,
                 colour=(1, 1, 1), align="centre")


def _full_back(pen: Pen, panel: Rect, back: str, deck_name: str, tint: RGB,
               trim: Rect, ground: Rect) -> None:
    radius = 2.0 if ground == panel else 0.0
    pen.rect(ground, fill=tint, radius=radius)
    # A lattice of small diamonds in a lighter tone.
    light = lighten(tint, 0.25)
    step = 6.0
    c = pen.c
    c.saveState()
    p = c.beginPath()
    box = (ground.x * MM, (pen.page_h - ground.bottom) * MM, ground.w * MM, ground.h * MM)
    if radius:
        p.roundRect(*box, radius * MM)
    else:
        p.rect(*box)
    c.clipPath(p, stroke=0, fill=0)
    c.setFillColorRGB(*light)
    rows = int(ground.h / step) + 2
    cols = int(ground.w / step) + 2
    for r in range(rows):
        for k in range(cols):
            cx = ground.x + k * step + (step / 2 if r % 2 else 0)
            cy = ground.y + r * step
            d = c.beginPath()
            X, Y, h = cx * MM, (pen.page_h - cy) * MM, 1.3 * MM
            d.moveTo(X, Y + h)
            d.lineTo(X + h, Y)
            d.lineTo(X, Y - h)
            d.lineTo(X - h, Y)
            d.close()
            c.drawPath(d, stroke=0, fill=1)
    c.restoreState()
    cx, cy = panel.centre
    oval = Rect(panel.x + 4, cy - 11, panel.w - 8, 22)
    pen.rect(oval, fill=tint, stroke=(1, 1, 1), width=0.6, radius=5.0)
    words = simpleSplit(back, fonts.BOLD, 11, (oval.w - 4) * MM)
    size = 11.0 if len(words) <= 2 else 8.0
    words = simpleSplit(back, fonts.BOLD, size, (oval.w - 4) * MM)[:3]
    y = cy - (len(words) - 1) * size * 0.6 / MM + size * 0.35 / MM
    for w in words:
        pen.text(cx, y, w, size=size, font=fonts.BOLD, colour=(1, 1, 1), align="centre")
        y += size * 1.2 / MM
    # The deck's name on a plain pill: over the lattice, 6 pt white text is hard to read.
    pill = back_label_box(trim, deck_name)
    pen.rect(pill, fill=tint, radius=pill.h / 2)
    pen.text(cx, panel.bottom - 4, deck_name, size=BACK_LABEL_PT, font=fonts.SANS,
             colour=(1, 1, 1), align="centre")


BACK_LABEL_PT = 7.0  # nothing a player reads is under 7 pt (issue 29 §11)


def _ink_saver_back(pen: Pen, panel: Rect, back: str, deck_name: str, tint: RGB) -> None:
    pen.rect(panel, stroke=tint, width=0.8, radius=2.0)
    pen.rect(panel.grow(-2.0), stroke=tint, width=0.25, radius=1.5)
    cx, cy = panel.centre
    oval = Rect(panel.x + 4, cy - 11, panel.w - 8, 22)
    pen.rect(oval, stroke=tint, width=0.6, radius=5.0)
    words = simpleSplit(back, fonts.BOLD, 11, (oval.w - 4) * MM)
    size = 11.0 if len(words) <= 2 else 8.0
    words = simpleSplit(back, fonts.BOLD, size, (oval.w - 4) * MM)[:3]
    y = cy - (len(words) - 1) * size * 0.6 / MM + size * 0.35 / MM
    for w in words:
        pen.text(cx, y, w, size=size, font=fonts.BOLD, colour=tint, align="centre")
        y += size * 1.2 / MM
    pen.text(cx, panel.bottom - 4, deck_name, size=BACK_LABEL_PT, colour=tint, align="centre")


def back_label_box(trim: Rect, deck_name: str) -> Rect:
    """The plain pill under the deck's name at the foot of a back (page mm)."""
    panel = trim.grow(-BACK_BORDER)
    w = fonts.width(deck_name, fonts.SANS, BACK_LABEL_PT) / MM + 5.0
    h = 4.4
    base = panel.bottom - 4  # the name's baseline
    return Rect(panel.centre[0] - w / 2, base - 3.1, w, h)


def _draw_index(pen: Pen, idx: Rect, face: CardFace, theme: str, ink: RGB) -> None:
    """Value above symbol; a value wider than the column is condensed, not shrunk. A
    lettered badge ("VS", "Pe") is set as letters, not in a disc too small to read."""
    value = face_value(face)
    sym_size = min(idx.w, 6.0)
    y = idx.y
    if value:
        y = _index_text(pen, idx, y, value, 15.0 if len(value) < 2 else 13.0, ink) + 2.0
    if theme in DRAWN_THEMES:
        draw_symbol(pen.c, theme, idx.x + idx.w / 2, y + sym_size / 2, sym_size, ink,
                    pen.page_h, badge_mark(face))
    else:
        letters = KIND_MARKS.get(theme) or badge_text(badge_mark(face))
        _index_text(pen, idx, y, letters, 11.0 if value else 13.0, ink)


def _index_text(pen: Pen, idx: Rect, top: float, text: str, size: float, ink: RGB) -> float:
    """``text`` centred in the index column from ``top`` (mm), condensed to its width;
    returns its baseline (mm)."""
    w = fonts.width(text, fonts.BOLD, size) / MM
    squeeze = min(1.0, idx.w / w) if w > 0 else 1.0
    base = top + size * 0.8 / MM  # capitals reach 0.73 em, an "i" dot 0.76: under ``top``
    c = pen.c
    c.saveState()
    c.setFillColorRGB(*ink)
    c.setFont(fonts.BOLD, size)
    c.translate((idx.x + idx.w / 2) * MM, (pen.page_h - base) * MM)
    c.scale(squeeze, 1.0)
    c.drawCentredString(0, 0, text)
    c.restoreState()
    return base
