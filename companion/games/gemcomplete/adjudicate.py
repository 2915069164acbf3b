"""Gem Complete: the pure resolution, ruling by ruling (GC-2..GC-5, C-1, C-7).

Each function validates one play against the state and returns the next state with its
``Play`` (movements, outcome, ruling id) in ``last_play``; ``view.py`` says it in words.
"Where is GC-4 decided?": ``declare``, ``reveal``, ``choose``; GC-5: ``deck_out``; the
C-7 refusal that never tells a hidden card from any other: ``not_yours``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.cards import CardFace
from companion.engine import Movement, Play, evolve
from companion.errors import CardNotAvailable, IllegalPlay, MalformedEvent, OutOfTurn
from companion.games.gemcomplete.state import (
    CHOOSE,
    DECLARE,
    OPENING_HAND,
    STEP_NAMES,
    GemState,
    LocusCard,
    all_places,
    bind,
    is_gem,
    may_hold,
    other,
    with_side,
)
from companion.words import count as count_words
from companion.words import names as name_list
from companion.words import quoted

# ---------------------------------------------------------------------- who acts, which card


def check_current(state: GemState, seat: int, what: str, steps: tuple[str, ...]) -> None:
    """Only the current player acts, and only in ``steps`` (GC-3); raises ``OutOfTurn`` or
    ``IllegalPlay``."""
    if seat != state.turn:
        raise OutOfTurn(f"{state.name(seat)} cannot {what}: it is "
                        f"{state.name(state.turn or 1)}'s turn", rule="GC-3")
    if state.step not in steps:
        allowed = " or ".join(STEP_NAMES[s] for s in steps)
        raise IllegalPlay(f"{state.name(seat)} cannot {what} in the "
                          f"{STEP_NAMES[state.step]}; only in the {allowed}", rule="GC-3")


def not_yours(state: GemState, actor: int, typed: str) -> OutOfTurn:
    """The one refusal for every card ``actor`` names that is not theirs and not available
    to them (C-7): it quotes the card as typed and never says where the card is, so a
    privately scanned Locus card reads exactly like a card in the deck or anywhere else."""
    return OutOfTurn(f"{state.name(actor)} cannot name {typed!r} here: it is not one of "
                     f"{state.name(actor)}'s cards, nor one this play can take",
                     rule="C-7")


def own_card(state: GemState, seat: int, card: str, actor: int | None,
             typed: str | None = None) -> CardFace:
    """The face of an unseen card (hand, deck, unidentified discard) of ``seat``, named by
    ``actor`` (``None``: the camera or the referee, who may know everything). Before
    ``seat`` is bound, a card of any printed deck no seat holds is its own (GN-2 rev. 2):
    the caller binds the seat with ``bind``.

    Raises ``OutOfTurn`` via ``not_yours`` for any card of another seat that ``actor`` does
    not own (C-7); ``CardNotAvailable`` with the reason for the actor's own cards (C-1).
    """
    face = state.cards[card]
    typed = card if typed is None else typed
    owner = state.owner.get(card)
    holdable = card in may_hold(state, seat)
    if actor is not None and owner != actor and not (actor == seat and holdable):
        raise not_yours(state, actor, typed)
    if holdable:
        return face
    if owner != seat:
        whose = f"{state.name(owner)}'s deck" if owner else "a deck nobody plays here"
        raise CardNotAvailable(f"card {typed!r} ({face.name}) belongs to {whose}, not to "
                               f"{state.name(seat)}'s", rule="C-1")
    raise CardNotAvailable(f"card {typed!r} ({face.name}) is already "
                           f"{_where(state, card)}", rule="C-1")


def _where(state: GemState, card: str) -> str:
    place = all_places(state).get(card, "out")
    if place.startswith("locus:"):
        return f"in {state.name(int(place[6:]))}'s Locus"
    if place.startswith("discard:"):
        return f"in {state.name(int(place[8:]))}'s discard pile"
    return "out of the game"


# ---------------------------------------------------------------------- GC-3 turn


def first_player(state: GemState, value: int) -> GemState:
    if state.turn is not None:
        raise IllegalPlay(f"{state.name(state.turn)} already started; {value!r} refused",
                          rule="GC-3")
    if value not in (1, 2):
        raise MalformedEvent(f"starting player {value!r}: there is no such seat")
    sides = tuple(evolve(sd, deck_count=sd.deck_count - OPENING_HAND, hand_count=OPENING_HAND)
                  for sd in state.sides)
    play = Play("start", "start", "GC-3", None,
                tuple(Movement(f"deck:{s}", f"hand:{s}", None, OPENING_HAND) for s in (1, 2)),
                {"first": value})
    return evolve(state, sides=sides, turn=value, step="declaration", turn_number=1,
                  last_play=play,
                  ruling=f"{state.name(value)} starts. Both players shuffle and draw "
                         f"{OPENING_HAND} cards (GC-3). {state.name(value)}: "
                         "Complete Declaration Step.")


def next_step(state: GemState, seat: int) -> GemState:
    """Declaration -> Recovery -> Draw (draw 1) and Main -> End; the opponent's turn."""
    check_current(state, seat, "move on", ("declaration", "recovery", "main"))
    name = state.name(seat)
    state = evolve(state, pending=(), pending_card=None)
    if state.step == "declaration":
        return evolve(state, step="recovery", last_play=Play("step", "recovery", "GC-3", seat),
                      ruling=f"{name} makes no Complete Declaration. Recovery Step: enter "
                             "the effects a card on the table says happen now, if any "
                             "(GC-3).")
    if state.step == "recovery":
        new = draw(state, seat, 1, f"Draw Step: {name} draws 1 card", seat, "GC-3")
        if new.finished:
            return new
        return evolve(new, step="main", ruling=new.ruling + " Main Phase: set at most one "
                      "card in the Locus and play cards (GC-3).")
    opp = other(seat)
    return evolve(state, turn=opp, step="declaration", set_this_turn=False,
                  turn_number=state.turn_number + 1,
                  last_play=Play("step", "end", "GC-3", seat, (), {"next": opp}),
                  ruling=f"{name} ends the turn (End Phase). {state.name(opp)}: Complete "
                         "Declaration Step (GC-3).")


