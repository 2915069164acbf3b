"""The Mountains & Rivers board (MR-1): pure, typed, validated on load.

The seed describes the board without drawing it; the companion ships a default board as data
(``companion/data/boards/mountains.json``), the printer draws it from the same file and the
engine rules by it.

Board file schema
-----------------
A JSON object::

    {
      "game": "mountains",
      "name": "Default board",            # shown on the printed board
      "size": 9,                          # the grid is size x size tiles
      "quadrants": {"earth": "north-west", "air": "north-east",
                    "fire": "south-east", "water": "south-west"},
      "kinds": {"plain": "Nothing happens.", ...},   # legend text per tile kind (printing)
      "tile_hp": {"blessing": 1, "hazard": -1},      # HP change when a move ends there
      "tiles": [
        {"id": "A1", "row": 1, "col": 1, "colour": "earth", "kind": "plain"},
        {"id": "C3", "row": 3, "col": 3, "colour": "earth", "kind": "stairs", "exit": "E7"},
        ...                                          # exactly size*size tiles
      ],
      "arrows": [{"from": "E4", "to": "E5"}, ...]   # one-way passages between neighbours
    }

* ``id`` is the column letter (``A`` west .. ``I`` east) and the row number (``1`` north ..
  ``9`` south): ``A1`` is the north-west corner, ``I9`` the south-east one.
* ``colour`` is the element whose quadrant the tile belongs to (``earth``, ``air``,
  ``fire``, ``water``) or ``null`` for a neutral tile (the default board's centre ``E5``).
  A character standing on its own colour pays one HP less for skills (MR-8).
* ``kind`` is one of ``plain``, ``blessing`` (+1 HP), ``hazard`` (-1 HP), ``sharpen``
  (+1 damage on this turn's attack, MR-1 rev. 2), ``blunt`` (-1 damage on this turn's
  attack, never below 0) and ``armoury`` (draw a weapon, MR-1 rev. 3) (the six *regular*
  kinds), ``weapon``,
  ``challenge``, ``chance`` or ``stairs``. A ``stairs`` tile is a stairs entrance and must
  name its ``exit`` tile; draw it as an arrow from the entrance to the exit. Other kinds
  have no ``exit``. Each kind's mark, colour and legend word are in ``marks``.
* The four corners are the possible start and end points (MR-2); they must be ``plain``.
* An arrow ``{"from": X, "to": Y}`` joins two orthogonal neighbours: a token may step from X
  to Y but never from Y to X (MR-5). Arrows are drawn on the edge between the two tiles.

``load_board()`` raises ``ValueError`` naming the problem: a missing or duplicate tile, a
stairs link to a tile that does not exist (or to another stairs entrance), a missing corner,
a colour missing from the board, an arrow between tiles that are not neighbours, or a tile a
token could never leave.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

COLOURS: tuple[str, ...] = ("earth", "air", "fire", "water")
KINDS: tuple[str, ...] = (
    "plain", "blessing", "hazard", "sharpen", "blunt", "armoury", "weapon", "challenge",
    "chance", "stairs",
)
REGULAR_KINDS = frozenset({"plain", "blessing", "hazard", "sharpen", "blunt", "armoury"})
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Tile:
    """One square of the board."""

    id: str
    row: int
    col: int
    colour: str | None
    kind: str
    exit: str | None = None

    @property
    def is_stairs(self) -> bool:
        return self.kind == "stairs"


@dataclass(frozen=True)
class Board:
    """The whole board: tiles by id, one-way arrows, and what tiles do."""

    name: str
    size: int
    tiles: Mapping[str, Tile]
    arrows: frozenset[tuple[str, str]]
    tile_hp: Mapping[str, int]
    kinds: Mapping[str, str]
    quadrants: Mapping[str, str]
    step_map: Mapping[str, tuple[str, ...]] = field(default_factory=dict, repr=False,
                                                   compare=False)

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles.values())

    def tile(self, tile_id: str) -> Tile:
        """The tile ``tile_id``; raises ``KeyError`` naming it."""
        try:
            return self.tiles[tile_id]
        except KeyError:
            raise KeyError(f"there is no tile {tile_id!r} on the board") from None

    def at(self, row: int, col: int) -> Tile | None:
        if not (1 <= row <= self.size and 1 <= col <= self.size):
            return None
        return self.tiles.get(tile_id(row, col))

    def neighbours(self, tile: str) -> tuple[str, ...]:
        """Orthogonal neighbours of ``tile`` in any direction (arrows ignored)."""
        t = self.tiles[tile]
        out = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            n = self.at(t.row + dr, t.col + dc)
            if n is not None:
                out.append(n.id)
        return tuple(out)

    def steps(self, tile: str) -> tuple[str, ...]:
        """Neighbours a token on ``tile`` may step to: not against a one-way arrow (MR-5)."""
        if tile in self.step_map:
            return self.step_map[tile]
        return tuple(n for n in self.neighbours(tile) if (n, tile) not in self.arrows)

    @property
    def corners(self) -> tuple[str, ...]:
        """The four corners, north-west, north-east, south-east, south-west (MR-2)."""
        s = self.size
        return (tile_id(1, 1), tile_id(1, s), tile_id(s, s), tile_id(s, 1))

    def opposite(self, corner: str) -> str:
        """The corner diagonally opposite ``corner`` (the endpoint, MR-2)."""
        c = self.corners
        if corner not in c:
            raise KeyError(f"{corner!r} is not a corner; the corners are {list(c)}")
        return c[(c.index(corner) + 2) % 4]

    @property
    def centre(self) -> str:
        m = (self.size + 1) // 2
        return tile_id(m, m)

    def distance(self, a: str, b: str) -> int:
        """Shortest path over the grid between two tiles, stairs and arrows ignored (MR-7)."""
        ta, tb = self.tiles[a], self.tiles[b]
        return abs(ta.row - tb.row) + abs(ta.col - tb.col)

    def describe(self) -> dict[str, Any]:
        """JSON-ready board for views and printing."""
        return {
            "name": self.name,
            "size": self.size,
            "tiles": [
                {"id": t.id, "row": t.row, "col": t.col, "colour": t.colour, "kind": t.kind,
                 **({"exit": t.exit} if t.exit else {})}
                for t in self.tiles.values()
            ],
            "arrows": [{"from": a, "to": b} for a, b in sorted(self.arrows)],
            "corners": list(self.corners),
        }


def tile_id(row: int, col: int) -> str:
    return f"{COLUMNS[col - 1]}{row}"


def parse_board(data: Mapping[str, Any]) -> Board:
    """Build and validate a ``Board`` from parsed board data; raises ``ValueError``."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a board must be a JSON object, got {type(data).__name__}")
    size = data.get("size")
    if not isinstance(size, int) or isinstance(size, bool) or not 2 <= size <= len(COLUMNS):
        raise ValueError(f"board 'size' must be a whole number 2-26, got {size!r}")
    raw_tiles = data.get("tiles")
    if not isinstance(raw_tiles, list):
        raise ValueError("board 'tiles' must be a list")
    tiles: dict[str, Tile] = {}
    for raw in raw_tiles:
        if not isinstance(raw, Mapping):
            raise ValueError(f"every tile must be an object, got {raw!r}")
        tid, row, col = raw.get("id"), raw.get("row"), raw.get("col")
        if not isinstance(row, int) or not isinstance(col, int) or not (
            1 <= row <= size and 1 <= col <= size
        ):
            raise ValueError(f"tile {tid!r}: row and col must be 1-{size}, got {row!r}, {col!r}")
        if tid != tile_id(row, col):
            raise ValueError(f"tile {tid!r} at row {row}, col {col} must be {tile_id(row, col)!r}")
        if tid in tiles:
            raise ValueError(f"tile {tid!r} is listed twice")
        colour = raw.get("colour")
        if colour is not None and colour not in COLOURS:
            raise ValueError(f"tile {tid!r}: colour {colour!r} is not one of {list(COLOURS)}")
        kind = raw.get("kind")
        if kind not in KINDS:
            raise ValueError(f"tile {tid!r}: kind {kind!r} is not one of {list(KINDS)}")
        exit_ = raw.get("exit")
        if kind == "stairs" and not isinstance(exit_, str):
            raise ValueError(f"stairs tile {tid!r} must name its 'exit' tile")
        if kind != "stairs" and exit_ is not None:
            raise ValueError(f"tile {tid!r} is {kind}, not stairs, but has an exit {exit_!r}")
        tiles[tid] = Tile(tid, row, col, colour, kind, exit_)
    missing = [tile_id(r, c) for r in range(1, size + 1) for c in range(1, size + 1)
               if tile_id(r, c) not in tiles]
    if missing:
        raise ValueError(f"the board lacks tiles {missing[:5]!r} ({len(missing)} in all)")
    for t in tiles.values():
        if t.exit is None:
            continue
        if t.exit not in tiles:
            raise ValueError(f"stairs at {t.id!r} lead to {t.exit!r}, which is not a tile")
        if t.exit == t.id or tiles[t.exit].is_stairs:
            raise ValueError(
                f"stairs at {t.id!r} lead to {t.exit!r}, which is itself a stairs entrance"
            )
    board_colours = {t.colour for t in tiles.values() if t.colour}
    for colour in COLOURS:
        if colour not in board_colours:
            raise ValueError(f"the board has no {colour} tile; all four colours must be present")
    arrows: set[tuple[str, str]] = set()
    for raw in data.get("arrows", []):
        if not isinstance(raw, Mapping):
            raise ValueError(f"every arrow must be an object, got {raw!r}")
        a, b = raw.get("from"), raw.get("to")
        if not isinstance(a, str) or not isinstance(b, str) or a not in tiles or b not in tiles:
            raise ValueError(f"arrow {dict(raw)!r} must join two tiles of the board")
        ta, tb = tiles[a], tiles[b]
        if abs(ta.row - tb.row) + abs(ta.col - tb.col) != 1:
            raise ValueError(f"arrow {a!r} -> {b!r} joins tiles that are not neighbours")
        if (b, a) in arrows:
            raise ValueError(f"arrows {a!r} -> {b!r} and back close the passage both ways")
        arrows.add((a, b))
    tile_hp = data.get("tile_hp", {"blessing": 1, "hazard": -1})
    if not isinstance(tile_hp, Mapping) or not all(
        k in KINDS and isinstance(v, int) for k, v in tile_hp.items()
    ):
        raise ValueError(f"board 'tile_hp' must map tile kinds to whole numbers: {tile_hp!r}")
    board = Board(
        name=str(data.get("name", "Board")),
        size=size,
        tiles=tiles,
        arrows=frozenset(arrows),
        tile_hp=dict(tile_hp),
        kinds={str(k): str(v) for k, v in dict(data.get("kinds", {})).items()},
        quadrants={str(k): str(v) for k, v in dict(data.get("quadrants", {})).items()},
    )
    for corner in board.corners:
        if corner not in tiles:
            raise ValueError(f"the board lacks corner {corner!r}")
        if tiles[corner].kind != "plain":
            raise ValueError(
                f"corner {corner!r} is a start/end point and must be plain, "
                f"not {tiles[corner].kind}"
            )
    board = replace(board, step_map={t: board.steps(t) for t in tiles})
    for t in tiles.values():
        if not board.steps(t.id):
            raise ValueError(f"a token on {t.id!r} could never leave it: every way out is "
                             "against an arrow")
    return board


