"""How a player names a card, in every game (C-1, C-7; issue 18 §1, issue 20 §2).

A card field of an event (``card``, ``card2``, ``cards``, a strike's ``card``) takes a
serial (``K2F9-01A``, any case), a QR payload, a face id (``b-topaz``) or the printed
name (``Topaz``, any case). The games read serials, payloads and face ids themselves
(``engine.card_ref``); a printed name is read here, once for every game, by trying the
event with each face of that name (a name such as "Ruby" is printed in both Gem Complete
decks), deck by deck in the deck file's order. The first that the rules accept is
played; if none is, the refusal quotes the name as sent.

No oracle: which face is tried first depends on the deck file only, never on where any
copy lies, and the refusal chosen among the faces' refusals is picked by a fixed order,
so a name reads the same whatever the hidden cards are, just as its faces do.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from companion import codec
from companion.cards import CardFace, load_deck
from companion.errors import (
    CompanionError,
    MalformedEvent,
    MalformedPayload,
    OutOfTurn,
    UnknownCard,
)

T = TypeVar("T")

# A serial quoted in a refusal ("'61FA-002'"), as ``codec`` prints them.
QUOTED_SERIAL = re.compile(r"'([0-9A-Z]{4}-[0-9A-Z]{3})'")

# The event fields that name cards, in every game: one card, or a list (or a text of
# cards separated by commas), or a list of objects each naming one (Mountains' strikes).
ONE_CARD = ("card", "card2")
CARD_LISTS = ("cards",)
NESTED = ("strikes",)


def card_ref(cards: Mapping[str, CardFace], text: Any) -> Any:
    """The serial meant by ``text`` entered by hand: a serial in any case, or a card's QR
    payload text (``T1:...``) typed or pasted. Anything else comes back unchanged, for the
    game to refuse or to read as a face id.

    Raises ``UnknownCard`` (C-1) for a payload whose face does not match the printed serial.
    """
    if not isinstance(text, str):
        return text
    t = text.strip()
    if t.upper().startswith(codec.PREFIX + ":"):
        try:
            p = codec.decode(t.upper())
        except MalformedPayload:
            return t
        if p.serial in cards and cards[p.serial].code != p.face_code:
            raise UnknownCard(f"{text!r}: serial {p.serial!r} was printed as "
                              f"{cards[p.serial].id!r}; this code does not match it", rule="C-1")
        return p.serial
    return t.upper() if t.upper() in cards else t


def card_list(cards: Mapping[str, CardFace], value: Any, key: str) -> list[Any]:
    """Card references from a JSON list, or from a text of them separated by commas."""
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").replace(";", " ").split() if v]
    if not isinstance(value, list):
        raise MalformedEvent(f"event field {key!r} must be a list of cards, got {value!r}")
    return [card_ref(cards, v) for v in value]


def fold(text: str) -> str:
    """A printed name as people type it: case, runs of spaces and hyphens folded."""
    return " ".join(text.replace("-", " ").replace("’", "'").casefold().split())


_NAMES: dict[int, tuple[Mapping[str, CardFace], dict[str, list[CardFace]]]] = {}


def faces_named(cards: Mapping[str, CardFace], text: str) -> list[CardFace]:
    """The faces of this table whose printed name is ``text`` (deck-file order of first
    appearance); empty when ``text`` is a serial, a face id or no card's name."""
    if not isinstance(text, str) or not text.strip() or text.strip().upper() in cards:
        return []
    key = id(cards)
    hit = _NAMES.get(key)
    if hit is None or hit[0] is not cards:
        index: dict[str, list[CardFace]] = {}
        for f in cards.values():
            same = index.setdefault(fold(f.name), [])
            if f not in same:
                same.append(f)
        if len(_NAMES) >= 64:  # bounded: tables come and go; an index is cheap to rebuild
            _NAMES.clear()
        hit = _NAMES[key] = (cards, index)
    if any(f.id == text.strip() for f in hit[1].get(fold(text), ())):
        return []  # the face id itself ("fire", "wood"): the games read it
    return list(hit[1].get(fold(text), ()))


