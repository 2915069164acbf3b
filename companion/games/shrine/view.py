"""Shrine of the Elemental Kings: what each seat sees, what it may do, and all the words.

``view(game, state, seat)``: ``seat`` ``None`` is the public big screen, ``0`` the referee
(ruling ids kept), ``n`` a player (their own Oinks, SK-7). Player-facing words are plain
(C-8): the ruling id sits beside them under ``rule``.

View keys, the big screen's first: ``lot`` [card], ``standing_bid``, ``high_bidder``,
``turn``, ``next_bidder`` (a name), then ``game``, ``phase``, ``players`` [{seat, name}],
``oinks_visibility``, ``start`` {round, contenders, draws}, ``starter``, ``cycle``,
``cycle_first``, ``deck_count``, ``lot_size``, ``lot_elements``, ``next_lot_size``,
``passed``, ``bids`` [{seat, amount}], ``pool`` {element: n} (null with hidden Oinks but
for the referee, SK-7), ``pool_total``, ``oinks`` {seat: {element:
n}} (only the seats this viewer may see, SK-7), ``oinks_total``, ``shrines`` {seat:
[card]}, ``influence`` {seat: {points, groups: [{kind, points, cards}]}}, ``out`` [card],
``last_settlement``, ``payment_proposal``, ``prompt``, ``prompt_rule``, ``ruling``,
``rule``, ``finished``, ``winners``, ``final`` (when over: standings with each player's
groups). A seat's view adds ``seat``, ``forbidden_units`` and ``max_bid``; the referee's
adds every seat's Oinks, ``deck`` (serials, no order: C-2), ``bottom``,
``forbidden_units_by_seat`` and ``max_bid_by_seat``. A card is {serial, face, name,
element, number}.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion import words
from companion.engine import OUT, JSONDict, Play
from companion.games.shrine.adjudicate import (
    capacity,
    forbidden_units,
    influence,
    legal_bids,
    payment_bounds,
    propose_payment,
    standings,
)
from companion.games.shrine.state import (
    DECK,
    LOT,
    ShrineState,
    above_bottom,
    card_json,
    element_text,
    lot_elements,
    lot_text,
    next_lot_size,
    number,
    seat_names,
)

SUGGEST_MAX = 8  # the lowest legal bids offered as buttons (issue 11, issue 20)
START_TEXT = ("Everyone draws a card from the shuffled deck and shows it in their place: the "
              "highest face value starts.")


# ---------------------------------------------------------------------- prompts


def prompt(state: ShrineState, ids: bool = True) -> str:
    """What the table waits for; with ``ids`` (the referee) the ruling id is appended."""
    text, rule = _prompt(state)
    return f"{text[:-1]} ({rule})." if ids else text


def _prompt(state: ShrineState) -> tuple[str, str]:
    if state.phase == "start":
        waiting = [s for s in state.contenders if s not in state.draws]
        again = " again (tie)" if state.draw_round > 1 else ""
        return (f"{seat_names(state, waiting)}: draw a card from the deck{again} and show it "
                "in your place; the highest face value starts.", "SK-2")
    if state.phase == "lot":
        more = state.lot_size - len(state.lot)
        what = ("the lot card" if state.lot_size == 1
                else f"{words.count(more, 'more lot card')}")
        it = "it" if state.lot_size - len(state.lot) == 1 else "each"
        return f"Draw {what} from the deck and lay {it} face up in the lot.", "SK-3"
    if state.phase == "bidding":
        least = state.standing + 1 if state.high else 1
        oinks = "Oink" if least == 1 else "Oinks"
        return (f"{state.name(state.turn)}: bid at least {least} "
                f"{element_text(state, lot_elements(state))} {oinks} for {lot_text(state)}, "
                "or pass.", "SK-4")
    if state.phase == "payment":
        owed = words.count(state.standing, "Oink")
        return (f"{state.name(state.high)}: pay {owed} in any mix of "
                f"{element_text(state, lot_elements(state))}.", "SK-5")
    verb = "wins" if len(state.winners) == 1 else "share the win"
    return f"Game over: {seat_names(state, state.winners)} {verb}.", "SK-10"


def describe(state: ShrineState, where: str) -> str:
    """A place in the words of a refusal."""
    if where == LOT:
        return "in the lot"
    if where == OUT:
        return "out of the game"
    if where.startswith("shrine:"):
        return f"in {words.possessive(state.name(int(where[7:])))} shrine"
    if where.startswith("seat:"):
        return f"{words.possessive(state.name(int(where[5:])))} start draw"
    return "in the deck"


# ---------------------------------------------------------------------- views


def view(game: str, state: ShrineState, seat: int | None) -> JSONDict:
    """The view for ``seat`` (``None`` public, ``0`` referee, ``n`` a player)."""
    referee = seat == 0
    visible = [s for s in state.seats
               if referee or state.public_oinks or state.finished or s == seat]
    infl = {str(s): influence_json(state, s) for s in state.seats}
    lp = state.last_play
    v: JSONDict = {
        # The big screen's headline first (issue 11): the lot, the standing bid, who is next.
        "lot": [card_json(state, c) for c in state.lot],
        "standing_bid": state.standing,
        "high_bidder": state.high or None,
        "turn": state.turn or None,
        "next_bidder": state.name(state.turn) if state.phase == "bidding" else None,
        "game": game,
        "phase": state.phase,
        "players": [{"seat": s, "name": state.name(s)} for s in state.seats],
        "oinks_visibility": "public" if state.public_oinks else "hidden",
        "start": {
            "round": state.draw_round,
            "contenders": list(state.contenders),
            "draws": {str(s): card_json(state, c) for s, c in sorted(state.draws.items())},
        },
        "starter": state.starter or None,
        "cycle": state.cycle,
        "cycle_first": state.cycle_first or None,
        "deck_count": len(state.deck),
        "lot_size": state.lot_size,
        "lot_elements": lot_elements(state),
        "next_lot_size": next_lot_size(state),
        "passed": sorted(state.passed),
        "bids": [{"seat": s, "amount": a} for s, a in state.bids],
        # SK-7: the pool's elements follow from the hidden mixes paid and shared, so with
        # hidden Oinks only its size is shown (the referee sees the elements).
        "pool": (dict(zip(state.elements, state.pool, strict=True))
                 if sees_oinks(state, seat, 0) else None),
        "pool_total": sum(state.pool),
        "oinks": {str(s): dict(zip(state.elements, state.oinks[s - 1], strict=True))
                  for s in visible},
        "oinks_total": {str(s): sum(state.oinks[s - 1]) for s in visible},
        "shrines": {str(s): [card_json(state, c) for c in state.shrines[s - 1]]
                    for s in state.seats},
        "influence": infl,
        "out": [card_json(state, c) for c in state.out],
        "last_settlement": settlement(state, seat),
        "payment_proposal": (propose_payment(state)
                             if state.phase == "payment" and state.high in visible else None),
        "prompt": prompt(state, ids=referee),
        "prompt_rule": _prompt(state)[1],
        "ruling": state.ruling if referee else (text(state, lp) if lp else START_TEXT),
        "rule": lp.rule if lp else "SK-2",
        "finished": state.finished,
        "winners": list(state.winners),
    }
    if state.finished:
        v["final"] = final(state, infl)
    if referee:
        v["deck"] = sorted(state.deck)
        v["bottom"] = sorted(state.bottom)
        v["forbidden_units_by_seat"] = {str(s): forbidden_units(state, s) for s in state.seats}
        v["max_bid_by_seat"] = ({str(s): capacity(state, s) for s in state.seats}
                                if state.phase == "bidding" else None)
    elif seat is not None:
        v["seat"] = seat
        v["forbidden_units"] = forbidden_units(state, seat)
        v["max_bid"] = capacity(state, seat) if state.phase == "bidding" else None
    return v


def sees_oinks(state: ShrineState, viewer: int | None, seat: int) -> bool:
    """Whether ``viewer`` (``None`` the big screen, ``0`` the referee) may see ``seat``'s
    Oinks element by element (SK-7); ``seat`` 0 stands for the pool. With hidden Oinks a
    player sees only their own, until the end shows everyone's (SK-10 ties)."""
    return (viewer == 0 or state.public_oinks or state.finished
            or (viewer is not None and viewer == seat))


