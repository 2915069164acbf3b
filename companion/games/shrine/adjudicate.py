"""Shrine of the Elemental Kings: the pure resolution, ruling by ruling (SK-2..SK-10).

Every function here decides and returns data (who starts, whether a bid is legal, who
shares what, who wins); ``rules.py`` applies it to the state and ``view.py`` says it in
words. "Where is SK-6 decided?": ``divide``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.engine import Movement, Play
from companion.errors import IllegalPlay, MalformedEvent
from companion.games.shrine.influence import Split, best_split
from companion.games.shrine.state import (
    ShrineState,
    above_bottom,
    card_name,
    clockwise,
    element_text,
    lot_elements,
    number,
    seat_names,
    shrine_of,
)

# ---------------------------------------------------------------------- SK-2 start


@dataclass(frozen=True)
class StartRound:
    """A finished round of start draws (SK-2): the top value and who drew it."""

    top: int
    leaders: tuple[int, ...]

    @property
    def starter(self) -> int | None:
        return self.leaders[0] if len(self.leaders) == 1 else None


def start_round(state: ShrineState, draws: Mapping[int, str]) -> StartRound:
    """Highest face value starts; ties draw again among the tied (SK-2)."""
    value = {s: number(state, c) for s, c in draws.items()}
    top = max(value.values())
    return StartRound(top, tuple(s for s in state.contenders if value[s] == top))


def buried_refusal(state: ShrineState, serial: str) -> str | None:
    """Why ``serial`` cannot be the next card drawn: it was put at the bottom of the deck
    after the start draws while other cards lie above it (SK-2 rev. 2), or ``None``."""
    if serial in state.bottom and above_bottom(state):
        return (f"{card_name(state, serial)} {serial!r} was put at the bottom of the deck "
                f"after the start draws and {len(above_bottom(state))} other cards lie above "
                "it; draw from the top (the referee can override)")
    return None


# ---------------------------------------------------------------------- SK-4 bids


def capacity(state: ShrineState, seat: int) -> int:
    """Oinks ``seat`` holds in the lot's element(s): the most it may bid (SK-4)."""
    elements = set(lot_elements(state))
    return sum(n for e, n in zip(state.elements, state.oinks[seat - 1], strict=True)
               if e in elements)


def forbidden_units(state: ShrineState, seat: int) -> list[int]:
    """Unit digits ``seat`` may not bid: face values of the cards it holds (SK-4)."""
    return sorted({number(state, c) for c in state.shrines[seat - 1]} - {0})


def bid_refusal(state: ShrineState, seat: int, amount: int) -> str | None:
    """Why ``amount`` is not a legal bid for ``seat`` now (SK-4), or ``None``.

    With hidden Oinks (SK-7) the words never say how many Oinks the bidder holds: the big
    screen may show a refusal to everyone.
    """
    name = state.name(seat)
    if amount < 1:
        return f"a bid is a whole number of at least 1 Oink; {amount!r} is not"
    if amount <= state.standing:
        return (f"{name}'s bid {amount!r} must be more than the standing bid of "
                f"{state.standing}")
    cap = capacity(state, seat)
    if amount > cap:
        kind = element_text(state, lot_elements(state))
        if state.public_oinks:
            return f"{name} holds {cap} {kind} Oinks and cannot bid {amount!r}"
        return f"{name} cannot bid {amount!r}: that is more {kind} Oinks than {name} holds"
    unit = amount % 10
    if unit:
        for c in state.shrines[seat - 1]:
            if number(state, c) == unit:
                bid = "" if amount == unit else f" ({amount!r})"
                return (f"{name} holds {card_name(state, c)}: a bid ending in {unit}{bid} "
                        "is not allowed")
    return None


def legal_bids(state: ShrineState, seat: int) -> list[int]:
    """Every legal bid of ``seat`` now, lowest first (SK-4)."""
    banned = set(forbidden_units(state, seat))
    return [a for a in range(state.standing + 1, capacity(state, seat) + 1)
            if a % 10 not in banned]


# ---------------------------------------------------------------------- SK-5 payment


