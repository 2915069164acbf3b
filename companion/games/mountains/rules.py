"""The Mountains & Rivers ``Rules`` object: options, set-up and the event types (MR-1..MR-11).

Each event is validated and resolved in ``adjudicate`` (skills in ``skills``); this module
checks the event's fields (``event_fields``, C-7), dispatches it, and applies what holds
after every event (defeat and the end of the game, MR-10).

Phases: ``order`` (everyone rolls a die for the pick order, ties re-roll, MR-3), ``pick``
(in that order each player blindly draws a character card and shows it in their seat zone),
``corner`` (the first picker chooses the start corner, MR-2), ``play``, ``over``.

Events (``"seat"`` is the sender, set by the web from the seat token; absent: the referee
or the camera. A seat acts only for itself, C-7. ``dice`` may be given as ``"dice": [a, b]``
or as ``"die": a`` with ``"die2": b``; every die is 1-6):

* ``{"type": "roll", "seat", "dice"}``: a die roll (MR-11). Pick-order rolls, the movement
  roll (one die; two in the final showdown or after Qing Luan's skill 1, MR-5, MR-8) and
  the die of Ling Yu's skill 1. With option ``dice: "companion"`` the companion makes these
  events itself (``Rules.chance``, marked ``"by": "companion"``, C-4).
* ``{"type": "scan", "card": SERIAL|FACE, "zone": "seat:<n>", "seat"?, "override"?: true}``:
  a card drawn and shown by seat n (C-6): a character pick, or a weapon, challenge or chance
  card the table is waiting for. A face id picks a copy in that pile (C-1). A card that is
  not in its pile is refused (C-1) unless the referee overrides; a seat shows cards only in
  its own zone and gets one refusal for every card it cannot show (C-7, no oracle).
* ``{"type": "corner", "seat", "corner": "A1"|"I1"|"I9"|"A9"}``: the start corner (MR-2).
* ``{"type": "move", "seat", "to": TILE}``: move the pawn to a reachable tile (MR-5); the
  tile activates (MR-6), or on a stairs entrance the mover is asked:
* ``{"type": "stairs", "seat", "take": true|false}``: take the stairs to the exit, or stay
  (MR-5 rev. 2); nothing else is accepted until it is answered.
* ``{"type": "attack", "seat", "strikes": [{"card": SERIAL, "target": SEAT}, ...]}``: one or
  two weapons, each on a target in its range (MR-7). Also ``card``/``target`` (and
  ``card2``/``target2``) as flat fields; ``card2`` null or absent: one weapon; ``target2``
  null or absent: the second weapon strikes ``target``.
* ``{"type": "skill", "seat", "skill": "basic"|"1"|"2"|"3", ...}``: parameters
  ``target``, ``card``, ``tile``, ``add`` as the skill needs (``skills``, MR-8).
* ``{"type": "result", "winner": SEAT, "loser": SEAT}`` (or ``"outcome": [winner, loser]``,
  as the result action offers it): who won the challenge mini-game, between the player who
  drew the card and the opponent they chose (MR-9). A ``seat`` sending it must be one of
  the two; before the drawer has chosen, only the drawer (or the referee) enters it.
* ``{"type": "opponent", "seat", "target"}``: whom the drawer of a challenge card
  challenges (MR-9; the drawer or the referee; automatic when one opponent is left).
* ``{"type": "discard", "seat", "card"}``: the weapon a seat discards (a chance or
  challenge penalty). ``{"type": "take", "seat", "card"}``: the weapon a seat takes from
  the loser of a challenge.
* ``{"type": "end", "seat"}``: end the turn; only after movement (MR-4).

View keys (``view``): ``game``, ``phase``, ``dice_mode``, ``you``, ``players`` (seat, name,
character, character_name, element, hp, alive, tile, weapons [card, name, element, attack,
range, usable], effects), ``board`` (``view.board_view``: tiles with their marks and
colours, stairs, arrows, legend, quadrants, pawns, reachable), ``start``, ``end``, ``turn``,
``turn_no``, ``actions_left`` (movement, attack, skill), ``roll``, ``two_dice``,
``move_bonus``, ``move_options`` (step counts allowed), ``reachable`` ([{tile, to, stairs}]
for the player whose turn it is), ``showdown``, ``double_range``, ``sharpened``, ``blunted``,
``boosted``, ``piles`` (counts per pile and discard pile), ``pending`` (what the table
waits for), ``order_rolls``, ``pick_order``, ``prompt``, ``ruling`` (plain words, C-8),
``rule`` (its ruling id), ``finished``, ``winners``. ``referee_view`` adds ``places``
(every serial) and ``counts`` and keeps the ruling ids in ``ruling``. The face-down piles
are the only hidden information; every seat sees the same view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from companion.engine import (
    OUT,
    Event,
    JSONDict,
    Option,
    Rules,
    Setup,
    event_type,
    evolve,
)
from companion.errors import BadSetup, GameOver
from companion.games.mountains.actions import actions
from companion.games.mountains.adjudicate import adjudicate
from companion.games.mountains.board import load_board
from companion.games.mountains.playout import random_play
from companion.games.mountains.plays import last_play
from companion.games.mountains.state import (
    DECKS,
    MountainsState,
    Player,
    pile,
    roll_due,
)
from companion.games.mountains.view import view
from companion.words import sentence


class MountainsRules(Rules[MountainsState]):
    """The Classic of Mountains & Rivers: MR-1..MR-11."""

    id: ClassVar[str] = "mountains"
    title: ClassVar[str] = "The Classic of Mountains & Rivers"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option("dice", "physical", "MR-11",
               "physical: players roll real dice and enter them; companion: the companion "
               "rolls", choices=("physical", "companion")),
    )
    zones: ClassVar[tuple[str, ...]] = ("seat:<n>",)
    # C-7: "seat" is the sender (the web sets it from the seat token; absent: the referee or
    # the camera); "override" only on a scan, for the referee (C-1); "by" marks a roll the
    # companion made (C-4).
    event_fields: ClassVar[Mapping[str, frozenset[str]]] = {
        "roll": frozenset({"seat", "dice", "die", "die2", "by"}),
        "scan": frozenset({"seat", "card", "zone", "override"}),
        "corner": frozenset({"seat", "corner"}),
        "move": frozenset({"seat", "to"}),
        "stairs": frozenset({"seat", "take"}),
        "attack": frozenset({"seat", "strikes", "card", "target", "card2", "target2"}),
        "skill": frozenset({"seat", "skill", "target", "card", "tile", "add"}),
        "result": frozenset({"seat", "winner", "loser", "outcome"}),
        "opponent": frozenset({"seat", "target"}),
        "discard": frozenset({"seat", "card"}),
        "take": frozenset({"seat", "card"}),
        "end": frozenset({"seat"}),
    }

    # -- start ----------------------------------------------------------------------------
    def start(self, setup: Setup) -> MountainsState:
        if not self.min_players <= len(setup.players) <= self.max_players:
            raise BadSetup(f"{self.title} takes 2-4 players, got {len(setup.players)}")
        board = load_board()
        places: dict[str, str] = {}
        have = dict.fromkeys(DECKS, 0)
        for serial, face in sorted(setup.cards.items()):
            if face.deck not in have:
                raise BadSetup(f"card {serial!r} is of an unknown deck {face.deck!r}")
            first_set = min((v for k, v in setup.sets.items()
                             if setup.cards[k].deck == face.deck), default=0)
            if setup.sets.get(serial, first_set) != first_set:
                places[serial] = OUT  # one printed set of each deck plays
                continue
            places[serial] = pile(face.deck)
            have[face.deck] += 1
        if have["character"] < len(setup.players):
            raise BadSetup(f"{len(setup.players)} players need {len(setup.players)} character "
                           f"cards; the print runs hold {have['character']}")
        players = tuple(Player(i, n) for i, n in enumerate(setup.players, 1))
        return MountainsState(
            board=board,
            faces=dict(setup.cards),
            dice_mode=str(setup.options.get("dice", "physical")),
            players=players,
            places=places,
            order_rolls=tuple(() for _ in players),
        )

    # -- apply ----------------------------------------------------------------------------
    def apply(self, state: MountainsState, event: Event) -> MountainsState:
        kind = event_type(event)
        if state.finished:
            raise GameOver(f"the game is over; {kind!r} is not accepted")
        s, text, play = adjudicate(state, event)
        return evolve(s, ruling=sentence(text), last_play=play)

    # -- chance (C-4, MR-11) --------------------------------------------------------------
    def chance(self, state: MountainsState, rng: random.Random) -> Event | None:
        if state.dice_mode != "companion" or state.finished:
            return None
        due = roll_due(state)
        if due is None:
            return None
        seat, count = due
        return {"type": "roll", "seat": seat, "dice": [rng.randint(1, 6) for _ in range(count)],
                "by": "companion"}

    # -- random legal play ----------------------------------------------------------------
    def random_play(self, state: MountainsState, rng: random.Random) -> Event | None:
        return random_play(self, state, rng)

    # -- views ----------------------------------------------------------------------------
    def view(self, state: MountainsState, seat: int | None) -> JSONDict:
        return view(state, seat)

    def referee_view(self, state: MountainsState) -> JSONDict:
        v = view(state, None)
        v["ruling"] = state.ruling  # the referee reads the ruling ids (C-8)
        v["places"] = dict(sorted(state.places.items()))
        v["counts"] = dict(state.counts)
        return v

    def actions(self, state: MountainsState, seat: int | None) -> list[JSONDict]:
        return actions(state, seat)

    def last_play(self, state: MountainsState, seat: int | None) -> JSONDict | None:
        return last_play(state, seat)

    def places(self, state: MountainsState) -> Mapping[str, str]:
        return dict(state.places)

    def stats(self, state: MountainsState) -> dict[str, float]:
        c = dict(state.counts)
        return {
            "adjudications": float(c.get("moves", 0) + c.get("attacks", 0) + c.get("skills", 0)),
            "moves": float(c.get("moves", 0)),
            "attacks": float(c.get("attacks", 0)),
            "skills": float(c.get("skills", 0)),
            "turns": float(state.turn_no),
            "hp_lost": float(c.get("hp_lost", 0)),
            "cards_drawn": float(c.get("draws", 0)),
            # MR-1 rev. 2 and rev. 3: how often the edge tiles act in a game.
            "sharpen_tiles": float(c.get("sharpen_tiles", 0)),
            "blunt_tiles": float(c.get("blunt_tiles", 0)),
            "armoury_tiles": float(c.get("armoury_tiles", 0)),
        }


RULES = MountainsRules()
