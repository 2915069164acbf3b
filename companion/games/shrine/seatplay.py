"""Shrine of the Elemental Kings at a simulated table (``companion.seatplay``): nobody
holds a hand; the cards are drawn face up (SK-2, SK-3) and the auctions are open, turn by
turn (SK-3, SK-4). What is hidden is money: with hidden Oinks (SK-7) a seat sees its own
Oinks per element, the others' and the pool's only as totals (each follows from the public
bids and shares, SK-6).

- Chance: each start draw (SK-2: the contenders in seat order, each one card from the top
  part of the deck, every card there equally likely; the drawn cards go to the bottom, so
  once the top part is gone, any card of the deck), and each lot card (SK-3).
- Moves, in this order: ``pass``, then every legal bid, lowest first (SK-4); after a won
  auction whose mix is free (SK-5), every mix of the lot's elements the winner may pay
  (enumerated while there are at most ``MIXES``; beyond that, the mixes that pay the
  elements in each order of preference: fill the first as far as it goes, then the
  next... a documented bound, at most 24 for four elements).
- ``resample`` with hidden Oinks: the others' and the pool's Oinks dealt again element by
  element, keeping every total and every element's total over the table (SK-6 moves Oinks,
  never makes them). It does not follow which elements each past lot let a seat pay with.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

from companion.engine import Event, evolve
from companion.games.shrine.adjudicate import legal_bids, payment_bounds
from companion.games.shrine.state import LOT, ShrineState, above_bottom, lot_elements
from companion.seatplay import Seats, Table, uniform

MIXES = 64  # payment mixes listed in full up to this many


def _mixes(low: list[int], high: list[int], total: int) -> list[list[int]]:
    """Every vector between ``low`` and ``high`` summing to ``total`` (lexicographic), or
    ``None``-free truncation: stops after ``MIXES + 1``."""
    out: list[list[int]] = []

    def fill(i: int, left: int, acc: list[int]) -> None:
        if len(out) > MIXES:
            return
        if i == len(low) - 1:
            if low[i] <= left <= high[i]:
                out.append([*acc, left])
            return
        rest_lo = sum(low[i + 1:])
        rest_hi = sum(high[i + 1:])
        for n in range(max(low[i], left - rest_hi), min(high[i], left - rest_lo) + 1):
            fill(i + 1, left - n, [*acc, n])

    fill(0, total, [])
    return out


def _preferred(low: list[int], high: list[int], total: int) -> list[list[int]]:
    """For each order of the elements, the mix that pays the first as far as it goes."""
    out: list[list[int]] = []
    for order in permutations(range(len(low))):
        mix = list(low)
        left = total - sum(low)
        for i in order:
            n = min(high[i] - mix[i], left)
            mix[i] += n
            left -= n
        if mix not in out:
            out.append(mix)
    return sorted(out)


class ShrineSeats(Seats):

    def chance_outcomes(self, table: Table) -> list[tuple[Event, float]] | None:
        state: ShrineState = table.state
        if state.phase not in ("start", "lot"):
            return None
        cards = sorted(above_bottom(state) or state.deck)
        if state.phase == "lot":
            return uniform([{"type": "scan", "card": c, "zone": LOT} for c in cards])
        seat = next(s for s in state.contenders if s not in state.draws)
        return uniform([{"type": "scan", "card": c, "zone": f"seat:{seat}"} for c in cards])

    def to_move(self, table: Table) -> int | None:
        state: ShrineState = table.state
        if state.phase == "bidding":
            return int(state.turn)
        if state.phase == "payment":
            return int(state.high)
        return None

    def moves(self, table: Table, seat: int) -> list[Event]:
        state: ShrineState = table.state
        if self.to_move(table) != seat:
            return []
        if state.phase == "bidding":
            return [{"type": "pass", "seat": seat},
                    *({"type": "bid", "seat": seat, "amount": a}
                      for a in legal_bids(state, seat))]
        low, high = payment_bounds(state)
        mixes = _mixes(low, high, state.standing)
        if len(mixes) > MIXES:
            mixes = _preferred(low, high, state.standing)
        elements = lot_elements(state)
        return [{"type": "pay", "seat": seat, "oinks": dict(zip(elements, m, strict=True))}
                for m in mixes]

    def private(self, table: Table, seat: int) -> Any:
        return None  # the view holds the seat's own Oinks already

    def resample(self, table: Table, seat: int, rng: random.Random) -> Table:
        state: ShrineState = table.state
        if state.public_oinks or state.finished:
            return table
        holders = [s for s in state.seats if s != seat]  # and the pool, as holder 0
        rows = [list(state.oinks[s - 1]) for s in holders] + [list(state.pool)]
        tokens = [i for i in range(len(state.elements)) for row in rows for _ in range(row[i])]
        rng.shuffle(tokens)
        dealt: list[list[int]] = []
        k = 0
        for row in rows:
            new = [0] * len(state.elements)
            for i in tokens[k:k + sum(row)]:
                new[i] += 1
            k += sum(row)
            dealt.append(new)
        oinks = list(state.oinks)
        for s, row in zip(holders, dealt, strict=False):
            oinks[s - 1] = tuple(row)
        return table.evolve(state=evolve(state, oinks=tuple(oinks), pool=tuple(dealt[-1])))


SEATS = ShrineSeats()
