"""The printed PDF read back: every QR code decodes to its manifest row, exactly once; true
card size; backs behind fronts after the flip and the offset; no identity on backs."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from pdf_probe import Read, dark_runs, decode, line_centres, render

from companion import codec
from companion.registry import GAMES
from companion.runs import RunBook, run_from_manifest
from printables.faces import BACK_BORDER, face_layout
from printables.geometry import Rect, back_of
from printables.jobs import build
from printables.options import PrintOptions

DPI = 100  # 1.95 mm modules are ~7.7 px: plenty for decoding, quick to render
PAPERS = ["a4", "letter"]


@pytest.fixture(scope="module")
def jobs() -> dict[tuple[str, str], tuple[bytes, dict[str, Any]]]:
    out = {}
    rng = random.Random(5)
    for paper in PAPERS:
        for game in GAMES:
            pdf, manifest, _ = build(game, PrintOptions(paper=paper, backs="long-edge"), rng)
            out[(game, paper)] = (pdf, manifest)
    return out


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", list(GAMES))
def test_every_qr_decodes_once_and_matches_the_manifest(
        jobs: dict[tuple[str, str], tuple[bytes, dict[str, Any]]], game: str, paper: str
) -> None:
    pdf, manifest = jobs[(game, paper)]
    cards = manifest["cards"]
    assert len({c["serial"] for c in cards}) == len(cards)
    front_pages = sorted({c["page"] for c in cards})
    back_pages = sorted({c["back"]["page"] for c in cards})
    images = render(pdf, DPI, front_pages + back_pages)
    seen: Counter[str] = Counter()
    reads: dict[str, tuple[int, Read]] = {}
    for p in front_pages:
        for r in decode(images[p], DPI):
            seen[r.text] += 1
            reads[r.text] = (p, r)
    expected = {c["payload"] for c in cards}
    assert set(seen) == expected, f"missing {sorted(expected - set(seen))[:5]}"
    assert all(n == 1 for n in seen.values()), "a payload was printed twice"
    lay = face_layout(*manifest["card_size_mm"])
    for c in cards:
        page, r = reads[c["payload"]]
        assert page == c["page"]
        assert codec.decode(r.text).serial == c["serial"]
        # the code sits where the manifest puts the card, at the size the layout says
        assert r.cx_mm == pytest.approx(c["x_mm"] + lay.qr.x + lay.qr.w / 2, abs=1.0)
        assert r.cy_mm == pytest.approx(c["y_mm"] + lay.qr.y + lay.qr.h / 2, abs=1.0)
        assert r.width_mm == pytest.approx(lay.qr.w, abs=1.0)
    for p in back_pages:  # backs carry no identity: nothing to read face down
        assert decode(images[p], DPI) == []
    # the first sheet: cards at true size where the manifest says, backs right behind them
    first = [c for c in cards if c["page"] == front_pages[0]]
    c0 = first[0]
    for w, h in _borders(images[front_pages[0]], first, DPI):
        assert (w, h) == (pytest.approx(c0["w_mm"], abs=0.3), pytest.approx(c0["h_mm"], abs=0.3))
    pw, ph = manifest["page_size_mm"]
    for c in first:
        behind = back_of(_panel(images[c["back"]["page"]], c["back"], DPI), pw, ph, "long-edge")
        assert (behind.x, behind.y) == (pytest.approx(c["x_mm"], abs=0.3),
                                        pytest.approx(c["y_mm"], abs=0.3))
    # the referee accepts exactly these serials (C-1)
    book = RunBook([run_from_manifest(manifest)])
    assert {book.resolve(t).serial for t in seen} == {c["serial"] for c in cards}


def test_manifest_rows_say_where_each_card_is(
        jobs: dict[tuple[str, str], tuple[bytes, dict[str, Any]]]) -> None:
    _, m = jobs[("wuxing", "a4")]
    assert m["paper"] == "a4" and m["card_size_mm"] == [63.0, 88.0]
    assert m["qr"] == {"version": 1, "error_correction": "M", "size_mm": 41.0,
                       "module_mm": 1.952, "modules": 21}
    row = m["cards"][0]
    assert set(row) >= {"serial", "face", "payload", "page", "slot", "side", "x_mm", "y_mm",
                        "w_mm", "h_mm", "back", "deck", "set"}
    assert (row["page"], row["slot"], row["side"]) == (1, 1, "front")
    assert row["back"]["page"] == 2 and row["back"]["side"] == "back"
    # WX-2: 44 player cards and 24 universe cards, the universe deck told apart
    decks = Counter(c["deck"] for c in m["cards"])
    assert decks == {"player": 44, "universe": 24}
    # fronts on odd pages, backs on the following even page
    assert all(c["page"] % 2 == 1 and c["back"]["page"] == c["page"] + 1 for c in m["cards"])


def test_all_writes_every_game_into_one_file_with_distinct_runs() -> None:
    _pdf, m, runs = build("all", PrintOptions(backs="short-edge", extras=False),
                         random.Random(2))
    assert [r.game for r, _ in runs] == list(GAMES)
    assert len({r.run_id for r, _ in runs}) == len(GAMES)
    assert len(m["runs"]) == len(GAMES)
    assert m["pages"] % 2 == 0  # duplex: every front has its back page
    firsts = [rm["cards"][0]["page"] for rm in m["runs"]]
    assert all(p % 2 == 1 for p in firsts)  # each game starts on a fresh sheet


def _borders(img: Any, sheet_rows: list[dict[str, Any]], dpi: float) -> list[tuple[float, float]]:
    """Measured (width, height) in mm of each card on a page, from its printed cut lines."""
    px = dpi / 25.4
    out = []
    for c in sheet_rows:
        x, y, w, h = c["x_mm"], c["y_mm"], c["w_mm"], c["h_mm"]
        row = img[round((y + 1.5) * px), :]
        xs = [v for v in line_centres(row, dpi) if x - 1 < v < x + w + 1]
        col = img[:, round((x + 1.0) * px)]
        ys = [v for v in line_centres(col, dpi) if y - 1 < v < y + h + 1]
        assert len(xs) == 2 and len(ys) == 2, (xs, ys)
        assert xs[0] == pytest.approx(x, abs=0.3) and ys[0] == pytest.approx(y, abs=0.3)
        out.append((xs[1] - xs[0], ys[1] - ys[0]))
    return out


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("card", "size"), [("standard", (63.0, 88.0)),
                                            ("poker", (63.5, 88.9)),
                                            ("bridge", (57.15, 88.9))])
def test_rendered_cards_are_true_size(paper: str, card: str, size: tuple[float, float]) -> None:
    pdf, m, _ = build("shrine", PrintOptions(paper=paper, card=card, extras=False),
                      random.Random(3))
    dpi = 300
    img = render(pdf, dpi, [1])[1]
    # the page itself is rendered at true size (to the pixel)
    assert abs(img.shape[0] - m["page_size_mm"][1] / 25.4 * dpi) <= 1
    assert abs(img.shape[1] - m["page_size_mm"][0] / 25.4 * dpi) <= 1
    rows = [c for c in m["cards"] if c["page"] == 1]
    assert len(rows) == 9
    for w, h in _borders(img, rows, dpi):
        assert w == pytest.approx(size[0], abs=0.3)
        assert h == pytest.approx(size[1], abs=0.3)


def _panel(img: Any, back: dict[str, Any], dpi: float) -> Rect:
    """The back's coloured panel measured on the render, grown by the white border."""
    px = dpi / 25.4
    x, y, w, h = back["x_mm"], back["y_mm"], back["w_mm"], back["h_mm"]
    # a row and a column through the plain panel colour, clear of the diamond pattern
    row = img[round((y + 12) * px), :]
    col = img[:, round((x + 4.5) * px)]
    level = (255.0 + float(img[round((y + 12) * px), round((x + 4.5) * px)])) / 2
    xr = [r for r in dark_runs(row, dpi, level) if r[1] - r[0] > w / 2 and x - 5 < r[0] < x + 8]
    yr = [r for r in dark_runs(col, dpi, level) if r[1] - r[0] > h / 2 and y - 5 < r[0] < y + 8]
    assert len(xr) == 1 and len(yr) == 1, (xr, yr)
    (x0, x1), (y0, y1) = xr[0], yr[0]
    return Rect(x0, y0, x1 - x0, y1 - y0).grow(BACK_BORDER)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("mode", "offset"), [("long-edge", (0.0, 0.0)),
                                              ("long-edge", (1.5, -0.8)),
                                              ("short-edge", (-1.2, 2.0))])
def test_every_back_lies_behind_its_front_after_the_flip_and_offset(
        paper: str, mode: str, offset: tuple[float, float]) -> None:
    pdf, m, _ = build("wuxing", PrintOptions(paper=paper, backs=mode, back_offset=offset,
                                             extras=False), random.Random(4))
    dpi = 150
    rows = [c for c in m["cards"] if c["page"] == 1]
    imgs = render(pdf, dpi, [1, 2])
    sizes = _borders(imgs[1], rows, dpi)  # fronts where the manifest says, at true size
    assert all(w == pytest.approx(63, abs=0.3) for w, _ in sizes)
    pw, ph = m["page_size_mm"]
    dx, dy = offset
    for c in rows:
        seen = _panel(imgs[2], c["back"], dpi)
        # undo the offset, then turn the sheet over: the back must cover the front exactly
        unshifted = seen.shift(-dx, dy)
        behind = back_of(unshifted, pw, ph, mode)
        assert behind.x == pytest.approx(c["x_mm"], abs=0.3)
        assert behind.y == pytest.approx(c["y_mm"], abs=0.3)
        assert behind.w == pytest.approx(63.0, abs=0.3)
        assert behind.h == pytest.approx(88.0, abs=0.3)
