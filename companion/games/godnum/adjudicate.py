"""The pure resolution of God Num: what a card played or discarded does (GN-3..GN-11).

Each function takes the state and a seat's validated intent and returns the next state
with its ``last_play`` set: the card movements, the outcome and the ruling that decided it
(``companion.engine.Play``). The words are made from that data in ``words.py``.

Where each ruling is decided:

- GN-3 function cards: ``play`` (Chaos, Reverse, Skip, Burden) and ``discard`` (the
  burdened player's one card).
- GN-5 turn (play one or discard one or more, then draw back up to 5): ``check_turn``,
  ``play``, ``discard``, ``end_turn``, ``draw_up``.
- GN-6 which number card may be played: ``verdict``.
- GN-7 number, GN-8 bust, GN-11 exact target: ``play``.
- GN-9 karma: ``discard``. GN-10 empty deck: ``draw_up``. GN-11 last legion: ``eliminate``.
"""

from __future__ import annotations

from typing import Any

from companion.cards import CardFace, DeckData
from companion.engine import OUT, POT, Movement, Play, Said, deck_of, evolve, hand_of
from companion.errors import IllegalPlay, MalformedEvent, OutOfTurn
from companion.games.godnum import legions, words
from companion.games.godnum.state import (
    HAND_SIZE,
    GodNumState,
    Verdict,
    next_seat,
    set_legion,
)
from companion.words import quoted


def verdict(deck: DeckData, state: GodNumState, face: CardFace) -> Verdict:
    """GN-6 on current attribute A and previous number n: attributeless, any card; the
    card's attribute overcomes A, any number; it generates A, never; same attribute, a
    number above n; otherwise exactly n. Function cards are always playable (GN-3)."""
    current = state.attribute
    last = state.last_number if state.last_number is not None else 0
    if face.kind == "function":
        return Verdict(True, "function", face, current, last)
    attr, n = face.element, face.number
    if attr is None or n is None:
        return Verdict(False, "neither", face, current, last)
    if current is None:
        return Verdict(True, "attributeless", face, current, last)
    if deck.attrs["overcomes"][attr] == current:
        return Verdict(True, "overcomes", face, current, last)
    if deck.attrs["generates"][attr] == current:
        return Verdict(False, "generates", face, current, last)
    if attr == current:
        return Verdict(n > last, "same", face, current, last)
    return Verdict(n == last, "other", face, current, last)


class Moves:
    """The movements and facts of one play while it is being resolved."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.items: list[Movement] = []
        self.facts: dict[str, Any] = {}

    def add(self, source: str, target: str, serial: str | None = None, count: int = 1) -> None:
        if count > 0:
            self.items.append(Movement(source, target, serial, count))

    def done(self, state: GodNumState, kind: str, outcome: str, rule: str,
             **changes: Any) -> GodNumState:
        """``state`` with ``changes`` and this play as its ``last_play`` (one copy)."""
        return played(state, Play(kind, outcome, rule, self.seat, tuple(self.items),
                                  dict(self.facts)), **changes)


def played(state: GodNumState, play: Play, **changes: Any) -> GodNumState:
    """``state`` with ``changes`` and ``play`` as its ``last_play``; the ruling's words are
    made from them only when read (``words.ruling_text``)."""
    said = Said()
    new = evolve(state, last_play=play, said=said, **changes)
    said.append((words.ruling_text, new))
    return new


def check_turn(state: GodNumState, seat: int, what: str) -> None:
    """Raises ``OutOfTurn`` unless it is ``seat``'s turn and ``seat`` still plays (GN-5)."""
    if state.legion(seat).eliminated:
        raise OutOfTurn(f"{state.name(seat)} is eliminated and cannot {what}", rule="GN-11")
    if seat != state.turn:
        now = state.name(state.turn) if state.turn else "nobody"
        raise OutOfTurn(f"{state.name(seat)} cannot {what}: it is {now}'s turn", rule="GN-5")


def take(state: GodNumState, seat: int, card: str) -> GodNumState:
    """``card`` leaves ``seat``'s hand (with an override: from wherever it was, C-1)."""
    lg = state.legion(seat)
    if card in lg.unseen:
        return set_legion(state, seat, evolve(lg, unseen=lg.unseen - {card},
                                              hand_count=lg.hand_count - 1))
    # Override (C-1): the referee says the card is in this hand after all.
    state = set_legion(state, seat, evolve(lg, hand_count=max(0, lg.hand_count - 1)))
    owner = state.owner.get(card)
    if owner is not None and card in state.legion(owner).unseen:
        other = state.legion(owner)
        if other.deck_count > 0:
            other = evolve(other, deck_count=other.deck_count - 1)
        else:
            other = evolve(other, hand_count=max(0, other.hand_count - 1))
        state = set_legion(state, owner, evolve(other, unseen=other.unseen - {card}))
    free = tuple(evolve(p, serials=p.serials - {card}) for p in state.free)
    return evolve(state, pile=tuple(c for c in state.pile if c != card),
                  out=state.out - {card}, free=free)