_CACHE: dict[str, Board] = {}


def load_board(name: str = "mountains") -> Board:
    """The board ``companion/data/boards/<name>.json``; raises ``ValueError`` if invalid."""
    if name not in _CACHE:
        path = resources.files("companion") / "data" / "boards" / f"{name}.json"
        _CACHE[name] = parse_board(json.loads(path.read_text(encoding="utf-8")))
    return _CACHE[name]


def reachable(board: Board, start: str, steps: int,
              avoid: frozenset[str] = frozenset()) -> frozenset[str]:
    """Every tile a token on ``start`` can end on after exactly ``steps`` steps (MR-5).

    A step goes to an orthogonal neighbour, never against a one-way arrow, and a move never
    enters the same tile twice (nor its starting tile), nor a tile of ``avoid`` (the game's
    start tile, MR-5 rev. 3). These are the tiles the token lands on; a stairs entrance
    among them then sends the token on to its exit. Raises ``KeyError`` for an unknown tile.
    """
    board.tile(start)
    if steps <= 0:
        return frozenset()
    found: set[str] = set()
    path: set[str] = {start, *avoid}
    cands = _candidates(board)

    def walk(pos: str, left: int) -> None:
        if left == 0:
            found.add(pos)
            return
        # Exact pruning: only tiles within ``left`` grid steps with the right parity can end
        # this walk (the grid is bipartite); if all of them are found or on the path, stop.
        lk = left if left <= _MAX_STEPS else _MAX_STEPS - (left - _MAX_STEPS) % 2
        if all(t in found or t in path for t in cands[pos][lk]):
            return
        for n in board.steps(pos):
            if n not in path:
                path.add(n)
                walk(n, left - 1)
                path.discard(n)

    walk(start, steps)
    return frozenset(found)


