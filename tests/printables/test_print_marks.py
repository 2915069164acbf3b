"""Issue 29 §13: crop marks are long enough to lay a ruler on, with backs as without,
on A4 and on Letter. Measured on the drawing: pdfium's bounds of every thin stroke on the
first sheet that runs along a card's cut line outside the cards."""

from __future__ import annotations

import random

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from printables.geometry import MIN_MARK, Rect, sheet_layout
from printables.jobs import build
from printables.options import PrintOptions

MM = 72 / 25.4


def drawn_marks(pdf: bytes, page_no: int, cards: list[Rect]) -> list[tuple[str, float, float]]:
    """``(axis, position mm, length mm)`` of each crop mark drawn on the page: a thin
    straight stroke outside every card, on the line of a card's edge."""
    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[page_no - 1]
        h = page.get_height()
        out = []
        for obj in page.get_objects(max_depth=3):
            if obj.type != raw.FPDF_PAGEOBJ_PATH:
                continue
            left, bottom, right, top = obj.get_bounds()
            box = Rect(left / MM, (h - top) / MM, (right - left) / MM, (top - bottom) / MM)
            thin, long = min(box.w, box.h), max(box.w, box.h)
            if thin > 0.6 or any(box.intersects(c.grow(-0.5)) for c in cards):
                continue
            # pdfium's bounds carry the stroke's width on every side
            if box.w < box.h:
                x = box.x + box.w / 2
                if any(abs(x - v) < 0.05 for c in cards for v in (c.x, c.right)):
                    out.append(("x", x, long - thin))
            else:
                y = box.y + box.h / 2
                if any(abs(y - v) < 0.05 for c in cards for v in (c.y, c.bottom)):
                    out.append(("y", y, long - thin))
        page.close()
        return out
    finally:
        doc.close()


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("backs", ["none", "long-edge", "short-edge"])
def test_crop_marks_are_full_marks_with_backs_too(paper: str, backs: str) -> None:
    pdf, m, _ = build("shrine", PrintOptions(paper=paper, backs=backs, extras=False),
                      random.Random(4))
    rows = [c for c in m["cards"] if c["page"] == 1]
    cards = [Rect(c["x_mm"], c["y_mm"], c["w_mm"], c["h_mm"]) for c in rows]
    marks = drawn_marks(pdf, 1, cards)
    assert marks
    assert all(length >= MIN_MARK for _, _, length in marks), sorted(marks)
    # every cut line is marked: each card edge, across and down
    for axis, edges in (("x", {v for c in cards for v in (c.x, c.right)}),
                        ("y", {v for c in cards for v in (c.y, c.bottom)})):
        found = [p for a, p, _ in marks if a == axis]
        assert all(any(abs(p - v) < 0.1 for p in found) for v in edges), (axis, found)

def test_letter_duplex_marks_match_the_sheet_without_backs() -> None:
    """Letter's 3 rows leave 5.4 mm of printable paper: the grid moves down so the top
    marks are 4.9 mm, as without backs; the backs, mirrored, stay printable."""
    plain = sheet_layout("letter")
    for mode in ("long-edge", "short-edge"):
        duplex = sheet_layout("letter", back_mode=mode)
        assert duplex.slots == plain.slots
        assert duplex.crop_marks == plain.crop_marks
        assert all(b.inside(duplex.printable) for b in duplex.backs)
    # An offset that needs the room below the grid still prints; the marks give way.
    moved = sheet_layout("letter", back_mode="long-edge", back_offset=(0.0, -2.0))
    assert all(b.inside(moved.printable) for b in moved.backs)
    assert all(abs(ln.x2 - ln.x1) + abs(ln.y2 - ln.y1) >= MIN_MARK / 2
               for ln in moved.crop_marks)
