"""Mountains & Rivers adjudication (MR-2..MR-10): each event, validated and resolved.

The heart a rules lawyer reads: one handler per event type, each validating first (raising a
precise ``CompanionError`` and changing nothing) and returning the next state with what
happened. Skills are decided in ``skills``, the board's geometry in ``board``, the small
steps (HP, draws, defeat) in ``state``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from companion.engine import Event, Movement, Play, event_type, evolve, require, seat_zone
from companion.errors import (
    CardNotAvailable,
    IllegalPlay,
    MalformedEvent,
    OutOfTurn,
    UnknownCard,
)
from companion.games.mountains import challenge, skills
from companion.games.mountains.board import can_reach
from companion.games.mountains.state import (
    FACE_DOWN,
    START_HP,
    MountainsState,
    Pending,
    apply_effect,
    begin_turn,
    bump,
    change_hp,
    defeat_and_finish,
    discard,
    draw,
    held_weapon,
    hit,
    move_card,
    move_steps,
    next_seat,
    no_entry,
    order_needs,
    pile,
    place_words,
    reachable_moves,
    seat_place,
    set_player,
    weapon_damage,
    weapon_range,
)
from companion.games.mountains.view import pending_text
from companion.words import names, possessive


def _dice(event: Event, count: int) -> tuple[int, ...]:
    if "dice" in event:
        raw = event["dice"]
        if isinstance(raw, int) and not isinstance(raw, bool):
            raw = [raw]
        if not isinstance(raw, list):
            raise MalformedEvent(f"'dice' must be a list of numbers, got {raw!r}")
    else:
        raw = [require(event, "die", int)]
        if "die2" in event:
            raw.append(require(event, "die2", int))
    if len(raw) != count:
        raise IllegalPlay(f"this roll is {count} {'die' if count == 1 else 'dice'}, "
                          f"got {raw!r}", rule="MR-11")
    for d in raw:
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise IllegalPlay(f"a die shows 1-6, not {d!r}", rule="MR-11")
    return tuple(raw)


def _seat(s: MountainsState, event: Event) -> int:
    seat = require(event, "seat", int)
    if not 1 <= seat <= len(s.players):
        raise MalformedEvent(f"there is no seat {seat!r} at this table")
    return int(seat)


def _strikes(event: Event) -> list[tuple[str, int]]:
    if "strikes" in event:
        raw = require(event, "strikes", list)
        out = []
        for st in raw:
            if not isinstance(st, Mapping):
                raise MalformedEvent(f"a strike must be {{card, target}}, got {st!r}")
            out.append((str(require(st, "card", str)), int(require(st, "target", int))))
        return out
    target = int(require(event, "target", int))
    out = [(str(require(event, "card", str)), target)]
    if event.get("card2") is not None and event.get("card2") != "":
        # The second weapon is optional; without a second target it strikes the first one.
        target2 = target if event.get("target2") is None else require(event, "target2", int)
        out.append((str(require(event, "card2", str)), int(target2)))
    return out



# -- the play as data (issue 11) --------------------------------------------------------------
_MR = re.compile(r"\((?:[^()]*?, )?(MR-\d+|C-\d+)\)")
_RULE_OF = {"roll": "MR-11", "scan": "MR-6", "corner": "MR-2", "move": "MR-5",
            "stairs": "MR-5", "attack": "MR-7", "skill": "MR-8", "result": "MR-9",
            "opponent": "MR-9",
            "discard": "MR-9", "take": "MR-9", "end": "MR-4"}


def adjudicate(state: MountainsState, event: Event) -> tuple[MountainsState, str, Play]:
    """Validate and resolve one event: the next state, the referee's sentence (with ruling
    ids) and the ``Play`` (card movements, outcome, ruling id, actor, facts).

    Raises a ``CompanionError`` subclass and changes nothing.
    """
    kind = event_type(event)
    handler = HANDLERS.get(kind)
    if handler is None:
        raise MalformedEvent(f"unknown event type {kind!r}; expected one of {sorted(HANDLERS)}")
    alive = state.living
    s, text = handler(evolve(state, notes=()) if state.notes else state, event)
    fell = ""
    if s.phase == "play":
        s, fell = defeat_and_finish(s, alive)
    found = _MR.search(text)
    rule = found.group(1) if found else _RULE_OF[kind]
    outcome = _outcome(state, s, kind, event)
    if fell:
        text, rule = f"{text}. {fell}", "MR-10"
        outcome = "win" if s.finished else "out"
    if s.notes:
        text = f"{text}. {'. '.join(s.notes)}"
    actor = event.get("seat")
    play = Play(kind=kind, outcome=outcome, rule=rule,
                seat=actor if isinstance(actor, int) and not isinstance(actor, bool) else None,
                movements=_movements(state, s), facts=_facts(state, s, text))
    return s, text, play


def _outcome(before: MountainsState, s: MountainsState, kind: str, event: Event) -> str:
    if kind == "scan":
        typed = str(event.get("card"))
        card = s.faces.get(typed) or next((f for f in s.faces.values() if f.id == typed), None)
        return "pick" if before.phase == "pick" else card.deck if card else "scan"
    if kind == "stairs":
        return "stairs" if event.get("take") is True else "stay"
    return {"corner": "start", "attack": "hit", "end": "turn"}.get(kind, kind)


def _movements(before: MountainsState, s: MountainsState) -> tuple[Movement, ...]:
    """Every card that changed place, in a stable order; cards going face down into a pile
    (a reshuffle) are one count without serials: their order is unknown (C-2)."""
    if before.places is s.places:  # places are copied on every change (``move_card``)
        return ()
    was = before.places
    moved = sorted([(was[c], p, c) for c, p in s.places.items() if was[c] != p])
    out: list[Movement] = []
    into_pile: dict[tuple[str, str], int] = {}
    for source, target, serial in moved:
        if target in FACE_DOWN:
            into_pile[(source, target)] = into_pile.get((source, target), 0) + 1
        else:
            out.append(Movement(source, target, serial))
    return (*(Movement(a, b, None, n) for (a, b), n in into_pile.items()), *out)


def _facts(before: MountainsState, s: MountainsState, text: str) -> dict[str, Any]:
    """What the words need besides the movements: pawns moved, HP changed, cards asked for."""
    if before.players is s.players and before.pending == s.pending:
        return {"text": text, "pawns": [], "hp": [], "asks": [], "fallen": [], "winners": []}
    pawns = [[p.seat, q.tile, p.tile] for p, q in zip(s.players, before.players, strict=True)
             if p.tile != q.tile and p.tile is not None and q.tile is not None]
    hp = [[p.seat, q.hp, p.hp] for p, q in zip(s.players, before.players, strict=True)
          if p.hp != q.hp and before.phase == "play"]
    asks = [[p.seat, p.deck] for p in s.pending if p.kind == "draw" and p not in before.pending]
    fallen = [p.seat for p, q in zip(s.players, before.players, strict=True)
              if q.alive and not p.alive]
    return {"text": text, "pawns": pawns, "hp": hp, "asks": asks, "fallen": fallen,
            "winners": list(s.winners) if s.finished else []}


# -- handlers -----------------------------------------------------------------------------
def _on_roll(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    seat = _seat(s, event)
    name = s.name(seat)
    if s.phase == "order":
        if seat not in order_needs(s):
            raise OutOfTurn(f"{name} does not roll now; waiting for "
                            f"{names(s.name(n) for n in order_needs(s))}",
                            rule="MR-3")
        (d,) = _dice(event, 1)
        rolls = list(s.order_rolls)
        rolls[seat - 1] = (*rolls[seat - 1], d)
        s = evolve(s, order_rolls=tuple(rolls))
        needs = order_needs(s)
        if needs:
            tied = any(len(r) > 1 for r in rolls)
            return s, f"{name} rolls {d}" + (" (tie re-roll)" if tied else "")
        order = tuple(sorted(range(1, len(rolls) + 1), key=lambda x: rolls[x - 1], reverse=True))
        s = evolve(s, phase="pick", pick_order=order)
        return s, (f"{name} rolls {d}. Pick order: "
                   f"{', '.join(s.name(x) for x in order)}; {s.name(order[0])} draws a "
                   "character card blindly and shows it in their place (MR-3)")
    pend = next((p for p in s.pending if p.kind == "roll" and p.seat == seat), None)
    if pend is not None:
        dice = _dice(event, pend.dice)
        rest = list(s.pending)
        rest.remove(pend)
        s = evolve(s, pending=tuple(rest))
        return skills.resolve_roll(s, pend, dice)
    if s.phase != "play":
        raise IllegalPlay(f"no roll is expected now ({s.phase.replace('_', ' ')})", rule="MR-11")
    _my_turn(s, seat, "roll")
    if s.pending:
        raise IllegalPlay(f"first: {pending_text(s, s.pending[0])}", rule="MR-4")
    if s.moved:
        raise IllegalPlay(_no_movement(s), rule="MR-4")
    if s.roll:
        raise IllegalPlay(f"{name} already rolled {list(s.roll)} this turn", rule="MR-5")
    dice = _dice(event, 2 if s.showdown or s.two_dice else 1)
    s = evolve(s, roll=dice)
    opts = " or ".join(str(n) for n in move_steps(s))
    how = "final showdown: " if s.showdown else ""
    steps = "step" if move_steps(s) == (1,) else "steps"
    return s, f"{how}{name} rolls {' and '.join(map(str, dice))}: move exactly {opts} {steps}"


def _my_turn(s: MountainsState, seat: int, what: str) -> None:
    if s.phase != "play":
        raise IllegalPlay(f"the game has not started; cannot {what} now", rule="MR-3")
    if seat != s.turn:
        raise OutOfTurn(f"it is {s.name(s.turn)}'s turn, not {s.name(seat)}'s ({what})",
                        rule="MR-4")


def _no_pending(s: MountainsState) -> None:
    if s.pending:
        raise IllegalPlay(f"first: {pending_text(s, s.pending[0])}", rule="MR-9")


def _sender(s: MountainsState, event: Event) -> int | None:
    """The seat that sent ``event`` (C-7: the web sets it from the seat token), if any."""
    return _seat(s, event) if "seat" in event else None


def unavailable(s: MountainsState, seat: int, typed: str, expect: str) -> CardNotAvailable:
    """The one refusal a seat gets for any card it may not show now (C-7: no oracle).

    It names the card as the seat typed it and never says where the card really is, so a
    card in a face-down pile reads the same as any other card not available to them.
    """
    return CardNotAvailable(f"{typed!r} is not a {expect} card {s.name(seat)} can show now: "
                            f"draw one from {place_words(s, pile(expect))}", rule="C-1")


def _scan_card(s: MountainsState, typed: str, expect: str) -> str:
    """The serial meant by ``typed``: a serial, or a face id (C-1: the engine picks a copy
    in the pile the table waits on, else any copy, for the refusal). Raises ``UnknownCard``.
    """
    if typed in s.places:
        return typed
    copies = sorted(c for c, f in s.faces.items() if f.id == typed)
    if not copies:
        raise UnknownCard(f"card {typed!r} is not part of this table")
    return next((c for c in copies if s.places[c] == pile(expect)), copies[0])


def _at(s: MountainsState, where: str) -> str:
    """Where a card lies, in words: "on the weapon discard pile", "in front of Bo"."""
    words = place_words(s, where)
    return words if words.startswith(("in ", "out ")) else f"on {words}"


def _on_scan(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    typed = str(require(event, "card", str))
    sender = _sender(s, event)
    # A scan entered by hand from an action form may name the seat instead of the zone.
    zone = str(require(event, "zone", str)) if "zone" in event or sender is None \
        else seat_place(sender)
    seat = seat_zone(zone, len(s.players))
    if seat is None:
        raise MalformedEvent(f"Mountains & Rivers cards are shown in a seat zone, not {zone!r}")
    override = event.get("override") is True
    # C-7: who acts is checked before the card is looked at, so a refusal says nothing
    # about the card; a seat shows cards only in its own zone. ``override`` comes only from
    # the referee (the server refuses it from a seat token), whose form may name the seat.
    if sender is not None and sender != seat:
        raise OutOfTurn(f"{s.name(sender)} shows cards only in front of themselves, not in "
                        f"front of {s.name(seat)}", rule="C-7")
    if s.phase == "pick":
        picker = s.pick_order[sum(1 for p in s.players if p.character)]
        if seat != picker:
            raise OutOfTurn(f"{s.name(picker)} picks now, not {s.name(seat)}", rule="MR-3")
        expect = "character"
    else:
        pend = next((p for p in s.pending if p.kind == "draw" and p.seat == seat), None)
        if pend is None:
            raise IllegalPlay(f"{s.name(seat)} is not drawing a card now ({typed!r} in {zone!r})",
                              rule="MR-6")
        expect = pend.deck
    card = _scan_card(s, typed, expect)
    face = s.face(card)
    where = s.places[card]
    if sender is not None and not override and (face.deck != expect or where != pile(expect)):
        raise unavailable(s, seat, typed, expect)
    if face.deck != expect:
        raise CardNotAvailable(f"{typed!r} is a {face.deck} card; {s.name(seat)} is drawing a "
                               f"{expect} card", rule="C-1")
    if where != pile(expect) and not override:
        # For the referee and the camera: where the card is, in words (C-8).
        raise CardNotAvailable(f"{typed!r} ({face.name}) is {_at(s, where)}, not in "
                               f"{place_words(s, pile(expect))}", rule="C-1")
    if expect == "character" and where.startswith("seat:"):
        raise CardNotAvailable(f"{face.name} ({typed!r}) was already picked; a character "
                               "belongs to one player", rule="C-1")
    holder = next((p for p in s.players if p.character == face.id), None)
    if expect == "character" and holder is not None:
        # Another printed copy (of a run out of play) cannot make a second one (MR-2).
        raise CardNotAvailable(f"{holder.name} is already {face.name}; {typed!r} is another "
                               "copy of that character card", rule="C-1")
    forced = f" (referee override: it was {_at(s, where)})" if where != pile(expect) else ""
    if s.phase == "pick":
        return _pick(s, seat, card, forced)
    pend = next(p for p in s.pending if p.kind == "draw" and p.seat == seat)
    rest = list(s.pending)
    rest.remove(pend)
    s = bump(evolve(s, pending=tuple(rest)), "draws")
    name = s.name(seat)
    if expect == "weapon":
        s = move_card(s, card, seat_place(seat))  # off its former place, even another row
        if pend.turn_no == s.turn_no:
            # Drawn this turn (MR-7). A reward drawn in a turn that a defeat ended (MR-10)
            # is scanned after the next turn began: it belongs to the turn it was won in.
            s = evolve(s, fresh=s.fresh | {card})
            return s, (f"{name} draws {s.weapon_label(card)}{forced}; it cannot be used this "
                       "turn (MR-7)")
        return s, (f"{name} draws {s.weapon_label(card)}{forced}, the reward of the previous "
                   "turn: it can be used from now on (MR-7)")
    if expect == "challenge":
        s = move_card(s, card, discard("challenge"))
        opp = challenge.first_opponent(s, seat)  # MR-9: the drawer's choice, if any left
        s = evolve(s, pending=(Pending("result", seat, card=card, other=opp), *s.pending))
        return s, (f"{name} draws the challenge {face.name!r}{forced}: {face.text} "
                   "Enter the winner (MR-9)")
    s = move_card(s, card, discard("chance"))
    s, said = apply_effect(s, seat, face.attrs["effect"], source=face.name)
    return s, f"{name} draws the chance card {face.name!r}{forced}: {'; '.join(said)} (MR-9)"


def _pick(s: MountainsState, seat: int, card: str, forced: str) -> tuple[MountainsState, str]:
    face = s.face(card)
    s = move_card(s, card, seat_place(seat))
    s = set_player(s, evolve(s.player(seat), character=face.id, element=face.element))
    text = f"{s.name(seat)} is {face.name} ({face.element}){forced}"
    left = [p for p in s.players if not p.character]
    remaining = s.in_place(pile("character"))
    if len(left) == 1 and len(remaining) == 1:
        last = left[0].seat
        f2 = s.face(remaining[0])
        s = move_card(s, remaining[0], seat_place(last))
        s = set_player(s, evolve(s.player(last), character=f2.id, element=f2.element))
        text += f"; the last card goes to {s.name(last)}: {f2.name} ({f2.element})"
        left = []
    if left:
        nxt = s.pick_order[len(s.players) - len(left)]
        return s, f"{text}; {s.name(nxt)} picks next (MR-3)"
    s = evolve(s, phase="corner")
    first = s.pick_order[0]
    return s, f"{text}. {s.name(first)} chooses the start corner (MR-2)"


def _on_corner(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    seat = _seat(s, event)
    if s.phase != "corner":
        raise IllegalPlay("the start corner is chosen once, after the picks", rule="MR-2")
    first = s.pick_order[0]
    if seat != first:
        raise OutOfTurn(f"{s.name(first)} picked first and chooses the corner, not "
                        f"{s.name(seat)}", rule="MR-2")
    corner = str(require(event, "corner", str))
    if corner not in s.board.corners:
        raise IllegalPlay(f"{corner!r} is not a corner; choose one of "
                          f"{list(s.board.corners)}", rule="MR-2")
    end = s.board.opposite(corner)
    for p in s.players:
        s = set_player(s, evolve(p, tile=corner, hp=START_HP))
    s = evolve(s, phase="play", start=corner, end=end)
    s, turn = begin_turn(s, first)
    return s, (f"everyone starts on {corner} with {START_HP} HP; the endpoint is {end} "
               f"(MR-2). {turn}")


def _on_move(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    seat = _seat(s, event)
    _my_turn(s, seat, "move")
    _no_pending(s)
    name = s.name(seat)
    if s.moved:
        raise IllegalPlay(_no_movement(s), rule="MR-4")
    if not s.roll:
        raise IllegalPlay(f"{name} must roll for movement first", rule="MR-5")
    to = str(require(event, "to", str))
    here = s.player(seat).tile
    if to not in s.board.tiles or here is None or not any(
        can_reach(s.board, here, to, n, no_entry(s)) for n in move_steps(s)
    ):
        moves = reachable_moves(s)
        steps = " or ".join(str(n) for n in move_steps(s))
        unit = "step" if move_steps(s) == (1,) else "steps"
        raise IllegalPlay(
            f"{to!r} cannot be reached in exactly {steps} {unit} from "
            f"{s.player(seat).tile} (no tile twice, never against an arrow, never onto or "
            f"through the start tile {s.start}); reachable: "
            f"{', '.join(moves)}", rule="MR-5")
    s = set_player(s, evolve(s.player(seat), tile=to))
    s = bump(evolve(s, moved=True), "moves")
    exit_ = s.board.tile(to).exit
    if exit_:
        # MR-5 rev. 2: the stairs are a choice; nothing else happens until it is answered.
        s = evolve(s, pending=(Pending("stairs", seat), *s.pending))
        return s, (f"{name} moves to {to}, a stairs entrance: {name} may take the stairs to "
                   f"{exit_} (MR-5)")
    s, act = _activate(s, seat, to)
    return s, f"{name} moves to {to}{': ' + act if act else ''}"


def _no_movement(s: MountainsState) -> str:
    """Why the mover cannot move: skipped, and by whom (MR-8 rev. 2), or already moved."""
    name = s.name(s.turn)
    if s.movement_skipped:
        return f"{possessive(name)} movement is skipped this turn (by {s.movement_skipped})"
    return f"{name} has already moved this turn"


def _on_stairs(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    seat = _seat(s, event)
    pend = next((p for p in s.pending if p.kind == "stairs"), None)
    if pend is None:
        raise IllegalPlay("nobody is standing on a stairs entrance deciding now", rule="MR-5")
    if seat != pend.seat:
        raise OutOfTurn(f"{s.name(pend.seat)} decides about the stairs, not {s.name(seat)}",
                        rule="MR-5")
    take = require(event, "take", bool)
    s = evolve(s, pending=tuple(p for p in s.pending if p is not pend))
    here = s.player(seat).tile or ""
    if not take:
        return s, f"{s.name(seat)} stays on {here} and does not take the stairs (MR-5)"
    exit_ = s.board.tile(here).exit or here
    s = set_player(s, evolve(s.player(seat), tile=exit_))
    return s, (f"{s.name(seat)} takes the stairs from {here} to {exit_}; the exit tile does "
               "not act (MR-5)")


def _activate(s: MountainsState, seat: int, tile: str) -> tuple[MountainsState, str]:
    """The tile a movement step ends on acts (MR-6)."""
    t = s.board.tile(tile)
    if t.kind in ("sharpen", "blunt", "armoury"):
        s = bump(s, f"{t.kind}_tiles")  # for the simulations' figures (MR-1 rev. 2, rev. 3)
    if t.kind in ("sharpen", "blunt"):
        # MR-1 rev. 2: +1 damage on this turn's attack; rev. 3, its mirror: -1 (never below
        # 0). Nothing if the attack was already made.
        if s.attacked:
            return s, f"{t.kind} tile, but the attack of this turn is already made: nothing"
        if t.kind == "blunt":
            return evolve(s, blunted=True), "blunt tile, 1 less damage on this turn's attack"
        return evolve(s, sharpened=True), "sharpen tile, +1 damage on this turn's attack"
    if t.kind == "armoury":  # MR-1 rev. 3: "give primary weapons", as a weapon tile
        s, text = draw(s, seat, "weapon")
        return s, f"armoury tile: {text}"
    if t.kind in s.board.tile_hp:
        s, ch = change_hp(s, seat, s.board.tile_hp[t.kind])
        return s, f"{t.kind}, {'+' if ch >= 0 else ''}{ch} HP"
    if t.kind in ("weapon", "challenge", "chance"):
        s, text = draw(s, seat, t.kind)
        return s, f"{t.kind} tile: {text}"
    return s, ""


def _on_attack(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    seat = _seat(s, event)
    _my_turn(s, seat, "attack")
    _no_pending(s)
    name = s.name(seat)
    if s.attacked:
        raise IllegalPlay(f"{name} has already used their attack this turn", rule="MR-4")
    strikes = _strikes(event)
    if not 1 <= len(strikes) <= 2:
        raise IllegalPlay(f"an attack uses one or two weapons, not {len(strikes)}", rule="MR-7")
    if len({c for c, _ in strikes}) != len(strikes):
        raise IllegalPlay("each weapon strikes once per attack", rule="MR-7")
    damage: dict[int, int] = {}
    parts = []
    strikes = [(held_weapon(s, seat, card), target) for card, target in strikes]
    if len({c for c, _ in strikes}) != len(strikes):
        raise IllegalPlay("each weapon strikes once per attack", rule="MR-7")
    for card, target in strikes:
        if card in s.fresh:
            raise IllegalPlay(f"{s.weapon_label(card)} was drawn this turn and cannot be used "
                              "until a later turn", rule="MR-7")
        if not 1 <= target <= len(s.players) or not s.player(target).alive or target == seat:
            raise IllegalPlay(f"target {target!r} is not an opponent in the game", rule="MR-7")
        me, them = s.player(seat).tile, s.player(target).tile
        dist = s.board.distance(me, them) if me and them else 1_000
        if dist > weapon_range(s, card):
            raise IllegalPlay(f"{s.name(target)} is {dist} tiles away; {s.weapon_label(card)} "
                              f"reaches {weapon_range(s, card)}", rule="MR-7")
        dmg = weapon_damage(s, seat, card)
        damage[target] = damage.get(target, 0) + dmg
        parts.append(f"{s.face(card).name} hits {s.name(target)} for {dmg}")
    for card, _ in strikes:
        s = move_card(s, card, discard("weapon"))
    s = bump(evolve(s, attacked=True), "attacks")
    s, said = hit(s, seat, damage)
    return s, f"{name} attacks: {'; '.join([*parts, *said])}; used weapons go to the weapon " \
              "discard pile (MR-7)"


def _on_skill(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    seat = _seat(s, event)
    _my_turn(s, seat, "use a skill")
    slot = str(require(event, "skill", str))
    s, text = skills.use(s, seat, slot, event)
    return bump(s, "skills"), text


def _on_pick_weapon(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    kind = event_type(event)
    seat = _seat(s, event)
    card = str(require(event, "card", str))
    pend = next((p for p in s.pending if p.kind == kind and p.seat == seat), None)
    if pend is None:
        raise IllegalPlay(f"{s.name(seat)} has no weapon to {kind} now", rule="MR-9")
    owner = seat if kind == "discard" else pend.other
    # Taken from a loser who fell: among the weapons they had (MR-9, MR-10).
    had = tuple(c for c in pend.cards if s.places[c] == discard("weapon"))
    card = held_weapon(s, owner, card, among=had if pend.cards else None)
    rest = list(s.pending)
    rest.remove(pend)
    s = evolve(s, pending=tuple(rest))
    if kind == "discard":
        s = move_card(s, card, discard("weapon"))
        return s, f"{s.name(seat)} discards {s.weapon_label(card)}"
    s = move_card(s, card, seat_place(seat))
    return s, f"{s.name(seat)} takes {s.weapon_label(card)} from {s.name(owner)}"


def _on_end(s: MountainsState, event: Event) -> tuple[MountainsState, str]:
    seat = _seat(s, event)
    _my_turn(s, seat, "end the turn")
    _no_pending(s)
    if not s.moved and not (s.roll and not reachable_moves(s)):
        raise IllegalPlay(f"{s.name(seat)} must move before ending the turn", rule="MR-4")
    s, text = begin_turn(s, next_seat(s, seat))
    return s, f"{s.name(seat)} ends the turn. {text}"


HANDLERS = {
    "roll": _on_roll,
    "scan": _on_scan,
    "corner": _on_corner,
    "move": _on_move,
    "stairs": _on_stairs,
    "attack": _on_attack,
    "skill": _on_skill,
    "result": challenge.on_result,
    "opponent": challenge.on_opponent,
    "discard": _on_pick_weapon,
    "take": _on_pick_weapon,
    "end": _on_end,
}


# -- random legal play (simulations, property tests) ---------------------------------------
