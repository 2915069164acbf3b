"""Shrine of the Elemental Kings (seed 002): auctions for cards with Oinks (SK-1..SK-10).

Phases: ``start`` (SK-2: everyone draws a card, highest starts, ties redraw) -> for every
cycle ``lot`` (SK-3: the lot's cards are drawn and scanned) -> ``bidding`` (SK-3, SK-4) ->
``payment`` (SK-5, only when a set of several elements leaves the winner a choice) -> next
cycle ... -> ``over`` (SK-9, SK-10).

Events (JSON objects):

- ``{"type": "scan", "card": SERIAL, "zone": ZONE, "override"?: bool}``: a card drawn
  from the deck. In ``start`` the zone is ``"seat:<n>"`` (that player's start draw, SK-2);
  in ``lot`` it is ``"lot"``. ``zone`` may be left out when the phase settles it (``lot``;
  ``seat:<n>`` from an event's ``"seat"``). A card that is not in the deck is refused
  (C-1) unless ``"override": true`` (the referee; the card is taken from where it was).
- ``{"type": "bid", "seat": n, "amount": int}``: a bid (SK-4), on the seat's turn.
- ``{"type": "pass", "seat": n}``: the seat is out of this auction (SK-3).
- ``{"type": "pay", "seat": n, "oinks"?: {ELEMENT: int}}`` or with top-level element keys
  (``"fire": 3, "air": 5``): the winner's mix of Oinks for a set (SK-5). Without a mix
  the companion's proposal is paid.

State keys of ``view`` (``view(state, None)`` is the public table view): ``game``,
``phase``, ``players`` [{seat, name}], ``oinks_visibility``, ``start`` {round, contenders,
draws}, ``starter``, ``cycle``, ``cycle_first``, ``deck_count``, ``lot`` [card],
``lot_size``, ``lot_elements``, ``next_lot_size``, ``standing_bid``, ``high_bidder``,
``turn``, ``passed``, ``bids`` [{seat, amount}], ``pool`` {element: n}, ``oinks``
{seat: {element: n}} (only the seats this viewer may see, SK-7), ``oinks_total``,
``shrines`` {seat: [card]}, ``influence`` {seat: {points, groups: [{kind, points,
cards}]}}, ``out`` [card], ``last_settlement``, ``payment_proposal``, ``prompt``,
``ruling``, ``finished``, ``winners``, ``final`` (when over). A seat's view adds ``seat``,
``forbidden_units`` and ``max_bid``. A card is {serial, face, name, element, number}.
``referee_view`` adds every seat's Oinks, ``deck`` (serials, no order: C-2), ``places``,
``forbidden_units_by_seat`` and ``max_bid_by_seat``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.cards import CardFace
from companion.engine import (
    OUT,
    Event,
    JSONDict,
    Option,
    Rules,
    Setup,
    event_type,
    evolve,
    require,
    seat_zone,
)
from companion.errors import (
    BadSetup,
    CardNotAvailable,
    GameOver,
    IllegalPlay,
    MalformedEvent,
    OutOfTurn,
    UnknownCard,
)
from companion.games.shrine_influence import Split, best_split

DECK = "deck"
LOT = "lot"
STANDARD = "standard"


def shrine_of(seat: int) -> str:
    """The place of the cards a player has won (in front of them, face up)."""
    return f"shrine:{seat}"


@dataclass(frozen=True)
class ShrineState:
    """A Shrine table. Oinks are per seat per element in ``elements`` order."""

    players: tuple[str, ...]
    cards: Mapping[str, CardFace]  # every serial of the table (shared, never changed)
    elements: tuple[str, ...]
    element_names: Mapping[str, str]
    public_oinks: bool
    start_oinks: int
    phase: str  # "start" | "lot" | "bidding" | "payment" | "over"
    deck: frozenset[str]
    out: tuple[str, ...]
    shrines: tuple[tuple[str, ...], ...]
    lot: tuple[str, ...]
    draws: Mapping[int, str]  # SK-2: this round's start draws, seat -> serial
    contenders: tuple[int, ...]
    draw_round: int
    starter: int
    cycle: int
    cycle_first: int
    lot_size: int
    zero_bids: int  # SK-8: zero bids in this auction = extra cards in the next lot
    standing: int
    high: int
    turn: int
    passed: frozenset[int]
    bids: tuple[tuple[int, int], ...]
    oinks: tuple[tuple[int, ...], ...]
    pool: tuple[int, ...]
    tally: Mapping[str, int]  # counters for stats
    last: Mapping[str, Any]  # the latest settlement, for the view
    ruling: str
    finished: bool = False
    winners: tuple[int, ...] = ()

    @property
    def seats(self) -> range:
        return range(1, len(self.players) + 1)

    def name(self, seat: int) -> str:
        return self.players[seat - 1]


class ShrineRules(Rules[ShrineState]):
    """The rules of Shrine of the Elemental Kings as the companion referees them."""

    id = "shrine"
    title = "Shrine of the Elemental Kings"
    min_players = 2
    max_players = 6
    options = (
        Option("start_oinks", 10, "SK-1", "Oinks of each element every player starts with",
               minimum=1, maximum=99),
        Option("oinks_visibility", "hidden", "SK-7",
               "whether players see each other's Oinks (the referee always does)",
               choices=("hidden", "public")),
    )
    zones = ("seat:<n>", LOT)

    # ------------------------------------------------------------------ start

    def start(self, setup: Setup) -> ShrineState:
        elements = tuple(str(e) for e in setup.deck.attrs.get("elements", ()))
        if not elements:
            raise BadSetup("the Shrine deck data names no elements")
        names = setup.deck.attrs.get("element_names", {})
        element_names = {e: str(names.get(e, e.title())) for e in elements}
        in_play, out = _sort_sets(setup)
        for serial in in_play:
            face = setup.cards[serial]
            if face.element not in elements or not isinstance(face.number, int):
                raise BadSetup(f"card {serial!r} ({face.id}) has no element and face value")
        if len(in_play) < len(setup.players):
            raise BadSetup(f"the deck holds {len(in_play)} cards; {len(setup.players)} "
                           "players need at least one each to decide who starts")
        n = len(setup.players)
        start_oinks = int(setup.options.get("start_oinks", 10))
        state = ShrineState(
            players=tuple(setup.players),
            cards=setup.cards,
            elements=elements,
            element_names=element_names,
            public_oinks=setup.options.get("oinks_visibility", "hidden") == "public",
            start_oinks=start_oinks,
            phase="start",
            deck=frozenset(in_play),
            out=tuple(sorted(out)),
            shrines=((),) * n,
            lot=(),
            draws={},
            contenders=tuple(range(1, n + 1)),
            draw_round=1,
            starter=0,
            cycle=0,
            cycle_first=0,
            lot_size=0,
            zero_bids=0,
            standing=0,
            high=0,
            turn=0,
            passed=frozenset(),
            bids=(),
            oinks=((start_oinks,) * len(elements),) * n,
            pool=(0,) * len(elements),
            tally={},
            last={},
            ruling="Everyone draws a card from the shuffled deck and shows it: the highest "
                   "face value starts (SK-2).",
        )
        return state

    # ------------------------------------------------------------------ apply

    def apply(self, state: ShrineState, event: Event) -> ShrineState:
        kind = event_type(event)
        handlers = {"scan": self._scan, "bid": self._bid, "pass": self._pass, "pay": self._pay}
        handler = handlers.get(kind)
        if handler is None:
            raise MalformedEvent(
                f"{self.title} has no event type {kind!r}; it has {', '.join(handlers)}"
            )
        if state.finished:
            raise GameOver(f"the game is over; {kind!r} is not accepted", rule="SK-9")
        return handler(state, event)

    def _seat(self, state: ShrineState, event: Event) -> int:
        seat = require(event, "seat", int)
        if seat not in state.seats:
            raise MalformedEvent(f"there is no seat {seat!r} at this table")
        return int(seat)

    def _scan(self, state: ShrineState, event: Event) -> ShrineState:
        serial = require(event, "card", str)
        override = event.get("override", False)
        if not isinstance(override, bool):
            raise MalformedEvent(f"event field 'override' must be true or false, got {override!r}")
        if serial not in state.cards:
            raise UnknownCard(f"card {serial!r} is not one of this table's cards")
        zone = event.get("zone")
        if zone is None:
            if state.phase == "lot":
                zone = LOT
            elif state.phase == "start" and "seat" in event:
                zone = f"seat:{self._seat(state, event)}"
            else:
                raise MalformedEvent(f"event {dict(event)!r} lacks 'zone'")
        if not isinstance(zone, str):
            raise MalformedEvent(f"event field 'zone' must be str, got {zone!r}")
        if state.phase == "start":
            return self._start_draw(state, serial, zone, override, event.get("seat"))
        if state.phase == "lot":
            return self._lot_draw(state, serial, zone, override)
        raise IllegalPlay(
            f"no card is drawn now ({_card_name(state, serial)} {serial!r} to {zone!r}): "
            f"{_prompt(state)}", rule="SK-3",
        )

    def _take(self, state: ShrineState, serial: str, override: bool, target: str) -> ShrineState:
        """``state`` with ``serial`` taken out of its place (the deck, or any place on
        override); raises ``CardNotAvailable`` (C-1)."""
        where = _place(state, serial)
        if where == target:
            raise CardNotAvailable(
                f"{_card_name(state, serial)} {serial!r} is already {_describe(state, where)}",
                rule="C-1",
            )
        if where == DECK:
            return evolve(state, deck=state.deck - {serial})
        if not override:
            raise CardNotAvailable(
                f"{_card_name(state, serial)} {serial!r} is {_describe(state, where)}, not in "
                "the deck; show a card from the deck (the referee can override)", rule="C-1",
            )
        if where == OUT:
            return evolve(state, out=tuple(c for c in state.out if c != serial))
        if where == LOT:
            return evolve(state, lot=tuple(c for c in state.lot if c != serial))
        if where.startswith("shrine:"):
            s = int(where[7:])
            shrines = list(state.shrines)
            shrines[s - 1] = tuple(c for c in shrines[s - 1] if c != serial)
            return evolve(state, shrines=tuple(shrines))
        s = int(where[5:])  # "seat:<n>": someone's start draw; they draw again
        draws = {k: v for k, v in state.draws.items() if k != s}
        return evolve(state, draws=draws)

    def _start_draw(self, state: ShrineState, serial: str, zone: str, override: bool,
                    by: Any) -> ShrineState:
        seat = seat_zone(zone, len(state.players))
        if seat is None:
            raise IllegalPlay(
                f"a start draw is shown in a seat zone ('seat:<n>'), not {zone!r}", rule="SK-2"
            )
        if by is not None and by != seat:
            raise OutOfTurn(f"seat {by!r} cannot show {state.name(seat)}'s start draw",
                            rule="SK-2")
        if seat not in state.contenders:
            tied = _names(state, state.contenders)
            raise IllegalPlay(f"{state.name(seat)} is not drawing now: only {tied} draw "
                              f"again (round {state.draw_round})", rule="SK-2")
        if seat in state.draws:
            raise IllegalPlay(
                f"{state.name(seat)} already drew {_card_name(state, state.draws[seat])} "
                f"this round; {serial!r} is not taken", rule="SK-2",
            )
        state = self._take(state, serial, override, zone)
        draws = {**state.draws, seat: serial}
        note = " (referee override)" if override else ""
        name = _card_name(state, serial)
        if len(draws) < len(state.contenders):
            waiting = _names(state, [s for s in state.contenders if s not in draws])
            return evolve(state, draws=draws,
                           ruling=f"{state.name(seat)} drew {name}{note}; waiting for {waiting}.")
        value = {s: _number(state, c) for s, c in draws.items()}
        top = max(value.values())
        leaders = tuple(s for s in state.contenders if value[s] == top)
        deck = state.deck | frozenset(draws.values())
        shown = ", ".join(f"{state.name(s)} {_card_name(state, c)}" for s, c in
                          sorted(draws.items()))
        tally = _count(state.tally, "start_rounds")
        if len(leaders) > 1:
            return evolve(
                state, deck=deck, draws={}, contenders=leaders,
                draw_round=state.draw_round + 1, tally=tally,
                ruling=f"Drawn: {shown}{note}. {_names(state, leaders)} tie at {top} and draw "
                       "again; put the drawn cards at the bottom of the deck (SK-2).",
            )
        starter = leaders[0]
        state = evolve(state, deck=deck, draws={}, contenders=(), starter=starter,
                        tally=tally)
        state = self._new_cycle(state, starter, extra=0)
        return evolve(
            state,
            ruling=f"Drawn: {shown}{note}. {state.name(starter)} drew the highest ({top}) and "
                   "starts; turns go clockwise. Put the drawn cards at the bottom of the deck "
                   f"(SK-2). {state.ruling}",
        )

    def _new_cycle(self, state: ShrineState, first: int, extra: int) -> ShrineState:
        """Open the next cycle (SK-3), or end the game when the deck is empty (SK-9)."""
        if not state.deck:
            return self._finish(state)
        size = min(1 + extra, len(state.deck))
        cards = "one card" if size == 1 else f"{size} cards (a set, SK-8)"
        return evolve(
            state, phase="lot", cycle=state.cycle + 1, cycle_first=first, lot_size=size,
            lot=(), zero_bids=0, standing=0, high=0, turn=0, passed=frozenset(), bids=(),
            ruling=f"Cycle {state.cycle + 1}: draw {cards} from the deck for the lot.",
        )

    def _lot_draw(self, state: ShrineState, serial: str, zone: str,
                  override: bool) -> ShrineState:
        if zone != LOT:
            raise IllegalPlay(f"the lot's cards are shown in the 'lot' zone, not {zone!r}",
                              rule="SK-3")
        state = self._take(state, serial, override, LOT)
        lot = (*state.lot, serial)
        note = " (referee override)" if override else ""
        if len(lot) < state.lot_size:
            return evolve(state, lot=lot, ruling=f"Lot card {_card_name(state, serial)}{note}; "
                           f"draw {state.lot_size - len(lot)} more.")
        first = state.cycle_first
        state = evolve(state, lot=lot, phase="bidding", turn=first)
        return evolve(
            state,
            ruling=f"The lot is {_lot_text(state)}{note}. {state.name(first)} bids first, in "
                   f"{_element_text(state, _lot_elements(state))} Oinks (SK-3).",
        )

    def _bidder(self, state: ShrineState, event: Event, what: str) -> int:
        seat = self._seat(state, event)
        if state.phase != "bidding":
            raise IllegalPlay(f"{state.name(seat)} cannot {what} now: {_prompt(state)}",
                              rule="SK-3")
        if seat in state.passed:
            raise IllegalPlay(
                f"{state.name(seat)} passed and is out of this auction; cannot {what}",
                rule="SK-3",
            )
        if seat != state.turn:
            raise OutOfTurn(
                f"it is {state.name(state.turn)}'s turn in this auction, not "
                f"{state.name(seat)}'s", rule="SK-3",
            )
        return seat

    def _bid(self, state: ShrineState, event: Event) -> ShrineState:
        seat = self._bidder(state, event, "bid")
        amount = require(event, "amount", int)
        refusal = bid_refusal(state, seat, amount)
        if refusal:
            raise IllegalPlay(refusal, rule="SK-4")
        zero = amount % 10 == 0
        tally = _count(state.tally, "bids")
        if zero:
            tally = _count(tally, "zero_bids")
        state = evolve(
            state, standing=amount, high=seat, bids=(*state.bids, (seat, amount)),
            zero_bids=state.zero_bids + (1 if zero else 0), tally=tally,
        )
        said = f"{state.name(seat)} bids {amount}."
        if zero and len(state.deck) > 0:
            said += " A bid ending in 0: one more card joins the next lot (SK-8)."
        active = [s for s in state.seats if s not in state.passed and s != seat]
        if not active:
            return self._won(state, said)
        nxt = _next_active(state, seat)
        return evolve(state, turn=nxt, ruling=f"{said} {state.name(nxt)}: bid more than "
                       f"{amount} or pass.")

    def _pass(self, state: ShrineState, event: Event) -> ShrineState:
        seat = self._bidder(state, event, "pass")
        passed = state.passed | {seat}
        state = evolve(state, passed=passed, tally=_count(state.tally, "passes"))
        said = f"{state.name(seat)} passes and is out of this auction."
        if state.high and all(s in passed for s in state.seats if s != state.high):
            return self._won(state, said)
        if len(passed) == len(state.players):
            aside = _lot_text(state)
            out = (*state.out, *state.lot)
            tally = _count(_count(state.tally, "auctions"), "set_aside")
            state = evolve(state, out=out, lot=(), tally=tally,
                            last={"cycle": state.cycle, "set_aside": list(state.lot)})
            state = self._new_cycle(state, _clockwise(state, state.cycle_first), extra=0)
            return evolve(state, ruling=f"{said} Everyone passed without a bid: {aside} is "
                           f"set aside, out of the game (SK-3). {state.ruling}")
        nxt = _next_active(state, seat)
        need = f"more than {state.standing}" if state.high else "at least 1"
        return evolve(state, turn=nxt,
                       ruling=f"{said} {state.name(nxt)}: bid {need} or pass.")

    def _won(self, state: ShrineState, said: str) -> ShrineState:
        """One bidder remains (SK-3): pay now if the mix is forced, else wait for ``pay``."""
        winner = state.high
        low, high = payment_bounds(state)
        if low == high:
            return self._settle(state, dict(zip(_lot_elements(state), low, strict=True)), said)
        # The proposal follows the winner's holdings, so it is shown on their phone and the
        # referee's view only (SK-7), not in the public ruling.
        return evolve(
            state, phase="payment", turn=winner,
            ruling=f"{said} {state.name(winner)} wins {_lot_text(state)} for {state.standing} "
                   f"Oinks, paid in any mix of {_element_text(state, _lot_elements(state))} "
                   "(SK-5).",
        )

    def _pay(self, state: ShrineState, event: Event) -> ShrineState:
        seat = self._seat(state, event)
        if state.phase != "payment":
            raise IllegalPlay(f"nothing is to be paid now: {_prompt(state)}", rule="SK-5")
        if seat != state.high:
            raise OutOfTurn(
                f"{state.name(state.high)} won the set and pays, not {state.name(seat)}",
                rule="SK-5",
            )
        mix = self._mix(state, event)
        return self._settle(state, mix, f"{state.name(seat)} won the auction.")

    def _mix(self, state: ShrineState, event: Event) -> dict[str, int]:
        lot_elements = _lot_elements(state)
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
        mix: dict[str, int] = dict.fromkeys(lot_elements, 0)
        holdings = dict(zip(state.elements, state.oinks[state.high - 1], strict=True))
        for e, n in given.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise MalformedEvent(f"Oinks of {e!r} must be a whole number >= 0, got {n!r}")
            if e not in lot_elements:
                if n == 0:
                    continue
                raise IllegalPlay(
                    f"the lot is {_element_text(state, lot_elements)}: pay in those elements, "
                    f"not {n} {e!r}", rule="SK-5",
                )
            if n > holdings[e]:
                raise IllegalPlay(
                    f"{state.name(state.high)} holds {holdings[e]} "
                    f"{state.element_names[e]} Oinks, cannot pay {n}", rule="SK-5",
                )
            mix[e] = n
        if sum(mix.values()) != state.standing:
            raise IllegalPlay(
                f"the mix {given!r} adds up to {sum(mix.values())}, the winning bid is "
                f"{state.standing}", rule="SK-5",
            )
        return mix

    def _settle(self, state: ShrineState, mix: Mapping[str, int], said: str) -> ShrineState:
        """Pay (SK-5), distribute with the pool (SK-6), hand over the lot, next cycle."""
        winner, bid = state.high, state.standing
        oinks = [list(row) for row in state.oinks]
        pool = list(state.pool)
        for i, e in enumerate(state.elements):
            oinks[winner - 1][i] -= mix.get(e, 0)
        sharers, reason = distribution_sharers(state, winner, bid)
        k = len(sharers)
        got: dict[int, dict[str, int]] = {s: {} for s in sharers}
        for i, e in enumerate(state.elements):
            amount = mix.get(e, 0) + pool[i]
            share, rest = divmod(amount, k)
            for s in sharers:
                oinks[s - 1][i] += share
                if share:
                    got[s][e] = share
            pool[i] = rest
        shrines = list(state.shrines)
        shrines[winner - 1] = (*shrines[winner - 1], *state.lot)
        won = _lot_text(state)
        them = "them" if len(state.lot) > 1 else "it"
        paid = ", ".join(f"{n} {state.element_names[e]}" for e, n in mix.items() if n)
        oink = "Oink" if bid == 1 else "Oinks"
        price = f"{paid} {oink}" if len(mix) == 1 else f"{bid} {oink} ({paid})"
        if any(got[s] for s in sharers):
            shares = "; ".join(
                f"{state.name(s)} gets " + (", ".join(f"{n} {state.element_names[e]}"
                                                      for e, n in got[s].items()) or "nothing")
                for s in sharers
            ) + "."
        else:
            shares = "Too few Oinks to share: they wait in the pool."
        left = ", ".join(f"{n} {state.element_names[e]}"
                         for e, n in zip(state.elements, pool, strict=True) if n) or "empty"
        last = {
            "cycle": state.cycle,
            "winner": winner,
            "cards": list(state.lot),
            "bid": bid,
            "paid": {e: n for e, n in mix.items() if n},
            "sharers": list(sharers),
            "shares": {str(s): got[s] for s in sharers},
            "reason": reason,
        }
        tally = _count(_count(state.tally, "auctions"), "won")
        tally = _count(tally, "cards_won", len(state.lot))
        tally = _count(tally, "oinks_bid", bid)
        state = evolve(
            state, oinks=tuple(tuple(r) for r in oinks), pool=tuple(pool),
            shrines=tuple(shrines), lot=(), last=last, tally=tally, passed=frozenset(),
        )
        extra = state.zero_bids
        state = self._new_cycle(state, _clockwise(state, state.cycle_first), extra)
        return evolve(
            state,
            ruling=f"{said} {state.name(winner)} wins {won} for {price} and puts "
                   f"{them} in their shrine. {reason} "
                   f"{shares} Pool: {left} (SK-6). {state.ruling}",
        )

    def _finish(self, state: ShrineState) -> ShrineState:
        """The deck cannot supply a lot (SK-9): influence decides (SK-10)."""
        scores = {s: influence(state, s).points for s in state.seats}
        totals = {s: sum(state.oinks[s - 1]) for s in state.seats}
        best = max((scores[s], totals[s]) for s in state.seats)
        winners = tuple(s for s in state.seats if (scores[s], totals[s]) == best)
        top = [s for s in state.seats if scores[s] == best[0]]
        table = ", ".join(f"{state.name(s)} {scores[s]}" for s in state.seats)
        if len(winners) == 1 and len(top) == 1:
            verdict = f"{state.name(winners[0])} wins with {best[0]} influence"
        elif len(winners) == 1:
            verdict = (f"{_names(state, top)} tie at {best[0]} influence; "
                       f"{state.name(winners[0])} has the most Oinks ({best[1]}) and wins")
        else:
            verdict = (f"{_names(state, winners)} tie at {best[0]} influence and "
                       f"{best[1]} Oinks and share the win")
        return evolve(
            state, phase="over", finished=True, winners=winners, lot=(), lot_size=0, turn=0,
            ruling=f"The deck is empty: the game ends (SK-9). Influence: {table}. {verdict} "
                   "(SK-10).",
        )

    # ------------------------------------------------------------------ chance, random

    def random_play(self, state: ShrineState, rng: random.Random) -> Event | None:
        if state.finished:
            return None
        if state.phase in ("start", "lot"):
            card = rng.choice(sorted(state.deck))
            if state.phase == "lot":
                return {"type": "scan", "card": card, "zone": LOT}
            seat = rng.choice([s for s in state.contenders if s not in state.draws])
            return {"type": "scan", "card": card, "zone": f"seat:{seat}"}
        if state.phase == "payment":
            if rng.random() < 0.5:
                return {"type": "pay", "seat": state.high}
            low, high = payment_bounds(state)
            elements = _lot_elements(state)
            mix = list(low)
            room = [h - lo for h, lo in zip(high, low, strict=True)]
            for _ in range(state.standing - sum(mix)):
                i = rng.choice([j for j, r in enumerate(room) if r > 0])
                mix[i] += 1
                room[i] -= 1
            return {"type": "pay", "seat": state.high, "oinks": dict(zip(elements, mix,
                                                                        strict=True))}
        seat = state.turn
        legal = legal_bids(state, seat)
        if not legal or rng.random() < (0.35 if state.high else 0.15):
            return {"type": "pass", "seat": seat}
        amount = rng.choice(legal[:4]) if rng.random() < 0.9 else rng.choice(legal)
        return {"type": "bid", "seat": seat, "amount": amount}

    # ------------------------------------------------------------------ actions, views

    def actions(self, state: ShrineState, seat: int | None) -> list[JSONDict]:
        if state.finished:
            return []
        out: list[JSONDict] = []
        if state.phase == "start":
            for s in state.contenders:
                if s in state.draws or seat not in (None, s):
                    continue
                out.append({
                    "type": "scan", "label": f"{state.name(s)}: show a card drawn from the deck",
                    "seat": s, "rule": "SK-2",
                    "fields": [{"name": "card", "label": "Card drawn", "kind": "card",
                                "zone": f"seat:{s}"}],
                })
        elif state.phase == "lot":
            if seat in (None, state.cycle_first):
                out.append({
                    "type": "scan", "label": f"Draw lot card {len(state.lot) + 1} of "
                    f"{state.lot_size}", "seat": state.cycle_first, "rule": "SK-3",
                    "fields": [{"name": "card", "label": "Lot card", "kind": "card",
                                "zone": LOT}],
                })
        elif state.phase == "bidding" and seat in (None, state.turn):
            s = state.turn
            legal = legal_bids(state, s)
            if legal:
                out.append({
                    "type": "bid", "label": f"{state.name(s)}: bid", "seat": s, "rule": "SK-4",
                    "fields": [{
                        "name": "amount", "label": "Oinks", "kind": "int",
                        "min": legal[0], "max": legal[-1],
                        "forbidden_units": forbidden_units(state, s),
                    }],
                })
            out.append({"type": "pass", "label": f"{state.name(s)}: pass", "seat": s,
                        "rule": "SK-3", "fields": []})
        elif state.phase == "payment" and seat in (None, state.high):
            s = state.high
            proposal = propose_payment(state)
            low, high = payment_bounds(state)
            out.append({"type": "pay", "label": "Pay as proposed: " + ", ".join(
                f"{n} {state.element_names[e]}" for e, n in proposal.items() if n),
                "seat": s, "rule": "SK-5", "fields": []})
            out.append({
                "type": "pay", "label": f"Pay {state.standing} Oinks in this mix", "seat": s,
                "rule": "SK-5",
                "fields": [{"name": e, "label": f"{state.element_names[e]} Oinks", "kind": "int",
                            "min": lo, "max": hi, "default": proposal[e]}
                           for e, lo, hi in zip(_lot_elements(state), low, high, strict=True)],
            })
        return out

    def view(self, state: ShrineState, seat: int | None) -> JSONDict:
        visible = [s for s in state.seats
                   if state.public_oinks or state.finished or s == seat]
        v = self._public(state, visible)
        if seat is not None:
            if seat not in state.seats:
                raise MalformedEvent(f"there is no seat {seat!r} at this table")
            v["seat"] = seat
            v["forbidden_units"] = forbidden_units(state, seat)
            v["max_bid"] = capacity(state, seat) if state.phase == "bidding" else None
        return v

    def referee_view(self, state: ShrineState) -> JSONDict:
        v = self._public(state, list(state.seats))
        v["deck"] = sorted(state.deck)
        v["places"] = dict(sorted(self.places(state).items()))
        v["forbidden_units_by_seat"] = {str(s): forbidden_units(state, s) for s in state.seats}
        v["max_bid_by_seat"] = ({str(s): capacity(state, s) for s in state.seats}
                        if state.phase == "bidding" else None)
        return v

    def _public(self, state: ShrineState, visible: list[int]) -> JSONDict:
        infl = {str(s): _influence_json(state, s) for s in state.seats}
        v: JSONDict = {
            "game": self.id,
            "phase": state.phase,
            "players": [{"seat": s, "name": state.name(s)} for s in state.seats],
            "oinks_visibility": "public" if state.public_oinks else "hidden",
            "start": {
                "round": state.draw_round,
                "contenders": list(state.contenders),
                "draws": {str(s): _card_json(state, c) for s, c in sorted(state.draws.items())},
            },
            "starter": state.starter or None,
            "cycle": state.cycle,
            "cycle_first": state.cycle_first or None,
            "deck_count": len(state.deck),
            "lot": [_card_json(state, c) for c in state.lot],
            "lot_size": state.lot_size,
            "lot_elements": _lot_elements(state),
            "next_lot_size": 1 + state.zero_bids,
            "standing_bid": state.standing,
            "high_bidder": state.high or None,
            "turn": state.turn or None,
            "passed": sorted(state.passed),
            "bids": [{"seat": s, "amount": a} for s, a in state.bids],
            "pool": dict(zip(state.elements, state.pool, strict=True)),
            "oinks": {str(s): dict(zip(state.elements, state.oinks[s - 1], strict=True))
                      for s in visible},
            "oinks_total": {str(s): sum(state.oinks[s - 1]) for s in visible},
            "shrines": {str(s): [_card_json(state, c) for c in state.shrines[s - 1]]
                        for s in state.seats},
            "influence": infl,
            "out": [_card_json(state, c) for c in state.out],
            "last_settlement": dict(state.last),
            "payment_proposal": (propose_payment(state)
                                 if state.phase == "payment" and state.high in visible
                                 else None),
            "prompt": _prompt(state),
            "ruling": state.ruling,
            "finished": state.finished,
            "winners": list(state.winners),
        }
        if state.finished:
            v["final"] = [{"seat": s, "name": state.name(s), "influence": infl[str(s)]["points"],
                           "oinks": sum(state.oinks[s - 1])} for s in state.seats]
        return v

    def places(self, state: ShrineState) -> Mapping[str, str]:
        where: dict[str, str] = dict.fromkeys(state.deck, DECK)
        where.update(dict.fromkeys(state.out, OUT))
        where.update(dict.fromkeys(state.lot, LOT))
        for s, serial in state.draws.items():
            where[serial] = f"seat:{s}"
        for s in state.seats:
            where.update(dict.fromkeys(state.shrines[s - 1], shrine_of(s)))
        return where

    def stats(self, state: ShrineState) -> dict[str, float]:
        t = state.tally
        out = {
            # Adjudications: every bid and pass ruled on, plus every auction settled.
            "adjudications": float(t.get("bids", 0) + t.get("passes", 0) + t.get("auctions", 0)),
            "bids": float(t.get("bids", 0)),
            "passes": float(t.get("passes", 0)),
            "auctions": float(t.get("auctions", 0)),
            "auctions_won": float(t.get("won", 0)),
            "lots_set_aside": float(t.get("set_aside", 0)),
            "zero_bids": float(t.get("zero_bids", 0)),
            "cards_won": float(t.get("cards_won", 0)),
            "oinks_bid": float(t.get("oinks_bid", 0)),
            "start_rounds": float(t.get("start_rounds", 0)),
            "pool_left": float(sum(state.pool)),
        }
        if state.finished:
            out["winning_influence"] = float(max(influence(state, s).points
                                                 for s in state.seats))
        return out


# ---------------------------------------------------------------------- rule helpers


def capacity(state: ShrineState, seat: int) -> int:
    """Oinks ``seat`` holds in the lot's element(s): the most it may bid (SK-4)."""
    elements = set(_lot_elements(state))
    return sum(n for e, n in zip(state.elements, state.oinks[seat - 1], strict=True)
               if e in elements)