def payment_bounds(state: ShrineState) -> tuple[list[int], list[int]]:
    """Least and most of each lot element the winner can pay in a legal mix (SK-5)."""
    elements = lot_elements(state)
    held = dict(zip(state.elements, state.oinks[state.high - 1], strict=True))
    cap = sum(held[e] for e in elements)
    bid = state.standing
    low = [max(0, bid - (cap - held[e])) for e in elements]
    high = [min(held[e], bid) for e in elements]
    return low, high


def propose_payment(state: ShrineState) -> dict[str, int]:
    """The companion's proposed mix for the winning bid (SK-5): one Oink at a time from
    the lot element the winner holds most of, so the winner keeps an even spread."""
    elements = lot_elements(state)
    left = dict(zip(state.elements, state.oinks[state.high - 1], strict=True))
    pay = dict.fromkeys(elements, 0)
    for _ in range(state.standing):
        e = max(elements, key=lambda x: left[x])
        pay[e] += 1
        left[e] -= 1
    return pay


def payment_mix(state: ShrineState, event: Mapping[str, Any]) -> dict[str, int]:
    """The mix of Oinks a ``pay`` event gives (the proposal when it gives none), checked
    against the lot's elements, the winner's holdings and the bid (SK-5); raises
    ``MalformedEvent`` or ``IllegalPlay``."""
    elements = lot_elements(state)
    given: dict[str, Any]
    if "oinks" in event:
        raw = event["oinks"]
        if not isinstance(raw, Mapping):
            raise MalformedEvent(f"event field 'oinks' must be an object, got {raw!r}")
        if any(e in event for e in state.elements):
            raise MalformedEvent("give the mix either as 'oinks' or as element keys, "
                                 "not both")
        given = dict(raw)
    else:
        given = {e: event[e] for e in state.elements if e in event}
    if not given:
        return propose_payment(state)
    mix: dict[str, int] = dict.fromkeys(elements, 0)
    holdings = dict(zip(state.elements, state.oinks[state.high - 1], strict=True))
    for e, n in given.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise MalformedEvent(f"Oinks of {e!r} must be a whole number >= 0, got {n!r}")
        if e not in elements:
            if n == 0:
                continue
            raise IllegalPlay(
                f"the lot is {element_text(state, elements)}: pay in those elements, "
                f"not {n} {e!r}", rule="SK-5",
            )
        if n > holdings[e]:
            held = f"holds {holdings[e]}" if state.public_oinks else "does not hold that many"
            raise IllegalPlay(
                f"{state.name(state.high)} cannot pay {n} {state.element_names[e]} "
                f"Oinks: {state.name(state.high)} {held}", rule="SK-5",
            )
        mix[e] = n
    if sum(mix.values()) != state.standing:
        raise IllegalPlay(
            f"the mix {given!r} adds up to {sum(mix.values())}, the winning bid is "
            f"{state.standing}", rule="SK-5",
        )
    return mix


# ---------------------------------------------------------------------- SK-6 distribution


@dataclass(frozen=True)
class Sharers:
    """Who shares the winner's payment (SK-6): ``unit`` the bid's unit digit, ``most`` how
    many cards of that face value each sharer holds (0: nobody holds one, all share)."""

    seats: tuple[int, ...]
    unit: int
    most: int


def distribution_sharers(state: ShrineState, winner: int, bid: int) -> Sharers:
    """Recipients are all but the winner; if the unit digit u is 1-9 and recipients hold
    cards of face value u, only those holding the most share (SK-6)."""
    recipients = [s for s in state.seats if s != winner]
    unit = bid % 10
    if unit:
        held = {s: sum(1 for c in state.shrines[s - 1] if number(state, c) == unit)
                for s in recipients}
        most = max(held.values())
        if most:
            return Sharers(tuple(s for s in recipients if held[s] == most), unit, most)
    return Sharers(tuple(recipients), unit, 0)


@dataclass(frozen=True)
class Division:
    """The amount divided (SK-6 rev. 2): each sharer's Oinks by element, and the pool left."""

    amount: int
    each: int
    shares: Mapping[int, Mapping[str, int]]
    pool: tuple[int, ...]


