"""Gem Complete: what each seat sees, what it may do, and all the words (GC-2, C-7, C-8).

``view(game, deck, state, viewer)``: ``viewer`` ``None`` is the public big screen, ``0`` the
referee (ruling ids kept), ``n`` a player. A Locus card is shown to its owner and the
referee, and to the opponent only while it lies revealed at a Complete Declaration (GC-4
rev. 2: the four turned face down again are hidden from the opponent again).

View keys: ``game``, ``phase`` ("setup" | "play" | "over"), ``turn``, ``turn_number``,
``step`` ("declaration" | "reveal" | "choose" | "recovery" | "main"), ``set_this_turn``,
``declaration`` (``positions``, ``revealed`` cards, ``declarer``) or None, ``seats`` (per
seat: ``seat``, ``name``, ``deck_name`` ("deck not chosen yet" before the seat is bound,
GN-2), ``to_show`` (cards just put face up to show, C-6), ``deck``, ``hand``, ``locus``
(per position: ``position``, ``known``, ``public``, and ``card``/``face``/``name``/``gem`` when this
viewer may see it), ``discard`` (known cards, oldest first), ``discard_unknown``),
``pending`` (the played card's proposed effects in words), ``prompt``, ``prompt_rule``,
``ruling`` (plain words for players, the log line for the referee), ``rule``, ``finished``,
``winners``; a seat's view adds ``you``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion import words
from companion.cards import DeckData, load_deck
from companion.engine import JSONDict, Play
from companion.games.gemcomplete.adjudicate import effect_words, proposal
from companion.games.gemcomplete.state import (
    CHOOSE,
    DECLARE,
    GemState,
    is_gem,
    known_to,
    may_hold,
    other,
    owing,
)

# ---------------------------------------------------------------------- prompts


def prompt(state: GemState) -> tuple[str, str]:
    """What the table waits for, in plain words, and the ruling id behind it."""
    if state.finished:
        return f"Game over: {state.name(state.winners[0])} wins.", "GC-5"
    if state.turn is None:
        return "The companion draws the starting player.", "GC-3"
    for seat in owing(state):
        n = state.side(seat).owed
        what = ("the card for your discard pile in your place, then put it face up on the "
                "pile: scan it or tap it." if n == 1 else f"the {n} cards for your discard "
                "pile in your place, one by one in any order, each then face up on the pile: "
                "scan or tap each.")
        return f"{state.name(seat)}: show {what}", "C-6"
    who = state.name(state.turn)
    if state.step == "declaration":
        return f"{who}: Complete Declaration Step: declare, or move on.", "GC-4"
    if state.step == "reveal":
        pos = state.declaration[len(state.revealed)]
        return f"{who}: reveal Locus position {pos}.", "GC-4"
    if state.step == "choose":
        return (f"{state.name(other(state.turn))}: choose {CHOOSE} revealed cards for "
                f"{words.possessive(who)} discard pile.", "GC-4")
    if state.step == "recovery":
        return (f"{who}: Recovery Step: enter what a card on the table says happens now, "
                "then draw.", "GC-3")
    return (f"{who}: Main Phase: set a card face down in your Locus, play cards (show each in "
            "your place, then put it on your discard pile), then end the turn.", "GC-3")


# ---------------------------------------------------------------------- views


def _locus_rows(state: GemState, seat: int, viewer: int | None) -> list[JSONDict]:
    rows = []
    for i, ls in enumerate(state.side(seat).locus, 1):
        row: JSONDict = {"position": i, "known": ls.serial is not None, "public": ls.public}
        visible = ls.serial is not None and (viewer == 0 or ls.public or viewer == seat)
        if visible and ls.serial is not None:
            face = state.cards[ls.serial]
            row.update(card=ls.serial, face=face.id, name=face.name, gem=is_gem(face))
        if viewer != 0 and viewer != seat:
            row["known"] = ls.public
        rows.append(row)
    return rows


def view(game: str, deck: DeckData, state: GemState, viewer: int | None) -> JSONDict:
    """The view for ``viewer`` (``None`` public, ``0`` referee, ``n`` a player)."""
    phase = "over" if state.finished else ("setup" if state.turn is None else "play")
    seats = []
    for seat, side in enumerate(state.sides, 1):
        seats.append({
            "seat": seat, "name": state.name(seat),
            "deck_name": (deck.decks[side.deck_id].name if side.deck_id
                          else "deck not chosen yet"),
            "deck": side.deck_count, "hand": side.hand_count,
            "locus": _locus_rows(state, seat, viewer),
            "discard": [{"card": c, "face": state.cards[c].id, "name": state.cards[c].name}
                        for c in side.discard],
            "discard_unknown": side.discard_unknown,
            "to_show": side.owed if not state.finished else 0,  # C-6: cards to show now
        })
    decl = None
    if state.declaration:
        decl = {"declarer": state.turn, "positions": list(state.declaration),
                "revealed": [{"card": c, "name": state.cards[c].name,
                              "gem": is_gem(state.cards[c])} for c in state.revealed]}
    said, rule = prompt(state)
    lp = state.last_play
    if viewer == 0:
        ruling = state.ruling
        said = f"{said[:-1]} ({rule})."
    else:
        ruling = text(state, lp, viewer) if lp else "The companion draws the starting player."
    v: JSONDict = {
        "game": game, "phase": phase, "turn": state.turn,
        "turn_number": state.turn_number,
        "step": "over" if state.finished else state.step,
        "set_this_turn": state.set_this_turn, "declaration": decl, "seats": seats,
        "pending": [effect_words(state, e) for e in state.pending],
        "prompt": said, "prompt_rule": rule, "ruling": ruling,
        "rule": lp.rule if lp else "GC-3",
        "finished": state.finished, "winners": list(state.winners),
    }
    if viewer:
        v["you"] = viewer
    return v


# ---------------------------------------------------------------------- actions


def _faces(state: GemState, serials: Iterable[str], gems: bool = True) -> list[JSONDict]:
    """Distinct faces of ``serials`` as tappable tiles (C-1: the engine picks the copy).
    Tiles of several decks (a seat not bound yet, GN-2 rev. 2) carry ``group``, the deck's
    name, so a page can show them deck by deck."""
    cards = sorted(serials, key=lambda c: state.cards[c].code)
    grouped = len({state.cards[c].deck for c in cards}) > 1
    decks = load_deck("gemcomplete").decks
    seen: dict[str, JSONDict] = {}
    for s in cards:
        f = state.cards[s]
        if (gems or not is_gem(f)) and f.id not in seen:
            seen[f.id] = {"face": f.id, "name": f.name, "gem": is_gem(f)}
            if grouped:
                seen[f.id]["group"] = decks[f.deck].name
    return list(seen.values())


def actions(state: GemState, seat: int | None) -> list[JSONDict]:
    """What ``seat`` (``None``: the referee, for any seat) can do now."""
    if state.finished or state.turn is None:
        return []
    cur = state.turn
    opp = other(cur)
    acts: list[JSONDict] = []
    if state.step == "choose":
        if seat in (None, opp):
            where = dict(zip(state.revealed, state.declaration, strict=False))
            choices = [{"value": c, "label": f"{state.cards[c].name} (position {where[c]})"}
                       for c in state.revealed]
            acts.append({"type": "choose", "label": f"Choose {CHOOSE} for the discard pile",
                         "seat": opp, "rule": "GC-4",
                         "fields": [{"name": "cards", "label": "Revealed cards",
                                     "kind": "choices", "count": CHOOSE,
                                     "choices": choices}]})
        return acts
    waiting = owing(state)
    if waiting:  # C-6: only the cards just put face up, shown by their owner, are accepted
        return [{"type": "scan", "seat": s, "rule": "C-6",
                 "label": f"Show the {words.count(state.side(s).owed, 'card')} for your "
                          "discard pile",
                 "fields": [{"name": "card", "label": "Card for your discard pile",
                             "kind": "card", "zone": f"seat:{s}",
                             "faces": _faces(state, may_hold(state, s))}]}
                for s in waiting if seat in (None, s)]
    if seat not in (None, cur):
        return []
    side = state.side(cur)
    if state.step == "reveal":
        pos = state.declaration[len(state.revealed)]
        slot = side.locus[pos - 1].serial
        tiles = _faces(state, [slot] if slot else may_hold(state, cur))
        return [{"type": "reveal", "label": f"Reveal Locus position {pos}", "seat": cur,
                 "rule": "GC-4", "fields": [{"name": "cards", "label": "Revealed card",
                                             "kind": "card", "zone": f"locus:{cur}",
                                             "multiple": True, "faces": tiles}]}]
    if state.step == "declaration":
        if len(side.locus) >= DECLARE:
            acts.append({"type": "declare", "label": "Complete Declaration", "seat": cur,
                         "rule": "GC-4",
                         "fields": [{"name": "positions", "label": "Locus positions",
                                     "kind": "choices", "count": DECLARE,
                                     "choices": [{"value": i, "label": str(i)} for i in
                                                 range(1, len(side.locus) + 1)]}]})
        acts.append({"type": "next", "label": "No declaration: Recovery Step", "seat": cur,
                     "fields": [], "rule": "GC-3"})
        return acts
    proposed = proposal(state)
    if proposed is not None:
        acts.append(_proposed_action(state, proposed))
    # The step's own button comes first, right under the prompt (issue 20); the effects
    # entered by hand (``by_hand``) come last, folded on the page.
    label = "Draw Step: draw 1" if state.step == "recovery" else "End turn"
    acts.append({"type": "next", "label": label, "seat": cur, "fields": [], "rule": "GC-3"})
    if state.step == "main" and not state.set_this_turn and side.hand_count:
        acts.append({"type": "set", "label": "Set a card in the Locus", "seat": cur,
                     "rule": "GC-3",
                     "fields": [{"name": "card", "label": "Card (private scan, optional)",
                                 "kind": "card", "zone": f"locus:{cur}", "optional": True,
                                 "faces": _faces(state, may_hold(state, cur))}]})
    if state.step == "main" and side.hand_count:  # GC-3 rev. 3: the Main Phase only
        acts.append({"type": "play", "label": "Play a card", "seat": cur, "rule": "GC-3",
                     "fields": [{"name": "card", "label": "Card (scan, optional)",
                                 "kind": "card", "zone": f"seat:{cur}", "optional": True,
                                 "faces": _faces(state, may_hold(state, cur),
                                                 gems=False)}]})
    target = {"name": "target", "label": "Whose cards", "kind": "choice",
              "choices": [{"value": s, "label": state.name(s)} for s in (1, 2)]}
    count = {"name": "count", "label": "How many", "kind": "int", "min": 1, "max": 40}
    acts.append({"type": "crush", "label": "Crush (card effect)", "seat": cur, "rule": "GC-5",
                 "fields": [target, count]})
    acts.append({"type": "discard", "label": "Discard (card effect)", "seat": cur,
                 "rule": "GC-5",
                 "fields": [target, count, {"name": "from", "label": "From", "kind": "choice",
                                            "choices": [{"value": "deck", "label": "deck"},
                                                        {"value": "hand", "label": "hand"}]}]})
    acts.append({"type": "draw", "label": "Draw (card effect)", "seat": cur, "rule": "GC-5",
                 "fields": [target, count]})
    pile = [*state.side(cur).discard, *state.side(opp).discard]
    acts.append({"type": "return", "label": "Discard pile to hand or deck (card effect)",
                 "seat": cur, "rule": "GC-2",
                 "fields": [target, {"name": "cards", "label": "Cards", "kind": "card",
                                     "zone": f"seat:{cur}", "multiple": True,
                                     "faces": _faces(state, pile)},
                            {"name": "to", "label": "To", "kind": "choice",
                             "choices": [{"value": "hand", "label": "hand"},
                                         {"value": "deck", "label": "deck"}]}]})
    for a in acts[-4:]:
        a["by_hand"] = True
    return acts


def _proposed_action(state: GemState, event: Mapping[str, Any]) -> JSONDict:
    """The played card's next effect as one confirming tap: every field has its
    ``default`` from the deck data (GC-3 rev. 2)."""
    e = state.pending[0]
    card = state.cards[state.pending_card].name if state.pending_card else "the card"
    fields: list[JSONDict] = [{"name": "target", "label": "Whose cards", "kind": "choice",
                               "default": event["target"],
                               "choices": [{"value": s, "label": state.name(s)}
                                           for s in (1, 2)]}]
    if "count" in event:
        fields.append({"name": "count", "label": "How many", "kind": "int", "min": 1,
                       "max": 40, "default": event["count"]})
    if "from" in event:
        fields.append({"name": "from", "label": "From", "kind": "choice",
                       "default": event["from"],
                       "choices": [{"value": v, "label": v} for v in ("deck", "hand")]})
    if "cards" in event:
        pile = state.side(int(event["target"])).discard
        fields.append({"name": "cards", "label": "Cards", "kind": "choices",
                       "count": len(event["cards"]), "default": list(event["cards"]),
                       "choices": [{"value": c, "label": state.cards[c].name} for c in pile]})
        fields.append({"name": "to", "label": "To", "kind": "choice", "default": event["to"],
                       "choices": [{"value": v, "label": v} for v in ("hand", "deck")]})
    said = effect_words(state, e)
    return {"type": event["type"], "label": f"{card}: {said[:-1]}", "seat": event["seat"],
            "rule": "GC-3", "fields": fields, "proposed": True, "confirm": said}


# ---------------------------------------------------------------------- the last play


def _place(state: GemState, where: str) -> str:
    if where.startswith("unknown:"):
        return "face down"
    return words.place(where, state.players)


def _name(state: GemState, serial: str | None, viewer: int | None) -> str | None:
    if serial is None or not known_to(state, serial, viewer):
        return None
    return state.cards[serial].name


def _listed(state: GemState, serials: Iterable[str | None], viewer: int | None) -> str:
    """The cards by name where ``viewer`` may know them, the others counted: "Ruby,
    Emerald and 4 other cards" (never "a card, a card", C-8)."""
    known = [n for n in (_name(state, s, viewer) for s in serials)]
    names = [n for n in known if n]
    hidden = len(known) - len(names)
    if hidden:
        names.append(("another card" if hidden == 1 else f"{hidden} other cards") if names
                     else ("a card" if hidden == 1 else f"{hidden} cards"))
    return words.names(names)


