"""What the Mountains & Rivers table shows: the views, the board to draw, and the words.

Pure functions of the state (the view keys are listed in ``rules``). Weapons, characters
and discards lie face up; only the face-down piles are hidden and no view names a card in
them, so every seat sees the same table. Players read plain words (C-8): the ``ruling`` is
the latest play's sentence without ruling ids, whose id is in ``rule``; the referee view
keeps the ids. The actions are in ``actions``, the latest play's words in ``plays``.
"""

from __future__ import annotations

import re

from companion.engine import JSONDict
from companion.games.mountains.marks import ARROW_COLOUR, MARKS, element_colour, mark_of
from companion.games.mountains.state import (
    DECKS,
    MountainsState,
    Pending,
    discard,
    move_steps,
    order_needs,
    pile,
    reachable_moves,
)
from companion.words import names

_IDS = re.compile(r" ?\((?:MR|C)-\d+\)|, (?:MR|C)-\d+(?=\))")


def plain(text: str) -> str:
    """A referee sentence in players' words (C-8): without its ruling ids."""
    return _IDS.sub("", text)


def initials(name: str) -> str:
    """A character's initials for a pawn: "Xi Bian" -> "XB", "Huan" -> "H"."""
    return "".join(w[0] for w in name.split()).upper()


def board_view(s: MountainsState) -> JSONDict:
    """Everything a page needs to draw the board as an SVG (issue 11, point 7): tiles with
    kind, element, mark and colours (``marks``, the printed board's), stairs, one-way
    arrows, the legend in words, pawns with colours and initials, and the mover's reachable
    tiles."""
    b = s.board.describe()
    for tile in b["tiles"]:
        m = mark_of(tile["kind"])
        tile.update({"element": tile["colour"], "fill": element_colour(tile["colour"]),
                     "mark": m.mark, "mark_colour": m.colour, "disc": m.disc,
                     "word": m.word})
    b["stairs"] = [{"from": t.id, "to": t.exit} for t in s.board if t.exit]
    b["arrow_colour"] = ARROW_COLOUR
    b["legend"] = [{"kind": k, "mark": MARKS[k].mark, "colour": MARKS[k].colour,
                    "word": MARKS[k].word, "text": text} for k, text in s.board.kinds.items()]
    b["quadrants"] = [{"element": e, "where": where, "colour": element_colour(e)}
                      for e, where in s.board.quadrants.items()]
    pawns = []
    for p in s.players:
        if p.tile is None or not p.alive:
            continue
        character = _character_name(s, p.character)
        pawns.append({"seat": p.seat, "name": p.name, "tile": p.tile,
                      "colour": element_colour(p.element),
                      "initials": initials(character) if character else p.name[:1].upper(),
                      "turn": p.seat == s.turn and s.phase == "play"})
    b["pawns"] = pawns
    playing = s.phase == "play" and not s.finished and not s.pending
    b["reachable"] = sorted(reachable_moves(s)) if playing else []
    return b


def _character_name(s: MountainsState, character: str | None) -> str | None:
    return next((f.name for f in s.faces.values() if f.id == character), None)


# -- words --------------------------------------------------------------------------------
def pending_text(s: MountainsState, p: Pending) -> str:
    name = s.name(p.seat)
    if p.kind == "draw":
        return f"{name} draws a {p.deck} card and shows it in their place"
    if p.kind == "result" and p.other:
        return (f"{name} plays {s.face(p.card).name!r} against {s.name(p.other)}; "
                "enter who won")
    if p.kind == "result":
        return (f"{name} plays {s.face(p.card).name!r}; {name} chooses an opponent "
                "(or enters who won)")
    if p.kind == "roll":
        return f"{name} rolls a die for skill 1"
    if p.kind == "stairs":
        here = s.player(p.seat).tile or ""
        return f"{name} decides: take the stairs from {here} to {s.board.tile(here).exit}, or stay"
    if p.kind == "discard":
        return f"{name} chooses a weapon to discard"
    if p.cards:
        return f"{name} chooses one of the weapons {s.name(p.other)} had, to take"
    return f"{name} chooses a weapon to take from {s.name(p.other)}"