def set_card(state: GemState, seat: int, card: str | None) -> GemState:
    """Main Phase, at most once a turn: a card from hand face down at the end of the Locus;
    ``card`` is the owner's private scan (GC-2, GC-3)."""
    check_current(state, seat, "set a card", ("main",))
    if state.set_this_turn:
        raise IllegalPlay(f"{state.name(seat)} already set a card in the Locus this turn",
                          rule="GC-3")
    side = state.side(seat)
    if side.hand_count < 1:
        raise IllegalPlay(f"{state.name(seat)} has no card in hand to set", rule="GC-3")
    unseen = side.unseen
    if card is not None:
        own_card(state, seat, card, seat)
        state = bind(state, seat, card)  # the first card shown binds the deck (GN-2)
        side = state.side(seat)
        unseen = side.unseen - {card}
    side = evolve(side, unseen=unseen, hand_count=side.hand_count - 1,
                  locus=(*side.locus, LocusCard(card)))
    play = Play("set", "set", "GC-3", seat, (Movement(f"hand:{seat}", f"locus:{seat}", card),),
                {"position": len(side.locus)})
    return evolve(with_side(state, seat, side), set_this_turn=True, last_play=play,
                  ruling=f"{state.name(seat)} sets a card face down at position "
                         f"{len(side.locus)} of the Locus (GC-3).")


def proposed_effects(state: GemState, seat: int, face: CardFace) -> tuple[dict[str, Any], ...]:
    """The effects a played card proposes, from its deck data (GC-3 rev. 2): ``self`` and
    ``opponent`` become seats."""
    out = []
    for e in face.attrs.get("effects", ()):
        target = seat if e.get("target") == "self" else other(seat)
        out.append({**e, "target": target})
    return tuple(out)


