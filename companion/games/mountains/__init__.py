"""The Classic of Mountains & Rivers (seed 003, rulings MR-1..MR-11).

A board game for 2-4 players: move your pawn over a 9 x 9 board, draw weapons, challenge and
chance cards from the tiles you land on, attack with weapons and skills, and be the last one
standing. The package's anatomy, the same for every game:

* ``rules`` — the ``Rules`` object: options, set-up, the event types and their dispatch;
* ``adjudicate`` — the pure resolution of each event (where an MR ruling is decided);
* ``skills`` — the sixteen character skills (MR-8);
* ``state`` — the immutable state and the small pure steps (HP, draws, defeat);
* ``board`` — the board data and its geometry (MR-1, MR-5, MR-7);
* ``view`` — what each seat sees, the actions it may take, and the words;
* ``playout`` — random legal plays for simulations and property tests.
"""

from companion.games.mountains.board import Board, load_board, parse_board, reachable
from companion.games.mountains.rules import RULES, MountainsRules
from companion.games.mountains.state import (
    MountainsState,
    move_steps,
    order_needs,
    reachable_moves,
)

__all__ = [
    "RULES",
    "Board",
    "MountainsRules",
    "MountainsState",
    "load_board",
    "move_steps",
    "order_needs",
    "parse_board",
    "reachable",
    "reachable_moves",
]
