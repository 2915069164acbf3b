"""The sixteen character skills of Mountains & Rivers (MR-8).

Each character has a basic skill (free) and skills 1-3 costing 1/2/3 HP, one HP less (not
below 0) while standing on a tile of the character's own colour. A skill cannot be used if
its cost would take HP to 0 or below, if it would spend an action (movement or attack)
already used this turn, or if a skill was already used this turn (MR-4).

Skill event: ``{"type": "skill", "seat": n, "skill": "basic"|"1"|"2"|"3", ...}`` with the
parameters the skill needs:

=========  ==========  ============================================================
character  skill       parameters and effect
=========  ==========  ============================================================
Xi Bian    basic       spends attack; +1 HP
           1           until your next turn, whoever attacks you loses 1 HP per attack
           2           ``target`` (seat), ``card`` (one of the target's weapons): discarded
           3           until your next turn, +1 HP per 2 HP the other players lose, by
                       any cause, their skill costs included (rev. 2)
Qing Luan  basic       spends attack; ``add`` 1 or 2 to this turn's movement
           1           before the movement roll: it is 2 dice; move by either (rev. 2)
           2           ``target``: swap places with them (no tile activates)
           3           ``target`` (any player, you too), ``tile``: put them there
Huan       basic       spends movement and attack (rev. 2: a damage skill is an attack and
                       needs a weapon held); ``target`` within 5 tiles loses 1 HP
           1           ``card`` (your weapon): +2 damage this turn; not after the attack
           2           draw a weapon card (a scan); it cannot be used this turn
           3           every other player loses 1 HP (an attack, rev. 2 as basic)
Ling Yu    basic       spends movement; ``card`` (a weapon you may attack with this turn):
                       its range is doubled this turn (rev. 2)
           1           roll a die (a ``roll`` event): 1 nothing, 2-3 challenge card,
                       4-5 chance card, 6 weapon card
           2           ``target``: they skip their movement on their next turn
           3           ``target``, ``card`` (one of their weapons): it becomes yours
=========  ==========  ============================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.engine import Event, evolve, require
from companion.errors import IllegalPlay, MalformedEvent
from companion.games.mountains.state import (
    MountainsState,
    Pending,
    change_hp,
    discard,
    draw,
    held_weapon,
    hit,
    move_card,
    next_seat,
    seat_place,
    set_player,
)

SLOTS: tuple[str, ...] = ("basic", "1", "2", "3")
BASE_COST = {"basic": 0, "1": 1, "2": 2, "3": 3}
HUAN_REACH = 5


@dataclass(frozen=True)
class Skill:
    """What a skill needs: the action it spends and the parameters it takes."""

    character: str
    slot: str
    label: str
    spends: str = ""  # "movement" | "attack" | ""
    params: tuple[str, ...] = ()  # of "target", "other", "any", "card", "tile", "add"
    # MR-8 rev. 2: a skill that takes HP from opponents is an attack: it uses up the
    # turn's attack and needs a weapon held (which it does not use up).
    attack: bool = False


SKILLS: dict[tuple[str, str], Skill] = {
    (s.character, s.slot): s
    for s in (
        Skill("xi-bian", "basic", "Spend your attack: gain 1 HP", "attack"),
        Skill("xi-bian", "1", "Until your next turn, attackers lose 1 HP per attack"),
        Skill("xi-bian", "2", "A player discards a weapon of your choice", "", ("other", "card")),
        Skill("xi-bian", "3", "Until your next turn, +1 HP per 2 HP others lose"),
        Skill("qing-luan", "basic", "Spend your attack: add 1-2 to movement", "attack",
              ("add",)),
        Skill("qing-luan", "1", "Before your movement roll: roll 2 dice, move by either one"),
        Skill("qing-luan", "2", "Swap places with another player", "", ("other",)),
        Skill("qing-luan", "3", "Move one player anywhere on the map", "", ("any", "tile")),
        Skill("huan", "basic", "Spend your movement: 1 damage to a player within 5 tiles",
              "movement", ("other",), attack=True),
        Skill("huan", "1", "+2 damage to one of your weapons this turn", "", ("card",)),
        Skill("huan", "2", "Draw a weapon card (not usable this turn)"),
        Skill("huan", "3", "All other players take 1 damage", attack=True),
        Skill("ling-yu", "basic", "Spend your movement: double one weapon's range this turn",
              "movement", ("card",)),
        Skill("ling-yu", "1", "Roll a die: 2-3 challenge, 4-5 chance, 6 weapon card"),
        Skill("ling-yu", "2", "Another player skips their movement next turn", "", ("other",)),
        Skill("ling-yu", "3", "Take a weapon from a player", "", ("other", "card")),
    )
}


def _an(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def skill_of(s: MountainsState, seat: int, slot: str) -> Skill:
    character = s.player(seat).character
    if slot not in SLOTS or character is None:
        raise MalformedEvent(f"skill {slot!r} must be one of {list(SLOTS)}")
    return SKILLS[(character, slot)]


def cost(s: MountainsState, seat: int, slot: str) -> int:
    """HP the skill costs now: 0/1/2/3, one less on a tile of your own colour (MR-8)."""
    p = s.player(seat)
    base = BASE_COST[slot]
    on_own = p.tile is not None and s.board.tile(p.tile).colour == p.element
    return max(0, base - 1) if on_own else base


def problem(s: MountainsState, seat: int, slot: str) -> tuple[str, str] | None:
    """Why ``seat`` cannot use skill ``slot`` now (``(reason, rule)``), or ``None``.

    Checks the turn, the one-skill limit, spent actions, cost and what the skill needs to
    exist (a weapon to boost, a player with weapons...).
    """
    if s.phase != "play" or s.turn != seat:
        return "skills can only be used in your own turn", "MR-8"
    if s.pending:
        return "finish what the table is doing first", "MR-4"
    if s.skilled:
        return "you already used a skill this turn", "MR-4"
    sk = skill_of(s, seat, slot)
    p = s.player(seat)
    if sk.spends == "movement" and s.moved:
        return _moved(s), "MR-8"
    if sk.spends == "attack" and s.attacked:
        return "your attack is already spent this turn", "MR-8"
    if sk.attack and s.attacked:
        return "this skill is an attack, and your attack is already used this turn", "MR-8"
    if sk.attack and not p.weapons:
        return "this skill is an attack: you need a weapon to attack", "MR-8"
    c = cost(s, seat, slot)
    if c and p.hp - c <= 0:
        return f"it costs {c} HP and you have {p.hp}", "MR-8"
    key = (sk.character, slot)
    if key in TAKERS and not skill_targets(s, seat, slot):
        return "no other player has a weapon", "MR-8"
    if key == ("huan", "1") and s.attacked:
        return "you have already attacked this turn, so +2 damage could not apply", "MR-8"
    if key == ("ling-yu", "basic") and s.attacked:
        # MR-8 rev. 2: the doubled range is only for an attack still to come this turn.
        return ("you have already attacked this turn, so a doubled range could not apply",
                "MR-8")
    if key in {("huan", "1"), ("ling-yu", "basic")} and not skill_cards(s, seat, slot):
        return "you have no weapon you can use this turn", "MR-7"
    if key == ("huan", "basic") and not skill_targets(s, seat, slot):
        return f"no player is within {HUAN_REACH} tiles", "MR-8"
    if key in {("qing-luan", "basic"), ("qing-luan", "1")} and s.moved:
        return _moved(s), "MR-8"
    if key == ("qing-luan", "1") and s.roll:
        return "this skill is chosen before your movement roll", "MR-8"
    if key == ("qing-luan", "1") and s.showdown:
        return "in the final showdown you already roll two dice", "MR-5"
    if key == ("huan", "2") and not (s.in_place("pile:weapon") or s.in_place("discard:weapon")):
        return "there is no weapon card left to draw", "MR-6"
    return None


def _moved(s: MountainsState) -> str:
    """Why the movement is gone: skipped (and by whom, MR-8 rev. 2) or already used."""
    if s.movement_skipped:
        return f"your movement is skipped this turn (by {s.movement_skipped})"
    return "your movement is already spent this turn"


TAKERS = frozenset({("xi-bian", "2"), ("ling-yu", "3")})  # act on another player's weapon


def skill_targets(s: MountainsState, seat: int, slot: str) -> list[int]:
    """The players skill ``slot`` of ``seat`` may name as ``target`` now (MR-8).

    Any living player for Qing Luan's skill 3; otherwise the other living players: those
    with a weapon for Xi Bian's skill 2 and Ling Yu's skill 3, those within 5 tiles for
    Huan's basic skill. Empty for a skill without a target.
    """
    sk = skill_of(s, seat, slot)
    if "any" in sk.params:
        return list(s.living)
    if "other" not in sk.params:
        return []
    others = [x for x in s.living if x != seat]
    key = (sk.character, slot)
    if key in TAKERS:
        return [x for x in others if s.player(x).weapons]
    if key == ("huan", "basic"):
        return [x for x in others if _dist(s, seat, x) <= HUAN_REACH]
    return others


def skill_cards(s: MountainsState, seat: int, slot: str) -> list[str]:
    """The weapons skill ``slot`` of ``seat`` may name as ``card`` now (MR-7, MR-8).

    Huan's skill 1: Huan's weapons usable this turn. Xi Bian's skill 2 and Ling Yu's skill 3:
    the weapons of the players they may target. Empty for a skill without a card.
    """
    sk = skill_of(s, seat, slot)
    if "card" not in sk.params:
        return []
    if (sk.character, slot) in {("huan", "1"), ("ling-yu", "basic")}:
        return [w for w in s.player(seat).weapons if w not in s.fresh]
    return [w for x in skill_targets(s, seat, slot) for w in s.player(x).weapons]


def _dist(s: MountainsState, a: int, b: int) -> int:
    ta, tb = s.player(a).tile, s.player(b).tile
    if ta is None or tb is None:
        return 1_000
    return s.board.distance(ta, tb)


def _target(s: MountainsState, seat: int, event: Event, *, others_only: bool) -> int:
    t = require(event, "target", int)
    if not 1 <= t <= len(s.players) or not s.player(t).alive:
        raise IllegalPlay(f"target {t!r} is not a player in the game", rule="MR-8")
    if others_only and t == seat:
        raise IllegalPlay("choose another player, not yourself", rule="MR-8")
    return int(t)


def _their_weapon(s: MountainsState, target: int, event: Event) -> str:
    return held_weapon(s, target, str(require(event, "card", str)))


def use(s: MountainsState, seat: int, slot: str, event: Event) -> tuple[MountainsState, str]:
    """Validate and use skill ``slot``; returns the new state and the ruling text.

    Raises ``IllegalPlay`` (naming the rule) or ``MalformedEvent``; never changes ``s``.
    """
    sk = skill_of(s, seat, slot)
    why = problem(s, seat, slot)
    if why is not None:
        raise IllegalPlay(f"{s.name(seat)} cannot use skill {slot!r} ({sk.label}): {why[0]}",
                          rule=why[1])
    c = cost(s, seat, slot)
    name = s.name(seat)
    key = (sk.character, slot)
    p = s.player(seat)
    # Validate parameters before anything changes.
    target = 0
    card = ""
    if "other" in sk.params:
        target = _target(s, seat, event, others_only=True)
    if "any" in sk.params:
        target = _target(s, seat, event, others_only=False)
    if "card" in sk.params:
        card = _their_weapon(s, target or seat, event)
        if key in {("huan", "1"), ("ling-yu", "basic")} and card in s.fresh:
            raise IllegalPlay(f"{s.weapon_label(card)} was drawn this turn", rule="MR-7")
    tile = ""
    if "tile" in sk.params:
        tile = str(require(event, "tile", str))
        if tile not in s.board.tiles:
            raise IllegalPlay(f"there is no tile {tile!r} on the board", rule="MR-1")
    add = 0
    if "add" in sk.params:
        add = require(event, "add", int)
        if add not in (1, 2):
            raise IllegalPlay(f"add 1 or 2 to your movement, not {add!r}", rule="MR-8")
    if key == ("huan", "basic") and _dist(s, seat, target) > HUAN_REACH:
        raise IllegalPlay(
            f"{s.name(target)} is {_dist(s, seat, target)} tiles away; the reach is "
            f"{HUAN_REACH}", rule="MR-8")

    # The cost is HP lost like any other: Xi Bian's skill 3 counts it (MR-8 rev. 2).
    s, _ = change_hp(s, seat, -c)
    s = evolve(s, skilled=True)
    if sk.spends == "movement":
        s = evolve(s, moved=True)
    if sk.spends == "attack" or sk.attack:
        s = evolve(s, attacked=True)
    paid = f" (pays {c} HP)" if c else ""
    if c < BASE_COST[slot]:  # standing on their own colour (MR-8)
        paid = f" (pays {c} HP: one less on {_an(str(p.element))} {p.element} tile)"
    which = "the basic skill" if slot == "basic" else f"skill {slot}"
    head = f"{name} uses {which}{paid}"
    if key == ("xi-bian", "basic"):
        s = set_player(s, evolve(s.player(seat), hp=s.player(seat).hp + 1))
        return s, f"{head}: +1 HP, now {s.player(seat).hp}"
    if key == ("xi-bian", "1"):
        return evolve(s, thorns=s.thorns | {seat}), (
            f"{head}: until their next turn, whoever attacks {name} loses 1 HP per attack")
    if key == ("xi-bian", "2"):
        s = move_card(s, card, discard("weapon"))
        return s, f"{head}: {s.name(target)} discards {s.weapon_label(card)}"
    if key == ("xi-bian", "3"):
        siphon = (*(x for x in s.siphon if x[0] != seat), (seat, 0))
        return evolve(s, siphon=siphon), (
            f"{head}: until their next turn, {name} gains 1 HP per 2 HP the others lose")
    if key == ("qing-luan", "basic"):
        s = evolve(s, move_bonus=s.move_bonus + add)
        return s, f"{head}: +{add} to movement this turn"
    if key == ("qing-luan", "1"):
        return evolve(s, two_dice=True), (
            f"{head}: {name} rolls 2 dice for movement and moves by either one")
    if key == ("ling-yu", "1"):
        s = evolve(s, pending=(*s.pending, Pending("roll", seat, purpose="ling-yu-1", dice=1)))
        return s, f"{head}: roll a die"
    if key == ("qing-luan", "2"):
        mine, theirs = s.player(seat).tile, s.player(target).tile
        s = set_player(s, evolve(s.player(seat), tile=theirs))
        s = set_player(s, evolve(s.player(target), tile=mine))
        return s, f"{head}: {name} and {s.name(target)} swap places (no tile activates, MR-6)"
    if key == ("qing-luan", "3"):
        s = set_player(s, evolve(s.player(target), tile=tile))
        return s, f"{head}: {s.name(target)} is put on {tile} (no tile activates, MR-6)"
    if key == ("huan", "basic"):
        s, said = hit(s, seat, {target: 1})
        return s, f"{head}, an attack: {'; '.join(said)}"
    if key == ("huan", "1"):
        return evolve(s, boosted=card), f"{head}: {s.weapon_label(card)} deals +2 this turn"
    if key == ("huan", "2"):
        s, text = draw(s, seat, "weapon")
        return s, f"{head}: {text}; it cannot be used this turn"
    if key == ("huan", "3"):
        # In turn order from Huan's left, so a sharpen bonus goes to the next player.
        order, x = [], seat
        for _ in s.players:
            x = next_seat(s, x)
            if x != seat and x not in order:
                order.append(x)
        s, said = hit(s, seat, dict.fromkeys(order, 1))
        return s, f"{head}, an attack on each: {'; '.join(said)}"
    if key == ("ling-yu", "basic"):
        return evolve(s, double_range=card), (
            f"{head}: {s.weapon_label(card)} reaches twice as far this turn")
    if key == ("ling-yu", "2"):
        by = f"{name}'s skill 2"
        s = evolve(s, skip_move=(*(x for x in s.skip_move if x[0] != target), (target, by)))
        return s, f"{head}: {s.name(target)} skips their movement next turn"
    # ("ling-yu", "3")
    s = move_card(s, card, seat_place(seat))
    return s, f"{head}: {name} takes {s.weapon_label(card)} from {s.name(target)}"


def resolve_roll(
    s: MountainsState, pend: Pending, dice: tuple[int, ...]
) -> tuple[MountainsState, str]:
    """The die of Ling Yu's skill 1 (MR-8)."""
    name = s.name(pend.seat)
    v = dice[0]
    if v == 1:
        return s, f"{name} rolls 1 for skill 1: nothing happens"
    deck = "challenge" if v <= 3 else "chance" if v <= 5 else "weapon"
    s, text = draw(s, pend.seat, deck)
    return s, f"{name} rolls {v} for skill 1: {text}"


def skill_choices(s: MountainsState, seat: int) -> list[dict[str, Any]]:
    """Every skill of ``seat`` with its cost and why it is unavailable (for ``actions``)."""
    out: list[dict[str, Any]] = []
    if s.player(seat).character is None:
        return out
    for slot in SLOTS:
        sk = skill_of(s, seat, slot)
        why = problem(s, seat, slot)
        item: dict[str, Any] = {"value": slot, "label": _with_cost(sk.label, cost(s, seat, slot)),
                                "cost": cost(s, seat, slot), "params": list(sk.params),
                                "effect": sk.label}
        if why:
            # Plain words for players (C-8); the ruling id goes apart.
            item["why"] = item["disabled"] = why[0]
            item["rule"] = why[1]
        out.append(item)
    return out


def _with_cost(label: str, hp: int) -> str:
    """A skill's label with its cost in one pair of brackets: "Draw a weapon card (not
    usable this turn, 2 HP)", never "(not usable this turn) (2 HP)"."""
    if label.endswith(")"):
        return f"{label[:-1]}, {hp} HP)"
    return f"{label} ({hp} HP)"
