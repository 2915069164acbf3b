"""Names and other text people type that the companion stores and shows (C-7, C-8).

A stored text is Unicode NFC, 1-40 characters (or the caller's limit), and holds no
character a reader cannot see or that changes how the text around it is shown: control
characters, lone surrogates (valid in JSON, impossible to write as UTF-8, so one of them
took the lobby down), bidirectional overrides and marks, zero-width characters, private-use
and unassigned code points. Two seats may not have names that look the same once case,
compatibility forms and common confusables are folded ("Ana" and "АNA" with a Cyrillic A
would let a player pass for another on the referee page).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from companion.errors import BadSetup

MAX_NAME = 40

# General categories a shown text may not hold: Cc control, Cf format (bidi overrides and
# marks, zero-width space/joiners, soft hyphen), Cs surrogate, Co private use, Cn
# unassigned, Zl/Zp line and paragraph separators.
_REFUSED = {"Cc": "a control character", "Cf": "an invisible formatting character",
            "Cs": "a lone surrogate", "Co": "a private-use character",
            "Cn": "an unassigned character", "Zl": "a line separator",
            "Zp": "a paragraph separator"}

# Letters that look like Latin ones (after NFKC and casefold), from Unicode's
# confusables.txt: the Cyrillic and Greek lower-case look-alikes and the digits people
# read as letters. Enough to stop a look-alike seat name; not a full skeleton algorithm.
_CONFUSABLE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "l", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x",
    "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ɡ": "g", "ɑ": "a",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ϲ": "c",
    "0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "$": "s",
})


class BadText(BadSetup):
    """A name or other stored text that cannot be stored (400 ``bad_setup``)."""


def problem(text: Any, limit: int = MAX_NAME) -> str | None:
    """Why ``text`` cannot be stored as it is, or ``None`` if it can (already normalised)."""
    if not isinstance(text, str):
        return f"must be text, got {type(text).__name__}"
    if not text.strip():
        return f"is empty: it must be 1-{limit} characters"
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in _REFUSED:
            return f"holds {_REFUSED[cat]} (U+{ord(ch):04X})"
    if len(text) > limit:
        return (f"is longer than {limit} characters ({len(text)}): it must be "
                f"1-{limit} characters")
    if text != unicodedata.normalize("NFC", text) or text != text.strip():
        return "is not in normal form (Unicode NFC, no spaces at either end)"
    return None


def clean(text: Any, what: str = "name", limit: int = MAX_NAME) -> str:
    """``text`` normalised (NFC, outer spaces trimmed); raises ``BadText`` naming the
    problem and quoting the text (escaped, so a refusal can always be shown)."""
    if isinstance(text, str):
        text = unicodedata.normalize("NFC", text).strip()
    why = problem(text, limit)
    if why is not None:
        raise BadText(f"{what} {shown(text)} {why}")
    return str(text)


def fold(name: str) -> str:
    """What a name looks like: compatibility forms, case and common look-alikes folded,
    runs of spaces made one."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(_CONFUSABLE)
    return " ".join(folded.split()).replace("rn", "m").replace("vv", "w")


def player_names(players: Sequence[Any]) -> tuple[str, ...]:
    """The players' names, normalised; raises ``BadText`` for a name that cannot be stored
    and ``BadSetup`` for two names that look the same (C-7: a seat is told apart by name)."""
    out = tuple(clean(p, "player name") for p in players)
    seen: dict[str, str] = {}
    for name in out:
        key = fold(name)
        if key in seen:
            raise BadSetup(f"player names {seen[key]!r} and {name!r} look the same; names "
                           "must differ so that every seat can be told apart")
        seen[key] = name
    return out


def shown(text: Any, limit: int = 60) -> str:
    """``text`` quoted for a message or a page: anything ``problem`` refuses is escaped
    (``\\ud800``), so the result is always printable UTF-8. Long text is cut."""
    if not isinstance(text, str):
        return repr(text)[:limit]
    cut = text if len(text) <= limit else text[:limit] + "…"
    return "'" + "".join(
        ch if unicodedata.category(ch) not in _REFUSED else
        (f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        for ch in cut) + "'"


def escaped(text: Any) -> str:
    """Stored text made showable: itself if ``problem`` finds nothing wrong with it,
    else its escaped form without quotes (a record from before these checks)."""
    if isinstance(text, str) and problem(text, limit=10_000) is None:
        return text
    return shown(text, limit=10_000)[1:-1] if isinstance(text, str) else repr(text)
