"""Card faces and deck data (C-5): compositions, names and texts live in one JSON file per game.

A face is what is printed on the front of a card (``wood``, ``universe-water``); a deck
file lists every face once with its ``count`` of copies in one printed set.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from companion.errors import UnknownCard, UnknownGame

FACE_CODE = re.compile(r"^[0-9A-Z]{1,3}$")
GAME_CODE = re.compile(r"^[A-Z]$")
FACE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")

# Keys a face may carry that are not game-specific attributes.
_FACE_KEYS = {"id", "code", "deck", "count", "name", "kind", "text", "element", "number"}


@dataclass(frozen=True)
class CardFace:
    """One printed face: identity, the deck it belongs to, and its game attributes."""

    game: str
    id: str
    code: str
    deck: str
    count: int
    name: str
    kind: str
    text: str = ""
    element: str | None = None
    number: int | None = None
    attrs: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"CardFace({self.game!r}, {self.id!r})"


@dataclass(frozen=True)
class DeckInfo:
    """A physical deck of a game (own card back): player deck, universe deck, legion..."""

    id: str
    name: str
    back: str
    attrs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DeckData:
    """Everything a game's deck file says: its decks and its faces, in file order."""

    game: str
    title: str
    code: str
    decks: Mapping[str, DeckInfo]
    faces: tuple[CardFace, ...]
    attrs: Mapping[str, Any] = field(default_factory=dict)

    def face(self, face_id: str) -> CardFace:
        """The face with this id; raises ``UnknownCard``."""
        for f in self.faces:
            if f.id == face_id:
                return f
        raise UnknownCard(f"{self.title} has no card face {face_id!r}")

    def face_by_code(self, code: str) -> CardFace:
        """The face with this payload code; raises ``UnknownCard``."""
        for f in self.faces:
            if f.code == code:
                return f
        raise UnknownCard(f"{self.title} has no card face with code {code!r}")

    def faces_of(self, deck: str) -> tuple[CardFace, ...]:
        """Faces that belong to one deck, in file order."""
        return tuple(f for f in self.faces if f.deck == deck)

    def set_size(self, deck: str | None = None) -> int:
        """Cards in one printed set (of one deck, or of all decks)."""
        return sum(f.count for f in self.faces if deck is None or f.deck == deck)

    def __iter__(self) -> Iterator[CardFace]:
        return iter(self.faces)


def parse_deck(data: Mapping[str, Any]) -> DeckData:
    """Build and validate ``DeckData`` from a parsed deck file; raises ``ValueError``."""
    game = _req(data, "game", str, "deck file")
    title = _req(data, "title", str, game)
    code = _req(data, "code", str, game)
    if not GAME_CODE.match(code):
        raise ValueError(f"{game}: game code {code!r} must be one capital letter")
    decks_raw = _req(data, "decks", dict, game)
    decks: dict[str, DeckInfo] = {}
    for deck_id, info in decks_raw.items():
        if not isinstance(info, dict):
            raise ValueError(f"{game}: deck {deck_id!r} must be an object")
        extra = {k: v for k, v in info.items() if k not in {"name", "back"}}
        decks[deck_id] = DeckInfo(
            deck_id, str(info.get("name", deck_id)), str(info.get("back", title)), extra
        )
    faces: list[CardFace] = []
    seen_ids: set[str] = set()
    seen_codes: set[str] = set()
    for raw in _req(data, "faces", list, game):
        if not isinstance(raw, dict):
            raise ValueError(f"{game}: every face must be an object, got {raw!r}")
        fid = _req(raw, "id", str, game)
        where = f"{game} face {fid!r}"
        fcode = _req(raw, "code", str, where)
        deck = _req(raw, "deck", str, where)
        count = _req(raw, "count", int, where)
        if not FACE_ID.match(fid):
            raise ValueError(f"{where}: id must be lower-case letters, digits and '-'")
        if not FACE_CODE.match(fcode):
            raise ValueError(f"{where}: code {fcode!r} must be 1-3 of 0-9 A-Z")
        if fid in seen_ids or fcode in seen_codes:
            raise ValueError(f"{where}: duplicate id or code {fcode!r}")
        if deck not in decks:
            raise ValueError(f"{where}: deck {deck!r} is not declared in 'decks'")
        if count < 0:
            raise ValueError(f"{where}: count must be >= 0, got {count}")
        number = raw.get("number")
        if number is not None and not isinstance(number, int):
            raise ValueError(f"{where}: number must be an integer, got {number!r}")
        element = raw.get("element")
        if element is not None and not isinstance(element, str):
            raise ValueError(f"{where}: element must be a string, got {element!r}")
        seen_ids.add(fid)
        seen_codes.add(fcode)
        faces.append(
            CardFace(
                game=game,
                id=fid,
                code=fcode,
                deck=deck,
                count=count,
                name=str(raw.get("name", fid)),
                kind=str(raw.get("kind", "card")),
                text=str(raw.get("text", "")),
                element=element,
                number=number,
                attrs={k: v for k, v in raw.items() if k not in _FACE_KEYS},
            )
        )
    if not faces:
        raise ValueError(f"{game}: deck file lists no faces")
    extra = {k: v for k, v in data.items() if k not in {"game", "title", "code", "decks", "faces"}}
    return DeckData(game, title, code, decks, tuple(faces), extra)


_CACHE: dict[str, DeckData] = {}


def load_deck(game: str) -> DeckData:
    """The default deck data of ``game`` from ``companion/data/decks/<game>.json``.

    Raises ``UnknownGame`` when there is no such file.
    """
    if game in _CACHE:
        return _CACHE[game]
    if not FACE_ID.match(game):
        raise UnknownGame(f"no game called {game!r}")
    path = resources.files("companion") / "data" / "decks" / f"{game}.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UnknownGame(f"no deck data for a game called {game!r}") from None
    deck = parse_deck(json.loads(text))
    if deck.game != game:
        raise ValueError(f"deck file {game}.json says it is for {deck.game!r}")
    _CACHE[game] = deck
    return deck


def _req(data: Mapping[str, Any], key: str, typ: type, where: str) -> Any:
    if key not in data:
        raise ValueError(f"{where}: missing {key!r}")
    value = data[key]
    if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
        raise ValueError(f"{where}: {key!r} must be {typ.__name__}, got {value!r}")
    return value
