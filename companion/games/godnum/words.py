"""God Num's words, made from the data of a play (C-8).

``ids=True`` adds the ruling ids for the referee and the log (``state.ruling``); players
read the same sentences without them, the id going to a separate ``rule`` key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from companion import words
from companion.cards import load_deck
from companion.engine import Movement, Play
from companion.games.godnum.state import HAND_SIZE, GodNumState, Verdict, next_seat


@cache
def deck_names() -> Mapping[str, str]:
    """Legion deck id -> its name ("Fire-Earth Legion"), from the deck data (C-5)."""
    return {d: info.name for d, info in load_deck("godnum").decks.items()}


def cap(word: str | None) -> str:
    return (word or "")[:1].upper() + (word or "")[1:]


def current_words(state: GodNumState) -> str:
    """"Fire 5", or "no attribute" when attributeless (GN-3 Chaos, GN-4)."""
    if state.attribute is None:
        return "no attribute"
    return f"{cap(state.attribute)} {state.last_number}"


def verdict_words(v: Verdict, ids: bool = False) -> str:
    """Why a card may (not) be played now (GN-6), naming the card first."""
    name, a, c, last = v.face.name, cap(v.face.element), cap(v.current), v.last
    now = f"{c} {last}"
    gn6 = " (GN-6)" if ids else ""
    if v.case == "function":
        return f"{name}: function cards are always playable" + (" (GN-3)" if ids else "")
    if v.case == "neither":
        return f"{name!r} is neither a number nor a function card"
    if v.case == "attributeless":
        return f"{name}: the divine number is attributeless, any card{gn6}"
    if v.case == "overcomes":
        return f"{name}: {a} overcomes {c}, any number{gn6}"
    if v.case == "generates":
        return f"{name} cannot be played on {now}: {a} generates {c}{gn6}"
    if v.case == "same":
        if v.ok:
            return f"{name}: same attribute, higher than {last}{gn6}"
        if v.face.number == 1:
            return f"{name} cannot be played on {now}: same attribute needs a number above " \
                   f"{last}, and nothing is below 1{gn6}"
        return f"{name} cannot be played on {now}: same attribute needs a number above " \
               f"{last}{gn6}"
    if v.ok:
        return f"{name}: {a} on {c} with the same number{gn6}"
    return f"{name} cannot be played on {now}: {a} on {c} needs exactly {last}{gn6}"


def reason(v: Verdict) -> str:
    """The short reason on a phone's card chip (GN-6), without the card's name."""
    a, c, last = cap(v.face.element), cap(v.current), v.last
    return {
        "function": "always playable",
        "attributeless": "no attribute now: any card",
        "overcomes": f"{a} overcomes {c}: any number",
        "generates": f"{a} generates {c}: never on {c}",
        "same": f"needs a number above {last}" if not v.ok else f"above {last}",
        "other": f"needs exactly {last}" if not v.ok else f"exactly {last}",
        "neither": "not a God Num card",
    }[v.case]


def hint(state: GodNumState, v: Verdict, seat: int) -> str:
    """Where a legal card takes the divine number, or what it does (GN-5 rev. 2, GN-3)."""
    face = v.face
    if face.kind == "function":
        fn = face.attrs.get("function")
        nxt = _after(state, seat)
        return {"chaos": f"no attribute, {state.divine_number} stays",
                "reverse": "turn order reverses",
                "skip": f"{nxt} loses their turn",
                "burden": f"{nxt} must discard one card"}.get(str(fn), "")
    total = state.divine_number + (face.number or 0)
    target = state.target or 0
    if total == target:
        return f"→ {total}: you win"
    if total > target:
        return f"→ {total}: past {target}, you are out"
    return f"→ {total}"


def _after(state: GodNumState, seat: int) -> str:
    return state.name(next_seat(state, seat))


def _r(ids: bool, rule: str) -> str:
    return f" ({rule})" if ids else ""


def _names(state: GodNumState, serials: Sequence[str]) -> str:
    return words.names([state.cards[s].name for s in serials])


def ruling_text(state: GodNumState) -> str:
    """The referee's log line for ``state``'s latest play, ruling ids included."""
    play = state.last_play
    return play_text(state, play, ids=True) if play is not None else ""


def play_text(state: GodNumState, play: Play, ids: bool) -> str:
    """What ``play`` did, in one paragraph of plain sentences (``ids``: with ruling ids)."""
    f: Mapping[str, Any] = play.facts

    def r(rule: str) -> str:
        return _r(ids, rule)

    if play.kind == "target":
        return f"The target divine number is {f['target']}{r('GN-4')}."
    if play.kind == "start":
        return (f"{state.name(f['first'])} starts. Everyone shuffles their legion deck and "
                f"draws {HAND_SIZE}; the divine number is 0, attributeless{r('GN-4')}.")
    name = state.name(play.seat or 1)
    card = state.cards[f["card"]].name if "card" in f else ""
    out: list[str] = []
    o = play.outcome
    if o == "win":
        out.append(f"{name} plays {card}: the divine number is exactly {f['total']}, the "
                   f"target. {name} wins{r('GN-7, GN-11')}.")
    elif o == "bust":
        if f["bust"] == "stand":
            out.append(f"{name} plays {card}: {f['total']} exceeds the target {f['target']}; "
                       f"it stands and {name} is eliminated{r('GN-8')}.")
        else:
            out.append(f"{name} plays {card}: {f['total']} would exceed the target "
                       f"{f['target']}; the card does not count, the divine number stays "
                       f"{f['before']}, and {name} is eliminated{r('GN-8')}.")
    elif o == "number":
        out.append(f"{name} plays {card}: the divine number is {f['total']} of {f['target']}, "
                   f"{card} is current{r('GN-7')}.")
    elif o == "chaos":
        out.append(f"{name} plays Chaos: the divine number {f['before']} is now "
                   f"attributeless{r('GN-3')}.")
    elif o == "reverse":
        out.append(f"{name} plays Reverse: turn order reverses{r('GN-3')}.")
    elif o == "skip":
        out.append(f"{name} plays Skip: {state.name(f['skipped'])} loses their "
                   f"turn{r('GN-3')}.")
    elif o == "burden":
        if play.kind == "discard":
            out.append(f"{name} discards {_names(state, f['cards'])} for the Burden: karma "
                       f"{f['karma']} of {f['limit']}{r('GN-3, GN-9')}.")
        elif f.get("lapsed"):
            out.append(f"{name} plays Burden: {state.name(f['burdened'])} has no card to "
                       f"discard{r('GN-3')}.")
        else:
            out.append(f"{name} plays Burden: {state.name(f['burdened'])} must discard one "
                       f"card at once{r('GN-3')}.")
    elif play.kind == "discard":
        out.append(f"{name} discards {_names(state, f['cards'])}: karma {f['karma']} of "
                   f"{f['limit']}; discards are out of the game{r('GN-9')}.")
        if o == "karma":
            out.append(f"{name} reaches the karma limit and is eliminated{r('GN-9')}.")
    elif o == "end_turn":
        out.append(f"{name} ends the turn.")
    elif o == "pass":
        out.append(f"{name} has no cards and passes{r('GN-10')}.")
    if f.get("bound"):
        out.append(f"{name} plays with the {deck_names()[f['bound']]}{r('GN-2')}.")
    out.extend(_draw_words(name, f, ids))
    if f.get("more"):
        out.append("Discard more or end the turn.")
    if "winner" in f:
        out.append(f"{state.name(f['winner'])} is the last legion standing and "
                   f"wins{r('GN-11')}.")
    elif "next" in f and not state.finished and not (o == "burden" and play.kind == "play"
                                                     and not f.get("lapsed")):
        out.append(f"{state.name(f['next'])}'s turn.")
    return " ".join(out)


def _draw_words(name: str, f: Mapping[str, Any], ids: bool) -> list[str]:
    """GN-5 rev. 2: how many cards to draw; GN-10 when the deck runs out."""
    drew, first, mixed = f.get("drew", 0), f.get("drew_first", 0), f.get("reshuffled", 0)
    if f.get("no_draw"):
        return [f"{name}'s deck is empty and nothing was played: no draw{_r(ids, 'GN-10')}."]
    if mixed:
        lead = (f"{name} draws the last {words.count(first, 'card')} of their deck, then "
                if first else f"{name} ")
        return [f"{lead}shuffles their {words.count(mixed, 'played card')} into a new deck "
                f"and draws {drew - first}{_r(ids, 'GN-10')}."]
    if drew:
        return [f"{name} draws {drew}{_r(ids, 'GN-5')}."]
    return []


def physical(state: GodNumState, play: Play) -> list[str]:
    """What to do with the physical cards, one sentence per player (C-8)."""
    if play.kind == "target":
        return []
    if play.kind == "start":
        return [f"Everyone: shuffle your legion deck and draw {HAND_SIZE}."]
    seat = play.seat or 1
    f = play.facts
    parts: list[str] = []
    gone = [m for m in play.movements if m.serial is None and m.target == "out"]
    for m in play.movements:
        card = state.cards[m.serial].name if m.serial else ""
        if m.serial and m.target == "pot" and m.source.startswith("hand"):
            parts.append(f"{'leave' if f.get('bust') == 'stand' else 'put'} your {card} on "
                         "the pot")
        elif m.serial and m.target == "out" and play.kind == "play":
            parts.append(f"put your {card} out of the game")
    if play.kind == "discard":
        parts.append(f"put {_names(state, f['cards'])} in the Void, out of the game")
    if f.get("reshuffled"):
        back = [m.serial for m in play.movements if m.source == "pot" and m.serial]
        if f.get("drew_first"):
            parts.append(f"draw the last {words.count(f['drew_first'], 'card')} of your deck")
        parts.append(f"shuffle your {_names(state, back)} from the pot (not the top card) "
                     "into a new deck")
        if f["drew"] - f["drew_first"]:
            parts.append(f"draw {f['drew'] - f['drew_first']}")
    elif f.get("drew"):
        parts.append(f"draw {f['drew']}")
    if gone:
        parts.append("put your hand and your deck out of the game")
    lines = [f"{state.name(seat)}: {', then '.join(parts)}."] if parts else []
    if play.outcome == "burden" and play.kind == "play" and not f.get("lapsed"):
        lines.append(f"{state.name(f['burdened'])}: discard one card of your choice: lay it "
                     "face up in the Void.")
    return lines


def undo(state: GodNumState, movements: Sequence[Movement], discard: bool = False
         ) -> list[str]:
    """What to do physically when a play is undone: its movements reversed, newest first
    (``discard``: the cards out of the game lie in the Void)."""
    out: list[str] = []
    for m in reversed(movements):
        src_kind, _, src_seat = m.source.partition(":")
        dst_kind, _, dst_seat = m.target.partition(":")
        who = state.name(int(src_seat or dst_seat)) if (src_seat or dst_seat) else "Referee"
        what = (f"your {state.cards[m.serial].name}" if m.serial
                else words.count(m.count, "card"))
        if src_kind == "deck" and dst_kind == "hand":
            out.append(f"{who}: put {what} from your hand back on your deck.")
        elif src_kind == "hand" and dst_kind == "pot":
            out.append(f"{who}: take {what} back from the pot into your hand.")
        elif src_kind == "hand" and dst_kind == "out" and discard and m.serial:
            out.append(f"{who}: take {what} back from the Void into your hand.")
        elif src_kind == "hand" and dst_kind == "out":
            out.append(f"{who}: take {what} back into your hand from out of the game.")
        elif src_kind == "deck" and dst_kind == "out":
            out.append(f"{who}: take {what} back from out of the game as your deck.")
        elif src_kind == "pot" and dst_kind == "deck":
            out.append(f"{who}: take {what} out of your deck and put it back on the pot, "
                       "under the top card.")
    return out


def prompt(state: GodNumState) -> str:
    """What the table waits for, in plain words."""
    if state.finished:
        return f"Game over: {words.names([state.name(w) for w in state.winners])} wins."
    if state.target is None:
        return "The companion draws the target divine number."
    if state.turn is None:
        return "The companion draws the starting player."
    who = state.name(state.turn)
    if state.burdened:
        return f"{who}: discard one card of your choice: lay it face up in the Void (Burden)."
    if state.discarding:
        return f"{who}: discard more cards face up in the Void, or end your turn."
    if state.legion(state.turn).hand_count == 0:
        return f"{who} has no cards: pass."
    return (f"{who}: play one card (lay it face up on the pot), or discard one or more (lay "
            "them face up in the Void).")
