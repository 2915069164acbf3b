"""The pure resolution of WuXing, the part a rules lawyer reads (WX-1, WX-5..WX-9, WX-11).

Each function takes the cards in play and returns a ``companion.engine.Play``: the card
movements (serial, from place, to place), the outcome and the ruling id that decided it.
Nothing here changes a state or makes a sentence: ``rules`` carries the movements out and
``view`` says them in words.

- WX-5, WX-6: ``universe_dragon``, ``universe_star``.
- WX-7 (cases 1-8 in order), WX-8 (won cards to the winner's deck), WX-9 (a Star in a pot
  is never won): ``challenge``.
- WX-11 (the tie-breaker's comparison): ``beats`` and ``tiebreak_round``.
"""

from __future__ import annotations

from companion.engine import POT, VOID, Movement, Play
from companion.games.wuxing.state import DRAGON, ELEMENT, STAR, UNIVERSE, Table, table_of

__all__ = ["beats", "challenge", "tiebreak_round", "universe_dragon", "universe_star"]


def _moves(cards: list[str] | tuple[str, ...], source: str | dict[str, str],
           target: str) -> list[Movement]:
    if isinstance(source, str):
        return [Movement(source, target, c) for c in cards]
    return [Movement(source[c], target, c) for c in cards]


def universe_dragon(serial: str) -> Play:
    """WX-5: a Universe Dragon goes to the Void; everyone still in feeds the pot next."""
    return Play("universe", "dragon", "WX-5", None, (Movement(UNIVERSE, VOID, serial),))


def universe_star(serial: str, pot: tuple[str, ...]) -> Play:
    """WX-6: the pot goes to the Void (a Star in it too, WX-9), the Star stays as the sole
    pot card; everyone still in feeds the Void next."""
    moves = (*_moves(pot, POT, VOID), Movement(UNIVERSE, POT, serial))
    return Play("universe", "star", "WX-6", None, moves, {"swept": len(pot)})


def challenge(t: Table, a: int, ca: str, b: int, cb: str, u: str,
              pot: tuple[str, ...]) -> Play:
    """WX-7, cases 1-8 in order: challengers ``a`` and ``b`` showed ``ca`` and ``cb``
    against the Universe card ``u`` (the top of ``pot``). Won cards go to the winner's
    deck (WX-8); a Star in the pot is never won (WX-9)."""
    kind = t.kind
    ka, kb = kind[ca], kind[cb]
    on = {ca: t.table_place[a], cb: t.table_place[b]}
    if pot:
        stars = [c for c in pot if kind[c] == STAR]
        rest = [c for c in pot if kind[c] != STAR] if stars else list(pot)
    else:
        stars, rest = [], []
    base = {"a": a, "b": b, "universe": u, "stars_in_pot": len(stars), "pot": len(pot)}
    if ka == STAR and kb == STAR:  # 7.1: a draw, nothing to the Void
        return Play("challenge", "draw", "WX-7.1", None,
                    tuple(_moves([ca, cb], on, POT)), {**base, "case": "7.1"})
    if STAR in (ka, kb):  # 7.2: the played Star sweeps everything, Dragons too
        star_seat, star, other = (a, ca, cb) if ka == STAR else (b, cb, ca)
        moves = [*_moves(pot, POT, VOID), Movement(on[other], VOID, other),
                 Movement(on[star], POT, star)]
        return Play("challenge", "void", "WX-7.2", star_seat, tuple(moves),
                    {**base, "case": "7.2", "winner": star_seat,
                     "loser": b if star_seat == a else a, "lost": other,
                     "swept": len(pot) + 1})
    if ka == DRAGON and kb == DRAGON:  # 7.3
        return Play("challenge", "draw", "WX-7.3", None,
                    tuple(_moves([ca, cb], on, POT)), {**base, "case": "7.3"})
    if DRAGON in (ka, kb):  # 7.4: the Dragon absorbs all but a Star, then goes to the Void
        win, dragon, other = (a, ca, cb) if ka == DRAGON else (b, cb, ca)
        won = [*rest, other]
        moves = [Movement(on[dragon], VOID, dragon), *_moves(rest, POT, t.deck_place[win]),
                 Movement(on[other], t.deck_place[win], other)]
        return Play("challenge", "win", "WX-7.4", win, tuple(moves),
                    {**base, "case": "7.4", "winner": win, "won": len(won)})
    return _elements(t, a, ca, b, cb, u, pot, on, stars, rest, base)


