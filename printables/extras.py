"""Everything that is not a card: tokens, trackers, the board, the table mat, calibration.

* Oink tokens come from a deck file's token block (Shrine's ``oinks``: elements and how
  many each player starts with, SK-1).
* Trackers: an HP track when the deck file has ``start_hp`` (Mountains & Rivers, MR-2) and
  a karma track for God Num (GN-9; the limit is a room option, so the track runs 0-20).
* The Mountains & Rivers board (MR-1) is drawn in ``printables.board``, tiled over sheets
  with overlap and alignment marks, or on one A3 sheet.
* The table mat is drawn from ``companion.tablemat`` (markers and zones in mm): the camera
  reads the same numbers, so what is printed is what it expects.
* The calibration page: a 100 mm square and duplex alignment targets with rulers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reportlab.lib.utils import simpleSplit

from companion.cards import DeckData
from printables import fonts
from printables.art import COLOURS, colour, draw_symbol, lighten
from printables.board import board_pages
from printables.document import Document, Pen
from printables.geometry import (
    MM,
    PAPERS,
    Line,
    PrintError,
    Rect,
    Sheet,
    back_of,
    paper_size,
    printable_area,
)
from printables.options import PrintOptions
from printables.poster import FOOTER, GREY, POSTER_PAPERS, page_note, poster_pages

# --------------------------------------------------------------------------- per game


def game_extras(doc: Document, deck: DeckData, opts: PrintOptions, sheet: Sheet
                ) -> list[dict[str, Any]]:
    """The accessories a game's deck data asks for, on the job's paper.

    In a duplex job the document gives each accessory page its own blank back
    (``Document.page``), so every card front stays on an odd page.
    """
    pages: list[dict[str, Any]] = []
    players = opts.players or _max_players(deck.game)
    spec = token_spec(deck)
    if spec is not None:
        pages += token_pages(doc, opts.paper, deck, spec, players)
    for tracker in trackers_for(deck):
        pages += tracker_pages(doc, opts.paper, deck, tracker, players)
    if deck.game == "mountains":
        pages += board_pages(doc, opts.paper)
    return pages


def _max_players(game: str) -> int:
    try:
        from companion.registry import find_rules

        return find_rules(game).max_players
    except (ImportError, AttributeError):  # rules not installed: the largest common table
        return 6


def _heading(pen: Pen, title: str, sub: str = "") -> float:
    pen.text(10, 14, title, size=14, font=fonts.BOLD)
    if sub:
        pen.text(10, 19.5, sub, size=8, colour=GREY)
    return 24.0


# --------------------------------------------------------------------------- tokens


@dataclass(frozen=True)
class TokenSpec:
    name: str
    elements: tuple[str, ...]
    per_player: int


def token_spec(deck: DeckData) -> TokenSpec | None:
    """The token block of a deck file: any object with ``elements`` and
    ``per_player_per_element`` (Shrine's ``oinks``, SK-1)."""
    for key, block in deck.attrs.items():
        if isinstance(block, Mapping) and "per_player_per_element" in block:
            elements = tuple(str(e) for e in block.get("elements", ()))
            return TokenSpec(str(block.get("name", key)), elements,
                             int(block["per_player_per_element"]))
    return None


TOKEN_D = 18.0


def token_pages(doc: Document, paper: str, deck: DeckData, spec: TokenSpec, players: int
                ) -> list[dict[str, Any]]:
    """Round tokens, ``per_player`` of each element for each of ``players`` players."""
    pw, ph = paper_size(paper, POSTER_PAPERS)
    area = printable_area(pw, ph)
    top = 24.0
    gap = 2.0
    cols = int((area.w + gap) // (TOKEN_D + gap))
    rows = int((area.bottom - FOOTER - top + gap) // (TOKEN_D + gap))
    tokens = [e for e in spec.elements for _ in range(spec.per_player * players)]
    per_page = cols * rows
    pages = []
    x0 = (pw - (cols * (TOKEN_D + gap) - gap)) / 2
    for start in range(0, len(tokens), per_page):
        pen = doc.page(pw, ph)
        n = start // per_page + 1
        total = (len(tokens) + per_page - 1) // per_page
        _heading(pen, f"{deck.title}: {spec.name} tokens ({n}/{total})",
                 f"{spec.per_player} of each element per player, {players} players. "
                 "Cut along the circles.")
        for i, element in enumerate(tokens[start:start + per_page]):
            r, c = divmod(i, cols)
            cx = x0 + c * (TOKEN_D + gap) + TOKEN_D / 2
            cy = top + r * (TOKEN_D + gap) + TOKEN_D / 2
            ink = colour(element)
            pen.circle(cx, cy, TOKEN_D / 2, fill=lighten(ink, 0.82), stroke=ink, width=0.5)
            draw_symbol(pen.c, element, cx, cy - 2.0, 7.0, ink, pen.page_h, element)
            pen.text(cx, cy + 6.0, f"1 {spec.name}", size=6, font=fonts.BOLD,
                     colour=ink, align="centre")
        page_note(pen, f"{spec.name} tokens {n}/{total}")
        pages.append({"page": doc.pages, "kind": "tokens", "game": deck.game,
                      "page_size_mm": [pw, ph],
                      "count": len(tokens[start:start + per_page])})
    return pages


# --------------------------------------------------------------------------- trackers


@dataclass(frozen=True)
class Tracker:
    name: str
    low: int
    high: int
    start: int
    rule: str


def trackers_for(deck: DeckData) -> list[Tracker]:
    """HP track from ``start_hp`` (MR-2); God Num's karma track (GN-9, limit 1-20, GN-1)."""
    out = []
    hp = deck.attrs.get("start_hp")
    if isinstance(hp, int):
        out.append(Tracker("HP", 0, max(20, 2 * hp), hp,
                           f"Everyone starts with {hp} HP; at 0 HP a player is out. "
                           "Mark your HP with a coin or a paper clip."))
    if deck.game == "godnum":
        out.append(Tracker("Karma", 0, 20, 0,
                           "One karma point per discarded card; reaching the host's "
                           "limit (default 5) eliminates. Circle the limit before play."))
    return out


def tracker_pages(doc: Document, paper: str, deck: DeckData, tracker: Tracker, players: int
                  ) -> list[dict[str, Any]]:
    pw, ph = paper_size(paper, POSTER_PAPERS)
    pen = doc.page(pw, ph)
    y = _heading(pen, f"{deck.title}: {tracker.name} tracker", tracker.rule)
    area = printable_area(pw, ph)
    n = tracker.high - tracker.low + 1
    box = min(9.0, (area.w - 10) / n)
    x0 = (pw - n * box) / 2
    strip_h = min(38.0, (area.bottom - FOOTER - y) / players)
    for p in range(players):
        top = y + p * strip_h + 4
        pen.text(x0, top + 4, f"Player {p + 1}: ______________________", size=9,
                 font=fonts.BOLD)
        for i in range(n):
            v = tracker.low + i
            r = Rect(x0 + i * box, top + 8, box, box)
            fill = lighten(COLOURS["fire"], 0.75) if v == tracker.start else None
            pen.rect(r, stroke=(0.2, 0.2, 0.2), width=0.3, fill=fill)
            pen.text(r.x + box / 2, r.y + box / 2 + 1.2, str(v), size=8 if box >= 7 else 6,
                     align="centre")
        if tracker.start != tracker.low:
            pen.text(x0, top + 8 + box + 3.5, f"start: {tracker.start}", size=6, colour=GREY)
    page_note(pen, f"{tracker.name} tracker")
    return [{"page": doc.pages, "kind": "tracker", "tracker": tracker.name, "game": deck.game,
             "page_size_mm": [pw, ph], "players": players}]


# --------------------------------------------------------------------------- table mat


def marker_bits(marker_id: int) -> list[list[bool]]:
    """The 6 x 6 cells (border included) of an ArUco ``DICT_4X4_50`` marker; True = black."""
    import cv2

    from companion import tablemat

    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, tablemat.MARKER_DICTIONARY))
    img = cv2.aruco.generateImageMarker(d, marker_id, 6)
    return [[bool(img[r, c] < 128) for c in range(6)] for r in range(6)]


def mat_pages(doc: Document, paper: str, game: str, players: int | None
              ) -> list[dict[str, Any]]:
    """The camera's table mat: play area, four ArUco markers and the game's zones (mm)."""
    from companion import tablemat

    _lo, hi = tablemat.player_range(game)
    n = players if players is not None else hi
    zones = tablemat.zones(game, n)
    from companion.cards import load_deck

    title = load_deck(game).title
    margin = 5.0  # white beyond the play area (the markers keep 15 mm inside it anyway)
    w, h = tablemat.MAT_WIDTH + 2 * margin, tablemat.MAT_HEIGHT + 2 * margin

    def draw(pen: Pen) -> None:
        ox, oy = margin, margin
        pen.rect(Rect(ox, oy, tablemat.MAT_WIDTH, tablemat.MAT_HEIGHT), stroke=(0.3, 0.3, 0.3),
                 width=0.5)
        for z in zones:
            r = Rect(ox + z.x, oy + z.y, z.w, z.h)
            pen.rect(r, stroke=(0.45, 0.45, 0.55), width=0.6, radius=3.0)
            pen.text(r.x + 3, r.y + 6, zone_words(z.name), size=10, font=fonts.BOLD,
                     colour=(0.45, 0.45, 0.55))
        for m in tablemat.MARKERS:
            cell = m.size / 6
            x0, y0 = ox + m.cx - m.size / 2, oy + m.cy - m.size / 2
            bits = marker_bits(m.id)
            path = pen.c.beginPath()
            for row in range(6):
                for col in range(6):
                    if bits[row][col]:
                        path.rect((x0 + col * cell) * MM,
                                  (pen.page_h - y0 - (row + 1) * cell) * MM,
                                  cell * MM, cell * MM)
            pen.c.saveState()
            pen.c.setFillColorRGB(0, 0, 0)
            pen.c.drawPath(path, stroke=0, fill=1)
            pen.c.restoreState()
            pen.text(ox + m.cx, y0 + m.size + 5, f"marker {m.id}", size=7, colour=GREY,
                     align="centre")
        pen.text(ox + tablemat.MAT_WIDTH / 2, oy + tablemat.MAT_HEIGHT - 4,
                 f"Table Companion mat: {title}, {n} players. Player 1 sits at this edge.",
                 size=9,
                 colour=GREY, align="centre")

    pages = poster_pages(doc, paper, w, h, draw, "mat", f"Table mat ({title}, {n} players)")
    for p in pages:
        p["mat_origin_mm"] = [margin, margin]
        p["markers"] = [{"id": m.id, "cx": m.cx, "cy": m.cy, "size": m.size}
                        for m in tablemat.MARKERS]
    return pages


# What a player calls each zone of the mat (C-8: no zone ids on paper).
ZONE_WORDS = {"universe": "Universe card", "pot": "Played cards", "void": "The Void",
              "lot": "Cards up for bid"}


def zone_words(name: str) -> str:
    """A mat zone's name in a player's words: "Player 3", "Cards up for bid"."""
    if name.startswith("seat:"):
        return f"Player {name.split(':', 1)[1]}"
    return ZONE_WORDS.get(name, name.replace("-", " ").replace(":", " ").capitalize())


# --------------------------------------------------------------------------- calibration


SQUARE = 100.0
SCALE = 6.0  # the grids on the back read -6..+6 mm


def calibration_targets(paper: str, mode: str = "long-edge",
                        offset: tuple[float, float] = (0.0, 0.0)
                        ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Front target centres and the matching back grid centres (page mm, top-left origin).

    Pure: the back centre is the front centre mirrored for ``mode`` and moved by
    ``offset`` exactly as card backs are, so a calibration page printed with the offset
    you chose shows the residual error (holes on zero: the offset is right).
    """
    pw, ph = paper_size(paper, tuple(PAPERS))
    pts = [(pw / 2, ph / 2), (30.0, 30.0), (pw - 30.0, 30.0), (30.0, ph - 30.0),
           (pw - 30.0, ph - 30.0)]
    out = []
    for x, y in pts:
        b = back_of(Rect(x, y, 0, 0), pw, ph, mode, offset)
        out.append(((x, y), (b.x, b.y)))
    return out


INSTRUCTIONS = [
    "1. Print this page double-sided, at 100% / actual size, with the flip you will use for "
    "the cards (long edge unless you chose short edge).",
    "2. Measure the square: it must be 100 mm each way. If not, your reader or printer is "
    "scaling: pick 'Actual size' and turn off 'Fit' / 'Shrink oversized pages'.",
    "3. Push a pin through the centre of each cross on this side (or hold the sheet "
    "against a window). Turn the sheet over the same edge as the printer did.",
    "4. On the back, read where each pin hole is on its millimetre grid: X on the numbers "
    "above it (+ is right), Y on the numbers to its left (+ is up), as you look at the back.",
    "5. Print the cards with --back-offset X,Y using the centre reading (or the average of "
    "the five). Holes on the zero lines: your printer needs no offset.",
]


def calibration_pages(doc: Document, paper: str, mode: str = "long-edge",
                      offset: tuple[float, float] = (0.0, 0.0)) -> list[dict[str, Any]]:
    """The calibration sheet: front (square, targets, instructions) and back (grids)."""
    pw, ph = paper_size(paper, tuple(PAPERS))
    targets = calibration_targets(paper, mode, offset)
    area = printable_area(pw, ph)
    for _, (bx, by) in targets:
        if not Rect(bx - SCALE - 4, by - SCALE - 4, 2 * SCALE + 8, 2 * SCALE + 8).inside(area):
            raise PrintError(f"back offset {offset[0]:g},{offset[1]:g} mm pushes the "
                             "calibration grids off the printable area")
    pen = doc.page(pw, ph, sided=True)
    pen.text(pw / 2, 16, "Table Companion: calibration page (front)", size=13,
             font=fonts.BOLD, align="centre")
    sq = Rect((pw - SQUARE) / 2, ph / 2 - SQUARE / 2, SQUARE, SQUARE)
    pen.rect(sq, stroke=(0, 0, 0), width=0.3)
    pen.text(sq.x + SQUARE / 2, sq.y - 2, "100 mm", size=8, align="centre")
    pen.text(sq.x - 2, sq.y + SQUARE / 2, "100 mm", size=8, align="centre", angle=90)
    for (x, y), _ in targets:
        pen.circle(x, y, 3.0, stroke=(0, 0, 0), width=0.2)
        pen.line(Line(x - 8, y, x + 8, y), width=0.15)
        pen.line(Line(x, y - 8, x, y + 8), width=0.15)
    y = sq.bottom + 10
    for line in INSTRUCTIONS:
        for part in simpleSplit(line, fonts.SANS, 8, (pw - 80) * MM):
            pen.text(40, y, part, size=8)
            y += 3.6
        y += 1.0
    page_note(pen, "calibration front")
    pages = [{"page": doc.pages, "kind": "calibration", "side": "front",
              "page_size_mm": [pw, ph], "square_mm": [sq.x, sq.y, SQUARE, SQUARE],
              "targets_mm": [list(f) for f, _ in targets]}]
    pen = doc.page(pw, ph, sided=True)
    pen.text(pw / 2, 16, f"Calibration page (back, {mode} flip): read the pin holes",
             size=13, font=fonts.BOLD, align="centre")
    if offset != (0.0, 0.0):
        pen.text(pw / 2, 22, f"printed with --back-offset {offset[0]:g},{offset[1]:g}: add "
                 "what you read now to it", size=8, align="centre")
    for _, (bx, by) in targets:
        _ruler(pen, bx, by)
    page_note(pen, "calibration back")
    pages.append({"page": doc.pages, "kind": "calibration", "side": "back", "flip": mode,
                  "back_offset_mm": list(offset),
                  "page_size_mm": [pw, ph], "rulers_mm": [list(b) for _, b in targets]})
    return pages


def _ruler(pen: Pen, x: float, y: float) -> None:
    """A millimetre grid of +-SCALE mm centred on (x, y), zero lines bold; X is read on the
    labels above it (+ is right), Y on the labels to its left (+ is up)."""
    n = int(SCALE)
    for i in range(-n, n + 1):
        w = 0.25 if i == 0 else (0.1 if i % 2 == 0 else 0.05)
        ink = (0, 0, 0) if i == 0 else (0.35, 0.35, 0.35)
        pen.line(Line(x + i, y - SCALE, x + i, y + SCALE), colour=ink, width=w)
        pen.line(Line(x - SCALE, y - i, x + SCALE, y - i), colour=ink, width=w)
        if i % 2 == 0:
            pen.text(x + i, y - SCALE - 1.0, f"{i:+d}" if i else "0", size=4.5,
                     align="centre")
            pen.text(x - SCALE - 0.8, y - i + 0.6, f"{i:+d}" if i else "0", size=4.5,
                     align="right")
    pen.text(x + SCALE + 1.2, y + 0.8, "X", size=6, font=fonts.BOLD)
    pen.text(x, y + SCALE + 3.0, "Y", size=6, font=fonts.BOLD, align="centre")
