"""The actions each Mountains & Rivers seat may take now, for one-tap forms (issue 11).

Only legal choices are listed; what is not possible now is listed with the reason in plain
words (``why``/``disabled``, C-8) and its ruling id apart (``rule``). Card fields list the
faces that can go to their zone now (``faces``); the move is a choice of the reachable tiles,
tapped on the board (``on_board``); a roll of real dice says how many (``dice``: the page
offers one tile per outcome); skills say their cost and effect before they are spent
(``confirm``).
"""

from __future__ import annotations

from companion.engine import JSONDict
from companion.games.mountains import skills
from companion.games.mountains.marks import element_colour
from companion.games.mountains.state import (
    MountainsState,
    order_needs,
    pile,
    reachable_moves,
    seat_place,
    targets_in_range,
    usable_weapons,
    weapon_damage,
)


def face_tiles(s: MountainsState, deck: str) -> list[JSONDict]:
    """The faces that can be shown now from the face-down ``deck`` pile (C-1), once each."""
    seen: dict[str, JSONDict] = {}
    for serial in sorted(s.in_place(pile(deck))):
        f = s.face(serial)
        if f.id in seen:
            continue
        tile: JSONDict = {"face": f.id, "name": f.name, "color": element_colour(f.element)}
        if f.element:
            tile["element"] = f.element
        if deck == "weapon":
            tile["number"] = f.attrs["attack"]
        seen[f.id] = tile
    return sorted(seen.values(), key=lambda x: str(x["name"]))


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
                        "fields": _die_fields(1), "dice": 1, "rule": "MR-3"})
        return out
    if s.phase == "pick":
        picker = s.pick_order[sum(1 for p in s.players if p.character)]
        if x == picker:
            out.append({"type": "scan",
                        "label": "Draw a character card blindly, show it in your place",
                        "seat": x, "fields": [{"name": "card", "label": "Character card",
                                               "kind": "card", "zone": zone,
                                               "faces": face_tiles(s, "character")}],
                        "rule": "MR-3"})
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
            out.append({"type": "scan", "label": f"Draw a {p.deck} card, show it in your place",
                        "seat": x,
                        "fields": [{"name": "card", "label": f"{p.deck.title()} card",
                                    "kind": "card", "zone": zone,
                                    "faces": face_tiles(s, p.deck)}], "rule": "MR-6"})
        elif p.kind == "stairs":
            here = s.player(x).tile or ""
            out.append({"type": "stairs", "label": "Take the stairs?", "seat": x, "fields": [
                {"name": "take", "label": "Stairs", "kind": "choice", "choices": [
                    {"value": True, "label": f"Take the stairs to {s.board.tile(here).exit}"},
                    {"value": False, "label": f"Stay on {here}"}]}], "rule": "MR-5"})
        elif p.kind == "roll" and physical:
            out.append({"type": "roll", "label": "Enter the die of your skill 1", "seat": x,
                        "fields": _die_fields(1), "dice": 1, "rule": "MR-8"})
        elif p.kind == "result" and x in s.living and (not referee or x == p.seat):
            # The drawer's phone, the chosen opponent's, or the referee's (once) enters the
            # result (C-7, MR-9). One choice per possible outcome ([winner, loser]): the
            # drawer against the opponent they chose, or each opponent until they choose.
            rivals = [p.other] if p.other else [y for y in s.living if y != p.seat]
            if x not in (p.seat, p.other):
                continue  # a third phone: not its mini-game (before the choice: nobody's)
            if not p.other and len(rivals) > 1 and x == p.seat:
                out.append({"type": "opponent", "label": "Whom do you challenge?",
                            "seat": x, "fields": [
                                {"name": "target", "label": "Opponent", "kind": "choice",
                                 "choices": [{"value": y, "label": s.name(y)}
                                             for y in rivals]}], "rule": "MR-9"})
            outcomes: list[JSONDict] = []
            for y in rivals:
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
                    "fields": _die_fields(2 if s.showdown else 1),
                    "dice": 2 if s.showdown else 1, "rule": "MR-5"})
    moves = reachable_moves(s)
    if not s.moved and s.roll:
        # One tap on a highlighted tile of the board (``on_board``), or a button per tile.
        out.append({"type": "move", "label": "Move your pawn", "seat": x, "fields": [
            {"name": "to", "label": "Tile", "kind": "choice", "on_board": True, "choices": [
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
        return {**head, "fields": [], "why": why, "disabled": why}
    w_choices: list[JSONDict] = []
    reached: set[int] = set()
    for w in legal:
        them = targets_in_range(s, x, w)
        reached.update(them)
        # ``strikes``: one tap per weapon and target the page may offer (issue 20).
        w_choices.append({"value": w, "label": f"{s.weapon_label(w)}: "
                          f"{weapon_damage(s, x, w)} damage, reaches "
                          f"{', '.join(s.name(y) for y in them)}",
                          "strikes": [{"target": y, "label": f"{s.weapon_label(w)} at "
                                       f"{s.name(y)}: {weapon_damage(s, x, w)} damage"}
                                      for y in them]})
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
                        "fields": fields, "rule": item.get("rule", "MR-8")}
    if "why" in item:
        action["why"] = action["disabled"] = item["why"]
    else:
        cost = int(item["cost"])
        paid = f"It costs {cost} HP" if cost else "It is free"
        effect = str(item["effect"])
        action["confirm"] = f"{paid}: {effect[:1].lower()}{effect[1:]}. Use it?"
    return action