def settlement(state: ShrineState, viewer: int | None) -> JSONDict:
    """The latest settlement for ``viewer``: with hidden Oinks the mix paid and each share
    by element only for the player concerned (SK-7); bid, sharers and reason for all."""
    last: JSONDict = dict(state.last)
    if "winner" not in last:
        return last
    if not sees_oinks(state, viewer, int(last["winner"])):
        last.pop("paid", None)
    last["shares"] = {s: g for s, g in last.get("shares", {}).items()
                      if sees_oinks(state, viewer, int(s))}
    return last


def influence_json(state: ShrineState, seat: int) -> JSONDict:
    split = influence(state, seat)
    serials: dict[tuple[str, int], list[str]] = {}
    for c in state.shrines[seat - 1]:
        serials.setdefault((str(state.cards[c].element), number(state, c)), []).append(c)
    groups = []
    for g in split.groups:
        cards = [card_json(state, serials[card].pop(0)) for card in g.cards]
        groups.append({"kind": g.kind, "points": g.points, "cards": cards})
    return {"points": split.points, "groups": groups}


def final(state: ShrineState, infl: Mapping[str, JSONDict]) -> list[JSONDict]:
    """The final standings, best first, each with its influence groups (SK-10)."""
    st = standings(state)
    order = sorted(state.seats, key=lambda s: (-st.scores[s], -st.totals[s], s))
    return [{"seat": s, "name": state.name(s), "influence": st.scores[s],
             "oinks": st.totals[s], "winner": s in st.winners,
             "groups": infl[str(s)]["groups"]} for s in order]