def play(deck: DeckData, state: GodNumState, seat: int, card: str, typed: object,
         override: bool) -> GodNumState:
    """``seat`` plays one card from hand (GN-5): a function card (GN-3) or a number card
    (GN-6 legal, GN-7 counts, GN-8 bust, GN-11 exact target wins). Raises ``OutOfTurn``,
    ``IllegalPlay``, ``CardNotAvailable`` or ``UnknownCard`` and changes nothing."""
    check_turn(state, seat, f"play {str(typed)[:40]!r}")
    if state.burdened:
        raise IllegalPlay(f"{state.name(seat)} must first discard one card (Burden); playing "
                          f"{str(typed)[:40]!r} is not allowed yet", rule="GN-3")
    if state.discarding:
        raise IllegalPlay(f"{state.name(seat)} already discarded this turn; playing "
                          f"{str(typed)[:40]!r} too is not allowed (play one card or discard)",
                          rule="GN-5")
    serial = legions.resolve(state, deck, seat, card)
    guesses = state.stand_ins or state.guessed  # none at all: the camera-only table
    if guesses and card in state.cards:  # a serial seen: a tap's guess may give way
        state = legions.settle(legions.twin(state, seat, serial), seat, serial)
    face = legions.available(state, seat, serial, typed, override)
    if guesses or card not in state.cards:
        state = legions.noted(state, seat, serial, tapped=card not in state.cards)
    if state.legion(seat).hand_count < 1:
        raise IllegalPlay(f"{state.name(seat)} has no card in hand to play", rule="GN-5")
    v = verdict(deck, state, face)
    if not v.ok:
        raise IllegalPlay(f"{words.verdict_words(v)} ({str(typed)[:40]!r}); take it back",
                          rule="GN-6")
    moves = Moves(seat)
    bound = not state.legion(seat).bound
    state = legions.bind(state, seat, serial)
    if bound:
        moves.facts["bound"] = state.legion(seat).deck
    lg = state.legion(seat)
    base: dict[str, Any] = {}
    if serial in lg.unseen:  # the usual path: one copy of the state for the whole play
        seats = list(state.legions)
        seats[seat - 1] = evolve(lg, unseen=lg.unseen - {serial}, hand_count=lg.hand_count - 1)
        base["legions"] = tuple(seats)
    else:
        state = take(state, seat, serial)
    moves.facts.update(card=serial, before=state.divine_number, target=state.target)
    plays = state.plays + 1
    if face.kind == "function":
        return _function(state, seat, serial, face, moves, plays, base)
    total = state.divine_number + (face.number or 0)
    target = state.target or 0
    moves.facts["total"] = total
    current = {"divine_number": total, "attribute": face.element, "last_number": face.number}
    if total == target:  # GN-7, GN-11
        moves.add(hand_of(seat), POT, serial)
        return moves.done(state, "play", "win", "GN-7", pile=(*state.pile, serial),
                          finished=True, winners=(seat,), plays=plays, **current, **base)
    if total > target:  # GN-8
        moves.facts["bust"] = state.options["bust"]
        if state.options["bust"] == "stand":
            moves.add(hand_of(seat), POT, serial)
            state = evolve(state, pile=(*state.pile, serial), **current, **base)
        else:
            moves.add(hand_of(seat), OUT, serial)
            state = evolve(state, out=state.out | {serial}, **base)
        state = evolve(state, busts=state.busts + 1, plays=plays)
        return eliminate(state, seat, moves, "bust", "GN-8")
    moves.add(hand_of(seat), POT, serial)
    state = evolve(state, pile=(*state.pile, serial), plays=plays, **current, **base)
    return finish_turn(state, seat, moves, "number", "GN-7")


