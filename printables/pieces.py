"""Playing pieces beside the cards: Oink tokens, Mountains & Rivers pawns, trackers.

* Oinks (Shrine, SK-1) are squares on shared cut lines (every cut runs straight across
  the sheet, so a guillotine or a ruler and knife does the whole sheet), in 1s and 5s:
  each player's ``per_player`` Oinks of an element are one 5 and the rest in 1s, so the
  value printed is exactly what the rules hand out.
* Pawns (Mountains & Rivers, the seed asks for one per player): a fold-over standee per
  character, in the character's element colour with its symbol and name.
* Trackers: one numbered track per player; HP runs to 30 (skills heal past the start).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reportlab.lib.utils import simpleSplit

from companion.cards import DeckData
from printables import fonts
from printables.art import COLOURS, colour, draw_symbol, lighten
from printables.document import Document, Pen
from printables.geometry import MM, Line, Rect, paper_size, printable_area
from printables.poster import FOOTER, GREY, POSTER_PAPERS, page_note

CUT_GREY = (0.55, 0.55, 0.55)


def heading(pen: Pen, title: str, sub: str = "") -> float:
    """A sheet's title and the lines under it; returns where the content starts (mm)."""
    pen.text(10, 14, title, size=14, font=fonts.BOLD)
    y = 19.5
    for line in simpleSplit(sub, fonts.SANS, 8, (pen.page_w - 20) * MM) if sub else []:
        pen.text(10, y, str(line), size=8, colour=GREY)
        y += 3.6
    return max(24.0, y + 1.0)


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


TOKEN_MM = 20.0