def divide(state: ShrineState, winner: int, paid: Mapping[str, int],
           sharers: Iterable[int]) -> Division:
    """Divide the bid paid plus the whole pool as one amount (SK-6 rev. 2).

    Each of the k sharers gets floor(amount / k) Oinks; they are handed out one Oink at a
    time, each time from the element with the most Oinks left in the amount (ties in the
    deck data's element order: Fire, Water, Earth, Air), to the sharers in turn clockwise
    from the winner's left. What is left (amount mod k) stays in the pool.
    """
    order = _clockwise_from(state, winner, sharers)
    left = [paid.get(e, 0) + state.pool[i] for i, e in enumerate(state.elements)]
    amount = sum(left)
    each = amount // len(order)
    got = [[0] * len(left) for _ in order]
    for i in range(each * len(order)):
        top = 0  # the element with the most left; the first in order on a tie
        for j in range(1, len(left)):
            if left[j] > left[top]:
                top = j
        left[top] -= 1
        got[i % len(order)][top] += 1
    shares = {s: {e: n for e, n in zip(state.elements, got[k], strict=True) if n}
              for k, s in enumerate(order)}
    return Division(amount, each, shares, tuple(left))


def _clockwise_from(state: ShrineState, winner: int, seats: Iterable[int]) -> list[int]:
    chosen = set(seats)
    order, s = [], clockwise(state, winner)
    for _ in state.seats:
        if s in chosen:
            order.append(s)
        s = clockwise(state, s)
    return order


def settlement_play(state: ShrineState, winner: int, bid: int, paid: Mapping[str, int],
                    sharers: Sharers, division: Division) -> Play:
    """The auction's result as data (SK-5, SK-6): the lot goes to the winner's shrine."""
    moves = tuple(Movement("lot", shrine_of(winner), c) for c in state.lot)
    return Play("win", "win", "SK-6", winner, moves, {
        "winner": winner, "bid": bid, "lot": list(state.lot),
        "paid": {e: n for e, n in paid.items() if n},
        "sharers": list(sharers.seats), "unit": sharers.unit, "most": sharers.most,
        "shares": {str(s): dict(g) for s, g in division.shares.items()},
        "amount": division.amount, "each": division.each,
        "pool": {e: n for e, n in zip(state.elements, division.pool, strict=True) if n},
    })


def sharers_reason(state: ShrineState, sharers: Sharers) -> str:
    """Why these players share, in words (SK-6)."""
    if not sharers.most:
        return "The other players share it equally."
    cards = "card" if sharers.most == 1 else "cards"
    u = sharers.unit
    if len(sharers.seats) == 1:
        return (f"The bid ends in {u} and {state.name(sharers.seats[0])} holds the most "
                f"{u}s ({sharers.most} {cards}): they take it all.")
    return (f"The bid ends in {u} and {seat_names(state, sharers.seats)} hold the most "
            f"{u}s ({sharers.most} {cards} each): they share it.")


# ---------------------------------------------------------------------- SK-9, SK-10 end


def influence(state: ShrineState, seat: int) -> Split:
    """The best split of ``seat``'s cards into groups (SK-10)."""
    return best_split((str(state.cards[c].element), number(state, c))
                      for c in state.shrines[seat - 1])


@dataclass(frozen=True)
class Standings:
    """The end (SK-10): influence and Oinks per seat, the winners, and how they won."""

    scores: Mapping[int, int]
    totals: Mapping[int, int]
    winners: tuple[int, ...]
    top: tuple[int, ...]  # every seat with the highest influence

    @property
    def how(self) -> str:
        """``influence`` (alone on top), ``oinks`` (tie broken by Oinks) or ``shared``."""
        if len(self.winners) > 1:
            return "shared"
        return "influence" if len(self.top) == 1 else "oinks"


def standings(state: ShrineState) -> Standings:
    """Highest influence wins; ties: most Oinks in total; still tied: shared win (SK-10)."""
    scores = {s: influence(state, s).points for s in state.seats}
    totals = {s: sum(state.oinks[s - 1]) for s in state.seats}
    best = max((scores[s], totals[s]) for s in state.seats)
    winners = tuple(s for s in state.seats if (scores[s], totals[s]) == best)
    top = tuple(s for s in state.seats if scores[s] == best[0])
    return Standings(scores, totals, winners, top)