def _card_texts(event: Mapping[str, Any]) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every card reference of ``event`` that is text: (where it is, the text)."""
    for key in ONE_CARD:
        if isinstance(event.get(key), str):
            yield (key,), event[key]
    for key in CARD_LISTS:
        value = event.get(key)
        if isinstance(value, str):
            value = [v for v in value.replace(";", ",").split(",") if v.strip()]
        if isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, str):
                    yield (key, i), v
    for key in NESTED:
        value = event.get(key)
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, dict) and isinstance(item.get("card"), str):
                    yield (key, i, "card"), item["card"]


def _with(event: Mapping[str, Any], changes: Mapping[tuple[Any, ...], str]) -> dict[str, Any]:
    out = dict(event)
    for path, value in changes.items():
        if len(path) == 1:
            out[path[0]] = value
            continue
        key = path[0]
        seq = out[key]
        if isinstance(seq, str):
            seq = [v.strip() for v in seq.replace(";", ",").split(",") if v.strip()]
        seq = [dict(x) if isinstance(x, dict) else x for x in seq]
        if len(path) == 2:
            seq[path[1]] = value
        else:
            seq[path[1]][path[2]] = value
        out[key] = seq
    return out


def readings(cards: Mapping[str, CardFace], event: Mapping[str, Any]
             ) -> list[tuple[dict[str, Any], dict[str, str]]] | None:
    """The events ``event`` may mean when it names cards by printed name, in the order to
    try them, each with the face ids put for the typed names; ``None`` when it names none.

    One reading per deck the names are printed in: every name is read as its face in
    that deck (or, printed in one deck only, its one face).
    """
    named = [(path, text, faces_named(cards, text)) for path, text in _card_texts(event)]
    named = [n for n in named if n[2]]
    if not named:
        return None
    decks: list[str] = []
    for _path, _text, faces in named:
        for f in faces:
            if f.deck not in decks:
                decks.append(f.deck)
    out = []
    for deck in decks:
        changes: dict[tuple[Any, ...], str] = {}
        quoted: dict[str, str] = {}
        for path, text, faces in named:
            face = next((f for f in faces if f.deck == deck), faces[0])
            changes[path] = face.id
            quoted[face.id] = text
        out.append((_with(event, changes), quoted))
    return out


def requote(exc: CompanionError, quoted: Mapping[str, str]) -> CompanionError:
    """``exc`` with every face id it quotes for a typed name put back as typed (a refusal
    quotes what was sent, C-7)."""
    plain = exc.plain
    for face_id, typed in quoted.items():
        plain = plain.replace(repr(face_id), repr(typed))
    if plain == exc.plain:
        return exc
    new = type(exc)(plain, rule=exc.rule)
    new.__cause__ = exc.__cause__
    return new


def play_named(apply: Callable[[Mapping[str, Any]], T], cards: Mapping[str, CardFace],
               event: Mapping[str, Any], *, names_bind: bool = False
               ) -> tuple[T, Mapping[str, Any]]:
    """``apply(event)``, reading printed names in its card fields: returns what ``apply``
    returned and the event it took (names replaced by face ids, so replay is exact).

    Raises the refusal of the first reading that is not about who acts (C-7), else the
    first reading's, quoting the names as typed. ``names_bind``: a face binds its seat to
    its deck (God Num's legions, GN-2 rev. 2), so ``apply`` must be pure: a name that
    several decks print and that more than one of them could take now binds nothing and
    is refused as saying too little (C-10 rev. 3).
    """
    options = readings(cards, event)
    if options is None:
        return apply(event), event
    if names_bind and len(options) > 1:
        return _one_binding(apply, cards, options)
    refusals: list[tuple[CompanionError, Mapping[str, str]]] = []
    for reading, quoted in options:
        try:
            return apply(reading), reading
        except CompanionError as exc:
            refusals.append((exc, quoted))
    chosen, typed = next(((e, q) for e, q in refusals if not isinstance(e, OutOfTurn)),
                         refusals[0])
    raise requote(chosen, typed) from None


def _one_binding(apply: Callable[[Mapping[str, Any]], T], cards: Mapping[str, CardFace],
                 options: list[tuple[dict[str, Any], dict[str, str]]]
                 ) -> tuple[T, Mapping[str, Any]]:
    """The one reading the rules take, when a face binds its deck (C-10 rev. 3)."""
    taken: list[tuple[T, dict[str, Any], dict[str, str]]] = []
    refusals: list[tuple[CompanionError, Mapping[str, str]]] = []
    for reading, quoted in options:
        try:
            taken.append((apply(reading), reading, quoted))
        except CompanionError as exc:
            refusals.append((exc, quoted))
    if len(taken) == 1:
        return taken[0][0], taken[0][1]
    if not taken:
        chosen, typed = next(((e, q) for e, q in refusals if not isinstance(e, OutOfTurn)),
                             refusals[0])
        raise requote(chosen, typed)
    faces = [f for _, _, quoted in taken for face_id in quoted
             if (f := cards_face(cards, face_id)) is not None]
    known = load_deck(faces[0].game).decks
    names = [known[d].name for d in dict.fromkeys(f.deck for f in faces) if d in known]
    said = ", ".join(repr(t) for t in dict.fromkeys(taken[0][2].values()))
    raise MalformedEvent(
        f"{said} is printed in the {' and the '.join(names)}, and your first card decides "
        "which is yours: scan the card, or tap it where your deck's cards are shown",
        rule="C-10")


def cards_face(cards: Mapping[str, CardFace], face_id: str) -> CardFace | None:
    """The face ``face_id`` among ``cards``' faces (``None``: no card of the table)."""
    return next((f for f in cards.values() if f.id == face_id), None)


def as_sent(exc: CompanionError, event: Mapping[str, Any]) -> CompanionError:
    """``exc`` quoting the cards as ``event`` sent them: a serial the companion resolved
    (the copy a face id or a name was read as) is put back as it was typed, so no refusal
    tells which copy lies where (C-7, issue 18 §1). A serial that was sent stays."""
    sent = [text for _path, text in _card_texts(event)]
    upper = [t.strip().upper() for t in sent]

    def typed(m: re.Match[str]) -> str:
        if any(m.group(1) in t for t in upper):  # sent as such, or inside a QR text sent
            return m.group(0)
        if len(sent) == 1:
            return repr(sent[0])
        return "one of " + ", ".join(repr(t) for t in sent) if sent else "the card"

    plain = QUOTED_SERIAL.sub(typed, exc.plain)
    if plain == exc.plain:
        return exc
    new = type(exc)(plain, rule=exc.rule)
    new.__cause__ = exc.__cause__
    return new
