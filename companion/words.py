"""Plain words every game repeats (C-8): name lists, counts, places.

Players read these; ruling ids, seat numbers, zone names and face ids never appear here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def names(items: Iterable[str]) -> str:
    """``"Ana"``, ``"Ana and Bo"``, ``"Ana, Bo and Cy"``; ``"nobody"`` for none."""
    xs = list(items)
    if not xs:
        return "nobody"
    if len(xs) == 1:
        return xs[0]
    return ", ".join(xs[:-1]) + " and " + xs[-1]


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``, ``"no cards"`` (never ``"3 card(s)"``)."""
    if n == 0:
        return f"no {plural or noun + 's'}"
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def possessive(name: str) -> str:
    """``"Ana's"``; ``"Charles'"`` for a name ending in s."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def sentence(text: str) -> str:
    """``text`` with a capital first letter and one full stop at the end."""
    t = text.strip()
    if not t:
        return t
    t = t[0].upper() + t[1:]
    return t if t.endswith((".", "!", "?", ":")) else t + "."


def player_name(players: Sequence[str], seat: int) -> str:
    """Seat ``seat``'s name (1-based); raises ``IndexError`` for a seat not at the table."""
    if not 1 <= seat <= len(players):
        raise IndexError(f"no seat {seat} among {len(players)} players")
    return players[seat - 1]


_SHARED_PLACES = {
    "void": "the Void",
    "pot": "the pot",
    "out": "out of the game",
    "unknown": "face down",
    "universe": "the Universe deck",
    "lot": "the lot",
}
_SEAT_PLACES = {
    "deck": "{owner} deck",
    "hand": "{owner} hand",
    "discard": "{owner} discard pile",
    "locus": "{owner} Locus",
    "seat": "in front of {name}",
    "table": "in front of {name}",
}


def place(where: str, players: Sequence[str], extra: dict[str, str] | None = None) -> str:
    """A place (``deck:2``, ``void``, ``pile:weapon``) in words: "Bo's deck", "the Void",
    "the weapon pile". ``extra`` adds a game's own places (exact names first)."""
    if extra and where in extra:
        return extra[where]
    if where in _SHARED_PLACES:
        return _SHARED_PLACES[where]
    kind, _, rest = where.partition(":")
    if kind in _SEAT_PLACES and rest.isdigit() and 1 <= int(rest) <= len(players):
        who = players[int(rest) - 1]
        return _SEAT_PLACES[kind].format(name=who, owner=possessive(who))
    if kind == "pile" and rest:
        return f"the {rest.replace('_', ' ')} pile"
    return where.replace("_", " ").replace(":", " ")


def undo_lines(movements: Iterable[dict[str, object]]) -> list[str]:
    """What to do physically to undo ``movements`` (``last_play`` JSON), newest first:
    "Take Metal back out of the Void and put it in front of Chen."."""
    out = []
    for m in reversed(list(movements)):
        n = m.get("count", 1)
        what = str(m.get("name") or (count(n, "card") if isinstance(n, int) else "the cards"))
        back = m.get("from_words", m.get("from"))
        out.append(sentence(f"take {what} back from {m.get('to_words', m.get('to'))} and put "
                            f"{'it' if n == 1 else 'them'} back: {back}"))
    return out