def play_card(state: GemState, seat: int, card: str | None) -> GemState:
    """A non-Gem card from hand to the discard pile; its effects are proposed (GC-3).
    Cards are played only in the Main Phase, where the seed lists playing cards (GC-3
    rev. 3)."""
    check_current(state, seat, "play a card", ("main",))
    side = state.side(seat)
    if side.hand_count < 1:
        raise IllegalPlay(f"{state.name(seat)} has no card in hand to play", rule="GC-3")
    if card is None:
        side = evolve(side, hand_count=side.hand_count - 1,
                      discard_unknown=side.discard_unknown + 1)
        play = Play("play", "play", "GC-3", seat,
                    (Movement(f"hand:{seat}", f"discard:{seat}", None),))
        return evolve(with_side(state, seat, side), pending=(), pending_card=None,
                      last_play=play,
                      ruling=f"{state.name(seat)} plays a card; enter its effects (GC-3).")
    face = own_card(state, seat, card, seat)
    if is_gem(face):
        raise IllegalPlay(f"{card!r} is a Gem ({face.name}): Gems are set in the Locus, "
                          "not played", rule="GC-3")
    state = bind(state, seat, card)
    side = state.side(seat)
    side = evolve(side, unseen=side.unseen - {card}, hand_count=side.hand_count - 1,
                  discard=(*side.discard, card))
    effects = proposed_effects(state, seat, face)
    play = Play("play", "play", "GC-3", seat,
                (Movement(f"hand:{seat}", f"discard:{seat}", card),),
                {"effects": [dict(e) for e in effects]})
    return evolve(with_side(state, seat, side), pending=effects,
                  pending_card=card if effects else None, last_play=play,
                  ruling=f"{state.name(seat)} plays {face.name}: \"{face.text}\" Enter its "
                         "effects (GC-3).")


# ---------------------------------------------------------------------- GC-4


def declare(state: GemState, seat: int, positions: Sequence[Any]) -> GemState:
    check_current(state, seat, "make a Complete Declaration", ("declaration",))
    locus = state.side(seat).locus
    if len(locus) < DECLARE:
        raise IllegalPlay(f"{state.name(seat)} has {count_words(len(locus), 'card')} in the "
                          f"Locus; a Complete Declaration needs {DECLARE}", rule="GC-4")
    if (len(positions) != DECLARE or len(set(positions)) != DECLARE
            or not all(isinstance(p, int) and not isinstance(p, bool)
                       and 1 <= p <= len(locus) for p in positions)):
        raise IllegalPlay(f"positions {name_list(map(str, positions))}: choose {DECLARE} "
                          f"different Locus positions from 1 to {len(locus)}", rule="GC-4")
    chosen = tuple(sorted(positions))
    play = Play("declare", "declare", "GC-4", seat, (), {"positions": list(chosen)})
    return evolve(state, step="reveal", declaration=chosen, revealed=(),
                  declarations=state.declarations + 1, last_play=play,
                  ruling=f"{state.name(seat)} declares Gem Complete with Locus positions "
                         f"{', '.join(map(str, chosen))}: reveal them in order (GC-4).")


def reveal(state: GemState, seat: int, cards: Sequence[str], actor: int | None) -> GemState:
    """The next selected Locus cards, in Locus order: six Gems win (GC-4)."""
    check_current(state, seat, "reveal Locus cards", ("reveal",))
    if not cards:
        raise MalformedEvent("reveal at least one card")
    moves: list[Movement] = []
    for i, card in enumerate(cards):
        state = _reveal_one(state, seat, card, actor)
        moves.append(Movement(f"locus:{seat}", f"locus:{seat}", card))
        if (state.finished or state.step != "reveal") and i != len(cards) - 1:
            raise IllegalPlay(f"only {DECLARE} Locus cards are revealed; {quoted(cards)} "
                              "are more", rule="GC-4")
    outcome = ("gem_complete" if state.finished else
               "failed" if state.step == "choose" else "reveal")
    play = Play("reveal", outcome, "GC-4", seat, tuple(moves),
                {"revealed": len(state.revealed)})
    return evolve(state, last_play=play)