# ---------------------------------------------------------------------- actions


def faces(state: ShrineState) -> list[JSONDict]:
    """The faces that can be drawn now: the deck's cards above the start draws put at the
    bottom (SK-2 rev. 2), or the bottom cards once only they are left."""
    pool = above_bottom(state) or state.deck
    seen: dict[str, JSONDict] = {}
    for s in sorted(pool, key=lambda c: (state.cards[c].element or "", number(state, c))):
        f = state.cards[s]
        seen.setdefault(f.id, {"face": f.id, "name": f.name, "element": f.element,
                               "number": f.number})
    return list(seen.values())


def actions(state: ShrineState, seat: int | None) -> list[JSONDict]:
    """What ``seat`` (``None``: the referee, for any seat) can do now."""
    if state.finished:
        return []
    out: list[JSONDict] = []
    if state.phase == "start":
        tiles = faces(state)
        for s in state.contenders:
            if s in state.draws or seat not in (None, s):
                continue
            out.append({
                "type": "scan", "label": f"{state.name(s)}: show the card you drew in your place",
                "seat": s, "rule": "SK-2",
                "fields": [{"name": "card", "label": "Card drawn", "kind": "card",
                            "zone": f"seat:{s}", "faces": tiles}],
            })
    elif state.phase == "lot":
        if seat in (None, state.cycle_first):
            out.append({
                "type": "scan", "label": f"Draw lot card {len(state.lot) + 1} of "
                f"{state.lot_size}, face up in the lot", "seat": state.cycle_first, "rule": "SK-3",
                "fields": [{"name": "card", "label": "Lot card", "kind": "card",
                            "zone": LOT, "faces": faces(state)}],
            })
    elif state.phase == "bidding" and seat in (None, state.turn):
        s = state.turn
        legal = legal_bids(state, s)
        if legal:
            field: JSONDict = {"name": "amount", "label": "Oinks", "kind": "int",
                               "min": legal[0], "max": legal[-1], "default": legal[0],
                               "forbidden_units": forbidden_units(state, s),
                               "say": "bid {n} Oinks"}  # each button says its amount
            # The lowest legal bids as one-tap buttons (issue 20); more than these: the
            # page adds a field for another amount.
            field["suggest"] = legal[:SUGGEST_MAX]
            out.append({"type": "bid", "label": f"{state.name(s)}: bid", "seat": s,
                        "rule": "SK-4", "fields": [field]})
        # One tap, no confirm (issue 20): the referee's undo puts a mistaken pass right.
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
            "type": "pay", "label": f"Pay {words.count(state.standing, 'Oink')} in this mix",
            "seat": s,
            "rule": "SK-5",
            "fields": [{"name": e, "label": f"{state.element_names[e]} Oinks", "kind": "int",
                        "min": lo, "max": hi, "default": proposal[e]}
                       for e, lo, hi in zip(lot_elements(state), low, high, strict=True)],
        })
    return out


