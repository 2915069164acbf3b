"""The Mountains & Rivers board data and its loader (MR-1, MR-2, MR-5, MR-7)."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from companion.cards import load_deck
from companion.games.mountains.board import COLOURS, load_board, parse_board, reachable


def _raw() -> dict[str, Any]:
    path = resources.files("companion") / "data" / "boards" / "mountains.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_default_board_mr1_is_9x9_with_four_coloured_quadrants() -> None:
    b = load_board()
    assert b.size == 9 and len(b.tiles) == 81
    assert b.tile("A1").colour == "earth" and b.tile("I1").colour == "air"
    assert b.tile("I9").colour == "fire" and b.tile("A9").colour == "water"
    assert {t.colour for t in b if t.colour} == set(COLOURS)
    kinds = {t.kind for t in b}
    assert {"plain", "blessing", "hazard", "weapon", "challenge", "chance", "stairs"} <= kinds


def test_corners_and_opposites_mr2() -> None:
    b = load_board()
    assert b.corners == ("A1", "I1", "I9", "A9")
    assert b.opposite("A1") == "I9" and b.opposite("I1") == "A9"
    assert all(b.tile(c).kind == "plain" for c in b.corners)
    with pytest.raises(KeyError, match="'E5'"):
        b.opposite("E5")


def test_stairs_lead_to_real_tiles_and_arrows_are_one_way_mr5() -> None:
    b = load_board()
    stairs = [t for t in b if t.is_stairs]
    assert len(stairs) == 4
    assert all(t.exit in b.tiles and not b.tile(t.exit).is_stairs for t in stairs if t.exit)
    assert "E5" in b.steps("E4") and "E4" not in b.steps("E5")


def test_distance_is_grid_shortest_path_mr7() -> None:
    b = load_board()
    assert b.distance("A1", "I9") == 16
    assert b.distance("C3", "E7") == 6  # stairs do not shorten weapon range


def test_deck_file_composition() -> None:
    deck = load_deck("mountains")
    assert deck.code == "M"
    weapons = deck.faces_of("weapon")
    for el in COLOURS:
        assert sum(1 for f in weapons if f.element == el) == 4
    assert all(1 <= f.attrs["attack"] <= 4 and 1 <= f.attrs["range"] <= 5 for f in weapons)
    games = {f.attrs["minigame"] for f in deck.faces_of("challenge")}
    assert games == {"staring-contest", "rock-paper-scissors", "dice-duel", "grab-the-object",
                     "spin-the-arrow"}
    assert {f.name for f in deck.faces_of("character")} == {"Xi Bian", "Qing Luan", "Huan",
                                                            "Ling Yu"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["tiles"].pop(), "lacks tiles"),
        (lambda d: d["tiles"][20].update(exit="Z9"), "'Z9', which is not a tile"),
        (lambda d: [t.update(colour="earth") for t in d["tiles"] if t["colour"] == "fire"],
         "no fire tile"),
        (lambda d: d["tiles"][0].update(kind="weapon"), "corner 'A1'"),
        (lambda d: d["arrows"].append({"from": "A1", "to": "C1"}), "not neighbours"),
        (lambda d: d["arrows"].extend([{"from": "B1", "to": "A1"}, {"from": "A2", "to": "A1"}]),
         "could never leave"),
    ],
)
def test_invalid_boards_are_refused_naming_the_problem(change: Any, message: str) -> None:
    data = copy.deepcopy(_raw())
    change(data)
    with pytest.raises(ValueError, match=message):
        parse_board(data)



def _walks(board: Any, start: str, steps: int) -> set[str]:
    """Every end of a walk of exactly ``steps`` steps, no tile twice (brute force, MR-5)."""
    out: set[str] = set()

    def go(pos: str, left: int, seen: frozenset[str]) -> None:
        if left == 0:
            out.add(pos)
            return
        for n in board.steps(pos):
            if n not in seen:
                go(n, left - 1, seen | {n})

    go(start, steps, frozenset({start}))
    return out


def test_mr5_reachable_on_boards_of_other_sizes_after_the_default() -> None:
    """MR-5 on any board file: the search's pruning table belongs to the board's grid."""
    big = load_board()
    assert reachable(big, "A1", 2) == {"A3", "B2", "C1"}
    tiles = [{"id": f"{c}{r}", "row": r, "col": i + 1, "kind": "plain",
              "colour": COLOURS[(r - 1) // 2 * 2 + i // 2]}
             for r in range(1, 5) for i, c in enumerate("ABCD")]
    small = parse_board({"size": 4, "tiles": tiles,
                         "arrows": [{"from": "A1", "to": "B1"}, {"from": "C3", "to": "C2"}]})
    assert reachable(small, "B1", 1) == {"B2", "C1"}  # never back against the arrow
    for start in small.tiles:
        for steps in range(1, 9):
            assert reachable(small, start, steps) == _walks(small, start, steps), (start, steps)
    for start in ("A1", "E5", "C3", "I9"):
        for steps in range(1, 8):
            assert reachable(big, start, steps) == _walks(big, start, steps), (start, steps)
