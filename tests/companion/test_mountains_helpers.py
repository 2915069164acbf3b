"""Scenario helpers for the Mountains & Rivers tests: hand-built positions (boardgame.io style)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from companion.engine import Match
from companion.games.mountains import RULES, MountainsState
from companion.games.mountains.state import begin_turn, move_card, seat_place, set_player
from companion.registry import new_match

CHARS = ("xi-bian", "qing-luan", "huan", "ling-yu")


def new(players: int = 3, dice: str = "physical", seed: int = 1) -> Match[Any]:
    names = ["Ana", "Bo", "Cy", "Di"][:players]
    return new_match("mountains", names, {"dice": dice}, rng=random.Random(seed))


def serial(m: Match[Any] | MountainsState, face_id: str) -> str:
    """The serial of the (only) printed card with face ``face_id``."""
    faces = m.faces if isinstance(m, MountainsState) else m.setup.cards
    return next(s for s, f in sorted(faces.items()) if f.id == face_id)


def to_play(
    players: int = 3, chars: tuple[str, ...] = CHARS, corner: str = "A1", dice: str = "physical"
) -> Match[Any]:
    """A match in play: seat 1 rolled highest... (pick order 1, 2, 3...), seat n is chars[n-1]."""
    m = new(players, dice)
    for seat in range(1, players + 1):
        m.apply({"type": "roll", "seat": seat, "dice": [7 - seat]})
    for seat in range(1, players + 1):
        if m.state.phase == "pick":
            m.apply({"type": "scan", "card": serial(m, chars[seat - 1]), "zone": f"seat:{seat}"})
    m.apply({"type": "corner", "seat": 1, "corner": corner})
    return m


def put(s: MountainsState, seat: int, *, tile: str | None = None, hp: int | None = None,
        weapons: tuple[str, ...] = ()) -> MountainsState:
    """Place seat's token, set HP and hand it weapons (face ids) from the weapon pile."""
    p = s.player(seat)
    s = set_player(s, replace(p, tile=tile or p.tile, hp=p.hp if hp is None else hp))
    for face_id in weapons:
        s = move_card(s, serial(s, face_id), seat_place(seat))
    return s


def turn_of(s: MountainsState, seat: int, roll: tuple[int, ...] = ()) -> MountainsState:
    """Start seat's turn (optionally with a movement roll already made)."""
    s, _ = begin_turn(s, seat)
    return replace(s, roll=roll)


def play(s: MountainsState, *events: dict[str, Any]) -> MountainsState:
    for e in events:
        s = RULES.apply(s, e)
    return s


def at(m: Match[Any], s: MountainsState) -> Match[Any]:
    """Put a hand-built state on a match (for refused-input tests: state and log unchanged)."""
    m.state = s
    return m
