"""The physical script of a filmed game: what hands do at the table for each event.

The direct game is played by the engine's own random playout (``Rules.random_play``, as
``companion.simulate`` does); each event becomes a ``Step``: the cards a hand shows to the
camera (in which mat zone), then the taps on a phone or the referee's entries that go
through the API. After the step, ``layout`` says where every card on the mat lies now,
from ``Rules.places`` (the engine's word for where a card is): a card that goes into a
pile is first shown at its owner's seat and then pushed onto the pile (C-6 rev. 3), a card
whose place leaves the table is picked up.

Zones come from ``companion.tablemat.zones``; a pile zone a game's printed mat does not
have yet (``MISSING``) is a spot off the mat: its cards leave the camera's view, and the
bench says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion import tablemat
from companion.engine import Event

# Where a card lies on the mat for a place of ``Rules.places`` (piles shared by the table).
PILES: Mapping[str, Mapping[str, str]] = {
    "wuxing": {"pot": "universe", "void": "void"},
    "godnum": {"pot": "pot", "out": "void"},
    "shrine": {"lot": "lot"},
    "mountains": {},
    "gemcomplete": {"discard:1": "discard:1", "discard:2": "discard:2"},
}
# Places that are a seat's own table place (WuXing ``table:n``: the seat's zone).
SEAT_PLACES = ("table:", "seat:")
# Zones where cards stack on top of each other (a pile); other zones lay cards side by side.
PILE_ZONES = frozenset({"universe", "pot", "void", "discard:1", "discard:2"})
SEAT = "seat:"


@dataclass(frozen=True)
class Show:
    """A card a hand lays face up in a mat zone for the camera."""

    serial: str
    zone: str


@dataclass(frozen=True)
class Tap:
    """An entry through the API: ``who`` is ``host`` (the referee) or ``seat:<n>`` (that
    seat's phone); ``body`` is the action's JSON."""

    who: str
    body: dict[str, Any]
    offered: bool = False  # tapped only if that seat's phone offers it (``Rules.actions``)


@dataclass(frozen=True)
class Step:
    """One event of the direct game as the table does it: shows, then taps."""

    event: Event
    shows: tuple[Show, ...] = ()
    taps: tuple[Tap, ...] = ()

    @property
    def camera(self) -> bool:
        return bool(self.shows)


def mat_zones(game: str, players: int) -> frozenset[str]:
    """The zones of the printed mat today (new ones are picked up as they are printed)."""
    return frozenset(z.name for z in tablemat.zones(game, players))


def missing_zones(game: str, players: int) -> list[str]:
    """Pile zones the protocol uses that this game's mat does not print (yet)."""
    have = mat_zones(game, players)
    return sorted({z for z in PILES.get(game, {}).values() if z not in have})


def _seat_tap(event: Event) -> Tap:
    seat = event.get("seat")
    body = {k: v for k, v in event.items() if k != "seat"}
    if isinstance(seat, int) and not isinstance(seat, bool):
        return Tap(f"{SEAT}{seat}", body)
    return Tap("host", dict(event))


def plan(game: str, event: Event, zones: frozenset[str]) -> Step:
    """How the table does ``event``: which cards the camera sees, what is tapped."""
    kind = event.get("type")
    card = event.get("card")
    zone = event.get("zone")
    if kind == "scan" and isinstance(card, str) and isinstance(zone, str) and zone in zones:
        return Step(event, shows=(Show(card, zone),))
    if game == "godnum" and kind == "play" and isinstance(card, str):
        # GN: a card played is shown in its player's place, then pushed onto the pot.
        return Step(event, shows=(Show(card, f"{SEAT}{event['seat']}"),))
    if game == "godnum" and kind == "discard" and "void" in zones and not event.get("more"):
        # GN-9: discards laid in the Void one by one (each keeps the turn open), then the
        # player's phone ends the turn (a Burden discard ends it by itself, GN-3).
        cards = event.get("cards")
        if isinstance(cards, list) and all(isinstance(c, str) for c in cards) and cards:
            return Step(event, shows=tuple(Show(c, "void") for c in cards),
                        taps=(Tap(f"{SEAT}{event['seat']}", {"type": "end_turn"}, True),))
    if game == "gemcomplete" and kind == "play" and isinstance(card, str):
        # GC-3: a non-Gem card played face up at its owner's place, then onto the discards.
        return Step(event, shows=(Show(card, f"{SEAT}{event['seat']}"),))
    if game == "gemcomplete" and kind == "reveal":
        # GC-4: the selected Locus cards turned face up where they lie, in Locus order.
        seat, cards = event.get("seat"), event.get("cards")
        locus = f"locus:{seat}"
        if locus in zones and isinstance(cards, list) and cards and all(
                isinstance(c, str) for c in cards):
            return Step(event, shows=tuple(Show(c, locus) for c in cards))
    if game == "wuxing" and kind == "rps":
        return Step(event, taps=(Tap("host", dict(event)),))  # the referee enters the winner
    return Step(event, taps=(_seat_tap(event),))


def target_zone(game: str, place: str, now: str | None, zones: frozenset[str]
                ) -> str | None:
    """Where a card that lies in mat zone ``now`` (``None``: off the mat) lies after the
    engine moved it to ``place``; ``None``: off the mat (in a hand, a deck, the box, a
    face-down Locus, or a pile the mat has no zone for)."""
    if now is None:
        return None  # cards come onto the mat only by being shown (C-6)
    pile = PILES.get(game, {}).get(place)
    if pile is not None:
        if game == "godnum" and place == "out" and now != "void":
            return None  # a card leaving play from the pot goes back to the box
        return pile if pile in zones else None
    for prefix in SEAT_PLACES:
        if place.startswith(prefix) and place[len(prefix):].isdigit():
            seat = f"{SEAT}{place[len(prefix):]}"
            return seat if seat in zones else None
    if place in zones and not place.startswith("locus:"):
        return place
    return None


def layout(game: str, places: Mapping[str, str], on_mat: Mapping[str, str],
           zones: frozenset[str]) -> dict[str, str]:
    """Serial -> zone of every card on the mat after an event, from ``Rules.places``."""
    out = {}
    for serial, now in on_mat.items():
        z = target_zone(game, places.get(serial, ""), now, zones)
        if z is not None:
            out[serial] = z
    return out