def forbidden_units(state: ShrineState, seat: int) -> list[int]:
    """Unit digits ``seat`` may not bid: face values of the cards it holds (SK-4)."""
    return sorted({_number(state, c) for c in state.shrines[seat - 1]} - {0})


def bid_refusal(state: ShrineState, seat: int, amount: int) -> str | None:
    """Why ``amount`` is not a legal bid for ``seat`` now (SK-4), or ``None``."""
    name = state.name(seat)
    if amount < 1:
        return f"a bid is a whole number of at least 1 Oink; {amount!r} is not"
    if amount <= state.standing:
        return (f"{name}'s bid {amount!r} must be more than the standing bid of "
                f"{state.standing}")
    cap = capacity(state, seat)
    if amount > cap:
        return (f"{name} holds {cap} {_element_text(state, _lot_elements(state))} Oinks "
                f"and cannot bid {amount!r}")
    unit = amount % 10
    if unit:
        for c in state.shrines[seat - 1]:
            if _number(state, c) == unit:
                return (f"{name} holds {_card_name(state, c)}: a bid ending in {unit} "
                        f"({amount!r}) is not allowed")
    return None


def legal_bids(state: ShrineState, seat: int) -> list[int]:
    """Every legal bid of ``seat`` now, lowest first (SK-4)."""
    banned = set(forbidden_units(state, seat))
    return [a for a in range(state.standing + 1, capacity(state, seat) + 1)
            if a % 10 not in banned]