_CANDS: dict[int, dict[str, dict[int, tuple[str, ...]]]] = {}
_MAX_STEPS = 40


def _candidates(board: Board) -> dict[str, dict[int, tuple[str, ...]]]:
    # The table depends only on the grid (every board is a full size x size grid), so it is
    # kept per size: never per object id, which a later board may reuse.
    key = board.size
    if key not in _CANDS:
        table: dict[str, dict[int, tuple[str, ...]]] = {}
        for a in board.tiles:
            table[a] = {
                left: tuple(b for b in board.tiles
                            if (d := board.distance(a, b)) <= left and (left - d) % 2 == 0)
                for left in range(_MAX_STEPS + 1)
            }
        _CANDS[key] = table
    return _CANDS[key]


def can_reach(board: Board, start: str, target: str, steps: int,
              avoid: frozenset[str] = frozenset()) -> bool:
    """Whether ``target`` is in ``reachable(board, start, steps, avoid)``, searched for
    directly."""
    board.tile(start)
    board.tile(target)
    if steps <= 0 or target == start or target in avoid:
        return False
    path: set[str] = {start, *avoid}

    def walk(pos: str, left: int) -> bool:
        if left == 0:
            return pos == target
        d = board.distance(pos, target)
        if d > left or (left - d) % 2:
            return False
        for n in board.steps(pos):
            if n not in path:
                path.add(n)
                found = walk(n, left - 1)
                path.discard(n)
                if found:
                    return True
        return False

    return walk(start, steps)
