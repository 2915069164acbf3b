"""The referee's sentences for WuXing plays, made from the plays' data (C-8).

Each sentence ends with the ruling ids that decided it in parentheses, as the referee's log
and the docs cite them; ``plain`` takes the ids out for the players' pages.
"""

from __future__ import annotations

import re

from companion.engine import Play
from companion.games.wuxing.state import STAR, Table
from companion.words import count, names

# A ruling id in parentheses as these sentences write them: "(WX-7.6, WX-8)", "(C-1)".
_IDS = re.compile(r"\s*\((?:(?:WX|C)-\d+[a-z]?(?:\.\d+)?(?:, )?)+\)")
_TAIL = re.compile(r",\s*(?:WX|C)-\d+[a-z]?(?:\.\d+)?\)")


def plain(text: str) -> str:
    """``text`` without its ruling ids in parentheses (C-8: ids are for the referee)."""
    return _TAIL.sub(")", _IDS.sub("", text))


def a(label: str) -> str:
    """A card as a sentence names it: "Wood", "an Infinite Dragon", "a Destructive Star"."""
    if label == "Infinite Dragon":
        return "an Infinite Dragon"
    if label == "Destructive Star":
        return "a Destructive Star"
    return label


def stars_stay(n: int) -> str:
    """Stars left in a won pot: never won (WX-9, WX-7.4, WX-7.6)."""
    if n == 0:
        return ""
    return (" The Star is never won: it stays in the pot (WX-9)." if n == 1
            else f" The {n} Stars are never won: they stay in the pot (WX-9).")


def with_stars(n: int) -> str:
    """How a pot with ``n`` Stars in it is named when it goes to the Void (seed Game Notes:
    the only ways a Star leaves play)."""
    if n == 0:
        return ""
    return ", a Destructive Star among them" if n == 1 else f", {n} Destructive Stars among them"


WON = "shuffle them together and put them at the bottom of your deck"  # WX-8 rev. 2


def challenge(t: Table, p: Play) -> str:
    """The sentence for a WX-7 adjudication (``adjudicate.challenge``)."""
    f = p.facts
    a_, b_ = int(f["a"]), int(f["b"])
    na, nb = t.name(a_), t.name(b_)
    lu = t.label[str(f["universe"])]
    case = f["case"]
    shown = {m.source: m.serial for m in p.movements if m.source.startswith("table:")}
    ca, cb = str(shown[t.table_place[a_]]), str(shown[t.table_place[b_]])
    la, lb = t.label[ca], t.label[cb]
    if case == "7.1":
        return (f"{na} and {nb} both played a Destructive Star: a draw, both Stars join the "
                "pot and nothing goes to the Void (WX-7.1).")
    if case == "7.2":
        win, lose = int(f["winner"]), int(f["loser"])
        in_pot = int(f["stars_in_pot"])
        rest = int(f["pot"]) - 1 - in_pot
        items = [f"the Universe {lu}"]
        if in_pot:
            items.append(("a Destructive Star" if in_pot == 1
                          else f"{in_pot} Destructive Stars") + " from the pot")
        if rest:
            items.append(f"{rest} more pot {'card' if rest == 1 else 'cards'}")
        items.append(f"{t.name(lose)}'s {t.label[str(f['lost'])]}")
        return (f"{t.name(win)}'s Destructive Star destroys everything: "
                f"{count(int(f['swept']), 'card')} go to the Void ({names(items)}); the Star "
                "stays as the sole pot card (WX-7.2).")
    if case == "7.3":
        return (f"{na} and {nb} both played an Infinite Dragon: a draw, both Dragons join "
                "the pot (WX-7.3).")
    if case == "7.4":
        w = t.name(int(f["winner"]))
        return (f"{w}'s Infinite Dragon absorbs the Universe {lu}: {w} wins "
                f"{count(int(f['won']), 'card')}; {WON}. The Dragon goes to the Void "
                f"(WX-7.4, WX-8).{stars_stay(int(f['stars_in_pot']))}")
    if case == "7.5":
        if f["destroyed"]:
            return (f"{na} and {nb} both played {la}: a draw, and {lu} destroys {la}, so "
                    "both cards go to the Void (WX-7.5).")
        return f"{na} and {nb} both played {la}: a draw, both cards join the pot (WX-7.5)."
    if case == "7.6":
        mine = t.label[str(f["card"])]
        beats = " (absorb beats destroy)" if f["beats_destroy"] else ""
        return (f"{mine} absorbs {lu}{beats}: {t.name(int(f['winner']))} wins "
                f"{count(int(f['won']), 'card')}; {WON} (WX-7.6, WX-8)."
                f"{stars_stay(int(f['stars_in_pot']))}")
    if case == "7.7":
        mine = t.label[str(f["card"])]
        return (f"{mine} destroys {lu}: the pot ({count(int(f['pot']), 'card')}"
                f"{with_stars(int(f['stars_in_pot']))}) and {t.name(int(f['loser']))}'s "
                f"{t.label[str(f['lost'])]} go to the Void; {t.name(int(f['winner']))}, put "
                f"your {mine} at the bottom of your deck (WX-7.7).")
    parts = []
    eu = t.element[str(f["universe"])]
    for seat, card, lab in ((a_, ca, la), (b_, cb, lb)):
        e = t.element[card]
        if e == eu:
            parts.append(f"{t.name(seat)}'s {lab} matches {lu} and joins the pot")
        elif (eu, e) in t.absorbs:
            parts.append(f"{lu} absorbs {t.name(seat)}'s {lab}: it joins the pot")
        else:
            parts.append(f"{lu} destroys {t.name(seat)}'s {lab}: it goes to the Void")
    return "; ".join(parts) + " (WX-7.8)."


