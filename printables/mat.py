"""The camera's table mat: play area, four ArUco markers, and each zone with its words.

Geometry comes from ``companion.tablemat`` (the camera reads the same numbers). Every zone
is outlined and says, in a player's words, what goes there and how (C-6 rev. 3, C-8: no
zone ids, no seat numbers): "The Void" / "Show your card in your place first, then put it
here." A seat's words face the player who sits at it (``Zone.side``); a shared pile's words
are printed twice, once for each long edge. The words sit in a band along the zone's edge,
so the middle, where a card lies, stays bare paper for the camera.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.utils import simpleSplit

from companion import tablemat
from printables import fonts
from printables.art import RGB
from printables.document import Document, Pen
from printables.geometry import MM, PrintError, Rect
from printables.poster import GREY, poster_pages

PT = 25.4 / 72  # mm per point
HEADING_PT = (16.0, 10.0)  # the zone's name, bold: as large as fits, never below 10 pt
BODY_PT = (11.0, 8.0)  # what to do there: as large as fits in two lines, never below 8 pt
BODY_LINES = 2
PAD = 3.5  # mm between a zone's outline and its words
INK = (0.30, 0.30, 0.40)  # headings
BODY_INK = (0.38, 0.38, 0.44)
OUTLINE = (0.45, 0.45, 0.55)
ANGLE = {"near": 0.0, "far": 180.0, "left": -90.0, "right": 90.0}  # PDF degrees, ccw

# What a player does at each shared zone (C-6 rev. 3: a card that leaves a deck is shown
# in its owner's place first; C-9 rev. 3: the pot and the Void are watched too).
SHARED_WORDS: dict[tuple[str, str], tuple[str, str]] = {
    ("wuxing", "universe"): (
        "The pot",
        "The Universe card is laid here. Show your card in your place first, then push it "
        "onto the pot."),
    ("wuxing", "void"): ("The Void", "Show your card in your place first, then put it here."),
    ("godnum", "pot"): (
        "The pot", "Show your card in your place first, then push it onto the pot."),
    ("godnum", "void"): ("The Void", "Put the cards you discard here: they are out of the game."),
    ("shrine", "lot"): (
        "Cards up for bid", "Draw the cards of each auction from the deck and lay them "
        "here, face up, side by side."),
}

# What a player does in their own place, per game (GN: a card shown there is played; SK-2:
# only the draw for who starts is shown there; MR: every card drawn; GC: cards played).
SEAT_WORDS = {
    "wuxing": "Show every card here first.",
    "godnum": "Show every card you play here first.",
    "shrine": "Show the card you draw for who starts here.",
    "mountains": "Show every card you draw here.",
    "gemcomplete": "Show every card you play here first, then put it on your discard pile.",
}

OWN_WORDS = {  # a player's other zones: (what it is, what to do there)
    "locus": ("Locus", "Set your cards here face down, in a row; to declare, turn them face "
              "up here."),
    "discard": ("discard pile", "The cards you play, crush or discard lie here, face up."),
}


FIRST = "The first player on the table's list sits here."


@dataclass(frozen=True)
class Label:
    """A zone's words: a heading, what to do there, and a note (who sits at a place)."""

    heading: str
    body: str
    note: str = ""

    def __str__(self) -> str:
        return f"{self.heading} — {self.body}" + (f" {self.note}" if self.note else "")


def zone_label(game: str, zone: str, names: Sequence[str] = ()) -> Label:
    """What the mat prints in ``zone`` of ``game``'s mat, in a player's words (C-8).

    ``names`` are the players in seat order; without them a seat is "Your place".
    """
    kind, _, n = zone.partition(":")
    if not n:
        if (game, zone) not in SHARED_WORDS:
            raise PrintError(f"the {game} mat has no words for its zone {zone!r}")
        return Label(*SHARED_WORDS[(game, zone)])
    seat = int(n)
    owner = f"{names[seat - 1]}'s" if names else "Your"
    if kind == "seat":
        return Label(f"{owner} place", SEAT_WORDS[game], "" if names or seat != 1 else FIRST)
    if kind not in OWN_WORDS:
        raise PrintError(f"the {game} mat has no words for its zone {zone!r}")
    what, body = OWN_WORDS[kind]
    return Label(f"{owner} {what}", body)


def zone_words(name: str, game: str) -> str:
    """A mat zone's heading in a player's words: "Your place", "The Void"."""
    return zone_label(game, name).heading


@dataclass(frozen=True)
class Line:
    """One line of a set label: its text, font and size (pt), and its baseline (mm below
    the top of the label)."""

    text: str
    font: str
    size: float
    colour: RGB
    baseline: float


@dataclass(frozen=True)
class Block:
    """A label set to fit a zone's width."""

    lines: list[Line]

    @property
    def height(self) -> float:
        """mm from the top of the label to its last baseline."""
        return self.lines[-1].baseline

    def size(self, font: str) -> float:
        """The size of the lines set in ``font`` (pt)."""
        return next(ln.size for ln in self.lines if ln.font == font)