# ---------------------------------------------------------------------- the last play


def place_words(state: ShrineState, where: str) -> str:
    extra = {DECK: "the deck", "bottom": "the bottom of the deck", LOT: "the lot",
             OUT: "out of the game"}
    if where.startswith("shrine:"):
        return f"{words.possessive(state.name(int(where[7:])))} shrine"
    return words.place(where, state.players, extra)


def _oinks(state: ShrineState, mix: Mapping[str, int]) -> str:
    """``"24 Fire Oinks"`` or ``"24 Oinks (14 Fire, 10 Air)"``."""
    parts = [(e, n) for e, n in mix.items() if n]
    total = sum(n for _, n in parts)
    if len(parts) == 1:
        return words.count(total, f"{state.element_names[parts[0][0]]} Oink")
    inner = ", ".join(f"{n} {state.element_names[e]}" for e, n in parts)
    return f"{words.count(total, 'Oink')} ({inner})"


def _cards(state: ShrineState, serials: Iterable[str]) -> str:
    return words.names(state.cards[c].name for c in serials)


def text(state: ShrineState, play: Play) -> str:
    """One sentence (or two) in plain words for ``play`` (C-8)."""
    f: Mapping[str, Any] = play.facts
    who = state.name(play.seat) if play.seat else ""
    if play.kind == "draw":
        drawer = state.name(int(f["drawer"]))
        said = f"{drawer} drew {state.cards[str(play.movements[0].serial)].name}."
        if play.outcome == "draw":
            return f"{said} Waiting for {seat_names(state, f['waiting'])}."
        if play.outcome == "tie":
            return (f"{said} {seat_names(state, f['leaders'])} tie at {f['top']} and draw "
                    "again.")
        return f"{said} {state.name(int(f['starter']))} drew the highest ({f['top']}) and starts."
    if play.kind == "lot":
        card = state.cards[str(play.movements[0].serial)].name
        if f["left"]:
            return f"{card} joins the lot; {words.count(int(f['left']), 'more card')} to draw."
        return (f"The lot is {lot_text(state)}. "
                f"{state.name(int(f['first']))} bids first.")
    if play.kind == "bid":
        zero = f" {zero_bid_words(int(f['deck']), int(f['wanted']))}" if f["zero"] else ""
        return f"{who} bids {f['amount']}.{zero} {state.name(int(f['next']))} is next."
    if play.outcome == "pass":
        return f"{who} passes. {state.name(int(f['next']))} is next."
    if play.outcome == "set_aside":
        return (f"{who} passes. Nobody bid: {_cards(state, f['lot'])} "
                f"{'is' if len(f['lot']) == 1 else 'are'} set aside.{_over(state, f)}")
    if play.outcome == "pay":
        bid = words.count(int(f["bid"]), "Oink")
        return (f"{who} wins {_cards(state, f['lot'])} for {bid} and pays in any "
                f"mix of {element_text(state, f['elements'])}.")
    return _settled(state, play) + _over(state, f)