def payment_bounds(state: ShrineState) -> tuple[list[int], list[int]]:
    """Least and most of each lot element the winner can pay in a legal mix (SK-5)."""
    elements = _lot_elements(state)
    held = dict(zip(state.elements, state.oinks[state.high - 1], strict=True))
    cap = sum(held[e] for e in elements)
    bid = state.standing
    low = [max(0, bid - (cap - held[e])) for e in elements]
    high = [min(held[e], bid) for e in elements]
    return low, high


def propose_payment(state: ShrineState) -> dict[str, int]:
    """The companion's proposed mix for the winning bid (SK-5): one Oink at a time from
    the lot element the winner holds most of, so the winner keeps an even spread."""
    elements = _lot_elements(state)
    left = dict(zip(state.elements, state.oinks[state.high - 1], strict=True))
    pay = dict.fromkeys(elements, 0)
    for _ in range(state.standing):
        e = max(elements, key=lambda x: left[x])
        pay[e] += 1
        left[e] -= 1
    return pay


def distribution_sharers(state: ShrineState, winner: int, bid: int) -> tuple[list[int], str]:
    """Who shares the winner's payment (SK-6), and why, in words."""
    recipients = [s for s in state.seats if s != winner]
    unit = bid % 10
    if unit:
        held = {s: sum(1 for c in state.shrines[s - 1] if _number(state, c) == unit)
                for s in recipients}
        most = max(held.values())
        if most:
            sharers = [s for s in recipients if held[s] == most]
            cards = "card" if most == 1 else "cards"
            if len(sharers) == 1:
                why = (f"The bid ends in {unit} and {state.name(sharers[0])} holds the most "
                       f"{unit}s ({most} {cards}): they take it all.")
            else:
                why = (f"The bid ends in {unit} and {_names(state, sharers)} hold the most "
                       f"{unit}s ({most} {cards} each): they share it.")
            return sharers, why
    return recipients, "The other players share it equally."


