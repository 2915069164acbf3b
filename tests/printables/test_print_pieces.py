"""Issue 21 §5: Oinks in 1s and 5s on shared cut lines, a pawn per Mountains character,
an HP track past 20, ``all --players N`` for every N, and ``--copies`` copying extras."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pdf_probe import page_texts, render

from companion.cards import load_deck
from companion.registry import GAMES, find_rules
from printables.art import colour
from printables.jobs import build, plan_runs
from printables.options import PrintOptions
from printables.pieces import denominations, token_spec


def test_each_players_oinks_are_a_five_and_ones_worth_exactly_their_share() -> None:
    spec = token_spec(load_deck("shrine"))
    assert spec is not None and spec.per_player == 10  # SK-1
    assert sorted(denominations(10)) == [1, 1, 1, 1, 1, 5]
    assert all(sum(denominations(n)) == n for n in range(1, 40))
    _, m, _ = build("shrine", PrintOptions(players=3))
    sheets = [e for e in m["extras"] if e["kind"] == "tokens"]
    for element in spec.elements:
        assert sum(s["by_element"][element] for s in sheets) == 10 * 3
    assert sum(s["count"] for s in sheets) == 6 * len(spec.elements) * 3


def test_oink_squares_share_their_cut_lines() -> None:
    """Neighbouring squares touch: one straight grey line between them, no gap of paper
    to cut twice. Measured on the render: the tint runs right up to the line."""
    pdf, m, _ = build("shrine", PrintOptions(players=2))
    page = next(e for e in m["extras"] if e["kind"] == "tokens")["page"]
    dpi = 150
    img = render(pdf, dpi, [page])[page]
    px = dpi / 25.4
    # the first row of squares starts 30 mm down; sample 1 mm inside it, above the marks
    row = img[round(31 * px), :].astype(int)
    dark = row < 245  # tinted or inked: no white between squares
    first, last = np.argmax(dark), len(dark) - np.argmax(dark[::-1])
    assert dark[first:last].all(), "white paper between two squares"
    assert (last - first) / px == pytest.approx(9 * 20.0, abs=1.0)  # 9 squares of 20 mm


def test_a_pawn_per_character_in_its_colour() -> None:
    pdf, m, _ = build("mountains", PrintOptions(players=2))
    (pawns,) = [e for e in m["extras"] if e["kind"] == "pawns"]
    characters = [f for f in load_deck("mountains").faces if f.kind == "character"]
    assert pawns["pawns"] == [f.name for f in characters]
    text = page_texts(pdf)[pawns["page"] - 1]
    for f in characters:
        assert f.name in text
    img = render(pdf, 50, [pawns["page"]])[pawns["page"]]
    # every character's ink is on the page (its pawn's panels)
    for f in characters:
        grey = float(np.dot(colour(f.element or ""), [0.299, 0.587, 0.114]) * 255)
        assert np.any(np.abs(img.astype(float) - grey) < 3), f.name


def test_the_hp_track_runs_past_20() -> None:
    pdf, m, _ = build("mountains", PrintOptions(players=4))
    (hp,) = [e for e in m["extras"] if e["kind"] == "tracker"]
    assert hp["range"][1] >= 30
    assert "30" in page_texts(pdf)[hp["page"] - 1].split()


@pytest.mark.parametrize("players", range(1, 10))
def test_print_all_takes_any_table_size(players: int) -> None:
    """Each game prints for the table size nearest N it can take."""
    runs = plan_runs(list(GAMES), PrintOptions(players=players), random.Random(players))
    assert [d.game for d, _ in runs] == list(GAMES)


def test_print_all_for_seven_records_each_games_table() -> None:
    _, m, _ = build("all", PrintOptions(players=7, extras=False), random.Random(1))
    got = {r["game"]: r["players"] for r in m["runs"]}
    for game in GAMES:
        rules = find_rules(game)
        assert got[game] == min(max(7, rules.min_players), rules.max_players)
    with pytest.raises(Exception, match="2-2 players"):
        build("gemcomplete", PrintOptions(players=7))  # one game: still refused by name


def test_copies_copy_the_extras_too() -> None:
    _, one, _ = build("mountains", PrintOptions(players=2), random.Random(1))
    _, two, _ = build("mountains", PrintOptions(players=2, copies=2), random.Random(1))
    kinds = [e["kind"] for e in one["extras"]]
    assert sorted(e["kind"] for e in two["extras"]) == sorted(kinds * 2)


def test_ink_saver_backs_use_a_fraction_of_the_ink() -> None:
    def ink(style: str) -> float:
        pdf, m, _ = build("shrine", PrintOptions(backs="long-edge", back_style=style),
                          random.Random(1))
        page = m["cards"][0]["back"]["page"]
        return float((255 - render(pdf, 40, [page])[page].astype(float)).sum())

    assert ink("ink-saver") < ink("full") / 5
    with pytest.raises(Exception, match="back style"):
        build("shrine", PrintOptions(backs="long-edge", back_style="sparkly"))


def test_the_build_guide_is_one_page_and_opens_the_whole_set() -> None:
    for paper in ("a4", "letter"):
        pdf, m, _ = build("guide", PrintOptions(paper=paper))
        (guide,) = m["extras"]
        assert m["pages"] == 1 and guide["bottom_mm"] < guide["page_size_mm"][1] - 20
        text = page_texts(pdf)[0]
        for words in ("g/m2", "sleeves", "Cutting order", "100%"):
            assert words in text
    _, m, _ = build("all", PrintOptions(backs="long-edge", extras=True), random.Random(1))
    assert m["extras"][0]["kind"] == "guide" and m["extras"][0]["page"] == 1


@pytest.mark.parametrize("bleed", [2.0, 3.0])
def test_letter_with_bleed_turns_the_grid_to_fit_six_cards(bleed: float) -> None:
    from pdf_probe import decode

    from printables.faces import face_layout
    from printables.geometry import sheet_layout

    sheet = sheet_layout("letter", bleed=bleed, back_mode="long-edge")
    assert sheet.turned and sheet.per_page == 6
    assert sheet_layout("a4", bleed=bleed).per_page >= 6  # never fewer by turning
    pdf, m, _ = build("shrine", PrintOptions(paper="letter", bleed=bleed, backs="long-edge"),
                      random.Random(1))
    lay = face_layout(63.0, 88.0)
    qx, qy = lay.qr.centre
    dpi = 150
    pages = sorted({c["page"] for c in m["cards"]})[:2]
    images = render(pdf, dpi, pages)
    for page in pages:
        reads = {r.text: r for r in decode(images[page], dpi)}
        rows = [c for c in m["cards"] if c["page"] == page]
        assert set(reads) == {c["payload"] for c in rows}
        for c in rows:
            # turned counter-clockwise: the card's top is on the left of its slot
            assert c["w_mm"] == 88.0 and c["h_mm"] == 63.0
            r = reads[c["payload"]]
            assert r.cx_mm == pytest.approx(c["x_mm"] + qy, abs=1.0)
            assert r.cy_mm == pytest.approx(c["y_mm"] + c["h_mm"] - qx, abs=1.0)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_fold_and_glue_puts_each_back_beside_its_front(paper: str) -> None:
    from pdf_probe import decode

    pdf, m, _ = build("gemcomplete", PrintOptions(paper=paper, backs="fold"), random.Random(1))
    assert m["cards_per_page"] == 4 and b"/Duplex" not in pdf
    dpi = 100
    first = m["cards"][0]["page"]
    img = render(pdf, dpi, [first])[first]
    reads = decode(img, dpi)
    rows = [c for c in m["cards"] if c["page"] == first]
    assert {r.text for r in reads} == {c["payload"] for c in rows}
    for c in rows:
        back = c["back"]
        assert back["page"] == first  # same side of the same sheet
        assert back["x_mm"] == pytest.approx(c["x_mm"] + c["w_mm"])  # the fold between
        assert back["y_mm"] == pytest.approx(c["y_mm"])
        for r in reads:  # no code on a back
            assert not (back["x_mm"] < r.cx_mm < back["x_mm"] + back["w_mm"]
                        and back["y_mm"] < r.cy_mm < back["y_mm"] + back["h_mm"])
        # the back is printed: its panel is dark where a blank sheet would be white
        px = dpi / 25.4
        cx, cy = back["x_mm"] + back["w_mm"] / 2, back["y_mm"] + 20
        assert img[round(cy * px), round(cx * px)] < 150


def test_the_guide_explains_fold_and_glue_and_which_page_goes_on_which_paper() -> None:
    """Issue 29 §13: fold-and-glue in words a newcomer can follow, and in ``print all``
    the file's own pages (blank backs counted with their page) each with its paper."""
    import re

    pdf, _, _ = build("guide", PrintOptions(paper="letter"))
    text = " ".join(page_texts(pdf)[0].split())
    for words in ("Fold and glue (--backs fold)", "fold on the dashed line",
                  "glue the inside", "never be out of register"):
        assert words in text, words
    for backs, cards_on in (("long-edge", "card, 160-220 g/m2"),
                            ("fold", "plain paper, 80-120 g/m2 (folded and glued)")):
        pdf, m, _ = build("all", PrintOptions(paper="letter", backs=backs), random.Random(2))
        plan = " ".join(page_texts(pdf)[0].split())
        plan = plan[plan.index("page by page"):]
        assert "Pages What Print on" in plan
        for run in m["runs"]:
            pages = [c["page"] for c in run["cards"]]
            pages += [c["back"]["page"] for c in run["cards"] if c["back"]]
            row = f"{min(pages)}-{max(pages)} {run['title']}: cards {cards_on}"
            assert row in plan, row
        kinds = {(e["kind"], e.get("game")): e["page"] for e in m["extras"]}
        tracker = kinds[("tracker", "godnum")]
        span = f"{tracker}-{tracker + 1}" if backs == "long-edge" else f"{tracker}"
        assert re.search(rf"\b{span} God Num: trackers plain paper, 80 g/m2", plan), plan
        assert "Oink tokens thick card" in plan
        assert "Rivers: the board paper, 120-160 g/m2" in plan
        assert "table mat" in plan and "companion print mat" in plan
        guide = m["extras"][0]
        assert guide["kind"] == "guide" and guide["bottom_mm"] < guide["page_size_mm"][1] - 12