def zero_bid_words(deck: int, wanted: int) -> str:
    """What a bid ending in 0 does (SK-8), said truthfully at the end of the deck: the
    zero bids so far want a next lot of ``wanted`` cards and the deck holds ``deck``."""
    if deck == 0:
        return ("A bid ending in 0 would add a card to the next lot, but the deck is empty: "
                "this is the last lot, and the game ends once it is settled.")
    if wanted > deck:
        left = "only 1 card is" if deck == 1 else f"only {deck} cards are"
        last = "the last card" if deck == 1 else f"the last {deck} cards"
        return (f"A bid ending in 0 would add a card to the next lot, but {left} left: the "
                f"next lot is {last} of the deck, and the game ends after it.")
    return "A bid ending in 0: one more card joins the next lot."


def _settled(state: ShrineState, play: Play) -> str:
    f = play.facts
    winner = state.name(int(f["winner"]))
    sharers = [int(s) for s in f["sharers"]]
    said = f"{winner} wins {_cards(state, f['lot'])} for {words.count(int(f['bid']), 'Oink')}."
    if f["most"]:
        holds = "holds" if len(sharers) == 1 else "hold"
        said += (f" The bid ends in {f['unit']}: {seat_names(state, sharers)} {holds} the "
                 f"most {f['unit']}s")
        said += " and takes" if len(sharers) == 1 else " and share"
    else:
        said += f" {seat_names(state, sharers)} share"
    amount, each = int(f["amount"]), int(f["each"])
    pool_in = amount - int(f["bid"])
    # "the 30 Oinks with the pool's 2" read as 32: say what the amount is made of.
    what = f"the {words.count(amount, 'Oink')}" + (
        f" ({int(f['bid'])} paid and {pool_in} from the pool)" if pool_in else "")
    said += f" {what}" + (f", {each} each." if len(sharers) > 1 else ".")
    left = sum(f["pool"].values())
    if left:
        said += f" {words.count(left, 'Oink')} {'stays' if left == 1 else 'stay'} in the pool."
    return said


def _over(state: ShrineState, f: Mapping[str, Any]) -> str:
    if not f.get("over"):
        return ""
    st = standings(state)
    best = st.scores[st.winners[0]]
    if st.how == "influence":
        return f" The deck is empty: {state.name(st.winners[0])} wins with {best} influence."
    if st.how == "oinks":
        return (f" The deck is empty: {seat_names(state, st.top)} tie at {best} influence; "
                f"{state.name(st.winners[0])} has the most Oinks and wins.")
    return f" The deck is empty: {seat_names(state, st.winners)} share the win."


