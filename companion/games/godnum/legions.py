"""Legions (GN-2 rev. 2) and who holds which card (C-1, C-7).

A seat is bound to the printed legion of the first card it shows, unless the lobby fixed
its legion (option ``legions``). A seat shows only cards it may hold: those of its own
legion not seen yet or, before it is bound, those of a printed legion no seat holds. Every
other card is refused with one message shape that names the card as it was typed and
never where it really is, so that nobody learns anything about another hand (C-7).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from companion.cards import CardFace, DeckData
from companion.engine import Setup, evolve
from companion.errors import BadSetup, CardNotAvailable, UnknownCard
from companion.games.godnum.state import (
    HAND_SIZE,
    LEGION_SIZE,
    GodNumState,
    Legion,
    PrintedLegion,
    set_legion,
)


def printed_legions(setup: Setup, deck: DeckData) -> list[PrintedLegion]:
    """Every printed legion deck of the table's print runs, in deck-file order."""
    by_set: dict[tuple[str, int], set[str]] = {}
    for serial, face in setup.cards.items():
        by_set.setdefault((face.deck, setup.sets.get(serial, 1)), set()).add(serial)
    order = list(deck.decks)
    return [PrintedLegion(d, p, frozenset(s))
            for (d, p), s in sorted(by_set.items(), key=lambda kv: (order.index(kv[0][0]),
                                                                    kv[0][1]))]


def legion_named(text: str, deck: DeckData) -> str:
    """The deck id a lobby wrote (``metal-water``, ``mw``, ``Metal-Water Legion``...);
    raises ``BadSetup`` naming it and the legions."""
    t = text.strip().casefold().removesuffix(" legion").replace(" ", "-")
    for deck_id, info in deck.decks.items():
        names = {deck_id, deck_id.removeprefix("legion-"), str(info.attrs.get("short", "")),
                 info.name.casefold().removesuffix(" legion").replace(" ", "-")}
        if t in names:
            return deck_id
    raise BadSetup(f"there is no legion {text!r}; the legions are "
                   f"{', '.join(d.removeprefix('legion-') for d in deck.decks)}", rule="GN-2")


def fixed_legions(text: str, deck: DeckData, players: int) -> list[str | None]:
    """The option ``legions`` read per seat: a deck id, or ``None`` (bound by the first
    card shown). Empty text: every seat chooses by its first card. Raises ``BadSetup``."""
    if not text.strip():
        return [None] * players
    items = [x.strip() for x in text.split(",")]
    if len(items) > players:
        raise BadSetup(f"option 'legions' names {len(items)} legions for {players} players: "
                       f"{text!r}", rule="GN-2")
    out: list[str | None] = [None if x in ("", "-", "any") else legion_named(x, deck)
                             for x in items]
    return out + [None] * (players - len(out))


def first_hands(setup: Setup, deck: DeckData, fixed: Sequence[str | None]
                ) -> tuple[tuple[Legion, ...], tuple[PrintedLegion, ...], dict[str, int]]:
    """The seats' legions before the first draw, the printed legions left free and the
    owner of each bound serial; raises ``BadSetup`` when the runs lack a fixed legion."""
    free = printed_legions(setup, deck)
    legions: list[Legion] = []
    owner: dict[str, int] = {}
    for seat, want in enumerate(fixed, 1):
        if want is None:
            legions.append(Legion(None, frozenset(), LEGION_SIZE, 0))
            continue
        chosen = next((p for p in free if p.deck == want), None)
        if chosen is None:
            raise BadSetup(f"seat {seat} ({setup.name(seat)!r}) is fixed to the "
                           f"{deck.decks[want].name}, and the print runs hold no free printed "
                           "set of it", rule="GN-2")
        free.remove(chosen)
        owner.update(dict.fromkeys(chosen.serials, seat))
        legions.append(Legion(chosen.deck, chosen.serials, len(chosen.serials), 0,
                              printed=chosen.printed))
    bound = sum(1 for lg in legions if lg.bound)
    if len(legions) - bound > len(free):
        raise BadSetup(f"{len(setup.players)} players need a printed legion each; the print "
                       f"runs hold {len(free) + bound}", rule="GN-2")
    return tuple(legions), tuple(free), owner


def free_set_of(state: GodNumState, serial: str) -> PrintedLegion | None:
    return next((p for p in state.free if serial in p.serials), None)


def holds(state: GodNumState, seat: int, serial: str) -> bool:
    """Whether ``seat`` may hold ``serial`` now: its own legion's card not seen yet, or,
    before it is bound, a card of a printed legion no seat holds (GN-2 rev. 2, C-1)."""
    lg = state.legion(seat)
    if lg.bound:
        return serial in lg.unseen
    return free_set_of(state, serial) is not None


