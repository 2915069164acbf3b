"""What the Mountains & Rivers table shows: prompts, views and the actions each seat can take.

Pure functions of the state (see ``mountains.py`` for the view keys and the event types).
Everything in this game is public (weapons lie face up, C-1), so every seat sees the same
table; ``actions`` lists only what that seat may do now.
"""

from __future__ import annotations

from companion.engine import JSONDict
from companion.games.mountains import skills
from companion.games.mountains.state import (
    DECKS,
    MountainsState,
    Pending,
    discard,
    move_steps,
    order_needs,
    pile,
    reachable_moves,
    seat_place,
    targets_in_range,
    usable_weapons,
    weapon_damage,
)
from companion.words import names


# -- words --------------------------------------------------------------------------------
def pending_text(s: MountainsState, p: Pending) -> str:
    name = s.name(p.seat)
    if p.kind == "draw":
        return f"{name} draws a {p.deck} card and shows it in their seat zone"
    if p.kind == "result":
        return f"{name} plays {s.face(p.card).name!r}; enter the winner and the loser"
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
        return f"{s.name(picker)}: draw a character card blindly and show it."
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
        return f"{name}: move exactly {' or '.join(map(str, steps))} {unit}."
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
            "character_name": next((f.name for f in s.faces.values() if f.id == p.character),
                                   None),
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
        "board": s.board.describe(),
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
        "boosted": s.boosted or None,
        "piles": piles,
        "pending": [{"kind": p.kind, "seat": p.seat, "deck": p.deck or None,
                     "text": pending_text(s, p)} for p in s.pending],
        "order_rolls": [list(r) for r in s.order_rolls],
        "pick_order": list(s.pick_order),
        "prompt": prompt(s),
        "ruling": s.ruling,
        "finished": s.finished,
        "winners": list(s.winners),
    }


# -- actions ------------------------------------------------------------------------------
def _die_fields(count: int) -> list[JSONDict]:
    fields = [{"name": "die", "label": "Die", "kind": "int", "min": 1, "max": 6}]
    if count == 2:
        fields.append({"name": "die2", "label": "Second die", "kind": "int", "min": 1, "max": 6})
    return fields


def _seat_choices(s: MountainsState, seats: list[int]) -> list[JSONDict]:
    return [{"value": x, "label": s.name(x)} for x in seats]


def actions(s: MountainsState, seat: int | None) -> list[JSONDict]:
    if s.finished:
        return []
    seats = [seat] if seat is not None else [p.seat for p in s.players]
    out: list[JSONDict] = []
    physical = s.dice_mode == "physical"
    for x in seats:
        out.extend(_actions_for(s, x, physical, referee=seat is None))
    return out


def _actions_for(s: MountainsState, x: int, physical: bool, *, referee: bool
                 ) -> list[JSONDict]:
    out: list[JSONDict] = []
    zone = seat_place(x)
    if s.phase == "order":
        if physical and x in order_needs(s):
            out.append({"type": "roll", "label": "Enter your pick-order roll", "seat": x,
                        "fields": _die_fields(1), "rule": "MR-3"})
        return out
    if s.phase == "pick":
        picker = s.pick_order[sum(1 for p in s.players if p.character)]
        if x == picker:
            out.append({"type": "scan", "label": "Draw a character card blindly and show it",
                        "seat": x, "fields": [{"name": "card", "label": "Character card",
                                               "kind": "card", "zone": zone}], "rule": "MR-3"})
        return out
    if s.phase == "corner":
        if x == s.pick_order[0]:
            out.append({"type": "corner", "label": "Choose the start corner", "seat": x,
                        "fields": [{"name": "corner", "label": "Corner", "kind": "choice",
                                    "choices": [
                                        {"value": c, "label": f"{c} (end {s.board.opposite(c)})"}
                                        for c in s.board.corners]}], "rule": "MR-2"})
        return out
    for p in s.pending:
        if p.seat != x and p.kind != "result":
            continue
        if p.kind == "draw":
            out.append({"type": "scan", "label": f"Draw a {p.deck} card and show it", "seat": x,
                        "fields": [{"name": "card", "label": f"{p.deck.title()} card",
                                    "kind": "card", "zone": zone}], "rule": "MR-6"})
        elif p.kind == "stairs":
            here = s.player(x).tile or ""
            out.append({"type": "stairs", "label": "Take the stairs?", "seat": x, "fields": [
                {"name": "take", "label": "Stairs", "kind": "choice", "choices": [
                    {"value": True, "label": f"Take the stairs to {s.board.tile(here).exit}"},
                    {"value": False, "label": f"Stay on {here}"}]}], "rule": "MR-5"})
        elif p.kind == "roll" and physical:
            out.append({"type": "roll", "label": "Enter the die of your skill 1", "seat": x,
                        "fields": _die_fields(1), "rule": "MR-8"})
        elif p.kind == "result" and x in s.living and (not referee or x == p.seat):
            # Any phone may enter the result; the referee sees it once. One choice per
            # possible outcome ([winner, loser]): the drawer against each opponent.
            outcomes: list[JSONDict] = []
            for y in s.living:
                if y != p.seat:
                    outcomes += [
                        {"value": [p.seat, y], "label": f"{s.name(p.seat)} beat {s.name(y)}"},
                        {"value": [y, p.seat], "label": f"{s.name(y)} beat {s.name(p.seat)}"}]
            out.append({"type": "result", "label": f"Who won {s.face(p.card).name!r}?",
                        "seat": x, "fields": [
                            {"name": "outcome", "label": "Result", "kind": "choice",
                             "choices": outcomes}], "rule": "MR-9"})
        elif p.kind in ("discard", "take"):
            owner = x if p.kind == "discard" else p.other
            out.append({"type": p.kind, "label": "Choose a weapon to " + p.kind, "seat": x,
                        "fields": [{"name": "card", "label": "Weapon", "kind": "choice",
                                    "choices": [{"value": w, "label": s.weapon_label(w)}
                                                for w in p.cards or s.player(owner).weapons]}],
                        "rule": "MR-9"})
    if s.pending or x != s.turn or not s.player(x).alive:
        return out
    if not s.moved and not s.roll and physical:
        out.append({"type": "roll", "label": "Enter your movement roll", "seat": x,
                    "fields": _die_fields(2 if s.showdown else 1), "rule": "MR-5"})
    moves = reachable_moves(s)
    if not s.moved and s.roll:
        out.append({"type": "move", "label": "Move your token", "seat": x, "fields": [
            {"name": "to", "label": "Tile", "kind": "choice", "choices": [
                {"value": a, "label": f"{a} ({s.board.tile(a).kind})"
                 if not s.board.tile(a).exit else f"{a} (stairs to {s.board.tile(a).exit})"}
                for a, b in moves.items()]}], "rule": "MR-5"})
    if not s.attacked:
        attack = _attack_action(s, x)
        if attack is not None:
            out.append(attack)
    for item in skills.skill_choices(s, x):
        out.append(_skill_action(s, x, item))
    if s.moved or (s.roll and not moves):
        out.append({"type": "end", "label": "End your turn", "seat": x, "fields": [],
                    "rule": "MR-4"})
    return out