def physical(state: ShrineState, play: Play, viewer: int | None = 0) -> list[str]:
    """What to do with the physical cards and Oinks, one sentence each, for ``viewer``
    (``None`` the big screen, ``0`` the referee): with hidden Oinks each player reads the
    elements of their own payment or share only (SK-7)."""
    f: Mapping[str, Any] = play.facts
    out = []
    if play.kind == "draw":
        back = [m.serial for m in play.movements if m.target == "bottom" and m.serial]
        if back:
            out.append(f"Put {_cards(state, back)} at the bottom of the deck.")
        else:
            out.append(f"{state.name(int(f['drawer']))}: leave your card face up in front of "
                       "you until everyone has drawn.")
    elif play.kind == "lot":
        out.append(f"Put {state.cards[str(play.movements[0].serial)].name} face up in the "
                   "middle of the table.")
    elif play.outcome == "set_aside":
        out.append(f"Put {_cards(state, f['lot'])} aside, out of the game.")
    elif play.outcome == "win" and not all(
            sees_oinks(state, viewer, int(s)) for s in (f["winner"], *f["shares"], 0)):
        out += _hidden_settlement(state, f, viewer)
    elif play.outcome == "win":
        winner = state.name(int(f["winner"]))
        takes = [f"{state.name(int(s))} takes {_oinks(state, g)}"
                 for s, g in f["shares"].items() if g]
        pay = f"{winner}: pay {_oinks(state, f['paid'])}"
        pool_in = int(f["amount"]) - int(f["bid"])
        share = ("; " + ", ".join(takes) if takes else "; it goes into the pool")
        if takes and pool_in:
            share += f", the pool's {words.count(pool_in, 'Oink')} included"
        out.append(words.sentence(pay + share))
        left = f["pool"]
        if left and takes:
            out.append(words.sentence(f"leave {_oinks(state, left)} in the pool"))
        out.append(f"{winner}: put {_cards(state, f['lot'])} face up in front of you.")
    return out


def _hidden_settlement(state: ShrineState, f: Mapping[str, Any],
                       viewer: int | None) -> list[str]:
    """The Oinks of a settlement with hidden Oinks (SK-7): the winner pays into the pool
    out of sight and each sharer takes their share from it, each told the elements of
    their own Oinks only; everyone else hears the amounts (which the bid already says)."""
    winner = int(f["winner"])
    name = state.name(winner)
    bid = int(f["bid"])
    if viewer == winner:
        out = [f"{name}: pay {_oinks(state, f['paid'])} into the pool, out of sight."]
    else:
        out = [f"{name} pays {words.count(bid, 'Oink')} into the pool, out of sight."]
    others = []
    for s, got in f["shares"].items():
        if not got:
            continue
        if viewer == int(s):
            out.append(f"{state.name(int(s))}: take {_oinks(state, got)} from the pool.")
        else:
            others.append(int(s))
    if others:
        each = words.count(int(f["each"]), "Oink")
        verb = "takes" if len(others) == 1 else "each take"
        out.append(f"{seat_names(state, others)} {verb} {each} from the pool.")
    left = sum(f["pool"].values())
    if left:
        out.append(f"{words.count(left, 'Oink')} {'stays' if left == 1 else 'stay'} in the "
                   "pool.")
    out.append(f"{name}: put {_cards(state, f['lot'])} face up in front of you.")
    return out


def last_play(state: ShrineState, seat: int | None) -> JSONDict | None:
    """The latest play for ``seat`` (``None`` the big screen, ``0`` the referee): Shrine's
    cards are all face up when they move; with hidden Oinks the elements of a payment or a
    share reach only the player concerned and the referee (SK-7)."""
    play = state.last_play
    if play is None:
        return None
    moves: list[dict[str, object]] = []
    cards: list[JSONDict] = []
    for m in play.movements:
        face = state.cards[m.serial] if m.serial else None
        moves.append({"card": m.serial, "face": face.id if face else None,
                      "name": face.name if face else None, "from": m.source, "to": m.target,
                      "count": m.count, "from_words": place_words(state, m.source),
                      "to_words": place_words(state, m.target)})
        if face and all(c["face"] != face.id for c in cards):
            card: JSONDict = {"face": face.id, "name": face.name, "element": face.element,
                              "number": face.number}
            if seat == 0:
                card["serial"] = m.serial
            cards.append(card)
    undo = words.undo_lines(moves)
    if play.outcome == "win":
        undo.insert(0, f"Give the Oinks back. {state.name(int(play.facts['winner']))} gets "
                       f"back the {play.facts['bid']} paid, and the pool is put back as it "
                       "was.")
    return {"kind": play.kind, "outcome": play.outcome, "rule": play.rule, "seat": play.seat,
            "text": text(state, play), "physical": physical(state, play, seat),
            "cards": cards,
            "movements": moves, "undo": undo}
