"""The one-page build guide: what to print on which paper, printer settings, fold and
glue, sleeves, the order of the cuts. ``companion print guide``, and the first sheet of
``print all``, where it also lists the file's own pages and the paper each goes on
(``page_plan``: drawn into the guide once the rest of the file is laid out, issue 29 §13)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib.utils import simpleSplit

from printables import fonts
from printables.document import Document, Pen
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
        "your printer needs), print the even pages; or fold and glue (below); or print "
        "without backs and use sleeves with opaque backs. --back-style ink-saver prints "
        "backs as outlines.",
    )),
    ("Fold and glue (--backs fold)", (
        "Each card's back is printed beside its front, on one side of the sheet, the fold "
        "between them dashed: no duplex printer needed, and front and back can never be "
        "out of register. Plain 80-120 g/m2 paper: the two layers make the card.",
        "Cut around each pair on the crop marks (front and back together), fold on the "
        "dashed line with the printing outside, glue the inside all over with a glue stick "
        "or double-sided tape, right to the edges, and press flat under a book until dry.",
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


PLAN_FORM = "guide-page-plan"
PLAN_PT = 8.0
PLAN_LINE = 3.6  # mm per line of the page plan
CARD_STOCK = "card, 160-220 g/m2 (or --backs fold: plain paper)"
FOLDED = "plain paper, 80-120 g/m2 (folded and glued)"
PAPER_OF = {
    "tokens": "thick card, 200-300 g/m2 (plain paper works)",
    "pawns": "thick card, 200-300 g/m2",
    "tracker": "plain paper, 80 g/m2",
    "board": "paper, 120-160 g/m2 (tape the sheets together)",
    "guide": "plain paper, 80 g/m2",
}
WHAT = {"tokens": "Oink tokens", "pawns": "pawns", "tracker": "trackers",
        "board": "the board", "guide": "this guide"}


def guide_pages(doc: Document, paper: str, *, plan_rows: int = 0) -> list[dict[str, Any]]:
    """The build guide on one sheet of ``paper``.

    ``plan_rows`` > 0 (``print all``): room for that many lines of the file's page plan,
    a drawing (a PDF form) that ``page_plan`` fills in once the file's pages are known.
    """
    pw, ph = paper_size(paper, POSTER_PAPERS)
    pen = doc.page(pw, ph)
    pen.text(12, 18, "Table Companion: building your set", size=16, font=fonts.BOLD)
    y = 28.0
    width = (pw - 24) * MM
    # With the page plan below, the same words set a little closer so all fit the page.
    size, line_mm, gap = (8.5, 3.7, 2.0) if plan_rows else (9.0, 4.0, 3.0)
    for title, paragraphs in SECTIONS:
        pen.text(12, y, title, size=11, font=fonts.BOLD)
        y += 5.0 if plan_rows else 5.5
        for para in paragraphs:
            for line in simpleSplit(para, fonts.SANS, size, width):
                pen.text(12, y, str(line), size=size)
                y += line_mm
            y += 1.0 if plan_rows else 1.2
        y += gap
    if plan_rows:
        pen.text(12, y, "This file, page by page, and its paper", size=11, font=fonts.BOLD)
        y += 5.5
        c = pen.c
        c.saveState()
        c.translate(12 * MM, (ph - y) * MM)
        c.doForm(PLAN_FORM)
        c.restoreState()
        y += (plan_rows + 1 + len(_note_lines(pw))) * PLAN_LINE + 0.6
    page_note(pen, "build guide")
    return [{"page": doc.pages, "kind": "guide", "page_size_mm": [pw, ph], "bottom_mm": y}]


def plan_rows(runs: Sequence[dict[str, Any]], extras: Sequence[dict[str, Any]],
              blank_backs: Sequence[int] = (), fold: bool = False
              ) -> list[tuple[str, str, str]]:
    """``(pages, what, paper)`` lines of a whole printout: the guide, then each game's
    cards and accessories in the order they come. A page's blank back (a duplex job)
    goes with it. Fold-and-glue cards are two layers of plain paper."""
    cards_on = FOLDED if fold else CARD_STOCK
    blanks = set(blank_backs)
    rows: list[tuple[str, str, str]] = []
    games = [(r["game"], r["title"], r["cards"]) for r in runs]
    for e in extras:
        if e.get("kind") == "guide":
            rows.append((_pages([e["page"]], blanks), WHAT["guide"], PAPER_OF["guide"]))
    for game, title, cards in games:
        card_pages = [c["page"] for c in cards]
        card_pages += [c["back"]["page"] for c in cards if c.get("back")]
        rows.append((_span(min(card_pages), max(card_pages)), f"{title}: cards", cards_on))
        kinds: dict[str, list[int]] = {}
        for e in extras:
            if e.get("game", "mountains" if e.get("kind") == "board" else None) == game:
                kinds.setdefault(e["kind"], []).append(e["page"])
        for kind, pages in kinds.items():
            rows.append((_pages(pages, blanks), f"{title}: {WHAT.get(kind, kind)}",
                         PAPER_OF.get(kind, "plain paper, 80 g/m2")))
    return rows


def page_plan(doc: Document, paper: str, rows: Sequence[tuple[str, str, str]]) -> None:
    """Draw the page plan into the guide's placeholder (``guide_pages(plan_rows=...)``)."""
    pw, _ph = paper_size(paper, POSTER_PAPERS)
    c = doc.canvas
    # The form's origin is the plan's top-left corner; it reaches down the page.
    c.beginForm(PLAN_FORM, 0, -300 * MM, pw * MM, 10 * MM)
    pen = Pen(c, pw, 0.0)
    what_x, paper_x = 20.0, 20.0 + (pw - 24 - 20) * 0.45
    y = PLAN_PT * 0.8 / MM
    for pages, what, where in (("Pages", "What", "Print on"), *rows):
        bold = pages == "Pages"
        font = fonts.BOLD if bold else fonts.SANS
        pen.text(0, y, pages, size=PLAN_PT, font=font)
        pen.text(what_x, y, what, size=PLAN_PT, font=font)
        pen.text(paper_x, y, where, size=PLAN_PT, font=font)
        y += PLAN_LINE
    y += 0.6
    for line in _note_lines(pw):
        pen.text(0, y, line, size=PLAN_PT)
        y += PLAN_LINE
    c.endForm()


def _note_lines(page_w: float) -> list[str]:
    return [str(s) for s in simpleSplit(
        "In a double-sided file a page that is not cards has a blank back, counted with its "
        "page. Not in this file: the table mat (companion print mat --game GAME --paper a3: "
        "4 sheets; a4: 9; letter: 10), and the board on one A3 sheet (companion print "
        "board --paper a3).", fonts.SANS, PLAN_PT, (page_w - 24) * MM)]


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def _pages(pages: Sequence[int], blanks: set[int]) -> str:
    """Page numbers as ranges ("35-36, 39-40"), each with its blank back if it has one."""
    spans: list[list[int]] = []
    for p in sorted(pages):
        end = p + 1 if p + 1 in blanks else p
        if spans and p <= spans[-1][1] + 1:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([p, end])
    return ", ".join(_span(a, b) for a, b in spans)
