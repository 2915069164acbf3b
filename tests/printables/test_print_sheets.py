"""Issue 21 §1-§2: every accessory page of a duplex job has its own blank back; the board
and the cards share one set of symbols; the legend is whole; every tile carries its
element's symbol; the overlap printed is the real one."""

from __future__ import annotations

import random
import re

import numpy as np
import pypdfium2 as pdfium
import pytest
from pdf_probe import page_texts, render, text_of

from companion.games.mountains import load_board
from companion.games.mountains.marks import MARKS, element_colour, rgb
from printables import art
from printables.board import TILE_BY_PAPER, TILE_MM
from printables.document import BLANK
from printables.jobs import build
from printables.options import PrintOptions


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [tuple(round(v, 1) for v in doc[i].get_size()) for i in range(len(doc))]
    finally:
        doc.close()


def _check_duplex(pdf: bytes, manifest: dict) -> None:
    """Every page that is neither a card front nor a card back is followed by a blank back
    of its own size; card fronts are on odd pages; blank backs carry nothing else."""
    texts = page_texts(pdf)
    sizes = page_sizes(pdf)
    runs = manifest["runs"]
    fronts = {c["page"] for r in runs for c in r["cards"]}
    backs = {c["back"]["page"] for r in runs for c in r["cards"]}
    assert all(p % 2 == 1 for p in fronts) and all(p % 2 == 0 for p in backs)
    assert len(texts) % 2 == 0
    p = 1
    while p <= len(texts):
        if p in fronts:
            assert p + 1 in backs, f"card sheet on page {p} has no back"
            p += 2
            continue
        assert p not in backs
        assert BLANK not in texts[p - 1], f"page {p} is a blank back of nothing"
        assert p + 1 <= len(texts), f"page {p} has no back"
        back = texts[p]
        assert BLANK in back, f"page {p + 1} (the back of page {p}) is not blank: {back[:80]!r}"
        assert sizes[p] == sizes[p - 1], f"the blank back of page {p} has another size"
        assert f"back of page {p}" in back
        p += 2


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("what", ["wuxing", "godnum", "shrine", "mountains", "gemcomplete"])
def test_every_accessory_page_of_a_duplex_job_has_its_own_blank_back(what: str,
                                                                     paper: str) -> None:
    pdf, m, _ = build(what, PrintOptions(paper=paper, backs="long-edge"), random.Random(2))
    _check_duplex(pdf, m)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_all_games_short_edge_and_copies_keep_blank_backs(paper: str) -> None:
    pdf, m, _ = build("all", PrintOptions(paper=paper, backs="short-edge"), random.Random(2))
    _check_duplex(pdf, m)
    pdf, m, _ = build("shrine", PrintOptions(paper=paper, backs="long-edge", copies=2,
                                             players=6), random.Random(2))
    _check_duplex(pdf, m)


def test_a_job_without_backs_has_no_blank_pages() -> None:
    pdf, _, _ = build("mountains", PrintOptions(paper="letter"), random.Random(2))
    assert not any(BLANK in t for t in page_texts(pdf))


def test_cards_and_board_show_the_same_mark_for_each_deck() -> None:
    """A player on a challenge tile ("VS") draws from the deck whose cards say "VS"; the
    chance tile and cards say "?"; the colours are the tiles' colours."""
    for kind in ("challenge", "chance"):
        assert art.KIND_MARKS[kind] == MARKS[kind].mark
        assert art.COLOURS[kind] == rgb(MARKS[kind].colour)
    pdf, m, _ = build("mountains", PrintOptions(), random.Random(2))
    texts = page_texts(pdf)
    for deck in ("challenge", "chance", "weapon"):
        pages = {c["page"] for c in m["cards"] if c["deck"] == deck}
        for p in pages:
            assert MARKS[deck].mark in texts[p - 1].split()


