"""The latest Mountains & Rivers play in plain words, per viewer (issue 11, C-7, C-8).

``last_play`` turns the ``Play`` that ``adjudicate`` recorded (card movements, outcome,
ruling id, actor, facts) into the JSON of ``Rules.last_play``: one sentence of what
happened, what to do with the physical cards and pawns, the cards for pictures, the
movements with their places in words, and what to do physically to undo it. No ruling
ids, seat numbers, zone names or face ids reach the words; serials only reach the referee
(``0``) and the seat whose card it is.
"""

from __future__ import annotations

from typing import Any

from companion.engine import JSONDict, Movement
from companion.games.mountains.marks import element_colour
from companion.games.mountains.state import FACE_DOWN, MountainsState, place_words
from companion.games.mountains.view import plain
from companion.words import possessive, sentence


def _owner(where: str) -> int | None:
    kind, _, n = where.partition(":")
    return int(n) if kind == "seat" and n.isdigit() else None


def _card_json(s: MountainsState, serial: str, show_serial: bool) -> JSONDict:
    f = s.face(serial)
    card: JSONDict = {"face": f.id, "name": f.name, "color": element_colour(f.element)}
    if f.element:
        card["element"] = f.element
    if f.deck == "weapon":
        card["number"] = f.attrs["attack"]
        card["range"] = f.attrs["range"]
    if show_serial:
        card["serial"] = serial
    return card


def _the(s: MountainsState, serial: str) -> str:
    """A card in words: "the Flame Spear"; characters and card titles are named bare
    ("Huan", "Mountain Gaze")."""
    f = s.face(serial)
    return f"the {f.name}" if f.deck == "weapon" else f.name


def _physical(s: MountainsState, m: Movement) -> str:
    """What to do with the physical card(s) of one movement, in one sentence."""
    src, dst = m.source, m.target
    if m.serial is None:  # a reshuffle: discards go face down as a new pile
        deck = dst.partition(":")[2]
        return sentence(f"shuffle the {deck} discard pile into a new {deck} pile")
    what = _the(s, m.serial)
    to_seat, from_seat = _owner(dst), _owner(src)
    if to_seat is not None and from_seat is not None:
        return sentence(f"{s.name(to_seat)}: take {what} from {s.name(from_seat)}")
    if to_seat is not None:
        return sentence(f"{s.name(to_seat)}: keep {what} face up in front of you")
    if src in FACE_DOWN and dst.startswith("discard:"):
        return sentence(f"read {what} aloud, then put it on {place_words(s, dst)}")
    if from_seat is not None:
        return sentence(f"put {possessive(s.name(from_seat))} {s.face(m.serial).name} on "
                        f"{place_words(s, dst)}")
    return sentence(f"move {what} from {place_words(s, src)} to {place_words(s, dst)}")


def _undo(s: MountainsState, m: Movement) -> str:
    """What to do physically to take one movement back."""
    src, dst = m.source, m.target
    if m.serial is None:
        return sentence(f"put the {m.count} cards of {place_words(s, dst)} back on "
                        f"{place_words(s, src)}")
    what = _the(s, m.serial)
    to_seat, from_seat = _owner(dst), _owner(src)
    if to_seat is not None and from_seat is not None:
        return sentence(f"{s.name(to_seat)}: give {what} back to {s.name(from_seat)}")
    if to_seat is not None:
        return sentence(f"{s.name(to_seat)}: put {what} back in {place_words(s, src)}")
    if from_seat is not None:
        return sentence(f"take {what} off {place_words(s, dst)} and give it back to "
                        f"{s.name(from_seat)}")
    return sentence(f"take {what} off {place_words(s, dst)} and put it back in "
                    f"{place_words(s, src)}")


def last_play(s: MountainsState, seat: int | None) -> JSONDict | None:
    """What the latest event did, for ``seat`` (``None``: the big screen; ``0``: the
    referee), or ``None`` before the first play. See ``Rules.last_play``."""
    play = s.last_play
    if play is None:
        return None
    facts: dict[str, Any] = dict(play.facts)
    referee = seat == 0
    movements: list[JSONDict] = []
    cards: list[JSONDict] = []
    physical: list[str] = []
    for m in play.movements:
        owners = {_owner(m.source), _owner(m.target)}
        show = referee or (seat is not None and seat in owners)
        entry: JSONDict = {"card": m.serial if show else None, "face": None, "name": None,
                           "from": m.source, "to": m.target, "count": m.count,
                           "from_words": place_words(s, m.source),
                           "to_words": place_words(s, m.target)}
        if m.serial is not None:  # a card seen face up: its face is public (C-1)
            f = s.face(m.serial)
            entry["face"], entry["name"] = f.id, f.name
            cards.append(_card_json(s, m.serial, show))
        movements.append(entry)
        physical.append(_physical(s, m))
    for who, deck in facts.get("asks", []):
        physical.append(sentence(f"{s.name(who)}: draw a {deck} card from "
                                 f"{place_words(s, 'pile:' + deck)} and show it in your "
                                 "place"))
    for who, _, to in facts.get("pawns", []):
        physical.append(sentence(f"{s.name(who)}: move your pawn to {to}"))
    for who, _, hp in facts.get("hp", []):
        physical.append(sentence(f"{s.name(who)}: set your HP to {hp}"))
    undo = [_undo(s, m) for m in reversed(play.movements)]
    undo += [sentence(f"{s.name(who)}: move your pawn back to {frm}")
             for who, frm, _ in reversed(facts.get("pawns", []))]
    undo += [sentence(f"{s.name(who)}: set your HP back to {hp}")
             for who, hp, _ in reversed(facts.get("hp", []))]
    text = str(facts.get("text", ""))
    return {
        "kind": play.kind,
        "outcome": play.outcome,
        "rule": play.rule,
        "seat": play.seat,
        "text": sentence(plain(text)),
        "physical": physical,
        "cards": cards,
        "movements": movements,
        "undo": undo,
    }