def bind(state: GodNumState, seat: int, serial: str) -> GodNumState:
    """``seat`` bound to the printed legion of ``serial`` (GN-2 rev. 2); once every seat is
    bound, the printed legions nobody plays leave the game. Unchanged if already bound."""
    lg = state.legion(seat)
    chosen = free_set_of(state, serial)
    if lg.bound or chosen is None:
        return state
    owner = dict(state.owner)
    owner.update(dict.fromkeys(chosen.serials, seat))
    state = set_legion(state, seat, evolve(lg, deck=chosen.deck, printed=chosen.printed,
                                           unseen=chosen.serials))
    free = tuple(p for p in state.free if p is not chosen)
    out = state.out
    if all(x.bound for x in state.legions):
        out = out | frozenset().union(*(p.serials for p in free))
        free = ()
    return evolve(state, owner=owner, free=free, out=out)


def not_held(state: GodNumState, seat: int, typed: object) -> CardNotAvailable:
    """The one refusal for a card ``seat`` does not hold (C-1, C-7): the card as typed, the
    same words wherever the card really is."""
    return CardNotAvailable(f"{state.name(seat)} does not hold {str(typed)[:40]!r}: show a "
                            "card from your own hand", rule="C-1")


def own_card_gone(state: GodNumState, seat: int, serial: str, typed: object) -> CardNotAvailable:
    """A seat's own card that everybody saw leave its hand: where it went is public."""
    face = state.cards[serial]
    where = "already played: it is on the pot" if serial in state.pile else "out of the game"
    return CardNotAvailable(f"{face.name} ({str(typed)[:40]!r}) of {state.name(seat)}'s legion "
                            f"is not in hand or deck ({where})", rule="C-1")


def face_of(state: GodNumState, deck: DeckData, card: str) -> CardFace:
    """The face of a serial or face id; raises ``UnknownCard`` (never printed here)."""
    if card in state.cards:
        return state.cards[card]
    try:
        return deck.face(card)
    except UnknownCard:
        raise UnknownCard(f"card {card[:40]!r} was never printed for this table",
                          rule="C-1") from None


def resolve(state: GodNumState, deck: DeckData, seat: int, card: str,
            taken: Iterable[str] = ()) -> str:
    """The serial ``seat`` means by ``card``: a serial as is, or for a face id a copy of it
    that ``seat`` may hold and that is not in ``taken`` (C-1; number cards exist once per
    legion). Raises ``UnknownCard`` or the one not-held refusal."""
    if card in state.cards:
        return card
    face = face_of(state, deck, card)
    skip = set(taken)
    lg = state.legion(seat)
    if lg.bound:
        pool: Iterable[str] = sorted(lg.unseen)
    else:
        pool = [s for p in state.free if p.deck == face.deck for s in sorted(p.serials)]
    for serial in pool:
        if serial not in skip and state.cards[serial].id == face.id:
            return serial
    if lg.bound and face.deck == lg.deck:
        mine = sorted(s for s, f in state.cards.items()
                      if f.id == face.id and state.owner.get(s) == seat and s not in lg.unseen)
        if mine:
            raise own_card_gone(state, seat, mine[-1], card)
    raise not_held(state, seat, card)


def settle(state: GodNumState, seat: int, serial: str,
           avoid: frozenset[str] = frozenset()) -> GodNumState:
    """A scanned ``serial`` of ``seat``'s own legion that a tap recorded on the pot or out
    of the game (a stand-in): the tap was another copy of the same face, so the two trade
    places and ``serial`` is in hand (C-1, issue 18); never with a copy in ``avoid`` (named
    by serial in the same event, C-10 rev. 3). Unchanged when no copy can trade."""
    if serial not in state.stand_ins or state.owner.get(serial) != seat:
        return state
    lg = state.legion(seat)
    if serial in lg.unseen:
        return state
    face = state.cards[serial].id
    other = next((c for c in sorted(lg.unseen)
                  if state.cards[c].id == face and c not in avoid), None)
    if other is None:
        return state

    def swap(c: str) -> str:
        return other if c == serial else c

    state = set_legion(state, seat, evolve(lg, unseen=lg.unseen - {other} | {serial}))
    out = state.out
    if serial in out:
        out = out - {serial} | {other}
    return evolve(state, pile=tuple(swap(c) for c in state.pile), out=out,
                  stand_ins=state.stand_ins - {serial} | {other})


def noted(state: GodNumState, seat: int, serial: str, tapped: bool) -> GodNumState:
    """Before ``seat`` shows ``serial``: a tapped card is a stand-in until a scan says which
    copy it was (issue 18); a seat bound by a tap guessed its printed legion, a serial it
    shows settles it (GN-2)."""
    if tapped:
        guessed = state.guessed | {seat} if not state.legion(seat).bound else state.guessed
        return evolve(state, stand_ins=state.stand_ins | {serial}, guessed=guessed)
    if seat in state.guessed:
        return evolve(state, guessed=state.guessed - {seat})
    return state


