"""Random legal plays of Mountains & Rivers, for simulations and property tests."""

from __future__ import annotations

import random
from typing import Any

from companion.engine import Event, JSONDict, Rules
from companion.errors import CardNotAvailable, IllegalPlay, MalformedEvent
from companion.games.mountains import skills
from companion.games.mountains.state import (
    MountainsState,
    pile,
    reachable_moves,
    roll_due,
    seat_place,
    targets_in_range,
    usable_weapons,
)


def random_play(
    rules: Rules[MountainsState], s: MountainsState, rng: random.Random
) -> Event | None:
    if s.finished:
        return None
    due = roll_due(s)
    if due is not None and (s.phase == "order" or (s.pending and s.pending[0].kind == "roll")):
        return {"type": "roll", "seat": due[0], "dice": [rng.randint(1, 6) for _ in range(due[1])]}
    if s.phase == "pick":
        picker = s.pick_order[sum(1 for p in s.players if p.character)]
        return {"type": "scan", "card": rng.choice(sorted(s.in_place(pile("character")))),
                "zone": seat_place(picker)}
    if s.phase == "corner":
        return {"type": "corner", "seat": s.pick_order[0], "corner": rng.choice(s.board.corners)}
    if s.pending:
        p = s.pending[0]
        if p.kind == "draw":
            return {"type": "scan", "card": rng.choice(sorted(s.in_place(pile(p.deck)))),
                    "zone": seat_place(p.seat)}
        if p.kind == "stairs":
            return {"type": "stairs", "seat": p.seat, "take": rng.random() < 0.5}
        if p.kind == "result":
            opp = p.other or rng.choice([y for y in s.living if y != p.seat])
            if not p.other and rng.random() < 0.5:  # the drawer names the opponent first
                return {"type": "opponent", "seat": p.seat, "target": opp}
            pair = [p.seat, opp]
            rng.shuffle(pair)
            return {"type": "result", "winner": pair[0], "loser": pair[1]}
        owner = p.seat if p.kind == "discard" else p.other
        return {"type": p.kind, "seat": p.seat,
                "card": rng.choice(p.cards or s.player(owner).weapons)}
    x = s.turn
    if due is not None:
        return {"type": "roll", "seat": x, "dice": [rng.randint(1, 6) for _ in range(due[1])]}
    # Attack whenever a weapon reaches someone (keeps random games finite), skills sometimes.
    if not s.attacked and rng.random() < 0.9:
        strikes: list[JSONDict] = []
        for w in usable_weapons(s, x):
            tg = targets_in_range(s, x, w)
            if tg and len(strikes) < 2:
                strikes.append({"card": w, "target": rng.choice(tg)})
        if strikes:
            return {"type": "attack", "seat": x, "strikes": strikes}
    if not s.skilled and rng.random() < 0.35:
        slots = [it["value"] for it in skills.skill_choices(s, x) if "why" not in it]
        rng.shuffle(slots)
        for slot in slots:
            ev = _random_skill(s, x, slot, rng)
            try:
                rules.apply(s, ev)
            except (IllegalPlay, MalformedEvent, CardNotAvailable):
                continue
            return ev
    if not s.moved:
        moves = reachable_moves(s)
        if moves:
            return {"type": "move", "seat": x, "to": rng.choice(sorted(moves))}
    return {"type": "end", "seat": x}


def _random_skill(s: MountainsState, x: int, slot: str, rng: random.Random) -> Event:
    ev: dict[str, Any] = {"type": "skill", "seat": x, "skill": slot}
    sk = skills.skill_of(s, x, slot)
    others = [y for y in s.living if y != x]
    if "card" in sk.params and "other" in sk.params:
        armed = [y for y in others if s.player(y).weapons]
        if armed:
            t = rng.choice(armed)
            ev["target"] = t
            ev["card"] = rng.choice(s.player(t).weapons)
        return ev
    if "other" in sk.params:
        ev["target"] = rng.choice(others)
    if "any" in sk.params:
        ev["target"] = rng.choice(list(s.living))
    if "card" in sk.params:
        usable = usable_weapons(s, x)
        if usable:
            ev["card"] = rng.choice(usable)
    if "tile" in sk.params:
        ev["tile"] = rng.choice(sorted(s.board.tiles))
    if "add" in sk.params:
        ev["add"] = rng.choice([1, 2])
    return ev
