"""A stand-in's serial is for its owner and the referee only (C-7 rev. 3).

A card a player taps instead of scanning ("Ruby") is recorded under one printed copy's
serial, a *stand-in* (``Rules.stand_ins``). Which copy the companion picked depends on
where the other copies are recorded, hidden ones too: a serial shown to the opponent
would tell which Gem lies in a private Locus. So everything a viewer other than the
stand-in's owner and the referee reads (views, the last play, actions, the history, the
record, the replay) goes through ``veil`` first: the card keeps its face and name, its
serial goes.

- ``hidden_from(stand_ins, seat)``: the serials ``seat`` may not read (``None``: the big
  screen, the camera and anyone without a seat; ``0``: the referee, who reads them all);
  ``hidden_ever`` the same over a whole game (a table's pages, record and replay).
- ``veil(value, hidden, names)``: a JSON-like value without them: a string equal to one
  becomes ``None`` (``"card": null``, a list keeps its length), a mapping key equal to one
  is dropped, and a longer text naming one names the card instead (``names``).
- ``veil_actions(actions, hidden, faces)``: actions whose values name a hidden serial (the
  opponent choosing 2 of 6 revealed cards, GC-4) carry a stand-in name instead, the face
  id and a number (``a-ruby~1``); ``unveil(event, aliases)`` turns those back into the
  serials before the rules see the event, so the choice is exact and nothing is learnt.

Pure: no web, camera or print imports; JSON in, JSON out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set
from typing import Any

ALIAS = "~"  # face id, ALIAS, number: never a serial, face id or printed name


def hidden_from(stand_ins: Mapping[str, int | None], seat: int | None) -> frozenset[str]:
    """The stand-ins' serials ``seat`` may not read: those of other seats and of no seat.
    ``seat`` 0 is the referee (nothing hidden), ``None`` a viewer without a seat."""
    if seat == 0 or not stand_ins:
        return frozenset()
    return frozenset(c for c, owner in stand_ins.items() if owner is None or owner != seat)


def hidden_ever(owners: Mapping[str, Set[int | None]], seat: int | None) -> frozenset[str]:
    """As ``hidden_from`` for serials that stood in for a tap at any moment of a game
    (``owners``: serial -> every seat that owned it then): hidden from ``seat`` unless it
    always was that seat's own. A stand-in later told apart by a scan stays veiled: the
    serial the last play moves from its place would tell what the veil hid before."""
    if seat == 0:
        return frozenset()
    return frozenset(c for c, seats in owners.items() if seat is None or set(seats) != {seat})


def _pattern(hidden: Set[str]) -> re.Pattern[str]:
    """A hidden serial inside a text, not as a part of a longer word."""
    either = "|".join(re.escape(c) for c in sorted(hidden, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{either})(?![\w-])")


def veil(value: Any, hidden: Set[str], names: Mapping[str, str] | None = None) -> Any:
    """``value`` with the ``hidden`` serials taken out (see the module doc). ``value`` itself
    is returned when nothing is hidden; otherwise a copy (``value`` is never changed)."""
    if not hidden:
        return value
    return _veil(value, hidden, _pattern(hidden), names or {})


def _veil(value: Any, hidden: Set[str], pattern: re.Pattern[str],
          names: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        if value in hidden:
            return None
        if pattern.search(value) is None:
            return value
        return pattern.sub(lambda m: names.get(m.group(0), "a card"), value)
    if isinstance(value, Mapping):
        return {k: _veil(v, hidden, pattern, names) for k, v in value.items()
                if k not in hidden}
    if isinstance(value, list | tuple):
        return [_veil(v, hidden, pattern, names) for v in value]
    return value


def aliases(actions: Any, hidden: Set[str], faces: Mapping[str, str]) -> dict[str, str]:
    """Alias -> serial for the ``hidden`` serials ``actions`` names, numbered per face in
    the order the actions name them (``a-ruby~1``, ``a-ruby~2``): the same actions of the
    same state give the same aliases, and an alias tells nothing of its serial."""
    out: dict[str, str] = {}
    if not hidden:
        return out
    seen: dict[str, str] = {}
    count: dict[str, int] = {}

    def walk(v: Any) -> None:
        if isinstance(v, str):
            if v in hidden and v not in seen:
                face = faces.get(v, "card")
                count[face] = count.get(face, 0) + 1
                seen[v] = alias = f"{face}{ALIAS}{count[face]}"
                out[alias] = v
        elif isinstance(v, Mapping):
            for x in v.values():
                walk(x)
        elif isinstance(v, list | tuple):
            for x in v:
                walk(x)

    walk(actions)
    return out


def veil_actions(actions: Any, hidden: Set[str], faces: Mapping[str, str],
                 names: Mapping[str, str] | None = None) -> Any:
    """``actions`` with each ``hidden`` serial a value names replaced by its alias
    (``aliases``), and the rest veiled as ``veil`` does."""
    if not hidden:
        return actions
    back = {serial: alias for alias, serial in aliases(actions, hidden, faces).items()}

    def walk(v: Any) -> Any:
        if isinstance(v, str) and v in back:
            return back[v]
        if isinstance(v, Mapping):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [walk(x) for x in v]
        return v

    return veil(walk(actions), hidden, names)


def unveil(event: Mapping[str, Any], table: Mapping[str, str]) -> dict[str, Any]:
    """``event`` with each alias of ``table`` (``aliases``) in a field, or in a list field,
    turned back into its serial. Other values are left as sent."""
    out = dict(event)
    if not table:
        return out
    for k, v in event.items():
        if isinstance(v, str) and v in table:
            out[k] = table[v]
        elif isinstance(v, list) and any(isinstance(x, str) and x in table for x in v):
            out[k] = [table[x] if isinstance(x, str) and x in table else x for x in v]
    return out