def twin(state: GodNumState, seat: int, serial: str) -> GodNumState:
    """A scanned ``serial`` of a legion printed twice (GN-2, six players): where the
    printed copy a seat was bound to is only a guess (``guessed``: bound by a tap or by the
    lobby), the two printed copies trade places, so the scan is not refused for it:
    ``seat`` itself guessed and ``serial`` is of the twin (free, or another guessed seat's);
    or ``seat`` is not bound yet and ``serial`` is of a guessed seat's copy while the twin
    is still free. Unchanged otherwise (C-1 then refuses as before)."""
    if not state.guessed or serial not in state.cards:
        return state
    deck_id = state.cards[serial].deck
    holder = state.owner.get(serial)
    lg = state.legion(seat)
    if lg.bound:
        if seat not in state.guessed or lg.deck != deck_id or holder == seat:
            return state
        if holder is not None and holder not in state.guessed:
            return state
        other = _serials_of(state, holder, serial)
        if other is None:
            return state
        return _swap_sets(state, _serials_of(state, seat, serial) or frozenset(), other)
    if holder is None or holder not in state.guessed:
        return state
    spare = next((p for p in state.free if p.deck == deck_id), None)
    if spare is None:
        return state
    return _swap_sets(state, _serials_of(state, holder, serial) or frozenset(), spare.serials)


def _serials_of(state: GodNumState, seat: int | None, serial: str) -> frozenset[str] | None:
    """The printed legion of ``seat`` (``None``: the free one holding ``serial``)."""
    if seat is not None:
        return frozenset(s for s, o in state.owner.items() if o == seat)
    found = free_set_of(state, serial)
    return found.serials if found is not None else None


def _swap_sets(state: GodNumState, a: frozenset[str], b: frozenset[str]) -> GodNumState:
    """Printed copies ``a`` and ``b`` of one legion trade places: each serial of one takes
    the place of the same face's serial of the other (sorted, so replay is exact)."""
    m: dict[str, str] = {}
    by_face: dict[str, list[str]] = {}
    for s in sorted(b):
        by_face.setdefault(state.cards[s].id, []).append(s)
    for s in sorted(a):
        t = by_face[state.cards[s].id].pop(0)
        m[s], m[t] = t, s

    def swap(x: str) -> str:
        return m.get(x, x)

    def swap_set(xs: frozenset[str]) -> frozenset[str]:
        return frozenset(swap(x) for x in xs)

    def seat_and_printed(xs: frozenset[str]) -> tuple[int | None, int | None]:
        holder = state.owner.get(min(xs))
        if holder is not None:
            return holder, state.legion(holder).printed
        return None, next((p.printed for p in state.free if p.serials == xs), None)

    sa, pa = seat_and_printed(a)
    sb, pb = seat_and_printed(b)
    seats = []
    for n, lg in enumerate(state.legions, 1):
        printed = pb if n == sa else pa if n == sb else lg.printed
        seats.append(evolve(lg, unseen=swap_set(lg.unseen), printed=printed))
    def new_printed(p: PrintedLegion) -> int:
        now = pa if p.serials == b else pb if p.serials == a else None
        return p.printed if now is None else now

    free = tuple(PrintedLegion(p.deck, new_printed(p), swap_set(p.serials))
                 for p in state.free)
    owner = {swap(x): o for x, o in state.owner.items()}
    return evolve(state, legions=tuple(seats), free=free, owner=owner,
                  pile=tuple(swap(c) for c in state.pile), out=swap_set(state.out),
                  stand_ins=swap_set(state.stand_ins))


def available(state: GodNumState, seat: int, serial: str, typed: object,
              override: bool) -> CardFace:
    """The face of ``serial`` if ``seat`` may show it (C-1, C-7, GN-2); with ``override``
    the referee vouches for it. Raises ``UnknownCard`` or ``CardNotAvailable``."""
    if serial not in state.cards:
        raise UnknownCard(f"card {str(typed)[:40]!r} was never printed for this table",
                          rule="C-1")
    if override or holds(state, seat, serial):
        return state.cards[serial]
    if state.owner.get(serial) == seat:
        raise own_card_gone(state, seat, serial, typed)
    raise not_held(state, seat, typed)


def hand_faces(state: GodNumState, deck: DeckData, seat: int) -> list[tuple[CardFace, int]]:
    """The faces ``seat`` may hold now with how many copies, in deck-file order: its own
    legion's unseen cards, or before binding every free printed legion's (GN-2 rev. 2)."""
    lg = state.legion(seat)
    pools: Mapping[str, frozenset[str]]
    if lg.bound:
        pools = {str(lg.deck): lg.unseen}
    else:
        pools = {}
        for p in state.free:  # one printed set per legion is enough to name its faces
            pools.setdefault(p.deck, p.serials)
    counts: dict[str, int] = {}
    for serials in pools.values():
        for s in serials:
            counts[state.cards[s].id] = counts.get(state.cards[s].id, 0) + 1
    return [(f, counts[f.id]) for f in deck.faces if f.id in counts]


def opening_counts(legions: Sequence[Legion]) -> tuple[Legion, ...]:
    """Every seat shuffles its legion deck and draws ``HAND_SIZE`` (GN-4)."""
    return tuple(evolve(lg, deck_count=lg.deck_count - HAND_SIZE, hand_count=HAND_SIZE)
                 for lg in legions)
