"""How the Mountains & Rivers board looks, decided once (issue 11, point 7).

The printed board (``printables.board``), the printed cards (``printables.faces``: the
challenge and chance cards carry their tile's mark) and the web view (``view.board_view``)
all take each tile kind's mark, colour and legend word from here, and each quadrant's
colour, so the screen, the paper, the cards and the rules page show one set of symbols.
Marks are plain ASCII so any font draws them; colours are ``#rrggbb``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mark:
    """A tile kind's mark (drawn on the tile), colour and legend word. What the kind does
    is the board's data (its ``kinds`` texts, C-5)."""

    kind: str
    mark: str
    colour: str
    word: str
    disc: bool  # drawn in a filled disc (tiles that draw a card, and stairs)


MARKS: dict[str, Mark] = {m.kind: m for m in (
    Mark("plain", "", "#607d8b", "plain", False),
    Mark("blessing", "+1", "#2e7d32", "blessing", False),
    Mark("hazard", "-1", "#c62828", "hazard", False),
    Mark("sharpen", "+D", "#6a1b9a", "sharpen", False),
    Mark("blunt", "-D", "#4527a0", "blunt", False),  # MR-1 rev. 3, the mirror of sharpen
    Mark("armoury", "A", "#455a64", "armoury", True),  # MR-1 rev. 3: draws a weapon
    Mark("weapon", "W", "#37474f", "weapon", True),
    Mark("challenge", "VS", "#ad1457", "challenge", True),
    Mark("chance", "?", "#ef6c00", "chance", True),
    Mark("stairs", "S", "#5d4037", "stairs", True),
)}

# The decks a tile draws from (MR-9): their cards carry the tile's mark and colour on
# the front and the back, so a player on a "?" tile draws from the deck marked "?".
DECK_KINDS: dict[str, str] = {"weapon": "weapon", "challenge": "challenge", "chance": "chance"}


def deck_mark(deck: str) -> Mark | None:
    """The tile mark a deck's cards carry, or ``None`` (a deck no tile draws from)."""
    kind = DECK_KINDS.get(deck)
    return MARKS[kind] if kind else None


# The quadrants' colours (MR-1): the same inks the printed cards use for the elements.
ELEMENT_COLOURS: dict[str, str] = {
    "earth": "#a0661c",
    "air": "#00838f",
    "fire": "#c62828",
    "water": "#1565c0",
}
NEUTRAL_COLOUR = "#37474f"
ARROW_COLOUR = "#cc1a1a"  # one-way passages


def mark_of(kind: str) -> Mark:
    """The mark of tile kind ``kind``; raises ``KeyError`` naming it."""
    try:
        return MARKS[kind]
    except KeyError:
        raise KeyError(f"there is no tile kind {kind!r}; the kinds are {sorted(MARKS)}") \
            from None


def element_colour(element: str | None) -> str:
    """The colour of a quadrant (``None``: the neutral centre)."""
    return ELEMENT_COLOURS.get(element or "", NEUTRAL_COLOUR)


def rgb(hex_colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` as 0-1 floats (for the printer)."""
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)