def _reveal_one(state: GemState, seat: int, card: str, actor: int | None) -> GemState:
    side = state.side(seat)
    pos = state.declaration[len(state.revealed)]
    slot = side.locus[pos - 1]
    if slot.serial is not None:
        if card != slot.serial:
            raise CardNotAvailable(
                f"Locus position {pos} of {state.name(seat)} holds {slot.serial!r}, not "
                f"{card!r}: reveal the cards in their Locus order", rule="GC-4")
        unseen = side.unseen
    else:
        own_card(state, seat, card, actor)
        state = bind(state, seat, card)
        side = state.side(seat)
        unseen = side.unseen - {card}
    locus = list(side.locus)
    locus[pos - 1] = LocusCard(card, public=True)
    state = with_side(state, seat, evolve(side, unseen=unseen, locus=tuple(locus)))
    revealed = (*state.revealed, card)
    state = evolve(state, revealed=revealed)
    names = ", ".join(state.cards[c].name for c in revealed)
    if len(revealed) < DECLARE:
        return evolve(state, ruling=f"Revealed {names}; {DECLARE - len(revealed)} to go "
                                    "(GC-4).")
    if all(is_gem(state.cards[c]) for c in revealed):
        return evolve(state, finished=True, winners=(seat,),
                      gem_completes=state.gem_completes + 1,
                      ruling=f"{state.name(seat)} reveals {names}: six Gems. Gem Complete: "
                             f"{state.name(seat)} wins (GC-4).")
    return evolve(state, step="choose",
                  ruling=f"{state.name(seat)} reveals {names}: not all Gems, the "
                         f"declaration fails. {state.name(other(seat))} chooses {CHOOSE} of "
                         "them for the discard pile (GC-4).")


def choose(state: GemState, seat: int, cards: Sequence[Any]) -> GemState:
    """The opponent sends 2 of the 6 to the declarer's discard pile; the other 4 are turned
    face down in their order and hidden from the opponent again (GC-4 rev. 2)."""
    declarer = state.turn or 1
    if state.step != "choose":
        raise IllegalPlay(f"nobody is choosing revealed cards now ({STEP_NAMES[state.step]})",
                          rule="GC-4")
    if seat == declarer:
        raise OutOfTurn(f"{state.name(seat)} declared; the opponent "
                        f"{state.name(other(seat))} chooses the {CHOOSE} cards", rule="GC-4")
    if len(cards) != CHOOSE or len(set(map(str, cards))) != CHOOSE:
        raise IllegalPlay(f"choose exactly {CHOOSE} different cards, not {quoted(cards)}",
                          rule="GC-4")
    for c in cards:
        if c not in state.revealed:
            raise IllegalPlay(f"{c!r} is not among the {DECLARE} revealed cards "
                              f"{quoted(state.revealed)}", rule="GC-4")
    side = state.side(declarer)
    keep = tuple(LocusCard(ls.serial) for ls in side.locus if ls.serial not in cards)
    side = evolve(side, locus=keep, discard=(*side.discard, *cards))
    state = with_side(state, declarer, side)
    names = " and ".join(state.cards[c].name for c in cards)
    play = Play("choose", "choose", "GC-4", seat,
                tuple(Movement(f"locus:{declarer}", f"discard:{declarer}", c) for c in cards),
                {"declarer": declarer})
    return evolve(state, step="recovery", declaration=(), revealed=(), last_play=play,
                  ruling=f"{state.name(seat)} sends {names} to {state.name(declarer)}'s "
                         "discard pile; the other four go back face down in their order. "
                         f"{state.name(declarer)}: Recovery Step (GC-4).")