def fit(label: Label, width_mm: float) -> Block:
    """The label set as large as fits ``width_mm``: the heading on one line (on two at the
    smallest size), the body in ``BODY_LINES`` lines, the note (italic, body size) below."""
    room = (width_mm - 2 * PAD) / PT
    size = HEADING_PT[0]
    while size > HEADING_PT[1] and fonts.width(label.heading, fonts.BOLD, size) > room:
        size -= 0.5
    heading = simpleSplit(label.heading, fonts.BOLD, size, room)
    body_pt = BODY_PT[0]

    def split(pt: float) -> tuple[list[str], list[str]]:
        return (simpleSplit(label.body, fonts.SANS, pt, room),
                simpleSplit(label.note, fonts.ITALIC, pt, room) if label.note else [])

    body, note = split(body_pt)
    while body_pt > BODY_PT[1] and (len(body) > BODY_LINES or len(note) > 1):
        body_pt -= 0.5
        body, note = split(body_pt)
    if len(heading) > 2 or len(body) > BODY_LINES + 1 or len(note) > 2:
        raise PrintError(f"{label.heading!r}: the words do not fit a {width_mm:.0f} mm zone")
    lines, y = [], size * 0.73 * PT
    for text in heading:
        lines.append(Line(text, fonts.BOLD, size, INK, y))
        y += size * 1.15 * PT
    y += (body_pt * 1.2 - size * 1.15) * PT + 1.2
    for text, font in [(t, fonts.SANS) for t in body] + [(t, fonts.ITALIC) for t in note]:
        lines.append(Line(text, font, body_pt, BODY_INK, y))
        y += body_pt * 1.2 * PT
    return Block(lines)


def _reader_frame(z: tablemat.Zone, side: str) -> tuple[float, float]:
    """The zone's width and height as its reader sees it."""
    return (z.h, z.w) if side in ("left", "right") else (z.w, z.h)


def _to_page(z: tablemat.Zone, side: str, u: float, v: float) -> tuple[float, float]:
    """Reader-frame mm (``u`` to the reader's right, ``v`` towards the reader, from the
    zone's centre) to mat mm."""
    cx, cy = z.centre
    if side == "far":
        return cx - u, cy - v
    if side == "left":
        return cx - v, cy + u
    if side == "right":
        return cx + v, cy - u
    return cx + u, cy + v


def label_band(z: tablemat.Zone, block: Block, side: str) -> Rect:
    """Where on the mat (mm) a label set for ``side`` lies: a band along the zone's edge
    farthest from that reader, as wide as the zone."""
    w, h = _reader_frame(z, side)
    corners = [_to_page(z, side, u, v) for u, v in
               ((-w / 2, -h / 2), (w / 2, -h / 2 + PAD + block.height + 1.5))]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def draw_label(pen: Pen, z: tablemat.Zone, block: Block, side: str, ox: float,
               oy: float) -> None:
    """The label centred along the zone's edge farthest from ``side``'s reader, turned so
    that reader reads it upright."""
    _, h = _reader_frame(z, side)
    top = -h / 2 + PAD
    for ln in block.lines:
        x, y = _to_page(z, side, 0.0, top + ln.baseline)
        pen.text(ox + x, oy + y, ln.text, size=ln.size, font=ln.font, colour=ln.colour,
                 align="centre", angle=ANGLE[side])


def readers(z: tablemat.Zone) -> tuple[str, ...]:
    """Who reads a zone's words: its owner, or both long edges for a shared pile."""
    return (z.side,) if z.side else ("near", "far")


def marker_bits(marker_id: int) -> list[list[bool]]:
    """The 6 x 6 cells (border included) of an ArUco ``DICT_4X4_50`` marker; True = black."""
    import cv2

    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, tablemat.MARKER_DICTIONARY))
    img = cv2.aruco.generateImageMarker(d, marker_id, 6)
    return [[bool(img[r, c] < 128) for c in range(6)] for r in range(6)]


def seating_words(players: int, names: Sequence[str]) -> str:
    """Who sits where, in words (C-8: no seat numbers)."""
    if names:
        return "Each player sits at the place with their name."
    if players == 2:
        return ("The first player on the table's list sits at the place that says so, the "
                "other across.")
    return ("The first player on the table's list sits at the place that says so, the next on "
            "their left, and so on round the table.")


MARGIN = 5.0  # mm of white beyond the play area (the markers keep 15 mm inside it anyway)


