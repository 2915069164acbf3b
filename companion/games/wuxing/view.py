"""What each WuXing seat sees, the actions it may take, and the words of every play (C-7,
C-8, issue 11).

View keys (``view``): ``game``, ``phase``, ``players`` (seat, name, cards, out), ``decks``
(seat -> cards in deck), ``pot`` (face ids, bottom to top), ``pot_size``,
``universe_card`` (face id or null) and ``universe`` (its tile: face, name, element),
``universe_left``, ``void`` (count), ``counts`` (the figures that matter: pot, Void,
Universe deck, each player's deck, by name), ``challenge`` (the two seats, or []),
``revealed`` (seat -> face id shown this challenge), ``awaiting`` (seats whose card is
awaited) and ``owing`` (their names, in a Dragon/Star round or the sudden death),
``turn``, ``out``, ``winner``, ``winners``, ``finished``, ``prompt`` and ``ruling`` (plain
words, C-8) with ``rule`` (the ruling id behind a "why?"), ``last_adjudication``,
``adjudications``, ``challenges``, ``options``; in the tie-breaker ``duel`` (seats still
in it, in taking order) and ``duel_table`` (seat -> face ids taken this round); with a
seat also ``you`` and ``your_known_cards`` (faces the companion knows are in your deck).
``referee_view`` adds ``places``, ``unseen``, ``set_aside``, ``known`` and ``pot_cards``
(serials), and keeps the ruling ids in ``ruling``, ``prompt`` and ``last_adjudication``.
"""

from __future__ import annotations

from companion.engine import POT, VOID, JSONDict, Movement, Play, deck_of
from companion.games.wuxing.rulings import a, plain
from companion.games.wuxing.standins import fits_for
from companion.games.wuxing.state import (
    DRAW,
    DUEL,
    FEED,
    PURGE,
    REVEAL,
    START,
    UNIVERSE,
    Table,
    WuXingState,
)
from companion.words import count, names, place, sentence

__all__ = ["a", "actions", "copy_for", "last_play", "place_words", "prompt", "referee_view",
           "view"]


def place_words(t: Table, where: str) -> str:
    """A place in words: "Ana's deck", "the Void", "in front of Bo"."""
    return place(where, t.names)


def _onto(t: Table, where: str) -> str:
    """Where a card is put, as the sentence says it: "on the pot", "in the Void"."""
    if where == POT:
        return "on the pot"
    if where == VOID:
        return "in the Void"
    if where == UNIVERSE:
        return "on the Universe deck"
    if where.startswith("deck:"):
        return f"on {place_words(t, where)}"
    return place_words(t, where)


# -- what a seat may show now (one tap, C-1, C-2) ---------------------------------------------

def copy_for(state: WuXingState, face_id: str, seat: int | None) -> str | None:
    """The copy of ``face_id`` a card shown now in ``seat``'s zone (``None``: the Universe
    zone) is recorded under (a stand-in, issue 18), or ``None`` if no copy can be there
    (``standins.fits_for``: the top of a deck is a card nobody has seen while any is left)."""
    fits = fits_for(state, seat)
    return next((c for c in state.table.by_face.get(face_id, ()) if fits(c)), None)


def _tile(t: Table, serial: str) -> JSONDict:
    f = t.faces[serial]
    tile: JSONDict = {"face": f.id, "name": f.name}
    if f.element:
        tile["element"] = f.element
    if f.number is not None:
        tile["number"] = f.number
    return tile


def faces(state: WuXingState, seat: int | None) -> list[JSONDict]:
    """The faces a card shown now in ``seat``'s zone (``None``: Universe zone) may be:
    exactly those ``apply`` accepts as a face id (tap-to-play tiles, issue 11)."""
    t = state.table
    out = []
    for face_id in t.by_face:
        c = copy_for(state, face_id, seat)
        if c is not None:
            out.append(_tile(t, c))
    return out


# -- prompts and views -----------------------------------------------------------------------

