"""Plain words every game repeats (C-8): name lists, counts, places.

Players read these; ruling ids, seat numbers, zone names and face ids never appear here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence


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


def quoted(items: Iterable[object]) -> str:
    """Cards as typed, each quoted, in a list of words: ``"'S1' and 'S2'"``. A refusal
    names cards so; ``plain`` then turns each serial into its card's name ("Tremor and
    Ruby"), never a program's list ("['S1', 'S2']")."""
    return names(repr(str(x)) for x in items)


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
        back = str(m.get("from_words", m.get("from")))
        out.append(sentence(f"take {what} back from {m.get('to_words', m.get('to'))} and put "
                            f"{'it' if n == 1 else 'them'} back {onto(back)}"))
    return out


def onto(where: str) -> str:
    """A place in words after "put it back": "in front of Ana", "on the deck", "in the
    Void", "face down" (never "put it back: the deck")."""
    if where.startswith(("in front of", "face down", "out of", "on ", "in ", "into ",
                         "at ", "under ")):
        return where
    if where.endswith(("hand", "Void", "Locus", "lot", "pot")):
        return f"in {where}"
    return f"on {where}"


# Plain words for players (C-8): ruling ids in brackets ("(WX-4)", "(C-1, logged)"), places
# ("seat:2", 'deck:1', "pile:weapon"), "seat 2", quoted face ids ('wood') and serials.
RULE_IN_BRACKETS = re.compile(r"\s*\((?:[^()]*?\b[A-Z]{1,3}-\d+[a-z]?\b[^()]*?)\)")
PLACE = re.compile(r"'?\b((?:seat|deck|hand|discard|locus|pile|table):[a-z0-9_]+)\b'?")
SHARED_PLACE = re.compile(r"'(void|pot|lot|universe|out)'")
SEAT_NUMBER = re.compile(r"\bseat (\d+)\b")
QUOTED = re.compile(r"'([a-z][a-z0-9-]*)'")
QUOTED_SERIAL = re.compile(r"'([0-9A-Z]{4}-[0-9A-Z]{3})'")
NAME_TWICE = re.compile(r"'?\b([A-Z][\w -]*?)'? \(\1\)")
THE_TWICE = re.compile(r"\bthe the\b")
PREPOSITION_TWICE = re.compile(r"\b(?:in|to|into|from) (in front of|out of)\b")


def plain(text: str, players: Sequence[str], faces: Mapping[str, str],
          serials: Mapping[str, str] | None = None) -> str:
    """``text`` (a refusal) as a player reads it (C-8): no ruling ids (the refusal's
    ``rule`` keeps them for "why?"), places and seats by the players' names, face ids
    (``faces``: id -> name) and serials (``serials``: serial -> name) by the card's name."""
    def seat(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return players[n - 1] if 1 <= n <= len(players) else m.group(0)

    out = RULE_IN_BRACKETS.sub("", text)
    out = PLACE.sub(lambda m: place(m.group(1), players), out)
    out = SHARED_PLACE.sub(lambda m: place(m.group(1), players), out)
    out = PREPOSITION_TWICE.sub(lambda m: m.group(1), out)
    out = SEAT_NUMBER.sub(seat, out)
    out = QUOTED.sub(lambda m: faces.get(m.group(1), m.group(0)), out)
    if serials:
        out = QUOTED_SERIAL.sub(lambda m: serials.get(m.group(1), m.group(0)), out)
    out = NAME_TWICE.sub(lambda m: m.group(1), out)  # "card 'Ruby' (Ruby)": once
    out = THE_TWICE.sub("the", out)  # "in the 'lot' zone" must not read "the the lot"
    return re.sub(r"\s+([.,;:])", r"\1", out)


# The words check (issue 18 §7): what a player must never read, each with its name.
_FAULTS = (
    ("a raw serial", re.compile(r"\b[0-9A-Z]{4}-[0-9A-Z]{3}\b")),
    ("a ruling id", re.compile(r"\b(?:WX|GN|SK|MR|GC|C)-\d+(?:\.\d+)?\b")),
    ("a zone id", re.compile(r"\b(?:seat|deck|hand|discard|locus|pile|table|unknown|shrine)"
                             r":[\w<]|'(?:lot|pot|void|universe)'")),
    ("a doubled word", re.compile(r"\b([a-z]+) \1\b", re.IGNORECASE)),
    ("one with a plural", re.compile(r"(?<![\d.])\b1 (?:[A-Z][a-z]+ )?(?:steps|cards|Oinks|"
                                     r"points|tiles|turns|players|copies|HPs|bids|coins)\b")),
    ("many with a singular", re.compile(r"(?<![\d.-])\b(?:[02-9]|\d{2,}) (?:step|card|Oink|"
                                        r"point|tile|turn|player|copy|bid)\b(?!s)")),
    ("'top 1 card'", re.compile(r"\btop 1 card\b")),
    ("a number said twice", re.compile(r"\b(\d+) \(\1\)")),
    ("doubled brackets", re.compile(r"\(\(|\)\)|\)\s*\(")),
    ("'back: '", re.compile(r"\bback: ")),
    # Issue 27 point 13: the kinds found after issue 18.
    ("brackets in brackets", re.compile(r"\([^()]*\(")),
    ("a name said twice", re.compile(r"'([^']+)' \(\1\)|\b([A-Z][a-z]+) \(\2\)")),
    ("a program's list", re.compile(r"\[['\"]?\w[^\]]*\]")),
    ("a program's name", re.compile(r"(?<![\w'])'[a-z][a-z0-9_]*'(?![\w'])")),
)


def faults(text: str) -> list[str]:
    """What is wrong with ``text`` as words a player reads (C-8): raw serials, ruling ids,
    zone ids, doubled words, a number that does not agree with its noun, doubled or
    nested brackets, a name said twice ("'Amethyst' (Amethyst)"), a program's list
    ("[Tremor]") or name ("'next' waits"). Empty when nothing is."""
    return [f"{name}: {m.group(0)!r} in {text!r}" for name, pattern in _FAULTS
            for m in [pattern.search(text)] if m]