@dataclass(frozen=True)
class MatPlan:
    """One mat: the game's zones at a table size, each zone's words and how they are set."""

    game: str
    title: str
    players: int
    names: tuple[str, ...]
    zones: list[tablemat.Zone]
    labels: dict[str, Label]
    blocks: dict[str, Block]

    @property
    def size(self) -> tuple[float, float]:
        """The mat's paper (play area and margin), mm."""
        return tablemat.MAT_WIDTH + 2 * MARGIN, tablemat.MAT_HEIGHT + 2 * MARGIN

    def describe(self) -> list[dict[str, Any]]:
        """Each zone, its words, their sizes (pt) and where they lie (mat mm)."""
        return [{"zone": z.name, "rect_mm": [z.x, z.y, z.w, z.h],
                 "heading": self.labels[z.name].heading, "words": self.labels[z.name].body,
                 "note": self.labels[z.name].note,
                 "heading_pt": self.blocks[z.name].size(fonts.BOLD),
                 "words_pt": self.blocks[z.name].size(fonts.SANS),
                 "bands_mm": [list(_rect(label_band(z, self.blocks[z.name], s)))
                              for s in readers(z)]}
                for z in self.zones]


def plan(game: str, players: int | None, names: Sequence[str] = ()) -> MatPlan:
    """The mat of ``game`` for ``players`` (default: as many as ``names``, else the
    largest table); ``names`` in seat order. Raises ``UnknownGame``, ``BadSetup``,
    ``BadText`` or ``PrintError`` (names that do not match the table, words that do not fit).
    """
    from companion.cards import load_deck
    from companion.names import player_names

    _lo, hi = tablemat.player_range(game)
    given = player_names(names)
    n = players if players is not None else (len(given) or hi)
    zones = tablemat.zones(game, n)
    if given and len(given) != n:
        raise PrintError(f"{len(given)} names given for a mat of {n} players: give one "
                         "name per player, in seat order")
    labels = {z.name: zone_label(game, z.name, given) for z in zones}
    blocks = {z.name: fit(labels[z.name], _reader_frame(z, readers(z)[0])[0]) for z in zones}
    return MatPlan(game, load_deck(game).title, n, given, zones, labels, blocks)


def draw_mat(pen: Pen, mat: MatPlan) -> None:
    """The whole mat, its top-left paper corner at the pen's origin."""
    ox = oy = MARGIN
    pen.rect(Rect(ox, oy, tablemat.MAT_WIDTH, tablemat.MAT_HEIGHT), stroke=(0.3, 0.3, 0.3),
             width=0.5)
    for z in mat.zones:
        pen.rect(Rect(ox + z.x, oy + z.y, z.w, z.h), stroke=OUTLINE, width=0.6, radius=3.0)
        for side in readers(z):
            draw_label(pen, z, mat.blocks[z.name], side, ox, oy)
    for m in tablemat.MARKERS:
        _marker(pen, m, ox, oy)
    pen.text(ox + tablemat.MAT_WIDTH / 2, oy + tablemat.MAT_HEIGHT - 8.5,
             f"Table Companion mat: {mat.title}, {mat.players} players.", size=9,
             font=fonts.BOLD, colour=GREY, align="centre")
    pen.text(ox + tablemat.MAT_WIDTH / 2, oy + tablemat.MAT_HEIGHT - 4,
             seating_words(mat.players, mat.names), size=8, colour=GREY, align="centre")


def mat_pages(doc: Document, paper: str, game: str, players: int | None,
              names: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The camera's table mat over as few sheets of ``paper`` as fit (``poster_pages``)."""
    mat = plan(game, players, names)
    w, h = mat.size
    pages = poster_pages(doc, paper, w, h, lambda pen: draw_mat(pen, mat), "mat",
                         f"Table mat ({mat.title}, {mat.players} players)")
    zones = mat.describe()
    for p in pages:
        p["mat_origin_mm"] = [MARGIN, MARGIN]
        p["markers"] = [{"id": m.id, "cx": m.cx, "cy": m.cy, "size": m.size}
                        for m in tablemat.MARKERS]
        p["zones"] = zones
    return pages


def _rect(r: Rect) -> tuple[float, float, float, float]:
    return (round(r.x, 2), round(r.y, 2), round(r.w, 2), round(r.h, 2))


def _marker(pen: Pen, m: tablemat.Marker, ox: float, oy: float) -> None:
    cell = m.size / 6
    x0, y0 = ox + m.cx - m.size / 2, oy + m.cy - m.size / 2
    bits = marker_bits(m.id)
    path = pen.c.beginPath()
    for row in range(6):
        for col in range(6):
            if bits[row][col]:
                path.rect((x0 + col * cell) * MM, (pen.page_h - y0 - (row + 1) * cell) * MM,
                          cell * MM, cell * MM)
    pen.c.saveState()
    pen.c.setFillColorRGB(0, 0, 0)
    pen.c.drawPath(path, stroke=0, fill=1)
    pen.c.restoreState()
    pen.text(ox + m.cx, y0 + m.size + 5, f"marker {m.id}", size=7, colour=GREY,
             align="centre")