@pytest.mark.parametrize("paper", ["a3", "a4", "letter"])
def test_board_legend_is_whole_and_every_tile_has_its_element_symbol(paper: str) -> None:
    pdf, m, _ = build("board", PrintOptions(paper=paper))
    dpi = 100
    px = dpi / 25.4
    images = render(pdf, dpi)
    sheets = m["extras"]
    poster_h = max(s["window_mm"][1] + s["window_mm"][3] for s in sheets)
    # The lowest sheets end at the poster's foot: nothing is cut at the bottom edge of
    # their window (a clipped legend line would leave ink on the clip line).
    for s in sheets:
        wx, wy, ww, wh = s["window_mm"]
        if wy + wh < poster_h - 1e-6:
            continue
        ox, oy = s["origin_mm"]
        img = images[s["page"]]
        band = img[round((oy + wh - 1.5) * px):round((oy + wh) * px),
                   round(ox * px):round((ox + ww) * px)]
        assert band.min() > 200, f"something is cut off at the foot of sheet {s['sheet']}"
    text = text_of(pdf)
    assert "Red arrows: one-way passages" in text and "'from ...')." in text
    # Every coloured tile has its element's symbol in its lower left corner.
    t = TILE_BY_PAPER.get(paper, TILE_MM)
    board = load_board()
    seen = set()
    for s in sheets:
        wx, wy, ww, wh = s["window_mm"]
        ox, oy = s["origin_mm"]
        img = images[s["page"]]
        for tile in board:
            if not tile.colour:
                continue
            # symbol box in poster mm, then page mm
            x0, y0 = 2.0 + (tile.col - 1) * t + 1.6, 2.0 + tile.row * t - 5.0
            if not (wx <= x0 and x0 + 3.4 <= wx + ww and wy <= y0 and y0 + 3.4 <= wy + wh):
                continue
            px0, py0 = ox + x0 - wx, oy + y0 - wy
            patch = img[round(py0 * px):round((py0 + 3.4) * px),
                        round(px0 * px):round((px0 + 3.4) * px)]
            ink = np.dot(rgb(element_colour(tile.colour)), [0.299, 0.587, 0.114]) * 255
            assert patch.min() < ink + 40, f"tile {tile.id} has no {tile.colour} symbol"
            seen.add(tile.id)
    assert seen == {tile.id for tile in board if tile.colour}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_overlap_printed_is_the_real_overlap(paper: str) -> None:
    for what in ("board", "mat"):
        pdf, m, _ = build(what, PrintOptions(paper=paper, mat_game="wuxing", players=4))
        sheets = m["extras"]
        real = sorted({round(v) for v in sheets[0]["overlap_mm"]["across"]
                       + sheets[0]["overlap_mm"]["down"]})
        printed = re.findall(r"overlap by ([0-9\-]+) mm", text_of(pdf))
        assert printed, f"{what} on {paper}: no overlap printed"
        for words in printed:
            assert {int(v) for v in words.split("-")} <= set(real), (words, real)
        assert "overlap 10 mm" not in text_of(pdf).lower() or 10 in real


def test_the_board_takes_two_letter_sheets() -> None:
    _, m, _ = build("board", PrintOptions(paper="letter"))
    assert len(m["extras"]) == 2
    _, m, _ = build("board", PrintOptions(paper="a4"))
    assert len(m["extras"]) == 2


def test_no_ruling_ids_or_zone_ids_where_players_look() -> None:
    """C-8: nothing printed for the table (cards, tokens, trackers, pawns, board, guide)
    carries a ruling id ("(SK-1)", "MR-10") or a zone id ("seat:3")."""
    pdf, _, _ = build("all", PrintOptions(players=4), random.Random(5))
    text = text_of(pdf)
    assert not re.findall(r"\b(?:WX|GN|SK|MR|GC|C)-\d", text)
    assert "seat:" not in text


def test_corner_indexes_stay_inside_the_safe_zone() -> None:
    """Both corner indexes (a two-digit value too) keep 3 mm from the trim edge: the first
    20 mm of the card's left and right 3 mm strips carry no ink."""
    from printables.faces import SAFE, face_layout

    lay = face_layout(63.0, 88.0)
    assert lay.index.x >= SAFE and lay.index2.right <= 63.0 - SAFE
    pdf, m, _ = build("godnum", PrintOptions(), random.Random(1))
    two_digit = [c for c in m["cards"] if c["face"].endswith("-10")]
    assert two_digit
    card = two_digit[0]
    dpi = 300
    px = dpi / 25.4
    img = render(pdf, dpi, [card["page"]])[card["page"]]
    y0, y1 = round((card["y_mm"] + 1.0) * px), round((card["y_mm"] + 20.0) * px)
    for x0 in (card["x_mm"] + 0.4, card["x_mm"] + card["w_mm"] - SAFE + 0.1):
        strip = img[y0:y1, round(x0 * px):round((x0 + SAFE - 0.5) * px)]
        assert strip.min() > 200, f"ink in the safe zone of {card['serial']}"