def _attack_action(s: MountainsState, x: int) -> JSONDict | None:
    """The attack form (MR-7): only weapons usable now with an opponent in range, and only
    opponents some such weapon reaches. The optional second weapon's first choice is "none"
    and the second target's is "the same target", so a form posted as it stands is legal.
    With weapons but nothing to strike, the action is listed with the reason."""
    weapons = s.player(x).weapons
    if not weapons:
        return None
    head: JSONDict = {"type": "attack", "label": "Attack with one or two weapons", "seat": x,
                      "rule": "MR-7"}
    usable = usable_weapons(s, x)
    legal = [w for w in usable if targets_in_range(s, x, w)]
    if not legal:
        why = ("your weapons were drawn this turn" if not usable
               else "no opponent is in range of your weapons")
        return {**head, "fields": [], "why": f"{why} (MR-7)"}
    w_choices: list[JSONDict] = []
    reached: set[int] = set()
    for w in legal:
        them = targets_in_range(s, x, w)
        reached.update(them)
        w_choices.append({"value": w, "label": f"{s.weapon_label(w)}: "
                          f"{weapon_damage(s, x, w)} damage, reaches "
                          f"{', '.join(s.name(y) for y in them)}"})
    targets = _seat_choices(s, sorted(reached))
    fields: list[JSONDict] = [
        {"name": "card", "label": "Weapon", "kind": "choice", "choices": w_choices},
        {"name": "target", "label": "Target", "kind": "choice", "choices": targets}]
    if len(legal) >= 2:
        fields += [
            {"name": "card2", "label": "Second weapon (optional)", "kind": "choice",
             "optional": True,
             "choices": [{"value": None, "label": "no second weapon"}, *w_choices]},
            {"name": "target2", "label": "Second weapon's target", "kind": "choice",
             "optional": True,
             "choices": [{"value": None, "label": "the same target"}, *targets]}]
    return {**head, "fields": fields}


def _skill_action(s: MountainsState, x: int, item: JSONDict) -> JSONDict:
    fields: list[JSONDict] = [{"name": "skill", "label": "Skill", "kind": "choice",
                               "choices": [item]}]
    slot = str(item["value"])
    for param in item["params"]:
        if param in ("other", "any"):
            fields.append({"name": "target", "label": "Player", "kind": "choice",
                           "choices": _seat_choices(s, skills.skill_targets(s, x, slot))})
        elif param == "card":
            owner = {w: o.seat for o in s.players for w in o.weapons}
            fields.append({"name": "card", "label": "Weapon", "kind": "choice", "choices": [
                {"value": w, "label": f"{s.name(owner[w])}: {s.weapon_label(w)}"}
                for w in skills.skill_cards(s, x, slot)]})
        elif param == "tile":
            fields.append({"name": "tile", "label": "Tile", "kind": "choice",
                           "choices": [{"value": t, "label": t} for t in s.board.tiles]})
        elif param == "add":
            fields.append({"name": "add", "label": "Add to movement", "kind": "choice",
                           "choices": [{"value": 1, "label": "+1"}, {"value": 2, "label": "+2"}]})
    action: JSONDict = {"type": "skill", "label": item["label"], "seat": x, "cost": item["cost"],
                        "fields": fields, "rule": "MR-8"}
    if "why" in item:
        action["why"] = item["why"]
    return action
