"""Everything that is not a card: tokens, trackers, the board, the table mat, calibration.

* Oink tokens, pawns and trackers are drawn in ``printables.pieces``: Oinks from a deck
  file's token block (Shrine's ``oinks``, SK-1), a pawn per Mountains & Rivers character,
  an HP track when the deck file has ``start_hp`` (MR-2), God Num's karma track (GN-9).
* The Mountains & Rivers board (MR-1) is drawn in ``printables.board``, tiled over sheets
  with overlap and alignment marks, or on one A3 sheet.
* The table mat is drawn in ``printables.mat`` from ``companion.tablemat`` (markers and
  zones in mm): the camera reads the same numbers, so what is printed is what it expects.
* The calibration page: a 100 mm square and duplex alignment targets with rulers.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.utils import simpleSplit

from companion.cards import DeckData
from printables import fonts
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
from printables.pieces import (
    pawn_pages,
    token_pages,
    token_spec,
    tracker_pages,
    trackers_for,
)
from printables.poster import page_note

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
    for _copy in range(opts.copies):  # --copies: a whole second set, extras included
        if spec is not None:
            pages += token_pages(doc, opts.paper, deck, spec, players)
        for tracker in trackers_for(deck):
            pages += tracker_pages(doc, opts.paper, deck, tracker, players)
        if deck.game == "mountains":
            pages += pawn_pages(doc, opts.paper, deck, players)
            pages += board_pages(doc, opts.paper)
    return pages


def extra_kinds(deck: DeckData) -> list[str]:
    """The kinds of accessory page ``game_extras`` prints for ``deck``, in its order."""
    kinds = ["tokens"] if token_spec(deck) is not None else []
    kinds += ["tracker"] if trackers_for(deck) else []
    return kinds + (["pawns", "board"] if deck.game == "mountains" else [])


def _max_players(game: str) -> int:
    try:
        from companion.registry import find_rules

        return find_rules(game).max_players
    except (ImportError, AttributeError):  # rules not installed: the largest common table
        return 6


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