def _function(state: GodNumState, seat: int, serial: str, face: CardFace,
              moves: Moves, plays: int, base: dict[str, Any]) -> GodNumState:
    """GN-3: Chaos, Reverse, Skip, Burden; always playable, the number stays."""
    fn = face.attrs.get("function")
    moves.add(hand_of(seat), POT, serial)
    state = evolve(state, pile=(*state.pile, serial), plays=plays, **base)
    if fn == "chaos":
        return finish_turn(evolve(state, attribute=None), seat, moves, "chaos", "GN-3")
    if fn == "reverse":
        return finish_turn(evolve(state, direction=-state.direction), seat, moves, "reverse",
                           "GN-3")
    if fn == "skip":
        moves.facts["skipped"] = next_seat(state, seat)
        return finish_turn(state, seat, moves, "skip", "GN-3", skip=1)
    if fn == "burden":
        return finish_turn(state, seat, moves, "burden", "GN-3", burden=True)
    raise MalformedEvent(f"card {serial!r}: unknown function {fn!r} in deck data")


def discard(deck: DeckData, state: GodNumState, seat: int, cards: list[Any], more: bool,
            override: bool) -> GodNumState:
    """``seat`` discards one or more cards (GN-5): one karma point each, out of the game;
    reaching the limit eliminates (GN-9). A burdened player discards exactly one, draws back
    up and then takes the turn as usual (GN-3). Unless ``more``, the turn ends."""
    check_turn(state, seat, "discard")
    if not cards:
        raise IllegalPlay("discard at least one card (or play one)", rule="GN-5")
    for c in cards:
        if not isinstance(c, str):
            raise MalformedEvent(f"discarded cards must be serials or card names, got {c!r}")
    if state.burdened and len(cards) != 1:
        raise IllegalPlay(f"{state.name(seat)} must discard exactly one card (Burden), not "
                          f"{len(cards)}", rule="GN-3")
    lg = state.legion(seat)
    if len(cards) > lg.hand_count:
        raise IllegalPlay(f"{state.name(seat)} holds {lg.hand_count} cards and cannot discard "
                          f"{len(cards)}", rule="GN-5")
    moves = Moves(seat)
    was_bound = lg.bound
    # C-10 rev. 3: the serials first, then each face stands for a copy not named otherwise
    # in the same event (a tap listed before a serial of the same face took that serial).
    named = [c for c in cards if c in state.cards]
    if len(set(named)) != len(named):
        raise MalformedEvent(f"a card is listed twice: {quoted(cards)}")
    chosen: dict[int, str] = {}
    for i in sorted(range(len(cards)), key=lambda i: cards[i] not in state.cards):
        c = cards[i]
        serial = legions.resolve(state, deck, seat, c, taken=[*named, *chosen.values()])
        if c in state.cards:  # a serial seen: a tap's guess may have to give way
            state = legions.settle(legions.twin(state, seat, serial), seat, serial,
                                   avoid=frozenset(named))
        legions.available(state, seat, serial, c, override)
        state = legions.noted(state, seat, serial, tapped=c not in state.cards)
        chosen[i] = serial
        state = legions.bind(state, seat, serial)  # the first card shown binds (GN-2)
    serials = [chosen[i] for i in range(len(cards))]
    if not was_bound:
        moves.facts["bound"] = state.legion(seat).deck
    burden = state.burdened
    for s in serials:
        state = take(state, seat, s)
        moves.add(hand_of(seat), OUT, s)
    lg = state.legion(seat)
    karma = lg.karma + len(serials)
    state = set_legion(state, seat, evolve(lg, karma=karma))
    state = evolve(state, out=state.out | set(serials), discards=state.discards + len(serials),
                   discarding=True, burdened=False)
    moves.facts.update(cards=serials, karma=karma, limit=state.options["karma_limit"],
                       burden=burden)
    if karma >= state.options["karma_limit"]:
        return eliminate(state, seat, moves, "karma", "GN-9")
    if burden:  # GN-3: draw back up to 5, then the burdened player's turn as usual
        moves.facts["next"] = seat
        return moves.done(state, "discard", "burden", "GN-3", discarding=False,
                          **draw_up(state, seat, moves))
    if more:
        moves.facts["more"] = True
        return moves.done(state, "discard", "discard", "GN-9")
    return finish_turn(state, seat, moves, "discard", "GN-9", kind="discard")


def end_turn(state: GodNumState, seat: int) -> GodNumState:
    """After discards with ``more``: draw back up to 5, next player (GN-5)."""
    check_turn(state, seat, "end the turn")
    if not state.discarding:
        raise IllegalPlay(f"{state.name(seat)} has not discarded this turn: play one card "
                          "or discard one or more first", rule="GN-5")
    return finish_turn(state, seat, Moves(seat), "end_turn", "GN-5", kind="end_turn")


