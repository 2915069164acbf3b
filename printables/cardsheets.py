"""Sheets of cards for one print run: fronts, mirrored backs, crop marks, manifest rows.

Driven entirely by the deck data (``companion.cards``) and the run (``companion.runs``):
a new game's deck file prints with no code here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from companion.cards import DeckData
from companion.runs import PrintRun
from printables.art import BACK_COLOURS, hex_rgb
from printables.document import Document, Pen, true_size_note
from printables.faces import draw_back, draw_face
from printables.geometry import MM, Line, Rect, Sheet, crop_marks


def _pos(r: Rect) -> dict[str, float]:
    return {"x_mm": round(r.x, 3), "y_mm": round(r.y, 3), "w_mm": round(r.w, 3),
            "h_mm": round(r.h, 3)}


def back_tints(deck: DeckData) -> dict[str, tuple[float, float, float]]:
    """One back colour per deck of the game, or the deck file's ``colour``."""
    out = {}
    for i, (deck_id, info) in enumerate(deck.decks.items()):
        c = info.attrs.get("colour")
        out[deck_id] = hex_rgb(c) if isinstance(c, str) else BACK_COLOURS[i % len(BACK_COLOURS)]
    return out


def draw_run(doc: Document, deck: DeckData, run: PrintRun, sheet: Sheet,
             back_style: str = "full") -> list[dict[str, Any]]:
    """Append the run's sheets to ``doc``; return the manifest rows of its cards.

    Each front page of a duplex job is followed by its back page. Raises ``PrintError`` if a
    face's text cannot fit its card.
    """
    tints = back_tints(deck)
    rows: list[dict[str, Any]] = []
    base = run.manifest()["cards"]
    per = sheet.per_page
    n_sheets = (len(run.cards) + per - 1) // per
    for s in range(n_sheets):
        chunk = list(enumerate(run.cards[s * per:(s + 1) * per]))
        label = f"{deck.title} | run {run.run_id} | sheet {s + 1}/{n_sheets}"
        pen = doc.page(sheet.page_w, sheet.page_h, sided=True)
        front_page = doc.pages
        for slot, card in chunk:
            with _upright(pen, sheet, sheet.slots[slot], +90) as (card_pen, trim):
                draw_face(card_pen, trim, card.face, deck.decks.get(card.deck),
                          card.payload, card.serial, sheet.bleed, tint=tints.get(card.deck),
                          copy=card.set_no)
        if sheet.crop_marks:
            used = tuple(_cut_box(sheet, slot) for slot, _ in chunk)
            for mark in crop_marks(used, sheet.bleed, sheet.printable):
                pen.line(mark, width=0.2)
        back_page = None
        if sheet.back_mode == "fold":  # each back beside its front, the fold between
            back_page = front_page
            for slot, card in chunk:
                _place_back(doc, pen, sheet, sheet.backs[slot], deck, card.deck,
                            tints[card.deck], back_style)
                front = sheet.slots[slot]
                fold = Line(front.right, front.y, front.right, front.bottom)
                # The fold is not a cut: the face's grey cut line gives way to a dashed one.
                pen.line(fold, colour=(1, 1, 1), width=0.4)
                pen.line(fold, colour=(0.25, 0.25, 0.25), width=0.25, dash=(2.0, 1.5))
        true_size_note(pen, sheet.note, sheet.check_bar, f"{label} | front")
        if sheet.backs and sheet.back_mode != "fold":
            pen = doc.page(sheet.page_w, sheet.page_h, sided=True)
            back_page = doc.pages
            for slot, card in chunk:
                _place_back(doc, pen, sheet, sheet.backs[slot], deck, card.deck,
                            tints[card.deck], back_style)
            true_size_note(pen, sheet.note, sheet.check_bar, f"{label} | back")
        for slot, _card in chunk:
            row = dict(base[s * per + slot])
            row.update({"page": front_page, "slot": slot + 1, "side": "front",
                        **_pos(sheet.slots[slot])})
            row["back"] = (
                {"page": back_page, "slot": slot + 1, "side": "back", **_pos(sheet.backs[slot])}
                if back_page is not None else None
            )
            rows.append(row)
    return rows


def _cut_box(sheet: Sheet, slot: int) -> Rect:
    """What is cut out around slot ``slot``: the card, or the card and its folded back."""
    r = sheet.slots[slot]
    return Rect(r.x, r.y, 2 * r.w, r.h) if sheet.back_mode == "fold" else r


def _place_back(doc: Document, pen: Pen, sheet: Sheet, at: Rect, deck: DeckData, deck_id: str,
                tint: tuple[float, float, float], style: str = "full") -> None:
    """Draw a deck's back once as a PDF form and place it wherever it is needed."""
    name = f"back-{deck.game}-{deck_id}-{sheet.card_w:g}x{sheet.card_h:g}-{style}"
    c = pen.c
    if name not in doc.forms:
        info = deck.decks[deck_id]
        c.beginForm(name, 0, 0, sheet.card_w * MM, sheet.card_h * MM)
        draw_back(Pen(c, sheet.card_w, sheet.card_h), Rect(0, 0, sheet.card_w, sheet.card_h),
                  info.back, info.name, tint, style, deck_id)
        c.endForm()
        doc.forms.add(name)
    # A turned card's top is on the left of the front; after a long-edge flip it is on
    # the right of the back, after a short-edge flip still on the left.
    turn = -90 if sheet.back_mode == "long-edge" else 90
    with _upright(pen, sheet, at, turn) as (_card_pen, trim):
        c.saveState()
        c.translate(trim.x * MM, (_card_pen.page_h - trim.bottom) * MM)
        c.doForm(name)
        c.restoreState()


@contextmanager
def _upright(pen: Pen, sheet: Sheet, slot: Rect, turn: int) -> Iterator[tuple[Pen, Rect]]:
    """A pen and trim box to draw an upright card into ``slot``: the page's own pen, or,
    on a turned sheet, a pen rotated by ``turn`` degrees (90: the card's top on the left)
    whose page is the card itself."""
    if not sheet.turned:
        yield pen, slot
        return
    c = pen.c
    c.saveState()
    if turn > 0:  # counter-clockwise: card x runs up the page, its top edge on the left
        c.translate(slot.right * MM, (pen.page_h - slot.bottom) * MM)
    else:  # clockwise: its top edge on the right
        c.translate(slot.x * MM, (pen.page_h - slot.y) * MM)
    c.rotate(turn)
    try:
        yield Pen(c, sheet.card_w, sheet.card_h), Rect(0, 0, sheet.card_w, sheet.card_h)
    finally:
        c.restoreState()