def _top(n: int) -> str:
    """"card" for the top card, "3 cards" for more (never "the top 1 card")."""
    return "card" if n == 1 else words.count(n, "card")


def text(state: GemState, play: Play, viewer: int | None) -> str:
    """One plain sentence for ``play`` as ``viewer`` may know it (C-7, C-8)."""
    f: Mapping[str, Any] = play.facts
    who = state.name(play.seat) if play.seat else ""
    moved = [m.serial for m in play.movements]
    if play.kind == "start":
        return (f"{state.name(int(f['first']))} starts. Both players shuffle and draw "
                f"{words.count(5, 'card')}.")
    if play.kind == "step":
        if play.outcome == "recovery":
            return f"{who} makes no Complete Declaration."
        return f"{who} ends the turn. {state.name(int(f['next']))} is next."
    target = state.name(int(f.get("target", play.seat or 1)))
    said = ""
    if play.kind == "draw":
        said = f"{target} draws {words.count(int(f['count']), 'card')}."
    elif play.kind == "set":
        what = _name(state, moved[0], viewer)
        said = (f"{who} sets {what or 'a card'} face down at position {f['position']} of the "
                "Locus.")
    elif play.kind == "play":
        card = _name(state, moved[0], viewer)
        said = f"{who} plays {card}." if card else f"{who} plays a card."
    elif play.kind == "declare":
        said = (f"{who} declares Gem Complete with Locus positions "
                f"{words.names(str(p) for p in f['positions'])}.")
    elif play.kind == "reveal":
        said = f"{who} reveals {_listed(state, moved, viewer)}."
        if play.outcome == "gem_complete":
            said = f"{who} reveals six Gems: Gem Complete, {who} wins!"
        elif play.outcome == "failed":
            said += (f" Not all Gems: the declaration fails. {state.name(other(play.seat or 1))}"
                     f" chooses {CHOOSE} of them for {words.possessive(who)} discard pile.")
    elif play.kind == "choose":
        declarer = state.name(int(f["declarer"]))
        said = (f"{who} sends {_listed(state, moved, viewer)} to "
                f"{words.possessive(declarer)} discard pile; the other four go back face down.")
    elif play.kind in ("crush", "discard") and f.get("from") == "deck":
        n = int(f["moved"])
        said = (f"{'Crush' if play.kind == 'crush' else 'Discard'} {f['count']}: {target} "
                f"shows the top {_top(n)} of their deck in their place, "
                f"{'then puts it' if n == 1 else 'one by one, then puts each'} on the discard "
                "pile.")
    elif play.kind == "discard":
        said = f"{target} discards {words.count(int(f['count']), 'card')} from hand."
    elif play.kind == "return":
        into = "into hand" if f["to"] == "hand" else "back into the deck"
        said = f"{target} takes {_listed(state, moved, viewer)} from the discard pile {into}."
    elif play.kind == "show":
        left = int(f["left"])
        said = (f"{target} shows {_listed(state, moved, viewer)} from the discard pile."
                + (f" {words.count(left, 'more card')} to show." if left else ""))
    if play.outcome == "deck_out":
        said += (f" {words.possessive(state.name(int(f['loser'])))} deck is empty: "
                 f"{state.name(int(f['winner']))} wins.")
    return said


