"""The Classic of Mountains & Rivers at a simulated table (``companion.seatplay``): every
card is face up once drawn (characters, weapons in front of their holders, challenge and
chance cards, MR-6, MR-7), so nothing is hidden but the order of the face-down piles, and
those are drawn lazily: ``resample`` has nothing to redraw.

- Chance: every die (the pick-order rolls MR-3, the movement roll MR-5, two dice in the
  showdown or after Qing Luan's skill 1, Ling Yu's skill-1 die: each face equally likely),
  every card drawn from a pile (a character pick, a weapon, challenge or chance card: each
  card of the pile equally likely), and a challenge's mini-game once both players are
  named (played at the table, not by the rules: each wins with even odds).
- Moves, in this order. The start corner (the first picker, MR-2): each corner. Stairs
  (MR-5 rev. 2): take, stay. A challenge without an opponent: each living other player to
  name. A discard or a take (MR-7): each weapon it may name. The turn (MR-4): every attack
  (each usable weapon at each player in range, and each pair of weapons with their
  targets, MR-7), every skill with every value of its parameters (MR-8: the players and
  weapons the rules allow it, every tile, 1 or 2), every reachable tile to move to
  (MR-5), then ``end``. Each is checked by the rules before it is listed (a skill that
  names a tile is checked once per target: the tile changes nothing of its legality).
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any

from companion.engine import Event
from companion.errors import CompanionError
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
from companion.seatplay import Seats, Table, uniform


class MountainsSeats(Seats):

    def chance_outcomes(self, table: Table) -> list[tuple[Event, float]] | None:
        s: MountainsState = table.state
        due = roll_due(s)
        if due is not None and (s.phase == "order" or (s.pending and s.pending[0].kind == "roll")
                                or (s.phase == "play" and not s.pending)):
            seat, count = due
            extra = {"by": "companion"} if s.dice_mode == "companion" else {}
            return uniform([{"type": "roll", "seat": seat, "dice": list(d), **extra}
                            for d in product(range(1, 7), repeat=count)])
        if s.phase == "pick":
            picker = s.pick_order[sum(1 for p in s.players if p.character)]
            return uniform([{"type": "scan", "card": c, "zone": seat_place(picker)}
                            for c in sorted(s.in_place(pile("character")))])
        if s.phase == "play" and s.pending:
            p = s.pending[0]
            if p.kind == "draw":
                return uniform([{"type": "scan", "card": c, "zone": seat_place(p.seat)}
                                for c in sorted(s.in_place(pile(p.deck)))])
            if p.kind == "result" and p.other:
                return uniform([{"type": "result", "winner": p.seat, "loser": p.other},
                                {"type": "result", "winner": p.other, "loser": p.seat}])
        return None

    def to_move(self, table: Table) -> int | None:
        s: MountainsState = table.state
        if s.finished or self.chance_outcomes(table) is not None:
            return None
        if s.phase == "corner":
            return int(s.pick_order[0])
        if s.phase != "play":
            return None
        if s.pending:
            return int(s.pending[0].seat)
        return int(s.turn)

    def moves(self, table: Table, seat: int) -> list[Event]:
        if self.to_move(table) != seat:
            return []
        s: MountainsState = table.state
        if s.phase == "corner":
            return [{"type": "corner", "seat": seat, "corner": c} for c in s.board.corners]
        if s.pending:
            p = s.pending[0]
            if p.kind == "stairs":
                return [{"type": "stairs", "seat": seat, "take": True},
                        {"type": "stairs", "seat": seat, "take": False}]
            if p.kind == "result":
                return [{"type": "opponent", "seat": seat, "target": y}
                        for y in s.living if y != seat]
            owner = p.seat if p.kind == "discard" else p.other
            cards = p.cards or s.player(owner).weapons
            return self._legal(table, [{"type": p.kind, "seat": seat, "card": c}
                                       for c in cards])
        out = self._legal(table, _attacks(s, seat))
        for item in skills.skill_choices(s, seat):
            if "why" not in item:
                out += self._skill(table, seat, str(item["value"]))
        out += [{"type": "move", "seat": seat, "to": t} for t in reachable_moves(s)]
        return [*out, *self._legal(table, [{"type": "end", "seat": seat}])]

    def _skill(self, table: Table, seat: int, slot: str) -> list[Event]:
        s: MountainsState = table.state
        sk = skills.skill_of(s, seat, slot)
        params = sk.params
        base: dict[str, Any] = {"type": "skill", "seat": seat, "skill": slot}
        options: list[dict[str, Any]] = [base]
        if "other" in params or "any" in params:
            options = [{**base, "target": t} for t in skills.skill_targets(s, seat, slot)]
        if "card" in params:
            mine = (sk.character, slot) in {("huan", "1"), ("ling-yu", "basic")}
            options = [{**o, "card": w} for o in options
                       for w in (usable_weapons(s, seat) if mine
                                 else s.player(int(o["target"])).weapons)]
        if "add" in params:
            options = [{**o, "add": a} for o in options for a in (1, 2)]
        if "tile" in params:
            legal = self._legal(table, [{**o, "tile": min(s.board.tiles)} for o in options])
            return [{**o, "tile": t} for o in legal for t in sorted(s.board.tiles)]
        return self._legal(table, options)

    @staticmethod
    def _legal(table: Table, events: list[dict[str, Any]]) -> list[Event]:
        out: list[Event] = []
        for e in events:
            try:
                table.rules.apply(table.state, e)
            except CompanionError:
                continue
            out.append(e)
        return out


def _attacks(s: MountainsState, seat: int) -> list[dict[str, Any]]:
    """Every attack: one usable weapon at a player in its range, or two at theirs (MR-7)."""
    if s.attacked:
        return []
    strikes = [(w, t) for w in usable_weapons(s, seat) for t in targets_in_range(s, seat, w)]
    out = [{"type": "attack", "seat": seat, "strikes": [{"card": w, "target": t}]}
           for w, t in strikes]
    for (w1, t1), (w2, t2) in combinations(strikes, 2):
        if w1 != w2:
            out.append({"type": "attack", "seat": seat,
                        "strikes": [{"card": w1, "target": t1}, {"card": w2, "target": t2}]})
    return out


SEATS = MountainsSeats()
