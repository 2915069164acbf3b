"""The printed table mat: play area, ArUco markers and card zones, in millimetres.

This module is pure geometry (no drawing, no OpenCV). ``printables`` draws the mat from
it; ``cv`` maps camera pixels to mat millimetres with the four markers and asks
``zone_at`` which zone a card lies in. Both read the same numbers, so what is printed is
what the camera expects.

Coordinate system
-----------------
* Units are millimetres on the printed mat.
* The origin ``(0, 0)`` is the **top-left corner of the play area** as seen from above
  with the mat's *near edge* (the edge seat 1 sits at, printed with the title) at the
  bottom.
* ``x`` grows to the right (0 to ``MAT_WIDTH`` = 800), ``y`` grows **downwards**, towards
  the near edge (0 to ``MAT_HEIGHT`` = 450). This is the same orientation as image pixels,
  so a homography from camera pixels to mat millimetres needs no flip.
* A rectangle ``Zone(name, x, y, w, h)`` covers ``x <= X < x + w`` and ``y <= Y < y + h``.

Markers
-------
Four ArUco markers from ``DICT_4X4_50`` (``MARKER_DICTIONARY``), ids 0-3, each
``MARKER_SIZE`` = 50 mm square (black border included; print a white margin of at least
one module, 10 mm, around each), centred 40 mm in from both edges at the corners:
id 0 top-left, id 1 top-right, id 2 bottom-right, id 3 bottom-left. Each is printed
upright (its top edge parallel to the mat's top edge), so ``Marker.corners()`` lists its
corners in the order OpenCV's ArUco detector reports them: top-left, top-right,
bottom-right, bottom-left.

Zones
-----
Seats sit around the edge, numbered clockwise seen from above starting at the near edge
(``seat:1``); the other zones are the places in play the camera watches (C-9 rev. 3: a
zone for every place a card can go that the camera should see):

* WuXing: ``universe`` (the pot pile, where the Universe card is laid, WX-4) and ``void``
  (the Void, beside it; C-6 rev. 3: a card is shown in its owner's seat zone first, then
  moved there);
* God Num: ``pot`` (played cards) and ``void`` (discards, out of the game, GN-9);
* Shrine of the Elemental Kings: ``lot`` (the cards up for bid, SK-3);
* Gem Complete: ``locus:1``/``locus:2`` (each player's Locus row, GC-2) and
  ``discard:1``/``discard:2`` (each player's face-up discard pile, beside that player's
  seat zone, on their side of the mat);
* Mountains & Rivers: seats only (its board lies beside the mat).

Zone names are the names the rules engines use in scan events (``Rules.zones``): a card
shown in ``seat:n`` is seat n's card (C-6). Zones never overlap, keep clear of the markers
and their white margin, and each is at least 110 x 130 mm: a 63 x 88 mm card lies in it
at any angle. ``Zone.side`` says which edge of the mat a zone's owner sits at (``near``,
``left``, ``far``, ``right``; empty for a shared pile), so the printer turns its words
towards the player who reads them. The printer prints each zone's outline and words.

Raises ``UnknownGame`` for a game without a mat layout and ``BadSetup`` for a player count
the layout does not have.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import BadSetup, UnknownGame

MAT_WIDTH = 800.0  # mm, x extent of the play area
MAT_HEIGHT = 450.0  # mm, y extent of the play area
CARD_WIDTH = 63.0  # mm, poker-size card
CARD_HEIGHT = 88.0
MARKER_DICTIONARY = "DICT_4X4_50"
MARKER_SIZE = 50.0  # mm, outer black square
MARKER_INSET = 40.0  # mm from each mat edge to the marker centre
MARKER_MARGIN = 10.0  # mm of white the printer keeps around each marker; no zone enters it
ZONE_MIN = (110.0, 130.0)  # mm: every zone's short and long side are at least this


@dataclass(frozen=True)
class Marker:
    """One ArUco marker: its id and its centre on the mat (mm)."""

    id: int
    cx: float
    cy: float
    size: float = MARKER_SIZE

    def corners(self) -> tuple[tuple[float, float], ...]:
        """Corners in mm: top-left, top-right, bottom-right, bottom-left (ArUco order)."""
        h = self.size / 2
        return (
            (self.cx - h, self.cy - h),
            (self.cx + h, self.cy - h),
            (self.cx + h, self.cy + h),
            (self.cx - h, self.cy + h),
        )


MARKERS: tuple[Marker, ...] = (
    Marker(0, MARKER_INSET, MARKER_INSET),
    Marker(1, MAT_WIDTH - MARKER_INSET, MARKER_INSET),
    Marker(2, MAT_WIDTH - MARKER_INSET, MAT_HEIGHT - MARKER_INSET),
    Marker(3, MARKER_INSET, MAT_HEIGHT - MARKER_INSET),
)


@dataclass(frozen=True)
class Zone:
    """A named rectangle on the mat, in mm (``x``, ``y`` = its top-left corner)."""

    name: str
    x: float
    y: float
    w: float
    h: float
    side: str = ""  # the mat edge the zone's owner sits at; "" for a shared zone

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h

    def corners(self) -> tuple[tuple[float, float], ...]:
        """Corners in mm, clockwise from the top-left."""
        return (
            (self.x, self.y),
            (self.x + self.w, self.y),
            (self.x + self.w, self.y + self.h),
            (self.x, self.y + self.h),
        )

    def overlaps(self, other: Zone) -> bool:
        return (self.x < other.x + other.w and other.x < self.x + self.w
                and self.y < other.y + other.h and other.y < self.y + self.h)


# Seat slots around the edge, in clockwise order seen from above, starting at the near
# edge's right. Long-edge slots are 130 x 120 mm, side slots 120 x 150 mm; they keep
# clear of the corner markers (15-65 mm in from each edge).
_SLOTS: dict[str, tuple[float, float, float, float]] = {
    "near-right": (495.0, 315.0, 130.0, 120.0),
    "near-centre": (335.0, 315.0, 130.0, 120.0),
    "near-left": (175.0, 315.0, 130.0, 120.0),
    "left": (15.0, 150.0, 120.0, 150.0),
    "far-left": (175.0, 15.0, 130.0, 120.0),
    "far-centre": (335.0, 15.0, 130.0, 120.0),
    "far-right": (495.0, 15.0, 130.0, 120.0),
    "right": (665.0, 150.0, 120.0, 150.0),
}

# The mat edge a player in each slot sits at.
_SIDE = {"near-right": "near", "near-centre": "near", "near-left": "near", "left": "left",
         "far-left": "far", "far-centre": "far", "far-right": "far", "right": "right"}

# Which slots seats 1..n take, clockwise; seat 1 always at the near edge.
_SEATING: dict[int, tuple[str, ...]] = {
    2: ("near-centre", "far-centre"),
    3: ("near-centre", "far-left", "far-right"),
    4: ("near-centre", "left", "far-centre", "right"),
    5: ("near-right", "near-left", "left", "far-centre", "right"),
    6: ("near-right", "near-left", "left", "far-left", "far-right", "right"),
    7: ("near-right", "near-centre", "near-left", "left", "far-left", "far-right", "right"),
    8: ("near-right", "near-centre", "near-left", "left", "far-left", "far-centre",
        "far-right", "right"),
}

# Centre band (y 150-300) zones per game; every one is at least 110 x 130 mm, and none
# reaches the side seats (x 15-135 and 665-785) of the largest tables.
_CENTRE: dict[str, tuple[Zone, ...]] = {
    # WX-4: the Universe card lies face up on the pot in the centre; the pot pile lies
    # there. C-9 rev. 3: the Void beside it, so a card put into the Void stays in view.
    "wuxing": (Zone("universe", 335.0, 160.0, 130.0, 130.0),
               Zone("void", 505.0, 160.0, 130.0, 130.0)),
    # GN: played number/function cards go to the pot in the centre; discards to the Void.
    "godnum": (Zone("pot", 335.0, 160.0, 130.0, 130.0),
               Zone("void", 505.0, 160.0, 130.0, 130.0)),
    # SK-3: the lot is one card plus one more per bid ending in 0, so it is wide.
    "shrine": (Zone("lot", 245.0, 160.0, 310.0, 130.0),),
    # MR: the board lies beside the mat; drawn cards are shown in seat zones.
    "mountains": (),
}

_PLAYERS: dict[str, tuple[int, int]] = {
    "wuxing": (2, 8),
    "godnum": (2, 6),
    "shrine": (2, 6),
    "mountains": (2, 4),
    "gemcomplete": (2, 2),
}


def _gemcomplete() -> list[Zone]:
    # GC-2: two players face each other across the long side; each has a seat zone and a
    # Locus row (six cards and more, in order) in front of them, and a face-up discard
    # pile (C-9 rev. 3) at the end of the mat beside their seat zone, leaning to their side.
    return [
        Zone("seat:1", 585.0, 305.0, 130.0, 130.0, "near"),
        Zone("seat:2", 85.0, 15.0, 130.0, 130.0, "far"),
        Zone("locus:1", 85.0, 305.0, 490.0, 130.0, "near"),
        Zone("locus:2", 225.0, 15.0, 490.0, 130.0, "far"),
        Zone("discard:1", 655.0, 165.0, 130.0, 130.0, "near"),
        Zone("discard:2", 15.0, 155.0, 130.0, 130.0, "far"),
    ]


def games() -> tuple[str, ...]:
    """The games the mat has a layout for."""
    return tuple(_PLAYERS)


def player_range(game: str) -> tuple[int, int]:
    """The smallest and largest table of ``game``; raises ``UnknownGame``."""
    if game not in _PLAYERS:
        raise UnknownGame(f"the table mat has no layout for {game!r}; it has {', '.join(_PLAYERS)}")
    return _PLAYERS[game]


def zones(game: str, players: int) -> list[Zone]:
    """Every zone of ``game`` at a table of ``players``, seats first.

    Raises ``UnknownGame`` or ``BadSetup`` (player count outside the game's range).
    """
    lo, hi = player_range(game)
    if not isinstance(players, int) or not lo <= players <= hi:
        raise BadSetup(f"{game} is played by {lo}-{hi} players, not {players!r}")
    if game == "gemcomplete":
        return _gemcomplete()
    seats = [Zone(f"seat:{i}", *_SLOTS[slot], _SIDE[slot])
             for i, slot in enumerate(_SEATING[players], 1)]
    return seats + list(_CENTRE[game])


def zone_named(name: str, game: str, players: int) -> Zone:
    """The zone called ``name``; raises ``BadSetup`` if the layout has none."""
    for z in zones(game, players):
        if z.name == name:
            return z
    raise BadSetup(f"the {game} mat for {players} players has no zone {name!r}")


def zone_at(x_mm: float, y_mm: float, game: str, players: int) -> str | None:
    """The name of the zone containing the point (mm), or ``None`` between zones."""
    for z in zones(game, players):
        if z.contains(x_mm, y_mm):
            return z.name
    return None


def on_mat(x_mm: float, y_mm: float) -> bool:
    """Whether a point lies on the play area."""
    return 0.0 <= x_mm < MAT_WIDTH and 0.0 <= y_mm < MAT_HEIGHT