def prompt(state: WuXingState) -> str:
    """What the table waits for, with the ruling id (the referee's words)."""
    t = state.table
    ph = state.phase
    if ph == START:
        if t.start == "rps":
            return ("Play rock-paper-scissors and enter the winner: the winner starts "
                    "(WX-12).")
        return ("Pull cards from the player deck one at a time and show each in your place: "
                "the first to show an Infinite Dragon starts (WX-12).")
    who = t.names_of(state.awaiting) if state.awaiting else ""
    if ph == DRAW:
        first, second = state.challenge
        return (f"{t.name(first)} v {t.name(second)}: {t.name(first)}, lay the top Universe "
                "card face up on the pot and show it (WX-4).")
    if ph == FEED:
        return (f"Universe Dragon: {who}, show your top card in your place, then put it "
                "face up on the pot (WX-5).")
    if ph == PURGE:
        return (f"Universe Star: {who}, show your top card in your place, then put it into "
                "the Void (WX-6).")
    if ph == REVEAL:
        u = state.universe_card
        return (f"{who}: show your top card in your place, against the Universe "
                f"{t.label[u] if u else '?'} (WX-7).")
    if ph == DUEL:
        return (f"Sudden death between {t.names_of(state.duel)}: {who}, take the top "
                "Universe card and show it in your place (WX-11).")
    won = t.names_of(state.winners) if state.winners else ""
    return f"Game over: {won} {'wins' if len(state.winners) == 1 else 'share the win'}."


def view(state: WuXingState, seat: int | None) -> JSONDict:
    """What ``seat`` (``None``: the public big screen) may see, in plain words (C-8)."""
    t = state.table
    fc = t.faces
    out: JSONDict = {
        "game": "wuxing",
        "phase": state.phase,
        "players": [{"seat": s, "name": t.name(s), "cards": state.decks[s - 1],
                     "out": s in state.out} for s in t.seats],
        "decks": {str(s): state.decks[s - 1] for s in t.seats},
        "pot": [fc[c].id for c in state.pot],
        "pot_size": len(state.pot),
        "universe_card": fc[state.universe_card].id if state.universe_card else None,
        "universe": _tile(t, state.universe_card) if state.universe_card else None,
        "universe_left": state.universe_left,
        "void": state.void,
        "counts": {"pot": len(state.pot), "void": state.void,
                   "universe": state.universe_left,
                   "decks": {t.name(s): state.decks[s - 1] for s in t.seats}},
        "challenge": list(state.challenge),
        "revealed": {str(s): fc[c].id for s, c in state.revealed},
        "awaiting": list(state.awaiting),
        "owing": [t.name(s) for s in state.awaiting]
        if state.phase in (FEED, PURGE, DUEL) else [],
        # Where an owed card goes once shown (C-6 rev. 3): the pot, the Void, or it stays.
        "owing_to": {FEED: "pot", PURGE: "void", DUEL: "place"}.get(state.phase),
        "turn": state.turn,
        "out": sorted(state.out),
        "winner": state.winners[0] if len(state.winners) == 1 else None,
        "winners": list(state.winners),
        "finished": state.finished,
        "prompt": plain(prompt(state)),
        "ruling": plain(state.ruling),
        "rule": state.last_play.rule if state.last_play else None,
        "last_adjudication": plain(state.last_adjudication),
        "adjudications": state.adjudications,
        "challenges": state.challenges,
        "options": {"end": t.end, "start": t.start},
    }
    if state.phase == DUEL:
        out["duel"] = list(state.duel)
        taken: dict[str, list[str]] = {}
        for s, c in state.duel_cards:
            taken.setdefault(str(s), []).append(fc[c].id)
        out["duel_table"] = taken
    if seat is not None and seat in t.seats:
        mine = deck_of(seat)
        out["you"] = seat
        out["your_known_cards"] = sorted(fc[c].id for c, p in state.places.items()
                                         if p == mine)
    return out


def referee_view(state: WuXingState) -> JSONDict:
    """Everything the referee may see, ruling ids included."""
    t = state.table
    out = view(state, None)
    out["prompt"] = prompt(state)
    out["ruling"] = state.ruling
    out["last_adjudication"] = state.last_adjudication
    out["places"] = dict(state.places)
    out["unseen"] = {str(s): state.unseen[s - 1] for s in t.seats}
    out["set_aside"] = state.set_aside
    known: dict[str, list[str]] = {str(s): [] for s in t.seats}
    for c, p in sorted(state.places.items()):
        if p.startswith("deck:"):
            known[p[5:]].append(c)
    out["known"] = known
    out["pot_cards"] = list(state.pot)
    # Serials recorded for a tap whose place is still a guess (issue 18): not pinned.
    out["stand_ins"] = sorted(c for c in state.stand_ins if c not in state.pinned)
    return out


# -- actions: one tap per card ------------------------------------------------------------------

