"""The rules pages after revision 3 (issue 28): each page says what changed, right after
its first paragraph (what a reader meets first; sections added at the end are for other
topics), and quotes the seed's own sentences where a ruling does."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("wuxing", "godnum", "shrine", "mountains", "gemcomplete", "common")

# The seed's sentences each page must quote (RULINGS.md rev. 3 quotes them too).
QUOTES = {
    "wuxing": [
        "go to the bottom of your player deck & must be shuffled",
        "The Infinite Dragon when played by a player it is also discarded to THE VOID while "
        "the Player absorbs all the other Element cards from the Universe Pot unless it is a "
        "draw or there is a Destructive Star.",
    ],
    "godnum": ["2-6 players.",
               "the game starts when there are more than 2 players in the room."],
    "shrine": [
        "At the beginning of a cycle of turns (from player back to the same player)",
        "the number of Oinks each player has can be hidden from other players during play",
    ],
    "mountains": [
        "(reward/deduct health/attack/defense, give primary weapons)",
        "so choose carefully!",
        "randomly selects a card from the character deck (the player cannot see the face of "
        "the card)",
        "The player decides the endpoint and the start point (on the diagonal)",
        "cannot be used in the first round. Suppose it requires its turn.",
        "When only two players remain on the board",
    ],
    "gemcomplete": [
        "The game continues with the Recovery Step of the Start Phase of the player whose "
        "Complete Declaration failed",
    ],
    "common": [],
}
RULINGS = {
    "wuxing": ["WX-8 rev. 3", "WX-9 rev. 3"],
    "godnum": ["GN-1 rev. 3", "C-10 rev. 3"],
    "shrine": ["SK-3 rev. 3", "SK-7 rev. 3"],
    "mountains": ["MR-1 rev. 3", "MR-3 rev. 3", "MR-5 rev. 3", "MR-7 rev. 3", "MR-12 rev. 3"],
    "gemcomplete": ["GC-3 rev. 3", "C-10 rev. 3"],
    "common": ["C-10 rev. 3"],
}


def _page(game: str) -> str:
    return (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("game", PAGES)
def test_what_changed_in_revision_3_comes_right_after_the_first_paragraph(game: str) -> None:
    lines = _page(game).splitlines()
    assert lines[0].startswith("# ")
    blocks = "\n".join(lines[1:]).strip().split("\n\n")
    assert not blocks[0].startswith("#"), "the page opens with a paragraph"
    assert blocks[1].startswith("## What changed in revision 3"), blocks[1][:60]
    section = "\n\n".join(blocks[1:]).split("\n## ")[0]
    for ruling in RULINGS[game]:
        assert ruling in _flat(section), (game, ruling)


@pytest.mark.parametrize("game", PAGES)
def test_the_pages_quote_the_seed_where_a_revision_3_ruling_does(game: str) -> None:
    page = _flat(_page(game))
    for quote in QUOTES[game]:
        assert quote in page, (game, quote)


def test_sk7_rev3_the_shrine_page_claims_no_more_than_holds() -> None:
    """Issue 27 point 6: "not even that works" was said of a deduction that does work."""
    page = _flat(_page("shrine"))
    assert "not even that works" not in page.replace('"not even that works"', "")
    assert "every player's **total** Oinks" in page


def test_mr1_rev3_the_page_shows_the_board_the_engine_plays() -> None:
    from companion.games.mountains import load_board
    from companion.games.mountains.marks import MARKS

    board = load_board()
    page = _page("mountains")
    rows = [x for x in page.splitlines() if x[:1].isdigit() and "   " in x][:board.size]
    for r, row in enumerate(rows, 1):
        cells = row.split()[1:1 + board.size]
        want = [MARKS[board.at(r, c).kind].mark or "." for c in range(1, board.size + 1)]
        assert cells == want, (r, cells, want)
