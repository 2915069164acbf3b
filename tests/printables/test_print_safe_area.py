"""Issue 29 §11: everything a player reads on a card, face or back, is at least 3.2 mm
inside the trim and at least 7 pt, on every card of every game, at home (standard
63 x 88 mm sheets) and at DriveThruCards (poker 63.5 x 88.9 mm with bleed). Measured on
the PDF itself: pdfium's box of every glyph and its font size."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.registry import GAMES
from printables.geometry import Rect
from printables.jobs import build
from printables.options import PrintOptions
from printables.pod import SERVICES, export
from tests.printables.pdf_probe import Char, chars

SAFE_MM = 3.2
MIN_PT = 7.0


def _misses(cs: list[Char], trim: Rect, where: str) -> list[str]:
    bad = []
    for ch in cs:
        edge = min(ch.x0 - trim.x, ch.y0 - trim.y, trim.right - ch.x1, trim.bottom - ch.y1)
        if edge < SAFE_MM - 1e-6 or ch.size < MIN_PT - 1e-6:
            bad.append(f"{where}: {ch.text!r} {ch.size:.2f} pt, {edge:.2f} mm from the trim")
    return bad


@pytest.mark.parametrize("game", list(GAMES))
def test_dtc_cards_keep_their_words_inside_the_safe_line(game: str, tmp_path: Path) -> None:
    svc = SERVICES["dtc"]
    res = export(game, tmp_path, "dtc", PrintOptions(), None, random.Random(1))
    pdf = next(p for p in res.files if p.suffix == ".pdf").read_bytes()
    trim = Rect(svc.bleed, svc.bleed, *svc.trim)
    pages = chars(pdf)
    bad: list[str] = []
    for page, cs in pages.items():
        bad += _misses(cs, trim, f"page {page}")
    assert len(pages) == 2 * len(res.runs[0].cards)
    assert all(pages.values())  # every face and every back has words on it
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("game", list(GAMES))
def test_home_sheet_cards_keep_their_words_inside_the_safe_line(game: str) -> None:
    pdf, m, _ = build(game, PrintOptions(backs="long-edge", extras=False), random.Random(2))
    pages = chars(pdf)
    slots: dict[int, list[Rect]] = {}
    for row in m["cards"]:
        for side in (row, row["back"]):
            slots.setdefault(side["page"], []).append(
                Rect(side["x_mm"], side["y_mm"], side["w_mm"], side["h_mm"]))
    bad: list[str] = []
    checked = 0
    for page, rects in slots.items():
        grid = Rect(min(r.x for r in rects), min(r.y for r in rects), 0, 0)
        grid = Rect(grid.x, grid.y, max(r.right for r in rects) - grid.x,
                    max(r.bottom for r in rects) - grid.y)
        for ch in pages[page]:
            cx, cy = (ch.x0 + ch.x1) / 2, (ch.y0 + ch.y1) / 2
            home = [r for r in rects if r.x <= cx <= r.right and r.y <= cy <= r.bottom]
            if not home:
                # Only the true-size note and the bar's label lie off the cards.
                assert not (grid.x < cx < grid.right and grid.y < cy < grid.bottom), \
                    f"page {page}: {ch.text!r} between the cards"
                continue
            checked += 1
            bad += _misses([ch], home[0], f"page {page}")
    assert checked > 100 * len(m["cards"]) // 10
    assert not bad, "\n".join(bad[:20])