# ---------------------------------------------------------------------- effects, GC-5


def effect(state: GemState, seat: int, kind: str, target: int, count: int,
           cards: Sequence[str], source: str, to: str) -> GemState:
    """One effect entered by the current player in the Recovery Step or Main Phase, never
    at the Declaration Step (GC-3 rev. 2); a deck count reaching 0 ends the game (GC-5)."""
    if state.step in ("reveal", "choose"):
        raise IllegalPlay(f"a {kind} effect waits: finish the Complete Declaration first",
                          rule="GC-4")
    check_current(state, seat, f"enter a {kind} effect", ("recovery", "main"))
    if kind == "return":
        new = give_back(state, target, cards, to, seat)
    elif kind == "draw":
        new = draw(state, target, count, f"{state.name(target)} draws {count}", seat, "GC-5")
    else:
        for c in cards:  # one by one: the first card shown binds the deck (GN-2)
            own_card(state, target, c, seat)
            state = bind(state, target, c)
        side = state.side(target)
        if source == "deck" and len(cards) > side.deck_count:
            raise CardNotAvailable(f"{quoted(cards)}: {state.name(target)}'s deck holds only "
                                   f"{side.deck_count} cards, so only that many can be shown "
                                   "from it", rule="C-1")
        if source == "hand":
            new = _discard_hand(state, target, count, cards, seat)
        else:
            new = mill(state, target, count, cards, "crush" if kind == "crush" else "discard",
                       seat)
    return _resolve_pending(new, kind, target, count)


def _resolve_pending(state: GemState, kind: str, target: int, count: int) -> GemState:
    """The proposed effect this play carried out is no longer pending (GC-3 rev. 2).

    An effect marked ``as_many`` (Sift's "then draw as many cards") takes the count of the
    effect just carried out: discarding 1 of "up to 2" proposes "draw 1", not "draw 2".
    """
    if state.pending and state.pending[0]["type"] == kind \
            and state.pending[0]["target"] == target:
        rest = state.pending[1:]
        if rest and rest[0].get("as_many"):
            done = {k: v for k, v in rest[0].items() if k != "as_many"}
            rest = ({**done, "count": count}, *rest[1:])
        return evolve(state, pending=rest, pending_card=state.pending_card if rest else None)
    return state


def _discard_hand(state: GemState, seat: int, count: int, cards: Sequence[str],
                  actor: int) -> GemState:
    side = state.side(seat)
    if count > side.hand_count:
        raise IllegalPlay(f"{state.name(seat)} holds {count_words(side.hand_count, 'card')} in "
                          f"hand, cannot discard {count}", rule="GC-2")
    side = evolve(side, hand_count=side.hand_count - count,
                  unseen=side.unseen - set(cards), discard=(*side.discard, *cards),
                  discard_unknown=side.discard_unknown + count - len(cards),
                  owed=side.owed + count - len(cards))  # face up now: shown next (C-6)
    moves = [Movement(f"hand:{seat}", f"discard:{seat}", c) for c in cards]
    if count > len(cards):
        moves.append(Movement(f"hand:{seat}", f"discard:{seat}", None, count - len(cards)))
    play = Play("discard", "discard", "GC-2", actor, tuple(moves),
                {"target": seat, "count": count, "from": "hand"})
    return evolve(with_side(state, seat, side), last_play=play,
                  ruling=f"{state.name(seat)} discards {count} from hand.")


