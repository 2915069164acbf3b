"""Zones: where a card is shown, in exactly one spelling (C-7).

A zone is ``seat:<n>`` (n a decimal integer without sign, padding or whitespace, in
1..players) or the name of a place that some games share (``pot``, ``void``, ``universe``,
``lot``) or own per seat (``locus:<n>``). The web API and every engine parse zones here, so
``seat:+1``, ``seat: 2``, ``seat:01`` or ``seat:1\\n`` can never name a seat by accident.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.errors import MalformedEvent

# One spelling only: a lower-case name, optionally ':' and a seat number 1-99 with no
# leading zero. ``re.fullmatch`` with ``\\Z``-free patterns still accepts a trailing
# newline for ``$``; fullmatch does not, and no ``$`` is used.
_ZONE = re.compile(r"(?P<kind>[a-z][a-z_]{0,23})(?::(?P<seat>[1-9][0-9]?))?")
MAX_ZONE = 32


@dataclass(frozen=True)
class Zone:
    """A parsed zone: ``kind`` (``seat``, ``locus``, ``pot``...) and its seat, if any."""

    kind: str
    seat: int | None = None

    def __str__(self) -> str:
        return f"{self.kind}:{self.seat}" if self.seat is not None else self.kind

    @property
    def shared(self) -> bool:
        """A zone no single seat owns (pot, Void, universe, lot...)."""
        return self.seat is None


def parse_zone(zone: Any, players: int) -> Zone:
    """The zone ``zone`` names at a table of ``players``; raises ``MalformedEvent``.

    ``seat:<n>`` and every other ``<kind>:<n>`` must name a seat 1..players in its one
    spelling; a bare name (``pot``) is a shared zone. Whether the game has that zone is the
    game's to say.
    """
    if not isinstance(zone, str):
        raise MalformedEvent(f"a zone must be text like 'seat:1', got {zone!r}")
    m = _ZONE.fullmatch(zone) if len(zone) <= MAX_ZONE else None
    if m is None:
        raise MalformedEvent(
            f"zone {zone[:MAX_ZONE]!r} is not a zone: write 'seat:<n>' with n a plain number "
            f"1-{players}, or a shared zone name such as 'pot'", rule="C-7")
    kind, seat = m.group("kind"), m.group("seat")
    if seat is None:
        if kind in ("seat", "locus", "deck", "hand", "discard"):
            raise MalformedEvent(f"zone {zone!r} needs a seat number: '{kind}:<n>'",
                                 rule="C-7")
        return Zone(kind)
    n = int(seat)
    if not 1 <= n <= players:
        raise MalformedEvent(f"zone {zone!r}: there is no seat {n} at this table "
                             f"(1-{players})", rule="C-7")
    return Zone(kind, n)


# -- C-9 rev. 3: the public piles and where they lie on the mat ----------------------------
# For each game, a place the engine names in ``Rules.places`` (its kind: ``pot``,
# ``discard`` of ``discard:2``) that is a face-up pile everyone sees, and the mat zone where
# that pile lies (``None``: it lies off the mat, as Mountains & Rivers' discard piles
# beside the board). A per-seat pile keeps its seat: Gem Complete's ``discard:2`` lies in
# ``discard:2``. A hidden place (a deck, a hand, a Locus, ``unknown``) is never here (C-7).
_PILES: dict[str, dict[str, str | None]] = {
    "wuxing": {"pot": "universe", "void": "void"},
    "godnum": {"pot": "pot", "out": "void"},
    "shrine": {"lot": "lot"},
    "mountains": {"discard": None},
    "gemcomplete": {"discard": "discard"},
}
# The piles a scan is never overridden into (the pot and the discard piles, C-9): the card
# is known to lie there, face up, so a scan of it is never a new card.
_NO_OVERRIDE: dict[str, frozenset[str]] = {
    "wuxing": frozenset({"pot", "void"}),
    "godnum": frozenset({"pot", "out"}),
    "mountains": frozenset({"discard"}),
    "gemcomplete": frozenset({"discard"}),
}
# A seat's own face-up place that lies in its seat zone (WuXing's ``table:<n>``, a card
# revealed in a challenge, WX-7; Mountains & Rivers' ``seat:<n>``, the character and
# weapons in front of a player: the seed says "There are no hands", every card there is
# public): seen there again it is "already there" too. The filmed games found it: a card
# in front of a player, covered a moment by the next card drawn, came back as a refusal.
_OWN_PLACES: dict[str, str] = {"wuxing": "table", "mountains": "seat"}


def pile_zone(game: str, place: str) -> str | None:
    """The mat zone where a card that lies in ``place`` is seen again without being played
    (C-9 "already there"), or ``None`` when ``place`` is not a public pile on the mat (a
    hidden place, a deck, a pile off the mat, or a place this game does not have)."""
    kind, _, rest = place.partition(":")
    if _OWN_PLACES.get(game) == kind:
        return f"seat:{rest}" if rest.isdigit() else None
    zone = _PILES.get(game, {}).get(kind)
    if zone is None:
        return None
    return f"{zone}:{rest}" if rest else zone


def never_overridden(game: str, place: str) -> bool:
    """Whether a card that lies in ``place`` is in the pot or a discard pile (C-9): a scan
    of it is never overridden into a new play."""
    return place.partition(":")[0] in _NO_OVERRIDE.get(game, frozenset())
