"""Beyond cards: the table mat (ArUco markers where companion.tablemat says), the board,
tokens, trackers and the calibration page."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest
from pdf_probe import line_centres, render, text_of

from companion import tablemat
from companion.cards import load_deck
from companion.games.mountains import load_board
from printables.extras import SQUARE, calibration_targets
from printables.geometry import PrintError, printable_area
from printables.jobs import build
from printables.mat import zone_label
from printables.options import PrintOptions
from printables.pieces import token_spec


def _detect(img: np.ndarray) -> list[tuple[int, np.ndarray]]:
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    det = cv2.aruco.ArucoDetector(d, cv2.aruco.DetectorParameters())
    corners, ids, _ = det.detectMarkers(img)
    if ids is None:
        return []
    return [(int(i), c.reshape(4, 2)) for i, c in zip(ids.flatten(), corners, strict=True)]


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_mat_markers_are_detected_where_the_camera_expects_them(paper: str) -> None:
    pdf, m, _ = build("mat", PrintOptions(paper=paper, mat_game="wuxing", players=4))
    pages = m["extras"]
    assert [p["kind"] for p in pages] == ["mat"] * len(pages)
    dpi = 60
    px = 25.4 / dpi
    images = render(pdf, dpi)
    found: dict[int, list[np.ndarray]] = {}
    for p in pages:
        for marker_id, corners in _detect(images[p["page"]]):
            wx, wy = p["window_mm"][:2]
            ox, oy = p["origin_mm"]
            mx, my = p["mat_origin_mm"]
            # page px -> page mm -> poster mm -> mat mm
            mat = corners * px - np.array([ox, oy]) + np.array([wx, wy]) - np.array([mx, my])
            found.setdefault(marker_id, []).append(mat)
    assert set(found) == {0, 1, 2, 3}
    for marker in tablemat.MARKERS:
        expected = np.array(marker.corners())
        best = min(float(np.abs(f - expected).max()) for f in found[marker.id])
        assert best < 1.0, f"marker {marker.id} is {best:.2f} mm off"


def test_mat_prints_every_zone_of_the_layout() -> None:
    pdf, _, _ = build("mat", PrintOptions(paper="a3", mat_game="shrine", players=6))
    text = text_of(pdf)
    for z in tablemat.zones("shrine", 6):
        # every zone is printed with its name in players' words (C-8)
        assert zone_label("shrine", z.name).heading in text
    for internal in ("seat:", "lot", "pot", "SK-", "GN-", "MR-", "(WX"):
        assert internal not in text
    with pytest.raises(Exception, match="2-6 players"):
        build("mat", PrintOptions(paper="a3", mat_game="shrine", players=7))


def test_board_on_one_a3_sheet_or_tiled_with_overlap() -> None:
    _, single, _ = build("board", PrintOptions(paper="a3"))
    assert len(single["extras"]) == 1 and single["extras"][0]["sheets"] == 1
    pdf, tiled, _ = build("board", PrintOptions(paper="a4"))
    tiles = tiled["extras"]
    assert len(tiles) >= 2
    board = load_board()
    for t in tiles:
        _, _, w, h = t["window_mm"]
        ox, oy = t["origin_mm"]
        area = printable_area(*t["page_size_mm"])
        assert ox >= area.x and ox + w <= area.right + 1e-6
        assert oy >= area.y and oy + h <= area.bottom + 1e-6
    xs = sorted({t["window_mm"][0] for t in tiles})
    if len(xs) > 1:
        assert xs[0] + tiles[0]["window_mm"][2] - xs[1] >= 10.0 - 1e-6
    text = text_of(pdf)
    for tile in board:  # every tile of the data file is printed with its id
        assert tile.id in text
        if tile.exit:
            assert f"stairs to {tile.exit}" in text and f"from {tile.id}" in text


def test_mountains_print_includes_hp_tracker_and_board() -> None:
    _, m, _ = build("mountains", PrintOptions(paper="letter"))
    kinds = [e["kind"] for e in m["extras"]]
    assert kinds[0] == "tracker" and m["extras"][0]["tracker"] == "HP"
    assert "board" in kinds


def test_shrine_oink_tokens_ten_of_each_element_per_player() -> None:
    spec = token_spec(load_deck("shrine"))
    assert spec is not None and spec.per_player == 10  # SK-1
    _, m, _ = build("shrine", PrintOptions(players=3))
    tokens = [e for e in m["extras"] if e["kind"] == "tokens"]
    assert sum(e["value"] for e in tokens) == 10 * 4 * 3  # in 1s and 5s


def test_godnum_karma_tracker_per_player() -> None:
    _, m, _ = build("godnum", PrintOptions(players=4))
    trackers = [e for e in m["extras"] if e["kind"] == "tracker"]
    assert [(t["tracker"], t["players"]) for t in trackers] == [("Karma", 4)]


def test_duplex_jobs_keep_card_fronts_on_odd_pages_after_extras() -> None:
    _, m, _ = build("all", PrintOptions(backs="long-edge"), random.Random(3))
    assert m["pages"] % 2 == 0
    for run in m["runs"]:
        assert all(c["page"] % 2 == 1 for c in run["cards"])


def test_no_extras_prints_cards_only() -> None:
    _, m, _ = build("shrine", PrintOptions(extras=False))
    assert m["extras"] == []


def test_calibration_backs_mirror_the_front_targets() -> None:
    for mode in ("long-edge", "short-edge"):
        for (fx, fy), (bx, by) in calibration_targets("letter", mode):
            if mode == "long-edge":
                assert (bx, by) == pytest.approx((215.9 - fx, fy))
            else:
                assert (bx, by) == pytest.approx((fx, 279.4 - fy))


def test_calibration_with_an_offset_moves_the_grids_like_card_backs() -> None:
    _, m, _ = build("calibration", PrintOptions(paper="a4", backs="short-edge",
                                                back_offset=(1.0, 0.5)))
    front, back = m["extras"]
    assert back["flip"] == "short-edge"
    for (fx, fy), (bx, by) in zip(front["targets_mm"], back["rulers_mm"], strict=True):
        assert (bx, by) == pytest.approx((fx + 1.0, 297.0 - fy - 0.5))


def test_calibration_offset_off_the_page_is_refused() -> None:
    with pytest.raises(PrintError, match="calibration grids off"):
        build("calibration", PrintOptions(backs="long-edge", back_offset=(30.0, 0.0)))


def _dark_centre(profile: np.ndarray, lo: float, hi: float, dpi: float) -> float:
    px = dpi / 25.4
    a, b = round(lo * px), round(hi * px)
    dark = np.clip(200.0 - profile[a:b].astype(float), 0, None)
    return float((dark * (np.arange(a, b) + 0.5)).sum() / dark.sum()) / px


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_square_is_100_mm_and_back_grids_sit_behind_the_targets(paper: str) -> None:
    pdf, m, _ = build("calibration", PrintOptions(paper=paper))
    front, back = m["extras"]
    dpi = 300
    px = dpi / 25.4
    imgs = render(pdf, dpi)
    x, y, w, h = front["square_mm"]
    row = imgs[front["page"]][round((y + 25) * px), :]
    col = imgs[front["page"]][:, round((x + 25) * px)]
    xs = [v for v in line_centres(row, dpi) if x - 1 < v < x + w + 1]
    ys = [v for v in line_centres(col, dpi) if y - 1 < v < y + h + 1]
    assert xs[-1] - xs[0] == pytest.approx(SQUARE, abs=0.3)
    assert ys[-1] - ys[0] == pytest.approx(SQUARE, abs=0.3)
    pw = front["page_size_mm"][0]
    for (fx, fy), (bx, by) in zip(front["targets_mm"], back["rulers_mm"], strict=True):
        # the bold zero lines of each grid cross exactly behind the front target (long edge)
        img = imgs[back["page"]]
        zx = _dark_centre(img[round((by + 3.5) * px), :], bx - 0.6, bx + 0.6, dpi)
        zy = _dark_centre(img[:, round((bx + 3.5) * px)], by - 0.6, by + 0.6, dpi)
        assert (pw - zx, zy) == pytest.approx((fx, fy), abs=0.3)


def test_poster_paper_must_be_known() -> None:
    with pytest.raises(PrintError, match="unknown paper"):
        build("board", PrintOptions(paper="a5"))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("what", ["shrine", "godnum", "mountains", "mat", "calibration"])
def test_nothing_is_printed_in_the_5_mm_printer_margin(paper: str, what: str) -> None:
    pdf, _, _ = build(what, PrintOptions(paper=paper, backs="long-edge"), random.Random(1))
    dpi = 50
    edge = int(5.0 / 25.4 * dpi) - 1  # whole pixels lying inside the 5 mm margin
    for page, img in render(pdf, dpi).items():
        for strip in (img[:edge, :], img[-edge:, :], img[:, :edge], img[:, -edge:]):
            assert strip.min() >= 250, f"{what} page {page} prints in the margin"


def test_stairs_arrows_leave_the_s_mark_clear_and_point_at_the_exit() -> None:
    """The board's stairs (MR-1 data) are drawn from outside the entrance's 8 mm S disc
    to just before the exit's centre, along the line between the two tiles; the legend
    says how to read them."""
    from printables.board import TILE_MM, stairs_segment

    board = load_board()
    stairs = [t for t in board if t.exit]
    assert stairs
    for tile in stairs:
        ex = board.tile(tile.exit)
        x1, y1, x2, y2 = stairs_segment(tile, ex, 0.0, 0.0)
        sx, sy = (tile.col - 0.5) * TILE_MM, (tile.row - 0.5) * TILE_MM + 1  # the S disc
        bx, by = (ex.col - 0.5) * TILE_MM, (ex.row - 0.5) * TILE_MM
        assert np.hypot(x1 - sx, y1 - sy) > 8.0 + 1.0
        assert 0 < np.hypot(x2 - bx, y2 - by) < TILE_MM / 4  # ends inside the exit tile
        # and it heads from the entrance towards the exit
        assert np.hypot(x2 - sx, y2 - sy) > np.hypot(x1 - sx, y1 - sy)
    pdf, _, _ = build("board", PrintOptions(paper="a3"))
    assert "Dashed arrows: stairs" in text_of(pdf)


def test_board_prints_the_marks_and_words_the_screen_uses() -> None:
    """Issue 11, point 7: one module (``companion.games.mountains.marks``) decides each tile
    kind's mark and legend word for the paper and the screen; challenge and chance differ;
    the sharpen tiles of MR-1 rev. 2 and the blunt and armoury tiles of rev. 3 are on the
    printed board with their legend."""
    from companion.games.mountains.marks import MARKS

    board = load_board()
    pdf, _, _ = build("board", PrintOptions(paper="a3"))
    text = text_of(pdf)
    for kind, words in board.kinds.items():
        mark = MARKS[kind]
        assert f"{mark.word}: {words}" in text
        if mark.mark:
            assert mark.mark in text
    assert MARKS["challenge"].mark != MARKS["chance"].mark
    sharpen = [t.id for t in board if t.kind == "sharpen"]
    assert len(sharpen) == 4 and text.count("sharpen") >= len(sharpen) + 1
    # MR-1 rev. 3: the blunt and armoury tiles too, each with its mark and legend line.
    for kind in ("blunt", "armoury"):
        tiles = [t.id for t in board if t.kind == kind]
        assert len(tiles) == 4 and text.count(kind) >= len(tiles) + 1, kind
        assert f"{MARKS[kind].word}: {board.kinds[kind]}" in text
