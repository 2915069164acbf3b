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
    # Every challenge comes here (``companion bench engine``): movements are made inline.
    kind = t.kind
    ka, kb = kind[ca], kind[cb]
    ta, tb = t.table_place[a], t.table_place[b]
    if pot:
        stars = [c for c in pot if kind[c] == STAR]
        rest = [c for c in pot if kind[c] != STAR] if stars else pot
    else:
        stars, rest = [], ()
    base = {"a": a, "b": b, "universe": u, "stars_in_pot": len(stars), "pot": len(pot)}
    if ka == STAR and kb == STAR:  # 7.1: a draw, nothing to the Void
        return Play("challenge", "draw", "WX-7.1", None,
                    (Movement(ta, POT, ca), Movement(tb, POT, cb)), {**base, "case": "7.1"})
    if ka == STAR or kb == STAR:  # 7.2: the played Star sweeps everything, Dragons too
        star_seat, star, other = (a, ca, cb) if ka == STAR else (b, cb, ca)
        on_star, on_other = (ta, tb) if ka == STAR else (tb, ta)
        moves = (*[Movement(POT, VOID, c) for c in pot], Movement(on_other, VOID, other),
                 Movement(on_star, POT, star))
        return Play("challenge", "void", "WX-7.2", star_seat, moves,
                    {**base, "case": "7.2", "winner": star_seat,
                     "loser": b if star_seat == a else a, "lost": other,
                     "swept": len(pot) + 1})
    if ka == DRAGON and kb == DRAGON:  # 7.3
        return Play("challenge", "draw", "WX-7.3", None,
                    (Movement(ta, POT, ca), Movement(tb, POT, cb)), {**base, "case": "7.3"})
    if ka == DRAGON or kb == DRAGON:  # 7.4: the Dragon absorbs all but a Star, then the Void
        win, dragon, other = (a, ca, cb) if ka == DRAGON else (b, cb, ca)
        on_dragon, on_other = (ta, tb) if ka == DRAGON else (tb, ta)
        deck = t.deck_place[win]
        moves = (Movement(on_dragon, VOID, dragon), *[Movement(POT, deck, c) for c in rest],
                 Movement(on_other, deck, other))
        return Play("challenge", "win", "WX-7.4", win, moves,
                    {**base, "case": "7.4", "winner": win, "won": len(rest) + 1})
    return _elements(t, a, ca, ta, b, cb, tb, u, pot, rest, base)


def _elements(t: Table, a: int, ca: str, ta: str, b: int, cb: str, tb: str, u: str,
              pot: tuple[str, ...], rest: list[str] | tuple[str, ...],
              base: dict[str, object]) -> Play:
    """WX-7 cases 5-8: two element cards against the Universe element."""
    element = t.element
    ea, eb, eu = element[ca], element[cb], element[u]
    absorbs, destroys = t.absorbs, t.destroys
    if ea == eb:  # 5: a draw even when both absorb or both destroy U (seed Game Notes)
        if (eu, ea) in destroys:
            return Play("challenge", "void", "WX-7.5", None,
                        (Movement(ta, VOID, ca), Movement(tb, VOID, cb)),
                        {**base, "case": "7.5", "destroyed": True})
        return Play("challenge", "draw", "WX-7.5", None,
                    (Movement(ta, POT, ca), Movement(tb, POT, cb)),
                    {**base, "case": "7.5", "destroyed": False})
    aa = (ea, eu) in absorbs
    if aa or (eb, eu) in absorbs:  # 6: absorb beats destroy
        win, mine, other = (a, ca, cb) if aa else (b, cb, ca)
        deck = t.deck_place[win]
        moves = (*[Movement(POT, deck, c) for c in rest], Movement(ta, deck, ca),
                 Movement(tb, deck, cb))
        return Play("challenge", "win", "WX-7.6", win, moves,
                    {**base, "case": "7.6", "winner": win, "card": mine,
                     "won": len(rest) + 2,
                     "beats_destroy": (element[other], eu) in destroys})
    da = (ea, eu) in destroys
    if da or (eb, eu) in destroys:  # 7: the pot (Stars too) and the opponent's card to the Void
        win, keep, loser, lost = (a, ca, b, cb) if da else (b, cb, a, ca)
        on_keep, on_lost = (ta, tb) if da else (tb, ta)
        moves = (*[Movement(POT, VOID, c) for c in pot], Movement(on_lost, VOID, lost),
                 Movement(on_keep, t.deck_place[win], keep))
        return Play("challenge", "void", "WX-7.7", win, moves,
                    {**base, "case": "7.7", "winner": win, "card": keep, "loser": loser,
                     "lost": lost})
    # 8: each card on its own: it joins the pot if it matches or U absorbs it, else the Void
    to_a = POT if ea == eu or (eu, ea) in absorbs else VOID
    to_b = POT if eb == eu or (eu, eb) in absorbs else VOID
    outcome = "pot" if to_a == POT and to_b == POT else "void"
    return Play("challenge", outcome, "WX-7.8", None,
                (Movement(ta, to_a, ca), Movement(tb, to_b, cb)), {**base, "case": "7.8"})


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