def actions(state: WuXingState, seat: int | None) -> list[JSONDict]:
    """What ``seat`` (``None``: the referee, for any seat) can do now. Every card field lists
    the ``faces`` that can go to its zone now (C-1; C-2: every face that may still be in
    that deck)."""
    t = state.table
    if state.finished:
        return []
    if state.phase == START and t.start == "rps":
        return [{
            "type": "rps", "label": "Who won rock-paper-scissors?", "seat": seat,
            "rule": "WX-12",
            "fields": [{"name": "winner", "label": "Who won?", "kind": "choice",
                        "choices": [{"value": s, "label": t.name(s)} for s in t.seats]}],
        }]
    if state.phase == START:
        seats = list(t.seats) if seat is None else [seat]
        return [_scan_action(state, s, "Show a card pulled from the player deck in your place",
                             "WX-12")
                for s in seats]
    if state.phase == DRAW:
        first = state.challenge[0]
        if seat is not None and seat != first:
            return []
        return [{
            "type": "scan", "seat": seat,
            "label": f"{t.name(first)}: lay the top Universe card face up on the pot",
            "rule": "WX-4",
            "fields": [{"name": "card", "label": "Universe card", "kind": "card",
                        "zone": UNIVERSE, "faces": faces(state, None)}],
        }]
    label, rule = {
        FEED: ("Show your top card, then into the pot", "WX-5"),
        PURGE: ("Show your top card, then into the Void", "WX-6"),
        REVEAL: ("Show your top card in your place", "WX-7"),
        DUEL: ("Sudden death: show the Universe card you took", "WX-11"),
    }[state.phase]
    return [_scan_action(state, s, label, rule) for s in state.awaiting
            if seat is None or s == seat]


def _scan_action(state: WuXingState, seat: int, label: str, rule: str) -> JSONDict:
    return {
        "type": "scan", "label": f"{state.table.name(seat)}: {label}", "seat": seat,
        "rule": rule,
        "fields": [{"name": "card", "label": label, "kind": "card", "zone": f"seat:{seat}",
                    "faces": faces(state, seat)}],
    }


# -- the last play, per viewer (issue 11) --------------------------------------------------------

def _headline(state: WuXingState, p: Play) -> str:
    """One plain sentence for the play (C-8)."""
    t = state.table
    who = t.name(p.seat) if p.seat else ""
    first = p.movements[0] if p.movements else None
    shown = t.label[first.serial] if first and first.serial else ""
    if p.kind in ("challenge", "tiebreak"):
        text = plain(state.last_adjudication)
    elif p.kind == "start":
        text = f"{who} won rock-paper-scissors and starts."
    elif p.kind == "pull":
        card = t.label[str(p.facts["card"])]
        text = (f"{who} pulled the first Infinite Dragon and starts." if p.outcome == "start"
                else f"{who} pulled {a(card)}: no Dragon yet.")
    elif p.kind == "universe" and p.outcome == "dragon":
        text = ("A Universe Dragon: it goes to the Void, and everyone still in shows their top "
                "card in their place, then puts it face up on the pot.")
    elif p.kind == "universe" and p.outcome == "star":
        text = ("A Universe Star: the pot goes to the Void, the Star stays on the pot, and "
                "everyone still in shows their top card in their place, then puts it into the "
                "Void.")
    elif p.kind == "universe":
        text = f"The Universe card is {shown}."
    elif p.kind == "feed":
        text = f"{who} put {a(shown)} {'on the pot' if p.outcome == 'pot' else 'in the Void'}."
    elif p.kind == "take":
        text = f"{who} took {a(shown)} from the Universe deck."
    else:
        text = f"{who} reveals {a(shown)}."
    if state.finished:
        text = f"{text} {plain(prompt(state))}"
    elif state.phase == DUEL and p.kind not in ("take", "tiebreak"):
        text = f"{sentence(text)} Sudden death between {t.names_of(state.duel)}."
    return sentence(text)


def _what(t: Table, ms: list[Movement], owner: int | None = None) -> str:
    """The cards of ``ms`` as a sentence names them: "Bo's Metal", "the Universe Water",
    "3 cards"; "your Earth" for ``owner``'s own card."""
    if len(ms) > 4 or any(m.serial is None for m in ms):
        return count(sum(m.count for m in ms), "card")
    items = []
    for m in ms:
        serial = str(m.serial)
        lab = t.label[serial]
        seat = (int(m.source.split(":")[1]) if m.source.startswith(("table:", "deck:"))
                else None)
        if seat is not None:
            items.append(f"your {lab}" if seat == owner else f"{t.name(seat)}'s {lab}")
        else:
            items.append(f"the {t.faces[serial].name}")
    return names(items)


