"""Sheet geometry as a pure function in mm (Squib's lesson): grid, margins, marks, duplex."""

from __future__ import annotations

import itertools

import pytest

from printables.faces import face_layout
from printables.geometry import (
    PRINTER_MARGIN,
    PrintError,
    Rect,
    back_of,
    card_size,
    parse_offset,
    printable_area,
    sheet_layout,
    tile_poster,
)

PAPERS = ["a4", "letter"]
CARDS = ["standard", "poker", "bridge"]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("card", CARDS)
def test_three_by_three_inside_printer_margins(paper: str, card: str) -> None:
    sheet = sheet_layout(paper, card)
    assert (sheet.cols, sheet.rows) == (3, 3)
    area = printable_area(sheet.page_w, sheet.page_h)
    w, h = card_size(card)
    for s in sheet.slots:
        assert (s.w, s.h) == (w, h)
        assert s.inside(area)
        assert s.x >= PRINTER_MARGIN and s.y >= PRINTER_MARGIN
    for a, b in itertools.combinations(sheet.slots, 2):
        assert not a.intersects(b)


@pytest.mark.parametrize("paper", PAPERS)
def test_grid_is_centred_unless_its_crop_marks_would_be_stubs(paper: str) -> None:
    """Centred on A4; on Letter, centred marks would be 2.2 mm long (issue 21 §6): the
    grid sits on the bottom printable edge and the top marks are at least 4 mm."""
    sheet = sheet_layout(paper)
    g = sheet.grid
    assert g.x == pytest.approx(sheet.page_w - g.right)
    top = [m for m in sheet.crop_marks if m.x1 == m.x2 and m.y2 < g.y]
    assert top and min(abs(m.y2 - m.y1) for m in top) >= 4.0
    if paper == "a4":
        assert g.y == pytest.approx(sheet.page_h - g.bottom)
    else:
        assert g.bottom == pytest.approx(sheet.page_h - PRINTER_MARGIN)


@pytest.mark.parametrize(("paper", "bleed"), [("a4", 0.0), ("a4", 1.0), ("letter", 0.0),
                                              ("letter", 0.9), ("a4", 3.0)])
def test_crop_marks_lie_outside_every_card_and_inside_the_printable_area(
        paper: str, bleed: float) -> None:
    sheet = sheet_layout(paper, bleed=bleed)
    assert sheet.crop_marks
    area = printable_area(sheet.page_w, sheet.page_h)
    for mark in sheet.crop_marks:
        box = mark.bounds()
        assert box.inside(area)
        for s in sheet.slots:
            assert not box.intersects(s.grow(bleed))
    # every trim line has a mark: 4 vertical and 4 horizontal lines, on two sides each
    xs = {round(m.x1, 3) for m in sheet.crop_marks if m.x1 == m.x2}
    ys = {round(m.y1, 3) for m in sheet.crop_marks if m.y1 == m.y2}
    assert xs == {round(v, 3) for s in sheet.slots for v in (s.x, s.right)}
    assert ys == {round(v, 3) for s in sheet.slots for v in (s.y, s.bottom)}


def test_bleed_spaces_cards_two_bleeds_apart() -> None:
    sheet = sheet_layout("a4", bleed=1.0)
    assert (sheet.cols, sheet.rows) == (3, 3)
    assert sheet.slots[1].x - sheet.slots[0].right == pytest.approx(2.0)
    # more bleed than the width allows: fewer columns, never cards off the page
    wide = sheet_layout("a4", bleed=3.0)
    assert wide.cols == 2
    assert all(s.grow(3.0).inside(printable_area(210, 297)) for s in wide.slots)


def test_no_crop_marks_when_asked() -> None:
    assert sheet_layout("a4", with_marks=False).crop_marks == ()


def test_note_strips_beside_the_grid_inside_the_printable_area() -> None:
    for paper in PAPERS:
        sheet = sheet_layout(paper)
        area = printable_area(sheet.page_w, sheet.page_h)
        for strip in (sheet.note, sheet.check_bar):
            assert strip.w >= 2.0 and strip.h >= 50.0
            assert strip.inside(area)
            assert not any(strip.intersects(s) for s in sheet.slots)
            assert not any(strip.intersects(m.bounds()) for m in sheet.crop_marks)


def test_long_edge_backs_mirror_x() -> None:
    sheet = sheet_layout("a4", back_mode="long-edge")
    # slot 1 (top-left) is backed at the top-right, slot 3 at the top-left
    assert sheet.backs[0] == Rect(210 - sheet.slots[0].right, sheet.slots[0].y, 63, 88)
    assert sheet.backs[0].x == pytest.approx(sheet.slots[2].x)
    assert sheet.backs[4] == sheet.slots[4]  # the centre card backs itself