def universe_card(t: Table, serial: str, challenge: tuple[int, ...]) -> str:
    """The sentence for an element Universe card laid on the pot (WX-4)."""
    a_, b_ = challenge
    return (f"The Universe card is {t.label[serial]}: {t.name(a_)} and {t.name(b_)}, "
            "show your top cards in your places (WX-4).")


def universe_dragon(t: Table, feeders: tuple[int, ...]) -> str:
    """The sentence for a Universe Dragon (WX-5)."""
    return (f"Universe Dragon: it goes to the Void, and everyone still in "
            f"({', '.join(t.name(s) for s in feeders)}) shows their top card in their place, "
            "then puts it face up on the pot (WX-5).")


def contributed(t: Table, seat: int, serial: str, to_pot: bool) -> str:
    """The sentence for a card fed to the pot (WX-5) or the Void (WX-6)."""
    where = "into the pot (WX-5)" if to_pot else "into the Void (WX-6)"
    return f"{t.name(seat)} put {a(t.label[serial])} {where}."


def waiting(t: Table, seats: tuple[int, ...]) -> str:
    return f"Waiting for {t.names_of(seats)}."


def revealed(t: Table, seat: int, serial: str, other: int) -> str:
    """The sentence for the first card of a challenge (WX-7)."""
    return f"{t.name(seat)} reveals {a(t.label[serial])}; waiting for {t.name(other)}."


def next_challenge(t: Table, a_: int, b_: int) -> str:
    """The sentence for the next pair (WX-3, WX-4)."""
    return (f"Next: {t.name(a_)} v {t.name(b_)}; {t.name(a_)}, lay the top Universe card on "
            "the pot.")


def universe_star(t: Table, p: Play, pot: tuple[str, ...],
                  feeders: tuple[int, ...] | list[int]) -> str:
    """The sentence for a Universe Star (WX-6); ``pot`` is the pot it swept."""
    in_pot = sum(1 for c in pot if t.kind[c] == STAR)
    gone = (f"the pot ({count(len(pot), 'card')}{with_stars(in_pot)}) goes to the Void"
            if pot else "the pot was empty")
    return (f"Universe Star: {gone}, the Star stays as the sole pot card, and everyone still "
            f"in ({', '.join(t.name(s) for s in feeders)}) shows their top card in their "
            "place, then puts it into the Void (WX-6).")


def tiebreak_round(t: Table, p: Play) -> str:
    """The sentence for a compared round of the sudden death (WX-11)."""
    cards = [(int(m.source[6:]), str(m.serial)) for m in p.movements]
    shown = names(f"{t.name(s)}'s {t.label[c]}" for s, c in cards)
    out, left = list(p.facts["out"]), list(p.facts["left"])
    if len(left) == 1:
        verdict = f"{t.name(left[0])} wins the sudden death"
    elif out:
        verdict = (f"{t.names_of(out)} {'drop' if len(out) > 1 else 'drops'} out; "
                   f"{t.names_of(left)} take again")
    elif p.facts["cycle"]:
        verdict = "every card is beaten by another's, so nobody drops out and they take again"
    else:
        verdict = "no card beats another, so they take again"
    return f"{shown}: {verdict}; the cards go to the Void (WX-11)."