def _groups(ms: tuple[Movement, ...], key: str) -> list[tuple[str, list[Movement]]]:
    out: dict[str, list[Movement]] = {}
    for m in ms:
        out.setdefault(m.target if key == "target" else f"{m.source}>{m.target}", []).append(m)
    return list(out.items())


def _physical(state: WuXingState, p: Play) -> list[str]:
    """What to do with the physical cards now, one sentence each (C-8; WX-8 for won cards)."""
    t = state.table
    lines = []
    for target, ms in _groups(tuple(m for m in p.movements
                                    if not m.target.startswith("table:")), "target"):
        if target.startswith("deck:"):
            who = t.name(int(target[5:]))
            n = sum(m.count for m in ms)
            if n > 1 and p.outcome == "win":
                lines.append(f"{who}: take the {n} cards, shuffle them together and put them "
                             "at the bottom of your deck")
            else:
                lines.append(f"{who}: put {_what(t, ms, int(target[5:]))} at the bottom of "
                             "your deck")
        elif target == UNIVERSE:
            lines.append("Turn the Void over without shuffling it: it is the new Universe "
                         "deck, face down")
        elif target == VOID:
            from_pot = [m for m in ms if m.source == POT]
            rest = [m for m in ms if m.source != POT]
            parts = ([f"the pot ({count(len(from_pot), 'card')})"] if from_pot else [])
            if rest:
                parts.append(_what(t, rest))
            many = len(from_pot) + len(rest) > 1
            lines.append(f"{names(parts)} {'go' if many else 'goes'} to the Void")
        elif target == POT:
            lines.append(f"{_what(t, ms)} {'go' if len(ms) > 1 else 'goes'} on the pot")
    return [sentence(x) for x in lines]


def _undo(state: WuXingState, p: Play) -> list[str]:
    """What to do physically when this play is undone: each card from where the play left
    it back to where it was before (newest first)."""
    t = state.table
    net: dict[str, Movement] = {}
    counted = []
    for m in p.movements:
        if m.serial is None:
            counted.append(m)
        elif m.serial in net:
            net[m.serial] = Movement(net[m.serial].source, m.target, m.serial)
        else:
            net[m.serial] = m
    lines = []
    for m in reversed(counted):
        if m.source == VOID and m.target == UNIVERSE:
            lines.append("Turn the Universe deck back over: it is the Void again")
    for _, ms in reversed(_groups(tuple(m for m in net.values() if m.source != m.target),
                                  "pair")):
        src, dst = ms[0].source, ms[0].target
        n = len(ms)
        back = ("face up on the pot" if src == POT else f"on top of {place_words(t, src)}"
                if src.startswith("deck:") else _onto(t, src))
        if dst.startswith("table:"):  # still in front of its player: they put it back
            seat = int(dst[6:])
            if src == t.deck_place[seat]:
                back = "on top of your deck"
            lines.append(f"{t.name(seat)}: put {_what(t, ms, seat)} back {back}")
            continue
        lines.append(f"take {_what(t, ms)} back out of {place_words(t, dst)} and put "
                     f"{'it' if n == 1 else 'them'} {back}")
    return [sentence(x) for x in lines]


def last_play(state: WuXingState, seat: int | None) -> JSONDict | None:
    """What the latest event did for ``seat`` (``None`` the big screen, ``0`` the referee,
    ``n`` a seat); ``None`` before the first play. Serials are the referee's alone; every
    card a WuXing play moves is shown face up, so its face is public (C-6)."""
    p = state.last_play
    if p is None:
        return None
    t = state.table
    referee = seat == 0
    moves = []
    cards: list[JSONDict] = []
    seen: set[str] = set()
    for m in p.movements:
        face = t.faces[m.serial] if m.serial else None
        moves.append({"card": m.serial if referee else None,
                      "face": face.id if face else None, "name": face.name if face else None,
                      "from": m.source, "to": m.target, "count": m.count,
                      "from_words": place_words(t, m.source),
                      "to_words": place_words(t, m.target)})
        if m.serial and m.serial not in seen:
            seen.add(m.serial)
            tile = _tile(t, m.serial)
            if referee:
                tile["serial"] = m.serial
            cards.append(tile)
    return {"kind": p.kind, "outcome": p.outcome, "rule": p.rule, "seat": p.seat,
            "text": _headline(state, p), "physical": _physical(state, p), "cards": cards,
            "movements": moves, "undo": _undo(state, p)}