def denominations(per_player: int) -> list[int]:
    """One player's tokens of one element: a 5 and the rest in 1s (10 -> 5 + five 1s), so
    small bids and change are paid in 1s; under 10, all 1s."""
    if per_player >= 10:
        return [5] * (per_player // 5 - 1) + [1] * (5 + per_player % 5)
    return [1] * per_player


def token_pages(doc: Document, paper: str, deck: DeckData, spec: TokenSpec, players: int
                ) -> list[dict[str, Any]]:
    """Square tokens on shared cut lines, element by element, 1s and 5s."""
    pw, ph = paper_size(paper, POSTER_PAPERS)
    area = printable_area(pw, ph)
    top = 30.0
    mark = 4.0  # crop marks outside the grid, in the margin
    cols = int((area.w - 2 * mark) // TOKEN_MM)
    rows = int((area.bottom - FOOTER - top - mark) // TOKEN_MM)
    tokens = [(e, v) for e in spec.elements for _ in range(players)
              for v in denominations(spec.per_player)]
    per_page = cols * rows
    pages = []
    x0 = (pw - cols * TOKEN_MM) / 2
    total = (len(tokens) + per_page - 1) // per_page
    for start in range(0, len(tokens), per_page):
        pen = doc.page(pw, ph)
        n = start // per_page + 1
        chunk = tokens[start:start + per_page]
        heading(pen, f"{deck.title}: {spec.name} tokens ({n}/{total})",
                f"Each player: {spec.per_player} {spec.name} of each element (one 5 and "
                f"1s), {players} players. Cut along every grey line, edge to edge.")
        used_rows = (len(chunk) + cols - 1) // cols
        for i, (element, value) in enumerate(chunk):
            r, c = divmod(i, cols)
            _token(pen, Rect(x0 + c * TOKEN_MM, top + r * TOKEN_MM, TOKEN_MM, TOKEN_MM),
                   element, value, spec.name)
        _cut_grid(pen, x0, top, cols, used_rows, TOKEN_MM, mark)
        page_note(pen, f"{spec.name} {n}/{total}")
        pages.append({"page": doc.pages, "kind": "tokens", "game": deck.game,
                      "page_size_mm": [pw, ph], "count": len(chunk),
                      "value": sum(v for _, v in chunk),
                      "by_element": {e: sum(v for x, v in chunk if x == e)
                                     for e in spec.elements}})
    return pages


def _token(pen: Pen, r: Rect, element: str, value: int, name: str) -> None:
    ink = colour(element)
    # The tint fills the whole square: a cut a little off the line shows no white edge.
    pen.rect(r, fill=lighten(ink, 0.8) if value == 1 else ink)
    cx = r.x + r.w / 2
    sym = ink if value == 1 else lighten(ink, 0.8)
    draw_symbol(pen.c, element, r.x + 4.5, r.y + 4.5, 4.5, sym, pen.page_h, element)
    draw_symbol(pen.c, element, r.right - 4.5, r.bottom - 4.5, 4.5, sym, pen.page_h, element)
    pen.text(cx, r.y + r.h / 2 + 3.2, str(value), size=22 if value == 1 else 24,
             font=fonts.BOLD, colour=ink if value == 1 else (1, 1, 1), align="centre")
    if value > 1:  # a 5 is dark with a white ring: told from a 1 in grey or at a glance
        pen.circle(cx, r.y + r.h / 2, 6.2, stroke=(1, 1, 1), width=0.6)
    pen.text(cx, r.bottom - 1.8, element.capitalize(), size=6, font=fonts.BOLD,
             colour=ink if value == 1 else (1, 1, 1), align="centre")


def _cut_grid(pen: Pen, x0: float, y0: float, cols: int, rows: int, size: float,
              mark: float) -> None:
    """Grey cut lines on every shared edge, and crop marks where each line meets the
    margin, so each cut can run straight across the sheet."""
    w, h = cols * size, rows * size
    for c in range(cols + 1):
        x = x0 + c * size
        pen.line(Line(x, y0, x, y0 + h), colour=CUT_GREY, width=0.15)
        pen.line(Line(x, y0 - mark, x, y0 - 0.5), width=0.2)
        pen.line(Line(x, y0 + h + 0.5, x, y0 + h + mark), width=0.2)
    for r in range(rows + 1):
        y = y0 + r * size
        pen.line(Line(x0, y, x0 + w, y), colour=CUT_GREY, width=0.15)
        pen.line(Line(x0 - mark, y, x0 - 0.5, y), width=0.2)
        pen.line(Line(x0 + w + 0.5, y, x0 + w + mark, y), width=0.2)


# --------------------------------------------------------------------------- pawns


PAWN_W, PAWN_PANEL, PAWN_TAB = 24.0, 32.0, 10.0


def pawn_pages(doc: Document, paper: str, deck: DeckData, players: int
               ) -> list[dict[str, Any]]:
    """One fold-over pawn per character (any of them may be picked), in its colour."""
    characters = [f for f in deck.faces if f.kind == "character"]
    if not characters:
        return []
    pw, ph = paper_size(paper, POSTER_PAPERS)
    pen = doc.page(pw, ph)
    top = heading(pen, f"{deck.title}: pawns",
                  "Cut around each pawn, fold on the dashed lines, glue the two pictures back "
                  "to back and spread the feet. One per player, in the colour of the "
                  "character they play.")
    gap = 8.0
    x = (pw - len(characters) * PAWN_W - (len(characters) - 1) * gap) / 2
    y = top + 6
    for face in characters:
        _pawn(pen, x, y, face.name, face.element or face.kind)
        x += PAWN_W + gap
    page_note(pen, "pawns")
    return [{"page": doc.pages, "kind": "pawns", "game": deck.game, "page_size_mm": [pw, ph],
             "pawns": [f.name for f in characters], "players": players}]


def _pawn(pen: Pen, x: float, y: float, name: str, element: str) -> None:
    """Foot, picture, picture upside down, foot: folded, both pictures face out."""
    ink = colour(element)
    parts = [PAWN_TAB, PAWN_PANEL, PAWN_PANEL, PAWN_TAB]
    edges = [y]
    for h in parts:
        edges.append(edges[-1] + h)
    for i, (a, b) in enumerate(itertools.pairwise(edges)):
        r = Rect(x, a, PAWN_W, b - a)
        pen.rect(r, fill=lighten(ink, 0.75) if i in (0, 3) else ink)
        if i in (1, 2):
            _pawn_picture(pen, r, name, element, upside_down=(i == 1))
    pen.rect(Rect(x, y, PAWN_W, edges[-1] - y), stroke=(0, 0, 0), width=0.3)
    for e in edges[1:-1]:
        pen.line(Line(x, e, x + PAWN_W, e), colour=(0.1, 0.1, 0.1), width=0.25,
                 dash=(1.5, 1.0))


def _pawn_picture(pen: Pen, r: Rect, name: str, element: str, upside_down: bool) -> None:
    c = pen.c
    cx, cy = r.centre
    c.saveState()
    if upside_down:  # the panel above the fold faces the other way once folded
        c.translate(cx * MM, (pen.page_h - cy) * MM)
        c.rotate(180)
        c.translate(-cx * MM, -(pen.page_h - cy) * MM)
    draw_symbol(c, element, cx, cy - 4.0, 13.0, (1, 1, 1), pen.page_h, element)
    size = 8.0
    while fonts.width(name, fonts.BOLD, size) > (r.w - 2) * MM and size > 6:
        size -= 0.5
    pen.text(cx, cy + 10.0, name, size=size, font=fonts.BOLD, colour=(1, 1, 1),
             align="centre")
    c.restoreState()


# --------------------------------------------------------------------------- trackers


@dataclass(frozen=True)
class Tracker:
    name: str
    low: int
    high: int
    start: int
    rule: str


def trackers_for(deck: DeckData) -> list[Tracker]:
    """HP track from ``start_hp`` (MR-2) to 30, as skills heal past the start; God Num's
    karma track (GN-9; the limit is a room option up to 20, GN-1)."""
    out = []
    hp = deck.attrs.get("start_hp")
    if isinstance(hp, int):
        out.append(Tracker("HP", 0, max(30, 3 * hp), hp,
                           f"Everyone starts with {hp} HP; at 0 HP a player is out. "
                           "Mark your HP with a coin or a paper clip."))
    if deck.game == "godnum":
        out.append(Tracker("Karma", 0, 20, 0,
                           "One karma point per discarded card; reaching the host's "
                           "limit (default 5) eliminates. Circle the limit before play."))
    return out


def tracker_pages(doc: Document, paper: str, deck: DeckData, tracker: Tracker, players: int
                  ) -> list[dict[str, Any]]:
    """One page: a track per player, wrapped onto a second row when it is long."""
    pw, ph = paper_size(paper, POSTER_PAPERS)
    pen = doc.page(pw, ph)
    y = heading(pen, f"{deck.title}: {tracker.name} tracker", tracker.rule)
    area = printable_area(pw, ph)
    n = tracker.high - tracker.low + 1
    box = 9.0
    per_row = min(n, int((area.w - 10) // box))
    rows = (n + per_row - 1) // per_row
    x0 = (pw - per_row * box) / 2
    strip_h = min(14.0 + rows * box, (area.bottom - FOOTER - y) / players)
    for p in range(players):
        top = y + p * strip_h + 4
        pen.text(x0, top + 4, f"Player {p + 1}: ______________________", size=9,
                 font=fonts.BOLD)
        for i in range(n):
            v = tracker.low + i
            row, col = divmod(i, per_row)
            r = Rect(x0 + col * box, top + 7 + row * box, box, box)
            fill = lighten(COLOURS["fire"], 0.75) if v == tracker.start else None
            pen.rect(r, stroke=(0.2, 0.2, 0.2), width=0.3, fill=fill)
            pen.text(r.x + box / 2, r.y + box / 2 + 1.2, str(v), size=8, align="centre")
        if tracker.start != tracker.low:
            pen.text(pw - x0, top + 4, f"start: {tracker.start}", size=7, colour=GREY,
                     align="right")
    page_note(pen, f"{tracker.name} tracker")
    return [{"page": doc.pages, "kind": "tracker", "tracker": tracker.name, "game": deck.game,
             "page_size_mm": [pw, ph], "players": players, "range": [tracker.low,
                                                                      tracker.high]}]
