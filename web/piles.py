"""Piles on the server (C-9 rev. 3): a card seen again where it already lies.

The camera sees every card of a pile each time the pile is in view, and a pile's top card
again whenever a hand leaves it: WuXing's pot (in the ``universe`` zone) and Void, God
Num's pot and Void, Shrine's lot, Gem Complete's discard piles. A scan of a card the
companion knows lies in such a public pile, seen in the zone where that pile lies, is not a
play: it is answered ``200 {"card", "face", "name", "zone", "version", "already_there":
true, "ruling": "C-9"}`` and changes nothing, logs nothing, wakes no page (the big screen's
ruling stays) and offers no override. A WuXing card on a seat's own table place
(``table:<n>``, a revealed card) seen again in ``seat:<n>`` is "already there" too.

Only public piles (``companion.zones.pile_zone``): a card in a deck, a hand or a private
Locus goes to the rules like any other scan, so its answer is that of any other card that
cannot be played there (C-7).

A card the companion knows lies in the pot or a discard pile is never overridden into a new
play (C-9): the referee page offers no override for it, and the API refuses one
(``409 in_a_pile``) instead of recording a pile card as a new card.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from companion import words
from companion.engine import Match, Rules
from companion.errors import CompanionError
from companion.runs import PrintedCard, RunBook
from companion.zones import never_overridden, pile_zone
from web.refusal import Refused


class Table(Protocol):
    """What of a ``web.table.Table`` this module reads (a protocol, so that ``web.table``,
    which calls it, is not imported back: no import circles)."""

    game: str
    lock: threading.RLock
    rules: Rules[Any]
    match: Match[Any]
    book: RunBook

    @property
    def players(self) -> list[str]: ...

    @property
    def version(self) -> int: ...

    def resolve_card(self, text: str) -> str: ...

RULING = "C-9"


def place_of(table: Table, serial: str) -> str | None:
    """Where the rules say the card ``serial`` lies now (``None``: not a card of the table)."""
    with table.lock:
        return table.rules.places(table.match.state).get(serial)


def already_there(table: Table, serial: str, zone: str) -> bool:
    """Whether ``serial`` lies in a public pile (or its seat's own table place) that lies in
    ``zone``: seen there again, it is not a play (C-9)."""
    place = place_of(table, serial)
    return place is not None and pile_zone(table.game, place) == zone


def answer(table: Table, card: PrintedCard, zone: str) -> dict[str, Any]:
    """The "already there" answer to a scan of ``card`` in ``zone`` (the same to every
    token: the pile is public)."""
    return {"card": card.serial, "face": card.face.id, "name": card.face.name, "zone": zone,
            "version": table.version, "already_there": True, "ruling": RULING}


def _serial(table: Table, card: Any) -> str | None:
    if not isinstance(card, str):
        return None
    try:
        return table.resolve_card(card)
    except CompanionError:
        return None


def overridable(table: Table, card: Any) -> bool:
    """Whether the referee may override a refused scan of ``card`` (a serial, a payload or a
    face id): not when the card is known to lie in the pot or a discard pile (C-9)."""
    serial = _serial(table, card)
    place = place_of(table, serial) if serial is not None else None
    return place is None or not never_overridden(table.game, place)


def refuse_override(table: Table, card: Any) -> None:
    """Raise ``Refused`` (409 ``in_a_pile``, ruling C-9) for an override of a scan of a card
    the companion knows lies in the pot or a discard pile; the referee's alone, so the
    words may say where it lies."""
    serial = _serial(table, card)
    place = place_of(table, serial) if serial is not None else None
    if serial is None or place is None or not never_overridden(table.game, place):
        return
    name = table.book.card(serial).face.name
    where = words.place(place, table.players)
    exc = Refused(f"{name} ({serial}) is known to lie in a pile ({where}): a card in the pot "
                  "or a discard pile is never accepted again as a new card, so there is "
                  "nothing to override; leave it where it is", code="in_a_pile", status=409)
    exc.rule = RULING
    raise exc
