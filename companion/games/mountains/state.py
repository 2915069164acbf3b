"""Mountains & Rivers state and the small pure steps every rule is built from.

The state is a frozen dataclass; every helper here takes a state and returns a new one
(``dataclasses.replace``), never mutating. Card places (C-1) are a dict treated as
immutable: copied before any change.

Places a card can be: ``pile:<deck>`` (face down, order unknown, C-2), ``discard:<deck>``,
``seat:<n>`` (a character card or a weapon face up in front of seat n, C-6), ``out``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.cards import CardFace
from companion.engine import Play, evolve
from companion.errors import CardNotAvailable
from companion.games.mountains.board import Board, reachable
from companion.words import names, place

START_HP = 10


DECKS = ("character", "weapon", "challenge", "chance")


def pile(deck: str) -> str:
    return f"pile:{deck}"


def discard(deck: str) -> str:
    return f"discard:{deck}"


def seat_place(seat: int) -> str:
    return f"seat:{seat}"


FACE_DOWN = frozenset(pile(d) for d in DECKS)  # the hidden places: order and faces unseen
_PLACE_WORDS = {
    **{pile(d): f"the {d} pile" for d in DECKS},
    pile("character"): "the character deck",
    **{discard(d): f"the {d} discard pile" for d in DECKS},
}


def place_words(s: MountainsState, where: str) -> str:
    """A place in plain words (C-8): "the weapon discard pile", "in front of Ana"."""
    return place(where, [p.name for p in s.players], _PLACE_WORDS)


@dataclass(frozen=True)
class Player:
    """One seat: character, HP, token and the weapons face up in front of them."""

    seat: int
    name: str
    character: str | None = None  # face id of the character card
    element: str | None = None
    hp: int = START_HP
    tile: str | None = None
    alive: bool = True
    weapons: tuple[str, ...] = ()  # serials, in the order they arrived


@dataclass(frozen=True)
class Pending:
    """Something the table must do before play goes on, first in line first.

    kinds: ``pick`` (scan a character card), ``corner`` (choose the start corner),
    ``roll`` (the die of a skill: ``purpose`` "ling-yu-1"), ``stairs`` (the mover says
    whether they take the stairs, MR-5 rev. 2), ``draw``
    (scan a card of ``deck``), ``result`` (who won the mini-game on ``card``),
    ``discard`` (seat discards one of its weapons), ``take`` (seat takes a weapon of
    ``other``'s).
    """

    kind: str
    seat: int
    deck: str = ""
    other: int = 0
    card: str = ""
    purpose: str = ""
    dice: int = 0
    turn_no: int = 0  # the turn it arose in: a weapon drawn then is unusable that turn only
    cards: tuple[str, ...] = ()  # ``take`` from a fallen loser: the weapons they had


@dataclass(frozen=True)
class MountainsState:
    """The whole table. ``phase``: "order" (pick-order rolls), "pick", "corner", "play", "over"."""

    board: Board = field(repr=False, compare=False)
    faces: Mapping[str, CardFace] = field(repr=False, compare=False)
    dice_mode: str
    players: tuple[Player, ...]
    places: Mapping[str, str]
    phase: str = "order"
    order_rolls: tuple[tuple[int, ...], ...] = ()
    pick_order: tuple[int, ...] = ()
    start: str | None = None
    end: str | None = None
    pending: tuple[Pending, ...] = ()
    # The current turn (MR-4).
    turn: int = 0
    turn_no: int = 0
    moved: bool = False
    attacked: bool = False
    skilled: bool = False
    movement_skipped: str = ""  # who or what skipped this turn's movement (MR-8 rev. 2)
    roll: tuple[int, ...] = ()  # movement dice of this turn
    two_dice: bool = False  # Qing Luan skill 1: this turn's roll is two dice, use either
    move_bonus: int = 0  # Qing Luan basic skill, Tailwind
    fresh: frozenset[str] = frozenset()  # weapons drawn this turn (MR-7)
    double_range: str = ""  # Ling Yu basic skill: this weapon's range is doubled this turn
    boosted: str = ""  # Huan skill 1: this weapon deals +2 this turn
    sharpened: bool = False  # a sharpen tile: +1 damage on this turn's attack (MR-1 rev. 2)
    blunted: bool = False  # a blunt tile: -1 damage on this turn's attack (MR-1 rev. 3)
    # Effects lasting until a player's next turn (MR-8) and next-turn effects.
    thorns: frozenset[int] = frozenset()  # Xi Bian skill 1 active for these seats
    siphon: tuple[tuple[int, int], ...] = ()  # Xi Bian skill 3: (seat, HP lost so far)
    skip_move: tuple[tuple[int, str], ...] = ()  # (seat, by whom): skip movement next turn
    tailwind: tuple[tuple[int, int], ...] = ()  # (seat, bonus) for the next turn
    ruling: str = "Roll a die each to decide who picks a character first (MR-3)."
    finished: bool = False
    winners: tuple[int, ...] = ()
    out_order: tuple[int, ...] = ()  # seats in the order they went out at 0 HP (MR-10)
    counts: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()  # what happened besides the play itself (Xi Bian's gains)
    last_play: Play | None = None  # what the latest event did, as data (issue 11)

    # -- reading ----------------------------------------------------------------------
    def player(self, seat: int) -> Player:
        return self.players[seat - 1]

    @property
    def living(self) -> tuple[int, ...]:
        return tuple([p.seat for p in self.players if p.alive])

    @property
    def showdown(self) -> bool:
        """Final showdown (MR-5): only two players are left on the board."""
        return self.phase == "play" and len(self.living) == 2

    def name(self, seat: int) -> str:
        return self.player(seat).name

    def in_place(self, place: str) -> list[str]:
        return [s for s, p in self.places.items() if p == place]

    def count(self, key: str) -> int:
        return dict(self.counts).get(key, 0)

    def face(self, serial: str) -> CardFace:
        return self.faces[serial]

    def weapon_label(self, serial: str) -> str:
        f = self.faces[serial]
        return f"{f.name} ({f.element}, attack {f.attrs['attack']}, range {f.attrs['range']})"


# -- small pure steps ---------------------------------------------------------------------
def bump(s: MountainsState, key: str, n: int = 1) -> MountainsState:
    c = dict(s.counts)
    c[key] = c.get(key, 0) + n
    return evolve(s, counts=tuple(sorted(c.items())))


def set_player(s: MountainsState, p: Player) -> MountainsState:
    players = list(s.players)
    players[p.seat - 1] = p
    return evolve(s, players=tuple(players))


def move_card(s: MountainsState, serial: str, place: str) -> MountainsState:
    """Move one card to ``place``, taking it off any seat's weapon row."""
    places = dict(s.places)
    old = places[serial]
    places[serial] = place
    s = evolve(s, places=places)
    if old.startswith("seat:") and s.faces[serial].deck == "weapon":
        owner = s.player(int(old[5:]))
        s = set_player(s, evolve(owner, weapons=tuple(w for w in owner.weapons if w != serial)))
    if place.startswith("seat:") and s.faces[serial].deck == "weapon":
        owner = s.player(int(place[5:]))
        s = set_player(s, evolve(owner, weapons=(*owner.weapons, serial)))
    return s


def change_hp(s: MountainsState, seat: int, delta: int) -> tuple[MountainsState, int]:
    """Add ``delta`` HP (never below 0); returns the state and the HP actually changed.

    HP lost by a player other than an active Xi Bian skill 3 owner feeds that owner
    (+1 HP per 2 HP lost, MR-8).
    """
    p = s.player(seat)
    if not p.alive or delta == 0 or p.hp <= 0:
        return s, 0  # a player brought to 0 HP is out (MR-10): nothing heals them back
    new = max(0, p.hp + delta)
    changed = new - p.hp
    s = set_player(s, evolve(p, hp=new))
    if changed < 0:
        s = bump(s, "hp_lost", -changed)
        siphon = []
        notes = list(s.notes)
        for owner, pool in s.siphon:
            if owner != seat and s.player(owner).alive and s.player(owner).hp > 0:
                gain = (pool - changed) // 2 - pool // 2
                if gain:
                    o = s.player(owner)
                    s = set_player(s, evolve(o, hp=o.hp + gain))
                    # MR-8 rev. 2: every gain is named, whatever the cause of the loss.
                    notes.append(f"{o.name} gains {gain} HP from Xi Bian's skill 3 "
                                 f"({s.name(seat)} lost {-changed})")
                pool -= changed
            siphon.append((owner, pool))
        s = evolve(s, siphon=tuple(siphon), notes=tuple(notes))
    return s, changed


def draw(s: MountainsState, seat: int, deck: str) -> tuple[MountainsState, str]:
    """Ask ``seat`` to draw a card of ``deck`` (a scan, C-6); reshuffles discards when needed.

    Returns the state and a sentence for the ruling. With no card in the pile nor in its
    discards nothing is drawn (MR-6).
    """
    if not s.in_place(pile(deck)):
        used = s.in_place(discard(deck))
        if not used:
            return s, f"there is no {deck} card left to draw, so {s.name(seat)} draws nothing"
        places = dict(s.places)
        for c in used:
            places[c] = pile(deck)
        s = evolve(s, places=places)
        note = f"shuffle the {deck} discards into a new pile; "
    else:
        note = ""
    s = evolve(s, pending=(*s.pending, Pending("draw", seat, deck=deck, turn_no=s.turn_no)))
    return s, f"{note}{s.name(seat)} draws a {deck} card and shows it in their place"


def defeat_and_finish(s: MountainsState, before: tuple[int, ...]) -> tuple[MountainsState, str]:
    """Players at 0 HP are out (MR-10): weapons to the discard, token off the board.

    ``before`` is who was alive before the event. Ends the game when one (or none) is left.
    Returns the state and a sentence ('' if nobody fell).
    """
    fallen = [p.seat for p in s.players if p.alive and p.hp <= 0]
    if not fallen:
        return s, ""
    for seat in fallen:
        had = s.player(seat).weapons
        # A reward that takes one of their weapons was won in the same event (MR-9): it
        # stands, chosen among the weapons they had, now in the discard pile.
        pending = tuple(
            evolve(p, cards=had) if p.kind == "take" and p.other == seat and had else p
            for p in s.pending)
        s = evolve(s, pending=pending)
        for w in had:
            s = move_card(s, w, discard("weapon"))
        s = set_player(s, evolve(s.player(seat), alive=False, tile=None, hp=0))
    s = evolve(
        s,
        pending=tuple(p for p in s.pending
                      if s.player(p.seat).alive
                      and (p.kind != "take" or s.player(p.other).alive or p.cards)),
        thorns=frozenset(x for x in s.thorns if s.player(x).alive),
        siphon=tuple(x for x in s.siphon if s.player(x[0]).alive),
        skip_move=tuple(x for x in s.skip_move if s.player(x[0]).alive),
    )
    s = evolve(s, out_order=(*s.out_order, *fallen))  # one event: in seat order
    who = names(s.name(x) for x in fallen)
    text = f"{who} {'is' if len(fallen) == 1 else 'are'} out at 0 HP; their weapons go to " \
           "the weapon discard pile (MR-10)"
    living = s.living
    if len(living) <= 1:
        winners = living if living else tuple(x for x in before if x in fallen)
        s = evolve(s, phase="over", finished=True, winners=winners, pending=())
        won = names(s.name(x) for x in winners)
        text += f". {won} {'wins' if len(winners) == 1 else 'share the win'}!"
    elif not s.player(s.turn).alive:
        s, nxt = begin_turn(s, next_seat(s, s.turn))
        text += f". {nxt}"
    return s, text


def next_seat(s: MountainsState, seat: int) -> int:
    """The next living player counter-clockwise (MR-3): seats are numbered clockwise."""
    n = len(s.players)
    x = seat
    for _ in range(n):
        x = n if x == 1 else x - 1
        if s.player(x).alive:
            return x
    return seat


def begin_turn(s: MountainsState, seat: int) -> tuple[MountainsState, str]:
    """Start ``seat``'s turn: their lasting effects end, next-turn effects apply (MR-8)."""
    skipped = dict(s.skip_move).get(seat, "")
    bonus = dict(s.tailwind).get(seat, 0)
    s = evolve(
        s,
        turn=seat,
        turn_no=s.turn_no + 1,
        moved=bool(skipped),
        movement_skipped=skipped,
        attacked=False,
        skilled=False,
        roll=(),
        two_dice=False,
        move_bonus=bonus,
        fresh=frozenset(),
        double_range="",
        boosted="",
        sharpened=False,
        blunted=False,
        thorns=s.thorns - {seat},
        siphon=tuple(x for x in s.siphon if x[0] != seat),
        skip_move=tuple(x for x in s.skip_move if x[0] != seat),
        tailwind=tuple(x for x in s.tailwind if x[0] != seat),
    )
    text = f"{s.name(seat)}'s turn"
    if skipped:
        text += f" (movement skipped this turn, by {skipped})"
    if bonus:
        text += f" (+{bonus} to movement this turn)"
    return s, text


def apply_effect(
    s: MountainsState, seat: int, effect: Mapping[str, Any], *, other: int = 0,
    source: str = "",
) -> tuple[MountainsState, list[str]]:
    """Apply a chance or challenge effect to ``seat`` (MR-9); ``other`` is the opponent.

    Effect keys: ``hp`` (to seat), ``all_hp`` (every living player), ``others_hp`` (every
    other living player), ``draw`` (a weapon), ``discard`` (one of seat's weapons, seat's
    choice), ``steal`` (seat takes one of ``other``'s weapons), ``to`` ("start"/"centre":
    the token is put there, nothing activates, MR-6), ``next_move`` (bonus next turn),
    ``skip_move`` (skip movement next turn). ``source`` names the card, for the words.
    """
    name = s.name(seat)
    said: list[str] = []
    if not s.player(seat).alive:
        return s, said
    if "hp" in effect:
        n = int(effect["hp"])
        s, ch = change_hp(s, seat, n)
        said.append(f"{name} {'gains' if n > 0 else 'loses'} {abs(ch)} HP")
    if "all_hp" in effect:
        n = int(effect["all_hp"])
        for x in s.living:
            s, _ = change_hp(s, x, n)
        said.append(f"every player {'gains' if n > 0 else 'loses'} {abs(n)} HP")
    if "others_hp" in effect:
        n = int(effect["others_hp"])
        for x in s.living:
            if x != seat:
                s, _ = change_hp(s, x, n)
        said.append(f"every other player {'gains' if n > 0 else 'loses'} {abs(n)} HP")
    if effect.get("draw"):
        s, text = draw(s, seat, "weapon")
        said.append(text)
    if effect.get("discard"):
        if s.player(seat).weapons:
            s = evolve(s, pending=(*s.pending, Pending("discard", seat)))
            said.append(f"{name} discards one of their weapons")
        else:
            said.append(f"{name} has no weapon to discard")
    if effect.get("steal"):
        if other and s.player(other).alive and s.player(other).weapons:
            s = evolve(s, pending=(*s.pending, Pending("take", seat, other=other)))
            said.append(f"{name} takes one weapon of their choice from {s.name(other)}")
        else:
            said.append(f"{s.name(other) if other else 'nobody'} has no weapon to take")
    if "to" in effect:
        where = s.start if effect["to"] == "start" else s.board.centre
        s = set_player(s, evolve(s.player(seat), tile=where))
        said.append(f"{name} goes to {where}; the tile does not activate there")
    if "next_move" in effect:
        n = int(effect["next_move"])
        tw = dict(s.tailwind)
        tw[seat] = tw.get(seat, 0) + n
        s = evolve(s, tailwind=tuple(sorted(tw.items())))
        said.append(f"{name} adds {n} to their movement next turn")
    if effect.get("skip_move"):
        by = f"the {source} card" if source else "a card"
        s = evolve(s, skip_move=(*(x for x in s.skip_move if x[0] != seat), (seat, by)))
        said.append(f"{name} skips their movement next turn")
    return s, said


def hit(
    s: MountainsState, attacker: int, damage: Mapping[int, int]
) -> tuple[MountainsState, list[str]]:
    """One attack (MR-7, MR-8): each target loses its damage; no defence.

    A target under Xi Bian's skill 1 costs the attacker 1 HP for the attack. Skills that
    take HP from opponents count as attacks (seed, Combat 1.1).
    """
    said = []
    # Once, on the first target: a sharpen tile +1 (MR-1 rev. 2), a blunt tile -1, never
    # below 0 (MR-1 rev. 3).
    edge = (1 if s.sharpened else 0) - (1 if s.blunted else 0)
    why = {1: ", 1 more for the sharpen tile", -1: ", 1 less for the blunt tile"}.get(edge, "")
    s = evolve(s, sharpened=False, blunted=False)
    for target, dmg in damage.items():
        s, ch = change_hp(s, target, -max(0, dmg + edge))
        said.append(f"{s.name(target)} loses {-ch} HP{why}")
        edge, why = 0, ""
    for target in damage:
        if target in s.thorns and target != attacker:
            s, ch = change_hp(s, attacker, -1)
            said.append(f"{s.name(attacker)} loses {-ch} HP to {s.name(target)}'s skill 1")
    return s, said


# -- derived facts -------------------------------------------------------------------------
def order_needs(s: MountainsState) -> list[int]:
    """Seats that must roll for the pick order now (MR-3): everyone, then tied players.

    A seat must roll while another seat's rolls begin with the same numbers as all of its
    own (a tie not yet broken).
    """
    rolls = s.order_rolls
    out = []
    for i, mine in enumerate(rolls):
        if any(j != i and other[: len(mine)] == mine for j, other in enumerate(rolls)):
            out.append(i + 1)
    return out


def move_steps(s: MountainsState) -> tuple[int, ...]:
    """Step counts the current player may move this turn (MR-5, MR-8).

    One die: that number. Final showdown (two dice): either die or their sum. Qing Luan's
    skill 1 (two dice, MR-8 rev. 2): either die. Bonuses (Qing Luan basic, Tailwind) add
    to each.
    """
    if not s.roll:
        return ()
    base = set(s.roll)
    if len(s.roll) == 2 and not s.two_dice:
        base.add(sum(s.roll))
    return tuple(sorted({b + s.move_bonus for b in base}))


def no_entry(s: MountainsState) -> frozenset[str]:
    """Tiles no move ends on or passes through: the start tile, the way out of the board,
    not a tile of play (MR-5 rev. 3)."""
    return frozenset({s.start}) if s.start else frozenset()


def reachable_moves(s: MountainsState) -> dict[str, str]:
    """The tiles the current player may land on (MR-5), each mapped to itself (a stairs
    entrance is a choice once landed on, MR-5 rev. 2)."""
    tile = s.player(s.turn).tile if s.turn else None
    if tile is None or s.moved:
        return {}
    out: dict[str, str] = {}
    for n in move_steps(s):
        for t in reachable(s.board, tile, n, no_entry(s)):
            out[t] = t
    return dict(sorted(out.items()))


def weapon_range(s: MountainsState, serial: str) -> int:
    r = int(s.face(serial).attrs["range"])
    return 2 * r if s.double_range == serial else r


def weapon_damage(s: MountainsState, seat: int, serial: str) -> int:
    """Attack, +1 if the weapon's element is the attacker's own (MR-7), +2 if boosted."""
    f = s.face(serial)
    dmg = int(f.attrs["attack"])
    if f.element == s.player(seat).element:
        dmg += 1
    if s.boosted == serial:
        dmg += 2
    return dmg


def targets_in_range(s: MountainsState, seat: int, serial: str) -> list[int]:
    me = s.player(seat).tile
    if me is None:
        return []
    out = []
    for x in s.living:
        t = s.player(x).tile
        if x != seat and t is not None and s.board.distance(me, t) <= weapon_range(s, serial):
            out.append(x)
    return out


def held_weapon(s: MountainsState, owner: int, typed: str,
                among: tuple[str, ...] | None = None) -> str:
    """The weapon ``typed`` names among ``owner``'s weapons (or ``among``, the weapons a
    fallen loser had): a serial or a face id. Raises ``CardNotAvailable`` (C-1), in one
    wording for every other card, wherever it really is (C-7: no oracle).
    """
    pool = among if among is not None else s.player(owner).weapons
    if typed in pool:
        return typed
    match = [w for w in pool if s.faces[w].id == typed]
    if match:
        return match[0]
    had = "had" if among is not None else "holds"
    raise CardNotAvailable(f"{typed!r} is not a weapon {s.name(owner)} {had}", rule="C-1")


def usable_weapons(s: MountainsState, seat: int) -> list[str]:
    return [w for w in s.player(seat).weapons if w not in s.fresh]


def roll_due(s: MountainsState) -> tuple[int, int] | None:
    """(seat, number of dice) of the roll the table waits for, if any."""
    if s.phase == "order":
        needs = order_needs(s)
        return (needs[0], 1) if needs else None
    for p in s.pending:
        if p.kind == "roll":
            return (p.seat, p.dice)
    if s.phase == "play" and not s.pending and not s.moved and not s.roll:
        return (s.turn, 2 if s.showdown or s.two_dice else 1)
    return None