def _elements(t: Table, a: int, ca: str, b: int, cb: str, u: str, pot: tuple[str, ...],
              on: dict[str, str], stars: list[str], rest: list[str],
              base: dict[str, object]) -> Play:
    """WX-7 cases 5-8: two element cards against the Universe element."""
    ea, eb, eu = t.element[ca], t.element[cb], t.element[u]
    absorbs, destroys = t.absorbs, t.destroys
    if ea == eb:  # 5: a draw even when both absorb or both destroy U (seed Game Notes)
        if (eu, ea) in destroys:
            return Play("challenge", "void", "WX-7.5", None,
                        tuple(_moves([ca, cb], on, VOID)),
                        {**base, "case": "7.5", "destroyed": True})
        return Play("challenge", "draw", "WX-7.5", None, tuple(_moves([ca, cb], on, POT)),
                    {**base, "case": "7.5", "destroyed": False})
    aa, ab = (ea, eu) in absorbs, (eb, eu) in absorbs
    if aa or ab:  # 6: absorb beats destroy
        win, mine, other = (a, ca, cb) if aa else (b, cb, ca)
        deck = t.deck_place[win]
        moves = [*_moves(rest, POT, deck), Movement(on[ca], deck, ca),
                 Movement(on[cb], deck, cb)]
        return Play("challenge", "win", "WX-7.6", win, tuple(moves),
                    {**base, "case": "7.6", "winner": win, "card": mine,
                     "won": len(rest) + 2,
                     "beats_destroy": (t.element[other], eu) in destroys})
    da, db = (ea, eu) in destroys, (eb, eu) in destroys
    if da or db:  # 7: the pot (Stars too) and the opponent's card to the Void
        win, keep, loser, lost = (a, ca, b, cb) if da else (b, cb, a, ca)
        moves = [*_moves(pot, POT, VOID), Movement(on[lost], VOID, lost),
                 Movement(on[keep], t.deck_place[win], keep)]
        return Play("challenge", "void", "WX-7.7", win, tuple(moves),
                    {**base, "case": "7.7", "winner": win, "card": keep, "loser": loser,
                     "lost": lost})
    moves = []  # 8: each card on its own
    for card, e in ((ca, ea), (cb, eb)):
        joins = e == eu or (eu, e) in absorbs
        moves.append(Movement(on[card], POT if joins else VOID, card))
    outcome = "pot" if all(m.target == POT for m in moves) else "void"
    return Play("challenge", outcome, "WX-7.8", None, tuple(moves), {**base, "case": "7.8"})


def beats(t: Table, x: str, y: str) -> bool:
    """WX-11: card ``x`` beats ``y`` player against player: a Star beats all but a Star, a
    Dragon any element, an element one it absorbs or destroys (WX-1)."""
    kx, ky = t.kind[x], t.kind[y]
    if kx != ELEMENT or ky != ELEMENT:
        rank = {STAR: 2, DRAGON: 1, ELEMENT: 0}
        return rank[kx] > rank[ky]
    ex, ey = t.element[x], t.element[y]
    return ex != ey and ((ex, ey) in t.absorbs or (ex, ey) in t.destroys)


def tiebreak_round(t: Table, cards: tuple[tuple[int, str], ...]) -> Play:
    """WX-11: one round of the sudden death, every tied player's card taken from the
    Universe deck. A player whose card another's beats drops out; if that would be every
    player (a cycle) or nobody, nobody does and they take again. Every card of the round
    goes to the Void. ``facts["out"]`` lists the seats that drop out, ``facts["left"]``
    those still in."""
    seats = [s for s, _ in cards]
    beaten = [s for s, c in cards if any(beats(t, o, c) for _, o in cards)]
    cycle = len(beaten) == len(seats)
    if cycle:
        beaten = []
    left = [s for s in seats if s not in beaten]
    moves = tuple(Movement(table_of(s), VOID, c) for s, c in cards)
    outcome = "win" if len(left) == 1 else "out" if beaten else "again"
    return Play("tiebreak", outcome, "WX-11", left[0] if len(left) == 1 else None, moves,
                {"out": beaten, "left": left, "cycle": cycle and len(seats) > 2})