def prompt(s: MountainsState) -> str:
    if s.finished:
        won = names(s.name(x) for x in s.winners)
        return f"Game over: {won} {'wins' if len(s.winners) == 1 else 'share the win'}."
    if s.phase == "order":
        who = names(s.name(x) for x in order_needs(s))
        return f"Roll a die for the pick order: {who}."
    if s.phase == "pick":
        picker = s.pick_order[sum(1 for p in s.players if p.character)]
        return f"{s.name(picker)}: draw a character card blindly and show it in your place."
    if s.phase == "corner":
        return f"{s.name(s.pick_order[0])}: choose the start corner."
    if s.pending:
        return pending_text(s, s.pending[0]) + "."
    name = s.name(s.turn)
    if not s.moved and not s.roll:
        dice = "2 dice" if s.showdown else "1 die"
        return f"{name}: roll for movement ({dice})."
    if not s.moved:
        steps = move_steps(s)
        unit = "step" if steps == (1,) else "steps"
        # MR-5 rev. 3: said wherever the reachable tiles are explained.
        start = f", never onto or through the start tile {s.start}" if s.start else ""
        return f"{name}: move exactly {' or '.join(map(str, steps))} {unit}{start}."
    if s.movement_skipped:  # named as skipped, and by whom (MR-8 rev. 2)
        return (f"{name}: your movement is skipped this turn (by {s.movement_skipped}); "
                "attack, use a skill, or end the turn.")
    return f"{name}: attack, use a skill, or end the turn."


def _weapon_json(s: MountainsState, serial: str) -> JSONDict:
    f = s.face(serial)
    return {"card": serial, "name": f.name, "element": f.element,
            "attack": f.attrs["attack"], "range": f.attrs["range"],
            "usable": serial not in s.fresh}


def view(s: MountainsState, seat: int | None) -> JSONDict:
    players = []
    for p in s.players:
        effects = []
        if p.seat in s.thorns:
            effects.append("attackers lose 1 HP (Xi Bian skill 1)")
        if any(o == p.seat for o, _ in s.siphon):
            effects.append("+1 HP per 2 HP others lose (Xi Bian skill 3)")
        by = dict(s.skip_move).get(p.seat)
        if by:
            effects.append(f"skips movement next turn (by {by})")
        bonus = dict(s.tailwind).get(p.seat, 0)
        if bonus:
            effects.append(f"+{bonus} movement next turn")
        players.append({
            "seat": p.seat, "name": p.name, "character": p.character,
            "character_name": _character_name(s, p.character),
            "element": p.element, "hp": p.hp, "alive": p.alive, "tile": p.tile,
            "weapons": [_weapon_json(s, w) for w in p.weapons], "effects": effects,
        })
    piles = {}
    for d in DECKS:
        piles[pile(d)] = len(s.in_place(pile(d)))
        if d != "character":
            piles[discard(d)] = len(s.in_place(discard(d)))
    playing = s.phase == "play" and not s.finished
    return {
        "game": "mountains",
        "phase": s.phase,
        "dice_mode": s.dice_mode,
        "you": seat,
        "players": players,
        "board": board_view(s),
        "start": s.start,
        "end": s.end,
        "turn": s.turn if playing else None,
        "turn_no": s.turn_no,
        "actions_left": {"movement": not s.moved, "attack": not s.attacked,
                         "skill": not s.skilled} if playing else None,
        "roll": list(s.roll),
        "two_dice": s.two_dice,
        "move_bonus": s.move_bonus,
        "move_options": list(move_steps(s)) if playing and not s.moved else [],
        "reachable": [{"tile": a, "to": b, "stairs": s.board.tile(a).exit}
                      for a, b in reachable_moves(s).items()]
        if playing and not s.pending else [],
        "showdown": s.showdown,
        "double_range": s.double_range or None,
        "sharpened": s.sharpened,
        "blunted": s.blunted,  # MR-1 rev. 3
        "boosted": s.boosted or None,
        "piles": piles,
        "pending": [{"kind": p.kind, "seat": p.seat, "deck": p.deck or None,
                     # MR-9: whom the drawer of a challenge chose (null: not yet)
                     **({"opponent": p.other or None} if p.kind == "result" else {}),
                     "text": pending_text(s, p)} for p in s.pending],
        "order_rolls": [list(r) for r in s.order_rolls],
        "pick_order": list(s.pick_order),
        "prompt": prompt(s),
        "ruling": plain(s.ruling),
        "rule": s.last_play.rule if s.last_play else None,
        "finished": s.finished,
        "winners": list(s.winners),
        # seats in the order they went out (MR-10); the end ranks the latest out first
        "out_order": list(s.out_order),
    }