def test_short_edge_backs_mirror_y() -> None:
    sheet = sheet_layout("letter", back_mode="short-edge")
    s, b = sheet.slots[0], sheet.backs[0]
    assert (b.x, b.y) == pytest.approx((s.x, 279.4 - s.bottom))
    bottom = sheet.slots[6]
    assert sheet.backs[6].y == pytest.approx(279.4 - bottom.bottom)


@pytest.mark.parametrize("mode", ["long-edge", "short-edge"])
def test_offset_moves_backs_right_and_up_as_seen_on_the_back(mode: str) -> None:
    plain = sheet_layout("a4", back_mode=mode)
    moved = sheet_layout("a4", back_mode=mode, back_offset=(1.5, -0.75))
    for a, b in zip(plain.backs, moved.backs, strict=True):
        assert b.x - a.x == pytest.approx(1.5)
        assert b.y - a.y == pytest.approx(0.75)  # Y = -0.75 means down, y grows downwards


def test_back_of_is_its_own_inverse_without_offset() -> None:
    r = Rect(12.0, 30.0, 63.0, 88.0)
    for mode in ("long-edge", "short-edge"):
        assert back_of(back_of(r, 210, 297, mode), 210, 297, mode) == r


@pytest.mark.parametrize("bad", ["a5", "A4 ", "legal", ""])
def test_unknown_paper_is_refused(bad: str) -> None:
    if bad.strip().lower() == "a4":
        assert sheet_layout(bad).cols == 3  # surrounding spaces and case are forgiven
        return
    with pytest.raises(PrintError, match="unknown paper"):
        sheet_layout(bad)


def test_a3_is_not_a_card_paper() -> None:
    with pytest.raises(PrintError, match="unknown paper 'a3'"):
        sheet_layout("a3")


@pytest.mark.parametrize("bad", ["tarot", "63x", "x88", "63*88", "20x30"])
def test_unknown_or_tiny_card_size_is_refused(bad: str) -> None:
    with pytest.raises(PrintError, match="card size"):
        sheet_layout("a4", bad)


def test_custom_card_size() -> None:
    assert card_size("70x120") == (70.0, 120.0)
    sheet = sheet_layout("a4", "70x120")
    assert (sheet.cols, sheet.rows) == (2, 2)


def test_card_that_does_not_fit_is_refused() -> None:
    with pytest.raises(PrintError, match="does not fit on a4"):
        sheet_layout("a4", "250x220")  # neither upright nor turned
    assert sheet_layout("a4", "200x150").turned  # a landscape card prints turned
    with pytest.raises(PrintError, match="does not fit on letter"):
        sheet_layout("letter", "100x275")


@pytest.mark.parametrize("offset", [(8.0, 0.0), (0.0, -12.0), (-9.0, 3.0)])
def test_offset_off_the_printable_area_is_refused(offset: tuple[float, float]) -> None:
    with pytest.raises(PrintError, match="off the printable area"):
        sheet_layout("a4", back_mode="long-edge", back_offset=offset)


def test_small_offsets_fit_on_both_papers() -> None:
    for paper in PAPERS:
        for mode in ("long-edge", "short-edge"):
            sheet_layout(paper, back_mode=mode, back_offset=(2.0, -2.0))


@pytest.mark.parametrize("bad", ["1", "1,2,3", "a,b", "nan,0", ""])
def test_bad_offset_text_is_refused(bad: str) -> None:
    with pytest.raises(PrintError, match="back offset"):
        parse_offset(bad)


def test_bad_bleed_and_back_mode_are_refused() -> None:
    with pytest.raises(PrintError, match="bleed"):
        sheet_layout("a4", bleed=-1)
    with pytest.raises(PrintError, match="back mode"):
        sheet_layout("a4", back_mode="both")


def test_narrow_cards_drop_the_corner_index_for_a_bigger_code() -> None:
    bridge = face_layout(57.15, 88.9)
    assert bridge.index.w == 0.0
    assert bridge.qr.w == pytest.approx(88.9 / 2 - 3.0)
    assert face_layout(63, 88).index.w > 3.5