def mill(state: GemState, seat: int, count: int, cards: Sequence[str], verb: str,
         actor: int) -> GemState:
    """Top ``count`` cards of ``seat``'s deck to its discard pile, one at a time (GC-5)."""
    side = state.side(seat)
    moved = min(count, side.deck_count)
    known = list(cards[:moved])
    side = evolve(side, deck_count=side.deck_count - moved, unseen=side.unseen - set(known),
                  discard=(*side.discard, *known),
                  discard_unknown=side.discard_unknown + moved - len(known),
                  owed=side.owed + moved - len(known))  # face up now: shown next (C-6)
    state = with_side(state, seat, side)
    state = evolve(state, crushed=state.crushed + (moved if verb == "crush" else 0))
    moves = [Movement(f"deck:{seat}", f"discard:{seat}", c) for c in known]
    if moved > len(known):
        moves.append(Movement(f"deck:{seat}", f"discard:{seat}", None, moved - len(known)))
    play = Play(verb, verb, "GC-5", actor, tuple(moves),
                {"target": seat, "count": count, "moved": moved, "from": "deck"})
    what = (f"{verb.capitalize()} {count}: {moved} from the top of "
            f"{state.name(seat)}'s deck to the discard pile")
    return deck_out(evolve(state, last_play=play), seat, what)


def show(state: GemState, seat: int, card: str, actor: int | None) -> GemState:
    """One of the cards an effect put face up on ``seat``'s discard pile without a scan,
    shown now at its owner's seat (C-6: any order; the referee may enter it by hand)."""
    face = own_card(state, seat, card, actor)
    state = bind(state, seat, card)  # it may be the first card the seat shows (GN-2)
    side = state.side(seat)
    side = evolve(side, unseen=side.unseen - {card}, discard=(*side.discard, card),
                  discard_unknown=side.discard_unknown - 1, owed=side.owed - 1)
    play = Play("show", "show", "C-6", actor,
                (Movement(f"discard:{seat}", f"discard:{seat}", card),),
                {"target": seat, "left": side.owed})
    more = (f"{count_words(side.owed, 'more card')} to show" if side.owed
            else "play goes on")
    return evolve(with_side(state, seat, side), last_play=play,
                  ruling=f"{state.name(seat)} shows {face.name} from the discard pile; "
                         f"{more} (C-6).")


def draw(state: GemState, seat: int, count: int, what: str, actor: int, rule: str) -> GemState:
    side = state.side(seat)
    moved = min(count, side.deck_count)
    side = evolve(side, deck_count=side.deck_count - moved, hand_count=side.hand_count + moved)
    play = Play("draw", "draw", rule, actor,
                (Movement(f"deck:{seat}", f"hand:{seat}", None, moved),),
                {"target": seat, "count": moved})
    return deck_out(evolve(with_side(state, seat, side), last_play=play), seat, what)


def deck_out(state: GemState, seat: int, what: str) -> GemState:
    """The moment a deck count reaches 0, its player loses (GC-5)."""
    side = state.side(seat)
    if side.deck_count == 0:
        opp = other(seat)
        play = state.last_play
        if play is not None:
            play = Play(play.kind, "deck_out", "GC-5", play.seat, play.movements,
                        {**play.facts, "loser": seat, "winner": opp})
        return evolve(state, finished=True, winners=(opp,), deck_outs=state.deck_outs + 1,
                      last_play=play,
                      ruling=f"{what}. {state.name(seat)}'s deck is empty: Deck Out, "
                             f"{state.name(opp)} wins (GC-5).")
    return evolve(state, ruling=f"{what}; {side.deck_count} left in the deck.")