def physical(state: GemState, play: Play, viewer: int | None) -> list[str]:
    """What to do with the physical cards, one sentence each."""
    f: Mapping[str, Any] = play.facts
    who = state.name(play.seat) if play.seat else ""
    moved = [m.serial for m in play.movements]
    target = state.name(int(f.get("target", play.seat or 1)))
    if play.kind == "start":
        return ["Both players: shuffle your deck and draw 5 cards."]
    if play.kind == "draw":
        return [f"{target}: draw {words.count(int(f['count']), 'card')}."]
    if play.kind == "set":
        return [f"{who}: put the card face down at the end of your Locus."]
    if play.kind == "play":
        return [f"{who}: put {_name(state, moved[0], viewer) or 'the card'} face up on your "
                "discard pile."]
    if play.kind == "reveal":
        out = [f"{who}: turn {_listed(state, moved, viewer)} face up in place."]
        if play.outcome == "failed":
            out.append(f"{state.name(other(play.seat or 1))}: choose {CHOOSE} of the six.")
        return out
    if play.kind == "choose":
        declarer = state.name(int(f["declarer"]))
        return [f"{declarer}: put {_listed(state, moved, viewer)} on your discard pile.",
                f"{declarer}: turn the other four face down again, in their order."]
    # C-6 rev. 3: a card nobody has seen yet is shown in its owner's place first, then put
    # on the discard pile; cards named in the event are known already.
    unscanned = sum(m.count for m in play.movements if m.serial is None)
    known = [m.serial for m in play.movements if m.serial is not None]
    lines = []
    if known and play.kind in ("crush", "discard"):
        lines.append(f"{target}: put {_listed(state, known, viewer)} face up on your discard "
                     "pile.")
    if unscanned and play.kind in ("crush", "discard"):
        each = "then put it" if unscanned == 1 else "one by one, then put each"
        if f.get("from") == "deck" or play.kind == "crush":
            what = f"the top {_top(unscanned)} of your deck"
        else:
            what = f"{words.count(unscanned, 'card')} of your choice from your hand"
        lines.append(f"{target}: show {what} in your place, {each} face up on your discard "
                     "pile.")
    if play.kind in ("crush", "discard"):
        return lines
    if play.kind == "return":
        what = _listed(state, moved, viewer)
        if f["to"] == "hand":
            return [f"{target}: take {what} from your discard pile into your hand."]
        return [f"{target}: shuffle {what} from your discard pile into your deck."]
    return []