def influence(state: ShrineState, seat: int) -> Split:
    """The best split of ``seat``'s cards into groups (SK-10)."""
    return best_split((str(state.cards[c].element), _number(state, c))
                      for c in state.shrines[seat - 1])


# ---------------------------------------------------------------------- small helpers


def _sort_sets(setup: Setup) -> tuple[list[str], list[str]]:
    """Serials of the one standard deck in play, and those of further printed sets (out)."""
    standard = [s for s, f in setup.cards.items() if f.deck == STANDARD]
    others = [s for s, f in setup.cards.items() if f.deck != STANDARD]
    keys = sorted({setup.sets.get(s, 0) for s in standard})
    first = keys[0] if keys else 0
    in_play = sorted(s for s in standard if setup.sets.get(s, 0) == first)
    out = [s for s in standard if setup.sets.get(s, 0) != first] + others
    return in_play, out


def _place(state: ShrineState, serial: str) -> str:
    if serial in state.deck:
        return DECK
    if serial in state.lot:
        return LOT
    for s, c in state.draws.items():
        if c == serial:
            return f"seat:{s}"
    for s in state.seats:
        if serial in state.shrines[s - 1]:
            return shrine_of(s)
    return OUT


def _describe(state: ShrineState, where: str) -> str:
    if where == LOT:
        return "in the lot"
    if where == OUT:
        return "out of the game"
    if where.startswith("shrine:"):
        return f"in {state.name(int(where[7:]))}'s shrine"
    if where.startswith("seat:"):
        return f"{state.name(int(where[5:]))}'s start draw"
    return "in the deck"


