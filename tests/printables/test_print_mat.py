"""The printed table mat says, in each zone, what goes there and how (issue 26 point 4).

C-6 rev. 3: the words players read say "show it in your place first" wherever a card
leaves a deck; C-8: no zone ids or seat numbers on paper; C-9 rev. 3: a zone for every
place in play the camera watches. The words are set at print size and checked on a real
render: they stay inside their zone and leave the middle, where a card lies, bare paper.
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from pdf_probe import render, text_of

import companion_cli
from companion import tablemat
from companion.errors import BadSetup
from printables import fonts
from printables.document import Document
from printables.geometry import PrintError
from printables.jobs import build
from printables.mat import (
    BODY_PT,
    FIRST,
    HEADING_PT,
    MARGIN,
    PAD,
    MatPlan,
    draw_mat,
    label_band,
    plan,
    readers,
    zone_label,
)
from printables.options import PrintOptions

TABLES = [(g, n) for g in tablemat.games()
          for n in range(tablemat.player_range(g)[0], tablemat.player_range(g)[1] + 1)]
LARGEST = [(g, tablemat.player_range(g)[1]) for g in tablemat.games()]
# What players must never read on the mat (C-8): zone ids, seat numbers, ruling ids.
INTERNAL = re.compile(r"seat:|locus:|discard:|\buniverse\b|\bvoid\b|\blot\b|Player \d|"
                      r"\b(?:WX|GN|SK|MR|GC|C)-\d")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _one_page(mat: MatPlan) -> bytes:
    """The whole mat drawn on one page of its own size (no seams to tape)."""
    doc = Document("mat")
    draw_mat(doc.page(*mat.size), mat)
    return doc.finish()


def test_the_words_say_where_to_show_a_card_first() -> None:
    """The examples of issue 26: the Void, the pot, a seat with and without names."""
    assert str(zone_label("wuxing", "void")) == (
        "The Void — Show your card in your place first, then put it here.")
    pot = zone_label("wuxing", "universe")
    assert pot.heading == "The pot" and pot.body.endswith(
        "Show your card in your place first, then push it onto the pot.")
    assert zone_label("godnum", "pot").body == (
        "Show your card in your place first, then push it onto the pot.")
    assert str(zone_label("wuxing", "seat:2")) == "Your place — Show every card here first."
    assert zone_label("wuxing", "seat:1").note == FIRST  # who sits where, without a number
    named = zone_label("wuxing", "seat:1", ["Ana", "Ben"])
    assert str(named) == "Ana's place — Show every card here first."
    assert zone_label("gemcomplete", "discard:2", ["Ana", "Ben"]).heading == (
        "Ben's discard pile")
    assert zone_label("gemcomplete", "locus:1").heading == "Your Locus"
    assert zone_label("shrine", "lot").heading == "Cards up for bid"
    with pytest.raises(PrintError, match="no words for its zone 'board'"):
        zone_label("mountains", "board")


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_every_zone_has_words_that_fit_it_at_print_size(game: str, players: int) -> None:
    mat = plan(game, players)
    assert [z.name for z in mat.zones] == [z.name for z in tablemat.zones(game, players)]
    for z in mat.zones:
        label, block = mat.labels[z.name], mat.blocks[z.name]
        assert not INTERNAL.search(str(label)), (z.name, str(label))
        assert block.size(fonts.BOLD) >= HEADING_PT[1] and block.size(fonts.SANS) >= BODY_PT[1]
        for side in readers(z):
            width = z.h if side in ("left", "right") else z.w
            for line in block.lines:
                assert fonts.width(line.text, line.font, line.size) * 25.4 / 72 <= (
                    width - 2 * PAD), (z.name, line.text)
            band = label_band(z, block, side)
            assert band.x >= z.x - 1e-6 and band.right <= z.x + z.w + 1e-6
            assert band.y >= z.y - 1e-6 and band.bottom <= z.y + z.h + 1e-6
        # what the words leave free still holds a card upright, for each reader
        depth = z.w if z.side in ("left", "right") else z.h
        bands = len(readers(z)) * (PAD + block.height + 1.5)
        assert depth - bands >= tablemat.CARD_HEIGHT, (z.name, depth, bands)


@pytest.mark.parametrize(("game", "players"), [*LARGEST, ("wuxing", 4)])
def test_a_render_shows_the_words_inside_their_zone_and_the_middle_bare(
        game: str, players: int) -> None:
    mat = plan(game, players)
    pdf = _one_page(mat)
    text = _flat(text_of(pdf))
    dpi = 150
    px = dpi / 25.4
    img = render(pdf, dpi)[1]

    def box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        return img[round((MARGIN + y0) * px):round((MARGIN + y1) * px),
                   round((MARGIN + x0) * px):round((MARGIN + x1) * px)]

    for z in mat.zones:
        label = mat.labels[z.name]
        for words in (label.heading, label.body, label.note):
            assert _flat(words) in text, (z.name, words)
        shared = z.side == ""
        assert text.count(label.heading) >= (2 if shared else 1)  # both long edges read it
        bands = [label_band(z, mat.blocks[z.name], s) for s in readers(z)]
        for b in bands:
            assert box(b.x, b.y, b.right, b.bottom).min() < 120, (z.name, "no words printed")
        # the zone's inside, less its bands: bare paper (a card lies there; C-9 removal
        # needs the mat seen bare where a card was)
        inner = np.ones(box(z.x + 2, z.y + 2, z.x + z.w - 2, z.y + z.h - 2).shape, bool)
        for b in bands:
            y0, y1 = round((b.y - z.y - 2) * px), round((b.bottom - z.y - 2) * px)
            x0, x1 = round((b.x - z.x - 2) * px), round((b.right - z.x - 2) * px)
            inner[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = False
        inside = box(z.x + 2, z.y + 2, z.x + z.w - 2, z.y + z.h - 2)
        assert inside[inner].min() >= 245, (z.name, "ink in the card's room")
        # nothing the zone prints leaves its outline
        for strip in (box(z.x + 1.5, z.y - 3.5, z.x + z.w - 1.5, z.y - 1.5),
                      box(z.x + 1.5, z.y + z.h + 1.5, z.x + z.w - 1.5, z.y + z.h + 3.5),
                      box(z.x - 3.5, z.y + 1.5, z.x - 1.5, z.y + z.h - 1.5),
                      box(z.x + z.w + 1.5, z.y + 1.5, z.x + z.w + 3.5, z.y + z.h - 1.5)):
            if strip.size:
                assert strip.min() >= 245, (z.name, "ink outside the zone")
    assert not INTERNAL.search(text)


def _detect(img: np.ndarray) -> dict[int, np.ndarray]:
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    det = cv2.aruco.ArucoDetector(d, cv2.aruco.DetectorParameters())
    corners, ids, _ = det.detectMarkers(img)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.flatten(), corners, strict=True)}


@pytest.mark.parametrize(("game", "players"), LARGEST)
def test_printed_mat_of_every_game_has_its_words_and_markers_where_the_camera_looks(
        game: str, players: int) -> None:
    """The command's real output (A3 sheets): every zone's words, and the four markers
    found by OpenCV on the rendered sheets where ``companion.tablemat`` puts them."""
    pdf, m, _ = build("mat", PrintOptions(paper="a3", mat_game=game, players=players))
    text = _flat(text_of(pdf))
    pages = m["extras"]
    assert {z["zone"] for z in pages[0]["zones"]} == {
        z.name for z in tablemat.zones(game, players)}
    for z in pages[0]["zones"]:
        assert z["heading"] in text and _flat(z["words"]) in text
    assert not INTERNAL.search(text)
    dpi = 60
    found: dict[int, list[np.ndarray]] = {}
    images = render(pdf, dpi)
    for p in pages:
        for marker_id, corners in _detect(images[p["page"]]).items():
            wx, wy = p["window_mm"][:2]
            ox, oy = p["origin_mm"]
            mx, my = p["mat_origin_mm"]
            mat = corners * 25.4 / dpi - np.array([ox, oy]) + np.array([wx, wy]) - np.array(
                [mx, my])
            found.setdefault(marker_id, []).append(mat)
    assert set(found) == {0, 1, 2, 3}
    for marker in tablemat.MARKERS:
        best = min(float(np.abs(f - np.array(marker.corners())).max())
                   for f in found[marker.id])
        assert best < 1.0, f"marker {marker.id} is {best:.2f} mm off"


def test_names_say_whose_place_and_pile_each_is(tmp_path: Path) -> None:
    out = tmp_path / "mat.pdf"
    assert companion_cli.main(["print", "mat", "--game", "gemcomplete", "--names",
                               "Ana, Ben", "--paper", "a3", "--out", str(out),
                               "--no-register"]) == 0
    text = _flat(text_of(out.read_bytes()))
    for words in ("Ana's place", "Ben's place", "Ana's Locus", "Ben's discard pile",
                  "Each player sits at the place with their name."):
        assert words in text
    assert "Your place" not in text and FIRST not in text
    without = _flat(text_of(build("mat", PrintOptions(paper="a3", mat_game="wuxing",
                                                       players=3))[0]))
    assert "Your place" in without and FIRST in without


def test_names_must_match_the_table_and_differ() -> None:
    with pytest.raises(PrintError, match="2 names given for a mat of 3 players"):
        build("mat", PrintOptions(mat_game="wuxing", players=3, names=("Ana", "Ben")))
    with pytest.raises(BadSetup, match="look the same"):
        build("mat", PrintOptions(mat_game="wuxing", names=("Ana", "ANA")))
    _, m, _ = build("mat", PrintOptions(paper="a3", mat_game="shrine",
                                        names=("Ana", "Ben", "Cy")))
    assert len([z for z in m["extras"][0]["zones"] if z["zone"].startswith("seat:")]) == 3
