"""Which side each seat played: the thing a player takes to the table that the others may
not have, named as the game's rules page names it (issue 30 §4).

- God Num: the seat's **legion** ("Metal-Water Legion"), bound by the first card it shows
  or fixed in the lobby (GN-2).
- Mountains & Rivers: the seat's **character** ("Xi Bian"), picked blind (MR-3).
- Gem Complete: the seat's **deck** ("Deck A"), bound by its first scanned card or fixed
  in the lobby (GN-2 rev. 2, C-10).
- WuXing and Shrine: nothing differs between seats. WuXing deals one shuffled player deck
  evenly to everybody (WX-2); Shrine auctions one standard deck to all (SK-1). Their
  ``sides`` are empty and ``SAME`` says why.

A seat that never bound its side (a God Num player eliminated before showing a card) is
named ``UNBOUND``; the figures leave it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import Setup
from companion.errors import BadSetup

UNBOUND = ""
SIDE_WORD: Mapping[str, str] = {"godnum": "legion", "mountains": "character",
                                "gemcomplete": "deck"}
SAME: Mapping[str, str] = {
    "wuxing": "every player plays from the one shuffled player deck, dealt evenly (WX-2)",
    "shrine": "every player bids for lots of the one standard deck, from the same Oinks "
              "(SK-1)",
}

# What a designer must know to read a side's figure.
NOTE: Mapping[str, str] = {
    "gemcomplete": "Deck A and Deck B print the same 40 cards (GC-1) and differ only in "
                   "their backs, so a gap between them can only come from the seats that "
                   "held them",
}


def _deck_name(setup: Setup, deck: str | None) -> str:
    if not deck:
        return UNBOUND
    known = setup.deck.decks.get(deck)
    return known.name if known is not None else deck


def _face_name(setup: Setup, face: str | None) -> str:
    if not face:
        return UNBOUND
    for f in setup.deck.faces:
        if f.id == face:
            return f.name
    return face


def sides(game: str, setup: Setup, state: Any) -> tuple[str, ...]:
    """One side's name per seat (``UNBOUND`` for a seat not bound yet), or ``()`` for a
    game whose seats all play the same (``SAME``) or a game this module does not know.
    Raises ``BadSetup`` when ``state`` does not have one entry per seat of ``setup``."""
    if not isinstance(setup, Setup):
        raise BadSetup(f"sides needs the table's Setup, got {type(setup).__name__}")
    if game not in SIDE_WORD:
        return ()
    seats = {"godnum": "legions", "mountains": "players", "gemcomplete": "sides"}[game]
    rows = getattr(state, seats, None)
    if not isinstance(rows, tuple) or len(rows) != len(setup.players):
        raise BadSetup(f"a {game} state with one {SIDE_WORD[game]} per seat of "
                       f"{len(setup.players)} expected, got {rows!r:.80}")
    if game == "godnum":
        return tuple(_deck_name(setup, r.deck) for r in rows)
    if game == "gemcomplete":
        return tuple(_deck_name(setup, r.deck_id) for r in rows)
    return tuple(_face_name(setup, r.character) for r in rows)
