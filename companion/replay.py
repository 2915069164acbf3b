"""A table's log replayed record by record: the state after every record, for the record
of a game and its replay page.

A table's log holds three kinds of record (``web.store``): an ``event`` the engine
applied, an ``undo`` that voided the newest play (its ``voids``: the seqs of the events
it took back, C-3) and a ``timer`` change (no change to the game). The state after record
``n`` is therefore the replay of the events up to ``n`` that no undo up to ``n`` took
back: exactly what the live table showed at version ``n``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from companion.engine import Match
from companion.errors import MalformedEvent

KINDS = ("event", "undo", "timer")


def states_after(match: Match[Any], records: Iterable[tuple[str, Mapping[str, Any]]]
                 ) -> Iterator[Any]:
    """Apply each ``(kind, body)`` record to ``match`` (a fresh one: no events yet) and
    yield the state after it. Raises ``MalformedEvent`` for an unknown kind or an undo
    that takes back more events than were played (a damaged log)."""
    for kind, body in records:
        if kind == "event":
            match.apply(dict(body))
        elif kind == "undo":
            voids = body.get("voids", [])
            if not isinstance(voids, list) or not voids or len(voids) > match.version:
                raise MalformedEvent(f"an undo record takes back {voids!r}: not events "
                                     f"of this log ({match.version} played)")
            match.undo(len(voids))
        elif kind not in KINDS:
            raise MalformedEvent(f"a log record of kind {kind!r}: expected one of {KINDS}")
        yield match.state