def test_face_qr_is_as_large_as_the_top_half_allows() -> None:
    lay = face_layout(63, 88)
    assert lay.qr.w == pytest.approx(41.0)
    assert lay.module == pytest.approx(41 / 21)
    assert lay.qr.bottom <= 44.0  # wholly in the top half: a card covered below still reads
    # at least 2 modules of white to either side of the code inside the card
    assert lay.qr.x >= 2 * lay.module and 63 - lay.qr.right >= 2 * lay.module
    assert lay.index.right <= lay.qr.x - 2 * lay.module + 1e-9
    assert lay.band.y >= lay.qr.bottom + 2 * lay.module - 1e-9
    for card in CARDS:
        w, h = card_size(card)
        lay = face_layout(w, h)
        # >= 4.5 px per module at 1080p and >= 3 px at 720p from the standard position
        assert lay.module * 150 / 63 >= 4.5 and lay.module * 100 / 63 >= 3.0
        assert lay.qr.bottom <= h / 2 + 1e-9
        assert lay.qr.x >= 2 * lay.module + 1.5 - 1e-9
        assert lay.text.h > 15 and lay.text.bottom < h


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_tiling_covers_the_poster_with_overlap(paper: str) -> None:
    t = tile_poster(820.0, 470.0, paper, overlap=10.0)
    assert len(t.tiles) == t.rows * t.cols
    area = printable_area(t.page_w, t.page_h)
    xs = sorted({tile.window.x for tile in t.tiles})
    ys = sorted({tile.window.y for tile in t.tiles})
    w, h = t.tiles[0].window.w, t.tiles[0].window.h
    assert xs[0] == 0 and xs[-1] + w == pytest.approx(820.0)
    assert ys[0] == 0 and ys[-1] + h == pytest.approx(470.0)
    for a, b in itertools.pairwise(xs):
        assert a + w - b >= 10.0 - 1e-9
    for a, b in itertools.pairwise(ys):
        assert a + h - b >= 10.0 - 1e-9
    for tile in t.tiles:
        ox, oy = tile.origin
        assert Rect(ox, oy, tile.window.w, tile.window.h).inside(area)


def test_a_poster_that_fits_gets_one_sheet() -> None:
    t = tile_poster(280.0, 330.0, "a3")
    assert len(t.tiles) == 1


@pytest.mark.parametrize("name", ["Deck A", "Player deck", "Metal-Water Legion"])
def test_a_backs_deck_name_sits_on_a_plain_pill_not_on_the_lattice(name: str) -> None:
    """The 6 pt deck name at the foot of a back is legible: on both sides of the text, inside
    its pill, the back is one flat tint (the diamond lattice would show there otherwise)."""
    from pdf_probe import render

    from printables import fonts
    from printables.document import Document
    from printables.faces import BACK_LABEL_PT, back_label_box, draw_back
    from printables.geometry import MM, Rect

    doc = Document("t")
    pen = doc.page(80, 100)
    trim = Rect(5, 5, 63, 88)
    draw_back(pen, trim, "Gem Complete Deck A", name, (0.12, 0.22, 0.36))
    dpi = 600
    img = render(doc.finish(), dpi)[1].astype(int)
    px = dpi / 25.4
    pill = back_label_box(trim, name)
    tw = fonts.width(name, fonts.SANS, BACK_LABEL_PT) / MM
    tx = pill.x + (pill.w - tw) / 2
    mid = pill.y + pill.h / 2
    for x0, x1 in ((pill.x + 1.2, tx - 0.3), (tx + tw + 0.3, pill.right - 1.2)):
        region = img[round((mid - 1.0) * px):round((mid + 1.0) * px),
                     round(x0 * px):round(x1 * px)]
        assert region.size and int(region.max()) - int(region.min()) <= 10, (name, x0)


@pytest.mark.parametrize("game", ["wuxing", "godnum", "shrine", "mountains", "gemcomplete"])
def test_lettered_corner_badges_tell_different_cards_apart(game: str) -> None:
    """In a fanned hand only the corner shows: cards with different names that are marked
    by a lettered badge (God Num's Chaos and Burden, Gem Complete's Pebble Shower,
    Pickpocket and Prospector...) never carry the same letters, and a badge holds at most
    two characters."""
    from companion.cards import load_deck
    from printables.faces import badge_mark, badge_marks

    faces = load_deck(game).faces
    marks = badge_marks(faces)
    by_mark: dict[str, set[str]] = {}
    for f in faces:
        if f.id in marks:
            assert badge_mark(f) == marks[f.id]
            assert 1 <= len(marks[f.id]) <= 2
            by_mark.setdefault(marks[f.id], set()).add(f.name)
    assert all(len(names) == 1 for names in by_mark.values()), by_mark
    if game == "godnum":
        # GN-3 rev. 2: Burden replaced Cleanse, so Chaos no longer needs a second letter.
        assert {marks[f.id] for f in faces if f.name in ("Chaos", "Burden")} == {"C", "B"}