def _number(state: ShrineState, serial: str) -> int:
    return int(state.cards[serial].number or 0)


def _card_name(state: ShrineState, serial: str) -> str:
    return state.cards[serial].name


def _card_json(state: ShrineState, serial: str) -> JSONDict:
    f = state.cards[serial]
    return {"serial": serial, "face": f.id, "name": f.name, "element": f.element,
            "number": f.number}


def _influence_json(state: ShrineState, seat: int) -> JSONDict:
    split = influence(state, seat)
    serials: dict[tuple[str, int], list[str]] = {}
    for c in state.shrines[seat - 1]:
        serials.setdefault((str(state.cards[c].element), _number(state, c)), []).append(c)
    groups = []
    for g in split.groups:
        cards = [_card_json(state, serials[card].pop(0)) for card in g.cards]
        groups.append({"kind": g.kind, "points": g.points, "cards": cards})
    return {"points": split.points, "groups": groups}


def _lot_elements(state: ShrineState) -> list[str]:
    present = {state.cards[c].element for c in state.lot}
    return [e for e in state.elements if e in present]


def _lot_text(state: ShrineState) -> str:
    names = [_card_name(state, c) for c in state.lot]
    if len(names) == 1:
        return names[0]
    return "the set " + " + ".join(names)


def _element_text(state: ShrineState, elements: list[str]) -> str:
    names = [state.element_names[e] for e in elements]
    return " or ".join(names) if names else "no"


