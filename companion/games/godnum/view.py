"""What each seat of a God Num table sees, the actions it may take, and the last play.

Players read plain words (C-8): the ruling id of the latest play is a separate ``rule``
key; the referee view keeps the ids in ``ruling_ids``. A seat never sees another seat's
unseen serials (C-7): hands are hidden, and so is every serial a seat does not own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion import words as common
from companion.cards import CardFace, DeckData
from companion.engine import JSONDict
from companion.games.godnum import adjudicate, legions
from companion.games.godnum import words as gw
from companion.games.godnum.state import GodNumState


def seat_rows(deck: DeckData, state: GodNumState) -> list[JSONDict]:
    rows = []
    for seat, lg in enumerate(state.legions, 1):
        info = deck.decks[lg.deck] if lg.deck else None
        rows.append({
            "seat": seat, "name": state.name(seat), "legion": lg.deck,
            "legion_name": info.name if info else "legion not chosen yet",
            "attributes": list(info.attrs.get("attributes", [])) if info else [],
            "deck": lg.deck_count, "hand": lg.hand_count, "karma": lg.karma,
            "eliminated": lg.eliminated,
            "played": sum(1 for c in state.pile if state.owner.get(c) == seat),
        })
    return rows


def seat_view(deck: DeckData, state: GodNumState, seat: int | None) -> JSONDict:
    """The public view (``seat`` None: the big screen) or a seat's own. The figures that
    matter most come first: the divine number, the target and the current attribute."""
    phase = "over" if state.finished else ("setup" if state.turn is None else "play")
    play = state.last_play
    v: JSONDict = {
        "divine_number": state.divine_number, "target": state.target,
        "attribute": state.attribute, "current": gw.current_words(state),
        "last_number": state.last_number,
        "game": "godnum", "phase": phase, "turn": state.turn,
        "direction": state.direction, "karma_limit": state.options["karma_limit"],
        "bust": state.options["bust"], "seats": seat_rows(deck, state),
        "pile": [{"face": state.cards[c].id, "name": state.cards[c].name,
                  "seat": state.owner.get(c)} for c in state.pile[-5:]],
        "discarding": state.discarding, "burdened": state.burdened,
        "prompt": gw.prompt(state),
        "ruling": gw.play_text(state, play, ids=False) if play else
        "Waiting for the companion to draw the target divine number.",
        "rule": play.rule if play else "GN-4",
        "finished": state.finished, "winners": list(state.winners),
    }
    if seat is not None and 1 <= seat <= len(state.players):
        v["you"] = seat
        v["legal"] = legal_faces(deck, state, seat)
    return v


def referee_view(deck: DeckData, state: GodNumState, places: Mapping[str, str]) -> JSONDict:
    v = seat_view(deck, state, None)
    v["pile"] = [{"card": c, "face": state.cards[c].id, "name": state.cards[c].name,
                  "seat": state.owner.get(c)} for c in state.pile[-5:]]
    v["ruling_ids"] = state.ruling
    v["places"] = dict(places)
    v["unseen"] = {str(i): sorted(lg.unseen) for i, lg in enumerate(state.legions, 1)}
    v["free_legions"] = [{"legion": p.deck, "printed": p.printed} for p in state.free]
    v["options"] = dict(state.options)
    return v


def _why_not(deck: DeckData, state: GodNumState, seat: int, face: CardFace,
             copies: int) -> str | None:
    """Why ``seat`` may not play ``face`` now, in plain words, or ``None`` (GN-5, GN-6)."""
    if state.finished:
        return "the game is over"
    if state.turn is None:
        return "the game has not started"
    if state.legion(seat).eliminated:
        return "you are out of the game"
    if state.turn != seat:
        return f"it is {state.name(state.turn)}'s turn"
    if state.burdened:
        return "discard one card first (Burden)"
    if state.discarding:
        return "you discarded this turn"
    if copies == 0:
        mine = [s for s, f in state.cards.items()
                if f.id == face.id and state.owner.get(s) == seat]
        return ("already played" if any(s in state.pile for s in mine)
                else "out of the game")
    v = adjudicate.verdict(deck, state, face)
    return None if v.ok else gw.reason(v)


def legal_faces(deck: DeckData, state: GodNumState, seat: int) -> list[JSONDict]:
    """Every face of ``seat``'s legion (before binding: of every free legion) with whether it
    may be played now, ``why`` in plain words and, when legal, a ``hint`` (GN-5, GN-6)."""
    if not 1 <= seat <= len(state.players):
        return []
    lg = state.legion(seat)
    held = {f.id: n for f, n in legions.hand_faces(state, deck, seat)}
    if lg.bound:
        faces: list[CardFace] = list(deck.faces_of(str(lg.deck)))
    else:
        faces = [f for f in deck.faces if f.id in held]
    rows = []
    for f in faces:
        why = _why_not(deck, state, seat, f, held.get(f.id, 0))
        v = adjudicate.verdict(deck, state, f)
        row: JSONDict = {"value": f.id, "label": _label(deck, state, seat, f), "ok": why is None,
                         "why": why if why is not None else gw.reason(v)}
        if why is None:
            row["hint"] = gw.hint(state, v, seat)
        rows.append(row)
    return rows


def _label(deck: DeckData, state: GodNumState, seat: int, face: CardFace) -> str:
    if state.legion(seat).bound:
        return face.name
    return f"{face.name} ({deck.decks[face.deck].name.removesuffix(' Legion')})"


def _grouped(deck: DeckData, state: GodNumState, seat: int, face_id: str,
             choice: JSONDict) -> JSONDict:
    """Before a seat is bound its chips span every free legion: ``group`` names the legion,
    so a page can show them legion by legion (GN-2 rev. 2)."""
    if not state.legion(seat).bound:
        choice["group"] = deck.decks[deck.face(face_id).deck].name
    return choice


def face_tile(face: CardFace) -> JSONDict:
    """A card as a picture: face id, name, element and number (issue 11)."""
    tile: JSONDict = {"face": face.id, "name": face.name}
    if face.element:
        tile["element"] = face.element
        tile["color"] = face.element
    if face.number is not None:
        tile["number"] = face.number
    return tile


def actions(deck: DeckData, state: GodNumState, seat: int | None) -> list[JSONDict]:
    """The current player's actions (``seat`` None: the referee's, for that player).

    Playing is one tap: a ``choice`` of the faces the seat may hold, each with a ``hint``
    (where it takes the divine number, GN-5 rev. 2) or ``disabled`` (why not, GN-6). The
    referee's play field is a ``card`` field whose ``faces`` are exactly the legal ones.
    """
    if state.finished or state.turn is None:
        return []
    cur = state.turn
    if seat is not None and seat != cur:
        return []
    lg = state.legion(cur)
    held = legions.hand_faces(state, deck, cur)
    discard_choices = [_grouped(deck, state, cur, f.id,
                                {"value": f.id, "label": _label(deck, state, cur, f),
                                 "copies": n}) for f, n in held]
    if state.burdened:
        return [{"type": "discard", "label": "Discard one card (Burden)", "seat": cur,
                 "rule": "GN-3",
                 "fields": [{"name": "cards", "label": "Card to discard", "kind": "choices",
                             "count": 1, "choices": discard_choices}]}]
    if lg.hand_count == 0 and not state.discarding:
        return [{"type": "pass", "label": "Pass (no cards)", "seat": cur, "fields": [],
                 "rule": "GN-10"}]
    acts: list[JSONDict] = []
    if not state.discarding:
        rows = legal_faces(deck, state, cur)
        choices: list[JSONDict] = []
        for r in rows:
            if r["value"] not in {f.id for f, _ in held} and not r["ok"]:
                continue  # a card the seat cannot hold any more is not a chip
            c: JSONDict = {"value": r["value"], "label": r["label"], "why": r["why"]}
            if r["ok"]:
                c["hint"] = r["hint"]
            else:
                c["disabled"] = r["why"]
            choices.append(_grouped(deck, state, cur, r["value"], c))
        if seat is None:
            legal = [r["value"] for r in rows if r["ok"]]
            field: JSONDict = {"name": "card", "label": "Card played", "kind": "card",
                               "zone": f"seat:{cur}", "hints": rows,
                               "faces": [face_tile(deck.face(f)) for f in legal]}
        else:
            field = {"name": "card", "label": "Card to play", "kind": "choice",
                     "choices": choices}
        acts.append({"type": "play", "label": "Play a card", "seat": cur, "rule": "GN-6",
                     "fields": [field]})
    if lg.hand_count > 0:
        acts.append({"type": "discard", "label": "Discard cards (karma)", "seat": cur,
                     "rule": "GN-9",
                     "fields": [{"name": "cards", "label": "Cards to discard",
                                 "kind": "choices", "min": 1, "max": lg.hand_count,
                                 "choices": discard_choices}]})
    if state.discarding:
        acts.append({"type": "end_turn", "label": "End turn", "seat": cur, "fields": [],
                     "rule": "GN-5"})
    return acts


def last_play(deck: DeckData, state: GodNumState, seat: int | None) -> JSONDict | None:
    """The latest play for ``seat`` (``None``: the big screen, ``0``: the referee): cards
    shown are public by face; a serial only for the referee and the card's owner; cards
    drawn face down are counts (C-7). Words per C-8."""
    play = state.last_play
    if play is None:
        return None
    players = state.players

    def serial_for(serial: str) -> str | None:
        return serial if seat == 0 or (seat is not None and state.owner.get(serial) == seat) \
            else None

    moves: list[JSONDict] = []
    cards: list[JSONDict] = []
    seen: set[str] = set()
    for m in play.movements:
        face = state.cards[m.serial] if m.serial else None
        moves.append({"card": serial_for(m.serial) if m.serial else None,
                      "face": face.id if face else None, "name": face.name if face else None,
                      "from": m.source, "to": m.target, "count": m.count,
                      "from_words": common.place(m.source, players),
                      "to_words": common.place(m.target, players)})
        if m.serial and face and m.serial not in seen:
            seen.add(m.serial)
            tile = face_tile(face)
            if serial_for(m.serial):
                tile["serial"] = m.serial
            cards.append(tile)
    out: dict[str, Any] = {
        "kind": play.kind, "outcome": play.outcome, "rule": play.rule, "seat": play.seat,
        "text": gw.play_text(state, play, ids=False),
        "physical": gw.physical(state, play), "cards": cards, "movements": moves,
        "undo": gw.undo(state, play.movements, discard=play.kind == "discard"),
    }
    return out
