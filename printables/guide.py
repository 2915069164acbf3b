"""The one-page build guide: what to print on which paper, printer settings, sleeves,
the order of the cuts. ``companion print guide``, and the first sheet of ``print all``."""

from __future__ import annotations

from typing import Any

from reportlab.lib.utils import simpleSplit

from printables import fonts
from printables.document import Document
from printables.geometry import MM, paper_size
from printables.poster import POSTER_PAPERS, page_note

SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("What to print on which paper", (
        "Cards: matte card of 160-220 g/m2 (60-80 lb cover), or plain 80-100 g/m2 paper "
        "slipped into sleeves in front of an old playing card.",
        "Oinks, pawns: card of 200-300 g/m2 (the thicker the better for tokens).",
        "Board and table mat: paper of 120-160 g/m2; 80 g/m2 is fine under a clear sheet.",
        "Trackers, this guide, the calibration page: plain 80 g/m2 paper.",
    )),
    ("Printer settings", (
        "Print at 100% / actual size, never 'fit to page'; check the 50 mm bar on any sheet "
        "with a ruler.",
        "Double-sided: print the calibration page first (companion print calibration "
        "--backs long-edge) and use the offset it gives you (--back-offset X,Y). Sheets "
        "that are not cards have a blank back, so a whole file prints double-sided.",
        "No duplex printer: print the odd pages, put the stack back in the tray (the way "
        "your printer needs), print the even pages; or print without backs and use sleeves "
        "with opaque backs. --back-style ink-saver prints backs as outlines.",
    )),
    ("Sleeves", (
        "Standard cards (63 x 88 mm) fit standard card-game sleeves of 66 x 91 mm; poker "
        "size (63.5 x 88.9) the same; bridge size (57 x 89) 59 x 92 mm sleeves. Sleeve "
        "every card of a deck alike, or the sleeved ones can be told apart face down.",
    )),
    ("Cutting order", (
        "1. Cut the sheet's long cut lines first, edge to edge along the crop marks, then "
        "the short ones across each strip. A craft knife, a steel ruler and a cutting mat "
        "or a guillotine; scissors wander.",
        "2. With bleed, cut on the crop marks: the colour runs past them. Without bleed, cut "
        "on the thin grey line around each card.",
        "3. Oinks: every grey line runs across the sheet: cut all lines one way, then the "
        "strips the other way. Pawns: cut around each, fold on the dashed lines, glue the "
        "two pictures back to back.",
        "4. Board and mat: trim each sheet on its grey line where it overlaps its neighbour, "
        "lay it over the neighbour crosses on crosses, tape on the back.",
        "5. Optional: round the corners with a 3 mm corner punch.",
    )),
    ("Your cards are numbered", (
        "Each card carries a code and a serial; the referee accepts exactly the cards of the "
        "print runs registered with this printout. Print or order a file once: two cards "
        "with one serial are refused as copies. For a second set, print again (new serials) "
        "or use --copies.",
    )),
)


def guide_pages(doc: Document, paper: str) -> list[dict[str, Any]]:
    """The build guide on one sheet of ``paper``."""
    pw, ph = paper_size(paper, POSTER_PAPERS)
    pen = doc.page(pw, ph)
    pen.text(12, 18, "Table Companion: building your set", size=16, font=fonts.BOLD)
    y = 28.0
    width = (pw - 24) * MM
    for title, paragraphs in SECTIONS:
        pen.text(12, y, title, size=11, font=fonts.BOLD)
        y += 5.5
        for para in paragraphs:
            for line in simpleSplit(para, fonts.SANS, 9, width):
                pen.text(12, y, str(line), size=9)
                y += 4.0
            y += 1.2
        y += 3.0
    page_note(pen, "build guide")
    return [{"page": doc.pages, "kind": "guide", "page_size_mm": [pw, ph], "bottom_mm": y}]