def _names(state: ShrineState, seats: Any) -> str:
    names = [state.name(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _clockwise(state: ShrineState, seat: int) -> int:
    return seat % len(state.players) + 1


def _next_active(state: ShrineState, seat: int) -> int:
    s = _clockwise(state, seat)
    while s in state.passed:
        s = _clockwise(state, s)
    return s


def _count(tally: Mapping[str, int], key: str, by: int = 1) -> dict[str, int]:
    return {**tally, key: tally.get(key, 0) + by}


def _prompt(state: ShrineState) -> str:
    if state.phase == "start":
        waiting = [s for s in state.contenders if s not in state.draws]
        again = " again (tie)" if state.draw_round > 1 else ""
        return (f"{_names(state, waiting)}: draw a card from the deck{again} and show it; the "
                "highest face value starts (SK-2).")
    if state.phase == "lot":
        more = state.lot_size - len(state.lot)
        what = "the lot card" if state.lot_size == 1 else f"{more} more lot card(s)"
        return f"Draw {what} from the deck and show it in the lot zone (SK-3)."
    if state.phase == "bidding":
        need = f"more than {state.standing}" if state.high else "at least 1"
        return (f"{state.name(state.turn)}: bid {need} "
                f"{_element_text(state, _lot_elements(state))} Oinks for {_lot_text(state)}, "
                "or pass (SK-3, SK-4).")
    if state.phase == "payment":
        return (f"{state.name(state.high)}: pay {state.standing} Oinks in any mix of "
                f"{_element_text(state, _lot_elements(state))} (SK-5).")
    winners = _names(state, state.winners) if state.winners else "nobody"
    verb = "wins" if len(state.winners) == 1 else "share the win"
    return f"Game over: {winners} {verb} (SK-10)."


RULES = ShrineRules()
