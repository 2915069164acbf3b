"""Shrine of the Elemental Kings (seed 002): the ``Rules`` object, options and events.

Phases: ``start`` (SK-2: everyone draws a card, highest starts, ties redraw) -> for every
cycle ``lot`` (SK-3: the lot's cards are drawn and scanned) -> ``bidding`` (SK-3, SK-4) ->
``payment`` (SK-5, only when a set of several elements leaves the winner a choice) -> next
cycle ... -> ``over`` (SK-9, SK-10).

Events (JSON objects; ``seat`` is the sender, set by the web from the seat's token, C-7):

- ``{"type": "scan", "card": SERIAL|FACE, "zone": ZONE, "seat"?: n, "override"?: bool}``:
  a card drawn from the deck. In ``start`` the zone is ``"seat:<n>"`` (that player's start
  draw, SK-2); in ``lot`` it is ``"lot"`` (SK-3). ``zone`` may be left out when the phase
  settles it. A face id (``fire-8``) names the copy in the deck (C-1). A card that is not
  in the deck, or a start draw put at the bottom while cards lie above it (SK-2 rev. 2), is
  refused unless ``"override": true`` (the referee). A seat shows a start draw only in its
  own zone and a lot card only when it opens the cycle (C-7).
- ``{"type": "bid", "seat": n, "amount": int}``: a bid (SK-4), on the seat's turn.
- ``{"type": "pass", "seat": n}``: the seat is out of this auction (SK-3).
- ``{"type": "pay", "seat": n, "oinks"?: {ELEMENT: int}}`` or with top-level element keys
  (``"fire": 3, "air": 5``): the winner's mix of Oinks for a set (SK-5). Without a mix
  the companion's proposal is paid.

Views, actions and the words are in ``view.py``; the decisions in ``adjudicate.py``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from companion.cards import load_deck
from companion.engine import (
    OUT,
    Event,
    JSONDict,
    Movement,
    Option,
    Play,
    Rules,
    Setup,
    card_ref,
    event_type,
    evolve,
    require,
)
from companion.errors import (
    CardNotAvailable,
    GameOver,
    IllegalPlay,
    MalformedEvent,
    OutOfTurn,
    UnknownCard,
)
from companion.games.shrine import view as words
from companion.games.shrine.adjudicate import (
    bid_refusal,
    buried_refusal,
    distribution_sharers,
    divide,
    influence,
    legal_bids,
    payment_bounds,
    payment_mix,
    settlement_play,
    sharers_reason,
    standings,
    start_round,
)
from companion.games.shrine.state import (
    DECK,
    LOT,
    ShrineState,
    above_bottom,
    all_places,
    card_name,
    clockwise,
    count_up,
    element_text,
    first_state,
    lot_elements,
    lot_text,
    next_active,
    place_of,
    seat_names,
)
from companion.zones import parse_zone

ELEMENTS: tuple[str, ...] = tuple(str(e) for e in load_deck("shrine").attrs["elements"])


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
    event_fields: ClassVar[Mapping[str, frozenset[str]]] = {
        "scan": frozenset({"card", "zone", "seat", "override"}),
        "bid": frozenset({"seat", "amount"}),
        "pass": frozenset({"seat"}),
        "pay": frozenset({"seat", "oinks", *ELEMENTS}),
    }

    def start(self, setup: Setup) -> ShrineState:
        return first_state(setup)

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

    def _serial(self, state: ShrineState, text: str) -> str:
        """The serial ``text`` names: a serial, a QR payload, or a face id (the copy in the
        deck, one above the start draws at the bottom first: C-1); raises ``UnknownCard``."""
        ref = card_ref(state.cards, text)
        if ref in state.cards:
            return str(ref)
        face = str(ref).strip().lower()
        copies = sorted(s for s, f in state.cards.items() if f.id == face)
        if not copies:
            raise UnknownCard(f"card {text!r} is not one of this table's cards")
        for pool in (above_bottom(state), state.deck):
            for s in copies:
                if s in pool:
                    return s
        return copies[0]

    def _scan(self, state: ShrineState, event: Event) -> ShrineState:
        serial = self._serial(state, require(event, "card", str))
        override = event.get("override", False)
        if not isinstance(override, bool):
            raise MalformedEvent(f"event field 'override' must be true or false, got {override!r}")
        by = self._seat(state, event) if "seat" in event else None
        zone = event.get("zone")
        if zone is None:
            if state.phase == "lot":
                zone = LOT
            elif state.phase == "start" and by is not None:
                zone = f"seat:{by}"
            else:
                raise MalformedEvent(f"event {dict(event)!r} lacks 'zone'")
        z = parse_zone(zone, len(state.players))
        # C-7: a seat shows cards only in its own zone, and in the lot only when the rules
        # wait for it there; checked before anything about the card, so the answer is the
        # same whatever card is named.
        if by is not None:
            if z.seat is not None and z.seat != by:
                raise OutOfTurn(f"{state.name(by)} cannot show a card in {zone!r}, another "
                                "player's place", rule="SK-2")
            if z.kind == LOT and (state.phase != "lot" or by != state.cycle_first):
                raise OutOfTurn(f"{state.name(by)} cannot show a card in the lot now: "
                                f"{words.prompt(state)}", rule="C-7")
        if state.phase == "start":
            return self._start_draw(state, serial, z.kind, z.seat, override, by)
        if state.phase == "lot":
            return self._lot_draw(state, serial, str(z), override, by)
        raise IllegalPlay(
            f"{card_name(state, serial)} cannot be shown now, no card is drawn: "
            f"{words.prompt(state)}", rule="SK-3",
        )

    def _take(self, state: ShrineState, serial: str, override: bool,
              target: str) -> tuple[ShrineState, str]:
        """``state`` with ``serial`` taken out of its place (the top part of the deck, or any
        place on override), and that place; raises ``CardNotAvailable`` (C-1, SK-2)."""
        where = place_of(state, serial)
        if where == target:
            raise CardNotAvailable(
                f"{card_name(state, serial)} {serial!r} is already "
                f"{words.describe(state, where)}", rule="C-1",
            )
        if where == DECK:
            buried = buried_refusal(state, serial)
            if buried and not override:
                raise CardNotAvailable(buried, rule="SK-2")
            return evolve(state, deck=state.deck - {serial}, bottom=state.bottom - {serial}), where
        if not override:
            raise CardNotAvailable(
                f"{card_name(state, serial)} {serial!r} is {words.describe(state, where)}, "
                "not in the deck; show a card from the deck (the referee can override)",
                rule="C-1",
            )
        if where == OUT:
            return evolve(state, out=tuple(c for c in state.out if c != serial)), where
        if where == LOT:
            return evolve(state, lot=tuple(c for c in state.lot if c != serial)), where
        if where.startswith("shrine:"):
            s = int(where[7:])
            shrines = list(state.shrines)
            shrines[s - 1] = tuple(c for c in shrines[s - 1] if c != serial)
            return evolve(state, shrines=tuple(shrines)), where
        s = int(where[5:])  # "seat:<n>": someone's start draw; they draw again
        return evolve(state, draws={k: v for k, v in state.draws.items() if k != s}), where

    def _start_draw(self, state: ShrineState, serial: str, kind: str, seat: int | None,
                    override: bool, by: int | None) -> ShrineState:
        if kind != "seat" or seat is None:
            raise IllegalPlay(
                f"a start draw is shown in a seat zone ('seat:<n>'), not {kind!r}", rule="SK-2"
            )
        if seat not in state.contenders:
            tied = seat_names(state, state.contenders)
            raise IllegalPlay(f"{state.name(seat)} is not drawing now: only {tied} draw "
                              f"again (round {state.draw_round})", rule="SK-2")
        if seat in state.draws:
            raise IllegalPlay(
                f"{state.name(seat)} already drew {card_name(state, state.draws[seat])} "
                f"this round; {serial!r} is not taken", rule="SK-2",
            )
        zone = f"seat:{seat}"
        state, source = self._take(state, serial, override, zone)
        draws = {**state.draws, seat: serial}
        note = " (referee override)" if override else ""
        name = card_name(state, serial)
        moves: tuple[Movement, ...] = (Movement(source, zone, serial),)
        if len(draws) < len(state.contenders):
            waiting = seat_names(state, [s for s in state.contenders if s not in draws])
            play = Play("draw", "draw", "SK-2", by or seat, moves,
                        {"drawer": seat, "waiting": [s for s in state.contenders
                                                     if s not in draws]})
            return evolve(state, draws=draws, last_play=play,
                          ruling=f"{state.name(seat)} drew {name}{note}; waiting for {waiting}.")
        result = start_round(state, draws)
        # SK-2: the drawn cards go back to the bottom of the deck, known to lie there.
        back = tuple(Movement(f"seat:{s}", "bottom", c) for s, c in sorted(draws.items()))
        deck = state.deck | frozenset(draws.values())
        bottom = state.bottom | frozenset(draws.values())
        shown = ", ".join(f"{state.name(s)} {card_name(state, c)}" for s, c in
                          sorted(draws.items()))
        tally = count_up(state.tally, "start_rounds")
        facts = {"drawer": seat, "draws": {str(s): c for s, c in sorted(draws.items())},
                 "top": result.top, "leaders": list(result.leaders)}
        if result.starter is None:
            play = Play("draw", "tie", "SK-2", by or seat, moves + back, facts)
            return evolve(
                state, deck=deck, bottom=bottom, draws={}, contenders=result.leaders,
                draw_round=state.draw_round + 1, tally=tally, last_play=play,
                ruling=f"Drawn: {shown}{note}. {seat_names(state, result.leaders)} tie at "
                       f"{result.top} and draw again; put the drawn cards at the bottom of "
                       "the deck (SK-2).",
            )
        starter = result.starter
        state = evolve(state, deck=deck, bottom=bottom, draws={}, contenders=(),
                       starter=starter, tally=tally)
        state = self._new_cycle(state, starter, extra=0)
        play = Play("draw", "start", "SK-2", by or seat, moves + back,
                    {**facts, "starter": starter})
        return evolve(
            state, last_play=play,
            ruling=f"Drawn: {shown}{note}. {state.name(starter)} drew the highest "
                   f"({result.top}) and starts; turns go clockwise. Put the drawn cards at "
                   f"the bottom of the deck (SK-2). {state.ruling}",
        )

    def _new_cycle(self, state: ShrineState, first: int, extra: int) -> ShrineState:
        """Open the next cycle (SK-3), or end the game when the deck is empty (SK-9)."""
        if not state.deck:
            return self._finish(state)
        size = min(1 + extra, len(state.deck))  # SK-8: the last lot takes what is left
        cards = "one card" if size == 1 else f"{size} cards (a set, SK-8)"
        return evolve(
            state, phase="lot", cycle=state.cycle + 1, cycle_first=first, lot_size=size,
            lot=(), zero_bids=0, standing=0, high=0, turn=0, passed=frozenset(), bids=(),
            ruling=f"Cycle {state.cycle + 1}: draw {cards} from the deck for the lot.",
        )

    def _lot_draw(self, state: ShrineState, serial: str, zone: str, override: bool,
                  by: int | None) -> ShrineState:
        if zone != LOT:
            raise IllegalPlay(f"the lot's cards are shown in 'lot', not {zone!r}",
                              rule="SK-3")
        state, source = self._take(state, serial, override, LOT)
        lot = (*state.lot, serial)
        note = " (referee override)" if override else ""
        play = Play("lot", "lot", "SK-3", by, (Movement(source, LOT, serial),),
                    {"left": state.lot_size - len(lot), "first": state.cycle_first})
        if len(lot) < state.lot_size:
            return evolve(state, lot=lot, last_play=play,
                          ruling=f"Lot card {card_name(state, serial)}{note}; "
                          f"draw {state.lot_size - len(lot)} more.")
        first = state.cycle_first
        state = evolve(state, lot=lot, phase="bidding", turn=first, last_play=play)
        return evolve(
            state,
            ruling=f"The lot is {lot_text(state)}{note}. {state.name(first)} bids first, in "
                   f"{element_text(state, lot_elements(state))} Oinks (SK-3).",
        )

    def _bidder(self, state: ShrineState, event: Event, what: str) -> int:
        seat = self._seat(state, event)
        if state.phase != "bidding":
            raise IllegalPlay(f"{state.name(seat)} cannot {what} now: {words.prompt(state)}",
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
        tally = count_up(state.tally, "bids")
        if zero:
            tally = count_up(tally, "zero_bids")
        state = evolve(
            state, standing=amount, high=seat, bids=(*state.bids, (seat, amount)),
            zero_bids=state.zero_bids + (1 if zero else 0), tally=tally,
        )
        said = f"{state.name(seat)} bids {amount}."
        if zero:
            said += f" {words.zero_bid_words(len(state.deck), 1 + state.zero_bids)[:-1]} (SK-8)."
        active = [s for s in state.seats if s not in state.passed and s != seat]
        if not active:
            return self._won(state, said, ("bid", seat, amount))
        nxt = next_active(state, seat)
        play = Play("bid", "bid", "SK-8" if zero else "SK-4", seat, (),
                    {"amount": amount, "zero": zero, "next": nxt, "deck": len(state.deck),
                     "wanted": 1 + state.zero_bids})
        return evolve(state, turn=nxt, last_play=play,
                      ruling=f"{said} {state.name(nxt)}: bid more than {amount} or pass.")

    def _pass(self, state: ShrineState, event: Event) -> ShrineState:
        seat = self._bidder(state, event, "pass")
        passed = state.passed | {seat}
        state = evolve(state, passed=passed, tally=count_up(state.tally, "passes"))
        said = f"{state.name(seat)} passes and is out of this auction."
        if state.high and all(s in passed for s in state.seats if s != state.high):
            return self._won(state, said, ("pass", seat, 0))
        if len(passed) == len(state.players):
            aside = lot_text(state)
            lot = state.lot
            out = (*state.out, *lot)
            tally = count_up(count_up(state.tally, "auctions"), "set_aside")
            state = evolve(state, out=out, lot=(), tally=tally,
                           last={"cycle": state.cycle, "set_aside": list(lot)})
            state = self._new_cycle(state, clockwise(state, state.cycle_first), extra=0)
            play = Play("pass", "set_aside", "SK-3", seat,
                        tuple(Movement(LOT, OUT, c) for c in lot),
                        {"lot": list(lot), "over": state.finished})
            return evolve(state, last_play=play,
                          ruling=f"{said} Everyone passed without a bid: {aside} is "
                          f"set aside, out of the game (SK-3). {state.ruling}")
        nxt = next_active(state, seat)
        need = f"more than {state.standing}" if state.high else "at least 1"
        play = Play("pass", "pass", "SK-3", seat, (), {"next": nxt})
        return evolve(state, turn=nxt, last_play=play,
                      ruling=f"{said} {state.name(nxt)}: bid {need} or pass.")

    def _won(self, state: ShrineState, said: str,
             after: tuple[str, int, int]) -> ShrineState:
        """One bidder remains (SK-3): pay now if the mix is forced by the lot (or, with
        public Oinks, by the winner's holdings), else wait for ``pay``."""
        winner = state.high
        low, high = payment_bounds(state)
        # SK-7: with hidden Oinks a set of several elements always waits for the winner's
        # tap, even when their holdings leave one mix: paying at once would tell the table
        # that they lack one of the elements.
        if low == high and (state.public_oinks or len(lot_elements(state)) == 1):
            return self._settle(state, dict(zip(lot_elements(state), low, strict=True)), said,
                                after)
        # The proposal follows the winner's holdings, so it is shown on their phone and the
        # referee's view only (SK-7), not in the public ruling.
        play = Play("win", "pay", "SK-5", winner, (),
                    {"winner": winner, "bid": state.standing, "lot": list(state.lot),
                     "elements": lot_elements(state), "after": list(after)})
        return evolve(
            state, phase="payment", turn=winner, last_play=play,
            ruling=f"{said} {state.name(winner)} wins {lot_text(state)} for {state.standing} "
                   f"{'Oink' if state.standing == 1 else 'Oinks'}, paid in any mix of "
                   f"{element_text(state, lot_elements(state))} (SK-5).",
        )

    def _pay(self, state: ShrineState, event: Event) -> ShrineState:
        seat = self._seat(state, event)
        if state.phase != "payment":
            raise IllegalPlay(f"nothing is to be paid now: {words.prompt(state)}", rule="SK-5")
        if seat != state.high:
            raise OutOfTurn(
                f"{state.name(state.high)} won the set and pays, not {state.name(seat)}",
                rule="SK-5",
            )
        mix = payment_mix(state, event)
        return self._settle(state, mix, f"{state.name(seat)} won the auction.", ("pay", seat, 0))

    def _settle(self, state: ShrineState, mix: Mapping[str, int], said: str,
                after: tuple[str, int, int]) -> ShrineState:
        """Pay (SK-5), divide the amount with the pool (SK-6), hand over the lot, next
        cycle."""
        winner, bid = state.high, state.standing
        sharers = distribution_sharers(state, winner, bid)
        division = divide(state, winner, mix, sharers.seats)
        play = settlement_play(state, winner, bid, mix, sharers, division)
        oinks = [list(row) for row in state.oinks]
        for i, e in enumerate(state.elements):
            oinks[winner - 1][i] -= mix.get(e, 0)
            for s, got in division.shares.items():
                oinks[s - 1][i] += got.get(e, 0)
        shrines = list(state.shrines)
        shrines[winner - 1] = (*shrines[winner - 1], *state.lot)
        won = lot_text(state)
        them = "them" if len(state.lot) > 1 else "it"
        paid = ", ".join(f"{n} {state.element_names[e]}" for e, n in mix.items() if n)
        oink = "Oink" if bid == 1 else "Oinks"
        price = f"{paid} {oink}" if len(mix) == 1 else f"{bid} {oink} ({paid})"
        if division.each:
            shares = "; ".join(
                f"{state.name(s)} gets " + ", ".join(f"{n} {state.element_names[e]}"
                                                     for e, n in division.shares[s].items())
                for s in division.shares) + "."
        else:
            shares = "Too few Oinks to share: they wait in the pool."
        left = ", ".join(f"{n} {state.element_names[e]}"
                         for e, n in zip(state.elements, division.pool, strict=True)
                         if n) or "empty"
        reason = sharers_reason(state, sharers)
        last = {
            "cycle": state.cycle, "winner": winner, "cards": list(state.lot), "bid": bid,
            "paid": {e: n for e, n in mix.items() if n}, "sharers": list(sharers.seats),
            "shares": {str(s): dict(division.shares[s]) for s in division.shares},
            "reason": reason,
        }
        tally = count_up(count_up(state.tally, "auctions"), "won")
        tally = count_up(tally, "cards_won", len(state.lot))
        tally = count_up(tally, "oinks_bid", bid)
        state = evolve(
            state, oinks=tuple(tuple(r) for r in oinks), pool=division.pool,
            shrines=tuple(shrines), lot=(), last=last, tally=tally, passed=frozenset(),
        )
        state = self._new_cycle(state, clockwise(state, state.cycle_first), state.zero_bids)
        play = Play(play.kind, play.outcome, play.rule, play.seat, play.movements,
                    {**play.facts, "after": list(after), "over": state.finished})
        return evolve(
            state, last_play=play,
            ruling=f"{said} {state.name(winner)} wins {won} for {price} and puts "
                   f"{them} in their shrine. {reason} "
                   f"{shares} Pool: {left} (SK-6). {state.ruling}",
        )

    def _finish(self, state: ShrineState) -> ShrineState:
        """The deck cannot supply a lot (SK-9): influence decides (SK-10)."""
        st = standings(state)
        table = ", ".join(f"{state.name(s)} {st.scores[s]}" for s in state.seats)
        best = st.scores[st.winners[0]]
        if st.how == "influence":
            verdict = f"{state.name(st.winners[0])} wins with {best} influence"
        elif st.how == "oinks":
            verdict = (f"{seat_names(state, st.top)} tie at {best} influence; "
                       f"{state.name(st.winners[0])} has the most Oinks "
                       f"({st.totals[st.winners[0]]}) and wins")
        else:
            verdict = (f"{seat_names(state, st.winners)} tie at {best} influence and "
                       f"{st.totals[st.winners[0]]} Oinks and share the win")
        return evolve(
            state, phase="over", finished=True, winners=st.winners, lot=(), lot_size=0,
            turn=0,
            ruling=f"The deck is empty: the game ends (SK-9). Influence: {table}. {verdict} "
                   "(SK-10).",
        )

    # ------------------------------------------------------------------ chance, random

    def random_play(self, state: ShrineState, rng: random.Random) -> Event | None:
        if state.finished:
            return None
        if state.phase in ("start", "lot"):
            card = rng.choice(sorted(above_bottom(state) or state.deck))
            if state.phase == "lot":
                return {"type": "scan", "card": card, "zone": LOT}
            seat = rng.choice([s for s in state.contenders if s not in state.draws])
            return {"type": "scan", "card": card, "zone": f"seat:{seat}"}
        if state.phase == "payment":
            if rng.random() < 0.5:
                return {"type": "pay", "seat": state.high}
            low, high = payment_bounds(state)
            elements = lot_elements(state)
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

    # ------------------------------------------------------------------ views (view.py)

    def actions(self, state: ShrineState, seat: int | None) -> list[JSONDict]:
        return words.actions(state, seat)

    def last_play(self, state: ShrineState, seat: int | None) -> JSONDict | None:
        if seat is not None and seat != 0 and seat not in state.seats:
            raise MalformedEvent(f"there is no seat {seat!r} at this table")
        return words.last_play(state, seat)

    def view(self, state: ShrineState, seat: int | None) -> JSONDict:
        if seat is not None and seat not in state.seats:
            raise MalformedEvent(f"there is no seat {seat!r} at this table")
        return words.view(self.id, state, seat)

    def referee_view(self, state: ShrineState) -> JSONDict:
        v = words.view(self.id, state, 0)
        v["places"] = dict(sorted(self.places(state).items()))
        return v

    def places(self, state: ShrineState) -> Mapping[str, str]:
        return all_places(state)

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


RULES = ShrineRules()