def undo(state: GemState, play: Play, viewer: int | None) -> list[str]:
    """What to do physically when ``play`` is undone: its movements reversed."""
    f: Mapping[str, Any] = play.facts
    who = state.name(play.seat) if play.seat else ""
    moved = [m.serial for m in play.movements]
    target = state.name(int(f.get("target", play.seat or 1)))
    if play.kind == "start":
        return ["Both players: shuffle the 5 cards of your hand back into your deck."]
    if play.kind == "draw":
        n = int(f["count"])
        return [f"Put {words.count(n, 'card')} from {words.possessive(target)} hand back on "
                f"top of {words.possessive(target)} deck."]
    if play.kind == "set":
        return [f"{who}: take the last card of your Locus back into your hand."]
    if play.kind == "play":
        return [f"{who}: take {_name(state, moved[0], viewer) or 'the card'} back from your "
                "discard pile into your hand."]
    if play.kind == "reveal":
        return [f"{who}: turn {_listed(state, moved, viewer)} face down again."]
    if play.kind == "choose":
        declarer = state.name(int(f["declarer"]))
        return [f"{declarer}: put {_listed(state, moved, viewer)} back face up in their "
                "places in your Locus."]
    if play.kind in ("crush", "discard") and f.get("from") == "deck":
        n = int(f["moved"])
        return [f"Put {words.count(n, 'card')} from the top of {words.possessive(target)} "
                f"discard pile back on top of {words.possessive(target)} deck."]
    if play.kind == "discard":
        return [f"{target}: take the {words.count(int(f['count']), 'card')} back from your "
                "discard pile into your hand."]
    if play.kind == "return":
        return [f"{target}: put {_listed(state, moved, viewer)} back on your discard pile."]
    return []


def last_play(state: GemState, viewer: int | None) -> JSONDict | None:
    """The latest play as ``viewer`` may know it: a card not known to the viewer is a count
    with card ``None`` (C-7); the words are plain (C-8)."""
    play = state.last_play
    if play is None:
        return None
    moves = []
    cards: list[JSONDict] = []
    for m in play.movements:
        shown = m.serial is not None and known_to(state, m.serial, viewer)
        face = state.cards[m.serial] if shown and m.serial else None
        moves.append({"card": m.serial if face else None, "face": face.id if face else None,
                      "name": face.name if face else None, "from": m.source, "to": m.target,
                      "count": m.count, "from_words": _place(state, m.source),
                      "to_words": _place(state, m.target)})
        if face is not None:
            card: JSONDict = {"face": face.id, "name": face.name, "gem": is_gem(face)}
            if viewer == 0 or (viewer is not None and state.owner.get(str(m.serial)) == viewer):
                card["serial"] = m.serial
            cards.append(card)
    return {"kind": play.kind, "outcome": play.outcome, "rule": play.rule, "seat": play.seat,
            "text": text(state, play, viewer), "physical": physical(state, play, viewer),
            "cards": cards, "movements": moves, "undo": undo(state, play, viewer)}