def pass_turn(state: GodNumState, seat: int) -> GodNumState:
    """Only with an empty hand and nothing to draw (GN-10)."""
    check_turn(state, seat, "pass")
    lg = state.legion(seat)
    if lg.hand_count > 0 or state.discarding or state.burdened:
        raise IllegalPlay(f"{state.name(seat)} holds {lg.hand_count} cards: play one or "
                          "discard; passing is only for an empty hand", rule="GN-5")
    return finish_turn(state, seat, Moves(seat), "pass", "GN-10", kind="pass")


def draw_up(state: GodNumState, seat: int, moves: Moves) -> dict[str, Any]:
    """GN-5: draw back up to 5; GN-10: when the deck runs out, the seat's own played cards
    (not discards) are shuffled into a new deck, or it draws nothing. Returns the state's
    changes (applied with the rest of the turn's, in one copy)."""
    lg = state.legion(seat)
    need = HAND_SIZE - lg.hand_count
    if need <= 0:
        moves.facts.setdefault("drew", 0)
        return {}
    pile = state.pile
    reshuffled = 0
    first = 0
    if lg.deck_count < need:
        # The top card of the pot stays: it shows the current attribute and number
        # (companion decision, docs/rules/godnum.md).
        mine = [c for c in pile[:-1] if state.owner.get(c) == seat]
        if mine:
            first = lg.deck_count
            moves.add(deck_of(seat), hand_of(seat), None, first)
            need -= first
            for c in mine:
                moves.add(POT, deck_of(seat), c)
            pile = tuple(c for c in pile[:-1] if c not in set(mine)) + pile[-1:]
            reshuffled = len(mine)
            lg = evolve(lg, unseen=lg.unseen | set(mine), deck_count=len(mine),
                        hand_count=lg.hand_count + first)
        elif lg.deck_count == 0:
            moves.facts["no_draw"] = True
    drawn = min(need, lg.deck_count)
    moves.add(deck_of(seat), hand_of(seat), None, drawn)
    lg = evolve(lg, deck_count=lg.deck_count - drawn, hand_count=lg.hand_count + drawn)
    moves.facts.update(drew=first + drawn, drew_first=first, reshuffled=reshuffled)
    seats = list(state.legions)
    seats[seat - 1] = lg
    changes: dict[str, Any] = {"legions": tuple(seats), "pile": pile,
                               "reshuffles": state.reshuffles + (1 if reshuffled else 0)}
    if reshuffled and state.stand_ins:  # back in the deck, one unseen copy like another
        changes["stand_ins"] = state.stand_ins - set(mine)
    return changes


def finish_turn(state: GodNumState, seat: int, moves: Moves, outcome: str, rule: str,
                skip: int = 0, burden: bool = False, kind: str = "play") -> GodNumState:
    """Draw back up, then the next live player (after ``skip`` skipped ones); with
    ``burden`` that player must discard one card first (GN-3)."""
    drawn = draw_up(state, seat, moves)
    nxt = next_seat(state, seat)  # draws change no seat's place in the order
    for _ in range(skip):
        nxt = next_seat(state, nxt)
    hands = drawn.get("legions", state.legions)
    burdened = burden and hands[nxt - 1].hand_count > 0
    if burden:
        moves.facts["burdened"] = nxt
        moves.facts["lapsed"] = not burdened  # nothing in hand to discard
    moves.facts["next"] = nxt
    return moves.done(state, kind, outcome, rule, turn=nxt, discarding=False,
                      burdened=burdened, turns=state.turns + 1, **drawn)


def eliminate(state: GodNumState, seat: int, moves: Moves, outcome: str,
              rule: str) -> GodNumState:
    """``seat`` is out (GN-8, GN-9): its hand and deck leave the game; the last player
    standing wins (GN-11)."""
    lg = state.legion(seat)
    moves.add(hand_of(seat), OUT, None, lg.hand_count)
    moves.add(deck_of(seat), OUT, None, lg.deck_count)
    state = set_legion(state, seat, evolve(lg, unseen=frozenset(), deck_count=0,
                                           hand_count=0, eliminated=True))
    state = evolve(state, out=state.out | lg.unseen, discarding=False, burdened=False,
                   turns=state.turns + 1)
    moves.facts["eliminated"] = seat
    kind = "play" if outcome == "bust" else "discard"
    live = state.live
    if len(live) == 1:
        moves.facts["winner"] = live[0]
        return moves.done(evolve(state, finished=True, winners=live), kind, outcome, rule)
    nxt = next_seat(state, seat)
    moves.facts["next"] = nxt
    return moves.done(evolve(state, turn=nxt), kind, outcome, rule)