def give_back(state: GemState, seat: int, cards: Sequence[str], to: str,
              actor: int) -> GemState:
    """Cards from ``seat``'s discard pile to hand, or shuffled into the deck (GC-2).

    A card not yet identified in the pile may be shown now (C-6) by its owner only; any
    other card the actor does not own and cannot see there is refused by ``not_yours``.
    """
    if not cards or len(set(cards)) != len(cards):
        raise MalformedEvent(f"list the discard pile cards to return, each once: "
                             f"{quoted(cards)}")
    side = state.side(seat)
    unknown_used = 0
    for c in cards:
        if c in side.discard:
            continue
        own_card(state, seat, c, actor)
        state = bind(state, seat, c)
        unknown_used += 1
    side = state.side(seat)
    if unknown_used > side.discard_unknown:
        raise CardNotAvailable(f"{quoted(cards)}: only {side.discard_unknown} unidentified "
                               f"cards lie in {state.name(seat)}'s discard pile", rule="C-1")
    discard = tuple(c for c in side.discard if c not in cards)
    side = evolve(side, discard=discard, discard_unknown=side.discard_unknown - unknown_used)
    names = ", ".join(state.cards[c].name for c in cards)
    if to == "hand":
        side = evolve(side, hand_count=side.hand_count + len(cards),
                      unseen=side.unseen | set(cards))
        msg = f"{state.name(seat)} takes {names} from the discard pile into hand."
    else:
        side = evolve(side, deck_count=side.deck_count + len(cards),
                      unseen=side.unseen | set(cards))
        msg = (f"{state.name(seat)} shuffles {names} from the discard pile into the deck "
               f"({side.deck_count} cards).")
    play = Play("return", "return", "GC-2", actor,
                tuple(Movement(f"discard:{seat}", f"{to}:{seat}", c) for c in cards),
                {"target": seat, "to": to})
    return evolve(with_side(state, seat, side), last_play=play, ruling=msg)


def effect_words(state: GemState, e: Mapping[str, Any]) -> str:
    """A proposed effect in plain words, for its confirming tap (C-8)."""
    who = state.name(int(e["target"]))
    n = int(e.get("count", 1))
    cards = "card" if n == 1 else "cards"
    if e["type"] == "draw" and e.get("as_many"):
        return f"{who} draws as many cards as they discarded."
    if e["type"] == "draw":
        return f"{who} draws {n} {cards}."
    top = "top card" if n == 1 else f"top {n} cards"
    # C-6 rev. 3: each card is shown in its owner's place first, then put on the pile.
    then = "then puts it" if n == 1 else "one by one, then puts each"
    if e["type"] == "crush":
        return (f"Crush {n}: {who} shows the {top} of their deck in their place, {then} on "
                "their discard pile.")
    if e["type"] == "discard" and e.get("from") == "hand":
        return (f"{who} discards {n} {cards} from hand: shows {'it' if n == 1 else 'them'} in "
                f"their place, {then} on their discard pile.")
    if e["type"] == "discard":
        return (f"{who} discards the {top} of their deck: shows {'it' if n == 1 else 'them'} "
                f"in their place, {then} on their discard pile.")
    where = "hand" if e.get("to") == "hand" else "deck"
    return f"{who} takes up to {n} {cards} from the discard pile into the {where}."



def proposal(state: GemState) -> dict[str, Any] | None:
    """The event that carries out the next effect the played card proposes, with the
    values from its deck data (GC-3 rev. 2), or ``None`` (nothing pending, or a return
    with no card in the discard pile to take)."""
    if not state.pending or state.turn is None:
        return None
    e = state.pending[0]
    event: dict[str, Any] = {"type": e["type"], "seat": state.turn, "target": e["target"]}
    if e["type"] == "return":
        # The played card is not among its own cards to return (GC-3 rev. 3: Restore
        # never proposes shuffling itself back).
        pile = [c for c in state.side(int(e["target"])).discard
                if (e.get("kind") != "gem" or is_gem(state.cards[c]))
                and c != state.pending_card]
        if not pile:
            return None
        event.update(cards=pile[-int(e.get("count", 1)):], to=e.get("to", "hand"))
        return event
    count = int(e.get("count", 1))
    if e["type"] == "discard":
        event["from"] = e.get("from", "deck")
        if event["from"] == "hand":
            # "Discard up to 2" from a smaller hand: as many as it holds, or nothing to do.
            count = min(count, state.side(int(e["target"])).hand_count)
            if count == 0:
                return None
    event["count"] = count
    return event
