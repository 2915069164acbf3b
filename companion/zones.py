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
